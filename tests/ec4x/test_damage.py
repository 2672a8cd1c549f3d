"""7.3.3 damage application: restrictions 1-3, criticals, force reduction, overkill; 7.1.2
fighters."""

from __future__ import annotations

from typing import Any

from tests.ec4x.helpers import fleet, make, partial, scenario, squadron


def against_two_destroyers(**fields: Any) -> dict[str, Any]:
    return scenario(
        fleet("A1", "alpha", squadron("DN")),
        fleet("B1", "beta", squadron("DD", state="crippled"), squadron("DD")),
        **fields,
    )


def test_destruction_protection_task_force_wide() -> None:
    """7.3.3 restriction 2: "Squadrons are not destroyed until all other squadrons in the Task
    Force are crippled": 28 hits on a crippled DD (DS 6) while another DD is undamaged."""
    played = partial(make(against_two_destroyers()), [("cer", 7), ("target", "B1-1")])
    assert played.of("destruction_prevented", unit="B1-1")
    assert not played.of("unit_destroyed")


def test_critical_bypasses_protection() -> None:
    """7.3.3 Critical Hits 1: "the squadron can be destroyed even if other squadrons in the
    Task Force remain undamaged"."""
    played = partial(make(against_two_destroyers()), [("cer", 9), ("target", "B1-1")])
    assert played.of("unit_destroyed", unit="B1-1")


def test_destroyed_once_all_others_are_crippled() -> None:
    data = against_two_destroyers()
    data["fleets"][1]["squadrons"][1]["state"] = "crippled"
    played = partial(make(data), [("cer", 7), ("target", "B1-1")])
    assert played.of("unit_destroyed", unit="B1-1")


def test_hits_below_ds_do_nothing() -> None:
    """Restriction 1: reduced only "If hits equal or exceed the target's DS"."""
    data = scenario(fleet("A1", "alpha", squadron("CA")), fleet("B1", "beta", squadron("CA")))
    played = partial(make(data), [("cer", 8), ("target", 0), ("cer", 0), ("target", 0)])
    # 12 hits against DS 13; 3 hits against DS 13
    assert not played.of("unit_crippled")


def test_equal_to_ds_cripples() -> None:
    data = scenario(fleet("A1", "alpha", squadron("BB")), fleet("B1", "beta", squadron("SD")))
    # SD tier 14: 3/4 x 35 = 26.25 -> 27 >= BB's 25; BB tier 10 fires crippled: 1/2 x 10 = 5
    played = partial(make(data), [("cer", 5), ("target", 0), ("cer", 3), ("target", 0)])
    assert played.of("unit_crippled", unit="A1-1")
    assert played.of("cer_rolled", unit="A1-1")[0]["strength"] == 10


def test_force_reduction_lowest_ds_squadron() -> None:
    """7.3.3 Critical Hits 2: a critical that cannot reduce its target reduces "the squadron
    with the lowest DS in the target Task Force" instead (the CT, DS 3)."""
    data = scenario(
        fleet("A1", "alpha", squadron("DD")),
        fleet("B1", "beta", squadron("DN"), squadron("CT")),
    )
    # beta's DN (tier 12): 7 hits cripple the DD; the DD (tier 4, AS 3): natural 9, 3 hits on
    # the DN (DS 30): the CT is crippled instead
    played = partial(make(data), [("cer", 0), ("target", 0), ("cer", 9), ("target", "B1-1")])
    assert played.of("force_reduction", unit="B1-2")
    assert played.of("unit_crippled", unit="B1-2", reason="force reduction")
    assert not played.of("unit_crippled", unit="B1-1")


def test_overkill_excess_lost() -> None:
    """7.3.3 Overkill: combined 24 hits on a DD with another DD undamaged: "the target is
    crippled but not destroyed. Excess damage beyond crippling threshold is lost"."""
    data = scenario(
        fleet("A1", "alpha", squadron("CA"), squadron("CA")),
        fleet("B1", "beta", squadron("DD"), squadron("DD")),
    )
    played = partial(make(data), [("cer", 7), ("target", "B1-1"), ("cer", 7), ("target", "B1-1")])
    applied = played.of("damage_applied", unit="B1-1")[0]
    assert applied["hits"] == 24
    assert applied["attackers"] == ["A1-1", "A1-2"]
    assert played.of("unit_crippled", unit="B1-1")
    assert not played.of("unit_destroyed")


def test_fighters_skip_the_crippled_state() -> None:
    """7.1.2 Fighter Exception: "Fighters transition directly from undamaged to destroyed";
    7.3.2.3: fighters target enemy fighters first; phase 2 is simultaneous."""
    data = scenario(
        fleet("A1", "alpha", squadron("CV", fighters=1)),
        fleet("B1", "beta", squadron("CV", fighters=1)),
    )
    played = partial(make(data), [("target", "B1-1F1"), ("target", "A1-1F1")])
    assert {e["unit"] for e in played.of("unit_destroyed")} == {"A1-1F1", "B1-1F1"}
    assert not played.of("unit_crippled")
    assert played.of("target_selected", unit="A1-1F1")[0]["bucket"] == 4
