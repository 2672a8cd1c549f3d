"""A roll kept group by group that nothing reads any more, forgotten in the odds engine's
canonical states (rulesets/ti4/procedures/dead_rolls.py; data/cards.toml War Funding Ω,
docs/rulings.md 14W-1, 14RR-8; docs/architecture.md, "The odds engine" 1., 24U-5).

While War Funding Ω is held its holder's roll is kept group by group for the card to reroll the
misses; once the card is played and its rerolls heard, nothing reads the record before the
Assign Hits step clears it, so the states that differ only by it have the same future. Checked
here: the odds with the merge equal the odds without it (exact fractions, and every figure of
the report to 1e-12 over battles holding the card), in fewer steps of the rules, and the record
is kept while the card is still held.
"""

from __future__ import annotations

from typing import Any

import pytest

from spacecombat import rulesets
from spacecombat.analysis.graph import Explorer
from spacecombat.core.pool import DiceGroup
from spacecombat.rulesets import parse_scenario
from spacecombat.rulesets.ti4.battle import Ti4Battle
from spacecombat.rulesets.ti4.procedures import dead_rolls
from spacecombat.rulesets.ti4.sides import Side
from spacecombat.rulesets.ti4.state import Phase, RolledHits
from tests.sweep.test_cache import close
from tests.ti4.fast_path_battles import battles
from tests.ti4.switched import fractions_on_and_off, same_on_and_off
from tests.ti4.test_replaced_hits import HOLDER


def same_with_and_without(scenario: dict[str, Any], monkeypatch: pytest.MonkeyPatch) -> bool:
    """The reports with and without the shortcut are equal; False if the battle is refused."""
    return same_on_and_off(scenario, dead_rolls, "FORGET", monkeypatch)


def steps(forget: bool, monkeypatch: pytest.MonkeyPatch) -> int:
    """The steps of the rules ``HOLDER``'s graph takes."""
    monkeypatch.setattr(dead_rolls, "FORGET", forget)
    battle = rulesets.battle(parse_scenario(HOLDER))
    explorer: Explorer[Any] = Explorer(battle, battle.stock_policies(), exact=True, joins=True)
    explorer.build()
    return explorer.steps


def test_fewer_steps_and_the_same_odds_as_fractions(monkeypatch: pytest.MonkeyPatch) -> None:
    assert steps(True, monkeypatch) < steps(False, monkeypatch)
    merged, without = fractions_on_and_off(HOLDER, dead_rolls, "FORGET", monkeypatch)
    # the headline probabilities as fractions; the rounds' distribution is pushed in floats
    assert merged.fractions_json() == without.fractions_json()
    close(merged.to_json(), without.to_json())


def test_the_record_is_kept_while_the_card_is_held() -> None:
    """In the "after roll dice" window with the card still held (its holder passed, or is yet
    to be asked) the record stays; once the card is played and nothing is queued, it goes."""
    battle = rulesets.battle(parse_scenario(HOLDER))
    assert isinstance(battle, Ti4Battle)
    setup = battle.setup
    # the holder's cruiser's die kept with its hit (a record of one group)
    kept: tuple[RolledHits, RolledHits] = (((DiceGroup("cruiser", 1, 7), 1),), ())
    window = setup.initial.at(Phase.TIMING_WINDOW, then=Phase.ASSIGN_HITS, rolls=kept)
    assert dead_rolls.without_dead_rolls(setup, window) is window
    played = window.using(Side.ATTACKER, "war_funding_omega")
    assert dead_rolls.without_dead_rolls(setup, played).rolls == ((), ())


def test_battles_holding_war_funding_omega(monkeypatch: pytest.MonkeyPatch) -> None:
    compared = sum(
        same_with_and_without(s, monkeypatch) for _, s in battles("war_funding_omega", 6, seed=24)
    )
    assert compared > 0
