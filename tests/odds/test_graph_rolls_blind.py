"""A combat roll's outcomes remembered blind to the other player's part (issue 24, 24AE-1;
rulesets/ti4/rolls_blind.py ``ROLLS_BLIND``; docs/architecture.md, "The odds engine", 1.).

A round's rolls taken player by player (``split_rolls``) play each outcome of the attacker's and
the defender's combat rolls by the real Roll Dice procedure (ti4-space-combat.md step 3) at
every chance state they take. A roll reads of the other player's part only what its pool says
(``combat_pool``, the roll changers keyed by what they read, ``roll_key``), where no handler
keeps it group by group or aims its hits; its outcomes are now played once for each state
alike but for the other player's units and purse, with the same pool, and put back. These tests
check that the graph is the same, chance state for chance state and edge for edge with exact
weights, and the odds the same as fractions, with the switch on and off: the Crown of Thalnos
(its holder's units lost to its own roll), the Hacan flagship (trade goods spent on its roll),
the Winnu flagship (whose dice are the opponent's non-fighter ships: its pool reads the other
player's part), War Funding Omega once played (the window after the rolls), the Mentak flagship
(the paired tables).
"""

from __future__ import annotations

from typing import Any

import pytest
from benchmarks.faction_exact import battles

from spacecombat.rulesets.ti4 import rolls_blind
from tests.ti4.switched import fractions_on_and_off

from .same_graph import switched_graphs
from .test_graph_passed_states import BATTLES
from .test_graph_splits import HACAN_AND_CROWN, MENTAK_DEFENDS, _explore

#: the Winnu flagship rolls a die for each of the opponent's non-fighter ships (its
#: ``roll_key``): the attacker's roll differs with the defender's part, the roll's pool with it
WINNU_FLAGSHIP: dict[str, Any] = {
    "ruleset": "ti4",
    "battle": "space",
    "attacker": {
        "units": {"flagship": 1, "destroyer": 1},
        "faction": "winnu",
        "relics": ["the_crown_of_thalnos"],
        "policy": {"sustain": "first"},
    },
    "defender": {
        "units": {"cruiser": 2, "destroyer": 1, "fighter": 1},
        "policy": {"sustain": "first"},
    },
}

CASES: dict[str, dict[str, Any]] = {
    "crown of thalnos": BATTLES["crown of thalnos"],
    "duranium armor": BATTLES["duranium armor"],
    "hacan flagship and crown": HACAN_AND_CROWN,
    "winnu flagship": WINNU_FLAGSHIP,
    "war funding omega": BATTLES["war funding omega"],
    "mentak flagship defends": MENTAK_DEFENDS,
}


def _played(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """A count of the rolls played by the real procedure (``rolls_blind._played``)."""
    count = [0]
    real = rolls_blind._played

    def counted(*args: Any) -> Any:
        count[0] += 1
        return real(*args)

    monkeypatch.setattr(rolls_blind, "_played", counted)
    return count


def _same_graph(scenario: dict[str, Any], monkeypatch: pytest.MonkeyPatch) -> tuple[int, int]:
    """The same graph with the roll's outcomes remembered and played afresh, the same chance
    states split; how many rolls were played each way (off, on)."""
    played = _played(monkeypatch)
    counts: list[int] = []

    def explore() -> Any:
        before = played[0]
        found = _explore(scenario, True, monkeypatch)
        counts.append(played[0] - before)
        return found

    (_, _, before), (_, _, taken) = switched_graphs(
        explore, rolls_blind, "ROLLS_BLIND", monkeypatch
    )
    assert taken == before > 0
    return counts[0], counts[1]


@pytest.mark.parametrize("name", sorted(CASES))
def test_the_outcomes_remembered_build_the_same_graph(
    name: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    off, on = _same_graph(CASES[name], monkeypatch)
    assert on <= off


def test_the_crown_of_thalnos_plays_fewer_rolls(monkeypatch: pytest.MonkeyPatch) -> None:
    """The players' parts meet in many pairs: each roll is played once for each of its own."""
    off, on = _same_graph(BATTLES["crown of thalnos"], monkeypatch)
    assert on < off


def test_the_winnu_flagship_keeps_its_rolls_apart(monkeypatch: pytest.MonkeyPatch) -> None:
    """The flagship's pool reads the defender's non-fighter ships: the attacker's roll meets
    the same state without the defender's part with several numbers of them, which only the
    pool in the key keeps apart; the graph is the same (above)."""
    setups: list[Any] = []
    real = rolls_blind.outcomes

    def seen(setup: Any, node: Any, state: Any, exact: bool) -> Any:
        setups.append(setup)
        return real(setup, node, state, exact)

    monkeypatch.setattr(rolls_blind, "outcomes", seen)
    _explore(WINNU_FLAGSHIP, True, monkeypatch)
    pools: dict[object, set[object]] = {}
    for setup in {id(s): s for s in setups}.values():
        for key in setup.memo:
            if isinstance(key, tuple) and key[0] == "rolls_blind":
                pools.setdefault(key[2], set()).add(key[3])
    assert any(len(kept) > 1 for kept in pools.values())


def test_the_odds_are_the_same_as_fractions(monkeypatch: pytest.MonkeyPatch) -> None:
    for scenario in (WINNU_FLAGSHIP, HACAN_AND_CROWN):
        on, off = fractions_on_and_off(scenario, rolls_blind, "ROLLS_BLIND", monkeypatch)
        assert on.to_json() == off.to_json()


@pytest.mark.slow
def test_the_faction_mix_battle_gives_the_same_graph(monkeypatch: pytest.MonkeyPatch) -> None:
    """No. 159 of the faction mix (benchmarks/faction_exact.py, seed 2026: the Crown of Thalnos
    beside Duranium Armor): the same graph, each roll played for a seventh of the chance states."""
    scenario = battles(160, 2026)[159]
    off, on = _same_graph(scenario, monkeypatch)
    assert 5 * on < off
