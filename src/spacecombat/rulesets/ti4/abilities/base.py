"""Ability handlers: one small class per ability, acting in named timing windows.

The procedures ask the handlers in play at fixed points ("windows"). A handler overrides only
the windows it acts in; the others answer "no effect". Handlers are consulted in one documented
total order (docs/architecture.md): the system's and the laws' handlers first, then the
attacker's, then the defender's; within a player, faction abilities, then technologies, then
unit abilities, each in the order of the data files.

Handlers are pure: they say what happens only through what they return (a modifier, a
node), never by changing anything, because the exact engine and the stalemate check run them
on states the battle may never reach.

The questions (hooks) are declared once, in rulesets/ti4/hooks.py ``HOOKS``: who asks each and
whether a handler answering it acts in the combat rounds (which takes the battle's rounds off
product form: ``acts_in_rounds``). ``Handler`` below has one no-effect default per declared
hook and no other (checked at import: ``check_declared``); docs/effects.md lists them with the
handlers answering each. A handler that answers ``in_window`` says where in ``acts`` (``Acts``:
the timing windows, kinds of battle and players, and whether only while its card is held), and
the dispatcher (procedures/windows.py) asks it only there. What a handler may call to act (dice,
hits, destroying units, choices, follow-ups) is rulesets/ti4/effects.py.

Cards and leaders a player holds (data/cards.toml) are handlers too: ``Card`` below. Playing
one is a decision of its holder (``offer``), answered by the same policies as any other.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Mapping, Sequence
from dataclasses import dataclass
from enum import StrEnum
from typing import TYPE_CHECKING, ClassVar, Protocol

from spacecombat.core.decisions import DecisionRequest, Option
from spacecombat.core.engine import Decision, Step
from spacecombat.core.errors import RuleNotImplemented
from spacecombat.core.events import Event, event
from spacecombat.rulesets.ti4.hooks import (
    BY_NAME,
    IN_ROUNDS,
    Window,
    check_declared,
    missing_companions,
)
from spacecombat.rulesets.ti4.sides import Side
from spacecombat.rulesets.ti4.state import Discarded, Pending

if TYPE_CHECKING:
    from spacecombat.core.engine import Node
    from spacecombat.core.errors import ScenarioError
    from spacecombat.core.pool import DiceGroup
    from spacecombat.rulesets.ti4.setup import BattleSetup, SideDraft, SideSetup
    from spacecombat.rulesets.ti4.state import BattleState
    from spacecombat.scenario.schema import Scenario


class Roll(StrEnum):
    """The kinds of roll a modifier may apply to."""

    SPACE_COMBAT = "space_combat"
    GROUND_COMBAT = "ground_combat"
    ANTI_FIGHTER_BARRAGE = "anti_fighter_barrage"
    SPACE_CANNON_OFFENSE = "space_cannon_offense"
    SPACE_CANNON_DEFENSE = "space_cannon_defense"
    BOMBARDMENT = "bombardment"

    @property
    def is_combat_roll(self) -> bool:
        """Combat rolls are the rolls of combat rounds, not unit-ability rolls."""
        return self in (Roll.SPACE_COMBAT, Roll.GROUND_COMBAT)

    @property
    def is_space_cannon(self) -> bool:
        return self in (Roll.SPACE_CANNON_OFFENSE, Roll.SPACE_CANNON_DEFENSE)


@dataclass(frozen=True)
class Acts:
    """Where a handler's ``in_window`` is asked, declared once on its class (``Handler.acts``):
    the dispatcher (procedures/windows.py) asks it only in those windows, in those kinds of
    battle, when its owner is one of ``players``, and, for a card with ``held``, while its
    owner still holds it. A handler's ``in_window`` then checks only what is its own."""

    #: the windows it acts in (a moment shares several: it is asked if it acts in any of them);
    #: ``Window.AFTER_ROLL_DICE``, ``ANNOUNCE_RETREATS`` and ``RETREAT_ANNOUNCED`` are opened
    #: only when a handler in play declares them
    windows: frozenset[Window]
    #: the kinds of battle ("space", "invasion") it acts in there
    battles: frozenset[str] = frozenset({"space", "invasion"})
    #: the owners it acts for (never a handler of the system or a law)
    players: frozenset[Side] = frozenset(Side)
    #: only while the owner still holds the card (``Card.held``)
    held: bool = False

    def admits(
        self, handler: Handler, setup: BattleSetup, state: BattleState, windows: frozenset[Window]
    ) -> bool:
        """Whether ``handler`` is asked in ``windows`` now."""
        return self.admits_at(handler, setup, windows) and (
            not self.held or (isinstance(handler, Card) and handler.held(state))
        )

    def admits_at(self, handler: Handler, setup: BattleSetup, windows: frozenset[Window]) -> bool:
        """``admits`` but for ``held``: what the setup and the moment alone decide (the timing
        windows find it once per setup and moment, procedures/windows.py ``_askable``)."""
        return (
            handler.owner in self.players
            and setup.kind in self.battles
            and not self.windows.isdisjoint(windows)
        )


#: ``Handler.battles`` of a handler that can act only in an invasion (docs/rulings.md 24AJ-1):
#: every hook it answers is asked only there (the invasion's steps, a bombardment, a ground
#: combat: rulesets/ti4/hooks.py's group "invasion, bombardment and ground combat", or windows
#: its ``acts`` opens only in an invasion), or it changes dice only once played in such a
#: window. A space combat alone ("battle: space") has none of these, so it is not put in play
#: there: it would only cost (its hooks asked at every roll and window, the stalemate check
#: following paths for it). tests/ti4/test_invasion_only_handlers.py checks every handler
#: class against the rule.
INVASION_ONLY: frozenset[str] = frozenset({"invasion"})


class Handler:
    """An ability in play. ``owner`` is the player who has it (``None``: the system or a law)."""

    id: ClassVar[str]
    #: the kinds of battle ("space", "invasion") the handler can act in; in any other it is not
    #: put in play (setup/building.py), so it costs nothing there (the rounds keep their
    #: product form)
    battles: ClassVar[frozenset[str]] = frozenset({"space", "invasion"})
    #: where ``in_window`` is asked; a handler that overrides ``in_window`` declares it
    acts: ClassVar[Acts | None] = None
    #: hooks declared ``in_rounds`` (rulesets/ti4/hooks.py) that this handler answers without
    #: changing the combat rounds beyond what rounds in product form keep, each for a reason
    #: its class docstring gives: a ``combat_roll`` that reads the battle's set-up and the
    #: roller's units alone (its ``roll_key`` is always ``None``: the product form asks each
    #: player's pool from its units through the same ``effects.combat_pool``), or a
    #: ``before_assign_hits`` that acts on hits produced before the rounds only (space cannon).
    #: The fast-path gate (``acts_in_rounds``) passes over them; tests/ti4/
    #: test_fast_path_guard.py cross-checks every handler that declares one against the state
    #: graph
    keeps_product_form: ClassVar[frozenset[str]] = frozenset()
    #: whether, on the stalemate check's paths (procedures/stalemate.py: the favoured side hits
    #: with every die, the other never does, each roll with nothing spent and no unit lost), the
    #: handler can change nothing but by a decision that adds to the favoured side's dice: it
    #: adds no unit, repairs none, cancels, prevents or produces no hit and takes no die away.
    #: Where every handler acting in the rounds says so, a side with a die that can hit wins on
    #: its path as without handlers, and the check is answered so (docs/rulings.md 24Y-3; the
    #: Crown of Thalnos, the Hacan flagship)
    never_stalls: ClassVar[bool] = False
    #: the same, on its owner's favoured path only: there it changes nothing but its owner's
    #: units, and takes none away, no die of theirs (Duranium Armor repairs its owner's units,
    #: which on that path are never hit; its repairs of the other side's can keep a combat
    #: going, docs/rulings.md R20, 24Y-3)
    never_stalls_for_owner: ClassVar[bool] = False
    #: where not ``None``, that on the stalemate check's paths the handler only takes units
    #: away (its owner's, or the other side's by a hit it produces: Devotion) or places, a
    #: bounded number of times in the combat, units of these types for its owner (Brother
    #: Milor's fighters, once): a side whose every die can hit wins on its path
    #: (procedures/stalemate_bounded.py, docs/rulings.md 24AC-3)
    never_stalls_where_all_hit: ClassVar[frozenset[str] | None] = None
    #: the stalemate check's favoured paths of a space combat ("owner": its owner's; "other":
    #: the other player's, on which its owner never hits) on which, read from its card, the
    #: handler keeps the path ending whatever else it does there: it gives the side not
    #: favoured no unit and no hit point back (adds or places none, repairs none, cancels or
    #: prevents no hit against it), and takes from the favoured side no die and no unit, but
    #: one that a hit produced against it by another effect reached (it forbids that unit's
    #: SUSTAIN DAMAGE, or destroys the ship that sustained it), producing no hit but by its
    #: owner's dice or against the side not favoured. It may take more of the side not
    #: favoured's units or hit points, add to its owner's dice, give its owner trade goods,
    #: make or stop a retreat, or end the combat (Intercept, Rout, Skilled Retreat, Direct
    #: Hit, the Mentak flagship; Reflective Shielding on its owner's path only). Where every
    #: handler acting in the rounds is so declared for the favoured side's path or passed over
    #: by the declarations above, the check reads that path as theirs (procedures/
    #: stalemate_paths.py, docs/rulings.md 24AF-1)
    never_stalls_on: ClassVar[frozenset[str]] = frozenset()
    #: whether its ``after_assign_hits`` reads and changes of the players' parts its owner's
    #: alone (Duranium Armor repairs one of its owner's units): the other player's damage
    #: sustained this round is then read by nothing before the round's end makes it plain
    #: damage (rulesets/ti4/split_rolls.py ``_settles_early``; docs/architecture.md 24Y-4)
    own_part_after_assigning: ClassVar[bool] = False
    #: whether, of the combat roll it keeps group by group (``keeps_rolls``), it reads only the
    #: dice that produced no hit, as a pool (their combat value and everything else about them
    #: but their unit): the odds engine may then key the record with the hits of plain groups
    #: of the same dice moved between them (procedures/kept_roll_alike.py; docs/architecture.md
    #: 24AD-2; War Funding Ω)
    kept_roll_read_as_misses: ClassVar[bool] = False
    #: the ``policy.play`` key of an effect that acts in a battle only once its holder's
    #: ``play_card`` decision about it (facts ``card``) answers "play": passing leaves the
    #: state as it was, and until it is played the effect reads and changes nothing beyond
    #: offering it (War Funding Ω keeps its holder's roll group by group only so as to be
    #: played). ``None``: not such an effect. When its holder's ``policy.play`` says ``never``,
    #: the stock policy passes at every offer, so the odds engine, which decides with the stock
    #: policies alone, leaves it out of play (setup/building.py
    #: ``BattleSetup.for_stock_policies``; docs/rulings.md 24B-1)
    played_as: ClassVar[str | None] = None
    #: the name of the decisions this effect asks its holder (their ``card`` fact, the key of
    #: ``policy.play``), if it asks any; ``None``: it never asks, so ``policy.play`` may not
    #: name it (setup/validate.py ``check_play_names``; docs/rulings.md 14B-7, 27T-1). A
    #: ``Card`` that asks is named by its ``card`` unless it says otherwise
    asks: ClassVar[str | None] = None
    #: the causes of the hits (the procedures' ``cause``: "space cannon offense",
    #: "anti-fighter barrage", ...) for whose assignment its ``before_assign_hits``,
    #: ``after_sustain`` and ``after_destroyed`` act; ``None``: any. The Assign Hits procedure
    #: asks it about those hits only (procedures/assign_hits.py ``_hooks``), so an assignment
    #: of other hits (a combat round's) is decided without it, from the units and the hits
    #: alone (``assign_hits.alone``; the exact engine takes it at once). A handler answering
    #: ``forbids_sustain`` or ``lends_sustain``, which are asked without a cause, cannot declare it
    assigns_for: ClassVar[frozenset[str] | None] = None

    def __init__(self, owner: Side | None) -> None:
        self.owner = owner

    def __init_subclass__(cls, **kwargs: object) -> None:
        super().__init_subclass__(**kwargs)
        if "in_window" in vars(cls) and cls.acts is None:
            raise TypeError(f"{cls.__name__} answers in_window: declare where (acts = Acts(...))")
        answered = frozenset(h for h in BY_NAME if getattr(cls, h) is not getattr(Handler, h))
        lonely = missing_companions(answered)
        if lonely:
            raise TypeError(f"{cls.__name__} answers {', '.join(lonely)} (rulesets/ti4/hooks.py)")
        kept = sorted(
            h for h in cls.keeps_product_form if h not in answered or not BY_NAME[h].in_rounds
        )
        if kept:
            raise TypeError(
                f"{cls.__name__}.keeps_product_form names {', '.join(kept)}: not a hook "
                "declared in_rounds that it answers (rulesets/ti4/hooks.py)"
            )

        if cls.assigns_for is not None:
            causeless = sorted(answered & {"forbids_sustain", "lends_sustain"})
            caused = answered & {"before_assign_hits", "after_sustain", "after_destroyed"}
            if causeless or not caused:
                raise TypeError(
                    f"{cls.__name__}.assigns_for: it must answer before_assign_hits, "
                    "after_sustain or after_destroyed, and neither forbids_sustain nor "
                    f"lends_sustain (it answers {', '.join(causeless) or 'none of the three'})"
                )

        heard = sorted(answered & {"after_sustain", "after_destroyed"})
        if "reads_while_assigning" in answered and heard:
            raise TypeError(
                f"{cls.__name__}.reads_while_assigning: it answers {', '.join(heard)}, so what "
                "is assigned is heard (queued for the handlers) and changes the state"
            )

    def __repr__(self) -> str:
        return f"{type(self).__name__}({self.owner!r})"

    @property
    def player(self) -> Side:
        """The owner of a handler that belongs to a player (not the system's or a law's)."""
        if self.owner is None:
            raise ValueError(f"{self!r} belongs to no player")
        return self.owner

    def roll_modifier(self, setup: BattleSetup, roller: Side, roll: Roll, unit: str) -> int:
        """Added to each die ``roller`` rolls for ``unit`` in ``roll``."""
        return 0

    def sustain_cancels(self, side: Side) -> int | None:
        """How many hits one SUSTAIN DAMAGE of ``side`` cancels, or ``None`` for no say."""
        return None

    def permits_anomaly(self, retreater: Side, anomaly: str) -> bool:
        """Whether ``retreater``'s ships may move, and so retreat, into a system with
        ``anomaly`` (also asked of the attacker for the active system: docs/rulings.md R32)."""
        return False

    def permits_system_without_presence(self, retreater: Side) -> bool:
        """Whether ``retreater`` may retreat where it has no units and controls no planet."""
        return False

    def in_window(
        self, setup: BattleSetup, state: BattleState, windows: frozenset[Window]
    ) -> Node[BattleState] | None:
        """Act in a timing window (``windows`` holds the windows that share this moment, e.g.
        start of combat and start of combat round); ``None``: nothing to do. Asked only where
        the handler's ``acts`` says (procedures/windows.py filters: ``Acts.admits``)."""
        return None

    def after_assign_hits(
        self, setup: BattleSetup, state: BattleState, side: Side
    ) -> Node[BattleState] | None:
        """Act after ``side`` assigned hits in a combat round; ``None``: nothing to do."""
        return None

    def refusal(self, setup: BattleSetup) -> RuleNotImplemented | None:
        """A rule this handler would need in this battle and the engine does not implement
        (the setup refuses the battle with it, naming it); ``None``: nothing refused."""
        return None

    def roll_key(self, setup: BattleSetup, state: BattleState, roller: Side) -> Hashable:
        """What of ``state`` ``combat_roll`` reads for ``roller`` (with the roller's units, it
        keys the remembered pool); a handler that overrides ``combat_roll`` overrides this."""
        return None

    def combat_roll(
        self,
        setup: BattleSetup,
        state: BattleState,
        roller: Side,
        groups: tuple[DiceGroup, ...],
    ) -> tuple[DiceGroup, ...]:
        """``roller``'s combat roll (dice groups by unit type), changed by this handler."""
        return groups

    # Each hook of this class is declared in rulesets/ti4/hooks.py (who asks it, whether it
    # acts in the rounds): a hook added here and not there, or there and not here, fails at
    # import. Keep one hook per question, with its default "no effect".

    # --- hooks: hit assignment and SUSTAIN DAMAGE ---
    # (called in procedures/assign_hits.py for every assignment of hits: combat rounds, space
    # cannon, anti-fighter barrage, bombardment)

    def forbids_sustain(
        self, setup: BattleSetup, state: BattleState, side: Side, where: int | None, unit: str
    ) -> bool:
        """Whether ``side``'s ``unit`` in ``where`` may NOT use SUSTAIN DAMAGE now (a law, an
        enemy flagship in the system); ``False``: no say."""
        return False

    def lends_sustain(
        self, setup: BattleSetup, state: BattleState, side: Side, where: int | None
    ) -> frozenset[str]:
        """Unit types of ``side`` in ``where`` that the hits being assigned cannot reach but
        that may use SUSTAIN DAMAGE to cancel one (a Nomad mech in the space area)."""
        return frozenset()

    def reads_while_assigning(
        self, setup: BattleSetup, state: BattleState, side: Side, where: int | None
    ) -> Hashable | None:
        """For the exact engine (procedures/assign_hits.py ``leap_key``), at the start of
        ``side``'s assignment of a combat round's hits in ``where`` (``state``): ``None`` unless
        the handler, all through that assignment, changes nothing and answers every hook of hit
        assignment it is asked from ``side``'s units there, the hits and what this returns
        alone (a key of what else it reads, unchanged while ``side`` assigns). Then the whole
        assignment is taken at once and remembered for every state with the same key. A class
        answering it answers ``before_assign_hits`` too (its companion: asked at the start of
        every assignment) and neither ``after_sustain`` nor ``after_destroyed`` (which queue
        what others hear), else it is refused where the class is made;
        tests/odds/test_graph_leaps.py builds the graph of battles holding each such handler
        with the leaps on and off."""
        return None

    def idle_while_assigning(self, setup: BattleSetup, state: BattleState, side: Side) -> bool:
        """For the exact engine (procedures/assign_hits.py ``leap_key``): whether, while ``side``
        assigns hits from ``state`` on in its combat, every hook of hit assignment the handler
        answers (``forbids_sustain``, ``lends_sustain``, ``before_assign_hits``,
        ``after_sustain``, ``after_destroyed``) answers as a handler not in play would
        (``None``; nothing forbidden or lent), whatever the units and the hits: it acts on the
        other player's assignment only, or its card was played, exhausted or purged
        (``Card.held``), or its once-a-combat effect was used, or what it costs is no longer
        affordable. It reads only what no assignment of hits changes (the side, what was used,
        spent or gained). Then ``side``'s assignment of a combat round's hits does not ask it,
        and may be taken at once (issue 24); tests/odds/test_graph_leaps.py builds the graph of
        battles holding each handler that says so with the leaps on and off. ``False`` unless
        the class says."""
        return False

    def blind_while_assigning(self, setup: BattleSetup, state: BattleState, side: Side) -> bool:
        """For the exact engine (procedures/assign_hits.py ``blind``): whether, while ``side``
        assigns a combat round's hits from ``state`` on, every hook of hit assignment the
        handler answers reads nothing of the other player's part of the state (its units, its
        purse) nor the hits against it, and changes of it at most those hits, by adding to
        them (Reflective Shielding's), and it may not be cancelled (no ``watcher``, whose
        question reads the other player's units). Then ``side``'s whole assignment may be
        walked once for every state alike but for the other player's part and the hits
        against it (``Ti4Battle.leap``), where the handler acts on the state otherwise (a card
        played, a unit destroyed, hits cancelled). ``False`` unless the class says."""
        return False

    def paired_while_assigning(self, setup: BattleSetup, state: BattleState, side: Side) -> bool:
        """For the exact engine (procedures/assign_hits.py ``paired``): whether, while ``side``
        assigns a combat round's hits from ``state`` on, every hook of hit assignment the
        handler answers reads nothing of the hits against the other player and changes neither
        those hits nor the other player's part, though it may read that part (Technological
        Singularity reads its owner's units while the opponent assigns), and it may not be
        cancelled (no ``watcher``). What it changes besides the assigning player's part (what
        was used, the notes, the technologies gained) travels with the part. Then the paired
        tables of a round's rolls taken player by player (rulesets/ti4/split_rolls.py
        ``_walked_whole``), which walk each assignment from the other player's part as it
        stands when it begins, may walk ``side``'s whole assignment (24Z-2). A handler blind
        while ``side`` assigns (``blind_while_assigning``) need not say it too. ``False``
        unless the class says."""
        return False

    def places_while_assigning(self, setup: BattleSetup, state: BattleState, side: Side) -> bool:
        """For the exact engine (procedures/assign_hits.py ``placing``): whether, while ``side``
        assigns a combat round's hits from ``state`` on, every hook of hit assignment the
        handler answers reads of the other player's part its units alone (not its purse, nor
        the hits against it), changes of it at most its units, by placing or repairing ships
        there (Ipswitch, Loose Cannon), and it may not be cancelled (no ``watcher``). Then in
        the paired tables, whose walks start from both players' parts as they stand,
        ``side``'s whole assignment may be walked by the real procedure and the other
        player's units it leaves carried with the parts (split_rolls.py ``_walked_placing``),
        and the explorer's walks take it at once, once for every state alike but for the hits
        against the other player (``Ti4Battle.leap``; issue 24, 24X-3). ``False`` unless the
        class says."""
        return False

    def before_assign_hits(
        self, setup: BattleSetup, state: BattleState, side: Side, where: int | None, cause: str
    ) -> Node[BattleState] | None:
        """Act once before ``side`` assigns the hits against it (``state.hits_on(side)`` > 0),
        e.g. cancel some of them; ``None``: nothing to do."""
        return None

    def after_sustain(
        self, setup: BattleSetup, state: BattleState, side: Side, where: int | None, cause: str
    ) -> Node[BattleState] | None:
        """Act after one of ``side``'s units used SUSTAIN DAMAGE (its type is
        ``state.sustained[-1]``; ``state.sustained`` lists those of this assignment);
        ``None``: nothing to do."""
        return None

    def after_destroyed(
        self,
        setup: BattleSetup,
        state: BattleState,
        side: Side,
        where: int | None,
        unit: str,
        cause: str,
    ) -> Node[BattleState] | None:
        """Act after one of ``side``'s units (of type ``unit``) in ``where`` was destroyed while
        hits were assigned (by a hit, or by an effect acting then: Direct Hit, the Yin
        flagship); ``None``: nothing to do. An effect that destroys units queues them
        (``state.following``) so that these handlers hear of them too."""
        return None

    def follow_up(
        self, setup: BattleSetup, state: BattleState, side: Side, detail: str, where: int | None
    ) -> Node[BattleState] | None:
        """Go on with an effect this handler queued (a ``state.following`` entry named by its
        id: a roll after a card was played, say; asked while hits are assigned, in timing
        windows, and after ground forces are committed, where ``where`` is the planet);
        ``None``: nothing more."""
        return None

    def replaces_hits(self, detail: str) -> bool:
        """For the exact engine (procedures/replaced_hits.py): whether this handler's own
        follow-up ``detail``, heard at the head of the queue in a timing window, sets the hits
        against the player it is told of whatever they were (a reroll whose hits replace
        them: War Funding Ω's reroll of the opponent's dice), reading nothing of them before;
        the states that differ only by those hits then have the same future (issue 24,
        24U-1). ``False`` unless the class says."""
        return False

    def queued_alike(self, setup: BattleSetup, state: BattleState) -> BattleState | None:
        """For the exact engine (procedures/queued_alike.py): where this handler's own
        follow-ups are the whole queue of a timing window (``state.following``, nothing
        pending), a state that plays out alike from here on, with the same chance of every end
        and of every number of rounds, that the exact engine keys ``state`` by: its rerolls
        heard in another order, what none of them reads forgotten (War Funding Ω, issue 24,
        24X-2). ``None`` (``state`` as it is) unless the class says."""
        return None

    def aims_combat_hits(
        self, setup: BattleSetup, state: BattleState, roller: Side
    ) -> frozenset[str]:
        """Unit types of ``roller`` whose hits in the space combat roll about to be made must be
        assigned to non-fighter ships if able (the L1Z1X flagship); read by
        procedures/combat_round.py ``roll_dice``, which counts those hits (marks), and assigned
        first by the opponent (procedures/assign_hits.py ``aiming``)."""
        return frozenset()

    def aims_ability_hits(
        self, setup: BattleSetup, state: BattleState, roller: Side, roll: Roll
    ) -> bool:
        """Whether every hit of ``roller``'s unit-ability roll ``roll`` about to be made must be
        assigned to non-fighter ships if able (Graviton Laser System exhausted for it); read by
        procedures/space_cannon_offense.py."""
        return False

    # --- hooks: combat rounds and timing windows ---

    def acts_first_in_window(self) -> bool:
        """Whether this handler acts before its owner's other handlers in a timing window (its
        holder would resolve it first: Ipswitch, Loose Cannon before Ambush, since ships
        destroyed before it is purged are not replaced); procedures/windows.py
        ``_window_order``. The players' order is kept: the attacker's handlers first."""
        return False

    def exempt_from_capacity(self, side: Side, unit: str) -> bool:
        """Whether ``side``'s ground force ``unit`` in the space area needs no room on its ships
        while one of them has a capacity value (Aerie Sentinel; procedures/capacity.py)."""
        return False

    # --- hooks: dice, rerolls and roll modifiers ---

    def sets_combat_dice(self, owner: Side, unit: str) -> bool:
        """Whether this handler gives ``owner``'s ``unit``, whose printed combat dice are unset
        (Winnu flagship), its combat dice: ``combat_roll`` then adds the unit's group, and
        ``procedures/common.py: _combat_pool`` leaves it out instead of refusing it."""
        return False

    def keeps_rolls(self, setup: BattleSetup, state: BattleState, roller: Side) -> bool:
        """Whether ``roller``'s combat roll about to be made must be kept group by group, each
        with its hits (``BattleState.rolls``), for this handler to read after both players
        rolled (War Funding Ω rerolls its holder's misses): the roll is then made one group at
        a time (procedures/combat_round.py ``roll_dice``). ``False``: no need (the roll is one
        chance node, as without the handler)."""
        return False

    # --- hooks: space cannon and anti-fighter barrage ---

    def forbids_unit_ability(self, setup: BattleSetup, roller: Side, roll: Roll) -> bool:
        """Whether ``roller`` may not use the unit ability of ``roll`` (SPACE CANNON, ANTI-FIGHTER
        BARRAGE, BOMBARDMENT) in this battle at all, from the setup alone (L4 Disruptors, the
        Argent flagship). Read by ``cannon_pool`` and ``barrage_pool``: their pool is empty."""
        return False

    def cannon_groups(self, setup: BattleSetup, roller: Side, roll: Roll) -> tuple[DiceGroup, ...]:
        """SPACE CANNON dice ``roller`` fires from something other than its units in the area
        (a planet of the system: Mecatol Rex with I.I.H.Q. Modernization, Elysium with Ul the
        Progenitor), from the setup alone; added by ``cannon_pool`` before ``ability_dice``."""
        return ()

    def ability_dice(
        self, setup: BattleSetup, roller: Side, roll: Roll, groups: tuple[DiceGroup, ...]
    ) -> tuple[DiceGroup, ...]:
        """``roller``'s dice of a unit-ability roll, changed from the setup alone (Plasma
        Scoring: one firing unit adds 1 die). Applied by ``cannon_pool`` and ``barrage_pool``
        (bombardment: ``space_cannon.ability_dice``)."""
        return groups

    def before_ability_roll(
        self, setup: BattleSetup, state: BattleState, roller: Side, roll: Roll
    ) -> Node[BattleState] | None:
        """Act just before ``roller`` makes a unit-ability roll (play a card that changes it);
        asked of every handler in order (procedures/space_cannon_offense.py; the anti-fighter
        barrage: procedures/space_combat.py; space cannon defense, at ``state.planet``:
        procedures/invasion.py)."""
        return None

    def ability_roll(
        self,
        setup: BattleSetup,
        state: BattleState,
        roller: Side,
        roll: Roll,
        groups: tuple[DiceGroup, ...],
    ) -> tuple[DiceGroup, ...]:
        """``roller``'s unit-ability roll changed from what the state shows (a card played for
        it: Solar Flare leaves no dice)."""
        return groups

    def extra_ability_roll(
        self, setup: BattleSetup, state: BattleState, roller: Side, roll: Roll
    ) -> Node[BattleState] | None:
        """A roll of this handler's own, made just before ``roller``'s unit-ability roll
        (Experimental Battlestation fires before the active player's space cannon offense:
        ``space_cannon_offense.extra_cannon_roll``); ``None`` once it is made."""
        return None

    def widens_barrage(self, setup: BattleSetup, state: BattleState, side: Side) -> bool:
        """Whether the ANTI-FIGHTER BARRAGE hits against ``side`` may be assigned to any of its
        ships, not only its fighters (Waylay played for the roll that produced them); read
        when ``side`` assigns them (procedures/space_combat.py ``anti_fighter_barrage_hits``).
        Those hits may then be cancelled by SUSTAIN DAMAGE (docs/rulings.md 14D3-1)."""
        return False

    def after_ability_roll(
        self, setup: BattleSetup, state: BattleState, roller: Side, roll: Roll, marks: int
    ) -> Node[BattleState] | None:
        """Act right after ``roller`` made a unit-ability roll, before its results are used (its
        hits are ``state.hits_on(roller.other)``, ``marks`` its marks): Scramble Frequency. Asked
        of every handler in order for the anti-fighter barrage (procedures/space_combat.py),
        and for space cannon offense, space cannon defense and bombardment rolls
        (procedures/space_cannon_offense.py ``reviewed_roll``, procedures/invasion.py); a
        handler makes the roller roll again by boosting it with
        ``anti_fighter_barrage.REROLL``."""
        return None

    # --- hooks: invasion, bombardment and ground combat ---

    def at_invasion_start(self, setup: BattleSetup, state: BattleState) -> Node[BattleState] | None:
        """Act at the start of an invasion, before BOMBARDMENT (Bunker, Blitz, Disable): asked
        of each handler in order by procedures/invasion.py ``bombardment``; ``None``: nothing."""
        return None

    def bombardment_roll(
        self,
        setup: BattleSetup,
        state: BattleState,
        roller: Side,
        planet: int,
        groups: tuple[DiceGroup, ...],
    ) -> tuple[DiceGroup, ...]:
        """``roller``'s BOMBARDMENT dice groups at ``planet``, changed from what the state shows
        (a card played at the start of the invasion); invasion.py ``bombardment_dice``."""
        return groups

    def gives_bombardment(self, cards: SideSetup, unit: str) -> bool:
        """Whether this handler may give its owner's ``unit`` (a type without a printed
        BOMBARDMENT) BOMBARDMENT in the invasion (Blitz), so that the scenario may allot such
        units to a planet (``bombarded_by``; setup/building.py)."""
        return False

    def forbids_bombardment(self, setup: BattleSetup, planet: int) -> str | None:
        """Why no BOMBARDMENT may be fired at the units on ``planet`` (a law), or ``None``."""
        return None

    def ignores_planetary_shield(self, setup: BattleSetup, bombarder: Side) -> bool:
        """Whether PLANETARY SHIELD does not stop ``bombarder``'s BOMBARDMENT (2RAM)."""
        return False

    def loses_ability(
        self, setup: BattleSetup, state: BattleState, owner: Side, unit: str, ability: str
    ) -> bool:
        """Whether ``owner``'s ``unit`` has lost ``ability`` (``"planetary_shield"``,
        ``"space_cannon"``) now (Disable); asked by planetary_shield.py and invasion.py."""
        return False

    def after_bombardment(
        self, setup: BattleSetup, state: BattleState, planet: int, infantry_destroyed: int
    ) -> Node[BattleState] | None:
        """Act after the attacker's BOMBARDMENT at ``planet`` (its hits assigned), which
        destroyed ``infantry_destroyed`` of the defender's infantry (X-89 Bacterial Weapon Ω);
        the nodes' states stay in that step (invasion.py ``bombardment_hits``)."""
        return None

    def bombards_in_combat(self, setup: BattleSetup, state: BattleState) -> Mapping[str, int]:
        """The attacker's units, by type, that roll BOMBARDMENT at the planet of the ground
        combat when this handler moves the battle to the BOMBARDMENT step from a timing window
        (Harrow); invasion.py ``bombardment`` then returns to the window after it."""
        return {}

    def after_commit(
        self, setup: BattleSetup, state: BattleState, planet: int
    ) -> Node[BattleState] | None:
        """Act after the attacker committed ground forces to ``planet`` (Parley, Ragh's Call),
        before space cannon defense; asked of each handler in order, planet by planet
        (invasion.py ``commit_ground_forces``)."""
        return None

    def after_ground_combat(
        self, setup: BattleSetup, state: BattleState, winner: Side | None
    ) -> Node[BattleState] | None:
        """Act after the ground combat on ``state.planet`` ended, won by ``winner`` (``None``:
        nobody) (Dacxive Animators); asked of each handler in order (invasion.py
        ``ground_combat_ends``)."""
        return None

    def before_establishing_control(
        self, setup: BattleSetup, state: BattleState
    ) -> Node[BattleState] | None:
        """Act before the attacker establishes control of the planets it holds (Infiltrate is
        played then); asked of each handler in order (invasion.py ``establish_control``)."""
        return None

    def takes_structures(self, setup: BattleSetup, state: BattleState, side: Side) -> bool:
        """Whether ``side``, establishing control of a planet, replaces the opponent's PDS and
        space docks there with its own instead of destroying them (Assimilate, Infiltrate)."""
        return False

    # --- hooks: units that change for a space combat ---

    def at_end_of_combat(self, setup: BattleSetup, state: BattleState) -> Node[BattleState] | None:
        """Act at the end of a space combat once its result is decided (``state.result``), before
        units without ships to carry them are removed and capacity is checked: turn units that
        changed for the combat back (The Cavalry's ship, the Z-Grav Eidolon); asked of each
        handler in order by procedures/space_combat.py ``end_of_combat`` until all answer
        ``None``, so a handler answers ``None`` once nothing is left to do."""
        return None

    def before_retreat(
        self, setup: BattleSetup, state: BattleState, side: Side
    ) -> Node[BattleState] | None:
        """Act as ``side``'s retreat begins (step 5), before its destination is chosen: units
        that took part in the combat from a planet stop taking part and stay there (The
        Alastor); asked of each handler in order by procedures/retreat.py ``retreat`` until
        all answer ``None``."""
        return None

    # --- hooks: set-up ---
    # Asked while the battle is built from the scenario (setup/building.py), before the battle:
    # never during combat rounds, never of a state.

    #: ``policy.play`` values this effect's entry may take beyond ``never`` and ``{round: N}``,
    #: each with what it means (another effect's entry is refused that value: setup/validate.py)
    play_values: ClassVar[Mapping[str, str]] = {}

    def scenario_refusal(self, scenario: Scenario) -> ScenarioError | None:
        """Why the scenario cannot be fought with this law in play (an invasion of a planet
        no unit may be committed to), or ``None``. Asked of the laws' handlers, in order, by
        the set-up once the laws and what they elect are read, before the sides are; acts
        before the battle."""
        return None

    def set_up_side(self, scenario: Scenario, draft: SideDraft) -> SideDraft:
        """``draft`` (either player's side, as read from the scenario) as this effect leaves it
        before the battle: unit cards taken away or changed, unit types a unit becomes during
        the battle added (their cards), the faction's abilities taken out of play, abilities
        of units not in the battle brought into play. Asked by the set-up (setup/building.py
        ``adjusted``) of every handler the scenario's laws, system and sides could put in play
        (their units in the battle or not), in the handlers' documented order, each of the
        attacker's side then of the defender's, before the handlers in play are found from the
        sides it leaves; a handler checks what it needs on ``draft`` as it stands (an earlier
        one may have taken its ability away). May refuse the scenario (``ScenarioError``,
        ``RuleNotImplemented``). Acts before the battle, never during combat rounds."""
        return draft

    def set_up_in_play(self, sides: Mapping[Side, SideSetup], handlers: Sequence[Handler]) -> None:
        """Once the handlers in play are known (``handlers``, in order; this one among them),
        before the battle: learn what of the sides and of the other handlers it needs (an
        effect that may cancel the opponent's cards tells them: ``Card.watcher``). Asked of
        each handler in play in order by the set-up (setup/building.py); never during combat
        rounds."""
        return None

    def may_commit(self, cards: SideSetup, unit: str) -> bool:
        """Whether this handler lets its owner commit ``unit`` (not a ground force) from the
        space area to a planet, so that the scenario may name it in a planet's ``commit``
        (setup/validate.py ``check_allocation``); asked before the battle."""
        return False


class Watcher(Protocol):
    """An effect of the opponent that may cancel a card when it is played (the Empyrean mech:
    abilities/empyrean_mech_cancel_action_card.py)."""

    def may_cancel(self, state: BattleState) -> bool:
        """Whether it could cancel a card played in ``state`` (its owner has what it removes)."""
        ...

    def cancel_or_let(self, setup: BattleSetup, state: BattleState) -> Node[BattleState]:
        """Its owner's decision about the card pending (``state.pending``): cancel it, or let it
        be played (asked by battle.py ``Ti4Battle.advance``)."""
        ...


class Card(Handler):
    """A card or leader held by ``owner`` (data/cards.toml ``id``): played (or exhausted, or
    purged) at most once a battle unless a subclass says otherwise, by its holder's decision.

    ``offer`` asks the holder whether to play it now; the stock policy plays it (its
    ``policy.play`` may say ``never`` or name the round), and ``--ask`` asks a person.

    A card the opponent may cancel (``watcher``, set when the battle is built: the Empyrean
    mech against an action card) is not resolved when its holder plays it: the decision's step
    leaves it pending (``BattleState.pending``) for the opponent's decision; if the opponent
    lets it be played, the procedure asks the card's handler again in the same state, and its
    ``offer`` resolves the chosen option without asking (``BattleState.granted``)."""

    #: the card's id in data/cards.toml (also the key of ``policy.play``)
    card: ClassVar[str]

    def __init_subclass__(cls, **kwargs: object) -> None:
        super().__init_subclass__(**kwargs)
        if "card" in cls.__dict__ and "asks" not in cls.__dict__:
            cls.asks = cls.card  # its decisions are named by the card (``Handler.asks``)

    #: the opponent's effect that may cancel this card when it is played, if any
    watcher: Watcher | None = None

    def held(self, state: BattleState) -> bool:
        """Whether the owner still holds the card (it has not been played yet, nor cancelled:
        ``discarded``)."""
        owner = self.owner
        assert owner is not None
        return not state.has_used(owner, self.card) and not state.has_used(
            owner, discarded(self.card)
        )

    def offer(
        self,
        state: BattleState,
        prompt: str,
        play: Callable[[BattleState], Step[BattleState]],
        *,
        facts: dict[str, object] | None = None,
        pass_first: bool = False,
    ) -> Node[BattleState]:
        """Ask the owner whether to play the card now: ``play the card`` (the card is then
        used, and ``play`` gives what it does) or ``pass``; with ``pass_first`` "pass" is
        listed first (the stock policy then passes: the card would be worthless)."""
        assert self.owner is not None
        owner = self.owner
        text = f"play {self.card}"

        def act(s: BattleState) -> Step[BattleState]:
            return play(s.using(owner, self.card))

        options = (Option(text, "play", target=self.card), Option("pass", "pass"))

        return _offered(
            owner,
            self.card,
            state,
            {text: act},
            DecisionRequest(
                "play_card",
                owner.value,
                prompt,
                options[::-1] if pass_first else options,
                facts={"card": self.card, "round": state.round, **(facts or {})},
            ),
            self.watcher,
        )


#: what playing a card (one way) does to the state
_Play = Callable[["BattleState"], Step["BattleState"]]


def _offered(
    owner: Side,
    card: str,
    state: BattleState,
    table: Mapping[str, _Play],
    request: DecisionRequest,
    watcher: Watcher | None,
) -> Node[BattleState]:
    """The ``play_card`` decision of ``card`` (``table``: what each "play" option does), or,
    when the opponent let the option chosen in this state be played (``state.granted``), that
    option resolved. A "play" answer that ``watcher`` could cancel leaves it pending."""
    granted = state.granted
    if granted is not None and granted[0] is owner and granted[1] == card:
        return _resolved(owner, card, state.changed(granted=None), table[granted[2]])

    def then(option: Option) -> Step[BattleState]:
        if option.action != "play":
            return Step(state)
        if watcher is not None and watcher.may_cancel(state):
            return Step(state.changed(pending=Pending(owner, card, option.text, state)))
        return _resolved(owner, card, state, table[option.text])

    return Decision(request, then)


def _resolved(owner: Side, card: str, state: BattleState, act: _Play) -> Step[BattleState]:
    """``card`` played by ``owner`` in ``state``: the ``card_played`` event, then its effect."""
    done = act(state)
    return Step(done.state, (card_played(owner, card, state.round), *done.events))


def discarded(card: str) -> Discarded:
    """The ``used`` mark of a card that was played and cancelled (the Empyrean mech): its holder
    no longer has it, but its effect never happened (``has_used(side, card)`` stays false, so
    effects that read it as "played" do not act)."""
    return Discarded(card)


def card_played(owner: Side, card: str, round_number: int) -> Event:
    """The ``card_played`` event."""
    return event("card_played", player=owner.value, card=card, round=round_number)


def rerolling_misses(groups: tuple[DiceGroup, ...], by: str) -> tuple[DiceGroup, ...]:
    """Every group rerolls its misses once more, for ``by`` (the stock choice of an effect that
    lets its holder reroll any dice: every miss). A die rerolled by another effect may be
    rerolled by this one too, after it but before a reroll that may destroy units (the Crown
    of Thalnos): docs/rulings.md 14RR-1, 14RR-2. Dice that count marks on their natural faces
    (Strike Wing Alpha II) are rerolled when every marked face hits (a miss rerolled cannot be
    a mark: 14RR-4); trade goods (the Hacan flagship) are spent on the misses left after the
    rerolls (14RR-3). A group that cannot be rerolled so is refused by name
    (``RuleNotImplemented``), never a wrong count."""
    out = []
    for group in groups:
        try:
            out.append(group.with_reroll(0))
        except ValueError:
            if group.budget:
                what = "dice that trade goods also raise (the Hacan flagship)"
            else:
                what = "dice that also count natural faces that may miss"
            raise RuleNotImplemented(
                f"{by} rerolling {what} ({group.unit})", f"the {group.unit} dice"
            ) from None
    return tuple(out)


def offer_plays(
    owner: Side,
    card: str,
    state: BattleState,
    prompt: str,
    choices: Sequence[tuple[str, Callable[[BattleState], Step[BattleState]]]],
    *,
    once: bool = True,
    pass_first: bool = False,
    watcher: Watcher | None = None,
    facts: Mapping[str, object] | None = None,
) -> Node[BattleState]:
    """The ``play_card`` decision of an effect used in one of several ways: one option per
    choice, ``play CARD: LABEL`` (``play CARD`` for an empty label), in the order given (the
    stock policy takes the first), and ``pass``. Each choice's function says what it does to
    the state. ``once``: the card (or exhaustible ability) is then used for the battle
    (``used``); otherwise it may act again later. ``pass_first``: ``pass`` is listed first (the
    stock policy then passes). ``watcher``: the opponent's effect that may cancel the card
    (``Card.watcher``); the node is then the chosen option itself once the opponent let it be
    played (``Card``). ``facts``: more facts for the request, beside ``card`` and ``round``."""

    def acting(act: _Play) -> _Play:
        return (lambda s: act(s.using(owner, card))) if once else act

    table = {
        (f"play {card}: {label}" if label else f"play {card}"): acting(act)
        for label, act in choices
    }
    plays = tuple(Option(text, "play", target=card) for text in table)
    passing = Option("pass", "pass")
    options = (passing, *plays) if pass_first else (*plays, passing)
    request = DecisionRequest(
        "play_card",
        owner.value,
        prompt,
        options,
        facts={"card": card, "round": state.round, **(facts or {})},
    )
    return _offered(owner, card, state, table, request, watcher)


HANDLERS: dict[str, type[Handler]] = {}


def register(cls: type[Handler]) -> type[Handler]:
    """Class decorator: make a handler available under its ``id``."""
    if cls.id in HANDLERS:
        raise ValueError(f"two handlers named {cls.id!r}")
    HANDLERS[cls.id] = cls
    return cls


def overrides(handler: Handler | type[Handler], hook: str) -> bool:
    """Whether ``handler`` (or a handler class) answers ``hook`` (a name declared in
    rulesets/ti4/hooks.py) otherwise than ``Handler``'s no-effect default."""
    cls = handler if isinstance(handler, type) else type(handler)
    known = _OVERRIDDEN.get((cls, hook))
    if known is None:
        known = _OVERRIDDEN[(cls, hook)] = getattr(cls, BY_NAME[hook].name) is not getattr(
            Handler, hook
        )
    return known


#: ``overrides``'s answers by (handler class, hook), remembered (24V-2): the exact engine asks
#: it for each handler at each follow-up heard (``effects.follow_ups``), and a class's methods
#: do not change once it is made
_OVERRIDDEN: dict[tuple[type[Handler], str], bool] = {}


def acts_in_rounds(handler: Handler) -> bool:
    """Whether a handler may change what happens during the combat rounds beyond taking units
    away by hits: it answers a hook declared ``in_rounds`` (rulesets/ti4/hooks.py ``HOOKS``,
    the one place that says so), but for those its class declares it answers in a way the
    product form keeps (``Handler.keeps_product_form``). Without such handlers the rounds are
    in product form."""
    kept = type(handler).keeps_product_form
    return any(overrides(handler, hook) for hook in IN_ROUNDS if hook not in kept)


def never_played(handler: Handler, play: Mapping[str, int | str]) -> bool:
    """Whether ``handler`` never acts under its holder's stock policy, whose ``policy.play`` is
    ``play``: an effect that acts only once played (``Handler.played_as``) that the policy
    never plays (``StockPolicy._play_card`` passes at every offer)."""
    return handler.played_as is not None and play.get(handler.played_as) == "never"


def opens(handler: Handler, window: Window) -> bool:
    """Whether ``handler`` acts in ``window`` (its declared ``acts``): the windows opened on
    demand (``hooks.OPENED_ON_DEMAND``) open only when a handler in play acts there."""
    return handler.acts is not None and window in handler.acts.windows


# Handler's defaults are the hooks declared in hooks.py, no more and no fewer
check_declared(
    frozenset(
        name
        for name, value in vars(Handler).items()
        if callable(value) and not name.startswith("_") and not isinstance(value, type)
    )
)
