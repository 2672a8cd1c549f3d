"""The command line with TI3 scenarios: the examples play and give odds; bad TI3 input exits
with status 2 and one message naming the field, nothing on standard output."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from spacecombat.cli import main

ROOT = Path(__file__).resolve().parent.parent.parent
EXAMPLES = sorted((ROOT / "examples").glob("ti3-*.yaml"))


@pytest.mark.parametrize("example", EXAMPLES, ids=lambda p: p.stem)
def test_ti3_examples_resolve_replay_and_give_odds(
    example: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["resolve", str(example), "--seed", "3", "--format", "jsonl"]) == 0
    log = tmp_path / "log.jsonl"
    log.write_text(capsys.readouterr().out, encoding="utf-8")
    assert main(["replay", str(log)]) == 0
    capsys.readouterr()
    assert main(["odds", str(example), "--format", "json"]) == 0
    report = json.loads(capsys.readouterr().out)
    total = report["attacker_win"] + report["defender_win"] + report["draw"]
    assert total == pytest.approx(1.0)


@pytest.mark.parametrize(
    ("text", "field"),
    [
        ("attacker: {units: {infantry: 2}}", "attacker.units.infantry"),
        ("attacker: {units: {cruiser: 1}, upgrades: [cruiser]}", "attacker.upgrades"),
        (
            "attacker: {units: {cruiser: 1}}\nsystem: {wormholes: [epsilon]}",
            "system.wormholes[0]",
        ),
        ("attacker: {units: {flagship: 1}}", "attacker.units.flagship"),
        ("attacker: {units: {cruiser: 1}}\noptions: {turbo: true}", "options.turbo"),
        (
            "attacker: {units: {cruiser: 1}, policy: {play: {sabotage_run: never}}}",
            "attacker.policy.play.sabotage_run",
        ),
        ("attacker: {units: {cruiser: 1}, damaged: {cruiser: 1}}", "attacker.damaged.cruiser"),
    ],
)
def test_bad_ti3_input_exits_2_naming_the_field(
    text: str, field: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    scenario = tmp_path / "bad.yaml"
    scenario.write_text(
        f"ruleset: ti3\nbattle: space\n{text}\ndefender: {{units: {{cruiser: 1}}}}\n",
        encoding="utf-8",
    )
    assert main(["resolve", str(scenario)]) == 2
    captured = capsys.readouterr()
    assert captured.out == ""
    assert field in captured.err
