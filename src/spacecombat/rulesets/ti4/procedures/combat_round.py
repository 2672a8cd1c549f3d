"""The steps a space combat round and a ground combat round share: roll dice, assign hits, the
"after assigning hits" window, and the end of the round. The arena is the space area of the
active system (space combat) or the invaded planet (ground combat)."""

from __future__ import annotations

from spacecombat.core.engine import Chance, Node, Step
from spacecombat.core.errors import RuleNotImplemented
from spacecombat.core.events import event
from spacecombat.core.sides import SideState
from spacecombat.rulesets.ti4.procedures.assign_hits import Targets, assign_hits
from spacecombat.rulesets.ti4.procedures.common import (
    arena,
    combat_pool,
    combatants,
    with_cursor,
)
from spacecombat.rulesets.ti4.procedures.stalemate import neither_can_win
from spacecombat.rulesets.ti4.procedures.windows import (
    LAST_ROUND_END,
    NEXT_ROUND,
    ROUND_END,
    open_windows,
)
from spacecombat.rulesets.ti4.setup import BattleSetup
from spacecombat.rulesets.ti4.sides import Side
from spacecombat.rulesets.ti4.state import BattleState, Phase

A, D = Side.ATTACKER, Side.DEFENDER
_NO_BOOSTS: tuple[frozenset[str], frozenset[str]] = (frozenset(), frozenset())


def roll_dice(setup: BattleSetup, state: BattleState) -> Node[BattleState]:
    """Step 3 (space) / step 1 (ground): each player makes a combat roll, the attacker first
    (ti4-space-combat.md step 3.6). The hits wait for the Assign Hits step."""
    roller = state.turn

    def after(s: BattleState) -> BattleState:
        if roller is A:
            return s.at(Phase.ROLL_DICE, turn=D)
        return s.at(Phase.ASSIGN_HITS, turn=A)

    pool = combat_pool(setup, state, roller)
    if not pool.groups:
        return Step(after(state))
    purpose = "space_combat" if arena(setup, state) is None else "ground_combat"
    return Chance(
        roller.value,
        purpose,
        pool,
        lambda hits: Step(after(state.with_hits_on(roller.other, hits))),
    )


def assign_combat_hits(setup: BattleSetup, state: BattleState) -> Node[BattleState]:
    """Step 4 (space) / step 2 (ground): each player destroys their own units for the hits the
    opponent produced, sustain damage first if they wish."""
    side = state.turn
    where = arena(setup, state)

    def done(s: BattleState) -> BattleState:
        if side is A:
            return s.at(Phase.ASSIGN_HITS, turn=D)
        return s.at(Phase.AFTER_ASSIGN_HITS, turn=A, cursor=0)

    targets = Targets.SHIPS if where is None else Targets.GROUND_FORCES
    cause = "space combat" if where is None else "ground combat"
    return assign_hits(setup, state, side, where, targets, cause, in_combat_round=True, done=done)


def after_assign_hits(setup: BattleSetup, state: BattleState) -> Node[BattleState]:
    """The window after hits are assigned (Duranium Armor): each handler in order."""
    for index in range(state.cursor, len(setup.handlers)):
        handler = setup.handlers[index]
        if handler.owner is None:
            continue
        node = handler.after_assign_hits(setup, state, handler.owner)
        if node is not None:
            return with_cursor(node, index + 1)
    following = Phase.RETREAT if arena(setup, state) is None else Phase.END_OF_ROUND
    return Step(state.at(following, cursor=0))


def end_of_round(setup: BattleSetup, state: BattleState) -> Node[BattleState]:
    """End of a combat round: damage sustained this round becomes plain damage; then the "end of
    combat round" window, shared with "end of combat" if this was the last round (space rule
    9.1; ground rule 4.2). If both players still have units in the fight, another round begins
    with its "start of combat round" window (space: from Announce Retreats, step 2; ground: from
    Roll Dice)."""
    where = arena(setup, state)
    settled = state.changed(
        attacker=_settled(state, A, where),
        defender=_settled(state, D, where),
        announced=(False, False),
        boosts=_NO_BOOSTS,
    )
    ended = event("round_ended", round=state.round)
    fighting = all(combatants(setup, settled, side) for side in (A, D))
    if not fighting:
        after = Phase.END_OF_COMBAT if where is None else Phase.GROUND_COMBAT_ENDS
        opened = open_windows(setup, settled, (LAST_ROUND_END,), after)
        return Step(opened.state, (ended, *opened.events))
    opened = open_windows(setup, settled, (ROUND_END,), Phase.BEGIN_ROUND)
    return Step(opened.state, (ended, *opened.events))


def begin_round(setup: BattleSetup, state: BattleState) -> Node[BattleState]:
    """Another combat round begins, with its "start of combat round" window: a space combat
    round from Announce Retreats (rule 8), a ground combat round from Roll Dice (rule 3)."""
    where = arena(setup, state)
    first = Phase.ANNOUNCE_RETREATS if where is None else Phase.ROLL_DICE
    turn = D if where is None else A
    following = state.at(state.phase, round=state.round + 1, turn=turn)
    if where is not None and neither_can_win(setup, following):
        # A ground combat may become endless as units die (docs/rulings.md R20); no rule
        # covers that, so it is refused by name, at any round.
        raise RuleNotImplemented(
            "a ground combat that neither side can ever win (the rules give no way out)",
            f"ground combat on {setup.planets[where]}, round {following.round}",
        )
    opened = open_windows(setup, following, (NEXT_ROUND,), first)
    return Step(opened.state, (event("round_started", round=following.round), *opened.events))


def _settled(state: BattleState, side: Side, where: int | None) -> SideState:
    current = state.side(side)
    area = current.area(where)
    settled = area.settle_round()
    return current if settled is area else current.with_area(where, settled)
