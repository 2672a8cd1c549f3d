"""Effects that act only in an invasion are not in play in a space combat (docs/rulings.md
24AJ-1; abilities/base.py ``INVASION_ONLY``; setup/building.py ``_handlers`` keeps a handler
only in the kinds of battle of its ``Handler.battles``).

A "space" battle is a space combat alone (ti4-space-combat.md): no bombardment, no ground
combat, no Establish Control. A handler whose every hook is asked only in those steps, or in
windows its ``acts`` opens only in an invasion, can never act there; one whose dice change only
once it is played in such a window (Magen Defense Grid, Fire Team, Tekklar Legion) cannot
either. Checked three ways: every handler class the hooks mark as invasion-only declares it (a
new one cannot forget); every class that declares it is invasion-only by its hooks or is one of
the played-only ones named here; and, in space battles in which both players hold each such
effect (tests/ti4/fast_path_battles.py), the odds with the handler put in play anyway are the
odds without it, to 1e-12.
"""

from __future__ import annotations

import random
from typing import Any

import pytest

from spacecombat import odds
from spacecombat.core.errors import ScenarioError
from spacecombat.rulesets import parse_ti_scenario
from spacecombat.rulesets.ti4.abilities.base import HANDLERS, INVASION_ONLY, Handler, overrides
from spacecombat.rulesets.ti4.hooks import HOOKS
from spacecombat.rulesets.ti4.setup import build
from tests.ti4.fast_path_battles import battle, holdings

#: the hooks asked only in an invasion's steps (hooks.py's group of that name)
INVASION_HOOKS = frozenset(h.name for h in HOOKS if h.group.startswith("invasion"))
#: hooks a handler answers only where its ``acts`` admits it (procedures/windows.py)
WINDOW_HOOKS = frozenset({"in_window", "acts_first_in_window"})

#: invasion-only though their hooks are not all of an invasion: what they do acts only once
#: played in an invasion's window, or arms and lowers a bombardment
PLAYED_IN_AN_INVASION = {
    "blitz": "played at the start of an invasion; arms a bombardment (gives_bombardment)",
    "disable": "played at the start of an invasion; PDS lose their abilities once played",
    "fire_team": "its rerolls follow a play in a ground combat round (combat_roll)",
    "magen_defense_grid": "its opponent rolls nothing once it is played in a ground combat",
    "tekklar_legion": "its +1/-1 follow a play at the start of a ground combat",
    "mentak_mech_no_enemy_sustain": "forbids SUSTAIN DAMAGE to ground forces on its planet",
}


def hooks_of(cls: type[Handler]) -> frozenset[str]:
    return frozenset(h.name for h in HOOKS if overrides(cls, h.name))


def invasion_only_by_hooks(cls: type[Handler]) -> bool:
    """Every hook it answers is asked only in an invasion (its windows' hooks only where its
    ``acts`` opens them in invasions alone)."""
    hooks = hooks_of(cls)
    if not hooks:
        return False
    if cls.acts is not None and "space" in cls.acts.battles:
        return False
    allowed = INVASION_HOOKS | (WINDOW_HOOKS if cls.acts is not None else frozenset())
    return hooks <= allowed


def test_every_handler_whose_hooks_act_only_in_an_invasion_declares_it() -> None:
    missing = [
        ident
        for ident, cls in HANDLERS.items()
        if invasion_only_by_hooks(cls) and "space" in cls.battles
    ]
    assert missing == []


def test_every_declared_one_is_invasion_only_by_its_hooks_or_named() -> None:
    declared = {ident for ident, cls in HANDLERS.items() if cls.battles == INVASION_ONLY}
    unexplained = {
        ident
        for ident in declared
        if not invasion_only_by_hooks(HANDLERS[ident]) and ident not in PLAYED_IN_AN_INVASION
    }
    # the Naalu flagship's fighters that invade: declared before 24AJ (its own module says why)
    assert unexplained <= {"naalu_flagship_fighters_invade"}
    assert set(PLAYED_IN_AN_INVASION) <= declared


DECLARED = sorted(ident for ident, cls in HANDLERS.items() if cls.battles == INVASION_ONLY)


def test_not_in_play_in_a_space_combat_and_in_play_in_an_invasion() -> None:
    """Magen Defense Grid held by the defender: left out of a space combat's handlers, kept in
    an invasion's."""
    space = {
        "ruleset": "ti4",
        "battle": "space",
        "attacker": {"units": {"cruiser": 2}},
        "defender": {"units": {"destroyer": 2}, "technologies": ["magen_defense_grid"]},
    }
    invasion = {
        "ruleset": "ti4",
        "battle": "invasion",
        "attacker": {"units": {"cruiser": 1, "infantry": 2}},
        "defender": {"technologies": ["magen_defense_grid"]},
        "planets": [{"name": "P", "defender": {"infantry": 1, "pds": 1}}],
    }
    assert "magen_defense_grid" not in in_play(space)
    assert "magen_defense_grid" in in_play(invasion)


def in_play(scenario: dict[str, Any]) -> set[str]:
    return {h.id for h in build(parse_ti_scenario(scenario)).handlers}


def test_a_decision_of_an_effect_held_out_of_play_may_still_be_named() -> None:
    """``policy.play`` names the decisions of effects a side holds (validate.py
    ``check_play_names``): Magen Defense Grid's in a space combat too, as before 24AJ-1, though
    it is not in play there; a card the side does not hold is still refused."""
    space: dict[str, Any] = {
        "ruleset": "ti4",
        "battle": "space",
        "attacker": {"units": {"cruiser": 2}},
        "defender": {
            "units": {"destroyer": 2},
            "technologies": ["magen_defense_grid"],
            "policy": {"play": {"magen_defense_grid": "never"}},
        },
    }
    build(parse_ti_scenario(space))
    space["attacker"]["policy"] = {"play": {"magen_defense_grid": "never"}}
    with pytest.raises(ScenarioError, match=r"attacker\.policy\.play\.magen_defense_grid"):
        build(parse_ti_scenario(space))


@pytest.mark.parametrize("ident", DECLARED)
def test_in_a_space_combat_it_would_change_nothing(
    ident: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Space battles in which both players hold it, each way of holding it: the same odds with
    the handler put in play (its ``battles`` widened back) as without."""
    rng = random.Random(f"24AJ-1:{ident}")
    for holding in holdings(ident):
        scenario = battle(ident, rng, holding, "space")
        without = odds(scenario, fallback=False).to_json()
        with monkeypatch.context() as patched:
            patched.setattr(HANDLERS[ident], "battles", frozenset({"space", "invasion"}))
            assert ident in {h.id for h in build(parse_ti_scenario(scenario)).handlers}
            within = odds(scenario, fallback=False).to_json()
        for key in ("attacker_win", "draw", "defender_win"):
            assert abs(within.get(key, 0.0) - without.get(key, 0.0)) <= 1e-12, (holding, key)
