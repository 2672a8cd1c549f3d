"""Issue 3: Monte Carlo is the fallback for what the exact engine does not do (a battle too
large for the generic graph), and the output says so. Issue 8: it says what is lost (the state
after N rounds), shows progress, and an option that does not apply to a method is refused,
never dropped."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
import yaml

from spacecombat import odds
from spacecombat.analysis.graph import TooManyStates
from spacecombat.core.errors import ScenarioError
from tests.helpers import space

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"

# Duranium Armor acts after hits are assigned, so the rounds are not in product form: the
# generic graph is used.
RETREATING: dict[str, Any] = {
    "ruleset": "ti4",
    "battle": "space",
    "attacker": {
        "units": "1 dreadnought, 2 cruiser",
        "technologies": ["duranium_armor"],
        "policy": {"retreat": {"when_outnumbered": 1.5}},
    },
    "defender": {"units": "2 cruiser"},
    "system": {"adjacent": [{"name": "B", "units": ["attacker"]}]},
}


def test_within_the_limit_the_answer_is_exact() -> None:
    report = odds(RETREATING)
    assert report.method == "exact"
    assert report.note is None


def test_beyond_the_limit_odds_fall_back_to_monte_carlo_and_say_so() -> None:
    report = odds(RETREATING, limit=2, trials=300, workers=1)
    assert report.method == "montecarlo"
    assert report.note is not None
    assert "Monte Carlo instead of exact" in report.note
    # the note names the rule that kept the rounds out of product form
    assert "the attacker's duranium_armor acts during the combat rounds" in report.note
    assert report.to_json()["note"] == report.note


def test_without_fallback_the_limit_is_an_error() -> None:
    with pytest.raises(TooManyStates, match="stopped at 2 battle states"):
        odds(RETREATING, limit=2, fallback=False)


def test_a_fallback_says_the_state_after_n_rounds_is_not_available() -> None:
    """The state after N rounds comes from the exact engine only: when it falls back, the note
    says so after the reason, and the report has no ``after_rounds``."""
    report = odds(RETREATING, limit=2, rounds=2, trials=300, workers=1)
    assert report.method == "montecarlo"
    assert report.note == (
        "Monte Carlo instead of exact: the exact engine stopped at 2 battle states (the state "
        "after 2 round(s) was asked for, which only the state-by-state engine gives); a larger "
        "budget (--budget, up to 100,000 battle states) may solve it exactly; the state after 2 "
        "round(s) is not available from Monte Carlo"
    )
    assert report.after_rounds is None
    assert "after_rounds" not in report.to_json()


def test_a_fallback_reports_its_progress() -> None:
    """``progress`` is called as batches finish, up to all the trials."""
    seen: list[tuple[int, int]] = []
    odds(RETREATING, limit=2, trials=300, workers=1, progress=lambda d, t, _: seen.append((d, t)))
    assert seen[-1] == (300, 300)


@pytest.mark.parametrize(
    ("options", "field"),
    [({"rounds": 1}, "rounds"), ({"fractions": True}, "fractions")],
)
def test_exact_only_options_are_refused_with_monte_carlo(
    options: dict[str, Any], field: str
) -> None:
    with pytest.raises(ScenarioError, match=f"^{field}: .* exact method only"):
        odds(RETREATING, method="montecarlo", trials=10, workers=1, **options)


@pytest.mark.parametrize("rounds", [-1, 101, True, 2.0, 10**30])
def test_rounds_out_of_range_are_refused(rounds: Any) -> None:
    """``rounds`` is a whole number from 0 to 100 (core/limits.py MAX_ROUNDS), checked before
    any work for library callers too."""
    with pytest.raises(ScenarioError, match=r"^rounds: must be a whole number from 0 to 100"):
        odds(RETREATING, rounds=rounds)


def test_an_unknown_method_is_refused_by_name() -> None:
    with pytest.raises(ScenarioError, match=r"^method: must be exact or montecarlo"):
        odds(RETREATING, method="guess")


#: a battle whose rounds are in product form (no ability acts in them)
PLAIN = space({"units": "3 cruiser"}, {"units": "3 destroyer"})


@pytest.mark.parametrize(
    ("options", "cause"),
    [
        ({"rounds": 2}, "the state after 2 round(s) was asked for"),
        ({"fractions": True}, "exact fractions were asked for"),
    ],
)
def test_the_note_names_what_was_asked_when_only_that_kept_the_battle_out_of_product_form(
    options: dict[str, Any], cause: str
) -> None:
    """A battle whose rounds are in product form is explored state by state only because of
    what was asked; the note says so, and (issue 24) how far the budget may be raised."""
    report = odds(PLAIN, limit=2, trials=300, workers=1, **options)
    assert report.note is not None
    assert report.note.startswith(
        f"Monte Carlo instead of exact: the exact engine stopped at 2 battle states ({cause}"
    )
    assert "; a larger budget (--budget, up to 100,000 battle states) may solve it exactly" in (
        report.note
    )


def test_at_the_largest_budget_the_note_does_not_offer_a_larger_one(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    from spacecombat.analysis import api

    monkeypatch.setattr(api, "MAX_CHANCE_STATES", 2)
    report = odds(RETREATING, limit=2, trials=300, workers=1)
    assert report.note is not None
    assert "stopped at 2 battle states" in report.note
    assert "--budget" not in report.note


def test_an_ec4x_battle_stopped_by_its_scaled_settled_cap_is_offered_a_larger_budget(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """EC4X's settled-state cap grows with the budget asked (``exact.sized_settled``, issue
    24), so a battle stopped by it is offered a larger budget, though the cap it reached (in
    EC4X's own states) is not the number asked for (in TI's chance states). (The folds'
    budgets and its chance states left larger, so that the settled states are what stops it:
    since 24S the folds leave far fewer settled states for as many chance states.)"""
    from spacecombat.rulesets import parse_scenario
    from spacecombat.rulesets.ec4x import battle as ec4x_battle

    for share in ("FOLDED_PER_SETTLED", "DAMAGE_STEPS_PER_SETTLED", "SELECTION_STEPS_PER_SETTLED"):
        monkeypatch.setattr(ec4x_battle, share, 10**6)
    monkeypatch.setattr(ec4x_battle.Ec4xBattle, "chance_state_scale", 60)
    three = parse_scenario(yaml.safe_load((EXAMPLES / "ec4x" / "three-houses.yaml").read_text()))
    report = odds(three, limit=300, trials=200, workers=1, precision=0)
    assert report.note is not None
    from spacecombat.analysis.budget import CHANCE_STATES
    from spacecombat.rulesets.ec4x.battle import Ec4xBattle

    scaled = Ec4xBattle.settled_states * 300 // CHANCE_STATES
    assert f"stopped at {scaled:,} battle states reached by the dice" in report.note
    assert report.note.endswith(
        "; a larger budget (--budget, up to 100,000 battle states) may solve it exactly"
    )


def test_an_ec4x_battle_stopped_by_its_folds_budget_is_offered_a_larger_budget() -> None:
    """EC4X's folds' budgets (the attackers' selection walks here, 24S) are sized from its
    settled states and grow with the budget asked (``Ec4xBattle.size_folds``), so a battle
    stopped by one is offered a larger budget too."""
    from spacecombat.rulesets import parse_scenario

    three = parse_scenario(yaml.safe_load((EXAMPLES / "ec4x" / "three-houses.yaml").read_text()))
    report = odds(three, limit=300, trials=200, workers=1, precision=0)
    assert report.note is not None
    assert "steps of attackers' selections" in report.note
    assert report.note.endswith(
        "; a larger budget (--budget, up to 100,000 battle states) may solve it exactly"
    )
