"""Issue 24: Monte Carlo's kernel for EC4X space combat (``space_combat/kernel.py``) plays the
rounds of 7.3 for a batch of trials side by side, and must be the resolver's battle draw for
draw: trial by trial (seed by seed) the same final state and the same outcome as ``play``
(7.3.2.5: a battle's seed fixes its draws), on every scenario of the regression guard and on
random battles with any classes, escorts, scouts, spacelift, fighters and carriers, colony
fighters and starbases, crippled starts, morale, ROE and retreat settings, three houses, sieges
and every option value the kernel plays. A battle it refuses is played by the quiet sampler,
and what it leaves of a trial (what comes before round 1 and after space combat) by the
procedures. Monte Carlo's report is the same figure for figure with or without it, and within
4 standard errors of the exact odds."""

from __future__ import annotations

import dataclasses
import math
from typing import Any

import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from spacecombat import rulesets
from spacecombat.analysis import montecarlo
from spacecombat.analysis.exact import exact_odds
from spacecombat.analysis.montecarlo import Tally, Trials, monte_carlo, trial_seed
from spacecombat.core.dice import SplitMixDice
from spacecombat.core.engine import play
from spacecombat.core.errors import ScenarioError
from spacecombat.rulesets import parse_scenario
from spacecombat.rulesets.ec4x.battle import Ec4xBattle
from spacecombat.rulesets.ec4x.options import Ec4xOptions
from spacecombat.rulesets.ec4x.setup import Fleet, Setup, Unit
from spacecombat.rulesets.ec4x.space_combat import kernel as kernel_module
from spacecombat.rulesets.ec4x.space_combat.kernel import (
    FLEET_FIELDS,
    OPTIONS,
    SETUP_FIELDS,
    UNIT_FIELDS,
    Kernel,
    KernelRefusal,
    compile_kernel,
)
from tests.ec4x.test_quiet_sampler import SCENARIOS, SEEDS


def _battle(scenario: dict[str, Any]) -> tuple[Any, Ec4xBattle]:
    checked = parse_scenario(scenario)
    battle = rulesets.battle(checked)
    assert isinstance(battle, Ec4xBattle)
    return checked, battle


def _seeds(checked: Any, seeds: list[int]) -> list[int]:
    found = []
    for seed in seeds:
        dice = rulesets.dice_for(checked, seed)
        assert isinstance(dice, SplitMixDice)
        found.append(dice.seed)
    return found


def _same_as_play(scenario: dict[str, Any], seeds: list[int]) -> Kernel | None:
    """Every trial the kernel plays ends as ``play`` ends it with the same seed; ``None``
    when the kernel refuses the battle (then Monte Carlo's ``Trials`` have no kernel)."""
    checked, battle = _battle(scenario)
    try:
        kernel = compile_kernel(battle)
    except KernelRefusal:
        assert Trials(checked, battle).kernel is None
        return None
    policies = battle.stock_policies()
    ends = kernel.play(_seeds(checked, seeds))
    for seed, (state, outcome) in zip(seeds, ends, strict=True):
        played = play(battle, rulesets.dice_for(checked, seed), policies)
        assert (state, outcome) == (played.state, played.outcome), seed
    return kernel


def test_every_field_of_the_setup_and_the_options_is_handled_or_refused() -> None:
    """The compile step reads the battle's setup: a field added to ``Setup``, ``Unit``,
    ``Fleet`` or ``Ec4xOptions`` fails here until the kernel handles or refuses it (and a
    name that is no longer a field fails too)."""
    assert set(Ec4xOptions.model_fields) == set(OPTIONS)
    assert {f.name for f in dataclasses.fields(Setup)} == set(SETUP_FIELDS)
    assert {f.name for f in dataclasses.fields(Unit)} == set(UNIT_FIELDS)
    assert {f.name for f in dataclasses.fields(Fleet)} == set(FLEET_FIELDS)
    # every value an option may take is either played or refused by name
    for name, played in OPTIONS.items():
        if played is not None:
            assert Ec4xOptions.model_fields[name].default in played, name


def test_an_option_unknown_to_the_kernel_is_refused_by_name(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    _, battle = _battle(dict(SCENARIOS)["bench"])
    compile_kernel(battle)
    monkeypatch.delitem(OPTIONS, "phase4_order")
    with pytest.raises(KernelRefusal, match="phase4_order") as refused:
        compile_kernel(battle)
    assert "phase4_order" in refused.value.feature


def test_a_value_the_kernel_does_not_play_is_refused_by_name(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    _, battle = _battle(dict(SCENARIOS)["bench"])
    monkeypatch.setitem(OPTIONS, "cer_die", ("1-10",))
    with pytest.raises(KernelRefusal, match="option cer_die: 0-9"):
        compile_kernel(battle)


def test_targetable_scouts_are_refused_and_played_by_the_quiet_sampler() -> None:
    scenario = _raw("raiders-against-scouts")
    scenario["options"] = {**scenario.get("options", {}), "scout_targets": "bucket_2"}
    checked, battle = _battle(scenario)
    with pytest.raises(KernelRefusal, match="scout_targets: bucket_2"):
        compile_kernel(battle)
    assert Trials(checked, battle).kernel is None


def _raw(name: str) -> dict[str, Any]:
    return dict(dict(SCENARIOS)[name])


@pytest.mark.parametrize(("name", "scenario"), SCENARIOS, ids=[name for name, _ in SCENARIOS])
def test_the_kernel_ends_each_trial_as_the_resolver(name: str, scenario: dict[str, Any]) -> None:
    """Every scenario of the regression guard, seed by seed, raiders and undetected cloaked
    fleets included: no trial is left to the procedures at round 1."""
    kernel = _same_as_play(scenario, [*SEEDS, 5, 6, 7, 8, 9, 10, 11])
    assert kernel is not None
    assert not kernel.refusals()


def test_the_kernel_takes_most_of_the_regression_guard() -> None:
    """The kernel compiles for every scenario of the regression guard but those with
    targetable scouts (none today)."""
    refused = []
    for name, scenario in SCENARIOS:
        try:
            compile_kernel(_battle(scenario)[1])
        except KernelRefusal as e:
            refused.append((name, e.feature))
    assert not refused


def test_the_kernel_plays_the_ten_against_ten_benchmark_as_the_resolver() -> None:
    kernel = _same_as_play(dict(SCENARIOS)["bench"], list(range(40)))
    assert kernel is not None


# ---- random battles ---------------------------------------------------------------------------

FLAGSHIPS = ["CT", "FG", "DD", "CL", "CA", "BC", "BB", "RR", "CV", "PB"]
HOUSES = ["alpha", "beta", "gamma"]


@st.composite
def battles(draw: st.DrawFn) -> dict[str, Any]:
    """A small random EC4X battle, with option values the kernel plays."""
    count = draw(st.integers(2, 3))
    houses = HOUSES[:count]
    controller = draw(st.sampled_from([None, *houses]))
    fleets = []
    for h in houses:
        squadrons = []
        for _ in range(draw(st.integers(1, 3))):
            flagship = draw(st.sampled_from(FLAGSHIPS))
            spec: dict[str, Any] = {
                "flagship": flagship,
                "state": draw(st.sampled_from(["undamaged", "crippled"])),
            }
            if draw(st.booleans()):
                spec["escorts"] = {draw(st.sampled_from(["DD", "FG", "CT"])): 1}
            if flagship == "CV":
                spec["fighters"] = draw(st.integers(0, 3))
            squadrons.append(spec)
        order: Any = draw(st.sampled_from([0, 3, 5]))
        if controller is not None and controller != h and draw(st.booleans()):
            order = {"code": 6, "target": "Vega"}
        fleet: dict[str, Any] = {
            "id": f"{h}-1",
            "owner": h,
            "order": order,
            "roe": draw(st.integers(0, 10)),
            "squadrons": squadrons,
        }
        if draw(st.integers(0, 3)) == 0:
            fleet["scouts"] = [{"eli": draw(st.integers(1, 3)), "count": 1}]
        if draw(st.integers(0, 3)) == 0:
            fleet["spacelift"] = {"TT": 1}
        fleets.append(fleet)
    diplomacy = []
    for i, a in enumerate(houses):
        for b in houses[i + 1 :]:
            status = draw(st.sampled_from(["enemy", "neutral", "non_aggression"]))
            diplomacy.append({"houses": [a, b], "status": status})
    options: dict[str, Any] = {"max_rounds": draw(st.sampled_from([30, 3]))}
    for name, played in OPTIONS.items():
        if played is not None and len(played) > 1 and draw(st.integers(0, 3)) == 0:
            options[name] = draw(st.sampled_from(list(played)))
    house_specs: dict[str, Any] = {}
    for h in houses:
        spec = {"prestige": draw(st.integers(-5, 90))}
        spec["retreat"] = draw(st.sampled_from(["roe", "never", {"after_round": 2}]))
        spec["retreat_lane"] = draw(st.sampled_from(["major", "restricted", "none"]))
        house_specs[h] = spec
    scenario: dict[str, Any] = {
        "ruleset": "ec4x",
        "game_id": "kernel",
        "turn": 1,
        "system": {"name": "Vega"},
        "houses": house_specs,
        "diplomacy": diplomacy,
        "fleets": fleets,
        "options": options,
    }
    if controller is not None:
        scenario["system"]["controller"] = controller
        colony: dict[str, Any] = {"owner": controller, "fighters": draw(st.integers(0, 2))}
        if draw(st.booleans()):
            colony["starbases"] = [{"state": "undamaged", "eli": 1}]
        scenario["colony"] = colony
    return scenario


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(battles(), st.lists(st.integers(0, 2**64 - 1), min_size=3, max_size=6))
def test_random_battles_end_trial_by_trial_as_the_resolver(
    scenario: dict[str, Any], seeds: list[int]
) -> None:
    try:
        parse_scenario(scenario)
    except ScenarioError:
        assume(False)
    _same_as_play(scenario, seeds)


# ---- Monte Carlo's figures ------------------------------------------------------------------


def _tallies(scenario: dict[str, Any], seed: int, count: int) -> tuple[Tally, Tally]:
    checked, battle = _battle(scenario)
    with_kernel = Trials(checked, battle)
    assert with_kernel.kernel is not None
    sampled = Trials(checked, battle)
    sampled.kernel = None
    return with_kernel.run(seed, 0, count), sampled.run(seed, 0, count)


@pytest.mark.parametrize("name", ["bench", "three-houses", "fighters", "starbase", "retreat"])
def test_the_kernel_tallies_the_trials_as_the_quiet_sampler(name: str) -> None:
    """The same ends (in the order first reached, with the same outcome kept), rounds and
    stage rounds as the quiet sampler's tally of the same trials."""
    kernelled, sampled = _tallies(_raw(name), 7, 120)
    assert kernelled.trials == sampled.trials
    assert list(kernelled.ends.items()) == list(sampled.ends.items())
    assert sorted(kernelled.rounds.items()) == sorted(sampled.rounds.items())
    assert kernelled.stages == sampled.stages


@pytest.mark.parametrize("name", ["bench", "three-houses"])
def test_monte_carlos_report_is_the_same_with_the_kernel(
    name: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """``monte_carlo`` (adaptive stop included) reports the same figures, holds, survivors,
    losses and rounds with the kernel as with the quiet sampler alone."""
    scenario = _raw(name)
    kernelled = monte_carlo(scenario, trials=1_500, seed=3, workers=1, precision=0.03)
    monkeypatch.setattr(montecarlo, "KERNEL", False)
    sampled = monte_carlo(scenario, trials=1_500, seed=3, workers=1, precision=0.03)
    assert kernelled.to_json() == sampled.to_json()


def test_the_kernels_odds_agree_with_the_exact_engine() -> None:
    """A small battle solved exactly (one cruiser against two destroyers, morale fixed): every
    result's Monte Carlo frequency from the kernel within 4 standard errors."""
    scenario: dict[str, Any] = {
        "ruleset": "ec4x",
        "game_id": "kernel-exact",
        "turn": 1,
        "system": {"name": "Vega"},
        "houses": {
            "alpha": {"prestige": 50, "morale_roll": 10},
            "beta": {"prestige": 50, "morale_roll": 10},
        },
        "diplomacy": [{"houses": ["alpha", "beta"], "status": "enemy"}],
        "fleets": [
            {"id": "A", "owner": "alpha", "roe": 10, "squadrons": [{"flagship": "CA"}]},
            {
                "id": "B",
                "owner": "beta",
                "roe": 10,
                "squadrons": [{"flagship": "DD"}, {"flagship": "DD"}],
            },
        ],
    }
    checked, battle = _battle(scenario)
    exact = exact_odds(checked)
    n = 4_000
    assert Trials(checked, battle).kernel is not None
    sampled = monte_carlo(scenario, trials=n, seed=11, workers=1, precision=0)
    for name in ("attacker_win", "defender_win", "draw"):
        p = float(getattr(exact, name))
        q = float(getattr(sampled, name))
        se = math.sqrt(max(p * (1 - p), 1e-9) / n)
        assert abs(p - q) <= 4 * se, (name, p, q)


def test_trial_seeds_reach_the_kernel_as_the_dice_seed_them() -> None:
    """The kernel's streams start where ``dice_for`` starts them (EC4X's seeds modulo 2^64)."""
    checked, _ = _battle(dict(SCENARIOS)["bench"])
    for trial in (0, 1, 2**31):
        seed = trial_seed(2**40, trial)
        dice = rulesets.dice_for(checked, seed)
        assert isinstance(dice, SplitMixDice)
        assert _seeds(checked, [seed]) == [dice.seed]


def test_below_is_splitmix64s_below_with_its_rejection() -> None:
    """The vectorised ``below`` reads each stream as ``SplitMix64.below`` does, rejection
    included (a bound of 3 x 2^61 + 1 rejects a quarter of the outputs)."""
    import numpy as np

    from spacecombat.core.prng import SplitMix64

    seeds = [0, 1, 2**63 + 5, 2**64 - 1, 12345]
    for n in (1, 2, 10, 7, 2**62 + 1, 3 * 2**61 + 1):
        states = np.array(seeds, dtype=np.uint64)
        rows = np.arange(len(seeds))
        for _ in range(5):
            got = kernel_module.below(states, rows, np.full(len(seeds), n, dtype=np.uint64))
            for i, seed in enumerate(seeds):
                reference = SplitMix64(seed)
                expected = reference.below(n)
                seeds[i] = reference.state
                assert int(got[i]) == expected
                assert int(states[i]) == reference.state


def test_the_kernels_trials_are_shared_over_workers_with_the_same_figures(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Trials still go to a pool of forked workers (each with its kernel) and are merged in
    the order of their trials: the same report on two workers as on one."""
    scenario = _raw("bench")
    one = monte_carlo(scenario, trials=4_000, seed=5, workers=1, precision=0)
    pooled: list[int] = []
    in_pool = montecarlo._in_pool

    def counted(*args: Any) -> None:
        pooled.append(args[5])
        in_pool(*args)

    monkeypatch.setattr(montecarlo, "_in_pool", counted)
    two = monte_carlo(scenario, trials=4_000, seed=5, workers=2, precision=0)
    assert pooled == [2]
    assert one.to_json() == two.to_json()
