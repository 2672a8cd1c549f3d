"""The rounds distribution keeps all the mass: P(the battle ends in round r), summed, plus what
is still fighting, is 1 less the residual. EC4X's ground combat (7.6.1 "Repeat the process
until one side is completely destroyed") repeats within a round of the battle (its rounds begin
no combat round), and its mass circling there was once dropped: ``invasion.yaml`` gave rounds
summing to 0.9455."""

from __future__ import annotations

from pathlib import Path

import pytest
import yaml

from spacecombat.analysis.exact import exact_odds

EXAMPLES = Path(__file__).parents[2] / "examples" / "ec4x"


@pytest.mark.parametrize("name", ["invasion.yaml", "invasion-fails.yaml", "blitz.yaml"])
def test_the_rounds_of_an_ec4x_siege_keep_all_the_mass(name: str) -> None:
    path = EXAMPLES / name
    report = exact_odds(yaml.safe_load(path.read_text())).to_json()
    rounds = report["rounds"]
    total = sum(rounds["distribution"].values()) + rounds["unfinished"]
    assert total == pytest.approx(1 - report["residual"], abs=1e-12)
