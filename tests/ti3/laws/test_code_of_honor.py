"""Code of Honor (For; the Clojure TI3 program's political cards, after the preeminent.org
reference: "Fleets may not withdraw or retreat from Space Battles"): no fleet leaves the
battle, whatever its policy, its cards or the systems next to it (docs/rulings.md 27Z-9)."""

from __future__ import annotations

from fractions import Fraction
from typing import Any

from spacecombat import odds
from spacecombat.rulesets import battle, parse_scenario
from tests.ti3.effects import space

#: a defender that retreats at once, with a system to retreat to
CRUISERS = (
    {"units": {"cruiser": 1}},
    {"units": {"cruiser": 1}, "policy": {"retreat": {"after_round": 0}}},
)
NEXT_TO_B: dict[str, Any] = {"adjacent": [{"name": "B", "command_tokens": ["defender"]}]}


def _result(**extra: Any) -> tuple[Fraction | float, Fraction | float, Fraction | float]:
    report = odds(space(*CRUISERS, **extra), fractions=True)
    return report.attacker_win, report.draw, report.defender_win


def test_without_the_law_the_defender_retreats() -> None:
    """The retreat announced in round 1 changes the duel (the check that the law matters)."""
    assert _result(system=NEXT_TO_B) != (Fraction(3, 8), Fraction(1, 4), Fraction(3, 8))


def test_with_the_law_the_duel_is_fought_out() -> None:
    """Cruisers hit 4/10 each, a round with no hit repeats (0.36): won 0.24/0.64 = 3/8, both
    destroyed 1/4, lost 3/8, the retreat policy and the adjacent system notwithstanding."""
    assert _result(system=NEXT_TO_B, laws=["code_of_honor"]) == (
        Fraction(3, 8),
        Fraction(1, 4),
        Fraction(3, 8),
    )


def test_skilled_retreat_finds_nowhere_to_go() -> None:
    """Skilled Retreat is a retreat: held, it is never offered, and the duel is the same."""
    attacker = {"units": {"cruiser": 1}, "action_cards": ["skilled_retreat"]}
    report = odds(
        space(attacker, CRUISERS[1], system=NEXT_TO_B, laws=["code_of_honor"]), fractions=True
    )
    assert report.attacker_win == Fraction(3, 8)


def test_no_ship_leaves_a_gravity_rift() -> None:
    """27Z-7: with the law, a gravity rift battle with an adjacent system is accepted."""
    rift = {**NEXT_TO_B, "anomaly": "gravity_rift"}
    assert _result(system=rift, laws=["code_of_honor"]) == (
        Fraction(3, 8),
        Fraction(1, 4),
        Fraction(3, 8),
    )


def test_the_notice_names_the_law() -> None:
    """A retreat policy that can never act says why (rulesets/notices.py)."""
    notices = battle(parse_scenario(space(*CRUISERS, system=NEXT_TO_B, laws=["code_of_honor"])))
    assert any("Code of Honor" in n for n in notices.notices())
