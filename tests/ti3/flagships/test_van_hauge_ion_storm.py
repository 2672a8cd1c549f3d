"""Van Hauge's ground forces fighting as fighters in an ion storm (docs/rulings.md 27J-3;
option ``ion_storm_van_hauge``): by default they roll no dice there, as fighters (PC_Twi
r_Yin.cpp gives them the fighter ability, ``uaFighter``, which ``e_IonStormFighters`` reads),
but may still be taken as casualties; ``roll``: one die at 9 each, as anywhere (27S-43).

Dice: a pool rolls its groups in ascending printed value (the flagship's 5s, then the ground
forces' 9s); in a combat round the attacker rolls before the defender."""

from __future__ import annotations

from fractions import Fraction
from typing import Any, cast

import pytest

from spacecombat import odds
from spacecombat.core.errors import ScenarioError
from tests.helpers import events, rolls, run
from tests.ti3.effects import space

STORM = {"anomaly": "ion_storm"}
YIN = {"faction": "yin"}


def yin(system: dict[str, Any] | None = None, **options: Any) -> dict[str, Any]:
    """Van Hauge (5 x2, SUSTAIN DAMAGE) and a ground force against a cruiser (7+)."""
    return space(
        {"units": {"flagship": 1, "ground_force": 1}, **YIN},
        {"units": {"cruiser": 1}},
        system=system or STORM,
        options=options,
    )


def attacker_groups(played: Any) -> list[tuple[str, int, int]]:
    """(unit, dice, hit_on) of each group the attacker rolled in the combat rounds."""
    return [
        (str(g["unit"]), len(g["faces"]), int(g["hit_on"]))
        for r in rolls(played, "space_combat")
        if r["player"] == "attacker"
        for g in cast("list[dict[str, Any]]", r["groups"])
    ]


def test_by_default_the_ground_force_rolls_no_die_but_is_a_casualty() -> None:
    """The owner uses them (27S-43). Round 1: flagship 1, 1 (no die for the ground force);
    cruiser 7: the flagship sustains. Round 2: 1, 1; 7: the ground force is lost. Round 3:
    5, 1 (a hit); 1."""
    played = run(yin(), [1, 1, 7, 1, 1, 7, 5, 1, 1])
    assert [e["card"] for e in events(played, "card_played")] == ["yin_flagship"]
    assert attacker_groups(played) == [("flagship", 2, 5)] * 3
    lost = [(e["player"], e["unit"]) for e in events(played, "unit_destroyed")]
    assert lost == [("attacker", "ground_force"), ("defender", "cruiser")]
    assert played.outcome["result"] == "attacker_win"


def test_with_the_option_roll_it_rolls_at_9() -> None:
    """``roll``: round 1: flagship 1, 1; the ground force 9 (a hit); cruiser 1."""
    played = run(yin(ion_storm_van_hauge="roll"), [1, 1, 9, 1])
    assert attacker_groups(played) == [("flagship", 2, 5), ("ground_force", 1, 9)]
    assert played.outcome["result"] == "attacker_win"


def test_exact_odds_no_dice() -> None:
    """Hand-derived. The flagship hits at least once a = 1 - (2/5)^2 = 21/25 (one hit destroys
    the cruiser); the cruiser p = 2/5; a round where neither hits repeats, r = (4/25)(3/5) =
    12/125, 1 - r = 113/125. The cruiser's hits go on the SUSTAIN DAMAGE, then the ground
    force, then the flagship: 3 lives. With 2 or 3 left: won a/(1 - r) = 105/113, a life lost
    (1 - a)p/(1 - r) = 8/113; with the last: won a(1 - p) -> 63/113, both destroyed ap ->
    42/113, lost 8/113. Won 105/113 + 8/113 (105/113 + 8/113 * 63/113) = 1439697/1442897;
    both destroyed (8/113)^2 * 42/113 = 2688/1442897; lost (8/113)^3 = 512/1442897."""
    report = odds(yin(), fractions=True)
    assert (report.attacker_win, report.draw, report.defender_win) == (
        Fraction(1439697, 1442897),
        Fraction(2688, 1442897),
        Fraction(512, 1442897),
    )


def test_exact_odds_roll_are_those_outside_the_storm() -> None:
    """``roll``: nothing else in the storm acts on this battle (no fighter), so the answer is
    that of an empty system, derived by hand in test_van_hauge_fighters.py (``_model``)."""
    storm = odds(yin(ion_storm_van_hauge="roll"), fractions=True)
    empty = odds(yin(system={"anomaly": "none"}), fractions=True)
    assert (storm.attacker_win, storm.draw, storm.defender_win) == (
        empty.attacker_win,
        empty.draw,
        empty.defender_win,
    )
    assert storm.attacker_win > Fraction(1439697, 1442897)


@pytest.mark.parametrize("value", ["fighters", False])
def test_the_option_is_no_dice_or_roll(value: object) -> None:
    with pytest.raises(ScenarioError) as raised:
        odds(yin(ion_storm_van_hauge=value))
    assert raised.value.field == "options.ion_storm_van_hauge"
    assert "'no_dice'" in str(raised.value)
    assert "'roll'" in str(raised.value)
