"""Touch of Genius (TI3 base action card; data/action_cards.toml; docs/rulings.md 27S-36):
"Spend three influence to duplicate the effects of any other Action Card in the discard pile.
Play: At the time specified by the card being duplicated" (the TI3 base deck data file, 27S-17).

The scenario names the discard pile (``discard_pile``) and what the holder may spend
(``influence``). A side holding the card with 3 influence or more may play, in its window, any
card of the discard pile that acts in a battle, as if it held it (``Ti3State.hand`` lists the
copies while Touch of Genius is held; ``Ti3State.played`` gives up Touch of Genius for a copy).
One card: once it is played as one copy, the others are gone. The holder's own copy of a card
is played before Touch of Genius's. The decision is the copied card's own (``play_card`` with
its ``card``, which ``policy.play`` names), its stock answer the copied card's. No module of its
own acts: this one holds what the set-up and the state read."""

from __future__ import annotations

#: the influence the card spends
INFLUENCE = 3
