"""The EC4X star map: jump lanes, territory (8.1.5), exploration, hex geometry, and a generator
of small test maps (facts §10: "The hub has 6 lanes and homeworlds have 3").

Every function reads a checked ``GameState`` (``scenario/ec4x_game.py``) and never changes it.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from spacecombat.core.limits import MAX_FLEETS, MAX_SYSTEMS
from spacecombat.core.prng import SplitMix64
from spacecombat.scenario.ec4x_game import GameState, LaneClass, parse_game

#: the six hex directions, axial (q, r), counter-clockwise from east
HEX_DIRECTIONS: tuple[tuple[int, int], ...] = ((1, 0), (1, -1), (0, -1), (-1, 0), (-1, 1), (0, 1))

#: the generator's lane classes and weights: facts §10, "Lane classes were random in the window
#: era. The latest distribution is 50% major, 35% minor and 15% restricted"
LANE_WEIGHTS: tuple[tuple[LaneClass, int], ...] = (("major", 50), ("minor", 35), ("restricted", 15))
#: the generator's house names, in order
HOUSE_NAMES = ("alpha", "beta", "gamma", "delta", "epsilon", "zeta", "eta", "theta")
#: the generator's planet classes with weights: parameters of this test-map generator, not an
#: EC4X rule (the window-era map tables are not in our reference; the class names are EC4X's)
PLANET_WEIGHTS = (
    ("extreme", 15),
    ("desolate", 20),
    ("hostile", 20),
    ("harsh", 20),
    ("benign", 15),
    ("lush", 7),
    ("eden", 3),
)
RESOURCE_WEIGHTS = (
    ("very_poor", 10),
    ("poor", 25),
    ("abundant", 40),
    ("rich", 20),
    ("very_rich", 5),
)
#: star names for generated systems (cycled, with a number once used up)
STAR_NAMES = (
    "Sol", "Vega", "Rigel", "Deneb", "Altair", "Capella", "Procyon", "Mira", "Antares", "Spica",
    "Pollux", "Castor", "Regulus", "Arcturus", "Aldebaran", "Bellatrix", "Mintaka", "Alnilam",
    "Shaula", "Hadar", "Acrux", "Mimosa", "Gacrux", "Achernar", "Canopus", "Sirius", "Polaris",
    "Thuban", "Alcor", "Mizar",
)  # fmt: skip
#: a generated map's size bounds: up to the game state's limit (docs/limits.md)
MIN_SYSTEMS = 7
MAX_GENERATED_SYSTEMS = MAX_SYSTEMS
MAX_HOUSES = len(HOUSE_NAMES)
#: the starting fleets of each house: the two of every generated map (``_state``); more, up to
#: the game state's fleet limit shared among the houses, are pickets of one destroyer each
STARTING_FLEETS = 2
#: the diplomatic status the generator gives every pair of houses (8.1's three states; pairs
#: left out of a state are neutral)
DIPLOMACY = ("neutral", "non_aggression", "enemy")
#: the generator's tries (each draws the hexes, the homeworlds and the lanes afresh) before it
#: gives up
ATTEMPTS = 50
#: systems from which a map with this many houses has always been generated in our trials
#: (600 seeds each, 100 for 7 and 8 houses); smaller maps may raise ``ValueError``
ROOMY = {1: 10, 2: 12, 3: 14, 4: 16, 5: 19, 6: 21, 7: 28, 8: 32}


# --- lanes ---------------------------------------------------------------------------------


def lanes_of(state: GameState) -> dict[str, dict[str, LaneClass]]:
    """Each system's lanes: ``{system: {neighbour: lane class}}``, neighbours in id order."""
    out: dict[str, dict[str, LaneClass]] = {s.id: {} for s in state.systems}
    for lane in sorted(state.lanes, key=lambda x: sorted(x.systems)):
        a, b = lane.systems
        out[a][b] = lane.lane_class
        out[b][a] = lane.lane_class
    return {k: dict(sorted(v.items())) for k, v in out.items()}


def lane_class(state: GameState, a: str, b: str) -> LaneClass | None:
    """The class of the lane joining ``a`` and ``b``, or None if no lane does."""
    for lane in state.lanes:
        if set(lane.systems) == {a, b}:
            return lane.lane_class
    return None


def is_connected(state: GameState) -> bool:
    """Whether every system can be reached from every other by jump lanes (of any class)."""
    return len(_component(lanes_of(state), state.systems[0].id)) == len(state.systems)


def _component(adjacency: Mapping[str, Iterable[str]], start: str) -> set[str]:
    seen = {start}
    todo = [start]
    while todo:
        here = todo.pop()
        for there in adjacency[here]:
            if there not in seen:
                seen.add(there)
                todo.append(there)
    return seen


# --- territory and exploration (8.1.5) -------------------------------------------------------


def territory(state: GameState) -> dict[str, str | None]:
    """The controller of each system: the house whose colony is there, else None (neutral
    space). 8.1.5: "A house controls each system that holds its colony"."""
    out: dict[str, str | None] = {}
    for system in state.systems:
        colony = system.colony()
        out[system.id] = colony.owner if colony is not None else None
    return out


def controller(state: GameState, system: str) -> str | None:
    """The house whose colony is in ``system`` (8.1.5), or None."""
    colony = state.system(system).colony()
    return colony.owner if colony is not None else None


def is_own(state: GameState, system: str, house: str) -> bool:
    """Whether ``house`` controls ``system`` (its colony is there; 8.1.5)."""
    return controller(state, system) == house


def is_rival(state: GameState, system: str, house: str) -> bool:
    """Whether ``system`` holds another house's colony: foreign space (8.1.5), whatever the
    two houses' diplomatic status (ruling G5)."""
    owner = controller(state, system)
    return owner is not None and owner != house


def explored(state: GameState, house: str) -> frozenset[str]:
    """The systems ``house`` has explored: those listed in ``houses.H.explored``, those where
    it has a colony and those where one of its fleets is (ruling G6)."""
    listed = set(state.houses[house].explored)
    listed.update(s for s, owner in territory(state).items() if owner == house)
    listed.update(f.location for f in state.fleets if f.owner == house)
    return frozenset(listed)


def is_explored(state: GameState, system: str, house: str) -> bool:
    """Whether ``house`` has explored ``system`` (ruling G6)."""
    return system in explored(state, house)


# --- hexes -----------------------------------------------------------------------------------


def hex_distance(a: tuple[int, int], b: tuple[int, int]) -> int:
    """Steps between two hexes (axial coordinates)."""
    dq, dr = a[0] - b[0], a[1] - b[1]
    return (abs(dq) + abs(dr) + abs(dq + dr)) // 2


def hex_ring(radius: int) -> list[tuple[int, int]]:
    """The hexes at ``radius`` steps from (0, 0), counter-clockwise from the east-south corner
    (the hub alone for radius 0)."""
    if radius == 0:
        return [(0, 0)]
    q, r = HEX_DIRECTIONS[4][0] * radius, HEX_DIRECTIONS[4][1] * radius
    out = []
    for side in range(6):
        for _ in range(radius):
            out.append((q, r))
            q, r = q + HEX_DIRECTIONS[side][0], r + HEX_DIRECTIONS[side][1]
    return out


# --- the generator ---------------------------------------------------------------------------


def max_fleets(houses: int) -> int:
    """The most starting fleets each of ``houses`` houses may have (the fleet limit shared)."""
    return MAX_FLEETS // max(houses, 1)


def generate_map(
    seed: int,
    systems: int,
    houses: int,
    *,
    fleets: int = STARTING_FLEETS,
    diplomacy: str = "neutral",
) -> GameState:
    """A connected hex map of ``systems`` systems with ``houses`` houses, the same for the same
    arguments (SplitMix64, never ``random``). The hub sits at (0, 0) with 6 lanes; each house
    has a homeworld with 3 lanes (facts §10) holding its colony, and ``fleets`` starting fleets
    there (two, then destroyer pickets); every pair of houses has the status ``diplomacy``.
    The algorithm and its draws are in docs/ec4x.md ("The map generator"); ``ValueError`` if
    the sizes are out of bounds or leave no room for the homeworlds."""
    if not MIN_SYSTEMS <= systems <= MAX_GENERATED_SYSTEMS:
        raise ValueError(f"systems: from {MIN_SYSTEMS} to {MAX_GENERATED_SYSTEMS} (got {systems})")
    if not 1 <= houses <= MAX_HOUSES:
        raise ValueError(f"houses: from 1 to {MAX_HOUSES} (got {houses})")
    if not STARTING_FLEETS <= fleets <= max_fleets(houses):
        raise ValueError(
            f"fleets: from {STARTING_FLEETS} to {max_fleets(houses)} a house with {houses} "
            f"houses (the limit of {MAX_FLEETS:,} fleets in a game; got {fleets})"
        )
    if diplomacy not in DIPLOMACY:
        raise ValueError(f"diplomacy: one of {', '.join(DIPLOMACY)} (got {diplomacy!r})")
    rng = SplitMix64(seed)
    for _ in range(ATTEMPTS):
        cells = _cells(rng, systems)
        homes = _homeworlds(rng, cells, houses)
        if homes is None:
            continue
        lanes = _lanes(rng, cells, homes)
        if lanes is not None:
            data = _state(rng, seed, cells, homes, lanes)
            _more_fleets(data, fleets)
            _diplomacy(data, diplomacy)
            return parse_game(data)
    raise ValueError(
        f"no room for {houses} homeworlds with 3 lanes each on {systems} systems; "
        "use more systems or fewer houses"
    )


def _cells(rng: SplitMix64, count: int) -> list[tuple[int, int]]:
    """Whole rings around the hub, then a random part of the next ring (draw: ``below`` for
    each cell taken from the ring, without replacement)."""
    cells: list[tuple[int, int]] = []
    radius = 0
    while len(cells) + len(hex_ring(radius)) <= count:
        cells.extend(hex_ring(radius))
        radius += 1
    ring = hex_ring(radius)
    while len(cells) < count:
        cells.append(ring.pop(rng.below(len(ring))))
    return cells


def _neighbours(cell: tuple[int, int], cells: set[tuple[int, int]]) -> list[tuple[int, int]]:
    q, r = cell
    return [(q + dq, r + dr) for dq, dr in HEX_DIRECTIONS if (q + dq, r + dr) in cells]


def _homeworlds(
    rng: SplitMix64, cells: list[tuple[int, int]], houses: int
) -> list[tuple[int, int]] | None:
    """Homeworld hexes: at least 2 steps from the hub, with at least 3 neighbours that are not
    the hub, never next to another homeworld. The first is drawn among the candidates farthest
    from the hub; each next one among those farthest from the homeworlds chosen so far."""
    present = set(cells)
    candidates = [
        c for c in cells if hex_distance(c, (0, 0)) >= 2 and len(_neighbours(c, present)) >= 3
    ]
    chosen: list[tuple[int, int]] = []
    for _ in range(houses):
        allowed = [c for c in candidates if all(hex_distance(c, h) >= 2 for h in chosen)]
        if not allowed:
            return None
        if chosen:
            score = {c: min(hex_distance(c, h) for h in chosen) for c in allowed}
        else:
            score = {c: hex_distance(c, (0, 0)) for c in allowed}
        best = max(score.values())
        top = [c for c in allowed if score[c] == best]
        chosen.append(top[rng.below(len(top))])
    return chosen


def _lanes(
    rng: SplitMix64, cells: list[tuple[int, int]], homes: list[tuple[int, int]]
) -> list[tuple[tuple[int, int], tuple[int, int]]] | None:
    """The lanes: the hub's 6 and 3 drawn for each homeworld, then a random spanning tree of
    the other neighbouring pairs (in a drawn order, keeping a pair that joins two parts), and
    each pair left over kept on a coin flip. None if the homeworlds' lanes cut the map."""
    present = set(cells)
    index = {c: i for i, c in enumerate(cells)}
    hub = (0, 0)
    fixed: list[tuple[tuple[int, int], tuple[int, int]]] = [
        (hub, n) for n in _neighbours(hub, present)
    ]
    special = {hub, *homes}
    for home in homes:
        options = sorted(_neighbours(home, present), key=index.__getitem__)
        for _ in range(3):
            fixed.append((home, options.pop(rng.below(len(options)))))
    free = sorted(
        {
            tuple(sorted((a, b), key=index.__getitem__))
            for a in cells
            if a not in special
            for b in _neighbours(a, present)
            if b not in special
        },
        key=lambda pair: (index[pair[0]], index[pair[1]]),
    )
    parent = {c: c for c in cells}

    def root(c: tuple[int, int]) -> tuple[int, int]:
        while parent[c] != c:
            parent[c] = parent[parent[c]]
            c = parent[c]
        return c

    for a, b in fixed:
        parent[root(a)] = root(b)
    order = list(free)
    for i in range(len(order) - 1, 0, -1):  # Fisher-Yates, drawing below(i + 1)
        j = rng.below(i + 1)
        order[i], order[j] = order[j], order[i]
    kept = list(fixed)
    for a, b in order:
        if root(a) != root(b):
            parent[root(a)] = root(b)
            kept.append((a, b))
        elif rng.below(2) == 0:
            kept.append((a, b))
    if len({root(c) for c in cells}) != 1:
        return None
    return kept


def _pick(rng: SplitMix64, table: tuple[tuple[Any, int], ...]) -> Any:
    return table[rng.pick([w for _, w in table])][0]


def _state(
    rng: SplitMix64,
    seed: int,
    cells: list[tuple[int, int]],
    homes: list[tuple[int, int]],
    lanes: list[tuple[tuple[int, int], tuple[int, int]]],
) -> dict[str, Any]:
    ids = {c: f"S{i:02d}" for i, c in enumerate(cells)}
    owners = {home: HOUSE_NAMES[h] for h, home in enumerate(homes)}
    systems = []
    for i, cell in enumerate(cells):
        name = STAR_NAMES[i % len(STAR_NAMES)] + (
            "" if i < len(STAR_NAMES) else f" {i // len(STAR_NAMES) + 1}"
        )
        planet: dict[str, Any] = {
            "class": _pick(rng, PLANET_WEIGHTS),
            "resources": _pick(rng, RESOURCE_WEIGHTS),
        }
        if cell in owners:
            planet = {
                "class": "benign",
                "resources": "abundant",
                "colony": _homeworld(owners[cell]),
            }
        systems.append(
            {"id": ids[cell], "name": name, "q": cell[0], "r": cell[1], "planets": [planet]}
        )
    pairs = sorted(tuple(sorted((ids[a], ids[b]))) for a, b in lanes)
    lane_list = [{"systems": list(pair), "class": _pick(rng, LANE_WEIGHTS)} for pair in pairs]
    houses = {owners[h]: {"prestige": 50, "home": ids[h]} for h in homes}
    fleets: list[dict[str, Any]] = []
    for home in homes:
        house = owners[home]
        fleets.append(
            {
                "id": f"{house}-1",
                "owner": house,
                "location": ids[home],
                "squadrons": [{"flagship": "CA", "escorts": {"DD": 1}}, {"flagship": "DD"}],
                "scouts": [{"eli": 1}],
            }
        )
        fleets.append(
            {
                "id": f"{house}-2",
                "owner": house,
                "location": ids[home],
                "squadrons": [{"flagship": "FG"}],
                "spacelift": {"ET": 1},
            }
        )
    return {
        "ruleset": "ec4x",
        "game_id": f"generated-{seed}",
        "turn": 1,
        "systems": systems,
        "lanes": lane_list,
        "houses": dict(sorted(houses.items())),
        "fleets": fleets,
    }


def _more_fleets(data: dict[str, Any], fleets: int) -> None:
    """Fleets 3 to ``fleets`` of each house, at home: one destroyer each (a generator
    parameter, not an EC4X rule; no draw). Ids ``H-3``, ``H-4``, …"""
    for house, spec in data["houses"].items():
        for n in range(STARTING_FLEETS + 1, fleets + 1):
            data["fleets"].append(
                {
                    "id": f"{house}-{n}",
                    "owner": house,
                    "location": spec["home"],
                    "squadrons": [{"flagship": "DD"}],
                }
            )


def _diplomacy(data: dict[str, Any], status: str) -> None:
    """Every pair of houses at ``status`` (8.1; neutral pairs are left out, neutral being what
    a pair not listed is)."""
    if status == "neutral":
        return
    names = sorted(data["houses"])
    data["diplomacy"] = [
        {"houses": [a, b], "status": status} for i, a in enumerate(names) for b in names[i + 1 :]
    ]


def _homeworld(owner: str) -> dict[str, Any]:
    """A homeworld colony of a generated test map. EC4X's setup file (greenm01/ec4x
    ``game_setup/standard.toml``) gives homeworlds one spaceport and one shipyard; the other
    figures are parameters of this generator, not EC4X rules (its PU, IU and defences vary
    between that file's versions and are not in our reference)."""
    return {
        "owner": owner,
        "pu": 840,
        "iu": 420,
        "shield": 1,
        "batteries": 2,
        "armies": 2,
        "marines": 2,
        "spaceports": 1,
        "shipyards": 1,
    }
