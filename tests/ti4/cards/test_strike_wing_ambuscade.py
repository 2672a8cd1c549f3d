"""Strike Wing Ambuscade (Argent promissory note; abilities/strike_wing_ambuscade.py): when the
holder's units make a unit-ability roll, one of them rolls 1 additional die, once a battle
(ti4-combat-effects.md §5). Played by a "play_card" decision just before the roll: space cannon
offense (before_ability_roll), anti-fighter barrage (ti4-space-combat.md step 1), bombardment
(at the start of the invasion, ti4-ground-combat.md; with several planets, at one planet's
roll) and space cannon defense (just before the defender's roll; docs/rulings.md 14K-2)."""

from __future__ import annotations

from fractions import Fraction
from typing import Any

import pytest

from spacecombat import odds
from tests.helpers import events, invasion, rolls, run, space

SWA = {"promissory_notes": ["strike_wing_ambuscade"]}


def holder(units: str, **policy: Any) -> dict[str, Any]:
    side: dict[str, Any] = {"units": units, **SWA}
    if policy:
        side["policy"] = policy
    return side


def dice(played: Any, purpose: str) -> list[int]:
    """How many dice each group of the rolls for ``purpose`` rolled."""
    return [len(group["faces"]) for roll in rolls(played, purpose) for group in groups_of(roll)]


def groups_of(roll: object) -> list[dict[str, Any]]:
    """The groups of a ``dice_rolled`` event."""
    assert isinstance(roll, dict)
    found: list[dict[str, Any]] = roll["groups"]
    return found


def test_space_cannon_offense_rolls_one_more_die() -> None:
    played = run(space(holder("1 cruiser, 1 pds"), {"units": "1 cruiser"}), [1, 1, 7, 1])
    [card] = events(played, "card_played")
    assert (card["player"], card["card"]) == ("attacker", "strike_wing_ambuscade")
    assert dice(played, "space_cannon_offense") == [2]


def test_once_a_battle_the_barrage_after_it_rolls_as_printed() -> None:
    scenario = space(holder("1 destroyer, 1 pds"), {"units": "1 carrier, 2 fighter"})
    played = run(scenario, [1, 1, 1, 1, 1, 10, 1, 1, 1], all_dice=False)
    assert len(events(played, "card_played")) == 1
    assert dice(played, "space_cannon_offense") == [2]
    assert dice(played, "anti_fighter_barrage") == [2]


def test_a_scripted_pass_keeps_it_for_the_barrage() -> None:
    scenario = space(holder("1 destroyer, 1 pds"), {"units": "1 carrier, 2 fighter"})
    played = run(
        scenario,
        [1, 10, 10, 1, 10, 1],  # barrage: two fighters; combat: the carrier
        attacker=["pass", "play strike_wing_ambuscade"],
    )
    assert dice(played, "space_cannon_offense") == [1]
    assert dice(played, "anti_fighter_barrage") == [3]
    [card] = events(played, "card_played")
    assert card["round"] == 1


def test_policy_never_keeps_it() -> None:
    scenario = space(
        holder("1 cruiser, 1 pds", play={"strike_wing_ambuscade": "never"}),
        {"units": "1 cruiser"},
    )
    played = run(scenario, [1, 7, 1])
    assert not events(played, "card_played")
    assert dice(played, "space_cannon_offense") == [1]


def test_not_offered_for_a_barrage_against_no_fighters() -> None:
    played = run(space(holder("1 destroyer"), {"units": "1 cruiser"}), [1, 1, 9, 1])
    assert not events(played, "card_played")


def test_not_offered_to_the_opponent() -> None:
    played = run(space({"units": "1 cruiser, 1 pds"}, holder("1 cruiser")), [1, 7, 1])
    assert not events(played, "card_played")
    assert dice(played, "space_cannon_offense") == [1]


def test_bombardment_at_the_start_of_the_invasion() -> None:
    scenario = invasion(
        holder("1 dreadnought, 1 infantry"),
        {},
        planets=[{"name": "P", "defender": {"infantry": 2}}],
    )
    played = run(scenario, [1, 1, 8, 1, 8], all_dice=False)
    [card] = events(played, "card_played")
    assert card["card"] == "strike_wing_ambuscade"
    assert dice(played, "bombardment") == [2]


def two_bombarded(**policy: Any) -> dict[str, Any]:
    return invasion(
        holder("2 dreadnought, 2 infantry", **policy),
        {},
        planets=[
            {"name": "P", "defender": {"infantry": 1}, "bombarded_by": {"dreadnought": 1}},
            {"name": "Q", "defender": {"infantry": 1}, "bombarded_by": {"dreadnought": 1}},
        ],
    )


def test_bombardment_of_several_planets_the_stock_player_picks_the_first() -> None:
    """14K-2: each planet's bombardment is its own roll; the die goes to one of them."""
    played = run(two_bombarded(), [5, 5, 5])
    [choice] = events(played, "choice_made", decision="play_card")
    assert choice["choice"] == "play strike_wing_ambuscade: at P"
    assert dice(played, "bombardment") == [2, 1]


def test_bombardment_of_several_planets_a_scripted_choice_of_the_second() -> None:
    played = run(two_bombarded(), [5, 5, 5], attacker=["play strike_wing_ambuscade: at Q"])
    assert dice(played, "bombardment") == [1, 2]


def test_bombardment_of_several_planets_policy_never() -> None:
    played = run(two_bombarded(play={"strike_wing_ambuscade": "never"}), [5, 5])
    assert not events(played, "card_played")
    assert dice(played, "bombardment") == [1, 1]


def defended(pds: int = 1, **policy: Any) -> dict[str, Any]:
    """One attacker infantry lands on P, held by the note's holder with PDS only."""
    return invasion(
        {"units": "1 carrier, 1 infantry"},
        holder("", **policy),
        planets=[{"name": "P", "defender": {"pds": pds}}],
    )


def test_space_cannon_defense_rolls_one_more_die() -> None:
    """14K-2: offered just before the defender's space cannon defense roll."""
    played = run(defended(), [5, 5])
    [card] = events(played, "card_played")
    assert (card["player"], card["card"]) == ("defender", "strike_wing_ambuscade")
    assert dice(played, "space_cannon_defense") == [2]
    assert [e["planet"] for e in events(played, "control_established")] == ["P"]


def test_space_cannon_defense_a_scripted_pass_and_policy_never() -> None:
    played = run(defended(), [6], defender=["pass"])
    assert dice(played, "space_cannon_defense") == [1]
    assert not events(played, "control_established")
    never = run(defended(play={"strike_wing_ambuscade": "never"}), [5])
    assert not events(never, "card_played")
    assert dice(never, "space_cannon_defense") == [1]


def test_space_cannon_defense_once_for_two_planets() -> None:
    scenario = invasion(
        {"units": "1 carrier, 2 infantry"},
        holder(""),
        planets=[
            {"name": "P", "defender": {"pds": 1}, "commit": {"infantry": 1}},
            {"name": "Q", "defender": {"pds": 1}, "commit": {"infantry": 1}},
        ],
    )
    played = run(scenario, [5, 5, 5])
    assert len(events(played, "card_played")) == 1
    assert dice(played, "space_cannon_defense") == [2, 1]


def test_not_offered_for_space_cannon_defense_without_landing() -> None:
    scenario = invasion(
        {"units": "1 dreadnought"},
        holder(""),
        planets=[{"name": "P", "defender": {"pds": 1}}],
    )
    played = run(scenario, [])
    assert not events(played, "choice_made", decision="play_card")


def test_space_cannon_defense_exact_odds() -> None:
    """The PDS (SPACE CANNON 6) with the note rolls 2 dice at the lone landing infantry: it
    dies with 1 - (1/2)^2 = 3/4 (no ground forces left on either side: a draw, R19), otherwise
    the attacker takes the planet: attacker 1/4 (1/2 without the note)."""
    found = odds(defended())
    assert found.attacker_win == pytest.approx(0.25, abs=1e-12)
    assert found.draw == pytest.approx(0.75, abs=1e-12)
    plain = odds(defended(play={"strike_wing_ambuscade": "never"}))
    assert plain.attacker_win == pytest.approx(0.5, abs=1e-12)


def test_exact_odds_hand_derived() -> None:
    """1 cruiser and a PDS (with the note) against 1 cruiser. The PDS rolls 2 dice at 6 and
    destroys the cruiser with 1 - 1/4 = 3/4 (no combat); otherwise a 2/5 duel: attacker =
    defender = 1/4 * 3/8 = 3/32, draw = 1/4 * 1/4 = 1/16.
    Invasion: a dreadnought (BOMBARDMENT 5: 3/5) with the note rolls 2 dice at the defender's
    lone infantry: it dies with 1 - (2/5)^2 = 21/25; otherwise infantry against infantry (3/10
    each: won 21/51 = 7/17). Attacker = 21/25 + 4/25 * 7/17 = 77/85."""
    found = odds(space(holder("1 cruiser, 1 pds"), {"units": "1 cruiser"}))
    assert found.attacker_win == pytest.approx(float(Fraction(3, 32)), abs=1e-12)
    assert found.draw == pytest.approx(float(Fraction(1, 16)), abs=1e-12)
    assert found.other["no_combat"] == pytest.approx(0.75, abs=1e-12)
    invaded = odds(
        invasion(
            holder("1 dreadnought, 1 infantry"),
            {},
            planets=[{"name": "P", "defender": {"infantry": 1}}],
        )
    )
    assert invaded.attacker_win == pytest.approx(float(Fraction(77, 85)), abs=1e-12)
