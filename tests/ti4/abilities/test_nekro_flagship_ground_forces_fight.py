"""The Alastor (Nekro Virus flagship; abilities/nekro_flagship_ground_forces_fight.py): "At the
start of a space combat, choose any number of your ground forces in this system to participate
in that combat as if they were ships" (data/units.toml; docs/rulings.md 14N-3, 14AL-1 to 14AL-4).

The choice is made in the "start of combat" window (ti4-space-combat.md rule 2.1); the
participants roll, can be assigned hits and count as ships (rule 10: a player with ships left
wins) until the combat's result is decided; ground forces on planets stay on their planet, also
through a retreat (step 5.2)."""

from __future__ import annotations

from fractions import Fraction
from typing import Any, cast

import pytest

from spacecombat import odds
from spacecombat.core.errors import ScenarioError
from spacecombat.replayer import replay
from spacecombat.resolver import resolve
from tests.helpers import events, invasion, rolls, run, space, survivors, units

ID = "nekro_flagship_ground_forces_fight"
DECISION = "participate_as_ships"
HOME = {"name": "home", "units": ["attacker"]}


def nekro(units: str, defender: str = "1 cruiser", **side: Any) -> dict[str, Any]:
    """The Nekro attacker with the Alastor (or not) against ``defender``."""
    extra = side.pop("scenario", {})
    return space({"faction": "nekro", "units": units, **side}, {"units": defender}, **extra)


def with_planets(**policy: Any) -> dict[str, Any]:
    return {"play": {ID: "with_planets"}, **policy}


def groups(played: Any, player: str = "attacker") -> list[tuple[str, int, int]]:
    """(unit, hit on, dice) of each group the player rolled in combat rounds."""
    found = []
    for roll in rolls(played, "space_combat"):
        if roll["player"] == player:
            rolled = cast("list[dict[str, Any]]", roll["groups"])
            found += [(g["unit"], g["hit_on"], len(g["faces"])) for g in rolled]
    return found


def choices(played: Any) -> list[dict[str, Any]]:
    """The questions asked, one for each kind of ground force (type, status, place)."""
    return cast("list[dict[str, Any]]", events(played, "choice_made", decision=DECISION))


def chosen(played: Any) -> list[str]:
    return [made["choice"] for made in choices(played)]


def test_ground_forces_in_space_fight_as_ships_and_turn_back() -> None:
    # round 1: the mech (6), the infantry (8) and the flagship (9 x2) roll; the mech hits; the
    # cruiser misses
    played = run(nekro("1 flagship, 1 infantry, 1 mech"), [6, 1, 1, 1, 1])
    assert chosen(played) == ["space: 1 infantry", "space: 1 mech"]
    assert sorted(groups(played)) == [
        ("alastor_infantry", 8, 1),
        ("alastor_mech", 6, 1),
        ("flagship", 9, 2),
    ]
    changed = [(e["unit"], e["becomes"]) for e in events(played, "unit_changed")]
    assert sorted(changed[:2]) == [("infantry", "alastor_infantry"), ("mech", "alastor_mech")]
    assert sorted(changed[2:]) == [("alastor_infantry", "infantry"), ("alastor_mech", "mech")]
    assert played.outcome["winner"] == "attacker"
    assert survivors(played, "attacker") == {"flagship": 1, "infantry": 1, "mech": 1}


def test_one_question_for_each_kind_lists_its_counts() -> None:
    played = run(
        nekro("1 flagship, 2 infantry", planet_units="1 mech", damaged={"mech": 1}),
        [10, 1, 1, 1, 1],
    )
    # the space area's kinds first, then the planets'; most first, then none
    assert [made["options"] for made in choices(played)] == [
        ["space: 2 infantry", "space: 1 infantry", "pass"],
        ["planets: 1 mech (damaged)", "pass"],
    ]
    # the stock answer: every ground force in the space area, none from the planets
    assert chosen(played) == ["space: 2 infantry", "pass"]
    assert survivors(played, "attacker", "planet") == {"mech": 1}


def test_a_large_army_is_asked_about_kind_by_kind() -> None:
    # one question over every kind at once would list 41 x 11 x 31 x 6 choices
    played = run(
        nekro(
            "1 flagship, 40 infantry, 5 mech, 12 carrier",
            planet_units="30 infantry, 5 mech",
            damaged={"mech": 5},
            policy=with_planets(),
        ),
        [10] * 300,
        all_dice=False,
    )
    asked = choices(played)
    assert [len(made["options"]) for made in asked] == [41, 6, 31, 6]
    assert chosen(played) == [
        "space: 40 infantry",
        "space: 5 mech (damaged)",
        "planets: 30 infantry",
        "planets: 5 mech",
    ]


def test_with_planets_their_ground_forces_fight_and_stay_on_their_planet() -> None:
    played = run(
        nekro("1 flagship", planet_units="2 infantry", policy=with_planets()),
        [8, 1, 1, 1, 1],
    )
    assert chosen(played) == ["planets: 2 infantry"]
    assert ("alastor_planet_infantry", 8, 2) in groups(played)
    assert played.outcome["winner"] == "attacker"
    assert survivors(played, "attacker") == {"flagship": 1}
    assert survivors(played, "attacker", "planet") == {"infantry": 2}


def test_a_planet_participant_can_be_assigned_hits_and_is_lost_from_its_planet() -> None:
    # round 1: everything misses but the cruiser; the casualty order loses an infantry first
    # (SUSTAIN DAMAGE last); round 2: an infantry hits
    played = run(
        nekro("1 flagship", planet_units="2 infantry", policy=with_planets(sustain="last")),
        [1, 1, 1, 1, 7, 8, 1, 1, 1],
    )
    [lost] = events(played, "unit_destroyed", player="attacker")
    assert lost["unit"] == "alastor_planet_infantry"
    assert survivors(played, "attacker", "planet") == {"infantry": 1}


@pytest.mark.parametrize(
    ("policy", "answers"),
    [({"play": {ID: "never"}}, None), ({"play": {ID: {"round": 2}}}, None), ({}, ["pass"])],
)
def test_a_player_may_choose_none(policy: dict[str, Any], answers: list[str] | None) -> None:
    played = run(nekro("1 flagship, 1 infantry", policy=policy), [9, 1, 1], attacker=answers)
    assert chosen(played) == ["pass"]
    assert groups(played) == [("flagship", 9, 2)]
    assert not events(played, "unit_changed")


def test_a_scripted_player_chooses_some() -> None:
    played = run(
        nekro("1 flagship, 2 infantry", planet_units="1 infantry"),
        [9, 1, 1, 1, 1],
        attacker=["space: 1 infantry", "planets: 1 infantry"],
    )
    assert sorted(groups(played)) == [
        ("alastor_infantry", 8, 1),
        ("alastor_planet_infantry", 8, 1),
        ("flagship", 9, 2),
    ]
    assert survivors(played, "attacker") == {"flagship": 1, "infantry": 2}
    assert survivors(played, "attacker", "planet") == {"infantry": 1}


def test_participants_count_for_the_owners_assault_cannon() -> None:
    # the Alastor acts first among its owner's start-of-combat effects: with 2 infantry the
    # Nekro has 3 non-fighter ships, and the opponent must destroy 1 of theirs
    played = run(
        nekro("1 flagship, 2 infantry", "1 cruiser, 1 destroyer", technologies=["assault_cannon"]),
        [9, 1, 1, 1, 1],
    )
    [lost] = events(played, "unit_destroyed", player="defender", cause="Assault Cannon")
    assert lost["unit"] == "destroyer"


def test_participants_stay_when_the_alastor_is_destroyed_and_can_win() -> None:
    # The damaged Alastor is lost first (casualty order). Round 1: all miss, the cruiser hits:
    # the Alastor is destroyed. Round 2: the infantry still fight; the planet's hits.
    played = run(
        nekro(
            "1 flagship, 1 infantry",
            planet_units="1 infantry",
            damaged={"flagship": 1},
            policy=with_planets(casualty_order=["flagship"]),
        ),
        [1, 1, 1, 1, 7, 1, 8, 1],
    )
    [lost] = events(played, "unit_destroyed", player="attacker")
    assert lost["unit"] == "flagship"
    assert played.outcome["rounds"] == 2
    assert played.outcome["winner"] == "attacker"
    # won with ground forces only: those in the space area have no ship to carry them
    [removed] = events(played, "unit_removed", player="attacker")
    assert (removed["unit"], removed["reason"]) == ("infantry", "no ships to carry it")
    assert survivors(played, "attacker", "planet") == {"infantry": 1}


def test_the_nekro_mech_bonus_applies_to_a_participating_mech() -> None:
    played = run(
        space(
            {
                "faction": "nekro",
                "units": "1 flagship",
                "planet_units": "1 mech",
                "policy": with_planets(),
            },
            {"units": "1 cruiser", "conditions": ["assimilator_token"]},
        ),
        [4, 1, 1, 1],
    )
    # Mordred (combat 6) hits on 4 with its +2
    assert ("alastor_planet_mech", 4, 1) in groups(played)
    assert played.outcome["winner"] == "attacker"


def test_a_casualty_order_naming_infantry_and_mech_ranks_their_participants() -> None:
    # mech before infantry: the participating (damaged) mech is destroyed first
    played = run(
        nekro(
            "1 flagship, 1 infantry, 1 mech",
            damaged={"mech": 1},
            policy={"casualty_order": ["mech", "infantry", "flagship"], "sustain": "in_order"},
        ),
        [1, 1, 1, 1, 7, 10, 1, 1, 1],
    )
    [lost] = events(played, "unit_destroyed", player="attacker")
    assert lost["unit"] == "alastor_mech"


def test_a_retreat_leaves_planet_participants_on_their_planet() -> None:
    # round 1: all miss; the Nekro announced a retreat (step 2) and leaves (step 5); its
    # planet's infantry stop participating and stay there; the combat ends
    played = run(
        nekro(
            "1 flagship",
            planet_units="1 infantry",
            policy=with_planets(retreat={"after_round": 0}),
            scenario={"system": {"adjacent": [HOME]}},
        ),
        [1, 1, 1, 1],
    )
    landed = [
        (e["unit"], e["becomes"]) for e in events(played, "unit_changed") if e["unit"] != "infantry"
    ]
    assert landed == [("alastor_planet_infantry", "infantry")]
    [left] = events(played, "retreated")
    assert left["units"] == [{"unit": "flagship", "count": 1}]
    assert played.outcome["rounds"] == 1
    assert survivors(played, "attacker", "planet") == {"infantry": 1}


def test_a_retreating_player_may_carry_its_planet_participants() -> None:
    # note 10: ground forces on planets may be taken along; by then they are off the combat
    played = run(
        nekro(
            "1 flagship",
            planet_units="1 infantry",
            policy=with_planets(
                retreat={"after_round": 0}, retreat_takes_planet_ground_forces=True
            ),
            scenario={"system": {"adjacent": [HOME]}},
        ),
        [1, 1, 1, 1],
    )
    [left] = events(played, "retreated")
    assert units(left["units"]) == {"flagship": 1, "infantry": 1}
    assert survivors(played, "attacker", "planet") == {}


def test_a_retreat_with_only_planet_participants_left_moves_nothing() -> None:
    # round 1: the damaged Alastor is lost (casualty order); round 2: the Nekro announces a
    # retreat, both miss; nothing can move, no command token, the combat ends
    played = run(
        nekro(
            "1 flagship",
            planet_units="1 infantry",
            damaged={"flagship": 1},
            policy=with_planets(casualty_order=["flagship"], retreat={"after_round": 2}),
            scenario={"system": {"adjacent": [HOME]}},
        ),
        [1, 1, 1, 7, 1, 1],
    )
    [left] = events(played, "retreated")
    assert left["units"] == []
    assert not events(played, "command_token_placed")
    assert played.outcome["winner"] == "defender"
    assert survivors(played, "attacker", "planet") == {"infantry": 1}


def test_no_choice_without_the_alastor_in_the_space_area() -> None:
    played = run(
        space({"faction": "nekro", "units": "1 carrier, 1 infantry"}, {"units": "1 cruiser"}),
        [9, 1],
    )
    assert not events(played, "choice_made", decision=DECISION)
    assert groups(played) == [("carrier", 9, 1)]


def test_no_choice_in_an_invasion() -> None:
    played = run(
        invasion(
            {"faction": "nekro", "units": "1 flagship, 1 infantry"},
            {"units": "1 infantry"},
        ),
        [8, 1],
    )
    assert not events(played, "choice_made", decision=DECISION)


def test_with_planets_names_the_alastor_only() -> None:
    with pytest.raises(ScenarioError) as error:
        resolve(nekro("1 flagship", policy={"play": {"morale_boost": "with_planets"}}), seed=1)
    assert error.value.field == "attacker.policy.play.morale_boost"
    assert ID in error.value.message


def test_strike_wing_alpha_ii_destroys_participating_infantry_in_the_space_area_only() -> None:
    # Strike Wing Alpha II: "destroy 1 of your opponent's infantry in the space area" for each 9
    # or 10 of its barrage: a participant from the space area is infantry there; one from a
    # planet stays on its planet (docs/rulings.md 14AL-5). Three marks: the two in space go
    argent = {"units": "1 destroyer", "upgrades": ["destroyer"], "faction": "argent"}
    nekro_side = {
        "faction": "nekro",
        "units": "1 flagship, 2 infantry",
        "planet_units": "1 infantry",
        "policy": with_planets(),
    }
    played = run(space(nekro_side, argent), [9, 10, 10, 10, 10, 1, 1])
    lost = [e["unit"] for e in events(played, "unit_destroyed", player="attacker")]
    assert lost == ["alastor_infantry", "alastor_infantry"]
    assert ("alastor_planet_infantry", 8, 1) in groups(played)
    assert survivors(played, "attacker", "planet") == {"infantry": 1}


def test_exact_odds_hand_derived() -> None:
    """The Alastor (2 dice on 9) and a participating infantry (on 8) against a cruiser (on 7).
    Each side needs one hit; the stock policy sustains with the Alastor first, then loses the
    infantry. With the infantry the Nekro hits with a = 1 - (4/5)^2 (7/10) = 69/125: each of
    the two first stages ends in a win with a / (1 - (1 - a)(3/5)) = 345/457, or moves on with
    (1 - a)(2/5) / (same) = 112/457. The damaged Alastor alone hits with 9/25: won 27/77,
    drawn 18/77 (both hit), lost 32/77."""
    found = odds(nekro("1 flagship, 1 infantry"))
    on = Fraction(112, 457)
    win = Fraction(345, 457) * (1 + on) + on * on * Fraction(27, 77)
    draw = on * on * Fraction(18, 77)
    loss = on * on * Fraction(32, 77)
    assert win + draw + loss == 1
    assert found.attacker_win == pytest.approx(float(win), abs=1e-12)
    assert found.draw == pytest.approx(float(draw), abs=1e-12)
    assert found.defender_win == pytest.approx(float(loss), abs=1e-12)


def test_choosing_none_is_the_same_battle_as_no_ground_forces() -> None:
    plain = odds(nekro("1 flagship"))
    passing = odds(nekro("1 flagship, 1 infantry", policy={"play": {ID: "never"}}))
    assert passing.attacker_win == pytest.approx(plain.attacker_win, abs=1e-12)
    assert passing.draw == pytest.approx(plain.draw, abs=1e-12)


def test_a_log_with_participants_replays() -> None:
    played = resolve(
        nekro("1 flagship, 2 infantry", planet_units="1 mech", policy=with_planets()), seed=7
    )
    assert events(played, "unit_changed")
    report = replay(list(played.events))
    assert report.reproduces, report.reason
