"""Watcher (Empyrean mech; abilities/empyrean_mech_cancel_action_card.py): "You may remove this
unit from a system that contains or is adjacent to another player's units to cancel an action
card played by that player" (ti4-combat-effects.md, mechs; data/units.toml).

When the opponent answers "play" to an action card's "play_card" decision, the Empyrean is asked
next (a "play_card" decision of its own, card ``empyrean_mech_cancel_action_card``): remove a
mech from one place to cancel the card, or ``pass`` and the card is played as chosen
(docs/rulings.md 14E2-1 to 14E2-4). Cards are offered from several procedures: timing windows
(Morale Boost), hit assignment (Shields Holding, Direct Hit), the start of an invasion
(Bunker); each is covered here."""

from __future__ import annotations

from collections.abc import Mapping
from fractions import Fraction
from typing import Any, cast

import pytest

from spacecombat import odds
from spacecombat.replayer import replay
from spacecombat.resolver import resolve
from tests.helpers import events, invasion, rolls, run, space, survivors

ID = "empyrean_mech_cancel_action_card"
NEVER = {"play": {ID: "never"}}


def empyrean(units: str, **extra: Any) -> dict[str, Any]:
    return {"faction": "empyrean", "units": units, **extra}


def duel(*, cards: tuple[str, ...] = ("morale_boost",), **watcher: Any) -> dict[str, Any]:
    """An Empyrean cruiser with a mech on a planet against a cruiser holding ``cards``."""
    side = empyrean("1 cruiser", planet_units={"mech": 1}, **watcher)
    return space(side, {"units": "1 cruiser", "action_cards": list(cards)})


def groups(roll: Mapping[str, object]) -> list[dict[str, Any]]:
    """The dice groups of a ``dice_rolled`` event."""
    return cast("list[dict[str, Any]]", roll["groups"])


def hit_on(played: Any, player: str) -> list[int]:
    return [
        g["hit_on"]
        for r in rolls(played, "space_combat")
        if r["player"] == player
        for g in groups(r)
    ]


def asked(played: Any, player: str = "attacker") -> list[Any]:
    """The Watcher's questions to ``player``."""
    return [
        e
        for e in events(played, "choice_made", decision="play_card", player=player)
        if any(str(o).startswith(f"play {ID}") for o in cast("list[str]", e["options"]))
    ]


# --- a card played in a timing window: Morale Boost ------------------------------------------


def test_the_stock_policy_cancels_morale_boost_with_a_mech_from_a_planet() -> None:
    # cruisers hit on 7; the defender plays Morale Boost at the start of round 1, the
    # Empyrean removes its mech (it fights in no space combat) and the boost never acts
    played = run(duel(), [7, 1])
    [question] = asked(played)
    assert question["options"] == [f"play {ID}: remove mech from the planets", "pass"]
    assert question["choice"] == question["options"][0]
    [removed] = events(played, "unit_removed")
    assert (removed["player"], removed["unit"]) == ("attacker", "mech")
    [cancelled] = events(played, "card_cancelled")
    assert (cancelled["player"], cancelled["card"], cancelled["by"]) == (
        "defender",
        "morale_boost",
        ID,
    )
    assert hit_on(played, "defender") == [7]  # no +1
    kinds = [e["event"] for e in played.events]
    assert kinds.index("card_cancelled") < kinds.index("dice_rolled")
    assert survivors(played, "attacker", "planet") == {}


def test_policy_never_lets_it_be_played() -> None:
    played = run(duel(policy=NEVER), [7, 1])
    [question] = asked(played)
    assert question["choice"] == "pass"
    assert not events(played, "card_cancelled")
    assert not events(played, "unit_removed")
    assert hit_on(played, "defender") == [6]  # +1 this round
    [card] = events(played, "card_played")
    assert (card["player"], card["card"]) == ("defender", "morale_boost")
    assert survivors(played, "attacker", "planet") == {"mech": 1}


def test_a_scripted_pass_then_the_card_is_played_once() -> None:
    played = run(duel(), [1, 1, 7, 1], attacker=["pass"])
    assert len(events(played, "card_played")) == 1
    assert hit_on(played, "defender") == [6, 7]  # the boost lasts round 1 only


def test_the_card_is_gone_after_it_was_cancelled() -> None:
    # a cancelled card is discarded: it is not offered again in round 2
    played = run(duel(), [1, 1, 7, 1])
    offers = events(played, "choice_made", decision="play_card", player="defender")
    assert len(offers) == 1
    assert hit_on(played, "defender") == [7, 7]


def test_exact_odds_when_the_stock_policy_cancels() -> None:
    """Cruiser against cruiser, each hitting 2/5: the Watcher cancels Morale Boost, so the
    duel is plain: won p(1−p)/(1−(1−p)²) = (6/25)/(16/25) = 3/8."""
    result = odds(duel())
    assert result.attacker_win == pytest.approx(float(Fraction(3, 8)), abs=1e-12)
    assert result.residual == pytest.approx(0, abs=1e-12)


def test_exact_odds_when_it_is_let_be_played() -> None:
    """With ``never`` the defender hits 1/2 in round 1: won 2/5 · 1/2 = 1/5 then, and the
    rest that goes on (3/5 · 1/2 = 3/10) is a plain duel won 3/8: 1/5 + 3/10 · 3/8 = 5/16."""
    result = odds(duel(policy=NEVER))
    expected = Fraction(5, 16)
    assert result.attacker_win == pytest.approx(float(expected), abs=1e-12)


def test_no_question_without_a_mech() -> None:
    # the Watcher's ability comes with the mech: no mech in the battle, nothing to ask
    played = run(space(empyrean("1 cruiser"), {"units": "1 cruiser", **_MB}), [7, 1])
    assert not asked(played)
    assert hit_on(played, "defender") == [6]


_MB = {"action_cards": ["morale_boost"]}


def test_its_own_cards_are_not_cancelled() -> None:
    # the Empyrean plays Morale Boost: nobody is asked whether to cancel it
    side = empyrean("1 cruiser", planet_units={"mech": 1}, **_MB)
    played = run(space(side, {"units": "1 cruiser"}), [6, 1])
    assert not events(played, "card_cancelled")
    assert hit_on(played, "attacker") == [6]
    assert len(events(played, "choice_made", decision="play_card")) == 1


def test_a_leader_is_not_an_action_card() -> None:
    # Viscount Unlenn (an agent) is exhausted without a question to the Empyrean
    scenario = space(
        empyrean("1 cruiser", planet_units={"mech": 1}),
        {"units": "1 cruiser", "leaders": ["viscount_unlenn"]},
    )
    played = run(scenario, [7, 1, 1])
    assert not asked(played)
    assert not events(played, "card_cancelled")


# --- cards played while hits are assigned: Shields Holding, Direct Hit -----------------------


def test_shields_holding_is_cancelled_and_the_hits_stand() -> None:
    # two Empyrean cruisers hit (7, 7); the defender plays Shields Holding before assigning
    scenario = space(
        empyrean("2 cruiser", planet_units={"mech": 1}),
        {"units": "1 cruiser", "action_cards": ["shields_holding"]},
    )
    played = run(scenario, [7, 7, 1])
    [cancelled] = events(played, "card_cancelled")
    assert cancelled["card"] == "shields_holding"
    assert not events(played, "hits_cancelled")
    assert survivors(played, "defender") == {}


def test_shields_holding_let_cancels_two_hits() -> None:
    scenario = space(
        empyrean("2 cruiser", planet_units={"mech": 1}, policy=NEVER),
        {"units": "1 cruiser", "action_cards": ["shields_holding"]},
    )
    played = run(scenario, [7, 7, 1, 7, 1, 1])
    [cancelled] = events(played, "hits_cancelled")
    assert cancelled["hits"] == 2
    assert survivors(played, "defender") == {}
    assert len(rolls(played, "space_combat")) == 4  # a second round was needed


def test_direct_hit_is_cancelled_and_the_dreadnought_stays_damaged() -> None:
    # the opponent's cruiser hits (7); the Empyrean dreadnought sustains; Direct Hit is
    # played and cancelled; round 2 the cruiser hits the damaged dreadnought again
    scenario = space(
        {"units": "1 cruiser", "action_cards": ["direct_hit"]},
        empyrean("1 dreadnought", planet_units={"mech": 1}),
    )
    played = run(scenario, [7, 1, 7, 1])
    [cancelled] = events(played, "card_cancelled")
    assert (cancelled["player"], cancelled["card"]) == ("attacker", "direct_hit")
    [question] = asked(played, "defender")
    assert question["choice"] == f"play {ID}: remove mech from the planets"
    [sustained] = events(played, "damage_sustained")
    assert sustained["unit"] == "dreadnought"
    assert len(rolls(played, "space_combat")) == 4


def test_direct_hit_let_destroys_the_dreadnought() -> None:
    scenario = space(
        {"units": "1 cruiser", "action_cards": ["direct_hit"]},
        empyrean("1 dreadnought", planet_units={"mech": 1}, policy=NEVER),
    )
    played = run(scenario, [7, 1])
    assert not events(played, "card_cancelled")
    assert survivors(played, "defender") == {}
    assert len(rolls(played, "space_combat")) == 2


# --- a card played at the start of an invasion: Bunker ---------------------------------------


def bunker(attacker: str = "1 dreadnought, 1 mech", **extra: Any) -> dict[str, Any]:
    return invasion(
        empyrean(attacker, **extra), {"units": "1 infantry", "action_cards": ["bunker"]}
    )


def bombard_hit_on(played: Any) -> list[int]:
    return [g["hit_on"] for r in rolls(played, "bombardment") for g in groups(r)]


def test_bunker_is_let_when_the_only_mech_will_land() -> None:
    # the mech in the space area is committed to the planet: the stock policy keeps it
    played = run(bunker(), [9])
    [question] = asked(played)
    assert question["options"][0] == "pass"
    assert question["choice"] == "pass"
    assert bombard_hit_on(played) == [9]  # Dreadnought I bombards 5, -4 with Bunker


def test_a_scripted_answer_removes_the_mech_to_cancel_bunker() -> None:
    played = run(
        bunker("1 dreadnought, 1 infantry, 1 mech"),
        [5],
        attacker=[f"play {ID}: remove mech from the space area"],
    )
    [cancelled] = events(played, "card_cancelled")
    assert cancelled["card"] == "bunker"
    assert bombard_hit_on(played) == [5]
    assert survivors(played, "attacker", "planet") == {"infantry": 1}


def test_a_mech_in_an_adjacent_system_cancels_once() -> None:
    # the condition empyrean_mech_adjacent: the stock policy removes that mech first; the mech
    # in the battle lands
    played = run(bunker(conditions=["empyrean_mech_adjacent"]), [5])
    [question] = asked(played)
    assert question["choice"] == f"play {ID}: remove mech from an adjacent system"
    [removed] = events(played, "unit_removed")
    assert "adjacent system" in str(removed["reason"])
    assert bombard_hit_on(played) == [5]
    assert survivors(played, "attacker", "planet") == {"mech": 1}


def test_exact_odds_of_an_invasion_with_a_mech_next_door() -> None:
    """Dreadnought I bombards 5 (3/5) the lone infantry; else infantry against infantry (each
    3/10: won (21/100)/(51/100) = 7/17). The stock policy cancels Bunker with the mech next
    door: 3/5 + 2/5 · 7/17 = 13/17; with ``never`` Bunker leaves 9 (1/5): 1/5 + 4/5 · 7/17 =
    9/17."""
    adjacent = {"conditions": ["empyrean_mech_adjacent"]}
    cancelled = odds(bunker("1 dreadnought, 1 infantry", **adjacent))
    assert cancelled.attacker_win == pytest.approx(float(Fraction(13, 17)), abs=1e-12)
    let = odds(bunker("1 dreadnought, 1 infantry", policy=NEVER, **adjacent))
    assert let.attacker_win == pytest.approx(float(Fraction(9, 17)), abs=1e-12)


def test_the_adjacent_mech_is_removed_only_once() -> None:
    # two action cards, one mech next door and none in the active system: Morale Boost is
    # cancelled, Shields Holding (2 hits in round 1) is played without a question
    scenario = space(
        empyrean("2 cruiser", conditions=["empyrean_mech_adjacent"]),
        {"units": "1 cruiser", "action_cards": ["morale_boost", "shields_holding"]},
    )
    played = run(scenario, [7, 7, 1, 7, 7, 1])
    assert [e["card"] for e in events(played, "card_cancelled")] == ["morale_boost"]
    assert len(asked(played)) == 1
    [shield] = events(played, "hits_cancelled")
    assert shield["hits"] == 2


def test_the_adjacent_condition_says_nothing_without_the_empyrean() -> None:
    # like the other player conditions, a fact that no effect of this player reads
    scenario = space(
        {"units": "1 cruiser", "conditions": ["empyrean_mech_adjacent"]},
        {"units": "1 cruiser", **_MB},
    )
    played = run(scenario, [7, 1])
    assert not asked(played)
    assert hit_on(played, "defender") == [6]


# --- logs ------------------------------------------------------------------------------------


@pytest.mark.parametrize("policy", [{}, NEVER])
def test_logs_replay(policy: dict[str, Any]) -> None:
    played = resolve(duel(policy=policy), seed=3)
    assert asked(played)
    report = replay(list(played.events))
    assert report.reproduces, report.reason
    scripted = run(duel(), [1, 1, 7, 1], attacker=["pass"])
    assert replay(list(scripted.events)).reproduces


def test_reveal_prototype_is_cancelled_and_nothing_is_researched() -> None:
    # a card played in one of several ways (play reveal_prototype: cruiser) is cancellable too;
    # the cruiser stays a Cruiser I (7), its resources unspent
    holder = {
        "units": "1 cruiser",
        "action_cards": ["reveal_prototype"],
        "resources": 4,
        "technology_colours": {"green": 1, "yellow": 1, "red": 1},
    }
    played = run(space(empyrean("1 cruiser", planet_units={"mech": 1}), holder), [1, 7])
    [question] = asked(played)
    assert question["choice"] == f"play {ID}: remove mech from the planets"
    assert not events(played, "technology_gained")
    assert not events(played, "resources_spent")
    assert hit_on(played, "defender") == [7]
    assert [e["card"] for e in events(played, "card_cancelled")] == ["reveal_prototype"]
