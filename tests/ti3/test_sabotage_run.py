"""Sabotage Runs, the Shattered Empire option (ti3-combat.md, SPACE BATTLES: "Sabotage Run";
docs/rulings.md 27A-1 to 27A-5; procedures/sabotage_run.py), step by step with scripted dice.

Dice: the War Sun's owner rolls one die per fighter of the run at the War Sun's combat value
(3), then the fighters roll, a 10 destroying a War Sun; the attacker's run comes first."""

from __future__ import annotations

from collections.abc import Mapping
from fractions import Fraction
from typing import Any, cast

import pytest

from spacecombat import odds
from spacecombat.core.decisions import DecisionRequest
from spacecombat.core.dice import ScriptedDice
from spacecombat.core.engine import Decision
from spacecombat.core.errors import ScenarioError
from spacecombat.core.policies import StockPolicy
from spacecombat.resolver import resolve
from spacecombat.rulesets import parse_scenario
from spacecombat.rulesets.ti3.procedures import space_battle
from spacecombat.rulesets.ti3.setup import Ti3Setup, build
from spacecombat.rulesets.ti3.state import Phase
from spacecombat.scenario.schema import Scenario
from tests.helpers import (
    assert_logs_replay,
    assert_sampled_as_played,
    events,
    rolls,
    run,
    survivors,
)

RUNS = {"sabotage_runs": True}


def ti3(attacker: Mapping[str, Any], defender: Mapping[str, Any], **extra: Any) -> dict[str, Any]:
    """A TI3 space battle with Sabotage Runs on (unless ``options`` says otherwise)."""
    return {
        "ruleset": "ti3",
        "battle": "space",
        "attacker": dict(attacker),
        "defender": dict(defender),
        "options": RUNS,
        **extra,
    }


def _setup(scenario: Mapping[str, Any]) -> Ti3Setup:
    parsed = parse_scenario(scenario)
    assert isinstance(parsed, Scenario)
    return build(parsed)


def destroyed(played: Any, cause: str) -> list[tuple[object, object]]:
    return [(e["player"], e["unit"]) for e in events(played, "unit_destroyed", cause=cause)]


def dice(played: Any, purpose: str) -> list[tuple[object, str, int, int]]:
    """(player, unit, dice, hit_on) of every roll for ``purpose``."""
    return [
        (r["player"], g["unit"], len(g["faces"]), g["hit_on"])
        for r in rolls(played, purpose)
        for g in cast("list[dict[str, Any]]", r["groups"])
    ]


class _FirstAnswers:
    """Scripted answers first, then the stock policy."""

    def __init__(self, answers: list[str]) -> None:
        self._answers = list(answers)
        self._stock = StockPolicy()

    def choose(self, request: DecisionRequest) -> str:
        return self._answers.pop(0) if self._answers else self._stock.choose(request)


def test_a_ten_destroys_the_war_sun_and_the_fighter_returns() -> None:
    """27A-2, 27A-3: the War Sun fires one die at the fighter (3+; 1 misses); the fighter rolls
    a 10: the War Sun is destroyed, and the defender has no ship left (attacker wins before
    round 1). The fighter that rolled the 10 is not lost."""
    played = run(ti3({"units": {"carrier": 1, "fighter": 1}}, {"units": {"war_sun": 1}}), [1, 10])
    assert dice(played, "sabotage_run_war_sun_fire") == [("defender", "war_sun", 1, 3)]
    assert dice(played, "sabotage_run") == [("attacker", "fighter", 1, 10)]
    assert destroyed(played, "sabotage run") == [("defender", "war_sun")]
    assert survivors(played, "attacker") == {"carrier": 1, "fighter": 1}
    assert played.outcome["result"] == "attacker_win"
    assert not rolls(played, "space_combat")


def test_war_sun_fire_destroys_fighters_and_a_miss_loses_the_fighter() -> None:
    """27A-2: two fighters run; the War Sun's dice 3 (hit) and 1 destroy one; the other rolls
    9 (no 10) and is destroyed (27A-3). Round 1: carrier 1; War Sun 3, 1, 1 destroys it."""
    played = run(
        ti3({"units": {"carrier": 1, "fighter": 2}}, {"units": {"war_sun": 1}}),
        [3, 1, 9, 1, 3, 1, 1],
    )
    assert [e["fighters"] for e in events(played, "sabotage_run")] == [2]
    assert dice(played, "sabotage_run_war_sun_fire") == [("defender", "war_sun", 2, 3)]
    assert destroyed(played, "sabotage run: War Sun fire") == [("attacker", "fighter")]
    assert dice(played, "sabotage_run") == [("attacker", "fighter", 1, 10)]
    assert destroyed(played, "sabotage run") == [("attacker", "fighter")]
    assert dice(played, "space_combat") == [
        ("attacker", "carrier", 1, 9),
        ("defender", "war_sun", 3, 3),
    ]
    assert played.outcome["result"] == "defender_win"


def test_fighters_without_a_ten_return_with_the_option_off() -> None:
    """Option sabotage_run_fighters_lost: false (27A-3): the fighter that rolled 9 returns and
    rolls in round 1. Faces: War Sun 1 (miss), fighter 9; round 1: carrier 1, fighter 1;
    War Sun 3, 3, 1 (two hits: carrier and fighter)."""
    options = {**RUNS, "sabotage_run_fighters_lost": False}
    played = run(
        ti3({"units": {"carrier": 1, "fighter": 1}}, {"units": {"war_sun": 1}}, options=options),
        [1, 9, 1, 1, 3, 3, 1],
    )
    assert not events(played, "unit_destroyed", cause="sabotage run")
    assert dice(played, "space_combat")[0] == ("attacker", "carrier", 1, 9)
    assert dice(played, "space_combat")[1] == ("attacker", "fighter", 1, 9)


def test_without_war_sun_fire_the_fighters_roll_unopposed() -> None:
    """Option sabotage_run_war_sun_fire: false (27A-2): no War Sun dice; the fighter's 10
    destroys the War Sun."""
    options = {**RUNS, "sabotage_run_war_sun_fire": False}
    played = run(
        ti3({"units": {"carrier": 1, "fighter": 1}}, {"units": {"war_sun": 1}}, options=options),
        [10],
    )
    assert not rolls(played, "sabotage_run_war_sun_fire")
    assert destroyed(played, "sabotage run") == [("defender", "war_sun")]


def test_the_run_ignores_sustain_damage_and_takes_an_undamaged_war_sun() -> None:
    """27A-3, 27A-4: a 10 destroys a War Sun outright, and the run's target is an undamaged
    one. The defender has two War Suns, one damaged: the undamaged one is destroyed. Faces:
    War Sun 1, fighter 10; round 1: carrier 1, fighter 1; War Sun 3, 3, 1 (both destroyed)."""
    played = run(
        ti3(
            {"units": {"carrier": 1, "fighter": 1}},
            {"units": {"war_sun": 2}, "damaged": {"war_sun": 1}},
        ),
        [1, 10, 1, 1, 3, 3, 1],
    )
    gone = events(played, "unit_destroyed", cause="sabotage run")
    assert [(e["unit"], e["status"]) for e in gone] == [("war_sun", "undamaged")]


def test_the_defender_may_run_against_the_attackers_war_sun() -> None:
    """27A-1: either player whose opponent has a War Sun may run. The defender's fighter
    (carried by its carrier) faces the attacker's War Sun: 1 (miss), then 10: the attacker's
    only ship is destroyed, the defender wins."""
    played = run(ti3({"units": {"war_sun": 1}}, {"units": {"carrier": 1, "fighter": 1}}), [1, 10])
    assert dice(played, "sabotage_run_war_sun_fire") == [("attacker", "war_sun", 1, 3)]
    assert destroyed(played, "sabotage run") == [("attacker", "war_sun")]
    assert played.outcome["result"] == "defender_win"


def test_how_many_fighters_run_is_the_players_choice() -> None:
    """27A-5: the runner chooses how many fighters go (a play_card decision, options from all
    down to one, and pass). Sending one of two: one War Sun die, one fighter die; the other
    fighter stays out of the run. Faces: 3 (hit: the runner is destroyed); round 1: carrier
    1, fighter 1; War Sun 3, 3, 1."""
    faces = ScriptedDice([3, 1, 1, 3, 3, 1])
    played = resolve(
        ti3({"units": {"carrier": 1, "fighter": 2}}, {"units": {"war_sun": 1}}),
        dice=faces,
        policies={"attacker": _FirstAnswers(["send 1 fighter"])},
    )
    assert faces.remaining == 0
    assert dice(played, "sabotage_run_war_sun_fire") == [("defender", "war_sun", 1, 3)]
    assert not rolls(played, "sabotage_run")
    asked = events(played, "choice_made", decision="play_card")
    assert [e["choice"] for e in asked] == ["send 1 fighter"]


def test_the_stock_player_sends_every_fighter_unless_play_says_never() -> None:
    """27A-5: the stock policy plays the run when offered (as it plays TI4 cards), sending all
    its fighters; ``policy.play: {sabotage_run: never}`` sends none. Faces (never): round 1
    carrier 1, fighter 1; War Sun 3, 3, 1."""
    stock = run(
        ti3({"units": {"carrier": 1, "fighter": 2}}, {"units": {"war_sun": 1}}),
        [3, 3, 1, 3, 1, 1],
        all_dice=False,
    )
    assert [e["fighters"] for e in events(stock, "sabotage_run")] == [2]
    never = run(
        ti3(
            {"units": {"carrier": 1, "fighter": 1}, "policy": {"play": {"sabotage_run": "never"}}},
            {"units": {"war_sun": 1}},
        ),
        [1, 1, 3, 3, 1],
    )
    assert not events(never, "sabotage_run")
    assert not rolls(never, "sabotage_run_war_sun_fire")


def test_anti_fighter_barrage_always_comes_before_the_run() -> None:
    """ti3-combat.md NOTE: the defender chooses the order of the pre-combat steps, but the
    anti-fighter barrage always happens before a sabotage run: while the barrage is still to
    come, the run is not offered; once it is done, it is."""
    setup = _setup(
        ti3({"units": {"carrier": 1, "fighter": 2}}, {"units": {"war_sun": 1, "destroyer": 1}})
    )
    assert setup.pre_combat == ("anti_fighter_barrage", "sabotage_run")
    first = space_battle.pre_combat(
        setup, setup.initial.at(Phase.PRE_COMBAT, steps=setup.pre_combat, step="")
    )
    assert isinstance(first, Decision)
    assert [o.target for o in first.request.options] == ["anti_fighter_barrage"]
    later = space_battle.pre_combat(
        setup, setup.initial.at(Phase.PRE_COMBAT, steps=("sabotage_run",), step="")
    )
    assert isinstance(later, Decision)
    assert [o.target for o in later.request.options] == ["sabotage_run"]


def test_the_defender_may_take_the_run_before_other_steps() -> None:
    """ti3-combat.md NOTE: apart from the barrage, the defender orders the steps as it likes:
    with Assault Cannon and a run, ``pre_combat_order: [sabotage_run]`` takes the run first.
    Faces: run: War Sun 1, fighter 10 (the War Sun is destroyed; the defender's cruiser is
    left); Assault Cannon: dreadnought 1; round 1: dreadnought 5 (hit), carrier 1, fighter 1;
    cruiser 1."""
    scenario = ti3(
        {
            "units": {"dreadnought": 1, "carrier": 1, "fighter": 1},
            "technologies": ["assault_cannon"],
        },
        {"units": {"war_sun": 1, "cruiser": 1}, "policy": {"pre_combat_order": ["sabotage_run"]}},
    )
    played = run(scenario, [1, 10, 1, 5, 1, 1, 1])
    steps = [e["step"] for e in events(played, "pre_combat_step")]
    assert steps == ["sabotage_run", "assault_cannon"]


def test_no_run_without_the_option_or_without_a_war_sun() -> None:
    """The option is opt-in (27A-1), and a run needs an enemy War Sun."""
    off = _setup(
        ti3({"units": {"carrier": 1, "fighter": 1}}, {"units": {"war_sun": 1}}, options={})
    )
    assert off.pre_combat == ()
    no_war_sun = _setup(ti3({"units": {"carrier": 1, "fighter": 1}}, {"units": {"dreadnought": 1}}))
    assert no_war_sun.pre_combat == ()


@pytest.mark.parametrize(
    ("side", "options", "field"),
    [
        ({"play": {"sabotage_run": "never"}}, {}, "attacker.policy.play.sabotage_run"),
        ({"play": {"sabotage_run": {"round": 1}}}, RUNS, "attacker.policy.play.sabotage_run"),
    ],
)
def test_play_names_the_run_only_where_it_is_a_decision(
    side: dict[str, Any], options: dict[str, Any], field: str
) -> None:
    """policy.play names a decision of the player: the run only with the option on, and only
    'never' (it is made before round 1)."""
    scenario = ti3(
        {"units": {"carrier": 1, "fighter": 1}, "policy": side},
        {"units": {"war_sun": 1}},
        options=options,
    )
    with pytest.raises(ScenarioError) as caught:
        _setup(scenario)
    assert caught.value.field == field


def test_exact_odds_of_a_fighter_against_a_war_sun() -> None:
    """Hand-derived. Attacker: carrier and fighter; defender: War Sun (3 dice at 3).
    The run succeeds when the War Sun's die misses (1/5) and the fighter rolls 10 (1/10):
    1/50, and the attacker wins at once. Otherwise (49/50) the fighter is lost and the
    carrier (hits 1/5) fights the War Sun (kills the carrier unless all three dice miss:
    124/125). A round decides with chance 1 - 4/5 * 1/125 = 621/625; the carrier damages the
    War Sun and survives with 1/625, so it reaches a second hit with 1/621, then wins with
    1/621 and both die with (1/5 * 124/125) / (621/625) = 124/621.
    Attacker: 1/50 + 49/50 / 621^2; draw: 49/50 * 124 / 621^2."""
    report = odds(
        ti3({"units": {"carrier": 1, "fighter": 1}}, {"units": {"war_sun": 1}}), fractions=True
    )
    square = 621 * 621
    assert report.attacker_win == Fraction(1, 50) + Fraction(49, 50) / square
    assert report.draw == Fraction(49, 50) * Fraction(124, square)
    assert report.attacker_win + report.defender_win + report.draw == 1


def test_logs_replay_and_the_sampler_plays_as_the_resolver() -> None:
    """A battle with runs on both sides (each has fighters and a War Sun): its logs replay,
    and the Monte Carlo sampler ends where the resolver does with the same dice."""
    scenario = ti3(
        {"units": {"war_sun": 1, "carrier": 1, "fighter": 3}},
        {"units": {"war_sun": 1, "carrier": 1, "fighter": 2}},
    )
    assert_logs_replay(scenario, seeds=8)
    assert_sampled_as_played(scenario, trials=40)


def test_a_tactical_action_runs_in_its_space_battle() -> None:
    """battle: tactical (rulesets/tactical.py): the space battle is played by the same
    procedures, so the run happens there. Faces: War Sun 1, fighter 10 (the defender's only
    ship is destroyed); the invasion then has nothing to fight (no defending ground forces:
    the planet is taken)."""
    scenario = {
        "ruleset": "ti3",
        "battle": "tactical",
        "attacker": {"units": {"carrier": 1, "fighter": 1, "ground_force": 1}},
        "defender": {"units": {"war_sun": 1}},
        "planets": [{"name": "A", "defender": {}}],
        "options": RUNS,
    }
    played = run(scenario, [1, 10], all_dice=False)
    assert destroyed(played, "sabotage run") == [("defender", "war_sun")]
