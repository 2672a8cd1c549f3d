"""The command line never ends in a traceback (issue 8; docs/limits.md): Ctrl-C, an internal
error, options out of range or out of place and bad batch lines each end with one line on
standard error (or one error line in a batch) and the documented exit status. Real streams
(closed, full, broken, not UTF-8) are tested in tests/fuzz/test_streams.py."""

from __future__ import annotations

import io
import json
from pathlib import Path
from typing import Any

import pytest

from spacecombat.cli import status
from tests.helpers import run_cli as run

ROOT = Path(__file__).resolve().parents[2]
EXAMPLE = str(ROOT / "examples" / "space-dreadnoughts-vs-cruisers.yaml")
SMALL = json.dumps(
    {
        "ruleset": "ti4",
        "battle": "space",
        "attacker": {"units": "1 cruiser"},
        "defender": {"units": "1 destroyer"},
    }
)


def one_line(err: bytes | str) -> str:
    text = err.decode() if isinstance(err, bytes) else err
    assert "Traceback" not in text
    lines = text.splitlines()
    assert len(lines) == 1, text
    return lines[0]


# --- interrupts and internal errors (real streams: tests/fuzz/test_streams.py) --------------


def test_ctrl_c_ends_with_130_and_one_line(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    def interrupted(*args: Any, **kwargs: Any) -> Any:
        raise KeyboardInterrupt

    monkeypatch.setattr("spacecombat.cli.resolve.resolve", interrupted)
    code, out, err = run(capsys, "resolve", EXAMPLE)
    assert (code, out, one_line(err)) == (status.INTERRUPTED, "", "spacecombat: interrupted")


def test_an_internal_error_is_one_line_and_status_70(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    def broken(*args: Any, **kwargs: Any) -> Any:
        raise ZeroDivisionError("division by zero")

    monkeypatch.delenv("SPACECOMBAT_DEBUG", raising=False)
    monkeypatch.setattr("spacecombat.cli.resolve.resolve", broken)
    code, out, err = run(capsys, "resolve", EXAMPLE)
    assert (code, out) == (status.INTERNAL_ERROR, "")
    assert one_line(err) == (
        "spacecombat: internal error: ZeroDivisionError: division by zero (please report it)"
    )


# --- options --------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (
            ["odds", EXAMPLE, "--trials", "1000000000000"],
            "argument --trials: 1,000,000,000,000 is more than the limit of 1,000,000",
        ),
        (["odds", EXAMPLE, "--trials", "0"], "argument --trials: 0 is not at least 1"),
        (["odds", EXAMPLE, "--trials", "1e6"], "argument --trials: '1e6' is not a whole number"),
        (
            ["odds", EXAMPLE, "--rounds", "101"],
            "argument --rounds: 101 is more than the limit of 100",
        ),
        (["resolve", EXAMPLE, "--seed", "-1"], "argument --seed: -1 is not at least 0"),
        (
            ["odds", EXAMPLE, "--method", "montecarlo", "--rounds", "2"],
            "--rounds: the state after N rounds comes from the exact method only",
        ),
        (
            ["odds", "-", "--format", "text"],
            "--format: a batch on standard input is answered in JSON Lines (jsonl), one result "
            "per line; text and json are for one scenario file",
        ),
    ],
)
def test_an_option_out_of_range_or_out_of_place_is_refused(
    capsys: pytest.CaptureFixture[str], argv: list[str], message: str
) -> None:
    code, out, err = run(capsys, *argv)
    assert (code, out, one_line(err)) == (status.BAD_INPUT, "", f"spacecombat: {message}")


def test_more_workers_than_the_cap_is_refused(capsys: pytest.CaptureFixture[str]) -> None:
    code, _, err = run(capsys, "odds", EXAMPLE, "--workers", "1000")
    assert code == status.BAD_INPUT
    assert "argument --workers: 1,000 is more than the limit of" in one_line(err)


def test_monte_carlo_options_unused_by_exact_odds_are_noted(
    capsys: pytest.CaptureFixture[str],
) -> None:
    code, out, _ = run(capsys, "odds", EXAMPLE, "--format", "json", "--trials", "500")
    assert code == 0
    assert json.loads(out)["note"] == "--trials 500 not used: the odds are exact"


def test_version_and_help(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "--version")
    assert (code, out.split()[0]) == (0, "spacecombat")
    code, out, _ = run(capsys, "odds", "--help")
    assert code == 0
    assert "(default: exact)" in out
    assert "``" not in out


# --- odds - ---------------------------------------------------------------------------------


def batch(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, text: str
) -> tuple[int, str, str]:
    monkeypatch.setattr("sys.stdin", io.StringIO(text))
    return run(capsys, "odds", "-")


def test_a_yaml_file_on_standard_input_to_odds_is_refused_as_a_whole(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    code, out, err = batch(capsys, monkeypatch, Path(EXAMPLE).read_text(encoding="utf-8"))
    assert (code, out) == (status.BAD_INPUT, "")
    assert one_line(err).startswith("spacecombat: standard input: line 1 is not a JSON object")


def test_every_limit_applies_per_line_and_the_batch_goes_on(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    lines = [
        SMALL,
        "[" * 1000 + "]" * 1000,
        SMALL.replace('"1 cruiser"', '{"cruiser": 1e9}'),
        SMALL.replace('"1 cruiser"', '"1000 cruiser"'),
        "{not json",
        SMALL,
    ]
    code, out, _ = batch(capsys, monkeypatch, "\n".join(lines) + "\n")
    results = [json.loads(line) for line in out.splitlines()]
    assert code == 0
    assert [r.get("line") for r in results] == [None, 2, 3, 4, 5, None]
    assert results[1]["error"] == "line 2: the line: nested more than 32 levels deep"
    assert results[2]["error"].startswith("attacker.units.cruiser: must be a whole number")
    assert "more units than the limit" in results[3]["error"]
    assert results[4]["error"].startswith("line 5: the line is not valid JSON")
    assert results[0] == results[5]


def test_a_line_longer_than_the_limit_is_skipped_not_held(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    text = SMALL + "\n" + '{"x": "' + "y" * 1_100_000 + '"}\n' + SMALL + "\n"
    code, out, _ = batch(capsys, monkeypatch, text)
    results = [json.loads(line) for line in out.splitlines()]
    assert code == 0
    assert results[1] == {
        "error": "line 2: longer than the limit of 1,000,000 bytes",
        "line": 2,
    }
    assert results[0] == results[2]


# --- --ask ----------------------------------------------------------------------------------


def test_ask_shows_the_dice_before_the_question(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """The defender is asked where to put a hit after seeing the roll that made it."""
    monkeypatch.setattr("sys.stdin", io.StringIO("1\n" * 40))
    code, _, err = run(capsys, "resolve", EXAMPLE, "--seed", "7", "--ask", "defender")
    assert code == 0
    roll = err.index("attacker rolls combat roll: dreadnought [1 2]")
    question = err.index("defender: 2 space combat hit(s) against your ships")
    assert roll < question
