"""Graviton Negator's fighters in invasion combat (TI3 technology card: "Fighters may participate
in Invasion Combat (return to space after combat)"; abilities/graviton_negator.py;
docs/rulings.md 27Y-1 to 27Y-6).

Scripted faces are used in order: a pool rolls its groups in ascending printed value, then unit
name (a ground force at 8 before a fighter at 9); the attacker rolls before the defender."""

from __future__ import annotations

from fractions import Fraction
from typing import Any

import pytest

from spacecombat import odds
from spacecombat.core.errors import ScenarioError
from tests.helpers import assert_logs_replay, assert_sampled_as_played, events, rolls, run, units

TECH = ["graviton_negator"]


def invasion(
    commit: dict[str, int],
    defender: dict[str, int] | None = None,
    *,
    technologies: list[str] | None = None,
    **attacker: Any,
) -> dict[str, Any]:
    """A carrier, a fighter and a ground force invade planet A (one ground force defends it);
    ``commit`` says what lands or joins the combat there."""
    units = attacker.pop("units", {"carrier": 1, "fighter": 1, "ground_force": 1})
    return {
        "ruleset": "ti3",
        "battle": "invasion",
        "attacker": {
            "units": units,
            "technologies": TECH if technologies is None else technologies,
            **attacker,
        },
        "defender": {},
        "planets": [{"name": "A", "defender": defender or {"ground_force": 1}, "commit": commit}],
    }


BOTH = {"ground_force": 1, "fighter": 1}


def _space(played: Any) -> dict[str, int]:
    """The attacker's units in the space area at the end."""
    return units(played.outcome["attacker"]["space"])


def _groups(played: Any, *keys: str) -> list[tuple[Any, ...]]:
    """The attacker's one invasion combat roll, each group's ``keys``."""
    (roll,) = [r for r in rolls(played, "invasion_combat") if r["player"] == "attacker"]
    groups: list[dict[str, Any]] = roll["groups"]  # type: ignore[assignment]
    return [tuple(g[k] for k in keys) for g in groups]


def test_the_fighter_rolls_at_its_combat_value_and_its_hit_counts() -> None:
    """Round 1: the ground force 1 (miss), the fighter 9 (hit at 9); the defender 1. The
    defending ground force is destroyed; the planet is taken; the fighter returns to space."""
    played = run(invasion(BOTH), [1, 9, 1])
    assert _groups(played, "unit", "hit_on", "hits") == [
        ("ground_force", 8, 0),
        ("fighter", 9, 1),
    ]
    assert played.outcome["planet_taken"] is True
    assert events(played, "fighters_returned") == [
        {"event": "fighters_returned", "player": "attacker", "count": 1}
    ]
    assert _space(played) == {"carrier": 1, "fighter": 1}


def test_cybernetics_reaches_the_fighter_in_invasion_combat() -> None:
    """27Y-3: a modifier of fighters' combat rolls (Cybernetics, +1) reaches them here: the
    fighter hits on 8."""
    played = run(invasion(BOTH, technologies=[*TECH, "cybernetics"]), [1, 8, 1])
    assert _groups(played, "unit", "hit_on") == [
        ("ground_force", 8),
        ("fighter", 8),
    ]
    assert played.outcome["planet_taken"] is True


def test_the_stock_player_takes_the_fighter_before_the_ground_force() -> None:
    """27Y-4: a defender's hit may take the fighter or the ground force; the stock player takes
    the fighter. Round 1: 1, 1 (misses); the defender 8. Round 2: ground force 8; defender 1."""
    played = run(invasion(BOTH), [1, 1, 8, 8, 1])
    (choice,) = [e for e in events(played, "choice_made") if e["player"] == "attacker"]
    assert choice["options"] == ["destroy fighter", "destroy ground_force"]
    assert choice["choice"] == "destroy fighter"
    assert played.outcome["planet_taken"] is True
    assert events(played, "fighters_returned") == []
    assert _space(played) == {"carrier": 1}


def test_fighters_alone_fight_on_but_never_take_the_planet() -> None:
    """27Y-5, 27Y-6: the ground force taken first (casualty_order), the fighter fights on. Two
    defending ground forces. Round 1: ground force 1, fighter 9 (hit); defender 8, 1 (one hit:
    the ground force). Round 2: fighter 9 (hit); defender 1. No defending ground unit is left,
    but no attacking ground unit either: the defender keeps the planet; the fighter returns."""
    scenario = invasion(BOTH, {"ground_force": 2}, policy={"casualty_order": ["ground_force"]})
    played = run(scenario, [1, 9, 8, 1, 9, 1])
    assert len([r for r in rolls(played, "invasion_combat") if r["player"] == "attacker"]) == 2
    block: dict[str, Any] = played.outcome["planets"][0]  # type: ignore[index]
    assert (block["taken"], block["controller"], block["defender"]) == (False, "defender", [])
    assert [e["reason"] for e in events(played, "invasion_failed")] == [
        "no attacking ground unit is left"
    ]
    assert _space(played) == {"carrier": 1, "fighter": 1}


def test_pds_fire_at_the_landing_does_not_reach_the_fighters() -> None:
    """27Y-2: PDS fire at landing ground forces: the PDS's 6 destroys the ground force, not the
    fighter; with no ground force landed no combat is fought; the fighter returns to space."""
    played = run(invasion(BOTH, {"ground_force": 1, "pds": 1}), [6])
    assert [e["unit"] for e in events(played, "unit_destroyed")] == ["ground_force"]
    assert rolls(played, "invasion_combat") == []
    assert played.outcome["planet_taken"] is False
    assert _space(played) == {"carrier": 1, "fighter": 1}


def test_each_planet_has_its_own_fighters() -> None:
    """Two planets, a ground force and a fighter on each: B's fighter stays in space while A is
    fought; A's survivors return before B. A: 8 (ground force hit), 1 (fighter); defender 1.
    B: 1, 9; defender 1."""
    scenario = {
        "ruleset": "ti3",
        "battle": "invasion",
        "attacker": {
            "units": {"carrier": 1, "fighter": 2, "ground_force": 2},
            "technologies": TECH,
        },
        "defender": {},
        "planets": [
            {"name": "A", "defender": {"ground_force": 1}, "commit": BOTH},
            {"name": "B", "defender": {"ground_force": 1}, "commit": BOTH},
        ],
    }
    played = run(scenario, [8, 1, 1, 1, 9, 1])
    assert played.outcome["planets_taken"] == 2
    assert [e["count"] for e in events(played, "fighters_returned")] == [1, 1]
    assert _space(played) == {"carrier": 1, "fighter": 2}


def test_refusals() -> None:
    """Fighters join with Graviton Negator only; no more than the attacker brings (27Y-2)."""
    with pytest.raises(ScenarioError) as caught:
        run(invasion(BOTH, technologies=[]), [])
    assert caught.value.field == "planets[0].commit.fighter"
    with pytest.raises(ScenarioError) as caught:
        run(invasion({"ground_force": 1, "fighter": 2}), [])
    assert caught.value.field == "planets[0].commit.fighter"
    with pytest.raises(ScenarioError) as caught:
        run(invasion({"fighter": 2}), [])
    assert caught.value.field == "planets[0].commit.fighter"


def test_fighters_named_where_no_ground_unit_lands_stay_in_space() -> None:
    """27Y-2: planet B's commit names only a fighter: no invasion combat there for it to join
    (as in a tactical action whose ground units did not survive); it stays in space. A: 8; 1."""
    scenario = {
        "ruleset": "ti3",
        "battle": "invasion",
        "attacker": {
            "units": {"carrier": 1, "fighter": 1, "ground_force": 1},
            "technologies": TECH,
        },
        "defender": {},
        "planets": [
            {"name": "A", "defender": {"ground_force": 1}, "commit": {"ground_force": 1}},
            {"name": "B", "defender": {"ground_force": 1}, "commit": {"fighter": 1}},
        ],
    }
    played = run(scenario, [8, 1])
    assert played.outcome["planets_taken"] == 1
    assert events(played, "fighters_returned") == []
    assert _space(played) == {"carrier": 1, "fighter": 1}


def test_in_a_tactical_action() -> None:
    """The space battle first (a cruiser, a carrier and a fighter against a destroyer), then
    the invasion with the fighters left joining (the commit clipped to the survivors): the
    fighter's joining raises the attacker's chance; logs replay."""
    planet = {"name": "A", "defender": {"ground_force": 1}}
    attacker = {"units": {"carrier": 1, "fighter": 1, "ground_force": 1, "cruiser": 1}}

    def tactical(commit: dict[str, int]) -> dict[str, Any]:
        return {
            "ruleset": "ti3",
            "battle": "tactical",
            "attacker": {**attacker, "technologies": TECH},
            "defender": {"units": {"destroyer": 1}},
            "planets": [{**planet, "commit": commit}],
        }

    joined = odds(tactical(BOTH), fractions=True)
    alone = odds(tactical({"ground_force": 1}), fractions=True)
    assert joined.attacker_win > alone.attacker_win
    assert_logs_replay(tactical(BOTH), seeds=6)


def test_exact_odds_a_ground_force_and_a_fighter_against_a_ground_force() -> None:
    """Hand-derived. Each round the attacker scores a hit with 1 - 7/10 x 8/10 = 44/100, the
    defender with 3/10. Both units alive: the attacker hits (44/100) -> taken (if the defender
    hits too, the fighter is lost); the attacker misses and the defender hits (56/100 x 3/10 =
    168/1000) -> the ground force duel (taken 7/17, both destroyed 3/17, kept 7/17); both miss
    (392/1000) -> again. Taken (44/100 + 168/1000 x 7/17) / (608/1000) = 541/646; both
    destroyed 168/1000 x 3/17 / (608/1000) = 63/1292; kept 147/1292."""
    report = odds(invasion(BOTH), fractions=True)
    assert (report.attacker_win, report.draw, report.defender_win) == (
        Fraction(541, 646),
        Fraction(63, 1292),
        Fraction(147, 1292),
    )


def test_without_fighters_committed_the_odds_are_the_duel() -> None:
    """No fighter named: none joins (the default); the ground force duel 7/17, 3/17, 7/17."""
    report = odds(invasion({"ground_force": 1}), fractions=True)
    assert (report.attacker_win, report.draw, report.defender_win) == (
        Fraction(7, 17),
        Fraction(3, 17),
        Fraction(7, 17),
    )


def test_logs_replay_and_the_sampler_plays_as_the_resolver() -> None:
    scenario = invasion(
        {"ground_force": 2, "fighter": 2},
        {"ground_force": 2, "pds": 1},
        units={"carrier": 1, "fighter": 3, "ground_force": 2},
    )
    assert_logs_replay(scenario, seeds=8)
    assert_sampled_as_played(scenario, trials=40)
