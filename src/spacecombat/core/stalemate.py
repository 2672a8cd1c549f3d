"""Finding battles that can never end, as the rulesets do it: follow, from a state, the path
where one player hits with every die and the others never do, the stock policies deciding,
and see whether it ends before a state repeats. What "ended" and "repeats" mean, and what a
battle that cannot end becomes, are each ruleset's rules (its ``procedures/stalemate.py``).

Both the check and what it finds are shared here: the path (``favoured_path``), and the
memory of the answers per battle setup with a guard so that no check runs inside another one
(``PathCheck``).
"""

from __future__ import annotations

import contextvars
import weakref
from collections.abc import Callable, Hashable, Iterator, Mapping
from typing import Generic, TypeVar

from spacecombat.core.decisions import DecisionRequest, Option, Policy
from spacecombat.core.engine import Chance, Decision, End, Node, Step

S = TypeVar("S")
K = TypeVar("K", bound=Hashable)


def favoured_path(
    advance: Callable[[S], Node[S]],
    start: S,
    favoured: str,
    policies: Mapping[str, Policy],
    prefer: Callable[[DecisionRequest], Option | None] | None = None,
) -> Iterator[S]:
    """The states from ``start`` on, on the path where ``favoured`` hits with every die (and
    rolls no marks) and every other player never hits; decisions are taken by ``prefer``
    where it names an option, else by the player's policy. It stops when the battle ends."""
    state = start
    while True:
        yield state
        node = advance(state)
        if isinstance(node, End):
            return
        if isinstance(node, Step):
            state = node.state
        elif isinstance(node, Chance):
            hits = node.pool.max_hits if node.roller == favoured else 0
            state = node.after((hits, 0) if node.then_marked else hits).state
        elif isinstance(node, Decision):
            request = node.request
            option = prefer(request) if prefer is not None else None
            if option is None:
                option = request.option(policies[request.player].choose(request))
            state = node.then(option).state
        else:
            raise TypeError(f"a path of the stalemate check met {type(node).__name__}")


class PathCheck(Generic[K]):
    """The answers of a check that follows paths, remembered per battle setup (while the setup
    lives) and key; no check runs while one is running (``running``): the paths it follows
    would ask it again."""

    def __init__(self, name: str) -> None:
        self._running = contextvars.ContextVar(name, default=False)
        self._known: weakref.WeakKeyDictionary[object, dict[K, bool]] = weakref.WeakKeyDictionary()

    @property
    def running(self) -> bool:
        """Whether a check is being run (in this context)."""
        return self._running.get()

    def answer(self, setup: object, key: K, check: Callable[[], bool]) -> bool:
        """The answer for ``key`` in the battle of ``setup``: remembered, or ``check()`` run
        with ``running`` set."""
        known = self._known.setdefault(setup, {})
        if key not in known:
            token = self._running.set(True)
            try:
                known[key] = check()
            finally:
                self._running.reset(token)
        return known[key]
