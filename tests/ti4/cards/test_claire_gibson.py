"""Claire Gibson (Sol commander; abilities/claire_gibson.py): at the start of a ground combat on
a planet you control, place 1 infantry from your reinforcements there (ti4-combat-effects.md
§4; data/cards.toml). Offered to the defender through "play_card" in the "start of combat"
window of each ground combat (ti4-ground-combat.md rule 4.1, note 1)."""

from __future__ import annotations

from collections.abc import Mapping
from fractions import Fraction
from typing import Any, cast

import pytest

from spacecombat import odds
from tests.helpers import events, invasion, rolls, run


def _groups(roll: Mapping[str, object]) -> list[dict[str, Any]]:
    """The dice groups of a ``dice_rolled`` event."""
    return cast("list[dict[str, Any]]", roll["groups"])


CLAIRE = {"leaders": ["claire_gibson"]}


def scenario(**defender: Any) -> dict[str, Any]:
    return invasion(
        {"units": "1 carrier, 1 infantry"}, {"units": "1 infantry", **CLAIRE, **defender}
    )


def test_an_infantry_joins_the_combat() -> None:
    played = run(scenario(), [1, 10, 1])
    [card] = events(played, "card_played")
    assert (card["player"], card["card"], card["round"]) == ("defender", "claire_gibson", 1)
    [placed] = events(played, "units_placed")
    assert placed == {
        "event": "units_placed",
        "player": "defender",
        "unit": "infantry",
        "count": 1,
        "planet": "planet",
        "by": "claire_gibson",
    }
    [defender_roll] = [r for r in rolls(played, "ground_combat") if r["player"] == "defender"]
    assert len(_groups(defender_roll)[0]["faces"]) == 2


def test_at_each_planets_combat() -> None:
    sc = invasion(
        {"units": "1 carrier, 2 infantry"},
        {**CLAIRE},
        planets=[
            {"name": "A", "defender": {"infantry": 1}, "commit": {"infantry": 1}},
            {"name": "B", "defender": {"infantry": 1}, "commit": {"infantry": 1}},
        ],
    )
    played = run(sc, [1, 10, 1, 1, 10, 1])
    assert [e["planet"] for e in events(played, "units_placed")] == ["A", "B"]


def test_policy_never_and_a_scripted_pass() -> None:
    played = run(scenario(policy={"play": {"claire_gibson": "never"}}), [7, 10])
    assert not events(played, "units_placed")
    played = run(scenario(), [7, 10], defender=["pass"])
    assert not events(played, "units_placed")


def test_the_attackers_claire_does_nothing() -> None:
    sc = invasion({"units": "1 carrier, 1 infantry", **CLAIRE}, {"units": "1 infantry"})
    played = run(sc, [10, 1])
    assert not events(played, "choice_made", decision="play_card")


def test_exact_odds_hand_derived() -> None:
    """1 infantry against 2, all hitting on 8 (3/10). From (1, 2) the attacker reaches (1, 1)
    with (3/10 * 49/100) / (1 - 7/10 * 49/100) = 49/219, else loses; (1, 1) is won 7/17, drawn
    3/17. Attacker 343/3723, draw 147/3723, defender 3233/3723."""
    found = odds(scenario())
    assert found.attacker_win == pytest.approx(float(Fraction(343, 3723)), abs=1e-12)
    assert found.draw == pytest.approx(float(Fraction(147, 3723)), abs=1e-12)
    assert found.defender_win == pytest.approx(float(Fraction(3233, 3723)), abs=1e-12)
