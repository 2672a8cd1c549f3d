"""Van Hauge's ground forces on the system's planets (docs/rulings.md 27T-16): PC_Twi (r_Yin.cpp
``VanHaugeEnable``) lets the owner pick ground forces and shock troops "in the system", in space
or on its planets; each picked gets ``uaNeedSupport`` (it needs fighter capacity) and one from a
planet is moved into space; ``VanHaugeDisable`` lands it on its planet again when the flagship
is gone (after that roll's damage) and after the battle. The engine takes up, as far as the
fleet has room (capacity and space docks' fighter support left after its ground units and
fighters in space), ground forces first, then shock troops; they land when they stop fighting,
when their fleet withdraws or retreats, and at the battle's end.

Dice: the pool rolls the flagship's 5s, then the 9s; the attacker before the defender."""

from __future__ import annotations

from fractions import Fraction
from typing import Any

from spacecombat import odds
from tests.helpers import assert_logs_replay, assert_sampled_as_played, events, run
from tests.ti3.effects import space
from tests.ti3.flagships.van_hauge_model import against_a_cruiser

YIN = {"faction": "yin"}


def yin(units: dict[str, int], planet: dict[str, int], **extra: Any) -> dict[str, Any]:
    side = {"units": units, "planet_units": planet, **YIN, **extra.pop("attacker", {})}
    return space(side, {"units": {"cruiser": 1}}, **extra)


def lifted(played: Any) -> list[object]:
    return [e["units"] for e in events(played, "ground_forces_lifted")]


def planet_units(played: Any) -> dict[str, int]:
    attacker = played.outcome["attacker"]
    return {u["unit"]: u["count"] for u in attacker["planets"][0]}


def test_they_are_taken_up_fight_and_land_again() -> None:
    """Two ground forces on the planets, room 4 on the flagship: both taken up. Round 1:
    flagship 1, 1, ground forces 9 (a hit), 1; cruiser 1. At the battle's end they are on the
    planets again."""
    played = run(yin({"flagship": 1}, {"ground_force": 2}), [1, 1, 9, 1, 1])
    assert lifted(played) == [{"ground_force": 2}]
    assert played.outcome["result"] == "attacker_win"
    assert planet_units(played) == {"ground_force": 2}
    attacker: Any = played.outcome["attacker"]
    assert attacker["space"] == [{"unit": "flagship", "count": 1}]


def test_as_far_as_there_is_room_ground_forces_first() -> None:
    """The flagship carries 4: two ground forces and a fighter in space leave room for one;
    the planets' ground force is taken, the shock troop stays. Round 1: flagship 5 (a hit),
    1; fighter 1; ground forces 1, 1, 1; cruiser 1."""
    played = run(
        yin(
            {"flagship": 1, "fighter": 1, "ground_force": 2},
            {"ground_force": 1, "shock_troop": 1},
            options={"shock_troops": True},
        ),
        [5, 1, 1, 1, 1, 1, 1],
    )
    assert lifted(played) == [{"ground_force": 1}]
    assert planet_units(played) == {"ground_force": 1, "shock_troop": 1}


def test_no_room_none_are_taken() -> None:
    """Four fighters fill the flagship: the planets' ground force stays down and does not
    roll. Round 1: flagship 5, 1; fighters 1 x4; cruiser 1."""
    played = run(yin({"flagship": 1, "fighter": 4}, {"ground_force": 1}), [5, 1, 1, 1, 1, 1, 1])
    assert lifted(played) == []
    assert not events(played, "card_played")


def test_when_the_flagship_falls_they_land() -> None:
    """The damaged flagship and the ground force taken up (kept back: policy keep): round 1:
    1, 1, 1; cruiser 7: the flagship is lost; the ground force lands: the Yin have no ship."""
    played = run(
        yin(
            {"flagship": 1},
            {"ground_force": 1},
            attacker={"damaged": {"flagship": 1}, "policy": {"keep": {"ground_force": 1}}},
        ),
        [1, 1, 1, 7],
    )
    assert played.outcome["result"] == "defender_win"
    assert planet_units(played) == {"ground_force": 1}


def test_a_withdrawing_fleet_leaves_them_on_the_planets() -> None:
    """The Yin withdraw after round 1 (retreat after_round 1): round 1: 1, 1, 1; cruiser 1.
    The ground force taken up lands; the flagship alone moves to B."""
    played = run(
        yin(
            {"flagship": 1},
            {"ground_force": 1},
            attacker={"policy": {"retreat": {"after_round": 1}}},
            system={"adjacent": [{"name": "B", "command_tokens": ["attacker"]}]},
        ),
        [1, 1, 1, 1],
    )
    (went,) = events(played, "withdrawal_executed")
    assert went["units"] == [{"unit": "flagship", "count": 1}]
    assert planet_units(played) == {"ground_force": 1}


def test_exact_odds_two_taken_up() -> None:
    """Hand-derived: the two ground forces fight as those in space would
    (tests/ti3/flagships/van_hauge_model.py, misses 8/10); declined, the flagship alone."""
    report = odds(yin({"flagship": 1}, {"ground_force": 2}), fractions=True)
    expected = against_a_cruiser(0, 2, Fraction(4, 5))
    assert (report.attacker_win, report.draw, report.defender_win) == expected
    assert expected == (
        Fraction(560864670889, 560890885289),
        Fraction(3145728, 80127269327),
        Fraction(4194304, 560890885289),
    )
    declined = odds(
        yin(
            {"flagship": 1},
            {"ground_force": 2},
            attacker={"policy": {"play": {"yin_flagship": "never"}}},
        ),
        fractions=True,
    )
    alone = against_a_cruiser(0, 0, Fraction(4, 5))
    assert (declined.attacker_win, declined.draw, declined.defender_win) == alone


def test_logs_replay_and_the_sampler_plays_as_the_resolver() -> None:
    scenario = space(
        {"units": {"flagship": 1, "carrier": 1}, "planet_units": {"ground_force": 3}, **YIN},
        {"units": {"cruiser": 2, "destroyer": 1}},
    )
    assert_logs_replay(scenario, seeds=6)
    assert_sampled_as_played(scenario, trials=30)


def test_those_in_space_alone_may_be_chosen() -> None:
    """The second option: the ground force in space fights, the planets' stays down. Round 1:
    flagship 1, 1, ground force 9 (a hit); cruiser 1."""
    played = run(
        yin({"flagship": 1, "ground_force": 1}, {"ground_force": 2}),
        [1, 1, 9, 1],
        attacker=["play yin_flagship: 1 ground forces in space as fighters"],
    )
    (asked,) = [e for e in events(played, "choice_made") if e["decision"] == "play_card"]
    assert asked["options"] == [
        "play yin_flagship: 3 ground forces as fighters, 2 taken up from the planets",
        "play yin_flagship: 1 ground forces in space as fighters",
        "pass",
    ]
    assert lifted(played) == []
    assert planet_units(played) == {"ground_force": 2}
