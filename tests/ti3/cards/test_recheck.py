"""Recheck (TI3 action card; data/action_cards.toml; docs/rulings.md 27S-38): after a combat
roll, one die of it is re-rolled; whose die is the option ``recheck_die`` (``any``, the
default: either player's; ``own``: the holder's own).

Dice: in an exchange the attacker rolls before the defender; while the card is held a roll is
made group by group, then the holders asked (the attacker first), then the re-rolled die."""

from __future__ import annotations

from fractions import Fraction
from typing import Any

from spacecombat import odds
from tests.helpers import assert_logs_replay, assert_sampled_as_played, events, rolls, run
from tests.ti3.effects import space

CARD = {"action_cards": ["recheck"]}


def duel(holder: str = "attacker", **options: Any) -> dict[str, Any]:
    """A cruiser against a cruiser; ``holder`` holds Recheck."""
    a = {"units": {"cruiser": 1}, **(CARD if holder == "attacker" else {})}
    d = {"units": {"cruiser": 1}, **(CARD if holder == "defender" else {})}
    return space(a, d, **({"options": options} if options else {}))


def test_the_holder_rerolls_its_own_miss() -> None:
    """Round 1: 3 (a miss): re-rolled: 7 (hit); the defender 1."""
    played = run(duel(), [3, 7, 1])
    assert [e["card"] for e in events(played, "card_played")] == ["recheck"]
    assert len(rolls(played, "space_combat")) == 3
    assert played.outcome["result"] == "attacker_win"


def test_the_holder_rerolls_the_opponents_hit() -> None:
    """The defender holds it. Round 1: the attacker 7 (hit), re-rolled at the defender's
    choice: 2 (a miss); the defender 8 (hit)."""
    played = run(duel("defender"), [7, 2, 8])
    assert [e["player"] for e in events(played, "card_played")] == ["defender"]
    assert played.outcome["result"] == "defender_win"


def test_own_only_keeps_the_opponents_hit() -> None:
    """``recheck_die: own``: the defender may not touch the attacker's hit. Round 1: 7 (hit);
    3 (a miss: re-rolled: 1)."""
    played = run(duel("defender", recheck_die="own"), [7, 3, 1])
    assert played.outcome["result"] == "attacker_win"


def test_exact_odds_a_cruiser_duel_with_recheck() -> None:
    """Hand-derived (the attacker holds it; the stock player plays it at the first chance:
    its own miss, else the defender's hit; each cruiser hits with 2/5). While it is held:
    - the attacker hits (2/5), the defender hits (2/5), re-rolled: hits again (2/5: draw,
      8/125) or misses (3/5: attacker, 12/125); the defender misses (3/5): attacker 30/125;
    - the attacker misses (3/5), re-rolled: hits (2/5), then the defender hits (draw, 12/125)
      or misses (attacker, 18/125); misses again (3/5), then the defender hits (defender,
      18/125) or misses (27/125), and the plain duel follows (3/8, 1/4, 3/8).
    Attacker 60/125 + 27/125 * 3/8 = 561/1000, draw 20/125 + 27/125 * 1/4 = 214/1000,
    defender 18/125 + 27/125 * 3/8 = 225/1000."""
    report = odds(duel(), fractions=True)
    assert (report.attacker_win, report.draw, report.defender_win) == (
        Fraction(561, 1000),
        Fraction(214, 1000),
        Fraction(225, 1000),
    )


def test_the_default_is_any_die() -> None:
    """The defender's odds with the card on the attacker's hits: better than without it."""
    held = odds(duel("defender"), fractions=True)
    own = odds(duel("defender", recheck_die="own"), fractions=True)
    assert held.defender_win > odds(duel("nobody"), fractions=True).defender_win
    assert own.defender_win > odds(duel("nobody"), fractions=True).defender_win


def test_with_the_shock_troops_option_an_invasion_is_played() -> None:
    """Refused before 27T-18 (tests/ti3/cards/test_recheck_shock_troops.py). Round 1: the
    ground force 2, Recheck: 8 (a hit); the defender 1."""
    scenario = {
        "ruleset": "ti3",
        "battle": "invasion",
        "attacker": {"units": {"carrier": 1, "ground_force": 1}, **CARD},
        "defender": {"units": {"ground_force": 1}},
        "options": {"shock_troops": True},
    }
    played = run(scenario, [2, 8, 1])
    assert played.outcome["planet_taken"] is True


def test_logs_replay_and_the_sampler_plays_as_the_resolver() -> None:
    scenario = space(
        {"units": {"cruiser": 2, "carrier": 1, "fighter": 2}, **CARD},
        {"units": {"dreadnought": 1, "destroyer": 1}, **CARD},
    )
    assert_logs_replay(scenario, seeds=6)
    assert_sampled_as_played(scenario, trials=30)
