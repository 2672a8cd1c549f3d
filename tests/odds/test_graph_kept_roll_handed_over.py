"""Courageous to the End's roll followed blind through the end of the attacker's assignment, and
the kept roll's misses keyed once per record (issue 24, 24AH-1 and 24AH-2;
rulesets/ti4/kept_roll_blind.py ``_handed_over``, procedures/kept_roll_alike.py ``REMEMBER``;
docs/architecture.md "24AH").

24AH-1: Courageous to the End (data/cards.toml: "after one of your ships is destroyed during a
space combat, roll 2 dice; for each result equal to or greater than that ship's combat value,
your opponent must choose and destroy 1 of their ships") rolled while the attacker assigns is
followed blind to the hits against the defender (24AD-3). Once the attacker has no hit left
against it, the step that ends its assignment hands the turn to the defender (ti4-space-combat.md
step 4) and reads the attacker's part alone, so it is taken once for the states alike but for
those hits. Checked with ``HANDED_OVER`` on and off: the same graph, chance state for chance
state and edge for edge with exact weights, in fewer steps of the rules; with the defender
holding the card the defender's own end reads the hits against the attacker (27U-1) and the step
is not taken (taking it there builds another graph: checked by taking it).

24AH-2: War Funding Ω's holder's record keyed by its misses (24AD-2) is worked out once per
record: the same graph with ``REMEMBER`` on and off.

The card's offer (14W-3: the largest expected gain first, ties in the order "reroll theirs and
my misses", "reroll my misses", "reroll theirs"; pass first where the best gains nothing) is
checked against the way it was worked out before, on hand-made gains.
"""

from __future__ import annotations

from fractions import Fraction
from itertools import product
from typing import Any

import pytest
from benchmarks.faction_exact import battles

from spacecombat.analysis.graph import Explorer, StateGraph
from spacecombat.rulesets.ti4 import kept_roll_blind
from spacecombat.rulesets.ti4.abilities import war_funding_omega as omega
from spacecombat.rulesets.ti4.procedures import kept_roll_alike
from spacecombat.rulesets.ti4.sides import Side

from .test_graph_kept_roll_blind import COURAGEOUS, DEFENDER_HOLDS
from .test_graph_splits import _fought


def _graph(
    scenario: dict[str, Any], module: Any, name: str, on: bool, mp: pytest.MonkeyPatch
) -> tuple[StateGraph[Any], Explorer[Any]]:
    """The whole graph (exact weights, rolls folded and split) with ``module.name`` ``on``."""
    fought = _fought(scenario)
    with mp.context() as patched:
        patched.setattr(module, name, on)
        explorer: Explorer[Any] = Explorer(
            fought, fought.stock_policies(), exact=True, limit=None, joins=True
        )
        return explorer.build(), explorer


def _counted(mp: pytest.MonkeyPatch) -> list[int]:
    """Count the steps ``_handed_over`` takes."""
    taken = [0]
    handed = kept_roll_blind._handed_over

    def counting(*args: Any) -> Any:
        before = args[2]
        after = handed(*args)
        taken[0] += after is not before
        return after

    mp.setattr(kept_roll_blind, "_handed_over", counting)
    return taken


def test_the_same_graph_with_the_attackers_end_taken_blind(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The attacker holds the card (with Reflective Shielding's hits added by the walk): the
    same graph edge for edge, the step taken, fewer steps of the rules."""
    scenario = COURAGEOUS["attacker holds"]
    taken = _counted(monkeypatch)
    off, walked = _graph(scenario, kept_roll_blind, "HANDED_OVER", False, monkeypatch)
    assert taken[0] == 0
    on, blind = _graph(scenario, kept_roll_blind, "HANDED_OVER", True, monkeypatch)
    assert taken[0] > 0
    assert on.states == off.states
    assert on.start == off.start
    assert on.edges == off.edges
    assert blind.steps < walked.steps


def test_not_taken_where_the_defender_assigns_with_the_card(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The defender holds the card: its end reads the hits against the attacker (those the
    defender's effects produced meanwhile are the attacker's to assign, 27U-1), so the step is
    not taken, and the graph is the one without it."""
    scenario = COURAGEOUS["defender holds"]
    taken = _counted(monkeypatch)
    off, _ = _graph(scenario, kept_roll_blind, "HANDED_OVER", False, monkeypatch)
    on, _ = _graph(scenario, kept_roll_blind, "HANDED_OVER", True, monkeypatch)
    assert taken[0] == 0
    assert on.edges == off.edges
    assert on.states == off.states
    # nor with the attacker's guard lifted: the defender's end then goes to the window after
    # the assignment (or back to the attacker), never a plain step to the other's turn
    with monkeypatch.context() as lifted:
        lifted.setattr(kept_roll_blind, "_ENDS_BLIND", frozenset(Side))
        _graph(scenario, kept_roll_blind, "HANDED_OVER", True, monkeypatch)
    assert taken[0] == 0


@pytest.mark.slow
def test_the_faction_mix_battle_no_24(monkeypatch: pytest.MonkeyPatch) -> None:
    """No. 24 of the faction mix (the Nekro attack with Courageous to the End against the
    Empyrean flagship): the same graph edge for edge, in fewer steps."""
    scenario = battles(25, 2026)[24]
    assert "courageous_to_the_end" in str(scenario["attacker"])
    off, walked = _graph(scenario, kept_roll_blind, "HANDED_OVER", False, monkeypatch)
    on, blind = _graph(scenario, kept_roll_blind, "HANDED_OVER", True, monkeypatch)
    assert on.states == off.states
    assert on.edges == off.edges
    assert blind.steps < walked.steps * 0.9


def test_the_records_keyed_once_build_the_same_graph(monkeypatch: pytest.MonkeyPatch) -> None:
    """War Funding Ω held by the defender (three groups kept): the same graph with the
    records keyed by their misses remembered and worked out afresh."""
    off, _ = _graph(DEFENDER_HOLDS, kept_roll_alike, "REMEMBER", False, monkeypatch)
    on, _ = _graph(DEFENDER_HOLDS, kept_roll_alike, "REMEMBER", True, monkeypatch)
    assert on.states == off.states
    assert on.edges == off.edges


def _offer_before(theirs: Fraction | None, mine: Fraction | None) -> omega.Offer | None:
    """The card's offer as it was worked out before 24AH (each way's gain a sum from 0, the
    ways sorted by their negated gains)."""
    gains: dict[str, Fraction] = {}
    if theirs is not None:
        gains[omega.THEIRS] = theirs
    if mine is not None:
        gains[omega.MINE] = mine
    if not gains:
        return None
    offered = [way for way in omega.LABELS if all(part in gains for part in way)]
    gain = {way: sum((gains[part] for part in way), Fraction(0)) for way in offered}
    offered.sort(key=lambda way: -gain[way])
    facts = {omega.LABELS[w]: str(gain[w]) for w in offered}
    return tuple(offered), gain[offered[0]] <= 0, facts


@pytest.mark.parametrize(
    ("theirs", "mine"),
    list(
        product(
            [None, Fraction(-3, 2), Fraction(-1, 2), Fraction(0), Fraction(1, 2), Fraction(7, 6)],
            [None, Fraction(0), Fraction(1, 2), Fraction(3, 2)],
        )
    ),
)
def test_the_offer_is_the_one_worked_out_before(
    theirs: Fraction | None, mine: Fraction | None
) -> None:
    """14W-3's order, ties (equal gains) and pass first, on hand-made gains: the same ways in
    the same order, the same facts."""
    assert omega._offer(theirs, mine) == _offer_before(theirs, mine)
