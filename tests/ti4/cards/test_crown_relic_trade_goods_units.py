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

from spacecombat import rulesets
from spacecombat.core.decisions import decide
from spacecombat.core.engine import Chance, Decision, Step
from spacecombat.core.pool import Tally
from spacecombat.rulesets import parse_scenario
from tests.helpers import (
    assert_logs_replay,
    assert_sampled_as_played,
    events,
    rolls,
    run,
    space,
)

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
    battle = rulesets.battle(parse_scenario(space(HACAN, {"units": "2 dreadnought"})))
    policies = battle.stock_policies()
    state = battle.start().state
    while True:
        node = battle.advance(state)
        if isinstance(node, Step):
            state = node.state
        elif isinstance(node, Decision):
            state = node.then(decide(node.request, policies)).state
        else:
            break
    assert isinstance(node, Chance)
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
