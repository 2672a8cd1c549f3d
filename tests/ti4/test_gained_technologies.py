"""Technologies gained during a battle (``BattleState.gained``, ``BattleSetup.having``):
Technological Singularity and Reveal Prototype give a player a technology or unit upgrade in
the middle of a combat, and it acts from then on as if the scenario had listed it
(docs/architecture.md, "Cards, leaders and what a player may spend"). These tests drive the
mechanism directly; the two effects have their own tests."""

from __future__ import annotations

from spacecombat.core.engine import Chance
from spacecombat.rulesets import parse_ti_scenario
from spacecombat.rulesets.ti4.abilities.assault_cannon import AssaultCannon
from spacecombat.rulesets.ti4.battle import Ti4Battle
from spacecombat.rulesets.ti4.setup import NOTHING_GAINED, UPGRADE, build
from spacecombat.rulesets.ti4.sides import Side
from spacecombat.rulesets.ti4.state import Phase
from tests.helpers import space

A, D = Side.ATTACKER, Side.DEFENDER
SETUP = build(
    parse_ti_scenario(
        space(
            {"units": "2 cruiser", "technologies": ["duranium_armor"]},
            {"units": "1 dreadnought", "technologies": ["antimass_deflectors"]},
        )
    )
)
CRUISER_II: tuple[frozenset[str], frozenset[str]] = (frozenset({UPGRADE + "cruiser"}), frozenset())


def test_nothing_gained_is_the_battle_as_set_up() -> None:
    assert SETUP.having(NOTHING_GAINED) is SETUP


def test_a_gained_unit_upgrade_changes_that_players_card_only() -> None:
    having = SETUP.having(CRUISER_II)
    before, after = SETUP.side(A).card("cruiser").combat, having.side(A).card("cruiser").combat
    assert before is not None
    assert after is not None
    assert (before.hit, after.hit) == (7, 6)  # Cruiser II
    assert having.side(D).card("dreadnought") is SETUP.side(D).card("dreadnought")
    assert having.side(A).technologies == SETUP.side(A).technologies


def test_built_once_for_each_set_of_gains() -> None:
    assert SETUP.having(CRUISER_II) is SETUP.having(CRUISER_II)
    both = (frozenset({UPGRADE + "cruiser"}), frozenset({"assault_cannon"}))
    assert SETUP.having(both) is not SETUP.having(CRUISER_II)


def test_handlers_in_play_keep_their_order_and_gained_ones_come_after() -> None:
    gained = SETUP.having((frozenset(), frozenset({"assault_cannon"})))
    before = [(type(h), h.owner) for h in SETUP.handlers]
    after = [(type(h), h.owner) for h in gained.handlers]
    assert after[: len(before)] == before
    assert after[len(before) :] == [(AssaultCannon, D)]
    assert gained.side(D).technologies[-1] == "assault_cannon"


def test_the_procedures_read_the_battle_as_it_stands() -> None:
    battle = Ti4Battle(SETUP)
    state = SETUP.initial.at(Phase.ROLL_DICE, round=1)

    def attacker_hits_on(node: object) -> set[int]:
        assert isinstance(node, Chance)
        return {group.value for group in node.pool.groups}

    assert attacker_hits_on(battle.advance(state)) == {7}
    assert attacker_hits_on(battle.advance(state.gaining(A, UPGRADE + "cruiser"))) == {6}
    assert state.gaining(A, UPGRADE + "cruiser").has_gained(A, UPGRADE + "cruiser")
    assert not state.has_gained(A, UPGRADE + "cruiser")
