"""The Naalu Collective's retreat before the space battle (racial ability; data/factions.toml;
docs/rulings.md 27S-16): "if attacked, a Naalu fleet may retreat before the beginning of the
Space Battle step ... following the normal retreat rules" (docstoc 'Twilight Imperium 3rd
Edition Racial Abilities').

A Naalu defender is asked after PDS fire, before the space battle begins (no pre-combat step,
no card of its start): the ``announce_retreat`` decision of the rounds, with ``round`` 0, so the
stock player's retreat settings decide it (``retreat_after_round: 0`` retreats here;
``retreat_when_outnumbered`` compares the dice of the first round). Retreating, the whole fleet
moves to a retreat destination (the player's ``retreat_destination`` decision, as after a
round; ``why_not_destination``): no battle is fought, the attacker holds the system."""

from __future__ import annotations

from spacecombat.core.decisions import DecisionRequest, Option
from spacecombat.core.engine import Decision, Node, Step
from spacecombat.core.events import event
from spacecombat.core.pool import DicePool
from spacecombat.core.sides import SIDES, Side
from spacecombat.core.state import ships
from spacecombat.rulesets.ti3.abilities.races import NaaluPreCombatRetreat
from spacecombat.rulesets.ti3.procedures.common import retreat_destination
from spacecombat.rulesets.ti3.setup import Ti3Setup, why_not_destination
from spacecombat.rulesets.ti3.state import Phase, Ti3State

D = Side.DEFENDER


def _destinations(setup: Ti3Setup) -> list[str]:
    return [s.name for s in setup.adjacent if why_not_destination(D, s) is None]


def applies(setup: Ti3Setup, state: Ti3State) -> bool:
    """A Naalu defender with somewhere to go, while both players have ships."""
    return (
        setup.side(D).has(NaaluPreCombatRetreat.id)
        and bool(_destinations(setup))
        and all(ships(setup, state, s) for s in SIDES)
    )


def ask(
    setup: Ti3Setup,
    state: Ti3State,
    dice: dict[Side, DicePool | None],
    stay: Ti3State,
) -> Node[Ti3State]:
    """The Naalu defender may retreat now; ``stay``: the state if it does not; ``dice``: each
    player's round dice (what the stock policy's outnumbered test reads)."""
    own, enemy = dice[D], dice[Side.ATTACKER]
    request = DecisionRequest(
        decision="announce_retreat",
        player=D.value,
        prompt="the Naalu Collective: retreat before the space battle?",
        options=(Option("retreat", "retreat"), Option("stay", "stay")),
        facts={
            "round": 0,
            "own_dice": own.dice if own is not None else 0,
            "enemy_dice": enemy.dice if enemy is not None else 0,
        },
    )

    def then(option: Option) -> Step[Ti3State]:
        if option.action != "retreat":
            return Step(stay)
        retreating = state.changed(step=RETREATING)
        return Step(retreating, (event("retreat_announced", player=D.value),))

    return Decision(request, then)


#: ``step`` of the state once the Naalu announced its retreat (its destination next)
RETREATING = "naalu_retreat"


def destination(setup: Ti3Setup, state: Ti3State) -> Node[Ti3State]:
    """Where the Naalu fleet goes; then the battle is over before it began."""
    return retreat_destination(
        state, D, _destinations(setup), Phase.END_OF_SPACE_BATTLE, step="", round=0
    )
