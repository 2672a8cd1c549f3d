"""ANTI-FIGHTER BARRAGE (abilities/anti_fighter_barrage.py): each unit with the ability rolls its
dice in the first round of a space combat; hits only destroy fighters (ti4-space-combat.md step 1;
docs/rulings.md R15). Unit data from units.toml."""

from __future__ import annotations

from typing import Any

from spacecombat.core.forces import Forces
from spacecombat.core.pool import DiceGroup
from spacecombat.rulesets import parse_ti_scenario
from spacecombat.rulesets.ti4.abilities.anti_fighter_barrage import barrage_pool, is_target
from spacecombat.rulesets.ti4.setup import BattleSetup, build
from spacecombat.rulesets.ti4.sides import Side
from tests.helpers import events, rolls, run, space

A, D = Side.ATTACKER, Side.DEFENDER


def setup_of(attacker: dict[str, Any]) -> BattleSetup:
    return build(parse_ti_scenario(space(attacker, {"units": "1 cruiser"})))


def test_a_destroyer_rolls_two_barrage_dice_hitting_on_9() -> None:
    # units.toml: Destroyer I has ANTI-FIGHTER BARRAGE 9 (x2).
    setup = setup_of({"units": "1 destroyer"})
    pool = barrage_pool(setup, A, Forces.of({"destroyer": 1}))
    assert pool.groups == (DiceGroup("destroyer", 2, 9),)


def test_dice_add_up_over_units_of_one_type() -> None:
    setup = setup_of({"units": "3 destroyer"})
    assert barrage_pool(setup, A, Forces.of({"destroyer": 3})).dice == 6


def test_a_destroyer_ii_rolls_three_barrage_dice_hitting_on_6() -> None:
    # units.toml: Destroyer II has ANTI-FIGHTER BARRAGE 6 (x3).
    setup = setup_of({"units": "1 destroyer", "upgrades": ["destroyer"]})
    pool = barrage_pool(setup, A, Forces.of({"destroyer": 1}))
    assert pool.groups == (DiceGroup("destroyer", 3, 6),)


def test_units_without_the_ability_roll_no_barrage_dice() -> None:
    setup = setup_of({"units": "1 dreadnought, 1 cruiser, 2 fighter"})
    pool = barrage_pool(setup, A, Forces.of({"dreadnought": 1, "cruiser": 1, "fighter": 2}))
    assert pool.groups == ()


def test_a_damaged_unit_still_rolls_its_barrage() -> None:
    setup = setup_of({"units": "1 destroyer"})
    forces = Forces.of({"destroyer": 1}, {"destroyer": 1})
    assert barrage_pool(setup, A, forces).dice == 2


def test_fighters_are_barrage_targets() -> None:
    # docs/rulings.md R15: barrage hits destroy fighters.
    assert is_target(setup_of({"units": "1 destroyer"}), D, "fighter")


def test_other_ships_are_not_barrage_targets() -> None:
    # docs/rulings.md R4: AFB hits may only go to fighters.
    assert not is_target(setup_of({"units": "1 destroyer"}), D, "dreadnought")


def test_barrage_hits_destroy_the_opponents_fighters() -> None:
    # ti4-space-combat.md step 1.
    played = run(space({"units": "1 destroyer"}, {"units": "1 carrier, 2 fighter"}), [9, 9, 9, 1])
    destroyed = events(played, "unit_destroyed", cause="anti-fighter barrage")
    assert [(e["player"], e["unit"]) for e in destroyed] == [("defender", "fighter")] * 2


def test_barrage_is_rolled_in_the_first_round_only() -> None:
    # ti4-space-combat.md step 1.2.
    played = run(
        space({"units": "1 destroyer"}, {"units": "1 carrier, 2 fighter"}),
        [1, 1, 1, 1, 1, 1, 1, 9, 1, 1],
    )
    assert len(rolls(played, "anti_fighter_barrage")) == 1
