"""Issue 12: retreats announced at the start of a round (ti4-space-combat.md steps 2 and 5;
TI3's withdrawals and retreats, announced before the roll and carried out after it) and
invasions of several planets (ti4-ground-combat.md, note 3: one planet's ground combat after
another) are solved in product form; here the fast path is checked against the generic state
graph (analysis/graph.py), which walks every joint state through the procedures, on 300 random
battles, to 1e-12: every result, retreat, planet, survivor fleet, expected loss and round."""

from __future__ import annotations

import random
from typing import Any

import pytest
from benchmarks.odds_speed import random_units

from spacecombat.analysis.budget import TooLarge
from spacecombat.analysis.exact import exact_odds
from spacecombat.analysis.report import OddsReport
from spacecombat.analysis.text import render
from spacecombat.core.rounds import PlayerRounds
from tests.helpers import invasion, space

SHIPS = ("war_sun", "dreadnought", "cruiser", "carrier", "destroyer", "fighter")
UPGRADABLE = ("dreadnought", "cruiser", "carrier", "destroyer", "fighter", "infantry")
GROUND = ("infantry", "mech")
BATTLES = 300
TOLERANCE = 1e-12
#: the rounds distribution comes from a forward pass that stops once less than 1e-13 of the
#: probability is still fighting (in each planet's ground combat): its mean moves by up to
#: (rounds) x 1e-13 per fight
ROUNDS_TOLERANCE = 1e-11


def retreating(rng: random.Random) -> dict[str, Any]:
    """A space battle where one or both players may retreat, after round N or when
    outnumbered, with somewhere to go."""
    scenario: dict[str, Any] = {
        "ruleset": "ti4",
        "battle": "space",
        "system": {"adjacent": [{"name": "B", "units": ["attacker", "defender"]}]},
    }
    who = rng.choice(["attacker", "defender", "both"])
    for side in ("attacker", "defender"):
        block: dict[str, Any] = {
            "units": random_units(rng, SHIPS, 5),
            "upgrades": rng.sample(UPGRADABLE, rng.randint(0, 2)),
        }
        if who in (side, "both"):
            retreat = rng.choice(
                [
                    {"after_round": rng.randint(0, 3)},
                    {"when_outnumbered": rng.choice([1.0, 1.5, 2.0])},
                ]
            )
            block["policy"] = {"retreat": retreat, "sustain": rng.choice(["first", "last"])}
        scenario[side] = block
    return scenario


def withdrawing(rng: random.Random) -> dict[str, Any]:
    """A TI3 space battle where the attacker may withdraw or the defender retreat (ti3-combat.md,
    Announce withdrawals: before the roll; Execute withdrawals: after it)."""
    scenario = retreating(rng)
    scenario["ruleset"] = "ti3"
    scenario["system"] = {"adjacent": [{"name": "B", "command_tokens": ["attacker", "defender"]}]}
    for side in ("attacker", "defender"):
        scenario[side].pop("upgrades")  # TI3 has no unit upgrades
    return scenario


def several_planets(rng: random.Random) -> dict[str, Any]:
    """An invasion of two or three planets, each with its own defenders and commitment."""
    planets = []
    attackers: dict[str, int] = {}
    for k in range(rng.randint(2, 3)):
        committed = random_units(rng, GROUND, 3)
        for unit, count in committed.items():
            attackers[unit] = attackers.get(unit, 0) + count
        defending = random_units(rng, GROUND, 3)
        planets.append(
            {
                "name": f"P{k}",
                "defender": ", ".join(f"{n} {u}" for u, n in defending.items()),
                "commit": ", ".join(f"{n} {u}" for u, n in committed.items()),
            }
        )
    carried = ", ".join(f"{n} {u}" for u, n in attackers.items())
    return {
        "ruleset": "ti4",
        "battle": "invasion",
        "attacker": {"units": f"2 carrier, {carried}", "upgrades": rng.sample(UPGRADABLE, 1)},
        "defender": {"upgrades": rng.sample(UPGRADABLE, rng.randint(0, 1))},
        "planets": planets,
    }


def agree(fast: Any, slow: Any, path: str = "") -> None:
    """Every number equal to ``TOLERANCE``; a key missing on one side counts as 0 (the
    generic graph keeps rounds the forward pass drops below 1e-13)."""
    if path.endswith("/fleets"):
        # fleets of equal chance may come in either order
        fast, slow = _by_units(fast), _by_units(slow)
    if isinstance(fast, dict):
        for key in set(fast) | set(slow):
            agree(fast.get(key, 0.0), slow.get(key, 0.0), f"{path}/{key}")
    elif isinstance(fast, list):
        assert len(fast) == len(slow), path
        for x, y in zip(fast, slow, strict=True):
            agree(x, y, path)
    elif isinstance(fast, float | int) and not isinstance(fast, bool):
        tolerance = TOLERANCE
        if path.startswith("/rounds"):
            tolerance = ROUNDS_TOLERANCE
        elif path.startswith("/expected_losses"):
            tolerance = 2 * TOLERANCE  # the report rounds them to 12 decimals
        assert abs(fast - slow) <= tolerance, (path, fast, slow)
    else:
        assert fast == slow, (path, fast, slow)


def _by_units(fleets: list[dict[str, Any]]) -> dict[str, float]:
    return {str(sorted(f["units"].items())): f["probability"] for f in fleets}


def compared(report: OddsReport) -> dict[str, Any]:
    out = report.to_json()
    out.pop("method")
    return out


def battles() -> list[dict[str, Any]]:
    rng = random.Random(12)
    makers = (several_planets, retreating, retreating, withdrawing)
    return [makers[k % len(makers)](rng) for k in range(BATTLES)]


def agreed(scenarios: list[dict[str, Any]]) -> int:
    """How many of ``scenarios`` the generic graph solved (each then agreeing with the fast
    path); the generic graph's own budget of rules steps may stop it on the largest invasions
    (which is why they need the fast path)."""
    compared_here = 0
    for scenario in scenarios:
        fast = exact_odds(scenario)
        assert fast.method == "exact"
        try:
            slow = exact_odds(scenario, product_form=False, limit=None)
        except TooLarge:
            continue
        agree(compared(fast), compared(slow))
        compared_here += 1
    return compared_here


def test_the_first_battles_agree_with_the_state_graph() -> None:
    """The fast loop's sample: the first 8 battles (two invasions of several planets, four
    retreats, two withdrawals)."""
    assert agreed(battles()[:8]) == 8


@pytest.mark.slow
@pytest.mark.parametrize("chunk", range(10))
def test_the_fast_path_agrees_with_the_state_graph(chunk: int) -> None:
    """Each chunk of 30 battles; the generic graph stopped on never more than 2."""
    assert agreed(battles()[chunk::10]) >= BATTLES // 10 - 2


# --- hand-derived figures ---------------------------------------------------------------------

ADJACENT = {"adjacent": [{"name": "B", "units": ["attacker"]}]}
#: the cruiser duel: 1 cruiser each, the attacker retreating after round 1
RETREAT_AFTER_1 = space(
    {"units": "1 cruiser", "policy": {"retreat": {"after_round": 1}}},
    {"units": "1 cruiser"},
    system=ADJACENT,
)
#: 1 infantry against 1 on each of two planets
TWO_PLANETS = invasion(
    {"units": "1 carrier, 2 infantry"},
    {},
    planets=[
        {"name": "A", "defender": "1 infantry", "commit": "1 infantry"},
        {"name": "B", "defender": "1 infantry", "commit": "1 infantry"},
    ],
)
#: one ground combat of 1 infantry each (combat 8: 3 faces in 10; rounds where both miss
#: repeat): the attacker alone left, the defender alone (the same), both gone
WIN, DRAW = 0.21 / 0.51, 0.09 / 0.51


def test_a_retreat_announced_in_round_1_is_carried_out_unless_a_side_is_gone() -> None:
    """1 cruiser each (combat 7: a hit with 4 faces in 10), the attacker retreating after round
    1: announced at step 2 of round 1, carried out at step 5 if both still have ships (5.1).
    Attacker hits alone 0.24: it wins, the retreat cancelled; defender hits alone 0.24; both
    0.16, a draw; neither 0.36: the attacker retreats and the defender holds the system."""
    report = exact_odds(RETREAT_AFTER_1)
    assert report.method == "exact"
    assert float(report.attacker_win) == pytest.approx(0.24, abs=1e-12)
    assert float(report.defender_win) == pytest.approx(0.24 + 0.36, abs=1e-12)
    assert float(report.draw) == pytest.approx(0.16, abs=1e-12)
    assert report.retreats["attacker"]["probability"] == pytest.approx(0.36, abs=1e-12)
    assert report.retreats["attacker"]["survivors"]["fleets"] == [
        {"units": {"cruiser": 1}, "probability": pytest.approx(0.36, abs=1e-12)}
    ]
    assert "defender" not in report.retreats
    assert report.rounds["distribution"] == {"1": pytest.approx(1.0, abs=1e-12)}


def test_outnumbered_the_attacker_retreats_at_once() -> None:
    """1 cruiser against 2: the defender rolls 2 dice, at least 1.5 times the attacker's 1, so
    the attacker announces in round 1; it gets away unless its cruiser is hit (1 - 0.6²)."""
    scenario = space(
        {"units": "1 cruiser", "policy": {"retreat": {"when_outnumbered": 1.5}}},
        {"units": "2 cruiser"},
        system=ADJACENT,
    )
    report = exact_odds(scenario)
    assert report.retreats["attacker"]["probability"] == pytest.approx(0.36, abs=1e-12)
    assert float(report.attacker_win) == 0.0
    assert float(report.defender_win) == pytest.approx(1.0, abs=1e-12)


def test_two_planets_are_fought_independently() -> None:
    """Each planet's ground combat is fought alone (ti4-ground-combat.md note 3): the
    invasion's result is the planets' if they agree, else mixed."""
    report = exact_odds(TWO_PLANETS)
    assert report.method == "exact"
    assert float(report.attacker_win) == pytest.approx(WIN * WIN, abs=1e-12)
    assert float(report.defender_win) == pytest.approx(WIN * WIN, abs=1e-12)
    assert float(report.draw) == pytest.approx(DRAW * DRAW, abs=1e-12)
    assert float(report.other["mixed"]) == pytest.approx(1 - 2 * WIN * WIN - DRAW * DRAW, abs=1e-12)
    for name in ("A", "B"):
        assert report.planets[name]["taken"] == pytest.approx(WIN, abs=1e-12)
    # the attacker's infantry left over both planets: 2 with win², 1 with 2 win (1 - win)
    fleets = {
        sum(f["units"].values()): f["probability"] for f in report.survivors["attacker"]["fleets"]
    }
    assert fleets[2] == pytest.approx(WIN * WIN, abs=1e-12)
    assert fleets[1] == pytest.approx(2 * WIN * (1 - WIN), abs=1e-12)


def test_the_text_report_says_how_often_a_side_retreats_and_each_planets_fate() -> None:
    text = render(exact_odds(RETREAT_AFTER_1).to_json())
    assert "The attacker retreats 36.0000% of the time (counted as the defender's win)" in text
    assert " 36.000%  1 cruiser" in text
    text = render(exact_odds(TWO_PLANETS).to_json())
    assert f"Planet A: taken {100 * WIN:.4f}%" in text
    assert f"Planet B: taken {100 * WIN:.4f}%" in text


def test_a_ti3_withdrawal_is_carried_out_after_the_roll() -> None:
    """TI3 (ti3-combat.md): the attacker announces its withdrawal before the roll and its
    fleet moves after it, unless the opposing ships are all destroyed: with a cruiser each
    (combat 7), the same figures as TI4's retreat above."""
    scenario = {
        "ruleset": "ti3",
        "battle": "space",
        "attacker": {"units": "1 cruiser", "policy": {"retreat": {"after_round": 1}}},
        "defender": {"units": "1 cruiser"},
        "system": {"adjacent": [{"name": "B", "command_tokens": ["attacker"]}]},
    }
    report = exact_odds(scenario)
    assert report.method == "exact"
    assert float(report.attacker_win) == pytest.approx(0.24, abs=1e-12)
    assert float(report.defender_win) == pytest.approx(0.6, abs=1e-12)
    assert report.retreats["attacker"]["probability"] == pytest.approx(0.36, abs=1e-12)


def test_a_late_retreat_is_asked_only_in_the_rounds_where_the_answer_may_change(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """ "Retreat after round 6" (core/policies.rounds_told_apart): the stock policy answers
    rounds 1 to 5 alike, and 6 on alike, so the announcements are evaluated in rounds 1, 6 and
    7 (the cap) only; the odds still agree with the state graph, which asks in every round."""
    scenario = space(
        {"units": "2 cruiser, 1 destroyer", "policy": {"retreat": {"after_round": 6}}},
        {"units": "3 fighter, 1 carrier"},
        system=ADJACENT,
    )
    asked: set[int] = set()
    real = PlayerRounds.announcement

    def counted(self: Any, attacker: Any, defender: Any, round: int, template: Any) -> int:
        asked.add(round)
        return real(self, attacker, defender, round, template)

    monkeypatch.setattr(PlayerRounds, "announcement", counted)
    fast = exact_odds(scenario)
    assert asked == {1, 6, 7}
    slow = exact_odds(scenario, product_form=False)
    agree(compared(fast), compared(slow))
    assert fast.retreats["attacker"]["probability"] > 0
