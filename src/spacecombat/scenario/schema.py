"""The scenario file: what a battle starts from. YAML or JSON; every key documented in the README.

Validation here is about shape (keys, kinds, ranges). Whether a unit, faction or technology
exists is the ruleset's business (``rulesets/<name>/setup.py``), which names the field and the
allowed values when it refuses one.
"""

from __future__ import annotations

from pathlib import Path
from typing import Annotated, Any, Literal, get_args

from pydantic import (
    BaseModel,
    ConfigDict,
    Field,
    ValidationError,
    ValidatorFunctionWrapHandler,
    field_validator,
)
from pydantic_core import PydanticCustomError

from spacecombat.core.errors import ScenarioError
from spacecombat.core.limits import MAX_SCENARIO_BYTES
from spacecombat.scenario.formats import load_json, load_yaml
from spacecombat.scenario.notation import Fleet

Anomaly = Literal["none", "nebula", "gravity_rift", "asteroid_field", "supernova"]
Player = Literal["attacker", "defender", "other"]
Count = Annotated[int, Field(ge=0)]


class _Spec(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


def _counts(value: Any, field: str) -> Any:
    if isinstance(value, str):
        try:
            return Fleet.parse(value, field).as_dict()
        except ScenarioError as exc:
            # a ValueError, so that pydantic reports it with the field's full location
            raise ValueError(exc.message) from exc
    return value


class RetreatAfterRound(_Spec):
    """Retreat after round N: announce the retreat in round N, so the units leave at the end
    of round N, having fought N rounds (0 is the same as 1: the earliest possible)."""

    after_round: int = Field(ge=0)


class RetreatWhenOutnumbered(_Spec):
    """Announce a retreat when the enemy's combat dice are at least ``ratio`` times ours."""

    when_outnumbered: float = Field(gt=0)


class PolicySpec(_Spec):
    """How a player decides, for the stock policy. Every key is optional."""

    casualty_order: tuple[str, ...] | None = None
    sustain: Literal["first", "last"] | None = None
    retreat: Literal["never"] | RetreatAfterRound | RetreatWhenOutnumbered | None = None
    retreat_to: tuple[str, ...] | None = None
    retreat_takes_planet_ground_forces: bool | None = None
    planet_order: tuple[str, ...] | None = None
    pre_combat_order: tuple[str, ...] | None = None

    @field_validator("retreat", mode="wrap")
    @classmethod
    def _one_retreat_form(cls, value: Any, handler: ValidatorFunctionWrapHandler) -> Any:
        """Report the error of the form the input was meant to be, not one per form."""
        try:
            return handler(value)
        except ValidationError as exc:
            for error in exc.errors():
                if error["type"] not in _WRONG_FORM:
                    key = ".".join(str(part) for part in error["loc"][1:])
                    raise PydanticCustomError("retreat", f"{key}: {error['msg']}") from exc
            raise PydanticCustomError(
                "retreat",
                f"allowed: 'never', {{after_round: N}} or {{when_outnumbered: R}} (got {value!r})",
            ) from exc


#: Errors that only say the input has another form than one member of a union.
_WRONG_FORM = ("literal_error", "model_type", "missing", "extra_forbidden")


class SideSpec(_Spec):
    """One player's forces and what they have researched."""

    faction: str | None = None
    units: dict[str, Count] = Field(default_factory=dict)
    upgrades: tuple[str, ...] = ()
    damaged: dict[str, Count] = Field(default_factory=dict)
    technologies: tuple[str, ...] = ()
    planet_units: dict[str, Count] = Field(default_factory=dict)
    reinforcement_tokens: int | None = Field(default=None, ge=0)
    fleet_supply: int | None = Field(default=None, ge=0)
    policy: PolicySpec | None = None

    @field_validator("units", "damaged", "planet_units", mode="before")
    @classmethod
    def _fleet_text(cls, value: Any, info: Any) -> Any:
        return _counts(value, str(info.field_name))


class AdjacentSystemSpec(_Spec):
    """A system next to the active one, as far as a retreat needs to know it."""

    name: str
    anomaly: Anomaly = "none"
    units: tuple[Player, ...] = ()
    ships: tuple[Player, ...] = ()
    planets: tuple[Player, ...] = ()
    command_tokens: tuple[Player, ...] = ()


class SystemSpec(_Spec):
    """The active system."""

    name: str = "active system"
    anomaly: Anomaly = "none"
    adjacent: tuple[AdjacentSystemSpec, ...] = ()


class PlanetSpec(_Spec):
    """A planet in an invasion: the defender's units on it and the attacker's commitment."""

    name: str
    defender: dict[str, Count] = Field(default_factory=dict)
    damaged: dict[str, Count] = Field(default_factory=dict)
    commit: dict[str, Count] | None = None
    bombarded_by: dict[str, Count] | None = None

    @field_validator("defender", "damaged", "commit", "bombarded_by", mode="before")
    @classmethod
    def _fleet_text(cls, value: Any, info: Any) -> Any:
        return _counts(value, str(info.field_name))


class Scenario(_Spec):
    """A battle to resolve."""

    ruleset: Literal["ti4", "ti3"]
    battle: Literal["space", "invasion"]
    attacker: SideSpec
    defender: SideSpec
    policy: PolicySpec | None = None
    system: SystemSpec = SystemSpec()
    laws: tuple[str, ...] = ()
    planets: tuple[PlanetSpec, ...] | None = None
    #: the ruleset's named rule options (each documented with its default by the ruleset)
    options: dict[str, Any] | None = None


def parse_scenario(data: object) -> Scenario:
    """Validate a decoded scenario; ``ScenarioError`` names the first bad field."""
    try:
        return Scenario.model_validate(data)
    except ValidationError as exc:
        first = exc.errors()[0]
        field = "".join(
            f"[{part}]" if isinstance(part, int) else f".{part}" for part in first["loc"]
        ).removeprefix(".")
        field = field or "scenario"
        message = first["msg"]
        if first["type"] == "extra_forbidden":
            message = f"unknown key; allowed: {', '.join(_allowed_keys(first['loc']))}"
        elif first["type"] == "value_error":
            message = str(first.get("ctx", {}).get("error", message))
        elif first["type"] == "literal_error":
            message = f"{message} (got {first.get('input')!r})"
        elif first["type"] == "missing":
            message = "is required"
        raise ScenarioError(field, message) from exc


def _allowed_keys(loc: tuple[int | str, ...]) -> list[str]:
    """The keys of the mapping at ``loc[:-1]`` in a scenario."""
    model: type[BaseModel] | None = Scenario
    for part in loc[:-1]:
        if isinstance(part, int):
            continue
        fields = model.model_fields if model is not None else {}
        model = _model_in(fields[part].annotation) if part in fields else None
    return list(model.model_fields) if model is not None else []


def _model_in(annotation: object) -> type[BaseModel] | None:
    if isinstance(annotation, type) and issubclass(annotation, BaseModel):
        return annotation
    for arg in get_args(annotation):
        if (found := _model_in(arg)) is not None:
            return found
    return None


def load_scenario(path: str | Path) -> Scenario:
    """Read a YAML or JSON scenario file (within ``MAX_SCENARIO_BYTES``)."""
    path = Path(path)
    try:
        with path.open("rb") as handle:
            data = handle.read(MAX_SCENARIO_BYTES + 1)
    except OSError as exc:
        raise ScenarioError("file", f"cannot read {str(path)!r}: {exc.strerror}") from exc
    if len(data) > MAX_SCENARIO_BYTES:
        raise ScenarioError(
            "file", f"{str(path)!r} is larger than the limit of {MAX_SCENARIO_BYTES:,} bytes"
        )
    try:
        text = data.decode("utf-8").removeprefix("\ufeff")
    except UnicodeDecodeError as exc:
        raise ScenarioError("file", f"{str(path)!r} is not UTF-8 text") from exc
    return parse_scenario(decode(text, path.name))


def decode(text: str, name: str = "scenario") -> object:
    """Decode YAML, strictly (JSON is YAML too, but a .json file is read as JSON for clearer
    errors): no aliases, no duplicate keys, no deep nesting (``scenario/formats.py``)."""
    if name.endswith(".json"):
        return load_json(text, name)
    return load_yaml(text, name)


def decode_json_line(text: str) -> object:
    """One line of a JSON Lines batch."""
    return load_json(text, "line")
