"""Hits War Funding Ω's reroll is about to replace, forgotten in the odds engine's canonical
states (rulesets/ti4/procedures/replaced_hits.py; data/cards.toml War Funding Ω: "reroll all of
your opponent's dice", docs/rulings.md 14C2-4, 14W-1, 24U-1).

The opponent's whole roll rolled again replaces their hits against the holder, and nothing reads
those hits before it does, so the states that differ only by them have the same future. Checked
here: the odds with the merge equal the odds without it (exact fractions, and every figure of
the report to 1e-12 over battles holding the card), and the state graph of a battle where the
holder rerolls the opponent's dice is smaller by the opponent's first outcomes.
"""

from __future__ import annotations

from typing import Any

import pytest

from spacecombat import rulesets
from spacecombat.analysis.graph import Explorer
from spacecombat.rulesets import parse_scenario
from spacecombat.rulesets.ti4.procedures import replaced_hits
from spacecombat.rulesets.ti4.state import Phase
from tests.sweep.test_cache import close
from tests.ti4.fast_path_battles import battles
from tests.ti4.switched import fractions_on_and_off, same_on_and_off

#: the attacker holds War Funding Ω: its stock policy rerolls the defender's dice where they
#: scored more hits than they are expected to (14W-3), and its own misses
HOLDER = {
    "ruleset": "ti4",
    "battle": "space",
    "attacker": {
        "units": {"dreadnought": 1, "cruiser": 1},
        "faction": "sol",
        "promissory_notes": ["war_funding_omega"],
    },
    "defender": {"units": {"cruiser": 2, "destroyer": 1}, "faction": "arborec"},
}


def same_with_and_without(scenario: dict[str, Any], monkeypatch: pytest.MonkeyPatch) -> bool:
    """The reports with and without the shortcut are equal; False if the battle is refused."""
    return same_on_and_off(scenario, replaced_hits, "FORGET", monkeypatch)


def rerolls_of_theirs(forget: bool, monkeypatch: pytest.MonkeyPatch) -> tuple[int, int]:
    """The chance states of ``HOLDER``'s graph, and how many are the reroll of the defender's
    dice (the timing window with War Funding Ω's "theirs" next)."""
    monkeypatch.setattr(replaced_hits, "FORGET", forget)
    battle = rulesets.battle(parse_scenario(HOLDER))
    states = Explorer(battle, battle.stock_policies(), exact=True, joins=True).build().states
    theirs = sum(
        1
        for s in states
        if s.phase is Phase.TIMING_WINDOW and s.following and s.following[0].detail == "theirs"
    )
    return len(states), theirs


def test_the_reroll_of_theirs_is_one_chance_state_per_own_outcome(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The attacker's dreadnought and cruiser score 0-2 hits; the defender's two cruisers and
    destroyer 0-3, and the holder rerolls them where they scored 2 or 3 (more than the 1 they
    are expected to: 2 x 4/10 + 2/10). Without the merge the reroll is a chance state for each
    pair (own hits, their hits) met; with it, one for each of the holder's own outcomes (its
    kept roll) alone."""
    states_without, theirs_without = rerolls_of_theirs(False, monkeypatch)
    states_with, theirs_with = rerolls_of_theirs(True, monkeypatch)
    assert theirs_without > theirs_with > 0
    assert states_without - states_with == theirs_without - theirs_with


def test_the_same_odds_as_fractions(monkeypatch: pytest.MonkeyPatch) -> None:
    merged, without = fractions_on_and_off(HOLDER, replaced_hits, "FORGET", monkeypatch)
    # the headline probabilities as fractions; the rounds' distribution is pushed in floats
    assert merged.fractions_json() == without.fractions_json()
    close(merged.to_json(), without.to_json())


def test_battles_holding_war_funding_omega(monkeypatch: pytest.MonkeyPatch) -> None:
    compared = sum(
        same_with_and_without(s, monkeypatch) for _, s in battles("war_funding_omega", 6, seed=24)
    )
    assert compared > 0
