"""Target Their Flagship! (TI3 base action card; data/action_cards.toml; docs/rulings.md
27S-28): "Choose one of your ships and target one opposing ship. Roll 1 die. If the roll is
equal to or greater than your ship's combat value, the target ship is immediately hit (and does
not receive return fire). Your ship does not roll during the first round of combat. Play:
Immediately before a Space Battle" (the TI3 base deck data file, 27S-17).

Played in the space battle's opening window (procedures/space_battle.py ``_OPENING``, the
attacker asked first; 27S-2), offered when the holder has a ship with a combat value and the
opponent has a ship. One "play" option per (own ship type, enemy ship type and status): the
own ship with the best combat value first (then the cheaper), then the target a hit destroys
before one it only damages, the dearest first; the stock holder takes the first (27A-5). The
die is the card's, compared with the ship's printed combat value (no modifier: it is not a
combat roll of a round). A hit is put on the target (its owner does not choose): damaged if it
has SUSTAIN DAMAGE and is undamaged, else destroyed (as the Yin sacrifice's hit, 27S-15; no
Direct Hit follows). In round 1 one ship of the chosen type of the holder does not roll
(``Ti3State.aimed``)."""

from __future__ import annotations

from spacecombat.core.engine import Chance, Node, Step
from spacecombat.core.events import event
from spacecombat.core.forces import Status
from spacecombat.core.hits import unit_destroyed
from spacecombat.core.pool import DiceGroup, DicePool
from spacecombat.core.sides import Side
from spacecombat.rulesets.ti3.abilities import alastor
from spacecombat.rulesets.ti3.cards.common import card_played, damaged, offer_choices
from spacecombat.rulesets.ti3.setup import Ti3Setup
from spacecombat.rulesets.ti3.state import Ti3State

CARD = "target_their_flagship"

#: ``step`` prefix while the chosen ship's die is to be rolled: holder, own ship, target,
#: target's status and the window's step, separated by ``|``
AIMING = "aim:"

A = Side.ATTACKER


def cost(setup: Ti3Setup, side: Side, unit: str) -> float:
    """The cost of one of ``side``'s ``unit`` (100 for a unit not bought)."""
    card = setup.side(side).card(unit)
    return 100.0 if card.cost is None else card.cost / card.units_per_cost


def _value(setup: Ti3Setup, side: Side, unit: str) -> int:
    combat = setup.side(side).card(unit).combat
    assert combat is not None
    return combat.hit


def destroys(setup: Ti3Setup, side: Side, unit: str, status: Status) -> bool:
    """Whether a hit destroys ``side``'s ``unit`` of ``status`` (rather than damaging it)."""
    return status is not Status.UNDAMAGED or not setup.side(side).card(unit).sustain_damage


def _choices(setup: Ti3Setup, state: Ti3State, side: Side) -> list[tuple[str, str, Status]]:
    cards, enemy = setup.side(side), side.other
    own = sorted(
        {u for u, _, _ in state.side(side).space if cards.is_ship(u) and cards.card(u).combat},
        key=lambda u: (_value(setup, side, u), cost(setup, side, u), u),
    )
    return [(mine, unit, status) for mine in own for unit, status in targets(setup, state, enemy)]


def applies(setup: Ti3Setup, state: Ti3State, side: Side) -> bool:
    return setup.kind == "space" and CARD in state.hand(side) and bool(_choices(setup, state, side))


def ask(setup: Ti3Setup, state: Ti3State, side: Side, passed: Ti3State) -> Node[Ti3State]:
    """``side`` may play the card, naming its ship and the target."""
    choices = _choices(setup, state, side)

    def play(index: int) -> Step[Ti3State]:
        mine, unit, status = choices[index]
        marked = "|".join((side.value, mine, unit, str(int(status)), passed.step))
        after = state.played(side, CARD).changed(step=AIMING + marked)
        return Step(after, (card_played(side, CARD, state.round),))

    return offer_choices(
        side,
        CARD,
        state,
        "play Target Their Flagship!: one of your ships fires one die at an enemy ship?",
        ship_at_ship(f"play {CARD}:", "at", choices),
        play,
        passed,
    )


def ship_at_ship(play: str, word: str, choices: list[tuple[str, str, Status]]) -> list[str]:
    """The words of a "play" option per (own ship, enemy ship and its status) of ``choices``:
    "<play> <own> <word> <enemy>" (this card's and the Yin sacrifice's, 27S-15)."""
    return [f"{play} {mine} {word} {damaged(unit, status)}" for mine, unit, status in choices]


def fire(setup: Ti3Setup, state: Ti3State) -> Node[Ti3State]:
    """The chosen ship's die (``state.step`` starts with ``AIMING``); then the window goes on,
    the ship kept out of round 1."""
    holder, mine, unit, code, window_step = state.step[len(AIMING) :].split("|", 4)
    side, status = Side(holder), Status(int(code))
    enemy = side.other
    die = DicePool((DiceGroup(mine, 1, _value(setup, side, mine)),))
    aimed = (mine, state.aimed[1]) if side is A else (state.aimed[0], mine)
    base = state.changed(step=window_step, aimed=aimed)

    def then(hits: int) -> Step[Ti3State]:
        if not hits:
            return Step(base)
        return hit_ship(setup, base, enemy, unit, status, "Target Their Flagship!")

    return Chance(side.value, CARD, die, then)


def hit_ship(
    setup: Ti3Setup, state: Ti3State, owner: Side, unit: str, status: Status, cause: str
) -> Step[Ti3State]:
    """One hit put on one of ``owner``'s ships in space, its owner not choosing: damaged if it
    has SUSTAIN DAMAGE and is undamaged, else destroyed (the defender's Alastor destroyed by
    it destroys the rest, 27S-8). Target Their Flagship! and Dimensional Splicers (27S-33)."""
    theirs = state.side(owner).space
    if destroys(setup, owner, unit, status):
        after = state.with_side(owner, state.side(owner).with_space(theirs.remove(unit, status)))
        after = alastor.fell(setup, after, owner, unit)
        said = unit_destroyed(owner, unit, status, cause)
        if after.alastor:
            wiped = alastor.destroy_all(after)
            return Step(wiped.state, (said, *wiped.events))
        return Step(after, (said,))
    damaged = theirs.move(unit, status, Status.DAMAGED)
    after = state.with_side(owner, state.side(owner).with_space(damaged))
    said = event("damage_sustained", player=owner.value, unit=unit, hits_cancelled=1, cause=cause)
    return Step(after, (said,))


def targets(setup: Ti3Setup, state: Ti3State, owner: Side) -> list[tuple[str, Status]]:
    """``owner``'s ships in space a hit may be put on, one entry per type and status: those a
    hit destroys first, then the dearest (the stock player takes the first)."""
    cards = setup.side(owner)
    return sorted(
        {(u, s) for u, s, _ in state.side(owner).space if cards.is_ship(u)},
        key=lambda t: (
            not destroys(setup, owner, t[0], t[1]),
            -cost(setup, owner, t[0]),
            t[0],
            int(t[1]),
        ),
    )


def held_back(state: Ti3State, side: Side) -> str:
    """The unit type one of whose ships does not roll in round 1 ("" none)."""
    return state.aimed[0 if side is A else 1] if state.round == 1 else ""
