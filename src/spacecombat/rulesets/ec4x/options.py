"""EC4X space combat's named rule options (the scenario's ``options:``).

Every option settles one point where the rules text (ec4x-movement-and-combat.md 7.1–7.4) can be
read more than one way; the default is the reading we take, argued in docs/rulings.md (E20 onwards)
under the ruling number given here. Read through ``rulesets.options.parse_options``: an unknown
name or a value of the wrong kind is refused naming the option.

``parse_ec4x`` checks a whole EC4X scenario: its shape (``scenario/ec4x.py``) and, with the
options read, its colony and squadrons against the options and the ship tables (``Checks``).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Annotated, Literal

from pydantic import BaseModel, ConfigDict, Field

from spacecombat.core.errors import RuleNotImplemented, ScenarioError
from spacecombat.core.limits import MAX_ROUNDS, MAX_UNITS_PER_SIDE, shown
from spacecombat.rulesets.ec4x.tables import tables
from spacecombat.rulesets.options import parse_options
from spacecombat.scenario.ec4x import ColonySpec, Ec4xScenario, SquadronSpec, read_ec4x

RULESET = "ec4x"


class Ec4xOptions(BaseModel):
    """The rule options of EC4X space combat, each with its default reading."""

    model_config = ConfigDict(extra="forbid", frozen=True, strict=True)

    #: E20 (ambiguity 1). 7.1.2 "either undamaged, crippled, or destroyed" against 7.3.1.4
    #: "total DS pool". ``none``: hits landing on a unit in one damage step are compared with
    #: its DS and then forgotten; ``round``: hits short of DS are kept until the round ends;
    #: ``battle``: kept for the whole battle.
    damage_memory: Literal["none", "round", "battle"] = "none"

    #: E21 (ambiguity 2). 7.1.2 "If a squadron is crippled, all the ships under its command are
    #: crippled" against 7.3.1.4 "Individual ships within the squadron are destroyed when
    #: cumulative damage exceeds their individual DS". ``whole_squadron``: a squadron is one
    #: unit; ``individual_ships`` is not implemented (RuleNotImplemented).
    squadron_losses: Literal["whole_squadron", "individual_ships"] = "whole_squadron"

    #: E22 (ambiguity 3). 7.3.1.4 "Squadrons attack in descending order by flagship CR" and
    #: "Destroyed squadrons do not return fire in subsequent CR tiers" against 7.3.4 "Combat
    #: action within each phase is simultaneous". ``cr_tiers``: phase 4 is one damage step per CR
    #: tier; ``simultaneous``: one damage step for all of phase 4.
    phase4_order: Literal["cr_tiers", "simultaneous"] = "cr_tiers"

    #: E23 (ambiguity 4). 7.1.2 "reduced to a crippled combat state. AS is reduced by half"
    #: against 7.3.4 step 3 "Recalculate AS". ``immediate``: a unit crippled fires at half AS
    #: from the next damage step on; ``end_of_round``: at full AS until the round ends.
    crippled_as_timing: Literal["immediate", "end_of_round"] = "immediate"

    #: E24 (ambiguity 5). Restriction 1 reduces one step ("undamaged → crippled, or crippled →
    #: destroyed"); the Overkill paragraph speaks of a "destruction threshold" and of a target
    #: "crippled but not destroyed" because restriction 2 applies; 7.3.2.6 "restriction #2
    #: prevents immediate destruction". ``twice_ds``: an undamaged squadron or starbase taking
    #: at least twice its DS in one step (DS to cripple it, DS more to destroy it, 7.1.2) is
    #: destroyed where restriction 2 does not protect it; ``never``: one damage step reduces a
    #: unit one step at most.
    undamaged_destroyed_at: Literal["never", "twice_ds"] = "twice_ds"

    #: E25 (ambiguity 6). "Excess hits beyond destruction threshold are lost if restrictions
    #: apply". ``lost``: excess hits are always lost (no spill-over rule exists); ``spill_over``
    #: is not implemented (RuleNotImplemented).
    excess_hits: Literal["lost", "spill_over"] = "lost"

    #: E26 (ambiguity 7). Restriction 2, "until all other squadrons in the Task Force are
    #: crippled", in a simultaneous damage step. ``before_step``: judged on the units' states at
    #: the start of the step; ``after_step``: judged after this step's crippling hits.
    protection_judged: Literal["before_step", "after_step"] = "before_step"

    #: E27 (ambiguity 16). Overkill: "Once all squadrons are crippled, excess damage can destroy
    #: targets". ``all_other``: restriction 2's own words (every squadron but the target);
    #: ``all``: the target must be crippled too (it always is when a crippled target is hit).
    #: Both agree for a crippled target; ``all`` matters only with ``twice_ds``.
    overkill_all_means: Literal["all_other", "all"] = "all_other"

    #: E28. Restriction 2 "Squadrons are not destroyed until all other squadrons in the Task
    #: Force are crippled": fighters "skip the crippled combat state" (7.1.2). ``false``:
    #: fighter squadrons neither are protected nor block the protection of others; ``true``:
    #: an undamaged fighter squadron counts as a squadron not yet crippled.
    protection_counts_fighters: bool = False

    #: E29 (ambiguity 8). Force reduction: "If the critical hit cannot reduce the selected
    #: target according to restriction #1 (insufficient damage), then the squadron with the
    #: lowest DS in the target Task Force is reduced instead". ``combined_hits``: judged on
    #: whether the target was reduced by all hits of the step (restriction 1 as the
    #: simultaneous step applies it; "instead": never both); ``own_hits``: judged on the
    #: critical attack's own hits against the target's DS.
    force_reduction_judged: Literal["own_hits", "combined_hits"] = "combined_hits"

    #: E29 (ambiguity 8). "the squadron with the lowest DS in the target Task Force is reduced
    #: instead": when several share the lowest DS. ``draw``: a choice among them with equal
    #: weights; ``first_listed``: the first in the scenario's order.
    force_reduction_tie: Literal["draw", "first_listed"] = "draw"

    #: E29. Whether fighter squadrons (7.3.2: "Fighter squadron: A squadron consisting entirely
    #: of fighter craft") are among the squadrons force reduction may reduce.
    force_reduction_fighters: bool = True

    #: E30 (ambiguity 9). "Restriction #2 above is nullified - the squadron can be destroyed".
    #: ``target``: the target of a critical attack is unprotected for all hits of that step;
    #: ``own_hits``: only the critical attack's own hits may destroy it.
    critical_bypass: Literal["target", "own_hits"] = "target"

    #: E31 (ambiguity 10). "Crippled squadrons and Starbases multiply their AS by 0.5, rounded
    #: up". ``squadron``: half the squadron's total AS, rounded up; ``per_ship``: the sum of each
    #: ship's halved AS rounded up (7.1.2 state propagation).
    crippled_as_rounding: Literal["squadron", "per_ship"] = "squadron"

    #: E32 (ambiguity 11). The CER table's "Less than zero, 0, 1, 2" reads a d10 as 0–9.
    #: ``0-9``: faces 0–9; ``1-10``: faces 1–10. A natural 9 is critical either way.
    cer_die: Literal["0-9", "1-10"] = "0-9"

    #: E33 (ambiguity 12). 7.3.2.2 names no bucket for Corvette, Frigate, Scout or Planet-Breaker
    #: flagships; the reference engine put unnamed classes in Capital (2).
    unnamed_flagship_bucket: Annotated[int, Field(ge=1, le=3)] = 2

    #: E34 (ambiguity 13). 7.3.3 "At the beginning of each combat round … each attacking unit
    #: rolls" against 7.3.1.4 "For each CR tier … Each squadron rolls for CER". ``per_step``:
    #: each attacker rolls when its phase or tier comes; ``round_start``: every unit that uses
    #: CER rolls at the start of the round, in unit order. Same odds, other draw order.
    cer_timing: Literal["per_step", "round_start"] = "per_step"

    #: E35 (ambiguity 14). 7.1.4 "the game rolls 1D20 to determine morale status". ``per_house``:
    #: one d20 for each house that needs a roll; ``shared``: one d20 for all of them.
    morale_roll: Literal["per_house", "shared"] = "per_house"

    #: E36 (ambiguity 15). Whether the flagship's own CC counts against its CR (a formation rule,
    #: checked by the scenario). ``false``: only the escorts' CC.
    flagship_cc_counts: bool = False

    #: E36. Refuse a squadron whose escorts' CC exceeds its flagship's CR (7.3.1.4: CC is
    #: "validated during fleet commissioning"; such a squadron cannot exist at battle start).
    check_command_rating: bool = True

    #: E37 (ambiguity 17). The spec has no round limit. ``null``: none (with the default readings
    #: every round has a chance of reducing a unit, so a battle ends with probability 1); a
    #: number N: the battle is cut off after round N (result ``cut_off``).
    max_rounds: Annotated[int, Field(ge=1, le=MAX_ROUNDS)] | None = None

    #: E38. Starbases are in no initiative phase of 7.3.1. ``last``: they fire in phase 4 as if
    #: their CR were 0 (the lowest tier); ``first``: in phase 4 before every CR tier.
    starbase_tier: Literal["last", "first"] = "last"

    #: E39. 7.4 "If a player rolls a critical hit against a Starbase on the first attempt,
    #: re-roll a second time." ``every_critical``: every critical roll against a starbase is
    #: re-rolled once; ``first_critical``: only the first critical against each starbase.
    starbase_critical_reroll: Literal["every_critical", "first_critical"] = "every_critical"

    #: E40. 7.2 "Spacelift ships are destroyed if all friendly escort fleets in their house's
    #: Task Force are destroyed or retreat while hostile forces remain". ``destroyed``: spacelift
    #: ships stay when their escorts retreat (and are destroyed if none remain); ``retreats``:
    #: they retreat with their house unless it retreats by a restricted lane.
    spacelift_on_retreat: Literal["destroyed", "retreats"] = "destroyed"

    #: E41. 7.3.5 "Crippled ships cannot retreat through restricted lanes". ``stay``: a crippled
    #: squadron of a house retreating by a restricted lane stays and fights on; ``destroyed``:
    #: it is destroyed.
    stranded_crippled: Literal["stay", "destroyed"] = "stay"

    #: E41. 6.1 "Fleets containing crippled ships or Spacelift Command ships can not jump across
    #: restricted lanes"; 7.3.5 "fall back to their original fleet formations". ``per_fleet``:
    #: a fleet with a crippled squadron (with ``stranded_crippled: stay``) or, under
    #: ``spacelift_on_retreat: retreats``, with spacelift ships, stays whole, its undamaged
    #: squadrons too; ``per_squadron``: only its crippled squadrons (and spacelift) stay.
    restricted_lane_retreat: Literal["per_fleet", "per_squadron"] = "per_fleet"

    #: E42. The Surprise modifier (+3, "First round only", "Phase 1 only") has no trigger in the
    #: text. When every cloaked fleet passes undetected in a system whose controller fights, the
    #: controller "wins initiative" (7.1.3, always applied): its undetected raiders attack in
    #: phase 1, the others' raiders in phase 3 without a bonus. ``defender_initiative``: the
    #: controller's phase-1 attack takes Surprise +3; ``never``: no Surprise, it takes the
    #: Ambush +4 of undetected raiders (7.3.1.1).
    surprise: Literal["defender_initiative", "never"] = "defender_initiative"

    #: E43. 7.1.3 detection: ``any_house``: a cloaked fleet detected by any opposing house loses
    #: its ambush against everyone ("the Raider fleet loses ambush advantage"); ``per_house`` is
    #: not implemented (RuleNotImplemented).
    detection_scope: Literal["any_house", "per_house"] = "any_house"

    #: E44. 7.1.4 crisis: "One random fleet refuses orders and holds position for the turn".
    #: ``hold_position``: a random fleet of the house present takes order 00 for this battle;
    #: ``ignore``: the scenario's orders already account for it (no draw).
    crisis_refusal: Literal["hold_position", "ignore"] = "hold_position"

    #: E45. 7.3.4 "Sum the total AS of all Task Forces identified as hostile per 7.3.2.1".
    #: ``regarded_hostile``: the houses the evaluating house regards as hostile; ``either_way``:
    #: also the houses that regard it as hostile.
    roe_hostile_strength: Literal["regarded_hostile", "either_way"] = "regarded_hostile"

    #: E46. Undetected raiders after round 1: ``phase1_every_round``: they keep attacking in
    #: phase 1 (without the first-round bonus); ``phase3_after_round1``: from round 2 on they
    #: attack in phase 3.
    undetected_later_rounds: Literal["phase1_every_round", "phase3_after_round1"] = (
        "phase1_every_round"
    )

    #: E55. 7.2 "Spacelift Command ships are screened behind the Task Force ... destroyed if
    #: all friendly escort fleets in their house's Task Force are destroyed or retreat".
    #: ``true``: the colony's starbases and fighters, part of the house's Task Force (7.4
    #: "combined Task Force"; 7.3.5 colony fighters "screen their retreating Task Force"),
    #: screen its spacelift ships and scouts while they fight; ``false``: only fleets' units do.
    colony_units_screen: bool = True

    #: E56. Which squadrons of an undetected cloaked fleet attack in phase 1: 7.3.1.1 "Cloaked
    #: Raider fleets ... strike first", "Each Raider squadron independently selects targets";
    #: 7.3.2.2 bucket 1 "Squadron with Raider flagship". ``raider_flagship``: squadrons with a
    #: Raider flagship; ``any_raider``: squadrons with a Raider aboard; ``whole_fleet``: every
    #: squadron of the fleet (its fighters keep phase 2).
    ambush_squadrons: Literal["raider_flagship", "any_raider", "whole_fleet"] = "raider_flagship"

    #: E57. 7.3.1.1 "all ELI-equipped units (Scouts and Starbases) in the defending force".
    #: ``in_combat``: only the ELI units of the fleets and colony that take part in the combat
    #: (judged as if every cloaked fleet were seen: detection comes first); not spy scouts on
    #: orders 09-11 (E48) nor guards held back; ``present``: every ELI unit of the house here.
    detection_units: Literal["in_combat", "present"] = "in_combat"

    #: E58. Scouts as targets. 7.2 screens spacelift ships; 7.3.2.2 places no Scout; facts
    #: §2: the reference engine sent unlisted classes, SC included, to Capital. ``screened``:
    #: scouts are screened like spacelift (E47); ``bucket_1`` .. ``bucket_3``: each fleet's
    #: scouts are one unit in that bucket (size: the scouts, AS 1 and DS 2 each), damaged like
    #: a squadron, that never attacks; destroyed, it takes the +1 CER of scouts with it.
    scout_targets: Literal["screened", "bucket_1", "bucket_2", "bucket_3"] = "screened"

    #: E52. 7.1.4 "The first squadron to execute a valid attack ... automatically achieves
    #: critical hit effects as if a natural 9 was rolled on the CER table": which attack.
    #: ``cer_attack``: the first attack of a unit that rolls CER (squadrons, starbases);
    #: ``squadron``: of a capital squadron only (7.3.2.2: "Starbases are ... not squadrons");
    #: ``any_attack``: of any unit, fighter squadrons too (7.3.2 "Fighter squadron").
    auto_critical_attack: Literal["cer_attack", "squadron", "any_attack"] = "cer_attack"

    #: E60. 7.4 "If a player rolls a critical hit against a Starbase on the first attempt,
    #: re-roll a second time. The second roll stands" against an auto-critical ("as if a natural
    #: 9 was rolled", 7.1.4). ``reroll``: an auto-critical against a starbase is re-rolled like
    #: a rolled one (spent; a critical only if the second roll is a natural 9); ``stands``: it
    #: is not rolled, so never re-rolled (a natural 9 under it is re-rolled for its CER only).
    auto_critical_vs_starbase: Literal["reroll", "stands"] = "reroll"

    # --- planetary combat (7.5, 7.6; siege.py, bombardment.py, invasion.py, blitz.py) ---

    #: E67. 7.5.1 "total the AS value of their fleet's surviving squadrons". ``half``: a
    #: crippled squadron counts its crippled AS (7.5.3); ``full``: every surviving squadron at
    #: full AS.
    bombard_crippled_as: Literal["half", "full"] = "half"

    #: E68. 7.5.2 the shield's "1D20 Roll". ``d20``: the defender rolls; above the row's number
    #: the shield blocks its percentage; ``no_roll``: the shield always blocks its percentage.
    shield_roll: Literal["d20", "no_roll"] = "d20"

    #: E68. SLD6 is in 7.5.2's table but R&D 4.10 lists SLD1-5: the highest shield level a
    #: colony may have (6, or 5).
    max_shield_level: Annotated[int, Field(ge=5, le=6)] = 6

    #: E64. 7.5.3 restriction 3 "Excess hits leftover against Ground Batteries are summed".
    #: ``pass_on``: the summed hits' remainder goes on to ground forces (7.5.4) even while
    #: batteries stand; ``lost_while_standing``: it is lost while any battery stands.
    battery_excess: Literal["pass_on", "lost_while_standing"] = "pass_on"

    #: E65. 7.5.3 "the squadron with the lowest DS is reduced" after a critical that reduced
    #: nothing. ``lowest_ds``: the standing squadron of lowest DS, destroyed if crippled;
    #: ``lowest_ds_undamaged``: an undamaged squadron of lowest DS if there is one.
    battery_critical: Literal["lowest_ds", "lowest_ds_undamaged"] = "lowest_ds"

    #: E66. 7.6.2 blitz marines "multiply AS by 0.5 (rounding up)". ``stacked``: the halving
    #: and crippling both apply (3 AS, crippled 2); ``once``: one halving (3 AS either way).
    blitz_marine_as: Literal["stacked", "once"] = "stacked"

    #: G24. Several houses under orders 06-08 against one colony (7.5 "planetary bombardment
    #: is simultaneous" names no first house): their sieges are played one after another, each
    #: against the colony as the one before left it, none after the colony falls. Which house
    #: goes first: ``drawn``: a draw among the houses waiting, equal chances (``siege_order``);
    #: ``house_order``: the order of the scenario's ``houses`` (a turn: by name);
    #: ``fleet_order``: the house whose first fleet under 06-08 comes first in ``fleets`` (a
    #: turn: by fleet id).
    siege_order: Literal["drawn", "house_order", "fleet_order"] = "drawn"

    #: G25. One house's orders 07 (invade) and 08 (blitz) at one colony.
    #: ``invasion_then_blitz``: two sieges, the invasion (with the house's fleets under 06)
    #: first, then the blitz by the fleets under 08 if the colony still stands;
    #: ``blitz_only``: one blitz by every fleet of the house under 06-08 (the transports of
    #: 07 land as a blitz's); ``invasion_only``: one invasion by all of them.
    invade_and_blitz: Literal["invasion_then_blitz", "blitz_only", "invasion_only"] = (
        "invasion_then_blitz"
    )

    #: G26. 6.2.7 order 06 attacks "shields, ground batteries, garrisoned Army units and
    #: Marines, and Spaceports"; 7.5 never names spaceports. ``after_ground_forces``: hits left
    #: after the ground forces (7.5.4) destroy spaceports, 50 (a spaceport's DS) each, before
    #: the IU; ``never``: 7.5 only, spaceports untouched.
    bombard_spaceports: Literal["after_ground_forces", "never"] = "after_ground_forces"

    #: G27. 6.2.8 "This is a three round battle"; 7.6.1 "First conduct *one round* of planetary
    #: bombardment". ``one_round``: one round, then the landing (7.6.1); ``three_rounds``: up
    #: to three rounds, as order 06's (7.5), then the landing.
    invasion_bombardment: Literal["one_round", "three_rounds"] = "one_round"

    # --- options of the rules modules (detection.py, engagement.py, tables.py), passed on;
    # their rulings (E1–E17) are the tables engineer's, documented in those modules ---

    #: E1 (detection.effective_eli): the dominant-tech penalty as written or as the example.
    dominant_penalty: Literal["as_written", "as_example"] = "as_written"
    #: E3 (detection.starbase_eli): a starbase's ELI+2 capped at 5 or not.
    starbase_eli_cap: Literal["cap", "uncapped"] = "cap"
    #: E4 (detection.detects): a detection roll must meet (at_least) or beat (greater).
    detection_comparison: Literal["at_least", "greater"] = "at_least"
    #: E6 (tables.roe_allows): ROE 0 against hostile forces of AS 0.
    roe0_defenseless: Literal["retreat", "stay"] = "retreat"
    #: E10 (engagement.hostile): threats make hostility one way or both ways.
    threat_hostility: Literal["threatened_only", "both_ways"] = "threatened_only"
    #: E11 (engagement): order 12 between pact partners.
    colonize_under_pact: Literal["threat", "no_threat"] = "threat"
    #: E12 (engagement): the orders that bring a guard (05) into combat.
    guard_triggers: Literal["orders_05_08_12", "orders_05_08"] = "orders_05_08_12"
    #: E13 (engagement): whom a guard engages.
    guard_engages: Literal["hostile", "enemy_only"] = "hostile"
    #: E14 (engagement): when starbase guards (04) join.
    starbase_guard: Literal["when_threatened", "with_starbase"] = "when_threatened"
    #: E15 (engagement): whether an attacked blockade fleet fights.
    blockade_attacked: Literal["fights", "held_back"] = "fights"
    #: E16 (engagement): engage on the mandate only or on any hostility.
    engage_on: Literal["mandate", "any_hostility"] = "mandate"


def read_options(raw: Mapping[str, object] | None) -> Ec4xOptions:
    """The scenario's ``options`` checked (``ScenarioError`` names a bad one)."""
    return parse_options(Ec4xOptions, raw, RULESET)


class Checks:
    """The checks of an EC4X scenario that read its rule options and the ship tables
    (``scenario.ec4x.RuleChecks``): the options are read first, a bad one refused."""

    def __init__(self, scenario: Ec4xScenario) -> None:
        self.options = read_options(scenario.options)

    def colony(self, colony: ColonySpec) -> None:
        """The colony's shield is within option ``max_shield_level`` (ruling E68)."""
        if (colony.shield or 0) > self.options.max_shield_level:
            raise ScenarioError(
                "colony.shield",
                f"SLD{colony.shield} is above option max_shield_level "
                f"({self.options.max_shield_level}; 7.5.2 lists SLD1-SLD6, R&D SLD1-SLD5, "
                "ruling E68)",
            )

    def squadron(self, at: str, squadron: SquadronSpec, aco: int) -> None:
        check_squadron(at, squadron, aco, self.options)


def check_squadron(at: str, squadron: SquadronSpec, aco: int, options: Ec4xOptions) -> None:
    """A squadron's flagship and escorts are of known classes, its escorts' command cost
    within the flagship's rating (7.3.1.4, options ``check_command_rating`` and
    ``flagship_cc_counts``), its fighters within its carriers' capacity (facts 3) and a CLK
    level only with a Raider (2.4.3)."""
    classes = tables().classes
    carriers = tables().carrier_capacity
    allowed = ", ".join(c for c, k in classes.items() if k.cr)
    flagship = classes.get(squadron.flagship)
    if flagship is None:
        raise ScenarioError(
            f"{at}.flagship", f"unknown class {shown(squadron.flagship)}; allowed: {allowed}"
        )
    if not flagship.cr:
        raise ScenarioError(
            f"{at}.flagship",
            f"{squadron.flagship} has no command rating and cannot be a flagship; "
            f"allowed: {allowed}",
        )
    escorts = [c for c, k in classes.items() if k.kind == "ship"]
    for code in squadron.escorts:
        if code not in escorts:
            raise ScenarioError(
                f"{at}.escorts.{code}",
                f"unknown escort class {shown(code)}; allowed: {', '.join(escorts)} (fighters "
                "are given as fighters, scouts as scouts, TT and ET as spacelift)",
            )
    cc = sum((classes[c].cc or 0) * n for c, n in squadron.escorts.items())
    if options.flagship_cc_counts:
        cc += flagship.cc or 0
    if options.check_command_rating and cc > flagship.cr:
        what = "the squadron's CC" if options.flagship_cc_counts else "the escorts' CC"
        raise ScenarioError(
            f"{at}.escorts",
            f"{what} is {cc}, more than the flagship {squadron.flagship}'s CR {flagship.cr} "
            "(7.3.1.4: CC is validated when the squadron is formed; option "
            "check_command_rating: false allows it)",
        )
    ships = squadron.ships()
    capacity = sum(carriers[c][aco - 1] for c in ships if c in carriers)
    if squadron.fighters > capacity:
        raise ScenarioError(
            f"{at}.fighters",
            f"{squadron.fighters} fighter squadrons but the squadron's carriers hold "
            f"{capacity} at ACO {aco} (CV 3/4/5, CX 5/6/8 at ACO I/II/III)",
        )
    if squadron.clk is not None and "RR" not in ships:
        raise ScenarioError(f"{at}.clk", "only a squadron with a Raider (RR) has a CLK level")


def parse_ec4x(data: dict[str, object], *, max_units: int = MAX_UNITS_PER_SIDE) -> Ec4xScenario:
    """Validate a decoded EC4X scenario, its shape and its rules' checks (``Checks``);
    ``ScenarioError`` names the first bad field. ``max_units``: the units one house may have
    (``core/limits.py``; a game turn's battles pass ``MAX_GAME_BATTLE_UNITS``)."""
    return read_ec4x(data, Checks, max_units=max_units)


def refuse_unimplemented(options: Ec4xOptions) -> None:
    """``RuleNotImplemented`` for an option value whose reading is not implemented: checked
    when a battle is set up, and when a game state is read (``turn/game.py``), so that a game
    never stops at its first battle, after movement, for its own options."""
    if options.squadron_losses == "individual_ships":
        raise RuleNotImplemented(
            "losing individual ships inside a squadron (7.3.1.4, option squadron_losses)",
            "options.squadron_losses",
        )
    if options.excess_hits == "spill_over":
        raise RuleNotImplemented(
            "excess hits spilling over to other units (7.3.3, option excess_hits)",
            "options.excess_hits",
        )
    if options.detection_scope == "per_house":
        raise RuleNotImplemented(
            "detection judged house by house (7.1.3, option detection_scope)",
            "options.detection_scope",
        )
