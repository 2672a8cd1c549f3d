"""Space combat Step 3, Roll Dice (ti4-space-combat.md step 3; docs/rulings.md R5, R11): one
die per ship, one per burst icon; dice grouped by combat value and rolled in ascending value;
the attacker rolls all its dice before the defender; a result equal to or above the combat
value (after modifiers, e.g. the defender's +1 in a nebula) is a hit."""

from __future__ import annotations

from typing import Any

from spacecombat.core.engine import Played
from spacecombat.rulesets.ti4.state import BattleState
from tests.helpers import rolls, run, space

COMBAT = "space_combat"


def groups(played: Played[BattleState], index: int = 0) -> list[dict[str, Any]]:
    """The dice groups of the ``index``-th combat roll."""
    found = rolls(played, COMBAT)[index]["groups"]
    assert isinstance(found, list)
    return found


def test_one_die_per_ship() -> None:
    # ti4-space-combat.md step 3: one die for each ship. Faces: cruisers 7, 1, 1; cruiser 1.
    played = run(space({"units": "3 cruiser"}, {"units": "1 cruiser"}), [7, 1, 1, 1])
    assert [(g["unit"], g["faces"]) for g in groups(played)] == [("cruiser", [7, 1, 1])]


def test_a_war_sun_rolls_one_die_per_burst_icon() -> None:
    # ti4-space-combat.md step 3.1: War Sun, combat 3 (x3), rolls 3 dice.
    # Faces: war sun 3, 1, 1 (1 hit); cruiser 1.
    played = run(space({"units": "1 war_sun"}, {"units": "1 cruiser"}), [3, 1, 1, 1])
    assert [(g["unit"], g["faces"]) for g in groups(played)] == [("war_sun", [3, 1, 1])]


def test_groups_are_rolled_in_ascending_combat_value() -> None:
    # ti4-space-combat.md steps 3.2-3.3: war sun (3), dreadnought (5), cruiser (7), fighter (9).
    # Faces, in that order: 3, 1, 1 | 1 | 1 | 1 (1 hit); cruiser 1.
    played = run(
        space({"units": "1 fighter, 1 cruiser, 1 dreadnought, 1 war_sun"}, {"units": "1 cruiser"}),
        [3, 1, 1, 1, 1, 1, 1],
    )
    assert [(g["unit"], g["value"]) for g in groups(played)] == [
        ("war_sun", 3),
        ("dreadnought", 5),
        ("cruiser", 7),
        ("fighter", 9),
    ]


def test_the_scripted_faces_go_to_the_groups_in_rolling_order() -> None:
    # ti4-space-combat.md step 3.3: the first faces rolled are the lowest value's dice.
    # Faces: dreadnought 5 (hit); cruiser 1; then the defender's cruiser 1.
    played = run(space({"units": "1 cruiser, 1 dreadnought"}, {"units": "1 cruiser"}), [5, 1, 1])
    assert [(g["unit"], g["hits"]) for g in groups(played)] == [("dreadnought", 1), ("cruiser", 0)]


def test_the_attacker_rolls_all_its_dice_before_the_defender() -> None:
    # ti4-space-combat.md step 3.6: one roll for all the attacker's groups, then the defender's.
    # Faces, round 1: dreadnought 1, cruiser 1; dreadnought 5, cruiser 7 (the attacker sustains
    # and loses its cruiser). Round 2: dreadnought 1; dreadnought 5 (hit), cruiser 1.
    played = run(
        space({"units": "1 cruiser, 1 dreadnought"}, {"units": "1 cruiser, 1 dreadnought"}),
        [1, 1, 5, 7, 1, 5, 1],
    )
    first_round = rolls(played, COMBAT)[:2]
    assert [(e["player"], len(groups(played, i))) for i, e in enumerate(first_round)] == [
        ("attacker", 2),
        ("defender", 2),
    ]


def test_a_result_equal_to_the_combat_value_hits() -> None:
    # ti4-space-combat.md step 3: "equal to or greater than that unit's combat value".
    # Faces: cruisers 7 (hit), 6 (miss); cruiser 1.
    played = run(space({"units": "2 cruiser"}, {"units": "1 cruiser"}), [7, 6, 1])
    assert rolls(played, COMBAT)[0]["hits"] == 1


def test_a_result_below_the_combat_value_misses() -> None:
    # ti4-space-combat.md step 3. Faces: cruiser 6 (miss), cruiser 1; cruiser 7 (hit), 1.
    played = run(space({"units": "1 cruiser"}, {"units": "1 cruiser"}), [6, 1, 7, 1])
    assert [e["hits"] for e in rolls(played, COMBAT)] == [0, 0, 1, 0]


def test_hits_are_counted_over_all_groups() -> None:
    # ti4-space-combat.md step 3.4: the player counts each hit its rolls produce.
    # Faces: dreadnought 5 (hit); cruiser 7 (hit); fighter 10 (hit); defender's cruisers 1, 1.
    played = run(
        space({"units": "1 dreadnought, 1 cruiser, 1 fighter"}, {"units": "2 cruiser"}),
        [5, 7, 10, 1, 1],
    )
    assert rolls(played, COMBAT)[0]["hits"] == 3


def test_the_defender_gets_plus_one_in_a_nebula() -> None:
    # docs/rulings.md R11: in a nebula the defender adds 1 to its combat rolls; a defending
    # cruiser (7) hits on a 6. Faces: attacker cruiser 1; defender cruiser 6 (hit).
    played = run(
        space({"units": "1 cruiser"}, {"units": "1 cruiser"}, system={"anomaly": "nebula"}),
        [1, 6],
    )
    defence = groups(played, 1)[0]
    assert (defence["modifier"], defence["hit_on"], defence["hits"]) == (1, 6, 1)


def test_the_attacker_gets_no_bonus_in_a_nebula() -> None:
    # docs/rulings.md R11: only the defender (non-active player) gets the +1.
    # Faces: attacker cruiser 6 (miss); defender cruiser 6 (hit).
    played = run(
        space({"units": "1 cruiser"}, {"units": "1 cruiser"}, system={"anomaly": "nebula"}),
        [6, 6],
    )
    attack = groups(played, 0)[0]
    assert (attack["modifier"], attack["hit_on"], attack["hits"]) == (0, 7, 0)
