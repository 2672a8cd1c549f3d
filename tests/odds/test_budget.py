"""Issue 8: the exact engine's memory and work are bounded (analysis/budget.py). Before it allocates
anything large it estimates the arrays and the multiply-adds of rounds in product form
(``product.plan``) and refuses beyond the budgets (``TooLarge``); chains, the generic graph
and exact-fraction cycles are capped while they are built; kernels are cached only within
their byte budget. ``odds()`` then answers by Monte Carlo with a note that says why.

No test here is timed: each asserts an estimate or a refusal decision.
"""

from __future__ import annotations

import tracemalloc
from typing import Any

import numpy as np
import pytest

from spacecombat import odds
from spacecombat.analysis import budget, product
from spacecombat.analysis.budget import TooLarge
from spacecombat.analysis.exact import exact_odds
from spacecombat.analysis.graph import TooManyStates
from tests.helpers import invasion, space

#: the issue's battle: 33 s and 7 GB before the budgets (20 of each ship and 60 fighters a side)
TWENTY = "20 dreadnought, 20 cruiser, 20 destroyer, 20 carrier, 60 fighter"
#: 200 units a side (the input limit): 30 of each ship and 80 fighters
THIRTY = "30 dreadnought, 30 cruiser, 30 destroyer, 30 carrier, 80 fighter"
RETREAT_TO_B = {"name": "A", "adjacent": [{"name": "B", "units": ["attacker"]}]}


BATTLES = {
    "dreadnoughts": space({"units": "6 dreadnought"}, {"units": "5 dreadnought, 2 cruiser"}),
    "barrage": space(
        {"units": "3 carrier, 9 fighter, 2 dreadnought"}, {"units": "4 destroyer, 2 cruiser"}
    ),
    "ground": invasion({"units": "1 dreadnought, 6 infantry, 2 mech"}, {"units": "5 infantry"}),
}


def chain(size: int, width: int, most: int | None = None) -> product.Chain[int]:
    """A made-up chain of ``size`` live states whose rolls have ``width`` outcomes (only its
    sizes matter to the plan)."""
    most = width - 1 if most is None else most
    return product.Chain(
        list(range(size)),
        np.zeros((size, width)),
        np.zeros((size, most + 1), dtype=np.int64),
        np.ones(size, dtype=bool),
    )


class Stop(Exception):
    pass


def chains_of(scenario: dict[str, Any], monkeypatch: pytest.MonkeyPatch) -> tuple[Any, Any]:
    """The two chains the exact engine builds for ``scenario``, caught before it solves."""
    caught: list[tuple[Any, Any]] = []

    def catch(attacker: Any, defender: Any, *_: Any, **__: Any) -> Any:
        caught.append((attacker, defender))
        raise Stop

    monkeypatch.setattr(product, "solve", catch)
    with pytest.raises(Stop):
        exact_odds(scenario)
    return caught[0]


@pytest.mark.slow
def test_the_plan_of_the_issues_battle_is_within_the_budgets(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """20 of each ship and 60 fighters a side: anti-fighter barrage makes each player's states
    two-dimensional, 961 of them, and a roll has up to 140 hits (141 columns). The plan holds
    the mass by pair (961² floats, 3 + 1 arrays), two 961² kernels being worked on, and the
    kernel cache (64 MB): well under ARRAY_BYTES; its work, 960 rows x 961² x 144 x 7 =
    8.9e11 multiply-adds, is under WORK, so the battle is solved exactly (13 s and 183 MB peak
    on the project's machine, against 33 s and 7 GB before: docs/benchmarks.md)."""
    attacker, defender = chains_of(space({"units": TWENTY}, {"units": TWENTY}), monkeypatch)
    assert (len(attacker.units), len(defender.units)) == (961, 961)
    chosen = product.plan(attacker, defender)
    assert not chosen.batched
    # every state but the last (nothing left) rolls: 960 rows
    assert chosen.work == 960 * 961**2 * (141 + 3) * (1 + budget.ROUNDS_FACTOR)
    assert chosen.bytes <= budget.ARRAY_BYTES
    assert chosen.work <= budget.WORK
    product.check(chosen)  # no refusal


@pytest.mark.slow
def test_two_hundred_units_a_side_are_refused_before_any_array_is_allocated(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """30 of each ship and 80 fighters a side (200 units, the input limit) gives chains of
    2,031 states: the pairs alone are 2,031² x 8 bytes = 33 MB per array, and the work
    1.2e13 multiply-adds, over WORK: the plan says so and nothing is solved."""
    attacker, defender = chains_of(space({"units": THIRTY}, {"units": THIRTY}), monkeypatch)
    chosen = product.plan(attacker, defender)
    assert chosen.pairs == (2031, 2031)
    assert chosen.work > budget.WORK
    with pytest.raises(TooLarge, match="2,031 ways"):
        product.check(chosen)


def test_the_refusal_falls_back_to_monte_carlo_with_a_note_that_says_why(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """``odds()`` answers a battle over the work budget (here a budget of 1,000 multiply-adds,
    so that the battle can be small) by Monte Carlo, its note naming the method and the reason
    in a person's words; ``fallback=False`` raises the refusal instead. Each player can be left
    in 13 ways (6 dreadnoughts: 0-6 damaged, then 5..0 left; 5 dreadnoughts and 2 cruisers:
    0-5 damaged, 2 cruisers lost, 5 dreadnoughts lost); a roll has up to 7 hits (8 columns);
    the chains are batched: 13 x 13² x 8 per round, for about 101 rounds = 1,775,176."""
    monkeypatch.setattr(budget, "WORK", 1_000)
    scenario = BATTLES["dreadnoughts"]
    report = odds(scenario, trials=20, workers=1)
    assert report.method == "montecarlo"
    assert report.note == (
        "Monte Carlo instead of exact: the attacker's units can be left in 13 ways and the "
        "defender's in 13, so solving the combat rounds exactly would take about 1,775,176 "
        "operations, more than the exact engine's budget of 1,000"
    )
    with pytest.raises(TooLarge):
        odds(scenario, fallback=False)


@pytest.mark.parametrize(
    ("size", "width", "over"),
    [
        # 6,000 x 6,000 pairs: 288 MB for one array of mass alone
        (6000, 11, "memory"),
        # 1,500 states, 150 hits: 1,500 x 1,500² x 153 x 7 = 3.6e12 multiply-adds
        (1500, 151, "operations"),
    ],
)
def test_a_plan_over_a_budget_is_refused_naming_it(size: int, width: int, over: str) -> None:
    """The memory estimate counts 8 bytes per pair of states for each array of mass; the work,
    size_d² x (width + 3) per attacker row, times 1 + ROUNDS_FACTOR for the rounds pass."""
    chosen = product.plan(chain(size, width), chain(size, width))
    with pytest.raises(TooLarge, match=over):
        product.check(chosen)


def test_small_chains_are_batched_and_cheap() -> None:
    """A battle of a few ships (chains of 10 states, 5 hits) is pushed in batched products and
    costs next to nothing."""
    chosen = product.plan(chain(10, 5), chain(10, 5))
    assert chosen.batched
    assert chosen.bytes < 1_000_000
    product.check(chosen)


def test_the_estimate_bounds_what_the_solver_allocates(monkeypatch: pytest.MonkeyPatch) -> None:
    """numpy reports its allocations to tracemalloc: the peak while solving 5 of each ship
    and 15 fighters a side (chains of about 90 states, solved row by row) is within the plan's
    bytes."""
    scenario = space(
        {"units": "5 dreadnought, 5 cruiser, 5 destroyer, 5 carrier, 15 fighter"},
        {"units": "5 dreadnought, 5 cruiser, 5 destroyer, 5 carrier, 15 fighter"},
    )
    real = product.solve
    peaks: list[tuple[int, product.Plan]] = []

    def measured(attacker: Any, defender: Any, entries: Any, starts: Any, **kw: Any) -> Any:
        announced = len(kw["announcements"].by_round)
        chosen = product.plan(attacker, defender, len({s for *_, s in starts}), announced)
        tracemalloc.start()
        try:
            solution = real(attacker, defender, entries, starts, **kw)
            peaks.append((tracemalloc.get_traced_memory()[1], chosen))
        finally:
            tracemalloc.stop()
        return solution

    monkeypatch.setattr(product, "solve", measured)
    exact_odds(scenario)
    [(peak, chosen)] = peaks
    assert not chosen.batched
    assert peak <= chosen.bytes, (peak, chosen)


def test_kernels_are_kept_only_within_their_byte_budget() -> None:
    """Room for 3 kernels of 4 x 4 floats (128 bytes each): the fourth and later are rebuilt
    each time, and equal to a fresh one."""
    attacker, defender = chain(10, 3), chain(4, 3, most=2)
    attacker.hits[:] = [0.5, 0.25, 0.25]
    defender.after[:] = [[0, 1, 2], [1, 2, 3], [2, 3, 3], [3, 3, 3]]
    kernels = product.Kernels(attacker, defender, room=3 * 4 * 4 * 8)
    for i in range(10):
        assert np.array_equal(kernels[i], product._kernel(i, attacker, defender))
    assert sorted(kernels.kept) == [0, 1, 2]


def test_scatter_adds_rows_sent_to_the_same_state() -> None:
    """Hits beyond what the attacker can take all leave it in one state: their rows add up."""
    mass = np.zeros((4, 2))
    rows = np.array([[1.0, 2.0], [3.0, 4.0], [5.0, 6.0], [7.0, 8.0]])
    product._scatter(mass, np.array([2, 1, 3, 3]), rows)
    assert mass.tolist() == [[0, 0], [3, 4], [1, 2], [12, 14]]


@pytest.mark.parametrize("repeated", [True, False])
def test_scatter_of_large_rows_sums_them_the_same(repeated: bool) -> None:
    """Beyond SCATTER_AT values the rows are sorted and summed by target before one add; the
    result is np.add.at's (integers: exact)."""
    rng = np.random.default_rng(8)
    targets = np.arange(30, dtype=np.int64)[::-1].copy()
    if repeated:
        targets[20:] = 2
    rows = rng.integers(0, 100, size=(30, product.SCATTER_AT // 10)).astype(float)
    mass, expected = np.ones((40, rows.shape[1])), np.ones((40, rows.shape[1]))
    product._scatter(mass, targets, rows)
    np.add.at(expected, targets, rows)
    assert np.array_equal(mass, expected)


@pytest.mark.parametrize("name", BATTLES)
def test_row_by_row_rounds_agree_with_batched_rounds(
    name: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Large battles push rounds row by row, with kernels from the bounded cache (or rebuilt)
    and repeated targets summed (``_scatter``); small ones in batched products. Forced onto
    the row path, with room for one kernel only, a battle gives the same report."""
    batched = exact_odds(BATTLES[name]).to_json()
    monkeypatch.setattr(product, "BATCHED", 0)
    monkeypatch.setattr(budget, "KERNEL_CACHE_BYTES", 1)
    row_by_row = exact_odds(BATTLES[name]).to_json()
    for key in ("attacker_win", "defender_win", "draw"):
        assert abs(batched[key] - row_by_row[key]) <= 1e-12
    assert abs(batched["rounds"]["expected"] - row_by_row["rounds"]["expected"]) <= 1e-9


def test_a_chain_is_capped_while_it_is_built(monkeypatch: pytest.MonkeyPatch) -> None:
    """With room for 10 states, 6 dreadnoughts (13 states: 0-6 damaged, then 5..0 left) are
    refused as soon as the eleventh is found."""
    monkeypatch.setattr(budget, "CHAIN_STATES", 10)
    with pytest.raises(TooLarge, match="more than 10 different ways"):
        exact_odds(BATTLES["dreadnoughts"])


def test_the_generic_graph_stops_at_its_settled_states(monkeypatch: pytest.MonkeyPatch) -> None:
    """A retreat can be announced, so the generic graph is used; each outcome of a roll is a
    settled state held in memory, and there may be at most GRAPH_SETTLED of them."""
    scenario = space(
        {"units": "3 cruiser", "policy": {"retreat": {"when_outnumbered": 1.5}}},
        {"units": "3 cruiser"},
        system=RETREAT_TO_B,
    )
    monkeypatch.setattr(budget, "GRAPH_SETTLED", 5)
    with pytest.raises(TooManyStates, match="stopped at 5 battle states reached by the dice"):
        odds(scenario, fallback=False)


def test_the_generic_graph_stops_after_its_steps(monkeypatch: pytest.MonkeyPatch) -> None:
    """Assigning h hits is h decisions of the rules: the steps followed are bounded too."""
    monkeypatch.setattr(budget, "GRAPH_STEPS", 20)
    with pytest.raises(TooManyStates, match="after 20 steps of the rules"):
        odds(BATTLES["dreadnoughts"], fallback=False)


def test_a_large_cycle_is_not_solved_with_fractions(monkeypatch: pytest.MonkeyPatch) -> None:
    """Duranium Armor repairs a damaged dreadnought, so states form cycles; exact fractions
    solve a cycle by Gaussian elimination (cubic), so only up to FRACTION_COMPONENT states.
    Beyond, ``odds()`` falls back and says why."""
    scenario = space(
        {"units": "2 dreadnought", "technologies": ["duranium_armor"]},
        {"units": "2 dreadnought"},
    )
    monkeypatch.setattr(budget, "FRACTION_COMPONENT", 2)
    with pytest.raises(TooLarge, match="form a cycle"):
        odds(scenario, fractions=True, fallback=False)
    report = odds(scenario, fractions=True, trials=50, workers=1)
    assert report.method == "montecarlo"
    assert report.note is not None
    assert "form a cycle" in report.note


def test_the_rounds_pass_stops_at_its_round_budget(monkeypatch: pytest.MonkeyPatch) -> None:
    """A battle that may last for ever is pushed round by round at most ROUNDS_PUSHED rounds;
    what is left is reported as unfinished, never lost: the distribution and the unfinished
    mass add up to 1."""
    monkeypatch.setattr(budget, "ROUNDS_PUSHED", 3)
    scenario = space({"units": "2 cruiser"}, {"units": "2 cruiser"})
    for product_form in (True, False):
        rounds = exact_odds(scenario, product_form=product_form).rounds
        assert float(rounds["unfinished"]) > 0.01
        total = sum(rounds["distribution"].values()) + rounds["unfinished"]
        assert abs(total - 1) <= 1e-12


def test_the_generic_graph_stops_after_its_outcomes(monkeypatch: pytest.MonkeyPatch) -> None:
    """A roll of n dice has n + 1 outcomes, each followed by the rules: the outcomes followed
    are bounded too (a roll of 190 dice has 191)."""
    monkeypatch.setattr(budget, "GRAPH_OUTCOMES", 3)
    with pytest.raises(TooManyStates, match="after 3 outcomes of rolls"):
        exact_odds(BATTLES["dreadnoughts"], product_form=False)


def test_an_invasion_of_many_planets_is_refused_before_its_combinations() -> None:
    """Each planet's ground combat ends with the attacker, the defender or nobody left on it;
    8 planets make 3^8 = 6,561 combinations to run through establishing control, over
    ``budget.COMBINATIONS``: refused (Monte Carlo answers instead), with the count."""
    planets = [
        {"name": f"P{k}", "defender": "1 infantry", "commit": "1 infantry"} for k in range(8)
    ]
    scenario = invasion({"units": "8 infantry, 4 carrier"}, {}, planets=planets)
    with pytest.raises(TooLarge, match="6,561 combinations of who is left on each"):
        odds(scenario, fallback=False)
