"""Into the Breach with Duranium Armor (docs/rulings.md 27Y-7 to 27Y-9, 27Q-1): the card's "first 2
hits against that fleet" are counted as hits, so a chosen dreadnought Duranium Armor repairs
takes what is left of them (undamaged, it may use SUSTAIN DAMAGE again).

Dice: a pool rolls its groups in ascending printed value, then unit name (a dreadnought at 5
before a cruiser at 7, a destroyer at 9); in an exchange the attacker rolls before the
defender."""

from __future__ import annotations

from fractions import Fraction
from typing import Any

import pytest

from spacecombat import odds
from tests.helpers import assert_logs_replay, assert_sampled_as_played, events, run
from tests.ti3.effects import space as ti3

HOLDER = {"action_cards": ["into_the_breach"], "technologies": ["duranium_armor"]}


def _took(played: Any) -> list[tuple[str, str]]:
    """The attacker's hits taken, in order: ("sustained" or "destroyed", unit)."""
    said = []
    for e in played.events:
        if e.get("player") != "attacker":
            continue
        if e["event"] == "damage_sustained":
            said.append(("sustained", str(e["unit"])))
        elif e["event"] == "unit_destroyed":
            said.append(("destroyed", str(e["unit"])))
    return said


def test_a_repaired_chosen_dreadnought_takes_the_second_hit() -> None:
    """27Y-8. With ``sustain: last`` the stock player would lose its cruiser first. Round 1:
    1, 1; the defender 7, 1: the first hit on the dreadnought (sustained); Duranium Armor repairs
    it. Round 2, the same: the second hit is still its own (sustained again), repaired. Round 3,
    the same: the card's 2 hits are taken, the cruiser is lost. Rounds 4 and 5: the
    dreadnought's 4s destroy both cruisers."""
    scenario = ti3(
        {"units": {"dreadnought": 1, "cruiser": 1}, **HOLDER, "policy": {"sustain": "last"}},
        {"units": {"cruiser": 2}},
    )
    played = run(scenario, [1, 1, 7, 1, 1, 1, 7, 1, 1, 1, 7, 1, 4, 1, 1, 4, 1])
    assert _took(played) == [
        ("sustained", "dreadnought"),
        ("sustained", "dreadnought"),
        ("destroyed", "cruiser"),
    ]
    assert len(events(played, "unit_repaired")) == 2
    assert played.outcome["result"] == "attacker_win"


def test_a_damaged_chosen_dreadnought_repaired_before_any_hit_owes_both() -> None:
    """27Y-8. The dreadnought is damaged when chosen; round 1: 1, 1; the defender 1, 1 (no
    hit); it is repaired. Round 2: 1, 1; 7, 7: both hits on it (sustained, then destroyed),
    not on the cruiser. Round 3: the cruiser's 6 (with the card) and the defender's 1, 1;
    round 4: 6; 1."""
    scenario = ti3(
        {
            "units": {"dreadnought": 1, "cruiser": 1},
            "damaged": {"dreadnought": 1},
            **HOLDER,
            "policy": {"sustain": "last"},
        },
        {"units": {"cruiser": 2}},
    )
    played = run(scenario, [1, 1, 1, 1, 1, 1, 7, 7, 6, 1, 1, 6, 1])
    assert _took(played) == [("sustained", "dreadnought"), ("destroyed", "dreadnought")]
    assert played.outcome["result"] == "attacker_win"


def test_with_two_damaged_dreadnoughts_repairing_the_chosen_one_is_its_own_option() -> None:
    """27Y-9. Both dreadnoughts damaged, one chosen. Round 1: 1, 1; 1: the repair offers the
    chosen one apart; the stock player repairs it. Round 2: 1, 1; 7: the hit goes on the
    repaired one (sustained), not on the other damaged one; the chosen one is repaired again.
    Round 3: 4, 1 (a hit); 1."""
    scenario = ti3(
        {"units": {"dreadnought": 2}, "damaged": {"dreadnought": 2}, **HOLDER},
        {"units": {"cruiser": 1}},
    )
    played = run(scenario, [1, 1, 1, 1, 1, 7, 4, 1, 1])
    (first, *_) = [e for e in events(played, "choice_made") if e["decision"] == "repair"]
    assert first["options"] == [
        "repair dreadnought (damaged)",
        "repair dreadnought (damaged), chosen by Into the Breach",
    ]
    assert first["choice"] == "repair dreadnought (damaged), chosen by Into the Breach"
    assert _took(played)[0] == ("sustained", "dreadnought")


def test_repairing_the_other_dreadnought_leaves_the_chosen_one_owing() -> None:
    """27Y-9. The attacker repairs the other damaged dreadnought: the chosen one, still
    damaged, takes the next hit and is destroyed (the undamaged one could have sustained it).
    Round 1: 1, 1; 1. Round 2: 1, 1; 7. Round 3: 4; 1."""
    scenario = ti3(
        {"units": {"dreadnought": 2}, "damaged": {"dreadnought": 2}, **HOLDER},
        {"units": {"cruiser": 1}},
    )
    played = run(
        scenario,
        [1, 1, 1, 1, 1, 7, 4, 1],
        attacker=[
            "play into_the_breach",
            "repair dreadnought (damaged)",
            "destroy dreadnought (damaged)",
            "repair dreadnought (damaged)",
        ],
    )
    assert _took(played) == [("destroyed", "dreadnought")]
    (hit,) = events(played, "choice_made", decision="assign_hit", player="attacker")
    assert hit["options"] == ["destroy dreadnought (damaged)"]


TOLD_APART = {"duranium_not_damaged_this_round": True}


def _offered(played: Any, decision: str) -> list[object]:
    """The options of each of the attacker's ``decision`` choices, in order."""
    return [
        e["options"] for e in events(played, "choice_made", decision=decision, player="attacker")
    ]


def test_told_apart_the_second_hit_goes_on_the_chosen_one_damaged_this_round() -> None:
    """27Q-1, under ``duranium_not_damaged_this_round``. The chosen dreadnought (the undamaged
    one) and another damaged before the battle. Round 1: 1, 1; the defender 7, 7: the first
    hit is sustained by the chosen one, the second must go on it too (damaged this round), not
    on the other damaged one. Round 2: 4; 1, 1. Round 3: 4; 1."""
    scenario = ti3(
        {"units": {"dreadnought": 2}, "damaged": {"dreadnought": 1}, **HOLDER},
        {"units": {"cruiser": 2}},
        options=TOLD_APART,
    )
    played = run(scenario, [1, 1, 7, 7, 4, 1, 1, 4, 1])
    assert _took(played) == [("sustained", "dreadnought"), ("destroyed", "dreadnought")]
    assert _offered(played, "assign_hit")[1] == ["destroy dreadnought (sustained this round)"]
    assert played.outcome["result"] == "attacker_win"


def test_told_apart_the_repair_is_the_other_ones_and_the_chosen_one_still_owes() -> None:
    """27Q-1. The same fleets. Round 1: 1, 1; 7, 1: the chosen one sustains the first hit; at
    the round's end only the dreadnought damaged before may be repaired (the chosen one was
    damaged this round), and that repair leaves the chosen one owing. Round 2: 1, 1; 7, 1: the
    second hit goes on the chosen one (now damaged, destroyed), not on the repaired one.
    Round 3: 4; 1, 1. Round 4: 4; 1."""
    scenario = ti3(
        {"units": {"dreadnought": 2}, "damaged": {"dreadnought": 1}, **HOLDER},
        {"units": {"cruiser": 2}},
        options=TOLD_APART,
    )
    played = run(scenario, [1, 1, 7, 1, 1, 1, 7, 1, 4, 1, 1, 4, 1])
    assert _offered(played, "repair")[0] == ["repair dreadnought (damaged)"]
    assert _offered(played, "assign_hit")[1] == ["destroy dreadnought (damaged)"]
    assert _took(played) == [("sustained", "dreadnought"), ("destroyed", "dreadnought")]
    assert played.outcome["result"] == "attacker_win"


@pytest.mark.parametrize(
    ("told_apart", "expected"),
    [
        (True, (Fraction(469, 499), Fraction(21, 499), Fraction(9, 499))),
        (False, (Fraction(1), Fraction(0), Fraction(0))),
    ],
)
def test_exact_odds_a_lone_chosen_dreadnought_against_a_cruiser(
    told_apart: bool, expected: tuple[Fraction, Fraction, Fraction]
) -> None:
    """Hand-derived (27Q-1). With the card the dreadnought hits on 4 (p = 7/10), the cruiser on
    7 (q = 2/5). Undamaged (U): the dreadnought hits (7/10) and wins (a cruiser's hit is
    sustained); both miss (18/100): U again; only the cruiser hits (12/100): damaged. Under
    the option it is not repaired that round (damaged this round): next round it is damaged
    (D): the cruiser's hit destroys it (with its own hit, 28/100, both destroyed; alone,
    12/100, lost); the dreadnought alone hits (42/100): won; both miss (18/100): repaired, U.
    W_U = 7/10 + 12/100 W_D + 18/100 W_U, W_D = 42/100 + 18/100 W_U: W_U = 7504/7984 =
    469/499; draw 0.12 x 0.28 / 0.7984 = 21/499; lost 0.12 x 0.12 / 0.7984 = 9/499. With the
    default rule the sustained hit is repaired at the same round's end: it never dies, won 1."""
    scenario = ti3(
        {"units": {"dreadnought": 1}, **HOLDER},
        {"units": {"cruiser": 1}},
        options={"duranium_not_damaged_this_round": told_apart},
    )
    report = odds(scenario, fractions=True)
    assert (report.attacker_win, report.draw, report.defender_win) == expected


def test_exact_odds_a_damaged_chosen_dreadnought_and_a_destroyer_against_a_cruiser() -> None:
    """Hand-derived. With the card the dreadnought hits on 4 (7/10), the destroyer on 8 (3/10);
    the cruiser on 7 (2/5). Round 1: the attacker scores a hit with 1 - 3/10 x 7/10 = 79/100
    and wins (a cruiser's hit destroys the damaged dreadnought, the destroyer is left). Both
    miss (21/100 x 3/5 = 126/1000): the dreadnought is repaired, owing 2 hits; from then on a
    hit is sustained and repaired at the round's end: the attacker loses nothing and wins. The
    attacker misses, the cruiser hits (21/100 x 2/5 = 84/1000): the dreadnought is destroyed;
    the destroyer (3/10) against the cruiser (2/5): win 9/29, both destroyed 6/29, lost 14/29.
    Attacker 79/100 + 126/1000 + 84/1000 x 9/29; draw 84/1000 x 6/29; defender 84/1000 x
    14/29."""
    scenario = ti3(
        {"units": {"dreadnought": 1, "destroyer": 1}, "damaged": {"dreadnought": 1}, **HOLDER},
        {"units": {"cruiser": 1}},
    )
    report = odds(scenario, fractions=True)
    m = Fraction(84, 1000)
    assert (report.attacker_win, report.draw, report.defender_win) == (
        Fraction(79, 100) + Fraction(126, 1000) + m * Fraction(9, 29),
        m * Fraction(6, 29),
        m * Fraction(14, 29),
    )


@pytest.mark.parametrize("told_apart", [False, True])
def test_logs_replay_and_the_sampler_plays_as_the_resolver(told_apart: bool) -> None:
    scenario = ti3(
        {"units": {"dreadnought": 2, "cruiser": 1}, "damaged": {"dreadnought": 1}, **HOLDER},
        {"units": {"cruiser": 3}},
        options={"duranium_not_damaged_this_round": told_apart},
    )
    assert_logs_replay(scenario, seeds=8)
    assert_sampled_as_played(scenario, trials=40)
