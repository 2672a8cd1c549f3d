"""Direct Hit (action card; abilities/direct_hit.py): after an opponent's ship uses SUSTAIN
DAMAGE to cancel a hit you produced, destroy it, unless it is a ship Direct Hit cannot destroy
(data/cards.toml; units.toml ``immune_to_direct_hit``; ti4-combat-effects.md). Offered through
the "play_card" decision right after the SUSTAIN DAMAGE (ti4-space-combat.md step 4.1), against
combat and space cannon offense hits, Waylay's barrage hits and hits of a timing window
(docs/rulings.md 14H-2); never for ground forces."""

from __future__ import annotations

from fractions import Fraction
from typing import Any

import pytest

from spacecombat import odds
from tests.helpers import events, invasion, run, space, survivors

DH = {"action_cards": ["direct_hit"]}


def against(defender: dict[str, Any], *, attacker: str = "1 cruiser", **policy: Any) -> Any:
    side: dict[str, Any] = {"units": attacker, **DH}
    if policy:
        side["policy"] = policy
    return space(side, defender)


def test_destroys_the_ship_that_sustained() -> None:
    # Cruiser 7 (a hit); dreadnought 1. The dreadnought sustains, then is destroyed.
    played = run(against({"units": "1 dreadnought"}), [7, 1])
    [sustained] = events(played, "damage_sustained")
    assert sustained["unit"] == "dreadnought"
    [card] = events(played, "card_played")
    assert (card["player"], card["card"], card["round"]) == ("attacker", "direct_hit", 1)
    [lost] = events(played, "unit_destroyed", player="defender")
    assert (lost["unit"], lost["status"], lost["cause"]) == (
        "dreadnought",
        "sustained this round",
        "direct hit",
    )
    assert survivors(played, "defender") == {}


def test_not_against_dreadnought_ii() -> None:
    # units.toml: Dreadnought II cannot be destroyed by Direct Hit. Round 1: 7; 1 (sustains).
    # Round 2: 7; 1.
    played = run(against({"units": "1 dreadnought", "upgrades": ["dreadnought"]}), [7, 1, 7, 1])
    assert not events(played, "card_played")
    assert len(events(played, "damage_sustained")) == 1


def test_policy_never_keeps_it() -> None:
    played = run(against({"units": "1 dreadnought"}, play={"direct_hit": "never"}), [7, 1, 7, 1])
    assert not events(played, "card_played")


def test_a_scripted_player_may_pass_then_play() -> None:
    # Round 1: 7; 1, 1: a dreadnought sustains, pass. Round 2: 7; 1, 1: the other sustains,
    # played: destroyed. Round 3: 7; 1: the damaged one is destroyed.
    played = run(
        against({"units": "2 dreadnought"}),
        [7, 1, 1, 7, 1, 1, 7, 1],
        attacker=["pass", "play direct_hit"],
    )
    [card] = events(played, "card_played")
    assert card["round"] == 2
    assert [e["cause"] for e in events(played, "unit_destroyed", player="defender")] == [
        "direct hit",
        "space combat",
    ]


def test_not_for_the_holder_own_ships() -> None:
    # The holder's dreadnought sustains (1; 7), nothing is offered. Round 2: 5; 1.
    played = run(against({"units": "1 cruiser"}, attacker="1 dreadnought"), [1, 7, 5, 1])
    assert events(played, "damage_sustained", player="attacker")
    assert not events(played, "card_played")


def test_against_space_cannon_offense_hits() -> None:
    # The defender holds it; its PDS hits (6); the dreadnought sustains, then is destroyed; no
    # ship of the attacker is left.
    scenario = space({"units": "1 dreadnought"}, {"units": "1 cruiser, 1 pds", **DH})
    played = run(scenario, [6])
    [lost] = events(played, "unit_destroyed", player="attacker")
    assert (lost["unit"], lost["status"], lost["cause"]) == ("dreadnought", "damaged", "direct hit")
    assert survivors(played, "attacker") == {}


def test_after_the_last_space_cannon_hit_it_is_offered_in_that_step() -> None:
    # The PDS hits (6): the dreadnought sustains the last (only) hit; the card is offered then,
    # before the space combat begins, not in a later step. Round 1: 1; 7.
    scenario = space({"units": "1 dreadnought, 1 cruiser"}, {"units": "1 cruiser, 1 pds", **DH})
    played = run(scenario, [6, 1, 7])
    [card] = events(played, "card_played")
    first = ["start_of_combat", "start_of_combat_round"]
    [opened] = events(played, "window_opened", windows=first)
    assert played.events.index(card) < played.events.index(opened)
    assert played.outcome["result"] == "defender_win"


def test_not_for_ground_forces() -> None:
    # Ground combat: infantry 8 (a hit); mech 1: the mech sustains, no offer. Round 2: 8; 1.
    scenario = invasion(
        {"units": "1 carrier, 1 infantry", **DH},
        {},
        planets=[{"name": "P", "defender": {"mech": 1}}],
    )
    played = run(scenario, [8, 1, 8, 1])
    assert events(played, "damage_sustained", player="defender")
    assert not events(played, "card_played")


def test_exact_odds_hand_derived() -> None:
    """Cruiser (a = 2/5) with Direct Hit against a dreadnought (d = 3/5): the dreadnought's
    SUSTAIN DAMAGE is always answered by Direct Hit, so each of them has one life. Both miss
    with (3/5)(2/5) = 6/25; win = a(1-d) / (19/25) = 4/19, draw = ad / (19/25) = 6/19,
    loss = (1-a)d / (19/25) = 9/19."""
    found = odds(against({"units": "1 dreadnought"}))
    assert found.attacker_win == pytest.approx(float(Fraction(4, 19)), abs=1e-12)
    assert found.draw == pytest.approx(float(Fraction(6, 19)), abs=1e-12)
    assert found.defender_win == pytest.approx(float(Fraction(9, 19)), abs=1e-12)


# Hits produced outside the combat roll: by the holder's abilities (docs/rulings.md 14H-2)

MENTAK = {"faction": "mentak"}


def ambushing(defender: str, **policy: Any) -> dict[str, Any]:
    side: dict[str, Any] = {"units": "1 cruiser", **MENTAK, **DH}
    if policy:
        side["policy"] = policy
    return space(side, {"units": defender})


def test_against_an_ambush_hit_sustained() -> None:
    # Ambush 7: the dreadnought sustains in the "start of combat" window, then is destroyed
    played = run(ambushing("1 dreadnought"), [7])
    [sustained] = events(played, "damage_sustained")
    assert sustained["cause"] == "Ambush"
    [card] = events(played, "card_played")
    assert (card["player"], card["card"], card["round"]) == ("attacker", "direct_hit", 1)
    [gone] = events(played, "unit_destroyed", player="defender")
    assert (gone["unit"], gone["status"], gone["cause"]) == (
        "dreadnought",
        "sustained this round",
        "direct hit",
    )
    assert played.outcome["result"] == "attacker_win"
    assert not events(played, "dice_rolled", purpose="space_combat")


def test_against_ambush_never_and_a_scripted_pass_keep_it() -> None:
    # Ambush 7: the dreadnought sustains. Round 1: 1; 5: the cruiser is destroyed.
    never = run(ambushing("1 dreadnought", play={"direct_hit": "never"}), [7, 1, 5])
    passed = run(ambushing("1 dreadnought"), [7, 1, 5], attacker=["pass"])
    for played in (never, passed):
        assert not events(played, "card_played")
        assert played.outcome["result"] == "defender_win"


def test_against_a_dimensional_splicer_hit_sustained() -> None:
    creuss = {"units": "1 cruiser", "faction": "creuss", "technologies": ["dimensional_splicer"]}
    scenario = space({**creuss, **DH}, {"units": "1 dreadnought"}, system={"wormholes": ["alpha"]})
    played = run(scenario, [])
    [sustained] = events(played, "damage_sustained")
    assert sustained["cause"] == "Dimensional Splicer"
    played_cards = [c["card"] for c in events(played, "card_played")]
    assert played_cards == ["dimensional_splicer", "direct_hit"]
    assert played.outcome["result"] == "attacker_win"


def test_against_a_waylay_barrage_hit_sustained() -> None:
    # Waylay: barrage 9, 1: the dreadnought sustains, then is destroyed (the combat ends)
    scenario = space(
        {"units": "1 destroyer", "action_cards": ["waylay", "direct_hit"]},
        {"units": "1 dreadnought"},
    )
    played = run(scenario, [9, 1])
    [sustained] = events(played, "damage_sustained")
    assert sustained["cause"] == "anti-fighter barrage"
    assert [c["card"] for c in events(played, "card_played")] == ["waylay", "direct_hit"]
    assert played.outcome["result"] == "attacker_win"


def test_not_when_the_holder_ship_sustains_an_ambush_hit() -> None:
    # the holder is ambushed: its own dreadnought sustains; no offer. Round 1: 5; 1.
    scenario = space({"units": "1 cruiser", **MENTAK}, {"units": "1 dreadnought", **DH})
    played = run(scenario, [7, 1, 5])
    assert events(played, "damage_sustained", player="defender")
    assert not events(played, "choice_made", decision="play_card")
    assert played.outcome["result"] == "defender_win"


def test_exact_odds_against_ambush_hand_derived() -> None:
    """Mentak cruiser with Direct Hit (Ambush and combat 2/5) against a dreadnought (3/5): an
    Ambush hit (2/5) is sustained and the dreadnought destroyed. Otherwise a duel in which the
    dreadnought's first sustain is its end: a round with both hitting (6/25) is a draw (the
    attacker's cruiser goes first), the cruiser alone (4/25) wins, the dreadnought alone
    (9/25) wins: attacker 4/19, draw 6/19. So attacker = 2/5 + 3/5 * 4/19 = 10/19,
    draw = 3/5 * 6/19 = 18/95, defender = 27/95."""
    found = odds(ambushing("1 dreadnought"))
    assert found.attacker_win == pytest.approx(float(Fraction(10, 19)), abs=1e-12)
    assert found.draw == pytest.approx(float(Fraction(18, 95)), abs=1e-12)
    assert found.defender_win == pytest.approx(float(Fraction(27, 95)), abs=1e-12)
