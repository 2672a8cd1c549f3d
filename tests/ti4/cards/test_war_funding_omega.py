"""War Funding Ω (Letnev promissory note, Codex revision; abilities/war_funding_omega.py):
"After you and your opponent roll dice during space combat: you may reroll all of your
opponent's dice; you may reroll any number of your dice. Then, return this card to the Letnev
player." Played in the "after roll dice" window of a space combat round (ti4-space-combat.md
step 3; procedures/combat_round.py ``roll_dice``), one ``play_card`` decision; the holder's
roll is kept group by group while the card is held, so that only its misses are rerolled
(docs/rulings.md 14C2-4, 14W-1 to 14W-4).

Exact odds, 1 cruiser (hit on 7: p = 2/5) holding it against 1 cruiser, stock policy (the
option of the largest expected gain in hits difference, if positive; 14W-3), round 1:
- holder hits, opponent hits (4/25): "reroll theirs" (gain 1 - 2/5): drawn 4/25 · 2/5 = 8/125,
  won 4/25 · 3/5 = 12/125;
- holder hits, opponent misses (6/25): only "reroll theirs" (gain -2/5): passed, won 6/25;
- holder misses, opponent hits (6/25): "reroll theirs and my misses" (gain 3/5 + 2/5): won
  6/25 · 6/25 = 36/625, lost 36/625, drawn 6/25 · 4/25 = 24/625, on 6/25 · 9/25 = 54/625;
- both miss (9/25): "reroll my misses" (gain 2/5): won 9/25 · 2/5 = 18/125, on 27/125.
Then a plain duel of cruisers (won 3/8, lost 3/8, drawn 1/4) on 54/625 + 27/125 = 189/625:
won 336/625 + 189/625 · 3/8 = 651/1000, lost 36/625 + 567/5000 = 171/1000, drawn
64/625 + 189/2500 = 89/500."""

from __future__ import annotations

import json
from fractions import Fraction
from typing import Any, cast

import pytest

from spacecombat import odds
from spacecombat.core.events import Event
from spacecombat.replayer import replay
from spacecombat.resolver import resolve
from tests.helpers import (
    assert_logs_replay,
    assert_sampled_as_played,
    events,
    invasion,
    rolls,
    run,
    space,
    survivors,
)

CARD = "war_funding_omega"
PLAY = f"play {CARD}"
BOTH = f"{PLAY}: reroll theirs and my misses"
MINE = f"{PLAY}: reroll my misses"
THEIRS = f"{PLAY}: reroll theirs"


def holder(units: str = "1 cruiser", **extra: Any) -> dict[str, Any]:
    return {"units": units, "promissory_notes": [CARD], **extra}


def duel(**extra: Any) -> dict[str, Any]:
    return space(holder(**extra), {"units": "1 cruiser"})


def groups(roll: Event) -> list[dict[str, Any]]:
    """A ``dice_rolled`` event's groups."""
    value = roll["groups"]
    assert isinstance(value, list)
    return value


def faces(roll: Event) -> list[list[int]]:
    return [g["faces"] for g in groups(roll)]


def offered(played: Any) -> list[Event]:
    return events(played, "choice_made", decision="play_card")


def test_theirs_and_my_misses_rerolled_after_both_rolled() -> None:
    # the holder misses (3), the opponent hits (7): both rerolled, theirs first (2: a miss),
    # then the holder's miss (8: a hit); the holder wins the round
    played = run(duel(), [3, 7, 2, 8])
    [choice] = offered(played)
    assert choice["choice"] == BOTH
    assert choice["options"] == [BOTH, THEIRS, MINE, "pass"]
    [card] = events(played, "card_played")
    assert (card["player"], card["card"], card["round"]) == ("attacker", CARD, 1)
    [theirs, mine] = rolls(played, CARD)
    assert (theirs["player"], faces(theirs), theirs["hits"]) == ("defender", [[2]], 0)
    assert (mine["player"], faces(mine), mine["hits"]) == ("attacker", [[8]], 1)
    assert survivors(played, "attacker") == {"cruiser": 1}
    assert survivors(played, "defender") == {}


def test_only_the_misses_of_the_holders_groups_are_rerolled() -> None:
    # rolling order: dreadnought (5) 6, a hit; cruiser (7) 2, a miss; the opponent's
    # dreadnought 1. "reroll my misses" rolls the cruiser's die alone (7: a hit); the
    # opponent's dreadnought sustains one hit and is destroyed by the other.
    scenario = space(holder("1 cruiser, 1 dreadnought"), {"units": "1 dreadnought"})
    played = run(scenario, [6, 2, 1, 7])
    [choice] = offered(played)
    assert choice["choice"] == MINE
    combat = [r for r in rolls(played, "space_combat") if r["player"] == "attacker"]
    assert [faces(r) for r in combat] == [[[6]], [[2]]]  # one group at a time
    [mine] = rolls(played, CARD)
    assert [g["unit"] for g in groups(mine)] == ["cruiser"]
    assert mine["hits"] == 1
    assert survivors(played, "defender") == {}


def test_the_stock_player_passes_when_the_only_reroll_is_expected_to_lose() -> None:
    # the holder hits (7), the opponent misses (3): only "reroll theirs" would change
    # something, expected to give them 2/5 of a hit: "pass" comes first and is chosen
    played = run(duel(), [7, 3])
    [choice] = offered(played)
    assert choice["options"] == ["pass", THEIRS]
    assert choice["choice"] == "pass"
    assert not events(played, "card_played")


def test_the_stock_player_rerolls_a_hit_against_it() -> None:
    # both hit: rerolling theirs is expected to take away 3/5 of a hit (1: a miss)
    played = run(duel(), [7, 7, 1])
    [choice] = offered(played)
    assert (choice["options"], choice["choice"]) == ([THEIRS, "pass"], THEIRS)
    [theirs] = rolls(played, CARD)
    assert theirs["player"] == "defender"
    assert survivors(played, "defender") == {}


def test_both_missed_the_holders_misses_first() -> None:
    # gains: my misses 2/5, both 0, theirs -2/5
    played = run(duel(), [3, 3, 9])
    [choice] = offered(played)
    assert choice["options"] == [MINE, BOTH, THEIRS, "pass"]
    assert choice["choice"] == MINE


def test_once_a_battle() -> None:
    # round 1: both miss, the reroll misses (2); round 2: both miss, not offered again;
    # round 3: the holder hits
    played = run(duel(), [3, 3, 2, 3, 3, 7, 1])
    assert len(offered(played)) == 1
    assert len(events(played, "card_played")) == 1


@pytest.mark.parametrize("how", ["never", "scripted pass"])
def test_policy_never_or_a_scripted_pass_keeps_it(how: str) -> None:
    if how == "never":
        played = run(duel(policy={"play": {CARD: "never"}}), [3, 7])
    else:
        played = run(duel(), [3, 7], attacker=["pass"])
    assert not events(played, "card_played")
    assert survivors(played, "attacker") == {}


def test_policy_from_a_later_round() -> None:
    # round 1 passed (both miss), round 2 played: the holder's miss rerolled (9: a hit)
    played = run(duel(policy={"play": {CARD: {"round": 2}}}), [3, 3, 3, 3, 9])
    assert [c["choice"] for c in offered(played)] == ["pass", MINE]
    [card] = events(played, "card_played")
    assert card["round"] == 2


def test_the_letnev_player_never_plays_their_own_note() -> None:
    own = {"faction": "letnev", "units": "1 cruiser", "promissory_notes": [CARD]}
    played = run(space(own, {"units": "1 cruiser"}), [3, 7])
    assert not offered(played)
    assert not rolls(played, CARD)


def test_not_in_ground_combat() -> None:
    scenario = invasion(
        holder("1 carrier, 1 infantry"), {}, planets=[{"name": "P", "defender": {"infantry": 1}}]
    )
    played = run(scenario, [3, 3, 8, 1])
    assert not offered(played)
    assert [r["hits"] for r in rolls(played, "ground_combat")] == [0, 0, 1, 0]


LETNEV = {"faction": "letnev", "units": "1 cruiser", "trade_goods": 2}


def test_a_roll_munitions_reserves_rerolled_is_rolled_afresh() -> None:
    """Letnev pays Munitions Reserves: its miss (3) is rerolled (7: a hit) right after its
    roll; War Funding Ω then rerolls all of its dice, once, without Letnev's reroll (2: a
    miss), and the holder's miss (8: a hit) (docs/rulings.md 14RR-5; once refused by name)."""
    played = run(space(holder(), LETNEV), [3, 3, 7, 2, 8])
    [_, letnev] = rolls(played, "space_combat")
    assert faces(letnev) == [[3], [7]]
    [choice] = [c for c in offered(played) if c["player"] == "attacker"]
    assert choice["choice"] == BOTH
    [theirs, mine] = rolls(played, CARD)
    assert (faces(theirs), theirs["hits"], "reroll_modifier" in groups(theirs)[0]) == (
        [[2]],
        0,
        False,
    )
    assert (faces(mine), mine["hits"]) == ([[8]], 1)
    assert played.outcome["result"] == "attacker_win"


def test_exact_odds_against_munitions_reserves_hand_derived() -> None:
    """Round 1: the holder hits with 2/5, Letnev (Munitions Reserves) with 1 - (3/5)^2 =
    16/25. Both hit: "reroll theirs" (gain 3/5; their fresh roll hits with 2/5): drawn or won.
    Only the holder: passed, won. Only Letnev: both rerolled (gain 1): won 6/25, lost 6/25,
    drawn 4/25, else on. Neither: "reroll my misses" (gain 2/5): won 2/5, else on. Then a plain
    duel (Letnev's trade goods are spent): won 3/8, lost 3/8, drawn 1/4."""
    h, q, p = Fraction(2, 5), Fraction(16, 25), Fraction(2, 5)
    on_win, on_loss = Fraction(3, 8), Fraction(3, 8)
    both, mine_only, theirs_only, neither = h * q, h * (1 - q), (1 - h) * q, (1 - h) * (1 - q)
    win = (
        both * (1 - p)
        + mine_only
        + theirs_only * (p * (1 - p) + (1 - p) * (1 - p) * on_win)
        + neither * (p + (1 - p) * on_win)
    )
    loss = theirs_only * ((1 - p) * p + (1 - p) * (1 - p) * on_loss) + neither * (1 - p) * on_loss
    found = odds(space(holder(), LETNEV))
    assert found.attacker_win == pytest.approx(float(win), abs=1e-12)
    assert found.defender_win == pytest.approx(float(loss), abs=1e-12)


def test_a_roll_the_crown_doomed_is_rolled_afresh() -> None:
    # the opponent's Crown of Thalnos (relic) rerolled its miss (3, then 6 + 1: a hit); the
    # holder rerolls their whole roll without it (1: a miss), and their own miss (9: a hit)
    crowned = {"units": "1 cruiser", "relics": ["the_crown_of_thalnos"]}
    played = run(space(holder(), crowned), [3, 3, 6, 1, 9])
    [theirs, mine] = rolls(played, CARD)
    assert (faces(theirs), theirs["hits"], "units_lost" in theirs) == ([[1]], 0, False)
    assert (faces(mine), mine["hits"]) == ([[9]], 1)
    assert played.outcome["result"] == "attacker_win"


def jolnar_duel() -> dict[str, Any]:
    """The Jol-Nar flagship (2 dice at 6, -1 for Fragile; a natural 9 or 10 makes 2 more hits)
    holding the card, against a cruiser."""
    return space(holder("1 flagship", faction="jolnar"), {"units": "1 cruiser"})


def test_the_holders_dice_with_extra_hits_are_kept_die_by_die() -> None:
    """docs/rulings.md 27T-8: the flagship's dice are rolled one by one (1; 1), the cruiser
    misses (1); "reroll my misses" rolls both dice
    again: 9 (3 hits), 1: the cruiser is destroyed (expected 2 x 4/5 against theirs' loss)."""
    played = run(jolnar_duel(), [1, 1, 1, 9, 1])
    assert [len(faces(r)) for r in rolls(played, "space_combat") if r["player"] == "attacker"] == [
        1,
        1,
    ]
    [choice] = offered(played)
    assert choice["choice"] == MINE
    [mine] = rolls(played, CARD)
    assert (faces(mine), mine["hits"]) == ([[9], [1]], 3)  # die by die, as rolled
    assert played.outcome["result"] == "attacker_win"


def test_a_die_with_extra_hits_that_hit_is_not_rerolled() -> None:
    # 7 hits (6, Fragile -1), 1 misses; the cruiser misses: only the missed die is rolled
    # again (10: 3 hits)
    played = run(jolnar_duel(), [7, 1, 1, 10])
    [mine] = rolls(played, CARD)
    assert (faces(mine), mine["hits"]) == ([[10]], 3)
    assert played.outcome["result"] == "attacker_win"


def test_exact_odds_with_extra_hits_hand_derived() -> None:
    """The Jol-Nar flagship (2 dice, each scoring with 2/5 on 7+ after Fragile; SUSTAIN
    DAMAGE) holding the card against a carrier (1/5). The flagship scores in a round with
    a = 1 - (3/5)^2 = 16/25 and destroys the carrier. Round 1, when it did not score: the carrier
    missed: "reroll my misses" (expected 2 x 4/5); the carrier hit: "reroll theirs and my
    misses". Without the card, from h hit points: W1 = a(1-f)/k, D1 = af/k, W2 = (a + (1-a)f
    W1)/k, D2 = (1-a)f D1/k, k = 1 - (1-a)(1-f). Attacker a + (1-a)(1-f)(a + (1-a)W2) +
    (1-a)f(a + (1-a)((1-f)W2 + fW1)); draw (1-a)^2((1-f)D2 + f((1-f)D2 + fD1))."""
    f_, a = Fraction(1, 5), Fraction(16, 25)
    k = 1 - (1 - a) * (1 - f_)
    w1, d1 = a * (1 - f_) / k, a * f_ / k
    w2, d2 = (a + (1 - a) * f_ * w1) / k, (1 - a) * f_ * d1 / k
    m = 1 - a
    win = a + m * (1 - f_) * (a + m * w2) + m * f_ * (a + m * ((1 - f_) * w2 + f_ * w1))
    draw = m * m * ((1 - f_) * d2 + f_ * ((1 - f_) * d2 + f_ * d1))
    found = odds(space(holder("1 flagship", faction="jolnar"), {"units": "1 carrier"}))
    assert found.attacker_win == pytest.approx(float(win), abs=1e-12)
    assert found.draw == pytest.approx(float(draw), abs=1e-12)


def test_with_extra_hits_logs_replay_and_the_sampler_plays_as_play_does() -> None:
    assert_logs_replay(jolnar_duel(), seeds=5)
    assert_sampled_as_played(jolnar_duel(), trials=60)


def test_exact_odds_hand_derived() -> None:
    found = odds(duel())
    assert found.attacker_win == pytest.approx(float(Fraction(651, 1000)), abs=1e-12)
    assert found.defender_win == pytest.approx(float(Fraction(171, 1000)), abs=1e-12)
    assert found.draw == pytest.approx(float(Fraction(89, 500)), abs=1e-12)


def test_exact_odds_with_policy_never_are_a_plain_duel() -> None:
    found = odds(duel(policy={"play": {CARD: "never"}}))
    assert found.attacker_win == pytest.approx(3 / 8, abs=1e-12)
    assert found.draw == pytest.approx(1 / 4, abs=1e-12)


def test_logs_replay_with_and_without_a_seed() -> None:
    scenario = space(holder("2 cruiser, 1 dreadnought"), {"units": "3 cruiser"})
    seeded = resolve(scenario, seed=4)
    assert [r["player"] for r in rolls(seeded, CARD)] == ["defender", "attacker"]
    report = replay(list(seeded.events))
    assert report.reproduces, report.reason
    assert report.verified
    unseeded = run(duel(), [3, 7, 2, 8])
    report = replay(list(unseeded.events))
    assert report.reproduces, report.reason


def test_not_offered_for_a_roll_the_thundarian_discarded() -> None:
    # the attacker's Thundarian acts first in the window: the Roll Dice step (3; 7) is
    # repeated, so War Funding Ω waits for the repeated rolls (8; 2), after which the defender
    # rerolls the attacker's hit (1) and its own miss (9)
    thundarian = {"units": "1 cruiser", "leaders": ["the_thundarian"]}
    played = run(space(thundarian, holder()), [3, 7, 8, 2, 1, 9])
    assert [(c["player"], c["choice"]) for c in offered(played)] == [
        ("attacker", "play the_thundarian: reroll"),
        ("defender", BOTH),
    ]
    assert survivors(played, "defender") == {"cruiser": 1}


def hacan(trade_goods: int) -> dict[str, Any]:
    """The Hacan flagship (2 dice at 7; a trade good spent adds 1 to a die) against a cruiser
    holding the card."""
    return space({"units": "1 flagship", "faction": "hacan", "trade_goods": trade_goods}, holder())


def test_an_opponents_dice_raised_by_trade_goods_are_rolled_again() -> None:
    """docs/rulings.md 27T-9: the flagship's 6 is raised to 7 with its only trade good (1
    hit), the cruiser misses; the holder rerolls theirs and its miss: the flagship's 6, 1 with
    no trade good left miss; the cruiser's 1 misses. The trade good stays spent."""
    played = run(hacan(1), [6, 1, 1, 6, 1, 1, 10, 10, 1], all_dice=False)
    [choice] = [c for c in offered(played) if c["player"] == "defender"]
    assert choice["choice"] == BOTH
    theirs = rolls(played, CARD)[0]
    assert (theirs["player"], faces(theirs), theirs["hits"]) == ("attacker", [[6, 1]], 0)
    assert [e["trade_goods"] for e in events(played, "trade_goods_spent")] == [1]


def test_the_trade_goods_left_raise_the_dice_rolled_again() -> None:
    # 2 trade goods: one raises the first roll's 6, the other the reroll's 6 (1 hit again)
    played = run(hacan(2), [6, 1, 1, 6, 1, 1])
    theirs = rolls(played, CARD)[0]
    assert (faces(theirs), theirs["hits"]) == ([[6, 1]], 1)
    assert [e["trade_goods"] for e in events(played, "trade_goods_spent")] == [1, 1]
    assert played.outcome["result"] == "attacker_win"


def test_with_trade_goods_logs_replay_and_the_sampler_plays_as_play_does() -> None:
    assert_logs_replay(hacan(2), seeds=4)
    assert_sampled_as_played(hacan(2), trials=40)


# Held by the Hacan player with its flagship: trade goods spent seeing the whole roll, then
# its misses left rerolled, raised by the trade goods left (docs/rulings.md 27U-3; once refused).

HACAN: dict[str, Any] = {"faction": "hacan", "trade_goods": 3}


def test_a_holders_roll_raised_by_trade_goods_then_its_misses_left_rerolled() -> None:
    """The cruiser 1; the flagship 5, 1 (all hit on 7): the 3 trade goods allowed raise the
    5 to a hit (2 spent), the 1s stay misses. The dreadnought hits (5). "Reroll theirs and my
    misses": theirs 3 (a miss); the cruiser's and the flagship's missed dice 8, 8 (2 hits, no
    trade good spent: 1 left). The dreadnought sustains, then is destroyed."""
    scenario = space(holder("1 flagship, 1 cruiser", **HACAN), {"units": "1 dreadnought"})
    played = run(scenario, [1, 5, 1, 5, 3, 8, 8])
    first = rolls(played, "space_combat")[0]
    assert (faces(first), first["hits"], first["trade_goods_spent"]) == ([[1], [5, 1]], 1, 2)
    [choice] = [c for c in offered(played) if str(c["choice"]).startswith(PLAY)]
    assert choice["choice"] == BOTH
    theirs, mine = rolls(played, CARD)
    assert (theirs["player"], theirs["hits"]) == ("defender", 0)
    assert (mine["player"], faces(mine), mine["hits"]) == ("attacker", [[8], [8]], 2)
    assert mine["trade_goods"] == 1
    spent = events(played, "trade_goods_spent")
    assert [s["trade_goods"] for s in spent] == [2]
    assert played.outcome["result"] == "attacker_win"


def test_the_trade_goods_left_raise_my_misses_rerolled() -> None:
    """The flagship 1, 1 (no 6: nothing bought); the dreadnought misses (1). "Reroll my
    misses": 6, 2: the trade good allowed (1) raises the 6 to a hit, which the dreadnought
    sustains. Round 2 (no trade good left): 10, 10; the dreadnought 1."""
    scenario = space(
        holder("1 flagship", faction="hacan", trade_goods=1), {"units": "1 dreadnought"}
    )
    played = run(scenario, [1, 1, 1, 6, 2, 10, 10, 1])
    [mine] = rolls(played, CARD)
    assert (faces(mine), mine["hits"], mine["trade_goods_spent"]) == ([[6, 2]], 1, 1)
    [spent] = events(played, "trade_goods_spent")
    assert (spent["player"], spent["trade_goods"]) == ("attacker", 1)


def test_exact_odds_with_trade_goods_hand_derived() -> None:
    """The Hacan flagship (2 dice on 7, SUSTAIN DAMAGE) with 1 trade good (a 6 raised to a
    hit) and the card, against a destroyer (1/5). A roll of the flagship scores with 16/25 +
    9/25 x (1 - (5/6)^2) = 3/4; when it does not, no 6 was rolled and the trade good is left.
    Without the card, from undamaged: won 63/64, drawn 3/256, lost 1/256; damaged: won 3/4,
    drawn 3/16, lost 1/16 (a round of no hit repeated). Round 1: the flagship scores (3/4):
    won, whatever the destroyer's dice (it sustains); else its 2 misses are rolled again
    ("reroll my misses", or with theirs when the destroyer hit): they score (3/4) and win, or
    not (1/4): undamaged, unless the destroyer hit twice (1/5 x 1/5). So won 3/4 + 1/4 (3/4 +
    1/4 (24/25 x 63/64 + 1/25 x 3/4)) = 639/640, drawn 3/2560, lost 1/2560."""
    scenario = space(holder("1 flagship", faction="hacan", trade_goods=1), {"units": "1 destroyer"})
    found = odds(scenario)
    assert found.method == "exact"
    assert found.attacker_win == pytest.approx(float(Fraction(639, 640)), abs=1e-12)
    assert found.draw == pytest.approx(float(Fraction(3, 2560)), abs=1e-12)
    assert found.defender_win == pytest.approx(float(Fraction(1, 2560)), abs=1e-12)


@pytest.mark.parametrize("extra", [{}, {"relics": ["the_crown_of_thalnos"]}])
def test_with_trade_goods_held_logs_replay_and_the_sampler_plays_as_play_does(
    extra: dict[str, Any],
) -> None:
    """With the Crown of Thalnos too, a flagship whose two dice missed is lost and keeps no
    die to reroll (14RR-8, 14RR-11)."""
    scenario = space(
        holder("1 flagship, 2 cruiser", **HACAN, **extra), {"units": "1 dreadnought, 1 destroyer"}
    )
    assert_logs_replay(scenario, seeds=4)
    assert_sampled_as_played(scenario, trials=40)


AIMED_AT = space(
    holder("2 cruiser, 2 fighter, 1 carrier"), {"faction": "l1z1x", "units": "1 flagship"}
)


def test_an_opponents_roll_aimed_at_non_fighter_ships_is_restricted_again() -> None:
    """docs/rulings.md 27T-8: the holder misses with all 5 dice (cruisers 1, 1; carrier 1;
    fighters 1, 1), the L1Z1X flagship hits twice (5, 5: both must go to non-fighter ships).
    The holder rerolls theirs and its misses: the flagship's 1, 9 make 1 hit, restricted
    again; the holder's misses miss. Round 2: the holder's 10s destroy the flagship."""
    faces_ = [1, 1, 1, 1, 1, 5, 5, 1, 9, 1, 1, 1, 1, 1, 10, 10, 10, 10, 10, 1, 1]
    played = run(AIMED_AT, faces_, all_dice=False)
    [choice] = [c for c in offered(played) if str(c["choice"]).startswith(PLAY)]
    assert choice["choice"] == BOTH
    theirs = rolls(played, CARD)[0]
    assert (theirs["player"], faces(theirs), theirs["hits"]) == ("defender", [[1, 9]], 1)
    restricted = [r for r in events(played, "hits_restricted") if r["round"] == 1]
    assert [(r["player"], r["hits"]) for r in restricted] == [("attacker", 2), ("attacker", 1)]
    assign = events(played, "choice_made", decision="assign_hit")[0]
    assert "destroy fighter" not in cast("list[str]", assign["options"])


def test_with_an_aimed_opponent_logs_replay_and_the_sampler_plays_as_play_does() -> None:
    assert_logs_replay(AIMED_AT, seeds=4)
    assert_sampled_as_played(AIMED_AT, trials=40)


# With the Crown of Thalnos (relic) held by the holder: the roll is kept group by group, the
# units lost destroyed once it is made, and "my misses" are those of the units left
# (docs/rulings.md 14RR-8; once refused by name).

CROWNED: dict[str, Any] = {"relics": ["the_crown_of_thalnos"]}


def test_with_the_crown_the_units_lost_go_after_the_whole_roll() -> None:
    # 2 cruisers: 3 and 8; the Crown rerolls the 3 (4 + 1: a miss): 1 hit, 1 cruiser lost.
    # The defender's 2 cruisers: 7, 2 (1 hit). No miss of the holder's is left; "reroll
    # theirs": 1, 1. Round 2: 8 (a hit), the defender 1.
    scenario = space(holder("2 cruiser", **CROWNED), {"units": "2 cruiser"})
    played = run(scenario, [3, 8, 4, 7, 2, 1, 1, 8, 1])
    first = rolls(played, "space_combat")[0]
    assert (faces(first), first["hits"], first["units_lost"]) == ([[3, 8], [4]], 1, {"cruiser": 1})
    [lost] = events(played, "unit_destroyed", cause="crown of thalnos")
    assert lost["player"] == "attacker"
    [choice] = [c for c in offered(played) if str(c["choice"]).startswith(PLAY)]
    assert choice["options"] == [THEIRS, "pass"]
    assert played.outcome["result"] == "attacker_win"


def test_with_the_crown_my_misses_are_those_of_the_units_left() -> None:
    # a war sun (3 dice, hit on 3; the Crown's reroll on 2): 1, 1, 5; rerolled 1, 1: one hit,
    # the war sun stays; the cruisers miss (1, 1, 1); its 2 misses are rerolled by War
    # Funding Ω: 4, 1 (one more hit). Round 2: 5, 5, 5; the last cruiser 1.
    scenario = space(holder("1 war_sun", **CROWNED), {"units": "3 cruiser"})
    played = run(scenario, [1, 1, 5, 1, 1, 1, 1, 1, 4, 1, 5, 5, 5, 1])
    [choice] = [c for c in offered(played) if str(c["choice"]).startswith(PLAY)]
    assert choice["choice"] == MINE
    [mine] = rolls(played, CARD)
    assert (mine["player"], faces(mine), mine["hits"]) == ("attacker", [[4, 1]], 1)


def test_exact_odds_with_the_crown_hand_derived() -> None:
    """1 cruiser with the relic and War Funding Ω against 1 cruiser. The holder hits with
    2/5 + 3/5 * 1/2 = 7/10, else it is lost (3/10) and the battle with it. It hit: if the
    defender hit too (2/5), "reroll theirs" (gain 3/5): a draw if it hits again (2/5), else a
    win; if not, a win. Won 7/10 * (2/5 * 3/5 + 3/5) = 147/250, drawn 7/10 * 4/25 = 14/125,
    lost 3/10."""
    found = odds(space(holder(**CROWNED), {"units": "1 cruiser"}))
    assert found.attacker_win == pytest.approx(float(Fraction(147, 250)), abs=1e-12)
    assert found.draw == pytest.approx(float(Fraction(14, 125)), abs=1e-12)
    assert found.defender_win == pytest.approx(float(Fraction(3, 10)), abs=1e-12)


def test_logs_with_the_crown_replay() -> None:
    scenario = space(holder("2 cruiser, 1 dreadnought", **CROWNED), {"units": "3 cruiser"})
    for seed in range(5):
        log = [json.loads(json.dumps(e)) for e in resolve(scenario, seed=seed).events]
        assert replay(log).reproduces
        unseeded = replay([{**log[0], "seed": None}, *log[1:]])
        assert unseeded.reproduces, unseeded.reason


# Held by the L1Z1X player with its flagship: the hits of those dice, in the roll and in the
# reroll of its misses, must go to non-fighter ships (docs/rulings.md 14RR-13; once refused).

L1Z1X = {"faction": "l1z1x", "units": "1 flagship", "promissory_notes": [CARD]}


def test_the_rerolled_misses_of_the_flagship_are_restricted_too() -> None:
    # the flagship 1, 1; the carrier and the fighter 1, 1; "reroll my misses": 5 (a hit), 1:
    # the hit must take the carrier. Round 2: 5, 5; the fighter 1.
    played = run(space(L1Z1X, {"units": "1 carrier, 1 fighter"}), [1, 1, 1, 1, 5, 1, 5, 5, 1])
    [choice] = [c for c in offered(played) if str(c["choice"]).startswith(PLAY)]
    assert choice["choice"] == MINE
    [mine] = rolls(played, CARD)
    assert (faces(mine), mine["hits"], groups(mine)[0]["marks"]) == ([[5, 1]], 1, 1)
    first, _ = events(played, "hits_restricted")
    assert (first["hits"], first["by"]) == (1, ["l1z1x_flagship_hits_non_fighters"])
    assign = events(played, "choice_made", decision="assign_hit")[0]
    assert assign["options"] == ["destroy carrier"]
    assert played.outcome["result"] == "attacker_win"


def test_with_the_flagship_logs_replay_and_the_sampler_plays_as_play_does() -> None:
    scenario = space(
        {**L1Z1X, "units": "1 flagship, 1 dreadnought"}, {"units": "2 carrier, 2 fighter"}
    )
    assert_logs_replay(scenario, seeds=5)
    assert_sampled_as_played(scenario, trials=60)


def test_exact_odds_with_the_flagship_hand_derived() -> None:
    """A damaged L1Z1X flagship (2 dice, 3/5; any hit destroys it) holding the card, against a
    carrier (1/5) and a Fighter II (3/10): the flagship's hits take the carrier first. The
    defender misses with q0 = 4/5 * 7/10 = 14/25. Round 1, by the flagship's hits h and the
    defender's d (gains: theirs d - 1/2, mine 3/5 a miss): h = 2: "reroll theirs" if d >= 1;
    h = 1: mine if d = 0, both if not; h = 0: mine if d = 0, both if not. Then: 2 hits and no
    hit back win, 2 and a hit back draw; 1 hit and no hit back leave the flagship against the
    fighter (won 49/74, drawn 21/74), 1 and a hit back lose; none and no hit back start again
    without the card (as the test in test_l1z1x_flagship_hits_non_fighters.py)."""
    f = Fraction
    q0, q1 = f(14, 25), f(11, 25)
    fw, fd = f(49, 74), f(21, 74)
    den = 1 - f(4, 25) * f(14, 25)
    a0 = (f(9, 25) * q0 + f(12, 25) * q0 * fw) / den
    d0 = (f(9, 25) * q1 + f(12, 25) * q0 * fd) / den
    h2, h1, h0 = f(9, 25), f(12, 25), f(4, 25)
    win = (
        h2 * (q0 + q1 * q0)
        + h1 * (q0 * (f(3, 5) + f(2, 5) * fw) + q1 * q0 * (f(3, 5) + f(2, 5) * fw))
        + h0 * (q0 * (h2 + h1 * fw + h0 * a0) + q1 * q0 * (h2 + h1 * fw + h0 * a0))
    )
    draw = (
        h2 * q1 * q1
        + h1 * (q0 * f(2, 5) * fd + q1 * (f(3, 5) * q1 + f(2, 5) * q0 * fd))
        + h0 * (q0 * (h1 * fd + h0 * d0) + q1 * (h2 * q1 + h1 * q0 * fd + h0 * q0 * d0))
    )
    scenario = space(
        {**L1Z1X, "damaged": {"flagship": 1}},
        {"units": "1 carrier, 1 fighter", "upgrades": ["fighter"]},
    )
    found = odds(scenario)
    assert found.attacker_win == pytest.approx(float(win), abs=1e-12)
    assert found.draw == pytest.approx(float(draw), abs=1e-12)


# The Jol-Nar flagship's dice (extra hits) with the Crown of Thalnos (relic) the holder's:
# rolled die by die, each die rerolled by the Crown as in the group, the flagship lost once
# both are rolled if neither produced a hit (docs/rulings.md 27U-2; once refused by name).

JOLNAR_CROWNED: dict[str, Any] = {"faction": "jolnar", **CROWNED}


def test_the_crowned_flagships_dice_are_kept_die_by_die() -> None:
    # The flagship (hits on 7; the Crown's reroll on 6): 7 (a hit); 3, rerolled 2 (no hit). The
    # dreadnought misses (1). "Reroll my misses" rolls only the second die again: 9 (3 hits).
    # The dreadnought sustains the first hit and is destroyed by the second.
    scenario = space(holder("1 flagship", **JOLNAR_CROWNED), {"units": "1 dreadnought"})
    played = run(scenario, [7, 3, 2, 1, 9])
    first = [r for r in rolls(played, "space_combat") if r["player"] == "attacker"]
    assert [faces(r) for r in first] == [[[7]], [[3], [2]]]
    [choice] = [c for c in offered(played) if str(c["choice"]).startswith(PLAY)]
    assert choice["choice"] == MINE
    [mine] = rolls(played, CARD)
    assert (faces(mine), mine["hits"]) == ([[9]], 3)
    assert not events(played, "unit_destroyed", player="attacker")
    assert played.outcome["result"] == "attacker_win"


def test_the_crowned_flagship_lost_leaves_no_miss_to_reroll() -> None:
    # The flagship: 3, rerolled 2; 3, rerolled 2: no hit at all, so the Crown destroys it once
    # its roll is made; the cruiser (hits on 8) 1. The dreadnought 1. "Reroll my misses" rolls
    # the cruiser's die alone (8: a hit), not the dice of the flagship lost. Round 2: 8; 1.
    scenario = space(holder("1 flagship, 1 cruiser", **JOLNAR_CROWNED), {"units": "1 dreadnought"})
    played = run(scenario, [3, 2, 3, 2, 1, 1, 8, 8, 1])
    [lost] = events(played, "unit_destroyed", cause="crown of thalnos")
    assert (lost["player"], lost["unit"]) == ("attacker", "flagship")
    [mine] = rolls(played, CARD)
    assert [g["unit"] for g in groups(mine)] == ["cruiser"]
    assert played.outcome["result"] == "attacker_win"


def test_exact_odds_with_the_crowned_flagship_hand_derived() -> None:
    """The Jol-Nar flagship with the relic and the card against 2 destroyers (each 1/5: k hits
    with 16/25, 8/25, 1/25). A flagship die with the Crown's reroll: 3 hits with 2/10 + 6/10 x
    2/10 = 8/25, 1 with 2/10 + 6/10 x 3/10 = 19/50, none with 3/10; both none (9/100): the
    flagship is lost. Alone against 1 destroyer it wins with 91/100 (a damaged one: 4/5 of
    that, 1/5 a draw), else loses. Round 1: no die missed (49/100) or one missed and the other
    made 3 hits (24/125): both destroyers die; the card rerolls theirs if they hit (a draw
    if 2 hit again: 9/25 x 1/25), "my misses" when they did not. One missed, the other hit
    once (57/250): k = 0, "reroll my misses" (2/5 a win, else alone against 1 destroyer);
    k >= 1, "theirs and my misses": the die hits (2/5): a win, a draw if they hit twice; it
    does not (3/5): alone against 1 destroyer, undamaged (16/25), damaged (8/25), or lost
    (1/25)."""
    w = Fraction(91, 100)
    undamaged = (w, Fraction(0), 1 - w)
    damaged = (w * Fraction(4, 5), w / 5, 1 - w)
    win, draw, loss = (Fraction(1), Fraction(0), Fraction(0)), (0, 1, 0), (0, 0, 1)

    def mix(*parts: tuple[Fraction, tuple[Fraction | int, ...]]) -> tuple[Fraction, ...]:
        return tuple(sum((p * Fraction(v[i]) for p, v in parts), Fraction(0)) for i in range(3))

    killed = mix((Fraction(616, 625), win), (Fraction(9, 625), draw))
    rerolled = mix((Fraction(24, 25), win), (Fraction(1, 25), draw))
    alone = mix((Fraction(16, 25), undamaged), (Fraction(8, 25), damaged), (Fraction(1, 25), loss))
    one_hit = mix(
        (Fraction(16, 25), mix((Fraction(2, 5), win), (Fraction(3, 5), undamaged))),
        (Fraction(9, 25), mix((Fraction(2, 5), rerolled), (Fraction(3, 5), alone))),
    )
    expected = mix(
        (Fraction(49, 100) + Fraction(24, 125), killed),
        (Fraction(57, 250), one_hit),
        (Fraction(9, 100), loss),
    )
    scenario = space(holder("1 flagship", **JOLNAR_CROWNED), {"units": "2 destroyer"})
    found = odds(scenario)
    assert found.method == "exact"
    assert found.attacker_win == pytest.approx(float(expected[0]), abs=1e-12)
    assert found.draw == pytest.approx(float(expected[1]), abs=1e-12)
    assert found.defender_win == pytest.approx(float(expected[2]), abs=1e-12)


def test_with_the_crowned_flagship_logs_replay_and_the_sampler_plays_as_play_does() -> None:
    scenario = space(holder("1 flagship, 1 cruiser", **JOLNAR_CROWNED), {"units": "2 destroyer"})
    assert_logs_replay(scenario, seeds=5)
    assert_sampled_as_played(scenario, trials=60)


# With the Crown of Thalnos (law) elected: units of several dice are rolled one by one, each
# lost when its rerolled dice produced no hit (docs/rulings.md 27U-4; once refused by name).


def law_elected(attacker: dict[str, Any], defender: dict[str, Any]) -> dict[str, Any]:
    return space(
        attacker, defender, laws=["crown_of_thalnos"], elected={"crown_of_thalnos": "attacker"}
    )


def test_with_the_law_each_unit_is_rolled_alone_and_my_misses_are_those_it_left() -> None:
    """Two war suns (3 dice on 3; the law rerolls their misses): the first 5, 1, 1, rerolled
    4, 1 (a reroll hit: it stays, with 1 miss); the second 5, 5, 1, rerolled 1 (its reroll
    produced no hit: destroyed, though its 5s hit). The dreadnought misses (1). "Reroll my
    misses" rolls the first war sun's miss alone: 3 (a hit)."""
    scenario = law_elected(holder("2 war_sun"), {"units": "1 dreadnought"})
    played = run(scenario, [5, 1, 1, 4, 1, 5, 5, 1, 1, 1, 3])
    first = [r for r in rolls(played, "space_combat") if r["player"] == "attacker"]
    assert [faces(r) for r in first] == [[[5, 1, 1], [4, 1]], [[5, 5, 1], [1]]]
    [lost] = events(played, "unit_destroyed", cause="crown of thalnos")
    assert (lost["player"], lost["unit"]) == ("attacker", "war_sun")
    [choice] = [c for c in offered(played) if str(c["choice"]).startswith(PLAY)]
    assert choice["choice"] == MINE
    [mine] = rolls(played, CARD)
    assert (faces(mine), mine["hits"]) == ([[3]], 1)
    assert survivors(played, "attacker") == {"war_sun": 1}


def test_with_the_law_logs_replay_and_the_sampler_plays_as_play_does() -> None:
    scenario = law_elected(holder("2 war_sun"), {"units": "4 dreadnought"})
    assert_logs_replay(scenario, seeds=4)
    assert_sampled_as_played(scenario, trials=40)
