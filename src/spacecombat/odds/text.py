"""The odds report as text, with a small bar chart of outcomes."""

from __future__ import annotations

from typing import Any

PLAYERS = ("attacker", "defender")
#: results as the text says them
RESULTS = {
    "attacker_win": "the attacker wins",
    "defender_win": "the defender wins",
    "draw": "a draw",
    "no_combat": "no combat",
    "stalemate": "a stalemate",
    "mixed": "mixed",
}

BAR = 40
#: states after N rounds shown in text (JSON has them all)
STATES_SHOWN = 8
#: outcomes shown beside the three results when the battle can end so
OTHER_OUTCOMES = (
    ("no_combat", "no combat"),
    ("stalemate", "stalemate"),
    ("mixed", "mixed"),
)


def render(report: dict[str, Any]) -> str:
    """A readable report from ``OddsReport.to_json()``."""
    lines = []
    method = report["method"]
    if report.get("note"):
        lines.append(f"Note: {report['note']}")
    for notice in report.get("notices") or ():
        lines.append(f"Note: {notice}")
    if method == "montecarlo":
        lines.append(f"Monte Carlo, {report['trials']} battles (95% intervals)")
    else:
        lines.append("Exact odds")
    intervals = report.get("confidence_95") or {}
    rows = [("attacker_win", "attacker wins"), ("defender_win", "defender wins"), ("draw", "draw")]
    rows += [(name, label) for name, label in OTHER_OUTCOMES if name in report]
    if "planet_taken" in report:
        rows.append(("planet_taken", "planet taken"))
    for name, label in rows:
        p = float(report[name])
        bar = "#" * round(p * BAR)
        extra = ""
        if name in intervals:
            low, high = intervals[name]
            extra = f"  [{100 * low:.2f}%, {100 * high:.2f}%]"
        lines.append(f"  {label:<14} {100 * p:8.4f}%  {bar}{extra}")
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
        lines.extend(_after_rounds(after))
    return "\n".join(lines) + "\n"


def _after_rounds(after: dict[str, Any]) -> list[str]:
    """The state after N rounds: what is over, by result, then the states most likely first
    (``STATES_SHOWN`` of them, and how many more with how much probability)."""
    lines = [f"After {after['rounds']} round(s):"]
    over = after["over"]
    for result, p in sorted(over.items(), key=lambda item: _order(item[0])):
        lines.append(f"  {100 * p:7.3f}%  over: {RESULTS.get(result, result)}")
    states = after["states"]
    for item in states[:STATES_SHOWN]:
        sides = " | ".join(f"{player}: {_units(item[player])}" for player in PLAYERS)
        lines.append(f"  {100 * item['probability']:7.3f}%  {sides}")
    rest = states[STATES_SHOWN:]
    if rest:
        more = sum(item["probability"] for item in rest)
        lines.append(f"  ... and {len(rest)} more states ({100 * more:.3f}%)")
    return lines


def _order(result: str) -> int:
    return list(RESULTS).index(result) if result in RESULTS else len(RESULTS)


def _units(units: dict[str, Any]) -> str:
    """``2 dreadnought (damaged), 1 carrier; on the planet: 2 infantry`` (``none`` if nothing)."""
    parts = [_records(units["space"])] if units["space"] else []
    planets = units["planets"]
    for index, records in enumerate(planets):
        if records:
            where = "on the planet" if len(planets) == 1 else f"on planet {index + 1}"
            parts.append(f"{where}: {_records(records)}")
    return "; ".join(parts) or "none"


def _records(records: list[dict[str, Any]]) -> str:
    return ", ".join(
        f"{r['count']} {r['unit']}" + (f" ({r['status']})" if r.get("status") else "")
        for r in records
    )
