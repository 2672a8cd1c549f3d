"""The Crown of Thalnos (relic) with the Hacan flagship's trade goods on units of several dice of
one type (docs/rulings.md 27V-2; refused by name before, 14RR-11).

The relic: "reroll any number of your dice with +1; destroy each unit that did not produce a
hit"; Wrath of Kenara: "After you roll a die during a space combat in this system, you may
spend 1 trade good to apply +1 to the result". The roller's rerolls come first, then the trade
goods on the misses left, cheapest first, and at equal cost those that save a unit first
(14RR-11). With two war suns (3 dice each) the roll's tally must tell which war sun's dice all
missed: each war sun is a group of its own while trade goods are spent on the roll, so that a
trade good saves a war sun none of whose dice hit before it buys a hit for the other."""

from __future__ import annotations

from fractions import Fraction
from typing import Any

from spacecombat.core.pool import Tally
from tests.helpers import (
    assert_logs_replay,
    assert_sampled_as_played,
    events,
    rolls,
    run,
    space,
)
from tests.ti4.scenarios import first_chance

HACAN: dict[str, Any] = {
    "faction": "hacan",
    "units": "1 flagship, 2 war_sun",
    "trade_goods": 1,
    "relics": ["the_crown_of_thalnos"],
}


def test_a_trade_good_saves_the_war_sun_none_of_whose_dice_hit() -> None:
    # The first war sun (hits on 3; the Crown's reroll on 2): 1, 1, 1, rerolled 1, 1, 1: no hit.
    # The second: 5, 5, 1, rerolled 1: 2 hits. The flagship (hits on 7): 7, 7. Each miss left
    # needs 1 trade good; the one trade good goes to the first war sun (it saves it), not to
    # the second's miss (a hit only): 5 hits, no unit lost. The dreadnoughts miss (1, 1).
    played = run(
        space(HACAN, {"units": "2 dreadnought"}), [1, 1, 1, 1, 1, 1, 5, 5, 1, 1, 7, 7, 1, 1]
    )
    first = rolls(played, "space_combat")[0]
    groups = first["groups"]
    assert isinstance(groups, list)
    assert [(g["unit"], g["faces"]) for g in groups] == [
        ("war_sun", [1, 1, 1]),
        ("war_sun", [1, 1, 1]),
        ("war_sun", [5, 5, 1]),
        ("war_sun", [1]),
        ("flagship", [7, 7]),
    ]
    assert (first["hits"], first["trade_goods_spent"], first["units_lost"]) == (
        5,
        1,
        {"flagship": 0, "war_sun": 0},
    )
    assert not events(played, "unit_destroyed", player="attacker")
    assert played.outcome["result"] == "attacker_win"


def test_with_no_trade_good_left_a_war_sun_none_of_whose_dice_hit_is_destroyed() -> None:
    # Both war suns: 1, 1, 1, rerolled 1, 1, 1. The one trade good saves the first; the second
    # is destroyed right after the roll. The flagship 7, 7; the dreadnought 1: 3 hits destroy
    # it.
    played = run(space(HACAN, {"units": "1 dreadnought"}), [1] * 12 + [7, 7, 1])
    first = rolls(played, "space_combat")[0]
    assert (first["hits"], first["trade_goods_spent"], first["units_lost"]) == (
        3,
        1,
        {"flagship": 0, "war_sun": 1},
    )
    [lost] = events(played, "unit_destroyed", cause="crown of thalnos")
    assert (lost["player"], lost["unit"]) == ("attacker", "war_sun")


def test_logs_replay_and_are_sampled_as_played() -> None:
    scenario = space(HACAN, {"units": "3 dreadnought"})
    assert_logs_replay(scenario, seeds=5)
    assert_sampled_as_played(scenario, trials=60)


def test_the_first_roll_hand_derived() -> None:
    """The stock player has the Crown reroll both types (a war sun's reroll hits on 2, the
    flagship's on 6: at least half the time) and spends its 1 trade good. A war sun die misses
    at last with 2/10 x 1/10 = 1/50, showing 1 (1 trade good makes it hit); a war sun none of
    whose dice hit: q = (1/50)^3. A flagship die misses at last with 3/5 x 1/2 = 3/10, showing
    1 to 5 alike (needing 5 to 1 trade goods). The trade good goes to a miss needing 1, those
    that save a unit first, in rolling order (war suns, then the flagship): a war sun is lost
    only when both are (q^2: one is saved); the flagship is lost when both its dice missed
    (9/100), unless one shows 5 (1 - (4/5)^2 = 9/25) and no war sun needs the trade good
    ((1 - q)^2)."""
    node = first_chance(space(HACAN, {"units": "2 dreadnought"}))
    assert node.roller == "attacker"
    assert [(g.unit, g.dice, g.doom, g.budget) for g in node.pool.groups] == [
        ("war_sun", 3, 3, 1),
        ("war_sun", 3, 3, 1),
        ("flagship", 2, 2, 1),
    ]
    f = Fraction
    q = f(1, 50) ** 3
    war_suns: dict[int, Fraction] = {}
    flagship = f(0)
    for tally, chance in node.outcomes(exact=True).items():
        assert isinstance(tally, Tally)
        assert isinstance(chance, Fraction)
        lost = tally.lost
        war_suns[lost[0] + lost[1]] = war_suns.get(lost[0] + lost[1], f(0)) + chance
        flagship += chance * lost[2]
    assert war_suns == {0: 1 - q**2, 1: q**2}
    assert flagship == f(9, 100) * (1 - f(9, 25) * (1 - q) ** 2)


# With the law (docs/rulings.md 27V-3): a unit is lost when the dice the Crown rerolled all
# missed, even if another of its dice hit; a trade good on one of those misses saves it.

LAW_HACAN: dict[str, Any] = {
    "faction": "hacan",
    "units": "1 flagship, 2 war_sun",
    "trade_goods": 2,
}


def law_elected(defender: str, **attacker: Any) -> dict[str, Any]:
    return space(
        {**LAW_HACAN, **attacker},
        {"units": defender},
        laws=["crown_of_thalnos"],
        elected={"crown_of_thalnos": "attacker"},
    )


def test_with_the_law_the_trade_goods_save_the_war_sun_whose_rerolls_all_missed() -> None:
    # The first war sun (hits on 3): 5, 1, 1, rerolled 4, 1: a reroll hit, it is safe, 1 miss
    # left. The second: 5, 5, 1, rerolled 1: its only reroll missed, so the law would destroy
    # it though it hit twice. The flagship (not rerolled: 2/5 < 1/2) 7, 7. Each war sun's miss
    # left shows 1 and needs 2 trade goods: the 2 trade goods buy the second's (saving it), not
    # the first's (rolled first, a hit only). 7 hits; the 3 dreadnoughts miss (1, 1, 1).
    played = run(law_elected("3 dreadnought"), [5, 1, 1, 4, 1, 5, 5, 1, 1, 7, 7, 1, 1, 1])
    first = rolls(played, "space_combat")[0]
    assert (first["hits"], first["trade_goods_spent"], first["units_lost"]) == (
        7,
        2,
        {"war_sun": 0},
    )
    assert not events(played, "unit_destroyed", player="attacker")
    assert played.outcome["result"] == "attacker_win"


def test_with_the_law_a_war_sun_that_hit_is_lost_when_its_rerolls_missed() -> None:
    # As above, but 1 trade good: it cannot buy a miss needing 2, and the second war sun is
    # destroyed right after the roll (its 2 hits still count: 6 in all).
    scenario = law_elected("3 dreadnought", trade_goods=1)
    played = run(scenario, [5, 1, 1, 4, 1, 5, 5, 1, 1, 7, 7, 1, 1, 1])
    first = rolls(played, "space_combat")[0]
    assert (first["hits"], first["trade_goods_spent"], first["units_lost"]) == (
        6,
        0,
        {"war_sun": 1},
    )
    [lost] = events(played, "unit_destroyed", cause="crown of thalnos")
    assert (lost["player"], lost["unit"]) == ("attacker", "war_sun")


def test_with_the_law_logs_replay_and_are_sampled_as_played() -> None:
    scenario = law_elected("3 dreadnought", trade_goods=1)
    assert_logs_replay(scenario, seeds=5)
    assert_sampled_as_played(scenario, trials=60)


def test_with_the_law_the_first_roll_hand_derived() -> None:
    """1 trade good. The Crown (law, no bonus) rerolls the war suns' misses (a reroll hits on 3,
    4/5), not the flagship's. A war sun die is rerolled with 1/5 and misses again with 1/5,
    showing 1 or 2 alike (needing 2 or 1 trade goods). A war sun is at risk when it rerolled r
    >= 1 dice and all missed: (4/5 + 1/5 · 1/5)^3 - (4/5)^3 = 1261/15625; with no miss needing
    1 trade good (each shows 1: 1/2): (4/5 + 1/50)^3 - (4/5)^3 = 4921/125000 (R2), with one
    (R1) 5167/125000. The trade good goes to a miss needing 1, first one that saves a war sun,
    the first war sun first: both lost only if both are R2; none lost when neither is at risk
    or the only one at risk is R1."""
    node = first_chance(law_elected("2 dreadnought", trade_goods=1))
    assert node.roller == "attacker"
    assert [(g.unit, g.dice, g.doom, g.doom_strict) for g in node.pool.groups] == [
        ("war_sun", 3, 3, True),
        ("war_sun", 3, 3, True),
        ("flagship", 2, 0, False),
    ]
    f = Fraction
    r2, r1 = f(4921, 125000), f(5167, 125000)
    safe = 1 - r1 - r2
    lost: dict[int, Fraction] = {}
    for tally, chance in node.outcomes(exact=True).items():
        assert isinstance(tally, Tally)
        assert isinstance(chance, Fraction)
        gone = tally.lost[0] + tally.lost[1]
        lost[gone] = lost.get(gone, f(0)) + chance
    none = safe * safe + 2 * safe * r1
    assert lost == {0: none, 1: 1 - none - r2 * r2, 2: r2 * r2}


def test_with_the_law_a_trade_good_saves_the_flagship_whose_reroll_missed() -> None:
    # A scripted player has the law reroll the flagship's misses: 7 (a hit) and 3, rerolled 6:
    # its only reroll missed. The trade good raises the 6 to a hit of the reroll, so the
    # flagship stays (once refused by name: one unit of several dice with the law). The
    # cruiser misses (1) and takes the 2 hits.
    scenario = space(
        {"faction": "hacan", "units": "1 flagship", "trade_goods": 1},
        {"units": "1 cruiser"},
        laws=["crown_of_thalnos"],
        elected={"crown_of_thalnos": "attacker"},
    )
    crown, goods = "play crown_of_thalnos: reroll flagship", "play hacan_flagship_buy_roll_bonus"
    played = run(scenario, [7, 3, 6, 1], attacker=[crown, f"{goods}: up to 1 trade goods"])
    first = rolls(played, "space_combat")[0]
    assert (first["hits"], first["trade_goods_spent"], first["units_lost"]) == (
        2,
        1,
        {"flagship": 0},
    )
    assert played.outcome["result"] == "attacker_win"
