"""Disable (action card; abilities/disable.py): at the start of an invasion, your opponent's PDS
in the system lose PLANETARY SHIELD and SPACE CANNON for the invasion (ti4-combat-effects.md §6;
data/cards.toml). Played by the attacker through the "play_card" decision at the start of the
invasion (invasion.py ``at_invasion_start``); step 1 BOMBARDMENT then ignores the PDS's shield
and step 3 SPACE CANNON DEFENSE has no PDS fire (``loses_ability``)."""

from __future__ import annotations

from fractions import Fraction
from typing import Any

import pytest

from spacecombat import odds
from tests.helpers import events, invasion, rolls, run, survivors


def scenario(defender: str = "1 infantry, 1 pds", **extra: Any) -> dict[str, Any]:
    return invasion(
        {"units": "1 dreadnought, 1 infantry", "action_cards": ["disable"], **extra},
        {"units": defender},
    )


def test_the_pds_neither_shields_nor_fires() -> None:
    played = run(scenario(), [5])
    [card] = events(played, "card_played")
    assert (card["player"], card["card"], card["round"]) == ("attacker", "disable", 0)
    assert not events(played, "bombardment_blocked")
    assert not rolls(played, "space_cannon_defense")
    assert survivors(played, "defender", "planet") == {}  # the PDS is destroyed with control


def test_without_it_the_shield_blocks_and_the_pds_fires() -> None:
    played = run(scenario(policy={"play": {"disable": "never"}}), [1, 10, 1])
    assert not events(played, "card_played")
    assert events(played, "bombardment_blocked", reason="planetary shield")
    assert len(rolls(played, "space_cannon_defense")) == 1


def test_a_scripted_pass() -> None:
    played = run(scenario(), [1, 10, 1], attacker=["pass"])
    assert events(played, "bombardment_blocked")


def test_another_units_shield_stays_up() -> None:
    # units.toml: the Arborec mech has PLANETARY SHIELD too; Disable takes it only from PDS
    sc = invasion(
        {"units": "1 dreadnought, 1 infantry", "action_cards": ["disable"]},
        {"faction": "arborec", "units": "1 mech, 1 pds"},
    )
    played = run(sc, [10, 1, 10, 1])  # two ground rounds: the mech sustains, then dies
    assert events(played, "card_played")
    assert events(played, "bombardment_blocked", reason="planetary shield")
    assert not rolls(played, "space_cannon_defense")


def test_not_offered_without_pds() -> None:
    played = run(scenario("1 infantry"), [5])
    assert not events(played, "choice_made", decision="play_card")


def test_the_defenders_disable_does_nothing() -> None:
    sc = invasion(
        {"units": "1 dreadnought, 1 infantry"},
        {"units": "1 infantry, 1 pds", "action_cards": ["disable"]},
    )
    played = run(sc, [1, 10, 1])
    assert not events(played, "card_played")
    assert events(played, "bombardment_blocked")


def test_exact_odds_hand_derived() -> None:
    """The dreadnought bombards on 5 (3/5); the PDS neither blocks it nor fires. Otherwise 1
    infantry fights 1 (7/17 won, 3/17 drawn). Attacker 3/5 + 2/5 * 7/17 = 13/17, draw
    2/5 * 3/17 = 6/85, defender 14/85."""
    found = odds(scenario())
    assert found.attacker_win == pytest.approx(float(Fraction(13, 17)), abs=1e-12)
    assert found.draw == pytest.approx(float(Fraction(6, 85)), abs=1e-12)
    assert found.defender_win == pytest.approx(float(Fraction(14, 85)), abs=1e-12)
