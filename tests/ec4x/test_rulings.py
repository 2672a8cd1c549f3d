"""Each ruling of docs/rulings.md (EC4X, E20 onwards): its default and its option."""

from __future__ import annotations

from typing import Any

import pytest

from spacecombat.core.errors import RuleNotImplemented
from spacecombat.rulesets.ec4x.space_combat.retreat import hostile_strength
from tests.ec4x.helpers import Answer, fleet, make, partial, play, scenario, squadron


def with_options(data: dict[str, Any], **options: Any) -> dict[str, Any]:
    return data | {"options": options}


def ca_vs_dn() -> dict[str, Any]:
    # the DN (tier 12) rolls first; the CA (tier 7) needs 30 hits
    return scenario(fleet("A1", "alpha", squadron("CA")), fleet("B1", "beta", squadron("DN")))


def test_e20_damage_memory() -> None:
    """E20: hits short of DS are forgotten by default; kept with damage_memory: battle (the
    DN's 7 + 7 hits cripple the CA, DS 13, in round 2)."""
    script = [("cer", 0), ("target", 0), ("cer", 0), ("target", 0)] * 2
    plain = partial(make(ca_vs_dn()), script)
    assert not plain.of("unit_crippled")
    kept = partial(make(with_options(ca_vs_dn(), damage_memory="battle")), script)
    assert kept.of("unit_crippled", unit="A1-1")
    assert kept.of("damage_applied", unit="A1-1")[1]["kept"] == 7


def test_e20_round_memory_clears() -> None:
    script = [("cer", 0), ("target", 0), ("cer", 8), ("target", 0)] * 3
    played = partial(make(with_options(ca_vs_dn(), damage_memory="round")), script)
    assert not played.of("unit_crippled", unit="B1-1")


@pytest.mark.parametrize(
    ("option", "value"),
    [
        ("squadron_losses", "individual_ships"),
        ("excess_hits", "spill_over"),
        ("detection_scope", "per_house"),
    ],
)
def test_e21_e25_e43_unimplemented_readings(option: str, value: str) -> None:
    with pytest.raises(RuleNotImplemented):
        make(with_options(ca_vs_dn(), **{option: value}))


def test_e22_phase4_order() -> None:
    """E22: CR tiers by default (the destroyed DD never fires); simultaneous: it fires."""
    data = scenario(
        fleet("A1", "alpha", squadron("DN")), fleet("B1", "beta", squadron("DD", state="crippled"))
    )
    tiers = play(make(data), [("cer", 7), ("target", 0)])
    assert [e["unit"] for e in tiers.of("cer_rolled")] == ["A1-1"]
    together = play(
        make(with_options(data, phase4_order="simultaneous")),
        [("cer", 7), ("target", 0), ("cer", 0), ("target", 0)],
    )
    assert [e["unit"] for e in together.of("cer_rolled")] == ["A1-1", "B1-1"]


def test_e23_crippled_as_timing() -> None:
    """E23: crippled at once by default; full AS until the round ends with end_of_round."""
    data = scenario(fleet("A1", "alpha", squadron("BB")), fleet("B1", "beta", squadron("SD")))
    script = [("cer", 5), ("target", 0), ("cer", 8), ("target", 0)]
    assert partial(make(data), script).of("cer_rolled", unit="A1-1")[0]["strength"] == 10
    late = partial(make(with_options(data, crippled_as_timing="end_of_round")), script)
    assert late.of("cer_rolled", unit="A1-1")[0]["strength"] == 20


def test_e24_undamaged_destroyed_at() -> None:
    """E24: by default (``twice_ds``) an unprotected undamaged squadron taking 2 x DS in one
    step is destroyed (the DN's 7: CER 1 x AS 22 = 22 hits on a DD, DS 6, 22 >= 12);
    ``never``: one step per application, the DD is only crippled."""
    data = scenario(fleet("A1", "alpha", squadron("DN")), fleet("B1", "beta", squadron("DD")))
    script = [("cer", 7), ("target", 0)]
    played = partial(make(data), script)
    assert played.of("unit_destroyed", unit="B1-1")
    assert not played.of("unit_crippled", unit="B1-1")
    gentle = partial(make(with_options(data, undamaged_destroyed_at="never")), script)
    assert gentle.of("unit_crippled", unit="B1-1")
    assert not gentle.of("unit_destroyed", unit="B1-1")


def test_e24_twice_ds_is_the_threshold() -> None:
    """E24 ``twice_ds``: 2 x DS destroys, one hit less only cripples. Two CAs (AS 12 each) on
    a DD (DS 6): 12 hits (a 7 and a 0: 12 + 3 = 15 >= 12) destroy it; a 0 and a 0 (3 + 3 = 6)
    cripple it."""
    data = scenario(
        fleet("A1", "alpha", squadron("CA"), squadron("CA")), fleet("B1", "beta", squadron("DD"))
    )
    killing = partial(make(data), [("cer", 7), ("target", 0), ("cer", 0), ("target", 0)])
    assert killing.of("unit_destroyed", unit="B1-1")
    crippling = partial(make(data), [("cer", 0), ("target", 0), ("cer", 0), ("target", 0)])
    assert crippling.of("unit_crippled", unit="B1-1")
    assert not crippling.of("unit_destroyed", unit="B1-1")


def test_e26_protection_judged() -> None:
    """E26: judged before the step by default: two DDs, one crippled hit and one undamaged
    crippled in the same step: the crippled one survives; after_step: it is destroyed."""
    data = scenario(
        fleet("A1", "alpha", squadron("CA"), squadron("CA")),
        fleet("B1", "beta", squadron("DD", state="crippled"), squadron("DD")),
    )
    script: list[Answer] = [("cer", 7), ("target", "B1-1"), ("cer", 7), ("target", "B1-2")]
    assert partial(make(data), script).of("destruction_prevented", unit="B1-1")
    after = partial(make(with_options(data, protection_judged="after_step")), script)
    assert after.of("unit_destroyed", unit="B1-1")


def test_e27_overkill_all_means() -> None:
    """E27: with twice_ds, ``all`` keeps an undamaged lone target from dying outright."""
    data = scenario(fleet("A1", "alpha", squadron("DN")), fleet("B1", "beta", squadron("DD")))
    script = [("cer", 7), ("target", 0)]
    played = partial(
        make(with_options(data, undamaged_destroyed_at="twice_ds", overkill_all_means="all")),
        script,
    )
    assert played.of("unit_crippled", unit="B1-1")


def test_e28_protection_counts_fighters() -> None:
    """E28: fighters do not block protection by default; they do with the option."""
    data = scenario(
        fleet("A1", "alpha", squadron("DN")),
        fleet("B1", "beta", squadron("DD", state="crippled"), squadron("CV", fighters=1)),
    )
    data["fleets"][1]["squadrons"][1]["state"] = "crippled"
    # phase 2: beta's fighter hits the DN; phase 4: DN -> bucket 2 (the crippled CV)
    script = [("target", 0), ("cer", 7), ("target", 0)]
    assert partial(make(data), script).of("unit_destroyed", unit="B1-2")
    counted = partial(make(with_options(data, protection_counts_fighters=True)), script)
    assert counted.of("destruction_prevented", unit="B1-2")


def test_e29_force_reduction_judged_and_tie() -> None:
    """E29: own hits by default; a tie among the lowest DS is drawn, or the first listed."""
    data = scenario(
        fleet("A1", "alpha", squadron("DD")),
        fleet("B1", "beta", squadron("DN"), squadron("CT"), squadron("CT")),
    )
    script: list[Answer] = [("cer", 0), ("target", 0), ("cer", 9), ("target", "B1-1")]
    drawn = partial(make(data), [*script, ("force_reduction", "B1-3")])
    assert drawn.of("force_reduction", unit="B1-3")
    first = partial(make(with_options(data, force_reduction_tie="first_listed")), script)
    assert first.of("force_reduction", unit="B1-2")


def test_e29_force_reduction_judged_on_the_combined_hits() -> None:
    """E29: alpha's two CAs (AS 12) fire at beta's CA (DS 13) in one step: a critical (a
    natural 9: CER 1, 12 hits, short of 13 on its own) and a 0 (CER 1/4: 3 hits). The combined
    15 hits cripple the target. By default (``combined_hits``) the critical did reduce its
    target, so nothing is reduced instead; ``own_hits``: its own 12 < 13, so the lowest-DS
    squadron of beta (the CT, DS 3) is reduced as well."""
    data = scenario(
        fleet("A1", "alpha", squadron("CA"), squadron("CA")),
        fleet("B1", "beta", squadron("CA"), squadron("CT")),
    )
    script: list[Answer] = [("cer", 9), ("target", "B1-1"), ("cer", 0), ("target", "B1-1")]
    script += [("cer", 0), ("target", 0)]  # beta's CA, in the same CR tier
    combined = partial(make(data), script)
    assert combined.of("unit_crippled", unit="B1-1")
    assert not combined.of("force_reduction")
    own = partial(make(with_options(data, force_reduction_judged="own_hits")), script)
    assert own.of("unit_crippled", unit="B1-1")
    assert own.of("force_reduction", unit="B1-2")


def test_e30_critical_bypass() -> None:
    """E30: a critical on the target lifts its protection for every hit of the step (12 + 12
    on a crippled CA, DS 13); own_hits: only the critical's own 12 hits count (< 13)."""
    data = scenario(
        fleet("A1", "alpha", squadron("CA"), squadron("CA")),
        fleet("B1", "beta", squadron("CA", state="crippled"), squadron("CA")),
    )
    script: list[Answer] = [("cer", 7), ("target", "B1-1"), ("cer", 9), ("target", "B1-1")]
    script += [("cer", 0), ("target", 0)] * 2
    assert partial(make(data), script).of("unit_destroyed", unit="B1-1")
    own = partial(make(with_options(data, critical_bypass="own_hits")), script)
    assert own.of("destruction_prevented", unit="B1-1")


def test_e31_crippled_as_rounding() -> None:
    """E31: DD + FG (AS 8) crippled: 4 per squadron; per ship 3 + 2 = 5."""
    data = scenario(
        fleet("A1", "alpha", squadron("DD", escorts={"FG": 1}, state="crippled")),
        fleet("B1", "beta", squadron("CT")),
    )
    script = [("cer", 8), ("target", 0)]
    assert partial(make(data), script).of("cer_rolled")[0]["strength"] == 4
    per_ship = partial(make(with_options(data, crippled_as_rounding="per_ship")), script)
    assert per_ship.of("cer_rolled")[0]["strength"] == 5


def test_e33_unnamed_bucket() -> None:
    """E33: a CT flagship is in bucket 2 by default; 3 with the option."""
    data = scenario(fleet("A1", "alpha", squadron("DN")), fleet("B1", "beta", squadron("CT")))
    assert partial(make(data), [("cer", 0)]).draws[-1].weights == (2,)
    other = partial(make(with_options(data, unnamed_flagship_bucket=3)), [("cer", 0)])
    assert other.draws[-1].weights == (3,)


def test_e34_cer_timing() -> None:
    """E34: per step by default; round_start draws every CER die first."""
    data = scenario(fleet("A1", "alpha", squadron("DN")), fleet("B1", "beta", squadron("DD")))
    purposes = [d.purpose for d in partial(make(data), [0, 0, 0]).draws]
    assert purposes[:3] == ["cer", "target", "cer"]
    early = partial(make(with_options(data, cer_timing="round_start")), [0, 0, 0])
    assert [d.purpose for d in early.draws][:3] == ["cer", "cer", "target"]


def test_e35_morale_roll_shared() -> None:
    data = scenario(fleet("A1", "alpha", squadron("DD")), fleet("B1", "beta", squadron("DD")))
    data["houses"] = {"alpha": {"prestige": 50}, "beta": {"prestige": 50}}
    assert [d.player for d in partial(make(data), [13, 13]).draws[:2]] == ["alpha", "beta"]
    shared = partial(make(with_options(data, morale_roll="shared")), [13])
    assert shared.draws[0].player == ""
    assert len(shared.of("morale_checked", roll=13)) == 2


def test_e37_max_rounds() -> None:
    """E37: no limit by default; max_rounds cuts the battle off."""
    script = [("cer", 0), ("target", 0), ("cer", 0), ("target", 0)]
    played = play(make(with_options(ca_vs_dn(), max_rounds=1)), script)
    assert played.outcome["result"] == "cut_off"
    assert played.of("combat_cut_off")


def test_e38_starbase_tier() -> None:
    data = scenario(
        fleet("A1", "alpha", squadron("DN"), order=6),
        system={"name": "Vega", "controller": "beta"},
        colony={"owner": "beta", "starbases": [{}]},
    )
    assert partial(make(data), [0]).draws[0].player == "alpha"
    first = partial(make(with_options(data, starbase_tier="first")), [0])
    assert first.draws[0].player == "beta"


def test_e39_starbase_critical_reroll() -> None:
    data = scenario(
        fleet("A1", "alpha", squadron("DN"), squadron("DN"), order=6),
        system={"name": "Vega", "controller": "beta"},
        colony={"owner": "beta", "starbases": [{}]},
    )
    script = [("cer", 9), ("target", 0), ("cer_reroll", 0), ("cer", 9), ("target", 0)]
    every = partial(make(data), script)
    assert len(every.of("critical_rerolled")) == 2
    once = partial(make(with_options(data, starbase_critical_reroll="first_critical")), script)
    assert len(once.of("critical_rerolled")) == 1


def test_e40_spacelift_on_retreat() -> None:
    data = scenario(
        fleet("A1", "alpha", squadron("CA"), roe=0, spacelift={"ET": 1}),
        fleet("B1", "beta", squadron("CA")),
    )
    script = [("cer", 0), ("target", 0), ("cer", 0), ("target", 0)]
    left = play(make(data), script)
    assert left.of("screened_ships_destroyed", house="alpha")
    kept = play(make(with_options(data, spacelift_on_retreat="retreats")), script)
    assert not kept.of("screened_ships_destroyed")
    assert kept.house("alpha")["survivors"] == {"CA": 1, "ET": 1}


def test_e41_stranded_crippled() -> None:
    data = scenario(
        fleet("A1", "alpha", squadron("CA", state="crippled"), squadron("CA"), roe=0),
        fleet("B1", "beta", squadron("CA")),
    )
    data["houses"]["alpha"]["retreat_lane"] = "restricted"
    script = [("cer", 0), ("target", 0)] * 3
    lost = partial(make(with_options(data, stranded_crippled="destroyed")), script)
    assert lost.of("retreated")[0]["destroyed"] == ["A1-1"]


def test_e42_surprise_never() -> None:
    data = scenario(
        fleet("A1", "alpha", squadron("RR")),
        fleet("B1", "beta", squadron("RR")),
        system={"name": "Vega", "controller": "beta"},
    )
    """E42: surprise: never keeps the defender's initiative (7.1.3 is clear): beta, the
    controller, still strikes first in phase 1, with Ambush +4 instead of Surprise +3, and
    alpha's raider waits for phase 3 without a bonus."""
    script = [("cer", 0), ("target", 0), ("cer", 0), ("target", 0)]
    played = partial(make(with_options(data, surprise="never")), script)
    assert played.of("initiative_won", house="beta")
    first, second = played.of("cer_rolled")[:2]
    assert (first["unit"], first["modifiers"]) == ("B1-1", {"ambush": 4})
    assert (second["unit"], second["modifiers"]) == ("A1-1", {})


def test_e44_crisis_refusal_ignore() -> None:
    data = scenario(fleet("A1", "alpha", squadron("DD")), fleet("B1", "beta", squadron("DD")))
    data["houses"]["alpha"] = {"prestige": -5}
    played = partial(make(with_options(data, crisis_refusal="ignore")), [])
    assert played.draws[0].purpose == "cer"


def test_e45_roe_hostile_strength() -> None:
    """E45: a neutral house patrolling alpha's colony system: alpha regards it hostile, not the
    reverse (before any attack); with either_way, beta counts alpha's AS too."""
    data = scenario(
        fleet("A1", "alpha", squadron("CA")),
        fleet("B1", "beta", squadron("CA"), order=3, roe=5),
        system={"name": "Vega", "controller": "alpha"},
        diplomacy=[],
        options={"engage_on": "any_hostility"},
    )
    battle = make(data)
    state = partial(battle, []).state
    assert hostile_strength(battle.setup, state, 1) == 0
    data["options"] |= {"roe_hostile_strength": "either_way"}
    battle = make(data)
    assert hostile_strength(battle.setup, partial(battle, []).state, 1) == 12


def test_e46_undetected_later_rounds() -> None:
    """E46: undetected raiders keep phase 1 (before fighters) in later rounds by default."""
    data = scenario(
        fleet("A1", "alpha", squadron("CV", fighters=1)), fleet("B1", "beta", squadron("RR"))
    )
    zeros = [0] * 12
    played = partial(make(data), zeros)
    assert [d.player for d in played.draws[5:7]] == ["beta", "beta"]  # round 2: phase 1
    later = partial(make(with_options(data, undetected_later_rounds="phase3_after_round1")), zeros)
    assert later.draws[5].player == "alpha"  # round 2: the fighter (phase 2) first
