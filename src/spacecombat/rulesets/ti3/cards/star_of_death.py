"""Star of Death (TI3 base action card; data/action_cards.toml; docs/rulings.md 27S-34):
"Choose a planet in a system containing one of your War Suns. Destroy all Ground Forces, PDS
units, and Space Docks on that planet, then place a radiation Domain Counter on the planet. The
planet reverts to neutral status. Play: Immediately before the Planetary Landing segment of the
tactical action sequence" (the TI3 base deck data file, 27S-17). The radiation counter (a
Clojure TI3 program's action deck, ``glory-reframe.ac``, code index id 27645784455): "The
planet contains unexpected high levels of radiation. Kill all Ground Forces that initially land
here, then remove this counter from the planet."

The attacker, with a war sun in the system's space area, is asked on each planet as its
invasion begins (before bombardment and Dug In: the landing segment opens with bombardment),
while it holds the card. Played: the defender's ground forces and shock troops (ground forces
for every ability, ti3-facts.md 8), PDS and space docks on the planet are destroyed; its
Mechanized Units are not (immune to every effect that names ground forces, 27R-15). Then the
attacker's ground forces and shock troops landing there are killed by the radiation; its
Mechanized Units land. If the defender has no ground unit left there, the planet is neutral
(``Ti3State.neutral``: the outcome's ``controller`` says ``neutral`` unless the attacker takes
it); else its Mechanized Units still hold it and fight as usual. The stock player plays it
only where it gains (27S-23): the attacker lands a Mechanized Unit there and the defender has
a ground force, shock troop, PDS or space dock there; ``policy.play`` with a round plays it
always, ``never`` keeps it."""

from __future__ import annotations

from spacecombat.core.decisions import DecisionRequest, Option
from spacecombat.core.engine import Decision, Node, Step
from spacecombat.core.forces import Forces, Status
from spacecombat.core.hits import destroyed
from spacecombat.core.sides import Side
from spacecombat.rulesets.ti3.abilities.base import GROUND_FORCES
from spacecombat.rulesets.ti3.cards.common import card_played, ordered, play_first
from spacecombat.rulesets.ti3.setup import Ti3Setup
from spacecombat.rulesets.ti3.state import Phase, Ti3State

CARD = "star_of_death"

A, D = Side.ATTACKER, Side.DEFENDER

#: ``step`` of the bombardment once the attacker was asked on this planet
ASKED = "star_of_death_asked"

#: the cause the events name
CAUSE = "Star of Death"
RADIATION = "Star of Death (radiation)"


def applies(setup: Ti3Setup, state: Ti3State) -> bool:
    """Whether the attacker may play it now: a planet's invasion begins (bombardment, nothing
    asked or rolled yet), it holds the card and has a war sun in space."""
    return (
        state.phase is Phase.BOMBARDMENT
        and state.step == ""
        and state.turn is A
        and not state.pending
        and CARD in state.playable(A)
        and bool(state.attacker.space.count("war_sun"))
    )


def _struck(setup: Ti3Setup, planet: Forces) -> list[tuple[str, Status, int]]:
    """The defender's units the card destroys: ground forces, shock troops, PDS, space docks."""
    return [(u, s, n) for u, s, n in planet if u in GROUND_FORCES or setup.side(D).is_structure(u)]


def _gains(setup: Ti3Setup, state: Ti3State) -> bool:
    p = state.planet
    lands = state.attacker.planet(p).count("mechanized_unit") > 0
    return lands and bool(_struck(setup, state.defender.planet(p)))


def ask(setup: Ti3Setup, state: Ti3State) -> Node[Ti3State]:
    """The attacker may play Star of Death on the planet about to be invaded."""
    asked = state.changed(step=ASKED)
    name = setup.planets[state.planet]
    request = DecisionRequest(
        "play_card",
        A.value,
        f"play Star of Death on {name}: destroy its ground forces, PDS and space docks (your "
        "landing ground forces die of its radiation)?",
        ordered(
            (Option(f"play {CARD}", "play", target=CARD),),
            play_first(setup, A, CARD, _gains(setup, state)),
        ),
        facts={"card": CARD, "round": state.round},
    )

    def then(option: Option) -> Step[Ti3State]:
        if option.action != "play":
            return Step(asked)
        return _play(setup, asked.played(A, CARD))

    return Decision(request, then)


def _play(setup: Ti3Setup, state: Ti3State) -> Step[Ti3State]:
    p = state.planet
    theirs = state.defender.planet(p)
    struck = _struck(setup, theirs)
    for unit, status, count in struck:
        theirs = theirs.remove(unit, status, count)
    ours = state.attacker.planet(p)
    killed = [(u, s, n) for u, s, n in ours if u in GROUND_FORCES]
    for unit, status, count in killed:
        ours = ours.remove(unit, status, count)
    after = state.with_side(D, state.defender.with_planet(p, theirs)).with_side(
        A, state.attacker.with_planet(p, ours)
    )
    if not theirs.total(setup.side(D).is_ground_force):
        after = after.changed(neutral=(*after.neutral, p))
    said = (
        card_played(A, CARD, state.round),
        *destroyed(D, struck, CAUSE),
        *destroyed(A, killed, RADIATION),
    )
    return Step(after, said)
