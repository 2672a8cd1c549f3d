"""Greyfire Mutagen (Yin Brotherhood promissory note): after a system is activated, the Yin
Brotherhood cannot use faction abilities or faction technologies during this tactical action
(ti4-combat-effects.md §5; data/cards.toml).

The note is played when the system is activated, before anything of the battle happens, and a
player has it only to play it against the Yin: a side that lists it in ``promissory_notes``
has played it (docs/rulings.md, "Greyfire Mutagen"). So it acts at set-up (``set_up_side``):
against a Yin opponent, the Yin's faction abilities (Devotion, Indoctrination)
and faction technologies (Impulse Core ...) are not in play; against anyone else it does
nothing."""

from __future__ import annotations

from dataclasses import replace
from typing import TYPE_CHECKING

from spacecombat.rulesets.ti4.abilities.base import Handler, register

if TYPE_CHECKING:
    from spacecombat.rulesets.ti4.setup import SideDraft
    from spacecombat.scenario.schema import Scenario

#: the note's id in data/cards.toml, and the faction it works against
CARD = "greyfire_mutagen"
FACTION = "yin"


@register
class GreyfireMutagen(Handler):
    """The note: its whole effect is applied at set-up."""

    id = "greyfire_mutagen"

    def set_up_side(self, scenario: Scenario, draft: SideDraft) -> SideDraft:
        """A Yin opponent's faction abilities and faction technologies out of play (neither
        checked nor in play)."""
        if self.owner is None or draft.side is not self.owner.other or draft.faction != FACTION:
            return draft
        return replace(draft, faction_muted=True)
