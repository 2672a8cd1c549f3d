"""A readable account of a battle, rendered from its event log (it never calls the rules)."""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence

from spacecombat.core.events import Event
from spacecombat.report.ec4x_text import render_ec4x

_PURPOSE = {
    "space_cannon_offense": "space cannon offense",
    "space_cannon_defense": "space cannon defense",
    "anti_fighter_barrage": "anti-fighter barrage",
    "space_combat": "combat roll",
    "ground_combat": "combat roll",
    "bombardment": "bombardment",
    "gravity_rift": "gravity rift (4+ gets away)",
    "pds_fire": "PDS fire",
    "pds_fire_at_landing": "PDS fire at the landing ground forces",
    "assault_cannon": "Assault Cannon",
    "mentak": "Mentak pre-combat shots",
    "invasion_combat": "combat roll",
    "dacxive_animators": "Dacxive Animators (6+ animates a ground force)",
}


#: events rendered by one template (fields by name; ``player`` as given)
_TEMPLATES = {
    "unit_destroyed": "  {player}'s {unit} is destroyed ({cause})",
    "unit_removed": "  {player}'s {unit} is removed ({reason})",
    "unit_repaired": "  {player}'s {unit} is repaired ({by})",
    "damage_sustained": "  {player}'s {unit} sustains damage (cancels {hits_cancelled} hit(s))",
    "hits_lost": "  {hits} hit(s) against {player} are lost ({reason})",
    "retreat_cancelled": "  {player}'s retreat does not happen: {reason}",
    "command_token_placed": "  {player} places a command token in {system} (from {source})",
    "command_token_not_needed": "  {player} already has a command token in {system}",
    "bombardment_blocked": "  bombardment of {planet} blocked ({reason})",
    "control_established": "  {player} gains control of {planet}",
    "no_combat": "No space combat: {reason}",
    "retreat_ruled_out": "  Note: {player}'s retreat policy {policy} can never retreat: {reason}",
    "pre_combat_step": "Pre-combat: {step}",
    "stalemate": "Stalemate: {reason}",
    "withdrawal_announced": "  {player} announces a withdrawal",
    "withdrawal_cancelled": "  {player}'s withdrawal or retreat does not happen: {reason}",
    "shock_troops_promoted": "  {player} promotes {count} ground force(s) to Shock Troops",
    "shock_troops_reverted": "  {player}'s {count} Shock Troop(s) revert to ground forces",
    "ground_forces_animated": "  {player} gains {count} ground force(s) (Dacxive Animators)",
    "ground_forces_converted": "  {player} converts {count} enemy ground force(s) (Yin)",
    "invasion_succeeded": "  the invasion of {planet} succeeds",
    # TI4 cards, leaders and faction effects (issue 14)
    "hits_cancelled": "  {hits} hit(s) against {player} cancelled ({by})",
    "hits_produced": "  {player} produces {hits} hit(s) against {against} ({by})",
    "trade_goods_gained": "  {player} gains {trade_goods} trade good(s) ({by})",
    "trade_goods_spent": "  {player} spends {trade_goods} trade good(s) ({by})",
    "influence_spent": "  {player} spends {influence} influence ({by})",
    "resources_spent": "  {player} spends {resources} resource(s) ({by})",
    "unit_damaged": "  {player}'s {unit} is damaged ({by})",
    "unit_replaced": "  {player}'s {unit} on {planet} becomes {by}'s",
    "card_cancelled": "  {player}'s {card} is cancelled ({by})",
    "ground_forces_returned": "  ground forces leave {planet} ({by})",
    "invasion_failed": "  the invasion of {planet} fails: {reason}",
}


def units_text(units: object) -> str:
    """``[{"unit": "dreadnought", "count": 2, "status": "damaged"}]`` as ``2 dreadnought
    (damaged)``."""
    if not isinstance(units, Sequence) or not units:
        return "none"
    parts = []
    for item in units:
        if isinstance(item, Mapping):
            status = f" ({item['status']})" if item.get("status") else ""
            parts.append(f"{item.get('count')} {item.get('unit')}{status}")
    return ", ".join(parts) or "none"


def _side_text(side: object) -> str:
    if not isinstance(side, Mapping):
        return "none"
    text = units_text(side.get("space"))
    planets = side.get("planets")
    if isinstance(planets, Sequence):
        on = [units_text(p) for p in planets if p]
        if on:
            text += "; on planets: " + " | ".join(on)
    return text


class _Fields(dict[str, object]):
    """An event's fields for a template; a missing one shows as '?'."""

    def __missing__(self, key: str) -> object:
        return "?"


def render(events: Iterable[Event]) -> str:
    """The account, one line per thing that happened."""
    events = list(events)
    if events and events[0].get("ruleset") == "ec4x":
        return render_ec4x(events)
    lines: list[str] = []
    chosen = ""  # the last choice shown: a card played right after it is not said twice
    for e in events:
        kind = e.get("event")
        who = str(e.get("player", ""))
        if kind == "card_played":
            if chosen != f"{who}: play {e.get('card')}":
                lines.append(f"  {who} plays {e.get('card')}")
            continue
        if kind == "choice_made":
            chosen = f"{who}: {e.get('choice')}"
        template = _TEMPLATES.get(str(kind))
        if template is not None:
            lines.append(template.format_map(_Fields(e)))
            continue
        if kind == "battle_started":
            seed = e.get("seed")
            battle = e.get("scenario", {})
            what = battle.get("battle") if isinstance(battle, Mapping) else "?"
            game = str(e.get("ruleset", "ti4")).upper()
            lines.append(f"{game} {what} battle" + (f" (seed {seed})" if seed is not None else ""))
        elif kind == "forces_set":
            lines.append(f"  attacker: {_side_text(e.get('attacker'))}")
            lines.append(f"  defender: {_side_text(e.get('defender'))}")
        elif kind == "round_started":
            lines.append(f"Round {e.get('round')}")
        elif kind == "combat_started":
            where = f" on {e['planet']}" if e.get("planet") else ""
            lines.append(f"{str(e.get('kind')).capitalize()} combat begins{where}")
        elif kind == "dice_rolled":
            groups = e.get("groups")
            rolls = []
            if isinstance(groups, list):
                for g in groups:
                    faces = " ".join(str(f) for f in g["faces"])
                    rolls.append(f"{g['unit']} [{faces}] hit on {g['hit_on']}+")
            purpose = _PURPOSE.get(str(e.get("purpose")), str(e.get("purpose")))
            lines.append(f"  {who} rolls {purpose}: {'; '.join(rolls)} -> {e.get('hits')} hit(s)")
        elif kind == "choice_made" and not e.get("forced") and e.get("decision") != "assign_hit":
            lines.append(f"  {who} chooses: {e.get('choice')}")
        elif kind == "retreat_announced":
            forced = " (forced: neither side can win)" if e.get("forced") else ""
            lines.append(f"  {who} announces a retreat{forced}")
        elif kind == "withdrawal_executed":
            lines.append(f"  {who} moves to {e.get('to')} with {units_text(e.get('units'))}")
        elif kind == "retreated":
            if e.get("units"):
                lines.append(f"  {who} retreats to {e.get('to')} with {units_text(e.get('units'))}")
            else:
                lines.append(f"  {who} retreats to {e.get('to')}, but no unit gets there")
        elif kind == "technology_gained":
            source = f" from {e['source']}" if e.get("source") else ""
            lines.append(f"  {who} gains {e.get('name')}{source} ({e.get('by')})")
        elif kind == "ground_forces_committed":
            lines.append(f"  attacker commits {units_text(e.get('units'))} to {e.get('planet')}")
        elif kind == "stage_ended":
            lines.append("Space combat over; the invasion follows")
            lines.extend(_ending(e))
        elif kind == "battle_ended" and e.get("battle") == "tactical":
            lines.extend(_tactical_ending(e))
        elif kind == "battle_ended":
            lines.extend(_ending(e))
    return "\n".join(lines) + "\n"


def _tactical_ending(e: Event) -> list[str]:
    """The end of a tactical action: who holds the system, each planet, then the last
    combat's result."""
    holder = e.get("holds")
    holds = "nobody holds the system" if holder == "neither" else f"the {holder} holds the system"
    lines = [f"Tactical action over: {holds}"]
    records = e.get("planets")
    for record in records if isinstance(records, list) else []:
        if not isinstance(record, Mapping):
            continue
        name = record.get("planet")
        if record.get("result") == "not_invaded":
            lines.append(f"  {name}: not invaded; the defender keeps it")
            continue
        owner = (
            "taken by the attacker"
            if record.get("controller") == "attacker"
            else "kept by the defender"
        )
        left = (
            f"attacker {units_text(record.get('attacker'))}; "
            f"defender {units_text(record.get('defender'))}"
        )
        lines.append(f"  {name}: {owner} ({left})")
    last = e.get("invasion") or e.get("space")
    if isinstance(last, dict):
        lines.extend(_ending(last))
    return lines


def _ending(e: Event) -> list[str]:
    result = str(e.get("result"))
    nobody = "a draw: nobody is left"
    if e.get("battle") == "invasion":
        nobody = "a draw: no ground forces are left (the defender keeps control)"
    said = {
        "attacker_win": "the attacker wins",
        "defender_win": "the defender wins",
        "draw": nobody,
        "no_combat": "no combat took place",
        "mixed": "each side holds some planets",
        "stalemate": "a stalemate: neither player can destroy the other's ships",
    }.get(result, result)
    lines = [f"Result: {said} (rounds: {e.get('rounds')})"]
    lines.append(f"  attacker left: {_side_text(e.get('attacker'))}")
    lines.append(f"  defender left: {_side_text(e.get('defender'))}")
    retreat = e.get("retreat") or e.get("withdrawal")
    if isinstance(retreat, Mapping):
        lines.append(f"  {retreat.get('player')} retreated to {retreat.get('to')}")
    if e.get("battle") == "invasion" and "planet_taken" in e:
        taken = "taken by the attacker" if e.get("planet_taken") else "kept by the defender"
        lines.append(f"  planet {taken}")
    return lines
