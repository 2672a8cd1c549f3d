"""Nomad mech (abilities/nomad_mech_sustain_for_ships.py): while in a space area during combat,
it may use its SUSTAIN DAMAGE to cancel a hit produced against your ships (data/units.toml;
ti4-combat-effects.md, mechs): offered as "sustain mech" when hits of a space combat round are
assigned (ti4-space-combat.md step 4.1; docs/rulings.md 14A-9)."""

from __future__ import annotations

import re
from fractions import Fraction

import pytest

from spacecombat import odds
from spacecombat.core.errors import IllegalChoice
from tests.helpers import events, run, space, survivors

NOMAD = {"faction": "nomad"}


def test_the_mech_sustains_for_a_ship() -> None:
    # Round 1: carrier 1; cruiser 7: the mech sustains. Round 2: 9; 1.
    played = run(
        space({**NOMAD, "units": "1 carrier, 1 mech"}, {"units": "1 cruiser"}), [1, 7, 9, 1]
    )
    asked = events(played, "choice_made", decision="assign_hit", player="attacker")[0]
    assert asked["options"] == ["destroy carrier", "sustain mech"]
    [sustained] = events(played, "damage_sustained")
    assert (sustained["unit"], sustained["cause"]) == ("mech", "space combat")
    assert survivors(played, "attacker") == {"carrier": 1, "mech": 1}


def test_a_damaged_mech_cannot_and_is_never_destroyed_by_ship_hits() -> None:
    # Round 1: 1; 7: the mech sustains. Round 2: 1; 7: the carrier is destroyed; the mech is
    # left in the space area without ships.
    played = run(
        space({**NOMAD, "units": "1 carrier, 1 mech"}, {"units": "1 cruiser"}), [1, 7, 1, 7]
    )
    assert [e["unit"] for e in events(played, "unit_destroyed", player="attacker")] == ["carrier"]


def test_a_player_may_destroy_the_ship_instead() -> None:
    played = run(
        space({**NOMAD, "units": "1 carrier, 1 mech"}, {"units": "1 cruiser"}),
        [1, 7],
        attacker=["destroy carrier"],
    )
    assert not events(played, "damage_sustained")


def test_a_destroy_mech_answer_is_refused() -> None:
    with pytest.raises(
        IllegalChoice,
        match=re.escape("'destroy mech' is refused: these hits can only be assigned to ships"),
    ):
        run(
            space({**NOMAD, "units": "1 carrier, 1 mech"}, {"units": "1 cruiser"}),
            [1, 7],
            attacker=["destroy mech"],
        )


def test_not_for_another_faction_mech() -> None:
    played = run(space({"units": "1 carrier, 1 mech"}, {"units": "1 cruiser"}), [1, 7])
    assert not events(played, "damage_sustained")


def test_not_against_space_cannon_offense() -> None:
    # The PDS hits (6) before the combat: the carrier is destroyed, no combat follows.
    played = run(space({**NOMAD, "units": "1 carrier, 1 mech"}, {"units": "1 cruiser, 1 pds"}), [6])
    assert not events(played, "damage_sustained")


def test_exact_odds_hand_derived() -> None:
    """Carrier (hits on 9: 1/5) with a Nomad mech against a cruiser (2/5): the mech absorbs
    the first hit, so the carrier has two lives. Damaged mech: a plain duel over
    1 - (4/5)(3/5) = 13/25: win = (1/5)(3/5) / (13/25) = 3/13, draw = (1/5)(2/5) / (13/25) =
    2/13, loss = 8/13. Undamaged: win = (1/5 + (4/5)(2/5) * 3/13) / (13/25) = 89/169,
    draw = (8/25 * 2/13) / (13/25) = 16/169, loss = (8/25 * 8/13) / (13/25) = 64/169."""
    found = odds(space({**NOMAD, "units": "1 carrier, 1 mech"}, {"units": "1 cruiser"}))
    assert found.attacker_win == pytest.approx(float(Fraction(89, 169)), abs=1e-12)
    assert found.draw == pytest.approx(float(Fraction(16, 169)), abs=1e-12)
    assert found.defender_win == pytest.approx(float(Fraction(64, 169)), abs=1e-12)
