"""Issue 24: Monte Carlo plays EC4X battles quietly (``Ec4xBattle.quiet``, ``Setup.quiet``):
the same procedures, taking the same steps and draws from the same states, but building no
events. A quiet battle must be the resolver's battle draw for draw: every die and every
weighted pick asked of the dice in the same order with the same weights (7.3.2.5: a battle's
seed fixes its draws), and the same final state and outcome. Checked on every scenario of the
regression guard (the examples, planetary combat and three houses among them, each under the
non-default option sets, the ten-against-ten benchmark, random battles with raiders, fighters,
colonies, starbases, crippled starts and crises), on several seeds each."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import pytest

from spacecombat import rulesets
from spacecombat.analysis.montecarlo import Trials
from spacecombat.core.dice import Dice
from spacecombat.core.engine import Sampler, play
from spacecombat.rulesets import parse_scenario
from spacecombat.rulesets.ec4x.battle import Ec4xBattle
from tests.ec4x.test_logs_unchanged import RECORDED
from tests.odds.test_montecarlo_sampler import reference_tally

#: the events only the log reads, which a quiet battle never builds (7.3 rounds)
ROUND_EVENTS = {
    "round_started",
    "cer_rolled",
    "target_selected",
    "damage_applied",
    "casualties_assessed",
    "strength_assessed",
    "roe_checked",
}


class Recording:
    """Dice that note every draw asked of them: (roll, count, faces) or (pick, weights,
    index)."""

    def __init__(self, dice: Dice) -> None:
        self.dice = dice
        self.draws: list[tuple[str, object, object]] = []

    def roll(self, count: int) -> tuple[int, ...]:
        faces = self.dice.roll(count)
        self.draws.append(("roll", count, faces))
        return faces

    def pick(self, weights: Sequence[int]) -> int:
        index = self.dice.pick(weights)
        self.draws.append(("pick", tuple(weights), index))
        return index


def _scenarios() -> list[tuple[str, dict[str, Any]]]:
    """Each distinct scenario of the regression guard that the engine accepts, once."""
    seen: set[str] = set()
    found = []
    for record in RECORDED:
        if "log" not in record:
            continue
        key = repr(record["scenario"])
        if key in seen:
            continue
        seen.add(key)
        found.append((record["case"], record["scenario"]))
    return found


SCENARIOS = _scenarios()
SEEDS = (0, 1, 2, 97, 2**40 + 3)


def test_the_scenarios_cover_planetary_combat_three_houses_and_options() -> None:
    names = {name for name, _ in SCENARIOS}
    assert len(SCENARIOS) >= 150
    for needed in ("invasion", "blitz", "bombard-shields", "three-houses", "bench"):
        assert needed in names
    assert any("+options" in name for name in names)
    assert any(len(s["houses"]) >= 3 for _, s in SCENARIOS)


@pytest.mark.parametrize(("name", "scenario"), SCENARIOS, ids=[name for name, _ in SCENARIOS])
def test_a_quiet_battle_draws_and_ends_as_the_resolver(name: str, scenario: dict[str, Any]) -> None:
    """Seed by seed: the same draws (kind, weights, result, in order) and the same final state
    and outcome as ``play`` of the resolver's battle, with a sampler that walks the rules every
    time (no memory) and with one that remembers across the seeds."""
    checked = parse_scenario(scenario)
    battle = rulesets.battle(checked)
    assert isinstance(battle, Ec4xBattle)
    policies = battle.stock_policies()
    walking = Sampler(battle, policies, memory=0)
    remembering = Sampler(battle, policies)
    assert walking.process is not battle
    assert isinstance(walking.process, Ec4xBattle)
    assert walking.process.setup.quiet
    for seed in SEEDS:
        loud = Recording(rulesets.dice_for(checked, seed))
        played = play(battle, loud, policies)
        quiet = Recording(rulesets.dice_for(checked, seed))
        end = walking.play(quiet)
        assert quiet.draws == loud.draws, (name, seed)
        assert (end.state, end.outcome) == (played.state, played.outcome), (name, seed)
        again = remembering.play(rulesets.dice_for(checked, seed))
        assert (again.state, again.outcome) == (played.state, played.outcome), (name, seed)


@pytest.mark.parametrize("name", ["bench", "three-houses", "retreat", "starbase"])
def test_a_quiet_battle_builds_no_round_events(name: str) -> None:
    """The quiet twin, played by ``play``, logs none of the rounds' events (only what starts
    and ends the battle), and ends where the resolver's battle ends."""
    scenario = dict(SCENARIOS)[name]
    checked = parse_scenario(scenario)
    battle = rulesets.battle(checked)
    assert isinstance(battle, Ec4xBattle)
    quiet = battle.quiet()
    policies = battle.stock_policies()
    for seed in SEEDS:
        loud = play(battle, rulesets.dice_for(checked, seed), policies)
        hushed = play(quiet, rulesets.dice_for(checked, seed), policies)
        assert ROUND_EVENTS & {e["event"] for e in loud.events}
        assert not ROUND_EVENTS & {e["event"] for e in hushed.events}
        assert (hushed.state, hushed.outcome) == (loud.state, loud.outcome)


def test_the_resolver_battle_is_not_quiet() -> None:
    """Only the sampler's twin is quiet: the battle the resolver plays keeps its log."""
    checked = parse_scenario(dict(SCENARIOS)["tiny"])
    battle = rulesets.battle(checked)
    assert isinstance(battle, Ec4xBattle)
    assert not battle.setup.quiet
    assert battle.quiet().setup.quiet
    assert not battle.setup.quiet


def test_a_full_sampler_of_a_large_battle_goes_lean_and_still_ends_as_the_resolver() -> None:
    """Ten squadrons a side: their states almost never repeat, so once a small memory is full
    the sampler plays each battle on from where it leaves what it remembers without look-ups
    (``lean``); draw for draw and end for end still the resolver's battle."""
    checked = parse_scenario(dict(SCENARIOS)["bench"])
    battle = rulesets.battle(checked)
    policies = battle.stock_policies()
    sampler = Sampler(battle, policies, memory=200)
    seed = 0
    while not sampler.lean:
        assert seed < 200, "a full sampler of a large battle goes lean"
        sampler.play(rulesets.dice_for(checked, seed))
        seed += 1
    for seed in range(300, 330):
        loud = Recording(rulesets.dice_for(checked, seed))
        played = play(battle, loud, policies)
        quiet = Recording(rulesets.dice_for(checked, seed))
        end = sampler.play(quiet)
        assert quiet.draws == loud.draws, seed
        assert (end.state, end.outcome) == (played.state, played.outcome), seed


def test_a_small_battle_stays_with_its_memory() -> None:
    """One against two: the memory is never full, so the sampler never goes lean (it only
    rolls once it has met the battle's points)."""
    checked = parse_scenario(dict(SCENARIOS)["tiny"])
    battle = rulesets.battle(checked)
    sampler = Sampler(battle, battle.stock_policies())
    for seed in range(400):
        sampler.play(rulesets.dice_for(checked, seed))
    assert not sampler.lean
    assert 0 < sampler.remembered < sampler.memory


def test_a_lean_sampler_gives_the_tally_trial_by_trial_play_gives() -> None:
    """Monte Carlo's figures for a seed do not change: a batch of ten-against-ten trials
    played by a lean sampler tallies the same ends, in the same order, with the same outcomes
    and counts, and the same rounds, as each trial played by ``play`` with its log."""
    scenario = dict(SCENARIOS)["bench"]
    trials = Trials(parse_scenario(scenario))
    trials.kernel = None  # the sampler's own path (the kernel's: tests/ec4x/test_kernel.py)
    trials.sampler = Sampler(trials.battle, trials.battle.stock_policies(), memory=200)
    trials.run(5, 0, 10)
    assert trials.sampler.lean
    tally = trials.run(5, 10, 40)
    expected = reference_tally(scenario, 5, 10, 40)
    assert tally.trials == expected.trials
    assert list(tally.ends.items()) == list(expected.ends.items())
    assert list(tally.rounds.items()) == list(expected.rounds.items())
