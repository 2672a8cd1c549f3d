"""TI4 faction battles solved exactly (issue 24): effects that act around the combat rounds
but leave them two independent per-player steps keep the rounds in product form
(``Handler.keeps_product_form``, rulesets/ti4/abilities/base.py), so small faction battles
no longer fall back to Monte Carlo at the state graph's budget.

The issue's battle: Nomad with Memoria II, a Cruiser II, 6 fighters and Maneuvering Jets
against the Jol-Nar flagship, a destroyer, 3 fighters and 2 PDS. Before, the state graph
stopped at its 250,000 steps (Maneuvering Jets answers ``before_assign_hits``, the Jol-Nar
flagship ``combat_roll``) and Monte Carlo answered 0.91900 / 0.02985 / 0.05115. The exact
answers, from the whole state graph with its budgets raised (ti4-space-combat.md: space cannon
offense, anti-fighter barrage, then the rounds), are 0.918104 / 0.030508 / 0.051388.
"""

from __future__ import annotations

import random
from typing import Any

import pytest
from benchmarks.factions import random_faction_battle

from spacecombat import odds
from spacecombat.analysis import budget
from spacecombat.analysis.exact import exact_odds
from spacecombat.core.errors import RuleNotImplemented
from spacecombat.rulesets import battle, parse_scenario
from spacecombat.rulesets.ti4.abilities.base import acts_in_rounds
from spacecombat.rulesets.ti4.battle import Ti4Battle

#: the issue's battle (data/units.toml nomad_flagship2 through ``cards``, cruiser upgraded;
#: data/cards.toml maneuvering_jets; the Jol-Nar flagship jolnar_flagship_extra_hits)
NOMAD_AGAINST_JOLNAR: dict[str, Any] = {
    "ruleset": "ti4",
    "battle": "space",
    "attacker": {
        "faction": "nomad",
        "units": {"flagship": 1, "cruiser": 1, "fighter": 6},
        "upgrades": ["cruiser"],
        "cards": ["nomad_flagship2"],
        "action_cards": ["maneuvering_jets"],
    },
    "defender": {
        "faction": "jolnar",
        "units": {"flagship": 1, "destroyer": 1, "fighter": 3, "pds": 2},
    },
}

#: the whole state graph's answers (``exact_odds(product_form=False, limit=None)`` with the
#: graph's budgets raised: ``test_the_state_graph_gives_the_same``), which round to the issue's
#: 0.918104 / 0.030508 / 0.051388
ATTACKER, DEFENDER, DRAW = 0.9181035383021853, 0.030508259386540205, 0.051388202311275354


def test_the_issues_battle_is_exact() -> None:
    report = odds(NOMAD_AGAINST_JOLNAR)
    assert report.method == "exact"
    assert report.note is None
    assert float(report.attacker_win) == pytest.approx(ATTACKER, abs=1e-9)
    assert float(report.defender_win) == pytest.approx(DEFENDER, abs=1e-9)
    assert float(report.draw) == pytest.approx(DRAW, abs=1e-9)
    assert (round(ATTACKER, 6), round(DEFENDER, 6), round(DRAW, 6)) == (
        0.918104,
        0.030508,
        0.051388,
    )


def test_the_issues_battle_has_its_rounds_in_product_form() -> None:
    # Maneuvering Jets acts on space cannon hits only, before the rounds; the Jol-Nar
    # flagship's extra hits read the set-up and its owner's units alone.
    process = battle(parse_scenario(NOMAD_AGAINST_JOLNAR))
    assert isinstance(process, Ti4Battle)
    assert process.product_refusal() is None
    held = {h.id for h in process.setup.handlers}
    assert {"maneuvering_jets", "jolnar_flagship_extra_hits"} <= held


@pytest.mark.slow
def test_the_state_graph_gives_the_same(monkeypatch: pytest.MonkeyPatch) -> None:
    # The state graph plays every effect through the procedures, whatever hooks it answers.
    for name in ("GRAPH_STEPS", "GRAPH_SETTLED", "GRAPH_OUTCOMES"):
        monkeypatch.setattr(budget, name, 10**8)
    report = exact_odds(NOMAD_AGAINST_JOLNAR, product_form=False, limit=None)
    assert float(report.attacker_win) == pytest.approx(ATTACKER, abs=1e-12)
    assert float(report.defender_win) == pytest.approx(DEFENDER, abs=1e-12)
    assert float(report.draw) == pytest.approx(DRAW, abs=1e-12)


def _kept_in_product_form(rng: random.Random, most: int) -> dict[str, Any]:
    """A random faction battle (benchmarks/factions.py) of at most ``most`` units a side whose
    handlers all leave the rounds in product form (some declaring it: ``keeps_product_form``)
    and that holds at least one handler at all."""
    while True:
        scenario = random_faction_battle(rng, most)
        try:
            process = battle(parse_scenario(scenario))
        except RuleNotImplemented:
            continue
        assert isinstance(process, Ti4Battle)
        handlers = process.setup.handlers
        if handlers and not any(acts_in_rounds(h) for h in handlers):
            return scenario


@pytest.mark.parametrize(("seed", "most"), [(0, 5), (1, 12)])
def test_faction_battles_kept_in_product_form_never_fall_back(seed: int, most: int) -> None:
    # Battles of up to 12 units a side whose effects keep the product form are solved exactly
    # in product form: no Monte Carlo, whatever their size.
    rng = random.Random(seed)
    for _ in range(6):
        scenario = _kept_in_product_form(rng, most)
        report = odds(scenario)
        assert report.method == "exact", (report.note, scenario)
