"""Hil Colish, the Ghosts of Creuss flagship (Shards of the Throne; docs/rulings.md 27X-3):
cost 10, combat 4 with one die, move 1, capacity 3, SUSTAIN DAMAGE (S. Sasse's TI3 race guide).
Its ability makes the system it moves to count as holding the Creuss delta wormhole while it
moves: movement only, so in a battle it fights on its stats and adds no wormhole."""

from __future__ import annotations

from fractions import Fraction

from spacecombat import odds
from tests.helpers import events, run
from tests.ti3.effects import space, two_lives_duel

HIL_COLISH = {"units": {"flagship": 1}, "faction": "creuss"}


def test_hil_colish_fights_on_its_stats() -> None:
    """Against a destroyer (9+: p = 1/5) it hits on 4+ (a = 7/10). By the two-lives duel
    (tests/ti3/effects.py): r = 1 - 3/10 * 4/5 = 19/25; won at once 35/38, damaged first 3/38;
    win 35/38 + 3/38 * 14/19 = 707/722, both destroyed 3/38 * 7/38 = 21/1444, lost
    3/38 * 3/38 = 9/1444."""
    report = odds(space(HIL_COLISH, {"units": {"destroyer": 1}}), fractions=True)
    expected = (Fraction(707, 722), Fraction(21, 1444), Fraction(9, 1444))
    assert two_lives_duel(Fraction(7, 10), Fraction(1, 5)) == expected
    assert (report.attacker_win, report.draw, report.defender_win) == expected


def test_its_delta_wormhole_is_no_wormhole_for_dimensional_splicers() -> None:
    """27X-3: the wormhole counts only while the flagship moves, so Dimensional Splicers (a
    hit at the start of a space battle in a system with a wormhole, 27S-33) does not act in a
    system with none. Round 1: the flagship's 4 hits, the cruiser's 1 misses."""
    played = run(
        space({**HIL_COLISH, "technologies": ["dimensional_splicers"]}, {"units": {"cruiser": 1}}),
        [4, 1],
    )
    assert not events(played, "card_played", card="dimensional_splicers")
    assert not events(played, "unit_destroyed", cause="Dimensional Splicers")
    assert played.outcome["result"] == "attacker_win"
