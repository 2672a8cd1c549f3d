"""Arc Secundus (Letnev flagship; abilities/letnev_flagship_repair.py): repaired at the start of
every space combat round (ti4-combat-effects.md; data/units.toml), in the "start of combat
round" window (ti4-space-combat.md rule 2.1), without a decision."""

from __future__ import annotations

from fractions import Fraction
from typing import Any

import pytest

from spacecombat import odds
from spacecombat.rulesets.ti4.abilities.base import HANDLERS, Handler
from tests.helpers import events, run, space


@pytest.fixture(autouse=True)
def _munitions_reserves(monkeypatch: pytest.MonkeyPatch) -> None:
    # The Letnev faction ability needs trade goods, which these scenarios do not give; while it
    # is not implemented, a stub lets a Letnev scenario be built.
    if "munitions_reserves" not in HANDLERS:
        monkeypatch.setitem(HANDLERS, "munitions_reserves", Handler)


def battle(defender: str, damaged: bool = False) -> dict[str, Any]:
    attacker: dict[str, Any] = {"units": "1 flagship", "faction": "letnev"}
    if damaged:
        attacker["damaged"] = {"flagship": 1}
    return space(attacker, {"units": defender})


def test_damage_from_before_the_battle_is_repaired_in_round_one() -> None:
    played = run(battle("1 cruiser", damaged=True), [5, 1, 1])
    [repaired] = events(played, "unit_repaired")
    assert (repaired["player"], repaired["unit"], repaired["by"]) == (
        "attacker",
        "flagship",
        "Arc Secundus",
    )
    kinds = [e["event"] for e in played.events]
    assert kinds.index("unit_repaired") < kinds.index("dice_rolled")


def test_sustained_damage_is_repaired_each_round() -> None:
    # round 1: the cruiser hits, the flagship sustains; round 2: repaired, sustains again;
    # round 3: repaired, the flagship destroys the cruiser
    played = run(battle("1 cruiser"), [1, 1, 7, 1, 1, 7, 5, 1, 1])
    assert len(events(played, "damage_sustained", player="attacker")) == 2
    assert [e["event"] for e in played.events].count("unit_repaired") == 2
    assert played.outcome["result"] == "attacker_win"


def test_nothing_to_repair_no_event() -> None:
    played = run(battle("1 cruiser"), [5, 1, 1])
    assert not events(played, "unit_repaired")


def test_exact_odds_hand_derived() -> None:
    """The flagship (2 dice on 5: 0, 1, 2 hits with 4/25, 12/25, 9/25) against 2 cruisers (both
    hit with 4/25). Repaired every round, it dies only when both cruisers hit in one round; so
    against 1 cruiser it always wins. With 2: win = (9/25 * 21/25 + 12/25 * 21/25) /
    (1 - 4/25 * 21/25) = 441/541; draw = (9/25 * 4/25) / (541/625) = 36/541;
    defender = (12/25 + 4/25) * 4/25 / (541/625) = 64/541."""
    found = odds(battle("2 cruiser"))
    assert found.attacker_win == pytest.approx(float(Fraction(441, 541)), abs=1e-12)
    assert found.draw == pytest.approx(float(Fraction(36, 541)), abs=1e-12)
    assert found.defender_win == pytest.approx(float(Fraction(64, 541)), abs=1e-12)
