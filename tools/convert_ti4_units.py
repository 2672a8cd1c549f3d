"""One-off conversion: ``../shared/reference/ti4-units.json`` -> the TI4 ``units.toml``.

Run from the repository root (``python tools/convert_ti4_units.py``). It reads the shared
reference file only here, at conversion time; the package itself never reads ``../shared``.

What it does:

- carries every unit record over (generic units and upgrades, faction unit upgrades,
  flagships, mechs) with every fact, leaving out keys whose value is null, false, 0 or empty
  (those are the schema's defaults);
- renames ``upgrade_id`` to ``upgrades_to`` and rewrites ``warsun`` / ``spacedock`` to
  ``war_sun`` / ``space_dock`` in ids, types, ``replaces`` and ``upgrades_to``;
- turns each ability string into an ``[[unit.abilities]]`` table, classified by the table
  ``CLASSIFICATION`` below (a conversion with an unclassified ability, or a key it does not
  know, stops with an error instead of guessing).
"""

from __future__ import annotations

import argparse
import json
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Literal

REPO = Path(__file__).resolve().parents[1]
DEFAULT_SOURCE = REPO.parent / "shared" / "reference" / "ti4-units.json"
DEFAULT_TARGET = REPO / "src" / "spacecombat" / "rulesets" / "ti4" / "data" / "units.toml"

SECTIONS = ("generic_units", "faction_unit_upgrades", "flagships", "mechs")

Combat = Literal["none", "stats", "rule"]


@dataclass(frozen=True)
class Kind:
    """How one printed ability touches combat (see ``spacecombat.core.rulesdata``)."""

    combat: Combat
    handler: str | None = None
    name: str | None = None


NONE = Kind("none")
STATS = Kind("stats")


def rule(handler: str, name: str | None = None) -> Kind:
    return Kind("rule", handler, name)


# (reference unit id, ability index) -> (start of the ability text, classification).
# The text prefix guards against the reference file changing under this table.
CLASSIFICATION: dict[tuple[str, int], tuple[str, Kind]] = {
    # generic units
    ("dreadnought2", 0): ("Cannot be destroyed by the Direct Hit", STATS),
    ("fighter", 0): ("Has no move value", STATS),
    ("fighter2", 0): ("May move without transport", STATS),
    ("infantry2", 0): ("When destroyed, roll 1 die", NONE),
    ("pds", 0): ("At most 2 PDS per planet", NONE),
    ("pds2", 0): ("SPACE CANNON may also target", STATS),
    ("spacedock", 0): ("Up to 3 fighters in its system", STATS),
    ("warsun", 0): ("Other players' units in its system lose", STATS),
    ("warsun", 1): ("Can only be produced after researching", NONE),
    ("flagship", 0): ("Limit 1 per player", NONE),
    # faction unit upgrades
    ("arborec_infantry2", 0): ("Same 6+ return-on-death", NONE),
    ("argent_destroyer2", 0): (
        "Each ANTI-FIGHTER BARRAGE die",
        rule("argent_destroyer2_afb_kills_infantry"),
    ),
    ("saar_spacedock", 0): ("Placed in the space area", rule("saar_floating_factory")),
    ("saar_spacedock2", 0): ("As Floating Factory I", rule("saar_floating_factory")),
    ("muaat_warsun", 0): ("Muaat start with this unit", NONE),
    ("muaat_warsun", 1): ("Other players' units in its system lose", STATS),
    ("naalu_fighter2", 0): ("Moves without transport", STATS),
    ("l1z1x_dreadnought2", 0): ("Cannot be destroyed by Direct Hit", STATS),
    ("sardakk_dreadnought2", 0): ("Cannot be destroyed by Direct Hit", STATS),
    ("sardakk_dreadnought2", 1): (
        "After a round of space combat",
        rule("sardakk_dreadnought2_sacrifice"),
    ),
    ("sol_infantry2", 0): ("Return-on-death roll succeeds", NONE),
    ("mahact_infantry", 0): ("When destroyed: gain 1 commodity", NONE),
    ("mahact_infantry2", 0): ("As level I, and the destroyed unit", NONE),
    ("titans_pds", 0): ("Counts as both a structure and a ground force", STATS),
    ("titans_pds2", 0): ("As Hel-Titan I; SPACE CANNON", STATS),
    ("vuilraith_spacedock", 0): ("Its system becomes a gravity rift", STATS),
    ("vuilraith_spacedock2", 0): ("As level I; up to 12 fighters", STATS),
    # flagships
    ("arborec_flagship", 0): ("After you activate its system, you may produce", NONE),
    ("argent_flagship", 0): (
        "Other players cannot use SPACE CANNON",
        rule("argent_flagship_blocks_space_cannon"),
    ),
    ("letnev_flagship", 0): ("Other players' units in its system lose", STATS),
    ("letnev_flagship", 1): ("Repaired at the start of every", rule("letnev_flagship_repair")),
    ("creuss_flagship", 0): (
        "Its system contains a delta wormhole",
        rule("creuss_flagship_delta_wormhole"),
    ),
    ("empyrean_flagship", 0): (
        "After any player's unit in its system",
        rule("empyrean_flagship_repair"),
    ),
    ("hacan_flagship", 0): (
        "After you roll a die during a space combat",
        rule("hacan_flagship_buy_roll_bonus"),
    ),
    ("jolnar_flagship", 0): ("Each of this ship's combat dice", rule("jolnar_flagship_extra_hits")),
    ("keleres_flagship", 0): ("Other players must spend 2 influence", NONE),
    ("l1z1x_flagship", 0): (
        "During space combat, hits produced",
        rule("l1z1x_flagship_hits_non_fighters"),
    ),
    ("mahact_flagship", 0): ("+2 to this ship's combat rolls", rule("mahact_flagship_bonus")),
    ("mentak_flagship", 0): (
        "Other players' ships in its system cannot",
        rule("mentak_flagship_no_enemy_sustain"),
    ),
    ("muaat_flagship", 0): ("ACTION: spend 1 strategy-pool token", NONE),
    ("naalu_flagship", 0): (
        "During an invasion in its system",
        rule("naalu_flagship_fighters_invade"),
    ),
    ("naazrokha_flagship", 0): (
        "Your mechs in its system roll",
        rule("naazrokha_flagship_mech_extra_die"),
    ),
    ("nekro_flagship", 0): (
        "At the start of a space combat",
        rule("nekro_flagship_ground_forces_fight"),
    ),
    # Adjacency only: which systems a retreat may reach is what the scenario's system.adjacent
    # lists (docs/rulings.md, "Memoria's adjacency"), so the ability adds nothing to a battle
    ("nomad_flagship", 0): ("May be treated as adjacent", NONE),
    ("nomad_flagship2", 0): ("As Memoria I", NONE),
    ("sardakk_flagship", 0): ("+1 to the combat rolls of each", rule("sardakk_flagship_bonus")),
    ("sol_flagship", 0): ("At the end of the status phase", NONE),
    # DEPLOY on activation, before any battle: it only changes which forces meet
    ("titans_flagship", 0): (
        "DEPLOY: after activating a system",
        Kind("none", None, "DEPLOY"),
    ),
    # captured units are destroyed all the same; only where they go afterwards changes
    ("vuilraith_flagship", 0): ("Captures all other non-structure", NONE),
    ("winnu_flagship", 0): ("Rolls a number of combat dice", rule("winnu_flagship_dice")),
    ("xxcha_flagship", 0): ("Its SPACE CANNON may also target", STATS),
    ("yin_flagship", 0): ("When it is destroyed, destroy ALL", rule("yin_flagship_destroys_all")),
    ("yssaril_flagship", 0): ("Can move through systems", NONE),
    # mechs
    ("arborec_mech", 0): ("DEPLOY via MITOSIS", Kind("none", None, "Mitosis")),
    ("argent_mech", 0): ("Does not count against capacity", rule("argent_mech_capacity_exempt")),
    ("letnev_mech", 0): ("DEPLOY: at the start of a round", rule("letnev_mech_deploy", "DEPLOY")),
    # after the invasion has established control: a unit placed, not a survivor of the battle
    ("saar_mech", 0): ("DEPLOY: after gaining control", Kind("none", None, "DEPLOY")),
    # on activation, before any battle: the scenario shows the mech gone and system.wormholes
    ("creuss_mech", 0): ("May remove itself after a system", NONE),
    ("empyrean_mech", 0): (
        "Remove it (in/adjacent to a player)",
        rule("empyrean_mech_cancel_action_card"),
    ),
    ("hacan_mech", 0): ("Its planet card may be traded", NONE),
    ("jolnar_mech", 0): (
        "Your infantry on its planet ignore FRAGILE",
        rule("jolnar_mech_ignore_fragile"),
    ),
    ("keleres_mech", 0): ("Other players must spend 1 influence", NONE),
    ("l1z1x_mech", 0): ("While not in ground combat", rule("l1z1x_mech_bombardment")),
    # on activation, before any battle: used, there is no battle
    ("mahact_mech", 0): ("Can end the turn of a player", NONE),
    ("mentak_mech", 0): (
        "Other players' ground forces on its planet",
        rule("mentak_mech_no_enemy_sustain"),
    ),
    ("muaat_mech", 0): ("When you use STAR FORGE", NONE),
    ("naalu_mech", 0): ("+2 to its combat rolls against", rule("naalu_mech_bonus")),
    ("naalu_mech_omega", 0): (
        "Other players cannot use ANTI-FIGHTER",
        rule("naalu_mech_omega_blocks_afb"),
    ),
    ("naazrokha_mech", 0): ("Combat 6 (x2). If in the space area", rule("naazrokha_mech_flip")),
    ("naazrokha_mech_space", 0): (
        "While in the active system space area",
        rule("naazrokha_mech_flip"),
    ),
    ("nekro_mech", 0): ("+2 to its combat rolls against", rule("nekro_mech_bonus")),
    ("nomad_mech", 0): (
        "While in a space area during combat",
        rule("nomad_mech_sustain_for_ships"),
    ),
    ("sardakk_mech", 0): ("After it uses SUSTAIN DAMAGE", rule("sardakk_mech_sustain_hit")),
    ("sol_mech", 0): ("DEPLOY: after ORBITAL DROP", Kind("none", None, "DEPLOY")),
    # no PDS is placed during a battle; captured infantry are destroyed all the same
    ("titans_mech", 0): ("DEPLOY: when you would place a PDS", Kind("none", None, "DEPLOY")),
    ("vuilraith_mech", 0): ("Your infantry destroyed on its planet", NONE),
    ("winnu_mech", 0): ("After a tactical action where", NONE),
    ("xxcha_mech", 0): ("Its SPACE CANNON may also target", STATS),
    ("yin_mech", 0): ("DEPLOY: when using INDOCTRINATION", rule("yin_mech_deploy", "DEPLOY")),
    ("yssaril_mech", 0): ("DEPLOY: after STALL TACTICS", Kind("none", None, "DEPLOY")),
}

# Facts the reference lacks, checked in other public sources and recorded in docs/rulings.md:
# each is added where the reference has no value, and a value the reference does give is never
# overridden (the conversion fails if it starts giving one, so the two are compared then).
SUPPLEMENTS: dict[str, dict[str, Scalar]] = {
    # Memoria II's prerequisites: green, blue, yellow (two public faction references agree;
    # docs/rulings.md 14R-7)
    "nomad_flagship2": {"upgrade_tech_prereqs": "GBY"},
}

# Output key order follows ``UnitDef`` in ``spacecombat.core.rulesdata``.
SCALAR_KEYS = (
    "id",
    "name",
    "type",
    "level",
    "source",
    "faction",
    "replaces",
    "upgrades_to",
    "upgrade_tech_prereqs",
    "cost",
    "units_per_cost",
    "move",
    "capacity",
    "combat",
    "sustain_damage",
    "anti_fighter_barrage",
    "bombardment",
    "space_cannon",
    "planetary_shield",
    "production",
    "is_ship",
    "is_ground_force",
    "is_structure",
    "immune_to_direct_hit",
    "disables_enemy_planetary_shield",
    "fighter_capacity_exemption",
)
RENAMED_KEYS = {"upgrade_id": "upgrades_to"}
ID_KEYS = ("id", "type", "replaces", "upgrades_to")
NESTED_KEYS = {
    "combat": ("hit", "dice"),
    "anti_fighter_barrage": ("hit", "dice"),
    "bombardment": ("hit", "dice"),
    "space_cannon": ("hit", "dice", "range"),
    "production": ("fixed", "planet_resources_plus"),
}

HEADER = """\
# Twilight Imperium 4 unit cards: base game, Prophecy of Kings, Codex I-III.
#
# Facts (cost, combat, move, capacity, unit abilities, ...) come from the project's reference
# file ../shared/reference/ti4-units.json, which gathers them from public data files (see its
# `meta`: AsyncTI4 unit data, cross-checked against other public TI4 data files).
# Ability texts are that reference's paraphrases, not the printed card text.
#
# Generated by tools/convert_ti4_units.py; ids use underscores (war_sun, space_dock).
# combat = "none" | "stats" | "rule": see spacecombat.core.rulesdata.
"""

Scalar = str | int | float | bool


class ConversionError(Exception):
    """The reference file holds something this conversion does not know how to carry over."""


def rename_id(value: str) -> str:
    return value.replace("warsun", "war_sun").replace("spacedock", "space_dock")


def is_default(value: object) -> bool:
    return value is None or value is False or value == 0 or value in ("", [], {})


def toml_scalar(value: Scalar) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int | float):
        return repr(value)
    return json.dumps(value, ensure_ascii=False)


def toml_inline(table: dict[str, Scalar]) -> str:
    inner = ", ".join(f"{key} = {toml_scalar(val)}" for key, val in table.items())
    return "{ " + inner + " }"


def convert_nested(unit_id: str, key: str, raw: object) -> tuple[dict[str, Scalar], str | None]:
    """Return the inline table for a dice/production field and an optional TOML comment."""
    if not isinstance(raw, dict):
        raise ConversionError(f"{unit_id}.{key}: expected a table, got {raw!r}")
    allowed = NESTED_KEYS[key]
    comment = None
    table: dict[str, Scalar] = {}
    extra = set(raw) - set(allowed)
    if key == "combat" and extra == {"dice_rule"} and raw.get("dice") is None:
        # No fixed dice count: the rule ability (handler) sets it.
        comment = (
            f"# combat dice: {raw['dice_rule']} (reference `dice_rule`),\n"
            "# so no fixed `dice`: the rule ability below sets the count."
        )
        raw = {k: v for k, v in raw.items() if k not in ("dice_rule", "dice")}
        extra = set()
    if extra:
        raise ConversionError(f"{unit_id}.{key}: unknown keys {sorted(extra)}")
    for sub in allowed:
        val = raw.get(sub)
        if sub in ("hit", "dice", "range") and val is None and sub in raw:
            raise ConversionError(f"{unit_id}.{key}.{sub}: missing value")
        if val is None:
            continue
        if not isinstance(val, int | float | str | bool):
            raise ConversionError(f"{unit_id}.{key}.{sub}: unexpected value {val!r}")
        table[sub] = val
    return table, comment


def convert_unit(raw: dict[str, object], used: set[tuple[str, int]]) -> list[str]:
    ref_id = raw.get("id")
    if not isinstance(ref_id, str):
        raise ConversionError(f"unit without an id: {raw!r}")
    data = {RENAMED_KEYS.get(key, key): val for key, val in raw.items()}
    unknown = set(data) - set(SCALAR_KEYS) - {"abilities"}
    if unknown:
        raise ConversionError(f"{ref_id}: unknown keys {sorted(unknown)}")
    for key in ID_KEYS:
        val = data.get(key)
        if isinstance(val, str):
            data[key] = rename_id(val)
    for key, value in SUPPLEMENTS.get(str(data["id"]), {}).items():
        if not is_default(data.get(key)):
            raise ConversionError(
                f"{ref_id}.{key}: the reference now gives {data[key]!r}; compare it with the "
                f"supplement {value!r} and drop one"
            )
        data[key] = value

    lines = ["[[unit]]"]
    for key in SCALAR_KEYS:
        val = data.get(key)
        if is_default(val):
            continue
        if key in NESTED_KEYS:
            table, comment = convert_nested(ref_id, key, val)
            if comment:
                lines.append(comment)
            lines.append(f"{key} = {toml_inline(table)}")
        elif isinstance(val, str | int | float | bool):
            lines.append(f"{key} = {toml_scalar(val)}")
        else:
            raise ConversionError(f"{ref_id}.{key}: unexpected value {val!r}")

    abilities = data.get("abilities") or []
    if not isinstance(abilities, list):
        raise ConversionError(f"{ref_id}.abilities: expected a list")
    for index, text in enumerate(abilities):
        if not isinstance(text, str):
            raise ConversionError(f"{ref_id}.abilities[{index}]: expected a string")
        entry = CLASSIFICATION.get((ref_id, index))
        if entry is None:
            raise ConversionError(f"{ref_id}.abilities[{index}] is not classified: {text!r}")
        prefix, kind = entry
        if not text.startswith(prefix):
            raise ConversionError(f"{ref_id}.abilities[{index}] changed: {text!r}")
        used.add((ref_id, index))
        lines.append("")
        lines.append("[[unit.abilities]]")
        if kind.name:
            lines.append(f"name = {toml_scalar(kind.name)}")
        lines.append(f"text = {toml_scalar(text)}")
        lines.append(f"combat = {toml_scalar(kind.combat)}")
        if kind.handler:
            lines.append(f"handler = {toml_scalar(kind.handler)}")
    return lines


def convert(source: Path) -> str:
    reference = json.loads(source.read_text(encoding="utf-8"))
    used: set[tuple[str, int]] = set()
    seen_ids: set[str] = set()
    blocks: list[str] = [HEADER]
    for section in SECTIONS:
        records = reference[section]
        blocks.append(f"# ---- {section} ({len(records)}) " + "-" * 40 + "\n")
        for raw in records:
            lines = convert_unit(raw, used)
            new_id = rename_id(str(raw["id"]))
            if new_id in seen_ids:
                raise ConversionError(f"id {new_id!r} appears twice")
            seen_ids.add(new_id)
            blocks.append("\n".join(lines) + "\n")
    stale = set(CLASSIFICATION) - used
    if stale:
        raise ConversionError(f"classified abilities not found in the reference: {sorted(stale)}")
    return "\n".join(blocks)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--source", type=Path, default=DEFAULT_SOURCE)
    parser.add_argument("--target", type=Path, default=DEFAULT_TARGET)
    args = parser.parse_args(argv)
    try:
        text = convert(args.source)
    except ConversionError as exc:
        print(f"convert_ti4_units: {exc}", file=sys.stderr)
        return 1
    args.target.write_text(text, encoding="utf-8")
    print(f"wrote {args.target}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
