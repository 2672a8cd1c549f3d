"""TI3 ability handlers and rules data: each modifier handler's numbers for the rolls it
reaches and those it must not (ti3-facts.md sections 4.4, 5, 9, 10); every ability of kind
"rule" in the data is either handled or refused with RuleNotImplemented; the unit cards match
ti3-facts.md section 2."""

from __future__ import annotations

import inspect
from typing import Any

import pytest

from spacecombat.core.errors import RuleNotImplemented, ScenarioError
from spacecombat.core.sides import Side
from spacecombat.rulesets import parse_ti_scenario
from spacecombat.rulesets.ti3 import rules
from spacecombat.rulesets.ti3.abilities import HANDLERS, markers, modifiers
from spacecombat.rulesets.ti3.abilities.base import Handler, Marker, RollContext, RollKind
from spacecombat.rulesets.ti3.setup import build
from tests.helpers import run

A, D = Side.ATTACKER, Side.DEFENDER
K = RollKind


def roll(kind: RollKind, unit: str, roller: Side = A, **extra: Any) -> RollContext:
    """A roll of ``roller``'s ``unit``; ``defending`` follows the roller unless given."""
    extra.setdefault("defending", roller is D)
    return RollContext(kind, roller, unit, **extra)


def numbers(handler: Handler, context: RollContext) -> tuple[int, int]:
    """(modifier, extra dice) a handler gives a roll."""
    return handler.modifier(context), handler.extra_dice(context)


# --- one test per handler class in abilities/modifiers.py -----------------------------------

TESTED = {
    "HylarVAssaultLaser",
    "AutomatedDefenseTurrets",
    "MagenDefenseGrid",
    "Cybernetics",
    "AdvancedFighters",
    "GenSynthesis",
    "ManeuveringJets",
    "Sardakk",
    "JolNar",
    "L1z1x",
    "Naalu",
    "Xxcha",
    "Nebula",
}


def test_every_modifier_handler_class_has_a_test_here() -> None:
    """Guard: a new handler class in modifiers.py needs its own test in this file."""
    found = {
        name
        for name, cls in inspect.getmembers(modifiers, inspect.isclass)
        if issubclass(cls, Handler) and cls.__module__ == modifiers.__name__
    }
    assert found == TESTED


def test_hylar_v_assault_laser() -> None:
    """ti3-facts.md 9 (Hylar V Assault Laser): cruisers and destroyers +1 on all combat rolls,
    anti-fighter barrage included; not other ships, not the opponent, not PDS fire or
    bombardment."""
    h = modifiers.HylarVAssaultLaser(A)
    assert numbers(h, roll(K.SPACE_COMBAT, "cruiser")) == (1, 0)
    assert numbers(h, roll(K.SPACE_COMBAT, "destroyer")) == (1, 0)
    assert numbers(h, roll(K.ANTI_FIGHTER_BARRAGE, "destroyer")) == (1, 0)
    assert numbers(h, roll(K.PRE_COMBAT_SHOT, "cruiser")) == (1, 0)
    assert numbers(h, roll(K.SPACE_COMBAT, "dreadnought")) == (0, 0)
    assert numbers(h, roll(K.SPACE_COMBAT, "fighter")) == (0, 0)
    assert numbers(h, roll(K.SPACE_COMBAT, "cruiser", D)) == (0, 0)
    assert numbers(h, roll(K.PDS_FIRE, "pds")) == (0, 0)
    assert numbers(h, roll(K.BOMBARDMENT, "cruiser")) == (0, 0)


def test_automated_defense_turrets() -> None:
    """ti3-facts.md 4.2 and 9 (Automated Defense Turrets): destroyers +2 and one extra die in
    anti-fighter barrage only, and only the owner's."""
    h = modifiers.AutomatedDefenseTurrets(A)
    assert numbers(h, roll(K.ANTI_FIGHTER_BARRAGE, "destroyer")) == (2, 1)
    assert numbers(h, roll(K.SPACE_COMBAT, "destroyer")) == (0, 0)
    assert numbers(h, roll(K.PRE_COMBAT_SHOT, "destroyer")) == (0, 0)
    assert numbers(h, roll(K.ANTI_FIGHTER_BARRAGE, "destroyer", D)) == (0, 0)
    assert numbers(h, roll(K.ANTI_FIGHTER_BARRAGE, "cruiser")) == (0, 0)


def test_automated_defense_turrets_with_hylar_v_gives_3_dice_at_6() -> None:
    """ti3-facts.md 4.2: with Automated Defense Turrets a destroyer's barrage is 3 dice at 7,
    at 6 with Hylar V (printed 9, modifiers +2 and +1)."""
    context = roll(K.ANTI_FIGHTER_BARRAGE, "destroyer")
    both = (modifiers.AutomatedDefenseTurrets(A), modifiers.HylarVAssaultLaser(A))
    assert sum(h.modifier(context) for h in both) == 3
    assert 2 + sum(h.extra_dice(context) for h in both) == 3


def test_magen_defense_grid() -> None:
    """ti3-facts.md 5 and 9 (Magen Defense Grid): the owner's PDS +1 (at ships and at landing
    ground forces); the owner's ground forces defending a planet holding its PDS +1 in
    invasion combat; never Mechanized Units, an attacker, or a planet without a PDS."""
    h = modifiers.MagenDefenseGrid(D)
    assert numbers(h, roll(K.PDS_FIRE, "pds", D)) == (1, 0)
    assert numbers(h, roll(K.PDS_FIRE_AT_LANDING, "pds", D)) == (1, 0)
    on_pds = {"planet_has_own_pds": True}
    assert numbers(h, roll(K.INVASION_COMBAT, "ground_force", D, **on_pds)) == (1, 0)
    assert numbers(h, roll(K.INVASION_COMBAT, "shock_troop", D, **on_pds)) == (1, 0)
    assert numbers(h, roll(K.INVASION_COMBAT, "mechanized_unit", D, **on_pds)) == (0, 0)
    assert numbers(h, roll(K.INVASION_COMBAT, "ground_force", D)) == (0, 0)
    assert numbers(h, roll(K.PDS_FIRE, "pds", A)) == (0, 0)
    assert numbers(h, roll(K.INVASION_COMBAT, "ground_force", A, **on_pds)) == (0, 0)
    attacking = modifiers.MagenDefenseGrid(A)
    assert numbers(attacking, roll(K.INVASION_COMBAT, "ground_force", A, **on_pds)) == (0, 0)
    assert numbers(attacking, roll(K.PDS_FIRE, "pds", A)) == (1, 0)


def test_cybernetics() -> None:
    """ti3-facts.md 9 (Cybernetics): the owner's fighters +1 on combat rolls; not other
    units, not the opponent's fighters."""
    h = modifiers.Cybernetics(A)
    assert numbers(h, roll(K.SPACE_COMBAT, "fighter")) == (1, 0)
    assert numbers(h, roll(K.INVASION_COMBAT, "fighter")) == (1, 0)
    assert numbers(h, roll(K.SPACE_COMBAT, "cruiser")) == (0, 0)
    assert numbers(h, roll(K.SPACE_COMBAT, "fighter", D)) == (0, 0)
    assert numbers(h, roll(K.BOMBARDMENT, "fighter")) == (0, 0)


def test_advanced_fighters() -> None:
    """ti3-facts.md 9 (Advanced Fighters): fighters +1, a separate bonus from Cybernetics
    (both together +2)."""
    h = modifiers.AdvancedFighters(A)
    assert h.id == "advanced_fighters"
    assert numbers(h, roll(K.SPACE_COMBAT, "fighter")) == (1, 0)
    assert numbers(h, roll(K.SPACE_COMBAT, "carrier")) == (0, 0)
    assert numbers(h, roll(K.SPACE_COMBAT, "fighter", D)) == (0, 0)
    context = roll(K.SPACE_COMBAT, "fighter")
    assert h.modifier(context) + modifiers.Cybernetics(A).modifier(context) == 2


def test_gen_synthesis() -> None:
    """ti3-facts.md 9 (GEN Synthesis): the owner's ground forces +1 in invasion combat only;
    Mechanized Units are immune to effects naming ground forces (section 8)."""
    h = modifiers.GenSynthesis(A)
    assert numbers(h, roll(K.INVASION_COMBAT, "ground_force")) == (1, 0)
    assert numbers(h, roll(K.INVASION_COMBAT, "shock_troop")) == (1, 0)
    assert numbers(h, roll(K.INVASION_COMBAT, "mechanized_unit")) == (0, 0)
    assert numbers(h, roll(K.INVASION_COMBAT, "ground_force", D)) == (0, 0)
    assert numbers(h, roll(K.SPACE_COMBAT, "cruiser")) == (0, 0)


def test_maneuvering_jets() -> None:
    """ti3-facts.md 5 and 9 (Maneuvering Jets): enemy PDS fire at the owner's ships -1; not
    the owner's own PDS, not PDS fire at landing ground forces, not combat rounds."""
    h = modifiers.ManeuveringJets(A)
    assert numbers(h, roll(K.PDS_FIRE, "pds", D)) == (-1, 0)
    assert numbers(h, roll(K.PDS_FIRE, "pds", A)) == (0, 0)
    assert numbers(h, roll(K.PDS_FIRE_AT_LANDING, "pds", D)) == (0, 0)
    assert numbers(h, roll(K.SPACE_COMBAT, "cruiser", D)) == (0, 0)


def test_sardakk() -> None:
    """ti3-facts.md 10 (Sardakk N'orr): +1 to all the owner's combat rolls (space battle,
    its pre-combat shots and barrage, invasion combat); not PDS fire or bombardment."""
    h = modifiers.Sardakk(A)
    for kind, unit in (
        (K.SPACE_COMBAT, "cruiser"),
        (K.ANTI_FIGHTER_BARRAGE, "destroyer"),
        (K.PRE_COMBAT_SHOT, "dreadnought"),
        (K.INVASION_COMBAT, "ground_force"),
        (K.INVASION_COMBAT, "mechanized_unit"),
    ):
        assert numbers(h, roll(kind, unit)) == (1, 0), (kind, unit)
    assert numbers(h, roll(K.SPACE_COMBAT, "cruiser", D)) == (0, 0)
    assert numbers(h, roll(K.PDS_FIRE, "pds")) == (0, 0)
    assert numbers(h, roll(K.PDS_FIRE_AT_LANDING, "pds")) == (0, 0)
    assert numbers(h, roll(K.BOMBARDMENT, "dreadnought")) == (0, 0)


def test_jolnar() -> None:
    """ti3-facts.md 10 (Universities of Jol-Nar): -1 to all the owner's combat rolls; not PDS
    fire or bombardment, not the opponent."""
    h = modifiers.JolNar(A)
    assert numbers(h, roll(K.SPACE_COMBAT, "cruiser")) == (-1, 0)
    assert numbers(h, roll(K.INVASION_COMBAT, "ground_force")) == (-1, 0)
    assert numbers(h, roll(K.ANTI_FIGHTER_BARRAGE, "destroyer")) == (-1, 0)
    assert numbers(h, roll(K.SPACE_COMBAT, "cruiser", D)) == (0, 0)
    assert numbers(h, roll(K.PDS_FIRE, "pds")) == (0, 0)
    assert numbers(h, roll(K.BOMBARDMENT, "war_sun")) == (0, 0)


def test_l1z1x() -> None:
    """ti3-facts.md 10 (L1Z1X Mindnet): dreadnoughts +1 on combat rolls; ground forces +1 in
    invasion combat, not Mechanized Units (section 8); not other ships, not bombardment."""
    h = modifiers.L1z1x(A)
    assert numbers(h, roll(K.SPACE_COMBAT, "dreadnought")) == (1, 0)
    assert numbers(h, roll(K.PRE_COMBAT_SHOT, "dreadnought")) == (1, 0)
    assert numbers(h, roll(K.INVASION_COMBAT, "ground_force")) == (1, 0)
    assert numbers(h, roll(K.INVASION_COMBAT, "shock_troop")) == (1, 0)
    assert numbers(h, roll(K.INVASION_COMBAT, "mechanized_unit")) == (0, 0)
    assert numbers(h, roll(K.SPACE_COMBAT, "cruiser")) == (0, 0)
    assert numbers(h, roll(K.SPACE_COMBAT, "dreadnought", D)) == (0, 0)
    assert numbers(h, roll(K.BOMBARDMENT, "dreadnought")) == (0, 0)


def test_naalu() -> None:
    """ti3-facts.md 10 (Naalu Collective): the owner's fighters +1 in space battles; not in
    invasion combat, not other units, not the opponent's fighters."""
    h = modifiers.Naalu(A)
    assert numbers(h, roll(K.SPACE_COMBAT, "fighter")) == (1, 0)
    assert numbers(h, roll(K.INVASION_COMBAT, "fighter")) == (0, 0)
    assert numbers(h, roll(K.SPACE_COMBAT, "carrier")) == (0, 0)
    assert numbers(h, roll(K.SPACE_COMBAT, "fighter", D)) == (0, 0)


def test_xxcha() -> None:
    """ti3-facts.md 10 (Xxcha Kingdom; data text): the opponent -1 in the first round of every
    space battle and invasion combat; not round 2, not the owner, not barrage or PDS fire."""
    h = modifiers.Xxcha(D)
    assert numbers(h, roll(K.SPACE_COMBAT, "cruiser", A, round=1)) == (-1, 0)
    assert numbers(h, roll(K.INVASION_COMBAT, "ground_force", A, round=1)) == (-1, 0)
    assert numbers(h, roll(K.SPACE_COMBAT, "cruiser", A, round=2)) == (0, 0)
    assert numbers(h, roll(K.SPACE_COMBAT, "cruiser", D, round=1)) == (0, 0)
    assert numbers(h, roll(K.ANTI_FIGHTER_BARRAGE, "destroyer", A)) == (0, 0)
    assert numbers(h, roll(K.PDS_FIRE, "pds", A)) == (0, 0)


def test_nebula() -> None:
    """ti3-facts.md 4.4 (Nebula): the defender's ships +1 in a space battle there; not the
    attacker, not outside a nebula, not PDS fire or invasion combat."""
    h = modifiers.Nebula(None)
    nebula = {"in_nebula": True}
    assert numbers(h, roll(K.SPACE_COMBAT, "cruiser", D, **nebula)) == (1, 0)
    assert numbers(h, roll(K.ANTI_FIGHTER_BARRAGE, "destroyer", D, **nebula)) == (1, 0)
    assert numbers(h, roll(K.PRE_COMBAT_SHOT, "dreadnought", D, **nebula)) == (1, 0)
    assert numbers(h, roll(K.SPACE_COMBAT, "cruiser", A, **nebula)) == (0, 0)
    assert numbers(h, roll(K.SPACE_COMBAT, "cruiser", D)) == (0, 0)
    assert numbers(h, roll(K.PDS_FIRE, "pds", D, **nebula)) == (0, 0)
    assert numbers(h, roll(K.INVASION_COMBAT, "ground_force", D, **nebula)) == (0, 0)


def test_markers_change_no_dice() -> None:
    """abilities/markers.py: abilities that add a step (Assault Cannon, Mentak, Duranium Armor,
    Graviton Laser System, Graviton Negator, X-89, Dacxive Animators) give no modifier and no
    extra dice."""
    found = [
        cls
        for _, cls in inspect.getmembers(markers, inspect.isclass)
        if issubclass(cls, Marker) and cls is not Marker
    ]
    assert len(found) == 7
    for cls in found:
        for kind in RollKind:
            assert numbers(cls(A), roll(kind, "dreadnought")) == (0, 0)


# --- every "rule" ability: handled, or refused by name ---------------------------------------


def scenario(attacker: dict[str, Any], **extra: Any) -> dict[str, Any]:
    """A TI3 space battle with the attacker given."""
    return {
        "ruleset": "ti3",
        "battle": "space",
        "attacker": {"units": {"cruiser": 1}, **attacker},
        "defender": {"units": {"cruiser": 1}},
        **extra,
    }


TECHNOLOGIES = sorted(t for t, r in rules.load().technologies.items() if r.combat == "rule")
FACTIONS = sorted(
    f for f, r in rules.load().factions.items() if any(a.combat == "rule" for a in r.abilities)
)


@pytest.mark.parametrize("tech", TECHNOLOGIES)
def test_each_rule_technology_is_handled_or_refused(tech: str) -> None:
    """ti3-facts.md 9: a technology that changes combat either has its handler (and the battle
    is built with it) or the battle is refused with RuleNotImplemented naming it."""
    record = rules.load().technologies[tech]
    # a racial technology is held by a side of its race (issue 27, docs/rulings.md 27R-14)
    # a dreadnought: the Yin sacrifice (refused) needs a cruiser or destroyer (27R-19)
    side: dict[str, Any] = {"technologies": [tech], "units": {"dreadnought": 1}}
    if record.faction:
        side["faction"] = record.faction
    if record.handler in HANDLERS:
        setup = build(parse_ti_scenario(scenario(side)))
        assert record.handler in setup.side(A).handlers
    else:
        with pytest.raises(RuleNotImplemented) as caught:
            run(scenario(side), [])
        assert record.name in caught.value.rule
        assert caught.value.where == "attacker.technologies[0]"


@pytest.mark.parametrize("faction", FACTIONS)
def test_each_rule_race_ability_is_handled_or_refused(faction: str) -> None:
    """ti3-facts.md 10: a race whose abilities change combat is played with their handlers, or
    refused with RuleNotImplemented naming the race when one has none."""
    record = rules.load().factions[faction]
    abilities = [a for a in record.abilities if a.combat == "rule"]
    if all(a.handler in HANDLERS for a in abilities):
        # a dreadnought: the Yin sacrifice (refused) needs a cruiser or destroyer (27R-19)
        setup = build(
            parse_ti_scenario(scenario({"faction": faction, "units": {"dreadnought": 1}}))
        )
        assert {a.handler for a in abilities} <= setup.side(A).handlers
    else:
        with pytest.raises(RuleNotImplemented) as caught:
            run(scenario({"faction": faction}), [])
        assert record.name in caught.value.rule
        assert caught.value.where == "attacker.faction"


def test_no_race_is_refused_for_its_racial_abilities() -> None:
    """ti3-facts.md 10: every race's abilities are implemented or never act in a battle since
    issue 27 (the Yin's sacrifice 27S-15, the Naalu's retreat before the battle 27S-16); a
    Naalu defender that could retreat is played."""
    sc = scenario({})
    sc["defender"]["faction"] = "naalu"
    sc["system"] = {"adjacent": [{"name": "B", "command_tokens": ["defender"]}]}
    assert run(sc, [7, 1]).outcome["result"] == "attacker_win"


def test_every_unit_with_a_rule_ability_is_refused() -> None:
    """ti3-facts.md 2 (Flagship): the generic flagship card stands for the race's own, so a
    flagship with no race is refused, naming the unit (issue 27: each race's flagship,
    tests/ti3/flagships/)."""
    with_rules = [
        u.id
        for u in rules.load().units.values()
        if u.faction is None and any(a.combat == "rule" for a in u.abilities)
    ]
    assert with_rules == ["flagship"]
    for unit in with_rules:
        with pytest.raises(ScenarioError) as caught:
            run(scenario({"units": {unit: 1}}), [])
        assert caught.value.field == f"attacker.units.{unit}"


def test_a_ti4_law_is_not_a_ti3_political_card() -> None:
    """ti3-facts.md 11: TI3 laws are its political cards (data/political_cards.toml, 27Z-1;
    tests/ti3/laws/); TI4's Shared Research is not one of them."""
    with pytest.raises(ScenarioError) as caught:
        run(scenario({}, laws=["shared_research"]), [])
    assert caught.value.field == "laws[0]"


def test_carrying_units_out_of_a_gravity_rift_is_played() -> None:
    """27Q-3 (lifting 27M-3's refusal): the attacker, who may withdraw to B, carries its
    fighter out aboard its carrier; the scenario is built (the rolls and losses:
    tests/ti3/test_gravity_rift_cargo.py; asteroid fields and supernovas, where no battle can
    happen: test_anomalies.py)."""
    rift = {"anomaly": "gravity_rift", "adjacent": [{"name": "B", "command_tokens": ["attacker"]}]}
    setup = build(parse_ti_scenario(scenario({"units": {"carrier": 1, "fighter": 1}}, system=rift)))
    assert setup.anomaly == "gravity_rift"


def test_every_handler_named_in_the_data_exists() -> None:
    """abilities/__init__.py: a handler named by a data record is one of HANDLERS, and every
    handler but the nebula's is named by some record."""
    data = rules.load()
    named = {t.handler for t in data.technologies.values() if t.handler}
    named |= {a.handler for f in data.factions.values() for a in f.abilities if a.handler}
    named |= {a.handler for u in data.units.values() for a in u.abilities if a.handler}
    assert named <= set(HANDLERS)
    assert set(HANDLERS) - named == {"nebula"}


# --- unit cards (ti3-facts.md section 2) -----------------------------------------------------


def test_war_sun_card() -> None:
    """ti3-facts.md 2: War Sun cost 12, 3 dice at 3, capacity 6, sustain damage, bombardment
    3 dice at 3."""
    u = rules.load().units["war_sun"]
    assert u.cost == 12
    assert u.combat is not None
    assert (u.combat.hit, u.combat.dice) == (3, 3)
    assert u.capacity == 6
    assert u.sustain_damage
    assert u.bombardment is not None
    assert (u.bombardment.hit, u.bombardment.dice) == (3, 3)


def test_dreadnought_card() -> None:
    """ti3-facts.md 2: Dreadnought cost 5, battle 5, capacity 0, sustain damage, bombardment
    1 die at 5."""
    u = rules.load().units["dreadnought"]
    assert u.cost == 5
    assert u.combat is not None
    assert (u.combat.hit, u.combat.dice) == (5, 1)
    assert u.capacity == 0
    assert u.sustain_damage
    assert u.bombardment is not None
    assert (u.bombardment.hit, u.bombardment.dice) == (5, 1)


@pytest.mark.parametrize(
    ("unit", "cost", "hit", "capacity"),
    [
        ("carrier", 3, 9, 6),
        ("cruiser", 2, 7, None),
        ("destroyer", 1, 9, None),
    ],
)
def test_ship_cards(unit: str, cost: int, hit: int, capacity: int | None) -> None:
    """ti3-facts.md 2: carrier cost 3, battle 9, capacity 6; cruiser cost 2, battle 7;
    destroyer cost 1, battle 9; one die each, no sustain damage."""
    u = rules.load().units[unit]
    assert u.cost == cost
    assert u.combat is not None
    assert (u.combat.hit, u.combat.dice) == (hit, 1)
    assert (u.capacity or None) == capacity
    assert not u.sustain_damage
    assert u.is_ship


def test_destroyer_anti_fighter_barrage() -> None:
    """ti3-facts.md 4.2: a destroyer's anti-fighter barrage is 2 dice at its battle value 9."""
    u = rules.load().units["destroyer"]
    assert u.anti_fighter_barrage is not None
    assert (u.anti_fighter_barrage.hit, u.anti_fighter_barrage.dice) == (9, 2)
    others = [
        n
        for n, c in rules.load().units.items()
        if c.anti_fighter_barrage is not None and c.faction is None
    ]
    assert others == ["destroyer"]


def test_fighter_card() -> None:
    """ti3-facts.md 2: fighters battle 9, cost 1 buys two."""
    u = rules.load().units["fighter"]
    assert u.combat is not None
    assert (u.combat.hit, u.combat.dice) == (9, 1)
    assert (u.cost, u.units_per_cost) == (1, 2)


def test_ground_force_and_shock_troop_cards() -> None:
    """ti3-facts.md 2: ground force battle 8 (cost 1 buys two); shock troop battle 5 (promoted,
    not built)."""
    units = rules.load().units
    gf, st = units["ground_force"], units["shock_troop"]
    assert gf.combat is not None
    assert st.combat is not None
    assert (gf.combat.hit, gf.combat.dice) == (8, 1)
    assert (gf.cost, gf.units_per_cost) == (1, 2)
    assert (st.combat.hit, st.combat.dice) == (5, 1)
    assert st.cost is None
    assert gf.is_ground_force
    assert st.is_ground_force


def test_pds_and_space_dock_cards() -> None:
    """ti3-facts.md 2 and 5: PDS cost 2, fires one die at 6, planetary shield; space dock cost
    4, supports 3 fighters; neither rolls in combat."""
    units = rules.load().units
    pds, dock = units["pds"], units["space_dock"]
    assert pds.cost == 2
    assert pds.space_cannon is not None
    assert (pds.space_cannon.hit, pds.space_cannon.dice) == (6, 1)
    assert pds.planetary_shield
    assert dock.cost == 4
    assert dock.fighter_capacity_exemption == 3
    assert pds.combat is None
    assert dock.combat is None
    assert pds.is_structure
    assert dock.is_structure


def test_mechanized_unit_card() -> None:
    """ti3-facts.md 2 and 8 (the project's choice for the [L] numbers): Mechanized Unit cost 2,
    battle 6, sustain damage, a ground unit."""
    u = rules.load().units["mechanized_unit"]
    assert u.cost == 2
    assert u.combat is not None
    assert u.combat.hit == 6
    assert u.sustain_damage
    assert u.is_ground_force


def test_only_war_suns_dreadnoughts_and_mechanized_units_sustain_damage() -> None:
    """ti3-facts.md 2 (Sustain Damage): war suns, dreadnoughts, mechanized units (and
    flagships)."""
    sustain = {n for n, u in rules.load().units.items() if u.sustain_damage and u.faction is None}
    assert sustain == {"war_sun", "dreadnought", "mechanized_unit", "flagship"}


def test_only_war_suns_and_dreadnoughts_bombard() -> None:
    """ti3-combat.md, Bombardments; ti3-facts.md 2: bombardment belongs to war suns and
    dreadnoughts (of the generic cards; a race's flagship may have it: issue 27)."""
    bombard = {
        n for n, u in rules.load().units.items() if u.bombardment is not None and u.faction is None
    }
    assert bombard == {"war_sun", "dreadnought"}
