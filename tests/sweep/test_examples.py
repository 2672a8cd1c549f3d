"""The example sweep specs (examples/sweep-*.yaml) are valid, and their pictures are drawn."""

from __future__ import annotations

from pathlib import Path

import pytest

from spacecombat.sweeps.plot import check_plot
from spacecombat.sweeps.run import as_spec

ROOT = Path(__file__).parents[2]
EXAMPLES = sorted((ROOT / "examples").glob("sweep-*.yaml"))


def test_there_are_examples() -> None:
    assert len(EXAMPLES) >= 2


@pytest.mark.parametrize("path", EXAMPLES, ids=[p.stem for p in EXAMPLES])
def test_example_is_a_valid_spec_with_a_picture(path: Path) -> None:
    spec = as_spec(path)
    assert spec.count() >= 10
    assert check_plot(spec) in ("heat", "lines")
