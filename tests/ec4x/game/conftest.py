"""Fixtures of the EC4X game tests."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

GAME = Path(__file__).parents[3] / "examples" / "ec4x" / "game"


@pytest.fixture
def game(tmp_path: Path) -> Path:
    """A folder holding the example game's state and its first orders (examples/ec4x/game)."""
    for name in ("state.json", "orders-turn-1.json"):
        shutil.copy(GAME / name, tmp_path / name)
    return tmp_path
