"""A stock policy does not play a card the opponent's pending effect makes worthless (issue 27;
docs/rulings.md 27T-2; abilities/round_boost.py ``rolls_stopped``).

The pairs found: the defender's Magen Defense Grid (its opponent makes no combat roll that
round), still to act in the "start of combat round" window of a ground combat, against the
attacker's cards whose whole effect is on its combat roll that round: Morale Boost,
Supercharge, Evelyn Delouis and Fire Team. The attacker's effects act first in a window
(procedures/windows.py ``_window_order``), so the stock attacker lists "pass" first; once the
Magen Defense Grid is exhausted, it plays the card in a later round."""

from __future__ import annotations

from fractions import Fraction
from typing import Any

import pytest

from spacecombat import odds
from spacecombat.core.engine import Played
from spacecombat.rulesets.ti4.state import BattleState
from tests.helpers import events, invasion, rolls, run

MAGEN = {"technologies": ["magen_defense_grid"]}


def scenario(attacker: dict[str, Any], defender: dict[str, Any] | None = None) -> dict[str, Any]:
    """1 cruiser and 1 infantry land against 1 infantry and 1 PDS with Magen Defense Grid."""
    return invasion(
        {"units": "1 cruiser, 1 infantry", **attacker},
        {"units": "1 infantry, 1 pds", **MAGEN, **(defender or {})},
    )


def plays(played: Played[BattleState]) -> list[tuple[object, object, object]]:
    return [(e["player"], e["card"], e["round"]) for e in events(played, "card_played")]


def rounds_rolled(played: Played[BattleState]) -> list[tuple[object, object]]:
    return [(r["player"], r["hits"]) for r in rolls(played, "ground_combat")]


def test_morale_boost_waits_for_the_round_after_the_magen_defense_grid() -> None:
    # space cannon defense misses (1); round 1: the attacker passes, the defender exhausts
    # Magen Defense Grid and rolls alone (1, a miss); round 2: Morale Boost, the attacker's 7
    # hits (+1), the defender's 1 misses
    played = run(scenario({"action_cards": ["morale_boost"]}), [1, 1, 7, 1])
    assert plays(played) == [
        ("defender", "magen_defense_grid", 1),
        ("attacker", "morale_boost", 2),
    ]
    [first, *_] = events(played, "choice_made", decision="play_card")
    assert (first["player"], first["choice"]) == ("attacker", "pass")
    assert first["options"] == ["pass", "play morale_boost"]
    assert rounds_rolled(played) == [("defender", 0), ("attacker", 1), ("defender", 0)]


def test_played_at_once_when_the_defender_keeps_its_grid() -> None:
    played = run(
        scenario(
            {"action_cards": ["morale_boost"]},
            {"policy": {"play": {"magen_defense_grid": "never"}}},
        ),
        [1, 7, 1],
    )
    assert plays(played) == [("attacker", "morale_boost", 1)]


def test_played_at_once_without_a_planetary_shield() -> None:
    """No PDS on the planet: the grid is never offered, so the card is not worthless."""
    sc = invasion(
        {"units": "1 cruiser, 1 infantry", "action_cards": ["morale_boost"]},
        {"units": "1 infantry", **MAGEN},
    )
    played = run(sc, [7, 1])
    assert plays(played) == [("attacker", "morale_boost", 1)]


@pytest.mark.parametrize(
    ("attacker", "card"),
    [
        ({"action_cards": ["fire_team"]}, "fire_team"),
        ({"faction": "sol", "leaders": ["evelyn_delouis"]}, "evelyn_delouis"),
        ({"technologies": ["supercharge"], "faction": "naazrokha"}, "supercharge"),
    ],
)
def test_the_other_round_cards_wait_too(attacker: dict[str, Any], card: str) -> None:
    # round 1 as above; round 2 the card is played and the attacker's dice (8s) hit
    played = run(scenario(attacker), [1, 1, 8, 8, 1], all_dice=False)
    found = plays(played)
    assert found[0] == ("defender", "magen_defense_grid", 1)
    assert (("attacker", card, 1)) not in found
    assert ("attacker", card, 2) in found


def test_a_scripted_attacker_may_still_play_it() -> None:
    played = run(
        scenario({"action_cards": ["morale_boost"]}),
        [1, 1, 8, 1],
        attacker=["play morale_boost"],
    )
    assert plays(played)[0] == ("attacker", "morale_boost", 1)


def test_exact_odds_hand_derived() -> None:
    """The PDS fires at the landed infantry on 6 (1/2): a hit ends it. Else round 1: only the
    defender rolls (3/10 kills the attacker). Else round 2 with Morale Boost: the attacker hits
    on 7 (4/10), the defender on 8 (3/10): won 4/10 * 7/10 = 7/25, drawn 4/10 * 3/10 = 3/25,
    on with 6/10 * 7/10 = 21/50 into 1 v 1 on 8 (7/17 won, 3/17 drawn). Attacker
    7/20 * (7/25 + 21/50 * 7/17) = 539/3400; draw 7/20 * (3/25 + 21/50 * 3/17) = 231/3400.
    (Morale Boost spent in round 1 would leave the attacker 49/340.)"""
    found = odds(scenario({"action_cards": ["morale_boost"]}))
    assert found.attacker_win == pytest.approx(float(Fraction(539, 3400)), abs=1e-12)
    assert found.draw == pytest.approx(float(Fraction(231, 3400)), abs=1e-12)
    assert found.defender_win == pytest.approx(float(Fraction(263, 340)), abs=1e-12)
