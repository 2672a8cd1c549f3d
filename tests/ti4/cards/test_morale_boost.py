"""Morale Boost (action card; abilities/morale_boost.py): at the start of a combat round, +1 to
all of the holder's combat rolls that round (ti4-combat-effects.md §6; data/cards.toml), played
through the "play_card" decision in the "start of combat round" window (ti4-space-combat.md
rule 2.1; ti4-ground-combat.md rule 4.1)."""

from __future__ import annotations

from fractions import Fraction
from typing import Any

import pytest

from spacecombat import odds
from spacecombat.core.errors import ScenarioError
from tests.helpers import events, invasion, rolls, run, space

MB = {"action_cards": ["morale_boost"]}


def duel(**policy: Any) -> dict[str, Any]:
    attacker: dict[str, Any] = {"units": "1 cruiser", **MB}
    if policy:
        attacker["policy"] = policy
    return space(attacker, {"units": "1 cruiser"})


def hit_on(roll: object) -> object:
    assert isinstance(roll, dict)
    return roll["groups"][0]["hit_on"]


def test_played_in_the_first_round_it_adds_one_to_that_round_only() -> None:
    # round 1: the attacker's cruiser hits on 6 (7 - 1), both miss; round 2: on 7 again
    played = run(duel(), [5, 1, 6, 1, 7, 1])
    [card] = events(played, "card_played")
    assert (card["player"], card["card"], card["round"]) == ("attacker", "morale_boost", 1)
    attacker_rolls = [r for r in rolls(played, "space_combat") if r["player"] == "attacker"]
    assert [hit_on(r) for r in attacker_rolls] == [6, 7, 7]
    defender_rolls = [r for r in rolls(played, "space_combat") if r["player"] == "defender"]
    assert {hit_on(r) for r in defender_rolls} == {7}


def test_played_only_once() -> None:
    played = run(duel(), [1, 1, 1, 1, 1, 1, 7, 1])
    assert len(events(played, "card_played")) == 1


def test_policy_names_the_round() -> None:
    played = run(duel(play={"morale_boost": {"round": 2}}), [1, 1, 6, 1])
    [card] = events(played, "card_played")
    assert card["round"] == 2
    attacker_rolls = [r for r in rolls(played, "space_combat") if r["player"] == "attacker"]
    assert [hit_on(r) for r in attacker_rolls] == [7, 6]


def test_policy_never_keeps_it() -> None:
    played = run(duel(play={"morale_boost": "never"}), [7, 1])
    assert not events(played, "card_played")


def test_a_scripted_player_may_pass_then_play() -> None:
    played = run(duel(), [1, 1, 6, 1], attacker=["pass", "play morale_boost"])
    assert [e["round"] for e in events(played, "card_played")] == [2]


def test_exact_odds_hand_derived() -> None:
    """1 cruiser each; the attacker hits on 6 in round 1 (p = 1/2), both on 7 after (2/5).
    Without the card a 2/5 duel is won 3/8, drawn 1/4. With it:
    attacker = 1/2 * 3/5 + 1/2 * 3/5 * 3/8 = 33/80; draw = 1/2 * 2/5 + 3/10 * 1/4 = 11/40."""
    found = odds(duel())
    assert found.attacker_win == pytest.approx(float(Fraction(33, 80)), abs=1e-12)
    assert found.draw == pytest.approx(float(Fraction(11, 40)), abs=1e-12)
    assert found.defender_win == pytest.approx(float(Fraction(25, 80)), abs=1e-12)


def test_in_ground_combat_too() -> None:
    scenario = invasion(
        {"units": "1 carrier, 1 infantry", **MB},
        {},
        planets=[{"name": "P", "defender": {"infantry": 1}}],
    )
    played = run(scenario, [7, 1])
    [card] = events(played, "card_played")
    assert card["round"] == 1
    attacker = next(r for r in rolls(played, "ground_combat") if r["player"] == "attacker")
    assert hit_on(attacker) == 7  # infantry hit on 8, +1


def test_an_unknown_card_is_refused_with_the_allowed_ones() -> None:
    scenario = space(
        {"units": "1 cruiser", "action_cards": ["moral_boost"]}, {"units": "1 cruiser"}
    )
    with pytest.raises(ScenarioError) as error:
        odds(scenario)
    assert error.value.field == "attacker.action_cards[0]"
    assert "morale_boost" in error.value.message


def test_a_card_of_another_kind_is_refused_in_that_list() -> None:
    scenario = space({"units": "1 cruiser", "leaders": ["morale_boost"]}, {"units": "1 cruiser"})
    with pytest.raises(ScenarioError) as error:
        odds(scenario)
    assert error.value.field == "attacker.leaders[0]"


def test_policy_play_names_a_known_card() -> None:
    with pytest.raises(ScenarioError) as error:
        odds(duel(play={"moral_boost": "never"}))
    assert error.value.field == "attacker.policy.play.moral_boost"


@pytest.mark.parametrize(
    "when", [{"round": -1}, {"round": 101}, "sometimes", {"turn": 2}, {"round": True}]
)
def test_policy_play_says_what_is_allowed(when: object) -> None:
    with pytest.raises(ScenarioError) as error:
        odds(duel(play={"morale_boost": when}))
    assert error.value.field == "attacker.policy.play"
    assert error.value.message.startswith(
        "'morale_boost': allowed: 'never', {round: N} (N from 0 to 100) or 'with_planets' "
        "(The Alastor), not "
    )


def test_in_a_tactical_action_one_card_is_played_once_not_again_in_the_invasion() -> None:
    """Issue 22 (docs/rulings.md 22T-2): the cards a player holds are those of the whole
    tactical action. Morale Boost played in the space combat's first round (the carrier hits
    on 8, 9 - 1) is spent: the invasion's ground combat neither offers it nor adds 1 (the
    infantry hits on 8, its own value)."""
    scenario = {
        "ruleset": "ti4",
        "battle": "tactical",
        "attacker": {"units": "1 carrier, 1 infantry", **MB},
        "defender": {"units": "1 destroyer"},
        "planets": [{"name": "Lodor", "defender": "1 infantry"}],
    }
    # the destroyer's anti-fighter barrage (1, 1), the space combat (8 hits, 1), the ground
    # combat (8 hits, 1)
    played = run(scenario, [1, 1, 8, 1, 8, 1])
    [card] = events(played, "card_played")
    assert (card["card"], card["round"]) == ("morale_boost", 1)
    ended = next(i for i, e in enumerate(played.events) if e.get("event") == "stage_ended")
    offered_after = [
        e for e in played.events[ended:] if "play morale_boost" in str(e.get("options"))
    ]
    assert offered_after == []
    [space_roll] = [r for r in rolls(played, "space_combat") if r["player"] == "attacker"]
    [ground_roll] = [r for r in rolls(played, "ground_combat") if r["player"] == "attacker"]
    assert (hit_on(space_roll), hit_on(ground_roll)) == (8, 8)
    assert played.outcome["taken"] == ["Lodor"]
