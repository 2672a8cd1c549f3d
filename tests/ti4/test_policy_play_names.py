"""``policy.play`` names only decisions of its side (issue 27; docs/rulings.md 14B-7, 27T-1;
setup/validate.py ``check_play_names``; abilities/base.py ``Handler.asks``).

A name that asks the side nothing in the battle (an ability that acts without asking, such
as the L1Z1X mech's BOMBARDMENT; a card the side does not hold; a card of the opponent) is
refused with a ``ScenarioError`` naming ``<side>.policy.play.<name>`` and listing the names
allowed for that side. Every handler that asks a ``play_card`` decision declares its name."""

from __future__ import annotations

import inspect
import re
from typing import Any

import pytest

from spacecombat.core.errors import ScenarioError
from spacecombat.rulesets import parse_scenario
from spacecombat.rulesets.ti4.abilities.base import HANDLERS
from spacecombat.rulesets.ti4.setup import build
from tests.helpers import invasion, space

#: what a module that asks its holder a play_card decision (or the Alastor's) calls
_ASKING = re.compile(
    r"offer_plays\(|\.offer\(|offer_ways\(|offer_choices\(|\"play_card\"|facts=\{\"card\""
)


def _build(scenario: dict[str, Any]) -> object:
    return build(parse_scenario(scenario))  # type: ignore[arg-type]


def test_an_ability_that_never_asks_is_refused_with_the_names_allowed() -> None:
    scenario = invasion(
        {
            "units": "1 carrier, 1 mech",
            "faction": "l1z1x",
            "action_cards": ["morale_boost"],
            "policy": {"play": {"l1z1x_mech_bombardment": "never"}},
        },
        {},
        planets=[{"name": "P", "defender": {"infantry": 1}}],
    )
    with pytest.raises(ScenarioError) as caught:
        _build(scenario)
    assert caught.value.field == "attacker.policy.play.l1z1x_mech_bombardment"
    assert str(caught.value).endswith("allowed: harrow, morale_boost")  # Harrow: its faction's


def test_a_card_the_side_does_not_hold_is_refused() -> None:
    scenario = space(
        {"units": "2 cruiser", "policy": {"play": {"morale_boost": "never"}}},
        {"units": "2 cruiser", "action_cards": ["morale_boost"]},
    )
    with pytest.raises(ScenarioError) as caught:
        _build(scenario)
    assert caught.value.field == "attacker.policy.play.morale_boost"
    assert "allowed: none" in str(caught.value)


def test_a_card_held_and_the_shared_policy_are_accepted() -> None:
    held = space(
        {"units": "2 cruiser", "action_cards": ["morale_boost"]},
        {"units": "2 cruiser", "policy": {"play": {}}},
        policy={"play": {"morale_boost": {"round": 2}}},
    )
    _build(held)  # the shared layer: a decision of either side
    nobody = space({"units": "2 cruiser"}, {"units": "2 cruiser"}, policy={"play": {"rout": 1}})
    nobody["policy"] = {"play": {"rout": "never"}}
    with pytest.raises(ScenarioError) as caught:
        _build(nobody)
    assert caught.value.field == "policy.play.rout"


def test_every_handler_that_asks_declares_its_name_and_no_other_does() -> None:
    for ident, cls in HANDLERS.items():
        sources = "".join(
            inspect.getsource(inspect.getmodule(c))  # type: ignore[arg-type]
            for c in cls.__mro__
            if c.__module__.startswith("spacecombat.rulesets.ti4.abilities")
            and c.__module__ != "spacecombat.rulesets.ti4.abilities.base"
        )
        assert bool(_ASKING.search(sources)) == (cls.asks is not None), ident
