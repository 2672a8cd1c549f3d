"""Graviton Laser System in a PDS fire where the Loncara Ssodu (Xxcha flagship) fires too
(docs/rulings.md 27Y-11; abilities/graviton_laser_system.py): the PDS's missed dice are
re-rolled once, the flagship's are not (the card names PDS; PC_Twi YellowTechEffect.cpp
re-rolls the dice of units of class PDS only). The flagship's dice are rolled first, then the
PDS's, then their re-roll.

The battle after the PDS fire, where the destroyer survives it: the Xxcha's -1 on its
opponent in round 1 makes the destroyer hit on 10 (1/10), then on 9 (1/5); the flagship (2
dice at 6: a hit with 3/4, SUSTAIN DAMAGE). From round 2 undamaged (nobody hits: 4/5 x 1/4 =
1/5): damaged with 1/20 / (4/5) = 1/16, else lost; damaged: won 1/16, both destroyed 3/16.
Round 1, undamaged: damaged 1/10 x 1/4 = 1/40, undamaged into round 2 9/10 x 1/4 = 9/40, else
lost. The battle: won 1/40 x 1/16 + 9/40 x 1/16 x 1/16 = 5/2048, both destroyed 1/40 x 3/16 +
9/40 x 1/16 x 3/16 = 15/2048."""

from __future__ import annotations

from fractions import Fraction
from typing import Any

from spacecombat import odds
from tests.helpers import assert_logs_replay, assert_sampled_as_played, events, rolls, run
from tests.ti3.effects import space

XXCHA = {
    "units": {"flagship": 1, "pds": 1},
    "faction": "xxcha",
    "technologies": ["graviton_laser_system"],
}

#: the battle after the PDS fire, won and both destroyed (module docstring)
WON, BOTH = Fraction(5, 2048), Fraction(15, 2048)


def _fire(played: Any) -> list[tuple[str, list[int]]]:
    """Each group of the PDS fire's rolls, in order: (unit, faces)."""
    found = []
    for roll in rolls(played, "pds_fire"):
        groups: list[dict[str, Any]] = roll["groups"]  # type: ignore[assignment]
        found += [(g["unit"], g["faces"]) for g in groups]
    return found


def test_only_the_pds_miss_is_re_rolled() -> None:
    """The flagship 1, 1 (not re-rolled); the PDS 1, re-rolled 6: the destroyer is destroyed
    before the battle."""
    played = run(space({"units": {"destroyer": 1}}, XXCHA), [1, 1, 1, 6])
    assert _fire(played) == [("flagship", [1, 1]), ("pds", [1]), ("pds", [6])]
    assert played.outcome["result"] == "no_combat"


def test_a_pds_hit_is_not_re_rolled() -> None:
    """The flagship 1, 1; the PDS 6 (no miss, no re-roll): the destroyer is destroyed."""
    played = run(space({"units": {"destroyer": 1}}, XXCHA), [1, 1, 6])
    assert _fire(played) == [("flagship", [1, 1]), ("pds", [6])]


def test_without_a_pds_nothing_is_re_rolled() -> None:
    """The flagship fires alone (no PDS): 1, 1, no re-roll. Round 1: the destroyer's 10 hits
    (sustained), the flagship's 6 destroys it."""
    side = {**XXCHA, "units": {"flagship": 1}}
    played = run(space({"units": {"destroyer": 1}}, side), [1, 1, 10, 6, 1])
    assert _fire(played) == [("flagship", [1, 1])]
    assert played.outcome["result"] == "defender_win"


def test_exact_odds() -> None:
    """Hand-derived. The destroyer survives the PDS fire when the flagship's two dice miss
    (1/4) and the PDS misses twice (1/4): 1/16 (re-rolling the flagship's misses too would
    give 1/64). No combat 15/16; won 1/16 x 5/2048 = 5/32768; both destroyed 15/32768."""
    report = odds(space({"units": {"destroyer": 1}}, XXCHA), fractions=True)
    survives = Fraction(1, 16)
    assert (report.no_combat, report.attacker_win, report.draw) == (
        1 - survives,
        survives * WON,
        survives * BOTH,
    )
    assert report.defender_win == survives * (1 - WON - BOTH)


def test_with_faulty_targeting_systems() -> None:
    """The opponent holds Faulty Targeting Systems: the fire is rolled group by group, the
    PDS's miss re-rolled, then the card re-rolls a hit (the flagship's). Flagship 6, 1; PDS 1,
    re-rolled 1; the card: the flagship's 6 re-rolled 1. Round 1: 10; 6, 1."""
    scenario = space(
        {"units": {"destroyer": 1}, "action_cards": ["faulty_targeting_systems"]}, XXCHA
    )
    played = run(scenario, [6, 1, 1, 1, 1, 10, 6, 1])
    assert _fire(played) == [
        ("flagship", [6, 1]),
        ("pds", [1]),
        ("pds", [1]),
        ("flagship", [1]),
    ]
    assert [e["card"] for e in events(played, "card_played")] == ["faulty_targeting_systems"]


def test_exact_odds_with_faulty_targeting_systems() -> None:
    """Hand-derived. Hits before the card: none with 1/4 x 1/4 = 1/16; one with 1/2 x 1/4 +
    1/4 x 3/4 = 5/16, which the card re-rolls (a miss: 1/2). The destroyer survives with 1/16
    + 5/16 x 1/2 = 7/32: no combat 25/32; won 7/32 x 5/2048; both destroyed 7/32 x 15/2048."""
    scenario = space(
        {"units": {"destroyer": 1}, "action_cards": ["faulty_targeting_systems"]}, XXCHA
    )
    report = odds(scenario, fractions=True)
    survives = Fraction(7, 32)
    assert (report.no_combat, report.attacker_win, report.draw) == (
        1 - survives,
        survives * WON,
        survives * BOTH,
    )


def test_logs_replay_and_the_sampler_plays_as_the_resolver() -> None:
    scenario = space({"units": {"cruiser": 2, "destroyer": 1}}, XXCHA)
    assert_logs_replay(scenario, seeds=8)
    assert_sampled_as_played(scenario, trials=40)
