"""Rule of Terror (TI3 base action card; data/action_cards.toml; docs/rulings.md 27S-27): played
immediately before a space battle by a player with a war sun or two dreadnoughts there, its
opponent retreats at once (if able) or takes 2 casualties.

Dice: a pool rolls its groups in ascending printed value, then unit name; in an exchange the
attacker rolls before the defender."""

from __future__ import annotations

from fractions import Fraction
from typing import Any

from spacecombat import odds
from tests.helpers import assert_logs_replay, assert_sampled_as_played, events, run
from tests.ti3.effects import space

CARD = {"action_cards": ["rule_of_terror"]}
#: an adjacent system the defender activated before: it may retreat there
RETREAT = {"adjacent": [{"name": "B", "command_tokens": ["defender"]}]}


def terror(defender: dict[str, Any], attacker: dict[str, int] | None = None, **extra: Any) -> Any:
    return space({"units": attacker or {"war_sun": 1}, **CARD}, defender, **extra)


def test_two_casualties_when_it_cannot_retreat() -> None:
    """No destination: the defender takes 2 casualties, its two cruisers; none is left, so no
    die is rolled."""
    played = run(terror({"units": {"cruiser": 2}}), [])
    lost = events(played, "unit_destroyed", cause="Rule of Terror")
    assert [(e["player"], e["unit"]) for e in lost] == [("defender", "cruiser")] * 2
    assert played.outcome["result"] == "attacker_win"


def test_sustain_damage_may_take_a_casualty() -> None:
    """A dreadnought and a cruiser: the stock defender (sustain first) damages its dreadnought,
    then loses its cruiser. Round 1: war sun 3, 1, 1 (a hit: the damaged dreadnought); 1."""
    played = run(terror({"units": {"dreadnought": 1, "cruiser": 1}}), [3, 1, 1, 1])
    assert [e["unit"] for e in events(played, "damage_sustained", cause="Rule of Terror")] == [
        "dreadnought"
    ]
    assert [e["unit"] for e in events(played, "unit_destroyed", cause="Rule of Terror")] == [
        "cruiser"
    ]
    assert played.outcome["result"] == "attacker_win"


def test_the_opponent_retreats_by_its_settings() -> None:
    """``retreat: {after_round: 0}`` and somewhere to go: the defender's fleet leaves before the
    battle, no casualty; the attacker holds the system."""
    defender = {"units": {"cruiser": 2}, "policy": {"retreat": {"after_round": 0}}}
    played = run(terror(defender, system=RETREAT), [])
    assert not events(played, "unit_destroyed")
    assert played.outcome["result"] == "attacker_win"
    assert played.outcome["rounds"] == 0
    assert played.outcome["withdrawal"] == {
        "player": "defender",
        "kind": "retreat",
        "to": "B",
        "units": [{"unit": "cruiser", "count": 2}],
    }


def test_the_stock_opponent_without_settings_takes_the_casualties() -> None:
    """Somewhere to go but no retreat setting: it stays and loses both cruisers."""
    played = run(terror({"units": {"cruiser": 2}}, system=RETREAT), [])
    assert len(events(played, "unit_destroyed", cause="Rule of Terror")) == 2


def test_not_offered_with_one_dreadnought() -> None:
    """Round 1: 5 (hit); 1."""
    played = run(terror({"units": {"cruiser": 1}}, {"dreadnought": 1}), [5, 1])
    assert not events(played, "choice_made", decision="play_card")


def test_exact_odds_a_war_sun_against_three_cruisers() -> None:
    """Hand-derived. Two of the three cruisers go; then the war sun (3 dice at 3+: it hits with
    a = 1 - (1/5)^3 = 124/125; SUSTAIN DAMAGE) against one cruiser (p = 2/5), tests/ti3/
    effects.py's duel: r = (1/125)(3/5) = 3/625; the war sun is damaged with (1 - a) p / (1 -
    r) = 1/311, wins at once with a / (1 - r) = 310/311; damaged it wins a (1 - p) / (1 - r) =
    186/311, draws a p / (1 - r) = 124/311, loses 1/311. Attacker 310/311 + 186/96721 =
    96596/96721, draw 124/96721, defender 1/96721."""
    report = odds(terror({"units": {"cruiser": 3}}), fractions=True)
    assert (report.attacker_win, report.draw, report.defender_win) == (
        Fraction(96596, 96721),
        Fraction(124, 96721),
        Fraction(1, 96721),
    )


def test_logs_replay_and_the_sampler_plays_as_the_resolver() -> None:
    scenario = space(
        {"units": {"dreadnought": 2, "cruiser": 1}, **CARD},
        {
            "units": {"dreadnought": 1, "cruiser": 2},
            "action_cards": ["rule_of_terror", "direct_hit"],
            "policy": {"retreat": {"when_outnumbered": 1.5}},
        },
        system=RETREAT,
    )
    assert_logs_replay(scenario, seeds=8)
    assert_sampled_as_played(scenario, trials=40)
