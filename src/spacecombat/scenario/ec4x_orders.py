"""An EC4X orders file: each house's orders for one turn (6.2), checked against the game state.

Format (JSON; ``roe`` optional; ``via``, order 01's waypoints, optional: ruling G34)::

    {"game_id": "ec4x-demo", "turn": 1,
     "orders": {"alpha": [{"fleet": "alpha-1", "order": {"code": 1, "target": "S04",
                                                         "via": ["S02"]}},
                          {"fleet": "alpha-2", "order": 0, "roe": 8}],
                "beta": []}}

Bad input is refused with ``ScenarioError(field, message)`` naming the first bad field: a wrong
``game_id`` or ``turn``, a house not in the game, a fleet that does not exist or is another
house's, a fleet given two orders, a target that is not a system (or, for order 13, not a fleet
of the same house). An order whose *requirement* (6.2's table) is not met is not bad input: the
conflict phase refuses it, the fleet holds, and the house's report names the requirement.
Fleets without an order keep their standing order (the state's ``fleets[].order``).
"""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

from pydantic import BaseModel, ConfigDict, Field, StrictInt, ValidationError

from spacecombat.core.errors import ScenarioError
from spacecombat.core.limits import MAX_STATE_BYTES, shown
from spacecombat.scenario.ec4x import OrderSpec
from spacecombat.scenario.ec4x_game import (
    JOIN_ORDER,
    ORDERS_TO_A_SYSTEM,
    ORDERS_WITHOUT_TARGET,
    GameState,
    Id,
    first_error,
    pattern_message,
    waypoint_problem,
)
from spacecombat.scenario.schema import Name, _path, read_document, say

Code = Annotated[StrictInt, Field(ge=0, le=15)]


class _Spec(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


class FleetOrder(_Spec):
    """One fleet's order for the turn: a code 00-15 or ``{code, target}``, and its ROE."""

    fleet: Id
    order: Code | OrderSpec
    roe: Annotated[StrictInt, Field(ge=0, le=10)] | None = None

    @property
    def code(self) -> int:
        return self.order if isinstance(self.order, int) else self.order.code

    @property
    def target(self) -> str | None:
        return None if isinstance(self.order, int) else self.order.target


class OrdersFile(_Spec):
    """Every house's orders for one turn of one game."""

    game_id: Name
    turn: Annotated[StrictInt, Field(ge=1, le=1_000_000)]
    orders: dict[Id, tuple[FleetOrder, ...]] = Field(default_factory=dict)

    def by_fleet(self) -> dict[str, FleetOrder]:
        """Each ordered fleet's order."""
        return {o.fleet: o for given in self.orders.values() for o in given}


def parse_orders(data: object, state: GameState) -> OrdersFile:
    """Validate decoded orders for ``state``'s turn; ``ScenarioError`` names the first bad
    field."""
    if not isinstance(data, dict):
        raise ScenarioError("orders", "an orders file is a mapping of keys to values")
    try:
        orders = OrdersFile.model_validate(data)
    except ValidationError as exc:
        first = first_error(exc.errors())
        if first["type"] == "string_pattern_mismatch":
            message = pattern_message(first)
        elif first["type"] == "order_kind":
            message = str(first["msg"])
        else:
            message = say(first, OrdersFile)
        raise ScenarioError(_path(first["loc"]), message) from exc
    _check(orders, state)
    return orders


def load_orders(path: str | Path, state: GameState) -> OrdersFile:
    """Read a JSON (or YAML) orders file, within ``MAX_STATE_BYTES`` (an orders file for the
    largest game)."""
    return parse_orders(read_document(path, MAX_STATE_BYTES), state)


def _check(o: OrdersFile, state: GameState) -> None:
    if o.game_id != state.game_id:
        raise ScenarioError(
            "game_id", f"{shown(o.game_id)} is not the state's game ({shown(state.game_id)})"
        )
    if o.turn != state.turn:
        raise ScenarioError(
            "turn", f"orders for turn {o.turn}, but the state is about to play turn {state.turn}"
        )
    fleets = {f.id: f for f in state.fleets}
    systems = {s.id for s in state.systems}
    seen: dict[str, str] = {}
    for house, given in o.orders.items():
        at = f"orders.{house}" if house.isidentifier() and len(house) <= 40 else "orders"
        if house not in state.houses:
            raise ScenarioError(
                at, f"{shown(house)} is not a house of the game ({', '.join(state.houses)})"
            )
        for i, entry in enumerate(given):
            field = f"{at}[{i}]"
            fleet = fleets.get(entry.fleet)
            if fleet is None:
                raise ScenarioError(
                    f"{field}.fleet", f"{shown(entry.fleet)} is not a fleet of the game"
                )
            if fleet.owner != house:
                raise ScenarioError(
                    f"{field}.fleet", f"{entry.fleet} belongs to {fleet.owner}, not {house}"
                )
            if entry.fleet in seen:
                raise ScenarioError(
                    f"{field}.fleet", f"{entry.fleet} already has an order ({seen[entry.fleet]})"
                )
            seen[entry.fleet] = field
            if isinstance(entry.order, OrderSpec) and (
                found := waypoint_problem(entry.order, systems)
            ):
                raise ScenarioError(f"{field}.order.{found[0]}", found[1])
            target = entry.target
            if entry.code in ORDERS_WITHOUT_TARGET and target is not None:
                raise ScenarioError(
                    f"{field}.order.target",
                    f"order {entry.code:02d} finds its own place (6.2); leave its target out",
                )
            if entry.code in (*ORDERS_TO_A_SYSTEM, JOIN_ORDER) and target is None:
                what = "the fleet to join" if entry.code == JOIN_ORDER else "the system"
                raise ScenarioError(
                    f"{field}.order", f"order {entry.code:02d} needs a target: {what} (6.2)"
                )
            if target is None:
                continue
            if entry.code == JOIN_ORDER:
                host = fleets.get(target)
                if host is None or host.owner != house or target == entry.fleet:
                    raise ScenarioError(
                        f"{field}.order.target",
                        f"{shown(target)} is not another fleet of {house} (order 13 joins "
                        "another fleet of the same house, 6.2.14)",
                    )
            elif target not in systems:
                raise ScenarioError(
                    f"{field}.order.target", f"{shown(target)} is not a system of the map"
                )
