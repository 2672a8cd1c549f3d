"""Exotrireme (Sardakk N'orr racial technology; docs/rulings.md 27S-14; PC_Twi r_Norr.cpp
e_NorrExotrireme): before round 2 of a space battle (the end of round 1) its owner may destroy
one of its dreadnoughts to destroy up to two enemy non-fighter ships of its choice, once.

Dice: a pool rolls its groups in ascending printed value, then unit name; in an exchange the
attacker rolls before the defender. Sardakk: +1 on all combat rolls."""

from __future__ import annotations

from fractions import Fraction
from typing import Any

import pytest

from spacecombat import odds
from spacecombat.core.errors import ScenarioError
from tests.helpers import assert_logs_replay, assert_sampled_as_played, events, run
from tests.ti3.effects import space

SARDAKK = {"faction": "sardakk", "technologies": ["exotrireme"]}
#: a Sardakk that plays it whenever offered (``policy.play`` naming round 2; 27S-23)
ALWAYS = {**SARDAKK, "policy": {"play": {"exotrireme": {"round": 2}}}}


def by_exotrireme(played: Any) -> list[tuple[object, object]]:
    return [(e["player"], e["unit"]) for e in events(played, "unit_destroyed", cause="Exotrireme")]


def test_a_dreadnought_for_the_two_most_valuable_enemy_ships() -> None:
    """Round 1: dreadnought 1, cruiser 1; the defender's dreadnought 1, cruisers 1, 1. Before
    round 2 the stock Sardakk gives up its dreadnought for the enemy dreadnought and a cruiser.
    Round 2: the cruiser 6 (hit with the +1); the last cruiser 1."""
    played = run(
        space(
            {"units": {"dreadnought": 1, "cruiser": 1}, **SARDAKK},
            {"units": {"dreadnought": 1, "cruiser": 2}},
        ),
        [1, 1, 1, 1, 1, 6, 1],
    )
    assert by_exotrireme(played) == [
        ("attacker", "dreadnought"),
        ("defender", "dreadnought"),
        ("defender", "cruiser"),
    ]
    assert [e["round"] for e in events(played, "card_played")] == [2]
    assert played.outcome["result"] == "attacker_win"


def test_policy_never_keeps_the_dreadnought() -> None:
    """Round 1: 1; 1. Round 2: 4 (hit, the +1); 1."""
    played = run(
        space(
            {"units": {"dreadnought": 1}, **SARDAKK, "policy": {"play": {"exotrireme": "never"}}},
            {"units": {"cruiser": 1}},
        ),
        [1, 1, 4, 1],
    )
    assert by_exotrireme(played) == []
    assert played.outcome["result"] == "attacker_win"


def test_the_battle_ends_when_it_destroys_the_last_enemy_ships() -> None:
    """Round 1: 1; 1, 1. Before round 2 the dreadnought goes with both cruisers: nobody has a
    ship left, a draw after one round."""
    played = run(
        space({"units": {"dreadnought": 1}, **ALWAYS}, {"units": {"cruiser": 2}}), [1, 1, 1]
    )
    assert played.outcome["result"] == "draw"
    assert played.outcome["rounds"] == 1


def test_exact_odds_a_dreadnought_against_two_cruisers() -> None:
    """Hand-derived. Round 1: whatever the dreadnought (4+ with the +1) does, if it survives
    (the cruisers do not hit twice: 1 - (2/5)^2 = 21/25) a Sardakk playing it always gives it
    up before round 2 for the cruisers left (one or two): nobody has ships, a draw. Two cruiser hits
    (4/25) destroy it first (two lives): the defender wins. Attacker 0, draw 21/25."""
    report = odds(
        space({"units": {"dreadnought": 1}, **ALWAYS}, {"units": {"cruiser": 2}}), fractions=True
    )
    assert (report.attacker_win, report.draw, report.defender_win) == (
        0,
        Fraction(21, 25),
        Fraction(4, 25),
    )


def test_policy_play_may_name_it_only_with_the_technology() -> None:
    """``policy.play`` names only a decision of its player (27A-5)."""
    side = {"units": {"dreadnought": 1}, "faction": "sardakk"}
    with pytest.raises(ScenarioError) as caught:
        odds(
            space({**side, "policy": {"play": {"exotrireme": "never"}}}, {"units": {"cruiser": 1}})
        )
    assert caught.value.field == "attacker.policy.play.exotrireme"


def test_logs_replay_and_the_sampler_plays_as_the_resolver() -> None:
    scenario = space(
        {"units": {"dreadnought": 2, "cruiser": 1}, **SARDAKK},
        {"units": {"dreadnought": 1, "cruiser": 2, "carrier": 1, "fighter": 2}},
    )
    assert_logs_replay(scenario, seeds=8)
    assert_sampled_as_played(scenario, trials=40)


def test_the_stock_sardakk_keeps_its_dreadnought_for_two_cruisers() -> None:
    """27S-23: two cruisers (cost 2 each, 4) are worth less than a dreadnought (5): the stock
    Sardakk passes ("pass" is listed first). Round 1: 1; 1, 1. Round 2: 4 (hit, the +1); 1, 1.
    Round 3: 4; 1."""
    played = run(
        space({"units": {"dreadnought": 1}, **SARDAKK}, {"units": {"cruiser": 2}}),
        [1, 1, 1, 4, 1, 1, 4, 1],
    )
    assert by_exotrireme(played) == []
    assert played.outcome["result"] == "attacker_win"


def test_exact_odds_the_stock_sardakk_fights_on() -> None:
    """Hand-derived, 27S-23. One Sardakk dreadnought (4+ with the +1: 7/10, SUSTAIN DAMAGE) and
    one enemy cruiser (7+: 2/5): the cruiser (2) is worth less than the dreadnought, so the
    stock Sardakk never plays it. A round with both ships: the dreadnought hits with 7/10; the
    cruiser hits with 2/5. From (undamaged): attacker wins when it hits first. Let u, d be the
    attacker's chances undamaged and damaged. d: a round ends it unless both miss (3/10 * 3/5 =
    9/50): attacker wins with 7/10 (its hit destroys the cruiser; the cruiser's simultaneous
    hit destroys the damaged dreadnought only when it also hits: then nobody is left, a draw
    of 7/10 * 2/5 = 14/50), so d = (35/50 - 14/50) / (1 - 9/50) = 21/41, draw_d = 14/41. u:
    the dreadnought hits (35/50): the attacker wins (a cruiser hit only damages it); it misses
    and the cruiser hits (3/10 * 2/5 = 6/50): state d; both miss (9/50): again. So u = (35/50 +
    6/50 * 21/41) / (41/50) = (35 * 41 + 126) / (41 * 41) = 1561/1681, draw = 6/50 * 14/41 /
    (41/50) = 84/1681, defender 36/1681."""
    report = odds(
        space({"units": {"dreadnought": 1}, **SARDAKK}, {"units": {"cruiser": 1}}), fractions=True
    )
    assert (report.attacker_win, report.draw, report.defender_win) == (
        Fraction(1561, 1681),
        Fraction(84, 1681),
        Fraction(36, 1681),
    )
