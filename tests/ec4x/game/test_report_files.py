"""``spacecombat turn --report DIR``: the folder is made, every file is readable by others
(0644), all reports or none; bad names and ids (docs/ec4x.md, "Ids") exit 2 naming the field
with nothing written; an input that cannot be read exits 74 (docs/limits.md)."""

from __future__ import annotations

import json
import os
import stat
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from spacecombat.cli import main

GAME = Path(__file__).parents[3] / "examples" / "ec4x" / "game"


@pytest.fixture
def private_umask() -> Iterator[None]:
    old = os.umask(0o077)
    try:
        yield
    finally:
        os.umask(old)


def _turn(
    game: Path, *extra: str, state: str = "state.json", orders: str = "orders-turn-1.json"
) -> int:
    return main(["turn", str(game / state), str(game / orders), *extra])


def test_the_report_folder_is_made_and_its_files_are_readable_by_others(
    game: Path, private_umask: None
) -> None:
    reports = game / "reports" / "turn-1"
    assert _turn(game, "--out", str(game / "next.json"), "--report", str(reports)) == 0
    assert len(list(reports.iterdir())) == 7  # 3 reports, 3 pictures, the whole map
    for path in [*reports.iterdir(), game / "next.json"]:
        assert stat.S_IMODE(path.stat().st_mode) == 0o644, path.name


def test_all_reports_or_none(game: Path, capsys: pytest.CaptureFixture[str]) -> None:
    reports = game / "reports"
    reports.mkdir()
    (reports / "turn-1-beta.json").mkdir()  # beta's report cannot take its place
    out = game / "next.json"
    assert _turn(game, "--out", str(out), "--report", str(reports)) == 74
    err = capsys.readouterr().err
    assert err.count("\n") == 1
    assert "turn-1-beta.json" in err
    assert [p.name for p in reports.iterdir()] == ["turn-1-beta.json"]  # nothing else left
    assert not out.exists()
    assert sorted(p.name for p in game.iterdir()) == ["orders-turn-1.json", "reports", "state.json"]


def test_a_folder_made_for_a_failed_run_is_removed(game: Path) -> None:
    blocker = game / "file"
    blocker.write_text("")
    assert _turn(game, "--out", str(blocker / "next.json"), "--report", str(game / "new")) == 74
    assert sorted(p.name for p in game.iterdir()) == ["file", "orders-turn-1.json", "state.json"]


def _renamed(game: Path, old: str, new: str) -> None:
    """The example game with house ``old`` renamed ``new`` in the state and the orders."""
    for name in ("state.json", "orders-turn-1.json"):
        text = (game / name).read_text()
        (game / name).write_text(text.replace(f'"{old}', json.dumps(new)[:-1]))


@pytest.mark.parametrize("name", ["", "ga/mma", "ga\nmma", ".gamma", "gam ma", "g" * 101])
def test_a_bad_house_name_exits_2_naming_the_field(
    game: Path, capsys: pytest.CaptureFixture[str], name: str
) -> None:
    _renamed(game, "gamma", name)
    reports = game / "reports"
    assert _turn(game, "--out", str(game / "next.json"), "--report", str(reports)) == 2
    err = capsys.readouterr().err
    assert err.startswith("spacecombat: houses: an id is 1 to 100 letters")
    assert err.count("\n") == 1
    assert not reports.exists()
    assert not (game / "next.json").exists()


def _edit_state(game: Path, change: Any) -> None:
    state = json.loads((game / "state.json").read_text())
    change(state)
    (game / "state.json").write_text(json.dumps(state))


@pytest.mark.parametrize(
    ("change", "field"),
    [
        (lambda s: s["fleets"][0].update(id=""), "fleets[0].id"),
        (lambda s: s["fleets"][0].update(id="alpha\n1"), "fleets[0].id"),
        (lambda s: s["systems"][0].update(id=""), "systems[0].id"),
        (lambda s: s["systems"][0].update(name="Sol\nII"), "systems[0].name"),
        (lambda s: s["fleets"][0].update(order={"code": 1, "target": 5}), "fleets[0].order.target"),
        (lambda s: s["fleets"][0].update(order="move"), "fleets[0].order"),
    ],
)
def test_a_bad_id_or_order_in_the_state_exits_2_naming_the_field(
    game: Path, capsys: pytest.CaptureFixture[str], change: Any, field: str
) -> None:
    _edit_state(game, change)
    assert _turn(game, "--report", str(game / "reports")) == 2
    err = capsys.readouterr().err
    assert err.startswith(f"spacecombat: {field}: ")
    assert err.count("\n") == 1
    # never a library's name for a type
    assert "constrained" not in err
    assert "OrderSpec" not in err
    assert "should" not in err
    assert not (game / "reports").exists()


def test_a_wrongly_typed_target_in_the_orders_names_the_field(
    game: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    orders = json.loads((game / "orders-turn-1.json").read_text())
    orders["orders"]["alpha"][0]["order"] = {"code": 1, "target": 5}
    (game / "orders-turn-1.json").write_text(json.dumps(orders))
    assert _turn(game) == 2
    err = capsys.readouterr().err
    assert err == "spacecombat: orders.alpha[0].order.target: must be text (got 5)\n"


def test_an_order_that_is_neither_a_code_nor_a_mapping(
    game: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    orders = json.loads((game / "orders-turn-1.json").read_text())
    orders["orders"]["alpha"][0]["order"] = [1]
    (game / "orders-turn-1.json").write_text(json.dumps(orders))
    assert _turn(game) == 2
    err = capsys.readouterr().err
    assert err.startswith("spacecombat: orders.alpha[0].order: an order is a code 0-15 or a")


@pytest.mark.parametrize("missing", ["state", "orders"])
def test_an_input_that_cannot_be_read_exits_74(
    game: Path, capsys: pytest.CaptureFixture[str], missing: str
) -> None:
    names = {"state": "state.json", "orders": "orders-turn-1.json"}
    names[missing] = "nope.json"
    assert _turn(game, "--report", str(game / "r"), **names) == 74
    err = capsys.readouterr().err
    assert err.startswith(f"spacecombat: {missing.upper()}: cannot read ")
    assert err.count("\n") == 1
    assert not (game / "r").exists()
