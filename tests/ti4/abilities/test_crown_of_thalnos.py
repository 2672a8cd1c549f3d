"""The Crown of Thalnos (base-game law, elect player; abilities/crown_of_thalnos.py): during each
combat round the elected player may reroll any number of their dice; each of their units that
did not produce a hit with its reroll is destroyed (ti4-combat-effects.md §7; data/laws.toml).
No +1 on the rerolls (the relic has one). Chosen per unit type in the "start of combat round"
window (ti4-space-combat.md rule 2.1); the Roll Dice step (step 3) rerolls the chosen types'
misses and destroys the units lost right after the roll (docs/rulings.md 14C2-1).

Exact odds, 1 dreadnought of the elected attacker against 1 cruiser: the dreadnought hits on 5
(3/5), and its reroll hits on 5 too (3/5 >= 1/2: the stock rerolls), so it hits with
3/5 + 2/5 · 3/5 = 21/25 and is destroyed by a missed reroll with 2/5 · 2/5 = 4/25. Its hit
destroys the cruiser; the cruiser's hit (if any) is cancelled by SUSTAIN DAMAGE. So the first
round decides: the attacker wins with 21/25 and loses with 4/25."""

from __future__ import annotations

from fractions import Fraction
from typing import Any

import pytest

from spacecombat import odds
from spacecombat.core.events import Event
from tests.helpers import assert_logs_replay, assert_sampled_as_played, events, rolls, run, space

PLAY = "play crown_of_thalnos: reroll "


def groups(roll: Event) -> list[dict[str, Any]]:
    """A ``dice_rolled`` event's groups."""
    value = roll["groups"]
    assert isinstance(value, list)
    return value


def options(choice: Event) -> list[str]:
    """A ``choice_made`` event's options."""
    value = choice["options"]
    assert isinstance(value, list)
    return value


def elected(attacker: dict[str, Any], defender: dict[str, Any], who: str = "attacker") -> Any:
    return space(attacker, defender, laws=["crown_of_thalnos"], elected={"crown_of_thalnos": who})


def test_no_bonus_and_a_missed_reroll_destroys_the_unit() -> None:
    played = run(elected({"units": "1 dreadnought"}, {"units": "1 cruiser"}), [2, 4, 1])
    [choice] = events(played, "choice_made", decision="play_card")
    assert (choice["player"], choice["choice"]) == ("attacker", PLAY + "dreadnought")
    [roll, _] = rolls(played, "space_combat")
    assert groups(roll)[1]["hit_on"] == 5
    assert groups(roll)[1]["faces"] == [4]
    [lost] = events(played, "unit_destroyed", player="attacker")
    assert lost["cause"] == "crown of thalnos"
    assert played.outcome["result"] == "defender_win"


def test_only_the_elected_player_has_it() -> None:
    played = run(
        elected({"units": "1 cruiser"}, {"units": "1 dreadnought"}, who="defender"),
        [1, 2, 5],
    )
    [choice] = events(played, "choice_made", decision="play_card")
    assert choice["player"] == "defender"
    attacker_roll, defender_roll = rolls(played, "space_combat")
    assert len(groups(attacker_roll)) == 1
    assert groups(defender_roll)[1]["faces"] == [5]


def test_a_unit_whose_reroll_misses_is_destroyed_even_with_a_hit() -> None:
    # a Hacan flagship (2 dice, hit on 7): 7 hits, 3 is rerolled (scripted: the reroll hits on
    # 7, 2/5, so the stock passes) and shows 4: its reroll produced no hit, so it is destroyed
    scenario = elected({"faction": "hacan", "units": "1 flagship"}, {"units": "1 cruiser"})
    played = run(scenario, [7, 3, 4, 1], attacker=[PLAY + "flagship"])
    [roll, _] = rolls(played, "space_combat")
    assert (roll["hits"], roll["units_lost"]) == (1, {"flagship": 1})
    assert played.outcome["result"] == "draw"


def test_the_stock_policy_passes_when_rerolls_hit_less_than_half_the_time() -> None:
    played = run(elected({"units": "1 cruiser"}, {"units": "1 cruiser"}), [7, 1])
    [choice] = events(played, "choice_made", decision="play_card")
    assert choice["choice"] == "pass"
    assert options(choice) == [PLAY + "cruiser", "pass"][::-1]


def test_policy_never_keeps_the_dice() -> None:
    attacker = {"units": "1 dreadnought", "policy": {"play": {"crown_of_thalnos": "never"}}}
    played = run(elected(attacker, {"units": "1 cruiser"}), [2, 1, 5, 1])
    assert not events(played, "card_played")
    assert all(len(groups(r)) == 1 for r in rolls(played, "space_combat"))


def test_exact_odds() -> None:
    result = odds(elected({"units": "1 dreadnought"}, {"units": "1 cruiser"}))
    assert result.attacker_win == pytest.approx(float(Fraction(21, 25)), abs=1e-12)
    assert result.defender_win == pytest.approx(float(Fraction(4, 25)), abs=1e-12)
    assert result.draw == pytest.approx(0.0, abs=1e-12)


# With the Hacan flagship's trade goods (docs/rulings.md 14RR-11; once refused by name): they
# are spent after the Crown's reroll, on the misses left closest to hitting, at equal cost on
# units at risk first; a unit whose rerolled die they make hit is not destroyed.

HACAN = {"faction": "hacan", "units": "1 flagship, 1 dreadnought", "trade_goods": 2}


def hacan_elected() -> Any:
    return elected(HACAN, {"units": "2 cruiser"})


def test_trade_goods_make_the_rerolled_die_hit_and_save_the_unit() -> None:
    # dreadnought 2, rerolled 4 (needs 1); flagship 9 (a hit), 2 (needs 5): 1 trade good
    # buys the dreadnought's 4; the cruisers miss (1, 1)
    played = run(hacan_elected(), [2, 4, 9, 2, 1, 1])
    [roll, _] = rolls(played, "space_combat")
    assert (roll["hits"], roll["trade_goods_spent"], roll["units_lost"]) == (
        2,
        1,
        {"dreadnought": 0},
    )
    assert not events(played, "unit_destroyed", player="attacker")
    assert played.outcome["result"] == "attacker_win"


def test_the_closest_miss_is_bought_first_even_if_a_unit_is_at_risk() -> None:
    # dreadnought 2, rerolled 1 (needs 4); flagship 9, 6 (needs 1): the 6 is bought, the
    # dreadnought is destroyed; the 2 hits take both cruisers (1, 1)
    played = run(hacan_elected(), [2, 1, 9, 6, 1, 1])
    [roll, _] = rolls(played, "space_combat")
    assert (roll["hits"], roll["trade_goods_spent"], roll["units_lost"]) == (
        2,
        1,
        {"dreadnought": 1},
    )
    [lost] = events(played, "unit_destroyed", player="attacker")
    assert (lost["unit"], lost["cause"]) == ("dreadnought", "crown of thalnos")


def test_with_trade_goods_the_sampler_plays_as_play_does_and_logs_replay() -> None:
    scenario = hacan_elected()
    assert_logs_replay(scenario, seeds=5)
    assert_sampled_as_played(scenario, trials=60)
    assert odds(scenario).attacker_win > 0.5
