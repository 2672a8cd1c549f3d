"""Munitions Reserves (Letnev; abilities/munitions_reserves.py): in the "start of combat round"
window of a space combat (ti4-space-combat.md rule 2.1) the owner may spend 2 trade goods to
reroll, in that round's combat roll (step 3), every die that missed (docs/rulings.md
14C-8). The rerolled faces are logged as a group of their own (``rerolled``)."""

from __future__ import annotations

from fractions import Fraction
from typing import Any

import pytest

from spacecombat import odds
from spacecombat.replayer import replay
from spacecombat.resolver import resolve
from tests.helpers import events, invasion, rolls, run, space


def groups_of(roll: object) -> list[dict[str, Any]]:
    """The groups of a ``dice_rolled`` event."""
    assert isinstance(roll, dict)
    found: list[dict[str, Any]] = roll["groups"]
    return found


def duel(trade_goods: int = 2, units: str = "1 cruiser", **extra: Any) -> dict[str, Any]:
    letnev = {"faction": "letnev", "units": units, "trade_goods": trade_goods, **extra}
    return space(letnev, {"units": "1 cruiser"})


def attacker_rolls(played: Any) -> list[list[tuple[str, list[int], bool]]]:
    return [
        [(g["unit"], g["faces"], bool(g.get("rerolled"))) for g in groups_of(r)]
        for r in rolls(played, "space_combat")
        if r["player"] == "attacker"
    ]


def test_paid_a_miss_is_rerolled_and_the_reroll_counts() -> None:
    played = run(duel(), [3, 7, 1])
    [spent] = events(played, "trade_goods_spent")
    assert (spent["player"], spent["trade_goods"], spent["by"], spent["round"]) == (
        "attacker",
        2,
        "munitions_reserves",
        1,
    )
    assert attacker_rolls(played) == [[("cruiser", [3], False), ("cruiser", [7], True)]]
    [roll] = [r for r in rolls(played, "space_combat") if r["player"] == "attacker"]
    assert roll["hits"] == 1
    assert groups_of(roll)[0]["reroll_modifier"] == 0


def test_hits_are_not_rerolled() -> None:
    played = run(duel(units="2 cruiser"), [7, 2, 2, 1])
    assert attacker_rolls(played)[0] == [("cruiser", [7, 2], False), ("cruiser", [2], True)]


def test_every_round_while_trade_goods_last() -> None:
    # 3 trade goods: round 1 paid (3 then 1: both miss), round 2 not (1 left)
    played = run(duel(trade_goods=3), [3, 1, 1, 7, 1])
    assert [e["round"] for e in events(played, "trade_goods_spent")] == [1]
    assert attacker_rolls(played) == [
        [("cruiser", [3], False), ("cruiser", [1], True)],
        [("cruiser", [7], False)],
    ]


def test_not_without_two_trade_goods() -> None:
    played = run(duel(trade_goods=1), [7, 1])
    assert not events(played, "choice_made", decision="play_card")
    assert attacker_rolls(played) == [[("cruiser", [7], False)]]


def test_a_scripted_pass() -> None:
    played = run(duel(), [1, 1, 7, 1], attacker=["pass", "pass"])
    assert not events(played, "trade_goods_spent")
    assert attacker_rolls(played) == [[("cruiser", [1], False)], [("cruiser", [7], False)]]


def test_not_in_ground_combat() -> None:
    scenario = invasion(
        {"faction": "letnev", "units": "1 carrier, 1 infantry", "trade_goods": 2},
        {},
        planets=[{"name": "P", "defender": {"infantry": 1}}],
    )
    played = run(scenario, [8, 1])
    assert not events(played, "trade_goods_spent", by="munitions_reserves")


def test_logs_with_rerolls_replay_with_and_without_a_seed() -> None:
    seeded = resolve(duel(trade_goods=8, units="3 cruiser"), seed=5)
    assert any(g.get("rerolled") for r in rolls(seeded, "space_combat") for g in groups_of(r))
    report = replay(list(seeded.events))
    assert report.reproduces, report.reason
    assert report.verified
    unseeded = run(duel(), [3, 7, 1])
    header = dict(unseeded.events[0])
    assert header["seed"] is None
    report = replay(list(unseeded.events))
    assert report.reproduces, report.reason


def test_exact_odds_hand_derived() -> None:
    """Letnev cruiser with 2 trade goods against a cruiser: round 1 it hits with
    2/5 + 3/5 · 2/5 = 16/25; later rounds 2/5 (a 2/5 duel: won 3/8, drawn 1/4, lost 3/8).
    Round 1: won 16/25 · 3/5 = 48/125, drawn 16/25 · 2/5 = 32/125, lost 9/25 · 2/5 = 18/125,
    on 9/25 · 3/5 = 27/125: won 48/125 + 27/125 · 3/8 = 93/200, drawn 31/100, lost 9/40."""
    found = odds(duel())
    assert found.attacker_win == pytest.approx(float(Fraction(93, 200)), abs=1e-12)
    assert found.draw == pytest.approx(float(Fraction(31, 100)), abs=1e-12)
    assert found.defender_win == pytest.approx(float(Fraction(9, 40)), abs=1e-12)


def test_paid_in_the_first_round_the_barrage_rerolls_its_misses_too() -> None:
    # docs/rulings.md 14D3-5. Barrage (9 x2): 1 misses and is rerolled (10): two
    # hits, one fighter; then the combat roll's miss (3) is rerolled too (9): the carrier dies
    letnev = {"faction": "letnev", "units": "1 destroyer", "trade_goods": 2}
    played = run(space(letnev, {"units": "1 carrier, 1 fighter"}), [1, 9, 10, 3, 9, 1])
    assert [e["round"] for e in events(played, "trade_goods_spent")] == [1]
    [barrage] = rolls(played, "anti_fighter_barrage")
    assert [(g["faces"], bool(g.get("rerolled"))) for g in groups_of(barrage)] == [
        ([1, 9], False),
        ([10], True),
    ]
    assert barrage["hits"] == 2
    # a scripted pass in round 1: the barrage is rolled as is
    played = run(
        space(letnev, {"units": "1 carrier, 1 fighter"}),
        [1, 1, 1, 1, 1, 3, 9, 9, 9],
        attacker=["pass", "play munitions_reserves"],
    )
    assert [e["round"] for e in events(played, "trade_goods_spent")] == [2]
    assert [len(groups_of(r)) for r in rolls(played, "anti_fighter_barrage")] == [1]


def test_exact_odds_with_the_barrage_rerolled_hand_derived() -> None:
    """Letnev destroyer (barrage 9 x2, combat 9) with 2 trade goods against a lone Fighter II
    (combat 8: 3/10). Paid in round 1, each barrage die hits with 1/5 + 4/5 · 1/5 = 9/25: the
    fighter dies there with 1 - (16/25)^2 = 369/625. Otherwise round 1's combat roll hits with
    9/25 too: won 9/25 · 7/10, drawn 9/25 · 3/10, on 16/25 · 7/10 to plain rounds (1/5 against
    3/10: won 7/22, drawn 3/22). Won = 369/625 + 256/625 · (63/250 + 112/250 · 7/22)."""
    letnev = {"faction": "letnev", "units": "1 destroyer", "trade_goods": 2}
    found = odds(space(letnev, {"units": "1 fighter", "upgrades": ["fighter"]}))
    won = Fraction(369, 625) + Fraction(256, 625) * (
        Fraction(63, 250) + Fraction(112, 250) * Fraction(7, 22)
    )
    drawn = Fraction(256, 625) * (Fraction(27, 250) + Fraction(112, 250) * Fraction(3, 22))
    assert found.attacker_win == pytest.approx(float(won), abs=1e-12)
    assert found.draw == pytest.approx(float(drawn), abs=1e-12)


def test_a_barrage_against_no_fighters_is_rerolled_too() -> None:
    letnev = {"faction": "letnev", "units": "1 destroyer", "trade_goods": 2}
    # barrage (2 misses, rerolled; its hits are lost), then the destroyer's miss (3) is
    # rerolled: 9 hits
    played = run(space(letnev, {"units": "1 cruiser"}), [1, 1, 1, 1, 3, 9, 1])
    assert events(played, "trade_goods_spent")
