"""The Cavalry (Nomad promissory note; abilities/the_cavalry.py): at the start of a space combat
against a player other than the Nomad, one of the holder's non-fighter ships is treated during
this combat as having the SUSTAIN DAMAGE, combat value (7 x2) and ANTI-FIGHTER BARRAGE (8 x3)
of Memoria I, or of Memoria II (5 x2, 5 x3) with the condition ``nomad_memoria_ii``
(data/cards.toml). Played through the "play_card" decision in the "start of combat" window
(ti4-space-combat.md rule 2.1), before anti-fighter barrage (step 1); the ship is the unit type
``cavalry_UNIT`` until the combat's result is decided, then turns back
(docs/rulings.md 14S-2)."""

from __future__ import annotations

from fractions import Fraction
from typing import Any, cast

import pytest

from spacecombat import odds
from spacecombat.core.errors import RuleNotImplemented, ScenarioError
from tests.helpers import events, rolls, run, space, survivors

CAVALRY = {"promissory_notes": ["the_cavalry"]}
NO_CAPACITY_CHECK = {"check_capacity_before_battle": False}


def battle(
    attacker: str = "1 destroyer",
    defender: str = "1 fighter",
    *,
    defender_faction: str | None = None,
    **side: Any,
) -> dict[str, Any]:
    theirs: dict[str, Any] = {"units": defender}
    if defender_faction:
        theirs["faction"] = defender_faction
    return space({"units": attacker, **CAVALRY, **side}, theirs, options=NO_CAPACITY_CHECK)


def groups(played: Any, purpose: str, player: str = "attacker") -> list[Any]:
    found: list[Any] = []
    for roll in rolls(played, purpose):
        if roll["player"] == player:
            found += cast("list[Any]", roll["groups"])
    return found


def test_the_ship_rolls_the_flagship_barrage_and_combat_then_turns_back() -> None:
    # barrage 3 dice on 8 all miss; round 1: 2 dice on 7 (one hit), the fighter misses
    played = run(battle(), [1, 1, 1, 7, 1, 1])
    [card] = events(played, "card_played")
    assert (card["player"], card["card"], card["round"]) == ("attacker", "the_cavalry", 1)
    [barrage] = groups(played, "anti_fighter_barrage")
    assert (barrage["unit"], barrage["hit_on"], len(barrage["faces"])) == (
        "cavalry_destroyer",
        8,
        3,
    )
    [combat] = groups(played, "space_combat")
    assert (combat["unit"], combat["hit_on"], len(combat["faces"])) == ("cavalry_destroyer", 7, 2)
    changes = events(played, "unit_changed")
    assert [(e["unit"], e["becomes"]) for e in changes] == [
        ("destroyer", "cavalry_destroyer"),
        ("cavalry_destroyer", "destroyer"),
    ]
    assert played.outcome["winner"] == "attacker"
    assert survivors(played, "attacker") == {"destroyer": 1}


def test_the_ship_gains_sustain_damage() -> None:
    # barrage misses; round 1: the destroyer misses, the fighter hits: it sustains
    played = run(battle(), [1, 1, 1, 1, 1, 9, 7, 1, 1])
    [sustained] = events(played, "damage_sustained")
    assert sustained["unit"] == "cavalry_destroyer"
    assert played.outcome["winner"] == "attacker"


def test_memoria_ii_values_with_the_condition() -> None:
    played = run(battle(conditions=["nomad_memoria_ii"]), [5, 1, 1])
    [barrage] = groups(played, "anti_fighter_barrage")
    assert (barrage["hit_on"], len(barrage["faces"])) == (5, 3)
    assert played.outcome["winner"] == "attacker"  # the barrage destroyed the fighter


def test_the_stock_policy_picks_the_ship_that_gains_most() -> None:
    played = run(battle("1 dreadnought, 1 destroyer", "1 cruiser"), [1, 1, 1, 10, 10, 10, 1])
    [choice] = events(played, "choice_made", decision="play_card")
    assert cast("list[str]", choice["options"])[-1] == "pass"
    # the destroyer gains SUSTAIN DAMAGE and more dice; the dreadnought (5) would lose value
    assert choice["choice"] == "play the_cavalry: destroyer"


def test_a_scripted_player_chooses_the_ship() -> None:
    played = run(
        battle("1 dreadnought, 1 destroyer", "1 fighter"),
        [1, 1, 1, 1, 1, 10, 10, 10, 1],
        attacker=["play the_cavalry: dreadnought"],
    )
    units = {g["unit"] for g in groups(played, "space_combat")}
    assert units == {"cavalry_dreadnought", "destroyer"}


def test_a_scripted_pass_and_policy_never_keep_the_card() -> None:
    played = run(battle(), [1, 1, 9, 1], attacker=["pass"])
    assert not events(played, "card_played")
    [barrage] = groups(played, "anti_fighter_barrage")
    assert (barrage["unit"], barrage["hit_on"]) == ("destroyer", 9)
    never = run(battle(policy={"play": {"the_cavalry": "never"}}), [1, 1, 9, 1])
    assert not events(never, "card_played")


def test_not_against_the_nomad() -> None:
    played = run(battle(defender_faction="nomad"), [1, 1, 9, 1])
    assert not events(played, "choice_made", decision="play_card")


def test_a_retreating_ship_turns_back_too() -> None:
    scenario = battle("1 destroyer", "1 cruiser", policy={"retreat": {"after_round": 1}})
    scenario["system"] = {"adjacent": [{"name": "home", "units": ["attacker"]}]}
    # barrage 3 dice; round 1: both miss; the attacker retreats with its Cavalry ship
    played = run(scenario, [1, 1, 1, 1, 1, 1])
    retreat = cast("dict[str, Any]", played.outcome["retreat"])
    assert retreat["units"] == [{"unit": "destroyer", "count": 1}]
    assert events(played, "unit_changed")[-1]["becomes"] == "destroyer"


def test_the_nomad_cannot_hold_it() -> None:
    with pytest.raises(ScenarioError) as error:
        odds(battle(faction="nomad"))
    assert error.value.field == "attacker.promissory_notes[0]"


def test_a_ship_whose_ability_does_not_yet_see_the_cavalry_is_refused_by_name() -> None:
    # Wrath of Kenara's trade goods read its unit type by key (hacan_flagship_buy_roll_bonus)
    with pytest.raises(RuleNotImplemented) as error:
        odds(battle("1 flagship, 1 destroyer", faction="hacan"))
    assert "The Cavalry with Wrath of Kenara" in str(error.value)
    assert error.value.where == "attacker.promissory_notes[0]"


def test_ipswitch_is_still_refused_by_name() -> None:
    with pytest.raises(RuleNotImplemented) as error:
        odds(battle("1 cruiser", faction="mentak", leaders=["ipswitch_loose_cannon"]))
    assert "The Cavalry together with ipswitch_loose_cannon" in str(error.value)


def test_exact_odds_hand_derived() -> None:
    """Cavalry destroyer (barrage 3 dice on 8, combat 2 dice on 7, SUSTAIN DAMAGE) against one
    fighter (9). The barrage destroys the fighter with 1 - (7/10)^3 = 657/1000: attacker wins.
    Else a duel: the ship hits with a = 1 - (3/5)^2 = 16/25, the fighter with d = 1/5; one
    round repeats with (1-a)(1-d) = 36/125. Damaged ship: win 64/89, draw 16/89, loss 9/89.
    Undamaged: win (16/25 + 9/125 * 64/89) * 125/89 = 7696/7921, draw 9/125 * 16/89 * 125/89
    = 144/7921, loss 81/7921. Attacker: 657/1000 + 343/1000 * 7696/7921."""
    found = odds(battle())
    rest = Fraction(343, 1000)
    assert found.attacker_win == pytest.approx(
        float(Fraction(657, 1000) + rest * Fraction(7696, 7921)), abs=1e-12
    )
    assert found.draw == pytest.approx(float(rest * Fraction(144, 7921)), abs=1e-12)
    assert found.defender_win == pytest.approx(float(rest * Fraction(81, 7921)), abs=1e-12)
