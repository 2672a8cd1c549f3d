"""The TI3 fleet check at the end of a space battle and after a withdrawal or retreat
(ti3-facts.md sections 2, 4.3 and 9; ti3-combat.md, Execute withdrawals/tactical retreats):
fighters beyond capacity (carrier or war sun 6, a space dock supports 3) are removed, unless
the owner has Advanced Fighters, whose excess fighters count against fleet supply; ships
beyond fleet supply are destroyed (decision remove_excess).

Dice: a pool rolls its groups in ascending printed value, then unit name; in a simultaneous
exchange the attacker rolls before the defender."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from spacecombat.core.engine import Played
from spacecombat.core.events import Event
from tests.helpers import events, rolls, run, survivors

ATTACKER_MAY_WITHDRAW = {"adjacent": [{"name": "B", "command_tokens": ["attacker"]}]}


def ti3(attacker: Mapping[str, Any], defender: Mapping[str, Any], **extra: Any) -> dict[str, Any]:
    """A TI3 space battle scenario, fleets checked after the battle only (these tests start
    over capacity to see the check after the battle and after a withdrawal)."""
    return {
        "ruleset": "ti3",
        "battle": "space",
        "attacker": dict(attacker),
        "defender": dict(defender),
        "options": {"check_fleets_before_battle": False},
        **extra,
    }


def removed(played: Played[Any]) -> list[tuple[object, object, object]]:
    return [(e["player"], e["unit"], e["reason"]) for e in events(played, "unit_removed")]


def asked(played: Played[Any], decision: str) -> list[Event]:
    return events(played, "choice_made", decision=decision)


def fighter_dice(played: Played[Any], player: str) -> list[int]:
    out = []
    for r in rolls(played, "space_combat"):
        found = r["groups"]
        assert isinstance(found, list)
        out += [len(g["faces"]) for g in found if r["player"] == player and g["unit"] == "fighter"]
    return out


def test_fighters_beyond_carrier_capacity_fight_then_are_removed() -> None:
    """ti3-facts.md 4.3: fighters beyond capacity keep fighting during the battle and are lost
    at the check after it; a carrier holds 6 (section 2). Faces: round 1: carrier 1, fighters
    9 (hit) and seven 1s; cruiser 1."""
    played = run(
        ti3({"units": {"carrier": 1, "fighter": 8}}, {"units": {"cruiser": 1}}),
        [1, 9, 1, 1, 1, 1, 1, 1, 1, 1],
    )
    assert fighter_dice(played, "attacker") == [8]
    assert removed(played) == [("attacker", "fighter", "beyond capacity after the battle")] * 2
    assert survivors(played, "attacker") == {"carrier": 1, "fighter": 6}
    assert played.outcome["result"] == "attacker_win"
    # the check is after the battle
    names = [e["event"] for e in played.events]
    assert names.index("combat_ended") < names.index("unit_removed")


def test_war_sun_carries_six_fighters() -> None:
    """ti3-facts.md section 2: a war sun's capacity is 6. Faces: round 1: war sun 3, 3, 3;
    fighters seven 1s; cruisers 1, 1, 1."""
    played = run(
        ti3({"units": {"war_sun": 1, "fighter": 7}}, {"units": {"cruiser": 3}}),
        [3, 3, 3, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1],
    )
    assert removed(played) == [("attacker", "fighter", "beyond capacity after the battle")]
    assert survivors(played, "attacker") == {"war_sun": 1, "fighter": 6}


def test_space_dock_supports_three_fighters() -> None:
    """ti3-facts.md section 2: a space dock supports 3 fighters in its system, besides the
    carrier's 6. Faces: round 1: cruiser 1; carrier 1, fighters 9 (hit) and nine 1s."""
    played = run(
        ti3(
            {"units": {"cruiser": 1}},
            {"units": {"carrier": 1, "fighter": 10, "space_dock": 1}},
        ),
        [1, 1, 9, *[1] * 9],
    )
    assert removed(played) == [("defender", "fighter", "beyond capacity after the battle")]
    assert survivors(played, "defender") == {"carrier": 1, "fighter": 9}
    assert played.outcome["result"] == "defender_win"


def test_fighters_within_capacity_stay() -> None:
    """ti3-facts.md 4.3: only fighters beyond capacity are lost. Faces: round 1: carrier 1,
    fighters 9 (hit), 1, 1, 1, 1, 1; cruiser 1."""
    played = run(
        ti3({"units": {"carrier": 1, "fighter": 6}}, {"units": {"cruiser": 1}}),
        [1, 9, 1, 1, 1, 1, 1, 1],
    )
    assert removed(played) == []
    assert survivors(played, "attacker") == {"carrier": 1, "fighter": 6}


def test_fighters_left_without_a_carrier_are_removed() -> None:
    """ti3-facts.md 4.3 and section 2: when the carrier is destroyed, its fighters have no
    capacity and are lost at the check. Faces: round 1: cruiser 7 (hit), carrier 1, fighters
    1, 1; cruiser 7 (hit: the attacker gives its carrier)."""
    played = run(
        ti3(
            {
                "units": {"cruiser": 1, "carrier": 1, "fighter": 2},
                "policy": {"casualty_order": ["carrier"]},
            },
            {"units": {"cruiser": 1}},
        ),
        [7, 1, 1, 1, 7],
    )
    assert [(e["player"], e["unit"]) for e in events(played, "unit_destroyed")] == [
        ("attacker", "carrier"),
        ("defender", "cruiser"),
    ]
    assert removed(played) == [("attacker", "fighter", "beyond capacity after the battle")] * 2
    assert survivors(played, "attacker") == {"cruiser": 1}


def test_advanced_fighters_keep_fighters_beyond_capacity() -> None:
    """ti3-facts.md section 9, Advanced Fighters: fighters beyond capacity are not lost (they
    count against fleet supply, which this player does not limit); fighters +1. Faces:
    round 1: carrier 1, fighters 8 (hit) and seven 1s; cruiser 1."""
    played = run(
        ti3(
            {"units": {"carrier": 1, "fighter": 8}, "technologies": ["advanced_fighters"]},
            {"units": {"cruiser": 1}},
        ),
        [1, 8, 1, 1, 1, 1, 1, 1, 1, 1],
    )
    assert removed(played) == []
    assert survivors(played, "attacker") == {"carrier": 1, "fighter": 8}


def test_advanced_fighters_excess_counts_against_fleet_supply() -> None:
    """ti3-facts.md section 9, Advanced Fighters: excess fighters count against fleet supply;
    with fleet supply 2, a carrier and 2 fighters beyond capacity are one too many, so one
    fighter goes (the stock owner removes the cheapest). Faces: round 1: carrier 1, fighters
    8 (hit) and seven 1s; cruiser 1."""
    played = run(
        ti3(
            {
                "units": {"carrier": 1, "fighter": 8},
                "technologies": ["advanced_fighters"],
                "fleet_supply": 2,
            },
            {"units": {"cruiser": 1}},
        ),
        [1, 8, 1, 1, 1, 1, 1, 1, 1, 1],
    )
    choice = asked(played, "remove_excess")[0]
    assert choice["options"] == ["remove carrier", "remove fighter"]
    assert removed(played) == [("attacker", "fighter", "beyond fleet supply after the battle")]
    assert survivors(played, "attacker") == {"carrier": 1, "fighter": 7}


def test_fleet_supply_excess_ships_are_removed_after_the_battle() -> None:
    """ti3-facts.md 4.3: fleets check fleet supply after combat; the owner chooses which
    excess ship goes (decision remove_excess). Faces: round 1: cruisers 7 (hit), 1,
    destroyer 1; carrier 1."""
    played = run(
        ti3(
            {"units": {"cruiser": 2, "destroyer": 1}, "fleet_supply": 2},
            {"units": {"carrier": 1}},
        ),
        [7, 1, 1, 1],
        attacker=["remove cruiser"],
    )
    choice = asked(played, "remove_excess")[0]
    assert (choice["player"], choice["options"]) == (
        "attacker",
        ["remove cruiser", "remove destroyer"],
    )
    assert removed(played) == [("attacker", "cruiser", "beyond fleet supply after the battle")]
    assert survivors(played, "attacker") == {"cruiser": 1, "destroyer": 1}
    assert played.outcome["result"] == "attacker_win"


def test_fleet_supply_is_checked_after_a_withdrawal() -> None:
    """ti3-combat.md, Execute withdrawals: during a withdrawal, check that fleets meet the
    fleet supply limits; any excess ships are immediately destroyed (decision remove_excess,
    on the fleet that moved). Faces: round 1: cruiser 1, destroyer 1; dreadnought 1."""
    played = run(
        ti3(
            {"units": {"cruiser": 1, "destroyer": 1}, "fleet_supply": 1},
            {"units": {"dreadnought": 1}},
            system=ATTACKER_MAY_WITHDRAW,
        ),
        [1, 1, 1],
        attacker=["withdraw", "remove destroyer"],
    )
    names = [e["event"] for e in played.events]
    assert names.index("withdrawal_executed") < names.index("unit_removed")
    assert removed(played) == [
        ("attacker", "destroyer", "beyond fleet supply after the withdrawal")
    ]
    withdrawal = played.outcome["withdrawal"]
    assert isinstance(withdrawal, dict)
    assert withdrawal["units"] == [{"unit": "cruiser", "count": 1}]
    assert played.outcome["result"] == "defender_win"


def test_capacity_is_checked_on_the_fleet_that_withdrew() -> None:
    """ti3-combat.md, Execute withdrawals (fleets checked) and ti3-facts.md 4.3: the fleet
    that moved away keeps only the fighters its carriers hold (no space dock there).
    Faces: round 1: carrier 1, fighters seven 1s; cruiser 1."""
    played = run(
        ti3(
            {"units": {"carrier": 1, "fighter": 7}},
            {"units": {"cruiser": 1, "space_dock": 1}},
            system=ATTACKER_MAY_WITHDRAW,
        ),
        [1] * 9,
        attacker=["withdraw"],
    )
    assert removed(played) == [("attacker", "fighter", "beyond capacity after the withdrawal")]
    withdrawal = played.outcome["withdrawal"]
    assert isinstance(withdrawal, dict)
    assert {i["unit"]: i["count"] for i in withdrawal["units"]} == {"carrier": 1, "fighter": 6}


def test_fleets_over_capacity_are_checked_before_the_battle() -> None:
    """ti3-facts.md 4.3: fleets are checked before combat too (option
    check_fleets_before_battle, default on): fighters without room are lost before any die is
    rolled, so a lone fighter force never fights. No dice."""
    scenario = ti3({"units": {"fighter": 3}}, {"units": {"cruiser": 1}})
    del scenario["options"]
    played = run(scenario, [])
    assert removed(played) == [("attacker", "fighter", "beyond capacity before the battle")] * 3
    assert played.outcome["result"] == "no_combat"
    assert rolls(played) == []
