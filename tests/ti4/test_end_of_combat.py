"""The end of a space combat (ti4-space-combat.md rules 8-10, notes 1 and 13; docs/rulings.md
R6): rounds repeat from Announce Retreats while both players have ships; the player with ships
left wins, neither: a draw; then the winner removes fighters and ground forces beyond its
capacity (Fighter II need none; a space dock holds 3 fighters)."""

from __future__ import annotations

import pytest

from spacecombat.core.engine import Played
from spacecombat.rulesets.ti4.state import BattleState
from tests.helpers import events, run, space, survivors
from tests.ti4.scenarios import space_over_capacity

AFTER_COMBAT = "beyond capacity after combat"


def result(played: Played[BattleState]) -> tuple[object, object]:
    return played.outcome["result"], played.outcome["winner"]


def removed(played: Played[BattleState], reason: str = AFTER_COMBAT) -> list[tuple[object, object]]:
    return [(e["player"], e["unit"]) for e in events(played, "unit_removed", reason=reason)]


# --- Rule 10: winner, loser, draw ------------------------------------------------------------


@pytest.mark.parametrize(
    ("faces", "expected"),
    [
        ([7, 1], ("attacker_win", "attacker")),
        ([1, 7], ("defender_win", "defender")),
    ],
)
def test_the_player_with_ships_left_wins(faces: list[int], expected: tuple[str, str]) -> None:
    # ti4-space-combat.md rule 10. Faces: attacker's cruiser; defender's cruiser.
    played = run(space({"units": "1 cruiser"}, {"units": "1 cruiser"}), faces)
    assert result(played) == expected


def test_a_draw_when_neither_player_has_ships_left() -> None:
    # ti4-space-combat.md rule 10: "the combat ends in a draw and there is no winner".
    # Faces: both cruisers hit.
    played = run(space({"units": "1 cruiser"}, {"units": "1 cruiser"}), [7, 7])
    assert result(played) == ("draw", None)


def test_a_player_that_retreated_loses() -> None:
    # ti4-space-combat.md rule 10: the defender is the one with ships left in the system.
    # Faces: cruiser 1; cruiser 1; then the attacker retreats.
    played = run(
        space(
            {"units": "1 cruiser", "policy": {"retreat": {"after_round": 0}}},
            {"units": "1 cruiser"},
            system={"adjacent": [{"name": "home", "units": ["attacker"]}]},
        ),
        [1, 1],
    )
    assert result(played) == ("defender_win", "defender")


# --- Rules 8 and 9: rounds repeat -------------------------------------------------------------


def test_rounds_repeat_while_both_players_have_ships() -> None:
    # ti4-space-combat.md rules 8-9. Faces: two rounds of misses, then cruiser 7 (hit), 1.
    played = run(space({"units": "1 cruiser"}, {"units": "1 cruiser"}), [1, 1, 1, 1, 7, 1])
    assert [e["round"] for e in events(played, "round_started")] == [1, 2, 3]
    assert played.outcome["rounds"] == 3


def test_later_rounds_begin_with_announce_retreats() -> None:
    # ti4-space-combat.md rule 8: "beginning with the Announce Retreats step" (no barrage,
    # which is round 1 only). Faces: round 1 destroyer AFB 1, 1; destroyer 1; cruiser 1.
    # Round 2: destroyer 9 (hit); cruiser 1.
    played = run(
        space(
            {"units": "1 destroyer"},
            {"units": "1 cruiser"},
            system={"adjacent": [{"name": "haven", "units": ["defender"]}]},
        ),
        [1, 1, 1, 1, 9, 1],
    )
    log = list(played.events)
    second = next(
        i for i, e in enumerate(log) if e.get("event") == "round_started" and e["round"] == 2
    )
    following = next(e for e in log[second + 1 :] if e["event"] != "window_opened")
    assert (following["event"], following["player"], following["decision"]) == (
        "choice_made",
        "defender",
        "announce_retreat",
    )


def test_the_combat_ends_when_one_player_has_no_ships() -> None:
    # ti4-space-combat.md rule 9: no further round once the defender's ships are gone.
    played = run(space({"units": "1 cruiser"}, {"units": "1 cruiser"}), [7, 1])
    assert [e["round"] for e in events(played, "round_started")] == [1]
    assert [e["rounds"] for e in events(played, "combat_ended")] == [1]


# --- Rule 10.1, notes 1 and 13: capacity after the combat -------------------------------------


def test_fighters_do_not_count_against_capacity_during_combat() -> None:
    # ti4-space-combat.md note 1: all 6 fighters roll although the carrier holds 4.
    # Faces: carrier 9 (hit), fighters 1 x6; cruiser 1.
    played = run(
        space_over_capacity({"units": "1 carrier, 6 fighter"}, {"units": "1 cruiser"}),
        [9] + [1] * 7,
    )
    [attack] = events(played, "dice_rolled", player="attacker")
    groups = attack["groups"]
    assert isinstance(groups, list)
    assert [(g["unit"], len(g["faces"])) for g in groups] == [("carrier", 1), ("fighter", 6)]


def test_the_winner_removes_fighter_i_beyond_capacity() -> None:
    # ti4-space-combat.md rule 10.1: the carrier holds 4 of the 6 Fighter I.
    played = run(
        space_over_capacity({"units": "1 carrier, 6 fighter"}, {"units": "1 cruiser"}),
        [9] + [1] * 7,
    )
    assert removed(played) == [("attacker", "fighter"), ("attacker", "fighter")]
    assert survivors(played, "attacker") == {"carrier": 1, "fighter": 4}


def test_capacity_is_checked_after_the_winner_is_decided() -> None:
    # ti4-space-combat.md note 13: the attacker wins with only fighters left, then loses them.
    # Faces: carrier 1, fighters 9 (hit), 1; cruiser 7 (hit: the carrier is lost, by the
    # scenario's casualty order).
    played = run(
        space(
            {"units": "1 carrier, 2 fighter", "policy": {"casualty_order": ["carrier", "fighter"]}},
            {"units": "1 cruiser"},
        ),
        [1, 9, 1, 7],
    )
    assert result(played) == ("attacker_win", "attacker")
    assert removed(played) == [("attacker", "fighter"), ("attacker", "fighter")]


def test_the_winner_removes_ground_forces_beyond_capacity() -> None:
    # ti4-space-combat.md rule 10.1: Cruiser I has no capacity.
    # Faces: cruiser 7 (hit); cruiser 1.
    played = run(
        space_over_capacity({"units": "1 cruiser, 2 infantry"}, {"units": "1 cruiser"}), [7, 1]
    )
    assert removed(played) == [("attacker", "infantry"), ("attacker", "infantry")]


def test_capacity_removals_come_after_the_last_round() -> None:
    # ti4-space-combat.md note 13: the check happens once the combat is over.
    played = run(
        space_over_capacity({"units": "1 cruiser, 2 infantry"}, {"units": "1 cruiser"}), [7, 1]
    )
    order = [
        e["event"]
        for e in played.events
        if e["event"] in ("round_ended", "unit_removed", "battle_ended")
    ]
    assert order == ["round_ended", "unit_removed", "unit_removed", "battle_ended"]


def test_fighter_ii_are_kept_beyond_capacity() -> None:
    # docs/rulings.md R6: Fighter II have a move value and need no capacity (the fleet pool is
    # not modelled). Faces: cruiser 7 (hit), fighters 1, 1; cruiser 1.
    played = run(
        space({"units": "1 cruiser, 2 fighter", "upgrades": ["fighter"]}, {"units": "1 cruiser"}),
        [7, 1, 1, 1],
    )
    assert events(played, "unit_removed") == []
    assert survivors(played, "attacker") == {"cruiser": 1, "fighter": 2}


def test_a_space_dock_holds_three_fighters() -> None:
    # docs/rulings.md R6: up to 3 fighters in the dock's system need no capacity; the
    # defender keeps 3 of 5. Faces: cruiser 1; cruiser 7 (hit), fighters 1 x5.
    played = run(
        space_over_capacity(
            {"units": "1 cruiser"}, {"units": "1 cruiser, 5 fighter, 1 space_dock"}
        ),
        [1, 7, 1, 1, 1, 1, 1],
    )
    assert removed(played) == [("defender", "fighter"), ("defender", "fighter")]
    assert survivors(played, "defender") == {"cruiser": 1, "fighter": 3}


def test_the_loser_keeps_no_units_in_space() -> None:
    # docs/rulings.md R6: a player with no ships has no capacity; its infantry in space goes.
    # Faces: carrier 1; cruiser 7 (hit).
    played = run(space({"units": "1 carrier, 2 infantry"}, {"units": "1 cruiser"}), [1, 7])
    assert removed(played, "no ships to carry it") == [
        ("attacker", "infantry"),
        ("attacker", "infantry"),
    ]
    assert survivors(played, "attacker") == {}
