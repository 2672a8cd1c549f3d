"""Van Hauge, the Yin Brotherhood flagship (Shards of the Throne; data/units.toml;
docs/rulings.md 27S-42, 27S-43): before a space battle where it is, its owner may have its
ground forces and shock troops fight as fighters, until the battle ends or the flagship is
destroyed (PC_Twi GameEffects/races/r_Yin.cpp ``e_YinFlagship``: ``VanHaugeEnable`` gives each
chosen unit ``uaFighter`` and ``uaSpaceBattle 9 x1``; ``VanHaugeDisable`` after the damage of
the roll that destroyed the flagship, and after the battle).

The engine: those in the space area (the system's planets: refused by name, rulesets/ti3/
setup.py), all of them or none (a ``play_card`` decision, ``card`` ``yin_flagship``, asked after
the opening window and Dimensional Splicers, before the pre-combat steps; the stock owner uses
them). While they fight they stay ground forces and shock troops in the state: the combat
rounds roll one die each at 9 (procedures/common.py ``combat_pool``), and hits on ships or on
fighters (anti-fighter barrage) may be taken on them (``eligible``), the owner choosing (the
stock order: after the flagship's SUSTAIN DAMAGE, a ground force before a fighter). When the
flagship is destroyed as a casualty, they fight on until that roll's hits are taken (``fell``,
``settle``); a flagship destroyed otherwise ends it at once (``fighting`` needs it there)."""

from __future__ import annotations

from spacecombat.core.decisions import DecisionRequest, Option
from spacecombat.core.engine import Decision, Node, Step
from spacecombat.core.forces import Status
from spacecombat.core.sides import SIDES, Side
from spacecombat.rulesets.ti3.abilities.base import GROUND_FORCES
from spacecombat.rulesets.ti3.abilities.races import FLAGSHIP, YinFlagship
from spacecombat.rulesets.ti3.cards.common import card_played
from spacecombat.rulesets.ti3.setup import Ti3Setup
from spacecombat.rulesets.ti3.state import Ti3State

#: the name ``policy.play`` and the decision's ``card`` fact use
CARD = YinFlagship.id

#: their combat value and dice as fighters (PC_Twi ``uaSpaceBattle 9 x1``)
VALUE = 9

UNCHOSEN, FIGHTING, FELL, OVER = 0, 1, 2, 3


def _flag(state: Ti3State, side: Side) -> int:
    return state.van_hauge[0 if side is Side.ATTACKER else 1]


def _with_flag(state: Ti3State, side: Side, value: int) -> Ti3State:
    a, d = state.van_hauge
    return state.changed(van_hauge=(value, d) if side is Side.ATTACKER else (a, value))


def aboard(state: Ti3State, side: Side) -> list[tuple[str, int]]:
    """``side``'s ground forces and shock troops in the space area, by type."""
    space = state.side(side).space
    return [(u, space.count(u)) for u in GROUND_FORCES if space.count(u)]


def fighting(setup: Ti3Setup, state: Ti3State, side: Side) -> bool:
    """Whether ``side``'s ground forces in space fight as fighters now."""
    flag = _flag(state, side)
    if setup.kind != "space" or flag not in (FIGHTING, FELL):
        return False
    return flag == FELL or bool(state.side(side).space.count(FLAGSHIP))


def as_fighters(setup: Ti3Setup, state: Ti3State, side: Side) -> int:
    """How many of ``side``'s units fight as fighters now without being fighters: the rules
    that read "fighters" count them (docs/rulings.md 27T-2)."""
    if not fighting(setup, state, side):
        return 0
    return sum(n for _, n in aboard(state, side))


def may_fight(setup: Ti3Setup, state: Ti3State, side: Side) -> bool:
    """Whether ``side``'s ground forces in space fight as fighters now or may be chosen to
    (before the pre-combat steps: 27S-43); a card played before the choice whose effect reads
    fighters later (Fighter Prototype) may count on them (27T-2)."""
    return fighting(setup, state, side) or _applies(setup, state, side)


def eligible(
    setup: Ti3Setup, state: Ti3State, side: Side, found: list[tuple[str, Status]]
) -> list[tuple[str, Status]]:
    """The units a hit on ``side``'s ships or fighters may be taken on: with them while they
    fight."""
    if not fighting(setup, state, side):
        return found
    return found + [(u, s) for u, s, _ in state.side(side).space if u in GROUND_FORCES]


def fell(setup: Ti3Setup, state: Ti3State, side: Side, unit: str) -> Ti3State:
    """``side``'s ``unit`` was just destroyed as a casualty: its flagship, while they fight:
    they fight until the hits being taken are all taken."""
    if unit == FLAGSHIP and _flag(state, side) == FIGHTING and setup.side(side).has(CARD):
        return _with_flag(state, side, FELL)
    return state


def settle(state: Ti3State, side: Side) -> Ti3State:
    """``side`` took the hits of a roll: if its flagship fell in them, they are ground forces
    again."""
    return _with_flag(state, side, OVER) if _flag(state, side) == FELL else state


def _applies(setup: Ti3Setup, state: Ti3State, side: Side) -> bool:
    return (
        setup.kind == "space"
        and setup.side(side).has(CARD)
        and _flag(state, side) == UNCHOSEN
        and bool(state.side(side).space.count(FLAGSHIP))
        and bool(aboard(state, side))
    )


def ask(setup: Ti3Setup, state: Ti3State) -> Node[Ti3State] | None:
    """Ask the next player (the attacker first) whose Van Hauge may act; ``None`` if none."""
    for side in SIDES:
        if _applies(setup, state, side):
            count = sum(n for _, n in aboard(state, side))
            request = DecisionRequest(
                "play_card",
                side.value,
                f"Van Hauge: your {count} ground forces in space fight as fighters?",
                (
                    Option(f"play {CARD}: {count} ground forces as fighters", "play", target=CARD),
                    Option("pass", "pass"),
                ),
                facts={"card": CARD, "round": state.round},
            )

            def then(option: Option, side: Side = side) -> Step[Ti3State]:
                if option.action != "play":
                    return Step(_with_flag(state, side, OVER))
                return Step(
                    _with_flag(state, side, FIGHTING), (card_played(side, CARD, state.round),)
                )

            return Decision(request, then)
    return None
