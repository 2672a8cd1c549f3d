"""Van Hauge, the Yin Brotherhood flagship (5 x2, SUSTAIN DAMAGE; data/units.toml;
docs/rulings.md 27S-42, 27S-43): before a space battle where it is, its owner's ground forces
and shock troops in the space area may fight as fighters (one die at 9 each), until the
battle ends or the flagship is destroyed (PC_Twi r_Yin.cpp e_YinFlagship).

Dice: a pool rolls its groups in ascending printed value (the flagship's 5s, then the ground
forces' 9s); in an exchange the attacker rolls before the defender."""

from __future__ import annotations

from fractions import Fraction
from functools import cache
from typing import Any, cast

from spacecombat import odds
from tests.helpers import assert_logs_replay, assert_sampled_as_played, events, rolls, run
from tests.ti3.effects import space

YIN = {"faction": "yin"}


def yin(units: dict[str, int], defender: dict[str, int], **attacker: Any) -> dict[str, Any]:
    return space({"units": units, **YIN, **attacker}, {"units": defender})


def test_the_ground_force_fights_as_a_fighter() -> None:
    """Round 1: flagship 1, 1; the ground force 9 (a hit: it rolls at 9); cruiser 1."""
    played = run(yin({"flagship": 1, "ground_force": 1}, {"cruiser": 1}), [1, 1, 9, 1])
    assert [e["card"] for e in events(played, "card_played")] == ["yin_flagship"]
    groups = cast("list[dict[str, Any]]", rolls(played, "space_combat")[0]["groups"])
    assert [(g["unit"], g["hit_on"]) for g in groups] == [("flagship", 5), ("ground_force", 9)]
    assert played.outcome["result"] == "attacker_win"


def test_it_is_taken_as_a_casualty_after_the_sustain() -> None:
    """Round 1: 1, 1, 1; cruiser 7: the flagship sustains. Round 2: 1, 1, 1; 7: the ground
    force is lost. Round 3: flagship 7, 1 (a hit); 1."""
    played = run(
        yin({"flagship": 1, "ground_force": 1}, {"cruiser": 1}),
        [1, 1, 1, 7, 1, 1, 1, 7, 7, 1, 1],
    )
    lost = [e["unit"] for e in events(played, "unit_destroyed") if e["player"] == "attacker"]
    assert lost == ["ground_force"]
    assert played.outcome["result"] == "attacker_win"


def test_declined_it_does_not_fight_and_cannot_be_hit() -> None:
    """policy never: round 1: flagship 1, 1; cruiser 7 (sustained); round 2: 5 (hit), 1; 1."""
    played = run(
        yin(
            {"flagship": 1, "ground_force": 1},
            {"cruiser": 1},
            policy={"play": {"yin_flagship": "never"}},
        ),
        [1, 1, 7, 5, 1, 1],
    )
    assert not events(played, "card_played")
    assert played.outcome["result"] == "attacker_win"


def test_the_barrage_may_hit_it() -> None:
    """The defender's destroyer fires its anti-fighter barrage (2 dice at 9) at the ground
    force fighting as a fighter: 9 (a hit), 1. Round 1: flagship 5 (a hit), 1; destroyer 1."""
    played = run(
        yin({"flagship": 1, "ground_force": 1}, {"destroyer": 1}),
        [9, 1, 5, 1, 1],
    )
    lost = [e["unit"] for e in events(played, "unit_destroyed") if e["player"] == "attacker"]
    assert lost == ["ground_force"]
    assert played.outcome["result"] == "attacker_win"


def test_when_the_flagship_falls_they_are_ground_forces_again() -> None:
    """Van Hauge (damaged) and a ground force against two cruisers. Round 1: flagship 1, 1;
    ground force 1; cruisers 7, 7: the stock attacker loses the ground force first, then the
    flagship (its last ship)."""
    played = run(
        space(
            {"units": {"flagship": 1, "ground_force": 1}, "damaged": {"flagship": 1}, **YIN},
            {"units": {"cruiser": 2}},
        ),
        [1, 1, 1, 7, 7],
    )
    lost = [e["unit"] for e in events(played, "unit_destroyed") if e["player"] == "attacker"]
    assert lost == ["ground_force", "flagship"]
    assert played.outcome["result"] == "defender_win"


@cache
def _model(damaged: int, ground: int) -> tuple[Fraction, Fraction, Fraction]:
    """(win, draw, loss) of Van Hauge (``damaged``) and ``ground`` ground forces fighting
    against a cruiser, by the rounds: the attacker hits at least once with a = 1 - (2/5)^2
    (4/5)^ground, the cruiser with p = 2/5; a round where neither hits repeats. The cruiser's
    hit is taken (the stock order) on the undamaged flagship's SUSTAIN DAMAGE, else on the
    ground force, else on the flagship; the flagship lost with the cruiser is a draw."""
    a = 1 - Fraction(2, 5) ** 2 * Fraction(4, 5) ** ground
    p = Fraction(2, 5)
    rest = 1 - (1 - a) * (1 - p)
    last = damaged and not ground
    if last:
        return a * (1 - p) / rest, a * p / rest, (1 - a) * p / rest
    after = _model(1, ground) if not damaged else _model(1, ground - 1)
    win = (a + (1 - a) * p * after[0]) / rest
    draw = (1 - a) * p * after[1] / rest
    loss = (1 - a) * p * after[2] / rest
    return win, draw, loss


def test_exact_odds_van_hauge_and_a_ground_force_against_a_cruiser() -> None:
    """Hand-derived by the recursion ``_model`` (an independent model of the rounds)."""
    report = odds(yin({"flagship": 1, "ground_force": 1}, {"cruiser": 1}), fractions=True)
    assert (report.attacker_win, report.draw, report.defender_win) == _model(0, 1)
    assert sum(_model(0, 1)) == 1


def test_with_sabotage_runs_it_is_played() -> None:
    """The rules that read fighters by name reach them (27T-12 to 27T-16: tests/ti3/flagships/
    test_van_hauge_*.py); no War Sun here, so no run. Round 1: flagship 5 (a hit), 1, ground
    force 1; cruiser 1."""
    scenario = space(
        {"units": {"flagship": 1, "ground_force": 1}, **YIN},
        {"units": {"cruiser": 1}},
        options={"sabotage_runs": True},
    )
    played = run(scenario, [5, 1, 1, 1])
    assert played.outcome["result"] == "attacker_win"


def test_logs_replay_and_the_sampler_plays_as_the_resolver() -> None:
    scenario = space(
        {"units": {"flagship": 1, "ground_force": 2, "shock_troop": 1}, **YIN},
        {"units": {"cruiser": 2, "destroyer": 1}},
        options={"shock_troops": True},
    )
    assert_logs_replay(scenario, seeds=6)
    assert_sampled_as_played(scenario, trials=30)


def test_once_the_flagship_is_gone_the_ground_force_neither_rolls_nor_is_hit() -> None:
    """The defender's Direct Hit destroys the damaged flagship outside the casualties: the
    ground force is a ground force again at once. Round 1: flagship 1, 1, carrier 1, ground
    force 1; cruisers 7, 1: the flagship sustains, Direct Hit destroys it. Round 2: the carrier
    alone rolls 1; cruisers 7, 1: the carrier is lost, not the ground force."""
    played = run(
        space(
            {"units": {"flagship": 1, "carrier": 1, "ground_force": 1}, **YIN},
            {"units": {"cruiser": 2}, "action_cards": ["direct_hit"]},
        ),
        [1, 1, 1, 1, 7, 1, 1, 7, 1],
    )
    second = rolls(played, "space_combat")[2]
    assert [g["unit"] for g in cast("list[dict[str, Any]]", second["groups"])] == ["carrier"]
    combat = [
        e["unit"]
        for e in events(played, "unit_destroyed")
        if e["player"] == "attacker" and e["cause"] == "space combat"
    ]
    assert combat == ["carrier"]
    assert played.outcome["result"] == "defender_win"


def test_the_stock_order_gives_a_ground_force_before_a_fighter() -> None:
    """27S-43: the stock casualty order. Round 1: flagship 1, 1, carrier 1, fighter 1, ground
    force 1; cruiser 7 (the flagship sustains). Round 2: the same; 7 (the ground force, not the
    fighter). Round 3: flagship 5, 5, the others 1; cruiser 1."""
    played = run(
        space(
            {"units": {"flagship": 1, "ground_force": 1, "fighter": 1, "carrier": 1}, **YIN},
            {"units": {"cruiser": 1}},
        ),
        [1, 1, 1, 1, 1, 7, 1, 1, 1, 1, 1, 7, 5, 5, 1, 1, 1],
    )
    taken = [
        (e["event"], e["unit"])
        for e in played.events
        if e["event"] in ("unit_destroyed", "damage_sustained") and e["player"] == "attacker"
    ]
    assert taken == [("damage_sustained", "flagship"), ("unit_destroyed", "ground_force")]


def test_the_rest_of_the_roll_that_destroys_the_flagship_may_still_take_them() -> None:
    """27S-42/27S-43 (PC_Twi's eq_AfterAssignDamage): the attacker keeps its ground forces
    back (policy keep), so the damaged flagship is lost first to three cruiser hits; the two
    hits left are still taken on the ground forces fighting as fighters. Round 1: flagship
    1, 1, ground forces 1, 1; cruisers 7, 7, 7."""
    played = run(
        space(
            {
                "units": {"flagship": 1, "ground_force": 2},
                "damaged": {"flagship": 1},
                "policy": {"keep": {"ground_force": 2}},
                **YIN,
            },
            {"units": {"cruiser": 3}},
        ),
        [1, 1, 1, 1, 7, 7, 7],
    )
    lost = [e["unit"] for e in events(played, "unit_destroyed") if e["player"] == "attacker"]
    assert lost == ["flagship", "ground_force", "ground_force"]
    assert played.outcome["result"] == "defender_win"
