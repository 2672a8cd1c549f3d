"""The odds report as text, with a small bar chart of outcomes."""

from __future__ import annotations

from typing import Any

BAR = 40


def render(report: dict[str, Any]) -> str:
    """A readable report from ``OddsReport.to_json()``."""
    lines = []
    method = report["method"]
    if report.get("note"):
        lines.append(f"Note: {report['note']}")
    if method == "montecarlo":
        lines.append(f"Monte Carlo, {report['trials']} battles (95% intervals)")
    else:
        lines.append("Exact odds")
    intervals = report.get("confidence_95") or {}
    for name, label in (
        ("attacker_win", "attacker wins"),
        ("defender_win", "defender wins"),
        ("draw", "draw"),
    ):
        p = float(report[name])
        bar = "#" * round(p * BAR)
        extra = ""
        if name in intervals:
            low, high = intervals[name]
            extra = f"  [{100 * low:.2f}%, {100 * high:.2f}%]"
        lines.append(f"  {label:<14} {100 * p:8.4f}%  {bar}{extra}")
    for name in ("no_combat", "mixed", "stalemate"):
        if name in report:
            lines.append(f"  {name:<14} {100 * float(report[name]):8.4f}%")
    if "planet_taken" in report:
        p = float(report["planet_taken"])
        extra = ""
        if "planet_taken" in intervals:
            low, high = intervals["planet_taken"]
            extra = f"  [{100 * low:.2f}%, {100 * high:.2f}%]"
        lines.append(f"  {'planet taken':<14} {100 * p:8.4f}%  {'#' * round(p * BAR)}{extra}")
    if method == "exact":
        lines.append(f"  residual       {float(report['residual']):.1e}")
    losses = report["expected_losses"]
    lines.append(
        f"Expected losses (resources): attacker {losses['attacker']:.2f}, "
        f"defender {losses['defender']:.2f}"
    )
    rounds = report["rounds"]
    lines.append(f"Expected rounds: {rounds['expected']:.2f}")
    for player in ("attacker", "defender"):
        survivors = report["survivors"][player]
        lines.append(f"{player.capitalize()} survivors (most likely first):")
        for fleet in survivors["fleets"][:5]:
            units = ", ".join(f"{n} {u}" for u, n in fleet["units"].items()) or "none"
            lines.append(f"  {100 * fleet['probability']:7.3f}%  {units}")
        at_least = survivors["at_least"]
        if at_least:
            shown = ", ".join(f">={k}: {100 * p:.1f}%" for k, p in list(at_least.items())[:8])
            lines.append(f"  at least k units left: {shown}")
    after = report.get("after_rounds")
    if after:
        lines.append(f"After {after['rounds']} round(s):")
        for result, p in after["over"].items():
            lines.append(f"  over, {result}: {100 * p:.3f}%")
        for item in after["states"][:8]:
            lines.append(f"  {100 * item['probability']:7.3f}%  {item['state']}")
    return "\n".join(lines) + "\n"
