"""Hypothesis properties over battles as players enter them (issue 14: factions, flagships,
technologies, action cards, promissory notes, leaders, purses, conditions and card policies,
drawn by ``benchmarks/factions.py`` from the rules data): the same seed gives the same log, a
replayed log reproduces itself, unit counts, hits and purses never go negative, and an action
card or a leader is played at most once."""

from __future__ import annotations

import os
import random
from typing import Any

from benchmarks.factions import random_faction_battle
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from spacecombat.core.dice import SeededDice
from spacecombat.core.engine import Chance, Decision, End, Step
from spacecombat.core.errors import RuleNotImplemented
from spacecombat.replayer import replay
from spacecombat.resolver import resolve
from spacecombat.rulesets import battle as make_battle
from spacecombat.rulesets import parse_scenario
from spacecombat.rulesets.ti4.rules import load

#: the cards played at most once a battle (data/cards.toml): action cards, and the leaders that
#: are exhausted or purged when used (agents and heroes; a commander acts again and again)
ONCE = {
    i: c.kind == "action_card" or c.leader in ("agent", "hero") for i, c in load().cards.items()
}
#: more examples by hand: FACTION_EXAMPLES=600 pytest tests/ti4/test_faction_battle_properties.py
SETTINGS = settings(
    max_examples=int(os.environ.get("FACTION_EXAMPLES", "40")),
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow],
)


def played_battle(seed: int) -> tuple[dict[str, Any], Any] | None:
    """A random faction battle and its log from ``seed``, or None when the engine refuses it by
    name (an effect, or a combination, not implemented yet: a clean refusal is allowed)."""
    scenario = random_faction_battle(random.Random(seed))
    try:
        return scenario, resolve(scenario, seed=seed)
    except RuleNotImplemented:
        return None


@SETTINGS
@given(st.integers(0, 2**32))
def test_same_seed_same_log_and_the_log_replays(seed: int) -> None:
    found = played_battle(seed)
    if found is None:
        return
    scenario, played = found
    assert resolve(scenario, seed=seed).events == played.events
    report = replay(played.events)
    assert report.reproduces, report
    assert report.verified


@SETTINGS
@given(st.integers(0, 2**32))
def test_counts_and_purses_never_negative_and_cards_play_once(seed: int) -> None:
    scenario = random_faction_battle(random.Random(seed))
    try:
        process = make_battle(parse_scenario(scenario))
    except RuleNotImplemented:
        return
    policies = process.stock_policies()
    dice = SeededDice(seed)
    state = process.start().state
    played: list[tuple[str, str]] = []
    try:
        for _ in range(10_000):
            for side in (state.attacker, state.defender):
                for forces in (side.space, *side.planets):
                    assert all(count > 0 for _, _, count in forces)
            assert min(state.hits) >= 0
            assert all(amount >= 0 for purse in state.purse for amount in purse)
            node = process.advance(state)
            if isinstance(node, End):
                return
            if isinstance(node, Step):
                events, state = node.events, node.state
            elif isinstance(node, Chance):
                step = node.after(node.rolled(node.pool.sample(dice)))
                events, state = step.events, step.state
            elif isinstance(node, Decision):
                answer = policies[node.request.player].choose(node.request)
                step = node.then(node.request.option(answer))
                events, state = step.events, step.state
            else:
                events = ()
            for e in events:
                # an action card is discarded, a leader exhausted or purged: once a battle
                # (relics and abilities such as the Crown of Thalnos act each round)
                if e["event"] == "card_played" and ONCE.get(str(e["card"])):
                    key = (str(e["player"]), str(e["card"]))
                    assert key not in played, key
                    played.append(key)
    except RuleNotImplemented:
        return  # a combination refused by name when the battle reaches it
    raise AssertionError("the battle did not end in 10,000 steps")
