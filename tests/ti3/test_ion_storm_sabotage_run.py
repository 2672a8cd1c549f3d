"""A Sabotage Run in an ion storm (docs/rulings.md 27J-2; option ``ion_storm_sabotage_run``):
by default the run is not made there (the run is nothing but the fighters' dice, 27A-3, and
fighters cannot roll in the storm, 27I-2: ti3-facts.md 4.4, the Shattered Ascension
calculator's ``ionStorm.ts``); ``made``: the run is made as anywhere (its die is not a
combat-round die, PC_Twi's reading of the storm).

Dice: the War Sun's owner rolls one die per fighter of a run at 3, then the fighters roll (a
10 destroys the War Sun); in a combat round the attacker rolls before the defender."""

from __future__ import annotations

from fractions import Fraction
from typing import Any, cast

import pytest

from spacecombat import odds
from spacecombat.core.errors import ScenarioError
from tests.helpers import events, rolls, run, survivors
from tests.ti3.effects import space

STORM = {"anomaly": "ion_storm"}
RUNS = {"sabotage_runs": True}
MADE = {**RUNS, "ion_storm_sabotage_run": "made"}

#: a carrier and a fighter against a War Sun (ti3-combat.md: carrier 9+, War Sun 3+ x3,
#: SUSTAIN DAMAGE)
CARRIER_AND_FIGHTER = {"units": {"carrier": 1, "fighter": 1}}
WAR_SUN = {"units": {"war_sun": 1}}


def battle(options: dict[str, Any], system: dict[str, Any] | None = None) -> dict[str, Any]:
    return space(CARRIER_AND_FIGHTER, WAR_SUN, system=system or STORM, options=options)


def dice(played: Any, purpose: str) -> list[tuple[object, str, int, int]]:
    """(player, unit, dice, hit_on) of every roll for ``purpose``."""
    return [
        (r["player"], g["unit"], len(g["faces"]), g["hit_on"])
        for r in rolls(played, purpose)
        for g in cast("list[dict[str, Any]]", r["groups"])
    ]


def test_by_default_no_run_is_made_in_an_ion_storm() -> None:
    """No run before round 1. Round 1: the carrier alone rolls 1; War Sun 3, 1, 1 (a hit, taken
    on the fighter). Round 2: carrier 9 (the War Sun sustains); 1, 1, 1. Round 3: carrier 9
    (the War Sun is destroyed); 1, 1, 1."""
    played = run(battle(RUNS), [1, 3, 1, 1, 9, 1, 1, 1, 9, 1, 1, 1])
    assert not events(played, "sabotage_run")
    assert not rolls(played, "sabotage_run_war_sun_fire")
    assert not rolls(played, "sabotage_run")
    assert [d for d in dice(played, "space_combat") if d[0] == "attacker"] == [
        ("attacker", "carrier", 1, 9)
    ] * 3
    lost = [(e["player"], e["unit"]) for e in events(played, "unit_destroyed")]
    assert lost == [("attacker", "fighter"), ("defender", "war_sun")]
    assert played.outcome["result"] == "attacker_win"


def test_made_a_ten_destroys_the_war_sun() -> None:
    """Option ``made``: the War Sun fires at the fighter, 1 (a miss); the fighter rolls 10: the
    War Sun is destroyed before round 1, the fighter returns (27A-2, 27A-3)."""
    played = run(battle(MADE), [1, 10])
    assert dice(played, "sabotage_run_war_sun_fire") == [("defender", "war_sun", 1, 3)]
    assert dice(played, "sabotage_run") == [("attacker", "fighter", 1, 10)]
    assert played.outcome["result"] == "attacker_win"
    assert survivors(played, "attacker") == {"carrier": 1, "fighter": 1}
    assert not rolls(played, "space_combat")


def test_made_the_fighters_still_roll_no_combat_dice_after() -> None:
    """Option ``made``: War Sun 1 (a miss); the fighter rolls 9 and is lost (27A-3). Round 1:
    carrier 9 (sustained); War Sun 1, 1, 1. Round 2: carrier 9; 1, 1, 1: attacker wins."""
    played = run(battle(MADE), [1, 9, 9, 1, 1, 1, 9, 1, 1, 1])
    assert [(e["player"], e["unit"]) for e in events(played, "unit_destroyed")] == [
        ("attacker", "fighter"),
        ("defender", "war_sun"),
    ]
    assert played.outcome["result"] == "attacker_win"


def test_outside_an_ion_storm_the_option_changes_nothing() -> None:
    """In an empty system the run is made whatever ``ion_storm_sabotage_run`` says: 1, 10."""
    played = run(battle(RUNS, system={"anomaly": "none"}), [1, 10])
    assert dice(played, "sabotage_run") == [("attacker", "fighter", 1, 10)]
    assert played.outcome["result"] == "attacker_win"


def test_exact_odds_without_a_run() -> None:
    """Hand-derived (default ``not_made``: the same as without Sabotage Runs). The carrier hits
    c = 1/5; the War Sun's 3 dice at 3 hit none 1/125, one 12/125, two or more 112/125; the
    fighter (no die) is taken first. (n, L): the attacker's units, the War Sun's lives; a round
    where nothing happens repeats (4/625 of (n, 2) and (n, 1)): divide by 621/625.
    (1, 2), the carrier alone: to (1, 1) 1/621, else lost; (1, 1): won 1/621, both destroyed
    124/621. (2, 1): won (1/5)(13/125) -> 13/621; both destroyed (1/5)(112/125) -> 112/621;
    to (1, 1) (4/5)(12/125) -> 48/621. (2, 2): to (2, 1) 1/621, to (1, 1) 12/621, to (1, 2)
    48/621, else lost. Won: (8121 + 12 * 621 + 48) / 621^3 = 15621/239483061 =
    5207/79827687; both destroyed: (75504 + 12 * 124 * 621 + 48 * 124) / 621^3 =
    1005504/239483061 = 335168/79827687."""
    report = odds(battle(RUNS), fractions=True)
    assert (report.attacker_win, report.draw) == (
        Fraction(5207, 79827687),
        Fraction(335168, 79827687),
    )
    assert report.defender_win == 1 - report.attacker_win - report.draw
    without = odds(space(CARRIER_AND_FIGHTER, WAR_SUN, system=STORM), fractions=True)
    assert (without.attacker_win, without.draw) == (report.attacker_win, report.draw)


def test_exact_odds_with_the_run_made() -> None:
    """Hand-derived (``made``): the fighter survives the War Sun's die 1/5 and rolls a 10 1/10:
    the War Sun is destroyed, 1/50. Else (49/50) the fighter is lost and the carrier alone
    fights the War Sun: won 1/621^2, both destroyed 124/621^2 (above). Won: 1/50 + 49/50 /
    385641 = 38569/1928205; both destroyed 49/50 * 124/385641 = 3038/9641025."""
    report = odds(battle(MADE), fractions=True)
    assert (report.attacker_win, report.draw) == (
        Fraction(38569, 1928205),
        Fraction(3038, 9641025),
    )


@pytest.mark.parametrize("value", ["sometimes", True, 1])
def test_the_option_is_not_made_or_made(value: object) -> None:
    with pytest.raises(ScenarioError) as raised:
        odds(battle({**RUNS, "ion_storm_sabotage_run": value}))
    assert raised.value.field == "options.ion_storm_sabotage_run"
    assert "'not_made'" in str(raised.value)
    assert "'made'" in str(raised.value)
