"""Touch of Genius (TI3 base action card; data/action_cards.toml; docs/rulings.md 27S-36):
"Spend three influence to duplicate the effects of any other Action Card in the discard pile"
(the TI3 base deck data file, 27S-17): the scenario's ``discard_pile`` and the side's
``influence``.

Dice: in an exchange the attacker rolls before the defender."""

from __future__ import annotations

from fractions import Fraction
from typing import Any

import pytest

from spacecombat import odds
from spacecombat.core.errors import ScenarioError
from tests.helpers import assert_logs_replay, assert_sampled_as_played, events, run
from tests.ti3.effects import space

GENIUS = {"action_cards": ["touch_of_genius"], "influence": 3}


def duel(pile: list[str], attacker: dict[str, Any] | None = None, **extra: Any) -> dict[str, Any]:
    """A cruiser against a cruiser; the attacker holds Touch of Genius with 3 influence."""
    side = {"units": {"cruiser": 1}, **(GENIUS if attacker is None else attacker)}
    return space(side, {"units": {"cruiser": 1}}, discard_pile=pile, **extra)


def test_it_plays_a_card_of_the_discard_pile() -> None:
    """Morale Boost copied at the start of round 1: the cruiser hits on 6. Round 1: 6 (hit);
    1."""
    played = run(duel(["morale_boost"]), [6, 1])
    assert [e["card"] for e in events(played, "card_played")] == ["morale_boost"]
    assert played.outcome["result"] == "attacker_win"


def test_without_3_influence_nothing_is_copied() -> None:
    """Round 1: 6 (a miss at 7); 1. Round 2: 7 (hit); 1."""
    scenario = duel(["morale_boost"], {"action_cards": ["touch_of_genius"], "influence": 2})
    played = run(scenario, [6, 1, 7, 1])
    assert not events(played, "card_played")


def test_one_copy_only_and_the_own_card_first() -> None:
    """The attacker holds a Morale Boost and Touch of Genius (Morale Boost in the pile): its
    own in round 1, the copy in round 2; none in round 3. Round 1: 5, 1; round 2: 5, 1;
    round 3: 6 (a miss at 7), 1; round 4: 7 (hit), 1."""
    side = {"action_cards": ["morale_boost", "touch_of_genius"], "influence": 3}
    played = run(duel(["morale_boost"], side), [5, 1, 5, 1, 6, 1, 7, 1])
    assert [e["round"] for e in events(played, "card_played")] == [1, 2]


def test_policy_play_names_the_copy() -> None:
    """``never`` for the copied card: round 1: 6 (a miss at 7); 1. Round 2: 7 (hit); 1."""
    side = {**GENIUS, "policy": {"play": {"morale_boost": "never"}}}
    played = run(duel(["morale_boost"], side), [6, 1, 7, 1])
    assert not events(played, "card_played")


def test_exact_odds_a_copied_morale_boost() -> None:
    """Hand-derived. Round 1 with the copied Morale Boost: the attacker's cruiser hits on 6
    (1/2), the defender's on 7 (2/5): the attacker alone 3/10, the defender alone 1/5, both
    1/5, neither 3/10, then the plain duel (3/8, 1/4, 3/8): attacker 3/10 + 3/10 * 3/8 = 33/80,
    draw 1/5 + 3/10 * 1/4 = 22/80, defender 1/5 + 3/10 * 3/8 = 25/80."""
    report = odds(duel(["morale_boost"]), fractions=True)
    assert (report.attacker_win, report.draw, report.defender_win) == (
        Fraction(33, 80),
        Fraction(22, 80),
        Fraction(25, 80),
    )


def test_cards_that_never_act_are_not_copied() -> None:
    """Rally of the People (played as an action) in the pile: nothing to copy. Round 1: 7; 1."""
    played = run(duel(["rally_of_the_people"]), [7, 1])
    assert not events(played, "card_played")


@pytest.mark.parametrize(
    ("pile", "message"),
    [(["no_such_card"], "unknown TI3 action card"), (["touch_of_genius"], "not itself")],
)
def test_a_bad_discard_pile_names_the_field(pile: list[str], message: str) -> None:
    with pytest.raises(ScenarioError) as caught:
        run(duel(pile), [])
    assert caught.value.field == "discard_pile[0]"
    assert message in caught.value.message


def test_ti4_refuses_the_key() -> None:
    scenario = {
        "ruleset": "ti4",
        "battle": "space",
        "attacker": {"units": {"cruiser": 1}},
        "defender": {"units": {"cruiser": 1}},
        "discard_pile": ["morale_boost"],
    }
    with pytest.raises(ScenarioError) as caught:
        run(scenario, [])
    assert caught.value.field == "discard_pile"


def test_logs_replay_and_the_sampler_plays_as_the_resolver() -> None:
    scenario = space(
        {"units": {"cruiser": 2, "carrier": 1, "fighter": 2}, **GENIUS},
        {"units": {"dreadnought": 1, "cruiser": 1}},
        discard_pile=["morale_boost", "fighter_prototype", "direct_hit"],
    )
    assert_logs_replay(scenario, seeds=6)
    assert_sampled_as_played(scenario, trials=30)
