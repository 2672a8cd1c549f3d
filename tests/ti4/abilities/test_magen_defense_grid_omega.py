"""Magen Defense Grid Ω (red technology, Codex I; abilities/magen_defense_grid_omega.py): at the
start of a ground combat on a planet with 1 or more of your structures, you may produce 1 hit
and assign it to 1 of your opponent's ground forces (ti4-combat-effects.md §1;
data/technologies.toml). Offered through "play_card" in the "start of combat" window
(ti4-ground-combat.md rule 4.1, note 1); the owner chooses the unit, the opponent may sustain."""

from __future__ import annotations

from fractions import Fraction
from typing import Any

import pytest

from spacecombat import odds
from tests.helpers import events, invasion, run

MAGEN = {"technologies": ["magen_defense_grid_omega"]}


def scenario(
    attacker: str = "1 carrier, 2 infantry", defender: str = "1 infantry, 1 space_dock"
) -> dict[str, Any]:
    return invasion({"units": attacker}, {"units": defender, **MAGEN})


def test_the_hit_kills_an_infantry_before_any_roll() -> None:
    played = run(scenario(), [10, 1])  # 1 v 1 afterwards: the attacker hits
    [card] = events(played, "card_played")
    assert (card["player"], card["card"], card["round"]) == (
        "defender",
        "magen_defense_grid_omega",
        1,
    )
    [dead] = events(played, "unit_destroyed", player="attacker")
    assert dead["cause"] == "Magen Defense Grid Ω"
    kinds = [e["event"] for e in played.events]
    assert kinds.index("unit_destroyed") < kinds.index("dice_rolled")


def test_the_owner_picks_the_unit_and_the_opponent_may_sustain() -> None:
    played = run(
        scenario("1 carrier, 1 infantry, 1 mech"),
        [10, 1, 1],
        defender=["play magen_defense_grid_omega: on mech"],
        attacker=["sustain mech"],
    )
    [sustained] = events(played, "damage_sustained")
    assert (sustained["unit"], sustained["cause"]) == ("mech", "Magen Defense Grid Ω")


def test_the_stock_policy_aims_at_a_unit_it_destroys() -> None:
    played = run(scenario("1 carrier, 1 infantry, 1 mech"), [10, 1])
    [choice] = events(played, "choice_made", decision="play_card")
    assert choice["options"] == [
        "play magen_defense_grid_omega: on infantry",
        "play magen_defense_grid_omega: on mech",
        "pass",
    ]
    [dead] = events(played, "unit_destroyed", player="attacker")
    assert dead["unit"] == "infantry"


def test_at_each_planet_with_a_structure() -> None:
    sc = invasion(
        {"units": "1 carrier, 4 infantry"},
        {**MAGEN},
        planets=[
            {"name": "A", "defender": {"infantry": 1, "pds": 1}, "commit": {"infantry": 2}},
            {"name": "B", "defender": {"infantry": 1}, "commit": {"infantry": 2}},
        ],
    )
    played = run(sc, [1, 10, 1, 10, 1, 1])  # A: SCD misses, then 1 v 1; B: 2 v 1
    assert len(events(played, "card_played")) == 1


def test_a_scripted_pass() -> None:
    played = run(scenario(), [10, 1, 1], defender=["pass"])
    assert not events(played, "card_played")


def test_exact_odds_hand_derived() -> None:
    """The hit leaves 1 infantry against 1 (all on 8): won 7/17, drawn 3/17, lost 7/17."""
    found = odds(scenario())
    assert found.attacker_win == pytest.approx(float(Fraction(7, 17)), abs=1e-12)
    assert found.draw == pytest.approx(float(Fraction(3, 17)), abs=1e-12)
    assert found.defender_win == pytest.approx(float(Fraction(7, 17)), abs=1e-12)
