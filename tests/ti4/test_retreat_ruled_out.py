"""A retreat policy that can never retreat says so (docs/rulings.md R33): when a side's stock
policy may retreat but no adjacent system could ever be an eligible destination
(ti4-space-combat.md step 5.3, notes 2-8, which depend only on the fixed setup), the log
starts with a ``retreat_ruled_out`` event and ``Battle.notices`` says it."""

from __future__ import annotations

from typing import Any

from spacecombat.report.text import render
from spacecombat.rulesets import battle, parse_scenario
from tests.helpers import events, invasion, run, space

RETREAT = {"retreat": {"after_round": 1}}


def retreating(adjacent: list[dict[str, Any]], **attacker: Any) -> dict[str, Any]:
    return space(
        {"units": "1 cruiser", "policy": RETREAT, **attacker},
        {"units": "1 cruiser"},
        system={"adjacent": adjacent},
    )


def notices(scenario: dict[str, Any]) -> tuple[str, ...]:
    return battle(parse_scenario(scenario)).notices()


def test_no_adjacent_system_at_all() -> None:
    """Faces: cruiser 7 (hit); cruiser 1."""
    played = run(retreating([]), [7, 1])
    [ruled_out] = events(played, "retreat_ruled_out")
    assert ruled_out == {
        "event": "retreat_ruled_out",
        "player": "attacker",
        "policy": "{after_round: 1}",
        "reason": "system.adjacent lists no system to retreat to",
    }
    assert played.events[2] == ruled_out  # after battle_started and forces_set
    assert notices(retreating([])) == (
        "The attacker's retreat policy {after_round: 1} can never retreat: "
        "system.adjacent lists no system to retreat to.",
    )


def test_each_adjacent_system_says_why_it_is_not_eligible() -> None:
    """Step 5.3 (the player's units or planet, no other player's ships) and notes 2-4."""
    adjacent: list[dict[str, Any]] = [
        {"name": "crowded", "units": ["attacker"], "ships": ["defender"]},
        {"name": "empty"},
        {"name": "rocks", "anomaly": "asteroid_field", "units": ["attacker"]},
        {"name": "cloud", "anomaly": "nebula", "units": ["attacker"]},
    ]
    [said] = notices(retreating(adjacent))
    assert said == (
        "The attacker's retreat policy {after_round: 1} can never retreat: no adjacent system is "
        "an eligible destination ('crowded' holds another player's ships; 'empty' holds none of "
        "the player's units and no planet they control; 'rocks' is an asteroid field, open only "
        "with Antimass Deflectors; and 1 more)."
    )


def test_an_eligible_system_means_nothing_is_said() -> None:
    scenario = retreating(
        [{"name": "crowded", "ships": ["defender"]}, {"name": "home", "units": ["attacker"]}]
    )
    assert notices(scenario) == ()


def test_a_technology_that_opens_a_system_counts() -> None:
    """Note 2: Antimass Deflectors open an asteroid field to a retreat."""
    rocks = [{"name": "rocks", "anomaly": "asteroid_field", "units": ["attacker"]}]
    assert notices(retreating(rocks)) != ()
    assert notices(retreating(rocks, technologies=["antimass_deflectors"])) == ()


def test_a_policy_that_never_retreats_needs_no_notice() -> None:
    scenario = space({"units": "1 cruiser"}, {"units": "1 cruiser"})
    assert notices(scenario) == ()


def test_the_shared_policy_is_checked_for_each_side() -> None:
    """A retreat policy under the scenario's ``policy`` is each side's; the defender's adjacent
    system holds the attacker's ships."""
    scenario = space(
        {"units": "1 cruiser"},
        {"units": "1 cruiser"},
        policy={"retreat": {"when_outnumbered": 2}},
        system={"adjacent": [{"name": "home", "units": ["attacker"]}]},
    )
    assert notices(scenario) == (
        "The defender's retreat policy {when_outnumbered: 2} can never retreat: no adjacent "
        "system is an eligible destination ('home' holds none of the player's units and no "
        "planet they control).",
    )


def test_an_invasion_has_no_retreat() -> None:
    scenario = invasion(
        {"units": "1 carrier, 2 infantry", "policy": RETREAT}, {"units": "1 infantry"}
    )
    assert notices(scenario) == (
        "The attacker's retreat policy {after_round: 1} can never retreat: an invasion has no "
        "space combat to retreat from.",
    )


def test_the_text_account_shows_it() -> None:
    played = run(retreating([]), [7, 1])
    assert (
        "  Note: attacker's retreat policy {after_round: 1} can never retreat: system.adjacent "
        "lists no system to retreat to" in render(played.events).splitlines()
    )
