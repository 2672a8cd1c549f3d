"""TI3 action cards a battle plays (issue 27): the ``handler`` ids of data/action_cards.toml
that are implemented, each by the module of that name here, which the procedures call in the
card's window. Playing a card is a ``play_card`` decision of its holder, as TI4's are."""

from __future__ import annotations

#: the cards implemented, by handler id, with the window the procedures ask in
CARDS: dict[str, str] = {
    "chemical_warfare": "immediately before an invasion combat (procedures/invasion.py)",
    "direct_hit": "after an opponent's ship is damaged in a space battle (procedures/common.py)",
    "direct_hit_se": "after an opponent's dreadnought or war sun is damaged in a space battle "
    "(procedures/common.py)",
    "into_the_breach": "immediately before a space battle (procedures/space_battle.py)",
    "fighter_prototype": "immediately before a space battle (procedures/space_battle.py)",
    "beacon_of_hope": "immediately before a space battle (procedures/space_battle.py)",
    "dug_in": "immediately before bombardment (procedures/invasion.py)",
    "recheck": "after a combat roll of a round (procedures/exchange.py)",
    "touch_of_genius": "the window of the card of the discard pile it copies (cards/"
    "touch_of_genius.py)",
    "star_of_death": "immediately before the planetary landing, as a planet's invasion begins "
    "(procedures/invasion.py)",
    "experimental_battlestation": "as PDS fire begins (procedures/space_battle.py)",
    "flanking_tactic": "immediately before a space battle (procedures/space_battle.py)",
    "friendly_fire": "immediately before a space battle (procedures/space_battle.py)",
    "emergency_repairs": "at the start of a combat round of a space battle "
    "(procedures/round_start.py)",
    "experimental_weaponry": "at the start of a combat round of a space battle "
    "(procedures/round_start.py)",
    "minelayers": "as PDS fire begins, before it (procedures/space_battle.py)",
    "faulty_targeting_systems": "after Minelayers is played (procedures/space_battle.py), or "
    "after an opponent's PDS fire roll, before a space battle or at a landing "
    "(procedures/exchange.py)",
    "rule_of_terror": "immediately before a space battle (procedures/space_battle.py)",
    "target_their_flagship": "immediately before a space battle (procedures/space_battle.py)",
    "communications_breakdown": "immediately before a space battle, the first card asked "
    "(procedures/space_battle.py)",
    "courageous_to_the_end": "after one of your ships is destroyed as a casualty "
    "(procedures/common.py)",
    "morale_boost": "at the start of a combat round (procedures/round_start.py)",
    "skilled_retreat": "at the start of a combat round of a space battle "
    "(procedures/round_start.py)",
    "shields_holding": "after the opponent's combat dice of a space battle round, before your "
    "casualties (procedures/exchange.py)",
    "overrun": "before an invasion combat (procedures/invasion.py)",
    "geomagnetic_mines": "before an invasion combat (procedures/invasion.py)",
}

#: cards played during the combat rounds: a battle where one is held is solved state by state
#: (the product form plays the rounds without decisions across the players)
IN_ROUNDS = frozenset(
    {
        "recheck",
        "direct_hit",
        "direct_hit_se",
        "into_the_breach",
        "fighter_prototype",
        "morale_boost",
        "skilled_retreat",
        "emergency_repairs",
        "experimental_weaponry",
        # one ship of the holder does not roll in round 1
        "target_their_flagship",
        # it stops the cards played in the rounds
        "communications_breakdown",
        "courageous_to_the_end",
        "beacon_of_hope",
        "shields_holding",
        # it forbids the opponent's withdrawals and retreats in the rounds
        "flanking_tactic",
    }
)
