"""Minister of War, a pre-combat step of the space battle (TI3 political card, a law electing a
player; data/political_cards.toml; docs/rulings.md 27Z-6, 27M-1, 27M-2).

PC_Twi (``p_MinisterofWar.cpp``): "Elected player may spend 1 SACC [a command counter of the
strategy allocation] to inflict 1 damage to enemy fleet before any Space battle he participates
begins"; the "twilight cheat sheet 2.0" lists it among the effects before combat, which the
defender orders (ti3-combat.md, SPACE BATTLES: "the defender chooses in what order each
applicable pre-combat ability is played").

1. The elected player spends a command counter of its strategy allocation, or passes (a
   ``play_card`` decision with the card ``minister_of_war``; the stock player spends: 27A-5,
   the first chance). It has one unless ``options.minister_of_war_has_counter`` is off (27M-2;
   then the step is never offered: setup.py ``_pre_combat``).
2. Spent: the enemy fleet takes 1 hit, assigned by its owner as a casualty on its ships
   (SUSTAIN DAMAGE may take it), no die rolled; then the defender chooses the next step.
"""

from __future__ import annotations

from spacecombat.core.decisions import DecisionRequest, Option
from spacecombat.core.engine import Decision, Node, Step
from spacecombat.core.sides import Side
from spacecombat.rulesets.ti3.cards.common import card_played
from spacecombat.rulesets.ti3.procedures.common import Targets, remove_casualties
from spacecombat.rulesets.ti3.setup import Ti3Setup
from spacecombat.rulesets.ti3.state import Phase, Ti3State

#: the pre-combat step's name (``policy.pre_combat_order``) and the name the elected player's
#: ``policy.play`` gives its decision (``never``: it keeps its command counter)
STEP = "minister_of_war"

#: ``step`` of the state while the enemy fleet takes the hit
HIT = "minister_of_war:hit"


def elected(setup: Ti3Setup) -> Side:
    """The player the law elects (its handler's owner: laws.py ``law_handlers``)."""
    owner = next(h.owner for h in setup.handlers if h.id == STEP)
    assert owner is not None
    return owner


def spend(setup: Ti3Setup, state: Ti3State) -> Node[Ti3State]:
    """Step 1: the elected player spends a command counter of its strategy allocation for 1 hit
    on the enemy fleet, or passes."""
    side = elected(setup)
    request = DecisionRequest(
        "play_card",
        side.value,
        "Minister of War: spend a command counter of your strategy allocation to inflict 1 hit "
        "on the enemy fleet?",
        (Option(f"play {STEP}", "play", target=STEP), Option("pass", "pass")),
        facts={"card": STEP, "round": state.round},
    )

    def then(option: Option) -> Step[Ti3State]:
        if option.action != "play":
            return Step(_done(state))
        enemy = side.other
        hit = state.with_hits_on(enemy, state.hits_on(enemy) + 1).changed(step=HIT)
        return Step(hit, (card_played(side, STEP, state.round),))

    return Decision(request, then)


def hit(setup: Ti3Setup, state: Ti3State) -> Node[Ti3State]:
    """Step 2: the enemy fleet's owner takes the hit on one of its ships (ti3-combat.md, Remove
    casualties: SUSTAIN DAMAGE may take it)."""
    return remove_casualties(
        setup, state, elected(setup).other, None, Targets.SHIPS, "Minister of War", _done
    )


def _done(state: Ti3State) -> Ti3State:
    """Back to the defender's choice of the next pre-combat step."""
    return state.at(Phase.PRE_COMBAT, step="", turn=Side.ATTACKER)
