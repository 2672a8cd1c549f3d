"""Hil Colish (Creuss flagship; abilities/creuss_flagship_delta_wormhole.py): "this ship's system
contains a delta wormhole" (units.toml). In a battle it matters to Dimensional Splicer, offered
in the "start of combat" window (ti4-space-combat.md rule 2.1) only in a system that contains a
wormhole: with the flagship in the space area then, the system contains one even when the
scenario's ``system.wormholes`` is empty; a flagship destroyed by space cannon offense (step 1,
before the window) takes its wormhole with it (docs/rulings.md 14N-1)."""

from __future__ import annotations

from fractions import Fraction
from typing import Any

import pytest

from spacecombat import odds
from spacecombat.core.engine import Played
from spacecombat.core.events import Event
from spacecombat.rulesets.ti4.state import BattleState
from tests.helpers import events, run, space

CREUSS = {"faction": "creuss", "technologies": ["dimensional_splicer"]}


def offers(played: Played[BattleState]) -> list[Event]:
    """The play_card decisions asked."""
    return events(played, "choice_made", decision="play_card")


def test_the_flagship_brings_the_wormhole_for_dimensional_splicer() -> None:
    # no wormhole stated: the flagship's delta wormhole lets the splicer destroy the lone cruiser
    played = run(space({"units": "1 flagship", **CREUSS}, {"units": "1 cruiser"}), [])
    [offer] = offers(played)
    assert offer["choice"] == "play dimensional_splicer: hit cruiser"
    [gone] = events(played, "unit_destroyed", cause="Dimensional Splicer")
    assert (gone["player"], gone["unit"]) == ("defender", "cruiser")
    assert played.outcome["result"] == "attacker_win"
    assert not events(played, "dice_rolled")


def test_the_defender_flagship_brings_it_too() -> None:
    played = run(space({"units": "1 cruiser"}, {"units": "1 flagship", **CREUSS}), [])
    [offer] = offers(played)
    assert offer["player"] == "defender"
    assert played.outcome["result"] == "defender_win"


def test_policy_never_and_a_scripted_pass_keep_the_splicer() -> None:
    scenario = space(
        {"units": "1 flagship", **CREUSS, "policy": {"play": {"dimensional_splicer": "never"}}},
        {"units": "1 cruiser"},
    )
    played = run(scenario, [5, 1])
    assert not events(played, "card_played")
    assert played.outcome["result"] == "attacker_win"
    passed = run(
        space({"units": "1 flagship", **CREUSS}, {"units": "1 cruiser"}), [5, 1], attacker=["pass"]
    )
    assert [o["choice"] for o in offers(passed)] == ["pass"]
    assert not events(passed, "unit_destroyed", cause="Dimensional Splicer")


def test_no_wormhole_without_the_flagship() -> None:
    played = run(space({"units": "1 cruiser", **CREUSS}, {"units": "1 cruiser"}), [7, 1])
    assert not offers(played)


def under_fire() -> dict[str, Any]:
    """A damaged flagship, first in the casualty order, under a PDS's space cannon offense."""
    return space(
        {
            "units": "1 flagship, 1 cruiser",
            "damaged": {"flagship": 1},
            **CREUSS,
            "policy": {"casualty_order": ["flagship", "cruiser"]},
        },
        {"units": "1 cruiser, 1 pds"},
    )


def test_a_flagship_destroyed_by_space_cannon_offense_takes_its_wormhole() -> None:
    # the defender's PDS hits (10) and the damaged flagship is destroyed before the start of
    # combat: no wormhole, no offer; then cruiser 7 hits, cruiser 1 misses
    played = run(under_fire(), [10, 7, 1])
    [gone] = events(played, "unit_destroyed", player="attacker")
    assert gone["unit"] == "flagship"
    assert not offers(played)
    assert played.outcome["result"] == "attacker_win"


def test_a_flagship_that_survives_space_cannon_offense_keeps_it() -> None:
    # the PDS misses (1): the flagship is there at the start of combat, the splicer is offered
    played = run(under_fire(), [1])
    [offer] = offers(played)
    assert offer["choice"] == "play dimensional_splicer: hit cruiser"
    assert played.outcome["result"] == "attacker_win"


def test_exact_odds_hand_derived() -> None:
    """The flagship (combat 5, one die: hits 3/5, SUSTAIN DAMAGE) and Dimensional Splicer
    against 2 destroyers (combat 9: 1/5), no wormhole stated. The splicer destroys one
    destroyer; then a round: the flagship hits alone 12/25, both hit 3/25, the destroyer alone
    2/25, nobody 8/25. Damaged, the flagship wins 12/17, draws 3/17, loses 2/17. Undamaged,
    both hitting is a win (it sustains), the destroyer alone damages it:
    win = (15/25 + 2/25 * 12/17) / (17/25) = 279/289, draw = (2/25 * 3/17) / (17/25) = 6/289,
    loss = 4/289."""
    found = odds(space({"units": "1 flagship", **CREUSS}, {"units": "2 destroyer"}))
    assert found.attacker_win == pytest.approx(float(Fraction(279, 289)), abs=1e-12)
    assert found.draw == pytest.approx(float(Fraction(6, 289)), abs=1e-12)
    assert found.defender_win == pytest.approx(float(Fraction(4, 289)), abs=1e-12)
