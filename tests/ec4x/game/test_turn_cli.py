"""``spacecombat turn``: exit statuses, whole-or-nothing output, inputs never changed."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from spacecombat.cli import main

GAME = Path(__file__).parents[3] / "examples" / "ec4x" / "game"


def test_turn_writes_the_next_state_and_the_reports(game: Path) -> None:
    before = (game / "state.json").read_bytes()
    reports = game / "reports"
    reports.mkdir()
    args = [str(game / "state.json"), str(game / "orders-turn-1.json")]
    code = main(["turn", *args, "--out", str(game / "next.json"), "--report", str(reports)])
    assert code == 0
    assert (game / "state.json").read_bytes() == before
    assert (game / "next.json").read_text() == (GAME / "expected" / "state-2.json").read_text()
    assert sorted(p.name for p in reports.iterdir()) == [
        "turn-1-alpha.json",
        "turn-1-alpha.svg",
        "turn-1-beta.json",
        "turn-1-beta.svg",
        "turn-1-gamma.json",
        "turn-1-gamma.svg",
        "turn-1.svg",
    ]
    assert [p.name for p in game.iterdir() if p.name.startswith(".")] == []


def test_turn_prints_the_state_without_out(game: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["turn", str(game / "state.json"), str(game / "orders-turn-1.json")]) == 0
    assert json.loads(capsys.readouterr().out)["turn"] == 2


def test_bad_orders_exit_2_naming_the_field(game: Path, capsys: pytest.CaptureFixture[str]) -> None:
    orders = json.loads((game / "orders-turn-1.json").read_text())
    orders["orders"]["alpha"][0]["fleet"] = "beta-1"
    (game / "bad.json").write_text(json.dumps(orders))
    out = game / "next.json"
    code = main(["turn", str(game / "state.json"), str(game / "bad.json"), "--out", str(out)])
    assert code == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1
    assert "orders.alpha[0].fleet" in err[0]
    assert not out.exists()


def test_wrong_turn_exits_2(game: Path, capsys: pytest.CaptureFixture[str]) -> None:
    orders = json.loads((game / "orders-turn-1.json").read_text())
    orders["turn"] = 2
    (game / "bad.json").write_text(json.dumps(orders))
    assert main(["turn", str(game / "state.json"), str(game / "bad.json")]) == 2
    assert "turn:" in capsys.readouterr().err


def test_out_over_an_input_is_refused(game: Path) -> None:
    state = str(game / "state.json")
    before = (game / "state.json").read_bytes()
    assert main(["turn", state, str(game / "orders-turn-1.json"), "--out", state]) == 2
    assert (game / "state.json").read_bytes() == before
