"""The EC4X scenario format (scenario/ec4x.py): every bad input refused naming the field."""

from __future__ import annotations

from typing import Any

import pytest

from spacecombat.core.errors import ScenarioError
from spacecombat.rulesets.ec4x.options import parse_ec4x
from tests.ec4x.helpers import fleet, scenario, squadron


def refused(data: dict[str, Any]) -> ScenarioError:
    with pytest.raises(ScenarioError) as caught:
        parse_ec4x(data)
    return caught.value


def two() -> dict[str, Any]:
    return scenario(fleet("A1", "alpha", squadron("DD")), fleet("B1", "beta", squadron("DD")))


def test_round_trip() -> None:
    data = scenario(
        fleet(
            "A1",
            "alpha",
            squadron("DN", escorts={"CA": 2}),
            squadron("CV", fighters=3),
            squadron("RR", clk=2),
            scouts=[{"eli": 2, "count": 2}],
            spacelift={"TT": 2, "ET": 1},
            order={"code": 7, "target": "Vega"},
            roe=8,
        ),
        fleet("B1", "beta", squadron("DD")),
        system={"name": "Vega", "controller": "beta"},
        colony={"owner": "beta", "fighters": 2, "starbases": [{"state": "crippled", "eli": 2}]},
        seed=42,
        options={"max_rounds": 20},
    )
    parsed = parse_ec4x(data)
    again = parse_ec4x(parsed.model_dump(mode="json", exclude_none=True))
    assert again == parsed


def test_unknown_class() -> None:
    data = two()
    data["fleets"][1]["squadrons"][0]["flagship"] = "XX"
    error = refused(data)
    assert error.field == "fleets[1].squadrons[0].flagship"
    assert "unknown class 'XX'" in error.message


def test_flagship_without_command_rating() -> None:
    data = two()
    data["fleets"][0]["squadrons"][0]["flagship"] = "FS"
    error = refused(data)
    assert error.field == "fleets[0].squadrons[0].flagship"
    assert "cannot be a flagship" in error.message


def test_roe_of_11() -> None:
    data = two()
    data["fleets"][0]["roe"] = 11
    error = refused(data)
    assert error.field == "fleets[0].roe"
    assert "at most 10" in error.message


def test_fleet_of_unknown_house() -> None:
    data = two()
    data["fleets"][1]["owner"] = "gamma"
    error = refused(data)
    assert error.field == "fleets[1].owner"
    assert "not a house listed" in error.message


def test_diplomacy_unknown_and_twice() -> None:
    data = two()
    data["diplomacy"] = [{"houses": ["alpha", "gamma"], "status": "enemy"}]
    assert refused(data).field == "diplomacy[0].houses[1]"
    data["diplomacy"] = [
        {"houses": ["alpha", "beta"], "status": "enemy"},
        {"houses": ["beta", "alpha"], "status": "neutral"},
    ]
    error = refused(data)
    assert error.field == "diplomacy[1].houses"
    assert "are also diplomacy[0]; each pair at most once" in error.message


def test_duplicate_fleet_ids() -> None:
    data = two()
    data["fleets"][1]["id"] = "A1"
    assert refused(data).field == "fleets[1].id"


@pytest.mark.parametrize(
    ("order", "fields", "needs"),
    [
        (4, {"squadrons": [], "scouts": [{"eli": 1}]}, "combat ship(s)"),
        (7, {}, "loaded Troop Transports"),
        (8, {"spacelift": {"TT": 1}, "loaded_tt": 0}, "loaded Troop Transports"),
        (9, {"scouts": [{"eli": 1}]}, "exactly one Scout"),
        (12, {}, "one ETAC"),
        (15, {}, "a friendly colony system"),
    ],
)
def test_orders_need_what_6_2_says(order: int, fields: dict[str, Any], needs: str) -> None:
    """6.2 requirements table."""
    data = two()
    data["fleets"][0] |= {"order": order, **fields}
    error = refused(data)
    assert error.field == "fleets[0].order"
    assert needs in error.message


def test_escorts_beyond_command_rating() -> None:
    """7.3.1.4: CC is validated when a squadron is formed (ruling E36)."""
    data = two()
    data["fleets"][0]["squadrons"][0]["escorts"] = {"DD": 3}  # CC 6 > DD's CR 4
    error = refused(data)
    assert error.field == "fleets[0].squadrons[0].escorts"
    assert "CR 4" in error.message
    data["options"] = {"check_command_rating": False}
    parse_ec4x(data)


def test_carrier_capacity_by_aco() -> None:
    """Facts 3: CV carries 3/4/5 fighter squadrons at ACO I/II/III."""
    data = two()
    data["fleets"][0]["squadrons"][0] = squadron("CV", fighters=4)
    error = refused(data)
    assert error.field == "fleets[0].squadrons[0].fighters"
    data["houses"]["alpha"]["aco"] = 2
    parse_ec4x(data)


def test_unit_limit() -> None:
    data = two()
    data["fleets"][0]["squadrons"] = [squadron("DD") for _ in range(201)]
    error = refused(data)
    assert error.field == "houses.alpha"
    assert "limit is 200" in error.message


def test_colony_owner_controls_the_system() -> None:
    data = two()
    data["colony"] = {"owner": "alpha", "fighters": 1}
    assert refused(data).field == "colony.owner"


def test_unknown_option() -> None:
    data = two()
    data["options"] = {"no_such": 1}
    error = refused(data)
    assert error.field == "options.no_such"
    assert "max_rounds" in error.message
