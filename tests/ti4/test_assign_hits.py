"""Space combat Step 4, Assign Hits (ti4-space-combat.md step 4; docs/rulings.md R17, R22):
each player destroys its own ships, one per hit the opponent produced, after using SUSTAIN
DAMAGE if it wishes; the decision lists the legal options and refuses any other answer with
the reason; the stock policy follows a casualty order and sustains first or last; ground forces
in the space area never take hits."""

from __future__ import annotations

import re

import pytest

from spacecombat.core.engine import Played
from spacecombat.core.errors import IllegalChoice
from spacecombat.rulesets.ti4.state import BattleState
from tests.helpers import events, run, space, survivors

CAUSE = "space combat"


def destroyed(played: Played[BattleState]) -> list[tuple[object, object]]:
    return [(e["player"], e["unit"]) for e in events(played, "unit_destroyed", cause=CAUSE)]


def test_each_player_assigns_the_hits_against_its_own_ships() -> None:
    # ti4-space-combat.md step 4: each player chooses and destroys one of its own ships.
    # Faces, round 1: cruiser 7 (hit), carrier 1; cruiser 7 (hit), carrier 1.
    # Round 2: cruiser 7 (hit); cruiser 1.
    played = run(
        space({"units": "1 carrier, 1 cruiser"}, {"units": "1 carrier, 1 cruiser"}),
        [7, 1, 7, 1, 7, 1],
    )
    asked = events(played, "choice_made", decision="assign_hit")
    assert [(e["player"], e["options"]) for e in asked[:2]] == [
        ("attacker", ["destroy carrier", "destroy cruiser"]),
        ("defender", ["destroy carrier", "destroy cruiser"]),
    ]


def test_a_hit_destroys_a_ship_of_the_player_hit() -> None:
    # ti4-space-combat.md step 4 and 4.2. Same battle as above: each side loses its carrier
    # in round 1 (stock policy), then the defender its cruiser.
    played = run(
        space({"units": "1 carrier, 1 cruiser"}, {"units": "1 carrier, 1 cruiser"}),
        [7, 1, 7, 1, 7, 1],
    )
    assert destroyed(played) == [
        ("attacker", "carrier"),
        ("defender", "carrier"),
        ("defender", "cruiser"),
    ]


def test_sustain_damage_cancels_a_hit() -> None:
    # ti4-space-combat.md step 4.1. Faces: dreadnought 5 (hit); cruiser 7 (hit, sustained).
    played = run(space({"units": "1 dreadnought"}, {"units": "1 cruiser"}), [5, 7])
    sustained = events(played, "damage_sustained", cause=CAUSE)
    assert [(e["player"], e["unit"], e["hits_cancelled"]) for e in sustained] == [
        ("attacker", "dreadnought", 1)
    ]
    assert destroyed(played) == [("defender", "cruiser")]


def test_a_unit_that_sustained_damage_stays_damaged() -> None:
    # ti4-space-combat.md step 4.1: the dreadnought survives, damaged. Faces as above.
    played = run(space({"units": "1 dreadnought"}, {"units": "1 cruiser"}), [5, 7])
    block = played.outcome["attacker"]
    assert isinstance(block, dict)
    assert block["space"] == [{"unit": "dreadnought", "count": 1, "status": "damaged"}]


def test_the_options_are_every_legal_assignment() -> None:
    # ti4-space-combat.md step 4 and docs/rulings.md R17: sustain with an undamaged unit that
    # has SUSTAIN DAMAGE, or destroy any own ship; infantry in space is not a ship.
    # Faces: dreadnought 5 (hit), carrier 1, fighter 1; cruiser 7 (hit).
    played = run(
        space(
            {"units": "1 dreadnought, 1 carrier, 1 fighter, 2 infantry"},
            {"units": "1 cruiser"},
        ),
        [5, 1, 1, 7],
    )
    asked = events(played, "choice_made", decision="assign_hit", player="attacker")[0]
    assert asked["options"] == [
        "destroy carrier",
        "sustain dreadnought",
        "destroy dreadnought",
        "destroy fighter",
    ]


def test_a_damaged_unit_is_offered_only_for_destruction() -> None:
    # ti4-space-combat.md step 4.1: a damaged unit cannot sustain again.
    # Faces: dreadnought 1, cruiser 1; cruiser 7 (hit); then cruiser 7 (hit); cruiser 1.
    played = run(
        space(
            {"units": "1 dreadnought, 1 cruiser", "damaged": {"dreadnought": 1}},
            {"units": "1 cruiser"},
        ),
        [1, 1, 7, 7, 1],
        attacker=["destroy cruiser"],
    )
    asked = events(played, "choice_made", decision="assign_hit", player="attacker")[0]
    assert asked["options"] == ["destroy cruiser", "destroy dreadnought (damaged)"]


@pytest.mark.parametrize(
    ("answer", "reason"),
    [
        ("sustain cruiser", "cruiser has no SUSTAIN DAMAGE"),
        ("destroy infantry", "these hits can only be assigned to ships"),
        ("destroy war_sun", "you have no war_sun here"),
        ("destroy pds", "these hits can only be assigned to ships"),
        ("sustain banana", "'banana' is not a unit"),
        ("retreat", "an answer is 'sustain UNIT' or 'destroy UNIT'"),
    ],
)
def test_an_illegal_assignment_is_refused_with_the_reason(answer: str, reason: str) -> None:
    # ti4-space-combat.md step 4 / docs/rulings.md R17: only the player's own ships in the
    # space area take hits; only units with SUSTAIN DAMAGE sustain.
    # Faces: the attacker's PDS 1 (space cannon offense); dreadnought 1, cruiser 1, carrier 1;
    # cruiser 7 (hit).
    scenario = space(
        {"units": "1 dreadnought, 1 cruiser, 1 carrier, 1 infantry, 1 pds"},
        {"units": "1 cruiser"},
    )
    with pytest.raises(IllegalChoice, match=re.escape(f"{answer!r} is refused: {reason}")):
        run(scenario, [1, 1, 1, 1, 7], attacker=[answer])


def test_sustaining_a_damaged_unit_is_refused() -> None:
    # ti4-space-combat.md step 4.1: only an undamaged unit may use SUSTAIN DAMAGE.
    # Faces: dreadnought 1, cruiser 1; cruiser 7 (hit).
    scenario = space(
        {"units": "1 dreadnought, 1 cruiser", "damaged": {"dreadnought": 1}},
        {"units": "1 cruiser"},
    )
    with pytest.raises(IllegalChoice, match="no undamaged dreadnought is left to sustain"):
        run(scenario, [1, 1, 7], attacker=["sustain dreadnought"])


def test_stock_policy_loses_the_cheapest_ship_first() -> None:
    # core/policies.py DEFAULT_CASUALTY_ORDER: fighter, then carrier, then cruiser.
    # Faces, round 1: cruiser 1, carrier 1, fighter 1; cruisers 7, 7 (2 hits).
    # Round 2: cruiser 7 (hit); cruisers 1, 1. Round 3: cruiser 7 (hit); cruiser 1.
    played = run(
        space({"units": "1 carrier, 1 cruiser, 1 fighter"}, {"units": "2 cruiser"}),
        [1, 1, 1, 7, 7, 7, 1, 1, 7, 1],
    )
    assert [u for p, u in destroyed(played) if p == "attacker"] == ["fighter", "carrier"]


def test_stock_policy_follows_the_scenario_casualty_order() -> None:
    # Scenario policy casualty_order: the cruiser goes first, then the carrier.
    # Faces, round 1: cruiser 1, carrier 1, fighter 1; cruisers 7, 7 (2 hits).
    # Round 2: fighter 9 (hit); cruisers 1, 1. Round 3: fighter 9 (hit); cruiser 1.
    played = run(
        space(
            {
                "units": "1 carrier, 1 cruiser, 1 fighter",
                "policy": {"casualty_order": ["cruiser", "carrier", "fighter"]},
            },
            {"units": "2 cruiser"},
        ),
        [1, 1, 1, 7, 7, 9, 1, 1, 9, 1],
    )
    assert [u for p, u in destroyed(played) if p == "attacker"] == ["cruiser", "carrier"]


def test_stock_policy_sustain_first_saves_the_fighter() -> None:
    # Scenario policy sustain: first: the dreadnought sustains the hit before any ship is lost.
    # Faces: dreadnought 5 (hit), fighter 1; cruiser 7 (hit).
    played = run(
        space(
            {"units": "1 dreadnought, 1 fighter", "policy": {"sustain": "first"}},
            {"units": "1 cruiser"},
        ),
        [5, 1, 7],
    )
    assert survivors(played, "attacker") == {"dreadnought": 1, "fighter": 1}


def test_stock_policy_sustain_last_loses_the_fighter_first() -> None:
    # Scenario policy sustain: last: ships that cannot sustain are lost first; the dreadnought
    # stays undamaged. Faces as above.
    played = run(
        space(
            {"units": "1 dreadnought, 1 fighter", "policy": {"sustain": "last"}},
            {"units": "1 cruiser"},
        ),
        [5, 1, 7],
    )
    assert destroyed(played) == [("attacker", "fighter"), ("defender", "cruiser")]
    assert events(played, "damage_sustained") == []


def test_stock_policy_sustain_last_sustains_once_nothing_else_is_left() -> None:
    # Scenario policy sustain: last: with 2 hits, the fighter is lost, then the dreadnought
    # sustains. Faces: dreadnought 5 (hit), fighter 1; cruisers 7, 7 (2 hits).
    # Round 2: dreadnought 5 (hit); cruiser 1.
    played = run(
        space(
            {"units": "1 dreadnought, 1 fighter", "policy": {"sustain": "last"}},
            {"units": "2 cruiser"},
        ),
        [5, 1, 7, 7, 5, 1],
    )
    sustained = events(played, "damage_sustained", player="attacker")
    assert [u for p, u in destroyed(played) if p == "attacker"] == ["fighter"]
    assert [e["unit"] for e in sustained] == ["dreadnought"]


def test_ground_forces_in_space_never_take_hits() -> None:
    # docs/rulings.md R17: ground forces in the space area are not ships; the second hit finds
    # no ship and is lost. Faces: carrier 1; cruisers 7, 7 (2 hits).
    played = run(space({"units": "1 carrier, 2 infantry"}, {"units": "2 cruiser"}), [1, 7, 7])
    assert destroyed(played) == [("attacker", "carrier")]
    lost = events(played, "hits_lost", cause=CAUSE)
    assert [(e["player"], e["hits"]) for e in lost] == [("attacker", 1)]
