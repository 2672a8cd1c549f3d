"""The odds report as text, with a small bar chart of outcomes."""

from __future__ import annotations

from collections.abc import Callable
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
    if "houses" in report:
        return _render_houses(report)
    lines = _heading(report)
    method = report["method"]
    intervals = report.get("confidence_95") or {}
    lines.extend(_headline(report, intervals))
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
    lines.extend(_retreats(report.get("retreats") or {}))
    planets = report.get("planets") or {}
    if len(planets) > 1 or "invaded" in report:  # one planet's fight is the invasion's, above
        lines.extend(_planets(planets))
    losses = report["expected_losses"]
    lines.append(
        f"Expected losses (resources): attacker {losses['attacker']:.2f}, "
        f"defender {losses['defender']:.2f}"
    )
    rounds = report["rounds"]
    by_stage = ""
    if "space" in rounds:  # a tactical action, stage by stage
        by_stage = (
            f" (space combat {rounds['space']['expected']:.2f}, "
            f"ground combat {rounds['ground']['expected']:.2f})"
        )
    lines.append(f"Expected rounds: {rounds['expected']:.2f}{by_stage}")
    in_space = " in space" if "invaded" in report else ""
    for player in ("attacker", "defender"):
        survivors = report["survivors"][player]
        lines.append(f"{player.capitalize()} survivors{in_space} (most likely first):")
        lines.extend(_fleets(survivors["fleets"], 5))
        at_least = survivors["at_least"]
        if at_least:
            shown = ", ".join(f">={k}: {100 * p:.1f}%" for k, p in list(at_least.items())[:8])
            lines.append(f"  at least k units left: {shown}")
    after = report.get("after_rounds")
    if after:
        lines.extend(_after_rounds(after))
    return "\n".join(lines) + "\n"


def _headline(report: dict[str, Any], intervals: dict[str, Any]) -> list[str]:
    """What a player reads first: who holds the system once a space battle is over (``The
    attacker holds the system 82.95% (the defender 13.64%, neither 3.41%)``), or, in an
    invasion, the chance that the attacker takes each planet."""
    lines = []
    holds = report.get("holds")
    if holds:
        around = intervals.get("holds") or {}
        first = (
            f"The attacker holds the system {_percent(holds['attacker'], around.get('attacker'))}"
        )
        rest = [
            f"the defender {_percent(holds['defender'], around.get('defender'))}",
            f"neither {_percent(holds['neither'], around.get('neither'))}",
        ]
        lines.append(f"{first} ({', '.join(rest)})")
    around = intervals.get("taken") or {}
    taken = report.get("taken") or {}
    for planet, p in taken.items():
        name = "the planet" if planet == "planet" else planet  # a planet left unnamed
        lines.append(f"The attacker takes {name} {_percent(p, around.get(planet))}")
    if len(taken) > 1 and "taken_all" in report:
        every = _percent(report["taken_all"], intervals.get("taken_all"))
        lines.append(f"The attacker takes every planet {every}")
    if "invaded" in report:  # a tactical action
        lines.append(f"An invasion follows the space combat {100 * report['invaded']:.2f}%")
    return lines


def _percent(p: float, interval: list[float] | None) -> str:
    """``82.95%``, with its 95% interval if there is one (``82.95% [82.41%, 83.47%]``)."""
    said = f"{100 * p:.2f}%"
    if interval:
        said += f" [{100 * interval[0]:.2f}%, {100 * interval[1]:.2f}%]"
    return said


def _fleets(fleets: list[dict[str, Any]], shown: int, indent: str = "  ") -> list[str]:
    lines = []
    for fleet in fleets[:shown]:
        units = ", ".join(f"{n} {u}" for u, n in fleet["units"].items()) or "none"
        lines.append(f"{indent}{100 * fleet['probability']:7.3f}%  {units}")
    return lines


def _retreats(retreats: dict[str, Any]) -> list[str]:
    """How often each player's policy retreats (counted above as the other player's win) and
    what gets away."""
    lines = []
    for player in PLAYERS:
        facts = retreats.get(player)
        if not facts:
            continue
        lines.append(
            f"The {player} retreats {100 * facts['probability']:.4f}% of the time "
            f"(counted as the {'defender' if player == 'attacker' else 'attacker'}'s win); "
            "what gets away:"
        )
        lines.extend(_fleets(facts["survivors"]["fleets"], 3))
    return lines


def _planets(planets: dict[str, Any]) -> list[str]:
    """An invasion of several planets: each planet's chance to be taken, and who is left."""
    lines = []
    for name, facts in planets.items():
        lines.append(f"Planet {name}: taken {100 * facts['taken']:.4f}%")
        for player in PLAYERS:
            fleets = facts["survivors"].get(player, {}).get("fleets", [])
            if any(f["units"] for f in fleets):
                lines.append(f"  {player}'s ground forces left (most likely first):")
                lines.extend(_fleets(fleets, 3, "    "))
    return lines


def _heading(report: dict[str, Any]) -> list[str]:
    """Notes, notices and the method."""
    lines = [f"Note: {report['note']}"] if report.get("note") else []
    lines += [f"Note: {notice}" for notice in report.get("notices") or ()]
    if report["method"] == "montecarlo":
        lines.append(f"Monte Carlo, {report['trials']} battles (95% intervals){_stop(report)}")
    else:
        lines.append("Exact odds")
    fractions = report.get("fractions")
    if fractions:
        lines.append(f"Exact fractions: {_fractions(fractions)}")
    return lines


def _stop(report: dict[str, Any]) -> str:
    """Why Monte Carlo stopped, when its stopping rule was on (docs/protocol.md): every
    headline probability known within the target, or the trials asked for ran out first."""
    precision = report.get("precision")
    if not precision:
        return ""
    target, widest = 100 * precision["target"], 100 * precision["widest"]
    if precision["reached"]:
        return f": every headline within ±{target:.2f} points (widest ±{widest:.2f})"
    return f": stopped at the trials asked for, widest ±{widest:.2f} points (target ±{target:.2f})"


def _fractions(fractions: dict[str, Any]) -> str:
    """``attacker_win 279/289, holds attacker 279/289, …``: the exact fractions by name."""
    said = []
    for name, value in fractions.items():
        if isinstance(value, dict):
            said += [f"{name} {key} {fraction}" for key, fraction in value.items()]
        else:
            said.append(f"{name} {value}")
    return ", ".join(said)


#: a battle of houses (EC4X): results and fates as the text says them
HOUSE_RESULTS = {
    "shared": "several non-hostile houses hold it",
    "none": "nobody is left",
    "cancelled": "combat cancelled (all cloaked)",
}
FATES = (
    ("holds", "holds the system"),
    ("retreated", "retreats"),
    ("destroyed", "is destroyed"),
    ("not_engaged", "does not engage"),
)


def _render_houses(report: dict[str, Any]) -> str:
    """A battle of houses: who holds the system, then each house's fates, losses and
    survivors."""
    lines = _heading(report)
    intervals = report.get("confidence_95") or {}
    lines.append("Who holds the system (in space):")
    for result, p in sorted(report["results"].items(), key=lambda item: -item[1]):
        label = HOUSE_RESULTS.get(result, result)
        lines.append(_row(label, p, (intervals.get("results") or {}).get(result), 36))
    for house, facts in report["houses"].items():
        lines.append(f"House {house}:")
        for fate, label in FATES:
            if facts[fate] or fate != "not_engaged":
                lines.append(_row(label, facts[fate], (intervals.get(house) or {}).get(fate), 18))
        lines.append(f"  expected losses (production cost): {facts['expected_losses']:.2f}")
        for fleet in facts["survivors"]["fleets"][:5]:
            units = ", ".join(f"{n} {u}" for u, n in fleet["units"].items()) or "none"
            lines.append(f"  {100 * fleet['probability']:7.3f}%  survivors: {units}")
    colony = report.get("colony")
    if colony:
        lines.extend(_colony(colony, intervals.get("colony") or {}))
    rounds = report["rounds"]
    lines.append(f"Expected rounds: {rounds['expected']:.2f}")
    if report["method"] == "exact":
        lines.append(f"Residual: {float(report['residual']):.1e}")
    after = report.get("after_rounds")
    if after:
        lines.extend(_after_rounds_of_houses(after, list(report["houses"])))
    return "\n".join(lines) + "\n"


def _colony(colony: dict[str, Any], intervals: dict[str, Any]) -> list[str]:
    """The colony attacked from orbit: the chance it falls, its planetary results, and what is
    expected to be left of it."""
    lines = ["The colony:"]
    lines.append(_row("falls", colony["falls"], intervals.get("falls"), 18))
    if colony["seized"]:
        lines.append(_row("is seized intact", colony["seized"], intervals.get("seized"), 18))
    for result, p in colony["results"].items():
        lines.append(_row(result, p, None, 18))
    left = ", ".join(f"{key} {value:.2f}" for key, value in colony["expected_left"].items())
    lines.append(f"  expected left: {left}")
    return lines


def _after_rounds_of_houses(after: dict[str, Any], houses: list[str]) -> list[str]:
    """A battle of houses after N rounds: what is over, then the states most likely first,
    each house's squadrons with their state (``A1-1 DN CA CA (crippled)``)."""
    over = sorted(after["over"].items(), key=lambda item: -item[1])
    return _after(
        after,
        [(HOUSE_RESULTS.get(result, result), p) for result, p in over],
        lambda item: " | ".join(f"{h}: {_squadrons(item[h]['space'])}" for h in houses),
    )


def _squadrons(units: list[dict[str, Any]]) -> str:
    shown = [
        f"{u['unit']} {' '.join(u['ships'])}"
        + (f" ({u['state']})" if u["state"] != "undamaged" else "")
        for u in units
        if u.get("fighting")
    ]
    return ", ".join(shown) or "none"


def _row(label: str, p: float, interval: list[float] | None, width: int) -> str:
    bar = "#" * round(p * BAR)
    extra = f"  [{100 * interval[0]:.2f}%, {100 * interval[1]:.2f}%]" if interval else ""
    return f"  {label:<{width}} {100 * p:8.4f}%  {bar}{extra}"


def _after_rounds(after: dict[str, Any]) -> list[str]:
    """The state after N rounds: what is over, by result, then the states most likely first."""
    over = sorted(after["over"].items(), key=lambda item: _order(item[0]))
    return _after(
        after,
        [(RESULTS.get(result, result), p) for result, p in over],
        lambda item: (
            _stage(item) + " | ".join(f"{player}: {_units(item[player])}" for player in PLAYERS)
        ),
    )


def _stage(item: dict[str, Any]) -> str:
    """A tactical action's state says its stage first (docs/rulings.md 22T-4)."""
    stage = item.get("stage")
    return {"space": "[space combat] ", "invasion": "[invasion] "}.get(stage, "") if stage else ""


def _after(
    after: dict[str, Any],
    over: list[tuple[str, float]],
    sides: Callable[[dict[str, Any]], str],
) -> list[str]:
    """What is over, by result, then the states most likely first (``STATES_SHOWN`` of them,
    each shown by ``sides``, and how many more with how much probability)."""
    lines = [f"After {after['rounds']} round(s):"]
    lines += [f"  {100 * p:7.3f}%  over: {said}" for said, p in over]
    states = after["states"]
    for item in states[:STATES_SHOWN]:
        lines.append(f"  {100 * item['probability']:7.3f}%  {sides(item)}")
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
