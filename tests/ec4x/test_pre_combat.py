"""Before the first round: morale (7.1.4), detection and cloaking (7.1.3, 7.3.1.1)."""

from __future__ import annotations

from tests.ec4x.helpers import fleet, make, partial, play, scenario, squadron


def test_morale_is_drawn_per_house() -> None:
    """7.1.4: "the game rolls 1D20 to determine morale status" (ruling E35: per house)."""
    data = scenario(fleet("A1", "alpha", squadron("DD")), fleet("B1", "beta", squadron("DD")))
    data["houses"] = {"alpha": {"prestige": 50}, "beta": {"prestige": 70}}
    played = partial(make(data), [("morale", 13), ("morale", 10)])
    checked = played.of("morale_checked")
    assert [(c["house"], c["success"], c["all_cer"]) for c in checked] == [
        ("alpha", True, 1),
        ("beta", True, 1),
    ]
    assert checked[1]["auto_critical"] is True


def test_average_morale_boosts_one_random_squadron() -> None:
    """7.1.4 21-40: "+1 to CER for one random squadron"."""
    data = scenario(
        fleet("A1", "alpha", squadron("DD"), squadron("CA")), fleet("B1", "beta", squadron("DD"))
    )
    data["houses"]["alpha"] = {"prestige": 30, "morale_roll": 16}
    played = partial(make(data), [("morale_squadron", "A1-2"), ("cer", 0), ("target", 0)])
    assert played.of("morale_squadron_chosen")[0]["unit"] == "A1-2"
    assert played.of("cer_rolled", unit="A1-2")[0]["modifiers"] == {"morale_squadron": 1}


def test_auto_critical_on_first_attack() -> None:
    """7.1.4 61-80: "The first squadron to execute a valid attack ... automatically achieves
    critical hit effects"."""
    data = scenario(fleet("A1", "alpha", squadron("DD")), fleet("B1", "beta", squadron("DN")))
    data["houses"]["alpha"] = {"prestige": 70, "morale_roll": 10}
    played = partial(make(data), [("cer", 0), ("target", 0), ("cer", 0), ("target", 0)])
    rolled = played.of("cer_rolled", unit="A1-1")[0]
    assert rolled["critical"] is True
    assert rolled["auto_critical"] is True
    assert played.of("force_reduction")


def test_crisis_fleet_refuses_orders() -> None:
    """7.1.4 crisis: "One random fleet refuses orders and holds position" (ruling E44)."""
    data = scenario(fleet("A1", "alpha", squadron("DD")), fleet("B1", "beta", squadron("DD")))
    data["houses"]["alpha"] = {"prestige": -5}
    played = partial(make(data), [("refuses_orders", "A1")])
    assert played.of("orders_refused", fleet="A1")


def test_detection_with_d3_range() -> None:
    """Facts 4: ELI = CLK rolls 1D3 for the threshold: ELI2 vs CLK2 reads 14-16."""
    data = scenario(
        fleet("A1", "alpha", squadron("DD"), scouts=[{"eli": 2}]),
        fleet("B1", "beta", squadron("RR", clk=2)),
    )
    played = partial(make(data), [("detection_range", 2), ("detection", 14)])
    rolled = played.of("detection_rolled")[0]
    assert (rolled["threshold"], rolled["detected"]) == (15, False)


def test_all_cloaked_in_neutral_space_is_cancelled() -> None:
    """7.1.3: "If opposing forces are meeting in neutral territory and all pass undetected,
    they carry on with movement orders and combat is cancelled"."""
    data = scenario(fleet("A1", "alpha", squadron("RR")), fleet("B1", "beta", squadron("RR")))
    played = play(make(data), [])
    assert played.outcome["result"] == "cancelled"
    assert played.of("combat_cancelled")
    assert played.outcome["rounds"] == 0


def test_all_cloaked_defender_wins_initiative() -> None:
    """7.1.3: "the player defending their solar system wins initiative" (ruling E42: its
    raiders strike in phase 1 with Surprise +3, the others' in phase 3)."""
    data = scenario(
        fleet("A1", "alpha", squadron("RR")),
        fleet("B1", "beta", squadron("RR")),
        system={"name": "Vega", "controller": "beta"},
    )
    played = partial(make(data), [("cer", 0), ("target", 0)])
    assert played.of("initiative_won", house="beta")
    first = played.of("cer_rolled")[0]
    assert (first["unit"], first["modifiers"]) == ("B1-1", {"surprise": 3})


def test_undetected_movers_pass_through() -> None:
    """7.2: "Cloaked fleets with movement orders can continue if they pass stealth checks"."""
    data = scenario(
        fleet("A1", "alpha", squadron("DD")), fleet("B1", "beta", squadron("RR"), order=1)
    )
    played = play(make(data), [])
    assert played.of("fleet_passed_undetected", fleet="B1")
    assert played.outcome["rounds"] == 0
