"""The fuzz runner's time limit (issue 8: every input ends within 5 s of CPU on the project's
machine): a case over ``SECONDS`` is judged against the limit stretched by how much slower the
machine runs Python code just then (``runner.stretched_limit``), never more than
``MOST_STRETCH`` times, so that a loaded machine does not fail a case that is within the limit
on the project's machine, and a case that blows up still fails anywhere."""

from __future__ import annotations

import pytest

from tests.fuzz import runner
from tests.fuzz.runner import MOST_STRETCH, SECONDS, Case, Outcome, problems

CASE = Case("scenario", ("odds", "{file}"), file=b"ruleset: ti4\n")


def took(seconds: float) -> list[str]:
    """The problems of ``CASE`` ending with status 0 after ``seconds`` of CPU."""
    return problems(CASE, Outcome(0, "{}\n", "", seconds, 10.0))


@pytest.mark.parametrize(
    ("slowness", "seconds", "over"),
    [
        (0.5, SECONDS - 0.1, False),  # a faster machine: the limit is never below SECONDS
        (0.5, SECONDS + 0.1, True),
        (1.0, SECONDS + 0.1, True),
        (1.4, 1.3 * SECONDS, False),  # 1.4 times slower now: 7 s
        (1.4, 1.5 * SECONDS, True),
        (10.0, MOST_STRETCH * SECONDS - 0.1, False),  # stretched at most MOST_STRETCH times
        (10.0, MOST_STRETCH * SECONDS + 0.1, True),
    ],
)
def test_the_limit_is_stretched_by_the_machines_slowness_at_most_so_far(
    monkeypatch: pytest.MonkeyPatch, slowness: float, seconds: float, over: bool
) -> None:
    monkeypatch.setattr(runner, "slowness", lambda: slowness)
    found = took(seconds)
    assert bool(found) is over, found
    if over:
        limit = SECONDS * min(MOST_STRETCH, max(1.0, slowness))
        assert found == [f"took {seconds:.1f} s (limit 5 s, {limit:.1f} s on this machine now)"]


def test_the_machine_is_measured_only_for_a_case_over_the_limit(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    measured: list[bool] = []

    def measure() -> float:
        measured.append(True)
        return 1.0

    monkeypatch.setattr(runner, "slowness", measure)
    assert took(SECONDS - 0.1) == []
    assert measured == []
    assert took(SECONDS + 0.1)
    assert measured == [True]


def test_the_slowness_is_measured_on_a_fixed_piece_of_work() -> None:
    """The work is the same on every run: 200,000 keys of residues mod 97, 89 and 8, every one
    of their 97 x 89 x 8 combinations met (the moduli are coprime); this machine's measure is a
    positive ratio (its figure is the machine's, not checked)."""
    assert runner.calibration_work() == 97 * 89 * 8
    assert runner.slowness() > 0
