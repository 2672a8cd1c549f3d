"""Capacity before the battle (LRR 16.3 and its note 1: capacity limits must be met before the
Space Cannon Offense step; docs/rulings.md R31): fighters and ground forces in the space area
beyond the capacity of a player's ships (Fighter II need none; a space dock holds 3 fighters)
are removed, the owner choosing, before any die is rolled; option
``check_capacity_before_battle: false`` keeps the old reading (the whole fleet fights, the
excess goes after space cannon offense hits or at the end of combat).

Dice: a pool rolls its groups in ascending printed value, then unit name; the attacker rolls
before the defender."""

from __future__ import annotations

import pytest

from spacecombat.core.engine import Played
from spacecombat.core.errors import ScenarioError
from spacecombat.rulesets import battle, parse_scenario
from spacecombat.rulesets.ti4.state import BattleState
from tests.helpers import events, invasion, rolls, run, space, survivors
from tests.ti4.scenarios import FIGHT_WHOLE

BEFORE = "beyond capacity before the battle"


def removed(played: Played[BattleState], reason: str = BEFORE) -> list[tuple[object, object]]:
    return [(e["player"], e["unit"]) for e in events(played, "unit_removed", reason=reason)]


def dice_for(played: Played[BattleState], player: str, unit: str) -> list[int]:
    """How many dice ``player``'s ``unit`` rolled in each combat roll."""
    counts = []
    for roll in rolls(played, "space_combat"):
        groups = roll["groups"]
        assert isinstance(groups, list)
        if roll["player"] == player:
            counts += [len(g["faces"]) for g in groups if g["unit"] == unit]
    return counts


def test_fighters_beyond_capacity_are_removed_before_any_die() -> None:
    """LRR 16.3 note 1: a carrier holds 4; of 6 Fighter I, 2 go before space cannon offense.
    Faces: the defender's PDS 1 (space cannon offense, after the removals); round 1: carrier 9
    (hit), fighters 1 x4; cruiser 1."""
    played = run(
        space({"units": "1 carrier, 6 fighter"}, {"units": "1 cruiser, 1 pds"}),
        [1, 9, 1, 1, 1, 1, 1],
    )
    assert removed(played) == [("attacker", "fighter")] * 2
    kinds = [e["event"] for e in played.events]
    assert kinds.index("unit_removed") < kinds.index("dice_rolled")
    assert rolls(played)[0]["purpose"] == "space_cannon_offense"
    assert dice_for(played, "attacker", "fighter") == [4]


def test_ground_forces_beyond_capacity_are_removed_before_the_battle() -> None:
    """LRR 16.3: a Cruiser I has no capacity, so its infantry in space cannot stay. Faces:
    cruiser 7 (hit); cruiser 1."""
    played = run(space({"units": "1 cruiser, 2 infantry"}, {"units": "1 cruiser"}), [7, 1])
    assert removed(played) == [("attacker", "infantry")] * 2
    assert removed(played, "beyond capacity after combat") == []
    assert played.outcome["result"] == "attacker_win"


def test_the_owner_chooses_what_goes_cheapest_first_by_default() -> None:
    """LRR 16.3a: the owner chooses; the stock policy removes the first unit of its casualty
    order (infantry before fighters). Faces: carrier 9 (hit), fighters 1 x4; cruiser 1."""
    played = run(
        space({"units": "1 carrier, 4 fighter, 1 infantry"}, {"units": "1 cruiser"}),
        [9, 1, 1, 1, 1, 1],
    )
    [choice] = events(played, "choice_made", decision="remove_excess")
    assert choice["options"] == ["remove fighter", "remove infantry"]
    assert removed(played) == [("attacker", "infantry")]


def test_the_defender_is_checked_too_after_the_attacker() -> None:
    """LRR 16.3 holds for every player; each removes its own excess, the attacker first.
    A defender's space dock holds 3 fighters (docs/rulings.md R6): 5 fighters, 2 go.
    Faces: cruiser 1; cruiser 7 (hit), fighters 1 x3."""
    played = run(
        space(
            {"units": "1 cruiser, 1 infantry"},
            {"units": "1 cruiser, 5 fighter, 1 space_dock"},
        ),
        [1, 7, 1, 1, 1],
    )
    assert removed(played) == [
        ("attacker", "infantry"),
        ("defender", "fighter"),
        ("defender", "fighter"),
    ]


def test_fighter_ii_need_no_capacity() -> None:
    """docs/rulings.md R6: Fighter II have a move value and need no capacity (the fleet pool is
    not modelled). Faces: cruiser 1, fighters 9, 9 (hits); cruiser 1."""
    played = run(
        space({"units": "1 cruiser, 2 fighter", "upgrades": ["fighter"]}, {"units": "1 cruiser"}),
        [1, 9, 9, 1],
    )
    assert removed(played) == []


def test_a_side_left_without_ships_means_no_combat() -> None:
    """LRR 16.3: lone Fighter I have no capacity at all, so all go before the battle and no
    space combat follows (R14, R25). No dice."""
    played = run(space({"units": "2 fighter"}, {"units": "1 cruiser"}), [])
    assert removed(played) == [("attacker", "fighter")] * 2
    assert played.outcome["result"] == "no_combat"
    assert rolls(played) == []


def test_with_the_option_off_the_whole_fleet_fights() -> None:
    """Option check_capacity_before_battle: false (R31): the 6 fighters all roll, and the
    excess goes after the combat (ti4-space-combat.md 10.1, note 1). Faces: carrier 9 (hit),
    fighters 1 x6; cruiser 1."""
    played = run(
        space({"units": "1 carrier, 6 fighter"}, {"units": "1 cruiser"}, options=FIGHT_WHOLE),
        [9] + [1] * 7,
    )
    assert removed(played) == []
    assert removed(played, "beyond capacity after combat") == [("attacker", "fighter")] * 2
    assert dice_for(played, "attacker", "fighter") == [6]
    assert survivors(played, "attacker") == {"carrier": 1, "fighter": 4}


def notices(scenario: dict[str, object]) -> tuple[str, ...]:
    return battle(parse_scenario(scenario)).notices()


def test_the_notice_says_what_is_removed_and_why() -> None:
    """Battle.notices: one sentence per side over capacity, naming the rule and the units the
    stock policy removes (the odds report shows it)."""
    said = notices(space({"units": "1 carrier, 5 fighter, 1 infantry"}, {"units": "1 cruiser"}))
    assert said == (
        "The attacker's fighters and ground forces in the space area need capacity 6 but its "
        "ships have 4, so 2 are removed before the battle (LRR 16.3 note 1): 1 infantry, "
        "1 fighter, as the stock policy chooses.",
    )


def test_the_notice_counts_the_fighters_a_space_dock_holds() -> None:
    said = notices(space({"units": "1 cruiser"}, {"units": "1 cruiser, 5 fighter, 1 space_dock"}))
    assert len(said) == 1
    assert "besides the 3 fighters its space docks hold" in said[0]
    assert said[0].startswith("The defender's")
    assert "2 are removed before the battle (LRR 16.3 note 1): 2 fighter" in said[0]


def test_the_notice_with_the_option_off_says_the_fleet_fights_whole() -> None:
    said = notices(
        space({"units": "1 cruiser, 1 fighter"}, {"units": "1 cruiser"}, options=FIGHT_WHOLE)
    )
    assert len(said) == 1
    assert "check_capacity_before_battle: false they all fight" in said[0]


def test_no_notice_within_capacity() -> None:
    assert notices(space({"units": "1 carrier, 4 fighter"}, {"units": "1 cruiser"})) == ()


def test_an_invasion_is_not_checked_before_it_starts() -> None:
    """docs/rulings.md R24, R31: an invasion starts after the space combat, whose end already
    checked capacity; the check before the battle is for space battles."""
    scenario = invasion({"units": "1 dreadnought, 2 infantry"}, {"units": "1 infantry"})
    assert notices(scenario) == ()


@pytest.mark.parametrize(
    ("options", "field", "message"),
    [
        (
            {"check_capacity_after": True},
            "options.check_capacity_after",
            "unknown option for ruleset ti4; allowed: check_capacity_before_battle",
        ),
        (
            {"check_capacity_before_battle": 1},
            "options.check_capacity_before_battle",
            "must be true or false (got 1)",
        ),
        (
            {"check_capacity_before_battle": "false"},
            "options.check_capacity_before_battle",
            "must be true or false (got 'false')",
        ),
    ],
)
def test_ti4_options_are_read_strictly(options: object, field: str, message: str) -> None:
    """TI4 has rule options now (R31): an unknown one is refused naming the allowed ones, and a
    value that is not true or false is refused, never read as one."""
    with pytest.raises(ScenarioError) as caught:
        battle(
            parse_scenario(space({"units": "1 cruiser"}, {"units": "1 cruiser"}, options=options))
        )
    assert (caught.value.field, caught.value.message) == (field, message)
