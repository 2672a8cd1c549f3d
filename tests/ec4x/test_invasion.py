"""7.6.1 Planetary Invasion and 7.6 ground combat, played on their own with scripted draws."""

from __future__ import annotations

from spacecombat.rulesets.ec4x.state import CRIPPLED, DESTROYED, UNDAMAGED
from tests.ec4x.siege_helpers import assault, colony, play, squadron, transport


def _force(*marines: bool) -> tuple:  # type: ignore[type-arg]
    return (squadron("A1-1", 40, 200), *(transport(f"A1-TT{n}") for n, _ in enumerate(marines)))


def test_7_6_1_one_round_then_fails_while_a_battery_stands() -> None:
    """7.6.1: "First conduct one round of planetary bombardment ... If there are remaining
    Ground Batteries, the mission fails"."""
    a = assault("invade", *_force(True, True), planet=colony(batteries=3, armies=2, shield=2))
    # 40 x 1/4 = 10 hits: one battery crippled; batteries roll 0
    played = play(a, [0, ("shield", 1), 0])
    assert len(played.of("bombardment_round_started")) == 1
    assert str(played.of("invasion_failed")[0]["reason"]).startswith("3 ground batteries remain")
    assert not played.of("marines_landed")
    out = played.outcome
    assert (out["result"], out["fallen"], out["shield"], out["invaders"]["landed"]) == (
        "failed",
        False,
        2,
        0,
    )


def test_7_6_1_landing_destroys_shields_and_spaceports_then_ground_combat() -> None:
    """7.6.1: marines land once no battery stands; "Planetary shields and Spaceports are
    immediately destroyed"; ground combat until one side is destroyed; on conquest 50% of the
    remaining IU is destroyed."""
    a = assault(
        "invade",
        *_force(True, True),
        planet=colony(batteries=1, armies=1, shield=1, spaceports=2, iu=41, pu=10),
    )
    # bombardment: 40 hits (shield fails): battery crippled+destroyed (16), army crippled (5)
    # and, alone, destroyed (5); 14 left: IU 41 -> 27. No defenders left: conquered at once.
    played = play(a, [6, ("shield", 3), 0])
    landed = played.of("marines_landed")[0]
    assert landed["destroyed"] == {"shield": 1, "spaceports": 2}
    assert played.of("colony_conquered")[0]["iu_destroyed"] == 14  # ceil(27 / 2)
    out = played.outcome
    assert (out["owner_after"], out["fallen"], out["seized"]) == ("alpha", True, False)
    assert (out["iu"], out["pu"], out["shield"], out["spaceports"]) == (13, 10, 0, 0)


def test_7_6_1_ground_combat_table_and_restrictions() -> None:
    """7.6: both sides total AS, roll the Ground Combat Table; CER x AS hits, rounded up."""
    a = assault("invade", squadron("A1-1", 4, 200), transport("T1"), transport("T2"),
                planet=colony(armies=2, marines=1))  # fmt: skip
    # bombardment: 1 hit, lost (units stand). Ground round 1: invaders AS 12, CER 2 -> 24 hits:
    # cripple marine (6), cripple 2 armies (10), destroy marine... 8 left: destroy army (5),
    # 3 lost. Defenders AS 12, roll 0: 6 hits cripple one marine.
    played = play(a, [0, ("ground_combat", 9), ("ground_combat", 0), 9, 0])
    rolled = played.of("ground_combat_rolled")
    assert [(e["strength"], e["hits"]) for e in rolled[:2]] == [(12, 24), (12, 6)]
    assert played.of("marines_hit")[0]["standing"] == [1, 1]
    assert played.outcome["fallen"] is True
    assert played.outcome["invaders"] == {
        "landed": 2,
        "undamaged": 1,
        "crippled": 1,
        "destroyed": 0,
    }


def test_7_6_1_invaders_destroyed_colony_holds() -> None:
    a = assault("invade", squadron("A1-1", 4, 200), transport("T1"), planet=colony(marines=3))
    # invaders AS 6 (CER 1/2 -> 3 hits, lost); defenders AS 18 x 1/2 = 9: cripple the marine;
    # round 2: invader AS 3; defenders 18 x 1/2 = 9: destroy it
    played = play(a, [0, 0, 0, 0, 0])
    assert played.of("colony_held")[0]["result"] == "held"
    assert played.outcome["fallen"] is False
    assert played.outcome["invaders"]["destroyed"] == 1


def test_7_6_1_no_marines_no_landing() -> None:
    a = assault("invade", squadron("A1-1", 4, 200), transport("T1"), planet=colony(armies=1))
    played = play(a, [0], cond=(UNDAMAGED, DESTROYED))
    assert played.of("invasion_failed")[0]["reason"] == "no marines to land"


def test_e69_stalemate_ends_ground_combat() -> None:
    """Neither side can ever reduce the other: the best CER (2) times each side's AS is below
    the lowest DS on the other side. A crippled transport's division lands crippled, AS 2 in
    a blitz (E63, E66); a crippled army has AS 2: 4 hits reduce neither DS 6 nor DS 5."""
    a = assault("blitz", transport("T1"), planet=colony(armies_crippled=1))
    played = play(a, [], cond=(CRIPPLED,))
    assert played.of("colony_held")[0]["result"] == "stalemate"
    assert played.outcome["fallen"] is False
    assert played.outcome["invaders"]["crippled"] == 1


def test_g27_invasion_default_one_round_then_the_landing() -> None:
    """7.6.1 "First conduct *one round* of planetary bombardment" (ruling G27 default
    ``one_round``): 10 hits cripple one of two batteries; one round, and the mission fails."""
    a = assault("invade", squadron("A1-1", 40, 200), transport("T1"), planet=colony(batteries=2))
    played = play(a, [0, 0])
    assert len(played.of("bombardment_round_started")) == 1
    assert played.outcome["result"] == "failed"


def test_g27_option_three_rounds_bombards_again_before_the_landing() -> None:
    """6.2.8 "This is a three round battle" (option ``invasion_bombardment: three_rounds``):
    round 1 cripples a battery (10 hits), round 2 (40 hits) cripples the other and destroys
    both (8 each; the 16 left find no IU or PU); round 3 would have nothing left to hit, so
    the marines land on an undefended colony, which falls."""
    a = assault(
        "invade",
        squadron("A1-1", 40, 200),
        transport("T1"),
        planet=colony(batteries=2),
        invasion_bombardment="three_rounds",
    )
    played = play(a, [0, 0, 6, 0])
    assert len(played.of("bombardment_round_started")) == 2  # nothing left after round 2
    assert played.of("marines_landed")
    out = played.outcome
    assert (out["result"], out["fallen"], out["batteries"]["destroyed"]) == ("conquered", True, 2)
