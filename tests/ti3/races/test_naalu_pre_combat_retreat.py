"""The Naalu Collective's retreat before the space battle (docstoc 'Twilight Imperium 3rd
Edition Racial Abilities' b: "if attacked, a Naalu fleet may retreat before the beginning of
the Space Battle step ... following the normal retreat rules"): not implemented; it can act
only for a Naalu defender with somewhere to retreat to, and only such a battle is refused
(docs/rulings.md 27R-16)."""

from __future__ import annotations

import pytest

from spacecombat.core.errors import RuleNotImplemented
from tests.helpers import run
from tests.ti3.effects import space

NAALU = {"units": {"cruiser": 1}, "faction": "naalu"}
ACTIVATED = {"name": "B", "command_tokens": ["defender"]}


def test_a_defender_that_could_retreat_is_refused() -> None:
    with pytest.raises(RuleNotImplemented) as caught:
        run(
            space({"units": {"cruiser": 1}}, NAALU, system={"name": "A", "adjacent": [ACTIVATED]}),
            [],
        )
    assert caught.value.where == "defender.faction"
    assert "retreat" in caught.value.rule


def test_a_defender_with_nowhere_to_go_fights() -> None:
    """No adjacent system activated by the defender: the ability cannot act. Round 1:
    cruiser 7; cruiser 1."""
    played = run(space({"units": {"cruiser": 1}}, NAALU), [7, 1])
    assert played.outcome["result"] == "attacker_win"


def test_an_attacking_naalu_fights() -> None:
    """The ability acts only when attacked. Round 1: cruiser 7; cruiser 1."""
    played = run(space(NAALU, {"units": {"cruiser": 1}}), [7, 1])
    assert played.outcome["result"] == "attacker_win"
