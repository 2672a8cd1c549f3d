"""When a battle ends (the report's rounds distribution), where it stands after N rounds
(``rounds=N``: each state an object with the round, each player's units and its probability;
in text one readable line each, the rest counted), and retreat policies as part of the exact
computation."""

from __future__ import annotations

import json
from typing import Any

import pytest

from spacecombat import odds
from spacecombat.analysis.exact import exact_odds
from spacecombat.analysis.text import STATES_SHOWN, render
from tests.helpers import invasion, space

#: Fighters with no capacity are removed before the battle by default (docs/rulings.md R31);
#: the duels of fighters below are fought with the capacity checked only after the battle.
NO_CAPACITY_CHECK = {"check_capacity_before_battle": False}

RETREAT_TO_B = {"name": "A", "adjacent": [{"name": "B", "units": ["attacker"]}]}
RETREAT_IN_ROUND_2 = {"units": "2 cruiser", "policy": {"retreat": {"after_round": 2}}}

BATTLES = {
    "fighters": space({"units": "1 fighter"}, {"units": "1 fighter"}, options=NO_CAPACITY_CHECK),
    "dreadnoughts-cruisers": space({"units": "2 dreadnought"}, {"units": "3 cruiser"}),
    "barrage": space({"units": "2 carrier, 4 fighter"}, {"units": "2 destroyer, 1 cruiser"}),
    "duranium": space(
        {"units": "2 dreadnought", "technologies": ["duranium_armor"]}, {"units": "2 dreadnought"}
    ),
    "infantry": invasion({"units": "3 infantry"}, {"units": "2 infantry"}),
    "retreat": space(RETREAT_IN_ROUND_2, {"units": "2 cruiser"}, system=RETREAT_TO_B),
}


def distribution(scenario: dict[str, Any], **options: Any) -> dict[int, float]:
    rounds = odds(scenario, **options).rounds
    return {int(r): float(p) for r, p in rounds["distribution"].items()}


@pytest.mark.parametrize("name", BATTLES)
@pytest.mark.parametrize("product_form", [True, False], ids=["product-form", "graph"])
def test_the_rounds_distribution_sums_to_one_minus_the_unfinished_mass(
    name: str, product_form: bool
) -> None:
    # analysis/solve.py rounds_distribution: mass is pushed round by round until less than 1e-13
    # is still fighting; that remainder is reported as unfinished.
    rounds = exact_odds(BATTLES[name], product_form=product_form).rounds
    total = sum(float(p) for p in rounds["distribution"].values())
    assert abs(total - (1 - float(rounds["unfinished"]))) <= 1e-12


@pytest.mark.parametrize("product_form", [True, False], ids=["product-form", "graph"])
def test_one_fighter_against_one_fighter_ends_in_round_r_geometrically(
    product_form: bool,
) -> None:
    # Fighter I hits on 9 (p = 1/5): a round decides nothing when both miss, 16/25 = 0.64, so
    # P(the battle ends in round r) = 0.64^(r-1) * 0.36 (not 0.81^(r-1) * 0.19, which would be
    # dice that hit on a 10 only).
    rounds = exact_odds(BATTLES["fighters"], product_form=product_form).rounds["distribution"]
    gaps = [abs(float(rounds[str(r)]) - 0.64 ** (r - 1) * 0.36) for r in range(1, 41)]
    assert max(gaps) <= 1e-12


@pytest.mark.parametrize("name", ["fighters", "dreadnoughts-cruisers", "barrage", "infantry"])
def test_after_no_round_nothing_is_over(name: str) -> None:
    # With no space cannon or bombardment before combat, only combat rounds can end the battle.
    after = odds(BATTLES[name], rounds=0).after_rounds
    assert after is not None
    assert after["over"] == {}


@pytest.mark.parametrize("name", BATTLES)
@pytest.mark.parametrize("played", [1, 2, 3])
def test_after_n_rounds_over_and_ongoing_sum_to_one(name: str, played: int) -> None:
    # Every battle is, after N rounds, either over (by result) or in one of the states listed.
    after = odds(BATTLES[name], rounds=played).after_rounds
    assert after is not None
    total = sum(after["over"].values()) + sum(s["probability"] for s in after["states"])
    assert abs(total - 1) <= 1e-12


def test_after_one_round_the_fighters_are_over_with_the_round_one_chances() -> None:
    # One round of 1 fighter against 1 fighter: attacker alone hits 4/25, defender alone 4/25,
    # both 1/25; the rest (16/25) is still fighting, in the state it started in.
    after = odds(BATTLES["fighters"], rounds=1).after_rounds
    assert after is not None
    found = {r: round(p, 12) for r, p in after["over"].items()}
    assert found == {"attacker_win": 0.16, "defender_win": 0.16, "draw": 0.04}


def test_a_retreat_in_round_two_ends_the_battle_by_round_two() -> None:
    # ti4-space-combat.md steps 2 and 5: with {after_round: 2} the retreat is announced at the
    # start of round 2 and carried out at the end of it, so no third round is ever fought.
    assert set(distribution(BATTLES["retreat"])) == {1, 2}


def test_a_retreat_in_round_two_leaves_nothing_ongoing_after_round_two() -> None:
    after = odds(BATTLES["retreat"], rounds=2).after_rounds
    assert after is not None
    assert after["states"] == []


def test_without_an_eligible_system_the_same_policy_fights_on() -> None:
    # docs/rulings.md R12: a retreat can be announced only if some adjacent system qualifies;
    # with none, the battle can go past round 2.
    scenario = space(RETREAT_IN_ROUND_2, {"units": "2 cruiser"})
    assert max(distribution(scenario)) > 2


def test_the_retreat_changes_the_odds() -> None:
    # The exact computation follows the policy: retreating after round 1 gives the defender the
    # battles still undecided after round 2 (the attacker leaves; ti4-space-combat.md rule 10).
    stays = odds(space({"units": "2 cruiser"}, {"units": "2 cruiser"}))
    leaves = odds(BATTLES["retreat"])
    assert float(leaves.defender_win) > float(stays.defender_win) + 0.1


def test_a_retreat_announced_in_round_one_ends_the_battle_in_round_one() -> None:
    # Outnumbered 3 dice to 2 with ratio 1.5, the attacker announces a retreat at once (step 2 of
    # round 1) and retreats at its end, unless destroyed first; 2 dice cannot destroy 3 cruisers.
    scenario = space(
        {"units": "1 cruiser, 1 destroyer", "policy": {"retreat": {"when_outnumbered": 1.5}}},
        {"units": "3 cruiser"},
        system=RETREAT_TO_B,
    )
    assert abs(distribution(scenario).get(1, 0.0) - 1) <= 1e-12


def test_after_zero_rounds_all_the_probability_is_at_the_start() -> None:
    """`rounds=0` with no space cannon: round 1 begins before the first dice, so after 0
    rounds the battle stands as it starts (regression: the mass used to go missing)."""
    duel = {
        "ruleset": "ti4",
        "battle": "space",
        "attacker": {"units": "1 fighter"},
        "defender": {"units": "1 fighter"},
        "options": NO_CAPACITY_CHECK,
    }
    after = odds(duel, rounds=0).after_rounds
    assert after is not None
    assert after["over"] == {}
    assert [s["probability"] for s in after["states"]] == [1.0]


# --- the states after N rounds, as data and as text (issue 8) --------------------------------

DREADNOUGHT = space({"units": "1 dreadnought"}, {"units": "1 cruiser"})


def test_each_state_is_an_object_with_the_round_the_units_and_the_probability() -> None:
    """1 fighter against 1 fighter, after round 1: 16/25 of the time nobody was hit, and round
    2 begins with both fighters. Units are the log's records (docs/protocol.md)."""
    after = odds(BATTLES["fighters"], rounds=1).after_rounds
    assert after is not None
    [state] = after["states"]
    fighter = {"space": [{"unit": "fighter", "count": 1}], "planets": [[]]}
    assert state == {
        "round": 2,
        "attacker": fighter,
        "defender": fighter,
        "probability": pytest.approx(0.64, abs=1e-12),
    }


def test_json_holds_states_as_objects_not_strings() -> None:
    """``--format json`` used to put JSON inside JSON strings; the states are plain objects."""
    report = odds(DREADNOUGHT, rounds=1).to_json()
    states = json.loads(json.dumps(report))["after_rounds"]["states"]
    assert all(isinstance(s["attacker"]["space"], list) for s in states)


def test_text_shows_what_is_over_and_each_state_readably() -> None:
    """1 dreadnought (hits on 5: 3/5; sustains damage) against 1 cruiser (hits on 7: 2/5),
    after one round: a dreadnought hit wins (a cruiser hit is sustained): 60%; both miss: 2/5 x
    3/5 = 24%, as it started; only the cruiser hits: 2/5 x 2/5 = 16%, the dreadnought damaged."""
    text = render(odds(DREADNOUGHT, rounds=1).to_json())
    assert text.split("After 1 round(s):\n", 1)[1] == (
        "   60.000%  over: the attacker wins\n"
        "   24.000%  attacker: 1 dreadnought | defender: 1 cruiser\n"
        "   16.000%  attacker: 1 dreadnought (damaged) | defender: 1 cruiser\n"
    )


def test_text_says_how_many_states_are_not_shown_and_their_probability() -> None:
    """Text shows the 8 most likely states, then "... and N more states (p%)"; JSON has all."""
    report = odds(BATTLES["barrage"], rounds=1).to_json()
    states = report["after_rounds"]["states"]
    assert len(states) > STATES_SHOWN
    rest = states[STATES_SHOWN:]
    more = f"  ... and {len(rest)} more states ({100 * sum(s['probability'] for s in rest):.3f}%)"
    lines = render(report).splitlines()
    assert lines[-1] == more
    assert lines[-2].startswith(f"  {100 * states[STATES_SHOWN - 1]['probability']:7.3f}%  ")


def test_ground_forces_are_shown_on_the_planet() -> None:
    """An invasion's state: ships in space, ground forces on the planet."""
    after = odds(BATTLES["infantry"], rounds=1).to_json()
    lines = render(after).splitlines()
    assert any("| defender: on the planet: " in line for line in lines), lines
