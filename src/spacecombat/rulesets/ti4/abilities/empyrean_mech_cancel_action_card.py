"""Watcher (Empyrean mech): another player's action card may be cancelled by removing this mech
from a system that contains or is adjacent to that player's units (ti4-combat-effects.md,
mechs; data/units.toml).

In a battle it can only act on an action card the opponent plays. Cancelling one needs a
question right after the card is played, before its effect, and a card's play leads to one
step of the rules (docs/rulings.md 14B3-8), so that is not implemented. Rather than refuse
every Empyrean battle with a mech, the engine refuses only a battle where the mech could act:
the opponent holds an action card (a ``RuleNotImplemented`` naming it, at set-up: the
``refusal`` hook). Without action cards in the opponent's hand the Watcher is only a
mech with SUSTAIN DAMAGE."""

from __future__ import annotations

from typing import TYPE_CHECKING

from spacecombat.core.errors import RuleNotImplemented
from spacecombat.rulesets.ti4.abilities.base import Handler, register
from spacecombat.rulesets.ti4.rules import load

if TYPE_CHECKING:
    from spacecombat.rulesets.ti4.setup import BattleSetup


@register
class EmpyreanMechCancelActionCard(Handler):
    id = "empyrean_mech_cancel_action_card"

    def refusal(self, setup: BattleSetup) -> RuleNotImplemented | None:
        """The refusal when the opponent holds an action card the mech could cancel."""
        owner = self.owner
        if owner is None:
            return None
        cards = load().cards
        held = [c for c in setup.side(owner.other).held if cards[c].kind == "action_card"]
        if not held:
            return None
        return RuleNotImplemented(
            f"the Empyrean mech (Watcher) cancelling an action card ({', '.join(held)})",
            f"{owner.value}.units.mech",
        )
