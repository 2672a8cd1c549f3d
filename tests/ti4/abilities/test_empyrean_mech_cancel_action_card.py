"""Watcher (Empyrean mech; abilities/empyrean_mech_cancel_action_card.py): it may cancel an
action card another player plays (ti4-combat-effects.md, mechs). Cancelling is not implemented
(docs/rulings.md 14B3-8), so a battle where it could act (the opponent holds an action card)
is refused by name at set-up; without action cards in the opponent's hand the mech is plain."""

from __future__ import annotations

from typing import Any

import pytest

from spacecombat import odds
from spacecombat.core.errors import RuleNotImplemented
from tests.helpers import space


def battle(**defender: Any) -> dict[str, Any]:
    return space(
        {"faction": "empyrean", "units": "1 carrier, 1 cruiser, 1 mech"},
        {"units": "1 cruiser", **defender},
    )


def test_without_action_cards_it_is_a_plain_mech() -> None:
    plain = space({"units": "1 carrier, 1 cruiser, 1 mech"}, {"units": "1 cruiser"})
    assert odds(battle()).to_json() == odds(plain).to_json()


def test_an_opponent_holding_an_action_card_is_refused_by_name() -> None:
    with pytest.raises(RuleNotImplemented) as error:
        odds(battle(action_cards=["morale_boost"]))
    assert "Empyrean mech (Watcher) cancelling an action card (morale_boost)" in error.value.rule
    assert error.value.where == "attacker.units.mech"


def test_other_cards_of_the_opponent_are_no_reason() -> None:
    # a promissory note or a leader is not an action card: the mech cannot cancel it
    assert odds(battle(leaders=["viscount_unlenn"])).residual == pytest.approx(0, abs=1e-12)
