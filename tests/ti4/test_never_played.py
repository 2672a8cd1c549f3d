"""Effects the stock policies never play are left out of the odds engine's battle (issue 24;
docs/rulings.md 24B-1; setup/building.py ``BattleSetup.for_stock_policies``).

An effect that acts only once its holder's ``play_card`` decision answers "play"
(``Handler.played_as``: War Funding Ω, the Crown of Thalnos law and relic, War Funding, Morale
Boost, Fighter Prototype, Supercharge, Fire Team, Emergency Repairs; Direct Hit, Reflective
Shielding, Shields Holding, Courageous to the End, 24U-4) does nothing while
its holder passes, and a stock policy whose ``policy.play`` says ``never`` passes at every offer
(core/policies.py ``StockPolicy._play_card``). The odds engine decides with the stock policies
alone, so it leaves such an effect out of play: War Funding Ω no longer keeps its holder's roll
group by group (a chance state for each group's hits), and the Crown no longer keeps the rounds
off the product form. The answers are the whole state graph's, the effect in play: checked
here on scripted battles and, slow-marked, on random faction battles holding one. The
resolver, which may ask a person instead (``--ask``), keeps the effect in play.
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import Any

import pytest
from benchmarks.factions import random_faction_battle

from spacecombat import odds
from spacecombat.analysis import budget
from spacecombat.analysis.exact import exact_odds
from spacecombat.core.errors import RuleNotImplemented
from spacecombat.rulesets import battle, parse_scenario
from spacecombat.rulesets.ti4.abilities.base import HANDLERS, never_played
from spacecombat.rulesets.ti4.battle import Ti4Battle
from spacecombat.rulesets.ti4.setup import build
from spacecombat.rulesets.ti4.sides import Side
from tests.helpers import events, invasion, run, space
from tests.ti4.test_fast_path_guard import figures


def holding(card: str, units: str = "2 cruiser", **extra: Any) -> dict[str, Any]:
    return {"units": units, "promissory_notes": [card], **extra}


def war_funding(play: Any = "never") -> dict[str, Any]:
    """2 cruisers holding War Funding Ω (its ``policy.play``: ``play``) against a carrier, a
    destroyer and 2 fighters."""
    return space(
        holding("war_funding_omega", policy={"play": {"war_funding_omega": play}}),
        {"units": "1 carrier, 1 destroyer, 2 fighter"},
    )


def crown_relic(play: Any = "never") -> dict[str, Any]:
    """The Crown of Thalnos relic (never played) and Duranium Armor on a dreadnought and a
    cruiser, against 3 cruisers."""
    return space(
        {
            "units": "1 dreadnought, 1 cruiser",
            "relics": ["the_crown_of_thalnos"],
            "technologies": ["duranium_armor"],
            "policy": {"play": {"the_crown_of_thalnos": play}},
        },
        {"units": "3 cruiser"},
    )


def crown_law(play: Any = "never") -> dict[str, Any]:
    """The Crown of Thalnos law, the defender elected (never played), 2 destroyers and a
    dreadnought against 2 cruisers."""
    return space(
        {"units": "2 cruiser"},
        {
            "units": "2 destroyer, 1 dreadnought",
            "policy": {"play": {"crown_of_thalnos": play}},
        },
        laws=["crown_of_thalnos"],
        elected={"crown_of_thalnos": "defender"},
    )


def never(card: str) -> dict[str, Any]:
    """A side's policy that never plays ``card``."""
    return {"play": {card: "never"}}


def action_card(card: str, units: str, against: str) -> dict[str, Any]:
    """A space battle: ``units`` holding the action card ``card`` (never played) against
    ``against``."""
    return space(
        {"units": units, "action_cards": [card], "policy": never(card)}, {"units": against}
    )


#: a battle for each effect declared ``played_as``, its holder never playing it: the scenario,
#: the handler and its owner (data/cards.toml, data/technologies.toml, data/laws.toml)
CASES: dict[str, tuple[dict[str, Any], str, Side]] = {
    "war funding omega": (war_funding(), "war_funding_omega", Side.ATTACKER),
    "crown relic": (crown_relic(), "crown_of_thalnos_relic", Side.ATTACKER),
    "crown law": (crown_law(), "crown_of_thalnos", Side.DEFENDER),
    "war funding": (
        space(
            holding("war_funding", policy=never("war_funding")),
            {"units": "1 carrier, 1 destroyer, 2 fighter"},
        ),
        "war_funding",
        Side.ATTACKER,
    ),
    "morale boost": (
        action_card("morale_boost", "2 cruiser", "3 destroyer"),
        "morale_boost",
        Side.ATTACKER,
    ),
    "fighter prototype": (
        action_card("fighter_prototype", "1 carrier, 3 fighter", "2 destroyer"),
        "fighter_prototype",
        Side.ATTACKER,
    ),
    "emergency repairs": (
        action_card("emergency_repairs", "2 dreadnought", "4 cruiser"),
        "emergency_repairs",
        Side.ATTACKER,
    ),
    "supercharge": (
        space(
            {
                "faction": "naazrokha",
                "units": "2 cruiser",
                "technologies": ["supercharge"],
                "policy": never("supercharge"),
            },
            {"units": "2 cruiser, 1 destroyer"},
        ),
        "supercharge",
        Side.ATTACKER,
    ),
    # (docs/rulings.md 24U-4) cards offered while hits are assigned, acting only once played
    "direct hit": (
        action_card("direct_hit", "2 cruiser", "2 dreadnought"),
        "direct_hit",
        Side.ATTACKER,
    ),
    "reflective shielding": (
        action_card("reflective_shielding", "2 dreadnought", "3 cruiser"),
        "reflective_shielding",
        Side.ATTACKER,
    ),
    "shields holding": (
        action_card("shields_holding", "2 dreadnought", "4 cruiser"),
        "shields_holding",
        Side.ATTACKER,
    ),
    "courageous to the end": (
        action_card("courageous_to_the_end", "2 cruiser, 1 destroyer", "2 dreadnought"),
        "courageous_to_the_end",
        Side.ATTACKER,
    ),
    "fire team": (
        invasion(
            {
                "units": "1 carrier, 3 infantry",
                "action_cards": ["fire_team"],
                "policy": never("fire_team"),
            },
            {},
            planets=[{"name": "P", "defender": {"infantry": 2}}],
        ),
        "fire_team",
        Side.ATTACKER,
    ),
}


def ids(process: Any) -> set[str]:
    assert isinstance(process, Ti4Battle)
    return {h.id for h in process.setup.handlers}


def whole_graph(scenario: Mapping[str, Any], monkeypatch: pytest.MonkeyPatch) -> dict[str, float]:
    """The figures of the whole state graph with every effect in play (the odds engine's battle
    not narrowed) and the graph's budgets raised."""
    with monkeypatch.context() as m:
        m.setattr(Ti4Battle, "for_stock_policies", lambda self: self)
        m.setattr(budget, "GRAPH_STEPS", 10**8)
        m.setattr(budget, "GRAPH_OUTCOMES", 10**8)
        m.setattr(budget, "GRAPH_SETTLED", 10**8)
        return figures(exact_odds(scenario, product_form=False, limit=None).to_json())


def assert_same(fast: dict[str, float], slow: dict[str, float]) -> None:
    gaps = {k: abs(fast.get(k, 0.0) - slow.get(k, 0.0)) for k in fast.keys() | slow.keys()}
    worst = max(gaps, key=gaps.__getitem__)
    assert gaps[worst] <= 1e-12, (worst, gaps[worst])


@pytest.mark.parametrize(("scenario", "effect", "owner"), list(CASES.values()), ids=list(CASES))
def test_an_effect_never_played_is_left_out_of_the_odds_engines_battle(
    scenario: dict[str, Any], effect: str, owner: Side
) -> None:
    setup = build(parse_scenario(scenario))  # type: ignore[arg-type]
    assert effect in {h.id for h in setup.handlers}
    narrowed = setup.for_stock_policies()
    assert effect not in {h.id for h in narrowed.handlers}
    assert narrowed.left_out == frozenset({(effect, owner)})
    # every other handler stays, in its order
    assert [h for h in setup.handlers if h.id != effect] == list(narrowed.handlers)
    process = battle(parse_scenario(scenario))
    assert effect in ids(process)  # the resolver's battle keeps it
    assert isinstance(process, Ti4Battle)
    assert effect not in ids(process.for_stock_policies())


def test_every_effect_declared_played_as_has_its_case() -> None:
    # each declaration is checked against the whole state graph by a battle of its own
    declared = {name for name, cls in HANDLERS.items() if cls.played_as is not None}
    assert declared == {effect for _, effect, _ in CASES.values()}
    for name in declared:
        card = HANDLERS[name].played_as
        assert card == getattr(HANDLERS[name], "card", None), name  # the decision's facts


@pytest.mark.parametrize("play", [{"round": 2}, None])
def test_an_effect_played_some_round_stays(play: Any) -> None:
    scenario = war_funding(play) if play is not None else war_funding()
    if play is None:
        scenario["attacker"]["policy"] = {}
    setup = build(parse_scenario(scenario))  # type: ignore[arg-type]
    assert setup.for_stock_policies() is setup
    process = battle(parse_scenario(scenario))
    assert isinstance(process, Ti4Battle)
    assert process.for_stock_policies() is process


def test_only_effects_that_act_once_played_are_left_out() -> None:
    # Duranium Armor acts every round whatever its owner's policy.play says of it: no
    # ``played_as``, so never a card to leave out
    setup = build(parse_scenario(crown_relic()))  # type: ignore[arg-type]
    armour = next(h for h in setup.handlers if h.id == "duranium_armor")
    assert not never_played(armour, {"duranium_armor": "never"})
    crown = next(h for h in setup.handlers if h.id == "crown_of_thalnos_relic")
    assert never_played(crown, {"the_crown_of_thalnos": "never"})
    assert not never_played(crown, {"the_crown_of_thalnos": 2})
    assert not never_played(crown, {"crown_of_thalnos": "never"})  # the law's key


def test_technologies_gained_later_leave_it_out_too() -> None:
    setup = build(parse_scenario(crown_relic())).for_stock_policies()  # type: ignore[arg-type]
    gained = setup.having((frozenset({"graviton_laser_system"}), frozenset()))
    held = {h.id for h in gained.handlers}
    assert "crown_of_thalnos_relic" not in held
    assert "duranium_armor" in held
    assert gained.left_out == setup.left_out


def test_the_resolver_still_offers_the_card() -> None:
    # round 1: the holder's cruisers both miss (3, 3), the opponent's dice hit nothing (1, 1,
    # 1, 1): the stock policy is offered War Funding Ω and passes, as before; then the holder's
    # cruisers hit with every die (10) and the opponent misses, till its 4 units are destroyed
    faces = [3, 3, 1, 1, 1, 1, 10, 10, 1, 1, 1, 1, 10, 10, 1, 1]
    played = run(war_funding(), faces, all_dice=False)
    choices = events(played, "choice_made", decision="play_card")
    assert choices
    assert choices[0]["choice"] == "pass"


def test_war_funding_never_played_no_longer_splits_the_roll() -> None:
    # one chance state per roll instead of one per group's hits: the odds engine's battle has
    # no handler keeping rolls
    process = battle(parse_scenario(war_funding()))
    assert isinstance(process, Ti4Battle)
    assert process.setup.answering("keeps_rolls")
    assert not process.for_stock_policies().setup.answering("keeps_rolls")


@pytest.mark.parametrize("scenario", [c[0] for c in CASES.values()], ids=list(CASES))
def test_the_answers_are_the_whole_state_graphs(
    scenario: dict[str, Any], monkeypatch: pytest.MonkeyPatch
) -> None:
    report = odds(scenario, fallback=False)
    assert report.method == "exact"
    assert_same(figures(report.to_json()), whole_graph(scenario, monkeypatch))


@pytest.mark.parametrize(
    "scenario",
    [war_funding(), crown_relic(), crown_law()],
    ids=["war funding omega", "crown relic", "crown law"],
)
def test_the_state_after_two_rounds_is_the_whole_state_graphs(
    scenario: dict[str, Any], monkeypatch: pytest.MonkeyPatch
) -> None:
    # ``rounds``: the state-by-state engine, on the battle without the effect
    after = odds(scenario, rounds=2, fallback=False).to_json()["after_rounds"]
    with monkeypatch.context() as m:
        m.setattr(Ti4Battle, "for_stock_policies", lambda self: self)
        whole = odds(scenario, rounds=2, fallback=False).to_json()["after_rounds"]
    assert figures(after)
    assert_same(figures(after), figures(whole))


def test_the_crown_never_played_alone_keeps_the_product_form() -> None:
    scenario = crown_law()
    process = battle(parse_scenario(scenario))
    assert isinstance(process, Ti4Battle)
    assert process.product_refusal() is not None
    assert process.for_stock_policies().product_refusal() is None


#: the ``policy.play`` keys of the effects left out when never played
KEYS = (
    "war_funding_omega",
    "the_crown_of_thalnos",
    "crown_of_thalnos",
    "war_funding",
    "morale_boost",
    "fighter_prototype",
    "emergency_repairs",
    "supercharge",
    "fire_team",
)


def never_battles(count: int) -> list[dict[str, Any]]:
    """Random faction battles (benchmarks/factions.py) where a side's ``policy.play`` says
    ``never`` of an effect it holds that acts only once played, ``count`` of them."""
    rng = random.Random(24)
    found: list[dict[str, Any]] = []
    for _ in range(20_000):
        scenario = random_faction_battle(rng)
        for side in ("attacker", "defender"):
            plays = scenario[side].get("policy", {}).get("play") or {}
            if any(plays.get(key) == "never" for key in KEYS):
                break
        else:
            continue
        try:
            setup = build(parse_scenario(scenario))  # type: ignore[arg-type]
        except RuleNotImplemented:
            continue
        if setup.for_stock_policies() is setup:
            continue
        found.append(scenario)
        if len(found) == count:
            break
    return found


@pytest.mark.slow
def test_random_faction_battles_give_the_whole_state_graphs_answers(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    checked = 0
    for scenario in never_battles(12):
        try:
            fast = figures(odds(scenario, fallback=False).to_json())
            slow = whole_graph(scenario, monkeypatch)
        except RuleNotImplemented:
            continue  # a combination refused by name when it is reached
        assert_same(fast, slow)
        checked += 1
    assert checked >= 8
