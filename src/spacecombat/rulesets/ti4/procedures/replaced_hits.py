"""Hits about to be replaced by a reroll, for the odds engine's canonical states (War Funding Ω,
data/cards.toml: "after you and your opponent roll dice during space combat, you may reroll all
of your opponent's dice and any number of your own"; docs/rulings.md 14C2-4, 14W-1;
docs/architecture.md, "The odds engine" 1., 24U-1).

Played, War Funding Ω queues its rerolls (``FollowUp.own``, abilities/war_funding_omega.py): the
opponent's whole roll first ("theirs"), whose hits *replace* the hits against the holder, then
the holder's misses ("mine"), whose hits are added to the hits against the opponent. While the
"theirs" entry heads the queue in the "after roll dice" timing window, the hits the opponent
rolled against the holder wait in the state, but nothing reads them before the reroll replaces
them: the window hears its queue first (procedures/windows.py ``timing_window``, effects.py
``follow_ups``), the head entry goes on with the card's effect, and the reroll's pool reads the
opponent's units alone (``_their_pool``, ``_their_aimed``), its outcomes set the hits against the
holder whatever they were (``theirs``, ``their_marked``, ``spending``); the card declares it
(``Handler.replaces_hits``), no effect is named here. So the states that differ
only by those hits have the same future step for step, and the odds engine keys them as one
(``Ti4Battle.canonical``): one chance state for the reroll of the opponent's dice for each
number of hits the holder's own dice scored, where there was one for each number of hits the
opponent's first roll scored too (no. 3 of the faction mix: 372 such chance states, 124 once
merged). The marks saying how many of those hits are free (``Mark.FREE_HITS``) are kept as they
are: an unmarked reroll leaves them. The resolver and Monte Carlo's sampler do not use
canonical states. tests/ti4/test_replaced_hits.py compares the odds with and without it.
"""

from __future__ import annotations

from spacecombat.rulesets.ti4.hooks import Follow
from spacecombat.rulesets.ti4.setup import BattleSetup
from spacecombat.rulesets.ti4.state import BattleState, Phase

#: whether canonical states forget the hits a reroll is about to replace (the tests switch it
#: off to compare)
FORGET = True


def without_replaced_hits(setup: BattleSetup, state: BattleState) -> BattleState:
    """``state`` with the hits against a player set to 0 where the handler's own follow-up
    next in the timing window replaces them before anything reads them
    (``Handler.replaces_hits``: War Funding Ω's reroll of the opponent's dice); else ``state``
    itself."""
    if not FORGET or state.phase is not Phase.TIMING_WINDOW or state.pending is not None:
        return state
    following = state.following
    if not following:
        return state
    head = following[0]
    if head.kind is not Follow.OWN or not state.hits_on(head.player):
        return state
    for handler in setup.answering("replaces_hits"):
        if (
            handler.id == head.handler
            and handler.owner is head.owner
            and handler.replaces_hits(head.detail)
        ):
            return state.with_hits_on(head.player, 0)
    return state
