"""The odds report as charts, for people who write reports (``spacecombat odds FILE --plot``):
the chance of each result as a bar, each player's survivors as the at-least-k curve, the
expected losses and the distribution of the number of rounds; the same figures the text and
the web page show. Drawn with matplotlib (imported here only: the other commands never need
it), as SVG or PNG, with no date in the file, so the same report gives the same picture."""

from __future__ import annotations

import io
from typing import Any

#: the formats a plot may be written in, by the file name's suffix
FORMATS = ("svg", "png")
#: results shown in the bar, in order, with their labels and colours
RESULTS = (
    ("attacker_win", "attacker wins", "#c0392b"),
    ("draw", "draw", "#7f8c8d"),
    ("defender_win", "defender wins", "#2471a3"),
    ("mixed", "mixed", "#b9770e"),
    ("no_combat", "no combat", "#bdc3c7"),
    ("stalemate", "stalemate", "#95a5a6"),
)
PLAYERS = (("attacker", "#c0392b"), ("defender", "#2471a3"))


def plot(report: dict[str, Any], fmt: str) -> bytes:
    """The charts of ``report`` (``OddsReport.to_json()`` of a TI battle) as ``fmt`` bytes."""
    import matplotlib

    matplotlib.use("Agg")
    # ids inside an SVG (clip paths) come from this salt, not from chance
    matplotlib.rcParams["svg.hashsalt"] = "spacecombat"
    import matplotlib.pyplot as plt

    figure, ((results, survivors), (losses, rounds)) = plt.subplots(
        2, 2, figsize=(10, 7), layout="constrained"
    )
    title = "Exact odds" if report.get("method") == "exact" else "Monte Carlo odds"
    if report.get("trials"):
        title += f" ({report['trials']:,} battles)"
    figure.suptitle(title)
    _results(results, report)
    _survivors(survivors, report)
    _losses(losses, report)
    _rounds(rounds, report)
    out = io.BytesIO()
    metadata = {"Date": None} if fmt == "svg" else {}
    figure.savefig(out, format=fmt, metadata=metadata)
    plt.close(figure)
    return out.getvalue()


def _results(axes: Any, report: dict[str, Any]) -> None:
    left = 0.0
    for name, label, colour in RESULTS:
        chance = float(report.get(name, 0.0))
        if chance <= 0:
            continue
        axes.barh(
            [0.15],
            [chance],
            left=left,
            height=0.5,
            color=colour,
            label=f"{label} {100 * chance:.2f}%",
        )
        if chance >= 0.2:
            axes.annotate(
                f"{label}\n{100 * chance:.1f}%",
                (left + chance / 2, 0.15),
                ha="center",
                va="center",
                color="white",
                fontsize="small",
            )
        left += chance
    axes.set_xlim(0, 1)
    axes.set_ylim(-0.5, 0.5)
    axes.set_yticks([])
    axes.set_xlabel("probability")
    axes.set_title("Result")
    axes.legend(loc="lower center", ncol=2, fontsize="small", frameon=False)


def _survivors(axes: Any, report: dict[str, Any]) -> None:
    for player, colour in PLAYERS:
        at_least = report.get("survivors", {}).get(player, {}).get("at_least", {})
        ks = [int(k) for k in at_least]
        if ks:
            axes.plot(ks, list(at_least.values()), "o-", color=colour, label=player)
    axes.set_ylim(0, 1.02)
    axes.xaxis.get_major_locator().set_params(integer=True)
    axes.set_xlabel("k units or more left")
    axes.set_ylabel("probability")
    axes.set_title("Survivors (at least k)")
    axes.legend(fontsize="small")


def _losses(axes: Any, report: dict[str, Any]) -> None:
    expected = report.get("expected_losses", {})
    names = [player for player, _ in PLAYERS]
    values = [float(expected.get(player, 0.0)) for player in names]
    axes.bar(names, values, color=[colour for _, colour in PLAYERS])
    for x, value in enumerate(values):
        axes.annotate(f"{value:.2f}", (x, value), ha="center", va="bottom")
    axes.set_ylabel("resources")
    axes.set_title("Expected losses")


def _rounds(axes: Any, report: dict[str, Any]) -> None:
    distribution = report.get("rounds", {}).get("distribution", {})
    # rounds of less than 1 in 10,000 would only stretch the axis
    shown = {int(r): p for r, p in distribution.items() if p >= 1e-4}
    axes.bar(list(shown), list(shown.values()), color="#566573")
    axes.xaxis.get_major_locator().set_params(integer=True)
    axes.set_xlabel("rounds")
    axes.set_ylabel("probability")
    expected = report.get("rounds", {}).get("expected")
    axes.set_title(f"Rounds (expected {expected:.2f})" if expected else "Rounds")
