"""Fire Team (action card; abilities/fire_team.py): once, the holder rerolls their ground
combat dice (ti4-ground-combat.md step 1) that missed. Offered in the "start of combat round"
window of a ground combat (rule 4.1), before the roll; played, that round's roll rerolls every
miss (docs/rulings.md 14C-9)."""

from __future__ import annotations

from fractions import Fraction
from typing import Any

import pytest

from spacecombat import odds
from tests.helpers import events, invasion, rolls, run, space

FT = {"action_cards": ["fire_team"]}


def groups_of(roll: object) -> list[dict[str, Any]]:
    """The groups of a ``dice_rolled`` event."""
    assert isinstance(roll, dict)
    found: list[dict[str, Any]] = roll["groups"]
    return found


def landing(units: str = "1 carrier, 1 infantry", **attacker: Any) -> dict[str, Any]:
    return invasion(
        {"units": units, **FT, **attacker},
        {},
        planets=[{"name": "P", "defender": {"infantry": 1}}],
    )


def attacker_rolls(played: Any) -> list[list[tuple[list[int], bool]]]:
    return [
        [(g["faces"], bool(g.get("rerolled"))) for g in groups_of(r)]
        for r in rolls(played, "ground_combat")
        if r["player"] == "attacker"
    ]


def test_played_in_the_first_round_the_misses_are_rerolled_once() -> None:
    # round 1: 2 misses rerolled, both miss again; round 2: no reroll, a hit
    played = run(landing("1 carrier, 2 infantry"), [1, 2, 1, 1, 1, 1, 8, 1])
    [card] = events(played, "card_played")
    assert (card["player"], card["card"], card["round"]) == ("attacker", "fire_team", 1)
    assert attacker_rolls(played) == [[([1, 2], False), ([1, 1], True)], [([1, 8], False)]]


def test_a_rerolled_miss_that_hits_counts() -> None:
    played = run(landing(), [3, 8, 1])
    assert attacker_rolls(played) == [[([3], False), ([8], True)]]
    assert events(played, "unit_destroyed", player="defender")


def test_only_once() -> None:
    # round 1: miss, reroll miss; defender misses; round 2: miss, no reroll; then a hit
    played = run(landing(), [1, 1, 1, 1, 1, 8, 1])
    assert len(events(played, "card_played")) == 1
    assert attacker_rolls(played) == [[([1], False), ([1], True)], [([1], False)], [([8], False)]]


def test_policy_never_and_a_scripted_pass_then_play() -> None:
    played = run(landing(policy={"play": {"fire_team": "never"}}), [8, 1])
    assert not events(played, "card_played")
    later = run(landing(), [1, 1, 1, 8, 1], attacker=["pass", "play fire_team"])
    assert [e["round"] for e in events(later, "card_played")] == [2]
    assert attacker_rolls(later) == [[([1], False)], [([1], False), ([8], True)]]


def test_not_in_space_combat() -> None:
    played = run(space({"units": "1 cruiser", **FT}, {"units": "1 cruiser"}), [7, 1])
    assert not events(played, "card_played")


def test_exact_odds_hand_derived() -> None:
    """1 infantry (on 8: 3/10) lands on 1 infantry. Round 1 with the reroll: hits
    3/10 + 7/10 · 3/10 = 51/100. Later a plain 3/10 duel: per round won
    21/100, drawn 9/100, lost 21/100, again 49/100: won 21/51 = 7/17, drawn 3/17, lost 7/17.
    Round 1: won 51/100 · 7/10, drawn 51/100 · 3/10, lost 49/100 · 3/10, again
    49/100 · 7/10."""
    f = Fraction
    again = f(49, 100) * f(7, 10)
    win = f(51, 100) * f(7, 10) + again * f(7, 17)
    draw = f(51, 100) * f(3, 10) + again * f(3, 17)
    found = odds(landing())
    assert found.attacker_win == pytest.approx(float(win), abs=1e-12)
    assert found.draw == pytest.approx(float(draw), abs=1e-12)
