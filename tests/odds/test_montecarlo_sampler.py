"""Issue 12: Monte Carlo plays its trials with a ``Sampler`` (core/engine.py), which walks the
rules once for each (point, outcome of the dice) it meets and afterwards only rolls, and with
``SeededDice`` rolling without ``randint``'s calls. Neither may change a battle: each trial ends
as ``play`` ends it with the same dice, and a seed gives the same tally as before."""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

import pytest
import yaml

from spacecombat import odds, rulesets
from spacecombat.analysis import montecarlo
from spacecombat.analysis.montecarlo import Tally, Trials, trial_seed
from spacecombat.core import dice as dice_module
from spacecombat.core.dice import SIDES, SeededDice
from spacecombat.core.engine import Sampler, play
from spacecombat.rulesets import parse_scenario
from tests.helpers import invasion, space

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"
RETREAT_TO_B = {"name": "A", "adjacent": [{"name": "B", "units": ["attacker"]}]}


def _example(name: str) -> dict[str, Any]:
    loaded: dict[str, Any] = yaml.safe_load((EXAMPLES / name).read_text())
    return loaded


#: battles of every kind of node: TI4 space with each retreat policy, an invasion of three
#: planets, a TI3 invasion whose pools count marks (Shock Troops), EC4X draws
SCENARIOS: dict[str, dict[str, Any]] = {
    "space": space(
        {"units": "2 dreadnought, 2 cruiser, 1 carrier, 1 fighter"},
        {"units": "2 destroyer, 2 cruiser, 1 dreadnought, 1 carrier"},
    ),
    "retreat after round 2": space(
        {
            "units": "3 dreadnought, 3 cruiser, 3 carrier, 3 fighter",
            "policy": {"retreat": {"after_round": 2}},
        },
        {"units": "3 dreadnought, 3 destroyer, 3 carrier, 3 fighter"},
        system=RETREAT_TO_B,
    ),
    "retreat when outnumbered": space(
        {
            "units": "2 dreadnought, 2 cruiser, 2 carrier, 2 fighter",
            "policy": {"retreat": {"when_outnumbered": 1.5}},
        },
        {"units": "2 dreadnought, 4 destroyer, 2 carrier, 4 fighter"},
        system=RETREAT_TO_B,
    ),
    "three planets": invasion(
        {"units": "7 infantry, 1 mech"},
        {},
        planets=[
            {"name": "P1", "defender": "2 infantry", "commit": {"infantry": 3}},
            {"name": "P2", "defender": "1 infantry, 1 mech", "commit": {"infantry": 2, "mech": 1}},
            {"name": "P3", "defender": "2 infantry", "commit": {"infantry": 2}},
        ],
    ),
    "ti3 shock troops": _example("ti3-invasion-with-pds.yaml"),
    "ti3 space": _example("ti3-space-battle.yaml"),
    "ec4x": _example("ec4x/two-houses.yaml"),
}


def reference_tally(scenario: dict[str, Any], seed: int, first: int, count: int) -> Tally:
    """Monte Carlo's tally as it was made before the sampler: each trial played by ``play``
    (with its log), its end and rounds counted as it ends."""
    checked = parse_scenario(scenario)
    battle = rulesets.battle(checked)
    policies = battle.stock_policies()
    tally = Tally()
    for trial in range(first, first + count):
        played = play(battle, rulesets.dice_for(checked, trial_seed(seed, trial)), policies)
        key = battle.end_key(played.state)
        outcome, seen = tally.ends.get(key, (played.outcome, 0))
        tally.ends[key] = (outcome, seen + 1)
        rounds = int(str(played.outcome.get("rounds", 0)))
        tally.rounds[rounds] = tally.rounds.get(rounds, 0) + 1
        tally.trials += 1
    return tally


def _as_lists(tally: Tally) -> tuple[int, list[Any], list[Any]]:
    # in order: the order of the ends is the order the report sums them in
    return tally.trials, list(tally.ends.items()), list(tally.rounds.items())


@pytest.mark.parametrize("name", SCENARIOS)
@pytest.mark.parametrize("memory", [None, 25])
def test_a_sampled_battle_ends_as_play_ends_it(name: str, memory: int | None) -> None:
    """Trial by trial, the same final state and outcome as ``play`` with the same dice; with
    a small memory too (past it, points are walked every time)."""
    scenario = parse_scenario(SCENARIOS[name])
    battle = rulesets.battle(scenario)
    policies = battle.stock_policies()
    sampler = Sampler(battle, policies) if memory is None else Sampler(battle, policies, memory)
    for trial in range(120):
        played = play(battle, rulesets.dice_for(scenario, trial), policies)
        end = sampler.play(rulesets.dice_for(scenario, trial))
        assert (end.state, end.outcome) == (played.state, played.outcome), (name, trial)
    if memory is not None:
        assert sampler.remembered <= memory


@pytest.mark.parametrize("name", SCENARIOS)
def test_a_seed_gives_the_tally_it_gave_before_the_sampler(name: str) -> None:
    """The batches of a run share one sampler; each batch's tally (its ends in order, their
    outcomes and counts, the rounds) is the one trial-by-trial play gives."""
    trials = Trials(parse_scenario(SCENARIOS[name]))
    for first, count in ((0, 60), (60, 90), (150, 40)):
        assert _as_lists(trials.run(7, first, count)) == _as_lists(
            reference_tally(SCENARIOS[name], 7, first, count)
        ), (name, first)


def test_a_sampler_learns_and_then_mostly_rolls() -> None:
    """A small battle's points are nearly all met within a few hundred trials: after that the
    sampler walks the rules only for the rare long battle (round numbers are in the state)."""
    scenario = parse_scenario(space({"units": "2 cruiser"}, {"units": "1 dreadnought"}))
    battle = rulesets.battle(scenario)
    sampler: Sampler[Any] = Sampler(battle, battle.stock_policies())
    for trial in range(500):
        sampler.play(rulesets.dice_for(scenario, trial))
    learnt = sampler.remembered
    for trial in range(500, 1000):
        sampler.play(rulesets.dice_for(scenario, trial))
    assert learnt > 0
    assert sampler.remembered - learnt < learnt / 10, (learnt, sampler.remembered)


@pytest.mark.parametrize("seed", [0, 1, 12345, 2**63 + 5, (2**64 - 1) << 32 ^ 19_999])
def test_seeded_dice_roll_what_randint_rolls(seed: int) -> None:
    """``SeededDice`` takes ``randint``'s steps without its calls; the faces and what is left
    of the generator are the same (this Python's ``randint`` takes the steps it was checked
    for)."""
    assert dice_module.randint_steps()
    ours, theirs = SeededDice(seed), random.Random(seed)
    for count in (1, 2, 3, 7, 12, 40, 0, 5):
        assert ours.roll(count) == tuple(theirs.randint(1, SIDES) for _ in range(count))
    assert ours.pick((3, 1, 6)) == dice_module._cumulative((3, 1, 6), theirs.randrange(10))


@pytest.mark.parametrize(
    "name",
    [
        "retreat when outnumbered",
        # seconds each: the whole suite's, not the fast loop's
        pytest.param("three planets", marks=pytest.mark.slow),
        pytest.param("ec4x", marks=pytest.mark.slow),
    ],
)
def test_the_same_seed_gives_the_same_figures_on_one_worker_or_two(
    name: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Workers start with what the first batch (played by the parent) learnt and keep their
    sampler from batch to batch; tallies are merged in the order of their trials whichever
    batch ends first. The report is the one of one worker, to the last bit (battles with many
    points and ends, whose sums depend on the order of the ends; several batches per worker)."""
    scenario = SCENARIOS[name]
    alone = odds(scenario, method="montecarlo", trials=1200, seed=3, workers=1)
    used: list[int] = []
    real = montecarlo._in_pool

    def spied(*args: Any) -> None:
        used.append(1)
        real(*args)

    monkeypatch.setattr(montecarlo, "POOL_AFTER", 0.0)
    monkeypatch.setattr(montecarlo, "_in_pool", spied)
    shared = odds(scenario, method="montecarlo", trials=1200, seed=3, workers=2)
    assert used == [1]
    assert alone.to_json() == shared.to_json()


def test_a_short_run_is_played_without_the_pool(monkeypatch: pytest.MonkeyPatch) -> None:
    """Starting the pool costs more than it saves when the rest of the trials would take less
    than POOL_AFTER seconds here."""

    def refused(*args: Any) -> None:
        raise AssertionError("the pool was started")

    monkeypatch.setattr(montecarlo, "POOL_AFTER", 1e9)
    monkeypatch.setattr(montecarlo, "_in_pool", refused)
    report = odds(SCENARIOS["space"], method="montecarlo", trials=800, seed=1, workers=2)
    assert report.trials == 800


def test_pinned_figures_of_a_seed() -> None:
    """500 trials of seed 11, as Monte Carlo gave them before the sampler (76 attacker wins,
    379 defender wins, 45 draws; the battles' lengths in rounds)."""
    scenario = space({"units": "2 cruiser, 2 fighter"}, {"units": "1 destroyer, 1 dreadnought"})
    report = odds(scenario, method="montecarlo", trials=500, seed=11, workers=1)
    assert (report.attacker_win, report.defender_win, report.draw) == (0.152, 0.758, 0.09)
    tally = Trials(parse_scenario(scenario)).run(11, 0, 500)
    assert tally.rounds == {3: 139, 2: 247, 4: 47, 1: 45, 5: 17, 6: 4, 7: 1}
