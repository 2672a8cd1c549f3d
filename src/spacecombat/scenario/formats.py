"""Reading YAML and JSON strictly and within limits (docs/limits.md).

Refused before any value is built: nesting deeper than ``MAX_DEPTH``, YAML anchors and aliases
(an alias can repeat a value without end: the "billion laughs"), and a key written twice in
one mapping (YAML and JSON would keep the last one silently). ``NaN`` and ``Infinity`` are not
JSON numbers and are refused too. A YAML date stays the text it was written as.
"""

from __future__ import annotations

import json
import re
from functools import cache
from pathlib import Path
from typing import TYPE_CHECKING, Any

from spacecombat.core.errors import ScenarioError
from spacecombat.core.limits import MAX_DEPTH, MAX_SCENARIO_BYTES, shown, shown_path

if TYPE_CHECKING:
    import yaml


class _Refused(Exception):
    """A YAML document breaks one of the reading rules (message and line)."""

    def __init__(self, message: str, line: int) -> None:
        super().__init__(message)
        self.line = line


@cache
def strict_loader() -> type[yaml.SafeLoader]:
    """PyYAML's safe loader without anchors, aliases, duplicate keys or deep nesting. Made on
    first use: PyYAML is imported only when a YAML document is read (a JSON batch never
    needs it)."""
    import yaml
    from yaml.events import AliasEvent, CollectionStartEvent, NodeEvent
    from yaml.nodes import MappingNode, Node

    class StrictLoader(yaml.SafeLoader):
        def __init__(self, stream: str) -> None:
            super().__init__(stream)
            self._depth = 0

        def compose_node(self, parent: Node | None, index: int) -> Node | None:
            event = self.peek_event()  # type: ignore[no-untyped-call]
            line = event.start_mark.line + 1 if event.start_mark else 0
            if isinstance(event, AliasEvent):
                raise _Refused(
                    f"aliases (*{event.anchor}) are not accepted; write the value out", line
                )
            if isinstance(event, NodeEvent) and event.anchor is not None:
                raise _Refused(
                    f"anchors (&{event.anchor}) are not accepted; write the value out", line
                )
            nested = isinstance(event, CollectionStartEvent)
            if nested:
                self._depth += 1
                if self._depth > MAX_DEPTH:
                    raise _Refused(f"nested more than {MAX_DEPTH} levels deep", line)
            try:
                return super().compose_node(parent, index)
            finally:
                if nested:
                    self._depth -= 1

        def construct_mapping(self, node: MappingNode, deep: bool = False) -> dict[Any, Any]:
            seen: set[object] = set()
            for key_node, _ in node.value:
                key = self.construct_object(key_node, deep=True)
                try:
                    twice = key in seen
                    seen.add(key)
                except TypeError:  # a list or a mapping as a key: PyYAML says so below
                    continue
                if twice:
                    line = key_node.start_mark.line + 1
                    raise _Refused(f"the key {shown(key)} is written twice in one mapping", line)
            return super().construct_mapping(node, deep=deep)

    # A date is read as the text it is (a unit or a planet is never a date).
    StrictLoader.yaml_implicit_resolvers = {
        first: [(tag, regexp) for tag, regexp in resolvers if tag != "tag:yaml.org,2002:timestamp"]
        for first, resolvers in yaml.SafeLoader.yaml_implicit_resolvers.items()
    }
    return StrictLoader


def _unreadable(exc: yaml.reader.ReaderError, name: str) -> ScenarioError:
    """A character YAML does not allow (a control character, say)."""
    code = exc.character if isinstance(exc.character, int) else ord(str(exc.character)[:1] or "?")
    return ScenarioError(
        "file",
        f"{name} is not valid YAML: the character U+{code:04X} at offset {exc.position} "
        "is not allowed",
    )


def load_yaml(text: str, name: str) -> object:
    """One YAML document, read strictly."""
    import yaml

    try:
        loader = strict_loader()(text)
    except yaml.reader.ReaderError as exc:  # a character YAML does not allow
        raise _unreadable(exc, name) from exc
    try:
        return _characters_only(loader.get_single_data(), name, "file")
    except _Refused as exc:
        raise ScenarioError("file", f"{name} at line {exc.line}: {exc}") from exc
    except yaml.MarkedYAMLError as exc:
        mark = exc.problem_mark
        where = f" at line {mark.line + 1}" if mark is not None else ""
        problem = f": {exc.problem}" if exc.problem else ""
        raise ScenarioError("file", f"{name} is not valid YAML{where}{problem}") from exc
    except yaml.reader.ReaderError as exc:
        raise _unreadable(exc, name) from exc
    except yaml.YAMLError as exc:
        raise ScenarioError("file", f"{name} is not valid YAML") from exc
    except ValueError as exc:  # an integer of thousands of digits (Python refuses to read it)
        raise ScenarioError("file", f"{name}: a number has thousands of digits") from exc
    finally:
        loader.dispose()


_SURROGATE = re.compile("[\ud800-\udfff]")


def _characters_only(value: object, name: str, field: str) -> object:
    """``value``, refused if any text in it (a key or a value) holds a lone surrogate: an
    escape such as ``"\\ud800"`` that names no character and cannot be written out."""
    stack = [value]
    while stack:
        item = stack.pop()
        if isinstance(item, str):
            if _SURROGATE.search(item):
                raise ScenarioError(
                    field,
                    f"{name}: the text {shown(item)} holds a lone surrogate escape, "
                    "which is not a character",
                )
        elif isinstance(item, dict):
            stack.extend(item.keys())
            stack.extend(item.values())
        elif isinstance(item, list):
            stack.extend(item)
    return value


_STRING = re.compile(r'"(?:[^"\\]|\\.)*"', re.DOTALL)
_BRACKET = re.compile(r"[\[\]{}]")


def json_depth(text: str) -> int:
    """How deeply ``text``'s JSON arrays and objects nest (strings are skipped)."""
    depth = deepest = 0
    for match in _BRACKET.finditer(_STRING.sub("", text)):
        if match.group() in "[{":
            depth += 1
            deepest = max(deepest, depth)
        else:
            depth -= 1
    return deepest


def _no_constant(name: str) -> object:
    raise ValueError(f"{name} is not a number JSON allows")


def _no_duplicates(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for key, value in pairs:
        if key in out:
            raise ValueError(f"the key {shown(key)} is written twice in one object")
        out[key] = value
    return out


def load_json(text: str, name: str, field: str = "file") -> object:
    """One JSON value, read strictly; errors name ``field`` (``file``, or a batch's line)."""
    if json_depth(text) > MAX_DEPTH:
        raise ScenarioError(field, f"{name}: nested more than {MAX_DEPTH} levels deep")
    try:
        value = json.loads(text, object_pairs_hook=_no_duplicates, parse_constant=_no_constant)
    except json.JSONDecodeError as exc:
        raise ScenarioError(
            field, f"{name} is not valid JSON: {exc.msg} at line {exc.lineno} column {exc.colno}"
        ) from exc
    except ValueError as exc:  # a duplicate key, NaN, or an integer of thousands of digits
        reason = str(exc)
        if "integer string conversion" in reason:
            reason = "a number has thousands of digits"
        raise ScenarioError(field, f"{name} is not valid JSON: {reason}") from exc
    return _characters_only(value, name, field)


def read_document(path: str | Path, limit: int = MAX_SCENARIO_BYTES) -> object:
    """A YAML or JSON file (a scenario, an EC4X game state or orders), decoded strictly and
    within ``limit`` bytes (``MAX_SCENARIO_BYTES``; an EC4X game's files ``MAX_STATE_BYTES``):
    read with a bounded ``read``, UTF-8 (a byte-order mark allowed); ``ScenarioError`` on the
    field ``file`` otherwise."""
    path = Path(path)
    try:
        with path.open("rb") as handle:
            data = handle.read(limit + 1)
    except OSError as exc:
        raise ScenarioError("file", f"cannot read {shown_path(str(path))}: {exc.strerror}") from exc
    if len(data) > limit:
        raise ScenarioError(
            "file",
            f"{shown_path(str(path))} is larger than the limit of {limit:,} bytes",
        )
    try:
        text = data.decode("utf-8").removeprefix("\ufeff")
    except UnicodeDecodeError as exc:
        raise ScenarioError("file", f"{shown_path(str(path))} is not UTF-8 text") from exc
    return decode(text, shown(path.name).strip("'"))


def decode(text: str, name: str = "scenario") -> object:
    """Decode YAML, strictly (JSON is YAML too, but a .json file is read as JSON for clearer
    errors): no aliases, no duplicate keys, no deep nesting (above)."""
    if name.endswith(".json"):
        return load_json(text, name)
    return load_yaml(text, name)


def decode_json_line(text: str, number: int) -> object:
    """Line ``number`` of a JSON Lines batch."""
    return load_json(text, "the line", f"line {number}")
