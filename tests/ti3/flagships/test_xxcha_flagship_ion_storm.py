"""The Loncara Ssodu, the Xxcha flagship, in an ion storm (docs/rulings.md 27J-4; option
``ion_storm_flagship_pds``): by default its own PDS dice (2 at 6, 27R-20) fire before the
battle as anywhere ("PDS cannot fire into" the storm names PDS, which do not reach its dice,
27R-20, 27Y-11; it fires from inside the system; PC_Twi's PDS fire checks no special system);
``none``: they do not (the Shattered Ascension calculator: "Space Cannon may not fire").

Dice: the flagship's PDS dice before the battle, then the combat rounds (attacker first)."""

from __future__ import annotations

from fractions import Fraction
from typing import Any

import pytest

from spacecombat import odds
from spacecombat.core.errors import ScenarioError
from tests.helpers import rolls, run
from tests.ti3.effects import space

STORM = {"anomaly": "ion_storm"}
XXCHA = {"faction": "xxcha"}


def xxcha(**options: Any) -> dict[str, Any]:
    """The Loncara Ssodu (6 x2, SUSTAIN DAMAGE) against a cruiser (7+), in an ion storm."""
    return space(
        {"units": {"flagship": 1}, **XXCHA},
        {"units": {"cruiser": 1}},
        system=STORM,
        options=options,
    )


def test_by_default_it_fires_its_pds_dice() -> None:
    """PDS fire: 6, 1: the cruiser is destroyed before the battle, which is not fought."""
    played = run(xxcha(), [6, 1])
    groups = rolls(played, "pds_fire")[0]["groups"]
    assert isinstance(groups, list)
    assert [(g["unit"], len(g["faces"]), g["hit_on"]) for g in groups] == [("flagship", 2, 6)]
    assert played.outcome["result"] == "no_combat"


def test_with_the_option_none_it_does_not() -> None:
    """``none``: no PDS fire. Round 1: flagship 6 (a hit), 1; cruiser 1 (it needs 8 in the
    first round against the Xxcha)."""
    played = run(xxcha(ion_storm_flagship_pds="none"), [6, 1, 1])
    assert not rolls(played, "pds_fire")
    assert played.outcome["result"] == "attacker_win"


def test_exact_odds_it_fires() -> None:
    """As in an empty system (tests/ti3/flagships/test_xxcha_flagship.py, hand-derived): at
    least one 6 in two dice, 3/4, destroys the cruiser before the battle; else the duel (won
    276/289, both destroyed 39/1156, lost 13/1156)."""
    report = odds(xxcha(), fractions=True)
    assert (report.no_combat, report.attacker_win, report.draw, report.defender_win) == (
        Fraction(3, 4),
        Fraction(69, 289),
        Fraction(39, 4624),
        Fraction(13, 4624),
    )


def test_exact_odds_it_does_not_fire() -> None:
    """``none``: the duel alone. The flagship hits at least once a = 3/4; the cruiser needs 8
    in round 1 (the Xxcha racial -1: 3/10), 7 after (2/5). Round 1: won 3/4; damaged 1/4 *
    3/10 = 3/40; round 2 undamaged 7/40. From round 2 (r = 1/4 * 3/5 = 3/20): undamaged: won
    15/17, damaged 2/17; damaged: won 9/17, both destroyed 6/17, lost 2/17. Won 3/4 + 3/40 *
    9/17 + 7/40 * (15/17 + 2/17 * 9/17) = 276/289; both destroyed 3/40 * 6/17 + 7/40 * 2/17
    * 6/17 = 39/1156; lost 3/40 * 2/17 + 7/40 * 2/17 * 2/17 = 13/1156."""
    report = odds(xxcha(ion_storm_flagship_pds="none"), fractions=True)
    assert (report.no_combat, report.attacker_win, report.draw, report.defender_win) == (
        0,
        Fraction(276, 289),
        Fraction(39, 1156),
        Fraction(13, 1156),
    )


@pytest.mark.parametrize("value", ["never", 0])
def test_the_option_is_fires_or_none(value: object) -> None:
    with pytest.raises(ScenarioError) as raised:
        odds(xxcha(ion_storm_flagship_pds=value))
    assert raised.value.field == "options.ion_storm_flagship_pds"
    assert "'fires'" in str(raised.value)
    assert "'none'" in str(raised.value)
