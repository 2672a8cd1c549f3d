"""The Crown of Thalnos (relic; abilities/crown_of_thalnos_relic.py): during each combat round
its owner may reroll any number of their dice with +1 on the rerolls; each unit that rerolled
and produced no hit is destroyed (ti4-combat-effects.md §8; data/cards.toml). Chosen per unit
type in the "start of combat round" window (ti4-space-combat.md rule 2.1; ti4-ground-combat.md
rule 4.1); the roll of step 3 (space) / step 1 (ground) rerolls the chosen types' misses, and
the units lost are destroyed right after it (docs/rulings.md 14C2-1, 14C2-2).

Exact odds, 1 cruiser with the relic against 1 cruiser: the owner's cruiser hits on 7
(2/5), else its reroll hits on 6 (3/5 · 1/2 = 3/10): it hits with 7/10 and is destroyed with
3/10 (a miss and a missed reroll). The opponent's cruiser hits with 2/5. The first round
decides: both hit, a draw (7/10 · 2/5 = 7/25); only the owner hits, a win (7/10 · 3/5 = 21/50);
the owner's cruiser destroyed by its reroll, a loss (3/10), whatever the opponent rolls."""

from __future__ import annotations

import json
from fractions import Fraction
from typing import Any

import pytest

from spacecombat import odds
from spacecombat.core.events import Event
from spacecombat.replayer import replay
from spacecombat.resolver import resolve
from spacecombat.rulesets import parse_scenario
from tests.helpers import (
    assert_logs_replay,
    assert_sampled_as_played,
    events,
    invasion,
    rolls,
    run,
    space,
)

CROWN = {"relics": ["the_crown_of_thalnos"]}
PLAY = "play the_crown_of_thalnos: reroll "


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


def duel(units: str = "1 cruiser", enemy: str = "1 cruiser", **policy: Any) -> dict[str, Any]:
    attacker: dict[str, Any] = {"units": units, **CROWN}
    if policy:
        attacker["policy"] = policy
    return space(attacker, {"units": enemy})


def test_a_missed_reroll_destroys_the_unit() -> None:
    # the cruiser shows 3, is rerolled with +1 (hit on 6) and shows 5: destroyed
    played = run(duel(), [3, 5, 1])
    [choice] = events(played, "choice_made", decision="play_card")
    assert choice["choice"] == PLAY + "cruiser"
    [roll, _] = rolls(played, "space_combat")
    first, again = groups(roll)
    assert (first["faces"], first["reroll_modifier"], first["dice_per_unit"]) == ([3], 1, 1)
    assert (again["faces"], again["hit_on"], again["rerolled"]) == ([5], 6, True)
    assert roll["units_lost"] == {"cruiser": 1}
    [lost] = events(played, "unit_destroyed", player="attacker")
    assert (lost["unit"], lost["cause"]) == ("cruiser", "crown of thalnos")
    assert played.outcome["result"] == "defender_win"


def test_a_hitting_reroll_keeps_the_unit() -> None:
    # 3, then 6 (+1 = 7): a hit; the defender misses
    played = run(duel(), [3, 6, 1])
    [roll, _] = rolls(played, "space_combat")
    assert (roll["hits"], roll["units_lost"]) == (1, {"cruiser": 0})
    assert not events(played, "unit_destroyed", player="attacker")
    assert played.outcome["result"] == "attacker_win"


def test_a_die_that_hits_is_not_rerolled() -> None:
    played = run(duel(), [7, 1])
    [roll, _] = rolls(played, "space_combat")
    assert len(groups(roll)) == 1
    assert roll["hits"] == 1


def test_a_flagship_with_one_hit_is_safe() -> None:
    # a Hacan flagship rolls 2 dice (hit on 7; its reroll hits on 6, 1/2: the stock rerolls):
    # 7 hits, 3 is rerolled and misses (4 + 1): the unit produced a hit, so it stays
    scenario = space({"faction": "hacan", "units": "1 flagship", **CROWN}, {"units": "1 cruiser"})
    played = run(scenario, [7, 3, 4, 1])
    [roll, _] = rolls(played, "space_combat")
    assert groups(roll)[0]["dice_per_unit"] == 2
    assert (roll["hits"], roll["units_lost"]) == (1, {"flagship": 0})
    assert played.outcome["result"] == "attacker_win"


def test_damaged_units_are_lost_first() -> None:
    # two dreadnoughts, one damaged; both miss, one reroll misses: the damaged one goes
    scenario = space(
        {"units": {"dreadnought": 2}, "damaged": {"dreadnought": 1}, **CROWN},
        {"units": "1 carrier"},
    )
    played = run(scenario, [1, 1, 9, 1, 9], all_dice=False)
    [lost] = events(played, "unit_destroyed", player="attacker")
    assert (lost["unit"], lost["status"]) == ("dreadnought", "damaged")


def test_the_stock_policy_rerolls_only_types_whose_reroll_hits_half_the_time() -> None:
    # a carrier's reroll hits on 8 (3/10): the stock passes; a cruiser's on 6 (1/2): rerolled
    played = run(duel("1 cruiser, 1 carrier", "1 dreadnought"), [7, 9, 1])
    [choice] = events(played, "choice_made", decision="play_card")
    assert choice["choice"] == PLAY + "cruiser"
    assert PLAY + "cruiser, carrier" in options(choice)
    assert PLAY + "carrier" in options(choice)
    alone = run(duel("1 carrier", "1 carrier"), [9, 1])
    [passed] = events(alone, "choice_made", decision="play_card")
    assert passed["choice"] == "pass"
    assert options(passed)[0] == "pass"


def test_a_scripted_choice_rerolls_the_named_type() -> None:
    played = run(duel("1 carrier", "1 carrier"), [3, 9, 1], attacker=[PLAY + "carrier"])
    [roll, _] = rolls(played, "space_combat")
    assert groups(roll)[1]["hit_on"] == 8
    assert roll["hits"] == 1


@pytest.mark.parametrize("policy", [{"play": {"the_crown_of_thalnos": "never"}}, None])
def test_policy_never_or_a_scripted_pass_keeps_the_dice(policy: Any) -> None:
    scenario = duel(**policy) if policy else duel()
    played = run(scenario, [3, 1, 7, 1], attacker=None if policy else ["pass", "pass"])
    assert not events(played, "card_played")
    assert all(len(groups(r)) == 1 for r in rolls(played, "space_combat"))


def test_used_every_round_and_in_ground_combat() -> None:
    # a mech hits on 6, its reroll on 5 (3/5): rerolled. Round 1: 1, rerolled 5 (a hit); the
    # defender's mech misses and sustains the hit; round 2: 6 hits without a reroll
    scenario = invasion({"units": "1 carrier, 1 mech", **CROWN}, {"units": "1 mech"})
    played = run(scenario, [1, 5, 1, 6, 1], all_dice=False)
    plays = events(played, "card_played", card="the_crown_of_thalnos")
    assert plays
    assert all(p["player"] == "attacker" for p in plays)
    ground = rolls(played, "ground_combat")
    assert groups(ground[0])[1]["hit_on"] == 5
    assert [len(groups(r)) for r in ground if r["player"] == "attacker"] == [2, 1]
    assert played.outcome["result"] == "attacker_win"


def test_exact_odds_of_a_duel() -> None:
    result = odds(duel())
    assert result.attacker_win == pytest.approx(float(Fraction(21, 50)), abs=1e-12)
    assert result.draw == pytest.approx(float(Fraction(7, 25)), abs=1e-12)
    assert result.defender_win == pytest.approx(float(Fraction(3, 10)), abs=1e-12)


# With another effect that rerolls the same dice (docs/rulings.md 14RR-1, 14RR-2): the other
# effect's reroll is made first, the Crown's last, on the dice that still missed.

LETNEV = {"faction": "letnev", "units": "1 cruiser", "trade_goods": 2, **CROWN}


def test_munitions_reserves_rerolls_first_then_the_crown() -> None:
    # 3 misses; Munitions Reserves: 4 misses; the Crown: 6 + 1 = 7 hits; the defender: 1
    played = run(space(LETNEV, {"units": "1 cruiser"}), [3, 4, 6, 1])
    plays = [c["choice"] for c in events(played, "choice_made", decision="play_card")]
    assert plays == ["play munitions_reserves", PLAY + "cruiser"]
    [roll, _] = rolls(played, "space_combat")
    assert [(g["faces"], g["modifier"], g.get("rerolled", False)) for g in groups(roll)] == [
        ([3], 0, False),
        ([4], 0, True),
        ([6], 1, True),
    ]
    assert groups(roll)[0]["reroll_modifiers"] == [0, 1]
    assert (roll["hits"], roll["units_lost"]) == (1, {"cruiser": 0})
    assert played.outcome["result"] == "attacker_win"


def test_a_die_that_munitions_reserves_made_hit_is_not_rerolled_by_the_crown() -> None:
    played = run(space(LETNEV, {"units": "1 cruiser"}), [3, 7, 1])
    [roll, _] = rolls(played, "space_combat")
    assert len(groups(roll)) == 2
    assert (roll["hits"], roll["units_lost"]) == (1, {"cruiser": 0})


def test_a_missed_crown_reroll_after_munitions_reserves_destroys_the_unit() -> None:
    played = run(space(LETNEV, {"units": "1 cruiser"}), [3, 4, 4, 1])
    [lost] = events(played, "unit_destroyed", player="attacker")
    assert lost["cause"] == "crown of thalnos"
    assert played.outcome["result"] == "defender_win"


def test_crown_passed_munitions_reserves_alone() -> None:
    played = run(
        space(LETNEV, {"units": "1 cruiser"}),
        [3, 7, 1],
        attacker=["play munitions_reserves", "pass"],
    )
    [roll, _] = rolls(played, "space_combat")
    assert len(groups(roll)) == 2
    assert "units_lost" not in roll


def test_exact_odds_with_munitions_reserves() -> None:
    """Hand-derived: the Letnev cruiser (7) misses with 3/5, again with 3/5 (Munitions
    Reserves), then the Crown's reroll (6) with 1/2: it hits with 1 - 9/50 = 41/50 and is
    destroyed with 9/50. The first round decides: lost, a loss (9/50); a hit and the
    defender's (2/5), a draw (41/125); a hit alone, a win (123/250)."""
    result = odds(space(LETNEV, {"units": "1 cruiser"}))
    assert result.defender_win == pytest.approx(float(Fraction(9, 50)), abs=1e-12)
    assert result.draw == pytest.approx(float(Fraction(41, 125)), abs=1e-12)
    assert result.attacker_win == pytest.approx(float(Fraction(123, 250)), abs=1e-12)


def test_logs_with_both_rerolls_replay_with_and_without_their_seed() -> None:
    scenario = space(
        {**LETNEV, "units": "2 cruiser, 1 destroyer", "trade_goods": 6}, {"units": "3 cruiser"}
    )
    for seed in range(6):
        log = [json.loads(json.dumps(e)) for e in resolve(scenario, seed=seed).events]
        assert replay(log).reproduces
        report = replay([{**log[0], "seed": None}, *log[1:]])
        assert report.reproduces, report.reason


def test_the_sampler_plays_both_rerolls_as_play_does() -> None:
    scenario = parse_scenario(
        space(
            {**LETNEV, "units": "2 cruiser, 1 destroyer", "trade_goods": 6}, {"units": "3 cruiser"}
        )
    )
    assert_sampled_as_played(scenario, trials=60)


# The units the Crown destroys are heard by the effects acting after a unit is destroyed, right
# after the roll (docs/rulings.md 14RR-7): Brother Milor places 2 fighters for the cruiser.

MILOR = {"units": "1 cruiser", **CROWN, "leaders": ["brother_milor"]}


def test_a_unit_the_crown_destroys_is_heard_right_after_the_roll() -> None:
    # 3, rerolled 4 + 1: the cruiser is destroyed; Brother Milor places 2 fighters before the
    # defender rolls (1). Round 2: the fighters' reroll hits on 8 + 1 (3/10): not rerolled;
    # 9, 9 hit; the defender 1.
    played = run(space(MILOR, {"units": "1 cruiser"}), [3, 4, 1, 9, 9, 1])
    kinds = [e["event"] for e in played.events]
    lost = kinds.index("unit_destroyed")
    placed = kinds.index("units_placed")
    defender_roll = [i for i, e in enumerate(played.events) if e["event"] == "dice_rolled"][1]
    assert lost < placed < defender_roll
    assert played.events[lost]["cause"] == "crown of thalnos"
    [card] = events(played, "card_played", card="brother_milor")
    assert card["player"] == "attacker"
    assert played.outcome["result"] == "attacker_win"


def test_heard_destructions_replay_and_are_sampled_as_played() -> None:
    scenario = space({**MILOR, "units": "2 cruiser"}, {"units": "3 cruiser"})
    assert_logs_replay(scenario, seeds=6)
    assert_sampled_as_played(scenario, trials=60)


def test_exact_odds_with_brother_milor_hand_derived() -> None:
    """1 cruiser with the relic and Brother Milor (once) against 1 cruiser. Round 1: the
    cruiser hits with 7/10 and wins, even when the defender hits it (its loss gives 2
    fighters). It is lost to its reroll with 3/10, and the 2 fighters come before the defender
    rolls: its hit (2/5) takes one. Then fighters (1/5 each, the Crown passed: 3/10 < 1/2)
    against the cruiser (2/5): one fighter wins 3/13, draws 2/13; two win as soon as one hits
    (9/25: a fighter is left whatever the cruiser does), no hit and a hit back (16/25 * 2/5)
    leave one, and no hit either way repeats (denominator 1 - 16/25 * 3/5 = 77/125)."""
    f = Fraction
    one_win, one_draw = f(3, 13), f(2, 13)
    den = 1 - f(16, 25) * f(3, 5)
    to_one = f(16, 25) * f(2, 5) / den
    two_win = f(9, 25) / den + to_one * one_win
    two_draw = to_one * one_draw
    lost = f(3, 10)
    win = f(7, 10) + lost * (f(3, 5) * two_win + f(2, 5) * one_win)
    draw = lost * (f(3, 5) * two_draw + f(2, 5) * one_draw)
    found = odds(space(MILOR, {"units": "1 cruiser"}))
    assert found.attacker_win == pytest.approx(float(win), abs=1e-12)
    assert found.draw == pytest.approx(float(draw), abs=1e-12)


# One cruiser of two rolls 1 more die (Viscount Unlenn): its unit is doomed as a group of its
# own, 2 dice to the unit (docs/rulings.md 14RR-12; once refused by name).

VISCOUNT = {
    "faction": "letnev",
    "units": "2 cruiser",
    **CROWN,
    "leaders": ["viscount_unlenn"],
}


def test_the_unit_with_one_more_die_is_doomed_by_its_two_dice() -> None:
    # the cruiser with 2 dice: 1 (rerolled 2: a miss) and 8: it produced a hit, it stays; the
    # other: 3, rerolled 4 (+1: a miss): destroyed
    played = run(space(VISCOUNT, {"units": "2 cruiser"}), [1, 8, 2, 3, 4, 1, 1, 9, 1])
    first = rolls(played, "space_combat")[0]
    assert [(g["faces"], g.get("dice_per_unit")) for g in groups(first)] == [
        ([1, 8], 2),
        ([2], None),
        ([3], 1),
        ([4], None),
    ]
    assert (first["hits"], first["units_lost"]) == (1, {"cruiser": 1})


def test_the_first_roll_hand_derived() -> None:
    """Each die hits at last with 2/5 + 3/5 * 1/2 = 7/10. The cruiser with 2 dice makes 0, 1, 2
    hits with 9/100 (lost), 42/100, 49/100; the other 0 (lost) or 1 with 3/10, 7/10."""
    from spacecombat.core.pool import Tally
    from tests.ti4.scenarios import first_chance

    node = first_chance(space(VISCOUNT, {"units": "1 cruiser"}))
    assert node.roller == "attacker"
    f = Fraction
    two = {(0, 1): f(9, 100), (1, 0): f(42, 100), (2, 0): f(49, 100)}
    one = {(0, 1): f(3, 10), (1, 0): f(7, 10)}
    expected: dict[Tally, Fraction] = {}
    for (h2, l2), p2 in two.items():
        for (h1, l1), p1 in one.items():
            key = Tally(h2 + h1, 0, (l2, l1))
            expected[key] = expected.get(key, f(0)) + p2 * p1
    assert dict(node.outcomes(exact=True)) == expected


# With the Hacan flagship's trade goods (docs/rulings.md 14RR-11): the flagship (2 dice, one
# unit) is saved by one of its misses bought.

HACAN = {"faction": "hacan", "units": "1 flagship, 1 cruiser", "trade_goods": 3, **CROWN}


def test_a_trade_good_on_a_rerolled_die_saves_the_flagship() -> None:
    # the cruiser 8 (a hit); the flagship 2 and 1, rerolled 5 and 1 (+1: needs 1 and 5): 1
    # trade good buys the 5, the flagship produced a hit and stays; the cruisers miss (1, 1)
    played = run(space(HACAN, {"units": "2 cruiser"}), [8, 2, 1, 5, 1, 1, 1])
    [roll, _] = rolls(played, "space_combat")
    assert (roll["hits"], roll["trade_goods_spent"], roll["units_lost"]) == (
        2,
        1,
        {"cruiser": 0, "flagship": 0},
    )
    assert played.outcome["result"] == "attacker_win"


def test_with_trade_goods_logs_replay_and_are_sampled_as_played() -> None:
    scenario = space(HACAN, {"units": "3 cruiser"})
    assert_logs_replay(scenario, seeds=5)
    assert_sampled_as_played(scenario, trials=60)
