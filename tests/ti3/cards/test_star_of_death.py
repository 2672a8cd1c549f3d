"""Star of Death (TI3 base action card; data/action_cards.toml; docs/rulings.md 27S-34): with a
war sun in the system, immediately before the planetary landing the attacker destroys the
planet's ground forces, PDS and space docks; the planet turns neutral and its radiation kills
the ground forces that land there (Mechanized Units are immune to both).

Dice: in an exchange the attacker rolls before the defender."""

from __future__ import annotations

from fractions import Fraction
from typing import Any

import pytest

from spacecombat import odds
from tests.helpers import assert_logs_replay, assert_sampled_as_played, events, rolls, run
from tests.ti3.effects import two_lives_duel

CARD = ["star_of_death"]


def invasion(
    landing: dict[str, int],
    defender: dict[str, int],
    space: dict[str, int] | None = None,
    **more: Any,
) -> dict[str, Any]:
    """A war sun (unless ``space`` says otherwise) brings ``landing`` to planet A (no
    bombardment)."""
    units = {**(space if space is not None else {"war_sun": 1}), **landing}
    return {
        "ruleset": "ti3",
        "battle": "invasion",
        "attacker": {"units": units, "action_cards": CARD, **more},
        "defender": {},
        "planets": [{"name": "A", "defender": defender, "bombarded_by": {}}],
    }


def test_a_mechanized_unit_lands_on_the_emptied_planet() -> None:
    """No die: the defender's ground forces, PDS and space dock are destroyed, the attacker's
    ground force dies of the radiation, its Mechanized Unit takes the planet."""
    played = run(
        invasion(
            {"mechanized_unit": 1, "ground_force": 1},
            {"ground_force": 2, "pds": 1, "space_dock": 1},
        ),
        [],
    )
    assert [e["card"] for e in events(played, "card_played")] == ["star_of_death"]
    struck = events(played, "unit_destroyed", cause="Star of Death")
    assert sorted(str(e["unit"]) for e in struck) == [
        "ground_force",
        "ground_force",
        "pds",
        "space_dock",
    ]
    burnt = events(played, "unit_destroyed", cause="Star of Death (radiation)")
    assert [(e["player"], e["unit"]) for e in burnt] == [("attacker", "ground_force")]
    assert rolls(played) == []
    assert played.outcome["planet_taken"] is True


def test_ground_forces_alone_leave_the_planet_neutral() -> None:
    """Played (``policy.play`` names round 0, the landing's): every unit on the planet is
    destroyed; nobody holds it."""
    played = run(
        invasion(
            {"ground_force": 2},
            {"ground_force": 1},
            policy={"play": {"star_of_death": {"round": 0}}},
        ),
        [],
    )
    assert events(played, "card_played")
    record = played.outcome["planets"][0]  # type: ignore[index]
    assert record["controller"] == "neutral"
    assert played.outcome["planet_taken"] is False


def test_the_stock_player_keeps_it_when_only_ground_forces_land() -> None:
    """Not played (its own ground forces would die): round 1: 8 (hit); 1."""
    played = run(invasion({"ground_force": 1}, {"ground_force": 1}), [8, 1])
    assert not events(played, "card_played")
    assert played.outcome["planet_taken"] is True


def test_without_a_war_sun_it_is_not_offered() -> None:
    """A dreadnought brings the Mechanized Unit; round 1: 6, 6 (hits); 1."""
    played = run(
        invasion({"mechanized_unit": 1}, {"ground_force": 1}, space={"dreadnought": 1}), [6, 6, 1]
    )
    assert not events(played, "card_played")
    assert played.outcome["planet_taken"] is True


def test_the_defenders_mechanized_unit_holds_and_fights() -> None:
    """Its ground force is destroyed, its Mechanized Unit stays (immune) and the planet is
    still its own. Round 1 (two dice each at 6): 6, 6; 1, 1: two hits (sustained, then
    destroyed)."""
    played = run(
        invasion({"mechanized_unit": 1}, {"mechanized_unit": 1, "ground_force": 1}),
        [6, 6, 1, 1],
    )
    struck = events(played, "unit_destroyed", cause="Star of Death")
    assert [e["unit"] for e in struck] == ["ground_force"]
    assert played.outcome["planet_taken"] is True


def test_exact_odds_a_mechanized_unit_against_a_ground_force() -> None:
    """Hand-derived. Played, the defender's ground force is destroyed before any die: the
    Mechanized Unit takes the planet with certainty. Kept (``never``): the duel of
    tests/ti3/effects.py, the Mechanized Unit (two dice at 6: at least one hit 3/4; SUSTAIN
    DAMAGE) against the ground force (8+: 3/10)."""
    report = odds(invasion({"mechanized_unit": 1}, {"ground_force": 1}), fractions=True)
    assert (report.attacker_win, report.draw, report.defender_win) == (1, 0, 0)
    kept = odds(
        invasion(
            {"mechanized_unit": 1}, {"ground_force": 1}, policy={"play": {"star_of_death": "never"}}
        ),
        fractions=True,
    )
    win, both, lose = two_lives_duel(Fraction(3, 4), Fraction(3, 10))
    assert (kept.attacker_win, kept.draw, kept.defender_win) == (win, both, lose)


@pytest.mark.parametrize("seeds", [6])
def test_logs_replay_and_the_sampler_plays_as_the_resolver(seeds: int) -> None:
    scenario = invasion(
        {"mechanized_unit": 1, "ground_force": 2}, {"ground_force": 2, "mechanized_unit": 1}
    )
    assert_logs_replay(scenario, seeds=seeds)
    assert_sampled_as_played(scenario, trials=30)
