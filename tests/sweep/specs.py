"""The scenario the sweep tests vary: two dreadnoughts, a carrier and two fighters against a
destroyer (TI4 space combat), small enough to solve exactly at every point."""

from __future__ import annotations

from typing import Any


def fleet_against_destroyer() -> dict[str, Any]:
    """A fresh copy of the base scenario (each spec adds its own axes)."""
    return {
        "ruleset": "ti4",
        "battle": "space",
        "attacker": {"units": "2 dreadnought, 1 carrier, 2 fighter"},
        "defender": {"units": {"destroyer": 1}},
    }
