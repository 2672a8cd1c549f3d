"""Duranium Armor (abilities/duranium_armor.py): in each combat round, after the owner assigns
hits, it repairs 1 of its damaged units in that combat that did not use SUSTAIN DAMAGE this
round; every round, even without hits, in space and in ground combat (mechs), damage from before
the combat included (docs/rulings.md R7)."""

from __future__ import annotations

from typing import Any

from spacecombat.core.engine import Decision, Played, Step
from spacecombat.core.forces import Forces, Status
from spacecombat.rulesets import parse_ti_scenario
from spacecombat.rulesets.ti4.abilities.duranium_armor import DuraniumArmor
from spacecombat.rulesets.ti4.setup import BattleSetup, build
from spacecombat.rulesets.ti4.sides import Side
from spacecombat.rulesets.ti4.state import BattleState
from tests.helpers import events, invasion, run, space

A, D = Side.ATTACKER, Side.DEFENDER
DA = ["duranium_armor"]
OWNED = DuraniumArmor(A)


def setup_of(scenario: dict[str, Any]) -> BattleSetup:
    return build(parse_ti_scenario(scenario))


def repair_rounds(played: Played[BattleState], player: str) -> list[object]:
    """The combat round of each repair of a player."""
    current: object = 0
    found: list[object] = []
    for e in played.events:
        if e["event"] == "round_started":
            current = e["round"]
        elif e["event"] == "unit_repaired" and e["player"] == player:
            found.append(current)
    return found


def outcome_units(played: Played[BattleState], side: str, where: str) -> object:
    block = played.outcome[side]
    assert isinstance(block, dict)
    return block["space"] if where == "space" else block["planets"][0]


DAMAGED_DREADNOUGHT = setup_of(
    space(
        {"units": "1 dreadnought", "damaged": "1 dreadnought", "technologies": DA},
        {"units": "1 cruiser"},
    )
)


# --- handler level ------------------------------------------------------------------------------


def test_the_owner_is_asked_which_damaged_unit_to_repair() -> None:
    node = OWNED.after_assign_hits(DAMAGED_DREADNOUGHT, DAMAGED_DREADNOUGHT.initial, A)
    assert isinstance(node, Decision)
    assert [o.text for o in node.request.options] == ["repair dreadnought"]


def test_repairing_makes_the_unit_undamaged() -> None:
    node = OWNED.after_assign_hits(DAMAGED_DREADNOUGHT, DAMAGED_DREADNOUGHT.initial, A)
    assert isinstance(node, Decision)
    step = node.then(node.request.options[0])
    assert isinstance(step, Step)
    assert step.state.attacker.space == Forces.of({"dreadnought": 1})


def test_it_does_nothing_for_the_opponent() -> None:
    assert OWNED.after_assign_hits(DAMAGED_DREADNOUGHT, DAMAGED_DREADNOUGHT.initial, D) is None


def test_it_does_nothing_without_damaged_units() -> None:
    setup = setup_of(space({"units": "1 dreadnought", "technologies": DA}, {"units": "1 cruiser"}))
    assert OWNED.after_assign_hits(setup, setup.initial, A) is None


def test_it_cannot_repair_a_unit_that_sustained_this_round() -> None:
    state = DAMAGED_DREADNOUGHT.initial
    sustained = Forces([("dreadnought", Status.SUSTAINED_THIS_ROUND, 1)])
    state = state.with_side(A, state.attacker.with_space(sustained))
    assert OWNED.after_assign_hits(DAMAGED_DREADNOUGHT, state, A) is None


# --- procedure level: space combat --------------------------------------------------------------


def test_it_repairs_damage_from_before_the_combat_in_round_1_without_any_hit() -> None:
    # Round 1: dreadnought 1; cruiser 1 (no hits), repair. Round 2: 5; 1.
    played = run(
        space(
            {"units": "1 dreadnought", "damaged": "1 dreadnought", "technologies": DA},
            {"units": "1 cruiser"},
        ),
        [1, 1, 5, 1],
    )
    assert repair_rounds(played, "attacker") == [1]


def test_the_unit_that_sustained_this_round_is_repaired_only_the_next_round() -> None:
    # Round 1: dreadnought 1; cruiser 7, sustained. Round 2: 5; 1, repaired.
    played = run(
        space({"units": "1 dreadnought", "technologies": DA}, {"units": "1 cruiser"}), [1, 7, 5, 1]
    )
    assert repair_rounds(played, "attacker") == [2]


def test_it_repairs_one_unit_per_round() -> None:
    # Rounds 1 and 2: no hits; round 3: a hit ends it.
    played = run(
        space(
            {"units": "2 dreadnought", "damaged": "2 dreadnought", "technologies": DA},
            {"units": "1 cruiser"},
        ),
        [1, 1, 1, 1, 1, 1, 5, 1, 1],
    )
    assert repair_rounds(played, "attacker") == [1, 2]


def test_it_does_not_repair_the_opponents_units() -> None:
    played = run(
        space(
            {"units": "1 cruiser", "technologies": DA},
            {"units": "1 dreadnought", "damaged": "1 dreadnought"},
        ),
        [1, 1, 7, 1],
    )
    assert events(played, "unit_repaired") == []


def test_it_does_not_repair_a_mech_in_the_space_area_during_space_combat() -> None:
    # docs/rulings.md R7 "Participants only": ground forces in space do not fight a space combat.
    played = run(
        space(
            {"units": "1 carrier, 1 mech", "damaged": "1 mech", "technologies": DA},
            {"units": "1 cruiser"},
        ),
        [9, 1],
    )
    assert events(played, "unit_repaired") == []


# --- procedure level: ground combat -------------------------------------------------------------


def test_it_repairs_a_damaged_mech_in_ground_combat() -> None:
    # Round 1: mech 1; infantry 1, repair. Round 2: 6; 1.
    played = run(
        invasion(
            {"units": "1 carrier, 1 mech", "damaged": "1 mech", "technologies": DA},
            {"units": "1 infantry"},
        ),
        [1, 1, 6, 1],
    )
    assert outcome_units(played, "attacker", "planet") == [{"unit": "mech", "count": 1}]


def test_a_mech_that_sustained_this_ground_combat_round_is_repaired_the_next_round() -> None:
    # Round 1: mech 1; infantry 8, sustained. Round 2: 6; 1, repaired.
    played = run(
        invasion({"units": "1 carrier, 1 mech", "technologies": DA}, {"units": "1 infantry"}),
        [1, 8, 6, 1],
    )
    assert repair_rounds(played, "attacker") == [2]


def test_it_repairs_a_mech_damaged_by_bombardment_in_the_first_ground_combat_round() -> None:
    # docs/rulings.md R7 "Earlier damage counts". Bombardment 5 (mech sustains); commit; round 1:
    # infantry 1; mech 1, repair. Round 2: 1; 6.
    played = run(
        invasion({"units": "1 dreadnought, 1 infantry"}, {"units": "1 mech", "technologies": DA}),
        [5, 1, 1, 1, 6],
    )
    assert repair_rounds(played, "defender") == [1]


def test_it_does_not_repair_a_damaged_dreadnought_in_space_during_ground_combat() -> None:
    # docs/rulings.md R7: only units taking part in that combat; ships do not fight on planets.
    played = run(
        invasion(
            {"units": "1 dreadnought, 1 infantry", "damaged": "1 dreadnought", "technologies": DA},
            {"units": "1 infantry, 1 pds"},
        ),
        [1, 8, 1],
    )
    assert events(played, "unit_repaired") == []
