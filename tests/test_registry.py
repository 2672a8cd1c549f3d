"""The ruleset registry (rulesets/__init__.py ``REGISTRY``, issue 21): one entry per ruleset,
each naming its parts as ``module:name``; everything that depends on the ruleset reads it.
An entry's names are strings, so each is checked here to name what it says."""

from __future__ import annotations

import inspect

import pytest
from pydantic import BaseModel

from spacecombat import rulesets
from spacecombat.core.errors import ScenarioError
from spacecombat.rulesets import REGISTRY, RULESETS, Ruleset, _load

ENTRIES = list(REGISTRY.values())


@pytest.mark.parametrize("entry", ENTRIES, ids=lambda e: e.name)
def test_each_entry_names_what_it_says(entry: Ruleset) -> None:
    assert callable(_load(entry.parse))
    model = _load(entry.model)
    assert inspect.isclass(model)
    assert issubclass(model, BaseModel)
    assert callable(_load(entry.battle))
    catalogue = _load(entry.catalogue)()
    assert isinstance(catalogue, dict)
    assert catalogue
    assert callable(entry.dice(7).roll)  # a Dice
    if entry.seed is not None:
        for name in ("scenario_seed", "own_source", "sources", "GIVEN"):
            _load(f"{entry.seed}:{name}")


def test_the_registry_is_the_list_of_rulesets() -> None:
    assert RULESETS == ("ti4", "ti3", "ec4x")
    assert all(name == entry.name for name, entry in REGISTRY.items())


@pytest.mark.parametrize(
    ("raw", "ruleset"),
    [
        ({"ruleset": "ti4", "battle": "space", "attacker": {"units": "1 cruiser"},
          "defender": {"units": "1 cruiser"}}, "ti4"),
        ({"ruleset": "ti3", "battle": "space", "attacker": {"units": "1 cruiser"},
          "defender": {"units": "1 cruiser"}}, "ti3"),
    ],
)  # fmt: skip
def test_a_scenario_finds_its_battle_through_the_registry(
    raw: dict[str, object], ruleset: str
) -> None:
    scenario = rulesets.parse_scenario(raw)
    assert scenario.ruleset == ruleset
    assert isinstance(scenario, _load(REGISTRY[ruleset].model))
    assert rulesets.is_scenario(scenario)
    process = rulesets.battle(scenario)
    assert process.start() is not None


def test_an_unknown_ruleset_is_refused_naming_the_registry() -> None:
    with pytest.raises(ScenarioError, match="'ti4', 'ti3', 'ec4x'"):
        rulesets.parse_scenario({"ruleset": "ti2"})
