"""The cross-point cache (analysis/chain_cache.py): a player's round tables and the ends of
the combat remembered across battles give the same answers as battles solved alone.

The key is derived from the scenario (everything but both players' units, which the steps are
given as their argument or read from the end's state). The property checked here, over random
battles as players enter them (factions, flagships, technologies, cards, leaders, policies:
benchmarks/factions.py) and over variants of each where one player's units are drawn again
(so that the other player's tables, and the ends, are met again by a different battle): every
figure of the report cached equals the report solved alone to 1e-12, with one cache shared by
all the battles of the test, as a sweep's worker shares it.
"""

from __future__ import annotations

import copy
import itertools
import random
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from benchmarks.factions import _units, random_faction_battle

from spacecombat import odds, rulesets
from spacecombat.analysis.budget import TooLarge
from spacecombat.analysis.chain_cache import PartsCache, battle_key, player_key, sharing
from spacecombat.core.errors import SpacecombatError
from spacecombat.core.rounds import PlayerRounds
from spacecombat.rulesets import parse_scenario
from spacecombat.scenario.formats import read_document

ROOT = Path(__file__).parents[2]
SHIPS = ("war_sun", "dreadnought", "cruiser", "carrier", "destroyer", "fighter")


def close(a: object, b: object, where: str = "report") -> None:
    """``a`` and ``b`` equal, numbers to 1e-12."""
    if isinstance(a, float | int) and isinstance(b, float | int) and not isinstance(a, bool):
        assert abs(a - b) <= 1e-12, f"{where}: {a} != {b}"
    elif isinstance(a, dict) and isinstance(b, dict):
        assert a.keys() == b.keys(), where
        for key in a:
            close(a[key], b[key], f"{where}.{key}")
    elif isinstance(a, list) and isinstance(b, list):
        assert len(a) == len(b), where
        for k, (x, y) in enumerate(zip(a, b, strict=True)):
            close(x, y, f"{where}[{k}]")
    else:
        assert a == b, f"{where}: {a!r} != {b!r}"


def in_product_form(scenario: dict[str, Any]) -> bool:
    try:
        return rulesets.battle(parse_scenario(scenario)).product_rounds() is not None
    except SpacecombatError:
        return False


def battles(seed: int, count: int) -> Iterator[dict[str, Any]]:
    """``count`` battles in product form: random ones, each followed by variants where one
    player's units are drawn again (ships in space; in an invasion the attacker's ground
    forces keep their planet)."""
    rng = random.Random(seed)
    made = 0
    while made < count:
        base = random_faction_battle(rng, most=4)
        if not in_product_form(base):
            continue
        for variant in range(4):
            scenario = copy.deepcopy(base)
            if variant and base.get("battle") == "space":
                player = rng.choice(("attacker", "defender"))
                scenario[player]["units"] = {
                    **{k: v for k, v in scenario[player]["units"].items() if k not in SHIPS},
                    **_units(rng, SHIPS, 4),
                }
                if not in_product_form(scenario):
                    continue
            elif variant:
                continue
            made += 1
            yield scenario


def check(seed: int, count: int) -> int:
    cache = PartsCache()
    compared = 0
    for scenario in battles(seed, count):
        try:
            alone = odds(scenario, fallback=False).to_json()
        except (TooLarge, SpacecombatError):
            continue
        with sharing(cache, scenario):
            shared = odds(scenario, fallback=False).to_json()
        close(shared, alone)
        compared += 1
    assert cache.hits > 0  # the battles did share tables
    return compared


def test_cached_equals_alone() -> None:
    assert check(seed=26, count=120) > 60


@pytest.mark.slow
def test_cached_equals_alone_thousands() -> None:
    assert check(seed=2026, count=2500) > 1500


def test_keys_leave_out_only_units() -> None:
    """The player's key differs when anything but the players' units differs."""
    base: dict[str, Any] = {
        "ruleset": "ti4",
        "battle": "space",
        "attacker": {"units": {"cruiser": 2}, "technologies": ["assault_cannon"]},
        "defender": {"units": {"destroyer": 2}},
    }
    more = copy.deepcopy(base)
    more["defender"]["units"] = {"destroyer": 3}
    assert player_key(base, "attacker") == player_key(more, "attacker")
    # a player's own units are the states of its chain, read through each step's argument
    assert player_key(base, "defender") == player_key(more, "defender")
    assert battle_key(base) == battle_key(more)
    tech = copy.deepcopy(base)
    tech["defender"]["technologies"] = ["assault_cannon"]
    assert player_key(base, "attacker") != player_key(tech, "attacker")
    assert battle_key(base) != battle_key(tech)


def test_tactical_action_variants() -> None:
    """A tactical action (issue 22): its space combat and each planet's ground combat are
    solved in product form from different template states (what the space combat carried
    over), one cache shared by every variant of the attacker's ships and the defender's
    ground forces."""
    base = read_document(ROOT / "examples" / "ti4-tactical-two-planets.yaml")
    assert isinstance(base, dict)
    cache = PartsCache()
    for dreadnoughts, cruisers, infantry in itertools.product((1, 2), (0, 2), (1, 3)):
        scenario = copy.deepcopy(base)
        scenario["attacker"]["units"]["dreadnought"] = dreadnoughts
        scenario["defender"]["units"]["cruiser"] = cruisers
        scenario["planets"][0]["defender"]["infantry"] = infantry
        scenario["planets"][0]["bombarded_by"] = {"dreadnought": dreadnoughts}
        alone = odds(scenario, fallback=False).to_json()
        with sharing(cache, scenario):
            shared = odds(scenario, fallback=False).to_json()
        close(shared, alone)
    assert cache.hits > 0


def test_tokens_are_never_reused() -> None:
    """A cache that starts again (``MOST_ENTRIES`` reached) forgets its tokens but never hands
    a number out twice: a battle still holding an old number shares nothing with another."""
    cache = PartsCache(most=2)
    first = cache.token("a")
    assert cache.token("a") == first
    second = cache.token("b")
    assert second != first
    for k in range(3):
        cache.put(k, k)  # the third starts the cache again
    assert cache.token("c") not in (first, second)
    assert cache.token("a") not in (first, second)


def test_battles_of_one_setup_share_their_walks_of_taking_hits(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A battle whose defender is new to the cache (5 cruisers) makes only the decisions of
    taking hits that no earlier battle of its setup made (core/rounds.PlayerRounds.share_walks):
    after a battle against 4 cruisers, one decision (5 cruisers taking a hit, which leaves the
    4 the other battle walked from); alone, one per cruiser. Its answer is its own (to 1e-12)."""
    made: list[object] = []
    decide = PlayerRounds._decide

    def counted(self: PlayerRounds[Any], side: Any, units: Any, template: Any) -> Any:
        made.append(units)
        return decide(self, side, units, template)

    monkeypatch.setattr(PlayerRounds, "_decide", counted)

    def battle(cruisers: int) -> dict[str, Any]:
        return {
            "ruleset": "ti4",
            "battle": "space",
            "attacker": {"units": {"dreadnought": 2, "destroyer": 1}},
            "defender": {"units": {"cruiser": cruisers}},
        }

    def defender_decisions(cache: PartsCache, cruisers: int) -> tuple[int, dict[str, Any]]:
        made.clear()
        with sharing(cache, battle(cruisers)):
            report = odds(battle(cruisers), fallback=False).to_json()
        return sum(1 for units in made if "cruiser" in str(units)), report

    shared = PartsCache()
    defender_decisions(shared, 4)
    after_another, report = defender_decisions(shared, 5)
    alone, _ = defender_decisions(PartsCache(), 5)
    assert (after_another, alone) == (1, 5)
    close(report, odds(battle(5), fallback=False).to_json())
