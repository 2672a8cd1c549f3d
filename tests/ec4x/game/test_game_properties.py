"""Hypothesis properties of the conflict phase on generated maps with random orders: fleets
move only as 6.1 allows; every ship is accounted for; a house's report holds only what it
could see; the same inputs give the same outputs."""

from __future__ import annotations

from collections import Counter
from itertools import pairwise
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from spacecombat.cli.turn import dumps
from spacecombat.rulesets.ec4x.turn.conflict import TurnResult, turn
from spacecombat.rulesets.ec4x.turn.game import parse_game
from spacecombat.rulesets.ec4x.turn.movement import can_use, move_problem
from spacecombat.rulesets.ec4x.turn.orders import ships_of
from spacecombat.rulesets.ec4x.turn.starmap import generate_map, lanes_of
from spacecombat.scenario.ec4x_game import GameState
from spacecombat.scenario.ec4x_orders import parse_orders

#: the orders drawn: all sixteen (06-08 play planetary combat, G21-G23)
CODES = tuple(range(16))


@st.composite
def games(draw: st.DrawFn) -> tuple[GameState, dict[str, Any]]:
    seed = draw(st.integers(min_value=0, max_value=2**32))
    state = generate_map(seed, draw(st.integers(min_value=12, max_value=20)), 2)
    raw = state.to_json()
    raw["diplomacy"] = [
        {"houses": ["alpha", "beta"], "status": draw(st.sampled_from(["enemy", "neutral"]))}
    ]
    # a scout of each house, alone, and each house's fleets sent somewhere
    for house in ("alpha", "beta"):
        home = state.houses[house].home
        raw["fleets"].append(
            {"id": f"{house}-9", "owner": house, "location": home, "scouts": [{"eli": 2}]}
        )
        # and a troop fleet, for invasions and blitzes (06-08)
        raw["fleets"].append(
            {
                "id": f"{house}-8",
                "owner": house,
                "location": home,
                "squadrons": [{"flagship": "CA"}],
                "spacelift": {"TT": 2},
            }
        )
    # fleets gathered around the hub and the homeworlds, so that houses meet and fight and
    # colonies are attacked
    homes = [state.houses[h].home for h in ("alpha", "beta")]
    near = ["S00", *lanes_of(state)["S00"], *(h for h in homes if h is not None)]
    for f in raw["fleets"]:
        f["location"] = draw(st.sampled_from(near))
    state = parse_game(raw)
    systems = [s.id for s in state.systems]
    orders: dict[str, list[dict[str, Any]]] = {}
    for f in state.fleets:
        code = draw(st.sampled_from(CODES))
        order: Any = code
        if code in (1, 14) or (3 <= code <= 12 and draw(st.booleans())):
            order = {"code": code, "target": draw(st.sampled_from(systems))}
        elif code == 13:
            mates = [g.id for g in state.fleets if g.owner == f.owner and g.id != f.id]
            order = {"code": 13, "target": draw(st.sampled_from(mates))}
        orders.setdefault(f.owner, []).append({"fleet": f.id, "order": order})
    return state, {"game_id": state.game_id, "turn": state.turn, "orders": orders}


def total(state: GameState) -> Counter[str]:
    out: Counter[str] = Counter()
    for f in state.fleets:
        out.update(ships_of(f))
    return out


def play(state: GameState, raw: dict[str, Any]) -> TurnResult:
    """A turn of legal orders never stops (issue 23; 07 and 08 together: ruling G25)."""
    return turn(state, parse_orders(raw, state))


SETTINGS = settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])


@SETTINGS
@given(game=games())
def test_fleets_move_only_as_6_1_allows(game: tuple[GameState, dict[str, Any]]) -> None:
    state, raw = game
    result = play(state, raw)
    for fid, path in result.moves.items():
        assert move_problem(state, fid, path) is None
    lanes = lanes_of(state)
    for f in result.state.fleets:  # retreats too use only lanes the fleet may use
        start = next((g for g in state.fleets if g.id == f.id), None)
        if start is not None and f.id not in result.moves and f.location != start.location:
            assert any(e.get("fleet") == f.id for e in result.reports[f.owner]["events"])
    for report in result.reports.values():
        for event in report["events"]:
            if event.get("event") == "retreated":
                path = event["path"]
                for a, b in pairwise(path):
                    assert b in lanes[a]


@SETTINGS
@given(game=games())
def test_every_ship_is_accounted_for(game: tuple[GameState, dict[str, Any]]) -> None:
    state, raw = game
    result = play(state, raw)
    after = total(result.state)
    for kind in ("destroyed", "salvaged", "consumed"):
        after.update(result.ledger.get(kind, {}))
    assert after == total(state)


@SETTINGS
@given(game=games())
def test_a_report_holds_only_what_its_house_could_see(
    game: tuple[GameState, dict[str, Any]],
) -> None:
    state, raw = game
    result = play(state, raw)
    for house, report in result.reports.items():
        own = {f.id for f in state.fleets if f.owner == house}
        assert all(f["owner"] == house for f in report["fleets"])
        assert all(c["colony"]["owner"] == house for c in report["colonies"])
        assert set(report["moves"]) <= own
        for battle in report["battles"]:
            # a colony's owner with no ship there takes part only by its planet (G21)
            assert house in battle["houses"] or "planetary" in battle
        for item in report["intelligence"]:
            assert item["fleet"] in own
        for event in report["events"]:
            assert event.get("fleet") is None or str(event["fleet"]).split(".r")[0] in own


@SETTINGS
@given(game=games())
def test_the_same_inputs_give_the_same_outputs(game: tuple[GameState, dict[str, Any]]) -> None:
    state, raw = game
    a, b = play(state, raw), play(state, raw)
    assert dumps(a.state.to_json()) == dumps(b.state.to_json())
    assert dumps(a.reports) == dumps(b.reports)


@st.composite
def sieges(draw: st.DrawFn) -> tuple[GameState, dict[str, Any]]:
    """A game of ``games`` with alpha's fleets at beta's homeworld under orders 06-08."""
    state, raw = draw(games())
    home = state.houses["beta"].home
    data = state.to_json()
    for f in data["fleets"]:
        if f["owner"] == "alpha" and not f["id"].endswith("-9"):
            f["location"] = home
    state = parse_game(data)
    orders = [
        {"fleet": f.id, "order": draw(st.sampled_from((6, 7, 8)))}
        for f in state.fleets
        if f.owner == "alpha" and not f.id.endswith("-9")
    ]
    raw["orders"]["alpha"] = [
        *orders,
        *(o for o in raw["orders"].get("alpha", []) if o["fleet"].endswith("-9")),
    ]
    return state, raw


@SETTINGS
@given(game=sieges())
def test_planetary_turns_account_for_every_ship_and_repeat(
    game: tuple[GameState, dict[str, Any]],
) -> None:  # G21-G23
    state, raw = game
    a, b = play(state, raw), play(state, raw)
    after = total(a.state)
    for kind in ("destroyed", "salvaged", "consumed"):
        after.update(a.ledger.get(kind, {}))
    assert after == total(state)
    assert dumps(a.state.to_json()) == dumps(b.state.to_json())
    assert dumps(a.reports) == dumps(b.reports)
    home = state.houses["beta"].home
    assert home is not None
    colony = a.state.system(home).colony()
    assert colony is not None
    assert colony.owner in ("alpha", "beta")
    assert (a.state.houses["beta"].home is None) == (colony.owner == "alpha")


def test_can_use_is_the_restricted_rule() -> None:  # a check of the helper the test relies on
    state = generate_map(1, 12, 2)
    assert can_use(state.fleets[0], "major")
