"""BOMBARDMENT (abilities/bombardment.py): the units allotted to a planet roll their bombardment
dice at it, as many of them as are still in the space area (docs/rulings.md R9); combat-roll
modifiers do not apply. Unit data from units.toml."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, cast

from spacecombat.core.forces import Forces
from spacecombat.core.pool import DiceGroup
from spacecombat.rulesets import parse_ti_scenario
from spacecombat.rulesets.ti4.abilities.bombardment import bombardment_pool
from spacecombat.rulesets.ti4.setup import BattleSetup, build
from spacecombat.rulesets.ti4.sides import Side
from tests.helpers import invasion


def _groups(roll: Mapping[str, object]) -> list[dict[str, Any]]:
    """The dice groups of a ``dice_rolled`` event."""
    return cast("list[dict[str, Any]]", roll["groups"])


A = Side.ATTACKER


def setup_of(attacker: dict[str, Any]) -> BattleSetup:
    return build(parse_ti_scenario(invasion(attacker, {"units": "2 infantry"})))


def test_a_dreadnought_rolls_one_die_hitting_on_5() -> None:
    # units.toml: Dreadnought I has BOMBARDMENT 5.
    setup = setup_of({"units": "1 dreadnought"})
    pool = bombardment_pool(setup, A, Forces.of({"dreadnought": 1}), {"dreadnought": 1})
    assert pool.groups == (DiceGroup("dreadnought", 1, 5),)


def test_a_war_sun_rolls_three_dice_hitting_on_3() -> None:
    # units.toml: War Sun has BOMBARDMENT 3 (x3).
    setup = setup_of({"units": "1 war_sun"})
    pool = bombardment_pool(setup, A, Forces.of({"war_sun": 1}), {"war_sun": 1})
    assert pool.groups == (DiceGroup("war_sun", 3, 3),)


def test_a_sardakk_dreadnought_rolls_two_dice_hitting_on_4() -> None:
    # units.toml: the Sardakk dreadnought (Exotrireme I) has BOMBARDMENT 4 (x2).
    setup = setup_of({"faction": "sardakk", "units": "1 dreadnought"})
    pool = bombardment_pool(setup, A, Forces.of({"dreadnought": 1}), {"dreadnought": 1})
    assert (pool.groups[0].dice, pool.groups[0].value) == (2, 4)


def test_only_the_allotted_units_roll() -> None:
    # docs/rulings.md R9: one planet per unit; the others bombard elsewhere or not at all.
    setup = setup_of({"units": "3 dreadnought"})
    pool = bombardment_pool(setup, A, Forces.of({"dreadnought": 3}), {"dreadnought": 1})
    assert pool.dice == 1


def test_no_more_units_roll_than_are_in_the_space_area() -> None:
    setup = setup_of({"units": "2 dreadnought"})
    pool = bombardment_pool(setup, A, Forces.of({"dreadnought": 1}), {"dreadnought": 2})
    assert pool.dice == 1


def test_a_unit_without_bombardment_rolls_nothing() -> None:
    setup = setup_of({"units": "1 dreadnought, 1 cruiser"})
    pool = bombardment_pool(setup, A, Forces.of({"cruiser": 1}), {"cruiser": 1})
    assert pool.groups == ()


def test_units_roll_in_ascending_bombardment_value() -> None:
    # ti4-space-combat.md step 3.3 order, used for every pool: the war sun (3) before a dreadnought.
    setup = setup_of({"units": "1 dreadnought, 1 war_sun"})
    forces = Forces.of({"dreadnought": 1, "war_sun": 1})
    pool = bombardment_pool(setup, A, forces, {"dreadnought": 1, "war_sun": 1})
    assert [g.unit for g in pool.groups] == ["war_sun", "dreadnought"]


def test_combat_roll_modifiers_do_not_apply_to_bombardment() -> None:
    # docs/rulings.md R9: bombardment is not combat; Sardakk Unrelenting adds nothing.
    setup = setup_of({"faction": "sardakk", "units": "1 dreadnought"})
    pool = bombardment_pool(setup, A, Forces.of({"dreadnought": 1}), {"dreadnought": 1})
    assert pool.groups[0].modifier == 0


def test_plasma_scoring_adds_one_die_to_the_bombardment() -> None:
    # Plasma Scoring (abilities/plasma_scoring.py) through bombardment_dice: one firing unit,
    # the likeliest to hit, rolls 1 more die (2 dreadnoughts on 5: 3 dice).
    from spacecombat import odds
    from tests.helpers import rolls, run

    sc = invasion(
        {"units": "2 dreadnought, 1 infantry", "technologies": ["plasma_scoring"]},
        {"units": "2 infantry"},
    )
    played = run(sc, [5, 5, 4])
    [roll] = rolls(played, "bombardment")
    assert [(g["unit"], len(g["faces"])) for g in _groups(roll)] == [("dreadnought", 3)]
    assert played.outcome["winner"] == "attacker"
    found = odds(
        invasion(
            {"units": "1 dreadnought", "technologies": ["plasma_scoring"]}, {"units": "1 infantry"}
        )
    )
    # 2 dice on 5: the lone infantry survives only if both miss (4/25); no ground forces land
    assert abs(found.defender_win - 4 / 25) < 1e-12
