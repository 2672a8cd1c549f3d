"""Dimensional Splicers (Ghosts of Creuss racial technology; data/technologies.toml;
docs/rulings.md 27S-33): at the start of a space battle in a system with a wormhole
(``system.wormholes``), the owner may assign 1 hit to an enemy ship of its choice (PC_Twi
r_Creuss.cpp).

Dice: in an exchange the attacker rolls before the defender."""

from __future__ import annotations

from fractions import Fraction
from typing import Any

import pytest

from spacecombat import odds
from spacecombat.core.errors import ScenarioError
from tests.helpers import assert_logs_replay, assert_sampled_as_played, events, run
from tests.ti3.effects import space

CREUSS = {"faction": "creuss", "technologies": ["dimensional_splicers"]}
WORMHOLE = {"system": {"wormholes": ["alpha"]}}


def splicing(
    attacker: dict[str, int], defender: dict[str, int], wormhole: bool = True, **more: Any
) -> dict[str, Any]:
    extra = WORMHOLE if wormhole else {}
    return space({"units": attacker, **CREUSS, **more}, {"units": defender}, **extra)


def test_the_hit_destroys_an_enemy_ship_before_round_1() -> None:
    """No die for the hit: the defender's only cruiser is destroyed; nothing is left."""
    played = run(splicing({"cruiser": 1}, {"cruiser": 1}), [])
    lost = events(played, "unit_destroyed", cause="Dimensional Splicers")
    assert [(e["player"], e["unit"]) for e in lost] == [("defender", "cruiser")]
    assert events(played, "card_played", card="dimensional_splicers")
    assert played.outcome["result"] == "attacker_win"


def test_a_ship_the_hit_destroys_is_chosen_before_a_dreadnought_it_damages() -> None:
    """The stock player's choice: the cruiser (destroyed) before the dreadnought (which would
    only be damaged). Round 1: 1; 1 (misses). Round 2: 5 (hit: the dreadnought damaged); 1.
    Round 3: 5 (hit: destroyed); 1."""
    played = run(splicing({"dreadnought": 1}, {"dreadnought": 1, "cruiser": 1}), [1, 1, 5, 1, 5, 1])
    lost = events(played, "unit_destroyed", cause="Dimensional Splicers")
    assert [(e["player"], e["unit"]) for e in lost] == [("defender", "cruiser")]
    assert played.outcome["result"] == "attacker_win"


def test_a_dreadnought_alone_sustains_the_hit() -> None:
    """Round 1: 5 (hit: the damaged dreadnought destroyed); 1."""
    played = run(splicing({"dreadnought": 1}, {"dreadnought": 1}), [5, 1])
    damaged = events(played, "damage_sustained", cause="Dimensional Splicers")
    assert [(e["player"], e["unit"]) for e in damaged] == [("defender", "dreadnought")]
    assert played.outcome["result"] == "attacker_win"


def test_no_wormhole_no_hit() -> None:
    """Round 1: 7 (hit); 1."""
    played = run(splicing({"cruiser": 1}, {"cruiser": 1}, wormhole=False), [7, 1])
    assert not events(played, "card_played")
    assert played.outcome["result"] == "attacker_win"


def test_the_defender_splices_too() -> None:
    """The defender with the technology hits the attacker's cruiser: nothing is left to attack."""
    scenario = space({"units": {"cruiser": 1}}, {"units": {"cruiser": 1}, **CREUSS}, **WORMHOLE)
    played = run(scenario, [])
    lost = events(played, "unit_destroyed", cause="Dimensional Splicers")
    assert [(e["player"], e["unit"]) for e in lost] == [("attacker", "cruiser")]
    assert played.outcome["result"] == "defender_win"


def test_policy_never_passes() -> None:
    """Round 1: 7 (hit); 1."""
    scenario = splicing(
        {"cruiser": 1}, {"cruiser": 1}, policy={"play": {"dimensional_splicers": "never"}}
    )
    played = run(scenario, [7, 1])
    assert not events(played, "card_played")
    assert played.outcome["result"] == "attacker_win"


def test_exact_odds_a_cruiser_against_two() -> None:
    """Hand-derived. The hit destroys one of the two cruisers; then the plain duel of two
    cruisers (7+, 2/5 each: one alone hits 6/25, both 4/25, neither 9/25): attacker 3/8,
    draw 1/4, defender 3/8."""
    report = odds(splicing({"cruiser": 1}, {"cruiser": 2}), fractions=True)
    assert (report.attacker_win, report.draw, report.defender_win) == (
        Fraction(3, 8),
        Fraction(1, 4),
        Fraction(3, 8),
    )


def test_an_unknown_wormhole_is_bad_input() -> None:
    scenario = space({"units": {"cruiser": 1}}, {"units": {"cruiser": 1}})
    scenario["system"] = {"wormholes": ["epsilon"]}
    with pytest.raises(ScenarioError) as caught:
        run(scenario, [])
    assert caught.value.field == "system.wormholes[0]"


def test_logs_replay_and_the_sampler_plays_as_the_resolver() -> None:
    scenario = splicing(
        {"dreadnought": 1, "cruiser": 1}, {"dreadnought": 1, "cruiser": 2, "fighter": 2}
    )
    assert_logs_replay(scenario, seeds=6)
    assert_sampled_as_played(scenario, trials=30)
