"""Random TI4 battles as players enter them (issue 14): factions with their flagships and
mechs, faction and generic technologies, action cards, promissory notes, leaders, trade goods,
conditions, the system's wormholes and features, and policies (sustain first, last or in
order; cards played at once, later or never).

Everything is drawn from the rules data, so the mix grows as effects are implemented: an
effect whose handler is not implemented is never drawn, and a battle the engine still refuses
(a faction ability not implemented yet, say) is counted and drawn again (``draw``), so the
refusal rate is a measure of what is missing.

Used by ``benchmarks/crosscheck.py --ruleset ti4-factions`` (exact against Monte Carlo) and
``benchmarks/odds_speed.py --ruleset ti4-factions`` (speed).
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

from spacecombat.core.errors import RuleNotImplemented
from spacecombat.rulesets import parse_ti_scenario
from spacecombat.rulesets.ti4 import abilities as _abilities  # noqa: F401  (registers handlers)
from spacecombat.rulesets.ti4.abilities.base import HANDLERS
from spacecombat.rulesets.ti4.rules import load
from spacecombat.rulesets.ti4.setup import build

SHIPS = ("war_sun", "dreadnought", "cruiser", "carrier", "destroyer", "fighter")
GROUND = ("infantry", "mech")
UPGRADABLE = ("dreadnought", "cruiser", "carrier", "destroyer", "fighter", "infantry")
CARD_LISTS = {
    "action_card": "action_cards",
    "promissory_note": "promissory_notes",
    "leader": "leaders",
    "relic": "relics",
}


def _usable(combat: str, handler: str | None) -> bool:
    return combat != "rule" or handler in HANDLERS


def _units(rng: random.Random, kinds: tuple[str, ...], most: int) -> dict[str, int]:
    units: dict[str, int] = {}
    for _ in range(rng.randint(1, most)):
        unit = rng.choice(kinds)
        units[unit] = units.get(unit, 0) + 1
    return units


def _side(rng: random.Random, kinds: tuple[str, ...], most: int) -> dict[str, Any]:
    data = load()
    faction = rng.choice(sorted(data.factions)) if rng.random() < 0.8 else None
    units = _units(rng, kinds, most)
    if faction is not None and "dreadnought" in kinds and rng.random() < 0.4:
        units["flagship"] = 1
    side: dict[str, Any] = {"units": units}
    if faction is not None:
        side["faction"] = faction
    if rng.random() < 0.5:
        side["upgrades"] = rng.sample(UPGRADABLE, rng.randint(1, 2))
    techs = [
        t.id
        for t in data.technologies.values()
        if t.faction in (None, faction) and t.combat == "rule" and _usable(t.combat, t.handler)
    ]
    if techs and rng.random() < 0.5:
        side["technologies"] = rng.sample(sorted(techs), min(len(techs), rng.randint(1, 2)))
    for kind, key in CARD_LISTS.items():
        held = [
            c.id
            for c in data.cards.values()
            if c.kind == kind
            and c.combat == "rule"
            and _usable(c.combat, c.handler)
            # a player's own promissory notes are played by others; a leader is its faction's
            and (kind != "promissory_note" or c.faction != faction)
            and (kind != "leader" or c.faction == faction)
        ]
        if held and rng.random() < 0.35:
            side[key] = rng.sample(sorted(held), min(len(held), rng.randint(1, 2)))
    if rng.random() < 0.4:
        side["trade_goods"] = rng.randint(0, 4)
        side["influence"] = rng.randint(0, 4)
    needs = sorted(
        {n for key in CARD_LISTS.values() for c in side.get(key, []) for n in data.cards[c].needs}
    )
    for need in needs:  # keys a card held reads (cards.toml ``needs``): the setup requires them
        side[need] = _needed(rng, need, side)
    players = sorted(c.id for c in data.conditions.values() if c.scope == "player")
    if players and rng.random() < 0.2:
        side["conditions"] = [rng.choice(players)]
    policy: dict[str, Any] = {"sustain": rng.choice(["first", "last", "in_order"])}
    cards = [c for key in CARD_LISTS.values() for c in side.get(key, [])]
    if cards and rng.random() < 0.3:
        when: Any = rng.choice(["never", {"round": 2}])
        policy["play"] = {rng.choice(cards): when}
    side["policy"] = policy
    return side


def _needed(rng: random.Random, need: str, side: dict[str, Any]) -> Any:
    """A value of a side key a card held needs (cards.toml ``needs``)."""
    if need == "resources":
        return rng.randint(0, 6)
    if need == "technology_colours":
        technologies = load().technologies
        colours = {colour: rng.randint(0, 2) for colour in ("blue", "green", "red", "yellow")}
        for tech in side.get("technologies", []):
            colour = technologies[tech].color
            if colour in colours:
                colours[colour] += 1
        return colours
    raise ValueError(f"benchmarks/factions.py: no values for the side key {need!r}")


def random_faction_battle(rng: random.Random, most: int = 5) -> dict[str, Any]:
    """One battle, space (2/3) or invasion, at most ``most`` units a side (plus a flagship),
    not checked against the engine (``draw`` does that)."""
    data = load()
    systems = sorted(c.id for c in data.conditions.values() if c.scope == "system")
    system: dict[str, Any] = {}
    if rng.random() < 0.3:
        system["wormholes"] = [rng.choice(["alpha", "beta", "delta"])]
    if systems and rng.random() < 0.2:
        system["features"] = [rng.choice(systems)]
    if rng.random() < 0.65:
        battle: dict[str, Any] = {
            "ruleset": "ti4",
            "battle": "space",
            "attacker": _side(rng, SHIPS, most),
            "defender": _side(rng, SHIPS, most),
        }
        for side in (battle["attacker"], battle["defender"]):
            if rng.random() < 0.15:  # ground forces on the system's planets (The Alastor)
                side["planet_units"] = _units(rng, GROUND, 2)
        _alastor_with_planets(rng, battle["attacker"])
        _alastor_with_planets(rng, battle["defender"])
    else:
        battle = _invasion(rng, most)
    if system:
        battle["system"] = system
    _asking_only(battle)
    return battle


def _asking_only(battle: dict[str, Any]) -> None:
    """Leave out of each side's ``policy.play`` the names that ask that side nothing in this
    battle (an effect that never asks, or does not act in this kind of battle): the set-up
    refuses them (docs/rulings.md 27T-1). The names are drawn as before, so the battles drawn
    from a seed are otherwise the same."""
    data = load()
    for key in ("attacker", "defender"):
        plays = battle[key].get("policy", {}).get("play")
        if not plays:
            continue
        for name in list(plays):
            card = data.cards.get(name)
            handler = HANDLERS.get(card.handler if card and card.handler else name)
            if handler is None or handler.asks != name or battle["battle"] not in handler.battles:
                del plays[name]
        if not plays:
            del battle[key]["policy"]["play"]


def _invasion(rng: random.Random, most: int) -> dict[str, Any]:
    """An invasion of one planet, or of two (1 in 4), its ground forces split between them; an
    attacker's flagship now and then (the Matriarch commits fighters as ground forces)."""
    attacker = _side(rng, GROUND, most - 1)
    ground = dict(attacker["units"])
    attacker["units"]["carrier"] = 1
    attacker["units"]["dreadnought"] = rng.randint(0, 1)
    if "faction" in attacker and rng.random() < 0.3:
        attacker["units"]["flagship"] = 1
        if attacker["faction"] == "naalu":
            attacker["units"]["fighter"] = fighters = rng.randint(1, 2)
            ground["fighter"] = fighters
    defender = _side(rng, GROUND, most - 1)
    if rng.random() < 0.3:
        defender["units"]["pds"] = 1
    defending = defender.pop("units")
    names = ["P", "Q"] if rng.random() < 0.25 else ["P"]
    planets: list[dict[str, Any]] = [{"name": name, "defender": {}} for name in names]
    for unit, count in defending.items():
        for _ in range(count):
            held = rng.choice(planets)["defender"]
            held[unit] = held.get(unit, 0) + 1
    if len(planets) > 1 or "fighter" in ground:
        for unit, count in ground.items():  # every ground force (and fighter) lands somewhere
            for _ in range(count):
                commit = rng.choice(planets).setdefault("commit", {})
                commit[unit] = commit.get(unit, 0) + 1
    for planet in planets:
        if rng.random() < 0.3:
            planet["traits"] = ["cultural"]
    return {
        "ruleset": "ti4",
        "battle": "invasion",
        "attacker": attacker,
        "defender": defender,
        "planets": planets,
    }


def _alastor_with_planets(rng: random.Random, side: dict[str, Any]) -> None:
    """Now and then, a Nekro with The Alastor sends its planets' ground forces in too."""
    if side.get("faction") == "nekro" and side["units"].get("flagship") and rng.random() < 0.5:
        plays = side["policy"].setdefault("play", {})
        plays["nekro_flagship_ground_forces_fight"] = "with_planets"


def draw(
    rng: random.Random,
    make: Callable[[random.Random], dict[str, Any]] = random_faction_battle,
    tries: int = 200,
) -> tuple[dict[str, Any], list[str]]:
    """A battle the engine accepts and solves exactly, and why the battles drawn on the way were
    not: a rule refused by name (at set-up, or when the battle reaches it: a combination of
    effects not implemented together), or a battle beyond the exact engine's budgets."""
    from spacecombat import odds
    from spacecombat.analysis.budget import TooLarge

    refused: list[str] = []
    for _ in range(tries):
        battle = make(rng)
        try:
            build(parse_ti_scenario(battle))
            odds(battle, fallback=False)
        except RuleNotImplemented as exc:
            refused.append(str(exc))
            continue
        except TooLarge as exc:
            refused.append(f"too large for the exact engine: {exc}")
            continue
        return battle, refused
    raise RuntimeError(f"no battle accepted in {tries} draws; refused: {refused[:5]}")
