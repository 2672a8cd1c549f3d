"""What the TI3 action cards share: the holder's ``play_card`` decision, as TI4's (options
"play <card>" and "pass"; facts ``card`` and ``round``, which ``policy.play`` reads), and the
``card_played`` event."""

from __future__ import annotations

from collections.abc import Callable, Mapping

from spacecombat.core.decisions import DecisionRequest, Option
from spacecombat.core.engine import Decision, Node, Step
from spacecombat.core.events import Event, event
from spacecombat.core.sides import Side
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
) -> Node[Ti3State]:
    """Ask ``owner`` whether to play ``card``: "play" takes the card from its hand and does
    ``play``; "pass" goes on with ``passed``."""
    request = DecisionRequest(
        "play_card",
        owner.value,
        prompt,
        (Option(f"play {card}", "play", target=card), Option("pass", "pass")),
        facts={"card": card, "round": state.round, **(facts or {})},
    )

    def then(option: Option) -> Step[Ti3State]:
        if option.action != "play":
            return Step(passed)
        done = play(state.played(owner, card))
        return Step(done.state, (card_played(owner, card, state.round), *done.events))

    return Decision(request, then)
