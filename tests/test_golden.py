"""Golden logs: each battle in tests/golden resolves, with the golden seed, to exactly the
logged events, and each log replays itself. Rewrite them only with tools/golden.py."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from spacecombat.core.events import Event
from spacecombat.replayer import replay
from spacecombat.resolver import resolve
from spacecombat.rulesets import load_scenario

GOLDEN = Path(__file__).parent / "golden"
GOLDEN_SEED = 2026
CASES = sorted(GOLDEN.glob("*.yaml"))


def _log(path: Path) -> list[Event]:
    lines = path.with_suffix(".jsonl").read_text(encoding="utf-8").splitlines()
    return [json.loads(line) for line in lines]


def test_there_are_golden_logs() -> None:
    assert len(CASES) >= 5
    assert all(p.with_suffix(".jsonl").exists() for p in CASES)


@pytest.mark.parametrize("path", CASES, ids=[p.stem for p in CASES])
def test_battle_matches_its_golden_log(path: Path) -> None:
    played = resolve(load_scenario(path), seed=GOLDEN_SEED)
    assert list(played.events) == _log(path)


@pytest.mark.parametrize("path", CASES, ids=[p.stem for p in CASES])
def test_golden_log_replays(path: Path) -> None:
    assert replay(_log(path)).reproduces
