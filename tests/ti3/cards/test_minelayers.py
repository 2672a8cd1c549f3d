"""Minelayers (TI3 base action card; data/action_cards.toml; docs/rulings.md 27S-25): after the
attacker's fleet entered the system, each of the defender's cruisers inflicts one automatic
hit, taken at once as casualties, before PDS fire and the space battle.

Dice: in an exchange the attacker rolls before the defender."""

from __future__ import annotations

from fractions import Fraction
from typing import Any

from spacecombat import odds
from tests.helpers import assert_logs_replay, assert_sampled_as_played, events, run
from tests.ti3.effects import space

CARD = {"action_cards": ["minelayers"]}


def mined(attacker: dict[str, int], defender: dict[str, Any] | None = None) -> dict[str, Any]:
    """The defender's cruiser (7+: 2/5) holds the card."""
    return space({"units": attacker}, {"units": {"cruiser": 1}, **CARD, **(defender or {})})


def test_the_hit_destroys_the_only_ship_no_battle() -> None:
    """The cruiser's automatic hit destroys the attacker's cruiser: no die is rolled, no
    battle is fought."""
    played = run(mined({"cruiser": 1}), [])
    assert [e["card"] for e in events(played, "card_played")] == ["minelayers"]
    lost = events(played, "unit_destroyed", cause="Minelayers")
    assert [(e["player"], e["unit"]) for e in lost] == [("attacker", "cruiser")]
    assert played.outcome["result"] == "no_combat"


def test_a_hit_per_cruiser_sustain_damage_takes_one() -> None:
    """Two cruisers: two hits; the stock attacker sustains its dreadnought, then loses its
    cruiser (first in the casualty order). Round 1: 5 (hit); 1, 1. Round 2: 5 (hit); 1."""
    played = run(
        mined({"dreadnought": 1, "cruiser": 1}, {"units": {"cruiser": 2}}), [5, 1, 1, 5, 1]
    )
    sustained = events(played, "damage_sustained", cause="Minelayers")
    assert [e["unit"] for e in sustained] == ["dreadnought"]
    lost = events(played, "unit_destroyed", cause="Minelayers")
    assert [e["unit"] for e in lost] == ["cruiser"]
    assert played.outcome["result"] == "attacker_win"


def test_the_attacker_may_not_play_it() -> None:
    """The card is played after an enemy fleet enters the system: the defender's. Round 1:
    7 (hit); 1."""
    played = run(space({"units": {"cruiser": 1}, **CARD}, {"units": {"cruiser": 1}}), [7, 1])
    assert not events(played, "choice_made", decision="play_card")
    assert played.outcome["result"] == "attacker_win"


def test_policy_never_keeps_the_card() -> None:
    """Round 1: 7 (hit); 1."""
    played = run(mined({"cruiser": 1}, {"policy": {"play": {"minelayers": "never"}}}), [7, 1])
    assert not events(played, "card_played")
    assert played.outcome["result"] == "attacker_win"


def test_exact_odds_a_dreadnought_damaged_before_the_battle() -> None:
    """Hand-derived (tests/ti3/effects.py's duel). The hit damages the dreadnought (5+: a =
    3/5); then the damaged dreadnought against the cruiser (p = 2/5), nobody hitting with r =
    (2/5)(3/5) = 6/25: the attacker wins a (1 - p) / (1 - r) = 9/19, both are destroyed a p /
    (1 - r) = 6/19, the defender wins (1 - a) p / (1 - r) = 4/19."""
    report = odds(mined({"dreadnought": 1}), fractions=True)
    assert (report.attacker_win, report.draw, report.defender_win) == (
        Fraction(9, 19),
        Fraction(6, 19),
        Fraction(4, 19),
    )


def test_logs_replay_and_the_sampler_plays_as_the_resolver() -> None:
    scenario = space(
        {"units": {"dreadnought": 1, "cruiser": 2, "fighter": 2, "carrier": 1}},
        {
            "units": {"cruiser": 2, "space_dock": 1, "pds": 1},
            "action_cards": ["minelayers", "experimental_battlestation", "direct_hit"],
        },
    )
    assert_logs_replay(scenario, seeds=8)
    assert_sampled_as_played(scenario, trials=40)
