"""Target Their Flagship! (TI3 base action card; data/action_cards.toml; docs/rulings.md
27S-28): immediately before a space battle one of the holder's ships rolls one die at its
combat value against an enemy ship, which is hit on a success; that ship does not roll in
round 1.

Dice: in an exchange the attacker rolls before the defender."""

from __future__ import annotations

from fractions import Fraction
from typing import Any, cast

from spacecombat import odds
from tests.helpers import assert_logs_replay, assert_sampled_as_played, events, rolls, run
from tests.ti3.effects import space

CARD = {"action_cards": ["target_their_flagship"]}


def aimed(attacker: dict[str, int], defender: dict[str, int], **policy: Any) -> dict[str, Any]:
    return space({"units": attacker, **CARD, **policy}, {"units": defender})


def test_a_hit_destroys_the_target_before_the_battle() -> None:
    """The card's die: 7 (the cruiser's value): the defender's cruiser is destroyed; nothing
    is left to fight."""
    played = run(aimed({"cruiser": 2}, {"cruiser": 1}), [7])
    assert [r["purpose"] for r in rolls(played)] == ["target_their_flagship"]
    lost = events(played, "unit_destroyed", cause="Target Their Flagship!")
    assert [(e["player"], e["unit"]) for e in lost] == [("defender", "cruiser")]
    assert played.outcome["result"] == "attacker_win"


def test_the_ship_does_not_roll_in_round_1() -> None:
    """The card's die: 6 (a miss). Round 1: one of the two cruisers rolls: 1; the defender 1.
    Round 2: both: 7, 1; 1."""
    played = run(aimed({"cruiser": 2}, {"cruiser": 1}), [6, 1, 1, 7, 1, 1])
    dice = [
        sum(len(g["faces"]) for g in cast("list[dict[str, Any]]", r["groups"]))
        for r in rolls(played, "space_combat")
        if r["player"] == "attacker"
    ]
    assert dice == [1, 2]
    assert played.outcome["result"] == "attacker_win"


def test_a_hit_on_a_dreadnought_damages_it() -> None:
    """The card's die: 7: the dreadnought sustains the hit. Round 1: the cruiser does not
    roll; the dreadnought 1. Round 2: 7 (hit: the damaged dreadnought destroyed); 1."""
    played = run(aimed({"cruiser": 1}, {"dreadnought": 1}), [7, 1, 7, 1])
    damaged = events(played, "damage_sustained", cause="Target Their Flagship!")
    assert [(e["player"], e["unit"]) for e in damaged] == [("defender", "dreadnought")]
    assert played.outcome["result"] == "attacker_win"


def test_policy_never_keeps_the_card() -> None:
    """Round 1: 7 (hit); 1."""
    played = run(
        aimed({"cruiser": 1}, {"cruiser": 1}, policy={"play": {"target_their_flagship": "never"}}),
        [7, 1],
    )
    assert not events(played, "card_played")
    assert played.outcome["result"] == "attacker_win"


def test_exact_odds_a_cruiser_against_a_cruiser() -> None:
    """Hand-derived. The card's die hits with 2/5: the attacker wins at once. It misses (3/5):
    in round 1 the attacker's cruiser does not roll, the defender's hits with 2/5 (the
    defender wins); otherwise (3/5) the plain duel of two cruisers (7+: each alone 6/25, both
    4/25): 3/8, draw 1/4, 3/8. Attacker 2/5 + 9/25 * 3/8 = 107/200, draw 9/25 * 1/4 = 18/200,
    defender 3/5 * 2/5 + 9/25 * 3/8 = 75/200."""
    report = odds(aimed({"cruiser": 1}, {"cruiser": 1}), fractions=True)
    assert (report.attacker_win, report.draw, report.defender_win) == (
        Fraction(107, 200),
        Fraction(18, 200),
        Fraction(75, 200),
    )


def test_logs_replay_and_the_sampler_plays_as_the_resolver() -> None:
    scenario = space(
        {"units": {"dreadnought": 1, "cruiser": 1, "carrier": 1, "fighter": 2}, **CARD},
        {"units": {"dreadnought": 1, "cruiser": 2}, **CARD},
    )
    assert_logs_replay(scenario, seeds=8)
    assert_sampled_as_played(scenario, trials=40)
