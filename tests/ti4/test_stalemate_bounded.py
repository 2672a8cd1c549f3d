"""The stalemate check answered without its paths where the handlers acting in the rounds only
take units away or place a few (issue 24, docs/rulings.md 24AC-3; rulesets/ti4/procedures/
stalemate_bounded.py ``ends_where_all_hit``, ``DECLARED``; abilities/base.py
``Handler.never_stalls_where_all_hit``; docs/rulings.md R20, 24Y-3).

A side "can win" if the combat ends on the path where it hits with every die and the other side
never hits. Devotion (it destroys one of its owner's cruisers or destroyers to produce a hit)
and Brother Milor (2 fighters placed for its holder, once) declare that they take units away or
place a bounded number of them for their owner; the round boosts (Fighter Prototype, Morale
Boost, Supercharge) only add to their holder's dice (24Y-3); Indoctrination is asked only at the
start of a ground combat. Where every handler acting in the rounds is one of these, none able
to place units for the other side, and every die the favoured side may roll can hit, its path
ends. Checked here: every check so answered over no. 256 of the faction mix and a small battle
is the answer of that side's path followed afresh; every check's answer, in order, and the
reports (exact fractions) are the same with the shortcut off; where Brother Milor may still
place fighters for the other side, the path is followed.
"""

from __future__ import annotations

from typing import Any

import pytest

from spacecombat.rulesets import battle, parse_scenario
from spacecombat.rulesets.ti4.abilities.base import HANDLERS
from spacecombat.rulesets.ti4.battle import Ti4Battle
from spacecombat.rulesets.ti4.procedures import stalemate_bounded
from spacecombat.rulesets.ti4.setup import BattleSetup
from spacecombat.rulesets.ti4.sides import Side
from spacecombat.rulesets.ti4.state import BattleState
from tests.odds.test_graph_joins import CROWN_AND_BROTHER_MILOR
from tests.ti4.switched import shortcut_checked, stalemate_answers

#: the Yin's Devotion and Brother Milor, its opponent's Morale Boost
DEVOTION: dict[str, Any] = {
    "ruleset": "ti4",
    "battle": "space",
    "attacker": {
        "units": {"dreadnought": 1, "cruiser": 1, "destroyer": 1},
        "action_cards": ["morale_boost"],
        "policy": {"sustain": "first"},
    },
    "defender": {
        "faction": "yin",
        "units": {"cruiser": 2, "destroyer": 1, "fighter": 1},
        "leaders": ["brother_milor"],
    },
}

CASES = {"devotion": DEVOTION}


def _answered_where_declared(
    scenario: dict[str, Any], monkeypatch: pytest.MonkeyPatch
) -> tuple[int, int]:
    """Every check the shortcut answers, against the favoured side's path followed afresh;
    how many checks, and how many so answered."""
    return shortcut_checked(scenario, stalemate_bounded.ends_where_all_hit, monkeypatch)


@pytest.mark.parametrize("name", sorted(CASES))
def test_every_answer_declared_is_the_one_the_path_gives(
    name: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    asked, answered = _answered_where_declared(CASES[name], monkeypatch)
    assert 0 < answered <= 2 * asked


@pytest.mark.parametrize("name", sorted(CASES))
def test_the_same_answers_and_odds(name: str, monkeypatch: pytest.MonkeyPatch) -> None:
    def answers(on: bool) -> tuple[list[bool], Any]:
        monkeypatch.setattr(stalemate_bounded, "DECLARED", on)
        return stalemate_answers(CASES[name], "DECLARED", True, monkeypatch)

    assert answers(True) == answers(False)


def _fought(scenario: dict[str, Any]) -> tuple[BattleSetup, BattleState]:
    fought = battle(parse_scenario(scenario))
    assert isinstance(fought, Ti4Battle)
    fought = fought.for_stock_policies()
    return fought.setup, fought.start().state


def test_brother_milor_held_by_the_other_side_is_not_passed_over() -> None:
    """Brother Milor still held may place 2 fighters for the Yin: on its opponent's path the
    Yin's hit points may come back, so that path is followed; on the Yin's own it ends."""
    setup, start = _fought(DEVOTION)
    assert not stalemate_bounded.ends_where_all_hit(setup, start, Side.ATTACKER)
    assert stalemate_bounded.ends_where_all_hit(setup, start, Side.DEFENDER)
    played = start.using(Side.DEFENDER, "brother_milor")
    assert stalemate_bounded.ends_where_all_hit(setup, played, Side.ATTACKER)


def test_only_ships_whose_dice_can_hit_count() -> None:
    """A ship's printed value with the setup's modifiers: a dreadnought hits; a ground force is
    no ship of the space combat."""
    setup, _ = _fought(DEVOTION)
    assert stalemate_bounded._every_die_hits(setup, Side.ATTACKER, "dreadnought")
    assert not stalemate_bounded._every_die_hits(setup, Side.ATTACKER, "infantry")


def test_a_handler_of_other_battles_is_never_asked(monkeypatch: pytest.MonkeyPatch) -> None:
    """Indoctrination acts at the start of a ground combat only. It is no longer put in play
    in a space combat at all (docs/rulings.md 24AJ-1); put in play as before, the check still
    passes over it."""
    assert "Indoctrination" not in {
        type(h).__name__ for h in _fought(CROWN_AND_BROTHER_MILOR)[0].handlers
    }
    monkeypatch.setattr(HANDLERS["indoctrination"], "battles", frozenset({"space", "invasion"}))
    setup, _ = _fought(CROWN_AND_BROTHER_MILOR)
    kinds = {type(h).__name__ for h in setup.handlers}
    assert "Indoctrination" in kinds
    found = stalemate_bounded._declared(setup, Side.ATTACKER)
    assert found is not None
    assert {type(h).__name__ for h, _ in found} == {"Devotion", "BrotherMilor"}


@pytest.mark.slow
def test_the_faction_mix_battle(monkeypatch: pytest.MonkeyPatch) -> None:
    """No. 256 of the faction mix: every check so answered is its path's, and the same answers
    and odds with the shortcut off."""
    asked, answered = _answered_where_declared(CROWN_AND_BROTHER_MILOR, monkeypatch)
    assert answered > asked // 2

    def answers(on: bool) -> tuple[list[bool], Any]:
        monkeypatch.setattr(stalemate_bounded, "DECLARED", on)
        return stalemate_answers(CROWN_AND_BROTHER_MILOR, "DECLARED", True, monkeypatch)

    assert answers(True) == answers(False)
