"""Issue 24: the command line reaches what the library has: ``--fractions`` (the headline
probabilities as exact fractions, as strings in JSON), ``--budget N`` (the exact engine's battle
states, 1 to ``MAX_CHANCE_STATES``: docs/limits.md), and ``--precision P`` (Monte Carlo's
stopping rule; 0: exactly ``--trials``). A bad value exits 2 naming the option, with nothing on
standard output (the HTTP API's same fields: tests/web/test_odds_options.py)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from spacecombat import odds
from spacecombat.core.errors import ScenarioError
from spacecombat.core.limits import MAX_CHANCE_STATES
from tests.helpers import run_cli as run
from tests.helpers import space
from tests.odds.test_fallback import RETREATING

#: one cruiser against one: each hits on 7 or more (2 in 5); a round with a hit ends it, so
#: the attacker wins (2/5 x 3/5) / (1 - 9/25) = 3/8, a draw (4/25) / (16/25) = 1/4
CRUISERS = space({"units": "1 cruiser"}, {"units": "1 cruiser"})


def scenario_file(tmp_path: Path, scenario: dict[str, Any]) -> str:
    path = tmp_path / "battle.json"
    path.write_text(json.dumps(scenario), encoding="utf-8")
    return str(path)


def test_fractions_are_strings_in_json(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    status, out, _ = run(
        capsys, "odds", scenario_file(tmp_path, CRUISERS), "--fractions", "--format", "json"
    )
    report = json.loads(out)
    assert status == 0
    assert report["fractions"] == {
        "attacker_win": "3/8",
        "defender_win": "3/8",
        "draw": "1/4",
        "holds": {"attacker": "3/8", "defender": "3/8", "neither": "1/4"},
        "residual": "0",
    }
    assert report["attacker_win"] == 0.375  # the floats stay


def test_fractions_are_readable_in_text(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    status, out, _ = run(capsys, "odds", scenario_file(tmp_path, CRUISERS), "--fractions")
    assert status == 0
    assert "Exact fractions: attacker_win 3/8, defender_win 3/8, draw 1/4" in out


def test_without_fractions_there_are_none(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    _, out, _ = run(capsys, "odds", scenario_file(tmp_path, CRUISERS), "--format", "json")
    assert "fractions" not in json.loads(out)


def test_a_larger_budget_solves_exactly_what_the_default_gives_to_monte_carlo(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    path = scenario_file(tmp_path, RETREATING)
    argv = ["--format", "json", "--trials", "300", "--workers", "1"]
    _, small, _ = run(capsys, "odds", path, "--budget", "2", *argv)
    _, default, _ = run(capsys, "odds", path, "--budget", "3000", *argv)
    fallen, exact = json.loads(small), json.loads(default)
    assert fallen["method"] == "montecarlo"
    assert "stopped at 2 battle states" in fallen["note"]
    assert f"--budget, up to {MAX_CHANCE_STATES:,} battle states" in fallen["note"]
    assert exact["method"] == "exact"
    assert exact["attacker_win"] == odds(RETREATING).attacker_win


def test_precision_0_plays_exactly_the_trials(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    argv = ["--method", "montecarlo", "--workers", "1", "--format", "json", "--seed", "2"]
    path = scenario_file(tmp_path, CRUISERS)
    _, fixed, _ = run(capsys, "odds", path, *argv, "--trials", "3000", "--precision", "0")
    _, stopping, _ = run(capsys, "odds", path, *argv, "--precision", "0.02")
    assert json.loads(fixed)["trials"] == 3000
    assert "precision" not in json.loads(fixed)
    assert json.loads(stopping)["precision"]["reached"] is True
    assert json.loads(stopping)["trials"] < 3000


def test_the_text_says_how_many_trials_and_why_it_stopped(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    argv = ["--method", "montecarlo", "--workers", "1", "--precision", "0.02"]
    status, out, _ = run(capsys, "odds", scenario_file(tmp_path, CRUISERS), *argv)
    assert status == 0
    assert "battles (95% intervals): every headline within ±2.00 points" in out


@pytest.mark.parametrize(
    ("argv", "option"),
    [
        (["--precision", "0.5"], "--precision"),
        (["--precision", "0.00001"], "--precision"),
        (["--precision", "-1"], "--precision"),
        (["--precision", "nan"], "--precision"),
        (["--precision", "some"], "--precision"),
        (["--budget", "0"], "--budget"),
        (["--budget", str(MAX_CHANCE_STATES + 1)], "--budget"),
        (["--budget", "1.5"], "--budget"),
        (["--method", "montecarlo", "--fractions"], "--fractions"),
        (["--method", "montecarlo", "--budget", "10"], "--budget"),
    ],
)
def test_a_bad_value_exits_2_naming_the_option(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, argv: list[str], option: str
) -> None:
    status, out, err = run(capsys, "odds", scenario_file(tmp_path, CRUISERS), *argv)
    assert (status, out) == (2, "")
    assert option in err
    assert "Traceback" not in err


@pytest.mark.parametrize("limit", [0, MAX_CHANCE_STATES + 1, True, 2.0])
def test_the_library_checks_the_budget_too(limit: object) -> None:
    with pytest.raises(ScenarioError) as caught:
        odds(CRUISERS, limit=limit)  # type: ignore[arg-type]
    assert caught.value.field == "budget"
