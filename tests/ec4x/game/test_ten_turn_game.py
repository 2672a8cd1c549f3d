"""Issue 23, "Done when": a 10-turn, 4-house game on a generated 60-system map, every fleet
given one of the sixteen orders of 6.2 each turn (all of them given over the game), plays to
the end without an abort: no legal set of orders ever stops a turn. Every turn's next state is
read back as the next turn's input (``parse_game``), and the game reaches the battles, sieges,
colonies, merges and salvage that the orders ask for."""

from __future__ import annotations

import random
from collections import Counter
from typing import Any

import pytest

from spacecombat.rulesets.ec4x.turn.conflict import turn
from spacecombat.rulesets.ec4x.turn.game import parse_game
from spacecombat.rulesets.ec4x.turn.starmap import generate_map, lanes_of
from spacecombat.scenario.ec4x_game import GameState
from spacecombat.scenario.ec4x_orders import parse_orders

pytestmark = pytest.mark.slow

HOUSES = ("alpha", "beta", "gamma", "delta")
TURNS = 10


def opening(seed: int) -> GameState:
    """The generated map with each house's two starting fleets, plus a battle fleet, a troop
    fleet (06-08), a scout (09-11) and an ETAC fleet (12), every house at war with the
    others."""
    raw = generate_map(seed, 60, len(HOUSES)).to_json()
    homes = {h: raw["houses"][h]["home"] for h in HOUSES}
    for house in HOUSES:
        at = homes[house]
        raw["fleets"] += [
            {
                "id": f"{house}-3",
                "owner": house,
                "location": at,
                "squadrons": [{"flagship": "BB", "escorts": {"DD": 2}}, {"flagship": "CA"}],
            },
            {
                "id": f"{house}-4",
                "owner": house,
                "location": at,
                "squadrons": [{"flagship": "CA"}],
                "spacelift": {"TT": 3},
            },
            {"id": f"{house}-5", "owner": house, "location": at, "scouts": [{"eli": 2}]},
            {
                "id": f"{house}-6",
                "owner": house,
                "location": at,
                "squadrons": [{"flagship": "DD"}],
                "spacelift": {"ET": 2},
            },
        ]
    raw["diplomacy"] = [
        {"houses": [a, b], "status": "enemy"} for i, a in enumerate(HOUSES) for b in HOUSES[i + 1 :]
    ]
    return parse_game(raw)


#: the orders dealt, in turn, to fleets without one (holding, 00): all sixteen, the attacks
#: on colonies (06-08) and moves toward them more often, so that houses meet
DECK = (7, 1, 6, 8, 3, 4, 5, 7, 9, 10, 11, 12, 13, 14, 6, 8, 0, 2, 15)


def orders_for(state: GameState, rng: random.Random, dealt: list[int]) -> dict[str, Any]:
    """An order for each fleet holding (00: new, or its last order finished or refused); the
    others keep their standing orders (6.2). Targets: the first foreign colony for 06-08 (so
    that several houses besiege one colony), an enemy colony drawn for 03-05 and 09-11, a
    colony-free system for 12, a system near for 01 and 14, a fleet of the same house for
    13."""
    systems = [s.id for s in state.systems]
    colonies = {
        s.id: p.colony.owner for s in state.systems for p in s.planets if p.colony is not None
    }
    lanes = lanes_of(state)
    orders: dict[str, list[dict[str, Any]]] = {}
    for fleet in sorted(state.fleets, key=lambda f: f.id):
        if fleet.order not in (None, 0):
            continue
        code = DECK[len(dealt) % len(DECK)]
        order: Any = code
        foreign = sorted(s for s, owner in colonies.items() if owner != fleet.owner)
        if code in (1, 14):
            order = {"code": code, "target": rng.choice(sorted(lanes[fleet.location]) or systems)}
        elif 6 <= code <= 8 and foreign:
            # every house against the first foreign colony: several houses meet at one
            order = {"code": code, "target": foreign[0]}
        elif 3 <= code <= 11 and foreign:
            order = {"code": code, "target": rng.choice(foreign)}
        elif code == 12:
            empty = sorted(set(systems) - set(colonies))
            order = {"code": 12, "target": rng.choice(empty)} if empty else 0
        elif code == 13:
            mates = sorted(
                g.id for g in state.fleets if g.owner == fleet.owner and g.id != fleet.id
            )
            order = {"code": 13, "target": rng.choice(mates)} if mates else 0
        dealt.append(order if isinstance(order, int) else order["code"])
        orders.setdefault(fleet.owner, []).append({"fleet": fleet.id, "order": order})
    return {"game_id": state.game_id, "turn": state.turn, "orders": orders}


@pytest.mark.parametrize("seed", [1, 2])
def test_a_ten_turn_four_house_game_with_every_order_plays_without_an_abort(seed: int) -> None:
    state = opening(seed)
    rng = random.Random(seed)
    dealt: list[int] = []
    seen: Counter[str] = Counter()
    battles = 0
    for t in range(TURNS):
        raw = orders_for(state, rng, dealt)
        result = turn(state, parse_orders(raw, state))
        battles += len(result.battles)
        for report in result.reports.values():
            seen.update(str(e.get("event")) for e in report["events"])
        # the next state is the next turn's input, as the turn command writes and reads it
        state = parse_game(result.state.to_json())
        assert state.turn == t + 2
    assert set(dealt) == set(range(16)), f"orders never given: {set(range(16)) - set(dealt)}"
    assert battles > 0
    assert seen["planetary_combat"] > 0, seen
