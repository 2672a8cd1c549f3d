"""Taking hits, one at a time, as every ruleset does it: the player whose units were hit
chooses, for the next hit, to let a unit sustain damage (cancelling hits) or to destroy one of
their own units that the hits may reach; hits that no unit can take are lost.

Which units a hit may reach, which may sustain damage, how many hits that cancels and what a
damaged unit becomes are each ruleset's rules: they come in as arguments.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from functools import lru_cache
from typing import Protocol, Self, TypeVar

from spacecombat.core.decisions import DecisionRequest, Option
from spacecombat.core.engine import Decision, Node, Step
from spacecombat.core.events import Event, event
from spacecombat.core.forces import STATUSES, Forces, Status, describe
from spacecombat.core.sides import Side, SideState


class HitState(Protocol):
    """What taking hits reads and changes of a ruleset's state."""

    def side(self, side: Side) -> SideState: ...

    def hits_on(self, side: Side) -> int: ...

    def with_hits_on(self, side: Side, hits: int) -> Self: ...

    def with_units_and_hits(
        self, side: Side, where: int | None, forces: Forces, hits: int
    ) -> Self: ...


H = TypeVar("H", bound=HitState)


def destroyed(
    player: Side, units: Iterable[tuple[str, Status, int]], cause: str
) -> tuple[Event, ...]:
    """One ``unit_destroyed`` event for each of ``units`` ((type, status, count), as a
    ``Forces`` lists them)."""
    return tuple(
        unit_destroyed(player, unit, status, cause)
        for unit, status, count in units
        for _ in range(count)
    )


def unit_destroyed(player: Side, unit: str, status: Status, cause: str) -> Event:
    """The ``unit_destroyed`` event of one unit."""
    return event(
        "unit_destroyed",
        player=player.value,
        unit=unit,
        status=status.label or "undamaged",
        cause=cause,
    )


def next_hit(
    state: H,
    side: Side,
    where: int | None,
    *,
    eligible: Callable[[Forces], list[tuple[str, Status]]],
    targets: str,
    cause: str,
    verb: str,
    may_sustain: Callable[[str, Status], bool],
    cancels: Callable[[int], int],
    damaged: Status,
    done: Callable[[H], H],
    explain: Callable[[Forces, str], str] | None = None,
    after: Callable[[H, Option], H] | None = None,
    sustain_first: frozenset[str] = frozenset(),
    lenders: Callable[[Forces], list[tuple[str, Status]]] | None = None,
) -> Node[H]:
    """Ask ``side`` to take the next hit against it in ``where`` (the space area, ``None``, or a
    planet), or move on with ``done`` when none is left.

    ``eligible(area)``: the (type, status) of the units there the hits may reach (``targets``
    names them, as in "no ships left to take them"); hits none can take are lost.
    ``may_sustain(type, status)``: whether a unit may sustain damage instead of being
    destroyed; it then takes the status ``damaged`` and cancels ``cancels(hits left)`` hits.
    ``verb`` is what the prompt asks ("assign" the next hit); ``explain(area, answer)`` says
    why an answer is refused; ``after(state, option)`` adds what else the ruleset's rules change.
    ``sustain_first``: unit types a policy should always let sustain first (no card can destroy
    them once damaged, as Direct Hit cannot a Dreadnought II), a fact of the request.
    ``lenders(area)``: units there the hits cannot reach that may still use SUSTAIN DAMAGE to
    cancel them (a Nomad mech in the space area), offered as "sustain" only.
    The request's facts also give the ``area`` (a policy's ``keep`` counts the units there).
    """
    hits = state.hits_on(side)
    if hits == 0:
        return Step(done(state))
    area = state.side(side).area(where)
    reachable = eligible(area)
    if not reachable:
        lost = event(
            "hits_lost",
            player=side.value,
            hits=hits,
            cause=cause,
            reason=f"no {targets} left to take them",
        )
        return Step(done(state.with_hits_on(side, 0)), (lost,))
    options = _hit_options(tuple((u, s, may_sustain(u, s)) for u, s in reachable))
    if lenders is not None:
        lent = tuple((u, s) for u, s in lenders(area) if may_sustain(u, s))
        if lent:
            options = options + _sustain_options(lent)
    request = DecisionRequest(
        decision="assign_hit",
        player=side.value,
        prompt=f"{hits} {cause} hit(s) against your {targets}: {verb} the next one",
        options=options,
        facts={"hits": hits, "cause": cause, "sustain_first": sustain_first, "area": area},
        explain=None if explain is None else lambda text: explain(area, text),
    )

    def then(option: Option) -> Step[H]:
        unit, status = option.unit or "", STATUSES[option.status or 0]
        if option.action == "sustain":
            cancelled = cancels(hits)
            forces = area.move(unit, status, damaged)
            happened = event(
                "damage_sustained",
                player=side.value,
                unit=unit,
                hits_cancelled=cancelled,
                cause=cause,
            )
        else:
            cancelled = 1
            forces = area.remove(unit, status)
            happened = unit_destroyed(side, unit, status, cause)
        next_state = state.with_units_and_hits(side, where, forces, hits - cancelled)
        if after is not None:
            next_state = after(next_state, option)
        return Step(next_state, (happened,))

    return Decision(request, then)


@lru_cache(maxsize=4096)
def _hit_options(reachable: tuple[tuple[str, Status, bool], ...]) -> tuple[Option, ...]:
    """The options of the next hit: for each (type, status) the hits may reach, sustain damage
    (where it may) and destroy; the same few lists recur, so they are made once."""
    options: list[Option] = []
    for unit, status, sustains in reachable:
        if sustains:
            options.append(Option(f"sustain {unit}", "sustain", unit, status))
        options.append(Option(f"destroy {describe(unit, status)}", "destroy", unit, status))
    return tuple(options)


@lru_cache(maxsize=1024)
def _sustain_options(units: tuple[tuple[str, Status], ...]) -> tuple[Option, ...]:
    """ "sustain" options of units the hits cannot reach but that may cancel them."""
    return tuple(Option(f"sustain {unit}", "sustain", unit, status) for unit, status in units)
