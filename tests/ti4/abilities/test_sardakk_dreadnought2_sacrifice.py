"""Exotrireme II (Sardakk dreadnought upgrade; abilities/sardakk_dreadnought2_sacrifice.py):
after a round of space combat, destroy it to destroy up to 2 ships in its system
(ti4-combat-effects.md; data/units.toml), in the "end of combat round" window
(ti4-space-combat.md rule 9.1), through one "play_card" decision naming the ships."""

from __future__ import annotations

from fractions import Fraction
from typing import Any

import pytest

from spacecombat import odds
from spacecombat.replayer import replay
from tests.helpers import events, run, space

CARD = "sardakk_dreadnought2_sacrifice"
HITS = [10] * 40


def battle(attacker: str, defender: str) -> dict[str, Any]:
    return space(
        {"units": attacker, "faction": "sardakk", "upgrades": ["dreadnought"]},
        {"units": defender},
    )


def test_given_for_the_two_dearest_enemy_ships_which_cannot_sustain() -> None:
    played = run(
        battle("1 dreadnought, 1 cruiser", "1 dreadnought, 1 carrier, 1 destroyer"),
        [1] * 7 + HITS,
        all_dice=False,
    )
    offer: Any = events(played, "choice_made", decision="play_card")[0]
    assert offer["choice"] == f"play {CARD}: destroy dreadnought: dreadnought and carrier"
    assert offer["options"][-1] == "pass"
    lost = [
        (e["player"], e["unit"]) for e in events(played, "unit_destroyed", cause="Exotrireme II")
    ]
    assert lost == [
        ("attacker", "dreadnought"),
        ("defender", "dreadnought"),
        ("defender", "carrier"),
    ]
    assert not events(played, "damage_sustained", cause="Exotrireme II")


def test_the_stock_player_keeps_it_for_a_cheap_pair() -> None:
    played = run(battle("1 dreadnought", "1 cruiser, 1 destroyer"), [1] * 5 + HITS, all_dice=False)
    offer: Any = events(played, "choice_made", decision="play_card")[0]
    assert offer["options"][0] == "pass"
    assert offer["choice"] == "pass"


def test_a_scripted_player_picks_the_ships() -> None:
    played = run(
        battle("1 dreadnought, 1 cruiser", "1 dreadnought, 1 carrier, 1 destroyer"),
        [1] * 7 + HITS,
        all_dice=False,
        attacker=[f"play {CARD}: destroy dreadnought: carrier and destroyer"],
    )
    lost = {
        e["unit"]
        for e in events(played, "unit_destroyed", cause="Exotrireme II", player="defender")
    }
    assert lost == {"carrier", "destroyer"}


def test_not_without_the_upgrade() -> None:
    scenario = space({"units": "1 dreadnought", "faction": "sardakk"}, {"units": "2 cruiser"})
    played = run(scenario, [1, 1, 1, *HITS], all_dice=False)
    assert not events(played, "choice_made", decision="play_card")


def test_two_exotriremes_are_given_one_after_the_other() -> None:
    """14K-6: after the first is given, the second is offered in the same window."""
    played = run(battle("2 dreadnought", "4 cruiser"), [1] * 6)
    offers = events(played, "choice_made", decision="play_card")
    assert [o["choice"] for o in offers] == [
        f"play {CARD}: destroy dreadnought: cruiser and cruiser"
    ] * 2
    lost = [
        (e["player"], e["unit"]) for e in events(played, "unit_destroyed", cause="Exotrireme II")
    ]
    assert (
        lost == [("attacker", "dreadnought"), ("defender", "cruiser"), ("defender", "cruiser")] * 2
    )
    assert played.outcome["result"] == "draw"
    assert played.outcome["rounds"] == 1


def test_the_second_may_be_kept() -> None:
    played = run(
        battle("2 dreadnought", "3 cruiser"),
        [1] * 5 + [10, 1],
        attacker=[f"play {CARD}: destroy dreadnought: cruiser and cruiser", "pass"],
    )
    offers = events(played, "choice_made", decision="play_card")
    assert [o["choice"] for o in offers] == [
        f"play {CARD}: destroy dreadnought: cruiser and cruiser",
        "pass",
    ]
    assert played.outcome["result"] == "attacker_win"


def test_not_offered_again_once_no_enemy_ship_is_left() -> None:
    played = run(battle("2 dreadnought, 1 cruiser", "2 cruiser"), [1] * 5)
    assert len(events(played, "choice_made", decision="play_card")) == 1
    assert played.outcome["result"] == "attacker_win"


def test_exact_odds_hand_derived() -> None:
    """One Exotrireme II (hits on 4 with Unrelenting: 7/10) against 2 cruisers (2/5 each). The
    stock player gives it for the 2 cruisers (cost 4, as much as it) while both live: a draw.
    Against 1 cruiser it keeps it (value 2): damaged, a duel won 21/41, drawn 14/41, lost 6/41;
    undamaged, won (35/50 + 6/50 * 21/41) / (41/50) = 1561/1681, drawn 84/1681, lost 36/1681.
    Round 1 (cruisers' hits 0, 1, 2 with 9/25, 12/25, 4/25): it hits and takes 0 (63/250: 1
    cruiser, undamaged), 1 (84/250: damaged), 2 (28/250: lost); it misses (3/10): with 0 or 1
    hits taken it is given for both cruisers (63/250: draw), with 2 it is lost (12/250).
    attacker = 63/250 * 1561/1681 + 84/250 * 21/41 = 170667/420250;
    draw = 63/250 * 84/1681 + 84/250 * 14/41 + 63/250 = 159411/420250;
    defender = 63/250 * 36/1681 + 84/250 * 6/41 + 40/250 = 45086/210125."""
    found = odds(battle("1 dreadnought", "2 cruiser"))
    assert found.attacker_win == pytest.approx(float(Fraction(170667, 420250)), abs=1e-12)
    assert found.draw == pytest.approx(float(Fraction(159411, 420250)), abs=1e-12)
    assert found.defender_win == pytest.approx(float(Fraction(45086, 210125)), abs=1e-12)


def test_a_log_giving_both_replays() -> None:
    played = run(battle("2 dreadnought", "4 cruiser"), [1] * 6)
    report = replay(list(played.events))
    assert report.reproduces, report.reason
