"""Non-Euclidean Shielding (abilities/non_euclidean_shielding.py): each use of SUSTAIN DAMAGE by
the owner's units cancels up to 2 hits; with only 1 hit left it cancels that 1. It works for
mechs and against combat, bombardment and space cannon hits (docs/rulings.md R8)."""

from __future__ import annotations

from spacecombat.rulesets import parse_ti_scenario
from spacecombat.rulesets.ti4.abilities.non_euclidean_shielding import NonEuclideanShielding
from spacecombat.rulesets.ti4.abilities.sustain_damage import hits_cancelled
from spacecombat.rulesets.ti4.setup import build
from spacecombat.rulesets.ti4.sides import Side
from tests.helpers import events, invasion, run, space

A, D = Side.ATTACKER, Side.DEFENDER
NES = ["non_euclidean_shielding"]
OWNED = NonEuclideanShielding(A)
SETUP = build(
    parse_ti_scenario(
        space({"units": "1 dreadnought", "technologies": NES}, {"units": "1 cruiser"})
    )
)


# --- handler level ------------------------------------------------------------------------------


def test_the_owners_sustain_cancels_two_hits() -> None:
    assert OWNED.sustain_cancels(A) == 2


def test_it_has_no_say_for_the_opponent() -> None:
    assert OWNED.sustain_cancels(D) is None


def test_the_setup_gives_the_owner_two_and_the_opponent_one() -> None:
    assert (SETUP.sustain_cancels(A), SETUP.sustain_cancels(D)) == (2, 1)


def test_one_sustain_cancels_two_of_three_hits() -> None:
    assert hits_cancelled(SETUP, A, 3) == 2


def test_with_one_hit_left_a_sustain_cancels_only_that_hit() -> None:
    # docs/rulings.md R8: the second cancel is lost.
    assert hits_cancelled(SETUP, A, 1) == 1


# --- procedure level ----------------------------------------------------------------------------


def test_a_dreadnought_cancels_two_space_combat_hits_with_one_sustain() -> None:
    # Round 1: dreadnought 5 (hit); cruisers 7, 7 (two hits). Round 2: 5; 1.
    scenario = space({"units": "1 dreadnought", "technologies": NES}, {"units": "2 cruiser"})
    played = run(scenario, [5, 7, 7, 5, 1])
    sustained = events(played, "damage_sustained", player="attacker")
    assert [e["hits_cancelled"] for e in sustained] == [2]


def test_a_second_sustain_facing_one_hit_cancels_one() -> None:
    # Three hits on two dreadnoughts: the first sustain cancels 2, the second the last 1.
    scenario = space({"units": "2 dreadnought", "technologies": NES}, {"units": "3 cruiser"})
    played = run(scenario, [5, 5, 7, 7, 7, 5, 1, 1])
    sustained = events(played, "damage_sustained", player="attacker")
    assert [e["hits_cancelled"] for e in sustained] == [2, 1]


def test_a_mech_cancels_two_bombardment_hits() -> None:
    # docs/rulings.md R8: it applies to mechs and to bombardment.
    scenario = invasion({"units": "1 war_sun"}, {"units": "1 mech", "technologies": NES})
    played = run(scenario, [3, 3, 1])
    sustained = events(played, "damage_sustained", player="defender", cause="bombardment")
    assert [e["hits_cancelled"] for e in sustained] == [2]


def test_a_committed_mech_cancels_two_space_cannon_defense_hits() -> None:
    # docs/rulings.md R8: it applies to space cannon hits.
    scenario = invasion({"units": "1 carrier, 1 mech", "technologies": NES}, {"units": "2 pds"})
    played = run(scenario, [6, 6])
    sustained = events(played, "damage_sustained", player="attacker", cause="space cannon defense")
    assert [e["hits_cancelled"] for e in sustained] == [2]


def test_the_opponents_sustain_still_cancels_one() -> None:
    # Round 1: cruiser 7, 7 (two hits on the defender's dreadnought); dreadnought 1.
    scenario = space({"units": "2 cruiser", "technologies": NES}, {"units": "1 dreadnought"})
    played = run(scenario, [7, 7, 1])
    sustained = events(played, "damage_sustained", player="defender")
    assert [e["hits_cancelled"] for e in sustained] == [1]
