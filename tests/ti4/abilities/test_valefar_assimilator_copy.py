"""Technological Singularity with a Valefar Assimilator (docs/rulings.md 27V-4; refused by name
before, 14T-4). Valefar Assimilator X: "When you would gain another player's technology using
one of your faction abilities, you may place the X assimilator token on a faction technology
owned by that player instead. While the X token is on a technology, this card gains that
technology's text." Technological Singularity: "Once per combat, after 1 of your opponent's
units is destroyed, you may gain 1 technology that is owned by that player." A faction
technology of the opponent with a combat rule that can still act is offered as "copy TECH
with valefar_assimilator_x" beside what may be gained; copied, the Nekro has its text from the
next step on (``BattleState.gained``, as the scenario listing it: R23)."""

from __future__ import annotations

from fractions import Fraction
from typing import Any

import pytest

from spacecombat import odds
from spacecombat.core.errors import ScenarioError
from tests.helpers import (
    assert_logs_replay,
    assert_sampled_as_played,
    events,
    rolls,
    run,
    space,
)

COPY = "play technological_singularity: copy supercharge with valefar_assimilator_x"
NEKRO: dict[str, Any] = {
    "units": "1 dreadnought",
    "faction": "nekro",
    "technologies": ["valefar_assimilator_x"],
}
#: the Naaz-Rokha never play their own Supercharge (left out of the stock battle: 24B-1)
NAAZ: dict[str, Any] = {
    "units": "2 destroyer",
    "faction": "naazrokha",
    "technologies": ["supercharge"],
    "policy": {"play": {"supercharge": "never"}},
}


def test_the_token_copies_supercharge_which_acts_from_the_next_round() -> None:
    # The destroyers' barrage first (1, 1, 1, 1: no fighter). Round 1: the dreadnought (hits
    # on 5) 6: a destroyer is destroyed; the destroyers 1, 1. The Nekro copies Supercharge;
    # round 2 it plays it: the dreadnought hits on 4 (4), the destroyer misses (1).
    played = run(space(NEKRO, NAAZ), [1, 1, 1, 1, 6, 1, 1, 4, 1])
    [copy] = [
        e for e in events(played, "choice_made", decision="play_card") if e["player"] == "attacker"
    ][:1]
    assert copy["choice"] == COPY
    assert copy["options"] == [COPY, "pass"]
    [gained] = events(played, "technology_gained")
    assert (gained["technology"], gained["copied_with"], gained["source"]) == (
        "supercharge",
        "valefar_assimilator_x",
        "defender",
    )
    [played_card] = events(played, "card_played", card="supercharge")
    assert (played_card["player"], played_card["round"]) == ("attacker", 2)
    mine = [r for r in rolls(played, "space_combat") if r["player"] == "attacker"]
    assert [r["groups"][0]["hit_on"] for r in mine] == [5, 4]  # type: ignore[index]
    assert played.outcome["result"] == "attacker_win"


def test_exact_odds_hand_derived() -> None:
    """The dreadnought (3/5; 7/10 supercharged; SUSTAIN DAMAGE) against 2 destroyers (1/5
    each: k hits with 16/25, 8/25, 1/25). Against 1 destroyer, plain: damaged, per round a win
    12/25, a draw 3/25, a loss 2/25, else again: (12, 3, 2)/17; undamaged: a win 3/5, damaged
    2/25, else again. The round after the first kill is supercharged (the copy, then the card
    played at the start of the next round: once, it is exhausted): undamaged, a win 7/10, else
    damaged (3/10 · 1/5) or not; damaged, a win 7/10 · 4/5, a draw 7/10 · 1/5, a loss 3/10 ·
    1/5, else plain. Before the first kill: a kill (3/5) with k = 0, 1, 2 (supercharged next
    round undamaged, damaged, or the dreadnought lost); a miss with k = 0 again, 1 damaged, 2
    lost; damaged, any hit against it loses."""
    f = Fraction
    win, draw, loss = (f(1), f(0), f(0)), (f(0), f(1), f(0)), (f(0), f(0), f(1))

    def mix(*parts: tuple[Fraction, tuple[Fraction, ...]]) -> tuple[Fraction, ...]:
        return tuple(sum((p * v[i] for p, v in parts), f(0)) for i in range(3))

    def scaled(v: tuple[Fraction, ...], by: Fraction) -> tuple[Fraction, ...]:
        return tuple(x * by for x in v)

    plain_d = (f(12, 17), f(3, 17), f(2, 17))
    plain_u = scaled(mix((f(3, 5), win), (f(2, 25), plain_d)), 1 / f(17, 25))
    super_u = mix((f(7, 10), win), (f(3, 50), plain_d), (f(12, 50), plain_u))
    super_d = mix((f(14, 25), win), (f(7, 50), draw), (f(3, 50), loss), (f(12, 50), plain_d))
    again = 1 / (1 - f(2, 5) * f(16, 25))
    before_d = scaled(
        mix((f(3, 5) * f(16, 25), super_d), (f(9, 25), loss)),
        again,
    )
    before_u = scaled(
        mix(
            (f(3, 5) * f(16, 25), super_u),
            (f(3, 5) * f(8, 25), super_d),
            (f(3, 5) * f(1, 25) + f(2, 5) * f(1, 25), loss),
            (f(2, 5) * f(8, 25), before_d),
        ),
        again,
    )
    assert before_u == (f(20312, 26877), f(1916, 26877), f(4649, 26877))
    found = odds(space(NEKRO, NAAZ), fractions=True)
    assert found.method == "exact"
    assert (found.attacker_win, found.draw, found.defender_win) == before_u


def test_logs_replay_and_are_sampled_as_played() -> None:
    scenario = space(NEKRO, NAAZ)
    assert_logs_replay(scenario, seeds=6)
    assert_sampled_as_played(scenario, trials=60)


def test_a_token_already_on_a_technology_copies_nothing_more() -> None:
    # The scenario lists the copied technology itself (R23): one other faction's technology
    # for each assimilator owned; X's token is on Non-Euclidean Shielding, so Supercharge is
    # not offered.
    nekro = {**NEKRO, "technologies": ["valefar_assimilator_x", "non_euclidean_shielding"]}
    played = run(space(nekro, NAAZ), [1, 1, 1, 1, 6, 1, 1, 5, 1])
    assert not events(played, "technology_gained")
    # with Y too, Y's token copies it
    both = {**nekro, "technologies": [*nekro["technologies"], "valefar_assimilator_y"]}
    played = run(space(both, NAAZ), [1, 1, 1, 1, 6, 1, 1, 5, 1])
    [gained] = events(played, "technology_gained")
    assert gained["copied_with"] == "valefar_assimilator_y"


def test_more_copied_technologies_than_assimilators_is_bad_input() -> None:
    nekro = {
        **NEKRO,
        "technologies": ["valefar_assimilator_x", "non_euclidean_shielding", "supercharge"],
    }
    with pytest.raises(ScenarioError, match="one other faction's technology for each Valefar"):
        odds(space(nekro, NAAZ), fallback=False)
