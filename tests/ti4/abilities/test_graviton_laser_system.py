"""Graviton Laser System (technology; abilities/graviton_laser_system.py): its owner may exhaust
it before its units fire SPACE CANNON; the hits of that roll must then be assigned to
non-fighter ships if able (data/technologies.toml; ti4-combat-effects.md, technologies;
docs/rulings.md 14G-1, 14G-2). Offered through the "play_card" decision before the
owner's space cannon offense roll (procedures/space_cannon_offense.py, docs/rulings.md R1),
when the opponent has both fighters and non-fighter ships; the opponent then assigns those hits
to non-fighter ships while any remain (procedures/assign_hits.py ``aiming``)."""

from __future__ import annotations

from fractions import Fraction
from typing import Any

import pytest

from spacecombat import odds
from spacecombat.core.errors import IllegalChoice
from tests.helpers import events, run, space, survivors

GLS = {"technologies": ["graviton_laser_system"]}
NEVER = {"policy": {"play": {"graviton_laser_system": "never"}}}


def carrier_and_fighter(**defender: Any) -> dict[str, Any]:
    """The defender's PDS (hits on 6) fires at a carrier carrying a fighter."""
    return space({"units": "1 carrier, 1 fighter"}, {"units": "1 pds", **GLS, **defender})


def test_exhausted_its_hit_must_destroy_the_carrier_not_the_fighter() -> None:
    # Faces: PDS 6 (hit).
    played = run(carrier_and_fighter(), [6])
    [card] = events(played, "card_played")
    assert (card["player"], card["card"], card["round"]) == ("defender", "graviton_laser_system", 0)
    [aimed] = events(played, "hits_restricted")
    assert (aimed["player"], aimed["hits"], aimed["by"]) == (
        "attacker",
        1,
        ["graviton_laser_system"],
    )
    [assign] = events(played, "choice_made", decision="assign_hit")
    assert assign["options"] == ["destroy carrier"]
    [destroyed] = events(played, "unit_destroyed")
    assert destroyed["unit"] == "carrier"
    # the fighter, left without capacity, is removed before the next player fires (R1)
    assert [e["unit"] for e in events(played, "unit_removed")] == ["fighter"]
    assert survivors(played, "attacker") == {}


def test_policy_never_keeps_it_and_the_fighter_takes_the_hit() -> None:
    played = run(carrier_and_fighter(**NEVER), [6])
    assert not events(played, "card_played")
    assert not events(played, "hits_restricted")
    assert [e["unit"] for e in events(played, "unit_destroyed")] == ["fighter"]
    assert survivors(played, "attacker") == {"carrier": 1}


def test_a_scripted_pass_keeps_it() -> None:
    played = run(carrier_and_fighter(), [6], defender=["pass"])
    assert [e["choice"] for e in events(played, "choice_made", decision="play_card")] == ["pass"]
    assert survivors(played, "attacker") == {"carrier": 1}


def test_the_hit_cannot_be_put_on_the_fighter() -> None:
    # (with two non-fighter ships to choose from, the player is asked)
    scenario = space({"units": "1 carrier, 1 cruiser, 1 fighter"}, {"units": "1 pds", **GLS})
    with pytest.raises(IllegalChoice, match="must be assigned to non-fighter ships"):
        run(scenario, [6], attacker=["destroy fighter"])


def test_the_restriction_holds_while_a_non_fighter_ship_remains() -> None:
    # Two PDS hit (6, 6) a dreadnought carrying a fighter: the dreadnought sustains the first
    # hit, and must take the second too (destroyed) while it is there; the fighter is then
    # removed for capacity.
    scenario = space({"units": "1 dreadnought, 1 fighter"}, {"units": "2 pds", **GLS})
    played = run(scenario, [6, 6])
    choices: list[Any] = events(played, "choice_made", decision="assign_hit")
    assert [c["choice"] for c in choices] == [
        "sustain dreadnought",
        "destroy dreadnought (damaged)",
    ]
    assert all("destroy fighter" not in c["options"] for c in choices)
    assert survivors(played, "attacker") == {}


def test_hits_beyond_the_non_fighter_ships_go_to_fighters() -> None:
    # Two hits, one carrier and two fighters: the carrier first, then a fighter ("if able").
    scenario = space({"units": "1 carrier, 2 fighter"}, {"units": "2 pds", **GLS})
    played = run(scenario, [6, 6])
    assert [e["unit"] for e in events(played, "unit_destroyed")] == ["carrier", "fighter"]


def test_not_offered_against_no_fighters() -> None:
    # the restriction would change nothing: the PDS hit (6) destroys a cruiser either way
    played = run(space({"units": "2 cruiser"}, {"units": "1 pds", **GLS}), [6])
    assert not events(played, "choice_made", decision="play_card")
    assert not events(played, "hits_restricted")


def test_not_offered_without_space_cannon_to_fire() -> None:
    # no PDS: faces carrier 10, fighter 10 (two hits), cruiser 1; the cruiser is destroyed
    played = run(
        space({"units": "1 carrier, 1 fighter"}, {"units": "1 cruiser", **GLS}), [10, 10, 1]
    )
    assert not events(played, "choice_made", decision="play_card")
    assert not events(played, "hits_restricted")


def test_not_without_the_technology() -> None:
    played = run(space({"units": "1 carrier, 1 fighter"}, {"units": "1 pds"}), [6])
    assert not events(played, "choice_made", decision="play_card")
    assert survivors(played, "attacker") == {"carrier": 1}


def with_battlestation(defender: str = "1 space_dock", **extra: Any) -> dict[str, Any]:
    """The defender's Experimental Battlestation dock (SPACE CANNON 5 x3) fires at a carrier
    carrying a fighter, before the active player's space cannon offense."""
    return space(
        {"units": "1 carrier, 1 fighter"},
        {"units": defender, **GLS, "action_cards": ["experimental_battlestation"], **extra},
    )


def test_exhausted_before_the_battlestation_dock_fires_its_hit_takes_the_carrier() -> None:
    """14K-4: offered on the active player's turn, before the dock's roll, which it covers."""
    played = run(with_battlestation(), [5, 1, 1])
    cards = [e["card"] for e in events(played, "card_played")]
    assert cards == ["graviton_laser_system", "experimental_battlestation"]
    [aimed] = events(played, "hits_restricted")
    assert (aimed["player"], aimed["hits"]) == ("attacker", 1)
    assert [e["unit"] for e in events(played, "unit_destroyed")] == ["carrier"]
    assert survivors(played, "attacker") == {}


def test_exhausted_for_the_dock_it_does_not_cover_the_owners_own_roll() -> None:
    played = run(with_battlestation("1 space_dock, 1 pds"), [1, 1, 1, 6])
    assert not events(played, "hits_restricted")
    assert [e["unit"] for e in events(played, "unit_destroyed")] == ["fighter"]
    assert survivors(played, "attacker") == {"carrier": 1}


def test_exhausted_and_the_battlestation_passed_it_covers_the_owners_own_roll() -> None:
    played = run(
        with_battlestation("1 space_dock, 1 pds"),
        [6],
        defender=["play graviton_laser_system", "pass"],
    )
    [aimed] = events(played, "hits_restricted")
    assert aimed["round"] == 0
    assert [e["unit"] for e in events(played, "unit_destroyed")] == ["carrier"]


def test_kept_for_the_owners_own_roll_after_the_dock_fired() -> None:
    played = run(
        with_battlestation("1 space_dock, 1 pds"),
        [1, 1, 1, 6],
        defender=["pass", "play experimental_battlestation", "play graviton_laser_system"],
    )
    [aimed] = events(played, "hits_restricted")
    assert aimed["hits"] == 1
    assert [e["unit"] for e in events(played, "unit_destroyed")] == ["carrier"]


def test_with_the_battlestation_exact_odds() -> None:
    """The dock rolls 3 dice at 5 (3/5 each). Exhausted for it, any hit takes the carrier (the
    fighter is then removed): the attacker keeps a unit only with no hit, (2/5)^3 = 8/125.
    Without it, the first hit takes the fighter: the carrier stays with 0 or 1 hit,
    8/125 + 3 * 3/5 * 4/25 = 44/125."""
    kept = odds(with_battlestation()).survivors["attacker"]["at_least"]
    assert kept["1"] == pytest.approx(float(Fraction(8, 125)), abs=1e-12)
    never = with_battlestation(policy=NEVER["policy"])
    plain = odds(never).survivors["attacker"]["at_least"]
    assert plain["1"] == pytest.approx(float(Fraction(44, 125)), abs=1e-12)


def test_exact_odds_hand_derived() -> None:
    """Two PDS (1/2 each) fire at a dreadnought carrying a fighter: 0 hits (1/4) leave both, 1
    hit (1/2) is sustained by the dreadnought, 2 hits (1/4) destroy it (both must go to it) and
    the fighter is then removed. P(the attacker keeps any unit) = 1/4 + 1/2 = 3/4; without the
    technology the second hit takes the fighter: 1."""
    attacker = {"units": "1 dreadnought, 1 fighter"}
    kept = odds(space(attacker, {"units": "2 pds", **GLS})).survivors["attacker"]["at_least"]
    assert kept["1"] == pytest.approx(float(Fraction(3, 4)), abs=1e-12)
    assert kept["2"] == pytest.approx(float(Fraction(3, 4)), abs=1e-12)
    plain = odds(space(attacker, {"units": "2 pds", **GLS, **NEVER})).survivors["attacker"]
    assert plain["at_least"]["1"] == pytest.approx(1.0, abs=1e-12)
