"""benchmarks/refusals.py sorts what the engine makes of a battle: solved (exactly, and its log
replays), refused by name (counted by the rule), or a failure (an internal error)."""

from __future__ import annotations

from pathlib import Path

import pytest
from benchmarks.refusals import check, main, rule_named

from spacecombat.core.errors import RuleNotImplemented
from tests.helpers import space


def test_a_battle_the_engine_solves_and_replays() -> None:
    assert check(space({"units": "2 cruiser"}, {"units": "1 destroyer"}), seed=3) == ("solved", "")


def test_a_refusal_is_counted_by_the_rule_it_names() -> None:
    battle = space({"units": "2 cruiser", "fleet_supply": 3}, {"units": "1 destroyer"})
    outcome, rule = check(battle, seed=3)
    assert outcome == "refused"
    assert rule == "the fleet pool (TI4 fleet supply is not modelled)"


def test_rounds_named_in_a_rule_count_together() -> None:
    met = RuleNotImplemented("a combination met in round 3", "attacker's roll in round 3")
    assert rule_named(met) == "a combination met in round N"


def test_a_bad_battle_drawn_is_a_failure_not_a_refusal() -> None:
    outcome, detail = check(space({"units": "2 cruiser"}, {"units": "1 starbase"}), seed=0)
    assert outcome == "failed"
    assert "defender.units.starbase" in detail


def test_a_short_run_reports_each_outcome(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    report = tmp_path / "failures.json"
    assert main(["--battles", "4", "--seed", "1", "--report", str(report)]) == 0
    printed = capsys.readouterr().out
    assert printed.startswith("4 random faction battles (seed 1)")
    counted = [int(line.split()[1]) for line in printed.splitlines()[1:5]]
    assert sum(counted) == 4
    assert not report.exists()  # written only when a battle fails
