"""War Funding (Letnev promissory note, Prophecy of Kings printing; abilities/war_funding.py): at
the start of a round of space combat the Letnev player loses 2 trade goods and the holder may
reroll any number of their dice that round; then the card returns (ti4-combat-effects.md §5;
data/cards.toml; docs/rulings.md 14C2-4). Played in the "start of combat round"
window (ti4-space-combat.md rule 2.1); the roll of step 3 rerolls the holder's misses once.

Exact odds, 1 cruiser holding it against 1 cruiser: round 1 (played), the holder hits with
2/5 + 3/5 · 2/5 = 16/25, the opponent with 2/5: a draw 16/25 · 2/5 = 32/125, a win
16/25 · 3/5 = 48/125, a loss 9/25 · 2/5 = 18/125, and 9/25 · 3/5 = 27/125 to a plain duel of
cruisers (win 3/8, loss 3/8, draw 1/4, as (2/5 · 3/5) / (1 - 9/25) = 3/8): win
48/125 + 27/125 · 3/8 = 93/200, loss 18/125 + 81/1000 = 9/40, draw 32/125 + 27/500 = 31/100."""

from __future__ import annotations

from fractions import Fraction
from typing import Any

import pytest

from spacecombat import odds
from spacecombat.core.events import Event
from tests.helpers import events, rolls, run, space

WF = {"promissory_notes": ["war_funding"]}


def groups(roll: Event) -> list[dict[str, Any]]:
    """A ``dice_rolled`` event's groups."""
    value = roll["groups"]
    assert isinstance(value, list)
    return value


def holder(units: str = "1 cruiser", **policy: Any) -> dict[str, Any]:
    side: dict[str, Any] = {"units": units, **WF}
    if policy:
        side["policy"] = policy
    return side


def letnev(trade_goods: int) -> dict[str, Any]:
    # Munitions Reserves is Letnev's: with fewer than 2 trade goods left it is never offered
    return {"faction": "letnev", "units": "1 cruiser", "trade_goods": trade_goods}


def test_played_a_miss_is_rerolled_and_letnev_loses_2_trade_goods() -> None:
    played = run(space(holder(), letnev(3)), [3, 7, 1])
    [card] = events(played, "card_played")
    assert (card["player"], card["card"], card["round"]) == ("attacker", "war_funding", 1)
    [lost] = events(played, "trade_goods_lost")
    assert (lost["player"], lost["trade_goods"], lost["by"]) == ("defender", 2, "war_funding")
    [roll, _] = rolls(played, "space_combat")
    assert [g["faces"] for g in groups(roll)] == [[3], [7]]
    assert roll["hits"] == 1


@pytest.mark.parametrize(("trade_goods", "loss"), [(1, [1]), (0, [])])
def test_letnev_loses_what_it_has(trade_goods: int, loss: list[int]) -> None:
    played = run(space(holder(), letnev(trade_goods)), [7, 1])
    assert [e["trade_goods"] for e in events(played, "trade_goods_lost")] == loss
    assert events(played, "card_played")


def test_once_a_battle() -> None:
    # round 1: 3, rerolled 2, both miss; round 2: 3 is not rerolled
    played = run(space(holder(), {"units": "1 cruiser"}), [3, 2, 1, 3, 1, 7, 1])
    assert len(events(played, "card_played")) == 1
    attacker = [r for r in rolls(played, "space_combat") if r["player"] == "attacker"]
    assert [len(groups(r)) for r in attacker] == [2, 1, 1]


def test_the_letnev_player_never_plays_their_own_note() -> None:
    played = run(space({"faction": "letnev", "units": "1 cruiser", **WF}, letnev(0)), [7, 1])
    assert not events(played, "choice_made", decision="play_card")


@pytest.mark.parametrize("scripted", [True, False])
def test_policy_never_or_a_scripted_pass_keeps_it(scripted: bool) -> None:
    if scripted:
        played = run(space(holder(), {"units": "1 cruiser"}), [3, 1, 7, 1], attacker=["pass"] * 2)
    else:
        never = holder(play={"war_funding": "never"})
        played = run(space(never, {"units": "1 cruiser"}), [3, 1, 7, 1])
    assert not events(played, "card_played")


def test_the_first_rounds_barrage_rerolls_its_misses_too() -> None:
    # the destroyer's barrage (2 dice, hit on 9): 1 and 9; the 1 is rerolled (9: a hit)
    scenario = space(holder("1 destroyer"), {"units": "1 carrier, 2 fighter"})
    played = run(scenario, [1, 9, 9, 9, 1, 1], all_dice=False)
    [barrage] = rolls(played, "anti_fighter_barrage")
    assert [g["faces"] for g in groups(barrage)] == [[1, 9], [9]]
    assert barrage["hits"] == 2


def test_exact_odds_of_a_duel() -> None:
    result = odds(space(holder(), {"units": "1 cruiser"}))
    assert result.attacker_win == pytest.approx(float(Fraction(93, 200)), abs=1e-12)
    assert result.defender_win == pytest.approx(float(Fraction(9, 40)), abs=1e-12)
    assert result.draw == pytest.approx(float(Fraction(31, 100)), abs=1e-12)


STRIKE_WING = {
    "faction": "argent",
    "units": "1 destroyer",
    "upgrades": ["destroyer"],
    "promissory_notes": ["war_funding"],
}
LETNEV_FIGHTERS = {"faction": "letnev", "units": "1 carrier, 2 fighter, 1 infantry"}


def test_rerolled_barrage_dice_count_the_natural_faces_of_their_reroll() -> None:
    """Strike Wing Alpha II's barrage dice count natural 9s and 10s (each destroys an
    infantry); War Funding rerolls their misses, and a reroll's 9 counts (docs/rulings.md
    14RR-4: a miss cannot show a 9 while a 9 hits). Once refused by name."""
    faces = [3, 5, 1, 9, 2, 4, 10, 10, 10]
    played = run(space(STRIKE_WING, LETNEV_FIGHTERS), faces)
    [barrage] = rolls(played, "anti_fighter_barrage")
    assert [(g["faces"], g["hits"], g["marks"]) for g in groups(barrage)] == [
        ([3, 5, 1], 0, 0),
        ([9, 2, 4], 1, 1),
    ]
    [infantry] = events(played, "unit_destroyed", unit="infantry")
    assert infantry["cause"] == "anti-fighter barrage (Strike Wing Alpha II)"


def test_exact_odds_with_rerolled_strike_wing_dice() -> None:
    """Computed now (once refused): the rerolls only add hits and infantry destroyed, so the
    holder wins more often than without the card."""
    exact = odds(space(STRIKE_WING, LETNEV_FIGHTERS))
    assert exact.attacker_win + exact.defender_win + exact.draw == pytest.approx(1, abs=1e-12)
    without = odds(space({**STRIKE_WING, "promissory_notes": []}, LETNEV_FIGHTERS))
    assert exact.attacker_win > without.attacker_win + 0.01
