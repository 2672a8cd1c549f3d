"""Harrow (L1Z1X faction ability; abilities/harrow.py): after each round of ground combat, your
ships in the active system may use their BOMBARDMENT against your opponent's units on that
planet (ti4-combat-effects.md §3; data/factions.toml). Offered through "play_card" in the "end
of combat round" window (ti4-ground-combat.md rule 4.2, note 2); the roll is invasion step 1's
(invasion.py ``bombardment``, ``bombards_in_combat``)."""

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
    """The L1Z1X's other ability, Assimilate, acts when control is established (another
    handler): a no-op stands in for it if it is not registered."""
    if "assimilate" not in HANDLERS:
        monkeypatch.setitem(HANDLERS, "assimilate", type("Stub", (Handler,), {"id": "assimilate"}))


def scenario(
    attacker: str = "1 dreadnought, 1 infantry", defender: str = "1 infantry", **extra: Any
) -> dict[str, Any]:
    return invasion({"units": attacker, "faction": "l1z1x", **extra}, {"units": defender, **extra})


def kinds(played: object) -> list[str]:
    return [
        e["purpose"]
        for e in played.events  # type: ignore[attr-defined]
        if e["event"] == "dice_rolled"
    ]


def test_the_ships_bombard_after_a_round() -> None:
    # step 1 misses; round 1 both miss; Harrow hits: the combat ends, the attacker wins
    played = run(scenario(), [1, 1, 1, 5])
    assert kinds(played) == ["bombardment", "ground_combat", "ground_combat", "bombardment"]
    [card] = events(played, "card_played")
    assert (card["player"], card["card"], card["round"]) == ("attacker", "harrow", 1)
    assert played.outcome["winner"] == "attacker"
    assert played.outcome["rounds"] == 1


def test_after_every_round() -> None:
    played = run(scenario(), [1, 1, 1, 1, 1, 1, 5])
    assert [e["round"] for e in events(played, "card_played")] == [1, 2]


def test_after_the_last_round_too() -> None:
    # round 1: the defender kills the attacker's infantry; Harrow still bombards (a hit: draw)
    played = run(scenario(), [1, 1, 10, 5])
    assert kinds(played)[-1] == "bombardment"
    assert played.outcome["result"] == "draw"


def test_a_planetary_shield_stops_it() -> None:
    played = run(scenario(defender="1 infantry, 1 pds"), [1, 10, 1])  # SCD, then a round
    assert not events(played, "choice_made", decision="play_card")


def test_a_scripted_pass() -> None:
    played = run(scenario(), [1, 1, 1, 10, 1], attacker=["pass"])
    assert kinds(played).count("bombardment") == 1


def test_without_bombarding_ships_not_offered() -> None:
    played = run(scenario("1 carrier, 1 infantry"), [1, 1, 10, 1])
    assert not events(played, "choice_made", decision="play_card")


def test_an_annihilator_in_space_bombards_too() -> None:
    # the L1Z1X mech (BOMBARDMENT 8) left in space is counted with the ships
    sc = invasion(
        {"units": "1 carrier, 1 infantry, 1 mech", "faction": "l1z1x"},
        {},
        planets=[{"name": "P", "defender": {"infantry": 1}, "commit": {"infantry": 1}}],
    )
    played = run(sc, [1, 1, 1, 8])
    harrowed = rolls(played, "bombardment")
    assert [[g["unit"] for g in _groups(r)] for r in harrowed] == [["mech"], ["mech"]]
    assert played.outcome["winner"] == "attacker"


def test_exact_odds_hand_derived() -> None:
    """Dreadnought (5: 3/5) and 1 infantry against 1 infantry (8: 3/10 each). Step 1 kills the
    defender with 3/5. Otherwise each round: both hit 9/100 (draw); only the attacker 21/100
    (won); only the defender 21/100, then Harrow makes it a draw with 3/5, else lost; both miss
    49/100, then Harrow wins with 3/5, else again. Round value: won 42/67, drawn 18/67, lost
    7/67. Attacker 3/5 + 2/5 * 42/67 = 57/67; draw 36/335; defender 14/335."""
    found = odds(scenario())
    assert found.attacker_win == pytest.approx(float(Fraction(57, 67)), abs=1e-12)
    assert found.draw == pytest.approx(float(Fraction(36, 335)), abs=1e-12)
    assert found.defender_win == pytest.approx(float(Fraction(14, 335)), abs=1e-12)
