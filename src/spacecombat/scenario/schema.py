"""The scenario file: what a battle starts from. YAML or JSON; every key documented in the README.

Validation here is about shape (keys, kinds, ranges). Whether a unit, faction or technology
exists is the ruleset's business (``rulesets/<name>/setup.py``), which names the field and the
allowed values when it refuses one.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Annotated, Any, Literal, Union, get_args, get_origin

from pydantic import (
    AfterValidator,
    BaseModel,
    ConfigDict,
    Field,
    Strict,
    StrictBool,
    StrictInt,
    StrictStr,
    ValidationError,
    ValidatorFunctionWrapHandler,
    field_validator,
)
from pydantic_core import PydanticCustomError

from spacecombat.core.errors import ScenarioError
from spacecombat.core.limits import (
    ECHO,
    MAX_ROUNDS,
    MAX_UNITS_PER_SIDE,
    shown,
)
from spacecombat.scenario.formats import decode as decode
from spacecombat.scenario.formats import decode_json_line as decode_json_line
from spacecombat.scenario.formats import read_document as read_document
from spacecombat.scenario.notation import Fleet

#: ``ion_storm``: a TI3 (Shattered Empire) special system; TI4 refuses it (docs/rulings.md 27I-5)
Anomaly = Literal["none", "nebula", "gravity_rift", "asteroid_field", "supernova", "ion_storm"]
Player = Literal["attacker", "defender", "other"]
#: a unit count: a whole number written as one (not true, "3" or 3.0), within the unit limit
Count = Annotated[StrictInt, Field(ge=0, le=MAX_UNITS_PER_SIDE)]
Name = StrictStr


def _unique(values: tuple[str, ...]) -> tuple[str, ...]:
    """A list whose entries may appear once each (a second one would be ignored silently)."""
    for i, value in enumerate(values):
        if values.index(value) != i:
            raise PydanticCustomError(
                "duplicate",
                "{value} is listed twice (entries {first} and {i})",
                {"value": shown(value), "first": values.index(value), "i": i},
            )
    return values


Names = Annotated[tuple[Name, ...], AfterValidator(_unique)]


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

    after_round: Annotated[StrictInt, Field(ge=0, le=MAX_ROUNDS)]


class PlayInRound(_Spec):
    """Play a card (or use a leader) at its first legal window from combat round N on."""

    round: Annotated[StrictInt, Field(ge=0, le=MAX_ROUNDS)]


class RetreatWhenOutnumbered(_Spec):
    """Announce a retreat when the enemy's combat dice are at least ``ratio`` times ours."""

    when_outnumbered: Annotated[float, Strict(), Field(gt=0, le=1000, allow_inf_nan=False)]


class PolicySpec(_Spec):
    """How a player decides, for the stock policy. Every key is optional."""

    casualty_order: Names | None = None
    sustain: Literal["first", "last", "in_order"] | None = None
    retreat: Literal["never"] | RetreatAfterRound | RetreatWhenOutnumbered | None = None
    retreat_to: Names | None = None
    retreat_takes_planet_ground_forces: StrictBool | None = None
    planet_order: Names | None = None
    pre_combat_order: Names | None = None
    #: TI4: when to play each card held (by id): ``never``, or ``{round: N}``; a card not
    #: named is played at its first legal window where it changes something.
    #: ``with_planets``: The Alastor (``nekro_flagship_ground_forces_fight``) has the ground
    #: forces on planets participate too (ti4 setup checks it names that ability)
    play: dict[Name, Literal["never", "with_planets"] | PlayInRound] | None = None
    #: TI4 and TI3: how many units of each type to keep back: they are destroyed only when no
    #: other unit a hit may reach is left (``{infantry: 1}``; docs/rulings.md 22K-1)
    keep: dict[Name, Count] | None = None

    @field_validator("keep", mode="before")
    @classmethod
    def _keep_text(cls, value: Any) -> Any:
        """``keep`` in fleet notation too (``"1 infantry"``), as a side's units are."""
        return _counts(value, "keep")

    @field_validator("retreat", mode="wrap")
    @classmethod
    def _one_retreat_form(cls, value: Any, handler: ValidatorFunctionWrapHandler) -> Any:
        """Report the error of the form the input was meant to be, not one per form."""
        try:
            return handler(value)
        except ValidationError as exc:
            if isinstance(value, dict) and len(value) == 1:
                for error in exc.errors():
                    if error["type"] not in _WRONG_FORM:
                        key = ".".join(str(part) for part in error["loc"][1:])
                        raise PydanticCustomError(
                            "retreat",
                            "{key}: {message}",
                            {"key": key, "message": say(error)},
                        ) from exc
            raise PydanticCustomError(
                "retreat",
                "allowed: 'never', {after_round: N} or {when_outnumbered: R} (got {got})",
                {"got": shown(value)},
            ) from exc

    @field_validator("play", mode="before")
    @classmethod
    def _one_play_form(cls, value: Any) -> Any:
        """Each card's entry is 'never' or {round: N}: a wrong one is reported as such, not as
        a mismatch with each form in turn."""
        if not isinstance(value, dict):
            return value
        for card, when in value.items():
            if when in ("never", "with_planets"):
                continue
            rounds = when.get("round") if isinstance(when, dict) and len(when) == 1 else None
            if not (
                isinstance(rounds, int)
                and not isinstance(rounds, bool)
                and 0 <= rounds <= MAX_ROUNDS
            ):
                raise PydanticCustomError(
                    "play",
                    "{card}: allowed: 'never', {round: N} (N from 0 to {most}) or "
                    "'with_planets' (The Alastor), not {got}",
                    {"card": shown(card), "most": MAX_ROUNDS, "got": shown(when)},
                )
        return value


#: Errors that only say the input has another form than one member of a union.
_WRONG_FORM = ("literal_error", "model_type", "missing", "extra_forbidden", "model_attributes_type")


#: the most technologies of one colour a player may be said to own (``technology_colours``):
#: more than the game's technologies of any one colour, faction technologies included
MAX_TECHNOLOGIES_OF_A_COLOUR = 20
TechnologyCount = Annotated[StrictInt, Field(ge=0, le=MAX_TECHNOLOGIES_OF_A_COLOUR)]


class TechnologyColours(_Spec):
    """TI4: how many technologies of each colour a player owns (unit upgrades have no colour),
    the prerequisites a technology researched during the battle must meet (Reveal Prototype).
    A colour left out counts 0."""

    blue: TechnologyCount = 0
    green: TechnologyCount = 0
    red: TechnologyCount = 0
    yellow: TechnologyCount = 0


class SideSpec(_Spec):
    """One player's forces and what they have researched."""

    faction: Name | None = None
    units: dict[Name, Count] = Field(default_factory=dict)
    upgrades: Names = ()
    damaged: dict[Name, Count] = Field(default_factory=dict)
    technologies: Names = ()
    planet_units: dict[Name, Count] = Field(default_factory=dict)
    reinforcement_tokens: Annotated[StrictInt, Field(ge=0, le=100)] | None = None
    fleet_supply: Annotated[StrictInt, Field(ge=0, le=100)] | None = None
    policy: PolicySpec | None = None
    #: TI4: cards in hand and in play that may act in this battle (ids in the rulesets' data:
    #: data/cards.toml), each played or used through a decision
    action_cards: Names | None = None
    promissory_notes: Names | None = None
    leaders: Names | None = None
    relics: Names | None = None
    #: TI4: what the player may spend during the battle (Munitions Reserves, the Hacan and
    #: Empyrean flagships, Indoctrination ...)
    trade_goods: Annotated[StrictInt, Field(ge=0, le=100)] | None = None
    influence: Annotated[StrictInt, Field(ge=0, le=100)] | None = None
    #: TI4: the resources of the player's readied planets, which an effect may spend (Reveal
    #: Prototype; trade goods may be spent as resources too)
    resources: Annotated[StrictInt, Field(ge=0, le=100)] | None = None
    #: TI4: technologies the player owns, by colour (an effect that researches a technology
    #: checks its prerequisites against them: Reveal Prototype)
    technology_colours: TechnologyColours | None = None
    #: TI4: the player's readied planets with a technology specialty, by colour, not among the
    #: planets whose ``resources`` it spends: each may be exhausted to ignore one prerequisite
    #: of its colour when researching (rules reference 90.12; docs/rulings.md 27T-6)
    technology_specialties: TechnologyColours | None = None
    #: TI4: facts about the player that some effects read (data/cards.toml ``[[condition]]``)
    conditions: Names | None = None
    #: TI4: other printings of the faction's unit cards used instead of the usual ones (data
    #: units.toml ids of a Codex revision: naalu_mech_omega); a Nekro's: also another faction's
    #: unit upgrade a Valefar Assimilator's token copies (argent_destroyer2; rulings 27V-7)
    cards: Names | None = None

    @field_validator("units", "damaged", "planet_units", mode="before")
    @classmethod
    def _fleet_text(cls, value: Any, info: Any) -> Any:
        return _counts(value, str(info.field_name))

    def unit_count(self) -> int:
        """The side's units in space and on its planets (damaged ones are among them)."""
        return sum(self.units.values()) + sum(self.planet_units.values())


class AdjacentSystemSpec(_Spec):
    """A system next to the active one, as far as a retreat needs to know it."""

    name: Name
    anomaly: Anomaly = "none"
    units: Annotated[tuple[Player, ...], AfterValidator(_unique)] = ()
    ships: Annotated[tuple[Player, ...], AfterValidator(_unique)] = ()
    planets: Annotated[tuple[Player, ...], AfterValidator(_unique)] = ()
    command_tokens: Annotated[tuple[Player, ...], AfterValidator(_unique)] = ()


class SystemSpec(_Spec):
    """The active system."""

    name: Name = "active system"
    anomaly: Anomaly = "none"
    adjacent: tuple[AdjacentSystemSpec, ...] = ()
    #: TI4: the system's wormholes (Dimensional Splicer) and what else effects read of it
    #: (data/cards.toml ``[[condition]]`` of ``scope = "system"``)
    wormholes: (
        Annotated[tuple[Literal["alpha", "beta", "gamma", "delta"], ...], AfterValidator(_unique)]
        | None
    ) = None
    features: Names | None = None


class PlanetSpec(_Spec):
    """A planet in an invasion: the defender's units on it and the attacker's commitment."""

    name: Name
    defender: dict[Name, Count] = Field(default_factory=dict)
    damaged: dict[Name, Count] = Field(default_factory=dict)
    commit: dict[Name, Count] | None = None
    bombarded_by: dict[Name, Count] | None = None
    #: TI4: the planet's traits and kind (Conventions of War reads ``cultural``)
    traits: (
        Annotated[
            tuple[Literal["cultural", "hazardous", "industrial", "legendary"], ...],
            AfterValidator(_unique),
        ]
        | None
    ) = None

    @field_validator("defender", "damaged", "commit", "bombarded_by", mode="before")
    @classmethod
    def _fleet_text(cls, value: Any, info: Any) -> Any:
        return _counts(value, str(info.field_name))


class Scenario(_Spec):
    """A battle to resolve."""

    ruleset: Literal["ti4", "ti3"]
    battle: Literal["space", "invasion", "tactical"]
    attacker: SideSpec
    defender: SideSpec
    policy: PolicySpec | None = None
    system: SystemSpec = SystemSpec()
    laws: Names = ()
    #: TI4: what each law that elects something names: a player (``{prophecy_of_ixth:
    #: attacker}``) or a planet (``{demilitarized_zone: Lazar}``)
    elected: dict[Name, Name] | None = None
    planets: tuple[PlanetSpec, ...] | None = None
    #: the ruleset's named rule options (each documented with its default by the ruleset)
    options: dict[Name, Any] | None = None
    #: TI3: the action cards in the discard pile, which Touch of Genius may copy (docs/rulings.md
    #: 27S-36)
    discard_pile: Names | None = None


if TYPE_CHECKING:
    from spacecombat.scenario.ec4x import Ec4xScenario

#: a checked scenario of any ruleset: TI4 and TI3 share ``Scenario``; EC4X has its own model
#: (``scenario/ec4x.py``), with houses instead of an attacker and a defender. Which ruleset's
#: model and checks a scenario is read with is the registry's (``spacecombat.rulesets``).
AnyScenario = Union[Scenario, "Ec4xScenario"]


def mapping(data: object) -> dict[Any, Any]:
    """``data`` if it is a mapping, as a scenario is; else ``ScenarioError`` saying what it is."""
    if not isinstance(data, dict):
        raise ScenarioError(
            "scenario", f"a scenario is a mapping of keys to values (got {_kind(data)})"
        )
    return data


def parse_ti(data: object) -> Scenario:
    """Validate a decoded TI4 or TI3 scenario (``ruleset`` required); ``ScenarioError`` names
    the first bad field, with list indices, and says what is allowed, in the words of the
    README. Whether its units, factions and technologies exist is the ruleset's set-up's."""
    try:
        scenario = Scenario.model_validate(mapping(data))
    except ValidationError as exc:
        first = exc.errors()[0]
        raise ScenarioError(_path(first["loc"]), say(first)) from exc
    _within_unit_limit(scenario)
    return scenario


def _within_unit_limit(scenario: Scenario) -> None:
    """At most ``MAX_UNITS_PER_SIDE`` units a side, over every area and planet."""
    planets = scenario.planets or ()
    counts = {
        "attacker": scenario.attacker.unit_count(),
        "defender": scenario.defender.unit_count() + sum(sum(p.defender.values()) for p in planets),
    }
    for player, count in counts.items():
        if count > MAX_UNITS_PER_SIDE:
            raise ScenarioError(
                f"{player}.units",
                f"{count} units on one side; the limit is {MAX_UNITS_PER_SIDE} "
                "(over space, planets and planet_units)",
            )


def _path(loc: tuple[int | str, ...]) -> str:
    """``("attacker", "units", "fighter")`` as ``attacker.units.fighter``; list indices as
    ``[0]``; a bad mapping key as the mapping's path."""
    if "[key]" in loc:  # a mapping's key: the mapping is the field
        loc = loc[: loc.index("[key]") - 1]
    # a key the input made up (an unknown key, a unit's name) is cut like any echoed value
    parts = [p if isinstance(p, int) or len(p) <= ECHO else p[: ECHO - 1] + "…" for p in loc]
    field = "".join(f"[{p}]" if isinstance(p, int) else f".{p}" for p in parts).removeprefix(".")
    return field or "scenario"


#: The README's words for what each kind of value must be.
_KINDS = {
    "int_type": "a whole number",
    "int_parsing": "a whole number",
    "int_from_float": "a whole number",
    "float_type": "a number",
    "float_parsing": "a number",
    "bool_type": "true or false",
    "bool_parsing": "true or false",
    "string_type": "text",
    "dict_type": "a mapping",
    "tuple_type": "a list",
    "list_type": "a list",
    "model_type": "a mapping",
    "model_attributes_type": "a mapping",
}


def say(error: Any, root: type[BaseModel] | None = None) -> str:
    """One pydantic error in the project's words (never a class name or a Python repr);
    ``root``: the model the error's location starts from (default: the scenario)."""
    root = root or Scenario
    kind = error["type"]
    loc = error["loc"]
    got = error.get("input")
    if kind == "extra_forbidden":
        return f"unknown key; allowed: {', '.join(_allowed_keys(loc, root))}"
    if kind == "missing":
        return "is required"
    if kind == "value_error":
        return str(error.get("ctx", {}).get("error", error["msg"]))
    if kind == "literal_error":
        expected = str(error.get("ctx", {}).get("expected", "")).replace(" or ", ", ")
        return f"allowed: {expected} (got {shown(got)})"
    if kind == "finite_number":
        return f"must be a finite number (got {shown(got)})"
    if kind in ("greater_than_equal", "greater_than", "less_than_equal", "less_than"):
        if isinstance(got, float) and got != got:
            return "must be a number (got NaN)"
        bound = {
            "greater_than_equal": ("at least", "ge"),
            "greater_than": ("more than", "gt"),
            "less_than_equal": ("at most", "le"),
            "less_than": ("less than", "lt"),
        }[kind]
        limit = error.get("ctx", {}).get(bound[1])
        if isinstance(limit, float) and limit.is_integer():
            limit = int(limit)
        extra = (
            " (the unit limit of a side)"
            if loc and loc[-1] != "after_round" and limit == MAX_UNITS_PER_SIDE
            else ""
        )
        return f"must be {bound[0]} {limit}{extra} (got {shown(got)})"
    if "[key]" in loc:
        return f"keys are names, written as text (got {shown(got)})"
    if kind in _KINDS:
        what = _KINDS[kind]
        if kind == "dict_type" and loc and loc[-1] in _FLEETS:
            what = "a mapping of unit to count, or text such as '2 dreadnought, 3 fighter'"
        elif kind in ("model_type", "model_attributes_type"):
            what = f"a mapping with the keys {', '.join(_allowed_keys((*loc, ''), root))}"
        if kind.startswith("int") and isinstance(got, str | float | bool):
            return f"must be {what}, written as one (got {shown(got)})"
        return f"must be {what} (got {shown(got)})"
    if kind in ("duplicate", "retreat", "play"):
        return str(error["msg"])
    return f"{error['msg']} (got {shown(got)})"


#: keys whose value is a fleet (counts by unit, or fleet notation)
_FLEETS = ("units", "damaged", "planet_units", "defender", "commit", "bombarded_by")


def _kind(value: object) -> str:
    if isinstance(value, list):
        return "a list"
    if isinstance(value, str):
        return f"the text {shown(value)}"
    if value is None:
        return "nothing"
    return shown(value)


def _allowed_keys(loc: tuple[int | str, ...], root: type[BaseModel]) -> list[str]:
    """The keys of the mapping at ``loc[:-1]`` in ``root`` (a scenario, say)."""
    model: type[BaseModel] | None = root
    keyed = False  # the next part is a key of a mapping whose values are ``model``s
    for part in loc[:-1]:
        if isinstance(part, int) or keyed:
            keyed = False
            continue
        fields = model.model_fields if model is not None else {}
        annotation = fields[part].annotation if part in fields else None
        model = _model_in(annotation)
        keyed = model is not None and _keyed(annotation)
    return list(model.model_fields) if model is not None else []


def _keyed(annotation: object) -> bool:
    """Whether ``annotation`` is a mapping (``dict[str, Model]``, possibly optional)."""
    if get_origin(annotation) is dict:
        return True
    return any(_keyed(arg) for arg in get_args(annotation))


def _model_in(annotation: object) -> type[BaseModel] | None:
    if isinstance(annotation, type) and issubclass(annotation, BaseModel):
        return annotation
    for arg in get_args(annotation):
        if (found := _model_in(arg)) is not None:
            return found
    return None
