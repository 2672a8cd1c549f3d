"""Timing windows of a combat: "start of combat", "start of combat round", "end of combat
round", "end of combat". In the first round the two start windows are one window, and in the
last round the two end windows are one window (ti4-space-combat.md rule 2.1 and 9.1;
ti4-ground-combat.md rule 4.1, 4.2 and notes 1, 2). Each handler in play may act once in each
window, in the handlers' documented order."""

from __future__ import annotations

from enum import StrEnum

from spacecombat.core.engine import Node, Step
from spacecombat.core.events import event
from spacecombat.rulesets.ti4.procedures.common import with_cursor
from spacecombat.rulesets.ti4.setup import BattleSetup
from spacecombat.rulesets.ti4.state import BattleState, Phase


class Window(StrEnum):
    START_OF_COMBAT = "start_of_combat"
    START_OF_COMBAT_ROUND = "start_of_combat_round"
    END_OF_COMBAT_ROUND = "end_of_combat_round"
    END_OF_COMBAT = "end_of_combat"


FIRST_ROUND = (Window.START_OF_COMBAT, Window.START_OF_COMBAT_ROUND)
NEXT_ROUND = (Window.START_OF_COMBAT_ROUND,)
LAST_ROUND_END = (Window.END_OF_COMBAT_ROUND, Window.END_OF_COMBAT)
ROUND_END = (Window.END_OF_COMBAT_ROUND,)


def open_windows(
    setup: BattleSetup, state: BattleState, windows: tuple[tuple[Window, ...], ...], then: Phase
) -> Step[BattleState]:
    """Move to the first of ``windows`` (each a set of windows that share one moment); after
    the last, go on to ``then``. When no handler in play acts in timing windows, they open and
    pass in this one step (the same events, one state fewer)."""
    if not setup.acts_in_windows:
        passed = state.at(then, windows=(), then=None, cursor=0)
        return Step(passed, tuple(_opened(state, group) for group in windows))
    first = windows[0]
    nxt = state.at(Phase.TIMING_WINDOW, windows=windows, then=then, cursor=0)
    return Step(nxt, (_opened(state, first),))


def _opened(state: BattleState, windows: tuple[str, ...]) -> dict[str, object]:
    return event("window_opened", windows=[str(w) for w in windows], round=state.round)


def timing_window(setup: BattleSetup, state: BattleState) -> Node[BattleState]:
    """Let each handler act in the current window, then open the next one or go on."""
    handlers = setup.handlers
    if state.cursor < len(handlers):
        current = frozenset(state.windows[0])
        for index in range(state.cursor, len(handlers)):
            node = handlers[index].in_window(setup, state, current)
            if node is not None:
                return with_cursor(node, index + 1)
    rest = state.windows[1:]
    if rest:
        nxt = state.changed(windows=rest, cursor=0)
        return Step(nxt, (_opened(state, rest[0]),))
    assert state.then is not None
    return Step(state.at(state.then, windows=(), then=None, cursor=0))
