"""SUSTAIN DAMAGE (abilities/sustain_damage.py): before hits are assigned, an undamaged unit with
the ability may be damaged to cancel a hit (ti4-space-combat.md step 4.1; ti4-ground-combat.md
note 5); it works against every hit it could legally take, but not anti-fighter barrage hits
(docs/rulings.md R4)."""

from __future__ import annotations

from typing import Any

from spacecombat.core.forces import Status
from spacecombat.rulesets import parse_ti_scenario
from spacecombat.rulesets.ti4.abilities.sustain_damage import (
    can_sustain,
    damaged_status,
    hits_cancelled,
)
from spacecombat.rulesets.ti4.setup import BattleSetup, build
from spacecombat.rulesets.ti4.sides import Side
from tests.helpers import events, run, space

A = Side.ATTACKER


def setup_of(scenario: dict[str, Any]) -> BattleSetup:
    return build(parse_ti_scenario(scenario))


SETUP = setup_of(space({"units": "1 dreadnought, 1 cruiser, 1 mech"}, {"units": "1 cruiser"}))


# --- handler level ------------------------------------------------------------------------------


def test_an_undamaged_dreadnought_can_sustain() -> None:
    assert can_sustain(SETUP, A, "dreadnought", Status.UNDAMAGED)


def test_a_damaged_dreadnought_cannot_sustain() -> None:
    assert not can_sustain(SETUP, A, "dreadnought", Status.DAMAGED)


def test_a_unit_that_sustained_this_round_cannot_sustain_again() -> None:
    assert not can_sustain(SETUP, A, "dreadnought", Status.SUSTAINED_THIS_ROUND)


def test_a_cruiser_has_no_sustain_damage() -> None:
    # units.toml: Cruiser I has no SUSTAIN DAMAGE.
    assert not can_sustain(SETUP, A, "cruiser", Status.UNDAMAGED)


def test_a_mech_can_sustain() -> None:
    # units.toml: the mech has SUSTAIN DAMAGE (ti4-ground-combat.md note 5).
    assert can_sustain(SETUP, A, "mech", Status.UNDAMAGED)


def test_sustaining_in_a_combat_round_marks_the_unit_as_sustained_this_round() -> None:
    # docs/rulings.md R7: Duranium Armor must know which unit sustained this round.
    assert damaged_status(in_combat_round=True) is Status.SUSTAINED_THIS_ROUND


def test_sustaining_outside_a_combat_round_just_damages_the_unit() -> None:
    assert damaged_status(in_combat_round=False) is Status.DAMAGED


def test_one_sustain_cancels_one_hit() -> None:
    # ti4-space-combat.md step 4.1: a unit's SUSTAIN DAMAGE cancels a hit.
    assert hits_cancelled(SETUP, A, 3) == 1


# --- procedure level ----------------------------------------------------------------------------


def test_a_dreadnought_sustains_a_space_combat_hit_instead_of_being_destroyed() -> None:
    # ti4-space-combat.md step 4.1.
    played = run(space({"units": "1 dreadnought"}, {"units": "1 cruiser"}), [5, 7])
    assert events(played, "damage_sustained", unit="dreadnought", cause="space combat") != []


def test_a_ship_may_sustain_a_space_cannon_offense_hit() -> None:
    # docs/rulings.md R4: any of the target's ships in the active system may sustain.
    played = run(space({"units": "1 dreadnought"}, {"units": "1 cruiser, 1 pds"}), [6, 5, 1])
    assert events(played, "damage_sustained", cause="space cannon offense") != []


def test_sustain_damage_cannot_cancel_anti_fighter_barrage_hits() -> None:
    # docs/rulings.md R4, R15: AFB hits only go to fighters; a dreadnought cannot sustain them.
    played = run(
        space({"units": "2 destroyer"}, {"units": "1 dreadnought, 1 fighter"}),
        [9, 9, 9, 9, 9, 9, 1],
    )
    assert events(played, "damage_sustained", cause="anti-fighter barrage") == []


def test_anti_fighter_barrage_hits_beyond_the_fighters_are_lost_not_sustained() -> None:
    # docs/rulings.md R15: the excess has no effect.
    played = run(
        space({"units": "2 destroyer"}, {"units": "1 dreadnought, 1 fighter"}),
        [9, 9, 9, 9, 9, 9, 1],
    )
    lost = events(played, "hits_lost", player="defender", cause="anti-fighter barrage")
    assert [e["hits"] for e in lost] == [3]


def test_a_player_may_destroy_a_unit_instead_of_sustaining() -> None:
    # docs/rulings.md R17: sustain is optional; the owner chooses freely.
    played = run(
        space({"units": "1 dreadnought, 1 cruiser"}, {"units": "1 cruiser"}),
        [1, 1, 7, 5, 1],
        attacker=["destroy cruiser"],
    )
    block = played.outcome["attacker"]
    assert isinstance(block, dict)
    assert block["space"] == [{"unit": "dreadnought", "count": 1}]
