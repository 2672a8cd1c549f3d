"""Dice pools whose outcome is a ``Tally`` (core/pool.py ``DiceGroup.doom``, ``budget``): units
lost to their own rerolls (TI4 Crown of Thalnos) and trade goods spent for +1 on missed dice
(TI4 Hacan flagship). The exact distribution, ``tally`` of the sampled faces (the resolver's
and the Monte Carlo sampler's view) and every sequence of faces agree, by enumeration."""

from __future__ import annotations

import json
from collections import Counter
from fractions import Fraction
from itertools import product

import pytest

from spacecombat.core.dice import ScriptedDice
from spacecombat.core.engine import Chance, Step
from spacecombat.core.pool import DiceGroup, DicePool, Tally
from spacecombat.replayer import replay
from spacecombat.resolver import resolve
from spacecombat.rulesets import parse_scenario
from tests.helpers import assert_sampled_as_played, space

GROUPS = [
    [DiceGroup("cruiser", 2, 7, reroll=1, doom=1)],
    [DiceGroup("flagship", 2, 7, reroll=1, doom=2), DiceGroup("fighter", 1, 9)],
    [DiceGroup("flagship", 2, 7, reroll=0, doom=2, doom_strict=True)],
    [DiceGroup("flagship", 2, 6, -3, extra_on=9, extra_hits=2, reroll=1, doom=2)],
    [DiceGroup("cruiser", 2, 7, budget=3), DiceGroup("destroyer", 2, 9, budget=3)],
    [DiceGroup("cruiser", 1, 7, -3, budget=4), DiceGroup("dreadnought", 2, 5, budget=4)],
    [DiceGroup("fighter", 4, 9, budget=5)],
]


def by_enumeration(pool: DicePool) -> dict[Tally, Fraction]:
    """Every sequence of faces the pool may read, through ``sample`` and ``tally``."""
    reads = sum(g.dice * (2 if g.reroll is not None else 1) for g in pool.groups)
    counts: Counter[Tally] = Counter()
    for faces in product(range(1, 11), repeat=reads):
        counts[pool.tally(pool.sample(ScriptedDice(faces)))] += 1
    return {key: Fraction(n, 10**reads) for key, n in counts.items()}


@pytest.mark.parametrize(
    "groups",
    # the second pool takes seconds to enumerate: the whole suite's, not the fast loop's
    [pytest.param(g, marks=pytest.mark.slow) if i == 1 else g for i, g in enumerate(GROUPS)],
)
def test_the_tally_distribution_is_that_of_sample(groups: list[DiceGroup]) -> None:
    pool = DicePool.of(groups)
    assert pool.tallied
    exact = pool.tally_distribution()
    assert dict(exact) == by_enumeration(pool)
    assert sum(exact.values()) == 1
    assert max(key.hits for key in exact) == pool.max_hits


def test_a_unit_is_lost_when_its_reroll_misses() -> None:
    # relic: 2 cruisers; the first hits (8), the second misses (3) and misses again (5 + 1 < 7)
    pool = DicePool.of([DiceGroup("cruiser", 2, 7, reroll=1, doom=1)])
    rolled = pool.sample(ScriptedDice([8, 3, 5]))
    assert pool.tally(rolled) == Tally(1, 0, (1,))
    # a reroll of 6 hits with +1
    assert pool.tally(pool.sample(ScriptedDice([8, 3, 6]))) == Tally(2, 0, (0,))


def test_a_unit_with_a_hit_is_safe_unless_its_rerolls_must_hit() -> None:
    # a flagship of 2 dice: 7 hits, 3 misses and is rerolled (4 misses)
    relic = DicePool.of([DiceGroup("flagship", 2, 7, reroll=1, doom=2)])
    law = DicePool.of([DiceGroup("flagship", 2, 7, reroll=0, doom=2, doom_strict=True)])
    assert relic.tally(relic.sample(ScriptedDice([7, 3, 4]))) == Tally(1, 0, (0,))
    assert law.tally(law.sample(ScriptedDice([7, 3, 4]))) == Tally(1, 0, (1,))


def test_trade_goods_buy_the_closest_misses_first() -> None:
    # cruisers hit on 7: faces 4 (needs 3) and 6 (needs 1); 2 trade goods buy only the 6
    pool = DicePool.of([DiceGroup("cruiser", 2, 7, budget=2)])
    assert pool.tally(pool.sample(ScriptedDice([4, 6]))) == Tally(1, 1, (0,))
    rich = DicePool.of([DiceGroup("cruiser", 2, 7, budget=4)])
    assert rich.tally(rich.sample(ScriptedDice([4, 6]))) == Tally(2, 4, (0,))


def test_a_tallied_chance_gives_its_continuation_the_tally() -> None:
    pool = DicePool.of([DiceGroup("cruiser", 1, 7, budget=1)])
    seen: list[Tally] = []

    def then(tally: Tally) -> Step[int]:
        seen.append(tally)
        return Step(0)

    chance: Chance[int] = Chance("a", "test", pool, lambda hits: Step(hits), then_tally=then)
    outcomes = chance.outcomes(exact=True)
    assert outcomes == {
        Tally(1, 0, (0,)): Fraction(2, 5),
        Tally(1, 1, (0,)): Fraction(1, 10),
        Tally(0, 0, (0,)): Fraction(1, 2),
    }
    floats = chance.outcomes(exact=False)
    assert floats[Tally(1, 1, (0,))] == pytest.approx(0.1)
    # a plain number of hits (the stalemate check's paths) is a tally with nothing spent
    chance.after(1)
    assert seen == [Tally(1, 0, (0,))]


def test_groups_that_cannot_be_tallied_are_refused() -> None:
    with pytest.raises(ValueError, match="whole units"):
        DiceGroup("cruiser", 2, 7, doom=1)  # no reroll
    with pytest.raises(ValueError, match="whole units"):
        DiceGroup("flagship", 3, 7, reroll=0, doom=2)
    with pytest.raises(ValueError, match="plain dice"):
        DiceGroup("war_sun", 6, 3, reroll=1, doom=3, budget=1)
    with pytest.raises(ValueError, match="plain dice"):
        DiceGroup("flagship", 2, 7, extra_on=9, extra_hits=2, budget=1)
    with pytest.raises(ValueError, match="same trade goods"):
        DicePool.of([DiceGroup("cruiser", 1, 7, budget=1), DiceGroup("fighter", 1, 9)])


@pytest.mark.parametrize(
    ("attacker", "defender"),
    [
        (
            {"units": "2 cruiser, 1 dreadnought", "relics": ["the_crown_of_thalnos"]},
            {"units": "3 cruiser"},
        ),
        (
            {"faction": "hacan", "units": "1 flagship, 1 cruiser", "trade_goods": 3},
            {"units": "2 dreadnought"},
        ),
    ],
)
def test_the_sampler_plays_tallied_rolls_as_play_does(
    attacker: dict[str, object], defender: dict[str, object]
) -> None:
    scenario = parse_scenario(space(attacker, defender))
    assert_sampled_as_played(scenario, trials=120)


def test_a_log_with_tallied_rolls_replays_with_and_without_its_seed() -> None:
    scenario = space(
        {"units": "2 cruiser, 1 dreadnought", "relics": ["the_crown_of_thalnos"]},
        {"faction": "hacan", "units": "1 flagship, 2 cruiser", "trade_goods": 4},
    )
    for seed in range(6):
        log = [json.loads(json.dumps(e)) for e in resolve(scenario, seed=seed).events]
        assert replay(log).reproduces
        unseeded = [{**log[0], "seed": None}, *log[1:]]
        report = replay(unseeded)
        assert report.reproduces, report.reason
        assert not report.verified


def test_a_tallied_pool_without_a_tally_continuation_is_refused() -> None:
    pool = DicePool.of([DiceGroup("cruiser", 1, 7, budget=1)])
    with pytest.raises(ValueError, match="needs then_tally"):
        Chance("a", "test", pool, lambda hits: Step(hits))
