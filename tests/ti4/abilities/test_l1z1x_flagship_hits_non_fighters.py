"""L1Z1X flagship ([0.0.1]; abilities/l1z1x_flagship_hits_non_fighters.py): during space combat,
hits produced by this ship and by its owner's dreadnoughts in its system must be assigned to
non-fighter ships if able (data/units.toml; ti4-combat-effects.md, flagships;
docs/rulings.md 14G-4). It acts on the combat roll (ti4-space-combat.md step 3):
those dice count their hits as marks (procedures/combat_round.py ``roll_dice``), and in the
Assign Hits step (step 4) the opponent assigns those hits first, to non-fighter ships while it
has any, then the others as usual (procedures/assign_hits.py ``aiming``)."""

from __future__ import annotations

from fractions import Fraction
from typing import Any

import pytest

from spacecombat import odds
from spacecombat.core.errors import IllegalChoice
from tests.helpers import (
    assert_logs_replay,
    assert_sampled_as_played,
    events,
    rolls,
    run,
    space,
    survivors,
)

L1 = {"faction": "l1z1x"}
CARRIER_AND_FIGHTERS = {"units": "1 carrier, 2 fighter"}


def test_the_flagships_hit_takes_the_carrier_the_cruisers_a_fighter() -> None:
    # Round 1: flagship 5 (hit), 1; cruiser 7 (hit); carrier 1, fighters 1, 1. Round 2:
    # flagship 10 (hit), 1; cruiser 10 (hit); fighter 1.
    scenario = space({"units": "1 flagship, 1 cruiser", **L1}, CARRIER_AND_FIGHTERS)
    played = run(scenario, [5, 1, 7, 1, 1, 1, 10, 1, 10, 1])
    first: Any = rolls(played, "space_combat")[0]
    flagship, cruiser = first["groups"]
    assert (flagship["unit"], flagship["mark_on"], flagship["marks"]) == ("flagship", 5, 1)
    assert "mark_on" not in cruiser
    aimed = events(played, "hits_restricted")
    assert [(e["player"], e["hits"], e["round"]) for e in aimed] == [
        ("defender", 1, 1),
        ("defender", 1, 2),
    ]
    assert aimed[0]["by"] == ["l1z1x_flagship_hits_non_fighters"]
    choices = events(played, "choice_made", decision="assign_hit")
    assert [(c["choice"], c["options"]) for c in choices[:2]] == [
        ("destroy carrier", ["destroy carrier"]),  # the flagship's hit: only the carrier
        ("destroy fighter", ["destroy fighter"]),  # the cruiser's: a fighter
    ]


def test_dreadnought_hits_are_restricted_too_and_go_to_fighters_when_none_is_left() -> None:
    # flagship 5, 5 and dreadnought 5: three hits, all restricted; carrier 1, fighters 1, 1.
    scenario = space({"units": "1 flagship, 1 dreadnought", **L1}, CARRIER_AND_FIGHTERS)
    played = run(scenario, [5, 5, 5, 1, 1, 1])
    [aimed] = events(played, "hits_restricted")
    assert aimed["hits"] == 3
    assert [e["unit"] for e in events(played, "unit_destroyed")] == [
        "carrier",
        "fighter",
        "fighter",
    ]


def test_its_hits_stay_restricted_after_it_is_destroyed_in_the_same_step() -> None:
    # A damaged flagship: 5 (hit), 1; carrier 9 (hit), fighter 1. The attacker assigns first
    # and loses the flagship; its hit still must take the carrier (14G-4).
    scenario = space(
        {"units": "1 flagship", "damaged": {"flagship": 1}, **L1}, {"units": "1 carrier, 1 fighter"}
    )
    played = run(scenario, [5, 1, 9, 1])
    destroyed = [(e["player"], e["unit"]) for e in events(played, "unit_destroyed")]
    assert destroyed[:2] == [("attacker", "flagship"), ("defender", "carrier")]


def test_sustain_damage_cancels_the_restricted_hit_first() -> None:
    # flagship 5 (hit), 1; cruiser 7 (hit): one restricted hit, one free; dreadnought 1,
    # fighter 1. The dreadnought sustains (the restricted hit), and the free hit may take the
    # fighter (14G-3). Round 2: 10, 10, 10 against the damaged dreadnought (1).
    scenario = space(
        {"units": "1 flagship, 1 cruiser", **L1}, {"units": "1 dreadnought, 1 fighter"}
    )
    played = run(scenario, [5, 1, 7, 1, 1, 10, 10, 10, 1])
    choices: list[Any] = events(played, "choice_made", decision="assign_hit", player="defender")
    assert choices[0]["options"] == ["sustain dreadnought", "destroy dreadnought"]
    assert choices[0]["choice"] == "sustain dreadnought"
    assert "destroy fighter" in choices[1]["options"]


def test_the_opponent_may_not_put_the_hit_on_a_fighter() -> None:
    scenario = space({"units": "1 flagship", **L1}, {"units": "1 carrier, 1 cruiser, 2 fighter"})
    with pytest.raises(IllegalChoice, match="must be assigned to non-fighter ships"):
        run(scenario, [5, 1, 1, 1, 1, 1], defender=["destroy fighter"], all_dice=False)


def test_not_without_the_flagship_in_the_system() -> None:
    # an L1Z1X dreadnought alone: 5 (hit); carrier 1, fighters 1, 1: the stock policy gives
    # up a fighter. Round 2: 10; carrier 1, fighter 1 (a fighter again). Round 3: 10; carrier 1.
    scenario = space({"units": "1 dreadnought", **L1}, CARRIER_AND_FIGHTERS)
    played = run(scenario, [5, 1, 1, 1, 10, 1, 1, 10, 1])
    assert not events(played, "hits_restricted")
    first: Any = rolls(played, "space_combat")[0]
    assert "mark_on" not in first["groups"][0]
    assert events(played, "unit_destroyed")[0]["unit"] == "fighter"


def test_an_opponent_without_fighters_is_unaffected() -> None:
    # flagship 5, 5: two hits on two cruisers (1, 1)
    played = run(space({"units": "1 flagship", **L1}, {"units": "2 cruiser"}), [5, 5, 1, 1])
    assert survivors(played, "defender") == {}


FUNDED = {"units": "1 flagship", **L1, "promissory_notes": ["war_funding"]}


def test_rerolled_flagship_dice_mark_the_hits_of_their_reroll() -> None:
    # War Funding, held by the L1Z1X player, rerolls its misses in round 1 (once refused by
    # name): 1 and 2 miss, rerolled 5 (a hit, restricted) and 1; the carrier (1) and the
    # fighter (1) miss; the restricted hit takes the carrier (docs/rulings.md 14RR-6). Round
    # 2: 5 and 1 again; the fighter misses.
    scenario = space(FUNDED, {"units": "1 carrier, 1 fighter"})
    played = run(scenario, [1, 2, 5, 1, 1, 1, 5, 1, 1])
    first: Any = rolls(played, "space_combat")[0]
    assert [(g["faces"], g["marks"]) for g in first["groups"]] == [([1, 2], 0), ([5, 1], 1)]
    [aimed, _] = events(played, "hits_restricted")
    assert (aimed["hits"], aimed["round"]) == (1, 1)
    assert [e["unit"] for e in events(played, "unit_destroyed")] == ["carrier", "fighter"]


def test_exact_odds_with_war_funding_hand_derived() -> None:
    """As below, with War Funding in round 1: each flagship die hits with 1 - (2/5)^2 =
    21/25 (0, 1, 2 hits with 16/625, 168/625, 441/625); the restricted hits take the carrier
    first. Two hits: drawn if the defender hits (11/25), else won. One: the carrier is gone;
    lost if the defender hits, else the duel against the fighter (won 49/74, drawn 21/74).
    None: lost if the defender hits, else the battle below from its start."""
    scenario = space(
        {**FUNDED, "damaged": {"flagship": 1}},
        {"units": "1 carrier, 1 fighter", "upgrades": ["fighter"]},
    )
    f = Fraction
    den = 1 - f(4, 25) * f(14, 25)
    start_win = (f(9, 25) * f(14, 25) + f(12, 25) * f(14, 25) * f(49, 74)) / den
    start_draw = (f(9, 25) * f(11, 25) + f(12, 25) * f(14, 25) * f(21, 74)) / den
    two, one, none = f(441, 625), f(168, 625), f(16, 625)
    miss = f(14, 25)
    attacker = two * miss + one * miss * f(49, 74) + none * miss * start_win
    draw = two * f(11, 25) + one * miss * f(21, 74) + none * miss * start_draw
    found = odds(scenario)
    assert found.attacker_win == pytest.approx(float(attacker), abs=1e-12)
    assert found.draw == pytest.approx(float(draw), abs=1e-12)


def test_exact_odds_hand_derived() -> None:
    """A damaged flagship (2 dice, 3/5 each: 0, 1, 2 hits with 4/25, 12/25, 9/25) against a
    carrier (1/5) and a Fighter II (3/10); the defender hits with 1 - 4/5*7/10 = 11/25. Each
    flagship hit must take the carrier first. Against the fighter alone: attacker
    b = (21/25*7/10) / (1 - 4/25*7/10) = 49/74, draw 21/74. From the start (denominator
    1 - 4/25*14/25 = 569/625): attacker = (9/25*14/25 + 12/25*14/25*b) / (569/625),
    draw = (9/25*11/25 + 12/25*14/25*21/74) / (569/625). (Were the fighter hit first, the
    carrier left would hit with 1/5, not 3/10.)"""
    scenario = space(
        {"units": "1 flagship", "damaged": {"flagship": 1}, **L1},
        {"units": "1 carrier, 1 fighter", "upgrades": ["fighter"]},
    )
    f = Fraction
    den = 1 - f(4, 25) * f(14, 25)
    attacker = (f(9, 25) * f(14, 25) + f(12, 25) * f(14, 25) * f(49, 74)) / den
    draw = (f(9, 25) * f(11, 25) + f(12, 25) * f(14, 25) * f(21, 74)) / den
    found = odds(scenario)
    assert found.attacker_win == pytest.approx(float(attacker), abs=1e-12)
    assert found.draw == pytest.approx(float(draw), abs=1e-12)
    assert found.defender_win == pytest.approx(float(1 - attacker - draw), abs=1e-12)


CROWNED = {"units": "1 flagship", **L1, "relics": ["the_crown_of_thalnos"]}


def test_with_the_crown_of_thalnos_every_hit_of_those_dice_is_restricted() -> None:
    # The Crown (relic) rerolls the flagship's misses at +1 (once refused by name): 1 and 5
    # (a hit); the 1 rerolled 4 + 1 (a hit): both hits restricted (docs/rulings.md 14RR-10).
    # The carrier and the fighter miss (1, 1); the hits take the carrier, then the fighter.
    scenario = space(CROWNED, {"units": "1 carrier, 1 fighter"})
    played = run(scenario, [1, 5, 4, 1, 1])
    first: Any = rolls(played, "space_combat")[0]
    assert [(g["faces"], g["aimed"], g["marks"]) for g in first["groups"]] == [
        ([1, 5], True, 1),
        ([4], True, 1),
    ]
    [aimed] = events(played, "hits_restricted")
    assert aimed["hits"] == 2
    assert [e["unit"] for e in events(played, "unit_destroyed")] == ["carrier", "fighter"]


def test_exact_odds_with_the_crown_hand_derived() -> None:
    """A damaged flagship (2 dice, 3/5; the Crown's reroll at +1: 7/10) with the relic against
    a carrier (1/5) and a Fighter II (3/10): a die hits with 3/5 + 2/5 * 7/10 = 22/25, so the
    flagship makes 2, 1, 0 hits with 484/625, 132/625, 9/625, and with 0 it is lost to the
    Crown. Two hits take both ships (a draw if the defender hits: 11/25); one takes the carrier
    (lost if the defender hits, else the flagship against the fighter: won 616/625 * 7/10,
    drawn 616/625 * 3/10)."""
    scenario = space(
        {**CROWNED, "damaged": {"flagship": 1}},
        {"units": "1 carrier, 1 fighter", "upgrades": ["fighter"]},
    )
    f = Fraction
    two, one = f(484, 625), f(132, 625)
    against_fighter = f(616, 625)
    attacker = two * f(14, 25) + one * f(14, 25) * against_fighter * f(7, 10)
    draw = two * f(11, 25) + one * f(14, 25) * against_fighter * f(3, 10)
    found = odds(scenario)
    assert found.attacker_win == pytest.approx(float(attacker), abs=1e-12)
    assert found.draw == pytest.approx(float(draw), abs=1e-12)


def test_with_the_crown_logs_replay_and_the_sampler_plays_as_play_does() -> None:
    scenario = space({**CROWNED, "units": "1 flagship, 1 dreadnought"}, CARRIER_AND_FIGHTERS)
    assert_logs_replay(scenario, seeds=5)
    assert_sampled_as_played(scenario, trials=60)
