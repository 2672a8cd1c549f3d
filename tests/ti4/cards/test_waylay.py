"""Waylay (action card; abilities/waylay.py): played just before its holder rolls ANTI-FIGHTER
BARRAGE (ti4-space-combat.md step 1; ti4-combat-effects.md §6), the hits of that roll may be
assigned to any of the opponent's ships, not only fighters; a ship with SUSTAIN DAMAGE may
cancel one (docs/rulings.md 14D3-1). Offered through the "play_card" decision when
the opponent has a non-fighter ship. The opponent's cards answering hits are offered against
its hits (14H-5)."""

from __future__ import annotations

from fractions import Fraction
from typing import Any

import pytest

from spacecombat import odds
from tests.helpers import events, run, space

WAYLAY = {"action_cards": ["waylay"]}


def battle(defender: str, **policy: Any) -> dict[str, Any]:
    attacker: dict[str, Any] = {"units": "1 destroyer", **WAYLAY}
    if policy:
        attacker["policy"] = policy
    return space(attacker, {"units": defender})


def barrage_losses(played: Any) -> list[object]:
    return [e["unit"] for e in events(played, "unit_destroyed", cause="anti-fighter barrage")]


def test_played_before_the_roll_its_hits_reach_any_ship() -> None:
    # barrage 9, 9: two hits; the defender (stock) loses its cheapest ships, the cruisers
    played = run(battle("2 cruiser"), [9, 9])
    [card] = events(played, "card_played")
    assert (card["player"], card["card"], card["round"]) == ("attacker", "waylay", 1)
    kinds = [e["event"] for e in played.events]
    assert kinds.index("card_played") < kinds.index("dice_rolled")
    assert barrage_losses(played) == ["cruiser", "cruiser"]
    assert events(played, "battle_ended")[0]["result"] == "attacker_win"


def test_a_ship_may_sustain_damage_against_those_hits() -> None:
    # one barrage hit: the dreadnought cancels it; then both hit: a draw
    played = run(battle("1 dreadnought"), [9, 1, 10, 10])
    [sustained] = events(played, "damage_sustained")
    assert (sustained["unit"], sustained["cause"]) == ("dreadnought", "anti-fighter barrage")
    assert not barrage_losses(played)


def test_the_owner_may_still_give_them_to_fighters() -> None:
    played = run(battle("1 carrier, 1 fighter"), [9, 1, 10, 1], defender=["destroy fighter"])
    assert barrage_losses(played) == ["fighter"]


def test_without_the_card_only_fighters_take_them() -> None:
    played = run(battle("2 cruiser", play={"waylay": "never"}), [9, 9, 10, 1, 1, 10, 1])
    assert not events(played, "card_played")
    assert not barrage_losses(played)
    [lost] = events(played, "hits_lost", cause="anti-fighter barrage")
    assert lost["hits"] == 2


def test_a_scripted_pass_keeps_it() -> None:
    played = run(battle("1 cruiser"), [9, 9, 10, 1], attacker=["pass"])
    assert not events(played, "card_played")
    assert not barrage_losses(played)


def test_not_offered_against_fighters_alone_or_without_barrage_dice() -> None:
    # the opponent's only non-fighter ship... is none: a lone Fighter II needs no carrier
    only_fighters = space(
        {"units": "1 destroyer", **WAYLAY}, {"units": "2 fighter", "upgrades": ["fighter"]}
    )
    played = run(only_fighters, [9, 1, 10, 1])
    assert not events(played, "card_played")
    no_barrage = space({"units": "1 cruiser", **WAYLAY}, {"units": "1 cruiser"})
    played = run(no_barrage, [7, 1])
    assert not events(played, "card_played")


def test_not_offered_to_the_other_player() -> None:
    # the defender holds it; the attacker's destroyer barrage is not the holder's
    scenario = space({"units": "1 destroyer"}, {"units": "1 cruiser", **WAYLAY})
    played = run(scenario, [9, 9, 10, 1])
    assert not events(played, "card_played")


def argent(defender: str) -> dict[str, Any]:
    """The Argent's destroyer (barrage 9 x2, combat 8) with Waylay and Raid Formation."""
    return space({"units": "1 destroyer", "faction": "argent", **WAYLAY}, {"units": defender})


def test_with_raid_formation_the_hits_damage_and_are_still_assigned() -> None:
    """docs/rulings.md 27T-4: barrage 9, 9 against 2 dreadnoughts and no fighter: 2 hits
    beyond the fighters damage both (Raid Formation), then the defender assigns both hits to
    its ships (Waylay): damaged, neither can sustain, both are destroyed."""
    played = run(argent("2 dreadnought"), [9, 9])
    assert [e["card"] for e in events(played, "card_played")] == ["waylay"]
    damaged = events(played, "unit_damaged", by="Raid Formation")
    assert [e["unit"] for e in damaged] == ["dreadnought", "dreadnought"]
    assert barrage_losses(played) == ["dreadnought", "dreadnought"]
    assert events(played, "battle_ended")[0]["result"] == "attacker_win"


def test_raid_formation_without_waylay_spends_the_hits() -> None:
    # Waylay kept: both dreadnoughts damaged, no hit left; round 1: 1; 1, 1 (all miss),
    # round 2: 8 (one destroyed); 5, 1 (the destroyer destroyed)
    scenario = argent("2 dreadnought")
    scenario["attacker"]["policy"] = {"play": {"waylay": "never"}}
    played = run(scenario, [9, 9, 1, 1, 1, 1, 1, 8, 5, 1], all_dice=False)
    assert len(events(played, "unit_damaged", by="Raid Formation")) == 2
    assert not barrage_losses(played)


def test_exact_odds_with_raid_formation_hand_derived() -> None:
    """The Argent destroyer (barrage 9 x2, combat 8: 3/10) with Waylay against a dreadnought
    (combat 5: 3/5, SUSTAIN DAMAGE). A barrage hit (1 - (4/5)^2 = 9/25) damages it (Raid
    Formation) and is then assigned to it: destroyed. Else a duel: against a damaged
    dreadnought the destroyer wins 3/10 * 2/5 / (1 - 7/10 * 2/5) = 1/6 and draws 1/4;
    against an undamaged one it wins 1/6 * 1/6 = 1/36 and draws 1/6 * 1/4 = 1/24.
    Attacker = 9/25 + 16/25 * 1/36 = 17/45; draw = 16/25 * 1/24 = 2/75."""
    found = odds(argent("1 dreadnought"))
    assert found.attacker_win == pytest.approx(float(Fraction(17, 45)), abs=1e-12)
    assert found.draw == pytest.approx(float(Fraction(2, 75)), abs=1e-12)


def test_the_opponent_may_answer_its_hits_with_shields_holding() -> None:
    # no longer refused (docs/rulings.md 14H-5): barrage 9, 9 on the cruiser, both cancelled.
    # Round 1: 1; 7.
    scenario = space(
        {"units": "1 destroyer", **WAYLAY},
        {"units": "1 cruiser", "action_cards": ["shields_holding"]},
    )
    played = run(scenario, [9, 9, 1, 7])
    assert [(c["player"], c["card"]) for c in events(played, "card_played")] == [
        ("attacker", "waylay"),
        ("defender", "shields_holding"),
    ]
    assert not barrage_losses(played)


def test_reflective_shielding_held_is_refused_only_when_played() -> None:
    # barrage 9, 9 destroys the cruiser (no ship sustains): the card is never offered
    scenario = space(
        {"units": "1 destroyer", **WAYLAY},
        {"units": "1 cruiser", "action_cards": ["reflective_shielding"]},
    )
    played = run(scenario, [9, 9])
    assert barrage_losses(played) == ["cruiser"]


def test_exact_odds_hand_derived() -> None:
    """1 destroyer (barrage 9 x2, combat 9) with Waylay against 1 cruiser (combat 7). The
    barrage destroys the cruiser with 1 - (4/5)^2 = 9/25 (the combat ends: the attacker wins).
    Otherwise a duel where each round the attacker hits 1/5, the defender 2/5: attacker
    1/5 * 3/5 / (1 - 4/5 * 3/5) = 3/13, draw 1/5 * 2/5 / (13/25) = 2/13.
    Attacker = 9/25 + 16/25 * 3/13 = 33/65; draw = 16/25 * 2/13 = 32/325."""
    found = odds(battle("1 cruiser"))
    assert found.attacker_win == pytest.approx(float(Fraction(33, 65)), abs=1e-12)
    assert found.draw == pytest.approx(float(Fraction(32, 325)), abs=1e-12)
    never = odds(battle("1 cruiser", play={"waylay": "never"}))
    assert never.attacker_win == pytest.approx(float(Fraction(3, 13)), abs=1e-12)
