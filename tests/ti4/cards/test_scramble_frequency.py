"""Scramble Frequency (action card; abilities/scramble_frequency.py): "After another player
makes a BOMBARDMENT, SPACE CANNON, or ANTI-FIGHTER BARRAGE roll: that player rerolls all of
their dice" (ti4-combat-effects.md §6). After the opponent's anti-fighter barrage (ti4-space-
combat.md step 1), space cannon offense (the step before space combat), bombardment and space
cannon defense (ti4-ground-combat.md steps 1 and 3), its holder may make that player roll the
same dice again: the first results are discarded, the second roll's count, and that roll is
final (docs/rulings.md 14D3-4, 14RR-9, 14SF-1, 14SF-2). Offered ("play_card") when the roll hit
(or, for a barrage, destroys infantry). Against the defender's Experimental Battlestation roll
too (27T-3)."""

from __future__ import annotations

from fractions import Fraction
from typing import Any, cast

import pytest

from spacecombat import odds
from spacecombat.rulesets.ti4.abilities.anti_fighter_barrage import MARK_CAUSE
from tests.helpers import (
    assert_logs_replay,
    assert_sampled_as_played,
    events,
    invasion,
    rolls,
    run,
    space,
)

SF = {"action_cards": ["scramble_frequency"]}


def holder(units: str, **extra: Any) -> dict[str, Any]:
    return {"units": units, **SF, **extra}


def barrage_hits(played: Any) -> list[object]:
    return [r["hits"] for r in rolls(played, "anti_fighter_barrage")]


def test_a_barrage_that_hit_is_rolled_again() -> None:
    # barrage 9, 1: a hit; played: rerolled 1, 1; then the destroyer kills the carrier and
    # the fighters one by one (10 each round), the defender missing
    scenario = space({"units": "1 destroyer"}, holder("1 carrier, 2 fighter"))
    played = run(scenario, [9, 1, 1, 1, 10, 1, 1, 1, 10, 1, 1, 10, 1])
    [card] = events(played, "card_played")
    assert (card["player"], card["card"], card["round"]) == ("defender", "scramble_frequency", 1)
    assert barrage_hits(played) == [1, 0]
    kinds = [e["event"] for e in played.events]
    first, second = [i for i, k in enumerate(kinds) if k == "dice_rolled"][:2]
    assert first < kinds.index("card_played") < second
    assert not events(played, "unit_destroyed", cause="anti-fighter barrage")


def test_the_second_roll_counts() -> None:
    # barrage 9, 1 then rerolled 9, 9: both fighters die
    scenario = space({"units": "1 destroyer"}, holder("1 carrier, 2 fighter"))
    played = run(scenario, [9, 1, 9, 9, 10, 1])
    assert barrage_hits(played) == [1, 2]
    destroyed = events(played, "unit_destroyed", cause="anti-fighter barrage")
    assert [e["unit"] for e in destroyed] == ["fighter", "fighter"]


def test_not_offered_after_a_roll_that_missed() -> None:
    scenario = space({"units": "1 destroyer"}, holder("1 cruiser"))
    played = run(scenario, [1, 1, 10, 1])
    assert not events(played, "choice_made", decision="play_card")


def test_not_offered_after_the_holders_own_roll() -> None:
    scenario = space(holder("1 destroyer"), {"units": "1 carrier, 1 fighter"})
    played = run(scenario, [9, 1, 10, 1])
    assert not events(played, "card_played")
    assert barrage_hits(played) == [1]


def test_policy_never_and_a_scripted_pass() -> None:
    never = space(
        {"units": "1 destroyer"},
        holder("1 carrier, 1 fighter", policy={"play": {"scramble_frequency": "never"}}),
    )
    played = run(never, [9, 1, 10, 1])
    assert not events(played, "card_played")
    assert barrage_hits(played) == [1]
    passed = space({"units": "1 destroyer"}, holder("1 carrier, 1 fighter"))
    played = run(passed, [9, 1, 10, 1], defender=["pass"])
    assert not events(played, "card_played")


def test_marks_wait_for_the_decision() -> None:
    # Strike Wing Alpha II: barrage 10, 1, 1 (a hit, a mark: one infantry) is discarded; the
    # reroll 1, 1, 1 destroys none; then the destroyer kills the carrier
    argent = {"faction": "argent", "units": "1 destroyer", "upgrades": ["destroyer"]}
    played = run(space(argent, holder("1 carrier, 1 infantry")), [10, 1, 1, 1, 1, 1, 10, 1])
    assert len(events(played, "card_played")) == 1
    assert not events(played, "unit_destroyed", cause=MARK_CAUSE)
    [roll, _] = rolls(played, "anti_fighter_barrage")
    assert roll["groups"] == [
        {
            "unit": "destroyer",
            "value": 6,
            "modifier": 0,
            "hit_on": 6,
            "faces": [10, 1, 1],
            "hits": 1,
            "mark_on": 9,
            "marks": 1,
        }
    ]


LETNEV = {"faction": "letnev", "units": "1 destroyer", "trade_goods": 2}


def test_a_barrage_that_rerolled_its_misses_is_rolled_again_once() -> None:
    """Munitions Reserves rerolls the barrage's miss (1, then 9: 2 hits); Scramble Frequency
    has both dice rolled again, and that roll is final: its miss (1) is not rerolled
    (docs/rulings.md 14RR-9; once refused by name)."""
    faces = [9, 1, 9, 9, 1] + [10] * 8
    played = run(space(LETNEV, holder("1 carrier, 2 fighter")), faces, all_dice=False)
    first, second = (r["groups"] for r in rolls(played, "anti_fighter_barrage"))
    assert isinstance(first, list)
    assert isinstance(second, list)
    assert [(g["faces"], g.get("rerolled", False)) for g in first] == [
        ([9, 1], False),
        ([9], True),
    ]
    assert [g["faces"] for g in second] == [[9, 1]]
    assert "reroll_modifier" not in second[0]
    assert barrage_hits(played) == [2, 1]


def test_exact_odds_against_munitions_reserves_hand_derived() -> None:
    """Letnev's destroyer (barrage 9 x2, combat 9) pays Munitions Reserves in round 1: its
    barrage dice hit with 1 - (4/5)^2 = 9/25 each, so some hit with 1 - (16/25)^2 = 369/625;
    the card then has them rolled again without the rerolls: some hit with 9/25. The Fighter
    II survives with 1 - 369/625 * 9/25. Round 1 (Munitions Reserves): the destroyer hits with
    9/25, the fighter with 3/10; then the duel (won 7/22, drawn 3/22)."""
    f = Fraction
    barrage = f(369, 625) * f(9, 25)
    on = 1 - barrage
    won = barrage + on * (f(9, 25) * f(7, 10) + f(16, 25) * f(7, 10) * f(7, 22))
    drawn = on * (f(9, 25) * f(3, 10) + f(16, 25) * f(7, 10) * f(3, 22))
    found = odds(space(LETNEV, holder("1 fighter", upgrades=["fighter"])))
    assert found.attacker_win == pytest.approx(float(won), abs=1e-12)
    assert found.draw == pytest.approx(float(drawn), abs=1e-12)


def hits_of(played: Any, purpose: str) -> list[object]:
    return [r["hits"] for r in rolls(played, purpose)]


# --- SPACE CANNON offense (the step before space combat) ---

#: the attacker's PDS (SPACE CANNON 6) fires at the holder's cruiser, then the cruisers (7) fight
OFFENSE = space({"units": "1 cruiser, 1 pds"}, holder("1 cruiser"))


def test_a_space_cannon_offense_roll_that_hit_is_rolled_again() -> None:
    # the PDS rolls 6 (a hit); played: rerolled 1, a miss; then the cruisers 7 and 1
    played = run(OFFENSE, [6, 1, 7, 1])
    [card] = events(played, "card_played")
    assert (card["player"], card["card"]) == ("defender", "scramble_frequency")
    [asked] = events(played, "choice_made", decision="play_card")
    assert asked["player"] == "defender"
    assert hits_of(played, "space_cannon_offense") == [1, 0]
    kinds = [e["event"] for e in played.events]
    first, second = [i for i, k in enumerate(kinds) if k == "dice_rolled"][:2]
    assert first < kinds.index("card_played") < second
    assert not events(played, "unit_destroyed", cause="space cannon offense")
    assert played.outcome["winner"] == "attacker"


def test_the_second_space_cannon_roll_counts() -> None:
    # 6, then rerolled 9: the holder's cruiser is destroyed; no combat
    played = run(OFFENSE, [6, 9])
    assert hits_of(played, "space_cannon_offense") == [1, 1]
    [gone] = events(played, "unit_destroyed", cause="space cannon offense")
    assert gone["unit"] == "cruiser"


def test_space_cannon_offense_never_pass_and_miss() -> None:
    never = space(
        {"units": "1 cruiser, 1 pds"},
        holder("1 cruiser", policy={"play": {"scramble_frequency": "never"}}),
    )
    played = run(never, [6])
    assert not events(played, "card_played")
    assert hits_of(played, "space_cannon_offense") == [1]
    played = run(OFFENSE, [6], defender=["pass"])
    assert not events(played, "card_played")
    assert hits_of(played, "space_cannon_offense") == [1]
    # a miss: nothing to reroll, no decision
    played = run(OFFENSE, [1, 7, 1])
    assert not events(played, "choice_made", decision="play_card")


def test_not_offered_for_the_holders_own_space_cannon() -> None:
    played = run(space(holder("1 cruiser, 1 pds"), {"units": "1 cruiser"}), [6])
    assert not events(played, "card_played")


def test_a_space_cannon_roll_rerolled_by_ta_zern_is_final_when_rolled_again() -> None:
    """Ta Zern rerolls the PDS's miss (1, then 6: a hit); Scramble Frequency has the die rolled
    again (1), and that roll is final: Ta Zern does not reroll it (14RR-9, 14SF-2)."""
    jolnar = {"faction": "jolnar", "units": "1 cruiser, 1 pds", "leaders": ["ta_zern"]}
    played = run(space(jolnar, holder("1 cruiser")), [1, 6, 1, 9, 1])
    first, second = (r["groups"] for r in rolls(played, "space_cannon_offense"))
    assert isinstance(first, list)
    assert isinstance(second, list)
    assert [g["faces"] for g in first] == [[1], [6]]
    assert [g["faces"] for g in second] == [[1]]
    assert hits_of(played, "space_cannon_offense") == [1, 0]


def test_played_against_space_cannon_keeps_the_later_barrage_rerolls() -> None:
    """Played against the PDS's roll, the card is gone: the Letnev destroyer's barrage then
    rerolls its misses with Munitions Reserves as usual."""
    letnev = {"faction": "letnev", "units": "1 destroyer, 1 pds", "trade_goods": 2}
    played = run(
        space(letnev, holder("1 carrier, 2 fighter")), [6, 1, 9, 1, 9] + [10] * 8, all_dice=False
    )
    assert len(events(played, "card_played", card="scramble_frequency")) == 1
    [barrage] = rolls(played, "anti_fighter_barrage")
    groups = barrage["groups"]
    assert isinstance(groups, list)
    assert [g["faces"] for g in groups] == [[9, 1], [9]]
    assert barrage["hits"] == 2


# --- BOMBARDMENT (invasion step 1) ---

#: the attacker's dreadnought (BOMBARDMENT 5) at the holder's infantry, then ground combat
BOMBARDED = invasion(
    {"units": "1 dreadnought, 1 infantry"},
    holder(""),
    planets=[{"name": "P", "defender": {"infantry": 1}}],
)


def test_a_bombardment_that_hit_is_rolled_again() -> None:
    # 5 (a hit); played: rerolled 1; then the infantry fight: 8 against 1
    played = run(BOMBARDED, [5, 1, 8, 1])
    [card] = events(played, "card_played")
    assert (card["player"], card["card"]) == ("defender", "scramble_frequency")
    assert hits_of(played, "bombardment") == [1, 0]
    assert not events(played, "unit_destroyed", cause="bombardment")
    # 5, then rerolled 7: the infantry dies to the second roll
    played = run(BOMBARDED, [5, 7])
    assert hits_of(played, "bombardment") == [1, 1]
    [gone] = events(played, "unit_destroyed", cause="bombardment")
    assert gone["unit"] == "infantry"


def test_bombardment_never_pass_and_miss() -> None:
    never = invasion(
        {"units": "1 dreadnought, 1 infantry"},
        holder("", policy={"play": {"scramble_frequency": "never"}}),
        planets=[{"name": "P", "defender": {"infantry": 1}}],
    )
    played = run(never, [5])
    assert not events(played, "card_played")
    assert hits_of(played, "bombardment") == [1]
    played = run(BOMBARDED, [5], defender=["pass"])
    assert not events(played, "card_played")
    played = run(BOMBARDED, [4, 8, 1])
    assert not events(played, "choice_made", decision="play_card")


# --- SPACE CANNON defense (invasion step 3) ---

#: the holder's infantry lands on a planet with a PDS (SPACE CANNON 6) and no ground forces
DEFENDED = invasion(
    holder("1 carrier, 1 infantry"),
    {},
    planets=[{"name": "P", "defender": {"pds": 1}}],
)


def test_a_space_cannon_defense_roll_that_hit_is_rolled_again() -> None:
    # 6 (a hit); played: rerolled 1
    played = run(DEFENDED, [6, 1])
    [card] = events(played, "card_played")
    assert (card["player"], card["card"]) == ("attacker", "scramble_frequency")
    assert hits_of(played, "space_cannon_defense") == [1, 0]
    assert not events(played, "unit_destroyed", cause="space cannon defense")
    assert played.outcome["winner"] == "attacker"
    # 6, then rerolled 10: the infantry dies
    played = run(DEFENDED, [6, 10])
    assert hits_of(played, "space_cannon_defense") == [1, 1]
    [gone] = events(played, "unit_destroyed", cause="space cannon defense")
    assert gone["unit"] == "infantry"


def test_space_cannon_defense_never_pass_and_miss() -> None:
    never = invasion(
        holder(
            "1 carrier, 1 infantry",
            policy={"play": {"scramble_frequency": "never"}},
        ),
        {},
        planets=[{"name": "P", "defender": {"pds": 1}}],
    )
    played = run(never, [6])
    assert not events(played, "card_played")
    assert hits_of(played, "space_cannon_defense") == [1]
    played = run(DEFENDED, [6], attacker=["pass"])
    assert not events(played, "card_played")
    played = run(DEFENDED, [5])
    assert not events(played, "choice_made", decision="play_card")


def test_exact_odds_space_cannon_defense_hand_derived() -> None:
    """The PDS's SPACE CANNON defense die hits with 1/2 (6+). A hit has the card played, and the
    reroll hits with 1/2 again: the lone infantry dies with 1/4, and the attacker takes the
    undefended planet with 3/4 (without the card: 1/2)."""
    found = odds(DEFENDED)
    assert found.attacker_win == pytest.approx(float(Fraction(3, 4)), abs=1e-12)
    plain = invasion(
        {"units": "1 carrier, 1 infantry"},
        {},
        planets=[{"name": "P", "defender": {"pds": 1}}],
    )
    assert odds(plain).attacker_win == pytest.approx(0.5, abs=1e-12)


BATTLESTATION = space(
    holder("1 cruiser"),
    {"units": "1 cruiser, 1 space_dock", "action_cards": ["experimental_battlestation"]},
)


def test_the_experimental_battlestation_roll_is_rolled_again() -> None:
    """docs/rulings.md 27T-3: the dock's SPACE CANNON 5 (x3) roll is a SPACE CANNON roll. It
    rolls 5, 1, 1 (a hit); the attacker plays the card: 1, 1, 1, no hit; then the cruisers
    fight (7 hits, 1 misses)."""
    played = run(BATTLESTATION, [5, 1, 1, 1, 1, 1, 7, 1])
    assert [(e["player"], e["card"]) for e in events(played, "card_played")] == [
        ("defender", "experimental_battlestation"),
        ("attacker", "scramble_frequency"),
    ]
    assert [r["hits"] for r in rolls(played, "space_cannon_offense")] == [1, 0]
    assert not events(played, "unit_destroyed", cause="space cannon offense")
    assert played.state.attacker.space.count("cruiser") == 1


def test_a_battlestation_roll_without_a_hit_is_not_answered() -> None:
    played = run(BATTLESTATION, [1, 1, 1, 7, 1])
    assert [e["card"] for e in events(played, "card_played")] == ["experimental_battlestation"]


def test_exact_odds_against_the_battlestation_hand_derived() -> None:
    """The dock misses with all 3 dice (2/5 each) with 8/125; after a roll that hit (117/125)
    the card has it rolled again, missing with 8/125: the cruiser survives with
    8/125 * (1 + 117/125) = 1936/15625, then a 2/5 duel (3/8 won, 1/4 drawn, 3/8 lost)."""
    found = odds(BATTLESTATION)
    survives = Fraction(1936, 15625)
    assert found.attacker_win == pytest.approx(float(survives * Fraction(3, 8)), abs=1e-12)
    assert found.defender_win == pytest.approx(float(survives * Fraction(3, 8)), abs=1e-12)
    assert found.draw == pytest.approx(float(survives / 4), abs=1e-12)
    assert found.other["no_combat"] == pytest.approx(float(1 - survives), abs=1e-12)


def test_logs_replay() -> None:
    for scenario in (OFFENSE, BOMBARDED, DEFENDED, BATTLESTATION):
        assert_logs_replay(scenario)
        assert_sampled_as_played(scenario)


def test_exact_odds_hand_derived() -> None:
    """1 destroyer (barrage 9 x2: a die hits 1/5; combat 9) against a lone Fighter II (combat
    8: 3/10) whose owner holds the card. The barrage hits with 1 - (4/5)^2 = 9/25; the card is
    then played, and the reroll hits with 9/25 again: the fighter dies there with 81/625 (not
    9/25). Otherwise the duel (1/5 against 3/10): won 7/22, drawn 3/22.
    Attacker = 81/625 + 544/625 * 7/22; draw = 544/625 * 3/22."""
    scenario = space({"units": "1 destroyer"}, holder("1 fighter", upgrades=["fighter"]))
    found = odds(scenario)
    rest = Fraction(544, 625)
    won = Fraction(81, 625) + rest * Fraction(7, 22)
    assert found.attacker_win == pytest.approx(float(won), abs=1e-12)
    assert found.draw == pytest.approx(float(rest * Fraction(3, 22)), abs=1e-12)


TWO_PLANETS = invasion(
    {"units": "2 dreadnought, 2 infantry"},
    holder(""),
    planets=[
        {
            "name": "P",
            "defender": {"infantry": 1},
            "bombarded_by": {"dreadnought": 1},
            "commit": {"infantry": 1},
        },
        {
            "name": "Q",
            "defender": {"infantry": 1},
            "bombarded_by": {"dreadnought": 1},
            "commit": {"infantry": 1},
        },
    ],
)


def test_a_bombardment_of_several_planets_is_one_roll_rolled_again() -> None:
    """docs/rulings.md 27T-10 (LRR 15.1: one bombardment roll): P's die 5 hits, Q's 1 misses;
    the card is offered once, seeing 1 hit, before any is assigned; played, both dice are
    rolled again (1; 1): nothing is destroyed. Then each planet's ground combat: 8 against 1."""
    played = run(TWO_PLANETS, [5, 1, 1, 1, 8, 1, 8, 1])
    [card] = events(played, "card_played")
    assert (card["player"], card["card"]) == ("defender", "scramble_frequency")
    assert hits_of(played, "bombardment") == [1, 0, 0, 0]
    kinds = [e["event"] for e in played.events]
    rolled = [i for i, k in enumerate(kinds) if k == "dice_rolled"]
    assert rolled[1] < kinds.index("card_played") < rolled[2]
    assert not events(played, "unit_destroyed", cause="bombardment")
    assert played.outcome["result"] == "attacker_win"


def test_a_bombardment_of_several_planets_keeps_its_hits_planet_by_planet() -> None:
    # 5 at P, 6 at Q: both hit; the holder passes: each planet's infantry is destroyed by its
    # own planet's hit, and the infantry land unopposed
    played = run(TWO_PLANETS, [5, 6], defender=["pass"])
    assert len(events(played, "unit_destroyed", cause="bombardment")) == 2
    planets = cast("list[dict[str, object]]", played.outcome["planets"])
    assert [p["result"] for p in planets] == ["attacker_win", "attacker_win"]


def test_a_bombardment_of_several_planets_without_a_hit_is_not_answered() -> None:
    played = run(TWO_PLANETS, [1, 1, 8, 1, 8, 1])
    assert not events(played, "card_played")


def test_several_planets_logs_replay_and_the_sampler_plays_as_play_does() -> None:
    assert_logs_replay(TWO_PLANETS)
    assert_sampled_as_played(TWO_PLANETS)


def test_exact_odds_of_several_planets_hand_derived() -> None:
    """Each dreadnought bombards its planet on 5 (3/5). Some hit (21/25): the card has both
    rolled again; none (4/25): kept. Both hit 21/25 * 9/25 = 189/625; one 21/25 * 6/25 =
    126/625 each; none 4/25 + 21/25 * 4/25 = 184/625. A planet hit is taken; else 1 v 1 on 8:
    7/17 won, 3/17 drawn. Attacker (every planet taken): 189/625 + 2 * 126/625 * 7/17 +
    184/625 * (7/17)^2; draw (no ground force left anywhere): 184/625 * (3/17)^2."""
    f = Fraction
    won, drawn = f(7, 17), f(3, 17)
    found = odds(TWO_PLANETS)
    attacker = f(189, 625) + 2 * f(126, 625) * won + f(184, 625) * won * won
    assert found.attacker_win == pytest.approx(float(attacker), abs=1e-12)
    assert found.draw == pytest.approx(float(f(184, 625) * drawn * drawn), abs=1e-12)
