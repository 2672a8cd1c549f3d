"""What the page needs to build a scenario of each ruleset (``GET /api/v1/rulesets``): each
ruleset's catalogue (``rulesets/catalogue.py``), by the registry's order of the rulesets."""

from __future__ import annotations

from functools import cache
from typing import Any

from spacecombat import rulesets


@cache
def catalogue() -> dict[str, Any]:
    """Every ruleset's catalogue, by ruleset name (computed once: the data never changes while
    the server runs)."""
    return {name: rulesets.catalogue_of(name) for name in rulesets.RULESETS}
