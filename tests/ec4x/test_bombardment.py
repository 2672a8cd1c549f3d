"""7.5 Planetary Bombardment, played on its own with scripted draws (tests/ec4x/siege_helpers)."""

from __future__ import annotations

from spacecombat.rulesets.ec4x.planetary.bombardment import shielded
from spacecombat.rulesets.ec4x.state import CRIPPLED, DESTROYED, UNDAMAGED
from tests.ec4x.helpers import Answers
from tests.ec4x.siege_helpers import assault, colony, play, squadron


def test_7_5_2_worked_example_as75_sld3_roll15_gives_49() -> None:
    """7.5.2: "A fleet with AS of 75 bombards a planet protected by a SLD3 shield, and the
    defending player rolls a 15. Hits = 75 * (1 - .35) = 49"."""
    assert shielded(75, 35) == 49
    a = assault("bombard", squadron("A1-1", 75, 20), planet=colony(shield=3, iu=200))
    # round 1: CER 1 (a 6), shield 15 holds; rounds 2 and 3 likewise
    played = play(a, [6, ("shield", 15)] * 3)
    rolled = played.of("shield_rolled")[0]
    assert (rolled["roll"], rolled["holds"], rolled["hits"], rolled["effective"]) == (
        15,
        True,
        75,
        49,
    )
    assert played.outcome["iu"] == 200 - 3 * 49


def test_7_5_2_shield_fails_at_or_below_its_number() -> None:
    """SLD3 blocks on a d20 "> 11": an 11 blocks nothing."""
    a = assault("bombard", squadron("A1-1", 40, 20), planet=colony(shield=3, iu=200))
    played = play(a, [6, ("shield", 11), 6, ("shield", 12), 0, ("shield", 20)])
    effective = [e["effective"] for e in played.of("shield_rolled")]
    assert effective == [40, 26, 7]  # ceil(40 x .65) = 26; ceil(ceil(40/4) x .65) = 7


def test_7_5_2_planet_breakers_bypass_shields_with_their_own_cer() -> None:
    """7.5.2 Planet-Breaker Shield Penetration: PB AS apart, its own CER roll, no shield."""
    a = assault(
        "bombard",
        squadron("A1-1", 20, 200, breaker=50),
        planet=colony(shield=6, batteries=8),
    )
    script = [("bombardment", 6), ("bombardment_pb", 3), ("shield", 20), ("bombardment", 0)]
    played = play(a, script + [0, 0, ("shield", 1), 0] * 2)
    fleet, breakers = played.of("bombardment_rolled")[:2]
    assert (fleet["source"], fleet["hits"]) == ("fleet", 20)
    assert (breakers["source"], breakers["hits"]) == ("planet_breakers", 25)
    assert played.of("shield_rolled")[0]["effective"] == 10  # 50% of the 20 conventional hits
    # 35 hits: 4 batteries crippled (8 hits each), 3 left over
    first = played.of("batteries_bombarded")[0]
    assert (first["hits"], first["crippled"], first["unused"]) == (35, 4, 3)


def test_7_5_3_restriction_2_batteries_crippled_before_destroyed() -> None:
    """7.5.3 restrictions 1-3: summed hits reduce one battery per DS (8); none is destroyed
    until all are crippled."""
    a = assault("bombard", squadron("A1-1", 30, 200), planet=colony(batteries=2))
    # 30 hits (CER 1): cripple 2 (16), destroy 1 (8), 6 left; the batteries' hits are lost
    played = play(a, [6, 0, 6, 0])  # round 2 destroys the last; nothing left for round 3
    first = played.of("batteries_bombarded")[0]
    assert (first["crippled"], first["destroyed"], first["standing"], first["unused"]) == (
        2,
        1,
        [0, 1],
        6,
    )
    assert played.outcome["batteries"] == {
        "undamaged": 0,
        "crippled": 0,
        "destroyed": 2,
        "seized": 0,
    }


def test_7_5_3_batteries_fire_back_crippled_at_half() -> None:
    """7.5.1: the defender totals the AS of all remaining batteries (crippled at half, 7.5.3)
    and rolls on the Bombardment Table; hits reduce squadrons of lowest DS first (E67)."""
    a = assault(
        "bombard",
        squadron("A1-1", 4, 12),
        squadron("A1-2", 4, 6),
        planet=colony(batteries=1, batteries_crippled=1),
    )
    played = play(a, [0, 6, 0, 6, 0, 6])
    assert played.of("bombardment_rolled", source="batteries")[0]["strength"] == 15
    # 15 hits: A1-2 (DS 6) crippled, then A1-1 (DS 12) cannot be reduced by 9: lost
    first = played.of("fleet_bombarded")[0]
    assert (first["reductions"], first["lost"]) == (1, 9)
    assert played.of("unit_crippled")[0]["unit"] == "A1-2"
    assert played.siege.cond == (CRIPPLED, DESTROYED)


def test_7_5_3_restriction_4_excess_lost_against_squadrons() -> None:
    """Restriction 2 protects a crippled squadron while another is undamaged; excess lost."""
    a = assault(
        "bombard", squadron("A1-1", 4, 30), squadron("A1-2", 4, 6), planet=colony(batteries=2)
    )
    played = play(a, [0, 6] * 3, cond=(UNDAMAGED, CRIPPLED))
    # hits 20: A1-2 crippled cannot be destroyed (A1-1 undamaged), A1-1 needs 30: all lost
    assert played.of("fleet_bombarded")[0]["lost"] == 20
    assert played.siege.cond == (UNDAMAGED, CRIPPLED)


def test_7_5_3_critical_nullifies_restriction_2() -> None:
    a = assault(
        "bombard", squadron("A1-1", 4, 30), squadron("A1-2", 4, 6), planet=colony(batteries=2)
    )
    played = play(a, [0, 9, 0, 0, 0, 0], cond=(UNDAMAGED, CRIPPLED))
    assert played.of("unit_destroyed")[0]["unit"] == "A1-2"


def test_7_5_3_critical_that_reduces_nothing_reduces_lowest_ds() -> None:
    """7.5.3: "if a player takes a critical hit and is unable to reduce a unit according to
    restriction #1 above, then the squadron with the lowest DS is reduced"."""
    a = assault(
        "bombard", squadron("A1-1", 4, 30), squadron("A1-2", 4, 20), planet=colony(batteries=1)
    )
    played = play(a, [0, 9, 0, 0, 0, 0])  # 10 hits: nothing reducible
    reduced = played.of("unit_crippled", reason="critical")
    assert [e["unit"] for e in reduced] == ["A1-2"]


def test_e65_battery_critical_default_reduces_a_crippled_lowest_ds() -> None:
    a = assault(
        "bombard", squadron("A1-1", 4, 30), squadron("A1-2", 4, 20), planet=colony(batteries=1)
    )
    played = play(a, [0, 9, 0, 0, 0, 0], cond=(UNDAMAGED, CRIPPLED))
    assert played.siege.cond == (UNDAMAGED, DESTROYED)


def test_e65_battery_critical_option_prefers_undamaged() -> None:
    a = assault(
        "bombard",
        squadron("A1-1", 4, 30),
        squadron("A1-2", 4, 20),
        planet=colony(batteries=1),
        battery_critical="lowest_ds_undamaged",
    )
    played = play(a, [0, 9, 0, 0, 0, 0], cond=(UNDAMAGED, CRIPPLED))
    assert played.siege.cond == (CRIPPLED, CRIPPLED)


def test_e64_battery_excess_default_passes_on() -> None:
    """7.5.3 restriction 3 "Excess hits leftover against Ground Batteries are summed" and
    7.5.4 "apply unused hits towards ground forces"."""
    a = assault("bombard", squadron("A1-1", 20, 200), planet=colony(batteries=3, iu=50))
    played = play(a, [6, 0] * 3)
    first = played.of("batteries_bombarded")[0]
    assert (first["crippled"], first["unused"]) == (2, 4)
    assert [e["iu_lost"] for e in played.of("infrastructure_bombarded")] == [4, 4, 4]


def test_e64_battery_excess_option_lost_while_standing() -> None:
    a = assault(
        "bombard",
        squadron("A1-1", 20, 200),
        planet=colony(batteries=3, iu=50),
        battery_excess="lost_while_standing",
    )
    played = play(a, [6, 0] * 3)
    first = played.of("batteries_bombarded")[0]
    assert (first["unused"], first["lost"]) == (0, 4)
    # rounds 1 and 2 lose their 4 left over; round 3 destroys the last two and passes 4 on
    assert [e["iu_lost"] for e in played.of("infrastructure_bombarded")] == [4]
    assert played.outcome["iu"] == 46


def test_7_5_4_hits_on_ground_forces_stock_policy_marines_first() -> None:
    """7.5.4: unused hits reduce armies and marines (restrictions 1-3); the attacker chooses."""
    a = assault("bombard", squadron("A1-1", 12, 200), planet=colony(armies=1, marines=1, iu=9))
    played = play(a, [6, 6, 6])
    assert [e["choice"] for e in played.of("choice_made")][:2] == [
        "cripple marine",
        "cripple army",
    ]
    # round 1: 12 hits = marine crippled (6) + army crippled (5), 1 lost (units stand)
    assert played.of("hits_lost")[0]["hits"] == 1
    assert played.outcome["marines"]["destroyed"] == 1
    assert played.outcome["armies"]["destroyed"] == 1


def test_7_5_4_the_attacker_chooses_armies() -> None:
    a = assault("bombard", squadron("A1-1", 6, 200), planet=colony(armies=1, marines=1))
    policy = Answers(["cripple army", "destroy army"])  # round 2's choice is forced
    played = play(a, [6, 6, 6], policies={"alpha": policy, "beta": policy})
    assert [e["choice"] for e in played.of("choice_made")] == [
        "cripple army",
        "cripple marine",
        "destroy army",
    ]
    assert played.outcome["armies"]["destroyed"] == 1
    assert played.outcome["marines"]["crippled"] == 1


def test_7_5_4_infrastructure_iu_then_pu_never_negative() -> None:
    a = assault("bombard", squadron("A1-1", 30, 200), planet=colony(armies=1, iu=12, pu=4))
    played = play(a, [6])
    # 30: army crippled (5) and destroyed (5), 20 left: IU 12 then PU 4 (4 lost)
    hit = played.of("infrastructure_bombarded")[0]
    assert (hit["iu_lost"], hit["pu_lost"], hit["iu"], hit["pu"]) == (12, 4, 0, 0)
    assert played.outcome["result"] == "bombarded"  # nothing left: no second round


def test_7_5_at_most_three_rounds() -> None:
    a = assault("bombard", squadron("A1-1", 4, 200), planet=colony(iu=1000))
    played = play(a, [0, 0, 0])
    assert len(played.of("bombardment_round_started")) == 3
    assert played.outcome["iu"] == 997


def test_e67_bombard_crippled_as_half_and_option_full() -> None:
    a = assault("bombard", squadron("A1-1", 10, 200), planet=colony(iu=1000))
    half = play(a, [6, 6, 6], cond=(CRIPPLED,))
    assert half.outcome["iu"] == 1000 - 15
    full = assault(
        "bombard", squadron("A1-1", 10, 200), planet=colony(iu=1000), bombard_crippled_as="full"
    )
    assert play(full, [6, 6, 6], cond=(CRIPPLED,)).outcome["iu"] == 1000 - 30


def test_e68_shield_roll_option_no_roll() -> None:
    a = assault(
        "bombard",
        squadron("A1-1", 75, 200),
        planet=colony(shield=3, iu=1000),
        shield_roll="no_roll",
    )
    played = play(a, [6, 6, 6])  # no shield draw
    assert [e["effective"] for e in played.of("shield_rolled")] == [49, 49, 49]
    assert played.of("shield_rolled")[0]["roll"] is None


def test_g26_order_06_destroys_spaceports_after_ground_forces() -> None:
    """6.2.7 order 06 attacks "... garrisoned Army units and Marines, and Spaceports" (ruling
    G26, default ``after_ground_forces``): 120 hits (a 6) destroy the army (cripple 5, destroy
    5), then two spaceports (50 each, facts §6); the last 10 go on to the IU (7.5.4)."""
    planet = colony(armies=1, spaceports=3, iu=100)
    a = assault("bombard", squadron("A1-1", 120, 200), planet=planet)
    played = play(a, [6, 0, 0])  # round 2: 30 hits, short of a spaceport's 50: on to the IU
    (ports,) = played.of("spaceports_bombarded")
    assert (ports["hits"], ports["destroyed"], ports["standing"], ports["unused"]) == (
        100,
        2,
        1,
        10,
    )
    assert played.of("infrastructure_bombarded")[0]["iu_lost"] == 10
    out = played.outcome
    assert (out["spaceports"], out["iu"]) == (1, 100 - 10 - 30 - 30)


def test_g26_option_never_leaves_spaceports_untouched() -> None:
    """Option ``bombard_spaceports: never`` (7.5 alone): the 110 hits left go to the IU."""
    a = assault(
        "bombard",
        squadron("A1-1", 120, 200),
        planet=colony(armies=1, spaceports=3, iu=500),
        bombard_spaceports="never",
    )
    played = play(a, [6, 0, 0])
    assert not played.of("spaceports_bombarded")
    assert played.outcome["spaceports"] == 3
    assert played.outcome["iu"] == 500 - 110 - 30 - 30


def test_g26_spaceports_wait_for_the_ground_forces() -> None:
    """While an army stands, hits it cannot take are lost (7.5.4 restriction 3): no spaceport
    falls, whatever is left."""
    a = assault("bombard", squadron("A1-1", 4, 200), planet=colony(armies=1, spaceports=1))
    played = play(a, [6, 6, 6])  # 4 hits a round: short of the army's DS 5
    assert not played.of("spaceports_bombarded")
    assert played.outcome["spaceports"] == 1


def test_g26_shields_are_never_destroyed_by_bombardment() -> None:
    """7.5.2 "shields can only be destroyed by Marines during planetary invasion": order 06
    attacks a shield only by rolling against it (ruling G26)."""
    a = assault("bombard", squadron("A1-1", 400, 200), planet=colony(shield=1, iu=10_000))
    played = play(a, [6, ("shield", 1)] * 3)
    assert played.outcome["shield"] == 1
