"""Van Hauge, the Yin Brotherhood flagship (Shards of the Throne; data/units.toml;
docs/rulings.md 27S-42, 27S-43): before a space battle where it is, its owner may have its
ground forces and shock troops fight as fighters, until the battle ends or the flagship is
destroyed (PC_Twi GameEffects/races/r_Yin.cpp ``e_YinFlagship``: ``VanHaugeEnable`` gives each
chosen unit ``uaFighter`` and ``uaSpaceBattle 9 x1``; ``VanHaugeDisable`` after the damage of
the roll that destroyed the flagship, and after the battle).

The engine: those in the space area, all of them or none, and those on the system's planets
as far as the fleet has room to carry them as fighters (``room``; 27T-15), taken up into space
and landed again when they stop (``land``, ``lifted``): a ``play_card`` decision, ``card``
``yin_flagship``, asked after the opening window and Dimensional Splicers, before the
pre-combat steps (the stock owner uses all it may). While they fight they stay ground forces
and shock troops in the state: the combat rounds roll one die each at 9 (procedures/common.py
``combat_pool``), and hits on ships or on fighters (anti-fighter barrage) may be taken on them
(``eligible``), the owner choosing (the stock order: after the flagship's SUSTAIN DAMAGE, a
ground force before a fighter). When the flagship is destroyed as a casualty, they fight on
until that roll's hits are taken (``fell``, ``settle``; those taken up then land); a flagship
destroyed otherwise ends it at once (``fighting`` needs it there; those taken up land at the
battle's end). A fleet that withdraws or retreats leaves them on their planets."""

from __future__ import annotations

from spacecombat.core.decisions import DecisionRequest, Option
from spacecombat.core.engine import Decision, Node, Step
from spacecombat.core.events import event
from spacecombat.core.forces import Status
from spacecombat.core.sides import SIDES, Side
from spacecombat.rulesets.ti3.abilities.base import GROUND_FORCES
from spacecombat.rulesets.ti3.abilities.races import FLAGSHIP, YinFlagship
from spacecombat.rulesets.ti3.cards.common import card_played
from spacecombat.rulesets.ti3.procedures.fleet_check import DOCK_SUPPORT
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
    that read "fighters" count them (docs/rulings.md 27T-12)."""
    if not fighting(setup, state, side):
        return 0
    return sum(n for _, n in aboard(state, side))


def may_fight(setup: Ti3Setup, state: Ti3State, side: Side) -> bool:
    """Whether ``side``'s ground forces in space fight as fighters now or may be chosen to
    (before the pre-combat steps: 27S-43); a card played before the choice whose effect reads
    fighters later (Fighter Prototype) may count on them (27T-12)."""
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
    again (those taken up from the planets land on them)."""
    return land(_with_flag(state, side, OVER), side) if _flag(state, side) == FELL else state


def _lifted(state: Ti3State, side: Side) -> tuple[int, int]:
    return state.lifted[0 if side is Side.ATTACKER else 1]


def _with_lifted(state: Ti3State, side: Side, value: tuple[int, int]) -> Ti3State:
    a, d = state.lifted
    return state.changed(lifted=(value, d) if side is Side.ATTACKER else (a, value))


def on_planets(state: Ti3State, side: Side) -> list[tuple[str, int]]:
    """``side``'s ground forces and shock troops on the system's planets (a space battle takes
    them as one area), by type: ground forces first (the stock owner keeps its shock troops,
    worth more on the ground, for last)."""
    planets = state.side(side).planets
    if not planets:
        return []
    return [(u, planets[0].count(u)) for u in GROUND_FORCES if planets[0].count(u)]


def room(setup: Ti3Setup, state: Ti3State, side: Side) -> int:
    """How many more units ``side``'s fleet in space can carry as fighters: the capacity of
    its ships and its space docks' fighter support (procedures/fleet_check.py) left after its
    ground units and its fighters in space (PC_Twi ``uaNeedSupport``; 27T-15)."""
    cards = setup.side(side)
    units = state.side(side)
    space = units.space
    capacity = sum(
        n * (cards.card(u).capacity or 0) for u, n in space.by_type().items() if cards.is_ship(u)
    )
    docks = units.planets[0].count("space_dock") if units.planets else 0
    support = DOCK_SUPPORT * docks
    taken = space.total(cards.is_ground_force) + space.count("fighter")
    return max(0, capacity + support - taken)


def liftable(setup: Ti3Setup, state: Ti3State, side: Side) -> list[tuple[str, int]]:
    """The units on the planets ``side`` may take up (ground forces first), as far as
    ``room`` goes."""
    left = room(setup, state, side)
    taken = []
    for unit, count in on_planets(state, side):
        n = min(count, left)
        if n:
            taken.append((unit, n))
            left -= n
    return taken


def land(state: Ti3State, side: Side) -> Ti3State:
    """The units taken up from the planets land on them again: as many of each type as are
    left in space (those carried are lost first: 27T-15)."""
    lifted = _lifted(state, side)
    if lifted == (0, 0):
        return state
    units = state.side(side)
    space, planet = units.space, units.planet(0)
    for unit, count in zip(GROUND_FORCES, lifted, strict=True):
        n = min(count, space.count(unit))
        if n:
            space = space.remove(unit, Status.UNDAMAGED, n)
            planet = planet.add(unit, count=n)
    return _with_lifted(
        state.with_side(side, units.with_space(space).with_planet(0, planet)), side, (0, 0)
    )


def _applies(setup: Ti3Setup, state: Ti3State, side: Side) -> bool:
    return (
        setup.kind == "space"
        and setup.side(side).has(CARD)
        and _flag(state, side) == UNCHOSEN
        and bool(state.side(side).space.count(FLAGSHIP))
        and bool(aboard(state, side) or liftable(setup, state, side))
    )


def _lift(state: Ti3State, side: Side, taken: list[tuple[str, int]]) -> Ti3State:
    """``taken`` (type, count) moved from the planets into space, remembered as lifted."""
    units = state.side(side)
    space, planet = units.space, units.planet(0)
    counts = dict(taken)
    for unit, n in taken:
        planet = planet.remove(unit, Status.UNDAMAGED, n)
        space = space.add(unit, count=n)
    moved = state.with_side(side, units.with_space(space).with_planet(0, planet))
    return _with_lifted(
        moved, side, (counts.get(GROUND_FORCES[0], 0), counts.get(GROUND_FORCES[1], 0))
    )


def ask(setup: Ti3Setup, state: Ti3State) -> Node[Ti3State] | None:
    """Ask the next player (the attacker first) whose Van Hauge may act; ``None`` if none: use
    those in space and all it may take up from the planets (the stock answer), those in space
    alone, or none."""
    for side in SIDES:
        if _applies(setup, state, side):
            count = sum(n for _, n in aboard(state, side))
            up = liftable(setup, state, side)
            more = sum(n for _, n in up)
            options = []
            if more:
                options.append(
                    Option(
                        f"play {CARD}: {count + more} ground forces as fighters, {more} taken "
                        "up from the planets",
                        "play",
                        target=CARD,
                        count=more,
                    )
                )
            if count:
                # (with none to take up, the label and prompt of 27S-43's battles)
                label = "in space as fighters" if more else "as fighters"
                # (``count`` 0: none taken up)
                text = f"play {CARD}: {count} ground forces {label}"
                options.append(Option(text, "play", target=CARD, count=0))
            options.append(Option("pass", "pass"))
            prompt = f"Van Hauge: your {count} ground forces in space fight as fighters?"
            if more:
                prompt = (
                    f"Van Hauge: your {count} ground forces in space and {more} from the planets "
                    "fight as fighters?"
                )
            request = DecisionRequest(
                "play_card",
                side.value,
                prompt,
                tuple(options),
                facts={"card": CARD, "round": state.round},
            )

            def then(
                option: Option, side: Side = side, up: list[tuple[str, int]] = up
            ) -> Step[Ti3State]:
                if option.action != "play":
                    return Step(_with_flag(state, side, OVER))
                after = _with_flag(state, side, FIGHTING)
                said = [card_played(side, CARD, state.round)]
                if option.count:
                    after = _lift(after, side, up)
                    said.append(event("ground_forces_lifted", player=side.value, units=dict(up)))
                return Step(after, tuple(said))

            return Decision(request, then)
    return None
