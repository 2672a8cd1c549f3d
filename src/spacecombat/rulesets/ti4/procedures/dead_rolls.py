"""A combat roll kept group by group that nothing reads any more, for the odds engine's canonical
states (War Funding Ω, data/cards.toml; docs/rulings.md 14W-1, 14RR-8; docs/architecture.md,
"The odds engine" 1., 24U-5).

While War Funding Ω is held, its holder's combat roll is made one group at a time and kept in the
state with each group's hits (``BattleState.rolls``; ``keeps_rolls``,
procedures/combat_round.py ``_roll_by_group``), so that the card, offered in the "after roll
dice" window, can reroll the holder's misses (abilities/war_funding_omega.py ``in_window``,
``_my_misses``, its "mine" follow-up). Nothing else reads the record: the Assign Hits step
clears it as it begins (``assign_combat_hits``), a roll made again in the window (The
Thundarian) starts a whole record afresh or, with no handler keeping rolls, is one chance node
that reads none. Once the card cannot act any more in the window (played, so no handler keeps
rolls: ``keeps_rolls`` is false for both players) and its rerolls are heard (nothing queued), the
record is dead: the states that differ only by it have the same future step for step, and the
odds engine keys them as one (``Ti4Battle.canonical``). After the holder's own misses are
rerolled, the states of every outcome of its first roll that led to the same hits meet there,
where they met only once the Assign Hits step began before. The resolver and Monte Carlo's
sampler do not use canonical states. tests/ti4/test_dead_rolls.py compares the odds with and
without it.
"""

from __future__ import annotations

from spacecombat.rulesets.ti4.setup import BattleSetup
from spacecombat.rulesets.ti4.sides import SIDES
from spacecombat.rulesets.ti4.state import BattleState, Phase, RolledHits

#: whether canonical states forget a kept roll nothing reads any more (the tests switch it off
#: to compare)
FORGET = True

_NO_ROLLS: tuple[RolledHits, RolledHits] = ((), ())


def without_dead_rolls(setup: BattleSetup, state: BattleState) -> BattleState:
    """``state`` without the rolls kept group by group, in the "after roll dice" window once no
    handler keeps rolls and nothing is queued or pending; else ``state`` itself."""
    if (
        not FORGET
        or state.rolls == _NO_ROLLS
        or state.phase is not Phase.TIMING_WINDOW
        or state.then is not Phase.ASSIGN_HITS
        or state.following
        or state.pending is not None
    ):
        return state
    for keeper in setup.answering("keeps_rolls"):
        for side in SIDES:
            if keeper.keeps_rolls(setup, state, side):
                return state
    return state.changed(rolls=_NO_ROLLS)
