"""Mentak flagship (abilities/mentak_flagship_no_enemy_sustain.py): other players' ships in its
system cannot use SUSTAIN DAMAGE (data/units.toml; ti4-combat-effects.md, flagships). It acts
when hits are assigned (ti4-space-combat.md step 4.1) while the flagship is in the space area;
SUSTAIN DAMAGE is used before hits are assigned (step 4.1), so the flagship forbids it for the
whole Assign Hits step it was in at the start of, even if the owner's own assignment (the
attacker's, made first) destroys it (docs/rulings.md 14A-1).

The Mentak faction's Ambush (another handler) acts only with cruisers or destroyers, which
these scenarios do not have; where it is not registered yet, the fixture stands in a handler
that does nothing for it, so that the Mentak faction can be set up."""

from __future__ import annotations

from fractions import Fraction
from typing import Any

import pytest

from spacecombat import odds
from spacecombat.rulesets.ti4.abilities.base import HANDLERS, Handler
from tests.helpers import events, run, space


class _NoAmbush(Handler):
    id = "ambush"


@pytest.fixture(autouse=True)
def mentak_faction_set_up(monkeypatch: pytest.MonkeyPatch) -> None:
    if "ambush" not in HANDLERS:
        monkeypatch.setitem(HANDLERS, "ambush", _NoAmbush)


MENTAK = {"faction": "mentak", "units": "1 flagship"}


def duel(mentak: dict[str, Any], other: dict[str, Any], *, mentak_attacks: bool = True) -> Any:
    return space(mentak, other) if mentak_attacks else space(other, mentak)


def test_an_enemy_dreadnought_cannot_sustain() -> None:
    # Faces: flagship 7, 1 (a hit); dreadnought 1 (a miss): the dreadnought is destroyed.
    played = run(duel(MENTAK, {"units": "1 dreadnought"}), [7, 1, 1])
    assert not events(played, "damage_sustained")
    [lost] = events(played, "unit_destroyed", player="defender")
    assert lost["unit"] == "dreadnought"
    asked = events(played, "choice_made", decision="assign_hit", player="defender")
    assert asked[0]["options"] == ["destroy dreadnought"]


def test_the_mentak_own_ships_still_sustain() -> None:
    # Round 1: flagship 1, 1; dreadnought 5 (a hit): the flagship sustains. Round 2: flagship
    # 7, 1; dreadnought 1.
    played = run(duel(MENTAK, {"units": "1 dreadnought"}), [1, 1, 5, 7, 1, 1])
    [sustained] = events(played, "damage_sustained")
    assert (sustained["player"], sustained["unit"]) == ("attacker", "flagship")


def test_destroyed_in_the_same_step_it_still_forbids_the_opponent() -> None:
    # The attacker's damaged flagship: flagship 7, 1 (a hit); dreadnoughts 5, 1 (a hit). The
    # attacker assigns first and loses its flagship; it was there when the Assign Hits step
    # began, so the defender still may not sustain (docs/rulings.md 14A-1).
    mentak = {**MENTAK, "damaged": {"flagship": 1}}
    played = run(duel(mentak, {"units": "2 dreadnought"}), [7, 1, 5, 1])
    assert not events(played, "damage_sustained")
    assert [e["unit"] for e in events(played, "unit_destroyed")] == ["flagship", "dreadnought"]


def test_once_the_flagship_is_gone_enemy_ships_sustain_again() -> None:
    # Round 1: carrier 1, flagship 1, 1; dreadnoughts 5, 1: the attacker loses its flagship.
    # Round 2: carrier 9; dreadnoughts 1, 1: the dreadnought sustains. Round 3: carrier 1;
    # dreadnoughts 5, 1: the carrier is destroyed. (A carrier: no Ambush.)
    mentak = {"faction": "mentak", "units": "1 flagship, 1 carrier", "damaged": {"flagship": 1}}
    played = run(
        duel(mentak, {"units": "2 dreadnought"}),
        [1, 1, 1, 5, 1, 9, 1, 1, 1, 5, 1],
        attacker=["destroy flagship (damaged)"],
    )
    [sustained] = events(played, "damage_sustained")
    assert (sustained["player"], sustained["unit"]) == ("defender", "dreadnought")


def test_a_flagship_destroyed_later_in_the_step_still_forbade_the_earlier_assignment() -> None:
    # The defender is the Mentak, its flagship damaged: dreadnought 5 (a hit); flagship 7, 1
    # (a hit). The attacker assigns first, the flagship still there: its dreadnought is
    # destroyed; then the flagship is. A draw.
    mentak = {**MENTAK, "damaged": {"flagship": 1}}
    played = run(duel(mentak, {"units": "1 dreadnought"}, mentak_attacks=False), [5, 7, 1])
    assert not events(played, "damage_sustained")
    assert {e["unit"] for e in events(played, "unit_destroyed")} == {"dreadnought", "flagship"}


def test_exact_odds_hand_derived() -> None:
    """Mentak flagship (2 dice at 7: a = 1 - (3/5)^2 = 16/25 to hit) against a dreadnought
    (d = 3/5), which cannot sustain. With the flagship undamaged (U) any hit of the flagship
    wins (it sustains the dreadnought's hit); with it damaged (D) it is a plain duel.
    Both miss: (1-a)(1-d) = 18/125, so each state repeats over 1 - 18/125 = 107/125.
    From D: win = a(1-d)/(107/125) = 32/107, draw = ad/(107/125) = 48/107.
    From U: win = [a + (1-a)d * 32/107] / (107/125) = 9424/11449,
    draw = (1-a)d * 48/107 / (107/125) = 1296/11449, defender = 729/11449."""
    found = odds(duel(MENTAK, {"units": "1 dreadnought"}))
    assert found.attacker_win == pytest.approx(float(Fraction(9424, 11449)), abs=1e-12)
    assert found.draw == pytest.approx(float(Fraction(1296, 11449)), abs=1e-12)
    assert found.defender_win == pytest.approx(float(Fraction(729, 11449)), abs=1e-12)
