"""The example scenarios play and replay."""

from __future__ import annotations

from pathlib import Path

import pytest

from spacecombat.replayer import replay
from spacecombat.resolver import resolve
from spacecombat.rulesets import load_scenario

#: the example scenarios (examples/sweep-*.yaml are sweep specs: tests/sweep/test_examples.py)
EXAMPLES = sorted(
    p
    for p in (Path(__file__).parent.parent / "examples").glob("*.yaml")
    if not p.name.startswith("sweep-")
)


@pytest.mark.parametrize("path", EXAMPLES, ids=[p.stem for p in EXAMPLES])
def test_example_plays_and_replays(path: Path) -> None:
    played = resolve(load_scenario(path), seed=11)
    assert played.events[-1]["event"] == "battle_ended"
    assert replay(played.events).reproduces
