"""A Valefar Assimilator's token on another faction's unit upgrade technology (docs/rulings.md
27V-7). Valefar Assimilator X: "When you would gain another player's technology using one of
your faction abilities, you may place the X assimilator token on a faction technology owned by
that player instead. While the X token is on a technology, this card gains that technology's
text." A faction unit upgrade (Strike Wing Alpha II, the Argent's destroyer II) is a faction
technology; its text is its unit card, whose attributes replace those of the unit it upgrades
(LRR "Unit Upgrades"), so the Nekro's destroyers become Strike Wing Alpha II. In the scenario
the Nekro names the copied card under ``cards``, one a free token; in battle Technological
Singularity offers "copy argent_destroyer2 with valefar_assimilator_x", ranked with the unit
upgrades that add to the Nekro's combat rolls (14T-3).

Destroyer I hits on 9 (1/5); Strike Wing Alpha II on 7 (2/5); both roll their ANTI-FIGHTER
BARRAGE in the first round, which hits nothing here (no fighters)."""

from __future__ import annotations

from fractions import Fraction
from functools import cache
from math import comb
from typing import Any

import pytest

from spacecombat import odds
from spacecombat.core.errors import ScenarioError
from spacecombat.resolver import resolve
from tests.helpers import (
    assert_logs_replay,
    assert_sampled_as_played,
    events,
    rolls,
    run,
    space,
)

COPY = "play technological_singularity: copy argent_destroyer2 with valefar_assimilator_x"
NEKRO: dict[str, Any] = {
    "units": "2 destroyer",
    "faction": "nekro",
    "technologies": ["valefar_assimilator_x"],
}
ARGENT: dict[str, Any] = {"units": "2 destroyer", "faction": "argent", "upgrades": ["destroyer"]}
#: the barrage of round 1: the Nekro's 2 destroyers (2 dice each), the Argent's (3 dice each)
BARRAGE = [1] * 4 + [1] * 6


def test_the_token_copies_strike_wing_alpha_ii_which_rolls_from_the_next_round() -> None:
    # Round 1: the Nekro's destroyers 9, 1 (a hit on 9), the Argent's 1, 1: one Argent
    # destroyer destroyed; the Nekro copies Strike Wing Alpha II. Round 2: the Nekro's
    # destroyers hit on 7 (7, 1: a hit), the Argent's miss (1).
    played = run(space(NEKRO, ARGENT), [*BARRAGE, 9, 1, 1, 1, 7, 1, 1])
    [choice] = events(played, "choice_made", decision="play_card")
    assert choice["choice"] == COPY
    assert choice["options"] == [COPY, "pass"]
    [gained] = events(played, "technology_gained")
    assert (gained["technology"], gained["name"], gained["unit"]) == (
        "argent_destroyer2",
        "Strike Wing Alpha II",
        "destroyer",
    )
    assert (gained["copied_with"], gained["source"]) == ("valefar_assimilator_x", "defender")
    first, second = (r for r in rolls(played, "space_combat") if r["player"] == "attacker")
    for roll, hit_on in ((first, 9), (second, 7)):
        groups = roll["groups"]
        assert isinstance(groups, list)
        assert groups[0]["hit_on"] == hit_on
    assert played.outcome["result"] == "attacker_win"


def test_no_free_token_no_copy() -> None:
    # X's token is on Non-Euclidean Shielding already (the scenario lists it, R23): nothing
    # is offered
    nekro = {**NEKRO, "technologies": ["valefar_assimilator_x", "non_euclidean_shielding"]}
    # Round 1: 9, 1 against 1, 1: an Argent destroyer destroyed, no copy; round 2: 9, 1
    # against 1: the last one destroyed.
    played = run(space(nekro, ARGENT), [*BARRAGE, 9, 1, 1, 1, 9, 1, 1])
    assert not events(played, "choice_made", decision="play_card")
    assert not events(played, "technology_gained")


def test_the_scenario_names_a_copied_unit_upgrade_under_cards() -> None:
    nekro = {**NEKRO, "units": "1 destroyer", "cards": ["argent_destroyer2"]}
    # the barrage: Strike Wing Alpha II's 3 dice, the destroyer's 2; then 7 (a hit), 1
    played = run(space(nekro, {"units": "1 destroyer"}), [1, 1, 1, 1, 1, 7, 1])
    [first, _] = rolls(played, "space_combat")
    groups = first["groups"]
    assert isinstance(groups, list)
    assert groups[0]["hit_on"] == 7
    [barrage, _] = rolls(played, "anti_fighter_barrage")
    barrage_groups = barrage["groups"]
    assert isinstance(barrage_groups, list)
    assert (barrage_groups[0]["hit_on"], len(barrage_groups[0]["faces"])) == (6, 3)


def test_exact_odds_of_a_listed_copy_hand_derived() -> None:
    """1 Strike Wing Alpha II (2/5) against 1 destroyer (1/5): a round decides with
    1 − 3/5 · 4/5 = 13/25; win 2/5 · 4/5 = 8/25, draw 2/5 · 1/5 = 2/25, loss 3/5 · 1/5 =
    3/25: win 8/13, draw 2/13, loss 3/13."""
    nekro = {**NEKRO, "units": "1 destroyer", "cards": ["argent_destroyer2"]}
    found = odds(space(nekro, {"units": "1 destroyer"}))
    assert found.attacker_win == pytest.approx(float(Fraction(8, 13)), abs=1e-12)
    assert found.draw == pytest.approx(float(Fraction(2, 13)), abs=1e-12)
    assert found.defender_win == pytest.approx(float(Fraction(3, 13)), abs=1e-12)


def _binomial(n: int, p: Fraction, k: int) -> Fraction:
    return comb(n, k) * p**k * (1 - p) ** (n - k)


@cache
def _chances(nekro: int, argent: int, copied: bool) -> tuple[Fraction, Fraction, Fraction]:
    """(win, draw, loss) of the Nekro's ``nekro`` destroyers against the Argent's ``argent``
    Strike Wing Alpha II (2/5), the Nekro's hitting on 9 (1/5) until it has copied the card,
    then on 7 (2/5). Both roll at once; the Nekro copies after the first Argent destroyer is
    destroyed while both still have ships (the offer comes after the destruction, once the
    hits are assigned); a round without hits repeats."""
    p, q = Fraction(2 if copied else 1, 5), Fraction(2, 5)
    total = [Fraction(0)] * 3
    for h in range(nekro + 1):
        for k in range(argent + 1):
            if h == k == 0:
                continue
            chance = _binomial(nekro, p, h) * _binomial(argent, q, k)
            left, right = max(nekro - k, 0), max(argent - h, 0)
            if left and right:
                after = _chances(left, right, copied or h > 0)
            else:
                after = (
                    Fraction(int(left > 0)),
                    Fraction(int(not left and not right)),
                    Fraction(int(right > 0)),
                )
            for i in range(3):
                total[i] += chance * after[i]
    repeat = _binomial(nekro, p, 0) * _binomial(argent, q, 0)
    win, draw, loss = (t / (1 - repeat) for t in total)
    return win, draw, loss


def test_exact_odds_of_a_copy_in_battle_hand_derived() -> None:
    """2 Nekro destroyers with Valefar Assimilator X against 2 Strike Wing Alpha II: the chain
    of ``_chances`` over (Nekro destroyers, Argent destroyers, copied), by hand."""
    win, draw, loss = _chances(2, 2, False)
    assert win + draw + loss == 1
    found = odds(space(NEKRO, ARGENT))
    assert found.attacker_win == pytest.approx(float(win), abs=1e-12)
    assert found.draw == pytest.approx(float(draw), abs=1e-12)
    assert found.defender_win == pytest.approx(float(loss), abs=1e-12)
    # without the assimilator the Nekro never rolls better than 9
    plain = odds(space({**NEKRO, "technologies": []}, ARGENT))
    assert plain.attacker_win < found.attacker_win


def test_logs_replay_and_are_sampled_as_played() -> None:
    scenario = space(NEKRO, ARGENT)
    assert_logs_replay(scenario, seeds=6)
    assert_sampled_as_played(scenario, trials=60)


def test_more_copies_than_assimilators_is_bad_input() -> None:
    nekro = {
        **NEKRO,
        "technologies": ["valefar_assimilator_x", "supercharge"],
        "cards": ["argent_destroyer2"],
    }
    with pytest.raises(
        ScenarioError, match="one other faction's technology or unit upgrade for each"
    ) as err:
        odds(space(nekro, ARGENT), fallback=False)
    assert err.value.field == "attacker.cards[0]"


def test_a_copy_without_an_assimilator_is_bad_input() -> None:
    nekro = {**NEKRO, "technologies": [], "cards": ["argent_destroyer2"]}
    with pytest.raises(ScenarioError, match="no token is left for it") as err:
        odds(space(nekro, ARGENT), fallback=False)
    assert err.value.field == "attacker.cards[0]"


def test_another_faction_cannot_copy() -> None:
    sol = {"units": "1 destroyer", "faction": "sol", "cards": ["argent_destroyer2"]}
    with pytest.raises(ScenarioError, match="is a card of argent; this side is sol"):
        odds(space(sol, ARGENT), fallback=False)


def test_a_flagship_upgrade_replaces_the_nekro_flagship() -> None:
    # Memoria II (the Nomad's flagship upgrade) copied: the Nekro's flagship is Memoria II
    # (combat 5, 2 dice; ANTI-FIGHTER BARRAGE 5 x3, rolled first) from then on, in a scenario
    # naming it and in battle.
    nekro = {**NEKRO, "units": "1 flagship", "cards": ["nomad_flagship2"]}
    played = run(space(nekro, {"units": "1 cruiser"}), [1, 1, 1, 5, 1, 1])
    [first, _] = rolls(played, "space_combat")
    groups = first["groups"]
    assert isinstance(groups, list)
    assert (groups[0]["unit"], groups[0]["hit_on"], groups[0]["faces"]) == ("flagship", 5, [5, 1])
    nomad = {"faction": "nomad", "units": "1 flagship, 3 cruiser", "cards": ["nomad_flagship2"]}
    scenario = space({**NEKRO, "units": "1 flagship, 2 cruiser"}, nomad)
    gained = [
        e
        for seed in range(6)
        for e in resolve(scenario, seed=seed).events
        if e["event"] == "technology_gained"
    ]
    assert gained
    assert {(e["technology"], e["unit"]) for e in gained} == {("nomad_flagship2", "flagship")}
