"""Skilled Retreat (TI3 action card; data/action_cards.toml; docs/rulings.md 27S-6): at the
start of a combat round of a space battle the holder puts a command counter from its supply in
an adjacent system and moves its fleet there; the battle ends, the other player holding the
system.

Dice: in an exchange the attacker rolls before the defender."""

from __future__ import annotations

from fractions import Fraction
from typing import Any

from spacecombat import odds
from tests.helpers import assert_logs_replay, assert_sampled_as_played, events, run
from tests.ti3.effects import space

CARD = {"action_cards": ["skilled_retreat"]}
#: an adjacent system the defender never activated: the card's own counter is enough
NEXT_DOOR = {"adjacent": [{"name": "B"}]}


def battle(defender: dict[str, Any], system: Any = NEXT_DOOR) -> dict[str, Any]:
    return space(
        {"units": {"cruiser": 1}},
        {"units": {"cruiser": 1}, **CARD, **defender},
        system=system,
    )


def test_the_fleet_leaves_before_the_first_round() -> None:
    """A stock holder whose retreat settings retreat in round 1 plays it then (27S-23): the
    defender's cruiser moves to B before any die is rolled; the attacker holds the system."""
    played = run(battle({"policy": {"retreat": {"after_round": 1}}}), [])
    assert [e["card"] for e in events(played, "card_played")] == ["skilled_retreat"]
    assert played.outcome["result"] == "attacker_win"
    assert played.outcome["rounds"] == 0
    assert played.outcome["withdrawal"] == {
        "player": "defender",
        "kind": "retreat",
        "to": "B",
        "units": [{"unit": "cruiser", "count": 1}],
    }


def test_played_from_a_later_round() -> None:
    """``policy.play: {skilled_retreat: {round: 2}}``: round 1 is fought (1; 1), then the fleet
    leaves at the start of round 2."""
    played = run(battle({"policy": {"play": {"skilled_retreat": {"round": 2}}}}), [1, 1])
    assert [e["round"] for e in events(played, "card_played")] == [2]
    assert played.outcome["rounds"] == 1
    assert played.outcome["result"] == "attacker_win"


def test_not_offered_with_nowhere_to_go() -> None:
    """B holds the attacker's ships: no destination, no offer. Round 1: 7 (hit); 1."""
    system = {"adjacent": [{"name": "B", "ships": ["attacker"]}]}
    played = run(battle({}, system), [7, 1])
    assert not events(played, "choice_made", decision="play_card")


def test_not_into_a_system_it_activated() -> None:
    """The TI3 deck's text: "an unactivated system": B holds the defender's command counter.
    Round 1: 7 (hit); 1."""
    system = {"adjacent": [{"name": "B", "command_tokens": ["defender"]}]}
    played = run(battle({}, system), [7, 1])
    assert not events(played, "choice_made", decision="play_card")


def test_exact_odds_retreating_at_the_start_of_round_2() -> None:
    """Hand-derived. Round 1, one cruiser each (7+: 2/5): attacker only 6/25, both 4/25,
    defender only 6/25, neither 9/25, when the defender leaves at the start of round 2 and the
    attacker holds the system: attacker 15/25 = 3/5, draw 4/25, defender 6/25."""
    report = odds(battle({"policy": {"play": {"skilled_retreat": {"round": 2}}}}), fractions=True)
    assert (report.attacker_win, report.draw, report.defender_win) == (
        Fraction(3, 5),
        Fraction(4, 25),
        Fraction(6, 25),
    )


def test_logs_replay_and_the_sampler_plays_as_the_resolver() -> None:
    scenario = space(
        {"units": {"cruiser": 2, "destroyer": 1}, **CARD},
        {"units": {"cruiser": 2}, **CARD, "policy": {"play": {"skilled_retreat": {"round": 2}}}},
        system={"adjacent": [{"name": "B"}, {"name": "C"}]},
    )
    assert_logs_replay(scenario, seeds=8)
    assert_sampled_as_played(scenario, trials=40)


def test_the_stock_holder_without_retreat_settings_never_plays_it() -> None:
    """27S-23: a player who merely lists the card keeps fighting. Round 1: 7 (hit); 1."""
    played = run(battle({}), [7, 1])
    assert not events(played, "card_played")
    assert played.outcome["result"] == "attacker_win"


def test_the_stock_holder_plays_it_when_outnumbered() -> None:
    """27S-23: ``retreat: {when_outnumbered: 2}``: against three cruisers' dice (3 against 1)
    the defender's settings would retreat in round 1, so it plays the card then."""
    scenario = space(
        {"units": {"cruiser": 3}},
        {"units": {"cruiser": 1}, **CARD, "policy": {"retreat": {"when_outnumbered": 2}}},
        system=NEXT_DOOR,
    )
    played = run(scenario, [])
    assert [e["round"] for e in events(played, "card_played")] == [1]
    assert played.outcome["rounds"] == 0


def test_exact_odds_the_stock_holder_retreating_after_round_1() -> None:
    """Hand-derived, 27S-23. ``retreat: {after_round: 2}``: the settings announce a retreat in
    round 2, so the card is played at the start of round 2, before its dice: the odds of
    ``policy.play: {skilled_retreat: {round: 2}}`` (above): attacker 3/5, draw 4/25, defender
    6/25."""
    report = odds(battle({"policy": {"retreat": {"after_round": 2}}}), fractions=True)
    assert (report.attacker_win, report.draw, report.defender_win) == (
        Fraction(3, 5),
        Fraction(4, 25),
        Fraction(6, 25),
    )
