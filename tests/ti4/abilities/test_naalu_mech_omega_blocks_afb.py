"""Iconoclast Ω (Naalu mech, Codex III; abilities/naalu_mech_omega_blocks_afb.py): other
players cannot use ANTI-FIGHTER BARRAGE against the Naalu player's units in the mech's system
(ti4-space-combat.md step 1; data/units.toml ``naalu_mech_omega``). A scenario chooses the
Codex printing with the side's ``cards: [naalu_mech_omega]`` (setup.py ``_printings``;
docs/rulings.md 14S-1). While such a mech is in the active system (space area or a
planet) when the opponent would roll its barrage, that roll has no dice."""

from __future__ import annotations

from fractions import Fraction
from typing import Any

import pytest

from spacecombat import odds
from spacecombat.core.errors import ScenarioError
from spacecombat.rulesets import parse_ti_scenario
from spacecombat.rulesets.ti4.setup import build
from spacecombat.rulesets.ti4.sides import Side
from tests.helpers import rolls, run, space

NO_CAPACITY_CHECK = {"check_capacity_before_battle": False}


def naalu(*, omega: bool = True, **side: Any) -> dict[str, Any]:
    spec: dict[str, Any] = {"faction": "naalu", **side}
    if omega:
        spec["cards"] = ["naalu_mech_omega"]
    return spec


def fighter_vs_destroyer(*, omega: bool = True, mech: str = "planet") -> dict[str, Any]:
    """1 Naalu fighter (combat 8) against 1 destroyer (combat 9, barrage 9 x2); the Naalu mech
    on a planet of the system (``mech="space"``: in the space area; ``"none"``: not there)."""
    side: dict[str, Any] = {"units": "1 fighter"}
    if mech == "planet":
        side["planet_units"] = "1 mech"
    elif mech == "space":
        side["units"] = "1 fighter, 1 mech"
    return space(naalu(omega=omega, **side), {"units": "1 destroyer"}, options=NO_CAPACITY_CHECK)


def barrage_of(played: Any, player: str) -> list[Any]:
    return [r for r in rolls(played, "anti_fighter_barrage") if r["player"] == player]


def test_the_opponent_rolls_no_barrage_while_the_mech_is_on_a_planet() -> None:
    # no barrage die; round 1: the fighter hits (8), the destroyer misses (1)
    played = run(fighter_vs_destroyer(), [8, 1])
    assert not barrage_of(played, "defender")
    assert played.outcome["winner"] == "attacker"


def test_the_mech_in_the_space_area_blocks_it_too() -> None:
    played = run(fighter_vs_destroyer(mech="space"), [8, 1])
    assert not barrage_of(played, "defender")


def test_the_original_iconoclast_does_not_block_it() -> None:
    # the barrage (9, 9) destroys the fighter: the combat ends, the defender wins
    played = run(fighter_vs_destroyer(omega=False), [9, 9])
    [barrage] = barrage_of(played, "defender")
    assert barrage["groups"][0]["faces"] == [9, 9]
    assert played.outcome["winner"] == "defender"


def test_no_mech_in_the_system_no_block() -> None:
    played = run(fighter_vs_destroyer(mech="none"), [1, 1, 8, 1])
    assert len(barrage_of(played, "defender")) == 1


def test_the_naalu_player_own_barrage_is_not_blocked() -> None:
    scenario = space(
        naalu(units="1 destroyer", planet_units="1 mech"),
        {"units": "1 carrier, 1 fighter"},
    )
    played = run(scenario, [9, 1, 9, 1])
    assert len(barrage_of(played, "attacker")) == 1


def test_exact_odds_hand_derived() -> None:
    """Fighter (hits 3/10) against destroyer (1/5), no barrage: a duel won by the attacker
    (3/10 * 4/5) / (1 - 7/10 * 4/5) = 6/11, drawn (3/50) / (22/50) = 3/22, lost 7/22.
    With the original Iconoclast the barrage first destroys the fighter with 1 - (4/5)^2 = 9/25
    (the defender wins): the attacker wins 16/25 * 6/11 = 96/275."""
    with_omega = odds(fighter_vs_destroyer())
    assert with_omega.attacker_win == pytest.approx(float(Fraction(6, 11)), abs=1e-12)
    assert with_omega.draw == pytest.approx(float(Fraction(3, 22)), abs=1e-12)
    assert with_omega.defender_win == pytest.approx(float(Fraction(7, 22)), abs=1e-12)
    original = odds(fighter_vs_destroyer(omega=False))
    assert original.attacker_win == pytest.approx(float(Fraction(96, 275)), abs=1e-12)


def test_another_faction_cannot_choose_it() -> None:
    scenario = space(
        {"faction": "sol", "units": "1 cruiser", "cards": ["naalu_mech_omega"]},
        {"units": "1 cruiser"},
    )
    with pytest.raises(ScenarioError) as error:
        odds(scenario)
    assert error.value.field == "attacker.cards[0]"
    assert "naalu" in error.value.message


def test_only_another_printing_of_a_unit_card_is_allowed() -> None:
    for ident in ("naalu_mech", "naalu_fighter2", "cruiser", "no_such_card"):
        scenario = space(
            {"faction": "naalu", "units": "1 cruiser", "cards": [ident]}, {"units": "1 cruiser"}
        )
        with pytest.raises(ScenarioError) as error:
            odds(scenario)
        assert error.value.field == "attacker.cards[0]"
        assert "allowed: naalu_mech_omega" in error.value.message


def test_the_flipped_eidolon_is_not_a_printing_to_choose() -> None:
    scenario = space(
        {"faction": "naazrokha", "units": "1 cruiser", "cards": ["naazrokha_mech_space"]},
        {"units": "1 cruiser"},
    )
    with pytest.raises(ScenarioError) as error:
        odds(scenario)
    assert "allowed: none for this side" in error.value.message


def test_the_key_picks_the_card_of_the_unit_type() -> None:
    chosen = build(parse_ti_scenario(fighter_vs_destroyer()))
    usual = build(parse_ti_scenario(fighter_vs_destroyer(omega=False)))
    assert chosen.side(Side.ATTACKER).card("mech").id == "naalu_mech_omega"
    assert usual.side(Side.ATTACKER).card("mech").id == "naalu_mech"
    assert chosen.side(Side.ATTACKER).card("fighter").id == "naalu_fighter"


def test_ti3_refuses_the_key() -> None:
    scenario = {
        "ruleset": "ti3",
        "battle": "space",
        "attacker": {"units": "1 cruiser", "cards": ["naalu_mech_omega"]},
        "defender": {"units": "1 cruiser"},
    }
    with pytest.raises(ScenarioError) as error:
        odds(scenario)
    assert error.value.field == "attacker.cards"
