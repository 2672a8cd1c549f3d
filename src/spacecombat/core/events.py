"""The event log: one past-tense event per line, every field documented in docs/protocol.md."""

from __future__ import annotations

import json
from collections.abc import Iterable

Event = dict[str, object]


def event(name: str, /, **fields: object) -> Event:
    """An event record: ``{"event": name, ...fields}``."""
    return {"event": name, **fields}


def to_jsonl(events: Iterable[Event]) -> str:
    """Events as JSON Lines, one per line, keys in a stable order."""
    return "".join(json.dumps(e, separators=(",", ":"), ensure_ascii=False) + "\n" for e in events)
