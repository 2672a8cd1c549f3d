"""Units carried out of a TI3 gravity rift (docs/rulings.md 27Q-2 to 27Q-6): the fighters and
ground forces a fleet carries do not roll; with ``gravity_rift_cargo: aboard`` (the default)
each rides a ship its owner names before the dice and is lost with it, and a ship that gets
away keeps its load, its room left over saving nothing of another's; with ``capacity`` the
ships roll alone and what those that got away cannot carry is lost. With Advanced Fighters
the fighters fly, and roll, on their own. A ship gets away on 6-10 (lost on 1-5, 27M-3).

The fleets leave by Skilled Retreat before round 1 (27S-6: no combat die is rolled), so the
only dice are the rift's."""

from __future__ import annotations

from fractions import Fraction
from typing import Any

import pytest

from spacecombat import odds
from spacecombat.core.errors import ScenarioError
from tests.helpers import assert_logs_replay, assert_sampled_as_played, events, rolls, run
from tests.ti3.effects import space

#: a rift with an adjacent system; Skilled Retreat's own counter makes it a destination
RIFT: dict[str, Any] = {"anomaly": "gravity_rift", "adjacent": [{"name": "B"}]}
#: the defender leaves by Skilled Retreat at the start of round 1
LEAVES = {"action_cards": ["skilled_retreat"], "policy": {"retreat": {"after_round": 1}}}
ATTACKER = {"units": {"cruiser": 1}}
REASON = "lost leaving the gravity rift"


def _leaving(units: dict[str, int], **options: object) -> dict[str, Any]:
    extra = {"options": options} if options else {}
    return space(ATTACKER, {"units": units, **LEAVES}, system=RIFT, **extra)


def _lost(played: Any) -> list[object]:
    """The units removed leaving the rift, in order."""
    return [e["unit"] for e in events(played, "unit_removed", reason=REASON)]


def _faces(played: Any) -> list[tuple[object, object]]:
    return [(g["unit"], g["faces"]) for r in rolls(played, "gravity_rift") for g in r["groups"]]  # type: ignore[attr-defined]


def test_a_carrier_lost_takes_its_fighters() -> None:
    """27Q-3. The carrier carries both fighters (the only ship with room); its 5 loses it and
    them; nothing arrives."""
    played = run(_leaving({"carrier": 1, "fighter": 2}), [5])
    assert _faces(played) == [("carrier carrying 2 fighter", [5])]
    assert _lost(played) == ["carrier", "fighter", "fighter"]
    assert played.outcome["withdrawal"]["units"] == []  # type: ignore[index]


def test_a_carrier_that_gets_away_keeps_its_load() -> None:
    played = run(_leaving({"carrier": 1, "fighter": 2}), [6])
    assert not _lost(played)
    assert played.outcome["withdrawal"]["units"] == [  # type: ignore[index]
        {"unit": "carrier", "count": 1},
        {"unit": "fighter", "count": 2},
    ]


def test_ground_forces_ride_the_carrier_not_the_cruiser() -> None:
    """27Q-3. A ground force in the space area can ride only the carrier (a cruiser has no
    capacity): one stowing option; the carrier's 3 loses it with the carrier, the cruiser's 8
    gets away alone."""
    played = run(_leaving({"carrier": 1, "cruiser": 1, "ground_force": 1}), [3, 8])
    (stow,) = events(played, "choice_made", decision="stow_cargo")
    assert stow["options"] == ["on carrier carrying none"]
    assert _faces(played) == [("carrier carrying 1 ground_force", [3]), ("cruiser", [8])]
    assert _lost(played) == ["carrier", "ground_force"]
    assert played.outcome["withdrawal"]["units"] == [{"unit": "cruiser", "count": 1}]  # type: ignore[index]


def test_room_left_on_a_carrier_that_gets_away_saves_nothing() -> None:
    """27Q-6. Two carriers, a fighter on each (the stock player loads the lightest ship
    first); dice 5, 6: one carrier is lost with its fighter, the other arrives with its own
    only, though it has room for 5 more."""
    played = run(_leaving({"carrier": 2, "fighter": 2}), [5, 6])
    choices = [e["choice"] for e in events(played, "choice_made", decision="stow_cargo")]
    assert choices == ["on carrier carrying none", "on carrier carrying none"]
    assert _faces(played) == [("carrier carrying 1 fighter", [5, 6])]
    assert _lost(played) == ["carrier", "fighter"]
    assert played.outcome["withdrawal"]["units"] == [  # type: ignore[index]
        {"unit": "carrier", "count": 1},
        {"unit": "fighter", "count": 1},
    ]


def test_both_fighters_on_one_carrier_as_the_owner_says() -> None:
    """The owner may load both on one carrier (the empty one rolls first): the empty one's 6
    gets away, the loaded one's 5 loses it and both fighters."""
    played = run(
        _leaving({"carrier": 2, "fighter": 2}),
        [6, 5],
        defender=[
            "play skilled_retreat to B",
            "on carrier carrying 1 fighter",  # the first fighter's one option is forced
        ],
    )
    assert _faces(played) == [("carrier", [6]), ("carrier carrying 2 fighter", [5])]
    assert _lost(played) == ["carrier", "fighter", "fighter"]
    assert played.outcome["withdrawal"]["units"] == [{"unit": "carrier", "count": 1}]  # type: ignore[index]


def test_the_capacity_reading_keeps_what_the_carrier_left_can_carry() -> None:
    """27Q-3, ``gravity_rift_cargo: capacity``. The same dice: the carriers roll alone (5, 6);
    the one that got away carries both fighters (room 6): nothing else is lost."""
    played = run(_leaving({"carrier": 2, "fighter": 2}, gravity_rift_cargo="capacity"), [5, 6])
    assert not events(played, "choice_made", decision="stow_cargo")
    assert _faces(played) == [("carrier", [5, 6])]
    assert _lost(played) == ["carrier"]
    assert played.outcome["withdrawal"]["units"] == [  # type: ignore[index]
        {"unit": "carrier", "count": 1},
        {"unit": "fighter", "count": 2},
    ]


def test_the_capacity_reading_loses_what_no_ship_is_left_to_carry() -> None:
    """Both carriers lost (5, 5): the fleet check after the retreat removes the fighters."""
    played = run(_leaving({"carrier": 2, "fighter": 2}, gravity_rift_cargo="capacity"), [5, 5])
    assert _lost(played) == ["carrier", "carrier"]
    removed = events(played, "unit_removed", reason="beyond capacity after the retreat")
    assert [e["unit"] for e in removed] == ["fighter", "fighter"]
    assert played.outcome["withdrawal"]["units"] == []  # type: ignore[index]


def test_what_no_leaving_ship_has_room_for_is_left_behind() -> None:
    """27Q-5. Fleets unchecked before the battle: a carrier and 7 fighters; the seventh has no
    room and is left behind (lost) before the dice; the carrier's 6 takes the other 6."""
    played = run(_leaving({"carrier": 1, "fighter": 7}, check_fleets_before_battle=False), [6])
    behind = events(played, "unit_removed", reason="beyond capacity leaving the gravity rift")
    assert [e["unit"] for e in behind] == ["fighter"]
    assert _faces(played) == [("carrier carrying 6 fighter", [6])]
    assert played.outcome["withdrawal"]["units"] == [  # type: ignore[index]
        {"unit": "carrier", "count": 1},
        {"unit": "fighter", "count": 6},
    ]


def test_advanced_fighters_fly_and_roll_on_their_own() -> None:
    """27Q-4. With Advanced Fighters each fighter rolls as a ship (PC_Twi gives it a move
    value): the carrier's 6 gets away empty, the fighters' 5 and 7 lose one."""
    scenario = space(
        ATTACKER,
        {"units": {"carrier": 1, "fighter": 2}, "technologies": ["advanced_fighters"], **LEAVES},
        system=RIFT,
    )
    played = run(scenario, [6, 5, 7])
    assert not events(played, "choice_made", decision="stow_cargo")
    assert _faces(played) == [("carrier", [6]), ("fighter", [5, 7])]
    assert _lost(played) == ["fighter"]


@pytest.mark.parametrize(
    ("cargo", "fleets"),
    [
        # aboard: each carrier (a fighter on it) gets away with 1/2, independently
        (
            "aboard",
            {
                (("carrier", 2), ("fighter", 2)): Fraction(1, 4),
                (("carrier", 1), ("fighter", 1)): Fraction(1, 2),
                (): Fraction(1, 4),
            },
        ),
        # capacity: one carrier left carries both fighters
        (
            "capacity",
            {
                (("carrier", 2), ("fighter", 2)): Fraction(1, 4),
                (("carrier", 1), ("fighter", 2)): Fraction(1, 2),
                (): Fraction(1, 4),
            },
        ),
    ],
)
def test_exact_odds_of_what_arrives(cargo: str, fleets: dict[tuple[object, ...], Fraction]) -> None:
    """Hand-derived. Two carriers and two fighters leave before any combat die: the attacker
    holds the system (won 1). Each carrier gets away on 6-10 (1/2). Aboard (a fighter on each,
    the stock stowing): both away 1/4 (all four units), one 2 x 1/4 = 1/2 (a carrier and its
    fighter), none 1/4. Capacity: both 1/4, one 1/2 with both fighters, none 1/4."""
    report = odds(_leaving({"carrier": 2, "fighter": 2}, gravity_rift_cargo=cargo), fractions=True)
    assert (report.attacker_win, report.draw, report.defender_win) == (1, 0, 0)
    survivors = report.retreats["defender"]["survivors"]["fleets"]
    found = {tuple(f["units"].items()): f["probability"] for f in survivors}
    assert found == pytest.approx({k: float(v) for k, v in fleets.items()}, abs=1e-12)


def test_exact_odds_with_a_round_fought_first() -> None:
    """Hand-derived. A carrier and a fighter announce their retreat in round 1 against a
    cruiser (hits 2/5; the carrier and the fighter 1/5 each; the defender takes a hit on the
    fighter first). The cruiser destroyed (the defender scores: 1 - 16/25 = 9/25): the
    retreat is cancelled, the defender wins 9/25. Otherwise (16/25) the fleet leaves: with the
    fighter (cruiser missed, 3/5 x 16/25 = 48/125) or without it (2/5 x 16/25 = 32/125); the
    carrier gets away with 1/2, the fighter only with it: arrive carrier and fighter 24/125,
    carrier alone 16/125, nothing 40/125. Won 16/25."""
    scenario = space(
        ATTACKER,
        {"units": {"carrier": 1, "fighter": 1}, "policy": {"retreat": {"after_round": 0}}},
        system={
            "anomaly": "gravity_rift",
            "adjacent": [{"name": "B", "command_tokens": ["defender"]}],
        },
    )
    report = odds(scenario, fractions=True)
    assert (report.attacker_win, report.draw, report.defender_win) == (
        Fraction(16, 25),
        0,
        Fraction(9, 25),
    )
    survivors = report.retreats["defender"]["survivors"]["fleets"]
    found = {tuple(f["units"].items()): f["probability"] for f in survivors}
    assert found == pytest.approx(
        {
            (("carrier", 1), ("fighter", 1)): 24 / 125,
            (("carrier", 1),): 16 / 125,
            (): 40 / 125,
        },
        abs=1e-12,
    )


@pytest.mark.parametrize("value", ["both", 1, True])
def test_the_option_is_aboard_or_capacity(value: object) -> None:
    with pytest.raises(ScenarioError) as caught:
        odds(_leaving({"carrier": 1, "fighter": 1}, gravity_rift_cargo=value))
    assert "gravity_rift_cargo" in caught.value.field


@pytest.mark.parametrize("cargo", ["aboard", "capacity"])
def test_logs_replay_and_the_sampler_plays_as_the_resolver(cargo: str) -> None:
    scenario = space(
        {"units": {"cruiser": 2}},
        {
            "units": {"carrier": 2, "cruiser": 1, "fighter": 3, "ground_force": 1},
            "policy": {"retreat": {"after_round": 0}},
        },
        system={
            "anomaly": "gravity_rift",
            "adjacent": [{"name": "B", "command_tokens": ["defender"]}],
        },
        options={"gravity_rift_cargo": cargo},
    )
    assert_logs_replay(scenario, seeds=8)
    assert_sampled_as_played(scenario, trials=40)
