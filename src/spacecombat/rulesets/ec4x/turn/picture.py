"""A picture of an EC4X map as plain SVG (no library): each house's view of a turn, drawn from
its report and so showing only what the report shows, and the whole map for the game master.

What is drawn (docs/ec4x.md, "Map pictures"), each with an id or class a page or a test can
find:

- ``#hexes``: one hex per system (``.system``, ``data-system``), ``.explored`` or
  ``.unexplored``, filled with its colony owner's colour (``.colony``, ``data-owner``); its id
  as a label (``text.label``);
- ``#lanes``: one line per jump lane, ``.lane.major`` / ``.minor`` / ``.restricted`` (facts §10),
  drawn solid, dashed and dotted;
- ``#fleets``: the house's fleets (``.fleet.own``) and the foreign forces it knows of
  (``.fleet.contact``), each with a ``title`` naming it;
- ``#moves``: this turn's moves (``polyline.move``), ``#retreats`` this turn's retreats
  (``polyline.retreat``), ``#battles`` each battle's system (``.battle``);
- ``#legend``: the house, the turn and what each mark means.

``house_view(report, houses)`` and ``master_view(state, result)`` gather what to draw;
``render(view)`` writes the SVG. The same view gives the same bytes.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping, Sequence
from typing import Any
from xml.sax.saxutils import escape, quoteattr

from spacecombat.scenario.ec4x_game import GameState

#: hex size (centre to corner) in SVG units
SIZE = 24.0
#: the houses' colours, in the order of their names; a ninth house reuses the first
PALETTE = (
    "#e6194b",
    "#3cb44b",
    "#4363d8",
    "#f58231",
    "#911eb4",
    "#42d4f4",
    "#f032e6",
    "#9a6324",
)
#: facts §10's lane classes, as strokes: solid, dashed, dotted
LANE_DASH = {"major": "", "minor": "6 4", "restricted": "2 4"}
NEUTRAL = "#f4f4f4"
#: the narrowest picture: room for the legend's lines
LEGEND_WIDTH = 480.0
UNEXPLORED = "#c8c8c8"


#: the legend's lines on what each mark means
KEY = (
    "lanes: major solid, minor dashed, restricted dotted; grey hex: not explored",
    "circle: fleet; square: foreign force seen (battle, spy, patrol)",
    "black arrow: this turn's move; red arrow: retreat; star: battle",
)


def _centre(q: int, r: int) -> tuple[float, float]:
    """A hex's centre (pointy-top axial coordinates)."""
    return SIZE * math.sqrt(3) * (q + r / 2), SIZE * 1.5 * r


def _n(x: float) -> str:
    """A coordinate with one decimal (the same on every machine)."""
    return f"{x:.1f}"


def _hex_points(x: float, y: float) -> str:
    corners = []
    for i in range(6):
        angle = math.radians(60 * i - 30)
        corners.append(f"{_n(x + SIZE * math.cos(angle))},{_n(y + SIZE * math.sin(angle))}")
    return " ".join(corners)


def colours(houses: Iterable[str]) -> dict[str, str]:
    """Each house's colour, by the order of the names."""
    return {h: PALETTE[i % len(PALETTE)] for i, h in enumerate(sorted(houses))}


def house_view(report: Mapping[str, Any], houses: Iterable[str]) -> dict[str, Any]:
    """What one house's picture shows: its report's ``map``, fleets, contacts, moves,
    retreats and battles (nothing else), ``houses`` naming every house for its colours."""
    known = report["map"]
    return {
        "title": f"{report['game_id']}: turn {report['turn']}, house {report['house']}",
        "house": report["house"],
        "turn": report["turn"],
        "houses": sorted(houses),
        "systems": known["systems"],
        "lanes": known["lanes"],
        "fleets": [
            {"id": f["id"], "owner": f["owner"], "system": f["location"]} for f in report["fleets"]
        ],
        "contacts": [
            {
                "owner": c["owner"],
                "system": c["system"],
                "what": c.get("fleet", f"{c['owner']} ({c['source']})"),
            }
            for c in report["contacts"]
        ],
        "moves": report["moves"],
        "retreats": report["retreats"],
        "battles": sorted({b["system"] for b in report["battles"]}),
    }


def master_view(
    state: GameState,
    played_turn: int,
    moves: Mapping[str, Sequence[str]],
    retreats: Mapping[str, Sequence[str]],
    battles: Iterable[str],
) -> dict[str, Any]:
    """The game master's picture: every system, lane and fleet of ``state`` (the state after
    turn ``played_turn``), every move, retreat and battle of that turn."""
    systems = []
    for s in state.systems:
        colony = s.colony()
        systems.append(
            {
                "id": s.id,
                **({"name": s.name} if s.name is not None else {}),
                "q": s.q,
                "r": s.r,
                "explored": True,
                "owner": colony.owner if colony is not None else None,
            }
        )
    return {
        "title": f"{state.game_id}: turn {played_turn}, the whole map",
        "house": None,
        "turn": played_turn,
        "houses": sorted(state.houses),
        "systems": systems,
        "lanes": [{"systems": list(x.systems), "class": x.lane_class} for x in state.lanes],
        "fleets": [{"id": f.id, "owner": f.owner, "system": f.location} for f in state.fleets],
        "contacts": [],
        "moves": dict(moves),
        "retreats": dict(retreats),
        "battles": sorted(set(battles)),
    }


def render(view: Mapping[str, Any]) -> str:
    """The SVG of ``view`` (``house_view`` or ``master_view``)."""
    paint = colours(view["houses"])
    where = {s["id"]: _centre(s["q"], s["r"]) for s in view["systems"]}
    xs = [x for x, _ in where.values()] or [0.0]
    ys = [y for _, y in where.values()] or [0.0]
    left, top = min(xs) - 2 * SIZE, min(ys) - 2 * SIZE
    width = max(max(xs) - min(xs) + 4 * SIZE, LEGEND_WIDTH)
    legend_height = 72 + 18 * len(paint)
    height = max(ys) - min(ys) + 4 * SIZE + legend_height
    out: list[str] = [
        '<svg xmlns="http://www.w3.org/2000/svg" '
        f'viewBox="{_n(left)} {_n(top)} {_n(width)} {_n(height)}" '
        f'width="{_n(width)}" height="{_n(height)}" class="ec4x-map" '
        f"data-turn={quoteattr(str(view['turn']))}"
        + (f" data-house={quoteattr(view['house'])}" if view["house"] else "")
        + ">",
        f"<title>{escape(view['title'])}</title>",
        "<defs><marker id='arrow' viewBox='0 0 10 10' refX='9' refY='5' markerWidth='6' "
        "markerHeight='6' orient='auto-start-reverse'><path d='M0,0 L10,5 L0,10 z'/></marker>"
        "</defs>",
        f'<rect class="background" x="{_n(left)}" y="{_n(top)}" width="{_n(width)}" '
        f'height="{_n(height)}" fill="#ffffff"/>',
    ]
    out += _hexes(view, where, paint)
    out += _lanes(view, where)
    out += _paths("moves", "move", view["moves"], where, "#000000")
    out += _paths("retreats", "retreat", view["retreats"], where, "#d00000")
    out += _battles(view, where)
    out += _fleets(view, where, paint)
    out += _legend(view, paint, left, top + height - legend_height)
    out.append("</svg>")
    return "\n".join(out) + "\n"


def _hexes(
    view: Mapping[str, Any], where: Mapping[str, tuple[float, float]], paint: Mapping[str, str]
) -> list[str]:
    out = ['<g id="hexes">']
    for s in view["systems"]:
        x, y = where[s["id"]]
        owner = s.get("owner")
        kind = "explored" if s["explored"] else "unexplored"
        fill = paint.get(owner, NEUTRAL) if owner else (NEUTRAL if s["explored"] else UNEXPLORED)
        classes = f"system {kind}" + (" colony" if owner else "")
        data = f" data-owner={quoteattr(owner)}" if owner else ""
        name = s.get("name")
        tip = s["id"] + (f" {name}" if name else "") + (f" ({owner})" if owner else "")
        out.append(
            f'<g class="{classes}" data-system={quoteattr(s["id"])}{data}>'
            f"<title>{escape(tip)}</title>"
            f'<polygon class="hex" points="{_hex_points(x, y)}" fill="{fill}" '
            f'fill-opacity="{0.55 if owner else 1}" stroke="#888888" stroke-width="1"/>'
            f'<text class="label" x="{_n(x)}" y="{_n(y + SIZE * 0.62)}" font-size="8" '
            f'text-anchor="middle" font-family="sans-serif">{escape(s["id"])}</text></g>'
        )
    out.append("</g>")
    return out


def _lanes(view: Mapping[str, Any], where: Mapping[str, tuple[float, float]]) -> list[str]:
    out = ['<g id="lanes">']
    for lane in view["lanes"]:
        a, b = lane["systems"]
        if a not in where or b not in where:
            continue
        (x1, y1), (x2, y2) = where[a], where[b]
        dash = LANE_DASH[lane["class"]]
        out.append(
            f'<line class="lane {lane["class"]}" data-systems="{escape(a)} {escape(b)}" '
            f'x1="{_n(x1)}" y1="{_n(y1)}" x2="{_n(x2)}" y2="{_n(y2)}" stroke="#555555" '
            f'stroke-width="{2 if lane["class"] == "major" else 1.5}"'
            + (f' stroke-dasharray="{dash}"' if dash else "")
            + "/>"
        )
    out.append("</g>")
    return out


def _paths(
    group: str,
    kind: str,
    paths: Mapping[str, Sequence[str]],
    where: Mapping[str, tuple[float, float]],
    colour: str,
) -> list[str]:
    out = [f'<g id="{group}">']
    for fid, path in sorted(paths.items()):
        points = [where[s] for s in path if s in where]
        if len(points) < 2:
            continue
        line = " ".join(f"{_n(x)},{_n(y)}" for x, y in points)
        out.append(
            f'<polyline class="{kind}" data-fleet={quoteattr(fid)} points="{line}" '
            f'fill="none" stroke="{colour}" stroke-width="2.5" marker-end="url(#arrow)">'
            f"<title>{escape(fid)}: {escape(' → '.join(path))}</title></polyline>"
        )
    out.append("</g>")
    return out


def _battles(view: Mapping[str, Any], where: Mapping[str, tuple[float, float]]) -> list[str]:
    out = ['<g id="battles">']
    for system in view["battles"]:
        if system not in where:
            continue
        x, y = where[system]
        r = SIZE * 0.45
        star = " ".join(
            f"{_n(x + (r if i % 2 == 0 else r / 2) * math.cos(math.radians(45 * i - 90)))},"
            f"{_n(y + (r if i % 2 == 0 else r / 2) * math.sin(math.radians(45 * i - 90)))}"
            for i in range(8)
        )
        out.append(
            f'<polygon class="battle" data-system={quoteattr(system)} points="{star}" '
            f'fill="#ffd700" stroke="#b00000" stroke-width="1.5">'
            f"<title>battle in {escape(system)}</title></polygon>"
        )
    out.append("</g>")
    return out


def _fleets(
    view: Mapping[str, Any], where: Mapping[str, tuple[float, float]], paint: Mapping[str, str]
) -> list[str]:
    out = ['<g id="fleets">']
    marks: list[tuple[str, str, str, str]] = [
        ("own" if view["house"] else "fleet-of-house", f["owner"], f["system"], f["id"])
        for f in view["fleets"]
    ]
    marks += [("contact", c["owner"], c["system"], c["what"]) for c in view["contacts"]]
    at: dict[str, int] = {}
    for kind, owner, system, what in marks:
        if system not in where:
            continue
        n = at.get(system, 0)
        at[system] = n + 1
        x, y = where[system]
        # up to six marks around the centre, then on top of each other
        angle = math.radians(60 * (n % 6) - 120)
        cx, cy = x + SIZE * 0.42 * math.cos(angle), y + SIZE * 0.42 * math.sin(angle)
        colour = paint.get(owner, "#000000")
        shape = (
            f'<circle cx="{_n(cx)}" cy="{_n(cy)}" r="4.5" fill="{colour}" stroke="#000000"/>'
            if kind != "contact"
            else f'<rect x="{_n(cx - 4.5)}" y="{_n(cy - 4.5)}" width="9" height="9" '
            f'fill="{colour}" stroke="#000000" stroke-dasharray="2 1"/>'
        )
        out.append(
            f'<g class="fleet {kind}" data-owner={quoteattr(owner)} '
            f"data-system={quoteattr(system)}><title>{escape(what)} ({escape(owner)}) in "
            f"{escape(system)}</title>{shape}</g>"
        )
    out.append("</g>")
    return out


def _legend(
    view: Mapping[str, Any], paint: Mapping[str, str], left: float, top: float
) -> list[str]:
    out = [
        f'<g id="legend" font-family="sans-serif" font-size="12" transform="translate('
        f'{_n(left + 8)},{_n(top + 14)})">'
    ]
    out.append(f'<text class="caption" x="0" y="0">{escape(view["title"])}</text>')
    for i, line in enumerate(KEY):
        out.append(f'<text class="key" x="0" y="{16 * (i + 1)}">{escape(line)}</text>')
    for i, (house, colour) in enumerate(paint.items()):
        y = 66 + 18 * i
        out.append(
            f'<g class="house-key" data-owner={quoteattr(house)}>'
            f'<rect x="0" y="{y - 10}" width="12" height="12" fill="{colour}"/>'
            f'<text x="18" y="{y}">{escape(house)}</text></g>'
        )
    out.append("</g>")
    return out
