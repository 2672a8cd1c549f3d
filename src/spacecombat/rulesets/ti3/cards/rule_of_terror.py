"""Rule of Terror (TI3 base action card; data/action_cards.toml; docs/rulings.md 27S-27): "If
you have a War Sun or 2 Dreadnoughts present, then your opponent must either immediately
retreat (if able) or immediately take 2 casualties. Play: Immediately before a Space Battle in
which you are participating" (the TI3 base deck data file, 27S-17).

Played in the space battle's opening window (procedures/space_battle.py ``_OPENING``, the
attacker asked first; 27S-2), offered when the holder has a war sun or two dreadnoughts in the
space area. The opponent then chooses: retreat, if able (a withdrawal or retreat destination,
``why_not_destination``, and no Flanking Tactic against it), asked as the rounds'
``announce_withdrawal``/``announce_retreat`` decision with ``round`` 0 and each player's round
dice (so the stock player's retreat settings answer it, as the Naalu's retreat before the
battle: 27S-16), its whole fleet then moving to the destination it chooses and no battle
fought; or take 2 casualties on its ships at once (``state.step`` ``HITS``, which the opening
window's procedure serves). The stock holder plays it at the first chance (27A-5)."""

from __future__ import annotations

from spacecombat.core.decisions import DecisionRequest, Option
from spacecombat.core.engine import Decision, Node, Step
from spacecombat.core.events import event
from spacecombat.core.sides import Side
from spacecombat.core.state import ships
from spacecombat.rulesets.ti3.cards import flanking_tactic
from spacecombat.rulesets.ti3.cards.common import offer
from spacecombat.rulesets.ti3.procedures.common import combat_pool, retreat_destination
from spacecombat.rulesets.ti3.setup import Ti3Setup, why_not_destination
from spacecombat.rulesets.ti3.state import Phase, Ti3State

CARD = "rule_of_terror"

#: the casualties the opponent takes if it does not retreat
CASUALTIES = 2

#: ``step`` prefixes: the opponent of the named side (``attacker``/``defender``) is to answer
#: the card, to choose its destination, or is taking its hits; the window's step follows
ANSWER = "terror:"
LEAVING = "terror_leaving:"
HITS = "terror_hits:"


def _marked(prefix: str, holder: Side, window_step: str) -> str:
    return f"{prefix}{holder.value}:{window_step}"


def parse(step: str, prefix: str) -> tuple[Side, str]:
    """The holder and the window's step of a ``step`` with ``prefix``."""
    holder, _, window_step = step[len(prefix) :].partition(":")
    return Side(holder), window_step


def applies(setup: Ti3Setup, state: Ti3State, side: Side) -> bool:
    """``side`` holds the card in a space battle, has a war sun or two dreadnoughts there, and
    faces the opponent's ships."""
    space = state.side(side).space
    return (
        setup.kind == "space"
        and CARD in state.hand(side)
        and (space.count("war_sun") >= 1 or space.count("dreadnought") >= 2)
        and bool(ships(setup, state, side.other))
    )


def ask(setup: Ti3Setup, state: Ti3State, side: Side, passed: Ti3State) -> Node[Ti3State]:
    """``side`` may play the card: its opponent answers next."""

    def play(after: Ti3State) -> Step[Ti3State]:
        return Step(after.changed(step=_marked(ANSWER, side, passed.step)))

    return offer(
        side,
        CARD,
        state,
        "play Rule of Terror: your opponent retreats or takes 2 casualties?",
        play,
        passed,
    )


def destinations(setup: Ti3Setup, state: Ti3State, side: Side) -> list[str]:
    """Where ``side`` may retreat to now (none if Flanking Tactic forbids it)."""
    if flanking_tactic.flanked(state, side):
        return []
    return [s.name for s in setup.adjacent if why_not_destination(side, s) is None]


def answer(setup: Ti3Setup, state: Ti3State) -> Node[Ti3State]:
    """The opponent of the card's holder retreats, if able and it chooses to, or takes the
    casualties (the hits are then marked for the opening window's procedure)."""
    holder, window_step = parse(state.step, ANSWER)
    victim = holder.other
    hit = state.with_hits_on(victim, state.hits_on(victim) + CASUALTIES).changed(
        step=_marked(HITS, holder, window_step)
    )
    if not destinations(setup, state, victim):
        return Step(hit)
    own, enemy = combat_pool(setup, state, victim), combat_pool(setup, state, holder)
    verb = "withdraw" if victim is Side.ATTACKER else "retreat"
    request = DecisionRequest(
        decision=f"announce_{'withdrawal' if victim is Side.ATTACKER else 'retreat'}",
        player=victim.value,
        prompt=f"Rule of Terror: {verb} now, or take {CASUALTIES} casualties?",
        options=(Option(verb, verb), Option("stay", "stay")),
        facts={
            "round": 0,
            "own_dice": own.dice if own is not None else 0,
            "enemy_dice": enemy.dice if enemy is not None else 0,
        },
    )

    def then(option: Option) -> Step[Ti3State]:
        if option.action == "stay":
            return Step(hit)
        leaving = state.changed(step=_marked(LEAVING, holder, window_step))
        name = "withdrawal_announced" if victim is Side.ATTACKER else "retreat_announced"
        return Step(leaving, (event(name, player=victim.value),))

    return Decision(request, then)


def destination(setup: Ti3Setup, state: Ti3State) -> Node[Ti3State]:
    """Where the retreating fleet goes; then the battle is over before it began."""
    holder, _ = parse(state.step, LEAVING)
    victim = holder.other
    return retreat_destination(
        state,
        victim,
        destinations(setup, state, victim),
        Phase.END_OF_SPACE_BATTLE,
        step="",
        round=0,
    )
