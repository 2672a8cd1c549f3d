"""Ipswitch, Loose Cannon (Mentak hero; abilities/ipswitch_loose_cannon.py): at the start of a
space combat, purge it; for each of the opponent's ships destroyed during this combat, place a
ship of that type from reinforcements in the active system (ti4-combat-effects.md §4;
data/cards.toml). Offered in the "start of combat" window (ti4-space-combat.md rule 2.1;
procedures/windows.py), before its holder's other start-of-combat effects (Ambush); each ship is
placed when the enemy ship is destroyed (procedures/assign_hits.py ``after_destroyed``; in a
timing window, procedures/windows.py ``_follow_destroyed``) and fights from then on
(docs/rulings.md 14B3-4, 14B3-5)."""

from __future__ import annotations

from fractions import Fraction
from typing import Any

import pytest

from spacecombat import odds
from spacecombat.core.engine import Played
from spacecombat.core.errors import ScenarioError
from spacecombat.rulesets.ti4.state import BattleState
from tests.helpers import events, rolls, run, space, survivors


def mentak(fleet: str, **extra: Any) -> dict[str, Any]:
    return {"units": fleet, "faction": "mentak", "leaders": ["ipswitch_loose_cannon"], **extra}


def placed(played: Played[BattleState]) -> list[tuple[object, object]]:
    return [(e["player"], e["unit"]) for e in events(played, "units_placed")]


def test_each_enemy_ship_destroyed_is_replaced_and_fights() -> None:
    # Round 1: carrier 9 (hit); cruisers 1, 1. Round 2: the new cruiser 9 and the carrier 9
    # (2 hits); cruiser 1. Each cruiser destroyed gives the Mentak a cruiser.
    played = run(space(mentak("1 carrier"), {"units": "2 cruiser"}), [9, 1, 1, 9, 9, 1])
    [card] = events(played, "card_played")
    assert (card["player"], card["card"], card["round"]) == ("attacker", "ipswitch_loose_cannon", 1)
    [first, second] = events(played, "units_placed")
    assert first == {
        "event": "units_placed",
        "player": "attacker",
        "unit": "cruiser",
        "count": 1,
        "planet": None,
        "by": "ipswitch_loose_cannon",
    }
    assert second["unit"] == "cruiser"
    round_two = rolls(played, "space_combat")[2]
    groups = round_two["groups"]
    assert isinstance(groups, list)
    assert sorted(g["unit"] for g in groups) == ["carrier", "cruiser"]  # the new cruiser rolls
    assert survivors(played, "attacker") == {"carrier": 1, "cruiser": 2}
    kinds = [e["event"] for e in played.events]
    assert kinds.index("unit_destroyed") + 1 == kinds.index("units_placed")  # at once


def test_the_combat_goes_on_when_only_the_new_ships_are_left() -> None:
    # Round 1: carrier 9 (hit); cruisers 7, 1 (hit): both sides lose a ship, the Mentak keeps
    # the new cruiser. Round 2: cruiser 7 (hit); cruiser 1. The Mentak wins.
    played = run(space(mentak("1 carrier"), {"units": "2 cruiser"}), [9, 7, 1, 7, 1])
    assert placed(played) == [("attacker", "cruiser"), ("attacker", "cruiser")]
    assert events(played, "round_started", round=2)
    assert played.outcome["result"] == "attacker_win"


def test_fighters_are_replaced_by_fighters() -> None:
    # Round 1: carrier 9 (hit); the defender's carrier 1, fighter 1: the fighter goes (stock
    # casualty order) and the Mentak gets a fighter. Round 2: fighter 9, carrier 9; carrier 1.
    scenario = space(mentak("1 carrier"), {"units": "1 carrier, 1 fighter"})
    played = run(scenario, [9, 1, 1, 9, 9, 1])
    assert placed(played)[0] == ("attacker", "fighter")


def test_policy_never_and_a_scripted_pass() -> None:
    # Carrier 9; cruiser 1, then carrier 9; nothing is placed without the purge.
    never = mentak("1 carrier", policy={"play": {"ipswitch_loose_cannon": "never"}})
    played = run(space(never, {"units": "2 cruiser"}), [9, 1, 1, 9, 1])
    assert events(played, "card_played") == []
    assert placed(played) == []
    passed = run(
        space(mentak("1 carrier"), {"units": "2 cruiser"}), [9, 1, 1, 9, 1], attacker=["pass"]
    )
    assert [e["choice"] for e in events(passed, "choice_made", decision="play_card")] == ["pass"]
    assert placed(passed) == []


def test_the_holders_own_ships_are_not_replaced() -> None:
    # Carrier 1; cruiser 7 (hit): the Mentak carrier is destroyed, nothing is placed.
    played = run(space(mentak("1 carrier"), {"units": "1 cruiser"}), [1, 7])
    assert placed(played) == []
    assert played.outcome["result"] == "defender_win"


def test_offered_before_ambush_whose_kills_are_replaced() -> None:
    # Start of combat: Ipswitch first, then Ambush (cruiser 10: a hit on the destroyer, placed
    # as a destroyer for the Mentak). AFB: destroyers 1, 1 (the Mentak's new one), 1, 1 (the
    # defender's). Round 1: cruiser 1, destroyer 1; destroyer 1; round 2: 9, 9; 1.
    scenario = space(mentak("1 cruiser"), {"units": "2 destroyer"})
    played = run(scenario, [10, 1, 1, 1, 1, 1, 1, 1, 9, 9, 1])
    kinds = [e["event"] for e in played.events]
    assert kinds.index("card_played") < [e.get("purpose") for e in played.events].index("ambush")
    [ambushed, *_] = events(played, "unit_destroyed", player="defender")
    assert ambushed["cause"] == "Ambush"
    assert placed(played) == [("attacker", "destroyer"), ("attacker", "destroyer")]


SOL = {"units": "1 flagship", "faction": "sol"}


def test_no_flagship_while_the_mentak_one_is_in_the_fight() -> None:
    # The Mentak (attacker) flagship is its only piece, in the active system under its command
    # token (LRR 23.4a). Fourth Moon 7, 1 (a hit: the Sol flagship cannot sustain it beside
    # the Fourth Moon); Sol flagship 1, 1.
    played = run(space(mentak("1 flagship"), SOL), [7, 1, 1, 1])
    assert events(played, "unit_destroyed", player="defender", unit="flagship")
    assert placed(played) == []
    assert survivors(played, "attacker") == {"flagship": 1}


def test_a_flagship_gives_the_mentak_flagship_when_it_is_not_in_the_fight() -> None:
    # Round 1: dreadnought 5 (the Sol flagship sustains); flagship 1, 1. Round 2: dreadnought
    # 5 (destroyed); flagship 1, 1. The Mentak flagship is placed.
    played = run(space(mentak("1 dreadnought"), SOL), [5, 1, 1, 5, 1, 1])
    assert placed(played) == [("attacker", "flagship")]
    assert survivors(played, "attacker") == {"dreadnought": 1, "flagship": 1}


def against_a_damaged_war_sun(**extra: Any) -> dict[str, Any]:
    return space(mentak("2 dreadnought", **extra), {"units": "1 war_sun", "damaged": "1 war_sun"})


def test_no_war_sun_without_the_war_sun_technology() -> None:
    """14K-7 (tirules.com Mentak notes): no war sun is placed unless the Mentak player owns the
    War Sun technology. Dreadnoughts 5, 1 (the damaged war sun is destroyed); war sun 1, 1, 1."""
    played = run(against_a_damaged_war_sun(), [5, 1, 1, 1, 1])
    assert events(played, "unit_destroyed", player="defender", unit="war_sun")
    assert placed(played) == []


def test_a_war_sun_with_the_war_sun_technology() -> None:
    played = run(against_a_damaged_war_sun(conditions=["war_sun_technology"]), [5, 1, 1, 1, 1])
    assert placed(played) == [("attacker", "war_sun")]
    assert survivors(played, "attacker") == {"dreadnought": 2, "war_sun": 1}


def test_a_war_sun_of_theirs_in_the_battle_shows_the_technology() -> None:
    scenario = space(mentak("1 war_sun"), {"units": "1 war_sun", "damaged": "1 war_sun"})
    # war sun 3, 1, 1 (the damaged war sun is destroyed); war sun 1, 1, 1
    played = run(scenario, [3, 1, 1, 1, 1, 1])
    assert placed(played) == [("attacker", "war_sun")]


def defending_flagship(**extra: Any) -> dict[str, Any]:
    """A damaged Fourth Moon, the Mentak's only flagship piece, defends against the Sol one."""
    return space(SOL, mentak("1 flagship", damaged="1 flagship", **extra))


def test_a_defender_without_a_command_token_here_takes_its_own_piece_repaired() -> None:
    """14K-7: every Mentak flagship piece is in the active system; the defender has no command
    token there, so it takes the damaged Fourth Moon and places it undamaged. Sol flagship
    1, 1; Fourth Moon 7, 1 (the Sol flagship cannot sustain beside it)."""
    played = run(defending_flagship(), [1, 1, 7, 1])
    [repaired] = events(played, "unit_repaired")
    assert (repaired["player"], repaired["unit"], repaired["by"]) == (
        "defender",
        "flagship",
        "ipswitch_loose_cannon",
    )
    assert placed(played) == []
    defender = played.outcome["defender"]
    assert isinstance(defender, dict)
    assert defender["space"] == [{"unit": "flagship", "count": 1}]


def test_a_defender_with_a_command_token_here_takes_nothing() -> None:
    played = run(defending_flagship(conditions=["command_token_in_active_system"]), [1, 1, 7, 1])
    assert not events(played, "unit_repaired")
    defender = played.outcome["defender"]
    assert isinstance(defender, dict)
    assert defender["space"] == [{"unit": "flagship", "count": 1, "status": "damaged"}]


def test_a_flagship_to_replace_needs_the_holders_faction() -> None:
    holder = {"units": "1 carrier", "leaders": ["ipswitch_loose_cannon"]}
    with pytest.raises(ScenarioError, match=r"attacker\.faction"):
        odds(space(holder, SOL))


def test_exact_odds_hand_derived() -> None:
    """Mentak carrier against a destroyer, both hitting on 9 (1/5 a round). Without Ipswitch:
    attacker = defender = (4/25) / (9/25) = 4/9, draw 1/9. With it, when both hit the Mentak
    gets a destroyer for the one destroyed and wins: attacker = (4/25 + 1/25) / (9/25) = 5/9,
    defender = 4/9, draw 0."""
    found = odds(space(mentak("1 carrier"), {"units": "1 destroyer"}))
    assert found.attacker_win == pytest.approx(float(Fraction(5, 9)), abs=1e-12)
    assert found.defender_win == pytest.approx(float(Fraction(4, 9)), abs=1e-12)
    assert found.draw == pytest.approx(0.0, abs=1e-12)
    never = mentak("1 carrier", policy={"play": {"ipswitch_loose_cannon": "never"}})
    plain = odds(space(never, {"units": "1 destroyer"}))
    assert plain.draw == pytest.approx(float(Fraction(1, 9)), abs=1e-12)


def test_a_ship_the_crown_of_thalnos_destroys_is_replaced() -> None:
    # Units the Crown destroys in the Roll Dice step are heard right after the roll
    # (docs/rulings.md 14RR-7). The carrier misses; the cruiser misses, its reroll misses too:
    # the relic destroys it, and the Mentak places a cruiser.
    crowned = {"units": "1 cruiser", "relics": ["the_crown_of_thalnos"]}
    played = run(space(mentak("1 carrier"), crowned), [1, 1, 1])
    [lost] = events(played, "unit_destroyed")
    assert (lost["player"], lost["unit"], lost["cause"]) == (
        "defender",
        "cruiser",
        "crown of thalnos",
    )
    assert placed(played) == [("attacker", "cruiser")]
    assert played.outcome["winner"] == "attacker"
    assert survivors(played, "attacker") == {"carrier": 1, "cruiser": 1}
