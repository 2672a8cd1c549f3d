"""Blitz (action card; abilities/blitz.py): at the start of an invasion, each of your non-fighter
ships in the system without BOMBARDMENT gains BOMBARDMENT 6 for the invasion
(ti4-combat-effects.md §6; data/cards.toml). Played by the attacker through the "play_card"
decision at the start of the invasion, before step 1 BOMBARDMENT (invasion.py
``at_invasion_start``; the added dice through ``bombardment_roll``)."""

from __future__ import annotations

from collections.abc import Mapping
from fractions import Fraction
from typing import Any, cast

import pytest

from spacecombat import odds
from spacecombat.core.engine import Played
from spacecombat.core.errors import ScenarioError
from spacecombat.replayer import replay
from spacecombat.resolver import resolve
from spacecombat.rulesets.ti4.state import BattleState
from tests.helpers import events, invasion, rolls, run, survivors


def _groups(roll: Mapping[str, object]) -> list[dict[str, Any]]:
    """The dice groups of a ``dice_rolled`` event."""
    return cast("list[dict[str, Any]]", roll["groups"])


def scenario(attacker: str = "1 cruiser, 1 infantry", **extra: Any) -> dict[str, Any]:
    return invasion(
        {"units": attacker, "action_cards": ["blitz"], **extra}, {"units": "1 infantry"}
    )


def groups(played: Played[BattleState]) -> list[tuple[str, int, int]]:
    return [
        (g["unit"], len(g["faces"]), g["hit_on"])
        for r in rolls(played, "bombardment")
        for g in _groups(r)
    ]


def test_a_cruiser_bombards_on_six() -> None:
    played = run(scenario(), [6])
    [card] = events(played, "card_played")
    assert (card["player"], card["card"], card["round"]) == ("attacker", "blitz", 0)
    assert groups(played) == [("cruiser", 1, 6)]
    assert survivors(played, "defender", "planet") == {}


def test_a_five_misses() -> None:
    played = run(scenario(), [5, 10, 1])
    assert survivors(played, "attacker", "planet") == {"infantry": 1}
    assert len(rolls(played, "ground_combat")) == 2


def test_ships_with_bombardment_keep_theirs_and_fighters_gain_none() -> None:
    played = run(scenario("1 dreadnought, 2 carrier, 2 fighter, 1 infantry"), [1, 1, 1, 10, 1])
    assert sorted(groups(played)) == [("carrier", 2, 6), ("dreadnought", 1, 5)]


def test_policy_never_keeps_it() -> None:
    played = run(scenario(policy={"play": {"blitz": "never"}}), [10, 1])
    assert not events(played, "card_played")
    assert not rolls(played, "bombardment")


def test_a_scripted_pass() -> None:
    played = run(scenario(), [10, 1], attacker=["pass"])
    assert not rolls(played, "bombardment")


def test_not_offered_without_a_ship_to_arm() -> None:
    played = run(scenario("1 dreadnought, 2 fighter, 1 infantry"), [5])
    assert not events(played, "choice_made", decision="play_card")


def test_not_offered_against_an_empty_planet() -> None:
    sc = invasion({"units": "1 cruiser, 1 infantry", "action_cards": ["blitz"]}, {"units": "1 pds"})
    played = run(sc, [1])  # the PDS's space cannon defense
    assert not events(played, "choice_made", decision="play_card")


def test_the_defenders_blitz_does_nothing() -> None:
    sc = invasion(
        {"units": "1 cruiser, 1 infantry"}, {"units": "1 infantry", "action_cards": ["blitz"]}
    )
    played = run(sc, [10, 1])
    assert not events(played, "card_played")


def two_planets(a_by: dict[str, int], b_by: dict[str, int], **extra: Any) -> dict[str, Any]:
    """Planet A (1 infantry, 1 infantry lands) and B (1 infantry, 2 infantry land), with the
    bombardment allotted as given (docs/rulings.md 14K-1)."""
    return invasion(
        {"units": "1 cruiser, 1 carrier, 3 infantry", "action_cards": ["blitz"], **extra},
        {},
        planets=[
            {
                "name": "A",
                "defender": "1 infantry",
                "commit": {"infantry": 1},
                "bombarded_by": a_by,
            },
            {
                "name": "B",
                "defender": "1 infantry",
                "commit": {"infantry": 2},
                "bombarded_by": b_by,
            },
        ],
    )


def test_several_planets_each_armed_ship_bombards_the_planet_it_is_allotted_to() -> None:
    """14K-1: ``bombarded_by`` allots the ships Blitz arms as it allots printed bombarders."""
    played = run(two_planets({"cruiser": 1}, {"carrier": 1}), [6, 5, 8, 1, 1])
    a, b = rolls(played, "bombardment")
    assert [(g["unit"], len(g["faces"]), g["hit_on"]) for g in _groups(a)] == [("cruiser", 1, 6)]
    assert [(g["unit"], len(g["faces"]), g["hit_on"]) for g in _groups(b)] == [("carrier", 1, 6)]
    assert [e["planet"] for e in events(played, "control_established")] == ["A", "B"]


def test_a_ship_allotted_nowhere_does_not_bombard() -> None:
    played = run(two_planets({"cruiser": 1}, {}), [6, 8, 1, 1])
    [roll] = rolls(played, "bombardment")
    assert [g["unit"] for g in _groups(roll)] == ["cruiser"]


def test_not_offered_when_no_armed_ship_is_allotted() -> None:
    """Several planets and no ``bombarded_by``: no ship bombards, so Blitz changes nothing."""
    sc = two_planets({}, {})
    for planet in sc["planets"]:
        del planet["bombarded_by"]
    played = run(sc, [8, 1, 8, 1, 1])
    assert not events(played, "choice_made", decision="play_card")
    assert not rolls(played, "bombardment")


def test_one_planet_allotted_by_hand_leaves_the_others_out() -> None:
    sc = scenario("1 dreadnought, 1 cruiser, 1 infantry")
    sc["planets"] = [
        {"name": "A", "defender": "1 infantry", "bombarded_by": {"dreadnought": 1}},
    ]
    del sc["defender"]["units"]
    played = run(sc, [1, 10, 1])
    assert not events(played, "choice_made", decision="play_card")
    assert groups(played) == [("dreadnought", 1, 5)]


def test_without_blitz_a_ship_without_bombardment_cannot_be_allotted() -> None:
    sc = two_planets({"carrier": 1}, {})
    del sc["attacker"]["action_cards"]
    with pytest.raises(ScenarioError, match=r"planets\[0\]\.bombarded_by\.carrier"):
        odds(sc)


def test_the_allotment_decides_the_exact_odds() -> None:
    """A: the cruiser bombards on 6, then 1 infantry against 1 (attacker 12/17, below).
    B: 2 infantry against 1, each hitting on 8 (p = 3/10): a round ends it with 1 - 0.7^2 =
    0.51 (won), goes to 1 against 1 with 0.49 * 0.3 = 0.147, repeats with 0.343; won
    0.51/0.657 + 0.147/0.657 * 7/17 = 3233/3723, lost 0.147/0.657 * 7/17 = 343/3723.
    The planets are fought independently: the attacker wins both with 12/17 * 3233/3723, the
    defender both with 7/34 * 343/3723. With the cruiser at B instead, the figures differ."""
    found = odds(two_planets({"cruiser": 1}, {}))
    both = Fraction(12, 17) * Fraction(3233, 3723)
    assert found.attacker_win == pytest.approx(float(both), abs=1e-12)
    lost = Fraction(7, 34) * Fraction(343, 3723)
    assert found.defender_win == pytest.approx(float(lost), abs=1e-12)
    other = odds(two_planets({}, {"cruiser": 1}))
    assert other.attacker_win != pytest.approx(float(both), abs=1e-6)


def test_a_log_with_two_planets_replays() -> None:
    seeded = resolve(two_planets({"cruiser": 1}, {"carrier": 1}), seed=3)
    assert events(seeded, "card_played", card="blitz")
    report = replay(list(seeded.events))
    assert report.reproduces, report.reason


def test_exact_odds_hand_derived() -> None:
    """The cruiser bombards on 6 (1/2) and kills the lone defender; otherwise 1 infantry fights
    1, each hitting on 8 (3/10): won 7/17, drawn 3/17. Attacker 1/2 + 1/2 * 7/17 = 12/17, draw
    1/2 * 3/17 = 3/34, defender 7/34."""
    found = odds(scenario())
    assert found.attacker_win == pytest.approx(float(Fraction(12, 17)), abs=1e-12)
    assert found.draw == pytest.approx(float(Fraction(3, 34)), abs=1e-12)
    assert found.defender_win == pytest.approx(float(Fraction(7, 34)), abs=1e-12)
