"""The stalemate check answered without its paths where the handlers acting in the rounds give
the side not favoured nothing back on the favoured side's path (issue 24, docs/rulings.md
24AF-1, 24AF-2; rulesets/ti4/procedures/stalemate_paths.py ``passed_over``, ``DECLARED``;
abilities/base.py ``Handler.never_stalls_on``; ti4-space-combat-wiki.md FAQ, "if neither side
can possibly win ... the attacker must retreat"; docs/rulings.md R20, 24Y-3, 24AC-3).

A side "can win" if the combat ends on the path where it hits with every die and the other side
never hits. Intercept, Rout and Skilled Retreat only stop, force or make a retreat (or end the
combat); Direct Hit, the Mentak flagship, the L1Z1X flagship and Raid Formation only take more
from their owner's opponent through their owner's hits; Courageous to the End rolls its owner's
dice; Rear Admiral Farran gives its owner a trade good; the Yin flagship, destroyed, ends the
space combat: on either player's path they give the side not favoured no hit point back
(24AF-1). Reflective Shielding produces hits against its owner's opponent: passed over on its
owner's path only; the Winnu flagship's dice fall with its opponent's non-fighter ships: on the
other player's path only. Viscount Unlenn and Munitions Reserves add to their owner's dice
(``never_stalls``); Emergency Repairs, the Letnev and Empyrean flagships' repairs, Shields
Holding, the Tellurian and Reveal Prototype change only their owner's units
(``never_stalls_for_owner``, 24AF-2).
Checked here: every check so answered, over battles made by hand and faction-mix battles
holding the cards, is the answer of that side's path followed afresh; every check's answer, in
order, and the reports (exact fractions) are the same with the declarations off; and a card
that can keep a combat going (Duranium Armor, on the other side's path), were it declared, is
caught by these very comparisons.
"""

from __future__ import annotations

from typing import Any

import pytest
from benchmarks.faction_exact import battles

from spacecombat import odds
from spacecombat.rulesets import parse_ti_scenario
from spacecombat.rulesets.ti4.abilities.base import Handler
from spacecombat.rulesets.ti4.abilities.duranium_armor import DuraniumArmor
from spacecombat.rulesets.ti4.effects import combat_pool
from spacecombat.rulesets.ti4.procedures import stalemate, stalemate_bounded, stalemate_paths
from spacecombat.rulesets.ti4.setup import BattleSetup, build
from spacecombat.rulesets.ti4.sides import SIDES, Side
from spacecombat.rulesets.ti4.state import BattleState
from tests.helpers import space
from tests.ti4.switched import shortcut_checked, stalemate_answers

HOME = {"name": "home", "units": ["attacker", "defender"]}

#: the Mentak flagship, Intercept and Direct Hit against dreadnoughts with Duranium Armor,
#: Shields Holding and Emergency Repairs: the defender's path is passed over (the Mentak
#: cards on the other player's path, the defender's own on their owner's); the attacker's is
#: followed (Duranium Armor's repairs of the other side's units)
MENTAK: dict[str, Any] = {
    "ruleset": "ti4",
    "battle": "space",
    "attacker": {
        "faction": "mentak",
        "units": {"flagship": 1, "cruiser": 1},
        "action_cards": ["intercept", "direct_hit"],
    },
    "defender": {
        "units": {"dreadnought": 2, "destroyer": 1},
        "technologies": ["duranium_armor"],
        "action_cards": ["shields_holding", "emergency_repairs"],
        "policy": {"sustain": "first"},
    },
}

#: Reflective Shielding and Courageous to the End against Rout, Skilled Retreat and
#: Intercept: the attacker's path is passed over; the defender's is followed (Reflective
#: Shielding's hits would reach the defender there)
RETREATS: dict[str, Any] = {
    "ruleset": "ti4",
    "battle": "space",
    "system": {"adjacent": [HOME]},
    "attacker": {
        "units": {"cruiser": 2, "dreadnought": 1},
        "action_cards": ["reflective_shielding", "courageous_to_the_end"],
        "policy": {"sustain": "first"},
    },
    "defender": {
        "units": {"destroyer": 2, "dreadnought": 1},
        "action_cards": ["rout", "skilled_retreat", "intercept"],
        "policy": {"play": {"skilled_retreat": {"round": 3}, "rout": {"round": 2}}},
    },
}

#: the L1Z1X flagship, Rear Admiral Farran and Viscount Unlenn against the Argent's Raid
#: Formation: both paths passed over (24AC-3's reading; and 24Y-3's, since Harrow, which acts
#: only in invasions, is out of play in a space combat: 24AJ-1)
L1Z1X: dict[str, Any] = {
    "ruleset": "ti4",
    "battle": "space",
    "attacker": {
        "faction": "l1z1x",
        "units": {"flagship": 1, "fighter": 2},
        "leaders": ["rear_admiral_farran", "viscount_unlenn"],
    },
    "defender": {
        "faction": "argent",
        "units": {"destroyer": 2, "carrier": 1, "fighter": 1},
        "policy": {"sustain": "first"},
    },
}

#: the Yin flagship (and Devotion) against the Letnev flagship's repairs and Munitions
#: Reserves: the Letnev player's path is passed over (24AC-3's reading: the Yin flagship
#: destroyed ends the combat; the Letnev repairs are its owner's); the Yin player's is
#: followed (the Letnev flagship's repairs, the other side's there)
YIN_LETNEV: dict[str, Any] = {
    "ruleset": "ti4",
    "battle": "space",
    "attacker": {"faction": "yin", "units": {"flagship": 1, "destroyer": 1}},
    "defender": {
        "faction": "letnev",
        "units": {"flagship": 1, "cruiser": 1},
        "trade_goods": 4,
        "policy": {"sustain": "first"},
    },
}

#: the Empyrean flagship's repairs against the Winnu flagship's dice: the Empyrean player's
#: path is passed over; the Winnu player's is followed (the Winnu flagship declares the other
#: player's path only: on its owner's its dice fall with the opponent's non-fighter ships)
EMPYREAN_WINNU: dict[str, Any] = {
    "ruleset": "ti4",
    "battle": "space",
    "attacker": {
        "faction": "empyrean",
        "units": {"flagship": 1, "cruiser": 1},
        "influence": 4,
        "policy": {"sustain": "first"},
    },
    "defender": {"faction": "winnu", "units": {"flagship": 1, "fighter": 2}},
}

CASES = {
    "mentak": MENTAK,
    "retreats": RETREATS,
    "l1z1x": L1Z1X,
    "yin_letnev": YIN_LETNEV,
    "empyrean_winnu": EMPYREAN_WINNU,
}

#: the paths answered at once in each: by 24Y-3's reading (``_never_stalling``), by 24AC-3's
#: (``stalemate_bounded._declared``)
PASSED = {
    "mentak": ((Side.DEFENDER,), (Side.DEFENDER,)),
    "retreats": ((Side.ATTACKER,), (Side.ATTACKER,)),
    "l1z1x": (SIDES, SIDES),
    "yin_letnev": ((), (Side.DEFENDER,)),
    "empyrean_winnu": ((Side.ATTACKER,), (Side.ATTACKER,)),
}

#: faction-mix battles (seed 2026) holding the cards, each with the switch that turns its
#: declarations off: no. 20 (Direct Hit and Reflective Shielding), 53 (Raid Formation and
#: Rout beside the Crown of Thalnos), 54 (Intercept), 110 (Skilled Retreat); no. 51 (an
#: invasion: the Tellurian and Reveal Prototype, 24AF-2, under 24Y-3's switch)
FACTION_MIX = {20: "paths", 53: "paths", 54: "paths", 110: "paths", 51: "24Y-3"}


def _setup(scenario: dict[str, Any]) -> BattleSetup:
    return build(parse_ti_scenario(scenario)).for_stock_policies()


def _shortcut(setup: BattleSetup, state: BattleState, side: Side) -> bool:
    """Whether the check answers "``side`` can win" from ``state`` without following a path
    (procedures/stalemate.py ``_neither``)."""
    return (
        stalemate._never_stalling(setup, side) and combat_pool(setup, state, side).max_hits > 0
    ) or stalemate_bounded.ends_where_all_hit(setup, state, side)


def _answered_where_declared(
    scenario: dict[str, Any], monkeypatch: pytest.MonkeyPatch
) -> tuple[int, int]:
    """Every check the shortcut answers, against the favoured side's path followed afresh;
    how many checks, and how many so answered."""
    return shortcut_checked(scenario, _shortcut, monkeypatch)


def _answers(
    scenario: dict[str, Any], switch: str, on: bool, mp: pytest.MonkeyPatch
) -> tuple[list[bool], Any]:
    """Every answer of the check in order and the report, with the declarations of ``switch``
    ("paths": 24AF-1's ``stalemate_paths.DECLARED``; "24Y-3": ``stalemate.DECLARED``) on or
    off."""
    if switch == "paths":
        with mp.context() as patched:
            patched.setattr(stalemate_paths, "DECLARED", on)
            return stalemate_answers(scenario, "DECLARED", True, patched)
    return stalemate_answers(scenario, "DECLARED", on, mp)


@pytest.mark.parametrize("name", sorted(CASES))
def test_the_paths_passed_over_are_those_named(name: str) -> None:
    setup = _setup(CASES[name])
    never, bounded = PASSED[name]
    assert tuple(s for s in SIDES if stalemate._never_stalling(setup, s)) == never
    assert tuple(s for s in SIDES if stalemate_bounded._declared(setup, s) is not None) == bounded


@pytest.mark.parametrize("name", sorted(CASES))
def test_with_the_switch_off_fewer_paths_are_passed_over(
    name: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Each of these battles holds a card only 24AF-1 passes over."""
    monkeypatch.setattr(stalemate_paths, "DECLARED", False)
    setup = _setup(CASES[name])
    never = {s for s in SIDES if stalemate._never_stalling(setup, s)}
    bounded = {s for s in SIDES if stalemate_bounded._declared(setup, s) is not None}
    on_never, on_bounded = PASSED[name]
    assert never <= set(on_never)
    assert bounded <= set(on_bounded)
    assert (never, bounded) != (set(on_never), set(on_bounded))


@pytest.mark.parametrize("name", sorted(CASES))
def test_every_answer_declared_is_the_one_the_path_gives(
    name: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    asked, answered = _answered_where_declared(CASES[name], monkeypatch)
    assert 0 < answered <= 2 * asked


@pytest.mark.parametrize("name", sorted(CASES))
def test_the_same_answers_and_odds(name: str, monkeypatch: pytest.MonkeyPatch) -> None:
    on = _answers(CASES[name], "paths", True, monkeypatch)
    assert on == _answers(CASES[name], "paths", False, monkeypatch)
    assert on[0]  # (the check was asked)


def test_the_owners_paths_only_where_so_declared() -> None:
    """Reflective Shielding is passed over on its owner's path, not on the other's (its hits
    would reach the favoured side there); Intercept on both."""
    setup = _setup(RETREATS)
    reflective = _held(setup, "ReflectiveShielding")
    intercept = _held(setup, "Intercept")
    assert stalemate_paths.passed_over(setup, reflective, Side.ATTACKER)
    assert not stalemate_paths.passed_over(setup, reflective, Side.DEFENDER)
    assert stalemate_paths.passed_over(setup, intercept, Side.ATTACKER)
    assert stalemate_paths.passed_over(setup, intercept, Side.DEFENDER)


def test_only_in_a_space_combat() -> None:
    """An invasion's path goes on into its ground combat, which 24AF-1 does not read."""
    scenario = {
        "ruleset": "ti4",
        "battle": "invasion",
        "attacker": {
            "units": {"cruiser": 2, "carrier": 1, "infantry": 2},
            "action_cards": ["intercept"],
        },
        "defender": {"units": {"infantry": 1}},
    }
    setup = _setup(scenario)
    assert setup.kind == "invasion"
    intercept = _held(setup, "Intercept")
    assert not stalemate_paths.passed_over(setup, intercept, Side.ATTACKER)


def _held(setup: BattleSetup, kind: str) -> Handler:
    (handler,) = (h for h in setup.handlers if type(h).__name__ == kind)
    return handler


#: ti4-space-combat-wiki.md FAQ (docs/rulings.md R20): two dreadnoughts with Non-Euclidean
#: Shielding and Duranium Armor a side, which no side can win
STALEMATE = space(
    {"units": "2 dreadnought", "technologies": ["non_euclidean_shielding", "duranium_armor"]},
    {"units": "2 dreadnought", "technologies": ["non_euclidean_shielding", "duranium_armor"]},
)


def _first_check(
    scenario: dict[str, Any], mp: pytest.MonkeyPatch
) -> tuple[tuple[bool, ...], tuple[bool, ...]]:
    """At the first check of the battle, for each side: whether it is answered without its
    path, and whether its path followed afresh ends."""
    neither = stalemate._neither
    first: list[tuple[tuple[bool, ...], tuple[bool, ...]]] = []

    def kept(setup: BattleSetup, state: BattleState) -> bool:
        if not first:
            short = tuple(_shortcut(setup, state, s) for s in SIDES)
            first.append((short, tuple(stalemate._can_end(setup, state, s) for s in SIDES)))
        return neither(setup, state)

    with mp.context() as patched:
        patched.setattr(stalemate, "_neither", kept)
        odds(scenario, fallback=False)
    return first[0]


def test_a_card_that_can_keep_a_combat_going_declared_is_caught(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Duranium Armor repairs its owner's units: on the other side's path its repairs keep the
    FAQ's combat going. Declared for both paths (wrongly), the check would answer "a side can
    win" where no path ends: the comparisons of this file fail."""
    assert _first_check(STALEMATE, monkeypatch) == ((False, False), (False, False))
    right = _answers(STALEMATE, "paths", True, monkeypatch)
    assert right == _answers(STALEMATE, "paths", False, monkeypatch)
    assert True in right[0]  # (the stalemate found)

    monkeypatch.setattr(DuraniumArmor, "never_stalls_on", frozenset({"owner", "other"}))
    assert _first_check(STALEMATE, monkeypatch) == ((True, True), (False, False))
    with pytest.raises(AssertionError):
        _answered_where_declared(STALEMATE, monkeypatch)
    assert _answers(STALEMATE, "paths", True, monkeypatch) != right


@pytest.fixture(scope="module")
def drawn() -> list[dict[str, Any]]:
    return battles(max(FACTION_MIX) + 1, 2026)


@pytest.mark.slow
@pytest.mark.parametrize("n", sorted(FACTION_MIX))
def test_the_faction_mix_battles(
    n: int, drawn: list[dict[str, Any]], monkeypatch: pytest.MonkeyPatch
) -> None:
    """Every check so answered is its path's, and the same answers and odds with the
    declarations off."""
    scenario = drawn[n]
    asked, answered = _answered_where_declared(scenario, monkeypatch)
    assert 0 < answered <= 2 * asked
    switch = FACTION_MIX[n]
    on = _answers(scenario, switch, True, monkeypatch)
    assert on == _answers(scenario, switch, False, monkeypatch)
