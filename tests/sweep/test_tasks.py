"""How a sweep's points are cut into tasks (``sweeps/run.tasks``, docs/architecture.md,
"Sweeps on Dask"): the points whose scenarios differ only in the players' units go together,
so that one worker's cache meets the round tables and ends they share. Where a point is
solved never changes its answer (tests/sweep/test_cache.py: cached = alone); these tests
check that every point is solved once, with its own scenario and seed, in tasks of at most
the size asked, each holding points of one group only."""

from __future__ import annotations

from typing import Any

from spacecombat.analysis.chain_cache import PartsCache, battle_key
from spacecombat.sweeps import points as solving
from spacecombat.sweeps.run import tasks
from spacecombat.sweeps.spec import load_spec, point_seed
from tests.sweep.specs import fleet_against_destroyer
from tests.sweep.test_cache import close

SPEC: dict[str, Any] = {
    "scenario": fleet_against_destroyer(),
    "axes": {
        "defender.units.cruiser": "0..6",
        "defender.technologies": [[], ["assault_cannon"], ["antimass_deflectors"]],
        "defender.units.dreadnought": "0..1",
    },
}


def test_every_point_once_with_its_scenario_and_seed() -> None:
    checked = load_spec(SPEC)
    points = list(checked.points())
    todo = [n for n in range(len(points)) if n % 5 != 2]  # some already in the journal
    for per_task in (1, 3, 4, 100):
        cut = tasks(checked, points, todo, per_task)
        seen = [n for task in cut for n, _, _ in task]
        assert sorted(seen) == todo
        for task in cut:
            assert 1 <= len(task) <= per_task
            for n, scenario, seed in task:
                assert scenario == checked.scenario_at(points[n])
                assert seed == point_seed(checked.seed, points[n])


def test_a_task_holds_points_whose_scenarios_differ_in_units_only() -> None:
    checked = load_spec(SPEC)
    points = list(checked.points())
    todo = list(range(len(points)))
    cut = tasks(checked, points, todo, 5)
    keys = [{battle_key(scenario) for _, scenario, _ in task} for task in cut]
    assert all(len(k) == 1 for k in keys)
    # three technology sets: three groups of 14 points, each cut into 3 tasks of 5, 5 and 4,
    # in the spec's order within a group
    assert [len(task) for task in cut] == [5, 5, 4] * 3
    for task in cut:
        numbers = [n for n, _, _ in task]
        assert numbers == sorted(numbers)
    first = [next(iter(k)) for k in keys[::3]]
    assert len(set(first)) == 3


def test_grouped_tasks_on_one_cache_give_each_points_own_answer() -> None:
    """The benchmark's kind of sweep (benchmarks/sweep.py: the attacker fixed, the defender's
    counts, technologies and upgrades varied), its tasks solved one after another on one
    worker's cache: every row is the one the point gets alone, numbers to 1e-12 (the issue's
    bar, docs/rulings.md 26G-4: a shared table sums the same terms in another order)."""
    spec: dict[str, Any] = {
        "scenario": {
            "ruleset": "ti4",
            "battle": "space",
            "attacker": {"units": {"dreadnought": 1, "destroyer": 2, "carrier": 1, "fighter": 2}},
            "defender": {"units": {}},
        },
        "axes": {
            "defender.units.cruiser": "0..2",
            "defender.units.destroyer": "0..1",
            "defender.units.dreadnought": "1..2",
            "defender.technologies": [[], ["assault_cannon"]],
            "defender.upgrades": [[], ["destroyer"]],
        },
    }
    checked = load_spec(spec)
    points = list(checked.points())
    cut = tasks(checked, points, list(range(len(points))), 8)
    assert len(cut) == 8
    saved = solving._CACHE
    solving._CACHE = PartsCache()
    try:
        rows = dict(row for task in cut for row in solving.solve_batch(task, checked.options()))
    finally:
        solving._CACHE = saved
    for n, values in enumerate(points):
        (alone,) = solving.solve_batch(
            [(n, checked.scenario_at(values), 0)], checked.options(), cache=False
        )
        close(rows[n], alone[1], f"point {n}")
