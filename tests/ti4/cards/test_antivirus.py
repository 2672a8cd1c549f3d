"""Antivirus (Nekro promissory note; abilities/antivirus.py): at the start of a combat its
holder may place it face up; the Nekro then cannot use Technological Singularity against that
player (data/cards.toml; ti4-combat-effects.md §5). It is returned when its holder activates a
system with Nekro units, so only a defender against a Nekro attacker can place it; offered in
the "start of combat" window (ti4-space-combat.md rule 2.1; procedures/windows.py) only when
Technological Singularity could change the battle (docs/rulings.md 14B3-7, 14T-5)."""

from __future__ import annotations

from fractions import Fraction
from typing import Any

import pytest

from spacecombat import odds
from tests.helpers import events, run, space

NEKRO = {"units": "1 cruiser", "faction": "nekro"}


def holder(**policy: Any) -> dict[str, Any]:
    side: dict[str, Any] = {
        "units": "2 cruiser",
        "upgrades": ["cruiser"],
        "promissory_notes": ["antivirus"],
    }
    if policy:
        side["policy"] = policy
    return side


def test_placed_at_the_start_of_combat() -> None:
    # Cruiser 7 (hit); Cruiser II 1, 1: a defender's cruiser is destroyed, nothing is taken.
    # Then 7; 1: the Nekro wins, its cruiser still hitting on 7.
    played = run(space(NEKRO, holder()), [7, 1, 1, 7, 1])
    [card] = events(played, "card_played")
    assert (card["player"], card["card"], card["round"]) == ("defender", "antivirus", 1)
    kinds = [e["event"] for e in played.events]
    assert kinds.index("window_opened") < kinds.index("card_played")
    assert not events(played, "technology_gained")
    assert played.outcome["result"] == "attacker_win"


def test_never_or_a_scripted_pass_lets_the_nekro_take_a_technology() -> None:
    # Cruiser 7 (hit); 1, 1: the Nekro takes Cruiser II; then 6 (hit on 6 now); 1.
    for played in (
        run(space(NEKRO, holder(play={"antivirus": "never"})), [7, 1, 1, 6, 1]),
        run(space(NEKRO, holder()), [7, 1, 1, 6, 1], defender=["pass"]),
    ):
        assert [e["technology"] for e in events(played, "technology_gained")] == ["upgrade:cruiser"]


def test_not_offered_when_there_is_nothing_to_block() -> None:
    plain = {"units": "2 cruiser", "promissory_notes": ["antivirus"]}
    played = run(space(NEKRO, plain), [7, 1, 1, 7, 1])
    assert events(played, "choice_made", decision="play_card") == []


def test_not_offered_to_an_attacker() -> None:
    # The attacker activated a system with Nekro units: the note went back. Cruisers 1, 1;
    # cruiser 7: an attacker's cruiser is destroyed and the Nekro takes Cruiser II.
    played = run(space(holder(), NEKRO), [1, 1, 7, 1, 6])
    assert [e["card"] for e in events(played, "card_played")] == ["technological_singularity"]


def test_exact_odds_hand_derived() -> None:
    """Nekro cruiser (on 7: 2/5) against a Cruiser II (on 6: 1/2) with Antivirus placed: per
    round the Nekro alone hits 2/5 * 1/2 = 1/5, the defender alone 3/5 * 1/2 = 3/10, both 1/5,
    neither 3/10. Attacker = (1/5) / (7/10) = 2/7, defender = (3/10) / (7/10) = 3/7, draw 2/7.
    (One Cruiser II: its destruction ends the combat, so the Singularity could change nothing
    then; Antivirus is still offered at the start, when it could, and placed.)"""
    found = odds(space(NEKRO, {**holder(), "units": "1 cruiser"}))
    assert found.attacker_win == pytest.approx(float(Fraction(2, 7)), abs=1e-12)
    assert found.defender_win == pytest.approx(float(Fraction(3, 7)), abs=1e-12)
    assert found.draw == pytest.approx(float(Fraction(2, 7)), abs=1e-12)
