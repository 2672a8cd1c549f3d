"""Battles for the fast path's guard (tests/ti4/test_fast_path_guard.py): for each effect (a
handler id of ``HANDLERS``), small TI4 battles in which BOTH players hold it, each player with at
least three unit types, drawn from a seeded ``random.Random`` so that a failure reproduces.

How a player holds an effect is read off the rules data (``holdings``): a faction ability
through the faction, a technology through ``technologies``, a law through ``laws`` (a player or a
planet elected when the law elects one), a unit ability through a unit of that card in the
fleet (its faction, an upgrade or another printing when the card needs one), a card through the
list of its kind (``action_cards``, ``promissory_notes``, ``leaders``, ``relics``), and a system
anomaly with a handler of its name through the system. So a new effect gets battles without
any change here. ``CONTEXT`` only adds what an effect needs to act at all (a kind of battle, a
condition, PDS to fire space cannon, somewhere to retreat to); an effect without an entry is
still generated, in space battles and invasions alike.
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, get_args

from spacecombat.rulesets.ti4.abilities.base import HANDLERS, acts_in_rounds
from spacecombat.rulesets.ti4.rules import Ti4Data, load
from spacecombat.scenario.schema import Anomaly

#: the players of a scenario
PLAYERS = ("attacker", "defender")
#: ships a space battle's fleets are drawn from (war suns and flagships: at most 1)
SHIPS = ("dreadnought", "cruiser", "carrier", "destroyer", "fighter", "war_sun")
#: ground forces (an invasion's, or carried in a space battle)
GROUND = ("infantry", "mech")
#: what an invasion's attacker brings besides ground forces (dreadnoughts bombard)
INVADERS = ("dreadnought", "carrier", "cruiser", "destroyer")
#: what an invasion's defender holds on the planet
HOLDERS = ("infantry", "mech", "pds", "space_dock")
#: the card lists of a side, by the data's card kind
CARD_FIELDS = {
    "action_card": "action_cards",
    "promissory_note": "promissory_notes",
    "leader": "leaders",
    "relic": "relics",
}
#: the planet of the generated invasions
PLANET = "P"

#: a retreat for each player, and somewhere to go (an adjacent system named "B")
RETREATING: dict[str, Any] = {
    "side": {"policy": {"retreat": {"after_round": 1}}},
    "system": {"adjacent": [{"name": "B", "units": ["attacker", "defender"]}]},
}


def _retreat_into(anomaly: str, *, empty: bool = False) -> dict[str, Any]:
    """Both players retreat after round 1, into the adjacent system "B" (with ``anomaly``;
    ``empty``: holding nothing of theirs)."""
    place: dict[str, Any] = {"name": "B", "anomaly": anomaly}
    if not empty:
        place["units"] = ["attacker", "defender"]
    return {"side": {"policy": {"retreat": {"after_round": 1}}}, "system": {"adjacent": [place]}}


#: what an effect needs to act in a battle, beyond being held (keys: ``kind``: "space" or
#: "invasion" only; ``side``: merged into each player's block, ``attacker`` and ``defender``
#: into that player's; ``system``: merged into the
#: system; ``units``: added to each player's fleet (an invasion's attacker brings no PDS, a
#: space battle's PDS are the defender's); ``planet``: merged into the invaded planet;
#: ``kept``: cards a player keeps (policy ``never``) in about half the battles)
CONTEXT: dict[str, dict[str, Any]] = {
    "antimass_deflectors": {"units": {"pds": 1}},
    "argent_destroyer2_afb_kills_infantry": {"kind": "space", "units": {"infantry": 1}},
    "argent_flagship_blocks_space_cannon": {"units": {"pds": 1}},
    "argent_mech_capacity_exempt": {"kind": "space", "units": {"carrier": 1}},
    "assimilate": {"kind": "invasion", "units": {"pds": 1}},
    "blitz": {"kind": "invasion"},
    "bunker": {"kind": "invasion"},
    "conventions_of_war": {"kind": "invasion", "planet": {"traits": ["cultural"]}},
    "creuss_flagship_delta_wormhole": RETREATING,
    "dark_energy_tap": _retreat_into("none", empty=True),
    "disable": {"kind": "invasion"},
    "empyrean_mech_cancel_action_card": {
        "side": {"conditions": ["empyrean_mech_adjacent"], "action_cards": ["solar_flare"]},
        "units": {"pds": 1},
    },
    "experimental_battlestation": {
        "kind": "space",
        "side": {"conditions": ["space_dock_adjacent"]},
    },
    # the space cannon's hits go to non-fighter ships: the opponent has fighters too
    "graviton_laser_system": {"units": {"pds": 1, "fighter": 2}},
    "iihq_modernization": {"system": {"features": ["mecatol_rex"]}},
    "infiltrate": {"kind": "invasion", "units": {"pds": 1}},
    "l1z1x_commander_2ram": {"kind": "invasion", "units": {"pds": 1}},
    "l1z1x_mech_bombardment": {"kind": "invasion"},
    "l4_disruptors": {"kind": "invasion", "units": {"pds": 1}},
    "magmus_reactor": _retreat_into("supernova"),
    # the attacker's token in the defender's fleet pool: only the attacker's flagship gets +2
    "mahact_flagship_bonus": {
        "attacker": {"conditions": ["command_token_in_fleet_pool_of_opponent"]}
    },
    "naalu_mech_bonus": {"side": {"conditions": ["relic_fragment"]}},
    "naalu_mech_omega_blocks_afb": {"kind": "space", "units": {"fighter": 1, "destroyer": 1}},
    "nekro_mech_bonus": {"side": {"conditions": ["assimilator_token"]}},
    # the defender's Parley sends the ground forces back (no combat) unless it is kept
    "parley": {"kind": "invasion", "kept": ["parley"]},
    "plasma_scoring": {"units": {"pds": 1}},
    "rickar_rickani": {"side": {"conditions": ["home_system"]}},
    "saar_floating_factory": {"kind": "space"},
    "scramble_frequency": {"units": {"pds": 1}},
    "shared_research": _retreat_into("nebula"),
    "solar_flare": {"kind": "space", "units": {"pds": 1}},
    "strike_wing_ambuscade": {"units": {"pds": 1}},
    "ta_zern": {"units": {"pds": 1}},
    "trrakan_aun_zulok": {"units": {"pds": 1}},
    "ul_the_progenitor": {"side": {"conditions": ["home_system"]}},
    "voidborn": _retreat_into("nebula"),
    "waylay": {"kind": "space", "units": {"fighter": 1, "destroyer": 1}},
    # a bombardment that destroys infantry
    "x89_bacterial_weapon_omega": {"kind": "invasion", "units": {"dreadnought": 1, "infantry": 2}},
    # Greyfire Mutagen held against the Yin keeps their faction abilities (Devotion,
    # Indoctrination: they act in the rounds) out of the battle
    "yin_mech_deploy": {
        "kind": "invasion",
        "side": {"influence": 3, "promissory_notes": ["greyfire_mutagen"]},
    },
    # effects that act in the rounds: targeted battles for the mutation test
    "winnu_flagship_dice": {"kind": "space"},
    "sardakk_flagship_bonus": {"kind": "space"},
    "jolnar_flagship_extra_hits": {"kind": "space"},
    "naazrokha_flagship_mech_extra_die": {"kind": "space", "units": {"mech": 1}},
    "jolnar_mech_ignore_fragile": {"kind": "invasion"},
    "l1z1x_flagship_hits_non_fighters": {"kind": "space", "units": {"fighter": 2}},
    "publicize_weapon_schematics": {"kind": "space", "units": {"war_sun": 1}},
    "nomad_mech_sustain_for_ships": {"kind": "space", "units": {"mech": 1}},
    "raid_formation": {"kind": "space", "units": {"destroyer": 1, "fighter": 2}},
    "maneuvering_jets": {"units": {"pds": 1}},
    "reveal_prototype": {
        "side": {"resources": 6, "technology_colours": {"green": 2, "yellow": 2, "red": 2}}
    },
    # the Nekro attacker has upgrades to gain from the defender
    # Harrow bombards again after each round of the ground combat
    "harrow": {"kind": "invasion", "units": {"dreadnought": 1, "infantry": 2}},
    "intercept": {**RETREATING, "kind": "space"},
    # played in round 2: in round 1 they act before the first roll (the graph's part)
    "rout": {
        "kind": "space",
        "system": RETREATING["system"],
        "side": {"policy": {"play": {"rout": {"round": 2}}}},
    },
    "skilled_retreat": {
        "kind": "space",
        "system": RETREATING["system"],
        "side": {"policy": {"play": {"skilled_retreat": {"round": 2}}}},
    },
    "technological_singularity": {
        "kind": "space",
        "defender": {"upgrades": ["carrier", "cruiser", "destroyer", "dreadnought", "fighter"]},
    },
}


@dataclass(frozen=True)
class Holding:
    """How a player holds an effect: ``side`` is merged into the player's block, ``scenario``
    into the scenario (a law, an anomaly), ``units`` added to the player's fleet (a unit whose
    card has the ability)."""

    source: str
    side: Mapping[str, Any] = field(default_factory=dict)
    scenario: Mapping[str, Any] = field(default_factory=dict)
    units: Mapping[str, int] = field(default_factory=dict)


def holdings(handler: str, data: Ti4Data | None = None) -> list[Holding]:
    """Every way the rules data lets a player hold ``handler`` (a handler id)."""
    data = data or load()
    found: list[Holding] = []
    for faction in data.factions.values():
        if any(a.handler == handler and a.combat == "rule" for a in faction.abilities):
            found.append(Holding(f"faction {faction.id}", side={"faction": faction.id}))
    for tech in data.technologies.values():
        if tech.handler == handler and tech.combat == "rule":
            side: dict[str, Any] = {"technologies": [tech.id]}
            found.append(Holding(f"technology {tech.id}", side=side))
    for law in data.laws.values():
        if law.handler == handler and law.combat == "rule":
            found.append(Holding(f"law {law.id}", scenario={"laws": [law.id]}))
    for unit in data.units.values():
        if any(a.handler == handler and a.combat == "rule" for a in unit.abilities):
            way = _unit_holding(data, unit.id)
            if way is not None:
                found.append(way)
    for card in data.cards.values():
        if card.handler == handler and card.combat == "rule":
            found.append(Holding(f"card {card.id}", side={CARD_FIELDS[card.kind]: [card.id]}))
    if handler in get_args(Anomaly):
        found.append(Holding(f"anomaly {handler}", scenario={"system": {"anomaly": handler}}))
    return found


def _unit_holding(data: Ti4Data, ident: str) -> Holding | None:
    """A unit of card ``ident`` in the fleet: its faction, and the upgrade or the printing
    (``cards``) that makes the faction use that card for its type; ``None`` for a card no
    scenario names (the Z-Grav Eidolon, which a Eidolon becomes during the battle)."""
    unit = data.units[ident]
    side: dict[str, Any] = {}
    if unit.faction is not None:
        side["faction"] = unit.faction
        usual = data.faction_card(unit.faction, unit.type, 1)
        upgraded = data.faction_card(unit.faction, unit.type, 2)
        if upgraded is not None and upgraded.id == ident and (usual is None or usual.id != ident):
            side["upgrades"] = [unit.type]
        elif usual is not None and usual.id != ident:
            if not unit.source.startswith("codex"):
                return None  # not a card a player chooses (the flipped side of a mech)
            side["cards"] = [ident]
    elif unit.replaces is not None and unit.replaces.endswith("2"):
        side["upgrades"] = [unit.type]
    return Holding(f"unit {ident}", side=side, units={unit.type: 1})


def fast_path_candidates() -> list[str]:
    """Every registered handler id (the guard decides which the fast path accepts)."""
    return sorted(HANDLERS)


def _pick(rng: random.Random, pool: tuple[str, ...], least: int, most: int) -> dict[str, int]:
    kinds = rng.sample(pool, min(len(pool), rng.randint(least, most)))
    return {k: (1 if k in ("war_sun", "pds", "flagship") else rng.randint(1, 2)) for k in kinds}


def _merge(into: dict[str, Any], extra: Mapping[str, Any]) -> None:
    """Merge ``extra`` into ``into``: lists are joined (without repeats), dicts merged."""
    for key, value in extra.items():
        if isinstance(value, Mapping):
            _merge(into.setdefault(key, {}), value)
        elif isinstance(value, list):
            known = into.setdefault(key, [])
            known += [v for v in value if v not in known]
        else:
            into[key] = value


def battle(handler: str, rng: random.Random, holding: Holding, kind: str) -> dict[str, Any]:
    """One battle of ``kind`` in which both players hold ``handler`` through ``holding``. Unit
    types whose card (of the player's faction) has another ability that acts in the rounds are
    left out, so that the battle can be in product form when ``handler`` allows it."""
    context = CONTEXT.get(handler, {})
    scenario: dict[str, Any] = {"ruleset": "ti4", "battle": kind}
    sides: dict[str, dict[str, Any]] = {}
    wanted = {**holding.units, **context.get("units", {})}
    for player in PLAYERS:
        block: dict[str, Any] = {}
        _merge(block, holding.side)
        _merge(block, context.get("side", {}))
        _merge(block, context.get(player, {}))
        banned = _acting_units(block.get("faction"), handler) - set(wanted)
        if kind == "space":
            units = _pick(rng, _without(SHIPS, banned), 3, 3)
            if rng.random() < 0.3 and _without(GROUND, banned):
                units.update(_pick(rng, _without(GROUND, banned), 1, 1))
        elif player == "attacker":
            units = {
                **_pick(rng, _without(INVADERS, banned), 2, 2),
                **_pick(rng, _without(GROUND, banned), 1, 1),
            }
        else:
            units = _pick(rng, _without(HOLDERS, banned), 3, 3)
        for unit, count in wanted.items():
            if unit == "pds" and (player == "attacker" or kind == "invasion"):
                # an invasion's attacker brings no structures; the defender's are on the planet
                if player == "defender":
                    units[unit] = count
                continue
            if kind == "invasion" and player == "defender" and unit not in HOLDERS:
                continue
            units[unit] = max(units.get(unit, 0), count)
        block["units"] = units
        policy: dict[str, Any] = {}
        if rng.random() < 0.5:
            policy["sustain"] = rng.choice(["first", "last"])
        for card in context.get("kept", []):
            if rng.random() < 0.5:
                policy.setdefault("play", {})[card] = "never"
        _merge(block, {"policy": policy} if policy else {})
        sides[player] = block
    scenario["attacker"] = sides["attacker"]
    scenario["defender"] = sides["defender"]
    _merge(scenario, holding.scenario)
    if "system" in context:
        _merge(scenario.setdefault("system", {}), context["system"])
    for law in scenario.get("laws", []):
        elect = load().laws[law].elect
        if elect == "player":
            scenario.setdefault("elected", {})[law] = rng.choice(PLAYERS)
        elif elect == "planet":
            scenario.setdefault("elected", {})[law] = "Elsewhere"
    if kind == "invasion":
        defender = scenario["defender"]
        planet: dict[str, Any] = {"name": PLANET, "defender": defender.pop("units")}
        _merge(planet, context.get("planet", {}))
        scenario["planets"] = [planet]
    # capacity is not what these battles test (docs/rulings.md R31)
    scenario["options"] = {"check_capacity_before_battle": False}
    return scenario


def _without(pool: tuple[str, ...], banned: set[str]) -> tuple[str, ...]:
    return tuple(u for u in pool if u not in banned)


def _acting_units(faction: str | None, handler: str) -> set[str]:
    """The unit types of ``faction`` whose cards have an ability, other than ``handler``, that
    acts in the rounds."""
    if faction is None:
        return set()
    return {
        unit.type
        for unit in load().units.values()
        if unit.faction == faction
        and any(
            a.handler in HANDLERS
            and a.handler != handler
            and acts_in_rounds(HANDLERS[a.handler](None))
            for a in unit.abilities
        )
    }


def kinds(handler: str) -> tuple[str, ...]:
    """The kinds of battle ``handler`` is generated in."""
    allowed = tuple(k for k in ("space", "invasion") if k in HANDLERS[handler].battles)
    wanted = CONTEXT.get(handler, {}).get("kind")
    return (wanted,) if wanted in allowed else allowed


def battles(handler: str, count: int, seed: int = 0) -> list[tuple[str, dict[str, Any]]]:
    """``count`` battles (each with a label) in which both players hold ``handler``: each way of
    holding it, each kind of battle, in turn."""
    rng = random.Random(f"{handler}:{seed}")
    ways = holdings(handler)
    out: list[tuple[str, dict[str, Any]]] = []
    for i in range(count):
        holding = ways[i % len(ways)]
        kind = kinds(handler)[(i // len(ways)) % len(kinds(handler))]
        out.append(
            (f"{handler}#{i} ({holding.source}, {kind})", battle(handler, rng, holding, kind))
        )
    return out
