"""Ssruu (Yssaril agent) has the text of every other faction's agent (ti4-combat-effects.md §4):
a scenario lists the agent it acts as, so listing Ssruu itself is refused with that advice
(data/cards.toml ``instead``), never silently ignored."""

from __future__ import annotations

import pytest

from spacecombat import odds
from spacecombat.core.errors import ScenarioError
from tests.helpers import space


def test_ssruu_is_refused_with_what_to_list_instead() -> None:
    scenario = space(
        {"faction": "yssaril", "units": "1 cruiser", "leaders": ["ssruu"]}, {"units": "1 cruiser"}
    )
    with pytest.raises(ScenarioError) as error:
        odds(scenario)
    assert error.value.field == "attacker.leaders[0]"
    assert "list that agent's id under leaders instead" in error.value.message
