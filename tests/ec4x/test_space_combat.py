"""7.3.1 initiative phases and CR tiers; 7.3.4 rounds and termination."""

from __future__ import annotations

from tests.ec4x.helpers import answered, fleet, make, partial, play, scenario, squadron


def test_undetected_raiders_strike_first_with_ambush() -> None:
    """7.3.1.1: undetected raiders attack in phase 1 with +4 (7.3.3 Ambush, first round)."""
    data = scenario(
        fleet("A1", "alpha", squadron("DN")),
        fleet("B1", "beta", squadron("RR", clk=5)),
    )
    played = partial(make(data), [("cer", 0), ("target", 0)])
    first = played.of("cer_rolled")[0]
    assert first["unit"] == "B1-1"
    assert first["modifiers"] == {"ambush": 4}
    assert first["cer"] == "1/2"  # 0 + 4 = 4


def test_detected_raiders_attack_in_phase_3_without_bonus() -> None:
    """7.3.1.3: a detected raider fleet "attacks in Phase 3 instead", before phase 4."""
    data = scenario(
        fleet("A1", "alpha", squadron("DN"), scouts=[{"eli": 5, "count": 6}]),
        fleet("B1", "beta", squadron("RR", clk=1)),
    )
    # ELI 5 against CLK 1: lower bound 1, any d20 detects
    played = partial(make(data), [("detection", 1), ("cer", 0), ("target", 0)])
    assert played.of("detection_rolled")[0]["detected"] is True
    first = played.of("cer_rolled")[0]
    assert (first["unit"], first["modifiers"]) == ("B1-1", {})


def test_cr_tiers_highest_first_and_destroyed_do_not_fire() -> None:
    """7.3.1.4: "Squadrons attack in descending order by flagship CR"; "Destroyed squadrons
    do not return fire in subsequent CR tiers"."""
    data = scenario(
        fleet("A1", "alpha", squadron("DN"), squadron("DD", state="crippled")),
        fleet("B1", "beta", squadron("DD", state="crippled")),
    )
    # the DN (tier 12) destroys beta's only squadron (crippled, no other squadron): over
    played = play(make(data), [("cer", 7), ("target", 0)])
    assert played.of("unit_destroyed", unit="B1-1")
    assert [e["unit"] for e in played.of("cer_rolled")] == ["A1-1"]
    assert played.outcome["result"] == "alpha"
    assert played.outcome["rounds"] == 1


def test_rounds_start_with_round_started() -> None:
    """7.3.4: combat continues in rounds; each starts with ``round_started``."""
    data = scenario(fleet("A1", "alpha", squadron("CA")), fleet("B1", "beta", squadron("CA")))
    script = [("cer", 0), ("target", 0), ("cer", 0), ("target", 0)] * 2
    played = partial(make(data), script)
    assert [e["round"] for e in played.of("round_started")] == [1, 2, 3]


def test_equal_cr_simultaneous() -> None:
    """7.3.1.4 step 2: equal CR attacks simultaneously: both crippled Planet-Breakers fire
    (AS 50 halved: 25 >= DS 20) and both are destroyed."""
    data = scenario(
        fleet("A1", "alpha", squadron("PB", state="crippled")),
        fleet("B1", "beta", squadron("PB", state="crippled")),
    )
    played = play(make(data), [("cer", 8), ("target", 0), ("cer", 8), ("target", 0)])
    assert len(played.of("unit_destroyed")) == 2
    assert played.outcome["result"] == "none"
    assert {h["fate"] for h in played.outcome["houses"].values()} == {"destroyed"}


def test_no_combat_between_neutral_houses() -> None:
    """7.3: only hostile houses engage; neutral fleets in neutral space do not."""
    data = scenario(fleet("A1", "alpha", squadron("CA")), fleet("B1", "beta", squadron("CA")))
    data["diplomacy"] = []
    played = play(make(data), [])
    assert played.outcome["result"] == "shared"
    assert played.outcome["rounds"] == 0
    assert played.house("alpha")["fate"] == "not_engaged"


def test_draw_order_of_a_round() -> None:
    """The documented order: tier by tier, attacker by attacker: cer, then target."""
    data = scenario(
        fleet("A1", "alpha", squadron("CA"), squadron("DD")),
        fleet("B1", "beta", squadron("CA")),
    )
    played = partial(make(data), [0, 0, 0, 0, 0, 0])
    assert [(d.player, d.purpose) for d in played.draws[:6]] == [
        ("alpha", "cer"),
        ("alpha", "target"),
        ("beta", "cer"),
        ("beta", "target"),
        ("alpha", "cer"),
        ("alpha", "target"),
    ]
    assert answered(played, "cer") == ["0", "0", "0"]
