"""Matriarch (Naalu flagship; abilities/naalu_flagship_fighters_invade.py), with its FAQ errata:
"During an invasion in this system, you may commit fighters to planets as if they were ground
forces. When combat ends, return those units to the space area." Fighters named in a planet's
``commit`` land in invasion step 2 and become ``committed_fighter`` (the side's fighter card, a
ground force): space cannon defense (step 3) may hit them, they fight the ground combat (step
4), and when that combat ends they go back to the space area as fighters, so they never
establish control (step 5; docs/rulings.md 14M-1 to 14M-5)."""

from __future__ import annotations

from fractions import Fraction
from typing import Any

import pytest

from spacecombat import odds
from spacecombat.core.errors import ScenarioError
from spacecombat.replayer import replay
from spacecombat.resolver import resolve
from spacecombat.rulesets import parse_ti_scenario
from spacecombat.rulesets.ti4.setup import build
from tests.helpers import events, invasion, rolls, run, space, units

ID = "naalu_flagship_fighters_invade"


def naalu(units_: str, **extra: Any) -> dict[str, Any]:
    return {"faction": "naalu", "units": units_, **extra}


def one_planet(
    attacker: dict[str, Any], defender: dict[str, int], commit: dict[str, int] | None, **extra: Any
) -> dict[str, Any]:
    planet: dict[str, Any] = {"name": "P", "defender": defender}
    if commit is not None:
        planet["commit"] = commit
    return invasion(attacker, {}, planets=[planet], **extra)


def fighter_alone() -> dict[str, Any]:
    """1 Hybrid Crystal Fighter (combat 8) committed alone against 1 infantry (combat 8)."""
    return one_planet(naalu("1 flagship, 1 fighter"), {"infantry": 1}, {"fighter": 1})


def infantry_and_fighter(**policy: Any) -> dict[str, Any]:
    extra: dict[str, Any] = {"policy": policy} if policy else {}
    return one_planet(
        naalu("1 flagship, 1 fighter, 1 infantry", **extra),
        {"infantry": 1},
        {"fighter": 1, "infantry": 1},
    )


def groups_of(roll: object) -> list[dict[str, Any]]:
    """The groups of a ``dice_rolled`` event."""
    assert isinstance(roll, dict)
    found: list[dict[str, Any]] = roll["groups"]
    return found


def block(played: Any, side: str) -> dict[str, Any]:
    found = played.outcome[side]
    assert isinstance(found, dict)
    return found


# --- step 2: the commitment ---


def test_committed_fighters_land_and_become_ground_forces() -> None:
    played = run(infantry_and_fighter(), [10, 1, 1])
    [landed] = events(played, "ground_forces_committed")
    assert units(landed["units"]) == {"fighter": 1, "infantry": 1}
    [changed] = events(played, "unit_changed", becomes="committed_fighter")
    assert changed == {
        "event": "unit_changed",
        "player": "attacker",
        "unit": "fighter",
        "becomes": "committed_fighter",
        "status": "",
        "by": ID,
    }
    # ground combat round 1: the committed fighter rolls its Hybrid Crystal Fighter value
    groups = {g["unit"]: g for g in groups_of(rolls(played, "ground_combat")[0])}
    assert groups["committed_fighter"]["value"] == 8
    assert groups["committed_fighter"]["faces"] == [10]


def test_fighter_ii_fights_with_its_own_combat_value() -> None:
    sc = one_planet(
        naalu("1 flagship, 1 fighter", upgrades=["fighter"]), {"infantry": 1}, {"fighter": 1}
    )
    played = run(sc, [7, 1])
    first = groups_of(rolls(played, "ground_combat")[0])
    assert [(g["unit"], g["value"], g["hits"]) for g in first] == [("committed_fighter", 7, 1)]


def test_without_a_commit_naming_them_no_fighter_lands() -> None:
    """The stock rule (14M-2): a planet whose ``commit`` is left out gets the ground forces in
    the space area, never the fighters."""
    sc = one_planet(naalu("1 flagship, 2 fighter, 1 infantry"), {"infantry": 1}, None)
    played = run(sc, [10, 1])
    [landed] = events(played, "ground_forces_committed")
    assert units(landed["units"]) == {"infantry": 1}
    assert not events(played, "unit_changed")
    assert units(block(played, "attacker")["space"]) == {"flagship": 1, "fighter": 2}


def test_without_the_matriarch_fighters_cannot_be_committed() -> None:
    sc = one_planet(naalu("1 carrier, 1 fighter, 1 infantry"), {"infantry": 1}, {"fighter": 1})
    with pytest.raises(ScenarioError) as error:
        resolve(sc, seed=1)
    assert error.value.field == "planets[0].commit.fighter"
    assert "allowed: infantry" in str(error.value)


def test_more_fighters_than_in_the_space_area_are_refused() -> None:
    sc = one_planet(naalu("1 flagship, 1 fighter"), {"infantry": 1}, {"fighter": 2})
    with pytest.raises(ScenarioError) as error:
        resolve(sc, seed=1)
    assert error.value.field == "planets[0].commit.fighter"


def test_several_planets() -> None:
    sc = invasion(
        naalu("1 flagship, 3 fighter, 1 infantry"),
        {},
        planets=[
            {"name": "A", "defender": {"infantry": 1}, "commit": {"fighter": 2}},
            {"name": "B", "defender": {"infantry": 1}, "commit": {"fighter": 1, "infantry": 1}},
        ],
    )
    # A: the 2 fighters roll 10, 1, the defender 1; B: fighter and infantry 10, 10, the defender 1
    played = run(sc, [10, 1, 1, 10, 10, 1])
    returned = events(played, "ground_forces_returned", by=ID)
    assert [(e["planet"], units(e["units"])) for e in returned] == [
        ("A", {"fighter": 2}),
        ("B", {"fighter": 1}),
    ]
    assert [e["planet"] for e in events(played, "control_established")] == ["B"]
    assert units(block(played, "attacker")["space"]) == {"flagship": 1, "fighter": 3}


# --- step 3: space cannon defense ---


def test_space_cannon_defense_may_hit_a_committed_fighter() -> None:
    sc = one_planet(naalu("1 flagship, 2 fighter"), {"infantry": 1, "pds": 1}, {"fighter": 2})
    # PDS (6) hits with 9; the last fighter rolls 1, the infantry 8: a defender win
    played = run(sc, [9, 1, 8])
    [hit] = events(played, "unit_destroyed", cause="space cannon defense")
    assert (hit["player"], hit["unit"]) == ("attacker", "committed_fighter")
    assert played.outcome["winner"] == "defender"
    assert units(block(played, "attacker")["space"]) == {"flagship": 1}


def test_fighters_alone_on_a_planet_without_ground_forces_face_its_space_cannon() -> None:
    """No ground combat: they are still shot at (tirules note 4), then go back to space before
    control is established, so the planet and its PDS stay the defender's (14M-3)."""
    sc = one_planet(naalu("1 flagship, 2 fighter"), {"pds": 1}, {"fighter": 2})
    played = run(sc, [2])
    assert len(rolls(played, "space_cannon_defense")) == 1
    assert not events(played, "combat_started")
    [back] = events(played, "ground_forces_returned", by=ID)
    assert units(back["units"]) == {"fighter": 2}
    assert not events(played, "control_established")
    assert not events(played, "unit_destroyed")
    assert units(block(played, "defender")["planets"][0]) == {"pds": 1}
    assert units(block(played, "attacker")["space"]) == {"flagship": 1, "fighter": 2}


# --- step 4: ground combat, and the return when it ends ---


def test_fighters_alone_win_the_fight_but_not_the_planet() -> None:
    """Rule 4.3: the winner is the player with ground forces left after the combat ends; the
    fighters have gone back to space by then, so it is a draw (tirules note 1)."""
    played = run(fighter_alone(), [10, 1])
    names = [e["event"] for e in played.events]
    back = names.index("ground_forces_returned")
    assert names.index("window_opened", names.index("round_ended")) < back
    assert back < names.index("combat_ended")
    assert not events(played, "control_established")
    assert played.outcome["result"] == "draw"
    assert units(block(played, "attacker")["space"]) == {"flagship": 1, "fighter": 1}


def test_the_survivors_return_as_fighters_and_the_infantry_takes_the_planet() -> None:
    played = run(infantry_and_fighter(), [10, 10, 1])
    [back] = events(played, "ground_forces_returned", by=ID)
    assert back == {
        "event": "ground_forces_returned",
        "planet": "P",
        "units": [{"unit": "fighter", "count": 1}],
        "by": ID,
    }
    assert [e["becomes"] for e in events(played, "unit_changed")] == [
        "committed_fighter",
        "fighter",
    ]
    assert played.outcome["winner"] == "attacker"
    assert units(block(played, "attacker")["planets"][0]) == {"infantry": 1}
    assert units(block(played, "attacker")["space"]) == {"flagship": 1, "fighter": 1}


def test_a_destroyed_committed_fighter_does_not_return() -> None:
    # the infantry dies first (default casualty order); round 2 the fighter dies
    played = run(infantry_and_fighter(), [1, 1, 10, 1, 10])
    assert [e["unit"] for e in events(played, "unit_destroyed", player="attacker")] == [
        "infantry",
        "committed_fighter",
    ]
    assert not events(played, "ground_forces_returned")
    assert units(block(played, "attacker")["space"]) == {"flagship": 1}


def test_a_casualty_order_naming_fighter_first_loses_the_fighter_first() -> None:
    played = run(infantry_and_fighter(casualty_order=["fighter", "infantry"]), [1, 1, 10, 10, 1])
    [lost] = events(played, "unit_destroyed", player="attacker")
    assert lost["unit"] == "committed_fighter"
    assert played.outcome["winner"] == "attacker"


def test_dacxive_animators_gives_no_planet_to_fighters_alone() -> None:
    """tirules note 3: the combat is a draw, so the Naalu did not win it."""
    sc = one_planet(
        naalu("1 flagship, 1 fighter", technologies=["dacxive_animators"]),
        {"infantry": 1},
        {"fighter": 1},
    )
    played = run(sc, [10, 1])
    assert not events(played, "choice_made", decision="play_card")
    assert not events(played, "units_placed")
    assert played.outcome["result"] == "draw"


def test_a_scripted_pass_of_dacxive_keeps_the_infantry_win() -> None:
    sc = one_planet(
        naalu("1 flagship, 1 fighter, 1 infantry", technologies=["dacxive_animators"]),
        {"infantry": 1},
        {"fighter": 1, "infantry": 1},
    )
    played = run(sc, [10, 10, 1], attacker=["pass"])
    assert not events(played, "units_placed")
    assert played.outcome["winner"] == "attacker"
    assert units(block(played, "attacker")["space"]) == {"flagship": 1, "fighter": 1}


def test_prophecy_of_ixth_raises_a_committed_fighters_roll() -> None:
    """Still a fighter: "your fighters' combat rolls" (14M-1)."""
    sc = one_planet(
        naalu("1 flagship, 1 fighter"),
        {"infantry": 1},
        {"fighter": 1},
        laws=["prophecy_of_ixth"],
        elected={"prophecy_of_ixth": "attacker"},
    )
    played = run(sc, [7, 1])
    [group] = groups_of(rolls(played, "ground_combat")[0])
    assert (group["unit"], group["modifier"], group["hits"]) == ("committed_fighter", 1, 1)


# --- Parley ---


def test_parley_sends_committed_fighters_back_as_fighters() -> None:
    sc = invasion(
        naalu("1 flagship, 2 fighter, 1 infantry"),
        {"action_cards": ["parley"]},
        planets=[
            {"name": "P", "defender": {"infantry": 1}, "commit": {"fighter": 2, "infantry": 1}}
        ],
    )
    played = run(sc, [])
    [back] = events(played, "ground_forces_returned", by="parley")
    assert units(back["units"]) == {"fighter": 2, "infantry": 1}
    assert units(block(played, "attacker")["space"]) == {"flagship": 1, "fighter": 2, "infantry": 1}


# --- where it does not act ---


def test_no_effect_in_a_space_battle() -> None:
    """Not in play there (``battles``): the space combat keeps its rounds in product form."""
    sc = space(naalu("1 flagship, 2 fighter"), {"units": "1 destroyer"})
    assert ID not in [h.id for h in build(parse_ti_scenario(sc)).handlers]
    # anti-fighter barrage 1, 1; the flagship and fighters 10 x4; the destroyer 1
    played = run(sc, [1, 1, 10, 10, 10, 10, 1])
    assert not events(played, "unit_changed")
    assert units(block(played, "attacker")["space"]) == {"flagship": 1, "fighter": 2}


# --- exact odds, hand-derived ---


def test_exact_odds_fighter_alone() -> None:
    """1 fighter (8) against 1 infantry (8), each hitting 3/10; a round where neither hits
    repeats (49/100). The defender wins when only its die hits (21/100): 21/51 = 7/17; any
    other end is a draw, the fighter's win included (it returns to space): 10/17."""
    found = odds(fighter_alone())
    assert found.attacker_win == pytest.approx(0.0, abs=1e-12)
    assert found.defender_win == pytest.approx(float(Fraction(7, 17)), abs=1e-12)
    assert found.draw == pytest.approx(float(Fraction(10, 17)), abs=1e-12)


def test_exact_odds_infantry_and_fighter() -> None:
    """Infantry + fighter against 1 infantry, all hitting 3/10; the attacker loses its infantry
    first (stock casualty order). A round: the attacker hits (51/100) and the defender misses
    (7/10): won, 357/1000; the attacker hits and the defender hits: the fighter is left and
    returns: a draw; the attacker misses and the defender hits (147/1000): fighter alone
    (defender 7/17); neither (343/1000): again. Won 357/657 = 119/219; lost (147/657) * 7/17 =
    343/3723."""
    found = odds(infantry_and_fighter())
    assert found.attacker_win == pytest.approx(float(Fraction(119, 219)), abs=1e-12)
    assert found.defender_win == pytest.approx(float(Fraction(343, 3723)), abs=1e-12)


def test_exact_odds_fighter_first() -> None:
    """The same with the fighter lost first: the attacker hits: won (the infantry stays), 51/100;
    the attacker misses, the defender hits (147/1000): infantry alone, a 3/10 duel won 7/17;
    neither: again (343/1000). Won (51/100 + 147/1000 * 7/17) / (657/1000) = 9699/11169."""
    found = odds(infantry_and_fighter(casualty_order=["fighter", "infantry"]))
    assert found.attacker_win == pytest.approx(float(Fraction(9699, 11169)), abs=1e-12)


# --- replay ---


def test_logs_replay() -> None:
    seeded = resolve(infantry_and_fighter(), seed=7)
    assert events(seeded, "unit_changed")
    report = replay(list(seeded.events))
    assert report.reproduces, report.reason
    assert report.verified
