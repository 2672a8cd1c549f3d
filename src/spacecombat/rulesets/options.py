"""A ruleset's named rule options (the scenario's ``options:``), read strictly: every option is
named in the ruleset's model with its default; an unknown name is refused naming the allowed
ones, and a value of the wrong kind (``true`` for a count, ``"3"`` or ``3.0`` for a number,
``1`` for true or false) is refused, in the project's words."""

from __future__ import annotations

from collections.abc import Mapping
from typing import TypeVar

from pydantic import BaseModel, ValidationError

from spacecombat.core.errors import ScenarioError
from spacecombat.core.limits import ECHO, shown
from spacecombat.scenario.schema import say

Options = TypeVar("Options", bound=BaseModel)


def parse_options(model: type[Options], raw: Mapping[str, object] | None, ruleset: str) -> Options:
    """The scenario's ``options`` checked against ``model``, with defaults for the others;
    ``ScenarioError`` names the first bad option (``options.NAME``) and what it allows."""
    try:
        return model.model_validate(dict(raw or {}))
    except ValidationError as exc:
        first = exc.errors()[0]
        name = str(first["loc"][0]) if first["loc"] else ""
        field = f"options.{name}" if is_plain_key(name) else "options"
        raise ScenarioError(field, _say(model, first, name, ruleset)) from exc


def is_plain_key(name: str) -> bool:
    """Whether a key can be shown as part of a field's path (a short name), rather than
    quoted and cut in the message."""
    return name.isidentifier() and len(name) <= ECHO


def _say(model: type[BaseModel], error: object, name: str, ruleset: str) -> str:
    assert isinstance(error, dict)
    if error["type"] == "extra_forbidden":
        allowed = ", ".join(model.model_fields)
        what = "unknown option" if is_plain_key(name) else f"unknown option {shown(name)}"
        return f"{what} for ruleset {ruleset}; allowed: {allowed}"
    return say(error, model)
