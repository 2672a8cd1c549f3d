"""TI3 refusals and notices in the project's words (issue 8):

- no battle can happen in a supernova or an asteroid field, which no ship may end its move in
  (docs/rulings.md T18), and an asteroid field is no withdrawal destination;
- a withdrawal or retreat policy that can never act says so (``retreat_ruled_out``, R33);
- the fleet check before the battle (T16) is said in ``Battle.notices``;
- the rule options are read strictly (a count given as ``true``, ``"3"`` or ``3.0`` is
  refused);
- causes and reasons in the log are words, as TI4's are."""

from __future__ import annotations

from typing import Any

import pytest

from spacecombat.core.errors import ScenarioError
from spacecombat.report.text import render
from spacecombat.rulesets import battle, parse_scenario
from tests.helpers import events, run
from tests.ti3.effects import space as ti3

WITHDRAW = {"retreat": {"after_round": 1}}


def cruisers(**extra: Any) -> dict[str, Any]:
    return ti3({"units": {"cruiser": 1}}, {"units": {"cruiser": 1}}, **extra)


def refusal(scenario: dict[str, Any]) -> ScenarioError:
    with pytest.raises(ScenarioError) as caught:
        battle(parse_scenario(scenario))
    return caught.value


def notices(scenario: dict[str, Any]) -> tuple[str, ...]:
    return battle(parse_scenario(scenario)).notices()


# --- anomalies ------------------------------------------------------------------------------


def test_no_battle_in_a_supernova() -> None:
    error = refusal(cruisers(system={"anomaly": "supernova"}))
    assert (error.field, error.message) == (
        "system.anomaly",
        "no battle can happen in a supernova: no ship may move into one",
    )


@pytest.mark.parametrize("techs", [[], ["antimass_deflectors"]])
def test_no_battle_in_an_asteroid_field_even_with_antimass_deflectors(techs: list[str]) -> None:
    """T18: TI3's Antimass Deflectors lets ships move through asteroid fields, never stop."""
    scenario = ti3(
        {"units": {"cruiser": 1}, "technologies": techs},
        {"units": {"cruiser": 1}},
        system={"anomaly": "asteroid_field"},
    )
    error = refusal(scenario)
    assert error.field == "system.anomaly"
    assert error.message.startswith("no battle can happen in an asteroid field")


def test_an_asteroid_field_is_no_withdrawal_destination() -> None:
    """T18, T9: the attacker may not announce a withdrawal with nowhere to go. Faces: round 1:
    cruiser 1; cruiser 1; round 2: cruiser 7 (hit); cruiser 1."""
    rocks = {"name": "rocks", "anomaly": "asteroid_field", "command_tokens": ["attacker"]}
    scenario = ti3(
        {"units": {"cruiser": 1}, "policy": WITHDRAW},
        {"units": {"cruiser": 1}},
        system={"adjacent": [rocks]},
    )
    played = run(scenario, [1, 1, 7, 1])
    assert events(played, "choice_made", decision="announce_withdrawal") == []
    assert played.outcome["result"] == "attacker_win"


# --- a retreat policy that can never act ----------------------------------------------------


def test_a_withdrawal_policy_with_no_destination_is_said_at_the_start() -> None:
    """T9: a destination holds the player's command counter and no enemy ships. Faces: cruiser
    7 (hit); cruiser 1."""
    scenario = ti3(
        {"units": {"cruiser": 1}, "policy": WITHDRAW},
        {"units": {"cruiser": 1}},
        system={
            "adjacent": [
                {"name": "B"},
                {"name": "C", "command_tokens": ["attacker"], "ships": ["defender"]},
            ]
        },
    )
    played = run(scenario, [7, 1])
    reason = (
        "no adjacent system is a destination ('B' holds no command counter of the player: it "
        "was not activated before; 'C' holds another player's ships)"
    )
    assert played.events[2] == {
        "event": "retreat_ruled_out",
        "player": "attacker",
        "policy": "{after_round: 1}",
        "reason": reason,
    }
    assert notices(scenario) == (
        f"The attacker's retreat policy {{after_round: 1}} can never retreat: {reason}.",
    )


def test_a_reachable_destination_means_nothing_is_said() -> None:
    scenario = ti3(
        {"units": {"cruiser": 1}, "policy": WITHDRAW},
        {"units": {"cruiser": 1}},
        system={"adjacent": [{"name": "B", "command_tokens": ["attacker"]}]},
    )
    assert notices(scenario) == ()


# --- the fleet check before the battle ------------------------------------------------------


def test_the_fleet_check_before_the_battle_is_a_notice() -> None:
    """T16: a carrier holds 6 fighters; of 8, 2 go before the battle."""
    scenario = ti3({"units": {"carrier": 1, "fighter": 8}}, {"units": {"cruiser": 1}})
    assert notices(scenario) == (
        "The attacker's fleet is over capacity at the start, so 2 fighter are removed before "
        "the battle (fleets are checked before it, T16), as the stock policy chooses.",
    )


def test_with_the_check_after_only_the_notice_says_the_fleet_fights_whole() -> None:
    scenario = ti3(
        {"units": {"carrier": 1, "fighter": 8}},
        {"units": {"cruiser": 1}},
        options={"check_fleets_before_battle": False},
    )
    assert notices(scenario) == (
        "The attacker's fleet is over capacity at the start; with check_fleets_before_battle: "
        "false it fights whole, and the excess is removed after the battle.",
    )


# --- strict options -------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("options", "field", "message"),
    [
        (
            {"shock_troop_tokens": True},
            "options.shock_troop_tokens",
            "must be a whole number, written as one (got true)",
        ),
        (
            {"shock_troop_tokens": "3"},
            "options.shock_troop_tokens",
            "must be a whole number, written as one (got '3')",
        ),
        (
            {"mechanized_unit_dice": 2.0},
            "options.mechanized_unit_dice",
            "must be a whole number, written as one (got 2.0)",
        ),
        ({"mechanized_unit_dice": 3}, "options.mechanized_unit_dice", "must be at most 2 (got 3)"),
        ({"shock_troop_tokens": -1}, "options.shock_troop_tokens", "must be at least 0 (got -1)"),
        ({"shock_troops": 1}, "options.shock_troops", "must be true or false (got 1)"),
        ({"shock_troops": "yes"}, "options.shock_troops", "must be true or false (got 'yes')"),
    ],
)
def test_options_are_read_strictly(options: dict[str, Any], field: str, message: str) -> None:
    error = refusal(cruisers(options=options))
    assert (error.field, error.message) == (field, message)


def test_an_unknown_option_names_the_allowed_ones() -> None:
    error = refusal(cruisers(options={"check_capacity_before_battle": False}))
    assert error.field == "options.check_capacity_before_battle"
    assert error.message.startswith("unknown option for ruleset ti3; allowed: shock_troops, ")
    assert "check_fleets_before_battle" in error.message


def test_a_long_unknown_option_name_is_cut() -> None:
    error = refusal(cruisers(options={"x" * 500: True}))
    assert error.field == "options"
    # the name is cut; the list of allowed options after it grows with the options
    named, allowed = error.message.split("; allowed: ")
    assert len(named) < 100
    assert "minister_of_war_has_counter" in allowed
    assert "x" * 100 not in error.message


# --- words in the log -----------------------------------------------------------------------


def test_causes_are_words_as_in_ti4() -> None:
    """Faces: cruiser 7 (hit); cruiser 1."""
    played = run(cruisers(), [7, 1])
    [gone] = events(played, "unit_destroyed")
    assert gone["cause"] == "space combat"
    assert "defender's cruiser is destroyed (space combat)" in render(played.events)


def test_removals_say_when_and_why() -> None:
    """T16: 1 of 7 fighters goes before the battle. Faces: carrier 9 (hit), fighters 1 x6;
    cruiser 1."""
    played = run(
        ti3({"units": {"carrier": 1, "fighter": 7}}, {"units": {"cruiser": 1}}), [9, *[1] * 6, 1]
    )
    assert {e["reason"] for e in events(played, "unit_removed")} == {
        "beyond capacity before the battle"
    }
