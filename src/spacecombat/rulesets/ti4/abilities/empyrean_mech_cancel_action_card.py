"""Watcher (Empyrean mech): "You may remove this unit from a system that contains or is
adjacent to another player's units to cancel an action card played by that player"
(ti4-combat-effects.md, mechs; data/units.toml).

In a battle the other player is the opponent, whose units are in the active system, so a
Watcher anywhere in the active system (its space area or a planet) may be removed, and one in
an adjacent system too when the scenario says there is one (the player condition
``empyrean_mech_adjacent``, data/cards.toml: one mech, removed at most once). The Empyrean's
own cards are never cancelled by it, and only action cards are (not promissory notes, leaders,
relics or technologies).

How (docs/rulings.md 14E2-1): every action card of the opponent is told of the Watcher when the
battle is built (``set_up_in_play``: ``Card.watcher``); a Watcher in an adjacent system brings
the ability into play though no Empyrean mech is in the battle (``set_up_side``). When the
opponent answers "play" to its ``play_card`` decision while an Empyrean mech could be removed
(``may_cancel``), the card is not resolved: the battle keeps the state it was offered in
(``BattleState.pending``), and its next node is the Empyrean's ``play_card`` decision
(``cancel_or_let``, asked through the pending card's ``Card.watcher`` by battle.py
``Ti4Battle.advance``): remove a mech from one place (the card is then discarded, its effect
never happens) or ``pass`` (the card is played as chosen: the procedure asks the card's handler
again in that state, and it resolves the chosen option without asking, ``BattleState.granted``).
Everything stays in the state, so the exact odds, Monte Carlo runs and replays see the same
nodes.

The stock policy cancels whenever a mech can be removed without weakening a combat of this
battle: one in an adjacent system first, then (in a space battle, where mechs do not fight) one
in the space area, then one on a planet; in an invasion a mech in the active system (committed
from the space area, or defending a planet) is offered after ``pass`` (the stock policy does
not take it). ``policy.play: {empyrean_mech_cancel_action_card: never}`` never cancels."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import replace
from typing import TYPE_CHECKING

from spacecombat.core.decisions import DecisionRequest, Option
from spacecombat.core.engine import Decision, Node, Step
from spacecombat.core.events import event
from spacecombat.rulesets.ti4.abilities.base import (
    Card,
    Handler,
    card_played,
    discarded,
    register,
)
from spacecombat.rulesets.ti4.rules import load

if TYPE_CHECKING:
    from spacecombat.rulesets.ti4.setup import BattleSetup, SideDraft, SideSetup
    from spacecombat.rulesets.ti4.sides import Side
    from spacecombat.rulesets.ti4.state import BattleState
    from spacecombat.scenario.schema import Scenario

ID = "empyrean_mech_cancel_action_card"
#: the player condition: an Empyrean mech in a system adjacent to the active one
ADJACENT = "empyrean_mech_adjacent"
#: the ``unit_removed`` reason
REASON = "removed to cancel an action card (Watcher)"
#: the place of a mech in an adjacent system, in an option
ADJACENT_PLACE = "an adjacent system"


@register
class EmpyreanMechCancelActionCard(Handler):
    id = ID
    asks = id  # its decisions are named by its id (Handler.asks)

    #: the owner's unit types with this ability, and whether a mech is in an adjacent system
    #: (set when the battle is built: ``watch``)
    units: frozenset[str] = frozenset()
    adjacent: bool = False

    def may_cancel(self, state: BattleState) -> bool:
        """Whether the owner could remove a mech now (``base.Watcher``)."""
        owner = self.owner
        assert owner is not None
        if self.adjacent and not state.has_used(owner, ADJACENT):
            return True
        units = state.side(owner)
        return any(area.total(lambda u: u in self.units) for area in (units.space, *units.planets))

    def cancel_or_let(self, setup: BattleSetup, state: BattleState) -> Node[BattleState]:
        """The owner's decision about the action card pending (``base.Watcher``)."""
        return cancel_or_let(setup, state)

    def set_up_side(self, scenario: Scenario, draft: SideDraft) -> SideDraft:
        """A Watcher in an adjacent system (the owner's condition ``empyrean_mech_adjacent``)
        brings the ability into play though no Empyrean mech is in the battle."""
        if draft.side is not self.owner or ADJACENT not in draft.conditions:
            return draft
        return replace(draft, brought=draft.brought | {ID})

    def set_up_in_play(self, sides: Mapping[Side, SideSetup], handlers: Sequence[Handler]) -> None:
        """When the battle is built: the Watcher learns its owner's unit types with the
        ability and whether one is in an adjacent system, and each action card of the other
        player learns of the Watcher (``Card.watcher``). Like the other player conditions,
        ``empyrean_mech_adjacent`` says nothing for a player without the Watcher (not the
        Empyrean)."""
        owner = self.owner
        if owner is None:
            return
        cards = load().cards
        self.units = _watchers(sides[owner])
        self.adjacent = ADJACENT in sides[owner].conditions
        for handler in handlers:
            if (
                isinstance(handler, Card)
                and handler.owner is owner.other
                and handler.card in cards
                and cards[handler.card].kind == "action_card"
            ):
                handler.watcher = self


def _watchers(setup: SideSetup) -> frozenset[str]:
    return frozenset(
        unit for unit, card in setup.cards.items() if any(a.handler == ID for a in card.abilities)
    )


def watcher_of(setup: BattleSetup, side: Side) -> EmpyreanMechCancelActionCard:
    """``side``'s Watcher handler."""
    for handler in setup.handlers:
        if isinstance(handler, EmpyreanMechCancelActionCard) and handler.owner is side:
            return handler
    raise AssertionError(f"a card pending without the {side.value}'s Watcher")


def _places(
    setup: BattleSetup, state: BattleState, watcher: EmpyreanMechCancelActionCard
) -> tuple[list[tuple[str, int | None]], list[tuple[str, int | None]]]:
    """Where a mech may be removed: (places whose mech fights in no combat of this battle, in
    the stock policy's order; places whose mech does). A place is its name and its area
    (``-1``: an adjacent system, ``None``: the space area, else a planet). Mechs fight in no
    space combat; in an invasion every mech in the active system may fight (one in the space
    area is committed to a planet, one on a planet defends it)."""
    owner = watcher.owner
    assert owner is not None
    units = state.side(owner)
    places: list[tuple[str, int | None]] = []
    if units.space.total(lambda u: u in watcher.units):
        places.append(("the space area", None))
    for index, planet in enumerate(units.planets):
        if planet.total(lambda u: u in watcher.units):
            # a space battle has one area for its planets
            name = "the planets" if setup.kind == "space" else setup.planets[index]
            places.append((name, index))
    adjacent: list[tuple[str, int | None]] = []
    if watcher.adjacent and not state.has_used(owner, ADJACENT):
        adjacent.append((ADJACENT_PLACE, -1))
    if setup.kind == "invasion":
        return adjacent, places
    return [*adjacent, *places], []


def cancel_or_let(setup: BattleSetup, state: BattleState) -> Decision[BattleState]:
    """The Empyrean's decision about the action card pending (``state.pending``): remove a mech
    from a place to cancel it, or ``pass`` (it is played)."""
    pending = state.pending
    assert pending is not None
    before = pending.before
    player, card = pending.player, pending.card
    empyrean = player.other
    watcher = watcher_of(setup, empyrean)
    free, fought = _places(setup, before, watcher)
    unit = min(watcher.units)
    table = {f"play {ID}: remove {unit} from {name}": where for name, where in (*free, *fought)}
    cancels = [Option(text, "play", target=ID) for text in table]
    options = (*cancels[: len(free)], Option("pass", "pass"), *cancels[len(free) :])
    request = DecisionRequest(
        "play_card",
        empyrean.value,
        f"Watcher: the {player.value} plays {card} ({pending.play}); remove a mech to cancel it?",
        options,
        facts={"card": ID, "round": before.round, "cancels": card, "play": pending.play},
    )

    def then(option: Option) -> Step[BattleState]:
        if option.action != "play":
            return Step(before.changed(granted=(player, card, pending.play)))
        where = table[option.text]
        gone_card = before.using(player, discarded(card))
        reason = REASON
        if where == -1:
            removed = gone_card.using(empyrean, ADJACENT)
            gone, reason = unit, f"{REASON}, from {ADJACENT_PLACE}"
        else:
            # the most damaged mech there (it is worth least)
            area = gone_card.side(empyrean).area(where)
            gone, status = max(
                ((u, st) for u, st, _ in area if u in watcher.units), key=lambda p: p[1]
            )
            left = gone_card.side(empyrean).with_area(where, area.remove(gone, status))
            removed = gone_card.with_side(empyrean, left)
        events = (
            card_played(player, card, before.round),
            event("unit_removed", player=empyrean.value, unit=gone, reason=reason),
            event("card_cancelled", player=player.value, card=card, by=ID, round=before.round),
        )
        return Step(removed, events)

    return Decision(request, then)
