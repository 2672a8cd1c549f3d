"""Into the Breach with Duranium Armor (docs/rulings.md 27Y-7 to 27Y-10): the card's "first 2
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
from spacecombat.core.errors import RuleNotImplemented
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


def test_refused_with_the_option_duranium_not_damaged_this_round() -> None:
    """27Y-10: with damage told apart by round, which damaged dreadnought is the chosen one is
    not kept: the pair is refused by name under that option."""
    scenario = ti3(
        {"units": {"dreadnought": 1}, **HOLDER},
        {"units": {"cruiser": 1}},
        options={"duranium_not_damaged_this_round": True},
    )
    with pytest.raises(RuleNotImplemented) as caught:
        odds(scenario)
    assert caught.value.where == "attacker.action_cards[0]"


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


def test_logs_replay_and_the_sampler_plays_as_the_resolver() -> None:
    scenario = ti3(
        {"units": {"dreadnought": 2, "cruiser": 1}, "damaged": {"dreadnought": 1}, **HOLDER},
        {"units": {"cruiser": 3}},
    )
    assert_logs_replay(scenario, seeds=8)
    assert_sampled_as_played(scenario, trials=40)
