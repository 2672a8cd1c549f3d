"""Laws that elect a player (data/laws.toml ``elect = "player"``: Prophecy of Ixth, The Crown
of Thalnos) name that player in the scenario's ``elected``; the law's effect is then that
player's (its handler's owner). ``elected`` names only such laws in play."""

from __future__ import annotations

from typing import Any

import pytest

from spacecombat import odds
from spacecombat.core.errors import ScenarioError
from tests.helpers import space


def battle(**extra: Any) -> dict[str, Any]:
    return space({"units": "1 cruiser"}, {"units": "1 cruiser"}, **extra)


def refused(scenario: dict[str, Any]) -> ScenarioError:
    with pytest.raises(ScenarioError) as error:
        odds(scenario)
    return error.value


def test_a_law_that_elects_a_player_must_name_them() -> None:
    error = refused(battle(laws=["prophecy_of_ixth"]))
    assert error.field == "laws[0]"
    assert "elected: {prophecy_of_ixth: attacker}" in error.message


def test_elected_names_only_laws_in_play() -> None:
    error = refused(battle(elected={"prophecy_of_ixth": "attacker"}))
    assert error.field == "elected.prophecy_of_ixth"
    assert "not among the scenario's laws" in error.message


def test_elected_names_only_laws_that_elect_a_player() -> None:
    error = refused(battle(laws=["shared_research"], elected={"shared_research": "defender"}))
    assert error.field == "elected.shared_research"
    assert "elects nothing" in error.message


def test_elected_must_be_a_player() -> None:
    error = refused(battle(laws=["prophecy_of_ixth"], elected={"prophecy_of_ixth": "other"}))
    assert error.field == "elected.prophecy_of_ixth"
    assert "attacker or defender" in error.message
