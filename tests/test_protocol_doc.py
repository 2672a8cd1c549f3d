"""docs/protocol.md documents every event kind and decision the engine can log."""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).parent.parent
DOC = (ROOT / "docs" / "protocol.md").read_text(encoding="utf-8")
SOURCE = "\n".join(p.read_text(encoding="utf-8") for p in (ROOT / "src").rglob("*.py"))


def test_every_event_kind_is_documented() -> None:
    kinds = set(re.findall(r'event\(\s*"([a-z_]+)"', SOURCE))
    assert kinds, "no events found in the source"
    missing = sorted(k for k in kinds if f"`{k}`" not in DOC)
    assert not missing


def test_every_decision_is_documented() -> None:
    decisions = set(re.findall(r'DecisionRequest\(\s*(?:decision=)?"([a-z_]+)"', SOURCE))
    assert len(decisions) >= 8
    missing = sorted(d for d in decisions if f"`{d}`" not in DOC)
    assert not missing
