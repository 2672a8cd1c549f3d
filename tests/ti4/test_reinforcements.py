"""Reinforcements' limits for effects that place units (issue 27; rules reference 96.2, 23.4;
data/components.toml; rulesets/ti4/reinforcements.py; docs/rulings.md 27T-5).

Each colour of plastic has 3 space docks, 6 PDS, 8 destroyers, 8 cruisers, 2 war suns, 12
infantry, 10 fighters, 4 carriers, 5 dreadnoughts, 1 flagship and 4 mechs; fighters and
infantry have tokens and are never short. An effect places a unit from reinforcements only
while one is there: the plastic less the player's units of that type in the battle."""

from __future__ import annotations

from typing import Any

from spacecombat.rulesets import parse_scenario
from spacecombat.rulesets.ti4.reinforcements import in_reinforcements, plastic
from spacecombat.rulesets.ti4.setup import build
from spacecombat.rulesets.ti4.sides import Side
from tests.helpers import events, invasion, run

#: rules reference 96.2
RULES_REFERENCE = {
    "space_dock": 3,
    "pds": 6,
    "destroyer": 8,
    "cruiser": 8,
    "war_sun": 2,
    "carrier": 4,
    "dreadnought": 5,
    "flagship": 1,
    "mech": 4,
}


def test_the_data_counts_the_rules_reference_pieces() -> None:
    assert {t: plastic(t) for t in RULES_REFERENCE} == RULES_REFERENCE
    assert plastic("fighter") is None  # tokens (36)
    assert plastic("infantry") is None  # tokens (46)


def letnev(mechs: int) -> dict[str, Any]:
    """A Letnev attacker with ``mechs`` mechs in the space area, 1 infantry landing, and the
    trade goods for the Dunlain Reaper's DEPLOY."""
    return invasion(
        {"units": f"1 carrier, 1 infantry, {mechs} mech", "faction": "letnev", "trade_goods": 2},
        {},
        planets=[{"name": "P", "defender": {"infantry": 1}, "commit": {"infantry": 1}}],
    )


def test_counted_in_the_battle() -> None:
    setup = build(parse_scenario(letnev(3)))  # type: ignore[arg-type]
    assert in_reinforcements(setup, setup.initial, Side.ATTACKER, "mech") == 1
    assert in_reinforcements(setup, setup.initial, Side.ATTACKER, "infantry") is None
    assert in_reinforcements(setup, setup.initial, Side.DEFENDER, "mech") == 4


def test_the_dunlain_reaper_deploys_while_a_mech_is_in_reinforcements() -> None:
    # 3 mechs in the battle: the fourth is placed (the mech hits on 6)
    played = run(letnev(3), [6, 1])
    assert [e["card"] for e in events(played, "card_played")] == ["letnev_mech_deploy"]
    assert [e["unit"] for e in events(played, "units_placed")] == ["mech"]


def test_no_deploy_with_all_four_mechs_in_the_battle() -> None:
    # 4 mechs in the space area: none left to place; the infantry fights (8 hits)
    played = run(letnev(4), [8, 1])
    assert not events(played, "card_played")
    assert not events(played, "units_placed")


def test_indoctrination_places_no_mech_with_all_four_in_the_battle() -> None:
    """The Yin mech's DEPLOY with Indoctrination places a mech only while one is in
    reinforcements; with 4 in the battle, only infantry (tokens) is offered."""
    scenario = invasion(
        {"units": "1 carrier, 1 infantry, 4 mech", "faction": "yin", "influence": 3},
        {},
        planets=[{"name": "P", "defender": {"infantry": 1}, "commit": {"infantry": 1}}],
    )
    played = run(scenario, [1, 1, 1], all_dice=False)
    [choice] = events(played, "choice_made", decision="play_card")
    assert choice["options"] == ["play indoctrination", "pass"]
    assert events(played, "units_placed")[0]["unit"] == "infantry"
