"""A sweep's table as the picture a designer looks at (``spacecombat sweep --plot``):

- two axes of numbers (counts): a heat map of the attacker's win chance, the first axis down,
  the second across, with the 50% contour;
- one axis of numbers, and at most one other axis (a faction, technologies): the attacker's
  win chance along the numbers, one line per value of the other axis.

Drawn with matplotlib as SVG or PNG, with no date in the file, so the same table gives the
same picture (as ``report/plots.py``).
"""

from __future__ import annotations

import io
from pathlib import Path
from typing import TYPE_CHECKING, Any

from spacecombat.core.errors import ScenarioError
from spacecombat.core.limits import shown_path
from spacecombat.report.plots import FORMATS

if TYPE_CHECKING:
    import pandas as pd

    from spacecombat.sweeps.spec import SweepSpec


def plot_format(path: str) -> str:
    """``--plot``'s format from its suffix; ``ScenarioError`` before any work otherwise."""
    fmt = Path(path).suffix.lower().removeprefix(".")
    if fmt not in FORMATS:
        raise ScenarioError("--plot", f"must name an .svg or .png file (got {shown_path(path)})")
    return fmt


def _numeric(values: tuple[Any, ...]) -> bool:
    return all(isinstance(v, int | float) and not isinstance(v, bool) for v in values)


def check_plot(spec: SweepSpec) -> str:
    """The kind of picture the spec's axes make (``heat`` or ``lines``), refused before any
    work when they make none (or the battle is EC4X's, of houses rather than an attacker and a
    defender, as ``odds --plot`` refuses it)."""
    if spec.scenario.get("ruleset") == "ec4x":
        raise ScenarioError(
            "--plot", "draws the attacker's win chance; an EC4X battle of houses has none"
        )
    numbers = [axis for axis in spec.axes if _numeric(axis.values)]
    if len(spec.axes) == 2 and len(numbers) == 2:
        return "heat"
    if len(spec.axes) <= 2 and len(numbers) >= 1:
        return "lines"
    raise ScenarioError(
        "--plot",
        "draws one axis of counts (a line per value of a second axis, if any) or two axes "
        f"of counts (a heat map); the spec has {len(spec.axes)} axes, {len(numbers)} of counts",
    )


def plot_sweep(spec: SweepSpec, frame: pd.DataFrame, fmt: str) -> bytes:
    """The picture of ``frame`` (the table of ``spec``) as ``fmt`` bytes."""
    import matplotlib

    matplotlib.use("Agg")
    matplotlib.rcParams["svg.hashsalt"] = "spacecombat"
    import matplotlib.pyplot as plt

    kind = check_plot(spec)
    figure, axes = plt.subplots(figsize=(8, 6), layout="constrained")
    if kind == "heat":
        _heat(axes, figure, spec, frame)
    else:
        _lines(axes, spec, frame)
    out = io.BytesIO()
    metadata = {"Date": None} if fmt == "svg" else {}
    figure.savefig(out, format=fmt, metadata=metadata)
    plt.close(figure)
    return out.getvalue()


def _heat(axes: Any, figure: Any, spec: SweepSpec, frame: pd.DataFrame) -> None:
    import numpy as np

    down, across = spec.axes
    grid = frame.pivot_table(
        index=down.path, columns=across.path, values="attacker_win", aggfunc="first"
    )
    grid = grid.reindex(index=sorted(down.values), columns=sorted(across.values))
    values = grid.to_numpy(dtype=float)
    image = axes.imshow(
        values,
        origin="lower",
        aspect="auto",
        cmap="RdBu_r",
        vmin=0.0,
        vmax=1.0,
        extent=(
            min(across.values) - 0.5,
            max(across.values) + 0.5,
            min(down.values) - 0.5,
            max(down.values) + 0.5,
        ),
    )
    figure.colorbar(image, ax=axes, label="attacker wins")
    if values.shape[0] > 1 and values.shape[1] > 1 and not np.isnan(values).all():
        lines = axes.contour(
            sorted(across.values), sorted(down.values), values, levels=[0.5], colors="black"
        )
        axes.clabel(lines, fmt={0.5: "50%"})
    axes.set_xlabel(across.path)
    axes.set_ylabel(down.path)
    axes.set_title("Attacker's win chance")


def _lines(axes: Any, spec: SweepSpec, frame: pd.DataFrame) -> None:
    along = next(axis for axis in spec.axes if _numeric(axis.values))
    others = [axis for axis in spec.axes if axis is not along]
    if others:
        for value, part in frame.groupby(others[0].path, sort=False):
            part = part.sort_values(along.path)
            axes.plot(part[along.path], part["attacker_win"], marker="o", label=str(value))
        axes.legend(title=others[0].path)
    else:
        part = frame.sort_values(along.path)
        axes.plot(part[along.path], part["attacker_win"], marker="o")
    axes.axhline(0.5, color="grey", linewidth=0.8, linestyle="--")
    axes.set_ylim(0.0, 1.0)
    axes.set_xlabel(along.path)
    axes.set_ylabel("attacker wins")
    axes.set_title("Attacker's win chance")
