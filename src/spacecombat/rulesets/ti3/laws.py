"""TI3 political cards in force during a battle: the scenario's ``laws`` (and ``elected``),
checked against data/political_cards.toml (docs/rulings.md 27Z-1 to 27Z-6).

A card that acts in a battle (``combat = "rule"``) brings its handler
(rulesets/ti3/abilities/laws.py), owned by the player it elects; one that never acts
(``"none"``) changes nothing; one that acts but is not implemented, or whose effect no source
gives (``"unverified"``), is refused by name."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from functools import cache
from typing import Literal

from pydantic import BaseModel, ConfigDict

from spacecombat.core.errors import RuleNotImplemented, ScenarioError
from spacecombat.core.forces import Forces
from spacecombat.core.limits import shown
from spacecombat.core.rulesdata import check_unique_ids, load_toml
from spacecombat.core.sides import Side
from spacecombat.rulesets.setup import field_key, side_spec
from spacecombat.rulesets.ti3.abilities.base import Handler
from spacecombat.rulesets.ti3.abilities.laws import LAW_HANDLERS
from spacecombat.scenario.schema import AdjacentSystemSpec, Scenario

PACKAGE = "spacecombat.rulesets.ti3"


class PoliticalCard(BaseModel):
    """A TI3 political card (agenda). ``elect = "player"``: it names a player, who owns its
    effect (a scenario's ``elected`` says which: attacker or defender)."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    id: str
    name: str
    #: the box it comes in, where a source says so
    expansion: Literal["base", "se", "sot", "unknown"]
    text: str
    combat: Literal["rule", "none", "unverified"]
    handler: str | None = None
    elect: Literal["player", "planet"] | None = None


class PoliticalCardsFile(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)

    law: tuple[PoliticalCard, ...]


@cache
def political_cards() -> dict[str, PoliticalCard]:
    """Every TI3 political card we know, by id (data/political_cards.toml, cached)."""
    cards = load_toml(PACKAGE, "political_cards.toml", PoliticalCardsFile).law
    check_unique_ids("ti3 political_cards.toml", [c.id for c in cards])
    return {c.id: c for c in cards}


def law_handlers(scenario: Scenario) -> list[Handler]:
    """The handlers of the scenario's laws that act in a battle, in the laws' order; each
    law a known TI3 political card, each acting one implemented, each elected player named."""
    cards = political_cards()
    elected = scenario.elected or {}
    laws = tuple(scenario.laws)
    for i, law in enumerate(laws):
        if law not in cards:
            raise ScenarioError(
                f"laws[{i}]",
                f"unknown TI3 political card {shown(law)}; allowed: {', '.join(sorted(cards))}",
            )
    for law, value in elected.items():
        field = f"elected.{field_key(law)}"
        if law not in laws:
            raise ScenarioError(field, f"{shown(law)} is not among the scenario's laws")
        card = cards[law]
        if card.elect != "player" or card.combat != "rule":
            raise ScenarioError(
                field, f"{card.name} elects no player a battle reads; leave it out of elected"
            )
        if value not in ("attacker", "defender"):
            raise ScenarioError(field, f"{card.name} elects a player: attacker or defender")
    found: list[Handler] = []
    for i, law in enumerate(laws):
        card = cards[law]
        if card.combat == "none":
            continue  # never acts in a battle (27Z-2)
        if card.combat == "unverified":
            raise RuleNotImplemented(
                f"the TI3 political card {card.name} (its effect is in none of our sources: "
                "docs/rulings.md 27Z-2)",
                f"laws[{i}]",
            )
        if card.handler is None or card.handler not in LAW_HANDLERS:
            raise RuleNotImplemented(f"the TI3 law {card.name}", f"laws[{i}]")
        owner: Side | None = None
        if card.elect == "player":
            if law not in elected:
                raise ScenarioError(
                    f"laws[{i}]",
                    f"{card.name} elects a player: say which with elected: {{{law}: attacker}}",
                )
            owner = Side(elected[law])
        _check_law_in_battle(scenario, law, owner)
        found.append(LAW_HANDLERS[card.handler](owner))
    return found


def _check_law_in_battle(scenario: Scenario, law: str, owner: Side | None) -> None:
    """What a law forbids of the battle: Public Execution's elected player holds no action
    card (the card discards them all: 27Z-5)."""
    if law == "public_execution" and owner is not None and side_spec(scenario, owner).action_cards:
        raise ScenarioError(
            f"{owner.value}.action_cards",
            "Public Execution discarded all the elected player's action cards: list none",
        )


#: the units Conventions of War keeps from bombarding a planet with a space dock
_NOT_BOMBARDING = ("dreadnought", "war_sun")


def leaving_systems(scenario: Scenario) -> tuple[AdjacentSystemSpec, ...]:
    """The adjacent systems a fleet may leave the battle to (``system.adjacent``): none while
    Code of Honor is in force, which forbids every withdrawal and retreat (27Z-9)."""
    return () if "code_of_honor" in scenario.laws else scenario.system.adjacent


def restrict_bombardment(
    scenario: Scenario, bombard: Sequence[Mapping[str, int]], planets: Sequence[Forces]
) -> tuple[Mapping[str, int], ...]:
    """Each planet's bombarding units (``bombard``, the planets' defenders ``planets``) with
    Conventions of War in force: no dreadnought or war suns against a planet holding a space
    dock (27Z-10). Chosen ones (``planets[i].bombarded_by``) are bad input; the default ones
    are left out."""
    if "conventions_of_war" not in scenario.laws:
        return tuple(bombard)
    out: list[Mapping[str, int]] = []
    for i, (units, planet) in enumerate(zip(bombard, planets, strict=True)):
        if not planet.count("space_dock"):
            out.append(units)
            continue
        chosen = scenario.planets is not None and scenario.planets[i].bombarded_by is not None
        for unit in _NOT_BOMBARDING:
            if chosen and units.get(unit):
                raise ScenarioError(
                    f"planets[{i}].bombarded_by.{unit}",
                    "Conventions of War: dreadnoughts and war suns may not bombard a planet "
                    "with a space dock",
                )
        out.append({u: n for u, n in units.items() if u not in _NOT_BOMBARDING})
    return tuple(out)
