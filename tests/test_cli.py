"""The command line (cli.py). Exit status: 0 done; 1 a replayed log does not reproduce; 2 bad
input, with one message on standard error naming the field and nothing on standard output."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from tests.helpers import run_cli as run
from tests.helpers import write_file as write

ROOT = Path(__file__).resolve().parent.parent
EXAMPLE = ROOT / "examples" / "space-dreadnoughts-vs-cruisers.yaml"

YAML_SCENARIO = """\
ruleset: ti4
battle: space
attacker:
  units: "2 dreadnought, 1 carrier, 3 fighter"
defender:
  units: {cruiser: 3, destroyer: 1}
"""

JSON_SCENARIO = {
    "ruleset": "ti4",
    "battle": "space",
    "attacker": {"units": "1 war_sun, 2 fighter"},
    "defender": {"units": {"dreadnought": 2}},
}


# --- resolve -------------------------------------------------------------------------------


def test_resolve_a_yaml_scenario_as_text(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    status, out, err = run(
        capsys, "resolve", write(tmp_path, "b.yaml", YAML_SCENARIO), "--seed", "7"
    )
    assert (status, err) == (0, "")
    assert out.startswith("TI4 space battle (seed 7)\n")
    assert "Result: " in out


def test_resolve_a_json_scenario_as_jsonl(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    path = write(tmp_path, "b.json", json.dumps(JSON_SCENARIO))
    status, out, err = run(capsys, "resolve", path, "--seed", "7", "--format", "jsonl")
    events = [json.loads(line) for line in out.splitlines()]
    assert (status, err) == (0, "")
    assert (events[0]["event"], events[0]["seed"], events[-1]["event"]) == (
        "battle_started",
        7,
        "battle_ended",
    )


def test_resolve_the_json_scenario_as_text(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    path = write(tmp_path, "b.json", json.dumps(JSON_SCENARIO))
    status, out, _ = run(capsys, "resolve", path, "--seed", "7")
    assert status == 0
    assert out.startswith("TI4 space battle (seed 7)\n")


@pytest.mark.parametrize("output", ["text", "jsonl"])
def test_the_same_seed_gives_the_same_output(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, output: str
) -> None:
    """DESIGN.md: one seedable generator per battle; the same seed plays the same battle."""
    path = write(tmp_path, "b.yaml", YAML_SCENARIO)
    first = run(capsys, "resolve", path, "--seed", "123", "--format", output)
    second = run(capsys, "resolve", path, "--seed", "123", "--format", output)
    assert first == second


def test_without_a_seed_the_log_records_the_seed_used(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    path = write(tmp_path, "b.yaml", YAML_SCENARIO)
    _, out, _ = run(capsys, "resolve", path, "--format", "jsonl")
    assert isinstance(json.loads(out.splitlines()[0])["seed"], int)


# --- bad input -----------------------------------------------------------------------------

BAD_INPUTS = {
    "malformed yaml": (
        "b.yaml",
        "ruleset: ti4\nbattle: [space\n",
        "file: b.yaml is not valid YAML",
    ),
    "malformed json": ("b.json", '{"ruleset": "ti4",', "file: b.json is not valid JSON"),
    "unknown unit": (
        "b.yaml",
        YAML_SCENARIO.replace("3 fighter", "3 starfighter"),
        "attacker.units.starfighter: unknown unit; allowed: ",
    ),
    "bad fleet text": (
        "b.yaml",
        YAML_SCENARIO.replace("3 fighter", "three fighters"),
        "attacker.units: cannot read 'three fighters'",
    ),
    "unknown key": ("b.yaml", YAML_SCENARIO + "weather: rain\n", "weather: unknown key; allowed"),
    "empty file": ("b.yaml", "", "scenario: "),
}


@pytest.mark.parametrize("case", BAD_INPUTS, ids=list(BAD_INPUTS))
def test_bad_scenario_exits_2_with_one_message_naming_the_field(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, case: str
) -> None:
    name, text, message = BAD_INPUTS[case]
    status, out, err = run(capsys, "resolve", write(tmp_path, name, text))
    assert (status, out) == (2, "")
    assert err.startswith(f"spacecombat: {message}")
    assert err.count("\n") == 1
    assert "Traceback" not in err


def test_missing_file_exits_2_naming_the_file(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    status, out, err = run(capsys, "resolve", str(tmp_path / "nope.yaml"))
    assert (status, out) == (2, "")
    assert err.startswith("spacecombat: file: cannot read ")
    assert err.endswith("nope.yaml': No such file or directory\n")


def test_a_file_that_is_not_utf8_exits_2(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    path = tmp_path / "b.yaml"
    path.write_bytes(b"\xff\xferuleset: ti4\n")
    status, out, err = run(capsys, "resolve", str(path))
    assert (status, out) == (2, "")
    assert "is not UTF-8 text" in err


def test_unknown_option_exits_2_naming_it(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    path = write(tmp_path, "b.yaml", YAML_SCENARIO)
    status, out, err = run(capsys, "resolve", path, "--bogus")
    assert (status, out, err) == (2, "", "spacecombat: unrecognized arguments: --bogus\n")


def test_a_bad_option_value_exits_2_listing_the_choices(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    path = write(tmp_path, "b.yaml", YAML_SCENARIO)
    status, out, err = run(capsys, "resolve", path, "--format", "xml")
    assert (status, out) == (2, "")
    assert "choose from 'text', 'jsonl'" in err


# --- the installed console script ----------------------------------------------------------


def test_the_console_script_resolves_the_example() -> None:
    script = Path(sys.executable).parent / "spacecombat"
    done = subprocess.run(
        [str(script), "resolve", str(EXAMPLE), "--seed", "1"],
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert (done.returncode, done.stderr) == (0, "")
    assert done.stdout.startswith("TI4 space battle (seed 1)")
