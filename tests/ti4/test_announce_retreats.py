"""Space combat Step 2, Announce Retreats (ti4-space-combat.md step 2): the defender announces
first; once it has, the attacker cannot; a player announces only if an eligible system exists;
the retreat itself waits for Step 5. Also the stock retreat policies (scenario ``policy:
{retreat: ...}``): never, after N rounds, when outnumbered."""

from __future__ import annotations

from typing import Any

import pytest

from spacecombat.core.engine import Played
from spacecombat.rulesets.ti4.state import BattleState
from tests.helpers import events, run, space

#: each player has a system of its own next door to retreat to
NEIGHBOURS = {
    "adjacent": [
        {"name": "home", "units": ["attacker"]},
        {"name": "haven", "units": ["defender"]},
    ]
}


def announce_choices(played: Played[BattleState], player: str | None = None) -> list[object]:
    """(player, choice) of every announce_retreat decision, in order (or the choices of one
    player)."""
    asked = events(played, "choice_made", decision="announce_retreat")
    if player is None:
        return [(e["player"], e["choice"]) for e in asked]
    return [e["choice"] for e in asked if e["player"] == player]


def retreating(rounds: int) -> dict[str, Any]:
    """An attacker that announces a retreat once ``rounds`` rounds have been fought."""
    return {"units": "1 cruiser", "policy": {"retreat": {"after_round": rounds}}}


def test_the_defender_announces_first() -> None:
    # ti4-space-combat.md step 2: "beginning with the defender".
    # Faces: cruiser 7 (hit), cruiser 1: the combat ends in round 1.
    played = run(
        space({"units": "1 cruiser"}, {"units": "1 cruiser"}, system=NEIGHBOURS),
        [7, 1],
        attacker=["stay"],
        defender=["stay"],
    )
    assert announce_choices(played) == [("defender", "stay"), ("attacker", "stay")]


def test_the_attacker_is_not_asked_once_the_defender_announced() -> None:
    # ti4-space-combat.md step 2.2. The attacker's policy would announce in round 1.
    # Faces: cruiser 1, cruiser 1 (no hits); then the defender retreats.
    played = run(
        space(retreating(0), {"units": "1 cruiser"}, system=NEIGHBOURS),
        [1, 1],
        defender=["retreat"],
    )
    assert announce_choices(played) == [("defender", "retreat")]


def test_only_the_defender_retreat_is_announced_once_it_announced() -> None:
    # ti4-space-combat.md step 2.2: the attacker "cannot announce a retreat during that round".
    played = run(
        space(retreating(0), {"units": "1 cruiser"}, system=NEIGHBOURS),
        [1, 1],
        defender=["retreat"],
    )
    assert [e["player"] for e in events(played, "retreat_announced")] == ["defender"]


def test_no_announcement_without_an_eligible_system() -> None:
    # ti4-space-combat.md step 2.3. The only neighbour holds the defender's ships, so the
    # attacker (whose policy would retreat) is not asked. Faces: cruiser 7 (hit), cruiser 1.
    blocked = {"adjacent": [{"name": "B", "units": ["attacker"], "ships": ["defender"]}]}
    played = run(space(retreating(0), {"units": "1 cruiser"}, system=blocked), [7, 1])
    assert announce_choices(played, "attacker") == []
    assert events(played, "retreat_announced") == []


def test_an_announced_retreat_waits_for_the_retreat_step() -> None:
    # ti4-space-combat.md step 2.1: the retreating player still rolls dice in that round; its
    # ships leave in Step 5. Faces: cruiser 1, cruiser 1.
    played = run(space(retreating(0), {"units": "1 cruiser"}, system=NEIGHBOURS), [1, 1])
    order = [
        (e["event"], e["player"])
        for e in played.events
        if e["event"] in ("retreat_announced", "dice_rolled", "retreated")
    ]
    assert order == [
        ("retreat_announced", "attacker"),
        ("dice_rolled", "attacker"),
        ("dice_rolled", "defender"),
        ("retreated", "attacker"),
    ]


def test_stock_policy_never_does_not_retreat() -> None:
    # Scenario policy {retreat: never}: "stay" every round. Faces: round 1 cruiser 1,
    # cruiser 1; round 2 cruiser 7 (hit), cruiser 1.
    played = run(
        space(
            {"units": "1 cruiser", "policy": {"retreat": "never"}},
            {"units": "1 cruiser"},
            system=NEIGHBOURS,
        ),
        [1, 1, 7, 1],
    )
    assert announce_choices(played, "attacker") == ["stay", "stay"]


@pytest.mark.parametrize("rounds", [1, 2, 3])
def test_stock_policy_after_round_n_announces_in_round_n(rounds: int) -> None:
    # Scenario policy {retreat: {after_round: N}}: stay in rounds 1..N-1, announce in round N
    # (step 2), so the units leave at the end of round N (step 5), after N rounds.
    # Faces: cruiser 1, cruiser 1 in every round (no hits) until the retreat.
    played = run(
        space(retreating(rounds), {"units": "1 cruiser"}, system=NEIGHBOURS),
        [1, 1] * rounds,
    )
    assert announce_choices(played, "attacker") == ["stay"] * (rounds - 1) + ["retreat"]


def test_stock_policy_after_round_zero_is_the_earliest_retreat() -> None:
    # after_round: 0 is the same as 1: announce in round 1 (faces: cruiser 1, cruiser 1).
    played = run(space(retreating(0), {"units": "1 cruiser"}, system=NEIGHBOURS), [1, 1])
    assert announce_choices(played, "attacker") == ["retreat"]


def test_stock_policy_when_outnumbered_announces_once_the_ratio_is_reached() -> None:
    # Scenario policy {retreat: {when_outnumbered: 2}}: round 1, 2 dice against 2: stay; the
    # attacker loses a cruiser; round 2, 2 enemy dice against 1: retreat.
    # Faces: round 1 cruisers 1, 1; cruisers 7 (hit), 1. Round 2 cruiser 1; cruisers 1, 1.
    played = run(
        space(
            {"units": "2 cruiser", "policy": {"retreat": {"when_outnumbered": 2}}},
            {"units": "2 cruiser"},
            system=NEIGHBOURS,
        ),
        [1, 1, 7, 1, 1, 1, 1],
    )
    assert announce_choices(played, "attacker") == ["stay", "retreat"]


@pytest.mark.parametrize(
    ("ratio", "faces", "choice"),
    [
        (3, [1, 1, 1, 1], "retreat"),  # no hits, then the attacker retreats
        (3.5, [1, 3, 1, 1], "stay"),  # the war sun's 3 destroys the cruiser
    ],
)
def test_stock_policy_when_outnumbered_compares_combat_dice(
    ratio: float, faces: list[int], choice: str
) -> None:
    # A war sun rolls 3 dice (ti4-space-combat.md step 3.1) against the cruiser's 1: the
    # attacker is outnumbered 3 to 1 in dice though not in ships.
    # Faces: cruiser, then the war sun's three dice.
    played = run(
        space(
            {"units": "1 cruiser", "policy": {"retreat": {"when_outnumbered": ratio}}},
            {"units": "1 war_sun"},
            system=NEIGHBOURS,
        ),
        faces,
    )
    assert announce_choices(played, "attacker") == [choice]
