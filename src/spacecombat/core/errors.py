"""The errors the engine raises, each with a message meant for a person."""

from __future__ import annotations


class SpacecombatError(Exception):
    """Base of every error this package raises on purpose."""


class ScenarioError(SpacecombatError):
    """A scenario is malformed or impossible: ``field`` says where, ``message`` what is allowed."""

    def __init__(self, field: str, message: str) -> None:
        super().__init__(f"{field}: {message}" if field else message)
        self.field = field
        self.message = message


class NothingToInvade(ScenarioError):
    """An invasion whose attacker has no ground forces to land and no unit to bombard: refused
    as a scenario; in a tactical action, the space combat left nothing to invade with, and the
    action ends (rulesets/tactical.py)."""


class RulesDataError(SpacecombatError):
    """A rules data file does not follow its schema."""


class RuleNotImplemented(SpacecombatError):
    """A battle needs a rule (ability, card, technology) that the engine does not implement."""

    def __init__(self, rule: str, where: str) -> None:
        super().__init__(
            f"{where}: {rule} is not implemented yet; remove it from the scenario "
            "or resolve that part by hand"
        )
        self.rule = rule
        self.where = where


class IllegalChoice(SpacecombatError):
    """A decision was answered with a choice the rules do not allow; the message says why."""


class ReplayError(SpacecombatError):
    """A log cannot be replayed (malformed, or it does not reproduce)."""
