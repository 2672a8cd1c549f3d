"""The Cavalry (Nomad promissory note; abilities/the_cavalry.py): at the start of a space combat
against a player other than the Nomad, one of the holder's non-fighter ships is treated during
this combat as having the SUSTAIN DAMAGE, combat value (7 x2) and ANTI-FIGHTER BARRAGE (8 x3)
of Memoria I, or of Memoria II (5 x2, 5 x3) with the condition ``nomad_memoria_ii``
(data/cards.toml). Played through the "play_card" decision in the "start of combat" window
(ti4-space-combat.md rule 2.1), before anti-fighter barrage (step 1); the ship is the unit type
``cavalry_UNIT`` until the combat's result is decided, then turns back
(docs/rulings.md 14S-2)."""

from __future__ import annotations

from fractions import Fraction
from typing import Any, cast

import pytest

from spacecombat import odds
from spacecombat.core.errors import RuleNotImplemented, ScenarioError
from spacecombat.replayer import replay
from tests.helpers import events, rolls, run, space, survivors

CAVALRY = {"promissory_notes": ["the_cavalry"]}
NO_CAPACITY_CHECK = {"check_capacity_before_battle": False}


def battle(
    attacker: str = "1 destroyer",
    defender: str = "1 fighter",
    *,
    defender_faction: str | None = None,
    **side: Any,
) -> dict[str, Any]:
    theirs: dict[str, Any] = {"units": defender}
    if defender_faction:
        theirs["faction"] = defender_faction
    return space({"units": attacker, **CAVALRY, **side}, theirs, options=NO_CAPACITY_CHECK)


def groups(played: Any, purpose: str, player: str = "attacker") -> list[Any]:
    found: list[Any] = []
    for roll in rolls(played, purpose):
        if roll["player"] == player:
            found += cast("list[Any]", roll["groups"])
    return found


def test_the_ship_rolls_the_flagship_barrage_and_combat_then_turns_back() -> None:
    # barrage 3 dice on 8 all miss; round 1: 2 dice on 7 (one hit), the fighter misses
    played = run(battle(), [1, 1, 1, 7, 1, 1])
    [card] = events(played, "card_played")
    assert (card["player"], card["card"], card["round"]) == ("attacker", "the_cavalry", 1)
    [barrage] = groups(played, "anti_fighter_barrage")
    assert (barrage["unit"], barrage["hit_on"], len(barrage["faces"])) == (
        "cavalry_destroyer",
        8,
        3,
    )
    [combat] = groups(played, "space_combat")
    assert (combat["unit"], combat["hit_on"], len(combat["faces"])) == ("cavalry_destroyer", 7, 2)
    changes = events(played, "unit_changed")
    assert [(e["unit"], e["becomes"]) for e in changes] == [
        ("destroyer", "cavalry_destroyer"),
        ("cavalry_destroyer", "destroyer"),
    ]
    assert played.outcome["winner"] == "attacker"
    assert survivors(played, "attacker") == {"destroyer": 1}


def test_the_ship_gains_sustain_damage() -> None:
    # barrage misses; round 1: the destroyer misses, the fighter hits: it sustains
    played = run(battle(), [1, 1, 1, 1, 1, 9, 7, 1, 1])
    [sustained] = events(played, "damage_sustained")
    assert sustained["unit"] == "cavalry_destroyer"
    assert played.outcome["winner"] == "attacker"


def test_memoria_ii_values_with_the_condition() -> None:
    played = run(battle(conditions=["nomad_memoria_ii"]), [5, 1, 1])
    [barrage] = groups(played, "anti_fighter_barrage")
    assert (barrage["hit_on"], len(barrage["faces"])) == (5, 3)
    assert played.outcome["winner"] == "attacker"  # the barrage destroyed the fighter


def test_the_stock_policy_picks_the_ship_that_gains_most() -> None:
    played = run(battle("1 dreadnought, 1 destroyer", "1 cruiser"), [1, 1, 1, 10, 10, 10, 1])
    [choice] = events(played, "choice_made", decision="play_card")
    assert cast("list[str]", choice["options"])[-1] == "pass"
    # the destroyer gains SUSTAIN DAMAGE and more dice; the dreadnought (5) would lose value
    assert choice["choice"] == "play the_cavalry: destroyer"


def test_a_scripted_player_chooses_the_ship() -> None:
    played = run(
        battle("1 dreadnought, 1 destroyer", "1 fighter"),
        [1, 1, 1, 1, 1, 10, 10, 10, 1],
        attacker=["play the_cavalry: dreadnought"],
    )
    units = {g["unit"] for g in groups(played, "space_combat")}
    assert units == {"cavalry_dreadnought", "destroyer"}


def test_a_scripted_pass_and_policy_never_keep_the_card() -> None:
    played = run(battle(), [1, 1, 9, 1], attacker=["pass"])
    assert not events(played, "card_played")
    [barrage] = groups(played, "anti_fighter_barrage")
    assert (barrage["unit"], barrage["hit_on"]) == ("destroyer", 9)
    never = run(battle(policy={"play": {"the_cavalry": "never"}}), [1, 1, 9, 1])
    assert not events(never, "card_played")


def test_not_against_the_nomad() -> None:
    played = run(battle(defender_faction="nomad"), [1, 1, 9, 1])
    assert not events(played, "choice_made", decision="play_card")


def test_a_retreating_ship_turns_back_too() -> None:
    scenario = battle("1 destroyer", "1 cruiser", policy={"retreat": {"after_round": 1}})
    scenario["system"] = {"adjacent": [{"name": "home", "units": ["attacker"]}]}
    # barrage 3 dice; round 1: both miss; the attacker retreats with its Cavalry ship
    played = run(scenario, [1, 1, 1, 1, 1, 1])
    retreat = cast("dict[str, Any]", played.outcome["retreat"])
    assert retreat["units"] == [{"unit": "destroyer", "count": 1}]
    assert events(played, "unit_changed")[-1]["becomes"] == "destroyer"


def test_the_nomad_cannot_hold_it() -> None:
    with pytest.raises(ScenarioError) as error:
        odds(battle(faction="nomad"))
    assert error.value.field == "attacker.promissory_notes[0]"


def test_the_jolnar_flagship_given_the_cavalry_keeps_its_extra_hits() -> None:
    # J.N.S. Hylarim: "each result of 9 or 10 produces 2 additional hits"; The Cavalry lends
    # Memoria's 7 x2 (8 with the Jol-Nar's -1) and the ship keeps its own ability (14CV-1).
    # Barrage (3 dice) misses; a 9 hits and makes 2 more: 3 cruisers destroyed
    played = run(battle("1 flagship", "3 cruiser", faction="jolnar"), [1, 1, 1, 9, 1, 1, 1, 1])
    [roll] = [r for r in rolls(played, "space_combat") if r["player"] == "attacker"]
    assert (roll["hits"], groups(played, "space_combat")[0]["hit_on"]) == (3, 8)
    assert played.outcome["winner"] == "attacker"


def test_the_l1z1x_flagship_given_the_cavalry_still_aims_at_non_fighters() -> None:
    # [0.0.1]: "hits produced by this ship and your dreadnoughts must be assigned to non-fighter
    # ships if able"; the Cavalry's flagship is still the flagship (14CV-1): its hit takes the
    # cruiser, not a fighter
    played = run(
        battle("1 flagship", "1 cruiser, 2 fighter", faction="l1z1x"),
        [1, 1, 1, 10, 1, 1, 1, 1, 10, 10, 1, 1],
    )
    [first, _] = events(played, "hits_restricted")
    assert (first["hits"], first["round"]) == (1, 1)
    lost = [e["unit"] for e in events(played, "unit_destroyed")]
    assert lost == ["cruiser", "fighter", "fighter"]


def test_the_hacan_flagship_given_the_cavalry_still_buys_plus_one() -> None:
    # Wrath of Kenara: "spend trade goods: +1 to a die roll of this ship per trade good"; a 6
    # (Memoria's 7) becomes a hit for 1 trade good
    played = run(
        battle("1 flagship", "1 cruiser", faction="hacan", trade_goods=2), [1, 1, 1, 6, 1, 1]
    )
    [spent] = events(played, "trade_goods_spent")
    assert (spent["trade_goods"], spent["by"]) == (1, "hacan_flagship_buy_roll_bonus")
    assert played.outcome["winner"] == "attacker"


def test_a_ship_ability_not_known_to_see_types_is_refused_by_name(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # the allow-list (the_cavalry.SEES_TYPES): a ship ability added later that compares unit
    # keys is refused with The Cavalry until it is checked and listed
    from spacecombat.rulesets.ti4.abilities import the_cavalry

    monkeypatch.setattr(
        the_cavalry, "SEES_TYPES", the_cavalry.SEES_TYPES - {"hacan_flagship_buy_roll_bonus"}
    )
    with pytest.raises(RuleNotImplemented) as error:
        odds(battle("1 flagship, 1 destroyer", faction="hacan"))
    assert "The Cavalry with Wrath of Kenara" in str(error.value)
    assert error.value.where == "attacker.promissory_notes[0]"


def test_an_exotrireme_ii_given_the_cavalry_may_still_give_itself() -> None:
    # Exotrireme II: "after a round of space combat, destroy this unit to destroy up to 2 ships
    # in this system"; The Cavalry's dreadnought is still one (14CV-1). Its barrage (3 dice)
    # and round 1 miss, and so do the cruisers; the stock player gives the Cavalry's dreadnought
    # for the two cruisers: a draw
    played = run(
        battle("1 dreadnought", "2 cruiser", faction="sardakk", upgrades=["dreadnought"]),
        [1] * 7,
    )
    [_, given] = events(played, "choice_made", decision="play_card")
    assert given["choice"] == (
        "play sardakk_dreadnought2_sacrifice: destroy cavalry_dreadnought: cruiser and cruiser"
    )
    lost = [(e["player"], e["unit"]) for e in events(played, "unit_destroyed")]
    assert lost == [
        ("attacker", "cavalry_dreadnought"),
        ("defender", "cruiser"),
        ("defender", "cruiser"),
    ]
    assert played.outcome["result"] == "draw"


def test_ipswitch_replaces_the_cavalrys_ship_with_a_ship_of_its_type() -> None:
    # Ipswitch: "for each of your opponent's ships destroyed, place a ship of that type": the
    # Cavalry's cruiser is a cruiser (14CV-1). Its barrage (3 dice) misses; round 1: the carrier
    # hits, the Cavalry's cruiser sustains, its 2 dice miss; round 2: the carrier hits again
    # and it is destroyed (its dice miss)
    mentak = {"units": "1 carrier", "faction": "mentak", "leaders": ["ipswitch_loose_cannon"]}
    played = run(space(mentak, {"units": "1 cruiser", **CAVALRY}), [1, 1, 1, 10, 1, 1, 10, 1, 1])
    [lost] = events(played, "unit_destroyed")
    assert (lost["player"], lost["unit"]) == ("defender", "cavalry_cruiser")
    [placed] = events(played, "units_placed")
    assert (placed["player"], placed["unit"], placed["by"]) == (
        "attacker",
        "cruiser",
        "ipswitch_loose_cannon",
    )
    assert survivors(played, "attacker") == {"carrier": 1, "cruiser": 1}


def test_exact_odds_hand_derived() -> None:
    """Cavalry destroyer (barrage 3 dice on 8, combat 2 dice on 7, SUSTAIN DAMAGE) against one
    fighter (9). The barrage destroys the fighter with 1 - (7/10)^3 = 657/1000: attacker wins.
    Else a duel: the ship hits with a = 1 - (3/5)^2 = 16/25, the fighter with d = 1/5; one
    round repeats with (1-a)(1-d) = 36/125. Damaged ship: win 64/89, draw 16/89, loss 9/89.
    Undamaged: win (16/25 + 9/125 * 64/89) * 125/89 = 7696/7921, draw 9/125 * 16/89 * 125/89
    = 144/7921, loss 81/7921. Attacker: 657/1000 + 343/1000 * 7696/7921."""
    found = odds(battle())
    rest = Fraction(343, 1000)
    assert found.attacker_win == pytest.approx(
        float(Fraction(657, 1000) + rest * Fraction(7696, 7921)), abs=1e-12
    )
    assert found.draw == pytest.approx(float(rest * Fraction(144, 7921)), abs=1e-12)
    assert found.defender_win == pytest.approx(float(rest * Fraction(81, 7921)), abs=1e-12)


# --- The chosen ship is still its unit type and keeps its abilities (docs/rulings.md 14CV) ---


def of(faction: str, units: str, defender: str, **side: Any) -> dict[str, Any]:
    """A ``faction`` attacker holding The Cavalry against ``defender``."""
    return battle(units, defender, faction=faction, **side)


def combat_groups(played: Any, player: str = "attacker") -> list[tuple[str, int, int]]:
    """(unit, hit on, dice) of each group ``player`` rolled in combat rounds."""
    return [
        (g["unit"], g["hit_on"], len(g["faces"])) for g in groups(played, "space_combat", player)
    ]


def duel(a: Fraction, d: Fraction) -> tuple[Fraction, Fraction, Fraction]:
    """A ship with SUSTAIN DAMAGE hitting with ``a`` a round against one ship without it
    hitting with ``d``: (win, draw, loss) from undamaged. Damaged: win a(1-d), draw ad, loss
    (1-a)d out of 1 - (1-a)(1-d). Undamaged: a hit wins (a hit taken is sustained); a miss
    against a hit leads to the damaged duel."""
    again = (1 - a) * (1 - d)
    win_d, draw_d, loss_d = (x / (1 - again) for x in (a * (1 - d), a * d, (1 - a) * d))
    to_damaged = (1 - a) * d / (1 - again)
    return a / (1 - again) + to_damaged * win_d, to_damaged * draw_d, to_damaged * loss_d


def assert_odds(scenario: dict[str, Any], win: Fraction, draw: Fraction, loss: Fraction) -> None:
    assert win + draw + loss == 1
    found = odds(scenario)
    assert found.attacker_win == pytest.approx(float(win), abs=1e-12)
    assert found.draw == pytest.approx(float(draw), abs=1e-12)
    assert found.defender_win == pytest.approx(float(loss), abs=1e-12)


def test_ambush_rolls_after_the_cavalry_at_the_lent_combat_value() -> None:
    # The Cavalry acts first among its holder's start-of-combat effects (14CV-2): Ambush
    # rolls 1 die for the destroyer, at 7 (Memoria I), not 9; a 7 destroys the cruiser
    played = run(of("mentak", "1 destroyer", "1 cruiser"), [7])
    [ambush] = groups(played, "ambush")
    assert (ambush["unit"], ambush["hit_on"], len(ambush["faces"])) == ("cavalry_destroyer", 7, 1)
    [lost] = events(played, "unit_destroyed", player="defender")
    assert lost["cause"] == "Ambush"
    assert played.outcome["winner"] == "attacker"
    # without the card the destroyer's own 9 misses on a 7
    passed = run(of("mentak", "1 destroyer", "1 cruiser"), [7, 1, 1, 9, 1], attacker=["pass"])
    [ambush] = groups(passed, "ambush")
    assert (ambush["unit"], ambush["hit_on"]) == ("destroyer", 9)
    # a dreadnought chosen is no cruiser or destroyer: Ambush does not roll for it
    dreadnought = run(of("mentak", "1 dreadnought", "1 cruiser"), [1, 1, 1, 10, 1, 1])
    assert combat_groups(dreadnought) == [("cavalry_dreadnought", 7, 2)]
    assert not groups(dreadnought, "ambush")


def test_ambush_exact_odds_hand_derived() -> None:
    """Mentak Cavalry destroyer against a cruiser (7): Ambush hits with 2/5 and wins; else the
    duel, 2 dice on 7 (a = 1 - (3/5)^2 = 16/25) with SUSTAIN DAMAGE against d = 2/5."""
    win, draw, loss = duel(Fraction(16, 25), Fraction(2, 5))
    ambush = Fraction(2, 5)
    assert ambush + (1 - ambush) * win == Fraction(2266, 2401)
    assert_odds(
        of("mentak", "1 destroyer", "1 cruiser"),
        ambush + (1 - ambush) * win,
        (1 - ambush) * draw,
        (1 - ambush) * loss,
    )


def test_devotion_may_give_the_cavalry_ship_the_stock_gives_another() -> None:
    # round 1: barrage 3 dice, combat 3 dice, the carrier's 1: all miss; Devotion
    scenario = of("yin", "1 cruiser, 1 destroyer", "1 carrier")
    played = run(scenario, [1] * 7)
    offers = events(played, "choice_made", decision="play_card")
    assert offers[0]["choice"] == "play the_cavalry: destroyer"
    assert offers[1]["options"] == [
        "play devotion: destroy cruiser, hit carrier",
        "play devotion: destroy cavalry_destroyer, hit carrier",
        "pass",
    ]
    [given] = events(played, "unit_destroyed", cause="Devotion", player="attacker")
    assert given["unit"] == "cruiser"
    chosen = run(
        scenario,
        [1] * 7,
        attacker=[
            "play the_cavalry: destroyer",
            "play devotion: destroy cavalry_destroyer, hit carrier",
        ],
    )
    [given] = events(chosen, "unit_destroyed", cause="Devotion", player="attacker")
    assert given["unit"] == "cavalry_destroyer"
    assert not [e for e in events(chosen, "unit_changed") if e["becomes"] == "destroyer"]
    assert survivors(chosen, "attacker") == {"cruiser": 1}


def test_impulse_core_may_destroy_the_cavalry_ship() -> None:
    yin = of("yin", "1 cruiser, 1 destroyer", "1 carrier", technologies=["impulse_core"])
    played = run(
        yin,
        [],
        attacker=["play the_cavalry: cruiser", "play impulse_core: destroy cavalry_cruiser"],
    )
    offers = events(played, "choice_made", decision="play_card")
    assert offers[1]["options"] == [
        "play impulse_core: destroy destroyer",
        "play impulse_core: destroy cavalry_cruiser",
        "pass",
    ]
    [given] = events(played, "unit_destroyed", cause="Impulse Core", player="attacker")
    assert given["unit"] == "cavalry_cruiser"
    assert played.outcome["winner"] == "attacker"  # the hit destroyed the carrier


def test_a_mahact_flagship_keeps_its_plus_two() -> None:
    """Arvicon Rex as the Cavalry ship: 2 dice on 7 - 2 = 5 (a = 1 - (2/5)^2 = 21/25) with
    SUSTAIN DAMAGE against a cruiser (2/5)."""
    played = run(of("mahact", "1 flagship", "1 cruiser"), [1, 1, 1, 5, 1, 1])
    assert combat_groups(played) == [("cavalry_flagship", 5, 2)]
    assert_odds(of("mahact", "1 flagship", "1 cruiser"), *duel(Fraction(21, 25), Fraction(2, 5)))
    # another ship chosen is no flagship: no +2 for it
    cruiser = run(
        of("mahact", "1 flagship, 1 cruiser", "2 cruiser"),
        [1, 1, 1, 10, 10, 10, 10, 1, 1],
        attacker=["play the_cavalry: cruiser"],
    )
    assert sorted(combat_groups(cruiser)) == [("cavalry_cruiser", 7, 2), ("flagship", 3, 2)]


def test_a_winnu_flagship_rolls_its_dice_at_the_lent_value() -> None:
    """Salai Sai Corian keeps its ability (14CV-3): 1 die per enemy non-fighter ship, at 7.
    Against a cruiser: 1 die (2/5) with SUSTAIN DAMAGE against 2/5."""
    played = run(of("winnu", "1 flagship", "3 cruiser"), [1, 1, 1, 10, 10, 10, 1, 1, 1])
    assert combat_groups(played) == [("cavalry_flagship", 7, 3)]
    assert_odds(of("winnu", "1 flagship", "1 cruiser"), *duel(Fraction(2, 5), Fraction(2, 5)))
    # the Cavalry on a cruiser: the flagship rolls its own dice at its own value
    cruiser = run(
        of("winnu", "1 flagship, 1 cruiser", "2 cruiser"),
        [1, 1, 1, 10, 10, 10, 10, 1, 1],
        attacker=["play the_cavalry: cruiser"],
    )
    assert sorted(combat_groups(cruiser)) == [("cavalry_cruiser", 7, 2), ("flagship", 7, 2)]


def test_a_sardakk_flagship_still_gives_only_the_other_ships_plus_one() -> None:
    # Unrelenting +1 to all; C'morran N'orr +1 to the others: the Cavalry flagship 7 - 1
    played = run(
        of("sardakk", "1 flagship, 1 cruiser", "2 cruiser"),
        [1, 1, 1, 10, 10, 10, 1, 1],
        attacker=["play the_cavalry: flagship"],
    )
    assert sorted(combat_groups(played)) == [("cavalry_flagship", 6, 2), ("cruiser", 5, 1)]


def test_an_arc_secundus_still_repairs_itself() -> None:
    # round 1: the cruiser hits, the Cavalry flagship sustains; round 2 starts: repaired
    played = run(of("letnev", "1 flagship", "2 cruiser"), [1, 1, 1, 1, 1, 10, 1, 10, 10, 1, 1])
    [repaired] = events(played, "unit_repaired")
    assert (repaired["unit"], repaired["by"]) == ("cavalry_flagship", "Arc Secundus")
    assert events(played, "unit_changed")[-1]["status"] == ""  # turned back undamaged


def test_a_van_hauge_destroyed_as_the_cavalry_ship_destroys_every_ship() -> None:
    played = run(
        of("yin", "1 flagship, 1 cruiser", "2 dreadnought"),
        [1, 1, 1, 1, 1, 1, 10, 10],
        attacker=[
            "play the_cavalry: flagship",
            "sustain cavalry_flagship",
            "destroy cavalry_flagship (sustained this round)",
        ],
    )
    wiped = {
        (e["player"], e["unit"]) for e in events(played, "unit_destroyed", cause="yin flagship")
    }
    assert wiped == {("attacker", "cruiser"), ("defender", "dreadnought")}
    assert played.outcome["result"] == "draw"


def test_a_fourth_moon_still_forbids_the_enemy_sustain_damage() -> None:
    # one hit destroys the dreadnought: it cannot sustain with the Mentak flagship there
    played = run(of("mentak", "1 flagship", "1 dreadnought"), [1, 1, 1, 10, 1, 1])
    [lost] = events(played, "unit_destroyed", player="defender")
    assert lost["unit"] == "dreadnought"
    assert not events(played, "damage_sustained")


def test_a_dynamo_still_offers_its_repair() -> None:
    played = run(
        of("empyrean", "1 flagship", "1 cruiser", influence=2), [1, 1, 1, 1, 1, 10, 10, 1, 1]
    )
    [repaired] = events(played, "unit_repaired")
    assert (repaired["unit"], repaired["by"]) == ("cavalry_flagship", "Empyrean flagship")


def test_a_hil_colish_still_brings_its_wormhole() -> None:
    # Dimensional Splicer, after The Cavalry, needs the wormhole of the Cavalry flagship
    played = run(
        of("creuss", "1 flagship", "2 cruiser", technologies=["dimensional_splicer"]),
        [1, 1, 1, 10, 1, 1],
    )
    kinds = [e["card"] for e in events(played, "card_played")]
    assert kinds == ["the_cavalry", "dimensional_splicer"]
    assert played.outcome["winner"] == "attacker"


def test_a_quetzecoatl_is_accepted() -> None:
    # its ability acts at space cannon offense, before The Cavalry: the PDS does not fire
    played = run(of("argent", "1 flagship", "1 cruiser, 1 pds"), [1, 1, 1, 10, 1, 1])
    assert not rolls(played, "space_cannon_offense")
    assert combat_groups(played) == [("cavalry_flagship", 7, 2)]


def test_strike_wing_alpha_ii_marks_on_the_lent_barrage() -> None:
    # 14CV-4: barrage 3 dice on 8; each 9 or 10 also destroys an infantry in the space area
    played = run(
        of("argent", "1 destroyer", "1 carrier, 1 fighter, 3 infantry", upgrades=["destroyer"]),
        [9, 10, 8, 10, 1, 1],
        attacker=["play the_cavalry: destroyer"],
    )
    [barrage] = groups(played, "anti_fighter_barrage")
    assert (barrage["unit"], barrage["hit_on"], barrage["marks"]) == ("cavalry_destroyer", 8, 2)
    marked = events(played, "unit_destroyed", cause="anti-fighter barrage (Strike Wing Alpha II)")
    assert len(marked) == 2


def test_a_z_grav_eidolon_may_be_chosen_and_keeps_the_flagship_die() -> None:
    # 14CV-5: the mech flips first, then the Cavalry; Visz El Vir: 1 more die (2 + 1 on 7)
    played = run(
        of("naazrokha", "1 flagship, 1 mech", "2 cruiser"), [1, 1, 1, 10, 10, 10, 1, 1, 1, 1]
    )
    offer = events(played, "choice_made", decision="play_card")[0]
    assert offer["choice"] == "play the_cavalry: zgrav_eidolon"
    assert sorted(combat_groups(played)) == [("cavalry_zgrav_eidolon", 7, 3), ("flagship", 9, 2)]
    changed = [(e["unit"], e["becomes"]) for e in events(played, "unit_changed")]
    assert changed == [
        ("mech", "zgrav_eidolon"),
        ("zgrav_eidolon", "cavalry_zgrav_eidolon"),
        ("cavalry_zgrav_eidolon", "zgrav_eidolon"),
        ("zgrav_eidolon", "mech"),
    ]
    assert survivors(played, "attacker") == {"flagship": 1, "mech": 1}
    # Visz El Vir chosen instead: still the flagship, the Z-Grav keeps its extra die
    flagship = run(
        of("naazrokha", "1 flagship, 1 mech", "2 cruiser"),
        [1, 1, 1, 10, 10, 10, 10, 1, 1, 1],
        attacker=["play the_cavalry: flagship"],
    )
    assert sorted(combat_groups(flagship)) == [("cavalry_flagship", 7, 2), ("zgrav_eidolon", 8, 3)]


def test_a_z_grav_eidolon_exact_odds_hand_derived() -> None:
    """Fighter (1/5) and a Cavalry Z-Grav (2 dice on 7, SUSTAIN DAMAGE) against a cruiser (2/5).
    With both, the attacker hits with h = 1 - (4/5)(9/25) = 89/125 and wins; the cruiser's hit
    is sustained first, then costs the fighter: from both undamaged the Z-Grav is left alone
    and damaged after two rounds the cruiser hits and the attacker misses, each with
    m = (36/125)(2/5) / (1 - (36/125)(3/5)) = 72/517. Alone and damaged: win a(1-d), draw ad,
    loss (1-a)d of 1 - (1-a)(1-d), a = 16/25."""
    h, d, a = Fraction(89, 125), Fraction(2, 5), Fraction(16, 25)
    again = (1 - h) * (1 - d)
    m = (1 - h) * d / (1 - again)
    assert m == Fraction(72, 517)
    rest = 1 - (1 - a) * (1 - d)
    alone = [x / rest for x in (a * (1 - d), a * d, (1 - a) * d)]
    win = (1 - m) + m * (1 - m) + m * m * alone[0]
    assert_odds(
        of("naazrokha", "1 fighter, 1 mech", "1 cruiser"), win, m * m * alone[1], m * m * alone[2]
    )


def test_an_alastor_participant_may_be_chosen() -> None:
    # 14CV-5: the infantry participates first, then gains the lent values; it turns back into
    # a participant, then into infantry, keeping its damage
    played = run(
        of("nekro", "1 flagship, 1 infantry", "2 cruiser"),
        [1, 1, 1, 10, 10, 1, 1, 10, 1],
    )
    assert events(played, "choice_made", decision="play_card")[0]["choice"] == (
        "play the_cavalry: alastor_infantry"
    )
    assert sorted(combat_groups(played)) == [("cavalry_alastor_infantry", 7, 2), ("flagship", 9, 2)]
    changed = [(e["unit"], e["becomes"]) for e in events(played, "unit_changed")]
    assert changed[-2:] == [
        ("cavalry_alastor_infantry", "alastor_infantry"),
        ("alastor_infantry", "infantry"),
    ]


def test_a_planet_participant_loses_the_values_when_its_player_retreats() -> None:
    # 14CV-5, 14AL-3: the Nekro announces a retreat; before it goes, the planet's infantry
    # stops participating: first it is no longer the Cavalry ship, then it lands
    scenario = of(
        "nekro",
        "1 flagship",
        "1 cruiser",
        planet_units="1 infantry",
        policy={
            "play": {"nekro_flagship_ground_forces_fight": "with_planets"},
            "retreat": {"after_round": 0},
        },
    )
    scenario["system"] = {"adjacent": [{"name": "home", "units": ["attacker"]}]}
    played = run(scenario, [1] * 8)
    changed = [(e["unit"], e["becomes"]) for e in events(played, "unit_changed")]
    assert changed[1:] == [
        ("alastor_planet_infantry", "cavalry_alastor_planet_infantry"),
        ("cavalry_alastor_planet_infantry", "alastor_planet_infantry"),
        ("alastor_planet_infantry", "infantry"),
    ]
    assert survivors(played, "attacker", "planet") == {"infantry": 1}
    retreat = cast("dict[str, Any]", played.outcome["retreat"])
    assert retreat["units"] == [{"unit": "flagship", "count": 1}]


def test_logs_with_the_cavalry_ship_as_its_type_replay() -> None:
    for played in (
        run(of("mentak", "1 destroyer", "1 cruiser"), [7]),
        run(of("naazrokha", "1 flagship, 1 mech", "2 cruiser"), [1, 1, 1, 10, 10, 10, 1, 1, 1, 1]),
    ):
        report = replay(list(played.events))
        assert report.reproduces, report.reason


def test_a_war_sun_under_publicize_weapon_schematics_still_cannot_sustain() -> None:
    # 14CV-6: the law takes SUSTAIN DAMAGE from war suns, the lent one too. Barrage and combat
    # (2 dice on 7) miss; the cruiser's hit destroys the war sun
    scenario = space(
        {"units": "1 war_sun", **CAVALRY},
        {"units": "1 cruiser"},
        options=NO_CAPACITY_CHECK,
        laws=["publicize_weapon_schematics"],
    )
    played = run(
        scenario,
        [1, 1, 1, 1, 1, 7],
        attacker=["play the_cavalry: war_sun", "destroy cavalry_war_sun"],
    )
    asked = events(played, "choice_made", decision="assign_hit", player="attacker")[0]
    assert asked["options"] == ["destroy cavalry_war_sun"]
    assert played.outcome["winner"] == "defender"
