"""Skilled Retreat (TI3 action card; data/action_cards.toml; docs/rulings.md 27S-6): the
holder chooses its fleet in the space battle, puts a command counter from its supply in an
adjacent system and moves the fleet there (preeminent.org TI3 demo, 3-player round 5).

Window: the start of a combat round of a space battle (ti3-facts.md section 11; the round's
other cards, procedures/round_start.py), before withdrawals are announced: the fleet leaves
before the round's dice and the battle ends, the other player holding the system. The card
places its own command counter, so the system need not have been activated before; it must
hold no other player's ships and be one a ship may end its move in (as a retreat's,
``why_not_destination``). Where it goes is part of the play: one "play" option per system.

The stock holder plays it where its own retreat settings would announce a retreat in this
round (the ``announce_retreat`` decision with this round's facts, answered by its stock
policy), so it leaves before the round's dice rather than after them; with no retreat setting,
never; ``policy.play`` naming a round plays it from that round (docs/rulings.md 27S-23)."""

from __future__ import annotations

from spacecombat.core.decisions import DecisionRequest, Option
from spacecombat.core.engine import Decision, Node, Step
from spacecombat.core.policies import StockPolicy
from spacecombat.core.sides import SIDES, Side
from spacecombat.core.state import ships
from spacecombat.rulesets.ti3.cards import flanking_tactic
from spacecombat.rulesets.ti3.cards.common import card_played, ordered, play_first
from spacecombat.rulesets.ti3.procedures.common import combat_pool, fleet_withdraws
from spacecombat.rulesets.ti3.setup import Ti3Setup, why_not_destination
from spacecombat.rulesets.ti3.state import Phase, Ti3State

CARD = "skilled_retreat"


def destinations(setup: Ti3Setup, side: Side) -> list[str]:
    """The adjacent systems ``side``'s fleet may move to with the card: systems it has not
    activated (the TI3 deck's text: "a friendly or empty unactivated system"), otherwise a
    retreat's, the card's command counter standing for the one a retreat needs."""
    found = []
    for system in setup.adjacent:
        if side.value in system.command_tokens:
            continue  # the card's system is one the player has not activated (27S-17)
        tokens = (*system.command_tokens, side.value)
        if why_not_destination(side, system.model_copy(update={"command_tokens": tokens})) is None:
            found.append(system.name)
    return found


def applies(setup: Ti3Setup, state: Ti3State, side: Side) -> bool:
    """``side`` holds the card in a space battle both players still fight, and has somewhere
    to go."""
    return (
        setup.kind == "space"
        and CARD in state.hand(side)
        and not flanking_tactic.flanked(state, side)
        and all(ships(setup, state, s) for s in SIDES)
        and bool(destinations(setup, side))
    )


def _would_retreat(setup: Ti3Setup, state: Ti3State, side: Side) -> bool:
    """Whether ``side``'s stock policy, by its retreat settings, would announce a withdrawal or
    retreat in this round (asked as procedures/space_battle.py ``announce_withdrawals`` asks,
    with the round's dice as its facts)."""
    if not setup.side(side).policy.may_retreat:
        return False
    own, enemy = combat_pool(setup, state, side), combat_pool(setup, state, side.other)
    request = DecisionRequest(
        decision="announce_retreat",
        player=side.value,
        prompt=f"round {state.round}: announce a retreat?",
        options=(Option("retreat", "retreat"), Option("stay", "stay")),
        facts={
            "round": state.round,
            "own_dice": own.dice if own is not None else 0,
            "enemy_dice": enemy.dice if enemy is not None else 0,
        },
    )
    return StockPolicy(setup.side(side).policy).choose(request) != "stay"


def ask(setup: Ti3Setup, state: Ti3State, side: Side, passed: Ti3State) -> Node[Ti3State]:
    """``side`` may play the card, naming the system its fleet moves to."""
    options = tuple(
        Option(f"play {CARD} to {name}", "play", target=name) for name in destinations(setup, side)
    )
    request = DecisionRequest(
        "play_card",
        side.value,
        f"round {state.round}: play Skilled Retreat, your fleet moving to an adjacent system?",
        ordered(options, play_first(setup, side, CARD, _would_retreat(setup, state, side))),
        facts={"card": CARD, "round": state.round},
    )

    def then(option: Option) -> Step[Ti3State]:
        if option.action != "play":
            return Step(passed)
        done, withdrew = fleet_withdraws(
            state.played(side, CARD),
            side,
            option.target,
            Phase.END_OF_SPACE_BATTLE,
            step="",
            round=state.round - 1,  # the round it was played at is not fought
        )
        return Step(done, (card_played(side, CARD, state.round), withdrew))

    return Decision(request, then)
