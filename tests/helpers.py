"""Shared test tools: build scenarios, play them with scripted dice, pick events out."""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from pathlib import Path
from typing import Any

import pytest

from spacecombat import rulesets
from spacecombat.cli import main
from spacecombat.core.decisions import Policy
from spacecombat.core.dice import ScriptedDice
from spacecombat.core.engine import Played, Sampler, play
from spacecombat.core.events import Event
from spacecombat.core.policies import ScriptedPolicy
from spacecombat.replayer import replay
from spacecombat.resolver import resolve
from spacecombat.rulesets import is_scenario, parse_scenario
from spacecombat.rulesets.ti4.state import BattleState
from spacecombat.scenario.schema import AnyScenario


def space(attacker: Mapping[str, Any], defender: Mapping[str, Any], **extra: Any) -> dict[str, Any]:
    """A TI4 space battle scenario (sides as scenario dicts, e.g. {"units": "2 cruiser"})."""
    return {
        "ruleset": "ti4",
        "battle": "space",
        "attacker": dict(attacker),
        "defender": dict(defender),
        **extra,
    }


def invasion(
    attacker: Mapping[str, Any], defender: Mapping[str, Any], **extra: Any
) -> dict[str, Any]:
    """A TI4 invasion scenario."""
    return {
        "ruleset": "ti4",
        "battle": "invasion",
        "attacker": dict(attacker),
        "defender": dict(defender),
        **extra,
    }


def run(
    scenario: Mapping[str, Any],
    faces: Iterable[int],
    *,
    attacker: Sequence[str] | None = None,
    defender: Sequence[str] | None = None,
    all_dice: bool = True,
) -> Played[BattleState]:
    """Play with scripted dice (every face must be used when ``all_dice``) and stock policies,
    except for a player given scripted answers."""
    dice = ScriptedDice(faces)
    policies: dict[str, Policy] = {}
    if attacker is not None:
        policies["attacker"] = ScriptedPolicy(attacker)
    if defender is not None:
        policies["defender"] = ScriptedPolicy(defender)
    played = resolve(scenario, dice=dice, policies=policies)
    if all_dice:
        assert dice.remaining == 0, f"{dice.remaining} scripted faces were not rolled"
    return played


def events(played: Played[BattleState], kind: str, **match: object) -> list[Event]:
    """The events of a kind (whose fields equal ``match``)."""
    return [
        e
        for e in played.events
        if e.get("event") == kind and all(e.get(k) == v for k, v in match.items())
    ]


def rolls(played: Played[BattleState], purpose: str | None = None) -> list[Event]:
    """The dice_rolled events (for a purpose)."""
    return [e for e in events(played, "dice_rolled") if purpose in (None, e.get("purpose"))]


def units(side_json: object) -> dict[str, int]:
    """Counts by unit (all statuses) from a forces JSON list."""
    out: dict[str, int] = {}
    if isinstance(side_json, list):
        for item in side_json:
            out[item["unit"]] = out.get(item["unit"], 0) + item["count"]
    return out


def survivors(played: Played[BattleState], side: str, where: str = "space") -> dict[str, int]:
    """A side's units left in the space area (or ``where="planet"``: on the first planet)."""
    block = played.outcome[side]
    assert isinstance(block, dict)
    if where == "space":
        return units(block["space"])
    return units(block["planets"][0])


def run_cli(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    """Exit status, standard output and standard error of one ``spacecombat`` run, in
    process."""
    status = main(list(argv))
    out, err = capsys.readouterr()
    return status, out, err


def write_file(tmp_path: Path, name: str, text: str) -> str:
    """Write ``text`` to ``tmp_path / name``; its path."""
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return str(path)


def assert_logs_replay(scenario: Mapping[str, Any], seeds: int = 5) -> None:
    """The log of the battle from each of ``seeds`` seeds, written as JSON and read back,
    reproduces itself."""
    import json

    for seed in range(seeds):
        log = [json.loads(json.dumps(e)) for e in resolve(scenario, seed=seed).events]
        assert replay(log).reproduces, seed


def assert_sampled_as_played(scenario: Mapping[str, Any] | AnyScenario, trials: int = 60) -> None:
    """Each trial of the Monte Carlo sampler ends where ``play`` ends with the same dice."""
    parsed = scenario if is_scenario(scenario) else parse_scenario(scenario)
    battle = rulesets.battle(parsed)
    policies = battle.stock_policies()
    sampler = Sampler(battle, policies)
    for trial in range(trials):
        played = play(battle, rulesets.dice_for(parsed, trial), policies)
        end = sampler.play(rulesets.dice_for(parsed, trial))
        assert (end.state, end.outcome) == (played.state, played.outcome), trial
