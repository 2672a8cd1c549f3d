"""A readable account of an EC4X battle, rendered from its event log (it never calls the rules).

One line per thing that happened: morale, detection, task forces, then each round's target
selections with their bucket and weights, CER rolls with every modifier, damage and state
changes, ROE checks and retreats, and the end. ``drawn`` events are not repeated: the events
that follow each draw say what it meant.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence

from spacecombat.core.events import Event

#: events rendered by one template (fields by name)
_TEMPLATES = {
    "orders_refused": "  {house}'s fleet {fleet} refuses orders and holds position (morale crisis)",
    "morale_squadron_chosen": "  {house}'s squadron {unit} gets +{cer} CER this turn (morale)",
    "fleet_passed_undetected": "  {house}'s fleet {fleet} passes undetected",
    "initiative_won": "  all passed undetected: {house}, defending its system, wins initiative",
    "combat_cancelled": "Combat cancelled: {reason}",
    "round_started": "Round {round}",
    "attack_skipped": "  {unit} ({house}) does not fire: {reason}",
    "critical_rerolled": "  {unit}'s critical against starbase {target} is re-rolled (7.4)",
    "destruction_prevented": "  {unit} ({house}) is not destroyed: {reason}",
    "unit_crippled": "  {unit} ({house}: {ships}) is crippled ({reason})",
    "unit_destroyed": "  {unit} ({house}: {ships}) is destroyed ({reason})",
    "force_reduction": "  critical by {attacker} on {target}: force reduction reduces {unit}",
    "cloak_lost": "  {house}'s fleet {fleet} loses its cloak",
    "screened_ships_destroyed": "  {house}'s screened {ships} ({fleet}) are destroyed: {reason}",
    "combat_cut_off": "Combat cut off after round {round} (max_rounds {max_rounds})",
    "fighters_reembarked": "  carrier-owned fighters re-embark",
    "auto_critical_applied": "  {unit} ({house}): morale auto-critical against {target}",
    "planetary_combat_started": "Planetary combat: {attacker} ({mission}) against {defender}'s "
    "colony {colony}",
    "bombardment_round_started": "Bombardment round {round}",
    "bombardment_rolled": "  {house}'s {source} (AS {strength}) roll {die}: CER {cer}, {hits} hits",
    "shield_rolled": "  {house}'s SLD{level} shield rolls {roll} (needs > {above}): blocks "
    "{blocked_pct}%, {hits} hits -> {effective}",
    "fleet_bombarded": "  {hits} hits on {house}'s fleet: {reductions} reduction(s), {lost} lost",
    "batteries_bombarded": "  {hits} hits on {house}'s ground batteries: {crippled} crippled, "
    "{destroyed} destroyed, standing {standing}; {unused} passed on, {lost} lost",
    "ground_unit_reduced": "  {house}'s {unit} is {state} ({hits} hits)",
    "hits_lost": "  {hits} hits of {house} are lost ({reason})",
    "infrastructure_bombarded": "  {hits} hits on {house}'s infrastructure: IU -{iu_lost}, "
    "PU -{pu_lost} (IU {iu}, PU {pu})",
    "bombardment_ended": "Bombardment ends after {rounds} round(s)",
    "invasion_failed": "The landing fails: {reason}",
    "marines_landed": "{house}'s marines land: {marines} (undamaged crippled), AS {strength}",
    "ground_round_started": "Ground combat round {round}",
    "ground_combat_rolled": "  {house} (AS {strength}) rolls {die}: CER {cer}, {hits} hits",
    "marines_hit": "  {hits} hits on {house}'s marines: {crippled} crippled, {destroyed} "
    "destroyed, standing {standing}",
    "colony_conquered": "{house} conquers the colony from {previous} (IU destroyed: "
    "{iu_destroyed}, assets seized: {seized})",
    "colony_held": "{owner} holds the colony ({result}): {reason}",
}


class _Fields(dict[str, object]):
    """An event's fields for a template: lists as text, a missing field as '?'."""

    def __missing__(self, key: str) -> object:
        return "?"

    def __getitem__(self, key: str) -> object:
        value = super().__getitem__(key)
        if isinstance(value, list):
            return " ".join(str(v) for v in value) or "none"
        return value


def _join(value: object, sep: str = " ") -> str:
    """A list of names as text ('' if it is not a list)."""
    if isinstance(value, Sequence) and not isinstance(value, str):
        return sep.join(str(v) for v in value)
    return ""


def render_ec4x(events: Iterable[Event]) -> str:
    """The account of an EC4X battle, one line per thing that happened."""
    lines: list[str] = []
    for e in events:
        kind = str(e.get("event"))
        template = _TEMPLATES.get(kind)
        if template is not None:
            lines.append(template.format_map(_Fields(e)))
            continue
        handler = _HANDLERS.get(kind)
        if handler is not None:
            lines.extend(handler(e))
    return "\n".join(lines) + "\n"


def _started(e: Event) -> list[str]:
    scenario = e.get("scenario")
    where = ""
    if isinstance(scenario, Mapping):
        system = scenario.get("system")
        if isinstance(system, Mapping):
            where = f" at {system.get('name')}"
    return [f"EC4X space combat{where} (seed {e.get('seed')}: {e.get('seed_source')})"]


def _forces(e: Event) -> list[str]:
    units = e.get("units")
    lines = []
    controller = e.get("controller")
    lines.append(f"  system controlled by {controller}" if controller else "  neutral space")
    if isinstance(units, Sequence):
        for u in units:
            if isinstance(u, Mapping):
                state = "" if u.get("state") == "undamaged" else f", {u.get('state')}"
                ships = _join(u.get("ships"))
                lines.append(
                    f"  {u.get('house')}: {u.get('unit')} {ships} (AS {u.get('attack')}, "
                    f"DS {u.get('defense')}{state})"
                )
    return lines


def _morale(e: Event) -> list[str]:
    if e.get("crisis"):
        return [f"  {e['house']}: morale crisis (prestige {e.get('prestige')}): -1 to all CER"]
    outcome = "succeeds" if e.get("success") else "fails"
    effects = []
    if e.get("all_cer"):
        effects.append(f"{int(str(e['all_cer'])):+d} to all CER")
    if e.get("one_squadron_cer"):
        effects.append(f"+{e['one_squadron_cer']} CER for one squadron")
    if e.get("auto_critical"):
        effects.append("the first attack is a critical")
    said = f": {', '.join(effects)}" if effects else ""
    return [
        f"  {e['house']}: morale {e.get('band')} (prestige {e.get('prestige')}), "
        f"d20 {e.get('roll')} {outcome}{said}"
    ]


def _detection(e: Event) -> list[str]:
    found = "detects" if e.get("detected") else "does not detect"
    return [
        f"  {e.get('house')}'s {e.get('unit')} (ELI {e.get('eli')}) {found} fleet {e.get('fleet')} "
        f"(CLK {e.get('clk')}): d20 {e.get('roll')} against {e.get('threshold')}"
    ]


def _task_force(e: Event) -> list[str]:
    cloak = ", cloaked" if e.get("cloaked") else ""
    units = _join(e.get("units"))
    return [f"  {e.get('house')} task force (ROE {e.get('roe')}{cloak}): {units}"]


def _target(e: Event) -> list[str]:
    candidates = _join(e.get("candidates")).split()
    weights = _join(e.get("weights")).split()
    pool = ", ".join(f"{c} x{w}" for c, w in zip(candidates, weights, strict=False))
    return [
        f"  {e.get('unit')} ({e.get('house')}) targets {e.get('target')} "
        f"({e.get('target_house')}), bucket {e.get('bucket')} from [{pool}]"
    ]


def _cer(e: Event) -> list[str]:
    modifiers = e.get("modifiers")
    mods = ""
    if isinstance(modifiers, Mapping) and modifiers:
        mods = " " + " ".join(f"{int(str(v)):+d} {k}" for k, v in modifiers.items())
    critical = " critical!" if e.get("critical") else ""
    auto = " (morale auto-critical)" if e.get("auto_critical") else ""
    return [
        f"  {e.get('unit')} rolls CER d10 {e.get('die')}{mods} = {e.get('modified')}: "
        f"CER {e.get('cer')} x AS {e.get('strength')} = {e.get('hits')} hit(s) on "
        f"{e.get('target')}{critical}{auto}"
    ]


def _damage(e: Event) -> list[str]:
    by = _join(e.get("attackers"), ", ")
    return [
        f"  {e.get('unit')} takes {e.get('hits')} hit(s) against DS {e.get('defense')} (from {by})"
    ]


def _assessed(e: Event) -> list[str]:
    strength = e.get("strength")
    if not isinstance(strength, Mapping):
        return []
    return ["  strength: " + ", ".join(f"{house} AS {s}" for house, s in strength.items())]


def _roe(e: Event) -> list[str]:
    allows = "allows staying" if e.get("roe_allows") else "calls for a retreat"
    return [
        f"  {e.get('house')}: ROE {e.get('roe')}, AS {e.get('own_strength')} against hostile AS "
        f"{e.get('hostile_strength')}: the ROE {allows}; it chooses to {e.get('choice')}"
    ]


def _retreated(e: Event) -> list[str]:
    left = _join(e.get("units")) or "nothing"
    lines = [f"  {e.get('house')} retreats by a {e.get('lane')} lane with {left}"]
    stayed = _join(e.get("stayed"))
    if stayed:
        lines.append(f"    left behind: {stayed}")
    return lines


def _ended(e: Event) -> list[str]:
    result = str(e.get("result"))
    said = {
        "shared": "several houses remain, none hostile to another",
        "none": "nobody is left",
        "cancelled": "no combat (every side passed undetected in neutral space)",
        "cut_off": "cut off at the round limit",
    }.get(result, f"{result} holds the system")
    return [f"Result: {said} (rounds: {e.get('rounds')})"]


def _capacity(e: Event) -> list[str]:
    if not e.get("violation"):
        return []
    limit = f", capacity {e['capacity']}" if e.get("capacity") is not None else ""
    return [
        f"  {e.get('house')}'s colony {e.get('colony')} is in fighter capacity violation: "
        f"{e.get('fighters')} fighter squadron(s){limit}, {e.get('starbases_operational')} "
        f"operational starbase(s) of {e.get('starbases_needed')} needed (2-turn grace period)"
    ]


_HANDLERS = {
    "capacity_checked": _capacity,
    "battle_started": _started,
    "forces_set": _forces,
    "morale_checked": _morale,
    "detection_rolled": _detection,
    "task_force_formed": _task_force,
    "target_selected": _target,
    "cer_rolled": _cer,
    "damage_applied": _damage,
    "strength_assessed": _assessed,
    "roe_checked": _roe,
    "retreated": _retreated,
    "combat_ended": _ended,
}
