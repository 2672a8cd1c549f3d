"""The fuzz suite (issue 8), in-process: malformed and extreme scenarios, logs, batches and
options must end with an allowed exit status (never 70), without a traceback, with one short
line on standard error when refused, within 5 s and 500 MB (``runner.problems``).

Bounded for CI: derandomized (the same cases on every run), no example database, a fixed
number of cases per family, small battles (Monte Carlo runs of 50 trials on one worker). The
long run is ``benchmarks/fuzz.py``.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path

import pytest
from hypothesis import HealthCheck, Phase, example, given, settings

from tests.fuzz import strategies
from tests.fuzz.runner import FILE, Case, memory_cap, problems, run_case

FUZZ = settings(
    phases=(Phase.explicit, Phase.generate, Phase.shrink),  # no database, no slow "explain"
    deadline=None,
    derandomize=True,
    database=None,
    suppress_health_check=list(HealthCheck),
    print_blob=False,
)


@pytest.fixture(scope="module")
def workdir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return tmp_path_factory.mktemp("fuzz")


@pytest.fixture(scope="module", autouse=True)
def _memory_capped() -> Iterator[None]:
    """A runaway case ends in a MemoryError (reported as status 70), not in a dead machine."""
    with memory_cap():
        yield


def check(case: Case, workdir: Path) -> None:
    outcome = run_case(case, workdir)
    found = problems(case, outcome)
    assert not found, (
        f"{'; '.join(found)}\n{case.describe()}\nstatus: {outcome.status}"
        f"\nstderr: {outcome.stderr[:600]!r}\nstdout: {outcome.stdout[:300]!r}"
    )


# Each family's fast sample (``pytest -m "not slow"``), then the whole family (marked slow).


@settings(FUZZ, max_examples=30)
@given(strategies.scenario_cases(big=False))
def test_a_sample_of_malformed_scenarios(workdir: Path, case: Case) -> None:
    check(case, workdir)


@pytest.mark.slow
@settings(FUZZ, max_examples=1000)
@given(strategies.scenario_cases(big=False))
def test_malformed_scenarios(workdir: Path, case: Case) -> None:
    check(case, workdir)


@settings(FUZZ, max_examples=20)
@given(strategies.scenario_cases(big=False, rulesets="ec4x"))
def test_a_sample_of_malformed_ec4x_scenarios(workdir: Path, case: Case) -> None:
    check(case, workdir)


@pytest.mark.slow
@settings(FUZZ, max_examples=250)
@given(strategies.scenario_cases(big=False, rulesets="ec4x"))
def test_malformed_ec4x_scenarios(workdir: Path, case: Case) -> None:
    """EC4X scenarios (houses, diplomacy, fleets of squadrons, colonies), mutated: refused
    with one line, or played, never a traceback (``test_malformed_scenarios`` makes one in
    four EC4X too; this family makes only EC4X)."""
    check(case, workdir)


SLOW = pytest.mark.slow
EC4X_EXAMPLES = sorted((strategies.ROOT / "examples" / "ec4x").glob("*.yaml"))


@pytest.mark.parametrize("path", EC4X_EXAMPLES, ids=lambda p: p.stem)
@pytest.mark.parametrize(
    "argv",
    [
        pytest.param(("resolve", FILE, "--format", "jsonl"), id="resolve"),
        # the exact engine on the larger examples takes seconds
        pytest.param(("odds", FILE, "--trials", "50", "--workers", "1"), id="odds", marks=SLOW),
        pytest.param(
            ("odds", FILE, "--method", "montecarlo", "--trials", "50", "--workers", "1"),
            id="odds-montecarlo",
        ),
    ],
)
def test_ec4x_examples_within_the_limits(workdir: Path, path: Path, argv: tuple[str, ...]) -> None:
    """The EC4X examples end with status 0 within the limits (the exact engine falls back)."""
    case = Case("scenario", argv, file=path.read_bytes(), expect=frozenset({0}), why=path.name)
    check(case, workdir)


def _large(scenario: str, *options: str) -> Case:
    return Case("scenario", ("odds", FILE, *options), file=scenario.encode(), suffix=".json")


#: battles the long run found slow (the exact engine's budget reached only after seconds)
SLOW_ONCE = (
    _large(
        '{"ruleset": "ti3", "battle": "invasion", "options": {"shock_troops": true}, '
        '"attacker": {"units": {"cruiser": 1, "ground_force": 190}}, '
        '"defender": {"units": {"ground_force": 2}}}',
        *("--trials", "50", "--workers", "1"),
    ),
    _large(
        '{"ruleset": "ti4", "battle": "space", "attacker": {"units": {"dreadnought": 10}}, '
        '"defender": {"units": {"war_sun": 10, "dreadnought": 1}}}',
        *("--rounds", "3", "--trials", "10", "--workers", "1"),
    ),
)


@pytest.mark.slow
@settings(FUZZ, max_examples=10)
@given(strategies.large_battles())
@example(SLOW_ONCE[0])
@example(SLOW_ONCE[1])
def test_large_battles_within_the_limits(workdir: Path, case: Case) -> None:
    """Up to 200 units a side: the exact engine falls back (noted) rather than run long or
    use gigabytes (a few Monte Carlo trials, so that the time is the engine's, not the
    trials')."""
    check(case, workdir)


@pytest.mark.parametrize(
    "raw",
    [raw for raw, _ in strategies.RAW_TEXTS],
    ids=[f"raw{i}" for i in range(len(strategies.RAW_TEXTS))],
)
@pytest.mark.parametrize(
    "argv",
    [("resolve", FILE), ("odds", FILE, "--trials", "50", "--workers", "1"), ("resolve", "-")],
    ids=["resolve", "odds", "resolve-stdin"],
)
def test_raw_texts(workdir: Path, raw: str | bytes, argv: tuple[str, ...]) -> None:
    """Alias bombs, deep nesting, huge numbers, tags, dates, encodings: each refused."""
    data = raw if isinstance(raw, bytes) else raw.encode("utf-8")
    on_stdin = "-" in argv
    case = Case(
        "scenario",
        argv,
        stdin=data if on_stdin else b"",
        file=None if on_stdin else data,
        expect=frozenset({2}),
        why="a raw text",
    )
    check(case, workdir)


@settings(FUZZ, max_examples=50)
@given(strategies.log_cases())
def test_a_sample_of_edited_logs(workdir: Path, case: Case) -> None:
    check(case, workdir)


@pytest.mark.slow
@settings(FUZZ, max_examples=500)
@given(strategies.log_cases())
def test_edited_logs(workdir: Path, case: Case) -> None:
    check(case, workdir)


@settings(FUZZ, max_examples=20)
@given(strategies.batch_cases())
def test_a_sample_of_batches(workdir: Path, case: Case) -> None:
    check(case, workdir)


@pytest.mark.slow
@settings(FUZZ, max_examples=200)
@given(strategies.batch_cases())
def test_batches(workdir: Path, case: Case) -> None:
    check(case, workdir)


@settings(FUZZ, max_examples=50)
@given(strategies.flag_cases())
def test_a_sample_of_options(workdir: Path, case: Case) -> None:
    check(case, workdir)


@pytest.mark.slow
@settings(FUZZ, max_examples=500)
@given(strategies.flag_cases())
def test_options(workdir: Path, case: Case) -> None:
    check(case, workdir)


@pytest.mark.parametrize("seed", [-1, -(2**70), 2**64, True, 1.0])
def test_a_log_seed_outside_the_seeds_range_is_not_verified(workdir: Path, seed: object) -> None:
    """A log whose seed (1) is changed to one ``--seed`` refuses must not be "verified": the
    dice of -1 are those of 1 (Python's generator takes the absolute value)."""
    lines = strategies.real_log(0, 1)
    header = json.loads(lines[0])
    header["seed"] = seed
    log = "\n".join([json.dumps(header), *lines[1:]]) + "\n"
    case = Case(
        "log", ("replay", FILE), file=log.encode(), suffix=".jsonl", expect=frozenset({1, 2})
    )
    check(case, workdir)
