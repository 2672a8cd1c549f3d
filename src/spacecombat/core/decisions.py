"""The one door for choices: a request lists the legal options, a policy answers with one.

Every option has a ``text``, the string a player (or a bot, or a log) answers with, e.g.
``"sustain dreadnought"``, ``"destroy fighter"``, ``"retreat"``, ``"to B"``. An answer that is
not among the options is refused with ``IllegalChoice`` and the reason.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Protocol

from spacecombat.core.errors import IllegalChoice


@dataclass(frozen=True, slots=True)
class Option:
    """One legal answer: its text and what it means to the engine."""

    text: str
    action: str
    unit: str | None = None
    status: int | None = None
    target: str | None = None
    count: int = 1


@dataclass(frozen=True, init=False)
class DecisionRequest:
    """A question for one player, with the legal answers and the facts a policy may use."""

    decision: str
    player: str
    prompt: str
    options: tuple[Option, ...]
    facts: Mapping[str, object] = field(default_factory=dict)
    explain: Callable[[str], str] | None = field(default=None, compare=False)

    def __init__(
        self,
        decision: str,
        player: str,
        prompt: str,
        options: tuple[Option, ...],
        facts: Mapping[str, object] | None = None,
        explain: Callable[[str], str] | None = None,
    ) -> None:
        # The fields set at once, not one frozen ``__setattr__`` each (twice as fast): the exact
        # engine makes a request at every decision it follows.
        self.__dict__.update(
            decision=decision,
            player=player,
            prompt=prompt,
            options=options,
            facts={} if facts is None else facts,
            explain=explain,
        )

    @property
    def forced(self) -> bool:
        """Exactly one legal option: the decision is taken without asking anyone."""
        return len(self.options) == 1

    def option(self, text: str) -> Option:
        """The option a player's answer names, or ``IllegalChoice`` saying why it is refused."""
        for option in self.options:
            if option.text == text:
                return option
        wanted = " ".join(text.split())
        for option in self.options:
            if option.text == wanted:
                return option
        allowed = "; ".join(option.text for option in self.options)
        reason = self.explain(wanted) if self.explain else "it is not one of the legal choices"
        raise IllegalChoice(
            f"{self.player}'s {self.decision}: {text!r} is refused: {reason}; allowed: {allowed}"
        )

    def to_json(self) -> dict[str, object]:
        return {
            "decision": self.decision,
            "player": self.player,
            "prompt": self.prompt,
            "options": [option.text for option in self.options],
        }


class Policy(Protocol):
    """Answers decision requests for one player."""

    def choose(self, request: DecisionRequest) -> str:
        """Return the ``text`` of one of ``request.options``."""
        ...


def decide(request: DecisionRequest, policies: Mapping[str, Policy]) -> Option:
    """The option taken: the only legal one (the decision is *forced*: nobody is asked), else
    the deciding player's policy's answer, checked against the legal options."""
    if request.forced:
        return request.options[0]
    return request.option(policies[request.player].choose(request))
