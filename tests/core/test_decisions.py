"""Decision requests (core/decisions.py): an answer must be one of the legal options."""

from __future__ import annotations

import pytest

from spacecombat.core.decisions import DecisionRequest, Option
from spacecombat.core.errors import IllegalChoice
from spacecombat.core.forces import Status


def assign_hit(explain: bool = True) -> DecisionRequest:
    """A space-combat hit against a dreadnought and a fighter (ti4-space-combat.md step 4)."""
    return DecisionRequest(
        decision="assign_hit",
        player="defender",
        prompt="1 space combat hit(s) against your ships: assign the next one",
        options=(
            Option("sustain dreadnought", "sustain", "dreadnought", Status.UNDAMAGED),
            Option("destroy dreadnought", "destroy", "dreadnought", Status.UNDAMAGED),
            Option("destroy fighter", "destroy", "fighter", Status.UNDAMAGED),
        ),
        explain=(lambda text: f"you have no {text.split()[-1]} in the space area")
        if explain
        else None,
    )


def test_a_legal_answer_gives_its_option() -> None:
    assert assign_hit().option("destroy fighter") == Option(
        "destroy fighter", "destroy", "fighter", Status.UNDAMAGED
    )


def test_extra_whitespace_in_an_answer_is_ignored() -> None:
    assert assign_hit().option("  sustain \t dreadnought\n").text == "sustain dreadnought"


def test_an_illegal_answer_is_refused() -> None:
    with pytest.raises(IllegalChoice):
        assign_hit().option("destroy carrier")


def test_the_refusal_names_the_player_the_decision_and_the_answer() -> None:
    with pytest.raises(
        IllegalChoice, match=r"^defender's assign_hit: 'destroy carrier' is refused"
    ):
        assign_hit().option("destroy carrier")


def test_the_refusal_gives_the_rules_reason() -> None:
    with pytest.raises(IllegalChoice, match="refused: you have no carrier in the space area;"):
        assign_hit().option("destroy carrier")


def test_the_reason_is_asked_for_the_normalised_answer() -> None:
    asked: list[str] = []

    def explain(text: str) -> str:
        asked.append(text)
        return "no"

    request = DecisionRequest(
        "assign_hit",
        "attacker",
        "assign",
        (Option("destroy fighter", "destroy", "fighter"),),
        explain=explain,
    )
    with pytest.raises(IllegalChoice):
        request.option("  destroy   carrier ")
    assert asked == ["destroy carrier"]


def test_the_refusal_lists_every_allowed_answer() -> None:
    with pytest.raises(
        IllegalChoice,
        match=r"allowed: sustain dreadnought; destroy dreadnought; destroy fighter$",
    ):
        assign_hit().option("destroy carrier")


def test_without_an_explanation_the_refusal_still_says_why() -> None:
    with pytest.raises(IllegalChoice, match="refused: it is not one of the legal choices;"):
        assign_hit(explain=False).option("retreat")


def test_to_json_lists_the_option_texts() -> None:
    assert assign_hit().to_json()["options"] == [
        "sustain dreadnought",
        "destroy dreadnought",
        "destroy fighter",
    ]
