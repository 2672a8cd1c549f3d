"""Wrath of Kenara (Hacan flagship; abilities/hacan_flagship_buy_roll_bonus.py): after the owner
rolls a die during a space combat in its system, they may spend 1 trade good for +1 on that
die, as often as they like (ti4-combat-effects.md §4; data/units.toml). The most to spend is
chosen in the "start of combat round" window (ti4-space-combat.md rule 2.1); the combat roll of
step 3 then buys misses, the closest to hitting first (docs/rulings.md 14C2-3).

Exact odds, the Hacan flagship (2 dice, hit on 7, SUSTAIN DAMAGE) with 1 trade good against
1 cruiser (hit on 7): the flagship kills the cruiser unless both dice miss (9/25) and neither
shows a 6 (given a miss, faces 1-6 alike: (5/6)² = 25/36), so with k = 1 - 9/25 · 25/36 = 3/4.
The trade good is spent only on a roll that kills, so k stays 3/4; the cruiser hits with
f = 2/5. Undamaged (U) or damaged (D) flagship; a round where neither hits repeats
((1-k)(1-f) = 3/20, so each state's chances are divided by 17/20):
D: win k(1-f) / (17/20) = 9/17, draw k f / (17/20) = 6/17, loss (1-k) f / (17/20) = 2/17.
U: win (k + (1-k) f · 9/17) / (17/20) = 273/289, draw (1-k) f · 6/17 / (17/20) = 12/289,
loss (1-k) f · 2/17 / (17/20) = 4/289."""

from __future__ import annotations

from fractions import Fraction
from typing import Any

import pytest

from spacecombat import odds
from spacecombat.core.events import Event
from tests.helpers import events, invasion, rolls, run, space

PLAY = "play hacan_flagship_buy_roll_bonus: up to "


def groups(roll: Event) -> list[dict[str, Any]]:
    """A ``dice_rolled`` event's groups."""
    value = roll["groups"]
    assert isinstance(value, list)
    return value


def options(choice: Event) -> list[str]:
    """A ``choice_made`` event's options."""
    value = choice["options"]
    assert isinstance(value, list)
    return value


def hacan(units: str = "1 flagship", trade_goods: int = 3, **policy: Any) -> dict[str, Any]:
    side: dict[str, Any] = {"faction": "hacan", "units": units, "trade_goods": trade_goods}
    if policy:
        side["policy"] = policy
    return side


def test_misses_are_bought_into_hits() -> None:
    # faces 6 and 5 miss (hit on 7): 1 + 2 trade goods make both hit
    played = run(space(hacan(), {"units": "1 dreadnought"}), [6, 5, 1])
    [choice] = events(played, "choice_made", decision="play_card")
    assert choice["choice"] == PLAY + "3 trade goods"
    assert options(choice)[-1] == "pass"
    assert len(options(choice)) == 4
    [roll, _] = rolls(played, "space_combat")
    assert (roll["hits"], roll["trade_goods"], roll["trade_goods_spent"]) == (2, 3, 3)
    [spent] = events(played, "trade_goods_spent")
    assert (spent["player"], spent["trade_goods"], spent["by"], spent["round"]) == (
        "attacker",
        3,
        "hacan_flagship_buy_roll_bonus",
        1,
    )
    assert played.outcome["result"] == "attacker_win"


def test_the_closest_miss_is_bought_first_while_trade_goods_last() -> None:
    # 4 needs 3, 6 needs 1: 2 trade goods buy the 6 only (the dreadnought sustains the hit);
    # the defender's 1 misses; round 2 (1 trade good left): 7 hits and the 6 is bought
    played = run(space(hacan(trade_goods=2), {"units": "1 dreadnought"}), [4, 6, 1, 7, 6, 1])
    first, _, second, _ = rolls(played, "space_combat")
    assert (first["hits"], first["trade_goods_spent"]) == (1, 1)
    assert (second["hits"], second["trade_goods"], second["trade_goods_spent"]) == (2, 1, 1)
    assert [e["trade_goods"] for e in events(played, "trade_goods_spent")] == [1, 1]


def test_a_scripted_choice_caps_the_spending() -> None:
    played = run(
        space(hacan(), {"units": "1 cruiser"}), [6, 5, 1], attacker=[PLAY + "1 trade goods"]
    )
    [roll, _] = rolls(played, "space_combat")
    assert (roll["hits"], roll["trade_goods_spent"]) == (1, 1)


def test_policy_never_or_a_scripted_pass_spends_nothing() -> None:
    never = space(hacan(play={"hacan_flagship_buy_roll_bonus": "never"}), {"units": "1 cruiser"})
    for played in (
        run(never, [6, 5, 7, 7, 1, 1]),
        run(
            space(hacan(), {"units": "1 cruiser"}),
            [6, 5, 7, 7, 1, 1],
            attacker=["pass", "sustain flagship", "pass"],
        ),
    ):
        assert not events(played, "trade_goods_spent")
        assert all("trade_goods" not in r for r in rolls(played, "space_combat"))


def test_not_offered_without_trade_goods_or_flagship_or_in_ground_combat() -> None:
    poor = run(space(hacan(trade_goods=0), {"units": "1 cruiser"}), [7, 7, 1])
    no_flagship = run(space(hacan("1 cruiser"), {"units": "1 cruiser"}), [7, 1])
    for played in (poor, no_flagship):
        assert not events(played, "choice_made", decision="play_card")
    ground = invasion(hacan("1 flagship, 1 infantry"), {"units": "1 infantry"})
    played = run(ground, [8, 1, 8, 1, 8, 1], all_dice=False)
    assert not events(played, "trade_goods_spent")


def test_exact_odds_against_a_cruiser() -> None:
    result = odds(space(hacan(trade_goods=1), {"units": "1 cruiser"}))
    assert result.attacker_win == pytest.approx(float(Fraction(273, 289)), abs=1e-12)
    assert result.draw == pytest.approx(float(Fraction(12, 289)), abs=1e-12)
    assert result.defender_win == pytest.approx(float(Fraction(4, 289)), abs=1e-12)
    # without the trade good: k = 16/25 (2/5 + 3/5 · 2/5 ... = 1 - 9/25)
    plain = odds(space(hacan(trade_goods=0), {"units": "1 cruiser"}))
    assert plain.attacker_win < result.attacker_win


WAR_FUNDED = {
    "faction": "hacan",
    "units": "1 flagship",
    "promissory_notes": ["war_funding"],
    "trade_goods": 1,
}


def test_with_war_funding_the_trade_goods_raise_the_misses_left_after_the_reroll() -> None:
    """War Funding rerolls the misses first, then trade goods are spent on the misses left
    (docs/rulings.md 14RR-3; once refused by name): 3 and 5 miss, are rerolled as 4 and 6; the
    trade good raises the 6."""
    played = run(space(WAR_FUNDED, {"units": "1 cruiser"}), [3, 5, 4, 6, 1])
    [roll, _] = rolls(played, "space_combat")
    assert [(g["faces"], g.get("rerolled", False)) for g in groups(roll)] == [
        ([3, 5], False),
        ([4, 6], True),
    ]
    assert (roll["hits"], roll["trade_goods_spent"]) == (1, 1)
    assert played.outcome["result"] == "attacker_win"


def test_exact_odds_with_war_funding() -> None:
    """Round 1 (War Funding): a die misses at last with (3/5)^2 = 9/25, and both with 81/625;
    the trade good then saves the roll if one shows a 6 (a last miss shows 1-6 alike), so the
    flagship kills with k1 = 1 - 81/625 * 25/36 = 91/100. Else the cruiser's hit (2/5) damages
    it, and later rounds are those of the duel above (no War Funding): from D, win 9/17; from
    U, win 273/289."""
    result = odds(space(WAR_FUNDED, {"units": "1 cruiser"}))
    k1, f = Fraction(91, 100), Fraction(2, 5)
    win = k1 + (1 - k1) * f * Fraction(9, 17) + (1 - k1) * (1 - f) * Fraction(273, 289)
    assert result.attacker_win == pytest.approx(float(win), abs=1e-12)
