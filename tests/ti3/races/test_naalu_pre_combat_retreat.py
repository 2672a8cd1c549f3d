"""The Naalu Collective's retreat before the space battle (docstoc 'Twilight Imperium 3rd
Edition Racial Abilities': "if attacked, a Naalu fleet may retreat before the beginning of
the Space Battle step ... following the normal retreat rules"; docs/rulings.md 27S-16): a
Naalu defender with somewhere to retreat to is asked after PDS fire, before the battle, the
rounds' ``announce_retreat`` decision with ``round`` 0, which its retreat settings answer.

Dice: in an exchange the attacker rolls before the defender."""

from __future__ import annotations

from fractions import Fraction
from typing import Any

from spacecombat import odds
from tests.helpers import assert_logs_replay, assert_sampled_as_played, events, rolls, run
from tests.ti3.effects import space

ACTIVATED = {"name": "B", "command_tokens": ["defender"]}
SYSTEM = {"name": "A", "adjacent": [ACTIVATED]}


def naalu(policy: dict[str, Any] | None = None) -> dict[str, Any]:
    return {"units": {"cruiser": 1}, "faction": "naalu", **({"policy": policy} if policy else {})}


def test_retreat_after_round_0_leaves_before_the_battle() -> None:
    """``retreat: {after_round: 0}``: the fleet moves to B before any die; the attacker holds
    the system."""
    played = run(
        space({"units": {"cruiser": 1}}, naalu({"retreat": {"after_round": 0}}), system=SYSTEM),
        [],
    )
    assert rolls(played, "space_combat") == []
    assert played.outcome["result"] == "attacker_win"
    assert played.outcome["rounds"] == 0
    assert played.outcome["withdrawal"] == {
        "player": "defender",
        "kind": "retreat",
        "to": "B",
        "units": [{"unit": "cruiser", "count": 1}],
    }


def test_outnumbered_it_leaves_before_the_battle() -> None:
    """``retreat: {when_outnumbered: 2}``: 2 enemy dice against 1."""
    played = run(
        space(
            {"units": {"cruiser": 2}},
            naalu({"retreat": {"when_outnumbered": 2}}),
            system=SYSTEM,
        ),
        [],
    )
    withdrawal = played.outcome["withdrawal"]
    assert isinstance(withdrawal, dict)
    assert withdrawal["to"] == "B"


def test_the_stock_defender_stays_and_fights() -> None:
    """No retreat setting: asked, it stays. Round 1: cruiser 7; cruiser 1."""
    played = run(space({"units": {"cruiser": 1}}, naalu(), system=SYSTEM), [7, 1])
    asked = events(played, "choice_made", decision="announce_retreat")
    assert [e["choice"] for e in asked][:1] == ["stay"]
    assert played.outcome["result"] == "attacker_win"


def test_a_defender_with_nowhere_to_go_is_not_asked() -> None:
    """No adjacent system activated by the defender. Round 1: cruiser 7; cruiser 1."""
    played = run(space({"units": {"cruiser": 1}}, naalu()), [7, 1])
    assert not events(played, "choice_made", decision="announce_retreat")
    assert played.outcome["result"] == "attacker_win"


def test_an_attacking_naalu_fights() -> None:
    """The ability acts only when attacked. Round 1: cruiser 7; cruiser 1."""
    played = run(space(naalu(), {"units": {"cruiser": 1}}), [7, 1])
    assert played.outcome["result"] == "attacker_win"


def test_exact_odds_retreating_before_the_battle() -> None:
    """Hand-derived: the defender always leaves before the battle: the attacker holds the
    system with probability 1."""
    report = odds(
        space({"units": {"cruiser": 1}}, naalu({"retreat": {"after_round": 0}}), system=SYSTEM),
        fractions=True,
    )
    assert (report.attacker_win, report.draw, report.defender_win) == (1, 0, 0)


def test_exact_odds_staying_is_the_plain_duel() -> None:
    """Staying (no retreat setting), one cruiser each (7+: 2/5): attacker 6/16 = 3/8, draw
    4/16 = 1/4, defender 3/8."""
    report = odds(space({"units": {"cruiser": 1}}, naalu(), system=SYSTEM), fractions=True)
    assert (report.attacker_win, report.draw, report.defender_win) == (
        Fraction(3, 8),
        Fraction(1, 4),
        Fraction(3, 8),
    )


def test_logs_replay_and_the_sampler_plays_as_the_resolver() -> None:
    scenario = space(
        {"units": {"cruiser": 3}},
        {
            "units": {"cruiser": 2, "fighter": 0},
            "faction": "naalu",
            "policy": {"retreat": {"when_outnumbered": 1.5}},
        },
        system=SYSTEM,
    )
    assert_logs_replay(scenario, seeds=8)
    assert_sampled_as_played(scenario, trials=40)
