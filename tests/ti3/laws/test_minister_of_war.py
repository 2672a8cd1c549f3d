"""Minister of War (law, elects a player; PC_Twi p_MinisterofWar.cpp: "Elected player may spend
1 SACC to inflict 1 damage to enemy fleet before any Space battle he participates begins"): a
pre-combat step, the elected player spends a command counter of its strategy allocation or
passes, the enemy takes the hit as a casualty (docs/rulings.md 27M-1, 27M-2)."""

from __future__ import annotations

from fractions import Fraction
from typing import Any

import pytest

from spacecombat import odds
from spacecombat.core.errors import ScenarioError
from tests.helpers import events, run
from tests.ti3.effects import space, two_lives_duel

LAW = {"laws": ["minister_of_war"], "elected": {"minister_of_war": "attacker"}}
ONE, TWO = {"units": {"cruiser": 1}}, {"units": {"cruiser": 2}}
DREADNOUGHT = {"units": {"dreadnought": 1}}


def _odds(scenario: dict[str, Any]) -> tuple[Fraction | float, ...]:
    report = odds(scenario, fractions=True)
    return report.attacker_win, report.draw, report.defender_win


def test_the_hit_destroys_a_cruiser_before_round_1() -> None:
    """The attacker spends (the stock player's choice), the defender loses a cruiser before any
    die is rolled; the cruisers then fight 1 against 1 (7 hits, 1 misses)."""
    played = run(space(ONE, TWO, **LAW), [7, 1])
    step = events(played, "pre_combat_step")
    assert step == [{"event": "pre_combat_step", "step": "minister_of_war"}]
    assert events(played, "card_played", card="minister_of_war", player="attacker")
    lost = events(played, "unit_destroyed", cause="Minister of War")
    assert [(e["player"], e["unit"]) for e in lost] == [("defender", "cruiser")]
    assert played.outcome["result"] == "attacker_win"


def test_sustain_damage_takes_the_hit() -> None:
    """A dreadnought takes the hit by SUSTAIN DAMAGE (the stock choice), then falls to the
    cruiser's 7 in round 1 (its 1 misses)."""
    played = run(space(ONE, DREADNOUGHT, **LAW), [7, 1])
    sustained = events(played, "damage_sustained", cause="Minister of War")
    assert [(e["player"], e["unit"]) for e in sustained] == [("defender", "dreadnought")]
    assert played.outcome["result"] == "attacker_win"


def test_odds_one_cruiser_against_two() -> None:
    """The hit leaves the cruiser duel (each hits 4/10; a round with no hit repeats, 0.36):
    won 0.24/0.64 = 3/8, both destroyed 0.16/0.64 = 1/4, lost 3/8."""
    assert _odds(space(ONE, TWO, **LAW)) == (Fraction(3, 8), Fraction(1, 4), Fraction(3, 8))


def test_odds_against_a_dreadnought_it_damages() -> None:
    """The dreadnought (5: hits 6/10), damaged by the hit, against the cruiser (4/10): it wins
    0.36/0.76 = 9/19, both destroyed 0.24/0.76 = 6/19, it loses 0.16/0.76 = 4/19."""
    assert _odds(space(ONE, DREADNOUGHT, **LAW)) == (
        Fraction(4, 19),
        Fraction(6, 19),
        Fraction(9, 19),
    )
    # without the law, the undamaged dreadnought's duel (tests/ti3/effects.py)
    win, both, lose = two_lives_duel(Fraction(6, 10), Fraction(4, 10))
    assert _odds(space(ONE, DREADNOUGHT)) == (lose, both, win)


def test_the_elected_defender_hits_the_attacker() -> None:
    """Elected, the defender's hit takes the attacker's cruiser: the defender's two cruisers
    win before any die is rolled."""
    law = {**LAW, "elected": {"minister_of_war": "defender"}}
    played = run(space(ONE, TWO, **law), [])
    lost = events(played, "unit_destroyed", cause="Minister of War")
    assert [(e["player"], e["unit"]) for e in lost] == [("attacker", "cruiser")]
    assert played.outcome["result"] == "defender_win"


def test_never_keeps_the_counter() -> None:
    """``policy.play: {minister_of_war: never}``: no hit; the battle is the one without the law."""
    kept = {**ONE, "policy": {"play": {"minister_of_war": "never"}}}
    assert _odds(space(kept, DREADNOUGHT, **LAW)) == _odds(space(ONE, DREADNOUGHT))


def test_no_counter_no_step() -> None:
    """27M-2: with ``options.minister_of_war_has_counter`` off the elected player has nothing
    to spend: no step, no decision, the battle without the law."""
    scenario = space(ONE, DREADNOUGHT, options={"minister_of_war_has_counter": False}, **LAW)
    played = run(scenario, [1, 1, 7, 1, 1, 1, 7, 1])
    assert not events(played, "pre_combat_step")
    assert _odds(scenario) == _odds(space(ONE, DREADNOUGHT))


def test_the_defender_orders_it_among_the_pre_combat_steps() -> None:
    """ti3-combat.md: the defender orders the pre-combat steps; with Assault Cannon, a defender
    naming minister_of_war first takes the hit before the dreadnought fires (its 1 misses;
    round 1: 5 hits, 1 misses)."""
    attacker = {"units": {"dreadnought": 1}, "technologies": ["assault_cannon"]}
    defender = {**TWO, "policy": {"pre_combat_order": ["minister_of_war", "assault_cannon"]}}
    played = run(space(attacker, defender, **LAW), [1, 5, 1])
    steps = [e["step"] for e in events(played, "pre_combat_step")]
    assert steps == ["minister_of_war", "assault_cannon"]


@pytest.mark.parametrize(
    ("side", "when", "field"),
    [
        ("defender", "never", "defender.policy.play.minister_of_war"),
        ("attacker", {"round": 2}, "attacker.policy.play.minister_of_war"),
    ],
)
def test_play_names_it_only_for_the_elected_player_and_never(
    side: str, when: object, field: str
) -> None:
    """``policy.play`` names ``minister_of_war`` only for the elected player, and only
    ``never`` (the hit comes before round 1)."""
    sides: dict[str, dict[str, object]] = {"attacker": dict(ONE), "defender": dict(TWO)}
    sides[side]["policy"] = {"play": {"minister_of_war": when}}
    with pytest.raises(ScenarioError) as caught:
        odds(space(sides["attacker"], sides["defender"], **LAW))
    assert caught.value.field == field


def test_a_tactical_action_plays_it_in_its_space_battle() -> None:
    """``battle: tactical``: the space battle's pre-combat step, its ``never`` accepted by the
    invasion part too (it reads the same policy); the hit spent, the defender's cruiser falls
    before any die and the invasion follows."""
    attacker: dict[str, Any] = {"units": {"cruiser": 1, "carrier": 1, "ground_force": 1}}
    scenario: dict[str, Any] = {
        "ruleset": "ti3",
        "battle": "tactical",
        "attacker": attacker,
        "defender": {"units": {"cruiser": 1}},
        "planets": [{"name": "A", "defender": {"ground_force": 1}}],
        **LAW,
    }
    played = run(scenario, [8, 1])
    lost = events(played, "unit_destroyed", cause="Minister of War")
    assert [(e["player"], e["unit"]) for e in lost] == [("defender", "cruiser")]
    kept = {**attacker, "policy": {"play": {"minister_of_war": "never"}}}
    report = odds({**scenario, "attacker": kept})
    assert report.attacker_win + report.draw + report.defender_win == pytest.approx(1)


def test_direct_hit_follows_the_sustained_hit() -> None:
    """27A-7: Direct Hit is offered after a SUSTAIN DAMAGE in the pre-combat steps; the
    elected attacker holding it destroys the dreadnought its law's hit damaged: won, no die."""
    attacker = {**ONE, "action_cards": ["direct_hit"]}
    played = run(space(attacker, DREADNOUGHT, **LAW), [])
    lost = events(played, "unit_destroyed", cause="Direct Hit")
    assert [(e["player"], e["unit"]) for e in lost] == [("defender", "dreadnought")]
    assert _odds(space(attacker, DREADNOUGHT, **LAW)) == (1, 0, 0)
