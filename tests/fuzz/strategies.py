"""Hypothesis strategies for malformed and extreme input to the command line (issue 8).

Each strategy makes ``Case`` objects (``tests/fuzz/runner.py``):

- ``scenario_cases``: a valid TI4 or TI3 scenario (small: a few units a side) or, about one
  in four, an EC4X one (``ec4x_scenarios``: two or three houses, small fleets), then mutated as
  a tree (wrong types, bad and huge counts, unknown keys, names, units, factions,
  technologies and flagship classes, duplicate list entries, fleets and diplomacy pairs, deep
  nesting, long strings, dates, binary) and as text
  (duplicate keys, anchors and aliases, alias bombs, YAML tags, invalid UTF-8, byte-order
  marks, truncation, NUL bytes, tabs, deep brackets, several documents), rendered as YAML or
  JSON; or one of a catalogue of raw texts. Given to ``resolve`` or ``odds`` as a file or on
  standard input.
- ``log_cases``: a real event log from ``spacecombat resolve --format jsonl`` (run in-process),
  then edited: dice faces, hits, choices, deleted, duplicated and swapped lines, the header
  removed or with a bad scenario, the seed removed or wrong, junk lines, invalid UTF-8.
- ``batch_cases``: ``odds -`` batches mixing good, mutated, junk and blank lines.
- ``flag_cases``: the options of every command with huge, negative, non-numeric and unknown
  values, closed standard input and output.

A case carries the statuses it must end with where the documentation says so (a duplicate key
is refused, an untouched log reproduces, a log without its seed is unverified, ...).
"""

from __future__ import annotations

import copy
import datetime
import json
import re
import tempfile
from collections.abc import Callable, Hashable
from pathlib import Path
from typing import Any, Literal

import yaml
from hypothesis import strategies as st

from spacecombat.core.policies import DEFAULT_CASUALTY_ORDER
from tests.fuzz.runner import FILE, Case, run_case

ROOT = Path(__file__).resolve().parents[2]
EXAMPLE = str(ROOT / "examples" / "odds-dreadnoughts-vs-cruisers.yaml")

# --- the vocabulary of valid scenarios -----------------------------------------------------------

SHIPS = ("war_sun", "dreadnought", "cruiser", "carrier", "destroyer", "fighter")
GROUND = {"ti4": ("infantry", "mech"), "ti3": ("ground_force", "mechanized_unit")}
UPGRADABLE = ("dreadnought", "cruiser", "carrier", "destroyer", "fighter", "infantry")
TECHNOLOGIES = {
    "ti4": ("antimass_deflectors", "duranium_armor", "non_euclidean_shielding"),
    "ti3": (
        "hylar_v_assault_laser",
        "automated_defense_turrets",
        "assault_cannon",
        "duranium_armor",
        "graviton_negator",
        "cybernetics",
        "advanced_fighters",
        "gen_synthesis",
        "magen_defense_grid",
    ),
}
FACTIONS = {"ti4": ("hacan", "sardakk", "jolnar", "empyrean"), "ti3": ("sardakk", "jolnar")}
#: names the unknown-name mutation tries that are TI3 factions all the same
#: names among the fuzzed ones that TI4's data knows (a faction, a technology, a law)
KNOWN_TI4_NAMES = frozenset(
    {"naalu", "nekro", "plasma_scoring", "gravity_drive", "publicize_weapon_schematics"}
)
#: the stock casualty order, cut to each ruleset's units (a permutation of it is a valid order)
CASUALTY_ORDER = {
    "ti4": tuple(
        u
        for u in DEFAULT_CASUALTY_ORDER
        if u not in ("ground_force", "shock_troop", "mechanized_unit")
    ),
    "ti3": tuple(u for u in DEFAULT_CASUALTY_ORDER if u not in ("infantry", "mech", "flagship")),
}
PRE_COMBAT = ("anti_fighter_barrage", "assault_cannon", "mentak")
#: keys whose value is a fleet: counts by unit, or fleet text
FLEET_KEYS = ("units", "damaged", "planet_units", "defender", "commit", "bombarded_by")
#: keys whose value is a list whose entries may each appear once
NAME_LISTS = (
    "upgrades",
    "technologies",
    "laws",
    "casualty_order",
    "retreat_to",
    "planet_order",
    "pre_combat_order",
    "ships",
    "planets",
    "command_tokens",
)


def fleet_text(units: dict[str, int]) -> str:
    return ", ".join(f"{count} {unit}" for unit, count in units.items())


@st.composite
def _policy(draw: st.DrawFn, ruleset: str, role: str) -> dict[str, Any]:
    policy: dict[str, Any] = {}
    if draw(st.booleans()):
        policy["sustain"] = draw(st.sampled_from(("first", "last")))
    if draw(st.booleans()):
        policy["casualty_order"] = draw(st.permutations(CASUALTY_ORDER[ruleset]))
    if draw(st.booleans()):
        policy["retreat"] = draw(
            st.sampled_from(("never", {"after_round": 1}, {"after_round": 0}))
            | st.builds(lambda r: {"when_outnumbered": r}, st.sampled_from((1.5, 2, 0.5)))
        )
    if ruleset == "ti3" and role == "defender" and draw(st.booleans()):
        policy["pre_combat_order"] = draw(st.permutations(PRE_COMBAT))
    return policy


@st.composite
def _side(draw: st.DrawFn, ruleset: str, battle: str, role: str) -> dict[str, Any]:
    ground = GROUND[ruleset]
    units: dict[str, int] = {}
    if battle == "space":
        for kind in draw(st.lists(st.sampled_from(SHIPS), min_size=1, max_size=3, unique=True)):
            units[kind] = draw(st.integers(1, 2))
        if role == "defender" and draw(st.booleans()):
            units["pds"] = 1
    elif role == "attacker":
        units[draw(st.sampled_from(("dreadnought", "carrier", "war_sun", "cruiser")))] = 1
        units[ground[0]] = draw(st.integers(1, 3))
    else:
        units[ground[0]] = draw(st.integers(1, 2))
        if draw(st.booleans()):
            units["pds"] = 1
    side: dict[str, Any] = {"units": fleet_text(units) if draw(st.booleans()) else units}
    if draw(st.integers(0, 4)) == 0:
        side["faction"] = draw(st.sampled_from(FACTIONS[ruleset]))
    if ruleset == "ti4" and draw(st.integers(0, 3)) == 0:
        side["upgrades"] = draw(
            st.lists(st.sampled_from(UPGRADABLE), min_size=1, max_size=2, unique=True)
        )
    if draw(st.integers(0, 3)) == 0:
        side["technologies"] = draw(
            st.lists(st.sampled_from(TECHNOLOGIES[ruleset]), min_size=1, max_size=2, unique=True)
        )
    if battle == "space" and "dreadnought" in units and draw(st.integers(0, 4)) == 0:
        side["damaged"] = {"dreadnought": 1}
    if ruleset == "ti4" and battle == "space" and draw(st.integers(0, 5)) == 0:
        side["planet_units"] = {"infantry": 1}
    if ruleset == "ti4" and draw(st.integers(0, 6)) == 0:
        side["reinforcement_tokens"] = draw(st.integers(0, 5))
    if ruleset == "ti3" and draw(st.integers(0, 6)) == 0:
        side["fleet_supply"] = draw(st.integers(2, 8))
    if draw(st.integers(0, 3)) == 0:
        side["policy"] = draw(_policy(ruleset, role))
    return side


# --- EC4X (src/spacecombat/scenario/ec4x.py) ----------------------------------------------------

EC4X_HOUSES = ("alpha", "beta", "gamma")
#: classes that can lead a squadron (a command rating), with (CR, CC); fighters, scouts,
#: spacelift ships and starbases cannot (rulesets/ec4x/data/units.toml)
EC4X_FLAGSHIPS: dict[str, tuple[int, int]] = {
    "CT": (2, 1),
    "FG": (3, 2),
    "DD": (4, 2),
    "CL": (6, 3),
    "CA": (7, 3),
    "BC": (8, 3),
    "BB": (10, 3),
    "DN": (12, 4),
    "SD": (14, 5),
    "PB": (6, 6),
    "CV": (8, 3),
    "CX": (10, 4),
    "RR": (4, 3),
}
#: fighter squadrons a carrier holds at ACO I, II, III
EC4X_CARRIERS = {"CV": (3, 4, 5), "CX": (5, 6, 8)}
#: 6.2 orders any fleet with combat ships may carry out (04-06 need combat ships, which every
#: generated fleet but a spy has)
EC4X_ORDERS = (0, 1, 2, 3, 4, 5, 6, 13, 14)
EC4X_OPTIONS: tuple[dict[str, Any], ...] = (
    {"cer_die": "1-10"},
    {"phase4_order": "simultaneous"},
    {"damage_memory": "round"},
    {"morale_roll": "shared"},
    {"cer_timing": "round_start"},
    {"surprise": "never"},
    {"threat_hostility": "both_ways"},
    {"crippled_as_timing": "end_of_round"},
    {"undamaged_destroyed_at": "never"},
    {"force_reduction_judged": "own_hits"},
    {"spacelift_on_retreat": "retreats"},
)


@st.composite
def _ec4x_squadron(draw: st.DrawFn, aco: int) -> dict[str, Any]:
    flagship = draw(st.sampled_from(sorted(EC4X_FLAGSHIPS)))
    cr = EC4X_FLAGSHIPS[flagship][0]
    squadron: dict[str, Any] = {"flagship": flagship}
    escorts = [c for c, (_, cc) in EC4X_FLAGSHIPS.items() if cc <= cr]
    if escorts and draw(st.integers(0, 2)) == 0:
        escort = draw(st.sampled_from(sorted(escorts)))
        most = min(2, cr // EC4X_FLAGSHIPS[escort][1])
        squadron["escorts"] = {escort: draw(st.integers(1, most))}
    if draw(st.integers(0, 4)) == 0:
        squadron["state"] = "crippled"
    ships = [flagship, *squadron.get("escorts", {})]
    capacity = sum(EC4X_CARRIERS[c][aco - 1] for c in ships if c in EC4X_CARRIERS)
    if capacity:
        squadron["fighters"] = draw(st.integers(0, min(capacity, 3)))
    if "RR" in ships and draw(st.booleans()):
        squadron["clk"] = draw(st.integers(1, 5))
    return squadron


@st.composite
def _ec4x_fleet(
    draw: st.DrawFn, fid: str, owner: str, aco: int, controller: str | None, squadrons: int
) -> dict[str, Any]:
    fleet: dict[str, Any] = {"id": fid, "owner": owner}
    if draw(st.integers(0, 9)) == 0:  # a spy: one scout alone (6.2.10-6.2.12)
        fleet["scouts"] = [{"eli": draw(st.integers(1, 5))}]
        fleet["order"] = draw(st.sampled_from((9, 10, 11)))
        return fleet
    fleet["squadrons"] = [draw(_ec4x_squadron(aco)) for _ in range(draw(st.integers(1, squadrons)))]
    if draw(st.integers(0, 3)) == 0:
        fleet["scouts"] = [{"eli": draw(st.integers(1, 5)), "count": draw(st.integers(1, 2))}]
    if draw(st.integers(0, 3)) == 0:
        fleet["spacelift"] = {
            code: draw(st.integers(1, 2))
            for code in draw(st.lists(st.sampled_from(("TT", "ET")), min_size=1, unique=True))
        }
    tts = fleet.get("spacelift", {}).get("TT", 0)
    if tts and draw(st.integers(0, 2)) == 0:
        fleet["loaded_tt"] = draw(st.integers(0, tts))
    loaded = fleet.get("loaded_tt", tts)
    orders = list(EC4X_ORDERS)
    orders += [7, 8] if loaded else []
    orders += [12] if fleet.get("spacelift", {}).get("ET") else []
    orders += [15] if controller == owner else []
    code = draw(st.sampled_from(orders))
    fleet["order"] = {"code": code, "target": "Vega"} if draw(st.integers(0, 3)) == 0 else code
    fleet["roe"] = draw(st.integers(0, 10))
    return fleet


@st.composite
def ec4x_scenarios(
    draw: st.DrawFn, *, fleets: int = 3, squadrons: int = 3, options: bool = True
) -> dict[str, Any]:
    """A valid EC4X scenario: 2-3 houses with random diplomacy, 1 to ``fleets`` fleets each of
    1 to ``squadrons`` squadrons of random classes (escorts, crippled, carried fighters,
    raiders with CLK), scouts and spacelift ships, valid orders (6.2) and ROEs, an optional
    colony with fighters and a starbase, and maybe a rule option."""
    houses = list(EC4X_HOUSES[: draw(st.integers(2, 3))])
    specs: dict[str, dict[str, Any]] = {}
    for house in houses:
        spec: dict[str, Any] = {}
        if draw(st.booleans()):
            spec["prestige"] = draw(st.sampled_from((-5, 0, 10, 25, 45, 62, 75, 90)))
        if draw(st.integers(0, 3)) == 0:
            spec["morale_roll"] = draw(st.integers(1, 20))
        if draw(st.integers(0, 3)) == 0:
            spec["aco"] = draw(st.integers(1, 3))
        if draw(st.integers(0, 3)) == 0:
            spec["retreat_lane"] = draw(st.sampled_from(("major", "minor", "restricted", "none")))
        if draw(st.integers(0, 3)) == 0:
            spec["retreat"] = draw(
                st.sampled_from(("roe", "never", {"after_round": 1}, {"after_round": 2}))
            )
        specs[house] = spec
    diplomacy = [
        {"houses": [a, b], "status": status}
        for i, a in enumerate(houses)
        for b in houses[i + 1 :]
        if (status := draw(st.sampled_from(("enemy", "enemy", "neutral", "non_aggression", ""))))
    ]
    controller = draw(st.sampled_from((None, *houses)))
    doc: dict[str, Any] = {
        "ruleset": "ec4x",
        "game_id": draw(st.sampled_from(("game-42", "demo-1", "g"))),
        "turn": draw(st.integers(0, 50)),
    }
    if draw(st.integers(0, 3)) == 0:
        doc["seed"] = draw(st.integers(0, 2**32))
    doc["system"] = (
        {"name": "Vega"} if controller is None else {"name": "Vega", "controller": controller}
    )
    doc["houses"] = specs
    doc["diplomacy"] = diplomacy
    if controller is not None and draw(st.booleans()):
        colony: dict[str, Any] = {"owner": controller, "fighters": draw(st.integers(0, 2))}
        if draw(st.booleans()):
            colony["starbases"] = [
                {
                    "state": draw(st.sampled_from(("undamaged", "crippled"))),
                    "eli": draw(st.integers(1, 5)),
                }
            ]
        doc["colony"] = colony
    doc["fleets"] = [
        draw(
            _ec4x_fleet(
                f"{house[0].upper()}{n}",
                house,
                specs[house].get("aco", 1),
                controller,
                squadrons,
            )
        )
        for house in houses
        for n in range(1, draw(st.integers(1, fleets)) + 1)
    ]
    _planetary_orders(doc)
    if options and draw(st.integers(0, 3)) == 0:
        doc["options"] = dict(draw(st.sampled_from(EC4X_OPTIONS)))
    return doc


def _planetary_orders(doc: dict[str, Any]) -> None:
    """Ruling E62: orders 07 and 08 need a colony of another house; one house at a time under
    orders 06-08 against a colony, never 07 and 08 together. Orders that break this hold (00)."""
    colony = doc.get("colony")
    owner = colony["owner"] if colony else None
    attacker: str | None = None
    mission: set[int] = set()
    for fleet in doc["fleets"]:
        order = fleet.get("order", 0)
        code = order if isinstance(order, int) else order["code"]
        if code not in (6, 7, 8):
            continue
        if code == 6 and (owner is None or fleet["owner"] == owner):
            continue  # bombards nothing: allowed
        allowed = owner is not None and fleet["owner"] != owner
        allowed = allowed and attacker in (None, fleet["owner"])
        allowed = allowed and not (code in (7, 8) and ({7, 8} - {code}) & mission)
        if allowed:
            attacker = fleet["owner"]
            mission.add(code)
        else:
            fleet["order"] = 0


#: which rulesets ``valid_scenarios`` makes: TI4 and TI3, and EC4X in about one case of four
#: ("all"); TI4 and TI3 only ("ti"; ``odds -`` batches, whose checks read TI's attacker_win);
#: EC4X only ("ec4x")
Rulesets = Literal["all", "ti", "ec4x"]


@st.composite
def valid_scenarios(draw: st.DrawFn, rulesets: Rulesets = "all") -> dict[str, Any]:
    """A small scenario: TI4 or TI3 (a few units a side) using most of the scenario's keys,
    or EC4X (two or three houses, one or two small fleets each: small enough for the exact
    engine within the fuzz limits)."""
    if rulesets == "ec4x" or (rulesets == "all" and draw(st.integers(0, 3)) == 0):
        return draw(ec4x_scenarios(fleets=2, squadrons=2))
    ruleset = draw(st.sampled_from(("ti4", "ti3")))
    battle = draw(st.sampled_from(("space", "space", "invasion")))
    doc: dict[str, Any] = {
        "ruleset": ruleset,
        "battle": battle,
        "attacker": draw(_side(ruleset, battle, "attacker")),
        "defender": draw(_side(ruleset, battle, "defender")),
    }
    if draw(st.integers(0, 3)) == 0:
        doc["policy"] = draw(_policy(ruleset, "both"))
    if battle == "space" and draw(st.booleans()):
        doc["system"] = {
            "name": draw(st.sampled_from(("Lodor", "Mecatol Rex", "A"))),
            "anomaly": draw(st.sampled_from(("none", "nebula", "gravity_rift"))),
            "adjacent": [{"name": "B", "units": ["attacker"], "command_tokens": ["attacker"]}],
        }
    if ruleset == "ti4" and draw(st.integers(0, 5)) == 0:
        doc["laws"] = ["shared_research"]
    if ruleset == "ti3" and draw(st.integers(0, 3)) == 0:
        doc["options"] = {"shock_troops": draw(st.booleans())}
    if ruleset == "ti4" and battle == "invasion" and draw(st.integers(0, 4)) == 0:
        doc["attacker"] = {"units": "2 dreadnought, 4 infantry"}
        doc["defender"] = {}
        doc["planets"] = [
            {"name": "Sakulag", "defender": "1 infantry", "commit": {"infantry": 2}},
            {"name": "Lazar", "defender": "1 infantry, 1 pds", "commit": {"infantry": 2}},
        ]
    return doc


# --- bad values ----------------------------------------------------------------------------------

NAN = float("nan")
INF = float("inf")
LONG = "x" * 100_000
#: values that are wrong (or extreme) almost anywhere in a scenario
NASTY: tuple[Any, ...] = (
    None,
    True,
    False,
    0,
    -1,
    1,
    3,
    201,
    1000,
    2**31,
    2**63,
    2**64,
    10**30,
    -(10**30),
    10**400,
    1e9,
    3.0,
    0.5,
    -0.0,
    1e308,
    NAN,
    INF,
    -INF,
    "",
    " ",
    "3",
    "-1",
    "1e9",
    "٣",
    "３",
    "three",
    "ti4",
    "ti3",
    "space",
    "invasion",
    "never",
    "first",
    "none",
    "supernova",
    "asteroid_field",
    "null",
    "NaN",
    ".nan",
    "~",
    "\x00",
    "\u202e",
    "\ud800",
    "🚀",
    "x" * 1000,
    LONG,
    [],
    [1],
    ["a", "a"],
    [None],
    [[[]]],
    {},
    {"a": 1},
    {"": None},
    {"never": 1},
    {"after_round": 10**30},
    {"when_outnumbered": NAN},
    {"when_outnumbered": 0},
    {"after_round": 1, "when_outnumbered": 2},
    datetime.date(2020, 1, 1),
    datetime.datetime(2020, 1, 1, 12, 0),
    b"\x00\xff binary",
)
#: counts that are refused: not whole numbers written as such, or beyond the unit limit
BAD_COUNTS: tuple[Any, ...] = (
    True,
    False,
    "3",
    "٣",
    3.0,
    2.5,
    1e9,
    -1,
    -(2**63),
    201,
    1000,
    2**63,
    10**30,
    10**400,
    None,
    NAN,
    INF,
    [3],
    {"n": 3},
    datetime.date(2020, 1, 1),
)
#: fleet texts that are refused
BAD_FLEETS = (
    "٣ dreadnought",
    "３ cruiser",
    "99999999999999999999999 fighter",
    "9" * 5000 + " fighter",
    "1e9 fighter",
    "1.0e+9 fighter",
    "10**30 fighter",
    "-1 cruiser",
    "3.0 cruiser",
    "dreadnought 3",
    "three fighters",
    "2 starfighter",
    ",",
    "2 dreadnought,,1 cruiser",
    "2 dreadnought; 1 cruiser",
    "201 fighter",
    "150 fighter, 60 infantry",
    "2\u00a0dreadnought",
    "1 " + "x" * 10_000,
    "1 fighter, " * 300,
)
#: names no ruleset knows, or knows and refuses (not implemented)
BAD_NAMES = (
    "starfighter",
    "War_Sun",
    "war sun",
    "dreadnought ",
    "DREADNOUGHT",
    "warsun",
    "naalu",
    "nekro",
    "letnev",
    "yin",
    "lazax",
    "plasma_scoring",
    "gravity_drive",
    "x89_bacterial_weapon_omega",
    "publicize_weapon_schematics",
    "ground_force",
    "infantry",
    "mechanized_unit",
    "shock_troop",
    "__class__",
    "constructor",
    "../../etc/passwd",
    "a\nb",
    "é",
    "🚀",
    "",
)
UNKNOWN_KEYS: tuple[Hashable, ...] = (
    "weather",
    "Ruleset",
    "ruleset ",
    "",
    "units_",
    "__proto__",
    "x" * 1000,
    3,
    True,
    None,
    1.5,
)


# --- mutating a document as a tree ---------------------------------------------------------------

Path_ = tuple[Any, ...]


def tree_paths(doc: Any, prefix: Path_ = (), depth: int = 0) -> list[Path_]:
    """Every path in ``doc`` (keys and list indices), the root first."""
    found = [prefix]
    if depth > 8:
        return found
    if isinstance(doc, dict):
        for key, value in doc.items():
            found.extend(tree_paths(value, (*prefix, key), depth + 1))
    elif isinstance(doc, list):
        for index, value in enumerate(doc):
            found.extend(tree_paths(value, (*prefix, index), depth + 1))
    return found


def get_at(doc: Any, path: Path_) -> Any:
    for part in path:
        doc = doc[part]
    return doc


def set_at(doc: Any, path: Path_, value: Any) -> Any:
    """``doc`` with the value at ``path`` replaced (the root: ``value`` itself)."""
    if not path:
        return value
    get_at(doc, path[:-1])[path[-1]] = value
    return doc


def depth_of(value: Any) -> int:
    """Nesting of mappings and lists (a scalar: 0)."""
    if isinstance(value, dict):
        return 1 + max((depth_of(v) for v in value.values()), default=0)
    if isinstance(value, list):
        return 1 + max((depth_of(v) for v in value), default=0)
    return 0


def _count_paths(doc: Any) -> list[Path_]:
    return [
        path
        for path in tree_paths(doc)
        if len(path) >= 2
        and path[-2] in FLEET_KEYS
        and (path[-2] != "defender" or (len(path) >= 4 and isinstance(path[-3], int)))
        and isinstance(get_at(doc, path[:-1]), dict)
        and isinstance(path[-1], str)
    ]


def _fleet_paths(doc: Any) -> list[Path_]:
    return [
        path
        for path in tree_paths(doc)
        if path and path[-1] in FLEET_KEYS and isinstance(get_at(doc, path[:-1]), dict)
    ]


def _dict_paths(doc: Any) -> list[Path_]:
    return [
        path
        for path in tree_paths(doc)
        if isinstance(get_at(doc, path), dict) and not (path and path[-1] == "options")
    ]


def _name_list_paths(doc: Any) -> list[Path_]:
    return [
        path
        for path in tree_paths(doc)
        if path
        and path[-1] in (*NAME_LISTS, "units")
        and isinstance(get_at(doc, path), list)
        and get_at(doc, path)
        and all(isinstance(entry, str) for entry in get_at(doc, path))
        and isinstance(get_at(doc, path[:-1]), dict)
    ]


#: a mutation: (draw, document) -> (document, what was done, statuses it must end with)
Mutation = Callable[[st.DrawFn, Any], tuple[Any, str, frozenset[int] | None]]
REFUSED = frozenset({2})


def _replace(draw: st.DrawFn, doc: Any) -> tuple[Any, str, frozenset[int] | None]:
    path = draw(st.sampled_from(tree_paths(doc)[1:] or [()]))
    value = draw(st.sampled_from(NASTY + BAD_NAMES))
    return set_at(doc, path, copy.deepcopy(value)), f"{_path(path)} = {_show(value)}", None


def _is_ec4x(doc: Any) -> bool:
    return isinstance(doc, dict) and doc.get("ruleset") == "ec4x"


def _ec4x_count_paths(doc: Any) -> list[Path_]:
    """EC4X's counts: escorts and spacelift ships by class, carried and colony fighters, and
    scouts (``loaded_tt`` may be null, so it is left out)."""
    return [
        path
        for path in tree_paths(doc)
        if path
        and isinstance(path[-1], str)
        and isinstance(get_at(doc, path[:-1]), dict)
        and (
            (len(path) >= 2 and path[-2] in ("escorts", "spacelift"))
            or path[-1] == "fighters"
            or (path[-1] == "count" and "scouts" in path)
        )
    ]


def _bad_count(draw: st.DrawFn, doc: Any) -> tuple[Any, str, frozenset[int] | None]:
    paths = _ec4x_count_paths(doc) if _is_ec4x(doc) else _count_paths(doc)
    if not paths:
        return _bad_fleet(draw, doc)
    path = draw(st.sampled_from(paths))
    value = draw(st.sampled_from(BAD_COUNTS))
    return set_at(doc, path, copy.deepcopy(value)), f"count {_path(path)} = {_show(value)}", REFUSED


def _bad_fleet(draw: st.DrawFn, doc: Any) -> tuple[Any, str, frozenset[int] | None]:
    paths = _fleet_paths(doc)
    text = draw(st.sampled_from(BAD_FLEETS))
    if not paths:
        return doc, "no fleet to change", None
    path = draw(st.sampled_from(paths))
    return set_at(doc, path, text), f"fleet {_path(path)} = {_show(text)}", REFUSED


def _in_range_count(draw: st.DrawFn, doc: Any) -> tuple[Any, str, frozenset[int] | None]:
    """A large count within the limits (the battle may be too large for the exact engine)."""
    paths = [p for p in _count_paths(doc) if p[-2] == "units" and p[-3] in ("attacker", "defender")]
    if not paths:
        return doc, "no count to change", None
    path = draw(st.sampled_from(paths))
    value = draw(st.sampled_from((20, 60, 120, 190)))
    return set_at(doc, path, value), f"count {_path(path)} = {value}", None


def _unknown_key(draw: st.DrawFn, doc: Any) -> tuple[Any, str, frozenset[int] | None]:
    paths = _dict_paths(doc)
    if not paths:
        return doc, "no mapping", None
    path = draw(st.sampled_from(paths))
    key = draw(st.sampled_from(UNKNOWN_KEYS))
    target = get_at(doc, path)
    if key in target:
        return doc, "key already there", None
    target[key] = draw(st.sampled_from((1, "x", None, [])))
    return doc, f"unknown key {_show(key)} in {_path(path) or 'the scenario'}", REFUSED


def _unknown_name(draw: st.DrawFn, doc: Any) -> tuple[Any, str, frozenset[int] | None]:
    choices: list[tuple[Path_, str]] = []
    for path in tree_paths(doc):
        value = get_at(doc, path)
        if path and path[-1] == "faction":
            choices.append((path, "value"))
        if _is_ec4x(doc) and path and path[-1] == "flagship":
            choices.append((path, "value"))
        if path and path[-1] in ("units", "upgrades", "technologies", "laws") and value:
            choices.append((path, "entry"))
    if not choices:
        return doc, "no name", None
    path, kind = draw(st.sampled_from(choices))
    name = draw(
        st.sampled_from(
            (
                "starfighter",
                "War_Sun",
                "warsun",
                "naalu",
                "nekro",
                "plasma_scoring",
                "gravity_drive",
                "publicize_weapon_schematics",
                "🚀",
                "x" * 1000,
            )
        )
    )
    value = get_at(doc, path)
    # a technology, law or faction the data knows may be accepted where it fits: the engine
    # implements ever more of them (issue 14), so only the unknown names must be refused
    refused = name not in KNOWN_TI4_NAMES
    if kind == "value":
        set_at(doc, path, name)
    elif isinstance(value, dict):
        value[name] = value.pop(next(iter(value)))
    elif isinstance(value, list):
        value[0] = name
    else:  # fleet text, where unit names are not case-sensitive
        set_at(doc, path, f"{value}, 1 {name}")
        refused = refused and name != "War_Sun"
    # an unknown name is refused; a known one the engine does not implement is refused by name
    return doc, f"name {name!r} at {_path(path)}", REFUSED if refused else None


def _duplicate_entry(draw: st.DrawFn, doc: Any) -> tuple[Any, str, frozenset[int] | None]:
    if _is_ec4x(doc):
        # a fleet twice (its id twice) or a diplomacy pair twice: refused
        lists = [k for k in ("fleets", "diplomacy") if isinstance(doc.get(k), list) and doc[k]]
        if not lists:
            return doc, "no fleet or diplomacy", None
        key = draw(st.sampled_from(lists))
        entries = doc[key]
        entry = copy.deepcopy(entries[draw(st.integers(0, len(entries) - 1))])
        entries.insert(draw(st.integers(0, len(entries))), entry)
        return doc, f"an entry of {key} twice", REFUSED
    paths = _name_list_paths(doc)
    if not paths:
        side = draw(st.sampled_from(("attacker", "defender")))
        if not isinstance(doc, dict) or not isinstance(doc.get(side), dict):
            return doc, "no side", None
        doc[side]["technologies"] = ["duranium_armor", "duranium_armor"]
        return doc, f"{side}.technologies twice", REFUSED
    path = draw(st.sampled_from(paths))
    entries = get_at(doc, path)
    entries.insert(
        draw(st.integers(0, len(entries))), entries[draw(st.integers(0, len(entries) - 1))]
    )
    return doc, f"an entry of {_path(path)} twice", REFUSED


def _delete(draw: st.DrawFn, doc: Any) -> tuple[Any, str, frozenset[int] | None]:
    paths = [p for p in tree_paths(doc)[1:] if isinstance(get_at(doc, p[:-1]), dict | list)]
    if not paths:
        return doc, "nothing to delete", None
    path = draw(st.sampled_from(paths))
    del get_at(doc, path[:-1])[path[-1]]
    return doc, f"deleted {_path(path)}", None


def _nest(draw: st.DrawFn, doc: Any) -> tuple[Any, str, frozenset[int] | None]:
    path = draw(st.sampled_from(tree_paths(doc)))
    levels = draw(st.sampled_from((3, 20, 31, 33, 40, 60)))
    value = get_at(doc, path)
    as_list = draw(st.booleans())
    for _ in range(levels):
        value = [value] if as_list else {"a": value}
    doc = set_at(doc, path, value)
    return doc, f"{_path(path)} nested {levels} deep", REFUSED if depth_of(doc) > 32 else None


def _retype(draw: st.DrawFn, doc: Any) -> tuple[Any, str, frozenset[int] | None]:
    path = draw(st.sampled_from(tree_paths(doc)))
    value = get_at(doc, path)
    if isinstance(value, dict):
        new: Any = [[k, v] for k, v in value.items()]
    elif isinstance(value, list):
        new = {str(i): v for i, v in enumerate(value)}
    elif isinstance(value, str):
        new = [value]
    else:
        new = str(value)
    return set_at(doc, path, new), f"{_path(path)} as {type(new).__name__}", None


MUTATIONS: tuple[Mutation, ...] = (
    _replace,
    _replace,
    _bad_count,
    _bad_count,
    _bad_fleet,
    _unknown_key,
    _unknown_name,
    _duplicate_entry,
    _delete,
    _nest,
    _retype,
    _in_range_count,
)


def _path(path: Path_) -> str:
    return "".join(f"[{p}]" if isinstance(p, int) else f".{p}" for p in path).lstrip(".")


def _show(value: Any) -> str:
    text = repr(value)
    return text if len(text) <= 60 else text[:57] + "..."


@st.composite
def mutated_scenarios(
    draw: st.DrawFn, *, big: bool = True, rulesets: Rulesets = "all"
) -> tuple[Any, list[str], frozenset[int] | None]:
    """A valid scenario with one to three mutations: (document, what was done, the statuses
    it must end with when the documentation says). ``big``: counts within the limits but
    large for the exact engine are allowed."""
    doc: Any = draw(valid_scenarios(rulesets))
    whys: list[str] = []
    expect: frozenset[int] | None = None
    mutations = MUTATIONS if big else MUTATIONS[:-1]
    times = draw(st.sampled_from((0, 1, 1, 1, 2, 3)))
    for _ in range(times):
        mutation = draw(st.sampled_from(mutations))
        doc, why, expect = mutation(draw, doc)
        whys.append(why)
    if times == 0:
        expect = None  # valid as generated, but the ruleset may still refuse a combination
    elif times > 1:
        expect = None  # a later mutation may undo an earlier one
    return doc, whys, expect


# --- rendering a document as text ----------------------------------------------------------------


def _json_default(value: Any) -> Any:
    if isinstance(value, bytes):
        return value.decode("latin-1")
    return str(value)


def to_json(doc: Any, indent: int | None = None) -> str:
    """JSON text (NaN and Infinity written as Python writes them: refused on reading)."""
    return json.dumps(doc, default=_json_default, indent=indent, ensure_ascii=False)


def to_yaml(doc: Any, flow: bool) -> str:
    return yaml.safe_dump(doc, default_flow_style=flow, sort_keys=False, allow_unicode=True)


def alias_bomb(levels: int, target: str) -> str:
    """A "billion laughs" YAML document: ``levels`` levels of nine aliases each, the last one
    aliased into ``target`` (e.g. ``ruleset`` or ``policy.retreat``)."""
    lines = ['a0: &a0 ["lol","lol","lol","lol","lol","lol","lol","lol","lol"]']
    for level in range(1, levels):
        previous = ",".join([f"*a{level - 1}"] * 9)
        lines.append(f"a{level}: &a{level} [{previous}]")
    last = f"*a{levels - 1}"
    if target == "policy.retreat":
        body = f"ruleset: ti4\nbattle: space\npolicy: {{retreat: {last}}}\n"
    elif target == "units":
        body = f"ruleset: ti4\nbattle: space\nattacker: {{units: {last}}}\n"
    else:
        body = f"ruleset: {last}\nbattle: space\n"
    return "\n".join(lines) + "\n" + body + "defender: {units: {cruiser: 1}}\n"


#: whole texts (not from a document) and the statuses they must end with
RAW_TEXTS: tuple[tuple[str | bytes, frozenset[int] | None], ...] = (
    ("", REFUSED),
    (" \n\n", REFUSED),
    ("null", REFUSED),
    ("~", REFUSED),
    ("[]", REFUSED),
    ("3", REFUSED),
    ("1e9", REFUSED),
    (".nan", REFUSED),
    ("10**30", REFUSED),
    ("'text'", REFUSED),
    ("{}", REFUSED),
    ("-", REFUSED),
    ("---", REFUSED),
    ("...", REFUSED),
    ("%YAML 1.1\n---\n{}", REFUSED),
    ("%TAG ! tag:x.org,2000:\n---\n!a 1", REFUSED),
    ("--- !!python/object/apply:os.system ['true']", REFUSED),
    ("!!binary aGVsbG8=", REFUSED),
    ("!!set {a, b}", REFUSED),
    ("!!omap [a: 1, b: 2]", REFUSED),
    ("2020-01-01", REFUSED),
    ("[" * 1000 + "]" * 1000, REFUSED),
    ("{" * 1000, REFUSED),
    ('{"a":' * 500 + "1" + "}" * 500, REFUSED),
    ("- " * 500 + "x", REFUSED),
    ("".join(" " * i + "a:\n" for i in range(300)), REFUSED),
    ("a: [" * 200 + "]" * 200, REFUSED),
    ("#" * 1_000_001, REFUSED),
    ("#" * 999_999 + "\n", REFUSED),
    (alias_bomb(3, "ruleset"), REFUSED),
    (alias_bomb(4, "ruleset"), REFUSED),
    (alias_bomb(9, "ruleset"), REFUSED),
    (alias_bomb(9, "policy.retreat"), REFUSED),
    (alias_bomb(6, "units"), REFUSED),
    (
        "ruleset: ti4\nbattle: space\nattacker: {units: &u {cruiser: 2}}\ndefender: {units: *u}\n",
        REFUSED,
    ),
    ("base: &b {units: {cruiser: 1}}\nruleset: ti4\nbattle: space\nattacker: {<<: *b}\n", REFUSED),
    ("ruleset: ti4\nbattle: space\nattacker: {units: {fighter: 1e9}}\ndefender: {}\n", REFUSED),
    ("ruleset: ti4\nbattle: space\nattacker: {units: {fighter: 1.0e+9}}\ndefender: {}\n", REFUSED),
    (
        '{"ruleset": "ti4", "battle": "space", "attacker": {"units": {"fighter": 1e9}}, '
        '"defender": {}}',
        REFUSED,
    ),
    (
        '{"ruleset": "ti4", "battle": "space", "attacker": {"units": {"fighter": '
        + "1" * 4400
        + '}}, "defender": {}}',
        REFUSED,
    ),
    (
        "ruleset: ti4\nbattle: space\nattacker: {units: {fighter: " + "9" * 5000 + "}}\n"
        "defender: {units: {cruiser: 1}}\n",
        REFUSED,
    ),
    ("ruleset: ti4\nruleset: ti3\nbattle: space\nattacker: {}\ndefender: {}\n", REFUSED),
    ("ruleset: ti4\nbattle: space\nattacker: {units: ٣ dreadnought}\ndefender: {}\n", REFUSED),
    ("ruleset: ti4\nbattle: space\nattacker: {units: {cruiser: true}}\ndefender: {}\n", REFUSED),
    ("ruleset: ti4\nbattle: space\nattacker: {units: {cruiser: '3'}}\ndefender: {}\n", REFUSED),
    ("ruleset: ti4\nbattle: space\nattacker: {units: {cruiser: .nan}}\ndefender: {}\n", REFUSED),
    ("ruleset: ti4\nbattle: space\nattacker: {units: {cruiser: .inf}}\ndefender: {}\n", REFUSED),
    (
        "ruleset: ti4\nbattle: space\nattacker: {units: {cruiser: 2020-01-01}}\ndefender: {}\n",
        REFUSED,
    ),
    (
        "ruleset: ti4\nbattle: space\nattacker: {units: {cruiser: !!binary aGVsbG8=}}\n"
        "defender: {}\n",
        REFUSED,
    ),
    (
        "ruleset: ti4\nbattle: space\nattacker: {units: {cruiser: 1}}\n"
        "defender: {units: {cruiser: 1}}\npolicy: {retreat: {when_outnumbered: .nan}}\n",
        REFUSED,
    ),
    (
        "ruleset: ti4\nbattle: space\nattacker: {units: {cruiser: 1}}\n"
        "defender: {units: {cruiser: 1}}\nsystem: {anomaly: supernova}\n",
        REFUSED,
    ),
    (
        "ruleset: ti4\nbattle: space\nattacker: {units: {cruiser: 1}}\n"
        "defender: {units: {cruiser: 1}}\nsystem: {anomaly: asteroid_field}\n",
        REFUSED,
    ),
    (b"ruleset: ti4\nbattle: space\nattacker: {units: {cruiser: 1}}\xff\n", REFUSED),
    (b"\xfe\xff\x00r\x00u", REFUSED),
    ("ruleset: ti4\n".encode("utf-16"), REFUSED),
    (b"\xef\xbb\xbf\xef\xbb\xbfruleset: ti4", REFUSED),
    (b"ruleset: ti4\x00\nbattle: space\n", REFUSED),
    # echoed values: a lone surrogate, a line break, a long key, a long list of what is allowed
    (
        "ruleset: ti4\nbattle: space\nattacker: {units: {cruiser: 1}}\n"
        'defender: {units: "\\uD800"}\n',
        REFUSED,
    ),
    (
        "ruleset: ti4\nbattle: space\nattacker: {units: {cruiser: 1}}\n"
        'defender: {faction: "a\\nb", units: {cruiser: 1}}\n',
        REFUSED,
    ),
    (
        "ruleset: ti4\nbattle: space\nattacker: {units: {cruiser: 1}}\n"
        "defender: {units: {cruiser: 1}}\n" + "x" * 1000 + ": 1\n",
        REFUSED,
    ),
    (
        "ruleset: ti4\nbattle: space\nattacker: {units: {cruiser: 1}, technologies: [warp_drive]}\n"
        "defender: {units: {cruiser: 1}}\n",
        REFUSED,
    ),
)


def _insert(data: bytes, offset: int, piece: bytes) -> bytes:
    offset = min(offset, len(data))
    return data[:offset] + piece + data[offset:]


@st.composite
def rendered(
    draw: st.DrawFn, doc: Any, expect: frozenset[int] | None
) -> tuple[bytes, str, str, frozenset[int] | None]:
    """``doc`` as the bytes of a file: (bytes, suffix, what was done, expected statuses)."""
    style = draw(st.sampled_from(("yaml", "yaml-flow", "json", "json-indent")))
    whys = [style]
    try:
        if style.startswith("json"):
            text = to_json(doc, 2 if style == "json-indent" else None)
            suffix = draw(st.sampled_from((".json", ".json", ".yaml", ".txt")))
        else:
            text = to_yaml(doc, style == "yaml-flow")
            suffix = draw(st.sampled_from((".yaml", ".yaml", ".yml", "")))
    except (ValueError, TypeError, yaml.YAMLError, RecursionError):
        text, suffix = to_json(doc), ".json"
    if suffix == ".json" and not style.startswith("json"):
        expect = None  # YAML read as JSON: refused, unless it happens to be JSON
    data = text.encode("utf-8", "surrogatepass")
    edit = draw(
        st.sampled_from(
            (
                "none",
                "none",
                "none",
                "bom",
                "crlf",
                "invalid-utf8",
                "utf16",
                "truncate",
                "junk",
                "duplicate-key",
                "alias",
                "tag",
                "tabs",
                "nul",
                "deep",
                "two-documents",
            )
        )
    )
    offset = draw(st.integers(0, max(0, len(data))))
    first = next(iter(doc)) if isinstance(doc, dict) and doc else None
    if edit == "bom":
        data = b"\xef\xbb\xbf" + data
    elif edit == "crlf":
        data = data.replace(b"\n", b"\r\n")
    elif edit == "invalid-utf8":
        piece = draw(
            st.sampled_from((b"\xff", b"\xc3", b"\xed\xa0\x80", b"\xc0\xaf", b"\x80", b"\xf4\x90"))
        )
        data, expect = _insert(data, offset, piece), REFUSED
    elif edit == "utf16":
        data, expect = text.encode("utf-16", "surrogatepass"), REFUSED
    elif edit == "truncate":
        data, expect = data[:offset], None
    elif edit == "junk":
        data += draw(st.sampled_from((b"\n}", b"\n- x", b" ]", b"\n@", b"\n%", b'\n"')))
        expect = None
    elif edit == "duplicate-key" and isinstance(first, str):
        again = {first: doc[first]}
        if text.lstrip().startswith("{"):
            head = to_json(again)[:-1]
            data = (head + ", " + text.lstrip()[1:]).encode("utf-8", "surrogatepass")
        else:
            data = to_yaml(again, False).encode("utf-8", "surrogatepass") + data
        expect = REFUSED
    elif edit == "alias" and isinstance(doc, dict) and isinstance(doc.get("attacker"), dict):
        shared = dict(doc)
        shared["defender"] = shared["attacker"]  # the same object: dumped as an anchor and alias
        data = to_yaml(shared, draw(st.booleans())).encode("utf-8", "surrogatepass")
        suffix, expect = ".yaml", REFUSED
    elif (
        edit == "alias"
        and isinstance(doc, dict)
        and isinstance(doc.get("houses"), dict)
        and len(doc["houses"]) >= 2
        and all(isinstance(h, dict) for h in doc["houses"].values())
    ):
        shared = dict(doc)
        names = list(doc["houses"])
        # two houses with the same settings object: dumped as an anchor and an alias
        shared["houses"] = dict.fromkeys(names, doc["houses"][names[0]])
        data = to_yaml(shared, draw(st.booleans())).encode("utf-8", "surrogatepass")
        suffix, expect = ".yaml", REFUSED
    elif edit == "tag" and re.search(rb"^ruleset: \w+", data, re.M):
        tag, must = draw(
            st.sampled_from(
                (
                    ("!!python/name:os.system", REFUSED),
                    ("!!python/object/apply:os.system ['true']", REFUSED),
                    ("!!binary dGk0", REFUSED),
                    ("!!set {ti4}", REFUSED),
                    ("!!timestamp 2020-01-01", REFUSED),
                    ("!custom ti4", REFUSED),
                    ("!!str ti4", expect),
                )
            )
        )
        data = re.sub(rb"^ruleset: \w+", b"ruleset: " + tag.encode(), data, count=1, flags=re.M)
        suffix, expect = ".yaml", must
    elif edit == "tabs" and b"\n  " in data:
        data, expect = data.replace(b"\n  ", b"\n\t"), None
    elif edit == "nul":
        data, expect = _insert(data, offset, b"\x00"), REFUSED
    elif edit == "deep" and text.lstrip().startswith("{"):
        levels = draw(st.sampled_from((33, 100, 1000, 5000)))
        nested = "[" * levels + "]" * levels
        data = ('{"deep": ' + nested + ", " + text.lstrip()[1:]).encode("utf-8", "surrogatepass")
        expect = REFUSED
    elif edit == "two-documents":
        data = data + b"\n---\n" + data if not style.startswith("json") else data + b"\n" + data
        expect = REFUSED
    else:
        edit = "none"
    whys.append(edit)
    return data, suffix, " ".join(whys), expect


# --- scenario cases ------------------------------------------------------------------------------


@st.composite
def scenario_inputs(
    draw: st.DrawFn, *, big: bool = True, rulesets: Rulesets = "all"
) -> tuple[bytes, str, str, frozenset[int] | None]:
    """A malformed or extreme scenario file: (bytes, suffix, what was done, expected)."""
    if draw(st.integers(0, 5)) == 0:
        raw, expect = draw(st.sampled_from(RAW_TEXTS))
        data = raw if isinstance(raw, bytes) else raw.encode("utf-8")
        suffix = draw(st.sampled_from((".yaml", ".json", "")))
        return data, suffix, "a raw text", expect
    doc, whys, expect = draw(mutated_scenarios(big=big, rulesets=rulesets))
    data, suffix, how, expect = draw(rendered(doc, expect))
    return data, suffix, "; ".join([*whys, how]), expect


def odds_options(draw: st.DrawFn) -> list[str]:
    """Options for ``odds`` that keep a run short whatever the scenario: a small Monte Carlo
    run on one worker (as the fallback of the exact method, too)."""
    method = draw(st.sampled_from(("exact", "exact", "montecarlo")))
    argv = ["--method", method, "--trials", "50", "--workers", "1"]
    if method == "exact" and draw(st.integers(0, 4)) == 0:
        argv += ["--rounds", draw(st.sampled_from(("0", "2")))]
    if draw(st.booleans()):
        argv += ["--format", draw(st.sampled_from(("text", "json", "jsonl")))]
    return argv


@st.composite
def scenario_cases(draw: st.DrawFn, *, big: bool = True, rulesets: Rulesets = "all") -> Case:
    """``resolve`` or ``odds`` of a malformed or extreme scenario (a file, or standard input
    for ``resolve``)."""
    data, suffix, why, expect = draw(scenario_inputs(big=big, rulesets=rulesets))
    command = draw(st.sampled_from(("resolve", "odds")))
    if command == "resolve":
        on_stdin = draw(st.integers(0, 3)) == 0
        target = "-" if on_stdin else FILE
        argv = ["resolve", target, "--format", draw(st.sampled_from(("text", "jsonl")))]
        if draw(st.booleans()):
            argv += ["--seed", str(draw(st.integers(0, 2**64 - 1)))]
        if on_stdin:
            return Case("scenario", tuple(argv), stdin=data, expect=expect, why=why)
        return Case("scenario", tuple(argv), file=data, suffix=suffix, expect=expect, why=why)
    argv = ["odds", FILE, *odds_options(draw)]
    return Case("scenario", tuple(argv), file=data, suffix=suffix, expect=expect, why=why)


@st.composite
def large_battles(draw: st.DrawFn) -> Case:
    """A battle within the limits but as large as they allow (both sides up to 200 units):
    ``odds`` (exact, falling back to a few Monte Carlo trials; or Monte Carlo) or
    ``resolve``."""
    ruleset = draw(st.sampled_from(("ti4", "ti3")))
    battle = draw(st.sampled_from(("space", "space", "invasion")))
    kinds = SHIPS if battle == "space" else (*GROUND[ruleset], "pds")
    sides: dict[str, dict[str, int]] = {}
    for side in ("attacker", "defender"):
        units: dict[str, int] = {}
        room = 200
        for kind in draw(st.lists(st.sampled_from(kinds), min_size=1, max_size=4, unique=True)):
            count = min(room, draw(st.sampled_from((1, 10, 30, 60, 100, 200))))
            if count:
                units[kind] = count
                room -= count
        if battle == "invasion" and side == "attacker":
            units = {"carrier": 1, **{k: v for k, v in units.items() if k != "pds"}}
            units = units if sum(units.values()) <= 200 else {"carrier": 1, GROUND[ruleset][0]: 199}
        sides[side] = units
    doc = {"ruleset": ruleset, "battle": battle, **{s: {"units": u} for s, u in sides.items()}}
    command = draw(
        st.sampled_from(
            (
                ("odds", FILE, "--trials", "10", "--workers", "1"),
                ("odds", FILE, "--method", "montecarlo", "--trials", "10", "--workers", "1"),
                ("odds", FILE, "--rounds", "3", "--trials", "10", "--workers", "1"),
                ("resolve", FILE, "--seed", "1"),
            )
        )
    )
    return Case(
        "scenario",
        command,
        file=to_json(doc).encode(),
        suffix=".json",
        why=f"large: {fleet_text(sides['attacker'])} v {fleet_text(sides['defender'])}",
    )


# --- event logs ----------------------------------------------------------------------------------

#: battles whose logs are edited (small: a log is a few dozen lines)
LOG_SCENARIOS: tuple[dict[str, Any], ...] = (
    {
        "ruleset": "ti4",
        "battle": "space",
        "attacker": {
            "units": "2 dreadnought, 1 carrier, 3 fighter",
            "policy": {"retreat": {"when_outnumbered": 2}},
        },
        "defender": {"units": {"cruiser": 3, "destroyer": 1, "pds": 1}},
        "system": {"name": "Lodor", "adjacent": [{"name": "B", "units": ["attacker"]}]},
    },
    {
        "ruleset": "ti4",
        "battle": "invasion",
        "attacker": {"units": "1 war_sun, 1 dreadnought, 4 infantry, 1 mech"},
        "defender": {"units": "3 infantry, 1 mech, 2 pds"},
    },
    {
        "ruleset": "ti4",
        "battle": "space",
        "attacker": {"units": "2 carrier, 2 fighter, 2 infantry"},
        "defender": {"units": "3 cruiser, 1 dreadnought", "faction": "sardakk"},
        "system": {"anomaly": "nebula"},
    },
    {
        "ruleset": "ti3",
        "battle": "space",
        "attacker": {
            "units": {"dreadnought": 2, "cruiser": 1, "destroyer": 2, "fighter": 2, "carrier": 1},
            "technologies": ["assault_cannon"],
            "policy": {"retreat": {"after_round": 2}},
        },
        "defender": {"units": {"cruiser": 2, "carrier": 1, "fighter": 3, "pds": 1}},
        "system": {"name": "A", "adjacent": [{"name": "B", "command_tokens": ["attacker"]}]},
    },
    {
        "ruleset": "ti3",
        "battle": "invasion",
        "options": {"shock_troops": True},
        "attacker": {"units": {"war_sun": 1, "carrier": 1, "ground_force": 4}},
        "defender": {"units": {"ground_force": 3, "pds": 1}},
    },
)
_LOGS: dict[tuple[int, int], list[str]] = {}


def real_log(index: int, seed: int) -> list[str]:
    """The lines of ``spacecombat resolve --format jsonl`` of ``LOG_SCENARIOS[index]`` with
    ``seed`` (run in-process, once)."""
    key = (index, seed)
    if key not in _LOGS:
        scenario = json.dumps(LOG_SCENARIOS[index]).encode()
        case = Case(
            "log", ("resolve", FILE, "--seed", str(seed), "--format", "jsonl"), file=scenario
        )
        with tempfile.TemporaryDirectory() as workdir:
            outcome = run_case(case, Path(workdir))
        if outcome.status != 0:
            raise AssertionError(f"cannot make a log: {outcome.stderr}")
        _LOGS[key] = outcome.stdout.splitlines()
    return list(_LOGS[key])


def _positions(events: list[Any], kind: str) -> list[int]:
    return [i for i, e in enumerate(events) if isinstance(e, dict) and e.get("event") == kind]


JUNK_LINES: tuple[tuple[bytes, frozenset[int] | None], ...] = (
    (b"not json", REFUSED),
    (b"[]", REFUSED),
    (b"3", REFUSED),
    (b"null", REFUSED),
    (b'"battle_started"', REFUSED),
    (b"{", REFUSED),
    (b"NaN", REFUSED),
    (b"\xff\xfe{}", REFUSED),
    (b"{}", None),
    (b'{"event": "battle_started"}', None),
    (b'{"event": "made_up", "x": 1}', None),
    (b'{"a":' * 40 + b"1" + b"}" * 40, REFUSED),
    (b"[" * 1000 + b"]" * 1000, REFUSED),
    (b'{"a":' * 2000 + b"1" + b"}" * 2000, REFUSED),
    (b'{"event": "dice_rolled", "n": ' + b"1" * 5000 + b"}", REFUSED),
    (b'{"event": "x", "y": NaN}', REFUSED),
    (b'{"event": "x", "event": "y"}', REFUSED),
)
BAD_FACES: tuple[Any, ...] = (0, 11, -1, 10**30, "3", 3.0, None, True, [], 10**400)
BAD_SEEDS: tuple[Any, ...] = ("7", 7.5, -1, 2**64, 10**30, True, [], {})


def _dump(event: Any) -> str:
    return json.dumps(event, separators=(",", ":"))


@st.composite
def log_cases(draw: st.DrawFn) -> Case:
    """``replay`` of a real log, edited (or not)."""
    index = draw(st.integers(0, len(LOG_SCENARIOS) - 1))
    seed = draw(st.integers(0, 40))
    lines = real_log(index, seed)
    events: list[Any] = [json.loads(line) for line in lines]
    edit = draw(
        st.sampled_from(
            (
                "none",
                "drop-seed",
                "null-seed",
                "bad-seed",
                "face",
                "face-no-seed",
                "bad-face",
                "hits",
                "delete",
                "duplicate",
                "swap",
                "choice",
                "bad-choice",
                "drop-header",
                "header-event",
                "log-version",
                "bad-scenario",
                "no-scenario",
                "junk-line",
                "blank-lines",
                "crlf",
                "bom",
                "truncate",
                "invalid-utf8",
                "extra-key",
                "two-logs",
                "empty",
                "several",
            )
        )
    )
    expect: frozenset[int] | None = None
    raw: bytes | None = None
    header = events[0]
    dice = _positions(events, "dice_rolled")
    choices = [i for i in _positions(events, "choice_made") if not events[i].get("forced")]
    why = edit
    if edit == "none":
        expect = frozenset({0})
    elif edit == "drop-seed":
        del header["seed"]
        # docs/protocol.md: the seed is an integer or null; a header without one is malformed
        expect = frozenset({2, 3})
    elif edit == "null-seed":
        header["seed"] = None
        expect = frozenset({3})
    elif edit == "bad-seed":
        header["seed"] = draw(st.sampled_from(BAD_SEEDS))
        why += f" {_show(header['seed'])}"
        expect = frozenset({1, 2, 3})
    elif edit in ("face", "face-no-seed", "bad-face", "hits") and dice:
        event = events[draw(st.sampled_from(dice))]
        group = draw(st.sampled_from(event["groups"]))
        if edit == "hits":
            group["hits"] = group["hits"] + draw(st.sampled_from((1, -1, 10)))
            expect = frozenset({1, 2})
        else:
            at = draw(st.integers(0, len(group["faces"]) - 1))
            old = group["faces"][at]
            if edit == "bad-face":
                group["faces"][at] = draw(st.sampled_from(BAD_FACES))
                expect = frozenset({1, 2})
            else:
                group["faces"][at] = draw(st.sampled_from([f for f in range(1, 11) if f != old]))
                expect = frozenset({1})
            if edit == "face-no-seed":
                header["seed"] = None
                # the dice can only be checked against each other: never "verified"
                expect = frozenset({1, 3})
            why += f" {old} -> {_show(group['faces'][at])}"
    elif edit in ("delete", "duplicate", "swap") and len(events) > 2:
        at = draw(st.integers(1, len(events) - 1))
        if edit == "delete":
            del events[at]
        elif edit == "duplicate":
            events.insert(at, copy.deepcopy(events[at]))
        else:
            other = draw(st.integers(1, len(events) - 1))
            events[at], events[other] = events[other], events[at]
            if events[at] == events[other]:
                expect = frozenset({0})
        why += f" line {at + 1}"
        expect = expect or frozenset({1})
    elif edit in ("choice", "bad-choice") and choices:
        event = events[draw(st.sampled_from(choices))]
        others = [o for o in event.get("options", []) if o != event["choice"]]
        if edit == "choice" and others:
            event["choice"] = draw(st.sampled_from(others))
            expect = frozenset({1})
        else:
            event["choice"] = draw(st.sampled_from(("", "x" * 1000, 3, None, "destroy war_sun")))
            expect = frozenset({1, 2})
        why += f" -> {_show(event['choice'])}"
    elif edit == "drop-header":
        del events[0]
        expect = REFUSED
    elif edit == "header-event":
        header["event"] = draw(st.sampled_from(("battle_begun", "", None, 3)))
        expect = REFUSED
    elif edit == "log-version":
        version = draw(st.sampled_from((0, 2, "1", None, "missing", 10**30)))
        if version == "missing":
            del header["log_version"]
        else:
            header["log_version"] = version
        why += f" {version!r}"
        expect = REFUSED
    elif edit == "bad-scenario":
        scenario, whys, must = draw(mutated_scenarios(big=False))
        header["scenario"] = scenario
        why += " " + "; ".join(whys)
        expect = REFUSED if must == REFUSED else None
    elif edit == "no-scenario":
        header.pop("scenario")
        expect = REFUSED
    elif edit == "junk-line":
        junk, expect = draw(st.sampled_from(JUNK_LINES))
        at = draw(st.integers(1, len(events)))
        encoded = [_dump(e).encode() for e in events]
        encoded.insert(at, junk)
        raw = b"\n".join(encoded) + b"\n"
        why += f" {_cut(junk)} at line {at + 1}"
    elif edit == "blank-lines":
        encoded = [_dump(e).encode() for e in events]
        for _ in range(draw(st.integers(1, 3))):
            encoded.insert(draw(st.integers(1, len(encoded))), draw(st.sampled_from(BLANKS)))
        raw = b"\n".join(encoded) + b"\n"
        expect = frozenset({0})
    elif edit == "crlf":
        raw = b"".join(_dump(e).encode() + b"\r\n" for e in events)
        expect = frozenset({0})
    elif edit == "bom":
        raw = b"\xef\xbb\xbf" + b"".join(_dump(e).encode() + b"\n" for e in events)
        expect = frozenset({0})
    elif edit == "truncate":
        text = b"".join(_dump(e).encode() + b"\n" for e in events).rstrip(b"\n")
        cut = draw(st.integers(1, len(_dump(events[-1])) - 1))
        raw = text[:-cut]
        expect = REFUSED
    elif edit == "invalid-utf8":
        text = b"".join(_dump(e).encode() + b"\n" for e in events)
        raw = _insert(text, draw(st.integers(0, len(text))), b"\xff")
        expect = REFUSED
    elif edit == "extra-key":
        at = draw(st.integers(0, len(events) - 1))
        events[at]["extra"] = draw(st.sampled_from((1, "x", None)))
        expect = frozenset({1, 2})
    elif edit == "two-logs":
        events = events + [json.loads(line) for line in real_log((index + 1) % 5, seed)]
        expect = frozenset({1, 2})
    elif edit == "empty":
        raw = draw(st.sampled_from((b"", b"\n\n", b"   \n")))
        expect = REFUSED
    elif edit == "several":
        for _ in range(draw(st.integers(2, 4))):
            at = draw(st.integers(0, len(events) - 1))
            path = draw(st.sampled_from(tree_paths(events[at])[1:] or [()]))
            events[at] = set_at(events[at], path, copy.deepcopy(draw(st.sampled_from(NASTY))))
            why += f" line {at + 1} {_path(path)}"
    else:
        why = f"{edit} (not applicable): none"
        expect = frozenset({0})
    if raw is None:
        raw = b"".join(to_json(e).encode("utf-8", "surrogatepass") + b"\n" for e in events)
    if draw(st.integers(0, 3)) == 0:
        return Case("log", ("replay", "-"), stdin=raw, expect=expect, why=why)
    suffix = draw(st.sampled_from((".jsonl", ".log", ".json")))
    return Case("log", ("replay", FILE), file=raw, suffix=suffix, expect=expect, why=why)


def _cut(data: bytes) -> str:
    text = repr(data)
    return text if len(text) <= 40 else text[:37] + "..."


BLANKS = (b"", b"   ", b"\t", b"\r")


# --- odds batches --------------------------------------------------------------------------------

BATCH_JUNK: tuple[bytes, ...] = (
    b"not json",
    b"[]",
    b"3",
    b"null",
    b"{",
    b"{}",
    b'{"ruleset": "ti4"',
    b"\xff{",
    b'{"a":' * 40 + b"1" + b"}" * 40,
    b"[" * 1000 + b"]" * 1000,
    b'{"a":' * 3000 + b"1" + b"}" * 3000,
    b'{"ruleset": "ti4", "battle": "space", "attacker": {"units": {"fighter": '
    + b"1" * 5000
    + b'}}, "defender": {}}',
    b'{"ruleset": "ti4", "battle": "space", "attacker": {"units": {"fighter": 1e9}}, '
    b'"defender": {"units": {"cruiser": 1}}}',
    b'{"ruleset": "ti4", "battle": "space", "attacker": {"units": {"fighter": '
    + str(10**30).encode()
    + b'}}, "defender": {"units": {"cruiser": 1}}}',
    b'{"ruleset": "ti4", "battle": "space", "attacker": {"units": {"fighter": NaN}}, '
    b'"defender": {"units": {"cruiser": 1}}}',
    b'{"ruleset": "ti4", "ruleset": "ti3"}',
    b"ruleset: ti4",
    b'{"x": "' + b"y" * 1_000_001 + b'"}',
)


@st.composite
def batch_lines(draw: st.DrawFn) -> tuple[bytes, str]:
    """One line of a batch: (bytes, what it is)."""
    kind = draw(st.sampled_from(("good", "good", "mutated", "mutated", "junk", "blank")))
    if kind == "good":
        line = to_json(draw(valid_scenarios("ti"))).encode()
        decoration = draw(st.sampled_from((b"", b"", b"\t", b" ")))
        return decoration + line + draw(st.sampled_from((b"", b"", b"\r", b" "))), kind
    if kind == "mutated":
        doc, whys, _ = draw(mutated_scenarios(rulesets="ti"))
        return to_json(doc).encode("utf-8", "surrogatepass"), "; ".join(whys)
    if kind == "junk":
        junk = draw(st.sampled_from(BATCH_JUNK))
        return junk, f"junk {_cut(junk)}"
    return draw(st.sampled_from(BLANKS)), "blank"


@st.composite
def batch_cases(draw: st.DrawFn) -> Case:
    """``odds -`` with a batch of good, bad and blank lines."""
    items = draw(st.lists(batch_lines(), min_size=1, max_size=6))
    if draw(st.integers(0, 9)) == 0:  # a YAML scenario given to a batch
        items.insert(0, (b"ruleset: ti4\nbattle: space", "yaml"))
    data = b"\n".join(line for line, _ in items)
    if draw(st.booleans()):
        data += b"\n"
    if draw(st.integers(0, 9)) == 0:
        data = b"\xef\xbb\xbf" + data  # a leading byte-order mark is allowed
    argv = ["odds", "-", "--trials", "50", "--workers", "1"]
    argv += ["--method", draw(st.sampled_from(("exact", "exact", "montecarlo")))]
    refused = False
    if draw(st.integers(0, 3)) == 0:
        fmt = draw(st.sampled_from(("jsonl", "jsonl", "text", "json")))
        argv += ["--format", fmt]
        refused = fmt != "jsonl"
    first = next((line for line in data.split(b"\n") if line.strip()), b"")
    if not first.removeprefix(b"\xef\xbb\xbf").lstrip().startswith(b"{") and first:
        refused = True
    expect = REFUSED if refused else frozenset({0})
    why = " | ".join(what for _, what in items)
    return Case("batch", tuple(argv), stdin=data, expect=expect, why=why)


# --- command-line options ------------------------------------------------------------------------

#: (value, valid) for each option; valid values are kept small so that a run stays short
OPTION_VALUES: dict[str, tuple[tuple[str, bool], ...]] = {
    "--seed": (
        ("0", True),
        ("7", True),
        ("18446744073709551615", True),
        ("+7", True),
        ("-1", False),
        ("18446744073709551616", False),
        ("1e3", False),
        ("0x10", False),
        ("٣", False),
        ("", False),
        ("7.0", False),
        ("1_000", False),
        ("9" * 30, False),
        ("9" * 5000, False),
        ("nan", False),
    ),
    "--trials": (
        ("1", True),
        ("50", True),
        (" 20", True),
        ("0", False),
        ("-5", False),
        ("1000001", False),
        ("1000000000000", False),
        ("1e9", False),
        ("10**30", False),
        ("abc", False),
        ("", False),
        ("٣", False),
        ("9" * 25, False),
        ("inf", False),
    ),
    "--workers": (
        ("1", True),
        ("2", True),
        ("0", False),
        ("-1", False),
        ("1000", False),
        ("99999999999999999999", False),
        ("x", False),
        ("", False),
        ("1.5", False),
    ),
    "--rounds": (
        ("0", True),
        ("2", True),
        ("100", True),
        ("-1", False),
        ("101", False),
        ("10**30", False),
        ("x", False),
    ),
    "--format": (
        ("text", True),
        ("json", True),
        ("jsonl", True),
        ("xml", False),
        ("", False),
        ("TEXT", False),
    ),
    "--method": (
        ("exact", True),
        ("montecarlo", True),
        ("mc", False),
        ("", False),
        ("EXACT", False),
    ),
    "--ask": (("attacker", True), ("defender", True), ("both", True), ("nobody", False)),
}
COMMAND_OPTIONS = {
    "resolve": ("--seed", "--format", "--ask"),
    "odds": ("--seed", "--format", "--method", "--trials", "--workers", "--rounds"),
    "replay": (),
}
STRAY = ("--foo", "-x", "--trial", "--seed=3", "--trials=", "-", "--format", "--workers", "--")
EARLY_EXIT = ("--help", "-h", "--version")


@st.composite
def flag_cases(draw: st.DrawFn) -> Case:
    """A command with random options and values (the input itself valid)."""
    command = draw(
        st.sampled_from(
            ("resolve", "odds", "odds", "replay", "", "resolv", "ODDS", "--version", "--help")
        )
    )
    target_kind = draw(
        st.sampled_from(
            ("file", "file", "file", "stdin", "missing", "directory", "devnull", "empty", "long")
        )
    )
    target = {
        "file": FILE,
        "stdin": "-",
        "missing": "/nonexistent/battle.yaml",
        "directory": str(ROOT / "examples"),
        "devnull": "/dev/null",
        "empty": "",
        "long": "a" * 5000,
    }[target_kind]
    argv: list[str] = [command, target] if command else [target]
    invalid = command not in COMMAND_OPTIONS or target_kind not in ("file", "stdin")
    for _ in range(draw(st.integers(0, 4))):
        if draw(st.integers(0, 5)) == 0:
            stray = draw(st.sampled_from(STRAY))
            argv.append(stray)
            if stray == "--seed=3":
                invalid = invalid or command not in ("resolve", "odds")
            elif stray not in ("--", "--trial"):  # these depend on what follows
                invalid = True
            continue
        option = draw(st.sampled_from(sorted(OPTION_VALUES)))
        value, valid = draw(st.sampled_from(OPTION_VALUES[option]))
        if draw(st.integers(0, 5)) == 0:
            argv.append(f"{option}={value}")
        else:
            argv += [option, value]
        invalid = invalid or not valid or option not in COMMAND_OPTIONS.get(command, ())
    if any(arg in EARLY_EXIT for arg in argv):
        invalid = False  # --help may come before the bad option and end the run first
    if command == "odds" and target_kind != "stdin":
        # a short run however the method comes out: small Monte Carlo, one worker by default
        if "--trials" not in " ".join(argv):
            argv += ["--trials", "50"]
        if "--workers" not in " ".join(argv):
            argv += ["--workers", "1"]
    if command == "odds" and any(a.startswith("--trials") for a in argv):
        argv += ["--trials", "50"]  # the last one counts: never a long run
    scenario = Path(EXAMPLE).read_bytes()
    log = "\n".join(real_log(0, 1)).encode() + b"\n"
    content = log if command == "replay" else scenario
    stdin: bytes | None = b""
    if target_kind == "stdin":
        if command == "odds":
            stdin = to_json(LOG_SCENARIOS[0]).encode() + b"\n" + b"not json\n"
            argv += ["--trials", "50", "--workers", "1"]
        else:
            stdin = content
        if draw(st.integers(0, 5)) == 0:
            stdin = None  # closed
    elif "--ask" in " ".join(argv):
        stdin = draw(st.sampled_from((b"", b"1\n" * 50, b"x\n99\n\n", b"\xff\n", b"stay\n" * 9)))
    stdout_closed = draw(st.integers(0, 9)) == 0
    return Case(
        "flags",
        tuple(argv),
        stdin=stdin,
        file=content if target_kind == "file" else None,
        suffix=".jsonl" if command == "replay" else ".yaml",
        stdout_closed=stdout_closed,
        expect=REFUSED if invalid and not stdout_closed and stdin is not None else None,
        why=f"target: {target_kind}",
    )


def any_cases() -> st.SearchStrategy[Case]:
    """Every family, weighted towards scenarios (the largest space of bad input)."""
    return st.one_of(scenario_cases(), scenario_cases(), log_cases(), batch_cases(), flag_cases())
