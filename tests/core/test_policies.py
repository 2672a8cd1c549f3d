"""Stock and scripted policies (core/policies.py) on hand-built decision requests."""

from __future__ import annotations

from typing import Any

import pytest

from spacecombat.core.decisions import DecisionRequest, Option
from spacecombat.core.errors import IllegalChoice, ReplayError
from spacecombat.core.forces import Status, describe
from spacecombat.core.policies import PolicyConfig, ScriptedPolicy, StockPolicy

U, D, S = Status.UNDAMAGED, Status.DAMAGED, Status.SUSTAINED_THIS_ROUND


def assign_hit(units: list[tuple[str, Status]], sustainable: set[str]) -> DecisionRequest:
    """The assign_hit request the TI4 procedures build: for each (unit, status) present, a
    "sustain" option if it can still sustain, and a "destroy" option."""
    options: list[Option] = []
    for unit, status in units:
        if unit in sustainable and status is U:
            options.append(Option(f"sustain {unit}", "sustain", unit, status))
        options.append(Option(f"destroy {describe(unit, status)}", "destroy", unit, status))
    return DecisionRequest("assign_hit", "defender", "assign the next hit", tuple(options))


def choose(request: DecisionRequest, **config: Any) -> str:
    """The stock player's answer, with ``config`` as the scenario's ``policy:`` would set it."""
    return StockPolicy(PolicyConfig(**config)).choose(request)


# --- assigning hits ------------------------------------------------------------------------


def test_the_cheapest_unit_in_the_casualty_order_is_destroyed_first() -> None:
    request = assign_hit([("cruiser", U), ("destroyer", U), ("fighter", U)], set())
    assert choose(request) == "destroy fighter"


def test_a_custom_casualty_order_is_followed() -> None:
    request = assign_hit([("cruiser", U), ("destroyer", U), ("fighter", U)], set())
    assert choose(request, casualty_order=("cruiser", "fighter", "destroyer")) == "destroy cruiser"


def test_units_missing_from_the_casualty_order_go_last() -> None:
    request = assign_hit([("flagship", U), ("pds", U)], set())
    assert choose(request, casualty_order=("flagship",)) == "destroy flagship"


def test_sustain_first_sustains_before_destroying_anything() -> None:
    # docs/rulings.md R17: sustaining is the owner's free choice; "first" uses it at once.
    request = assign_hit([("dreadnought", U), ("fighter", U)], {"dreadnought"})
    assert choose(request, sustain="first") == "sustain dreadnought"


def test_sustain_first_sustains_the_cheapest_unit_that_can() -> None:
    request = assign_hit([("dreadnought", U), ("war_sun", U)], {"dreadnought", "war_sun"})
    assert choose(request, sustain="first") == "sustain dreadnought"


def test_sustain_last_destroys_units_that_cannot_sustain_first() -> None:
    # docs/rulings.md R17: the owner may destroy fighters and leave a dreadnought undamaged.
    request = assign_hit([("dreadnought", U), ("fighter", U)], {"dreadnought"})
    assert choose(request, sustain="last") == "destroy fighter"


def test_sustain_last_destroys_a_damaged_ship_before_sustaining() -> None:
    request = assign_hit([("dreadnought", U), ("dreadnought", D)], {"dreadnought"})
    assert choose(request, sustain="last") == "destroy dreadnought (damaged)"


def test_sustain_last_sustains_when_nothing_else_is_left() -> None:
    request = assign_hit([("dreadnought", U)], {"dreadnought"})
    assert choose(request, sustain="last") == "sustain dreadnought"


# "in order" (issue 14; players call it "don't risk Direct Hit"): a unit sustains only when it
# is the next casualty in the order; a unit Direct Hit cannot destroy sustains first anyway.


def with_facts(request: DecisionRequest, **facts: object) -> DecisionRequest:
    return DecisionRequest(request.decision, request.player, request.prompt, request.options, facts)


def test_in_order_destroys_cheaper_units_before_sustaining() -> None:
    request = assign_hit([("carrier", U), ("dreadnought", U), ("fighter", U)], {"dreadnought"})
    assert choose(request, sustain="in_order") == "destroy fighter"


def test_in_order_sustains_the_next_casualty_when_it_can() -> None:
    # casualty order puts the dreadnought before the carrier: it sustains rather than dies
    request = assign_hit([("carrier", U), ("dreadnought", U)], {"dreadnought"})
    order = ("dreadnought", "carrier")
    assert choose(request, sustain="in_order", casualty_order=order) == "sustain dreadnought"
    # by the default order the carrier is next: it is destroyed, the dreadnought kept whole
    assert choose(request, sustain="in_order") == "destroy carrier"


def test_in_order_lets_units_direct_hit_cannot_destroy_sustain_first() -> None:
    request = with_facts(
        assign_hit([("carrier", U), ("dreadnought", U)], {"dreadnought"}),
        sustain_first=frozenset({"dreadnought"}),
    )
    assert choose(request, sustain="in_order") == "sustain dreadnought"


def test_in_order_sustains_rather_than_lose_a_damaged_unit_of_the_next_type() -> None:
    request = assign_hit([("dreadnought", U), ("dreadnought", D)], {"dreadnought"})
    assert choose(request, sustain="in_order") == "sustain dreadnought"


def test_a_ship_that_sustained_this_round_is_destroyed_before_one_damaged_earlier() -> None:
    """Issue 3 / docs/rulings.md R7: Duranium Armor repairs only a unit that did not sustain
    damage this round, so the stock player keeps the one damaged earlier (repairable)."""
    request = assign_hit([("dreadnought", D), ("dreadnought", S)], {"dreadnought"})
    assert choose(request) == "destroy dreadnought (sustained this round)"


def test_a_damaged_ship_is_destroyed_before_an_undamaged_one_of_its_type() -> None:
    request = assign_hit([("dreadnought", U), ("dreadnought", D)], set())
    assert choose(request) == "destroy dreadnought (damaged)"


def test_the_casualty_order_comes_before_damage() -> None:
    request = assign_hit([("dreadnought", S), ("carrier", U)], set())
    assert choose(request) == "destroy carrier"


# --- announcing a retreat ------------------------------------------------------------------


def announce(rounds_fought: int = 0, own_dice: int = 3, enemy_dice: int = 3) -> DecisionRequest:
    # ti4-space-combat.md step 2: each player may announce a retreat.
    return DecisionRequest(
        "announce_retreat",
        "attacker",
        "announce a retreat?",
        (Option("stay", "stay"), Option("retreat", "retreat")),
        facts={
            "round": rounds_fought + 1,
            "rounds_fought": rounds_fought,
            "own_dice": own_dice,
            "enemy_dice": enemy_dice,
        },
    )


def test_the_stock_player_never_retreats_unless_told() -> None:
    assert choose(announce(rounds_fought=9, own_dice=1, enemy_dice=20)) == "stay"


def test_retreat_after_round_n_stays_before_round_n() -> None:
    assert choose(announce(rounds_fought=0), retreat_after_round=2) == "stay"


def test_retreat_after_round_n_announces_in_round_n() -> None:
    # Announced in round 2 (one round fought), the retreat happens at the end of round 2.
    assert choose(announce(rounds_fought=1), retreat_after_round=2) == "retreat"


def test_retreat_when_outnumbered_stays_below_the_ratio() -> None:
    request = announce(own_dice=4, enemy_dice=7)
    assert choose(request, retreat_when_outnumbered=2.0) == "stay"


def test_retreat_when_outnumbered_retreats_at_the_ratio() -> None:
    request = announce(own_dice=4, enemy_dice=8)
    assert choose(request, retreat_when_outnumbered=2.0) == "retreat"


def test_retreat_when_outnumbered_does_not_flee_an_enemy_without_dice() -> None:
    request = announce(own_dice=0, enemy_dice=0)
    assert choose(request, retreat_when_outnumbered=1.0) == "stay"


# --- destinations, repair, excess units ----------------------------------------------------


def test_retreat_destination_follows_retreat_to() -> None:
    request = DecisionRequest(
        "retreat_destination",
        "attacker",
        "choose",
        (Option("to A", "to", target="A"), Option("to B", "to", target="B")),
    )
    assert choose(request, retreat_to=("C", "B")) == "to B"


def test_repair_picks_the_most_valuable_damaged_unit() -> None:
    # docs/rulings.md R7 (Engine): default is the most valuable.
    request = DecisionRequest(
        "repair",
        "attacker",
        "Duranium Armor: repair 1 damaged unit",
        tuple(Option(f"repair {u}", "repair", u) for u in ("dreadnought", "war_sun", "carrier")),
    )
    assert choose(request) == "repair war_sun"


def test_remove_excess_removes_the_cheapest_unit() -> None:
    # docs/rulings.md R6: units beyond capacity are removed; the stock player keeps value.
    request = DecisionRequest(
        "remove_excess",
        "attacker",
        "1 unit(s) beyond capacity: remove one",
        (
            Option("remove mech", "remove", "mech", U),
            Option("remove fighter", "remove", "fighter", U),
            Option("remove infantry", "remove", "infantry", U),
        ),
    )
    assert choose(request) == "remove infantry"


def test_the_stock_policy_refuses_a_decision_it_does_not_know() -> None:
    request = DecisionRequest("bribe", "attacker", "?", (Option("yes", "yes"),))
    with pytest.raises(IllegalChoice, match="cannot answer 'bribe'"):
        choose(request)


# --- scripted ------------------------------------------------------------------------------


def test_scripted_policy_answers_in_order() -> None:
    policy = ScriptedPolicy(["retreat", "to B"])
    assert [policy.choose(announce()), policy.choose(announce())] == ["retreat", "to B"]


def test_scripted_policy_that_runs_out_raises_replay_error() -> None:
    policy = ScriptedPolicy(["stay"])
    policy.choose(announce())
    with pytest.raises(ReplayError, match="ran out at attacker's announce_retreat"):
        policy.choose(announce())
