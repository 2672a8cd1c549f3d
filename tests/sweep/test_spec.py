"""Sweep specs (docs/sweeps.md): read, expanded into points, and refused before any work,
exit status 2 naming the field, with no output written."""

from __future__ import annotations

import json
import socket
from pathlib import Path
from typing import Any

import pytest

from spacecombat import odds
from spacecombat.scenario.formats import read_document
from spacecombat.sweeps.points import solve_batch
from spacecombat.sweeps.spec import MAX_SWEEP_POINTS, load_spec, point_seed
from tests.helpers import run_cli
from tests.sweep.command import spacecombat

ROOT = Path(__file__).parents[2]
BASE: dict[str, Any] = {
    "ruleset": "ti4",
    "battle": "space",
    "attacker": {"units": "2 dreadnought"},
    "defender": {"units": "1 destroyer"},
}


def spec(**extra: Any) -> dict[str, Any]:
    return {"scenario": BASE, "axes": {"defender.units.cruiser": "1..3"}, **extra}


def test_points_are_a_product_in_the_axes_order() -> None:
    checked = load_spec(
        spec(axes={"defender.units.cruiser": "1..2", "defender.technologies": [[], ["x"]]})
        | {"axes": {"defender.units.cruiser": "1..2", "attacker.faction": ["sol", "hacan"]}}
    )
    assert list(checked.points()) == [(1, "sol"), (1, "hacan"), (2, "sol"), (2, "hacan")]
    # units in fleet notation are read into counts before an axis sets one of them
    assert checked.scenario_at((2, "hacan"))["defender"]["units"] == {"destroyer": 1, "cruiser": 2}
    assert checked.scenario_at((2, "hacan"))["attacker"]["faction"] == "hacan"
    assert BASE["defender"]["units"] == "1 destroyer"  # the base is never changed


def test_zipped_axes_step_together() -> None:
    checked = load_spec(
        {
            "scenario": BASE,
            "axes": {
                "defender.units.cruiser": "1..3",
                "attacker.units.destroyer": [0, 1, 2],
                "attacker.technologies": [[], ["assault_cannon"]],
            },
            "zip": [["defender.units.cruiser", "attacker.units.destroyer"]],
        }
    )
    assert checked.count() == 6
    assert [p[:2] for p in checked.points()] == [(1, 0), (1, 0), (2, 1), (2, 1), (3, 2), (3, 2)]


def test_all_factions() -> None:
    checked = load_spec({"scenario": BASE, "axes": {"attacker.faction": "all"}})
    assert {"sol", "hacan", "letnev"} <= set(checked.axes[0].values)


def test_point_seed_depends_on_the_point_only() -> None:
    assert point_seed(0, (1, "sol")) == point_seed(0, (1, "sol"))
    assert point_seed(0, (1, "sol")) != point_seed(0, (2, "sol"))
    assert point_seed(0, (1, "sol")) != point_seed(1, (1, "sol"))


BAD = [
    ({"speed": 1}, "speed: is not a key of a sweep spec"),
    ({"axes": {"attacker.unitz.cruiser": [1, 2]}}, "axes.attacker.unitz.cruiser: the value 1"),
    ({"axes": {"defender.units.cruiser": "5..1"}}, "axes.defender.units.cruiser: the range 5..1"),
    ({"axes": {"defender.units.cruiser": "1..x"}}, "axes.defender.units.cruiser: a range is"),
    ({"axes": {"defender.units.cruiser": 3}}, "axes.defender.units.cruiser: must be a list"),
    ({"axes": {"defender.faction": ["nosuch"]}}, "axes.defender.faction: the value 'nosuch'"),
    ({"axes": {"defender.units": "all"}}, "axes.defender.units: 'all' is for a faction"),
    ({"axes": {}}, "axes: must map at least one dotted path"),
    (
        {"axes": {f"attacker.units.{u}": "1..100" for u in ("cruiser", "destroyer", "carrier")}},
        f"axes: 1,000,000 points, more than the limit of {MAX_SWEEP_POINTS:,}",
    ),
    (
        {
            "axes": {"defender.units.cruiser": "1..12", "defender.units.destroyer": "1..12"},
            "method": "montecarlo",
            "trials": 1_000_000,
        },
        "axes: the sweep's estimated cost is over the limit",
    ),
    (
        {
            "axes": {"defender.units.cruiser": "1..3", "attacker.units.cruiser": [1, 2]},
            "zip": [["defender.units.cruiser", "attacker.units.cruiser"]],
        },
        "zip.0: zipped axes must have as many values each",
    ),
    ({"method": "guess"}, "method: must be exact or montecarlo"),
    ({"seed": -1}, "seed: must be a whole number"),
    ({"scenario": {**BASE, "battle": "brawl"}}, "scenario.battle"),
]


@pytest.mark.parametrize(("change", "message"), BAD)
def test_bad_specs_exit_2_naming_the_field(
    change: dict[str, Any], message: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "spec.json"
    path.write_text(json.dumps(spec() | change))
    out = tmp_path / "out.parquet"
    status, stdout, err = run_cli(capsys, "sweep", str(path), "--out", str(out))
    assert status == 2, err
    assert message in err, err
    assert stdout == ""
    assert not out.exists()
    assert not (tmp_path / "out.parquet.partial").exists()


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--out", "table.csv"], "--out: must name a .parquet file"),
        (["--out", "t.parquet", "--plot", "t.gif"], "--plot: must name an .svg or .png file"),
        (
            ["--out", "t.parquet", "--scheduler", "tcp://127.0.0.1:1", "--workers", "2"],
            "--workers: sets the workers of a local cluster",
        ),
    ],
)
def test_bad_options_exit_2(
    args: list[str], message: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "spec.json"
    path.write_text(json.dumps(spec()))
    status, _, err = run_cli(
        capsys,
        "sweep",
        str(path),
        *[str(tmp_path / a) if a.endswith((".csv", ".parquet", ".gif")) else a for a in args],
    )
    assert status == 2
    assert message in err


def test_plot_needs_one_or_two_axes_of_counts(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "spec.json"
    three: dict[str, Any] = {
        "defender.units.cruiser": "1..2",
        "attacker.faction": ["sol"],
        "defender.technologies": [[]],
    }
    path.write_text(json.dumps(spec(axes=three)))
    status, _, err = run_cli(
        capsys,
        "sweep",
        str(path),
        "--out",
        str(tmp_path / "t.parquet"),
        "--plot",
        str(tmp_path / "t.svg"),
    )
    assert status == 2
    assert "--plot: draws one axis of counts" in err


def test_a_journal_that_cannot_be_kept_is_an_io_error(
    tmp_path: Path,
) -> None:
    path = tmp_path / "spec.json"
    path.write_text(json.dumps(spec()))
    (tmp_path / "t.parquet.partial").write_text("a file where the journal's folder goes")
    status, _, err = spacecombat(
        "sweep", str(path), "--out", str(tmp_path / "t.parquet"), "--workers", "1"
    )
    assert status == 74, err
    assert "cannot keep the sweep's finished points" in err
    assert not (tmp_path / "t.parquet").exists()


def test_plot_of_an_ec4x_sweep_is_refused(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    scenario = read_document(ROOT / "examples" / "ec4x" / "raiders-against-scouts.yaml")
    path = tmp_path / "spec.json"
    path.write_text(json.dumps({"scenario": scenario, "axes": {"fleets.0.roe": [3, 7]}}))
    status, _, err = run_cli(
        capsys,
        "sweep",
        str(path),
        "--out",
        str(tmp_path / "t.parquet"),
        "--plot",
        str(tmp_path / "t.svg"),
    )
    assert status == 2
    assert "--plot: draws the attacker's win chance; an EC4X battle" in err


def test_ec4x_rows_are_by_house() -> None:
    scenario = read_document(ROOT / "examples" / "ec4x" / "raiders-against-scouts.yaml")
    checked = load_spec({"scenario": scenario, "axes": {"fleets.0.roe": [7]}})
    ((_, row),) = solve_batch([(0, checked.scenario_at((7,)), 0)], checked.options())
    alone = odds(checked.scenario_at((7,))).to_json()
    assert row["attacker_win"] is None
    assert row["holds_corsairs"] == alone["houses"]["corsairs"]["holds"]
    assert row["expected_losses_league"] == alone["houses"]["league"]["expected_losses"]
    assert row["method"] == "exact"


@pytest.mark.slow
def test_no_scheduler_at_the_address_exits_2(
    tmp_path: Path,
) -> None:
    path = tmp_path / "spec.json"
    path.write_text(json.dumps(spec()))
    with socket.socket() as probe:  # a port nobody listens on
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    status, _, err = spacecombat(
        "sweep",
        str(path),
        "--out",
        str(tmp_path / "t.parquet"),
        "--scheduler",
        f"tcp://127.0.0.1:{port}",
    )
    assert status == 2
    assert f"--scheduler: no Dask scheduler answers at tcp://127.0.0.1:{port}" in err
    assert not (tmp_path / "t.parquet").exists()
