"""EC4X engagement: hostility (7.3.2.1), who takes part in a system's space combat (top of
7.3, 6.2.4-6.2.6, 7.4, facts §9 on 8.1) and a Task Force's ROE and cloak (7.2)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from spacecombat.rulesets.ec4x.space_combat.engagement import (
    FleetPosture,
    Status,
    engagement,
    hostile,
    joins_combat,
    task_force_cloaked,
    task_force_roe,
)

A, B, C = "A", "B", "C"


def rel(status: Status, *pairs: tuple[str, str]) -> dict[frozenset[str], Status]:
    return {frozenset(pair): status for pair in pairs}


ENEMY = rel("enemy", (A, B))
NEUTRAL = rel("neutral", (A, B))
PACT = rel("non_aggression", (A, B))


# ---- 7.3.2.1 hostility -------------------------------------------------------------------------


def test_enemy_status_is_hostile_7_3_2_1_condition_1() -> None:
    assert hostile(A, B, status="enemy", target_fleets=[], controller=None, engaged_before=False)


def test_neutral_houses_are_not_hostile_by_default_7_3_2_1() -> None:
    fleets = [FleetPosture(B, 0)]
    assert not hostile(
        A, B, status="neutral", target_fleets=fleets, controller=A, engaged_before=False
    )


@pytest.mark.parametrize("order", [5, 6, 7, 8, 12])
def test_threat_to_the_attackers_colony_is_hostile_7_3_2_1_condition_2(order: int) -> None:
    """ "orders 05 through 08 or 12 directed at the attacking house's controlled systems"."""
    fleets = [FleetPosture(B, order, threatens=A)]
    assert hostile(A, B, status="neutral", target_fleets=fleets, controller=A, engaged_before=False)
    assert hostile(
        A, B, status="non_aggression", target_fleets=fleets, controller=A, engaged_before=False
    )


def test_threat_hostility_is_one_way_as_written_7_3_2_1() -> None:
    """E10: the threatening house may not target the defender in the first round, unless
    threat_hostility="both_ways"."""
    defender = [FleetPosture(A, 0)]
    invader = [FleetPosture(B, 7, threatens=A)]
    assert not hostile(
        B, A, status="neutral", target_fleets=defender, controller=A, engaged_before=False
    )
    assert hostile(
        B,
        A,
        status="neutral",
        target_fleets=defender,
        controller=A,
        engaged_before=False,
        threat_hostility="both_ways",
        attacker_fleets=invader,
    )


def test_colonizing_under_a_pact_7_3_2_1_and_6_2_13() -> None:
    """E11: order 12 is a threat even between pact partners by default (7.3 rule 3 "Regardless
    of diplomatic status"); colonize_under_pact="no_threat" reads 6.2.13's "Houses without
    Non-Aggression Pacts will engage colonization attempts"."""
    fleets = [FleetPosture(B, 12, threatens=A)]
    assert hostile(
        A, B, status="non_aggression", target_fleets=fleets, controller=A, engaged_before=False
    )
    assert not hostile(
        A,
        B,
        status="non_aggression",
        target_fleets=fleets,
        controller=A,
        engaged_before=False,
        colonize_under_pact="no_threat",
    )
    assert hostile(
        A,
        B,
        status="neutral",
        target_fleets=fleets,
        controller=A,
        engaged_before=False,
        colonize_under_pact="no_threat",
    )


def test_patrol_in_own_territory_without_pact_7_3_2_1_condition_3() -> None:
    fleets = [FleetPosture(B, 3)]
    assert hostile(A, B, status="neutral", target_fleets=fleets, controller=A, engaged_before=False)
    assert not hostile(
        A, B, status="non_aggression", target_fleets=fleets, controller=A, engaged_before=False
    )
    assert not hostile(
        A, B, status="neutral", target_fleets=fleets, controller=None, engaged_before=False
    )
    assert not hostile(
        A, B, status="neutral", target_fleets=fleets, controller=B, engaged_before=False
    )


def test_engaged_before_is_hostile_7_3_2_1_condition_4() -> None:
    fleets = [FleetPosture(B, 0)]
    assert hostile(
        A, B, status="non_aggression", target_fleets=fleets, controller=None, engaged_before=True
    )


def test_hostile_refuses_inconsistent_input() -> None:
    with pytest.raises(ValueError, match="itself"):
        hostile(A, A, status="enemy", target_fleets=[], controller=None, engaged_before=False)
    with pytest.raises(ValueError, match="belong to B"):
        hostile(
            A,
            B,
            status="enemy",
            target_fleets=[FleetPosture(C, 0)],
            controller=None,
            engaged_before=False,
        )
    with pytest.raises(ValueError, match="one colony per system"):
        hostile(
            A,
            B,
            status="neutral",
            target_fleets=[FleetPosture(B, 7, threatens=A)],
            controller=C,
            engaged_before=False,
        )


@given(
    st.sampled_from(["enemy", "neutral", "non_aggression"]),
    st.lists(st.sampled_from([0, 1, 2, 3, 4, 5, 9, 13, 14, 15]), max_size=4),
    st.sampled_from([A, B, None]),
)
def test_engaged_before_or_enemy_is_always_hostile(
    status: Status, orders: list[int], controller: str | None
) -> None:
    """7.3.2.1: "any of the following conditions" - conditions 1 and 4 alone suffice."""
    fleets = [FleetPosture(B, order) for order in orders]
    assert hostile(
        A, B, status=status, target_fleets=fleets, controller=controller, engaged_before=True
    )
    assert hostile(
        A, B, status="enemy", target_fleets=fleets, controller=controller, engaged_before=False
    )


# ---- 7.3 who takes part ------------------------------------------------------------------------


def joins(
    fleets: list[FleetPosture],
    statuses: Mapping[frozenset[str], Status],
    controller: str | None,
    starbase: bool = False,
    **options: Any,
) -> tuple[bool, ...]:
    return engagement(
        fleets, statuses=statuses, controller=controller, starbase=starbase, **options
    ).fleets


def test_enemies_are_mandated_to_engage_7_3() -> None:
    """7.3: "All fleets within a solar system are mandated to engage forces from houses with
    Enemy diplomatic status" - whatever their order, in any territory."""
    fleets = [FleetPosture(A, 0), FleetPosture(B, 1), FleetPosture(B, 11)]
    assert joins(fleets, ENEMY, None) == (True, True, True)


def test_neutral_houses_do_not_fight_7_3() -> None:
    fleets = [FleetPosture(A, 3), FleetPosture(B, 3)]
    assert joins(fleets, NEUTRAL, None) == (False, False)
    assert joins(fleets, NEUTRAL, A) == (False, False)


def test_an_uninvolved_third_house_stays_out_7_3() -> None:
    """7.3: "Each house ... engages only those houses identified as hostile"."""
    fleets = [FleetPosture(A, 0), FleetPosture(B, 0), FleetPosture(C, 0)]
    statuses = ENEMY | rel("neutral", (A, C), (B, C))
    assert joins(fleets, statuses, None) == (True, True, False)


def test_guard_fleets_are_excepted_from_the_mandate_7_3_and_6_2_6() -> None:
    """7.3 exceptions "Fleet Order 05"; 6.2.6 guards "do not join Space Combat unless
    confronted by hostile ships with orders 05 to 08"."""
    fleets = [FleetPosture(A, 5), FleetPosture(A, 0), FleetPosture(B, 1)]
    assert joins(fleets, ENEMY, A) == (False, True, True)


@pytest.mark.parametrize("order", [5, 6, 7, 8, 12])
def test_guard_engages_enemy_fleets_with_orders_05_08_and_12_7_3_rule_2(order: int) -> None:
    fleets = [FleetPosture(A, 5), FleetPosture(B, order, threatens=A)]
    assert joins(fleets, ENEMY, A) == (True, True)


def test_guard_trigger_orders_option_7_3_rule_2_vs_6_2_6() -> None:
    """E12: 6.2.6 names orders 05 to 08 only: guard_triggers="orders_05_08" leaves a guard out
    against a colonizing fleet (order 12)."""
    fleets = [FleetPosture(A, 5), FleetPosture(B, 12, threatens=A)]
    assert joins(fleets, ENEMY, A) == (True, True)
    assert joins(fleets, ENEMY, A, guard_triggers="orders_05_08") == (False, True)


def test_guard_against_a_neutral_invader_option_7_3_rules_2_and_3() -> None:
    """E13: a neutral house invading: 7.3 rule 3 ("Regardless of diplomatic status") and 6.2.6
    ("hostile ships") bring the guard in; guard_engages="enemy_only" reads rule 2's "only
    enemy fleets". The invader is drawn in when engaged (facts 8.1.4)."""
    fleets = [FleetPosture(A, 5), FleetPosture(B, 7, threatens=A)]
    assert joins(fleets, NEUTRAL, A) == (True, True)
    assert joins(fleets, NEUTRAL, A, guard_engages="enemy_only") == (False, False)


def test_territorial_defence_regardless_of_status_7_3_rule_3() -> None:
    """7.3 rule 3: a neutral or pact house's order 05-08/12 at the colony makes the
    controller's fleets engage; the threatening fleet is drawn in."""
    fleets = [FleetPosture(A, 0), FleetPosture(B, 6, threatens=A), FleetPosture(B, 1)]
    assert joins(fleets, NEUTRAL, A) == (True, True, True)
    assert joins(fleets, PACT, A) == (True, True, True)


def test_colonizing_a_pact_partners_system_option_6_2_13() -> None:
    """E11: order 12 between pact partners is a threat by default; not with "no_threat"."""
    fleets = [FleetPosture(A, 0), FleetPosture(B, 12, threatens=A)]
    assert joins(fleets, PACT, A) == (True, True)
    assert joins(fleets, PACT, A, colonize_under_pact="no_threat") == (False, False)
    assert joins(fleets, NEUTRAL, A, colonize_under_pact="no_threat") == (True, True)


def test_a_threat_to_someone_elses_colony_does_not_move_a_bystander() -> None:
    """7.3 rule 3 triggers "the colony's controlling house" only."""
    fleets = [FleetPosture(A, 0), FleetPosture(B, 7, threatens=C), FleetPosture(C, 5)]
    statuses = rel("neutral", (A, B), (A, C), (B, C))
    assert joins(fleets, statuses, C) == (False, True, True)


def test_blockade_engages_only_enemy_guards_of_that_planet_7_3_rule_1() -> None:
    """7.3 rule 1 and 6.2.6: blockaders engage "only with enemy fleets ordered to Guard that
    same planet"; the guard engages the blockade (an order 05 at its colony)."""
    fleets = [FleetPosture(A, 5, threatens=B), FleetPosture(B, 5)]
    assert joins(fleets, ENEMY, B) == (True, True)


def test_blockade_without_guards_stays_out_7_3_rule_1() -> None:
    """The blockaded house has no guard and no starbase: nothing engages the blockade
    (the blockaders are excepted from the mandate, 7.3), and B's fleet has no Enemy here."""
    fleets = [FleetPosture(A, 5, threatens=B), FleetPosture(C, 0)]
    statuses = ENEMY | rel("neutral", (A, C), (B, C))
    assert joins(fleets, statuses, B) == (False, False)


def test_blockaders_attacked_by_a_neutral_guard_option() -> None:
    """E15: a neutral guard engages the blockade (7.3 rule 3); the blockaders fight back by
    default (facts 8.1.4) or stay held back with blockade_attacked="held_back"."""
    fleets = [FleetPosture(A, 5, threatens=B), FleetPosture(B, 5)]
    assert joins(fleets, NEUTRAL, B) == (True, True)
    assert joins(fleets, NEUTRAL, B, blockade_attacked="held_back") == (False, True)


def test_starbase_guard_joins_when_confronted_by_orders_05_08_6_2_5() -> None:
    """6.2.5: order 04 joins the starbase's Task Force "when confronting hostile ships with
    orders 05 to 08"; 7.4 the starbase is the primary defense."""
    fleets = [FleetPosture(A, 4), FleetPosture(B, 6, threatens=A)]
    result = engagement(fleets, statuses=ENEMY, controller=A, starbase=True)
    assert result.fleets == (True, True)
    assert result.starbase


def test_starbase_guard_without_a_starbase_stays_out_6_2_5() -> None:
    fleets = [FleetPosture(A, 4), FleetPosture(B, 6, threatens=A)]
    assert joins(fleets, ENEMY, A, starbase=False) == (False, True)


def test_starbase_guard_against_a_mere_enemy_presence_option_7_4() -> None:
    """E14: an Enemy fleet with order 00 engages the starbase (7.3 mandate); the order 04 fleet
    stays out by default (7.3 exception, 6.2.5), joins with starbase_guard="with_starbase"
    (7.4 "Fleets with orders to guard the Starbase (Fleet Orders 04) also join")."""
    fleets = [FleetPosture(A, 4), FleetPosture(B, 0)]
    result = engagement(fleets, statuses=ENEMY, controller=A, starbase=True)
    assert (result.fleets, result.starbase) == ((False, True), True)
    wide = engagement(
        fleets, statuses=ENEMY, controller=A, starbase=True, starbase_guard="with_starbase"
    )
    assert (wide.fleets, wide.starbase) == ((True, True), True)


def test_a_lone_starbase_defends_its_colony_7_4() -> None:
    """7.4: "Starbases serve as the primary defense if a hostile fleet aims to blockade,
    bombard, invade, or blitz a colony" - also against a neutral house."""
    fleets = [FleetPosture(B, 8, threatens=A)]
    result = engagement(fleets, statuses=NEUTRAL, controller=A, starbase=True)
    assert (result.fleets, result.starbase) == ((True,), True)


def test_a_starbase_stays_out_of_a_quarrel_that_is_not_its_houses_7_3() -> None:
    fleets = [FleetPosture(B, 0), FleetPosture(C, 0)]
    statuses = rel("enemy", (B, C)) | rel("neutral", (A, B), (A, C))
    result = engagement(fleets, statuses=statuses, controller=A, starbase=True)
    assert (result.fleets, result.starbase) == ((True, True), False)


def test_a_foreign_patrol_option_6_2_4_and_7_3_2_1() -> None:
    """E16: a neutral patrol in A's territory is hostile (7.3.2.1 (3)) but provokes no combat
    by default (6.2.4 "Patrol does NOT trigger engagement with Neutral ... houses unless");
    engage_on="any_hostility" makes A engage it; never under a pact."""
    fleets = [FleetPosture(A, 0), FleetPosture(B, 3)]
    assert joins(fleets, NEUTRAL, A) == (False, False)
    assert joins(fleets, NEUTRAL, A, engage_on="any_hostility") == (True, True)
    assert joins(fleets, PACT, A, engage_on="any_hostility") == (False, False)


def test_joins_combat_is_one_fleet_of_engagement() -> None:
    guard, other, enemy = FleetPosture(A, 5), FleetPosture(A, 0), FleetPosture(B, 1)
    fleets = [guard, other, enemy]
    args: dict[str, Any] = {"fleets": fleets, "statuses": ENEMY, "controller": A}
    assert not joins_combat(guard, starbase=False, **args)
    assert joins_combat(other, starbase=False, **args)
    assert joins_combat(enemy, starbase=False, **args)
    with pytest.raises(ValueError, match="one of fleets"):
        joins_combat(FleetPosture(C, 0), starbase=False, **args)


def test_engagement_refuses_inconsistent_input() -> None:
    with pytest.raises(ValueError, match="no diplomatic status"):
        engagement(
            [FleetPosture(A, 0), FleetPosture(C, 0)],
            statuses=ENEMY,
            controller=None,
            starbase=False,
        )
    with pytest.raises(ValueError, match="controller"):
        engagement([FleetPosture(A, 0)], statuses={}, controller=None, starbase=True)
    with pytest.raises(ValueError, match="one colony per system"):
        engagement(
            [FleetPosture(B, 7, threatens=A)], statuses=NEUTRAL, controller=None, starbase=False
        )


@pytest.mark.parametrize(
    ("house", "order", "threatens", "message"),
    [("A", 16, None, "00..15"), ("A", 3, "B", "not directed"), ("A", 7, "A", "own colony"),
     ("", 0, None, "house")],
)  # fmt: skip
def test_fleet_posture_refuses_impossible_orders(
    house: str, order: int, threatens: str | None, message: str
) -> None:
    with pytest.raises(ValueError, match=message):
        FleetPosture(house, order, threatens)


def test_fleet_posture_reads_its_order_6_2() -> None:
    assert FleetPosture(A, 4).guard_starbase
    assert FleetPosture(A, 5).guards_planet
    assert FleetPosture(A, 5, threatens=B).blockades
    assert not FleetPosture(A, 5, threatens=B).guards_planet


# ---- 7.2 Task Force ------------------------------------------------------------------------------


def test_task_force_takes_the_highest_roe_7_2() -> None:
    """7.2: "Task Forces adopt the highest ROE of any joining fleet"."""
    assert task_force_roe([2, 7, 4], has_starbase=False) == 7


def test_task_force_with_a_starbase_has_roe_10_7_2() -> None:
    """7.2: "Starbases do not retreat; the Task Force's ROE is set to 10"."""
    assert task_force_roe([0], has_starbase=True) == 10
    assert task_force_roe([], has_starbase=True) == 10
    with pytest.raises(ValueError, match="at least one fleet"):
        task_force_roe([], has_starbase=False)


def test_task_force_cloak_7_2() -> None:
    """7.2: "Task Forces including Starbases cannot cloak"; "All joining fleets must remain
    undetected for Task Force cloaking"."""
    assert task_force_cloaked([True, True], has_starbase=False)
    assert not task_force_cloaked([True, False], has_starbase=False)
    assert not task_force_cloaked([True], has_starbase=True)
    assert not task_force_cloaked([], has_starbase=False)


@pytest.mark.parametrize("order", [0, 1, 3])
def test_enemy_mandate_engages_a_colony_defended_only_by_its_defences_e54(order: int) -> None:
    """E54, 7.3 "mandated to engage forces from houses with Enemy diplomatic status": a house
    present only by its colony's starbase or fighters is engaged by an Enemy fleet."""
    result = engagement([FleetPosture(B, order)], statuses=ENEMY, controller=A, starbase=True)
    assert result == type(result)(fleets=(True,), starbase=True)
    neutral = engagement([FleetPosture(B, order)], statuses=NEUTRAL, controller=A, starbase=True)
    assert not neutral.starbase
    assert neutral.fleets == (False,)
    # without colony defences the controller is not present: nothing to engage
    bare = engagement([FleetPosture(B, order)], statuses=ENEMY, controller=A, starbase=False)
    assert bare.fleets == (False,)
    assert not bare.starbase


def test_guards_and_blockaders_do_not_provoke_a_colony_alone_e54() -> None:
    """The exceptions of 7.3 (orders 04 and 05) still hold against a colony."""
    fleets = [FleetPosture(B, 5, threatens=A)]
    result = engagement(fleets, statuses=ENEMY, controller=A, starbase=True)
    # the blockade threatens the colony: the colony's defences engage it (7.3 rule 3)
    assert result.starbase
    assert result.fleets == (True,)
    guard = engagement([FleetPosture(B, 5)], statuses=ENEMY, controller=A, starbase=True)
    assert not guard.starbase
    assert guard.fleets == (False,)
