"""Mentak mech (abilities/mentak_mech_no_enemy_sustain.py): other players' ground forces on its
planet cannot use SUSTAIN DAMAGE (data/units.toml; ti4-combat-effects.md, mechs). It acts when
hits are assigned to ground forces on the planet where a Mentak mech is (ti4-ground-combat.md
step 2; note 5), for the whole Assign Hits step a Mentak mech was there at the start of
(docs/rulings.md 14A-1).

The Mentak faction's Ambush (another handler) acts only in space combat with cruisers or
destroyers, which these scenarios do not have; where it is not registered yet, the fixture
stands in a handler that does nothing for it, so that the Mentak faction can be set up."""

from __future__ import annotations

from fractions import Fraction
from typing import Any

import pytest

from spacecombat import odds
from spacecombat.rulesets.ti4.abilities.base import HANDLERS, Handler
from tests.helpers import events, invasion, run, space


class _NoAmbush(Handler):
    id = "ambush"


@pytest.fixture(autouse=True)
def mentak_faction_set_up(monkeypatch: pytest.MonkeyPatch) -> None:
    if "ambush" not in HANDLERS:
        monkeypatch.setitem(HANDLERS, "ambush", _NoAmbush)


def mech_fight(**mentak: Any) -> dict[str, Any]:
    """The Mentak invades with a mech against a planet held by a (generic) mech."""
    return invasion(
        {"faction": "mentak", "units": "1 carrier, 1 mech", **mentak},
        {},
        planets=[{"name": "P", "defender": {"mech": 1}}],
    )


def test_the_defender_mech_cannot_sustain() -> None:
    # Faces: Mentak mech 6 (a hit); defender mech 1.
    played = run(mech_fight(), [6, 1])
    assert not events(played, "damage_sustained")
    [lost] = events(played, "unit_destroyed", player="defender")
    assert (lost["unit"], lost["cause"]) == ("mech", "ground combat")


def test_the_mentak_mech_still_sustains() -> None:
    # Round 1: Mentak mech 1, defender 6: the Mentak mech sustains; round 2: 6, 1.
    played = run(mech_fight(), [1, 6, 6, 1])
    [sustained] = events(played, "damage_sustained")
    assert (sustained["player"], sustained["unit"]) == ("attacker", "mech")


def test_destroyed_in_the_same_step_it_still_forbids_the_opponent() -> None:
    # The Mentak mech is damaged: 6 and 6. The attacker assigns first and loses its mech; it was
    # on the planet when the step began, so the defender's mech may not sustain (14A-1).
    played = run(mech_fight(damaged={"mech": 1}), [6, 6])
    assert not events(played, "damage_sustained")
    assert [e["player"] for e in events(played, "unit_destroyed")] == ["attacker", "defender"]


def test_once_the_mentak_mech_is_gone_the_enemy_sustains_again() -> None:
    # Round 1: Mentak mech 1, infantry 1; defender 6: the attacker loses its damaged mech.
    # Round 2: infantry 8; defender 1: the defender's mech sustains. Round 3: 1; 6.
    scenario = invasion(
        {"faction": "mentak", "units": "1 carrier, 1 mech, 1 infantry", "damaged": {"mech": 1}},
        {},
        planets=[{"name": "P", "defender": {"mech": 1}}],
    )
    played = run(scenario, [1, 1, 6, 8, 1, 1, 6], attacker=["destroy mech (damaged)"])
    [sustained] = events(played, "damage_sustained")
    assert (sustained["player"], sustained["unit"]) == ("defender", "mech")


def test_not_in_space_combat() -> None:
    # A Mentak mech carried in the space area takes no part: the dreadnought sustains.
    # Faces: carrier 9 (a hit); dreadnought 1; round 2: carrier 9, dreadnought 1.
    scenario = space(
        {"faction": "mentak", "units": "1 carrier, 1 mech"}, {"units": "1 dreadnought"}
    )
    played = run(scenario, [9, 1, 9, 1])
    [sustained] = events(played, "damage_sustained")
    assert (sustained["player"], sustained["unit"]) == ("defender", "dreadnought")


def test_exact_odds_hand_derived() -> None:
    """Mech against mech, each hitting on 6 (1/2). The Mentak's undamaged mech (U) wins with
    any hit of its own (it sustains the other's hit); the defender's mech cannot sustain.
    From the Mentak mech damaged, a plain duel: win 1/3, draw 1/3, loss 1/3. From U, a round
    repeats with 1/4: win = (1/2 + 1/4 * 1/3) / (3/4) = 7/9; draw = (1/4 * 1/3) / (3/4) = 1/9;
    loss = 1/9 (both hitting when the Mentak mech is damaged is a draw: 14A-1)."""
    found = odds(mech_fight())
    assert found.attacker_win == pytest.approx(float(Fraction(7, 9)), abs=1e-12)
    # an invasion in which both sides' ground forces die is not the attacker's (draw and loss)
    assert found.draw + found.defender_win == pytest.approx(float(Fraction(2, 9)), abs=1e-12)
