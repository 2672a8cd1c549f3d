"""``spacecombat resolve``: play one battle and print its account or its event log."""

from __future__ import annotations

import argparse
import sys
from typing import TextIO

from spacecombat import rulesets
from spacecombat.cli.streams import scenario_from, write
from spacecombat.core.decisions import DecisionRequest, Policy
from spacecombat.core.errors import IllegalChoice, ScenarioError
from spacecombat.core.events import Event, to_jsonl
from spacecombat.core.limits import shown
from spacecombat.report.text import render
from spacecombat.resolver import resolve
from spacecombat.rulesets import parse_scenario


class TerminalPlayer:
    """Asks a person for each decision, after showing the account of the battle so far (the
    dice the decision is about included); refuses an illegal answer with the reason and asks
    again."""

    def __init__(self, stdin: TextIO | None = None, stderr: TextIO | None = None) -> None:
        self._stdin = stdin
        self._stderr = stderr
        self._events: list[Event] = []
        self._shown = 0

    def seen(self, event: Event) -> None:
        """The resolver's ``on_event``: remember each event as it happens."""
        self._events.append(event)

    def _show(self, text: str, end: str = "\n") -> None:
        stream = self._stderr or sys.stderr
        if stream is not None:
            stream.write(text + end)
            stream.flush()

    def choose(self, request: DecisionRequest) -> str:
        account = render(self._events).splitlines()
        for line in account[self._shown :]:
            self._show(line)
        self._shown = len(account)
        stdin = self._stdin or sys.stdin
        while True:
            self._show(f"\n{request.player}: {request.prompt}")
            for number, option in enumerate(request.options, 1):
                self._show(f"  {number}. {option.text}")
            self._show("> ", end="")
            try:
                line = stdin.readline() if stdin is not None else ""
            except UnicodeDecodeError as exc:
                raise IllegalChoice(
                    f"{request.player}'s {request.decision}: the answer is not UTF-8 text"
                ) from exc
            if not line:
                raise IllegalChoice(
                    f"{request.player}'s {request.decision}: no answer (end of input)"
                )
            answer = str(line).strip()
            if answer.isascii() and answer.isdigit() and 1 <= int(answer) <= len(request.options):
                return request.options[int(answer) - 1].text
            try:
                return request.option(answer).text
            except IllegalChoice as exc:
                self._show(str(exc))


def run(args: argparse.Namespace) -> int:
    scenario = parse_scenario(scenario_from(args.file))
    policies: dict[str, Policy] = {}
    person: TerminalPlayer | None = None
    if args.ask:
        person = TerminalPlayer()
        players = list(rulesets.battle(scenario).stock_policies())
        every = "all" if scenario.ruleset == "ec4x" else "both"
        if args.ask != every and args.ask not in players:
            allowed = ", ".join([*players, every])
            raise ScenarioError("--ask", f"allowed: {allowed} (got {shown(args.ask)})")
        for player in players:
            if args.ask in (player, every):
                policies[player] = person
    played = resolve(
        scenario,
        seed=args.seed,
        policies=policies,
        on_event=person.seen if person is not None else None,
    )
    # Output is written only once the whole battle is resolved: never a half-written log.
    write(to_jsonl(played.events) if args.format == "jsonl" else render(played.events))
    return 0
