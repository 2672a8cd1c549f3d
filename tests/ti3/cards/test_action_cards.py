"""TI3 action cards held (issue 27; data/action_cards.toml; docs/rulings.md 27A-6 onwards):
the data is checked on load, each card that acts has its handler and test file, a card held is
checked by name, and the catalogue lists them for the page."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from spacecombat import odds
from spacecombat.core.errors import ScenarioError
from spacecombat.rulesets.catalogue import ti3 as ti3_catalogue
from spacecombat.rulesets.ti3 import rules
from spacecombat.rulesets.ti3.cards import CARDS, IN_ROUNDS
from tools import effects_doc_ti3_cards

HERE = Path(__file__).parent


def space(attacker: dict[str, Any], **extra: Any) -> dict[str, Any]:
    return {
        "ruleset": "ti3",
        "battle": "space",
        "attacker": {"units": {"cruiser": 1}, **attacker},
        "defender": {"units": {"destroyer": 1}},
        **extra,
    }


def test_every_card_that_acts_is_implemented_or_refused_and_each_handler_tested() -> None:
    """A card with combat "rule" names a handler of rulesets/ti3/cards or none (refused when
    held); every handler is named by a card and has its test file."""
    cards = rules.load().cards
    named = {c.handler for c in cards.values() if c.handler is not None}
    assert named == set(CARDS)
    assert set(IN_ROUNDS) <= set(CARDS)
    for card in cards.values():
        if card.combat == "none":
            assert card.handler is None, card.id
    for handler in CARDS:
        assert (HERE / f"test_{handler}.py").is_file(), handler


def test_an_unknown_card_is_refused_naming_it() -> None:
    with pytest.raises(ScenarioError) as caught:
        odds(space({"action_cards": ["sabotage_of_doom"]}))
    assert caught.value.field == "attacker.action_cards[0]"


def test_every_card_that_acts_is_implemented() -> None:
    """Issue 27: every TI3 card that acts in a battle has its handler; none is refused."""
    acting = [card for card in rules.load().cards.values() if card.combat == "rule"]
    assert acting
    assert all(card.handler in CARDS for card in acting)


def test_bunker_is_not_a_ti3_card() -> None:
    """docs/rulings.md 27X-2: Bunker is TI4's card; no TI3 deck list has it, so naming it is
    an unknown card."""
    assert "bunker" not in rules.load().cards
    with pytest.raises(ScenarioError) as caught:
        odds(space({"action_cards": ["direct_hit", "bunker"]}))
    assert caught.value.field == "attacker.action_cards[1]"


def test_a_card_that_never_acts_changes_nothing() -> None:
    """Civil Defense is played as an action, outside any battle: holding it is accepted and the
    odds are the same as without it."""
    held = odds(space({"action_cards": ["civil_defense"]}), fractions=True)
    plain = odds(space({}), fractions=True)
    assert (held.attacker_win, held.defender_win, held.draw) == (
        plain.attacker_win,
        plain.defender_win,
        plain.draw,
    )


def test_policy_play_names_only_a_card_held() -> None:
    """policy.play names a decision of its player: a card it holds (docs/rulings.md 27A-5)."""
    with pytest.raises(ScenarioError) as caught:
        odds(space({"policy": {"play": {"direct_hit": "never"}}}))
    assert caught.value.field == "attacker.policy.play.direct_hit"
    odds(space({"action_cards": ["direct_hit"], "policy": {"play": {"direct_hit": "never"}}}))


def test_the_catalogue_lists_ti3_cards_for_the_page() -> None:
    """GET /api/v1/rulesets (rulesets/catalogue.py): TI3's held_cards, each with kind, window,
    text and whether the engine plays it."""
    held = ti3_catalogue()["held_cards"]
    assert set(held) == set(rules.load().cards)
    assert held["direct_hit"]["implemented"] is True
    assert held["direct_hit"]["kind"] == "action_card"
    assert held["civil_defense"]["implemented"] is True
    assert all(card["implemented"] for card in held.values())


def test_effects_doc_lists_every_ti3_card_with_its_status() -> None:
    """docs/effects.md's TI3 action cards table (tools/effects_doc_ti3_cards.py): one row per
    card, implemented ones with their test file, and the Sabotage Runs note."""
    text = "\n".join(effects_doc_ti3_cards.lines())
    cards = rules.load().cards
    assert f"## TI3 action cards (`ti3/data/action_cards.toml`, {len(cards)})" in text
    rows = [line for line in text.splitlines() if line.startswith("| ")]
    assert len(rows) == len(cards) + 1
    assert "| Direct Hit | base |" in text
    assert "`tests/ti3/cards/test_direct_hit.py` | state graph |" in text
    assert not [row for row in rows if row.startswith("| Bunker |")]
    assert "## TI3 Sabotage Runs (Shattered Empire option)" in text


def test_faulty_targeting_systems_is_listed_and_implemented() -> None:
    """Shattered Empire's Faulty Targeting Systems (docs/rulings.md 27S-37, 27S-39): listed,
    and held it is played (tests/ti3/cards/test_faulty_targeting_systems.py)."""
    record = rules.load().cards["faulty_targeting_systems"]
    assert record.source == "se"
    assert record.handler == "faulty_targeting_systems"
    odds(space({"action_cards": ["faulty_targeting_systems"]}))
