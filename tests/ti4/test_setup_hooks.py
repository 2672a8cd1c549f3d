"""No effect is named outside its own handler (issue 21): the TI4 set-up, the battle and the
procedures import no module of an effect's handler, only those of the rules' own unit abilities
and anomalies; the effects that act at set-up do so through ``Handler``'s set-up hooks."""

from __future__ import annotations

import ast
import importlib
from pathlib import Path

from spacecombat.rulesets import parse_ti_scenario
from spacecombat.rulesets.ti4 import setup as ti4_setup
from spacecombat.rulesets.ti4.abilities.base import HANDLERS
from spacecombat.rulesets.ti4.setup import build
from spacecombat.rulesets.ti4.sides import Side
from tests.helpers import space

TI4 = Path(ti4_setup.__file__).resolve().parent.parent
ABILITIES = "spacecombat.rulesets.ti4.abilities"
#: the rules' own unit abilities and anomalies, which the procedures apply themselves
RULES = frozenset(
    {
        "anti_fighter_barrage",
        "bombardment",
        "gravity_rift",
        "planetary_shield",
        "space_cannon",
        "sustain_damage",
    }
)


def _imported(path: Path) -> set[str]:
    """The abilities modules ``path`` imports (at any depth of the file)."""
    found: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.ImportFrom) and node.module:
            if node.module.startswith(ABILITIES + "."):
                found.add(node.module)
            elif node.module == ABILITIES:
                found |= {f"{ABILITIES}.{alias.name}" for alias in node.names}
    return found


def _registers_handlers(module: str) -> bool:
    importlib.import_module(module)
    return any(cls.__module__ == module for cls in HANDLERS.values())


def test_the_setup_battle_and_procedures_name_no_effect() -> None:
    files = [
        *(TI4 / "setup").glob("*.py"),
        TI4 / "battle.py",
        *(TI4 / "procedures").glob("*.py"),
    ]
    named = {
        f"{path.relative_to(TI4)}: {module}"
        for path in files
        for module in _imported(path)
        if module.rsplit(".", 1)[1] not in RULES and _registers_handlers(module)
    }
    assert not named


def test_set_up_hooks_adjust_the_sides_before_the_battle() -> None:
    """Articles of War (a law) strips the mechs before the Naaz-Rokha mech's flip is asked,
    so no Z-Grav Eidolon is added; without the law it is."""
    fleet = {"faction": "naazrokha", "units": "2 dreadnought, 1 mech"}
    plain = build(parse_ti_scenario(space(fleet, {"units": "2 cruiser"})))
    assert "zgrav_eidolon" in plain.side(Side.ATTACKER).cards
    stripped = build(
        parse_ti_scenario(space(fleet, {"units": "2 cruiser"}, laws=["articles_of_war"]))
    )
    assert "zgrav_eidolon" not in stripped.side(Side.ATTACKER).cards
    assert stripped.side(Side.ATTACKER).cards["mech"].abilities == ()
