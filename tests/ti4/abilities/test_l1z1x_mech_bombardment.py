"""L1Z1X mech, Annihilator (abilities/l1z1x_mech_bombardment.py): while not in ground combat it
may use BOMBARDMENT (8) against planets in its system as if it were a ship
(ti4-combat-effects.md §3; data/units.toml). In invasion step 1 (before ground forces are
committed) it bombards from the space area like the ships; with Harrow it counts among them."""

from __future__ import annotations

from collections.abc import Mapping
from fractions import Fraction
from typing import Any, cast

import pytest

from spacecombat import odds
from spacecombat.rulesets.ti4.abilities.base import HANDLERS, Handler
from tests.helpers import events, invasion, rolls, run


def _groups(roll: Mapping[str, object]) -> list[dict[str, Any]]:
    """The dice groups of a ``dice_rolled`` event."""
    return cast("list[dict[str, Any]]", roll["groups"])


@pytest.fixture(autouse=True)
def assimilate(monkeypatch: pytest.MonkeyPatch) -> None:
    """Assimilate (another L1Z1X handler, acting when control is established) stubbed if it
    is not registered."""
    if "assimilate" not in HANDLERS:
        monkeypatch.setitem(HANDLERS, "assimilate", type("Stub", (Handler,), {"id": "assimilate"}))


def scenario(**planet: Any) -> dict[str, Any]:
    return invasion(
        {"units": "1 carrier, 1 mech", "faction": "l1z1x"},
        {},
        planets=[{"name": "P", "defender": {"infantry": 1}, **planet}],
    )


def test_it_bombards_before_landing() -> None:
    played = run(scenario(), [8])
    [roll] = rolls(played, "bombardment")
    assert [(g["unit"], g["hit_on"]) for g in _groups(roll)] == [("mech", 8)]
    assert events(played, "ground_forces_committed")
    assert played.outcome["winner"] == "attacker"


def test_a_seven_misses_then_it_fights() -> None:
    played = run(scenario(), [7, 6, 1])
    assert len(rolls(played, "ground_combat")) == 2


def test_not_allotted_it_does_not_bombard() -> None:
    played = run(scenario(bombarded_by={}), [6, 1])
    assert not rolls(played, "bombardment")


def test_exact_odds_hand_derived() -> None:
    """Bombardment on 8 (3/10) kills the lone infantry; otherwise the mech lands and fights it:
    (6: 1/2, SUSTAIN DAMAGE) against (8: 3/10): won 151/169, drawn 9/169, lost 9/169. Attacker
    3/10 + 7/10 * 151/169 = 782/845; draw 63/1690; defender 63/1690."""
    found = odds(scenario())
    assert found.attacker_win == pytest.approx(float(Fraction(782, 845)), abs=1e-12)
    assert found.draw == pytest.approx(float(Fraction(63, 1690)), abs=1e-12)
    assert found.defender_win == pytest.approx(float(Fraction(63, 1690)), abs=1e-12)
