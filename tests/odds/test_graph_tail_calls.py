"""The parts after kept one object for each value, and Technological Singularity's idle check
remembered by all it reads (issue 24, 24AL-1 and 24AL-2; rulesets/ti4/split_rolls.py
``INTERNED``, abilities/technological_singularity.py ``IDLE_REMEMBERED``; docs/architecture.md
"24AL").

24AL-1: the split tables' parts after (each player's part once it has assigned the other's hits,
and settled, ti4-space-combat.md step 4) are looked up by value at every chance state; a part
equal to one met before but another object was compared field by field. They are now kept as
one object for each value: the same values, so the same graph, chance state for chance state and
edge for edge with exact weights, with the switch on and off (the Crown of Thalnos, Duranium
Armor, the Hacan flagship beside the Crown; no. 159 of the faction mix, slow).

24AL-2: Technological Singularity (the Nekro's: "after 1 of your opponent's units is destroyed,
you may gain 1 of that player's technologies", once a combat) is asked whether it is idle at
every step of the opponent's assignment of hits. Its answer reads the players, the phase and
the planet fought over, what was used, the combats still to come and both players' parts; it is
remembered by them. Checked: every answer given from the memory equals the answer worked out
afresh, and the graph is the same with the switch on and off (a Nekro attacker with something
to gain and with nothing; no. 24 of the faction mix, slow, with Courageous to the End).
"""

from __future__ import annotations

from typing import Any

import pytest
from benchmarks.faction_exact import battles

from spacecombat.analysis.graph import Explorer, StateGraph
from spacecombat.rulesets.ti4 import split_rolls
from spacecombat.rulesets.ti4.abilities import technological_singularity as singularity
from spacecombat.rulesets.ti4.setup import BattleSetup
from spacecombat.rulesets.ti4.sides import Side
from spacecombat.rulesets.ti4.state import BattleState

from .same_graph import switched_graphs
from .test_graph_leaps import IDLE
from .test_graph_passed_states import BATTLES
from .test_graph_splits import HACAN_AND_CROWN, _explore, _fought

SPLIT: dict[str, dict[str, Any]] = {
    "crown of thalnos": BATTLES["crown of thalnos"],
    "duranium armor": BATTLES["duranium armor"],
    "hacan flagship and crown": HACAN_AND_CROWN,
}

NEKRO: dict[str, dict[str, Any]] = {
    "something to gain": IDLE["technological_singularity"],
    "nothing to gain": IDLE["technological_singularity_nothing_to_gain"],
}


def _whole(scenario: dict[str, Any]) -> tuple[StateGraph[Any], Explorer[Any], int]:
    """The whole graph (exact weights, rolls folded and split)."""
    fought = _fought(scenario)
    explorer: Explorer[Any] = Explorer(
        fought, fought.stock_policies(), exact=True, limit=None, joins=True
    )
    return explorer.build(), explorer, 0


def _counting_interned(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """Count the parts ``_interned`` gave back as another object, equal to the one given."""
    swapped = [0]
    real = split_rolls._interned

    def counting(setup: BattleSetup, part: Any) -> Any:
        kept = real(setup, part)
        assert kept == part
        swapped[0] += kept is not part
        return kept

    monkeypatch.setattr(split_rolls, "_interned", counting)
    return swapped


@pytest.mark.parametrize("name", sorted(SPLIT))
def test_the_parts_interned_build_the_same_graph(
    name: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    swapped = _counting_interned(monkeypatch)
    (_, off, _), (_, on, _) = switched_graphs(
        lambda: _explore(SPLIT[name], True, monkeypatch), split_rolls, "INTERNED", monkeypatch
    )
    assert (on.steps, on.outcomes) == (off.steps, off.outcomes)
    if name != "crown of thalnos":
        assert swapped[0] > 0  # (equal parts met as other objects: kept as the first)


def _checking_idle(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """Check every remembered answer against the answer worked out afresh; count them."""
    asked = [0]
    real = singularity.TechnologicalSingularity.idle_while_assigning

    def checked(
        self: singularity.TechnologicalSingularity,
        setup: BattleSetup,
        state: BattleState,
        side: Side,
    ) -> bool:
        answer = real(self, setup, state, side)
        assert answer == self._idle_while_assigning(setup, state, side)
        asked[0] += 1
        return answer

    monkeypatch.setattr(singularity.TechnologicalSingularity, "idle_while_assigning", checked)
    return asked


@pytest.mark.parametrize("name", sorted(NEKRO))
def test_the_idle_check_remembered_answers_alike(
    name: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    asked = _checking_idle(monkeypatch)
    switched_graphs(lambda: _whole(NEKRO[name]), singularity, "IDLE_REMEMBERED", monkeypatch)
    assert asked[0] > 0


def test_the_idle_check_answers_both_ways() -> None:
    """With something to gain it is not idle while the opponent assigns; with nothing, it is
    (tests/odds/test_graph_leaps.py): the memory keeps both answers apart."""
    answers: dict[str, set[bool]] = {}
    for name, scenario in NEKRO.items():
        fought = _fought(scenario)
        explorer: Explorer[Any] = Explorer(
            fought, fought.stock_policies(), exact=True, limit=None, joins=True
        )
        explorer.build()
        setup = fought.setup
        answers[name] = {
            bool(v)
            for k, v in setup.memo.items()
            if isinstance(k, tuple) and k[0] == singularity._IDLE
        }
    assert answers["nothing to gain"] == {True}
    assert False in answers["something to gain"]


@pytest.mark.slow
def test_the_faction_mix_battles_give_the_same_graphs(monkeypatch: pytest.MonkeyPatch) -> None:
    """No. 159 of the faction mix (benchmarks/faction_exact.py, seed 2026: the Crown of Thalnos
    beside Duranium Armor) with ``INTERNED`` on and off; no. 24 (Technological Singularity and
    Courageous to the End against the Empyrean flagship) with ``IDLE_REMEMBERED`` on and off,
    every remembered answer checked."""
    drawn = battles(160, 2026)
    switched_graphs(
        lambda: _explore(drawn[159], True, monkeypatch), split_rolls, "INTERNED", monkeypatch
    )
    asked = _checking_idle(monkeypatch)
    switched_graphs(lambda: _whole(drawn[24]), singularity, "IDLE_REMEMBERED", monkeypatch)
    assert asked[0] > 0
