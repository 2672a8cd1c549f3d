"""Replay a log and check it.

A replay (docs/protocol.md, "Replay") plays the logged battle again, event by event, and stops
at the first event that differs from the log, naming its log line. With a seed in the log's
header the dice are rolled again from that seed, which proves them genuine; without one they
can only be taken from the log, so the replay checks what follows from them but not the dice
themselves (``ReplayReport.verified`` is then false). Recorded choices are answered where the
log has them; a choice the rules do not allow is a difference too. A log that cannot be
replayed at all (no header, an unknown version, a scenario that fails validation, a die face
no d10 shows) is a ``ReplayError``.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, NoReturn

from spacecombat import rulesets
from spacecombat.core.decisions import DecisionRequest, Policy
from spacecombat.core.dice import SIDES, Dice
from spacecombat.core.engine import Chance, Draw, Node, play
from spacecombat.core.errors import IllegalChoice, ReplayError, ScenarioError, SpacecombatError
from spacecombat.core.events import Event
from spacecombat.core.limits import MAX_SEED, shown
from spacecombat.resolver import LOG_VERSION, log_header
from spacecombat.rulesets import parse_scenario
from spacecombat.scenario.formats import load_json

#: characters of a logged or replayed event shown in a replay's report
SHOWN = 200


@dataclass(frozen=True)
class ReplayReport:
    """Whether a log reproduces itself, and where it first differs if not.

    ``verified``: the dice were rolled again from the log's seed (without a seed they were
    taken from the log, unverified). When the log does not reproduce, ``reason`` says why,
    naming the log line; ``index`` and ``line`` are the event (from 0) and the log line (from 1)
    of the first difference; ``expected`` and ``got`` are the log's event and the replay's there
    (``None`` where one has ended or has no event to show), and ``logged`` and ``replayed`` the
    same, cut to be shown.
    """

    reproduces: bool
    events: int
    index: int | None = None
    expected: Event | None = None
    got: Event | None = None
    reason: str = ""
    verified: bool = False
    line: int | None = None
    logged: str = ""
    replayed: str = ""
    seed: int | None = None


def replay(log: Sequence[Event], lines: Sequence[int] | None = None) -> ReplayReport:
    """Play the logged battle again from its header's scenario and compare every event.

    The dice come from the header's seed when it has one (``verified``), else from the log's
    ``dice_rolled`` events; choices come from the log's ``choice_made`` events. ``lines`` gives
    each event's line in the log file (default: event ``i`` is on line ``i + 1``); messages name
    them. ``ReplayError`` if the log is malformed or cannot be replayed."""
    if lines is None:
        lines = range(1, len(log) + 1)
    elif len(lines) != len(log):
        raise ValueError(f"{len(lines)} line numbers for {len(log)} events")
    seed = _check(log, lines)
    try:
        scenario = parse_scenario(log[0].get("scenario"))
        process = rulesets.battle(scenario)
        players = list(process.stock_policies())
    except SpacecombatError as exc:
        raise ReplayError(
            f"log line {lines[0]}: the scenario in the battle_started event is not valid: {exc}"
        ) from exc
    # An EC4X log says where its seed came from; any source it could truly have is taken as
    # logged (the seed itself is what the replay checks), any other shows as a difference.
    logged_source = log[0].get("seed_source")
    allowed = rulesets.seed_sources(scenario, seed)
    source = logged_source if isinstance(logged_source, str) and logged_source in allowed else None
    if source is None and seed is not None:
        source = rulesets.seed_source(scenario, given=False)
    run = _Run(log, lines, process, seed)
    policies: dict[str, Policy] = {player: _LoggedChoices(run) for player in players}
    dice: Dice = rulesets.dice_for(scenario, seed) if seed is not None else _LoggedDice(run)
    try:
        run.compare(log_header(scenario, seed, source))
        play(run, dice, policies, on_event=run.compare)
    except _Stop as stop:
        return stop.report
    except SpacecombatError as exc:
        if run.next <= 1:
            raise ReplayError(
                f"log line {lines[0]}: the scenario in the battle_started event cannot be "
                f"played: {exc}"
            ) from exc
        at = run.line(run.next) if run.next < len(log) else run.line(len(log) - 1)
        raise ReplayError(f"log line {at}: the replay cannot go on: {exc}") from exc
    if run.next < len(log):
        extra = log[run.next]
        return run.differs(
            run.next,
            f"log line {run.line(run.next)}: the battle ended at line "
            f"{run.line(run.next - 1)}, but the log goes on: {cut(extra)}",
            expected=extra,
        )
    return ReplayReport(True, len(log), verified=seed is not None, seed=seed)


def cut(value: object, width: int = SHOWN) -> str:
    """``value`` as JSON on one line, cut to ``width`` characters with an ellipsis."""
    try:
        text = json.dumps(value, ensure_ascii=False)
    except (TypeError, ValueError, RecursionError):  # not from a JSON log: show it as it is
        return shown(value, width)
    return text if len(text) <= width else text[: width - 1] + "…"


#: what JSON allows around a value; a line of only these is blank
_BLANK = " \t\r"


def replay_message(report: ReplayReport) -> str:
    """What the command says of a replay (the HTTP API says the same)."""
    if report.reproduces and report.verified:
        return (
            f"reproduces: {report.events} events replayed identically; the dice were "
            f"re-derived from the seed {report.seed}"
        )
    if report.reproduces:
        return (
            f"reproduces, unverified: {report.events} events replayed identically, but the log "
            "has no seed, so its dice were taken from the log and are NOT verified"
        )
    out = [f"does not reproduce: {report.reason}"]
    if report.logged:
        out.append(f"  log:    {report.logged}")
    if report.replayed and report.replayed not in report.reason:
        out.append(f"  replay: {report.replayed}")
    if report.seed is None:
        out.append("  (the log has no seed: its dice were taken from the log, not verified)")
    return "\n".join(out)


def read_log(text: str) -> tuple[list[Event], list[int]]:
    """The events of a JSON Lines log and the line each is on (from 1, counting blank lines);
    each line read strictly (depth, duplicate keys, NaN). ``ReplayError`` names the line."""
    events: list[Event] = []
    lines: list[int] = []
    for number, line in enumerate(text.split("\n"), 1):
        if not line.strip(_BLANK):
            continue
        try:
            item = load_json(line, f"log line {number}", field="")
        except ScenarioError as exc:  # the position within a line of JSON Lines is a column
            raise ReplayError(str(exc).replace(" at line 1 column ", " at column ")) from exc
        if not isinstance(item, dict):
            raise ReplayError(f"log line {number}: an event is a JSON object")
        events.append(item)
        lines.append(number)
    return events, lines


class _Stop(Exception):
    """The replay has found the first difference (never a ``SpacecombatError``)."""

    def __init__(self, report: ReplayReport) -> None:
        super().__init__(report.reason)
        self.report = report


class _Run:
    """One replay in progress: the battle's process (watched, so that the dice know which
    roll they are for) and where the replay is in the log."""

    def __init__(
        self, log: Sequence[Event], lines: Sequence[int], process: Any, seed: int | None
    ) -> None:
        self.log = log
        self.lines = lines
        self.process = process
        self.seed = seed
        #: the index of the replay's next event
        self.next = 0
        #: the chance node being rolled, and how many of its groups have been rolled
        self.chance: Chance[Any] | None = None
        self.rolled = 0
        #: the draw being drawn
        self.draw: Draw[Any] | None = None

    # the process, as ``play`` drives it
    def start(self) -> Any:
        return self.process.start()

    def advance(self, state: Any) -> Node[Any]:
        node: Node[Any] = self.process.advance(state)
        self.chance = node if isinstance(node, Chance) else None
        self.draw = node if isinstance(node, Draw) else None
        self.rolled = 0
        return node

    def line(self, index: int) -> int:
        return self.lines[index]

    def compare(self, got: Event) -> None:
        """The replay's next event: stop unless the log has the same one there."""
        index = self.next
        if index >= len(self.log):
            self.ended(cut(got), got=got)
        if not same(self.log[index], got):
            self.stop(self.differs(index, expected=self.log[index], got=got))
        self.next += 1

    def ended(self, what: str, got: Event | None = None) -> NoReturn:
        """Stop: the log has ended but the battle goes on with ``what``."""
        index = len(self.log)
        last = self.line(index - 1)
        self.stop(
            self.report(
                index,
                f"the log ends at line {last}, but the battle goes on: the replay's next "
                f"event is {what}",
                line=last + 1,
                got=got,
                replayed=what,
            )
        )

    def differs(
        self,
        index: int,
        reason: str = "",
        *,
        expected: Event | None = None,
        got: Event | None = None,
        replayed: str = "",
    ) -> ReplayReport:
        """The log's event ``index`` is not the replay's."""
        line = self.line(index)
        if reason:  # it says all
            return self.report(index, reason, line=line, expected=expected, got=got)
        reason = f"log line {line} differs from the replay"
        if expected is not None and got is not None:
            reason += _where(expected, got)
        return self.report(
            index,
            reason,
            line=line,
            expected=expected,
            got=got,
            logged=cut(expected) if expected is not None else "",
            replayed=replayed or (cut(got) if got is not None else ""),
        )

    def report(
        self,
        index: int,
        reason: str,
        *,
        line: int,
        expected: Event | None = None,
        got: Event | None = None,
        logged: str = "",
        replayed: str = "",
    ) -> ReplayReport:
        return ReplayReport(
            False,
            len(self.log),
            index,
            expected,
            got,
            reason,
            verified=False,
            line=line,
            logged=logged,
            replayed=replayed,
            seed=self.seed,
        )

    def stop(self, report: ReplayReport) -> NoReturn:
        raise _Stop(report)


class _LoggedChoices:
    """A player answering as the log says they did, at the place in the log where the replay
    asks."""

    def __init__(self, run: _Run) -> None:
        self.run = run

    def choose(self, request: DecisionRequest) -> str:
        run = self.run
        asked = (
            f"the {request.player}'s choice for {request.decision} (options: {_options(request)})"
        )
        if run.next >= len(run.log):
            run.ended(asked)
        logged = run.log[run.next]
        if (
            logged.get("event") != "choice_made"
            or logged.get("player") != request.player
            or logged.get("decision") != request.decision
        ):
            run.stop(run.differs(run.next, expected=logged, replayed=asked))
        choice = logged.get("choice")
        assert isinstance(choice, str)  # checked before the replay
        try:
            request.option(choice)
        except IllegalChoice:
            line = run.line(run.next)
            wanted = " ".join(choice.split())
            why = request.explain(wanted) if request.explain else ""
            why = why or "it is not one of the legal choices"
            reason = (
                f"log line {line}: the {request.player}'s choice {shown(choice)} for "
                f"{request.decision} is not allowed: {_short(why)}; allowed: {_options(request)}"
            )
            run.stop(run.differs(run.next, reason, expected=logged))
        return choice


class _LoggedDice:
    """Dice that show the faces the log has at the place where the replay rolls (a log
    without a seed)."""

    def __init__(self, run: _Run) -> None:
        self.run = run

    def roll(self, count: int) -> tuple[int, ...]:
        run = self.run
        group = run.rolled
        run.rolled += 1
        chance = run.chance
        what = (
            f"a roll of {count} dice (the {chance.roller}'s {chance.purpose}, group "
            f"{group + 1}) whose faces the log does not have"
            if chance is not None
            else f"a roll of {count} dice whose faces the log does not have"
        )
        if run.next >= len(run.log):
            run.ended(what)
        logged = run.log[run.next]
        groups = logged.get("groups")
        if (
            logged.get("event") == "dice_rolled"
            and isinstance(groups, list)
            and group < len(groups)
        ):
            faces = groups[group]["faces"]  # checked before the replay
            if len(faces) == count:
                return tuple(faces)
        run.stop(run.differs(run.next, expected=logged, replayed=what))

    def pick(self, weights: Sequence[int]) -> int:
        """The outcome the log's ``drawn`` event names, at the place where the replay draws."""
        run = self.run
        draw = run.draw
        assert draw is not None
        what = f"the {draw.player}'s {draw.kind} draw for {draw.purpose}" if draw.player else ""
        what = what or f"a {draw.kind} draw for {draw.purpose}"
        if run.next >= len(run.log):
            run.ended(what)
        logged = run.log[run.next]
        value = logged.get("value")
        if (
            logged.get("event") == "drawn"
            and logged.get("purpose") == draw.purpose
            and logged.get("kind") == draw.kind
            and value in draw.labels
        ):
            return draw.labels.index(str(value))
        run.stop(run.differs(run.next, expected=logged, replayed=what))


def _options(request: DecisionRequest) -> str:
    return _short("; ".join(option.text for option in request.options))


def _short(text: str, width: int = SHOWN) -> str:
    return text if len(text) <= width else text[: width - 1] + "…"


def same(a: object, b: object) -> bool:
    """Whether two events (or values in them) are the same JSON: unlike ``==``, ``true`` is
    not ``1`` and ``1.0`` is not ``1``."""
    if isinstance(a, bool) or isinstance(b, bool):
        return isinstance(a, bool) and isinstance(b, bool) and a == b
    if isinstance(a, int) or isinstance(b, int):
        return isinstance(a, int) and isinstance(b, int) and a == b
    if isinstance(a, float) or isinstance(b, float):
        return isinstance(a, float) and isinstance(b, float) and a == b
    if isinstance(a, str) or isinstance(b, str):
        return isinstance(a, str) and isinstance(b, str) and a == b
    if isinstance(a, Mapping) or isinstance(b, Mapping):
        return (
            isinstance(a, Mapping)
            and isinstance(b, Mapping)
            and a.keys() == b.keys()
            and all(same(a[key], b[key]) for key in a)
        )
    if isinstance(a, list | tuple) or isinstance(b, list | tuple):
        return (
            isinstance(a, list | tuple)
            and isinstance(b, list | tuple)
            and len(a) == len(b)
            and all(same(x, y) for x, y in zip(a, b, strict=True))
        )
    return a == b


def _where(logged: object, replayed: object, path: str = "") -> str:
    """Where two different values first differ: `` at PATH (log X, replay Y)``."""
    if isinstance(logged, Mapping) and isinstance(replayed, Mapping):
        for key in [*logged, *(k for k in replayed if k not in logged)]:
            here = f"{path}.{key}" if path else str(key)
            if key not in replayed:
                return f" at {_short(here, 60)} (the replay has no {shown(key)})"
            if key not in logged:
                return f" at {_short(here, 60)} (the log has no {shown(key)})"
            if not same(logged[key], replayed[key]):
                return _where(logged[key], replayed[key], here)
    elif (
        isinstance(logged, list | tuple)
        and isinstance(replayed, list | tuple)
        and len(logged) == len(replayed)
    ):
        for number, (x, y) in enumerate(zip(logged, replayed, strict=True)):
            if not same(x, y):
                return _where(x, y, f"{path}[{number}]")
    where = f" at {_short(path, 60)}" if path else ""
    return f"{where} (log {shown(logged)}, replay {shown(replayed)})"


def _check(log: Sequence[Event], lines: Sequence[int]) -> int | None:
    """Refuse a malformed log (``ReplayError`` naming the line); return its seed, if any."""
    if not log:
        raise ReplayError("the log is empty: a log starts with a battle_started event")
    for index, item in enumerate(log):
        line = lines[index]
        if not isinstance(item, Mapping):
            raise ReplayError(f"log line {line}: an event is a JSON object, not {_kind(item)}")
        kind = item.get("event")
        if not isinstance(kind, str):
            raise ReplayError(f'log line {line}: an event names its kind in "event"')
        if index == 0 and kind != "battle_started":
            raise ReplayError(
                f"log line {line}: a log starts with a battle_started event, not {shown(kind)}"
            )
        if kind == "dice_rolled":
            _check_faces(item, line)
        elif kind == "drawn" and not isinstance(value := item.get("value"), str):
            raise ReplayError(
                f"log line {line}: a draw's value is the text of its outcome, not {shown(value)}"
            )
        elif kind == "choice_made" and not isinstance(choice := item.get("choice"), str):
            raise ReplayError(
                f"log line {line}: a choice is the text of an option, not {shown(choice)}"
            )
    header = log[0]
    version = header.get("log_version")
    if isinstance(version, bool) or version != LOG_VERSION:
        raise ReplayError(
            f"log line {lines[0]}: log_version {shown(version)} is not {LOG_VERSION}, "
            "the version this spacecombat reads"
        )
    if "seed" not in header:
        raise ReplayError(
            f"log line {lines[0]}: the battle_started event has no seed "
            "(a whole number, or null when the dice were not seeded)"
        )
    seed = header["seed"]
    if seed is not None and (
        isinstance(seed, bool) or not isinstance(seed, int) or not 0 <= seed <= MAX_SEED
    ):
        raise ReplayError(
            f"log line {lines[0]}: the seed is {shown(seed)}; a seed is a whole number from 0 "
            f"to {MAX_SEED}, or null when the dice were not seeded"
        )
    return seed


def _check_faces(roll: Event, line: int) -> None:
    groups = roll.get("groups")
    if not isinstance(groups, list):
        raise ReplayError(f"log line {line}: a dice_rolled event has a list of groups")
    for group in groups:
        faces = group.get("faces") if isinstance(group, dict) else None
        if not isinstance(faces, list):
            raise ReplayError(f"log line {line}: each group of a dice_rolled event has faces")
        for face in faces:
            if isinstance(face, bool) or not isinstance(face, int) or not 1 <= face <= SIDES:
                raise ReplayError(
                    f"log line {line}: a die face is {shown(face)}; a d10 shows a whole number "
                    f"from 1 to {SIDES}"
                )


def _kind(value: object) -> str:
    if isinstance(value, list | tuple):
        return "an array"
    if isinstance(value, str):
        return "a string"
    if isinstance(value, bool):
        return "true or false"
    if isinstance(value, int | float):
        return "a number"
    if value is None:
        return "null"
    return "a value of another kind"
