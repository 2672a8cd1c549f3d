"""``spacecombat odds FILE --plot OUT`` (issue 13): the report's charts drawn into an SVG or PNG
file, written whole; the report itself still printed; a plot the command cannot draw refused
before any work (exit 2, nothing written)."""

from __future__ import annotations

import io
from pathlib import Path

import pytest

from tests.helpers import run_cli

ROOT = Path(__file__).resolve().parents[2]
EXAMPLE = str(ROOT / "examples" / "odds-dreadnoughts-vs-cruisers.yaml")


def test_a_png_plot_is_drawn_beside_the_report(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    out = tmp_path / "odds.png"
    status, text, _ = run_cli(capsys, "odds", EXAMPLE, "--plot", str(out))
    assert status == 0
    assert "Exact odds" in text
    assert out.read_bytes().startswith(b"\x89PNG\r\n\x1a\n")


def test_an_svg_plot_is_the_same_for_the_same_report(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    first, second = tmp_path / "a.svg", tmp_path / "b.svg"
    for out in (first, second):
        status, _, _ = run_cli(capsys, "odds", EXAMPLE, "--format", "json", "--plot", str(out))
        assert status == 0
    svg = first.read_text(encoding="utf-8")
    assert svg.startswith("<?xml")
    assert "<svg" in svg
    assert "Expected losses" in svg
    assert first.read_bytes() == second.read_bytes()


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--plot", "odds.pdf"], "--plot: must name an .svg or .png file"),
        (["--plot", "odds"], "--plot: must name an .svg or .png file"),
    ],
)
def test_a_plot_it_cannot_draw_is_refused_before_any_work(
    capsys: pytest.CaptureFixture[str],
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    args: list[str],
    message: str,
) -> None:
    monkeypatch.chdir(tmp_path)
    status, out, err = run_cli(capsys, "odds", EXAMPLE, *args)
    assert (status, out) == (2, "")
    assert err.startswith(f"spacecombat: {message}")
    assert list(tmp_path.iterdir()) == []


def test_a_batch_has_no_plot(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr("sys.stdin", io.StringIO("{}\n"))
    status, out, err = run_cli(capsys, "odds", "-", "--plot", str(tmp_path / "x.svg"))
    assert (status, out) == (2, "")
    assert "--plot: draws the charts of one scenario file, not of a batch" in err


def test_an_ec4x_battle_has_no_plot_yet(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    scenario = str(ROOT / "examples" / "ec4x" / "retreat.yaml")
    out = tmp_path / "x.svg"
    status, _, err = run_cli(capsys, "odds", scenario, "--plot", str(out))
    assert status == 2
    assert "--plot: draws TI battles" in err
    assert not out.exists()
