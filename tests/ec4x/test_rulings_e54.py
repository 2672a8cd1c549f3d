"""The rulings added after the audit (docs/rulings.md E54-E61, and the readings added to E41,
E42, E52 and E53): each default and each other reading."""

from __future__ import annotations

from typing import Any

import pytest

from spacecombat.core.errors import ScenarioError
from spacecombat.rulesets.ec4x.options import parse_ec4x
from spacecombat.rulesets.ec4x.space_combat.capacity import capacity, check
from tests.ec4x.helpers import (
    Answer,
    fleet,
    make,
    partial,
    play,
    random_fallback,
    scenario,
    squadron,
)

VEGA_ALPHA = {"name": "Vega", "controller": "alpha"}


def with_options(data: dict[str, Any], **options: Any) -> dict[str, Any]:
    return data | {"options": options}


def colony_only(order: int = 3, **colony: Any) -> dict[str, Any]:
    """Alpha's colony defences alone (no alpha fleet) against an Enemy beta CA."""
    return scenario(
        fleet("B1", "beta", squadron("CA"), order=order),
        system=VEGA_ALPHA,
        colony={"owner": "alpha", **colony},
    )


# ---- E54: the Enemy mandate against a colony's defences --------------------------------------


@pytest.mark.parametrize("order", [0, 3])
@pytest.mark.parametrize("defences", [{"starbases": [{}]}, {"fighters": 2}])
def test_e54_enemy_fleet_fights_a_colony_defended_only_by_its_defences(
    order: int, defences: dict[str, Any]
) -> None:
    """7.3 "All fleets within a solar system are mandated to engage forces from houses with
    Enemy diplomatic status"; 7.2 "All applicable fleets and Starbases"."""
    played = play(make(colony_only(order, **defences)), fallback=random_fallback(1))
    formed = played.of("task_force_formed", house="alpha")
    assert formed
    assert formed[0]["fleets"] == []
    assert played.outcome["rounds"] >= 1


def test_e54_a_neutral_visitor_does_not_fight_the_colony() -> None:
    data = colony_only(3, starbases=[{}]) | {"diplomacy": []}
    played = play(make(data), [])
    assert played.outcome["rounds"] == 0
    assert not played.of("task_force_formed")


# ---- E53: colony units count at the end ------------------------------------------------------


def test_e53_colony_units_that_never_engaged_still_hold_the_system() -> None:
    """The colony's starbase stands: the result is shared with the neutral visitor."""
    data = colony_only(3, starbases=[{}], fighters=1) | {"diplomacy": []}
    played = play(make(data), [])
    assert played.outcome["result"] == "shared"
    assert played.house("alpha")["fate"] == "not_engaged"


def test_e53_colony_units_destroyed_do_not_hold() -> None:
    played = play(make(colony_only(3, fighters=1)), [("target", 0), ("cer", 7), ("target", 0)])
    assert played.of("unit_destroyed", unit="Vega-F1")
    assert played.outcome["result"] == "beta"


# ---- E42: the initiative is always applied ---------------------------------------------------


def test_e42_initiative_without_surprise_keeps_the_phases() -> None:
    data = scenario(
        fleet("A1", "alpha", squadron("RR")),
        fleet("B1", "beta", squadron("RR")),
        system={"name": "Vega", "controller": "beta"},
    )
    script: list[Answer] = [("cer", 0), ("target", 0)]
    for options, bonus in (({}, {"surprise": 3}), ({"surprise": "never"}, {"ambush": 4})):
        played = partial(make(with_options(data, **options)), script)
        first = played.of("cer_rolled")[0]
        assert (first["unit"], first["modifiers"]) == ("B1-1", bonus)
        assert played.state.initiative == 1


# ---- E55: colony units screen spacelift ------------------------------------------------------


def lift_at_colony() -> dict[str, Any]:
    return scenario(
        fleet("L1", "alpha", spacelift={"TT": 1}),
        fleet("B1", "beta", squadron("CA"), order=3),
        system=VEGA_ALPHA,
        colony={"owner": "alpha", "starbases": [{}]},
    )


def test_e55_colony_units_screen_spacelift_by_default() -> None:
    played = partial(make(lift_at_colony()), [])
    assert played.draws  # the battle goes on
    assert not played.of("screened_ships_destroyed")


def test_e55_colony_units_screen_false() -> None:
    played = partial(make(with_options(lift_at_colony(), colony_units_screen=False)), [])
    assert played.of("screened_ships_destroyed", house="alpha", fleet="L1")


# ---- E56: which squadrons of an undetected cloaked fleet ambush ------------------------------


def raider_escort(*squadrons: dict[str, Any]) -> dict[str, Any]:
    return scenario(fleet("A1", "alpha", *squadrons), fleet("B1", "beta", squadron("BB")))


@pytest.mark.parametrize(
    ("option", "ambushers"),
    [
        ("raider_flagship", ["A1-1"]),
        ("any_raider", ["A1-1", "A1-2"]),
        ("whole_fleet", ["A1-1", "A1-2", "A1-3", "A1-4"]),
    ],
)
def test_e56_ambush_squadrons(option: str, ambushers: list[str]) -> None:
    """Phase 1 (Ambush +4): the Raider flagship squadron; with any_raider also the CA with a
    Raider escort; with whole_fleet every squadron of the cloaked fleet."""
    data = raider_escort(
        squadron("RR"), squadron("CA", escorts={"RR": 1}), squadron("DD"), squadron("CV")
    )
    data = with_options(data, ambush_squadrons=option)
    played = partial(make(data), [("cer", 0), ("target", 0)] * 5)
    rolled = played.of("cer_rolled")
    assert [e["unit"] for e in rolled if e["modifiers"] == {"ambush": 4}] == ambushers
    # the others fire later: a raider flagship in phase 3, any other in phase 4
    assert rolled[len(ambushers)]["unit"] == ("A1-1" if "A1-1" not in ambushers else "B1-1")


def test_e56_default_a_raider_escort_alone_never_ambushes() -> None:
    data = raider_escort(squadron("CA", escorts={"RR": 1}))
    played = partial(make(data), [("cer", 0), ("target", 0)])
    assert played.of("cer_rolled")[0]["modifiers"] == {}
    ambush = partial(
        make(with_options(data, ambush_squadrons="any_raider")), [("cer", 0), ("target", 0)]
    )
    assert ambush.of("cer_rolled")[0]["modifiers"] == {"ambush": 4}


# ---- E57: which ELI units detect ------------------------------------------------------------


def spy_and_guard() -> dict[str, Any]:
    return scenario(
        fleet("S1", "alpha", scouts=[{"eli": 1}], order=9),
        fleet("G1", "alpha", squadron("DD"), scouts=[{"eli": 1}], order=5),
        fleet("A1", "alpha", squadron("DD")),
        fleet("B1", "beta", squadron("RR"), order=3),
        system=VEGA_ALPHA,
    )


def test_e57_only_eli_units_in_the_combat_detect() -> None:
    """The spy (09, E48) and the guard held back (05) do not detect by default."""
    played = partial(make(spy_and_guard()), [])
    assert played.draws[0].purpose == "cer"
    assert not played.of("detection_rolled")


def test_e57_detection_units_present() -> None:
    miss: list[Answer] = [("detection_range", 1), ("detection", 1)]
    played = partial(make(with_options(spy_and_guard(), detection_units="present")), miss * 2)
    assert [e["unit"] for e in played.of("detection_rolled")] == ["S1", "G1"]


def test_e57_a_starbase_detects_when_it_takes_part() -> None:
    data = scenario(
        fleet("B1", "beta", squadron("RR"), order=3),
        system=VEGA_ALPHA,
        colony={"owner": "alpha", "starbases": [{"eli": 1}]},
    )
    played = partial(make(data), [("detection", 20)])
    assert played.of("detection_rolled", unit="Vega-SB1", detected=True)


# ---- E41: spacelift at a restricted lane -----------------------------------------------------


def test_e41_spacelift_fleet_cannot_take_a_restricted_lane() -> None:
    """6.1 "Fleets containing ... Spacelift Command ships can not jump across restricted
    lanes": with spacelift_on_retreat: retreats the fleet with TTs stays whole by default."""
    data = scenario(
        fleet("A1", "alpha", squadron("CA"), spacelift={"TT": 1}, roe=0),
        fleet("A2", "alpha", squadron("CA"), roe=0),
        fleet("B1", "beta", squadron("CA")),
    )
    data["houses"]["alpha"]["retreat_lane"] = "restricted"
    script: list[Answer] = [("cer", 0), ("target", 0)] * 4
    played = partial(make(with_options(data, spacelift_on_retreat="retreats")), script)
    retreated = played.of("retreated")[0]
    assert (retreated["units"], retreated["stayed"]) == (["A2-1"], ["A1-1"])
    split = with_options(
        data, spacelift_on_retreat="retreats", restricted_lane_retreat="per_squadron"
    )
    retreated = partial(make(split), script).of("retreated")[0]
    assert (retreated["units"], retreated["stayed"]) == (["A1-1", "A2-1"], [])


def test_e41_destroyed_crippled_ships_free_their_fleet() -> None:
    """With stranded_crippled: destroyed the crippled squadron is lost and the rest leaves,
    whichever reading of restricted_lane_retreat."""
    data = scenario(
        fleet("A1", "alpha", squadron("CA", state="crippled"), squadron("CA"), roe=0),
        fleet("B1", "beta", squadron("CA")),
    )
    data["houses"]["alpha"]["retreat_lane"] = "restricted"
    script: list[Answer] = [("cer", 0), ("target", 0)] * 3
    for reading in ("per_fleet", "per_squadron"):
        options = {"stranded_crippled": "destroyed", "restricted_lane_retreat": reading}
        retreated = partial(make(with_options(data, **options)), script).of("retreated")[0]
        assert (retreated["units"], retreated["destroyed"]) == (["A1-2"], ["A1-1"])


# ---- E58: scouts as targets ------------------------------------------------------------------


def scouted() -> dict[str, Any]:
    return scenario(
        fleet("A1", "alpha", squadron("CA"), scouts=[{"eli": 2, "count": 2}]),
        fleet("B1", "beta", squadron("DD")),
    )


def test_e58_scouts_are_screened_by_default() -> None:
    battle = make(scouted())
    assert [u.uid for u in battle.setup.units] == ["A1-1", "B1-1"]


@pytest.mark.parametrize("bucket", [1, 2, 3])
def test_e58_scouts_as_one_targetable_unit(bucket: int) -> None:
    battle = make(with_options(scouted(), scout_targets=f"bucket_{bucket}"))
    unit = battle.setup.units[1]
    assert (unit.uid, unit.kind, unit.size, unit.attack, unit.defense, unit.bucket) == (
        "A1-SC",
        "scouts",
        2,
        2,
        4,
        bucket,
    )
    played = partial(battle, [("cer", 0), ("target", 0), ("cer", 0), ("target", 0)])
    selected: dict[str, Any] = played.of("target_selected", unit="B1-1")[0]
    # the first non-empty bucket: the scouts alone (1), with the CA (2), or the CA alone (3)
    assert ("A1-SC" in selected["candidates"]) == (bucket <= 2)


def test_e58_scouts_never_fire_and_take_their_bonus_with_them() -> None:
    """Destroyed, the scouts take their +1 CER with them (7.3.3); they never roll."""
    data = with_options(scouted(), scout_targets="bucket_1")
    round_: list[Answer] = [("cer", 0), ("target", 0), ("cer", 9), ("target", "A1-SC")]
    played = partial(make(data), [*round_, *round_, ("cer", 0), ("target", 0)])
    assert {e["unit"] for e in played.of("cer_rolled")} == {"A1-1", "B1-1"}
    assert played.of("unit_crippled", unit="A1-SC")
    assert played.of("unit_destroyed", unit="A1-SC")
    modifiers = [e["modifiers"] for e in played.of("cer_rolled", unit="A1-1")]
    assert modifiers == [{"scouts": 1}, {"scouts": 1}, {}]
    strength = played.of("strength_assessed")[0]["strength"]
    assert isinstance(strength, dict)
    assert strength["alpha"] == 12  # the scouts add no AS: they do not attack


def test_e58_scouts_lost_are_counted_once() -> None:
    data = with_options(scouted(), scout_targets="bucket_1")
    played = play(make(data), fallback=random_fallback(7))
    alpha = played.house("alpha")
    lost = bool(played.of("unit_destroyed", unit="A1-SC"))
    assert alpha["survivors"].get("SC", 0) == (0 if lost else 2)


# ---- E59: an order's target ------------------------------------------------------------------


@pytest.mark.parametrize("code", [0, 3, 5, 6, 12])
def test_e59_an_order_acting_here_targets_this_system(code: int) -> None:
    spec: dict[str, Any] = {"CA": 1} if code != 12 else {}
    data = scenario(
        fleet(
            "A1",
            "alpha",
            squadron("CA", escorts=spec),
            order={"code": code, "target": "Nowhere"},
            spacelift={"ET": 1},
        ),
        fleet("B1", "beta", squadron("DD")),
        system={"name": "Vega", "controller": "beta"},
    )
    with pytest.raises(ScenarioError) as caught:
        parse_ec4x(data)
    assert caught.value.field == "fleets[0].order.target"
    assert "Vega" in str(caught.value)
    data["fleets"][0]["order"]["target"] = "Vega"
    parse_ec4x(data)


@pytest.mark.parametrize("code", [1, 2, 13, 14])
def test_e59_orders_leading_elsewhere_may_name_another_place(code: int) -> None:
    data = scenario(
        fleet("A1", "alpha", squadron("CA"), order={"code": code, "target": "Deneb"}),
        fleet("B1", "beta", squadron("DD")),
    )
    parse_ec4x(data)


# ---- E52, E60: the morale auto-critical ------------------------------------------------------


def high_morale(*fleets: dict[str, Any], **fields: Any) -> dict[str, Any]:
    data = scenario(*fleets, **fields)
    data["houses"]["alpha"] = {"prestige": 70, "morale_roll": 20}
    return data


def test_e52_a_natural_9_first_attack_spends_the_auto_critical() -> None:
    data = high_morale(
        fleet("A1", "alpha", squadron("CA"), squadron("CA")), fleet("B1", "beta", squadron("SD"))
    )
    script: list[Answer] = [("cer", 0), ("target", 0), ("cer", 9), ("target", 0)]
    script += [("cer", 0), ("target", 0)]
    rolled = partial(make(data), script).of("cer_rolled", house="alpha")
    assert [(e["die"], e["critical"], e["auto_critical"]) for e in rolled] == [
        (9, True, True),
        (0, False, False),
    ]


def starbase_first() -> dict[str, Any]:
    """Alpha's colony starbase alone: its attack is alpha's first."""
    return high_morale(
        fleet("B1", "beta", squadron("CA"), order=3),
        system=VEGA_ALPHA,
        colony={"owner": "alpha", "starbases": [{}], "fighters": 1},
    )


@pytest.mark.parametrize(
    ("option", "fighter", "starbase"),
    [("cer_attack", False, True), ("squadron", False, False), ("any_attack", True, False)],
)
def test_e52_auto_critical_attack(option: str, fighter: bool, starbase: bool) -> None:
    data = with_options(starbase_first(), auto_critical_attack=option)
    # phase 2 the fighter, phase 4 the CA (tier 7), then the starbase
    script: list[Answer] = [("target", 0), ("cer", 0), ("target", 0), ("cer", 0), ("target", 0)]
    played = partial(make(data), script)
    assert bool(played.of("auto_critical_applied", unit="Vega-F1")) == fighter
    assert played.of("cer_rolled", unit="Vega-SB1")[0]["auto_critical"] == starbase


def against_a_starbase(**options: Any) -> dict[str, Any]:
    data = high_morale(
        fleet("A1", "alpha", squadron("CA")),
        system={"name": "Vega", "controller": "beta"},
        colony={"owner": "beta", "starbases": [{}]},
    )
    return with_options(data, **options)


def test_e60_an_auto_critical_against_a_starbase_is_rerolled() -> None:
    """7.4 "re-roll a second time. The second roll stands": the auto-critical is spent and
    the attack is a critical only if the second roll is a natural 9."""
    script: list[Answer] = [("cer", 0), ("target", 0), ("cer_reroll", 3)]
    played = partial(make(against_a_starbase()), script)
    first, second = played.of("cer_rolled", unit="A1-1")
    assert (first["auto_critical"], second["rerolled"], second["critical"]) == (True, True, False)
    assert played.of("damage_applied", unit="Vega-SB1")[0]["critical"] is False
    assert played.state.auto_used == 0b1
    again = partial(make(against_a_starbase()), [("cer", 4), ("target", 0), ("cer_reroll", 9)])
    assert again.of("damage_applied", unit="Vega-SB1")[0]["critical"] is True


def test_e60_natural_9_and_auto_critical_are_rerolled_once() -> None:
    script: list[Answer] = [("cer", 9), ("target", 0), ("cer_reroll", 3)]
    played = partial(make(against_a_starbase()), script)
    assert played.of("damage_applied", unit="Vega-SB1")[0]["critical"] is False


def test_e60_auto_critical_vs_starbase_stands() -> None:
    data = against_a_starbase(auto_critical_vs_starbase="stands")
    played = partial(make(data), [("cer", 0), ("target", 0)])
    assert not played.of("critical_rerolled")
    assert played.of("damage_applied", unit="Vega-SB1")[0]["critical"] is True
    # a natural 9 under it is re-rolled for its CER, and the attack stays critical
    nine = partial(make(data), [("cer", 9), ("target", 0), ("cer_reroll", 3)])
    assert nine.of("damage_applied", unit="Vega-SB1")[0]["critical"] is True


def test_e60_a_fighters_auto_critical_against_a_starbase_is_rerolled() -> None:
    data = high_morale(
        system={"name": "Vega", "controller": "beta"},
        colony={"owner": "beta", "starbases": [{}]},
        fleets=[fleet("A1", "alpha", squadron("CV", fighters=1))],
    )
    data = with_options(data, auto_critical_attack="any_attack")
    played = partial(make(data), [("target", 0), ("cer_reroll", 9)])
    assert played.of("critical_rerolled", unit="A1-1F1")
    assert played.of("auto_critical_applied", unit="A1-1F1")
    assert played.of("damage_applied", unit="Vega-SB1")[0]["critical"] is True


# ---- E61: fighter capacity -------------------------------------------------------------------


@pytest.mark.parametrize(
    ("pu", "fd", "expected"), [(0, 1, 0), (399, 1, 3), (300, 2, 4), (300, 3, 6), (1000, 2, 15)]
)
def test_e61_capacity(pu: int, fd: int, expected: int) -> None:
    """floor(PU/100) x FD multiplier (1.0, 1.5, 2.0), whole squadrons."""
    assert capacity(pu, fd) == expected


def test_e61_capacity_checked_at_each_casualty_assessment() -> None:
    data = colony_only(3, fighters=6, starbases=[{}], pu=300, fd=2)
    played = play(make(data), fallback=random_fallback(2))
    checks = played.of("capacity_checked")
    assert len(checks) == played.outcome["rounds"] >= 1
    first = checks[0]
    assert (first["colony"], first["house"], first["capacity"], first["checked"]) == (
        "Vega",
        "alpha",
        4,
        ["capacity", "starbases"],
    )
    assert first["violation"] is True  # 6 > 4, and 2 starbases needed for 6 squadrons
    assert played.outcome["colony"]["violation"] == checks[-1]["violation"]


def test_e61_without_pu_only_the_starbases_are_checked() -> None:
    battle = make(colony_only(3, fighters=5, starbases=[{"state": "crippled"}]))
    state = partial(battle, []).state
    found = check(battle.setup, state)
    assert found is not None
    assert (found["capacity"], found["checked"]) == (None, ["starbases"])
    assert (found["starbases_needed"], found["starbases_operational"]) == (1, 0)
    assert found["violation"] is True
    within = make(colony_only(3, fighters=5, starbases=[{}], pu=500))
    assert check(within.setup, partial(within, []).state)["violation"] is False  # type: ignore[index]


def test_e61_no_colony_no_check() -> None:
    data = scenario(fleet("A1", "alpha", squadron("CA")), fleet("B1", "beta", squadron("DD")))
    played = play(make(data), fallback=random_fallback(0))
    assert not played.of("capacity_checked")
    assert "colony" not in played.outcome
