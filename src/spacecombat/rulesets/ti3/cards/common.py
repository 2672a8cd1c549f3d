"""What the TI3 action cards share: the holder's ``play_card`` decision, as TI4's (options
"play <card>" and "pass"; facts ``card`` and ``round``, which ``policy.play`` reads), and the
``card_played`` event."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Protocol

from spacecombat.core.decisions import DecisionRequest, Option
from spacecombat.core.engine import Decision, Node, Step
from spacecombat.core.events import Event, event
from spacecombat.core.forces import Status
from spacecombat.core.sides import Side
from spacecombat.core.state import ships
from spacecombat.rulesets.ti3.setup import Ti3Setup
from spacecombat.rulesets.ti3.state import Ti3State


def card_played(owner: Side, card: str, round_number: int) -> Event:
    """The ``card_played`` event (as TI4's)."""
    return event("card_played", player=owner.value, card=card, round=round_number)


def offer(
    owner: Side,
    card: str,
    state: Ti3State,
    prompt: str,
    play: Callable[[Ti3State], Step[Ti3State]],
    passed: Ti3State,
    facts: Mapping[str, object] | None = None,
    first: bool = True,
) -> Node[Ti3State]:
    """Ask ``owner`` whether to play ``card``: "play" takes the card from its hand and does
    ``play``; "pass" goes on with ``passed``. ``first``: "play" is listed first (else "pass",
    which the stock player then takes: ``play_first``)."""
    request = DecisionRequest(
        "play_card",
        owner.value,
        prompt,
        ordered((Option(f"play {card}", "play", target=card),), first),
        facts={"card": card, "round": state.round, **(facts or {})},
    )

    def then(option: Option) -> Step[Ti3State]:
        if option.action != "play":
            return Step(passed)
        done = play(state.played(owner, card))
        return Step(done.state, (card_played(owner, card, state.round), *done.events))

    return Decision(request, then)


def offer_choices(
    owner: Side,
    card: str,
    state: Ti3State,
    prompt: str,
    labels: Sequence[str],
    play: Callable[[int], Step[Ti3State]],
    passed: Ti3State,
    first: bool = True,
) -> Node[Ti3State]:
    """Ask ``owner`` whether to play ``card`` and how: one "play" option per label of
    ``labels`` (its target the label's index) and "pass", the plays first when ``first``
    (``ordered``); a play does ``play`` with the chosen index (which takes the card from the
    hand, if it is one, and says so), "pass" goes on with ``passed``."""
    options = tuple(Option(label, "play", target=str(i)) for i, label in enumerate(labels))
    request = DecisionRequest(
        "play_card",
        owner.value,
        prompt,
        ordered(options, first),
        facts={"card": card, "round": state.round},
    )

    def then(option: Option) -> Step[Ti3State]:
        if option.action != "play":
            return Step(passed)
        return play(int(option.target or 0))

    return Decision(request, then)


def damaged(unit: str, status: Status) -> str:
    """``unit`` in an option's words, " (damaged)" after it unless it is undamaged."""
    return unit + (" (damaged)" if status is not Status.UNDAMAGED else "")


def held_with_unit(setup: Ti3Setup, state: Ti3State, side: Side, card: str, unit: str) -> bool:
    """``side`` holds ``card`` in a space battle, has a ``unit`` in it and faces enemy ships
    (A Beacon of Hope's flagship, Fighter Prototype's fighters)."""
    return (
        setup.kind == "space"
        and card in state.hand(side)
        and bool(state.side(side).space.count(unit))
        and bool(ships(setup, state, side.other))
    )


def offer_kept(
    owner: Side, card: str, state: Ti3State, prompt: str, passed: Ti3State, **changes: object
) -> Node[Ti3State]:
    """``offer`` of a card whose play only puts it in play (``spent_by``, or the state's
    fields ``changes``, read where its effect applies): the play goes on at ``passed``'s
    step."""

    def play(after: Ti3State) -> Step[Ti3State]:
        return Step(after.changed(step=passed.step, **changes))

    return offer(owner, card, state, prompt, play, passed)


def marked(pair: tuple[bool, bool], side: Side) -> tuple[bool, bool]:
    """A (attacker, defender) pair of flags with ``side``'s set (a card played this round)."""
    return (True, pair[1]) if side is Side.ATTACKER else (pair[0], True)


def play_first(setup: Ti3Setup, side: Side, card: str, gains: bool) -> bool:
    """Whether ``side``'s "play" options of ``card`` come before "pass" (the stock player
    takes the first option where ``policy.play`` does not say ``never`` or a later round:
    core/policies.py ``_play_card``; docs/rulings.md 27S-23): when its ``policy.play`` names a
    round for the card (the player asked for it), else only when the play ``gains``, as TI4's
    stock Exotrireme II passes first where the play is not worth it (14B-4)."""
    return isinstance(dict(setup.side(side).policy.play).get(card), int) or gains


def ordered(plays: Sequence[Option], first: bool) -> tuple[Option, ...]:
    """``plays`` and "pass", the plays first when ``first`` (``play_first``)."""
    passing = Option("pass", "pass")
    return (*plays, passing) if first else (passing, *plays)


class WindowCard(Protocol):
    """A card module played in a window both players are asked in (the attacker first): its
    ``applies`` says whether ``side`` may play it now, its ``ask`` offers it and goes on with
    ``passed`` (whose ``step`` the play keeps too)."""

    CARD: str

    def applies(self, setup: Ti3Setup, state: Ti3State, side: Side) -> bool: ...

    def ask(
        self, setup: Ti3Setup, state: Ti3State, side: Side, passed: Ti3State
    ) -> Node[Ti3State]: ...


def held_by_anyone(setup: Ti3Setup, cards: Sequence[WindowCard]) -> bool:
    """Whether either player holds one of ``cards`` (else the window is never opened)."""
    return any(s.holds(c.CARD) for s in setup.sides.values() for c in cards)


def window(
    setup: Ti3Setup,
    state: Ti3State,
    cards: Sequence[WindowCard],
    prefix: str,
    finish: Callable[[Ti3State], Node[Ti3State]],
) -> Node[Ti3State]:
    """Ask each player in turn, the attacker first, about each of ``cards`` it may play now;
    then ``finish`` (with ``step`` cleared). ``state.step`` is ``prefix`` and the position of
    the next (player, card) to ask while the window is open; any other step opens it."""
    order = [(side, card) for side in (Side.ATTACKER, Side.DEFENDER) for card in cards]
    at = int(state.step[len(prefix) :] or 0) if state.step.startswith(prefix) else 0
    for index in range(at, len(order)):
        side, card = order[index]
        if state.silenced and setup.side(side).holds(card.CARD):
            continue  # Communications Breakdown: no action card (27S-29)
        if card.applies(setup, state, side):
            here = state.changed(step=f"{prefix}{index}")
            return card.ask(setup, here, side, here.changed(step=f"{prefix}{index + 1}"))
    return finish(state.changed(step=""))


def in_window(state: Ti3State, prefix: str) -> bool:
    """Whether the window of ``prefix`` is open."""
    return state.step.startswith(prefix)
