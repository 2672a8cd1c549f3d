"""``spacecombat odds`` (cli.py): a scenario file in, the odds report out as text or JSON; ``-``
reads JSON Lines (one scenario per line) and writes one JSON result per line, a bad line getting
an error object while the rest go on. Bad input: exit 2, one message on standard error, nothing
on standard output."""

from __future__ import annotations

import io
import json
import re
from pathlib import Path
from typing import Any

import pytest

from spacecombat import odds
from tests.helpers import invasion, space
from tests.helpers import run_cli as run

FIGHTERS = space({"units": "1 fighter"}, {"units": "1 fighter"})
CRUISER = space({"units": "1 cruiser"}, {"units": "1 destroyer"})
INFANTRY = invasion({"units": "3 infantry"}, {"units": "2 infantry"})
#: the names the issue gives the report's fields
NAMES = (
    "attacker_win",
    "defender_win",
    "draw",
    "residual",
    "method",
    "survivors",
    "expected_losses",
    "rounds",
)


def scenario_file(tmp_path: Path, scenario: dict[str, Any], name: str = "battle.json") -> str:
    path = tmp_path / name
    path.write_text(json.dumps(scenario), encoding="utf-8")
    return str(path)


def from_stdin(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, lines: list[str]
) -> list[dict[str, Any]]:
    monkeypatch.setattr("sys.stdin", io.StringIO("".join(f"{line}\n" for line in lines)))
    status, out, _ = run(capsys, "odds", "-")
    assert status == 0
    return [json.loads(line) for line in out.splitlines()]


def test_json_has_the_issues_names(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    status, out, _ = run(capsys, "odds", scenario_file(tmp_path, CRUISER), "--format", "json")
    assert status == 0
    assert set(NAMES) <= set(json.loads(out))


def test_json_gives_the_exact_odds(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    # 1 cruiser against 1 destroyer: 8/13 (tests/odds/test_exact_fractions.py).
    _, out, _ = run(capsys, "odds", scenario_file(tmp_path, CRUISER), "--format", "json")
    assert abs(json.loads(out)["attacker_win"] - 8 / 13) <= 1e-12


def test_text_shows_a_bar_chart(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    # analysis/text.py: one bar of '#' per outcome, 40 for 100%; 8/13 = 61.5385% is 25 of them.
    status, out, _ = run(capsys, "odds", scenario_file(tmp_path, CRUISER))
    assert status == 0
    assert re.search(r"^ +attacker wins +61\.5385% +#{25}$", out, re.MULTILINE), out


def test_jsonl_gives_one_result_per_line_in_order(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    results = from_stdin(capsys, monkeypatch, [json.dumps(s) for s in (CRUISER, FIGHTERS)])
    expected = [float(odds(s).attacker_win) for s in (CRUISER, FIGHTERS)]
    assert [r["attacker_win"] for r in results] == expected


def test_a_bad_line_gives_an_error_object_with_its_line_number(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    lines = [json.dumps(CRUISER), "not json", json.dumps({"ruleset": "ti4"}), json.dumps(INFANTRY)]
    results = from_stdin(capsys, monkeypatch, lines)
    assert [(sorted(r), r["line"]) for r in results[1:3]] == [
        (["error", "line"], 2),
        (["error", "line"], 3),
    ]


def test_the_lines_after_a_bad_line_go_on(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    lines = [json.dumps(CRUISER), "not json", json.dumps({"ruleset": "ti4"}), json.dumps(INFANTRY)]
    results = from_stdin(capsys, monkeypatch, lines)
    assert [r.get("attacker_win") for r in results] == [
        float(odds(CRUISER).attacker_win),
        None,
        None,
        float(odds(INFANTRY).attacker_win),
    ]


def test_an_unknown_unit_on_a_line_names_the_field(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    bad = space({"units": "1 spaceship"}, {"units": "1 fighter"})
    [result] = from_stdin(capsys, monkeypatch, [json.dumps(bad)])
    assert "attacker.units" in result["error"]


@pytest.mark.parametrize(
    "content",
    [None, "ruleset: ti4\nbattle: space\nattacker: {units: '1 spaceship'}\ndefender: {}\n"],
    ids=["missing-file", "unknown-unit"],
)
def test_a_bad_file_exits_2_with_a_message_and_no_output(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, content: str | None
) -> None:
    path = tmp_path / "battle.yaml"
    if content is not None:
        path.write_text(content, encoding="utf-8")
    status, out, err = run(capsys, "odds", str(path), "--format", "json")
    assert (status, out, err.startswith("spacecombat: ")) == (2, "", True)


def test_monte_carlo_gives_intervals_and_the_number_of_trials(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    argv = ["--method", "montecarlo", "--trials", "500", "--seed", "3", "--workers", "1"]
    status, out, _ = run(
        capsys, "odds", scenario_file(tmp_path, CRUISER), "--format", "json", *argv
    )
    report = json.loads(out)
    assert (status, report["trials"], sorted(report["confidence_95"])) == (
        0,
        500,
        ["attacker_win", "defender_win", "draw", "holds"],
    )


def test_rounds_adds_the_state_after_n_rounds(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    _, out, _ = run(
        capsys, "odds", scenario_file(tmp_path, FIGHTERS), "--format", "json", "--rounds", "1"
    )
    assert json.loads(out)["after_rounds"]["rounds"] == 1
