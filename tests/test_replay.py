"""``spacecombat replay`` (docs/protocol.md, "Replay"). Exit status: 0 the log reproduces, its
dice re-derived from its seed; 1 it does not reproduce (the first difference named by log line);
2 the log is malformed or unusable (one message on standard error, nothing on standard output);
3 it reproduces but has no seed, so its dice were taken from the log and are not verified."""

from __future__ import annotations

import io
import json
import sys
from collections.abc import Callable
from pathlib import Path

import pytest

from spacecombat.cli import main
from spacecombat.core.errors import ReplayError
from spacecombat.core.events import to_jsonl
from spacecombat.replayer import replay
from spacecombat.resolver import resolve
from tests.helpers import run_cli as run
from tests.helpers import write_file as write

YAML_SCENARIO = """\
ruleset: ti4
battle: space
attacker:
  units: "2 dreadnought, 1 carrier, 3 fighter"
defender:
  units: {cruiser: 3, destroyer: 1}
"""

Events = list[dict[str, object]]


def jsonl_log(capsys: pytest.CaptureFixture[str], tmp_path: Path, seed: str = "7") -> Path:
    """A log of the YAML scenario, as ``resolve --format jsonl`` writes it."""
    scenario = write(tmp_path, "battle.yaml", YAML_SCENARIO)
    status, out, _ = run(capsys, "resolve", scenario, "--seed", seed, "--format", "jsonl")
    assert status == 0
    log = tmp_path / "battle.jsonl"
    log.write_text(out, encoding="utf-8")
    return log


def read_events(log: Path) -> Events:
    return [json.loads(line) for line in log.read_text(encoding="utf-8").splitlines()]


def rewrite_log(log: Path, edit: Callable[[Events], object]) -> None:
    """Decode a JSONL log, let ``edit`` change its events, write it back."""
    events = read_events(log)
    edit(events)
    log.write_text("".join(json.dumps(e) + "\n" for e in events), encoding="utf-8")


def first_roll_line(events: Events) -> int:
    """The log line (from 1) of the first ``dice_rolled`` event."""
    return next(n for n, e in enumerate(events, 1) if e["event"] == "dice_rolled")


def first_roll(events: Events) -> dict[str, object]:
    roll = events[first_roll_line(events) - 1]
    groups = roll["groups"]
    assert isinstance(groups, list)
    group = groups[0]
    assert isinstance(group, dict)
    return group


def first_choice_line(events: Events) -> int:
    """The log line of the first choice a player was asked (not forced)."""
    return next(
        n for n, e in enumerate(events, 1) if e["event"] == "choice_made" and e["forced"] is False
    )


def unseed(events: Events) -> None:
    events[0]["seed"] = None


def bad_log(capsys: pytest.CaptureFixture[str], tmp_path: Path, text: str) -> str:
    """Replay ``text`` as a log, expecting status 2 and nothing on standard output; the
    message on standard error."""
    status, out, err = run(capsys, "replay", write(tmp_path, "bad.jsonl", text))
    assert (status, out) == (2, ""), err
    assert err.startswith("spacecombat: ")
    assert err.count("\n") == 1
    return err.removeprefix("spacecombat: ").rstrip("\n")


# --- 0: reproduces, dice re-derived from the seed -------------------------------------------


def test_replay_of_a_good_log_reproduces(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    """A seeded log replays with status 0 and says that its dice came from the seed."""
    log = jsonl_log(capsys, tmp_path)
    count = len(read_events(log))
    status, out, err = run(capsys, "replay", str(log))
    assert (status, err) == (0, "")
    assert out == (
        f"reproduces: {count} events replayed identically; "
        "the dice were re-derived from the seed 7\n"
    )


def test_replay_reads_standard_input(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """``replay -`` reads the log from standard input, with the same statuses."""
    log = jsonl_log(capsys, tmp_path)
    monkeypatch.setattr(sys, "stdin", io.StringIO(log.read_text(encoding="utf-8")))
    status, out, _ = run(capsys, "replay", "-")
    assert status == 0
    assert out.startswith("reproduces: ")


def test_blank_lines_are_skipped_but_counted(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    """Blank lines are no events, but a message's line numbers count them, as in the file."""
    log = jsonl_log(capsys, tmp_path)
    lines = log.read_text(encoding="utf-8").splitlines()
    spaced = "\n\n".join(lines) + "\n\n"  # event n is now on line 2n - 1
    assert run(capsys, "replay", write(tmp_path, "spaced.jsonl", spaced))[0] == 0
    roll = first_roll_line(read_events(log))
    face = first_roll(read_events(log))["faces"]
    assert isinstance(face, list)
    edited = json.loads(lines[roll - 1])
    edited["groups"][0]["faces"][0] = face[0] % 10 + 1
    lines[roll - 1] = json.dumps(edited)
    status, out, _ = run(capsys, "replay", write(tmp_path, "e.jsonl", "\n\n".join(lines)))
    assert status == 1
    assert out.startswith(f"does not reproduce: log line {2 * roll - 1} differs from the replay")


# --- 1: does not reproduce, the first difference named by its log line ----------------------


def test_replay_of_a_log_with_one_die_changed_does_not_reproduce(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    """DESIGN.md: a log holds the seed and every die, so replay proves a log genuine: a die
    changed in a seeded log is a difference at its line, whatever the hits say."""
    log = jsonl_log(capsys, tmp_path)
    events = read_events(log)
    line = first_roll_line(events)
    faces = first_roll(events)["faces"]
    assert isinstance(faces, list)
    was, now = faces[0], faces[0] % 10 + 1

    def tamper(events: Events) -> None:
        faces = first_roll(events)["faces"]
        assert isinstance(faces, list)
        faces[0] = now

    rewrite_log(log, tamper)
    status, out, err = run(capsys, "replay", str(log))
    assert (status, err) == (1, "")
    first, logged, replayed = out.splitlines()
    assert first == (
        f"does not reproduce: log line {line} differs from the replay "
        f"at groups[0].faces[0] (log {now}, replay {was})"
    )
    assert logged.startswith('  log:    {"event": "dice_rolled"')
    assert replayed.startswith('  replay: {"event": "dice_rolled"')


def test_replay_of_a_seedless_log_with_one_die_changed_does_not_reproduce(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    """Without a seed the logged faces are replayed; the hits they give must match the log,
    and the difference is named by its line, with a note that the dice are unverified."""
    log = jsonl_log(capsys, tmp_path)
    line = first_roll_line(read_events(log))

    def tamper(events: Events) -> None:
        unseed(events)
        group = first_roll(events)
        faces = group["faces"]
        assert isinstance(faces, list)
        hit_on = group["hit_on"]
        assert isinstance(hit_on, int)
        faces[0] = 1 if faces[0] >= hit_on else 10  # turn a hit into a miss or back

    rewrite_log(log, tamper)
    status, out, _ = run(capsys, "replay", str(log))
    assert status == 1
    assert out.startswith(f"does not reproduce: log line {line} differs from the replay at ")
    assert "hits" in out.splitlines()[0]
    assert out.endswith("(the log has no seed: its dice were taken from the log, not verified)\n")


def test_a_value_of_another_json_type_is_a_difference(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    """Events are compared as JSON: ``false`` is not ``0`` (Python's ``==`` would say it is)."""
    log = jsonl_log(capsys, tmp_path)
    line = first_roll_line(read_events(log))
    hits = first_roll(read_events(log))["hits"]

    def tamper(events: Events) -> None:
        first_roll(events)["hits"] = bool(hits)

    rewrite_log(log, tamper)
    status, out, _ = run(capsys, "replay", str(log))
    assert status == 1
    assert out.startswith(
        f"does not reproduce: log line {line} differs from the replay at groups[0].hits "
        f"(log {json.dumps(bool(hits))}, replay {hits})"
    )


def test_a_log_whose_last_line_is_deleted_does_not_reproduce(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    """A truncated log is a difference: the log ends, the battle goes on (never 'replay:
    null')."""
    log = jsonl_log(capsys, tmp_path)
    lines = log.read_text(encoding="utf-8").splitlines(keepends=True)
    log.write_text("".join(lines[:-1]), encoding="utf-8")
    status, out, _ = run(capsys, "replay", str(log))
    assert status == 1
    assert out.startswith(
        f"does not reproduce: the log ends at line {len(lines) - 1}, but the battle goes on: "
        """the replay's next event is {"event": "battle_ended", """
    )
    assert "null" not in out.splitlines()[0][:80]
    assert len(out.splitlines()[0]) < 400  # the event is cut


def test_a_seedless_log_cut_before_a_roll_names_the_roll(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    """Without a seed, a replay that must roll past the log's end says what it would roll."""
    log = jsonl_log(capsys, tmp_path)
    events = read_events(log)
    line = first_roll_line(events)
    unseed(events)
    log.write_text(to_jsonl(events[: line - 1]), encoding="utf-8")
    status, out, _ = run(capsys, "replay", str(log))
    assert status == 1
    assert out.startswith(
        f"does not reproduce: the log ends at line {line - 1}, but the battle goes on: "
        "the replay's next event is a roll of "
    )
    assert "whose faces the log does not have" in out


def test_a_log_with_extra_events_does_not_reproduce(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    """Events after the battle's end are a difference, named by their line and the line where
    the battle ended."""
    log = jsonl_log(capsys, tmp_path)
    lines = log.read_text(encoding="utf-8").splitlines(keepends=True)
    log.write_text("".join([*lines, '{"event": "round_started", "round": 9}\n']), "utf-8")
    status, out, _ = run(capsys, "replay", str(log))
    assert status == 1
    assert out == (
        f"does not reproduce: log line {len(lines) + 1}: the battle ended at line "
        f'{len(lines)}, but the log goes on: {{"event": "round_started", "round": 9}}\n'
    )


def test_an_illegal_recorded_choice_names_its_line_and_why(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    """A recorded choice the rules refuse is a difference (status 1) at the choice's line,
    with the rules' reason and the legal options."""
    log = jsonl_log(capsys, tmp_path)
    line = first_choice_line(read_events(log))

    def tamper(events: Events) -> None:
        events[line - 1]["choice"] = "sustain war_sun"

    rewrite_log(log, tamper)
    status, out, err = run(capsys, "replay", str(log))
    assert (status, err) == (1, "")
    assert out.startswith(
        f"does not reproduce: log line {line}: the attacker's choice 'sustain war_sun' for "
        "assign_hit is not allowed: you have no war_sun here; allowed: "
    )


def test_an_illegal_choice_is_echoed_cut(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    """A huge recorded value is echoed cut to a few dozen characters, never whole."""
    log = jsonl_log(capsys, tmp_path)
    line = first_choice_line(read_events(log))

    def tamper(events: Events) -> None:
        events[line - 1]["choice"] = "destroy " + "x" * 100_000

    rewrite_log(log, tamper)
    status, out, _ = run(capsys, "replay", str(log))
    assert status == 1
    assert out.startswith(f"does not reproduce: log line {line}: the attacker's choice 'destroy x")
    assert len(out) < 1_000


def test_a_deleted_choice_is_a_difference_at_its_place(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    """A choice is answered from the log only at the place the replay asks it: a deleted
    choice is a difference at that line, which shows the decision the replay asks."""
    log = jsonl_log(capsys, tmp_path)
    line = first_choice_line(read_events(log))
    rewrite_log(log, lambda events: events.pop(line - 1))
    status, out, _ = run(capsys, "replay", str(log))
    assert status == 1
    first, _, replayed = out.splitlines()
    assert first.startswith(f"does not reproduce: log line {line} differs from the replay")
    assert replayed.startswith("  replay: the attacker's choice for assign_hit (options: ")


# --- 3: reproduces, but the dice are the log's own ------------------------------------------


def test_a_seedless_log_reproduces_unverified(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    """Without a seed the dice come from the log: status 3, and the output says plainly that
    they are not verified."""
    log = jsonl_log(capsys, tmp_path)
    rewrite_log(log, unseed)
    count = len(read_events(log))
    status, out, err = run(capsys, "replay", str(log))
    assert (status, err) == (3, "")
    assert out == (
        f"reproduces, unverified: {count} events replayed identically, but the log has no "
        "seed, so its dice were taken from the log and are NOT verified\n"
    )


def test_a_seedless_log_with_dice_edited_consistently_is_only_unverified(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    """Dice edited without changing what follows from them cannot be caught without a seed:
    status 3 (never 0, never "verified")."""
    log = jsonl_log(capsys, tmp_path)

    def tamper(events: Events) -> None:
        unseed(events)
        group = first_roll(events)
        faces = group["faces"]
        hit_on = group["hit_on"]
        assert isinstance(faces, list)
        assert isinstance(hit_on, int)
        # another face on the same side of the hit line: the same hits
        side = range(hit_on, 11) if faces[0] >= hit_on else range(1, hit_on)
        faces[0] = next(face for face in side if face != faces[0])

    rewrite_log(log, tamper)
    status, out, _ = run(capsys, "replay", str(log))
    assert status == 3
    assert "NOT verified" in out


# --- 2: malformed or unusable ---------------------------------------------------------------


def test_replay_of_a_seedless_log_with_an_impossible_face_exits_2(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    """A face no d10 shows (11) is a malformed log, named by its line."""
    log = jsonl_log(capsys, tmp_path)
    line = first_roll_line(read_events(log))

    def tamper(events: Events) -> None:
        unseed(events)
        faces = first_roll(events)["faces"]
        assert isinstance(faces, list)
        faces[0] = 11

    rewrite_log(log, tamper)
    status, out, err = run(capsys, "replay", str(log))
    assert (status, out) == (2, "")
    assert err == (
        f"spacecombat: log line {line}: a die face is 11; a d10 shows a whole number from 1 to 10\n"
    )


@pytest.mark.parametrize("face", [0, True, 6.0, "6", None, -3])
def test_any_face_but_a_whole_number_from_1_to_10_exits_2(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, face: object
) -> None:
    """Booleans, floats, strings, 0 and negatives are no die face, with a seed or without."""
    log = jsonl_log(capsys, tmp_path)
    line = first_roll_line(read_events(log))

    def tamper(events: Events) -> None:
        faces = first_roll(events)["faces"]
        assert isinstance(faces, list)
        faces[0] = face

    rewrite_log(log, tamper)
    message = bad_log(capsys, tmp_path, log.read_text(encoding="utf-8"))
    assert message.startswith(f"log line {line}: a die face is ")


def test_replay_of_a_log_with_a_non_numeric_die_face_is_bad_input(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A die face that is not a whole number is bad input (exit 2), not a traceback."""
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
    assert "a die face is 'x'" in captured.err
    assert captured.out == ""


def test_replay_of_a_log_that_is_not_json_exits_2(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    """A line that is not JSON is named by its line in the file (blank lines counted)."""
    message = bad_log(capsys, tmp_path, "\n\nthis is not a log\n")
    assert message == "log line 3 is not valid JSON: Expecting value at column 1"


def test_a_line_that_is_not_an_object_exits_2(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    """Every line is one event, a JSON object."""
    assert bad_log(capsys, tmp_path, "[1, 2]\n") == "log line 1: an event is a JSON object"


def test_a_key_written_twice_exits_2(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    """Lines are read strictly: a duplicate key is refused, not the last one kept."""
    message = bad_log(capsys, tmp_path, '{"event": "battle_started", "event": "x"}\n')
    assert message == "log line 1 is not valid JSON: the key 'event' is written twice in one object"


@pytest.mark.parametrize("opening", ['{"a": ', "["])
def test_json_nested_1000_deep_exits_2(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, opening: str
) -> None:
    """A line nested 1,000 deep is refused before it is read (no RecursionError)."""
    closing = "}" if opening.startswith("{") else "]"
    deep = opening * 1000 + "1" * opening.startswith("{") + closing * 1000
    log = jsonl_log(capsys, tmp_path)
    text = log.read_text(encoding="utf-8") + deep + "\n"
    line = text.count("\n")
    assert bad_log(capsys, tmp_path, text) == f"log line {line}: nested more than 32 levels deep"


def test_replay_of_a_log_without_a_header_exits_2(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    """The first event must be battle_started: a log without one is malformed, not different."""
    message = bad_log(capsys, tmp_path, '{"event": "dice_rolled"}\n')
    assert message == "log line 1: a log starts with a battle_started event, not 'dice_rolled'"


def test_an_empty_log_exits_2(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    """A log with no event (only blank lines) cannot be replayed."""
    message = bad_log(capsys, tmp_path, "\n  \n")
    assert message == "the log is empty: a log starts with a battle_started event"


def test_an_event_without_a_kind_exits_2(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    """Every event names its kind in "event"."""
    log = jsonl_log(capsys, tmp_path)
    rewrite_log(log, lambda events: events[2].pop("event"))
    message = bad_log(capsys, tmp_path, log.read_text(encoding="utf-8"))
    assert message == 'log line 3: an event names its kind in "event"'


@pytest.mark.parametrize(("version", "shown"), [(2, "2"), (True, "true"), (None, "null")])
def test_an_unknown_log_version_exits_2(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, version: object, shown: str
) -> None:
    """Only log_version 1 is read (``true`` is not 1)."""
    log = jsonl_log(capsys, tmp_path)
    rewrite_log(log, lambda events: events[0].update(log_version=version))
    message = bad_log(capsys, tmp_path, log.read_text(encoding="utf-8"))
    assert (
        message == f"log line 1: log_version {shown} is not 1, the version this spacecombat reads"
    )


@pytest.mark.parametrize(
    ("seed", "shown"),
    [("7", "'7'"), (True, "true"), (7.0, "7.0"), (-7, "-7"), (2**64, str(2**64))],
)
def test_a_seed_that_is_not_a_whole_number_exits_2(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, seed: object, shown: str
) -> None:
    """A seed is a whole number from 0 to 2^64 - 1, or null; anything else is refused, never
    taken for null. (The dice would take -7 as 7: a log edited so would replay as verified.)"""
    log = jsonl_log(capsys, tmp_path)
    rewrite_log(log, lambda events: events[0].update(seed=seed))
    message = bad_log(capsys, tmp_path, log.read_text(encoding="utf-8"))
    assert message == (
        f"log line 1: the seed is {shown}; a seed is a whole number from 0 to "
        f"{2**64 - 1}, or null when the dice were not seeded"
    )


def test_a_header_without_a_seed_exits_2(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    """The header says whether the dice were seeded: a missing seed is not taken for null."""
    log = jsonl_log(capsys, tmp_path)
    rewrite_log(log, lambda events: events[0].pop("seed"))
    message = bad_log(capsys, tmp_path, log.read_text(encoding="utf-8"))
    assert message.startswith("log line 1: the battle_started event has no seed")


def test_a_bad_scenario_in_the_header_exits_2(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    """A scenario that fails validation makes the log unusable (2, like a missing header),
    not a log that does not reproduce (1); the message names the line and the field."""
    log = jsonl_log(capsys, tmp_path)

    def tamper(events: Events) -> None:
        scenario = events[0]["scenario"]
        assert isinstance(scenario, dict)
        scenario["defender"]["units"]["cruiser"] = -3

    rewrite_log(log, tamper)
    message = bad_log(capsys, tmp_path, log.read_text(encoding="utf-8"))
    assert message.startswith(
        "log line 1: the scenario in the battle_started event is not valid: "
        "defender.units.cruiser: "
    )


def test_a_missing_scenario_in_the_header_exits_2(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    """A header without a scenario is unusable too."""
    header = {"event": "battle_started", "log_version": 1, "ruleset": "ti4", "seed": 1}
    message = bad_log(capsys, tmp_path, json.dumps(header) + "\n")
    assert message.startswith("log line 1: the scenario in the battle_started event is not valid")


def test_a_choice_that_is_not_text_exits_2(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    """A choice is the text of an option."""
    log = jsonl_log(capsys, tmp_path)
    line = first_choice_line(read_events(log))
    rewrite_log(log, lambda events: events[line - 1].update(choice=3))
    message = bad_log(capsys, tmp_path, log.read_text(encoding="utf-8"))
    assert message == f"log line {line}: a choice is the text of an option, not 3"


def test_a_malformed_line_after_a_difference_still_exits_2(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    """Every line is checked before the replay starts: malformed (2) outranks different (1)."""
    log = jsonl_log(capsys, tmp_path)
    events = read_events(log)
    line = first_choice_line(events)
    roll = max(n for n, e in enumerate(events, 1) if e["event"] == "dice_rolled")
    assert roll > line

    def tamper(events: Events) -> None:
        events[line - 1]["choice"] = "retreat"
        groups = events[roll - 1]["groups"]
        assert isinstance(groups, list)
        groups[0]["faces"][0] = 0

    rewrite_log(log, tamper)
    assert bad_log(capsys, tmp_path, log.read_text(encoding="utf-8")).startswith(
        f"log line {roll}: a die face is 0"
    )


def test_replay_of_a_log_that_is_not_utf8_exits_2(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    """A log is UTF-8 text."""
    log = tmp_path / "log.jsonl"
    log.write_bytes(b"\xff\xfe{}\n")
    status, out, err = run(capsys, "replay", str(log))
    assert (status, out) == (2, "")
    assert "is not UTF-8 text" in err


def test_a_missing_log_exits_2(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    """A log that cannot be read is bad input, named."""
    status, out, err = run(capsys, "replay", str(tmp_path / "nowhere.jsonl"))
    assert (status, out) == (2, "")
    assert err.startswith("spacecombat: log: cannot read ")


def test_a_log_over_the_size_limit_exits_2(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    """A log larger than MAX_LOG_BYTES is refused before it is read whole."""
    from spacecombat.core.limits import MAX_LOG_BYTES, shown_path

    log = tmp_path / "big.jsonl"
    log.write_bytes(b"\n" * (MAX_LOG_BYTES + 1))
    status, out, err = run(capsys, "replay", str(log))
    assert (status, out) == (2, "")
    assert err == (
        f"spacecombat: log: {shown_path(str(log))} is larger than the limit of "
        f"{MAX_LOG_BYTES:,} bytes\n"
    )


# --- the library ----------------------------------------------------------------------------


def test_the_library_reports_whether_the_dice_were_verified() -> None:
    """``replay(events)`` (README): ``reproduces``, and ``verified`` only with a seed."""
    played = resolve(
        {
            "ruleset": "ti4",
            "battle": "space",
            "attacker": {"units": "2 cruiser"},
            "defender": {"units": "2 destroyer"},
        },
        seed=3,
    )
    seeded = replay(played.events)
    assert (seeded.reproduces, seeded.verified, seeded.seed) == (True, True, 3)
    events = [dict(e) for e in played.events]
    events[0]["seed"] = None
    unseeded = replay(events)
    assert (unseeded.reproduces, unseeded.verified) == (True, False)
    cut = replay(events[:-1], lines=[2 * n for n in range(1, len(events))])
    assert (cut.reproduces, cut.line, cut.index) == (False, 2 * len(events) - 1, len(events) - 1)
    assert cut.expected is None
    assert cut.got is not None
    assert cut.reason.startswith(f"the log ends at line {2 * (len(events) - 1)}, ")


def test_the_library_raises_replay_error_for_a_malformed_log() -> None:
    """A malformed log is a ``ReplayError`` from the library, whatever its shape."""
    for log in ([], [["not", "an", "event"]], [{"event": "dice_rolled"}]):
        with pytest.raises(ReplayError):
            replay(log)  # type: ignore[arg-type]
