"""Sardakk N'orr flagship (abilities/sardakk_flagship_bonus.py): +1 to the combat rolls of the
owner's OTHER ships in its system (ti4-combat-effects.md, flagships), applied to the space
combat roll (ti4-space-combat.md step 3) while the flagship is in the space area."""

from __future__ import annotations

from fractions import Fraction
from typing import Any

import pytest

from spacecombat import odds
from tests.helpers import events, rolls, run, space


def groups_of(roll: object) -> list[dict[str, Any]]:
    """The groups of a ``dice_rolled`` event."""
    assert isinstance(roll, dict)
    found: list[dict[str, Any]] = roll["groups"]
    return found


def sardakk(units: str, **extra: Any) -> dict[str, Any]:
    return {"faction": "sardakk", "units": units, **extra}


def hit_ons(played: Any, player: str) -> list[dict[str, int]]:
    return [
        {g["unit"]: g["hit_on"] for g in groups_of(r)}
        for r in rolls(played, "space_combat")
        if r["player"] == player
    ]


def test_other_ships_get_one_more_the_flagship_does_not() -> None:
    # cruiser 7, Unrelenting -1, flagship -1: 5; flagship 6 - 1 (Unrelenting only): 5
    played = run(space(sardakk("1 flagship, 1 cruiser"), {"units": "1 dreadnought"}), [9, 9, 9, 1])
    [attacker] = hit_ons(played, "attacker")
    assert attacker == {"cruiser": 5, "flagship": 5}
    # the defender's dreadnought is not helped
    [defender] = hit_ons(played, "defender")
    assert defender == {"dreadnought": 5}


def test_the_bonus_ends_when_the_flagship_is_destroyed() -> None:
    # round 1: the attacker misses (flagship 1, 1; cruiser 1), the defender's cruiser hits (10)
    # and the damaged flagship is destroyed (the policy's casualty order); round 2 the cruiser
    # rolls without the bonus (Unrelenting only: 6) and hits.
    scenario = space(
        sardakk(
            "1 flagship, 1 cruiser",
            damaged={"flagship": 1},
            policy={"casualty_order": ["flagship", "cruiser"]},
        ),
        {"units": "1 cruiser"},
    )
    played = run(scenario, [1, 1, 1, 10, 6, 1])
    assert hit_ons(played, "attacker") == [{"flagship": 5, "cruiser": 5}, {"cruiser": 6}]
    assert events(played, "unit_destroyed", player="attacker", unit="flagship")


def test_no_bonus_without_the_flagship() -> None:
    played = run(space(sardakk("1 cruiser"), {"units": "1 cruiser"}), [6, 1])
    [attacker] = hit_ons(played, "attacker")
    assert attacker == {"cruiser": 6}  # Unrelenting only


def test_no_bonus_for_the_opponent_of_a_sardakk_flagship() -> None:
    played = run(space({"units": "1 cruiser"}, sardakk("1 flagship")), [1, 9, 9])
    [defender] = hit_ons(played, "defender")
    assert defender == {"flagship": 5}
    [attacker] = hit_ons(played, "attacker")
    assert attacker == {"cruiser": 7}


def test_exact_odds_hand_derived() -> None:
    """Attacker: a damaged Sardakk flagship (2 dice on 5, p = 3/5 each) and a fighter (9, -1
    Unrelenting, -1 flagship: on 7, p = 2/5); defender: 1 cruiser (on 7, p = 2/5).
    While both attacking ships live, the attacker misses with q = (2/5)² · 3/5 = 12/125, and any
    hit wins (the defender's hit takes the fighter first). If the attacker misses and the
    cruiser hits (12/125 · 2/5), the flagship is alone: per round it hits with 21/25
    (no bonus on itself); won 21/25 · 3/5 / (1 - 4/25 · 3/5) = 63/113, drawn 42/113, lost 8/113.
    Round repeat of both missing: 12/125 · 3/5 = 36/625, so
    win = (113/125 + 24/625 · 63/113) / (1 - 36/625)."""
    scenario = space(
        sardakk("1 flagship, 1 fighter", damaged={"flagship": 1}), {"units": "1 cruiser"}
    )
    repeat = 1 / (1 - Fraction(36, 625))
    alone = Fraction(24, 625)
    win = repeat * (Fraction(113, 125) + alone * Fraction(63, 113))
    draw = repeat * alone * Fraction(42, 113)
    loss = repeat * alone * Fraction(8, 113)
    assert win + draw + loss == 1
    found = odds(scenario)
    assert found.attacker_win == pytest.approx(float(win), abs=1e-12)
    assert found.draw == pytest.approx(float(draw), abs=1e-12)
    assert found.defender_win == pytest.approx(float(loss), abs=1e-12)
