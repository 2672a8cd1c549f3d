"""Shared Research (law; abilities/shared_research.py): units may move through nebulae, but the
law does not let a player retreat into a nebula (ti4-space-combat.md note 4.2; docs/rulings.md
R12)."""

from __future__ import annotations

from spacecombat.rulesets import parse_ti_scenario
from spacecombat.rulesets.ti4.abilities.shared_research import SharedResearch
from spacecombat.rulesets.ti4.setup import build
from spacecombat.rulesets.ti4.sides import Side
from tests.helpers import events, run, space

A, D = Side.ATTACKER, Side.DEFENDER
LAW = SharedResearch(None)
RETREAT_INTO_NEBULA = space(
    {"units": "1 cruiser", "policy": {"retreat": {"after_round": 0}}},
    {"units": "1 cruiser"},
    system={"adjacent": [{"name": "Mist", "anomaly": "nebula", "units": ["attacker"]}]},
    laws=["shared_research"],
)


def test_the_law_does_not_permit_a_retreat_into_a_nebula() -> None:
    assert not LAW.permits_anomaly(A, "nebula")


def test_the_law_permits_no_anomaly_to_anyone() -> None:
    anomalies = ("nebula", "asteroid_field", "supernova")
    assert not any(LAW.permits_anomaly(side, a) for side in (A, D) for a in anomalies)


def test_the_law_is_in_play_as_a_handler_of_no_player() -> None:
    setup = build(parse_ti_scenario(RETREAT_INTO_NEBULA))
    assert [(h.id, h.owner) for h in setup.handlers] == [("shared_research", None)]


def test_under_the_law_no_retreat_into_a_nebula_is_announced() -> None:
    played = run(RETREAT_INTO_NEBULA, [7, 1])
    assert events(played, "retreat_announced") == []
