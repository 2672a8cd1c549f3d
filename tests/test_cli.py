"""The command line (cli.py). Exit status: 0 done; 1 a replayed log does not reproduce; 2 bad
input, with one message on standard error naming the field and nothing on standard output."""

from __future__ import annotations

import json
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import pytest

from spacecombat.cli import main

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


def write(tmp_path: Path, name: str, text: str) -> str:
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return str(path)


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    """Exit status, standard output and standard error of one ``spacecombat`` run."""
    status = main(list(argv))
    out, err = capsys.readouterr()
    return status, out, err


def jsonl_log(capsys: pytest.CaptureFixture[str], tmp_path: Path, seed: str = "7") -> Path:
    """A log of the YAML scenario, as ``resolve --format jsonl`` writes it."""
    scenario = write(tmp_path, "battle.yaml", YAML_SCENARIO)
    status, out, _ = run(capsys, "resolve", scenario, "--seed", seed, "--format", "jsonl")
    assert status == 0
    log = tmp_path / "battle.jsonl"
    log.write_text(out, encoding="utf-8")
    return log


def rewrite_log(log: Path, edit: Callable[[list[dict[str, object]]], None]) -> None:
    """Decode a JSONL log, let ``edit`` change its events, write it back."""
    events = [json.loads(line) for line in log.read_text(encoding="utf-8").splitlines()]
    edit(events)
    log.write_text("".join(json.dumps(e) + "\n" for e in events), encoding="utf-8")


def first_roll(events: list[dict[str, object]]) -> dict[str, object]:
    roll = next(e for e in events if e["event"] == "dice_rolled")
    groups = roll["groups"]
    assert isinstance(groups, list)
    group = groups[0]
    assert isinstance(group, dict)
    return group


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


# --- replay --------------------------------------------------------------------------------


def test_replay_of_a_good_log_reproduces(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    log = jsonl_log(capsys, tmp_path)
    status, out, err = run(capsys, "replay", str(log))
    assert (status, err) == (0, "")
    assert out.startswith("reproduces: ")


def test_replay_of_a_log_with_one_die_changed_does_not_reproduce(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    """DESIGN.md: a log holds the seed and every die, so replay proves a log genuine."""
    log = jsonl_log(capsys, tmp_path)

    def tamper(events: list[dict[str, object]]) -> None:
        faces = first_roll(events)["faces"]
        assert isinstance(faces, list)
        faces[0] = faces[0] % 10 + 1

    rewrite_log(log, tamper)
    status, out, _ = run(capsys, "replay", str(log))
    assert status == 1
    assert out.startswith("does not reproduce: events differ\n")


def test_replay_of_a_seedless_log_with_one_die_changed_does_not_reproduce(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    """Without a seed the logged faces are replayed; the hits they give must match the log."""
    log = jsonl_log(capsys, tmp_path)

    def tamper(events: list[dict[str, object]]) -> None:
        events[0]["seed"] = None
        group = first_roll(events)
        faces = group["faces"]
        assert isinstance(faces, list)
        hit_on = group["hit_on"]
        assert isinstance(hit_on, int)
        faces[0] = 1 if faces[0] >= hit_on else 10  # turn a hit into a miss or back

    rewrite_log(log, tamper)
    status, out, _ = run(capsys, "replay", str(log))
    assert (status, out.splitlines()[0]) == (1, "does not reproduce: events differ")


def test_replay_of_a_seedless_log_with_an_impossible_face_exits_2(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    log = jsonl_log(capsys, tmp_path)

    def tamper(events: list[dict[str, object]]) -> None:
        events[0]["seed"] = None
        faces = first_roll(events)["faces"]
        assert isinstance(faces, list)
        faces[0] = 11

    rewrite_log(log, tamper)
    status, out, err = run(capsys, "replay", str(log))
    assert (status, out, err) == (2, "", "spacecombat: a d10 face is 1 to 10, not 11\n")


def test_replay_of_a_log_that_is_not_json_exits_2(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    log = write(tmp_path, "log.jsonl", "this is not a log\n")
    status, out, err = run(capsys, "replay", log)
    assert (status, out, err) == (2, "", "spacecombat: log line 1: not JSON (Expecting value)\n")


def test_replay_of_a_log_without_a_header_exits_2(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    log = write(tmp_path, "log.jsonl", '{"event": "dice_rolled"}\n')
    status, out, err = run(capsys, "replay", log)
    assert (status, out) == (2, "")
    assert err == "spacecombat: a log starts with a battle_started event\n"


def test_replay_of_a_log_that_is_not_utf8_exits_2(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    log = tmp_path / "log.jsonl"
    log.write_bytes(b"\xff\xfe{}\n")
    status, out, err = run(capsys, "replay", str(log))
    assert (status, out) == (2, "")
    assert "is not UTF-8 text" in err


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


def test_replay_of_a_log_with_a_non_numeric_die_face_is_bad_input(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A die face that is not a whole number is bad input (exit 2), not a traceback."""
    from spacecombat.core.events import to_jsonl
    from spacecombat.resolver import resolve

    played = resolve(
        {
            "ruleset": "ti4",
            "battle": "space",
            "attacker": {"units": "1 cruiser"},
            "defender": {"units": "1 cruiser"},
        },
        seed=1,
    )
    events = [dict(e) for e in played.events]
    events[0]["seed"] = None
    for e in events:
        if e["event"] == "dice_rolled":
            groups = e["groups"]
            assert isinstance(groups, list)
            groups[0]["faces"][0] = "x"
            break
    log = tmp_path / "log.jsonl"
    log.write_text(to_jsonl(events), encoding="utf-8")
    assert main(["replay", str(log)]) == 2
    captured = capsys.readouterr()
    assert "die face" in captured.err
    assert captured.out == ""
