"""Chemical Warfare (TI3 base action card; data/action_cards.toml; docs/rulings.md 27A-6):
immediately before an invasion combat, a player with a dreadnought in the system destroys half
of the defending ground forces (rounded up); the planet's PDS do not stop it.

The dreadnoughts here do not bombard (``bombarded_by: {}``), so the card's effect is alone."""

from __future__ import annotations

from fractions import Fraction
from typing import Any

from spacecombat import odds
from tests.helpers import assert_logs_replay, assert_sampled_as_played, events, run


def invasion(
    attacker: dict[str, Any], defender: dict[str, Any], *, cards: bool = True, **planet: Any
) -> dict[str, Any]:
    """The attacker (dreadnought and ground forces, holding the card) invades planet A."""
    side = {"units": attacker, **({"action_cards": ["chemical_warfare"]} if cards else {})}
    return {
        "ruleset": "ti3",
        "battle": "invasion",
        "attacker": side,
        "defender": {},
        "planets": [{"name": "A", "defender": defender, "bombarded_by": {}, **planet}],
    }


def destroyed(played: Any, cause: str) -> list[tuple[object, object]]:
    return [(e["player"], e["unit"]) for e in events(played, "unit_destroyed", cause=cause)]


def test_half_the_defending_ground_forces_rounded_up() -> None:
    """Three defending ground forces: Chemical Warfare destroys 2 (3/2 rounded up). Then one
    round: the attacker's ground force 8 (hit); the defender's 1."""
    played = run(invasion({"dreadnought": 1, "ground_force": 1}, {"ground_force": 3}), [8, 1])
    assert [e["card"] for e in events(played, "card_played")] == ["chemical_warfare"]
    assert destroyed(played, "Chemical Warfare") == [
        ("defender", "ground_force"),
        ("defender", "ground_force"),
    ]
    assert played.outcome["planet_taken"] is True


def test_played_after_bombardment_and_pds_fire_before_round_one() -> None:
    """ti3-combat.md, INVASION COMBAT: bombardment and PDS fire come before the invasion
    combat, so the card is played after them, on the ground forces left. A PDS on the planet
    (no bombardment by the dreadnought) fires 1 (miss); the card then destroys 1 of the 2
    ground forces; round 1: 8 (hit), 1."""
    played = run(
        invasion({"dreadnought": 1, "ground_force": 1}, {"ground_force": 2, "pds": 1}), [1, 8, 1]
    )
    kinds = [
        e["event"] if e["event"] != "dice_rolled" else e["purpose"]
        for e in played.events
        if e["event"] in ("dice_rolled", "card_played")
    ]
    assert kinds == ["pds_fire_at_landing", "card_played", "invasion_combat", "invasion_combat"]
    assert destroyed(played, "Chemical Warfare") == [("defender", "ground_force")]


def test_shock_troops_go_first_and_mechanized_units_are_immune() -> None:
    """Shock troops are taken before other ground units (ti3-facts.md section 8); Mechanized
    Units are not ground forces for cards (section 8): with a shock troop, a ground force and
    a mechanized unit, the card counts 2 ground forces and destroys 1: the shock troop.
    Round 1: the attacker's ground force 8 (hit), the defender's ground force 1 and
    mechanized unit 1; round 2: 8 (hit), the defender 1, 1 — the mechanized unit sustained."""
    played = run(
        {
            **invasion(
                {"dreadnought": 1, "ground_force": 1},
                {"shock_troop": 1, "ground_force": 1, "mechanized_unit": 1},
            ),
            "options": {"shock_troops": True},
        },
        [8, 1, 1, 8, 1, 8, 1],
        all_dice=False,
    )
    assert destroyed(played, "Chemical Warfare") == [("defender", "shock_troop")]


def test_no_card_without_a_dreadnought() -> None:
    """The card needs a dreadnought of its holder in the system: with a carrier only, it is
    not offered. Round 1: 8 (hit), 1."""
    played = run(invasion({"carrier": 1, "ground_force": 1}, {"ground_force": 1}), [8, 1])
    assert not events(played, "choice_made", decision="play_card")


def test_exact_odds_one_ground_force_each_after_the_card() -> None:
    """Hand-derived. Two defending ground forces; the card destroys 1 (2/2). Then 8+ (3/10)
    against 8+: attacker alone 21/100, defender alone 21/100, both 9/100, neither 49/100, so
    the planet is taken with 21/51 = 7/17, kept with 7/17, both destroyed 3/17. Without the
    card the attacker's lone ground force faces two."""
    report = odds(
        invasion({"dreadnought": 1, "ground_force": 1}, {"ground_force": 2}), fractions=True
    )
    assert report.other["planet_taken"] == Fraction(7, 17)
    assert (report.attacker_win, report.defender_win, report.draw) == (
        Fraction(7, 17),
        Fraction(7, 17),
        Fraction(3, 17),
    )
    without = odds(
        invasion({"dreadnought": 1, "ground_force": 1}, {"ground_force": 2}, cards=False),
        fractions=True,
    )
    assert without.other["planet_taken"] < Fraction(7, 17)


def test_logs_replay_and_the_sampler_plays_as_the_resolver() -> None:
    scenario = invasion({"dreadnought": 1, "ground_force": 3}, {"ground_force": 3, "pds": 1})
    assert_logs_replay(scenario, seeds=8)
    assert_sampled_as_played(scenario, trials=40)
