"""[0.0.1] (L1Z1X flagship: its and its dreadnoughts' hits go on non-fighter ships while the
opponent has any, 27S-9) and Experimental Weaponry (the holder's dreadnoughts' and war suns'
hits of one round may not be applied to fighters "unless there are no other ships present",
27S-26) against Van Hauge's ground forces fighting as fighters: they are fighters, so those
hits go on the Yin's other ships first, and Experimental Weaponry is offered against them as
against fighters (docs/rulings.md 27T-14).

Dice: the attacker (the Yin: the flagship's 5s, then the ground force's 9) before the
defender."""

from __future__ import annotations

from fractions import Fraction
from functools import cache
from math import comb
from typing import Any

from spacecombat import odds
from tests.helpers import events, run
from tests.ti3.effects import space

YIN = {
    "units": {"flagship": 1, "ground_force": 1},
    "damaged": {"flagship": 1},
    "faction": "yin",
}


def lost(played: Any) -> list[object]:
    return [e["unit"] for e in events(played, "unit_destroyed") if e["player"] == "attacker"]


def test_a_heavy_hit_of_0_0_1_goes_on_the_flagship() -> None:
    """Round 1: the Yin 1, 1, 1; [0.0.1] 5, 1, 1 (one heavy hit): it goes on the damaged
    flagship, not on the ground force the stock Yin would give (27S-43): the flagship is lost,
    the ground force is a ground force again, and the Yin have no ship left."""
    scenario = space(YIN, {"units": {"flagship": 1}, "faction": "l1z1x"})
    played = run(scenario, [1, 1, 1, 5, 1, 1])
    assert lost(played) == ["flagship"]
    assert played.outcome["result"] == "defender_win"


def test_experimental_weaponry_is_offered_and_its_hit_goes_on_the_flagship() -> None:
    """The defender's dreadnought holds the card; the Yin's "fighters" are the ground force
    fighting as one: offered, played in round 1. Round 1: 1, 1, 1; dreadnought 5: the heavy
    hit destroys the flagship."""
    scenario = space(YIN, {"units": {"dreadnought": 1}, "action_cards": ["experimental_weaponry"]})
    played = run(scenario, [1, 1, 1, 5])
    assert [e["card"] for e in events(played, "card_played")] == [
        "yin_flagship",
        "experimental_weaponry",
    ]
    assert lost(played) == ["flagship"]
    assert played.outcome["result"] == "defender_win"


FLAGSHIP_HIT = Fraction(3, 5)  # Van Hauge's dice at 5
GROUND_HIT = Fraction(1, 5)  # a ground force fighting as a fighter, at 9
DREADNOUGHT_HIT = Fraction(3, 5)  # the dreadnought at 5


def _yin_hits(ground: int) -> list[Fraction]:
    """The distribution of the Yin's hits: the flagship's 2 dice and ``ground`` at 9."""
    flagship = [comb(2, k) * FLAGSHIP_HIT**k * (1 - FLAGSHIP_HIT) ** (2 - k) for k in range(3)]
    result = flagship
    for _ in range(ground):
        result = [
            (result[h] if h < len(result) else 0) * (1 - GROUND_HIT)
            + (result[h - 1] * GROUND_HIT if h else 0)
            for h in range(len(result) + 1)
        ]
    return result


@cache
def _plain(ground: int, lives: int) -> tuple[Fraction, Fraction, Fraction]:
    """(win, draw, loss) of the damaged flagship and ``ground`` ground forces against the
    dreadnought with ``lives`` in plain rounds: the dreadnought's hit goes on a ground force
    (the stock order), else on the flagship (then the Yin have no ship)."""
    stay = Fraction(0)
    total = [Fraction(0)] * 3
    for hits, p in enumerate(_yin_hits(ground)):
        for hit, q in ((1, DREADNOUGHT_HIT), (0, 1 - DREADNOUGHT_HIT)):
            left = max(0, lives - hits)
            if not hits and not hit:
                stay += p * q
                continue
            yin_alive = not (hit and not ground)
            if left == 0:
                outcome = (1, 0, 0) if yin_alive else (0, 1, 0)
                for i in range(3):
                    total[i] += p * q * outcome[i]
            elif not yin_alive:
                total[2] += p * q
            else:
                after = _plain(ground - hit, left)
                for i in range(3):
                    total[i] += p * q * after[i]
    return (total[0] / (1 - stay), total[1] / (1 - stay), total[2] / (1 - stay))


def test_exact_odds_with_experimental_weaponry() -> None:
    """Hand-derived: round 1 (the card played): the dreadnought's hit (3/5) destroys the
    flagship, the Yin lose (a draw if they hit twice); else two hits destroy the dreadnought,
    one damages it, none leaves it; then plain rounds (``_plain``)."""
    hits = _yin_hits(1)
    d = DREADNOUGHT_HIT
    two = hits[2] + hits[3]
    expected = [
        (1 - d) * two + (1 - d) * hits[1] * _plain(1, 1)[0] + (1 - d) * hits[0] * _plain(1, 2)[0],
        d * two + (1 - d) * hits[1] * _plain(1, 1)[1] + (1 - d) * hits[0] * _plain(1, 2)[1],
        d * (hits[0] + hits[1])
        + (1 - d) * hits[1] * _plain(1, 1)[2]
        + (1 - d) * hits[0] * _plain(1, 2)[2],
    ]
    scenario = space(YIN, {"units": {"dreadnought": 1}, "action_cards": ["experimental_weaponry"]})
    report = odds(scenario, fractions=True)
    assert [report.attacker_win, report.draw, report.defender_win] == expected
    without = odds(space(YIN, {"units": {"dreadnought": 1}}), fractions=True)
    assert (without.attacker_win, without.draw, without.defender_win) == _plain(1, 2)
