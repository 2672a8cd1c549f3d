"""Eidolon / Z-Grav Eidolon (Naaz-Rokha mech; abilities/naazrokha_mech_flip.py): an Eidolon in
the space area of the active system at the start of a space combat flips to Z-Grav Eidolon
(combat 8 x2, no SUSTAIN DAMAGE), which is also a ship there; it flips back at the end of the
space battle (data/units.toml; docs/rulings.md 14N-2, S.md 14S-3). The flip acts in
the "start of combat" window (ti4-space-combat.md rule 2.1); the flip back once the combat's
result is decided (rule 10 and note 13), before capacity is checked."""

from __future__ import annotations

from fractions import Fraction
from typing import Any, cast

import pytest

from spacecombat import odds
from tests.helpers import events, rolls, run, space, survivors

NO_CAPACITY_CHECK = {"check_capacity_before_battle": False}


def naaz(units: str, defender: str = "1 cruiser", **extra: Any) -> dict[str, Any]:
    side: dict[str, Any] = {"faction": "naazrokha", "units": units}
    side.update(extra.pop("side", {}))
    return space(side, {"units": defender}, **extra)


def groups(played: Any, player: str = "attacker") -> list[Any]:
    found: list[Any] = []
    for roll in rolls(played, "space_combat"):
        if roll["player"] == player:
            found += cast("list[Any]", roll["groups"])
    return found


def test_mechs_in_space_flip_fight_and_flip_back() -> None:
    # round 1: the Z-Gravs roll 2 dice each on 8 (one hit), the carrier misses; the cruiser misses
    played = run(naaz("1 carrier, 2 mech"), [8, 1, 1, 1, 1, 1])
    flips = events(played, "unit_changed")
    assert [(e["unit"], e["becomes"]) for e in flips] == [("mech", "zgrav_eidolon")] * 2 + [
        ("zgrav_eidolon", "mech")
    ] * 2
    zgrav = next(g for g in groups(played) if g["unit"] == "zgrav_eidolon")
    assert (zgrav["hit_on"], len(zgrav["faces"])) == (8, 4)
    assert played.outcome["winner"] == "attacker"
    assert survivors(played, "attacker") == {"carrier": 1, "mech": 2}


def test_a_z_grav_takes_hits_and_cannot_sustain() -> None:
    # round 1: attacker misses (2 Z-Grav dice, carrier); the cruiser hits: the carrier or the
    # Z-Grav, no SUSTAIN DAMAGE offered; the stock policy loses the Z-Grav (a mech: cheaper)
    played = run(naaz("1 carrier, 1 mech"), [1, 1, 1, 7, 10, 1])
    [first] = events(played, "choice_made", decision="assign_hit", player="attacker")
    options = cast("list[str]", first["options"])
    assert "destroy zgrav_eidolon" in options
    assert not any(o.startswith("sustain") for o in options)
    assert first["choice"] == "destroy zgrav_eidolon"
    [lost] = events(played, "unit_destroyed", player="attacker")
    assert lost["unit"] == "zgrav_eidolon"


def test_left_only_with_z_gravs_the_naaz_rokha_player_wins_then_loses_them() -> None:
    # round 1: Z-Grav hits (8), carrier misses; the cruiser hits: the stock policy loses the
    # Z-Grav first, so script the carrier's loss
    played = run(
        naaz("1 carrier, 1 mech", side={"policy": {"casualty_order": ["carrier"]}}),
        [1, 8, 1, 7],
    )
    assert played.outcome["winner"] == "attacker"
    [removed] = events(played, "unit_removed")
    assert (removed["unit"], removed["reason"]) == ("mech", "no ships to carry it")


def test_mechs_on_a_planet_do_not_flip() -> None:
    played = run(naaz("1 cruiser", side={"planet_units": "1 mech"}), [7, 1])
    assert not events(played, "unit_changed")


def test_under_articles_of_war_the_mech_does_not_flip() -> None:
    played = run(naaz("1 carrier, 1 mech", laws=["articles_of_war"]), [9, 1])
    assert not events(played, "unit_changed")
    assert {g["unit"] for g in groups(played)} == {"carrier"}


def test_the_naaz_rokha_flagship_gives_each_z_grav_a_die_more() -> None:
    played = run(naaz("1 flagship, 1 mech"), [10, 1, 1, 1, 1, 1])
    zgrav = next(g for g in groups(played) if g["unit"] == "zgrav_eidolon")
    assert len(zgrav["faces"]) == 3


def test_exact_odds_hand_derived() -> None:
    """Fighter (hits 1/5) and Z-Grav (2 dice, 3/10 each) against a cruiser (2/5); the fighter
    is lost first. Z-Grav alone: it hits with a = 1 - (7/10)^2 = 51/100; a round repeats with
    (49/100)(3/5) = 147/500: win 153/353, draw 102/353, loss 98/353. Both: the attacker hits
    with 1 - (4/5)(49/100) = 76/125 and then wins (a hit taken costs the fighter); repeat with
    (49/125)(3/5) = 147/625; the cruiser alone hits with (49/125)(2/5) = 98/625:
    win = (380 + 98 * 153/353) / 478, draw = 98 * 102 / (353 * 478), loss 98 * 98 / (353 * 478)."""
    found = odds(naaz("1 fighter, 1 mech", options=NO_CAPACITY_CHECK))
    win = (380 + Fraction(98 * 153, 353)) / 478
    draw = Fraction(98 * 102, 353 * 478)
    loss = Fraction(98 * 98, 353 * 478)
    assert win + draw + loss == 1
    assert found.attacker_win == pytest.approx(float(win), abs=1e-12)
    assert found.draw == pytest.approx(float(draw), abs=1e-12)
    assert found.defender_win == pytest.approx(float(loss), abs=1e-12)
