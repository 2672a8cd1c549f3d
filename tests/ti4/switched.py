"""An exact shortcut checked on and off: a module-level switch (``FORGET``, ``DROP``) set each
way, the battle's reports compared to 1e-12 (tests/sweep/test_cache.py ``close``)."""

from __future__ import annotations

from collections.abc import Callable
from types import ModuleType
from typing import Any

import pytest

from spacecombat import odds
from spacecombat.analysis.budget import TooLarge
from spacecombat.core.errors import SpacecombatError
from spacecombat.rulesets.ti4.procedures import stalemate
from spacecombat.rulesets.ti4.setup import BattleSetup
from spacecombat.rulesets.ti4.sides import SIDES, Side
from spacecombat.rulesets.ti4.state import BattleState
from tests.sweep.test_cache import close


def report(
    scenario: dict[str, Any], module: ModuleType, switch: str, on: bool, mp: pytest.MonkeyPatch
) -> Any:
    """The exact engine's report with ``module.switch`` set to ``on``."""
    mp.setattr(module, switch, on)
    return odds(scenario, fallback=False).to_json()


def same_on_and_off(
    scenario: dict[str, Any], module: ModuleType, switch: str, mp: pytest.MonkeyPatch
) -> bool:
    """The reports with the shortcut on and off are equal; False if the battle is refused."""
    try:
        off = report(scenario, module, switch, False, mp)
    except (TooLarge, SpacecombatError):
        return False
    close(report(scenario, module, switch, True, mp), off)
    return True


def fractions_on_and_off(
    scenario: dict[str, Any], module: ModuleType, switch: str, mp: pytest.MonkeyPatch
) -> tuple[Any, Any]:
    """The exact engine's reports, in fractions, with the shortcut on and off: (on, off)."""
    mp.setattr(module, switch, False)
    off = odds(scenario, fractions=True, fallback=False)
    mp.setattr(module, switch, True)
    return odds(scenario, fractions=True, fallback=False), off


def stalemate_answers(
    scenario: dict[str, Any], switch: str, on: bool, mp: pytest.MonkeyPatch
) -> tuple[list[bool], Any]:
    """Every answer of the stalemate check (procedures/stalemate.py ``_neither``), in the order
    asked, and the exact engine's report (fractions and floats), with the check's shortcut
    ``stalemate.switch`` set to ``on``."""
    neither = stalemate._neither
    found: list[bool] = []

    def kept(setup: BattleSetup, state: BattleState) -> bool:
        found.append(neither(setup, state))
        return found[-1]

    with mp.context() as patched:
        patched.setattr(stalemate, switch, on)
        patched.setattr(stalemate, "_neither", kept)
        report = odds(scenario, fractions=True, fallback=False)
    return found, (report.fractions_json(), report.to_json())


def shortcut_checked(
    scenario: dict[str, Any],
    shortcut: Callable[[BattleSetup, BattleState, Side], bool],
    monkeypatch: pytest.MonkeyPatch,
) -> tuple[int, int]:
    """Solve ``scenario`` with every stalemate check (procedures/stalemate.py ``_neither``)
    held against the favoured side's path followed afresh wherever ``shortcut`` says that side
    can win without following it; how many checks, and how many answers so shortcut."""
    neither = stalemate._neither
    asked = answered = 0

    def checked(setup: BattleSetup, state: BattleState) -> bool:
        nonlocal asked, answered
        asked += 1
        found = neither(setup, state)
        for side in SIDES:
            if shortcut(setup, state, side):
                answered += 1
                assert found is False
                assert stalemate._can_end(setup, state, side)
        return found

    with monkeypatch.context() as patched:
        patched.setattr(stalemate, "_neither", checked)
        odds(scenario, fallback=False)
    return asked, answered
