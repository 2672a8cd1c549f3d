"""Barrage hits that can only be lost, dropped from the odds engine's canonical states
(rulesets/ti4/procedures/lost_barrage_hits.py; ti4-space-combat.md Step 1, docs/rulings.md R15
"Excess hits" and 26F-1).

Hits beyond the opponent's fighters have no effect unless an ability uses them (R15), so where
no handler in play hears them the state with them waiting and the state without have the same
future. Checked here: the odds with the drop equal the odds without it (every figure of the
report, to 1e-12) over random battles as players enter them with one player's fighters taken
away (so the drop applies), over battles holding the effects that act on the barrage (Waylay,
Raid Formation, Scramble Frequency, Strike Wing Ambuscade, Shields Holding, ...), and the state
graph of the sweep benchmark's battle is smaller by the attacker's barrage outcomes.
"""

from __future__ import annotations

import copy
import random
from collections.abc import Iterator
from typing import Any

import pytest
from benchmarks.factions import random_faction_battle

from spacecombat import rulesets
from spacecombat.analysis.graph import Explorer
from spacecombat.rulesets import parse_scenario
from spacecombat.rulesets.ti4.procedures import lost_barrage_hits
from tests.ti4.fast_path_battles import battles
from tests.ti4.switched import same_on_and_off

#: the handlers that act on a barrage roll, its hits or their assignment
BARRAGE_EFFECTS = (
    "waylay",
    "raid_formation",
    "scramble_frequency",
    "strike_wing_ambuscade",
    "shields_holding",
    "naalu_mech_omega_blocks_afb",
    "argent_destroyer2_afb_kills_infantry",
)


def same_with_and_without(scenario: dict[str, Any], monkeypatch: pytest.MonkeyPatch) -> bool:
    """The reports with and without the shortcut are equal; False if the battle is refused."""
    return same_on_and_off(scenario, lost_barrage_hits, "DROP", monkeypatch)


def without_fighters(seed: int, count: int) -> Iterator[dict[str, Any]]:
    """Random space battles as players enter them, one player's fighters taken away."""
    rng = random.Random(seed)
    made = 0
    while made < count:
        scenario = random_faction_battle(rng, most=4)
        if scenario.get("battle") != "space":
            continue
        player = rng.choice(("attacker", "defender"))
        units = scenario[player]["units"]
        units.pop("fighter", None)
        if not units:
            continue
        made += 1
        yield scenario


def test_the_sweep_benchmark_battle_walks_one_defender_roll(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The attacker's two destroyers' barrage (4 dice, 0-4 hits) against a defender with no
    fighters: without the drop the defender's roll is a chance state for each of the 5
    numbers of hits; with it, one. The odds are the same."""
    scenario = {
        "ruleset": "ti4",
        "battle": "space",
        "attacker": {
            "units": {"dreadnought": 2, "cruiser": 2, "destroyer": 2, "carrier": 1, "fighter": 3}
        },
        "defender": {"units": {"cruiser": 2, "destroyer": 2, "dreadnought": 3}},
    }

    def chance_states(drop: bool) -> int:
        monkeypatch.setattr(lost_barrage_hits, "DROP", drop)
        battle = rulesets.battle(parse_scenario(scenario))
        form = battle.product_rounds()
        assert form is not None
        explorer: Explorer[Any] = Explorer(
            battle,
            battle.stock_policies(),
            exact=True,
            stop=lambda s: form.round_start(s) is not None,
        )
        return len(explorer.build().states)

    assert chance_states(False) == 6  # the attacker's roll, and the defender's 5 times
    assert chance_states(True) == 2
    assert same_with_and_without(scenario, monkeypatch)


def test_random_battles_one_player_without_fighters(monkeypatch: pytest.MonkeyPatch) -> None:
    compared = sum(same_with_and_without(s, monkeypatch) for s in without_fighters(2626, 16))
    assert compared > 10


@pytest.mark.slow
def test_random_battles_one_player_without_fighters_many(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    compared = sum(same_with_and_without(s, monkeypatch) for s in without_fighters(26, 300))
    assert compared > 200


def effects_on_the_barrage(handler: str, count: int, monkeypatch: pytest.MonkeyPatch) -> None:
    """Battles where both players hold an effect acting on the barrage, each also with the
    defender's fighters taken away: the same odds with and without the drop (where the effect
    is in play, nothing is dropped)."""
    compared = 0
    for _, scenario in battles(handler, count, seed=26):
        variants = [scenario]
        if scenario.get("battle") == "space":
            bare = copy.deepcopy(scenario)
            bare["defender"]["units"].pop("fighter", None)
            variants.append(bare)
        compared += sum(same_with_and_without(v, monkeypatch) for v in variants)
    assert compared > 0


@pytest.mark.parametrize("handler", BARRAGE_EFFECTS)
def test_effects_on_the_barrage(handler: str, monkeypatch: pytest.MonkeyPatch) -> None:
    effects_on_the_barrage(handler, 1, monkeypatch)


@pytest.mark.slow
@pytest.mark.parametrize("handler", BARRAGE_EFFECTS)
def test_effects_on_the_barrage_more(handler: str, monkeypatch: pytest.MonkeyPatch) -> None:
    effects_on_the_barrage(handler, 6, monkeypatch)
