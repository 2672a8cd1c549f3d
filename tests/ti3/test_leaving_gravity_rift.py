"""Ships leaving a TI3 gravity rift (docs/rulings.md 27M-3): PC_Twi, the only TI3 source
(``e_GravityRift``), rolls one die per ship moving out of the rift and destroys it on 1-5
(option ``gravity_rift_destroyed_at_most``, default 5; TI4's rule is 1-3). In a battle that
is a withdrawal or retreat; a ship lost is removed ("lost leaving the gravity rift")."""

from __future__ import annotations

from fractions import Fraction
from typing import Any

import pytest

from spacecombat import odds
from spacecombat.core.errors import ScenarioError
from tests.helpers import events, rolls, run
from tests.ti3.effects import space

RIFT: dict[str, Any] = {
    "anomaly": "gravity_rift",
    "adjacent": [{"name": "B", "command_tokens": ["defender"]}],
}
#: a defender that announces its retreat in round 1, with a system to retreat to
RETREATING = {"units": {"cruiser": 1}, "policy": {"retreat": {"after_round": 0}}}
ONE = {"units": {"cruiser": 1}}


def test_a_6_gets_away() -> None:
    """Both cruisers miss (1, 1); the defender retreats; its cruiser's die shows 6 (> 5): it
    reaches B."""
    played = run(space(ONE, RETREATING, system=RIFT), [1, 1, 6])
    [die] = rolls(played, "gravity_rift")
    assert die["player"] == "defender"
    assert die["groups"][0]["faces"] == [6]  # type: ignore[index]
    assert not events(played, "unit_removed")
    assert played.outcome["withdrawal"]["units"] == [{"unit": "cruiser", "count": 1}]  # type: ignore[index]
    assert played.outcome["result"] == "attacker_win"


def test_a_5_is_lost() -> None:
    """The same with a 5 (1-5 destroyed, PC_Twi): the cruiser is removed on the way out."""
    played = run(space(ONE, RETREATING, system=RIFT), [1, 1, 5])
    removed = events(played, "unit_removed", reason="lost leaving the gravity rift")
    assert [(e["player"], e["unit"]) for e in removed] == [("defender", "cruiser")]
    assert played.outcome["withdrawal"]["units"] == []  # type: ignore[index]


def test_tis_reading_keeps_a_4() -> None:
    """``gravity_rift_destroyed_at_most: 3`` (TI4's 1-3): a 4 gets away."""
    scenario = space(ONE, RETREATING, system=RIFT, options={"gravity_rift_destroyed_at_most": 3})
    played = run(scenario, [1, 1, 4])
    assert not events(played, "unit_removed")


@pytest.mark.parametrize(("at_most", "away"), [(None, Fraction(9, 50)), (3, Fraction(63, 250))])
def test_odds_of_getting_away(at_most: int | None, away: Fraction) -> None:
    """Round 1: each cruiser hits 4/10. Attacker alone hits 0.24 (won), the defender alone 0.24
    (the retreat is cancelled, it wins), both 0.16 (draw); neither 0.36: the defender retreats
    (the attacker wins), and its cruiser gets away on 6-10 (1/2): 0.18 = 9/50; with TI4's 1-3,
    on 4-10 (7/10): 0.252 = 63/250. Won 0.6, draw 0.16, lost 0.24 either way."""
    options = {} if at_most is None else {"gravity_rift_destroyed_at_most": at_most}
    report = odds(space(ONE, RETREATING, system=RIFT, options=options), fractions=True)
    assert (report.attacker_win, report.draw, report.defender_win) == (
        Fraction(3, 5),
        Fraction(4, 25),
        Fraction(6, 25),
    )
    retreat = report.retreats["defender"]
    assert retreat["probability"] == pytest.approx(0.36, abs=1e-12)
    fleets = {tuple(f["units"].items()): f["probability"] for f in retreat["survivors"]["fleets"]}
    assert fleets[(("cruiser", 1),)] == pytest.approx(float(away), abs=1e-12)
    assert fleets[()] == pytest.approx(0.36 - float(away), abs=1e-12)


def test_two_ship_types_roll_apart() -> None:
    """A cruiser and a destroyer retreat (the attacker's dreadnought and the defender's ships
    all miss: 1, 1, 1): one die each, the cruiser's 5 lost, then the destroyer's 9 away (the
    cruisers all lost, the destroyers still roll)."""
    defender = {"units": {"cruiser": 1, "destroyer": 1}, "policy": {"retreat": {"after_round": 0}}}
    played = run(space({"units": {"dreadnought": 1}}, defender, system=RIFT), [1, 1, 1, 5, 9])
    rolled = [g["unit"] for r in rolls(played, "gravity_rift") for g in r["groups"]]  # type: ignore[attr-defined]
    assert rolled == ["cruiser", "destroyer"]
    removed = events(played, "unit_removed", reason="lost leaving the gravity rift")
    assert [e["unit"] for e in removed] == ["cruiser"]
    assert played.outcome["withdrawal"]["units"] == [{"unit": "destroyer", "count": 1}]  # type: ignore[index]


@pytest.mark.parametrize("value", [0, 11, "5"])
def test_the_option_is_a_face(value: object) -> None:
    with pytest.raises(ScenarioError) as caught:
        odds(space(ONE, RETREATING, system=RIFT, options={"gravity_rift_destroyed_at_most": value}))
    assert "gravity_rift_destroyed_at_most" in caught.value.field


def test_fighters_of_a_player_who_cannot_leave_are_accepted() -> None:
    """27M-3 refuses only what a fleet that may leave would carry out: the attacker's fighters
    stay (B holds no counter of its), the defender's cruiser may retreat. The rounds are the
    odds engine's; the check here is that the battle is answered and its dice add up."""
    attacker = {"units": {"carrier": 1, "fighter": 2}}
    report = odds(space(attacker, RETREATING, system=RIFT), fractions=True)
    assert report.attacker_win + report.draw + report.defender_win == 1
    assert "defender" in report.retreats
