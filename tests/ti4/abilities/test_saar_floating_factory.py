"""Floating Factory I/II (Saar space docks; abilities/saar_floating_factory.py): placed in the
space area, not a ship (never hit, never rolls), its capacity (4; 5 for II) holds the Saar's
fighters and ground forces there (procedures/capacity.py, LRR 16), and it is destroyed if
blockaded: no Saar ships in the active system while the opponent has some (LRR 14; note 2: at
the end of a combat, before fighters beyond capacity are removed). Checked at every capacity
check: before the battle, after space cannon offense, at the end of combat
(ti4-space-combat.md 10.1; docs/rulings.md 14F-1). It retreats with its player's ships
(ti4-space-combat.md step 5; docs/rulings.md 14K-5).

Dice order of these duels: round 1 opens with the Saar destroyer's ANTI-FIGHTER BARRAGE (2 dice
at 9), then the attacker's combat roll, then the defender's."""

from __future__ import annotations

from fractions import Fraction
from typing import Any

import pytest

from spacecombat import odds
from spacecombat.analysis.exact import exact_odds
from spacecombat.core.errors import ScenarioError
from spacecombat.rulesets.ti4.abilities.saar_floating_factory import BLOCKADED
from tests.helpers import events, invasion, run, space, survivors

CRUISER = {"units": {"cruiser": 1}}
NO_CAPACITY_CHECK = {"check_capacity_before_battle": False}
#: every die a hit: the cruiser falls in round 1
ENDS = [10] * 12


def saar(**units: int) -> dict[str, Any]:
    return {"faction": "saar", "units": {"space_dock": 1, **units}}


def blockades(played: Any) -> list[dict[str, object]]:
    return events(played, "unit_destroyed", cause=BLOCKADED)


def test_the_saar_losing_the_space_combat_lose_the_factory() -> None:
    played = run(space(CRUISER, saar(destroyer=1)), [1, 1, 7, 1])
    assert played.outcome["result"] == "attacker_win"
    [gone] = blockades(played)
    assert (gone["player"], gone["unit"]) == ("defender", "space_dock")
    assert survivors(played, "defender", "planet") == {}
    kinds = [e["event"] for e in played.events]
    # after the last round, at the end of combat
    assert kinds.index("round_ended") < played.events.index(gone) < kinds.index("battle_ended")


def test_a_win_or_a_draw_keeps_it() -> None:
    won = run(space(CRUISER, saar(destroyer=1)), [1, 1, 1, 9])
    assert won.outcome["result"] == "defender_win"
    drawn = run(space(CRUISER, saar(destroyer=1)), [1, 1, 7, 9])
    assert drawn.outcome["result"] == "draw"
    for played in (won, drawn):
        assert not blockades(played)
        assert survivors(played, "defender", "planet") == {"space_dock": 1}


def test_alone_against_ships_it_is_destroyed_before_the_battle() -> None:
    played = run(space(CRUISER, saar()), [])
    [gone] = blockades(played)
    assert gone["player"] == "defender"
    assert played.outcome["result"] == "no_combat"
    kinds = [e["event"] for e in played.events]
    assert kinds.index("unit_destroyed") < kinds.index("no_combat")
    # without the check before the battle, the end of combat destroys it
    late = run(space(CRUISER, saar(), options=NO_CAPACITY_CHECK), [])
    assert len(blockades(late)) == 1
    kinds = [e["event"] for e in late.events]
    assert kinds.index("no_combat") < kinds.index("unit_destroyed")


def test_the_saar_attacking_are_blockaded_too() -> None:
    attacker = saar(cruiser=1)
    played = run(space(attacker, {"units": {"cruiser": 1}}), [1, 7])
    assert played.outcome["result"] == "defender_win"
    [gone] = blockades(played)
    assert gone["player"] == "attacker"


def test_its_capacity_holds_fighters_and_ground_forces() -> None:
    # Floating Factory I: capacity 4 (a destroyer has none); 3 fighters + 1 infantry fit
    fits = run(space(CRUISER, saar(destroyer=1, fighter=3, infantry=1)), ENDS, all_dice=False)
    assert not events(fits, "unit_removed")
    over = space(CRUISER, saar(destroyer=1, fighter=4, infantry=1))
    played = run(over, ENDS, defender=["remove infantry", "destroy fighter"], all_dice=False)
    [removed] = events(played, "unit_removed")
    assert (removed["player"], removed["unit"]) == ("defender", "infantry")
    assert removed["reason"] == "beyond capacity before the battle"
    # Floating Factory II: capacity 5
    upgraded = saar(destroyer=1, fighter=4, infantry=1)
    upgraded["upgrades"] = ["space_dock"]
    assert not events(run(space(CRUISER, upgraded), ENDS, all_dice=False), "unit_removed")


def test_blockade_comes_before_the_winners_fighters_are_removed() -> None:
    """LRR 14 note 2: the attacker wins with one Fighter I left (no capacity left for it):
    the factory is destroyed first, then the fighter is removed."""
    attacker = {"units": {"carrier": 1, "fighter": 1}, "policy": {"casualty_order": ["carrier"]}}
    # barrage 1 1 (misses the fighter); attacker carrier 1, fighter 9: the destroyer dies;
    # destroyer 9: the carrier dies
    played = run(space(attacker, saar(destroyer=1)), [1, 1, 1, 9, 9])
    assert played.outcome["result"] == "attacker_win"
    kinds = [(e["event"], e.get("cause") or e.get("reason")) for e in played.events]
    blockade = kinds.index(("unit_destroyed", BLOCKADED))
    removal = kinds.index(("unit_removed", "beyond capacity after combat"))
    assert blockade < removal


def test_not_a_ship_it_never_rolls_nor_takes_hits() -> None:
    played = run(space({"units": {"cruiser": 2}}, saar(destroyer=1)), [1, 1, 7, 7, 1])
    # the second hit finds no ship: the factory cannot take it
    [lost] = events(played, "hits_lost")
    assert (lost["player"], lost["hits"], lost["cause"]) == ("defender", 1, "space combat")
    rolled = [str(e["groups"]) for e in events(played, "dice_rolled")]
    assert len(rolled) == 3
    assert not any("space_dock" in groups for groups in rolled)


def test_exact_odds_its_capacity_keeps_a_fighter_in_the_fight() -> None:
    """A cruiser (hits on 7: 2/5) against a Saar Fighter I (hits on 9: 1/5) the factory holds.
    Each round: attacker alone hits 2/5 * 4/5 = 8/25, defender alone 3/5 * 1/5 = 3/25, both
    2/25, neither 12/25; so attacker_win = (8/25) / (13/25) = 8/13, defender_win = 3/13,
    draw = 2/13. Without the factory's capacity the fighter would be removed before the
    battle (attacker_win 1)."""
    report = odds(space(CRUISER, saar(fighter=1)))
    assert report.attacker_win == pytest.approx(float(Fraction(8, 13)), abs=1e-12)
    assert report.defender_win == pytest.approx(float(Fraction(3, 13)), abs=1e-12)
    assert report.draw == pytest.approx(float(Fraction(2, 13)), abs=1e-12)


HAVEN = {"adjacent": [{"name": "haven", "units": ["defender"]}]}
RETREATS = {"policy": {"retreat": {"after_round": 0}}}


def test_it_retreats_with_its_players_ships_carrying_their_fighters() -> None:
    """14K-5: "it can move and retreat as if it were a ship": the destroyer (no capacity)
    retreats, the factory with it, its capacity carrying the 2 fighters; no blockade follows."""
    # barrage 1 1; cruiser 1; destroyer 1, fighters 1 1: nobody is hit, the Saar retreat
    played = run(
        space(CRUISER, {**saar(destroyer=1, fighter=2), **RETREATS}, system=HAVEN), [1] * 6
    )
    [retreated] = events(played, "retreated")
    assert retreated["units"] == [
        {"unit": "destroyer", "count": 1},
        {"unit": "fighter", "count": 2},
        {"unit": "space_dock", "count": 1},
    ]
    assert not blockades(played)
    assert not events(played, "unit_removed")


def in_a_rift(faces: list[int]) -> Any:
    system = {**HAVEN, "anomaly": "gravity_rift"}
    defender = {**saar(destroyer=1, fighter=2), **RETREATS}
    # barrage 1 1; cruiser 1; destroyer 1, fighters 1 1; then the rift: destroyer, factory
    return run(space(CRUISER, defender, system=system), [1] * 6 + faces)


def test_out_of_a_gravity_rift_it_rolls_as_a_ship_with_its_cargo() -> None:
    """14K-5: leaving a gravity rift it rolls as a ship (lost on 1-3), the fighters stowed on it
    (the destroyer has no capacity) lost with it."""
    played = in_a_rift([5, 2])
    stowed = events(played, "choice_made", decision="stow_cargo")
    assert [e["choice"] for e in stowed] == [
        "on space_dock carrying none",
        "on space_dock carrying 1 fighter",
    ]
    lost = [str(e["unit"]) for e in events(played, "unit_removed")]
    assert sorted(lost) == ["fighter", "fighter", "space_dock"]
    [retreated] = events(played, "retreated")
    assert retreated["units"] == [{"unit": "destroyer", "count": 1}]


def test_out_of_a_gravity_rift_it_arrives_with_its_cargo() -> None:
    played = in_a_rift([5, 4])
    [retreated] = events(played, "retreated")
    assert retreated["units"] == [
        {"unit": "destroyer", "count": 1},
        {"unit": "fighter", "count": 2},
        {"unit": "space_dock", "count": 1},
    ]


def test_exact_odds_of_the_retreat_it_joins() -> None:
    """Round 1: the cruiser (2/5) and the destroyer (1/5) both miss with 3/5 * 4/5 = 12/25,
    and the Saar retreat, the factory with them; the destroyer dies with 2/5 (its cost, 1, is
    the defender's expected loss; the factory, then blockaded, has no cost)."""
    report = odds(space(CRUISER, {**saar(destroyer=1), **RETREATS}, system=HAVEN))
    assert report.retreats["defender"]["probability"] == pytest.approx(0.48, abs=1e-12)
    assert report.expected_losses["defender"] == pytest.approx(0.4, abs=1e-12)


def test_ground_forces_it_holds_stay_when_no_ships_are_left() -> None:
    """A draw leaves the factory, not blockaded, holding its ground forces within its
    capacity (4): they are not removed for want of ships (docs/rulings.md 14F-2)."""
    drawn = run(space(CRUISER, saar(destroyer=1, infantry=2)), [1, 1, 7, 9])
    assert drawn.outcome["result"] == "draw"
    assert not events(drawn, "unit_removed")
    assert not blockades(drawn)
    # the attacker winning blockades it: no refusal, the factory and infantry are gone
    played = run(space(CRUISER, saar(destroyer=1, infantry=2)), [1, 1, 7, 1])
    assert len(blockades(played)) == 1
    assert survivors(played, "defender") == {}


def test_in_an_invasion_it_is_not_on_a_planet() -> None:
    scenario = invasion(
        {"units": {"carrier": 1, "infantry": 1}},
        {"faction": "saar", "units": {"infantry": 1, "space_dock": 1}},
    )
    with pytest.raises(ScenarioError, match="space area"):
        run(scenario, [], all_dice=False)


@pytest.mark.parametrize(
    ("attacker", "defender"),
    [
        ({"cruiser": 2}, {"destroyer": 1, "fighter": 3, "infantry": 1}),
        ({"carrier": 1, "fighter": 2}, {"destroyer": 2}),
    ],
)
def test_product_form_agrees_with_the_state_graph(
    attacker: dict[str, int], defender: dict[str, int]
) -> None:
    """Its rules act only outside the rounds (capacity checks, the retreat): the fast path
    (product form) gives the state graph's figures, a retreat included."""
    scenario = space({"units": attacker}, {**saar(**defender), **RETREATS}, system=HAVEN)
    fast = exact_odds(scenario)
    slow = exact_odds(scenario, product_form=False, limit=None)
    for figure in ("attacker_win", "defender_win", "draw"):
        assert getattr(fast, figure) == pytest.approx(getattr(slow, figure), abs=1e-12)
    assert fast.retreats["defender"]["probability"] == pytest.approx(
        slow.retreats["defender"]["probability"], abs=1e-12
    )
    assert fast.expected_losses["defender"] == pytest.approx(
        slow.expected_losses["defender"], abs=1e-11
    )
