"""War Funding Ω (Barony of Letnev promissory note, Codex revision; data/cards.toml): after you
and your opponent roll dice during space combat, you may reroll all of your opponent's dice and
any number of your own; then return this card (docs/rulings.md 14C2-4, 14W-1). The Prophecy of
Kings printing, played at the start of a round, is ``war_funding``.

Offered in the "after roll dice" window of a space combat round (both players have rolled, no
hit is assigned yet: procedures/combat_round.py ``roll_dice``, ``acts_after_roll_dice``;
ti4-space-combat.md step 3) to a holder who is not the Letnev player, as one ``play_card``
decision (facts ``card = "war_funding_omega"``, ``round``, ``expected_gain``) whose options are
the ways that change something: "play war_funding_omega: reroll theirs and my misses", "…:
reroll my misses", "…: reroll theirs", and "pass". "Any number of your own dice" is, as for
War Funding, every die that produced no hit (rerolling a hit can only lose it: 14W-2). Which
of the holder's dice missed is read from the roll kept group by group while the card is held
(``keeps_rolls``, ``BattleState.rolls``). Played, the opponent's whole roll is rolled again and
its hits replace theirs, then the holder's misses are rolled again and their hits are added
(``dice_rolled``, purpose ``"war_funding_omega"``; ``follow_up``); once a battle.

The stock policy plays the option with the largest exact expected change of (hits against the
opponent − hits against the holder) if it is positive, else passes (14W-3). Dice another effect
rerolled this round may be rerolled again (docs/rulings.md 14RR-5): the opponent's whole roll is
rolled afresh, without their own rerolls (made right after they rolled), and the holder's misses
left after their own rerolls are rolled again; with the Crown of Thalnos, the misses of the
holder's units it left (14RR-8; with the law, units of several dice rolled one by one: 27U-4);
the hits of the holder's dice that must go to non-fighter ships (the L1Z1X flagship), rerolled
or not, are restricted (14RR-13), and so are the opponent's rerolled (27T-8); the holder's dice
with extra hits (the Jol-Nar flagship) are kept die by die, and those that produced no hit are
rerolled (27T-8), with the Crown of Thalnos relic too (27U-2), and with the law, each die's
reroll by the Crown kept apart, which tells whether the unit is lost (27V-1). The holder's roll
raised by trade goods (the Hacan flagship) is made whole, the trade goods spent seeing it, and
its misses left are rerolled, raised by the trade goods left (27U-3); the opponent's dice that
trade goods raise are rolled again with the trade goods left (27T-9). Other dice that count
natural faces are refused by name (``RuleNotImplemented``) when the card is offered for them."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace
from fractions import Fraction
from functools import lru_cache
from typing import TYPE_CHECKING

from spacecombat.core.dice import SIDES as FACES
from spacecombat.core.engine import Chance, Node, Step
from spacecombat.core.errors import RuleNotImplemented
from spacecombat.core.events import event
from spacecombat.core.pool import DiceGroup, DicePool, Tally
from spacecombat.rulesets.ti4.abilities.base import (
    Acts,
    Card,
    discarded,
    offer_plays,
    overrides,
    register,
)
from spacecombat.rulesets.ti4.effects import aimed_pool, aiming, combat_pool, restricted_hits
from spacecombat.rulesets.ti4.hooks import FollowUp, Window
from spacecombat.rulesets.ti4.sides import SIDES, Side
from spacecombat.rulesets.ti4.state import Phase

if TYPE_CHECKING:
    from spacecombat.rulesets.ti4.setup import BattleSetup
    from spacecombat.rulesets.ti4.state import BattleState, RolledHits

LETNEV = "letnev"
NAME = "War Funding Ω"
#: the ``following`` details of the rerolls still to make (procedures/windows.py)
THEIRS = "theirs"
MINE = "mine"
_NO_ROLLS: tuple[RolledHits, RolledHits] = ((), ())
_ATTACKER = Side.ATTACKER
CARD = "war_funding_omega"
#: the card's ``used`` mark once played and cancelled (``Card.held``)
_DISCARDED = discarded(CARD)
#: the options' labels ("play war_funding_omega: LABEL"), in the order offered on equal gains
LABELS = {
    (THEIRS, MINE): "reroll theirs and my misses",
    (MINE,): "reroll my misses",
    (THEIRS,): "reroll theirs",
}


#: whether the expected hits of a pool of plain groups, and whether it can produce one number
#: of hits only, are read from its groups' chances to hit (docs/architecture.md 24AK-2); off:
#: from its whole distribution, the old way (tests/ti4/test_war_funding_omega_plain_gains.py)
BY_GROUPS = True


def _plain(pool: DicePool) -> bool:
    """Whether every group of ``pool`` rolls plain dice: each die one hit or none, at its
    group's chance (``DiceGroup.plain``; its hits are binomial, core/pool.py ``_hits_of``)."""
    for group in pool.groups:
        if group.extra_hits or group.reroll is not None or group.budget:
            return False
    return True


@lru_cache(maxsize=4096)
def _expected(pool: DicePool) -> Fraction:
    """The exact expected number of hits of ``pool`` (remembered by pool: the exact engine asks
    about the same few pools at each outcome of the rolls). Of plain dice: the sum of each
    die's chance to hit (the expectation of a sum is the sum of the expectations: the same
    fraction as summed over the distribution, 24AK-2)."""
    if BY_GROUPS and _plain(pool):
        hitting = 0  # (the faces that hit, over all dice)
        for group in pool.groups:
            hitting += group.dice * (FACES + 1 - group.hit_on)
        return Fraction(hitting, FACES)
    return sum((hits * chance for hits, chance in pool.distribution().items()), Fraction(0))


@lru_cache(maxsize=4096)
def _certain(pool: DicePool, hits: int) -> bool:
    """Whether ``pool`` can only produce ``hits`` (rolling it again changes nothing). Of plain
    dice: where each die hits always or never, and those that always hit are ``hits`` (24AK-2)."""
    if BY_GROUPS and _plain(pool):
        sure = 0
        for group in pool.groups:
            hit_on = group.hit_on
            if group.dice and 1 < hit_on <= FACES:
                return False  # a die that may hit or miss
            if hit_on == 1:
                sure += group.dice
        return sure == hits
    return dict(pool.distribution()) == {hits: Fraction(1)}


def _refused(group: DiceGroup, whose: str, round_number: int, own: bool) -> None:
    """Refuse by name a group whose dice cannot be rolled again exactly."""
    reason = ""
    # the holder's dice whose hits must go to non-fighter ships count them as marks (14RR-13)
    restricted = own and (group.aimed or group.mark_on == group.hit_on)
    if group.mark_on is not None and not restricted:
        reason = "dice that also count their natural faces"
    if reason:
        raise RuleNotImplemented(
            f"{NAME} rerolling {reason} ({group.unit})",
            f"{whose}'s {group.unit} dice in round {round_number}",
        )


def _their_pool(setup: BattleSetup, state: BattleState, opponent: Side) -> DicePool:
    """The opponent's whole combat roll, to be rolled again: the pool they just rolled (their
    units and the effects acting on their roll are as they were when they rolled)."""
    pool = combat_pool(setup, state, opponent)
    for group in pool.groups:
        if group.reroll is not None:
            break
    else:
        return pool  # (no group rerolls: a loop, not a generator resumed at each group, 24AK-3)
    # their own rerolls were made right after they rolled (Munitions Reserves, the Crown of
    # Thalnos, whose units were lost then): this roll is final (docs/rulings.md 14RR-5)
    return DicePool.of(
        [replace(g, reroll=None, before=(), doom=0, doom_strict=False) for g in pool.groups]
    )


def _their_aimed(
    setup: BattleSetup, state: BattleState, opponent: Side, pool: DicePool
) -> tuple[DicePool, tuple[str, ...]]:
    """``pool`` (the opponent's roll made again) counting as marks the hits that must go to
    non-fighter ships if able (the L1Z1X flagship's), and the handlers that say so; the pool
    itself and none when no hit must (docs/rulings.md 27T-8)."""
    aimed = aimed_pool(setup, state, opponent, pool)
    return aimed if aimed is not None else (pool, ())


#: the holder's misses (``_my_misses``) remembered per setup by the roll kept group by group
#: and the trade goods it may spend on them (docs/architecture.md 24W-4); off: made afresh at
#: each call, the old way (tests/ti4/test_war_funding_misses_remembered.py)
REMEMBER = True
_MISSES = "war_funding_omega.misses"


def _miss_pool(rolled: RolledHits, budget: int = 0, effect: str = "") -> DicePool:
    """The holder's dice that produced no hit, by group (plain groups: dice − hits; a group
    whose units the Crown of Thalnos destroyed is kept with the dice of those left, whose
    misses these are: docs/rulings.md 14RR-8). The misses of dice whose hits must go to
    non-fighter ships count their hits as marks (14RR-13). ``budget``: the trade goods the
    holder may still spend on them (the Hacan flagship, ``effect``; 27U-3)."""
    groups = []
    for g, hits in rolled:
        if g.extra_hits:
            # rolled die by die (procedures/combat_round.py): a die that produced no hit at all
            # is rerolled, and may produce extra hits again (27T-8)
            again = DiceGroup(
                g.unit,
                g.dice if hits == 0 else 0,
                g.value,
                g.modifier,
                extra_on=g.extra_on,
                extra_hits=g.extra_hits,
            )
            groups.append(again)
            continue
        again = DiceGroup(g.unit, g.dice - hits, g.value, g.modifier)
        if g.aimed or g.mark_on is not None:
            again = replace(again, mark_on=again.hit_on)
        if budget:
            again = replace(again, budget=budget, effect=effect)
        groups.append(again)
    return DicePool.of(groups)


def _my_misses(setup: BattleSetup, state: BattleState, side: Side) -> DicePool:
    """The holder's dice to roll again (``_miss_pool``), raised by the trade goods it
    committed for the round and still has, as its roll was (the Hacan flagship: the same
    budget ``combat_pool`` gives its rolls now; docs/rulings.md 27U-3)."""
    rolled = state.rolled(side)
    budget, effect = 0, ""
    for raised, _ in rolled:
        if raised.budget:
            now = combat_pool(setup, state, side)
            budget, effect = now.budget, next((g.effect for g in now.groups if g.budget), "")
            break
    if not REMEMBER:
        return _miss_pool(rolled, budget, effect)
    # a value of what it reads alone (24W-4)
    return setup.remembered(
        (_MISSES, rolled, budget, effect), lambda: _miss_pool(rolled, budget, effect)
    )


#: the ways offered and their gains (``_offer``) remembered per setup by the two gains, each
#: remembered by what it reads (docs/architecture.md 24X-1); off: worked out afresh at each
#: offer, the old way (tests/ti4/test_war_funding_omega_keyed.py)
REMEMBER_OFFER = True
_OFFER = "war_funding_omega.offer"

#: the ways that change something, the largest expected gain first, whether "pass" comes
#: first (no way gains), and each way's gain by its label (the request's fact)
Offer = tuple[tuple[tuple[str, ...], ...], bool, dict[str, str]]


def _their_gain(their_pool: DicePool, against_me: int) -> Fraction | None:
    """The exact expected change of (hits against the opponent − hits against the holder) if
    the opponent's roll, which gave ``against_me`` hits, is rolled again (``their_pool``);
    ``None`` if that changes nothing (no die, or only those hits possible)."""
    if not their_pool.groups or _certain(their_pool, against_me):
        return None
    return against_me - _expected(their_pool)


def _my_gain(miss_pool: DicePool) -> Fraction | None:
    """The exact expected hits of the holder's misses rolled again (``miss_pool``); ``None`` if
    that changes nothing (no die, or no die that may hit)."""
    if not miss_pool.groups or _certain(miss_pool, 0):
        return None
    return _expected(miss_pool)


def _ratio(gain: Fraction | None) -> tuple[Fraction | None, tuple[int, int] | None]:
    """``gain`` and its integer ratio (lowest terms, so equal gains have equal ratios), by which
    the offer is remembered (24AK-5)."""
    return gain, None if gain is None else gain.as_integer_ratio()


def _offer(theirs: Fraction | None, mine: Fraction | None) -> Offer | None:
    """The ways of playing the card that change something (rolling the opponent's dice again,
    whose gain is ``theirs``; rolling the holder's misses again, ``mine``: ``None`` where that
    changes nothing), in the order offered: the largest exact expected change of (hits against
    the opponent − hits against the holder) first, ties in ``LABELS``' order (14W-3); whether
    "pass" is listed first (the best gains nothing); each way's gain by its label. ``None``
    when no way changes anything."""
    if theirs is None:
        if mine is None:
            return None
        return ((MINE,),), mine.numerator <= 0, {LABELS[(MINE,)]: str(mine)}
    if mine is None:
        return ((THEIRS,),), theirs.numerator <= 0, {LABELS[(THEIRS,)]: str(theirs)}
    # the gains compared as integers over one denominator, ``t / bd`` and ``m / bd`` (the same
    # order as the fractions', each comparison of which is several calls: 24AK-4)
    a, b = theirs.as_integer_ratio()
    c, d = mine.as_integer_ratio()
    t, m = a * d, c * b
    # in ``LABELS``' order
    scaled = {(THEIRS, MINE): t + m, (MINE,): m, (THEIRS,): t}
    gain = {(THEIRS, MINE): Fraction(t + m, b * d), (MINE,): mine, (THEIRS,): theirs}
    # the largest first; stable (also reversed): ties keep ``LABELS``' order
    offered = sorted(scaled, key=scaled.__getitem__, reverse=True)
    facts = {LABELS[w]: str(gain[w]) for w in offered}
    return tuple(offered), scaled[offered[0]] <= 0, facts


def _spent(state: BattleState, who: Side, tally: Tally, by: str) -> Step[BattleState]:
    """``state`` with the trade goods a roll's ``tally`` says ``who`` spent (by ``by``)."""
    if not tally.spent:
        return Step(state)
    spent = event(
        "trade_goods_spent",
        player=who.value,
        trade_goods=tally.spent,
        by=by,
        round=state.round,
    )
    return Step(state.spending(who, trade_goods=tally.spent), (spent,))


@register
class WarFundingOmega(Card):
    id = CARD
    card = CARD
    #: (asked only while held: played, it acts no more, ``_able``)
    acts = Acts(frozenset({Window.AFTER_ROLL_DICE}), held=True)
    #: "pass" changes nothing, and the rerolls follow a "play" only (``follow_up``); the roll
    #: kept group by group serves the play alone: it acts only once played
    #: (``Handler.played_as``)
    played_as = card
    #: on the stalemate check's paths its rerolls are rolls like the others: the favoured
    #: side's dice rolled again all hit (their hits replaced by as many), the other side's
    #: never do, and nothing is spent: no unit, no hit and no die is given or taken away
    #: (docs/rulings.md 24AA-2)
    never_stalls = True
    #: of its holder's roll kept group by group it reads only the misses, as the pool rolled
    #: again (``_my_misses``: each group's dice less its hits, at its combat value, whatever
    #: the unit; the groups that are not plain dice, refused or kept apart, are not merged):
    #: docs/architecture.md 24AD-2, procedures/kept_roll_alike.py
    kept_roll_read_as_misses = True

    def _able(self, setup: BattleSetup, state: BattleState) -> Side | None:
        """The holder, if the card may be played in this battle now."""
        owner = self.owner
        if owner is None or setup.kind != "space":
            return None
        # ``Card.held`` read in place (asked at every state where a roll may be kept: 24AK-3):
        # neither played nor played and cancelled
        used = state.used[0 if owner is _ATTACKER else 1]
        if used and (CARD in used or _DISCARDED in used):
            return None
        if setup.side(owner).faction == LETNEV:
            return None  # a player cannot use their own faction's promissory note
        return owner

    def keeps_rolls(self, setup: BattleSetup, state: BattleState, roller: Side) -> bool:
        # the holder's roll; the opponent's is whole (``_able`` is the holder or ``None``)
        return roller is self.owner and self._able(setup, state) is not None

    def in_window(
        self, setup: BattleSetup, state: BattleState, windows: frozenset[Window]
    ) -> Node[BattleState] | None:
        owner = self._able(setup, state)
        if owner is None:
            return None
        if state.then is not Phase.ASSIGN_HITS:
            return None
        opponent = owner.other
        their_pool, mine = _their_pool(setup, state, opponent), state.rolled(owner)
        # only dice that also count their natural faces may be refused (``_refused``)
        for group in their_pool.groups:
            if group.mark_on is not None:
                _refused(group, opponent.value, state.round, own=False)
        for group, _ in mine:
            if group.mark_on is not None:
                _refused(group, owner.value, state.round, own=True)
        miss_pool = _my_misses(setup, state, owner)
        against_me = state.hits_on(owner)
        if REMEMBER_OFFER:
            # each gain a value of its pool (and the hits against the holder) alone, the
            # offer a value of the two gains alone (24X-1)
            # the offer keyed by the gains' integer ratios, which hash without a call where a
            # fraction's hash is several (24AK-5)
            theirs = setup.remembered(
                (_OFFER, THEIRS, their_pool, against_me),
                lambda: _ratio(_their_gain(their_pool, against_me)),
            )
            mine_ = setup.remembered((_OFFER, MINE, miss_pool), lambda: _ratio(_my_gain(miss_pool)))
            offer = setup.remembered(
                (_OFFER, theirs[1], mine_[1]), lambda: _offer(theirs[0], mine_[0])
            )
        else:
            offer = _offer(_their_gain(their_pool, against_me), _my_gain(miss_pool))
        if offer is None:
            return None
        offered, pass_first, expected_gain = offer

        def play(way: tuple[str, ...]) -> Callable[[BattleState], Step[BattleState]]:
            def act(s: BattleState) -> Step[BattleState]:
                queued = tuple(FollowUp.own(self.id, owner, part) for part in way)
                return Step(s.changed(following=(*s.following, *queued)))

            return act

        return offer_plays(
            owner,
            self.card,
            state,
            f"{NAME}: reroll all of your opponent's dice and any of yours that missed?",
            [(LABELS[way], play(way)) for way in offered],
            pass_first=pass_first,
            facts={"expected_gain": dict(expected_gain)},
        )

    def replaces_hits(self, detail: str) -> bool:
        """The reroll of the opponent's whole roll: its hits replace theirs against the holder
        (``theirs``, ``their_marked``, ``spending`` set them), and its pool reads their units
        alone (``_their_pool``, ``_their_aimed``): 24U-1."""
        return detail == THEIRS

    def queued_alike(self, setup: BattleSetup, state: BattleState) -> BattleState | None:
        """For the exact engine's canonical states (procedures/queued_alike.py, 24X-2), where
        the card's rerolls are the whole queue of the "after roll dice" window:

        - both queued, the opponent's roll first (``(THEIRS, MINE)``), neither with a hit that
          must go to non-fighter ships, the holder's with no trade goods to spend: the
          holder's misses first, and the hits against the holder 0. The two rerolls commute:
          the reroll of the opponent's dice reads their units and trade goods (``_their_pool``:
          ``combat_pool`` and the handlers changing it, by their ``roll_key``, which read the
          roller's own part, none the hits) and sets the hits against the holder whatever they
          were, spending the opponent's trade goods (``theirs``, ``spending``: 27T-9); the
          reroll of the holder's misses reads its roll kept group by group (``_my_misses``:
          its trade goods are read only for a roll raised by them, refused here) and adds to
          the hits against the opponent (``mine``). Neither reads what the other changes, so
          the state after both is the same in either order, with the same chances; and
          nothing reads the hits against the holder before the second replaces them
          (``replaces_hits``, 24U-1). The holder's reroll is then one chance state for each
          of its rolls, whatever the opponent rolled, and the opponent's one for each number
          of hits against them after it.
        - the opponent's reroll alone left (``(THEIRS,)``), with the holder's roll still kept:
          nothing reads that roll any more (the card played keeps none; the Assign Hits step
          clears it), so it is forgotten, as ``dead_rolls`` does once nothing is queued.

        ``None`` elsewhere."""
        owner = self.owner
        if owner is None or state.then is not Phase.ASSIGN_HITS:
            return None
        # (the details queued read in place, without a tuple made of them: 24AK-3)
        following = state.following
        if len(following) == 1 and following[0].detail == THEIRS:
            if state.rolls == _NO_ROLLS:
                return None
            for keeper in setup.answering("keeps_rolls"):
                for side in SIDES:
                    if keeper.keeps_rolls(setup, state, side):
                        return None
            return state.changed(rolls=_NO_ROLLS)
        if len(following) != 2 or following[0].detail != THEIRS or following[1].detail != MINE:
            return None
        opponent = owner.other
        theirs = _their_aimed(setup, state, opponent, _their_pool(setup, state, opponent))[0]
        mine = _my_misses(setup, state, owner)
        if theirs.marks or mine.tallied or mine.marks:
            return None
        first, second = state.following
        return state.changed(following=(second, first)).with_hits_on(owner, 0)

    def follow_up(
        self, setup: BattleSetup, state: BattleState, side: Side, detail: str, where: int | None
    ) -> Node[BattleState] | None:
        opponent = side.other
        if detail == THEIRS:
            pool, aimers = _their_aimed(setup, state, opponent, _their_pool(setup, state, opponent))

            def theirs(hits: int) -> Step[BattleState]:
                return Step(state.with_hits_on(side, hits))

            if pool.tallied and not pool.marks:
                # their trade goods (the Hacan flagship) raise the dice rolled again too: those
                # spent on the first roll stay spent (docs/rulings.md 27T-9)
                by = next(g.effect for g in pool.groups if g.budget)

                def spending(tally: Tally) -> Step[BattleState]:
                    return _spent(state.with_hits_on(side, tally.hits), opponent, tally, by)

                return Chance(
                    opponent.value,
                    self.id,
                    pool,
                    theirs,
                    then_tally=spending,
                )
            if not pool.marks:
                return Chance(opponent.value, self.id, pool, theirs)

            def their_marked(hits: int, marks: int) -> Step[BattleState]:
                # the hits of the dice rerolled replace theirs, and so do the restricted ones
                s = aiming(state.with_hits_on(side, hits), side, marks)
                if not marks:
                    return Step(s)
                told = event(
                    "hits_restricted",
                    player=side.value,
                    hits=marks,
                    targets="non-fighter ships",
                    by=list(aimers),
                    round=state.round,
                )
                return Step(s, (told,))

            return Chance(opponent.value, self.id, pool, theirs, then_marked=their_marked)
        pool = _my_misses(setup, state, side)
        before = state.hits_on(opponent)

        def mine(hits: int) -> Step[BattleState]:
            return Step(state.with_hits_on(opponent, before + hits))

        if pool.tallied:
            # the trade goods left raise the dice rolled again (27U-3)
            mine_by = next(g.effect for g in pool.groups if g.budget)

            def my_spending(tally: Tally) -> Step[BattleState]:
                raised = state.with_hits_on(opponent, before + tally.hits)
                return _spent(raised, side, tally, mine_by)

            return Chance(side.value, self.id, pool, mine, then_tally=my_spending)
        if not pool.marks:
            return Chance(side.value, self.id, pool, mine)
        restricted = restricted_hits(state, opponent)

        def marked(hits: int, marks: int) -> Step[BattleState]:
            # the rerolled hits of those dice are restricted too (14RR-13)
            s = aiming(state.with_hits_on(opponent, before + hits), opponent, restricted + marks)
            if not marks:
                return Step(s)
            told = event(
                "hits_restricted",
                player=opponent.value,
                hits=marks,
                targets="non-fighter ships",
                by=[
                    h.id
                    for h in setup.handlers
                    if h.owner is side and overrides(h, "aims_combat_hits")
                ],
                round=state.round,
            )
            return Step(s, (told,))

        return Chance(side.value, self.id, pool, mine, then_marked=marked)
