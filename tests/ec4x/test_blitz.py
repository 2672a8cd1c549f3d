"""7.6.2 Planetary Blitz, played on its own with scripted draws."""

from __future__ import annotations

from spacecombat.rulesets.ec4x.state import CRIPPLED, DESTROYED, UNDAMAGED
from tests.ec4x.siege_helpers import assault, colony, play, squadron, transport


def test_7_6_2_one_round_touches_no_ground_units_or_infrastructure() -> None:
    """7.6.2: one round of 7.5 "with the exception that ground units and civilian
    infrastructure are not targeted"."""
    a = assault(
        "blitz",
        squadron("A1-1", 40, 200),
        transport("T1"),
        planet=colony(batteries=1, armies=1, iu=30, pu=5),
    )
    # 40 hits: the battery crippled and destroyed (16), 24 lost; its 3 hits (a 0) are lost.
    # Ground round 1: 6 hits cripple the army, its 2 are lost; round 2: 6 destroy it.
    ground = [("ground_combat", 9), ("ground_combat", 0)]
    played = play(a, [6, 0, *ground, *ground])
    assert len(played.of("bombardment_round_started")) == 1
    assert played.of("hits_lost", reason="blitz")[0]["hits"] == 24
    assert not played.of("infrastructure_bombarded")
    assert played.of("marines_landed")[0]["strength"] == 3  # 6 x 0.5
    assert played.outcome["armies"]["destroyed"] == 1
    assert played.outcome["iu"] == 30


def test_7_6_2_transports_are_targets_and_lose_their_marines() -> None:
    """7.6.2: "Troop transports are included as individual units within the attacking
    player's fleet and may be destroyed on their way down"; the batteries' hits go to them
    first (ruling E67); a crippled transport lands its division crippled (E63)."""
    a = assault(
        "blitz",
        squadron("A1-1", 4, 200),
        transport("T1"),
        transport("T2"),
        transport("T3"),
        planet=colony(batteries=5, armies=1),
    )
    # batteries AS 50, CER 1: 50 hits: T1, T2, T3 crippled (45), 5 lost
    ground = [("ground_combat", 6), ("ground_combat", 0)]
    played = play(a, [0, 6, *ground, *ground])
    assert played.siege.cond[1:] == (CRIPPLED, CRIPPLED, CRIPPLED)
    assert played.of("marines_landed")[0]["marines"] == [0, 3]
    # stacked: each crippled division AS 2 (ceil(ceil(6/2)/2)), 6 in all
    assert played.of("marines_landed")[0]["strength"] == 6
    assert played.outcome["fallen"] is True


def test_7_6_2_landing_despite_batteries_and_seizure() -> None:
    """7.6.2: the blitz needs no battery destroyed; on conquest "All remaining planet assets
    are seized by the invading House, including IU, shields, spaceports, and ground
    batteries" and no IU is destroyed."""
    a = assault(
        "blitz",
        transport("T1"),
        transport("T2"),
        planet=colony(batteries=1, shield=4, spaceports=1, iu=20, pu=7),
    )
    # batteries AS 10, roll 0: 3 hits, lost; two divisions land, no defenders: conquered
    played = play(a, [0])
    out = played.outcome
    assert (out["fallen"], out["seized"], out["owner_after"]) == (True, True, "alpha")
    assert (out["iu"], out["pu"], out["shield"], out["spaceports"]) == (20, 7, 4, 1)
    assert out["batteries"] == {"undamaged": 1, "crippled": 0, "destroyed": 0, "seized": 1}
    assert played.of("colony_conquered")[0]["iu_destroyed"] == 0


def test_7_6_2_every_transport_lost_fails() -> None:
    a = assault("blitz", transport("T1"), planet=colony(batteries=2))
    played = play(a, [9])  # 20 hits: T1 crippled (15), 5 lost
    assert played.siege.cond == (CRIPPLED,)
    a2 = assault("blitz", transport("T1"), planet=colony(batteries=4))
    played2 = play(a2, [9])  # 40: T1 crippled and, alone, destroyed (30), 10 lost
    assert played2.siege.cond == (DESTROYED,)
    assert played2.of("invasion_failed")
    assert played.of("marines_landed")[0]["marines"] == [0, 1]


def test_e66_blitz_marine_as_stacked_and_once() -> None:
    """E66: a landed division's AS: 3, crippled 2 (stacked, default) or 3 (once)."""
    crippled = assault("blitz", transport("T1"), transport("T2"), planet=colony(marines=9))
    once = assault(
        "blitz", transport("T1"), transport("T2"), planet=colony(marines=9), blitz_marine_as="once"
    )
    cond = (UNDAMAGED, CRIPPLED)
    script = [("ground_combat", 3), ("ground_combat", 9)]  # defenders 54 x 2: all invaders gone
    assert play(crippled, script, cond=cond).of("marines_landed")[0]["strength"] == 3 + 2
    assert play(once, script, cond=cond).of("marines_landed")[0]["strength"] == 3 + 3
