"""Technological Singularity (Nekro faction ability; abilities/technological_singularity.py):
once per combat, after one of the opponent's units is destroyed, the Nekro may gain a
technology that player owns (data/factions.toml; ti4-combat-effects.md §3). Heard through
``after_destroyed`` (procedures/assign_hits.py, procedures/windows.py). A technology gained
mid-combat cannot act in this engine (technologies are fixed at setup): it acts only where no
technology it could take changes the battle, and is refused by name otherwise
(docs/rulings.md 14B3-7)."""

from __future__ import annotations

from fractions import Fraction
from typing import Any, cast

import pytest

from spacecombat import odds
from spacecombat.core.errors import RuleNotImplemented
from spacecombat.rulesets.ti4.abilities.base import HANDLERS
from spacecombat.rulesets.ti4.sides import Side
from tests.helpers import events, invasion, run, space

NEKRO = {"units": "1 cruiser", "faction": "nekro"}


def test_nothing_to_take_nothing_happens() -> None:
    # Cruiser 7 (hit); cruiser 1: the Nekro wins; nothing asked, nothing logged.
    played = run(space(NEKRO, {"units": "1 cruiser"}), [7, 1])
    assert [e["decision"] for e in events(played, "choice_made")] == ["assign_hit"]
    assert played.outcome["result"] == "attacker_win"


@pytest.mark.parametrize(
    ("defender", "named"),
    [
        pytest.param({"technologies": ["plasma_scoring"]}, "Plasma Scoring", id="technology"),
        pytest.param({"upgrades": ["cruiser"]}, "Cruiser II", id="unit upgrade"),
    ],
)
def test_refused_by_name_when_a_gain_could_change_the_fight(
    defender: dict[str, Any], named: str
) -> None:
    # Cruiser 7 (hit); cruiser 1: the defender's cruiser is destroyed in the combat.
    scenario = space(NEKRO, {"units": "1 cruiser", **defender})
    with pytest.raises(RuleNotImplemented, match=f"Technological Singularity taking {named}"):
        run(scenario, [7, 1])


def test_a_technology_the_nekro_owns_too_is_not_gained() -> None:
    both = {"technologies": ["plasma_scoring"]}
    played = run(space({**NEKRO, **both}, {"units": "1 cruiser", **both}), [7, 1])
    assert played.outcome["result"] == "attacker_win"


def test_the_nekro_own_losses_do_not_trigger_it() -> None:
    # Asked about the Nekro's own unit, it does nothing (before reading the setup or state).
    handler = HANDLERS["technological_singularity"](Side.ATTACKER)
    nowhere = cast("Any", None)
    assert handler.after_destroyed(nowhere, nowhere, Side.ATTACKER, None, "cruiser", "x") is None


def test_antivirus_face_up_blocks_it() -> None:
    scenario = space(
        NEKRO, {"units": "1 cruiser", "upgrades": ["cruiser"], "promissory_notes": ["antivirus"]}
    )
    played = run(scenario, [7, 1])
    assert [e["card"] for e in events(played, "card_played")] == ["antivirus"]


def test_exact_odds_hand_derived() -> None:
    """Cruiser duel (2/5 each a round), nothing to take: attacker = (6/25) / (16/25) = 3/8,
    defender 3/8, draw (4/25) / (16/25) = 1/4. The same in an invasion's ground combat: a
    Nekro infantry (on 8: 3/10) against one (3/10): each wins (21/100) / (51/100) = 7/17."""
    found = odds(space(NEKRO, {"units": "1 cruiser"}))
    assert found.attacker_win == pytest.approx(float(Fraction(3, 8)), abs=1e-12)
    assert found.draw == pytest.approx(float(Fraction(1, 4)), abs=1e-12)
    ground = odds(
        invasion(
            {"faction": "nekro", "units": "1 carrier, 1 infantry"},
            {},
            planets=[{"name": "P", "defender": {"infantry": 1}}],
        )
    )
    assert ground.attacker_win == pytest.approx(float(Fraction(7, 17)), abs=1e-12)
