"""Each race's Shards of the Throne flagship (issue 27; docs/rulings.md 27R-1, 27R-2, 27X-3):
its card from the sources (Tirvy/PC_Twi Defines.cpp FMstats, rows labelled by race; the
Arborec's also in wiki.omf2097.com joneirik:rpg:ti3_races; the Creuss' from S. Sasse's race
guide), who may field it, and a flagship whose ability never acts in a battle fighting on its
stats alone."""

from __future__ import annotations

from fractions import Fraction

import pytest

from spacecombat import odds
from spacecombat.core.errors import ScenarioError
from spacecombat.rulesets.catalogue import ti3 as ti3_catalogue
from spacecombat.rulesets.ti3 import rules
from tests.helpers import events, run
from tests.ti3.effects import at_least_one, space, two_lives_duel

#: race: (combat value, dice, move, cost, capacity), PC_Twi FMstats (PW, SH, SP, CT, CP);
#: ``None`` dice: the Winnu flagship's are set by its ability
STATS = {
    "l1z1x": (5, 3, 1, 11, 2),
    "sardakk": (5, 3, 1, 10, 2),
    "yssaril": (7, 2, 2, 9, 5),
    "letnev": (5, 2, 1, 10, 2),
    "mentak": (5, 2, 2, 8, 2),
    "jolnar": (2, 2, 2, 10, 2),
    "hacan": (7, 3, 2, 10, 4),
    "sol": (5, 3, 1, 10, 3),
    "xxcha": (6, 2, 1, 10, 4),
    "naalu": (8, 2, 1, 9, 6),
    "yin": (5, 2, 1, 10, 4),
    "saar": (6, 3, 1, 10, 4),
    "muaat": (5, 3, 1, 10, 4),
    "winnu": (7, None, 1, 10, 3),
    "arborec": (6, 2, 1, 10, 5),
    "nekro": (9, 3, 1, 9, 1),
    # not in PC_Twi: S. Sasse's TI3 race guide (docs/rulings.md 27X-3)
    "creuss": (4, 1, 1, 10, 3),
}


@pytest.mark.parametrize("race", sorted(STATS))
def test_flagship_card(race: str) -> None:
    """27R-1: the card's stats are the source's; every flagship has SUSTAIN DAMAGE (FMstats
    HP 2) and is a ship of its race."""
    card = rules.load().units[f"{race}_flagship"]
    assert card.combat is not None
    assert (card.combat.hit, card.combat.dice, card.move, card.cost, card.capacity) == STATS[race]
    assert card.sustain_damage
    assert card.is_ship
    assert (card.type, card.faction, card.source) == ("flagship", race, "sot")


def test_every_race_but_the_lazax_has_a_flagship_card() -> None:
    """27X-4: the Lazax are played only in a scenario without flagships."""
    races = set(rules.load().factions)
    assert races - set(STATS) == {"lazax"}


def test_a_lazax_flagship_is_refused_as_bad_input() -> None:
    """27X-4: no Lazax flagship exists, so naming one is an error in the scenario, not a rule
    left out."""
    with pytest.raises(ScenarioError) as caught:
        run(space({"units": {"flagship": 1}, "faction": "lazax"}, {"units": {"cruiser": 1}}), [])
    assert caught.value.field == "attacker.units.flagship"
    assert "no flagship" in caught.value.message


def test_a_flagship_needs_its_race() -> None:
    """27R-1: a scenario names ``flagship``; which one is its side's race's."""
    with pytest.raises(ScenarioError) as caught:
        run(space({"units": {"flagship": 1}}, {"units": {"cruiser": 1}}), [])
    assert caught.value.field == "attacker.units.flagship"
    assert "faction" in caught.value.message


def test_the_catalogue_offers_the_flagships_that_are_allowed() -> None:
    """GET /api/v1/rulesets: each race's flagship card is listed, ``implemented`` only where
    a battle with it is answered."""
    cards = ti3_catalogue()["cards"]
    offered = {c["faction"] for c in cards.values() if c.get("faction") and c["implemented"]}
    refused = {c["faction"] for c in cards.values() if c.get("faction") and not c["implemented"]}
    assert refused == set()
    assert offered == set(STATS)
    assert not cards["flagship"]["implemented"]


def test_arborec_flagship_fights_on_its_stats() -> None:
    """Duha Menaimon (6 x2, SUSTAIN DAMAGE; its ability produces units, outside the battle)
    against a destroyer (9+: p = 1/5). It hits with a = 1 - (1/2)^2 = 3/4; by the two-lives
    duel (tests/ti3/effects.py): r = 1/4 * 4/5 = 1/5, win 15/16 + 1/16 * 3/4 = 63/64, both
    destroyed 1/16 * 3/16 = 3/256, lost 1/256."""
    report = odds(
        space({"units": {"flagship": 1}, "faction": "arborec"}, {"units": {"destroyer": 1}}),
        fractions=True,
    )
    win, both, lose = two_lives_duel(at_least_one(2, Fraction(1, 2)), Fraction(1, 5))
    assert (win, both, lose) == (Fraction(63, 64), Fraction(3, 256), Fraction(1, 256))
    assert (report.attacker_win, report.draw, report.defender_win) == (win, both, lose)


def test_a_flagship_takes_a_hit_by_sustaining_damage() -> None:
    """27R-1 (FMstats HP 2): the Inferno (5 x3). Round 1 the cruiser hits (7) and the flagship
    sustains; round 2 its 5 destroys the cruiser. Dice: flagship 1, 1, 1; cruiser 7; then
    flagship 5, 1, 1; cruiser 1."""
    played = run(
        space({"units": {"flagship": 1}, "faction": "muaat"}, {"units": {"cruiser": 1}}),
        [1, 1, 1, 7, 5, 1, 1, 1],
    )
    assert played.outcome["result"] == "attacker_win"
    assert events(played, "damage_sustained", player="attacker", unit="flagship")


def test_a_race_has_one_flagship() -> None:
    """Limit 1 (ti3-facts.md 2, plastic limit of the flagship)."""
    with pytest.raises(ScenarioError) as caught:
        run(space({"units": {"flagship": 2}, "faction": "muaat"}, {"units": {"cruiser": 1}}), [])
    assert caught.value.field == "attacker.units.flagship"
