"""Ability handlers (one module each). Importing this package registers every handler."""

from spacecombat.rulesets.ti4.abilities import (
    antimass_deflectors,
    dark_energy_tap,
    duranium_armor,
    fragile,
    magmus_reactor,
    nebula,
    non_euclidean_shielding,
    shared_research,
    unrelenting,
    voidborn,
)

__all__ = [
    "antimass_deflectors",
    "dark_energy_tap",
    "duranium_armor",
    "fragile",
    "magmus_reactor",
    "nebula",
    "non_euclidean_shielding",
    "shared_research",
    "unrelenting",
    "voidborn",
]
