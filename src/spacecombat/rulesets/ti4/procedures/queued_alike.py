"""A handler's own follow-ups queued in a timing window, keyed as they play out, for the odds
engine's canonical states (docs/architecture.md, "The odds engine" 1., 24X-2).

A handler may queue several follow-ups of its own at once (``FollowUp.own``): War Funding Ω
played (data/cards.toml: "after you and your opponent roll dice during space combat, you may
reroll all of your opponent's dice and any number of your own"; docs/rulings.md 14C2-4, 14W-1)
queues the reroll of the opponent's whole roll, then the reroll of its holder's misses
(abilities/war_funding_omega.py). Where those are the whole queue of a timing window and
nothing is pending, the handler may say which state plays out alike from there on, with the
same chance of every end and of every number of rounds (``Handler.queued_alike``: its rerolls
heard in another order where neither reads what the other changes, what none of them reads
forgotten), and the odds engine keys the state by it (``Ti4Battle.canonical``). This module
names no effect: the handler declares it. The resolver and Monte Carlo's sampler do not use
canonical states, so the dice are rolled in the rules' order there.
tests/ti4/test_war_funding_omega_keyed.py compares the odds with and without it.
"""

from __future__ import annotations

from spacecombat.rulesets.ti4.hooks import Follow
from spacecombat.rulesets.ti4.setup import BattleSetup
from spacecombat.rulesets.ti4.state import BattleState, Phase

#: whether canonical states take the form the queue's handler declares (the tests switch it off
#: to compare)
ALIKE = True


def alike(setup: BattleSetup, state: BattleState) -> BattleState:
    """``state`` as the handler whose own follow-ups are its whole queue in a timing window
    declares it plays out alike (``Handler.queued_alike``); else ``state`` itself."""
    if not ALIKE or state.phase is not Phase.TIMING_WINDOW or state.pending is not None:
        return state
    following = state.following
    if not following:
        return state
    head = following[0]
    if head.kind is not Follow.OWN:
        return state
    # (in a loop: a generator is resumed, a call, at each entry; 24AK-3)
    for entry in following[1:]:
        if entry.kind is not Follow.OWN or entry.handler != head.handler:
            return state
        if entry.owner is not head.owner:
            return state
    for handler in setup.answering("queued_alike"):
        if handler.id == head.handler and handler.owner is head.owner:
            keyed = handler.queued_alike(setup, state)
            return state if keyed is None else keyed
    return state
