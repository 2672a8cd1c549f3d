"""What GET /api/v1/rulesets gives the page's EC4X form (issue 25, item 6): the orders of 6.2
with their names and requirements, the statuses of diplomacy (8.1), the colony's fields
(2.4.1, 7.4-7.6) and the system's, read from the scenario's models and 6.2's table."""

from __future__ import annotations

from typing import Any, get_args

from fastapi.testclient import TestClient

from spacecombat.core.limits import MAX_SEED
from spacecombat.rulesets.ec4x.turn.orders import NAMES
from spacecombat.scenario.ec4x import ORDERS_HERE, Status


def ec4x(client: TestClient) -> dict[str, Any]:
    answer = client.get("/api/v1/rulesets")
    assert answer.status_code == 200
    found: dict[str, Any] = answer.json()["ec4x"]
    return found


def test_the_orders_are_6_2s_with_their_requirements(client: TestClient) -> None:
    orders = {o["code"]: o for o in ec4x(client)["orders"]}
    assert list(orders) == list(range(16))
    assert {c: o["name"] for c, o in orders.items()} == NAMES
    assert orders[3] == {
        "code": 3,
        "name": "Patrol a System",
        "section": "6.2.4",
        "here": True,
        "needs": None,
    }
    # 6.2's requirements table: 04-07 combat ships, 07-08 loaded TTs, 09-11 one scout alone,
    # 12 an ETAC, 15 a friendly colony; 07 and 08 land on a colony (E62)
    assert orders[6]["needs"] == "combat ship(s)"
    assert orders[7]["needs"] == "combat ship(s) and loaded Troop Transports; a colony to land on"
    assert orders[8]["needs"] == "loaded Troop Transports; a colony to land on"
    assert orders[10]["needs"] == "exactly one Scout ship and nothing else"
    assert orders[12]["needs"] == "one ETAC"
    assert orders[15]["needs"] == "a friendly colony system"
    # E59: orders 00 and 03-12 are carried out in the battle's system
    assert [c for c, o in orders.items() if o["here"]] == list(ORDERS_HERE)


def test_diplomacy_colony_and_system_fields(client: TestClient) -> None:
    found = ec4x(client)
    assert found["diplomacy"]["fields"]["status"]["enum"] == list(get_args(Status))
    colony = found["colony"]["fields"]
    assert {"owner", "fighters", "starbases", "shield", "batteries", "armies", "marines"} <= set(
        colony
    )
    assert colony["shield"]["anyOf"][0]["maximum"] == 6
    assert found["colony"]["definitions"]["StarbaseSpec"]["properties"]["state"]["enum"] == [
        "undamaged",
        "crippled",
    ]
    assert set(found["system"]["fields"]) == {"name", "controller"}
    squadron = found["fleet"]["definitions"]["SquadronSpec"]["properties"]
    assert squadron["state"]["enum"] == ["undamaged", "crippled"]
    assert found["max_seed"] == str(MAX_SEED) == "18446744073709551615"
