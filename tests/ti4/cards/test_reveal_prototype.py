"""Reveal Prototype (action card; abilities/reveal_prototype.py): "At the start of a combat: Spend
4 resources to research a unit upgrade technology of the same type as 1 of your units that is
participating in this combat." Played through "play_card" in the "start of combat" window of a
space combat (ti4-space-combat.md rule 2.1, before anti-fighter barrage) or of a ground combat
(ti4-ground-combat.md rule 4.1); the upgrade acts from then on for the rest of the battle
(``BattleState.gained``). Prerequisites from ``technology_colours``; paid with ``resources``
first, then trade goods (docs/rulings.md 14R-1..6)."""

from __future__ import annotations

from fractions import Fraction
from typing import Any, cast

import pytest

from spacecombat import odds
from spacecombat.core.errors import RuleNotImplemented, ScenarioError
from spacecombat.replayer import replay
from spacecombat.resolver import resolve
from spacecombat.rulesets import parse_ti_scenario
from spacecombat.rulesets.ti4.abilities.reveal_prototype import upgrade_of
from spacecombat.rulesets.ti4.rules import load
from spacecombat.rulesets.ti4.setup import UPGRADABLE, UPGRADE, build
from spacecombat.rulesets.ti4.sides import Side
from tests.helpers import events, invasion, rolls, run, run_cli, space, write_file

#: Cruiser II needs green, yellow and red (units.toml upgrade_tech_prereqs "GYR")
GYR = {"green": 1, "yellow": 1, "red": 1}


def holder(units: str, colours: dict[str, int] | None = None, **side: Any) -> dict[str, Any]:
    """A side holding Reveal Prototype with 4 resources (unless ``side`` says otherwise)."""
    return {
        "units": units,
        "action_cards": ["reveal_prototype"],
        "resources": 4,
        "technology_colours": GYR if colours is None else colours,
        **side,
    }


def duel(**side: Any) -> dict[str, Any]:
    return space(holder("1 cruiser", **side), {"units": "1 cruiser"})


def groups(played: Any, purpose: str, player: str = "attacker") -> list[dict[str, Any]]:
    found: list[dict[str, Any]] = []
    for roll in rolls(played, purpose):
        if roll["player"] == player:
            found += cast("list[dict[str, Any]]", roll["groups"])
    return found


def offered(played: Any) -> list[str]:
    """The options of the holder's Reveal Prototype decisions."""
    return [
        option
        for choice in events(played, "choice_made", decision="play_card")
        for option in cast("list[str]", choice["options"])
    ]


def test_cruiser_ii_hits_on_6_from_the_first_round_on() -> None:
    # round 1: 1 misses, the defender misses; round 2: 6 hits (Cruiser II: 6), the defender misses
    played = run(duel(), [1, 1, 6, 1])
    [card] = events(played, "card_played")
    assert (card["player"], card["card"], card["round"]) == ("attacker", "reveal_prototype", 1)
    [gained] = events(played, "technology_gained")
    assert (gained["technology"], gained["name"], gained["unit"], gained["by"]) == (
        "upgrade:cruiser",
        "Cruiser II",
        "cruiser",
        "reveal_prototype",
    )
    assert [g["hit_on"] for g in groups(played, "space_combat")] == [6, 6]
    assert [g["hit_on"] for g in groups(played, "space_combat", "defender")] == [7, 7]
    assert played.outcome["winner"] == "attacker"


def test_destroyer_ii_fires_its_barrage_in_the_first_round() -> None:
    # Destroyer II (prerequisites RR): ANTI-FIGHTER BARRAGE 6 x3 instead of 9 x2
    # barrage 6, 6, 1: both fighters; round 1: the destroyer hits on 8 (Destroyer II), the
    # carrier misses
    scenario = space(holder("1 destroyer", {"red": 2}), {"units": "1 carrier, 2 fighter"})
    played = run(scenario, [6, 6, 1, 8, 1])
    [barrage] = groups(played, "anti_fighter_barrage")
    assert (barrage["hit_on"], len(barrage["faces"]), barrage["hits"]) == (6, 3, 2)
    assert [g["hit_on"] for g in groups(played, "space_combat")] == [8]
    assert played.outcome["winner"] == "attacker"


def test_infantry_ii_in_a_ground_combat_and_in_the_next_one() -> None:
    # Infantry II (GG) hits on 7; gained at the start of the first ground combat, it acts in
    # the second too, and the card is not offered again
    scenario = invasion(
        holder("1 carrier, 2 infantry", {"green": 2}),
        {},
        planets=[
            {"name": "P", "defender": {"infantry": 1}, "commit": {"infantry": 1}},
            {"name": "Q", "defender": {"infantry": 1}, "commit": {"infantry": 1}},
        ],
    )
    played = run(scenario, [7, 1, 7, 1])
    assert len(events(played, "technology_gained", technology="upgrade:infantry")) == 1
    assert offered(played) == ["play reveal_prototype: infantry", "pass"]
    assert [g["hit_on"] for g in groups(played, "ground_combat")] == [7, 7]
    assert played.outcome["winner"] == "attacker"


def test_the_defender_upgrades_its_ground_forces_on_the_planet() -> None:
    # the attacker's infantry misses (1); the defender's, now Infantry II, hits on 7
    defender = {"action_cards": ["reveal_prototype"], "resources": 4}
    scenario = invasion(
        {"units": "1 carrier, 1 infantry"},
        {**defender, "technology_colours": {"green": 2}},
        planets=[{"name": "P", "defender": {"infantry": 1}}],
    )
    played = run(scenario, [1, 7])
    [gained] = events(played, "technology_gained")
    assert (gained["player"], gained["technology"]) == ("defender", "upgrade:infantry")
    assert [g["hit_on"] for g in groups(played, "ground_combat", "defender")] == [7]
    assert played.outcome["winner"] == "defender"


def test_not_for_ground_forces_in_a_space_combat() -> None:
    # infantry in the space area do not participate in a space combat
    scenario = space(holder("1 carrier, 2 infantry", {"green": 2}), {"units": "1 carrier"})
    played = run(scenario, [1, 10])
    assert not events(played, "choice_made", decision="play_card")


def test_not_for_a_pds_in_a_space_combat() -> None:
    # PDS II (RY) is met, but the PDS on the planet does not participate in a space combat;
    # Destroyer II (RR) is not met
    scenario = space(holder("1 destroyer, 1 pds", {"red": 1, "yellow": 1}), {"units": "1 cruiser"})
    played = resolve(scenario, seed=2)
    assert rolls(played, "space_cannon_offense")
    assert not events(played, "choice_made", decision="play_card")


def test_paid_with_resources_first_then_trade_goods() -> None:
    played = run(duel(resources=3, trade_goods=2), [6, 1])
    [resources] = events(played, "resources_spent")
    [trade_goods] = events(played, "trade_goods_spent")
    assert (resources["resources"], trade_goods["trade_goods"]) == (3, 1)
    assert trade_goods["by"] == resources["by"] == "reveal_prototype"


def test_paid_with_trade_goods_alone() -> None:
    played = run(duel(resources=0, trade_goods=4), [6, 1])
    assert not events(played, "resources_spent")
    [trade_goods] = events(played, "trade_goods_spent")
    assert trade_goods["trade_goods"] == 4


def test_not_offered_without_4_to_spend() -> None:
    played = run(duel(resources=1, trade_goods=2), [7, 1])
    assert not events(played, "choice_made", decision="play_card")
    assert [g["hit_on"] for g in groups(played, "space_combat")] == [7]


def test_not_offered_without_the_prerequisites() -> None:
    played = run(duel(colours={"green": 1, "yellow": 1}), [7, 1])
    assert not events(played, "choice_made", decision="play_card")


def test_a_technology_specialty_stands_for_a_missing_prerequisite() -> None:
    """Rules reference 90.12 (docs/rulings.md 27T-6): a readied planet with a red specialty
    ignores the red prerequisite of Cruiser II (GYR); the upgrade is offered and played."""
    played = run(
        duel(colours={"green": 1, "yellow": 1}, technology_specialties={"red": 1}), [1, 1, 6, 1]
    )
    assert [e["technology"] for e in events(played, "technology_gained")] == ["upgrade:cruiser"]
    blue = run(duel(colours={"green": 1, "yellow": 1}, technology_specialties={"blue": 1}), [7, 1])
    assert not events(blue, "choice_made", decision="play_card")  # not of the missing colour


def test_not_offered_for_a_type_already_upgraded() -> None:
    played = run(duel(upgrades=["cruiser"]), [6, 1])
    assert not events(played, "choice_made", decision="play_card")


def test_the_stock_policy_picks_the_upgrade_that_adds_most_expected_hits() -> None:
    # Fighter II: 2 fighters x 1/10; Cruiser II: 1 cruiser x 1/10 (GYR and GB both met)
    colours = {"green": 1, "yellow": 1, "red": 1, "blue": 1}
    scenario = space(holder("1 cruiser, 1 carrier, 2 fighter", colours), {"units": "1 cruiser"})
    played = resolve(scenario, seed=1)
    [choice] = events(played, "choice_made", decision="play_card")
    # Carrier II needs two blue technologies: not offered
    assert choice["options"] == [
        "play reveal_prototype: fighter",
        "play reveal_prototype: cruiser",
        "pass",
    ]
    assert choice["choice"] == "play reveal_prototype: fighter"


def test_the_barrage_counts_when_the_opponent_has_fighters() -> None:
    # Destroyer II adds 1/10 to the combat roll and 18/10 - 2/10 to the barrage; 2 Fighter II
    # add 2/10. Against fighters the destroyer's upgrade comes first, else the fighters'.
    colours = {"red": 2, "green": 1, "blue": 1}
    mine = holder("1 carrier, 1 destroyer, 2 fighter", colours)
    against_fighters = resolve(space(mine, {"units": "1 carrier, 2 fighter"}), seed=1)
    [choice] = events(against_fighters, "choice_made", decision="play_card")
    assert choice["choice"] == "play reveal_prototype: destroyer"
    against_a_cruiser = resolve(space(mine, {"units": "1 cruiser"}), seed=1)
    [choice] = events(against_a_cruiser, "choice_made", decision="play_card")
    assert choice["choice"] == "play reveal_prototype: fighter"


def test_equal_gains_rank_by_count_then_name() -> None:
    # Cruiser II and Fighter II each add 1/10 to one unit's roll: "cruiser" comes first
    colours = {"green": 1, "yellow": 1, "red": 1, "blue": 1}
    played = resolve(
        space(holder("1 carrier, 1 cruiser, 1 fighter", colours), {"units": "1 cruiser"}), seed=1
    )
    [choice] = events(played, "choice_made", decision="play_card")
    assert cast("list[str]", choice["options"])[:2] == [
        "play reveal_prototype: cruiser",
        "play reveal_prototype: fighter",
    ]


def test_the_stock_policy_passes_when_no_upgrade_adds_hits() -> None:
    # Carrier II (BB) changes no roll: offered, "pass" first, and the stock policy passes
    scenario = space(holder("1 carrier", {"blue": 2}), {"units": "1 carrier"})
    played = resolve(scenario, seed=1)
    [choice] = events(played, "choice_made", decision="play_card")
    assert choice["options"] == ["pass", "play reveal_prototype: carrier"]
    assert choice["choice"] == "pass"


def test_a_faction_unit_researches_its_own_upgrade() -> None:
    # Sardakk's Exotrireme I researches Exotrireme II (BBY), chosen by a scripted player
    side = holder("1 dreadnought", {"blue": 2, "yellow": 1}, faction="sardakk")
    played = run(
        space(side, {"units": "1 cruiser"}),
        [10, 1],
        attacker=["play reveal_prototype: dreadnought"],
    )
    [gained] = events(played, "technology_gained")
    assert (gained["technology"], gained["name"]) == ("upgrade:dreadnought", "Exotrireme II")
    setup = build(parse_ti_scenario(space(side, {"units": "1 cruiser"})))
    having = setup.having((frozenset({UPGRADE + "dreadnought"}), frozenset()))
    assert having.side(Side.ATTACKER).card("dreadnought").id == "sardakk_dreadnought2"


def test_prototype_war_sun_ii_is_researched_when_chosen() -> None:
    # the Muaat war sun's upgrade (Prototype War Sun II, prerequisites RRRY) is a card the side
    # then uses (cards: [muaat_war_sun2], 14R-7); its combat is the same, so the stock player
    # passes and a scripted one may research it
    side = holder("1 war_sun", {"red": 3, "yellow": 1}, faction="muaat")
    scenario = space(side, {"units": "1 cruiser"})
    stock = run(scenario, [3, 1, 1, 1], all_dice=False)
    assert offered(stock) == ["pass", "play reveal_prototype: war_sun"]
    chosen = run(
        scenario, [3, 1, 1, 1], all_dice=False, attacker=["play reveal_prototype: war_sun"]
    )
    [gained] = events(chosen, "technology_gained")
    assert (gained["technology"], gained["name"]) == ("upgrade:war_sun", "Prototype War Sun II")
    setup = build(parse_ti_scenario(scenario))
    having = setup.having((frozenset({UPGRADE + "war_sun"}), frozenset()))
    assert having.side(Side.ATTACKER).card("war_sun").id == "muaat_war_sun2"


def test_a_scripted_pass_and_policies_keep_the_card() -> None:
    passed = run(duel(), [7, 1], attacker=["pass"])
    assert not events(passed, "card_played")
    never = run(duel(policy={"play": {"reveal_prototype": "never"}}), [7, 1])
    assert not events(never, "card_played")
    # the start of a combat is in its first round: a later round never comes for it
    later = run(duel(policy={"play": {"reveal_prototype": {"round": 2}}}), [7, 1])
    assert not events(later, "card_played")
    first = run(duel(policy={"play": {"reveal_prototype": {"round": 1}}}), [6, 1])
    assert events(first, "card_played")


def test_a_holder_must_say_its_technology_colours_and_resources() -> None:
    side = holder("1 cruiser")
    del side["technology_colours"]
    with pytest.raises(ScenarioError) as error:
        odds(space(side, {"units": "1 cruiser"}))
    assert error.value.field == "attacker.technology_colours"
    side = holder("1 cruiser")
    del side["resources"]
    with pytest.raises(ScenarioError) as error:
        odds(space({"units": "1 cruiser"}, side))
    assert error.value.field == "defender.resources"


def test_a_missing_key_exits_2_naming_it(capsys: pytest.CaptureFixture[str], tmp_path: Any) -> None:
    path = write_file(
        tmp_path,
        "battle.yaml",
        "ruleset: ti4\nbattle: space\nattacker: {units: {cruiser: 1}, "
        "action_cards: [reveal_prototype], resources: 4}\ndefender: {units: {cruiser: 1}}\n",
    )
    status, out, err = run_cli(capsys, "odds", path)
    assert status == 2
    assert "attacker.technology_colours" in err
    assert not out


def test_technology_colours_are_checked() -> None:
    with pytest.raises(ScenarioError) as error:
        odds(duel(colours={"green": 1, "purple": 1}))
    assert "purple" in str(error.value)
    with pytest.raises(ScenarioError) as error:
        odds(duel(colours={"red": 21}))
    assert "attacker.technology_colours.red" in str(error.value)
    # fewer than the side's technologies of that colour (Duranium Armor is red)
    side = holder("1 cruiser", {"red": 0}, technologies=["duranium_armor"])
    with pytest.raises(ScenarioError) as error:
        odds(space(side, {"units": "1 cruiser"}))
    assert error.value.field == "attacker.technology_colours.red"


def test_ti3_refuses_the_keys() -> None:
    scenario = {
        "ruleset": "ti3",
        "battle": "space",
        "attacker": {"units": "1 cruiser", "resources": 4},
        "defender": {"units": "1 cruiser"},
    }
    with pytest.raises(ScenarioError) as error:
        odds(scenario)
    assert error.value.field == "attacker.resources"


def test_memoria_ii_is_researched_and_rolls_on_5() -> None:
    # the Nomad flagship's upgrade, Memoria II (prerequisites GBY: docs/rulings.md 14R-7): combat
    # 5 x2 in place of 7 x2 from round 1 on (its barrage, 3 dice, misses; a 5 hits; the
    # cruiser misses)
    side = holder("1 flagship", {"green": 1, "blue": 1, "yellow": 1}, faction="nomad")
    played = run(space(side, {"units": "1 cruiser"}), [1, 1, 1, 5, 1, 1])
    [gained] = events(played, "technology_gained")
    assert (gained["technology"], gained["name"]) == ("upgrade:flagship", "Memoria II")
    assert [g["hit_on"] for g in groups(played, "space_combat")] == [5]
    assert played.outcome["winner"] == "attacker"


def test_memoria_ii_is_not_offered_without_its_prerequisites() -> None:
    side = holder("1 flagship", {"green": 1, "yellow": 1}, faction="nomad")
    played = run(space(side, {"units": "1 cruiser"}), [1, 1, 1, 7, 1, 1])
    assert not events(played, "choice_made", decision="play_card")
    assert [g["hit_on"] for g in groups(played, "space_combat")] == [7]


def test_a_technology_gained_adds_its_colour() -> None:
    # (Technological Singularity's case: a coloured technology gained during the battle)
    setup = build(parse_ti_scenario(duel()))
    having = setup.having((frozenset({"duranium_armor"}), frozenset()))
    colours = having.scenario.attacker.technology_colours
    assert colours is not None
    assert (colours.red, colours.yellow) == (2, 1)
    upgraded = setup.having((frozenset({UPGRADE + "cruiser"}), frozenset()))
    assert (
        upgraded.scenario.attacker.technology_colours == setup.scenario.attacker.technology_colours
    )
    assert upgraded.side(Side.ATTACKER).card("cruiser").id == "cruiser2"


def test_logs_replay() -> None:
    seeded = resolve(duel(), seed=3)
    assert events(seeded, "technology_gained")
    report = replay(list(seeded.events))
    assert report.reproduces, report.reason
    assert report.verified


def test_exact_odds_hand_derived() -> None:
    """Cruiser II (6: a = 1/2) against a cruiser (7: d = 2/5), every round: a round ends the
    duel with 1 - (1/2)(3/5) = 7/10. Won (1/2)(3/5) / (7/10) = 3/7, drawn (1/2)(2/5) / (7/10)
    = 2/7, lost (1/2)(2/5) / (7/10) = 2/7 (without the card: 3/8, 1/4, 3/8)."""
    found = odds(duel())
    assert found.method == "exact"
    assert found.attacker_win == pytest.approx(float(Fraction(3, 7)), abs=1e-12)
    assert found.draw == pytest.approx(float(Fraction(2, 7)), abs=1e-12)
    assert found.defender_win == pytest.approx(float(Fraction(2, 7)), abs=1e-12)
    plain = odds(duel(policy={"play": {"reveal_prototype": "never"}}))
    assert plain.attacker_win == pytest.approx(float(Fraction(3, 8)), abs=1e-12)


def test_exact_odds_of_a_ground_combat_hand_derived() -> None:
    """Two Infantry II (7: each hits 2/5) invade a planet held by one infantry (8: d = 3/10);
    hits are assigned after both rolled. With two: the attacker hits with 1 - (3/5)^2 = 16/25
    and wins; if it misses and the defender hits (9/25 · 3/10), one against one follows; both
    miss (9/25 · 7/10): again. One against one (a = 2/5): won a(1-d), drawn a·d, again
    (1-a)(1-d) = 21/50."""
    scenario = invasion(
        holder("1 carrier, 2 infantry", {"green": 2}),
        {},
        planets=[{"name": "P", "defender": {"infantry": 1}}],
    )
    found = odds(scenario)
    d, one, two = Fraction(3, 10), Fraction(2, 5), Fraction(16, 25)
    again_one = (1 - one) * (1 - d)
    won_one, drawn_one = one * (1 - d) / (1 - again_one), one * d / (1 - again_one)
    again_two = (1 - two) * (1 - d)
    won = (two + (1 - two) * d * won_one) / (1 - again_two)
    drawn = (1 - two) * d * drawn_one / (1 - again_two)
    assert found.attacker_win == pytest.approx(float(won), abs=1e-12)
    assert found.draw == pytest.approx(float(drawn), abs=1e-12)


def test_the_upgrade_offered_is_the_card_the_battle_then_reads() -> None:
    """For every faction and unit type with an upgrade, ``upgrade_of`` (what the card offers and
    logs) is the card ``BattleSetup.having`` gives the type once it is gained."""
    checked = 0
    for faction in [None, *sorted(load().factions)]:
        side: dict[str, Any] = {"units": "1 cruiser"}
        if faction is not None:
            side["faction"] = faction
        try:
            setup = build(parse_ti_scenario(space(side, {"units": "1 cruiser"})))
        except RuleNotImplemented:
            continue  # a faction whose abilities are not all implemented yet
        for unit in UPGRADABLE:
            card = setup.side(Side.ATTACKER).card(unit)
            having = setup.having((frozenset({UPGRADE + unit}), frozenset()))
            upgrade = upgrade_of(card)
            assert upgrade is not None, (faction, unit)
            assert having.side(Side.ATTACKER).card(unit).id == upgrade.id, (faction, unit)
            checked += 1
    assert checked > 100


def test_a_side_names_memoria_ii_or_prototype_war_sun_ii_under_cards() -> None:
    # the upgrades that ``upgrades`` cannot name (a flagship, a faction war sun): a side that
    # owns one names its card (14R-7), as a Codex printing is named (14S-1)
    nomad = build(
        parse_ti_scenario(
            space(
                {"faction": "nomad", "units": "1 flagship", "cards": ["nomad_flagship2"]},
                {"units": "1 cruiser"},
            )
        )
    )
    assert nomad.side(Side.ATTACKER).card("flagship").name == "Memoria II"
    with pytest.raises(ScenarioError) as error:
        build(
            parse_ti_scenario(
                space(
                    {"faction": "sol", "units": "1 war_sun", "cards": ["muaat_war_sun2"]},
                    {"units": "1 cruiser"},
                )
            )
        )
    assert error.value.field == "attacker.cards[0]"
    assert "a card of muaat; this side is sol" in error.value.message
