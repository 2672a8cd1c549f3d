"""Faulty Targeting Systems (TI3 Shattered Empire action card; data/action_cards.toml;
docs/rulings.md 27S-39): "Prevents the action card Minelayers, or removes one minefield from a
system or force opponent to reroll one PDS roll" (the Clojure TI3 action deck of 27S-37).

Dice: PDS fire before the space battle (the attacker has none here: the defender's PDS rolls,
then the re-rolled die); then the rounds, the attacker rolling before the defender."""

from __future__ import annotations

from fractions import Fraction
from typing import Any

from spacecombat import odds
from tests.helpers import assert_logs_replay, assert_sampled_as_played, events, rolls, run
from tests.ti3.effects import invasion, space

CARD = {"action_cards": ["faulty_targeting_systems"]}


def under_pds(held: bool = True, **attacker: Any) -> dict[str, Any]:
    """The attacker's cruiser (7+: 2/5), holding the card, against a cruiser and a PDS (6+:
    1/2)."""
    return space(
        {"units": {"cruiser": 1}, **(CARD if held else {}), **attacker},
        {"units": {"cruiser": 1, "pds": 1}},
    )


def test_the_pds_hit_is_rerolled_and_misses() -> None:
    """PDS fire: 6 (a hit), re-rolled: 3 (a miss). Round 1: 7 (hit); 1."""
    played = run(under_pds(), [6, 3, 7, 1])
    assert [e["card"] for e in events(played, "card_played")] == ["faulty_targeting_systems"]
    assert len(rolls(played, "pds_fire")) == 2
    assert played.outcome["result"] == "attacker_win"


def test_the_pds_hit_is_rerolled_and_hits_again() -> None:
    """PDS fire: 6, re-rolled: 9 (a hit again): the attacker's cruiser is destroyed before the
    battle."""
    played = run(under_pds(), [6, 9])
    assert played.outcome["result"] == "no_combat"


def test_no_hit_nothing_to_reroll() -> None:
    """PDS fire: 2 (a miss): the card is not offered. Round 1: 7 (hit); 1."""
    played = run(under_pds(), [2, 7, 1])
    assert not events(played, "card_played")
    assert played.outcome["result"] == "attacker_win"


def test_policy_never_keeps_the_card() -> None:
    played = run(under_pds(policy={"play": {"faulty_targeting_systems": "never"}}), [6])
    assert not events(played, "card_played")
    assert played.outcome["result"] == "no_combat"


def test_exact_odds_a_cruiser_under_a_pds() -> None:
    """Hand-derived. The PDS hits with 1/2; the stock holder has the hit re-rolled, so the
    attacker's cruiser survives PDS fire with 1/2 + 1/2 * 1/2 = 3/4 (1/2 without the card);
    then the cruiser duel (2/5 each: 3/8, 1/4, 3/8). Attacker 3/4 * 3/8 = 9/32, draw 3/4 *
    1/4 = 6/32, defender 3/4 * 3/8 = 9/32, no battle (the cruiser lost to PDS fire) 1/4.
    Without the card: 3/16, 1/8, 3/16, 1/2."""
    report = odds(under_pds(), fractions=True)
    assert (report.attacker_win, report.draw, report.defender_win) == (
        Fraction(9, 32),
        Fraction(6, 32),
        Fraction(9, 32),
    )
    assert report.other["no_combat"] == Fraction(1, 4)
    plain = odds(under_pds(held=False), fractions=True)
    assert (plain.attacker_win, plain.draw, plain.defender_win) == (
        Fraction(3, 16),
        Fraction(1, 8),
        Fraction(3, 16),
    )
    assert plain.other["no_combat"] == Fraction(1, 2)


def landing() -> dict[str, Any]:
    """The attacker's ground force (8+: 3/10), holding the card, lands on a planet with a
    ground force and a PDS (6+: 1/2)."""
    return invasion(
        {"units": {"carrier": 1, "ground_force": 1}, **CARD},
        {"units": {"ground_force": 1, "pds": 1}},
    )


def test_the_pds_fire_at_the_landing_is_a_pds_roll_too() -> None:
    """PDS fire at the landing: 6 (a hit), re-rolled: 3 (a miss). Round 1: 8 (hit); 1."""
    played = run(landing(), [6, 3, 8, 1])
    assert [e["card"] for e in events(played, "card_played")] == ["faulty_targeting_systems"]
    assert len(rolls(played, "pds_fire_at_landing")) == 2
    assert played.outcome["planet_taken"] is True


def test_exact_odds_a_landing_under_a_pds() -> None:
    """Hand-derived. The ground force survives the PDS fire with 3/4 (as above); then the
    ground force duel, 3/10 each, a round where neither hits (49/100) repeating: taken
    21/51 = 7/17, both destroyed 9/51 = 3/17. Taken 3/4 * 7/17 = 21/68, both destroyed
    3/4 * 3/17 = 9/68."""
    report = odds(landing(), fractions=True)
    assert (report.attacker_win, report.draw) == (Fraction(21, 68), Fraction(9, 68))


def mined(**attacker: Any) -> dict[str, Any]:
    """The attacker's cruiser, holding the card, against a cruiser holding Minelayers."""
    return space(
        {"units": {"cruiser": 1}, **CARD, **attacker},
        {"units": {"cruiser": 1}, "action_cards": ["minelayers"]},
    )


def test_minelayers_is_prevented() -> None:
    """Minelayers played, prevented: no hit. Round 1: 7 (hit); 1."""
    played = run(mined(), [7, 1])
    assert [e["card"] for e in events(played, "card_played")] == [
        "minelayers",
        "faulty_targeting_systems",
    ]
    assert not events(played, "unit_destroyed", cause="Minelayers")
    assert played.outcome["result"] == "attacker_win"


def test_minelayers_kept_when_the_holder_passes() -> None:
    played = run(mined(policy={"play": {"faulty_targeting_systems": "never"}}), [])
    lost = events(played, "unit_destroyed", cause="Minelayers")
    assert [(e["player"], e["unit"]) for e in lost] == [("attacker", "cruiser")]
    assert played.outcome["result"] == "no_combat"


def test_exact_odds_minelayers_prevented_a_plain_duel() -> None:
    """Prevented, the cruiser duel of 2/5 each: 3/8, 1/4, 3/8."""
    report = odds(mined(), fractions=True)
    assert (report.attacker_win, report.draw, report.defender_win) == (
        Fraction(3, 8),
        Fraction(1, 4),
        Fraction(3, 8),
    )


def graviton(held: bool = True) -> dict[str, Any]:
    """As ``under_pds``, the PDS owner with Graviton Laser System ("Each PDS die that misses
    may be re-rolled once")."""
    return space(
        {"units": {"cruiser": 1}, **(CARD if held else {})},
        {"units": {"cruiser": 1, "pds": 1}, "technologies": ["graviton_laser_system"]},
    )


def test_graviton_rerolls_the_miss_first_then_the_card_rerolls_the_hit() -> None:
    """27S-44. PDS fire: 2 (a miss), Graviton's re-roll: 6 (a hit); the card: 3 (a miss), kept
    (Graviton does not re-roll it). Round 1: 7 (hit); 1."""
    played = run(graviton(), [2, 6, 3, 7, 1])
    assert [e["card"] for e in events(played, "card_played")] == ["faulty_targeting_systems"]
    assert len(rolls(played, "pds_fire")) == 3
    assert played.outcome["result"] == "attacker_win"


def test_with_graviton_a_first_hit_is_not_rerolled_by_graviton() -> None:
    """27S-44. PDS fire: 6 (a hit: no miss for Graviton); the card: 3 (a miss), kept. Round 1:
    7 (hit); 1."""
    played = run(graviton(), [6, 3, 7, 1])
    assert len(rolls(played, "pds_fire")) == 2
    assert played.outcome["result"] == "attacker_win"


def test_exact_odds_against_graviton_laser_system() -> None:
    """Hand-derived (27S-44). The PDS hits with 1/2 + 1/2 * 1/2 = 3/4 with Graviton's
    re-roll; the stock holder has that hit re-rolled (1/2 to hit, kept), so the cruiser
    survives PDS fire with 1/4 + 3/4 * 1/2 = 5/8; then the cruiser duel (3/8, 1/4, 3/8):
    15/64, 10/64, 15/64, no battle 3/8. Without the card it survives with 1/4: 3/32, 1/16,
    3/32, no battle 3/4."""
    report = odds(graviton(), fractions=True)
    assert (report.attacker_win, report.draw, report.defender_win) == (
        Fraction(15, 64),
        Fraction(10, 64),
        Fraction(15, 64),
    )
    assert report.other["no_combat"] == Fraction(3, 8)
    plain = odds(graviton(held=False), fractions=True)
    assert (plain.attacker_win, plain.draw, plain.defender_win) == (
        Fraction(3, 32),
        Fraction(1, 16),
        Fraction(3, 32),
    )
    assert plain.other["no_combat"] == Fraction(3, 4)


def test_exact_odds_a_landing_against_graviton_laser_system() -> None:
    """Hand-derived (27S-44). The landing ground force survives the PDS fire with 5/8 (as
    above), then the ground force duel (taken 7/17, both destroyed 3/17): 35/136, 15/136."""
    scenario = invasion(
        {"units": {"carrier": 1, "ground_force": 1}, **CARD},
        {"units": {"ground_force": 1, "pds": 1}, "technologies": ["graviton_laser_system"]},
    )
    report = odds(scenario, fractions=True)
    assert (report.attacker_win, report.draw) == (Fraction(35, 136), Fraction(15, 136))


def test_logs_replay_against_graviton_laser_system() -> None:
    scenario = space(
        {"units": {"cruiser": 2, "dreadnought": 1}, **CARD},
        {
            "units": {"cruiser": 2, "pds": 2},
            "technologies": ["graviton_laser_system"],
        },
    )
    assert_logs_replay(scenario, seeds=6)
    assert_sampled_as_played(scenario, trials=30)


def test_logs_replay_and_the_sampler_plays_as_the_resolver() -> None:
    scenario = space(
        {"units": {"cruiser": 2, "dreadnought": 1}, **CARD},
        {
            "units": {"cruiser": 2, "pds": 2, "space_dock": 1},
            "action_cards": ["minelayers", "faulty_targeting_systems"],
        },
    )
    assert_logs_replay(scenario, seeds=6)
    assert_sampled_as_played(scenario, trials=30)
