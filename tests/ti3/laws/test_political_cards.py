"""TI3 political cards as laws in force (data/political_cards.toml; docs/rulings.md 27Z-1 to
27Z-2): each listed law is a known card; one that never acts changes nothing; one whose effect
no source gives, or that acts and is not implemented, is refused by name; ``elected`` names
the player of an acting law that elects one."""

from __future__ import annotations

import pytest

from spacecombat import odds
from spacecombat.core.errors import RuleNotImplemented, ScenarioError
from spacecombat.rulesets import catalogue
from spacecombat.rulesets.ti3.abilities.laws import LAW_HANDLERS
from spacecombat.rulesets.ti3.laws import political_cards
from tests.ti3.effects import space

CRUISERS = ({"units": {"cruiser": 1}}, {"units": {"cruiser": 1}})


def test_every_acting_card_has_a_handler_or_is_refused_and_every_handler_a_card() -> None:
    """27Z-1: the data names each handler once, and each handler is a card's."""
    cards = political_cards()
    handlers = [c.handler for c in cards.values() if c.handler is not None]
    assert sorted(handlers) == sorted(LAW_HANDLERS)
    assert all(cards[h].combat == "rule" for h in handlers)
    assert [c.id for c in cards.values() if c.combat == "rule" and c.handler is None] == []


def test_an_unknown_law_is_bad_input_naming_the_allowed() -> None:
    with pytest.raises(ScenarioError) as caught:
        odds(space(*CRUISERS, laws=["fighter_tax", "shared_research"]))
    assert caught.value.field == "laws[1]"
    assert "shared_research" in caught.value.message
    assert "unconventional_weapons" in caught.value.message


def test_a_law_listed_twice_is_bad_input() -> None:
    """The scenario schema refuses a name listed twice (``laws``)."""
    with pytest.raises(ScenarioError) as caught:
        odds(space(*CRUISERS, laws=["fighter_tax", "fighter_tax"]))
    assert caught.value.field == "laws"


def test_a_law_that_never_acts_changes_nothing() -> None:
    """27Z-2: Fighter Tax (costs; its "against" is resolved at the vote) leaves the cruiser
    duel at 3/8, 1/4, 3/8 (each hits 4/10: won 0.24/0.64, both 0.16/0.64)."""
    plain = odds(space(*CRUISERS), fractions=True)
    with_law = odds(space(*CRUISERS, laws=["fighter_tax", "humane_labor"]), fractions=True)
    assert (with_law.attacker_win, with_law.draw, with_law.defender_win) == (
        plain.attacker_win,
        plain.draw,
        plain.defender_win,
    )
    assert plain.attacker_win == pytest.approx(3 / 8)


def test_a_card_of_unknown_effect_is_refused_by_name() -> None:
    """27Z-2: Mutiny is in the deck lists with no text in our sources: refused, not guessed."""
    with pytest.raises(RuleNotImplemented) as caught:
        odds(space(*CRUISERS, laws=["mutiny"]))
    assert caught.value.where == "laws[0]"
    assert "Mutiny" in caught.value.rule


def test_an_electing_law_needs_its_player() -> None:
    with pytest.raises(ScenarioError) as caught:
        odds(space(*CRUISERS, laws=["public_execution"]))
    assert caught.value.field == "laws[0]"
    assert "elected" in caught.value.message


@pytest.mark.parametrize(
    ("laws", "elected", "field"),
    [
        (["public_execution"], {"public_execution": "speaker"}, "elected.public_execution"),
        ([], {"public_execution": "attacker"}, "elected.public_execution"),
        (["minister_of_policy"], {"minister_of_policy": "attacker"}, "elected.minister_of_policy"),
        (["fighter_tax"], {"fighter_tax": "attacker"}, "elected.fighter_tax"),
    ],
)
def test_elected_names_an_acting_law_in_play_and_a_player(
    laws: list[str], elected: dict[str, str], field: str
) -> None:
    """``elected``: only laws listed that act and elect a player; the value attacker or
    defender (27Z-1)."""
    with pytest.raises(ScenarioError) as caught:
        odds(space(*CRUISERS, laws=laws, elected=elected))
    assert caught.value.field == field


def test_the_catalogue_offers_the_political_cards() -> None:
    """The page's catalogue (rulesets/catalogue.py): every card, implemented when the engine
    plays it or it never acts; ``elect`` only where a battle reads the elected player."""
    laws = catalogue.ti3()["laws"]
    assert set(laws) == set(political_cards())
    assert laws["crown_of_thalnos"]["elect"] == "player"
    assert laws["crown_of_thalnos"]["implemented"] is True
    assert laws["fighter_tax"]["implemented"] is True
    assert "elect" not in laws["minister_of_policy"]
    assert laws["minister_of_war"]["implemented"] is True  # 27M-1
    assert laws["mutiny"]["implemented"] is False
