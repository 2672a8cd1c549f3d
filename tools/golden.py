"""Rewrite the golden logs: ``python tools/golden.py``. Each tests/golden/NAME.yaml scenario is
resolved with seed GOLDEN_SEED and its log written to tests/golden/NAME.jsonl. Only run this
when a change to the logs is intended, and review the diff."""

from __future__ import annotations

import sys
from pathlib import Path

from spacecombat.core.events import to_jsonl
from spacecombat.resolver import resolve
from spacecombat.rulesets import load_scenario

GOLDEN = Path(__file__).resolve().parent.parent / "tests" / "golden"
GOLDEN_SEED = 2026


def main() -> int:
    for path in sorted(GOLDEN.glob("*.yaml")):
        played = resolve(load_scenario(path), seed=GOLDEN_SEED)
        path.with_suffix(".jsonl").write_text(to_jsonl(played.events), encoding="utf-8")
        print(f"wrote {path.with_suffix('.jsonl').name}: {played.outcome['result']}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
