"""Loncara Ssodu, the Xxcha Kingdom flagship (docs/rulings.md 27R-20; PC_Twi UnitAbility.cpp
FlagshipAbilities: uaCannon 6 x2, uaDeepSpaceCannon): it fires 2 dice at 6 at enemy ships with
the PDS before a space battle. Effects that name PDS (Magen Defense Grid, Maneuvering Jets) do
not reach it; Graviton Laser System beside it re-rolls the PDS's dice only (27Y-11:
tests/ti3/flagships/test_xxcha_flagship_graviton_laser.py)."""

from __future__ import annotations

from fractions import Fraction

from spacecombat import odds
from spacecombat.core.sides import Side
from spacecombat.rulesets.ti3.abilities.base import RollContext, RollKind
from spacecombat.rulesets.ti3.abilities.modifiers import MagenDefenseGrid, ManeuveringJets
from tests.helpers import rolls, run
from tests.ti3.effects import space

XXCHA = {"faction": "xxcha"}


def test_it_fires_with_the_pds_before_the_battle() -> None:
    """PDS fire: flagship 6, 1: the cruiser is destroyed before the battle, which is not
    fought (as when PDS fire destroys a fleet)."""
    played = run(space({"units": {"flagship": 1}, **XXCHA}, {"units": {"cruiser": 1}}), [6, 1])
    groups = rolls(played, "pds_fire")[0]["groups"]
    assert isinstance(groups, list)
    assert [(g["unit"], len(g["faces"]), g["hit_on"]) for g in groups] == [("flagship", 2, 6)]
    assert (played.outcome["result"], played.outcome["winner"]) == ("no_combat", None)


def test_pds_effects_do_not_reach_it() -> None:
    pds_fire = RollContext(RollKind.PDS_FIRE, Side.ATTACKER, "flagship")
    assert MagenDefenseGrid(Side.ATTACKER).modifier(pds_fire) == 0
    assert ManeuveringJets(Side.DEFENDER).modifier(pds_fire) == 0
    assert (
        ManeuveringJets(Side.DEFENDER).modifier(
            RollContext(RollKind.PDS_FIRE, Side.ATTACKER, "pds")
        )
        == -1
    )


def test_odds_against_a_cruiser() -> None:
    """Before the battle: at least one 6 in two dice, 3/4, destroys the cruiser. Else the
    flagship (6 x2: a = 3/4, two lives) against the cruiser, which needs 8 in round 1 (the
    Xxcha racial -1: 3/10) and 7 after (2/5).
    Round 1, undamaged: won 3/4; damaged 1/4 * 3/10 = 3/40; round 2 undamaged 7/40.
    From round 2 (r = 1/4 * 3/5 = 3/20): undamaged: won 15/17, damaged 2/17; damaged: won
    9/17, both destroyed 6/17, lost 2/17.
    Duel: won 3/4 + 3/40 * 9/17 + 7/40 * (15/17 + 2/17 * 9/17) = 276/289; both destroyed
    3/40 * 6/17 + 7/40 * 2/17 * 6/17 = 39/1156; lost 3/40 * 2/17 + 7/40 * 2/17 * 2/17 =
    13/1156. In all: no combat (the cruiser destroyed before the battle, as by PDS fire) 3/4;
    won 1/4 * 276/289 = 69/289, both destroyed 39/4624, lost 13/4624."""
    report = odds(
        space({"units": {"flagship": 1}, **XXCHA}, {"units": {"cruiser": 1}}), fractions=True
    )
    assert (report.no_combat, report.attacker_win, report.draw, report.defender_win) == (
        Fraction(3, 4),
        Fraction(69, 289),
        Fraction(39, 4624),
        Fraction(13, 4624),
    )
