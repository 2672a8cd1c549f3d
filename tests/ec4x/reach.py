"""Random EC4X battles in the exact engine's reach (issue 24): two houses, one to three
squadrons a side of any class (escorts, carriers with fighters, raiders), prestige in every
morale band, a colony with a starbase or fighters, and sieges of a colony with up to 4
batteries and 6 ground units."""

from __future__ import annotations

import random
from typing import Any

FLAGSHIPS = ["CT", "FG", "DD", "CL", "CA", "BC", "BB", "DN", "SD", "RR", "CV", "PB"]
#: one prestige in each morale band of the Morale Check Table (7.1.4), crisis included
PRESTIGE = [-5, 10, 30, 50, 70, 90]


def _squadron(rng: random.Random) -> dict[str, Any]:
    flagship = rng.choice(FLAGSHIPS)
    spec: dict[str, Any] = {"flagship": flagship}
    if rng.random() < 0.3:
        spec["state"] = "crippled"
    if flagship == "CV":
        spec["fighters"] = rng.randint(0, 2)
    elif rng.random() < 0.3:
        spec["escorts"] = {rng.choice(["DD", "FG", "CT"]): 1}
    return spec


def random_battle(rng: random.Random, n: int) -> dict[str, Any]:
    """One battle: ``n % 3`` picks neutral space (0), a colony's starbase or fighters (1) or
    a siege (2)."""
    kind = n % 3
    houses = {h: {"prestige": rng.choice(PRESTIGE)} for h in ("alpha", "beta")}
    scenario: dict[str, Any] = {
        "ruleset": "ec4x",
        "game_id": f"reach-{n}",
        "turn": 1,
        "system": {"name": "R"} if kind == 0 else {"name": "R", "controller": "beta"},
        "houses": houses,
        "diplomacy": [{"houses": ["alpha", "beta"], "status": "enemy"}],
    }
    alpha: dict[str, Any] = {
        "id": "A1",
        "owner": "alpha",
        "order": 3,
        "roe": rng.choice([6, 8, 10]),
        "squadrons": [_squadron(rng) for _ in range(rng.randint(1, 3))],
    }
    beta: dict[str, Any] = {
        "id": "B1",
        "owner": "beta",
        "order": 3 if kind == 0 else 5,
        "roe": rng.choice([6, 8, 10]),
        "squadrons": [_squadron(rng) for _ in range(rng.randint(1, 3))],
    }
    fleets = [alpha, beta]
    if kind == 1:
        colony: dict[str, Any] = {"owner": "beta"}
        if rng.random() < 0.5:
            colony["starbases"] = [{"state": "undamaged", "eli": 1}]
        else:
            colony["fighters"] = rng.randint(1, 2)
        scenario["colony"] = colony
        alpha["order"] = 6
    elif kind == 2:
        armies = rng.randint(0, 4)
        scenario["colony"] = {
            "owner": "beta",
            "shield": rng.randint(0, 3),
            "batteries": rng.randint(0, 4),
            "armies": armies,
            "marines": rng.randint(0, 6 - armies),
            "iu": 20,
            "pu": 50,
        }
        alpha["order"] = rng.choice([6, 7, 8])
        if alpha["order"] != 6:
            alpha["spacelift"] = {"TT": rng.randint(1, 3)}
        if rng.random() < 0.5:
            fleets = [alpha]
    scenario["fleets"] = fleets
    return scenario


def random_battles(count: int, seed: int = 24) -> list[dict[str, Any]]:
    rng = random.Random(seed)
    return [random_battle(rng, n) for n in range(count)]
