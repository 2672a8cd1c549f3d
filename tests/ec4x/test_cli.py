"""EC4X on the command line: ``resolve``, ``replay`` and ``odds`` of the examples, ``--ask``,
and bad scenarios refused with exit status 2 and one line naming the field and what is allowed
(docs/protocol.md, docs/ec4x.md, scenario/ec4x.py)."""

from __future__ import annotations

import copy
import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
import yaml

from spacecombat.cli import status
from tests.helpers import run_cli as run
from tests.helpers import write_file as write

ROOT = Path(__file__).resolve().parents[2]
EXAMPLES = sorted((ROOT / "examples" / "ec4x").glob("*.yaml"))
TWO_HOUSES = str(ROOT / "examples" / "ec4x" / "two-houses.yaml")
FLAGSHIPS = "CT, FG, DD, CL, CA, BC, BB, DN, SD, PB, CV, CX, RR"

Events = list[dict[str, Any]]


def one_line(err: str) -> str:
    assert "Traceback" not in err
    lines = err.splitlines()
    assert len(lines) == 1, err
    return lines[0]


def jsonl_log(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, example: str = TWO_HOUSES
) -> Path:
    code, out, err = run(capsys, "resolve", example, "--format", "jsonl")
    assert (code, err) == (0, "")
    log = tmp_path / "battle.jsonl"
    log.write_text(out, encoding="utf-8")
    return log


def read_events(log: Path) -> Events:
    return [json.loads(line) for line in log.read_text(encoding="utf-8").splitlines()]


def rewrite(log: Path, edit: Callable[[Events], object]) -> None:
    events = read_events(log)
    edit(events)
    log.write_text("".join(json.dumps(e) + "\n" for e in events), encoding="utf-8")


# --- resolve, replay, odds -----------------------------------------------------------------------


@pytest.mark.parametrize("fmt", ["text", "jsonl"])
@pytest.mark.parametrize("path", EXAMPLES, ids=lambda p: p.stem)
def test_resolve_every_example(capsys: pytest.CaptureFixture[str], path: Path, fmt: str) -> None:
    code, out, err = run(capsys, "resolve", str(path), "--format", fmt)
    assert (code, err) == (0, "")
    assert out.strip()
    if fmt == "jsonl":
        events = [json.loads(line) for line in out.splitlines()]
        assert events[0]["event"] == "battle_started"
        assert events[0]["ruleset"] == "ec4x"
        assert events[0]["log_version"] == 1
        assert events[1]["event"] == "forces_set"
        # the same scenario without --seed: the same log (the seed is the game's and turn's)
        assert run(capsys, "resolve", str(path), "--format", "jsonl")[1] == out


def test_resolve_with_a_seed_logs_a_given_seed(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "resolve", TWO_HOUSES, "--seed", "99", "--format", "jsonl")
    header = json.loads(out.splitlines()[0])
    assert (code, header["seed"], header["seed_source"]) == (0, 99, "given seed")


@pytest.mark.parametrize("path", EXAMPLES, ids=lambda p: p.stem)
def test_replay_of_a_log_reproduces(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, path: Path
) -> None:
    log = jsonl_log(capsys, tmp_path, str(path))
    events = read_events(log)
    code, out, err = run(capsys, "replay", str(log))
    assert (code, err) == (0, "")
    assert out == (
        f"reproduces: {len(events)} events replayed identically; "
        f"the dice were re-derived from the seed {events[0]['seed']}\n"
    )


def test_replay_of_a_tampered_draw_exits_1(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    log = jsonl_log(capsys, tmp_path)
    events = read_events(log)
    line = next(n for n, e in enumerate(events, 1) if e["event"] == "drawn" and e["kind"] == "d10")
    was = events[line - 1]["value"]
    now = "0" if was != "0" else "1"
    rewrite(log, lambda events: events[line - 1].update(value=now))
    code, out, err = run(capsys, "replay", str(log))
    assert (code, err) == (1, "")
    first, logged, replayed = out.splitlines()
    assert first == (
        f"does not reproduce: log line {line} differs from the replay at value "
        f"(log '{now}', replay '{was}')"
    )
    assert logged.startswith('  log:    {"event": "drawn"')
    assert replayed.startswith('  replay: {"event": "drawn"')


def test_replay_of_a_seedless_log_exits_3(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    """A log as unseeded draws write it: ``"seed": null`` and no ``seed_source``."""
    log = jsonl_log(capsys, tmp_path)

    def unseed(events: Events) -> None:
        events[0]["seed"] = None
        del events[0]["seed_source"]

    rewrite(log, unseed)
    count = len(read_events(log))
    code, out, err = run(capsys, "replay", str(log))
    assert (code, err) == (3, "")
    assert out == (
        f"reproduces, unverified: {count} events replayed identically, but the log has no "
        "seed, so its dice were taken from the log and are NOT verified\n"
    )


def test_replay_of_a_log_with_its_seed_set_to_null_exits_3(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    log = jsonl_log(capsys, tmp_path)
    rewrite(log, lambda events: events[0].update(seed=None))
    assert run(capsys, "replay", str(log))[0] == 3


def test_odds_by_monte_carlo(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run(
        capsys,
        *("odds", TWO_HOUSES, "--method", "montecarlo", "--trials", "500", "--format", "json"),
        *("--workers", "1"),
    )
    assert (code, err) == (0, "")
    report = json.loads(out)
    assert report["method"] == "montecarlo"
    assert report["trials"] == 500
    results = report["results"]
    assert set(results) <= {"alpha", "beta", "shared", "none", "cut_off"}
    assert sum(results.values()) == pytest.approx(1)
    assert set(report["houses"]) == {"alpha", "beta"}
    for facts in report["houses"].values():
        fates = [facts[f] for f in ("holds", "retreated", "destroyed", "not_engaged")]
        assert all(0 <= p <= 1 for p in fates)
        assert sum(fates) == pytest.approx(1)
        assert facts["expected_losses"] >= 0
        assert {"fleets", "at_least"} <= set(facts["survivors"])
    confidence = report["confidence_95"]
    assert set(confidence) == {"alpha", "beta", "results"}
    for house in ("alpha", "beta"):
        for fate, (low, high) in confidence[house].items():
            assert low - 1e-12 <= report["houses"][house][fate] <= high + 1e-12
    for result, (low, high) in confidence["results"].items():
        assert low - 1e-12 <= results[result] <= high + 1e-12
    # the same seed (default 0), the same answer
    again = run(
        capsys,
        *("odds", TWO_HOUSES, "--method", "montecarlo", "--trials", "500", "--format", "json"),
        *("--workers", "1"),
    )
    assert again[1] == out


def test_the_interval_of_a_fate_never_seen_starts_at_0(
    capsys: pytest.CaptureFixture[str],
) -> None:
    code, out, _ = run(
        capsys,
        *("odds", TWO_HOUSES, "--method", "montecarlo", "--trials", "500", "--format", "json"),
        *("--workers", "1"),
    )
    report = json.loads(out)
    assert code == 0
    assert report["houses"]["alpha"]["not_engaged"] == 0
    assert report["confidence_95"]["alpha"]["not_engaged"][0] == 0


def test_ask_an_unknown_house_exits_2_naming_the_houses(
    capsys: pytest.CaptureFixture[str],
) -> None:
    code, out, err = run(capsys, "resolve", TWO_HOUSES, "--ask", "gamma")
    assert (code, out) == (status.BAD_INPUT, "")
    assert one_line(err) == "spacecombat: --ask: allowed: alpha, beta, all (got 'gamma')"
    # TI's names are not EC4X's
    code, _, err = run(capsys, "resolve", TWO_HOUSES, "--ask", "attacker")
    assert code == status.BAD_INPUT
    assert one_line(err) == "spacecombat: --ask: allowed: alpha, beta, all (got 'attacker')"


# --- bad scenarios -------------------------------------------------------------------------------

Edit = Callable[[dict[str, Any]], object]


def _colony(state: str) -> Edit:
    def edit(d: dict[str, Any]) -> None:
        d["system"]["controller"] = "alpha"
        d["colony"] = {"owner": "alpha", "starbases": [{"eli": 2}, {"state": state}]}

    return edit


def _add_squadron(squadron: dict[str, Any]) -> Edit:
    return lambda d: d["fleets"][0]["squadrons"].append(squadron)


BAD: list[tuple[str, Edit, str]] = [
    (
        "unknown class",
        lambda d: d["fleets"][1]["squadrons"][0].update(flagship="XB"),
        f"fleets[1].squadrons[0].flagship: unknown class 'XB'; allowed: {FLAGSHIPS}",
    ),
    (
        "unknown escort class",
        lambda d: d["fleets"][0]["squadrons"][0]["escorts"].update(TX=1),
        "fleets[0].squadrons[0].escorts.TX: unknown escort class 'TX'; allowed: "
        f"{FLAGSHIPS} (fighters are given as fighters, scouts as scouts, TT and ET as "
        "spacelift)",
    ),
    ("ROE 11", lambda d: d["fleets"][1].update(roe=11), "fleets[1].roe: must be at most 10"),
    (
        "owner not listed",
        lambda d: d["fleets"][1].update(owner="gamma"),
        "fleets[1].owner: 'gamma' is not a house listed in houses (alpha, beta)",
    ),
    (
        "diplomacy for an unknown pair",
        lambda d: d["diplomacy"].append({"houses": ["beta", "omega"], "status": "neutral"}),
        "diplomacy[1].houses[1]: 'omega' is not a house listed in houses (alpha, beta)",
    ),
    (
        "a pair listed twice",
        lambda d: d["diplomacy"].append({"houses": ["beta", "alpha"], "status": "neutral"}),
        "diplomacy[1].houses: beta and alpha are also diplomacy[0]; each pair at most once",
    ),
    (
        "order 7 without troop transports",
        lambda d: d["fleets"][0].update(order={"code": 7, "target": "Vega"}),
        "fleets[0].order: order 07 needs combat ship(s) and loaded Troop Transports (6.2)",
    ),
    (
        "order 7 with unloaded troop transports",
        lambda d: d["fleets"][0].update(order=7, spacelift={"TT": 2}, loaded_tt=0),
        "fleets[0].order: order 07 needs combat ship(s) and loaded Troop Transports (6.2)",
    ),
    (
        "order 9 with two scouts",
        lambda d: d["fleets"].append(
            {"id": "S1", "owner": "beta", "order": 9, "scouts": [{"eli": 3, "count": 2}]}
        ),
        "fleets[2].order: order 09 needs exactly one Scout ship and nothing else (6.2)",
    ),
    (
        "order 12 without an ETAC",
        lambda d: d["fleets"][1].update(order=12, spacelift={"TT": 1}),
        "fleets[1].order: order 12 needs one ETAC (6.2)",
    ),
    (
        "a starbase in a bad state",
        _colony("wrecked"),
        "colony.starbases[1].state: allowed: 'undamaged', 'crippled' (got 'wrecked')",
    ),
    (
        "duplicate fleet ids",
        lambda d: d["fleets"][1].update(id="A1"),
        "fleets[1].id: 'A1' is also fleet 0",
    ),
    (
        "more carrier fighters than capacity",
        _add_squadron({"flagship": "CV", "fighters": 4}),
        "fleets[0].squadrons[2].fighters: 4 fighter squadrons but the squadron's carriers hold "
        "3 at ACO 1 (CV 3/4/5, CX 5/6/8 at ACO I/II/III)",
    ),
    (
        "an unknown option",
        lambda d: d.update(options={"cer_dice": "0-9"}),
        "options.cer_dice: unknown option for ruleset ec4x; allowed: damage_memory, ",
    ),
    (
        "a scout as flagship",
        _add_squadron({"flagship": "SC"}),
        "fleets[0].squadrons[2].flagship: SC has no command rating and cannot be a flagship; "
        f"allowed: {FLAGSHIPS}",
    ),
    (
        "a fighter as flagship",
        _add_squadron({"flagship": "FS"}),
        "fleets[0].squadrons[2].flagship: FS has no command rating and cannot be a flagship; "
        f"allowed: {FLAGSHIPS}",
    ),
]


@pytest.mark.parametrize(("edit", "message"), [b[1:] for b in BAD], ids=[b[0] for b in BAD])
@pytest.mark.parametrize("command", ["resolve", "odds"])
def test_bad_input_exits_2_with_one_line_naming_the_field(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, command: str, edit: Edit, message: str
) -> None:
    data = copy.deepcopy(yaml.safe_load(Path(TWO_HOUSES).read_text(encoding="utf-8")))
    edit(data)
    scenario = write(tmp_path, "bad.yaml", yaml.safe_dump(data, sort_keys=False))
    code, out, err = run(capsys, command, scenario)
    assert (code, out) == (status.BAD_INPUT, "")
    assert one_line(err).startswith(f"spacecombat: {message}")
