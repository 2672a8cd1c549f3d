"""A guard on the exact engine's fast path (issue 21): a battle whose combat rounds are solved in
product form (rulesets/ti4/rounds.py ``ProductRounds``, odds/product.py) must get the odds the
whole state graph gives (odds/graph.py), which is exact for any handler.

Which battles take the fast path is decided by ``acts_in_rounds`` (abilities/base.py), from the
hooks each handler overrides. A hook wrongly flagged "not in rounds" lets a handler that acts in
the rounds onto the fast path, where it is silently ignored (dropping ``combat_roll`` moved the
Winnu flagship's odds from 0.368 to 0.442 while the rest of the suite passed). So:

1. Cross-check: for every effect the fast path accepts (every handler id of ``HANDLERS``
   whatever hooks it overrides, held through the rules data: tests/ti4/fast_path_battles.py),
   battles in which both players hold it, solved both ways (``exact_odds(product_form=False)``
   forces the state graph), agree to 1e-9 on every figure of the report but the rounds'
   distribution: the results, the survivors' distribution, expected losses, retreats. Each
   effect must really reach product form (the arrays of odds/product.py solve its rounds).
2. Mutation: each hook flagged "acts in rounds", dropped in turn, makes some check fail: the
   two ways disagree, or the product form refuses the battle (``NotInProductForm``). For
   ``CAUGHT_BY_HANDLERS``, on the generated battles of a registered handler the dropped flag
   moves onto the fast path; for the others (``SHOWN``), on a targeted battle: a registered
   handler where a battle shows it (Dacxive Animators in an invasion of two planets, the
   L1Z1X flagship with Harrow out of play), else a probe handler (not registered) acting
   through that hook alone on what the other player has. ``follow_up`` alone cannot act in
   the rounds today (``UNSHOWN`` says why).

The hooks flagged "acts in rounds" are found through ``acts_in_rounds`` alone (a probe handler
overriding one hook), never read from the flags: ``drop_round_hook`` is the one place that
touches them.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterator, Mapping
from contextlib import contextmanager
from dataclasses import dataclass, replace
from functools import cache
from typing import Any
from unittest import mock

import pytest

from spacecombat.analysis import exact, product
from spacecombat.analysis.exact import exact_odds
from spacecombat.analysis.product_odds import with_product_form
from spacecombat.core.engine import Node, Step
from spacecombat.core.rounds import NotInProductForm
from spacecombat.rulesets import parse_ti_scenario, ti4
from spacecombat.rulesets.ti4.abilities import base
from spacecombat.rulesets.ti4.abilities.base import (
    HANDLERS,
    Acts,
    Handler,
    acts_in_rounds,
    overrides,
)
from spacecombat.rulesets.ti4.battle import Ti4Battle
from spacecombat.rulesets.ti4.effects import queue_follow_up
from spacecombat.rulesets.ti4.hooks import BY_NAME, HOOKS, FollowUp, Window
from spacecombat.rulesets.ti4.rules import load
from spacecombat.rulesets.ti4.setup import BattleSetup, build
from spacecombat.rulesets.ti4.sides import Side
from spacecombat.rulesets.ti4.state import BattleState, Phase
from tests.ti4.fast_path_battles import battles

TOLERANCE = 1e-9
#: battles per effect: the default run's sample, the slow sweep
SAMPLE = 1
SWEEP = 8
#: targeted battles per handler in the mutation test
TARGETED = 6

#: Effects the fast path accepts that no battle can hold without another handler that acts in
#: the rounds: the faction that has them has such an ability (Raid Formation for the Argent,
#: Harrow for the L1Z1X, Technological Singularity for the Nekro), so their battles are always
#: solved on the state graph. ``test_effects_held_only_with_round_acting_abilities`` checks it.
HELD_ONLY_WITH_ROUND_ACTORS = frozenset(
    {
        "argent_destroyer2_afb_kills_infantry",
        "argent_flagship_blocks_space_cannon",
        "argent_mech_capacity_exempt",
        "assimilate",
        "l1z1x_mech_bombardment",
        "nekro_mech_bonus",
    }
)


# --- the one helper that touches the hook flags (issue 21: re-point it at the hook table) -------


def drop_round_hook(monkeypatch: pytest.MonkeyPatch, hook: str) -> None:
    """Flag ``hook`` "not in rounds" for the rest of the test (the mutation of part 2)."""
    monkeypatch.setattr(base, "IN_ROUNDS", vars(base)["IN_ROUNDS"] - {hook})


# --- the hooks, through acts_in_rounds alone --------------------------------------------------


def hooks() -> list[str]:
    """Every hook a handler may answer (rulesets/ti4/hooks.py ``HOOKS``, by name)."""
    return sorted(hook.name for hook in HOOKS)


def probe(hook: str) -> Handler:
    """A handler that answers ``hook`` alone (not registered), with the hook it is a companion
    of, if any (``Handler.__init_subclass__`` refuses it alone), and, when it answers
    ``in_window``, acting in every window (it must declare where)."""

    def answered(name: str) -> Any:
        def answer(self: Handler, *args: Any, **kwargs: Any) -> Any:
            return getattr(Handler, name)(self, *args, **kwargs)

        return answer

    names = {hook, *filter(None, [BY_NAME[hook].companion_of])}
    body: dict[str, Any] = {"id": "probe", **{name: answered(name) for name in names}}
    if "in_window" in names:
        body["acts"] = Acts(frozenset(Window))
    cls: type[Handler] = type("Probe", (Handler,), body)
    return cls(None)


def round_hooks() -> list[str]:
    """The hooks ``acts_in_rounds`` takes as acting in the rounds. A companion hook's probe
    answers its companion too, so it is judged with the companion's flag dropped."""
    found = []
    for hook in hooks():
        companion = BY_NAME[hook].companion_of
        with pytest.MonkeyPatch.context() as monkeypatch:
            if companion is not None:
                drop_round_hook(monkeypatch, companion)
            if acts_in_rounds(probe(hook)):
                found.append(hook)
    return found


def fast_effects() -> list[str]:
    """The handler ids ``acts_in_rounds`` lets onto the fast path."""
    return sorted(h for h, cls in HANDLERS.items() if not acts_in_rounds(cls(None)))


# --- solving a battle both ways ---------------------------------------------------------------


@dataclass(frozen=True)
class Checked:
    """One battle solved both ways."""

    label: str
    #: the setup's handlers in play of the effect, by owner ("None": the system or a law)
    owners: frozenset[str]
    #: ``ProductRounds.applies``: the battle is in product form by the setup
    applies: bool
    #: the arrays of odds/product.py solved the rounds
    reached: bool
    #: the product form refused the battle on the way (``NotInProductForm``)
    raised: bool
    #: the largest difference between the two reports' figures
    gap: float
    worst: str


def figures(report: Mapping[str, Any], path: str = "") -> dict[str, float]:
    """Every probability and expectation of a report (``OddsReport.to_json``), by path;
    survivors' fleets keyed by their units. The rounds' distribution is left out (its forward
    pass stops at 1e-13 of probability still fighting: tests/odds/test_product_form_retreats_
    and_planets.py), but its expectation is kept."""
    out: dict[str, float] = {}
    for key, value in report.items():
        where = f"{path}/{key}"
        if where in ("/method", "/rounds/distribution", "/rounds/unfinished"):
            continue
        if isinstance(value, bool) or value is None or isinstance(value, str):
            continue
        if isinstance(value, int | float):
            out[where] = float(value)
        elif isinstance(value, Mapping):
            out.update(figures(value, where))
        elif isinstance(value, list):
            for item in value:
                if isinstance(item, Mapping) and "probability" in item:
                    rest = {k: v for k, v in item.items() if k != "probability"}
                    name = f"{where}/{json.dumps(rest, sort_keys=True)}"
                    out[name] = out.get(name, 0.0) + float(item["probability"])
    return out


@contextmanager
def watched() -> Iterator[dict[str, int]]:
    """Count the rounds solved by the arrays (``product.solve``) and the product forms refused
    (``NotInProductForm`` out of ``with_product_form``, after which ``exact_odds`` falls back on
    the state graph)."""
    seen = {"solved": 0, "raised": 0}
    solve, form = product.solve, with_product_form

    def solving(*args: Any, **kwargs: Any) -> Any:
        seen["solved"] += 1
        return solve(*args, **kwargs)

    def forming(*args: Any, **kwargs: Any) -> Any:
        try:
            return form(*args, **kwargs)
        except NotInProductForm:
            seen["raised"] += 1
            raise

    with (
        mock.patch.object(product, "solve", solving),
        mock.patch.object(exact, with_product_form.__name__, forming),
    ):
        yield seen


#: a change of the handlers in play (a probe added, an ability taken out of play)
Alter = Callable[[tuple[Handler, ...]], tuple[Handler, ...]]


@contextmanager
def altered(alter: Alter | None) -> Iterator[None]:
    """While in it, every TI4 battle is built with its handlers changed by ``alter`` (the
    exact engine builds its battle from the scenario: ``ti4.battle_process``)."""
    if alter is None:
        yield
        return

    def battle(scenario: Any) -> Ti4Battle:
        setup = build(scenario)
        return Ti4Battle(replace(setup, handlers=alter(setup.handlers)))

    with mock.patch.object(ti4, "battle_process", battle):
        yield


def check(effect: str, label: str, scenario: dict[str, Any], alter: Alter | None = None) -> Checked:
    """``scenario`` solved in product form (when the setup allows it) and on the state graph
    (its handlers changed by ``alter``, if given)."""
    with altered(alter):
        battle = ti4.battle_process(parse_ti_scenario(scenario))
        assert isinstance(battle, Ti4Battle)
        with watched() as seen:
            fast = figures(exact_odds(scenario).to_json())
        slow = figures(exact_odds(scenario, product_form=False, limit=None).to_json())
    owners = frozenset(str(h.owner) for h in battle.setup.handlers if h.id == effect)
    gaps = {k: abs(fast.get(k, 0.0) - slow.get(k, 0.0)) for k in fast.keys() | slow.keys()}
    worst = max(gaps, key=gaps.__getitem__)
    return Checked(
        label,
        owners,
        battle.product_rounds() is not None,
        seen["solved"] > 0,
        seen["raised"] > 0,
        gaps[worst],
        worst,
    )


@cache
def generated(effect: str, count: int) -> tuple[tuple[str, str], ...]:
    """The battles of ``effect`` (label, scenario as JSON: cached, and copied for each use)."""
    return tuple((label, json.dumps(sc)) for label, sc in battles(effect, count))


def checked(effect: str, count: int) -> list[Checked]:
    return [check(effect, label, json.loads(sc)) for label, sc in generated(effect, count)]


# --- 1. the cross-check -----------------------------------------------------------------------


def cross_check(effect: str, count: int) -> None:
    """Every battle of ``effect`` agrees both ways; both players hold it in one of them (or it
    is the system's or a law's), and one of them reached product form."""
    results = checked(effect, count)
    for r in results:
        assert r.gap <= TOLERANCE, f"{r.label}: {r.worst} differs by {r.gap:.3g}"
        assert not r.raised, f"{r.label}: the product form refused a battle its setup accepted"
    holders = ({"attacker", "defender"}, {"None"}, *elected(effect))
    assert any(r.owners in holders for r in results), (
        f"{effect}: no battle where both players hold it: {[r.owners for r in results]}"
    )
    assert any(r.reached for r in results), f"{effect}: no battle reached product form"


def elected(effect: str) -> tuple[set[str], ...]:
    """A law that elects a player is held by that player alone."""
    if any(law.handler == effect and law.elect == "player" for law in load().laws.values()):
        return ({"attacker"}, {"defender"})
    return ()


SAMPLED = (
    "fragile",
    "waylay",
    "bunker",
    "magmus_reactor",
    "nebula",
    # declared to keep the product form (issue 24)
    "jolnar_flagship_extra_hits",
    "maneuvering_jets",
)


@pytest.mark.parametrize("effect", SAMPLED)
def test_a_sample_of_effects_agrees_both_ways(effect: str) -> None:
    assert effect in fast_effects()
    cross_check(effect, SAMPLE + 1)


def swept() -> list[str]:
    """The effects of the sweep: every one the fast path accepts, but those no battle can
    bring onto it (``HELD_ONLY_WITH_ROUND_ACTORS``, checked below)."""
    return [e for e in fast_effects() if e not in HELD_ONLY_WITH_ROUND_ACTORS]


@pytest.mark.slow
@pytest.mark.parametrize("effect", swept())
def test_every_fast_path_effect_agrees_both_ways(effect: str) -> None:
    cross_check(effect, SWEEP)


def test_declared_keepers_are_swept() -> None:
    # A handler that declares it keeps the product form through a hook flagged "acts in
    # rounds" (Handler.keeps_product_form, issue 24) is on the fast path, so the sweep
    # cross-checks it against the state graph.
    declared = {h for h, cls in HANDLERS.items() if cls.keeps_product_form}
    assert {"jolnar_flagship_extra_hits", "maneuvering_jets"} <= declared
    assert declared <= set(swept())


def test_keeps_product_form_names_only_round_hooks_answered() -> None:
    # A declaration names hooks flagged "acts in rounds" that the class answers: anything
    # else is an error where the class is defined.
    with pytest.raises(TypeError, match="keeps_product_form names roll_modifier"):
        type(
            "Keeper",
            (Handler,),
            {"id": "keeper", "keeps_product_form": frozenset({"roll_modifier"})},
        )
    with pytest.raises(TypeError, match="keeps_product_form names combat_roll"):
        type(
            "Keeper", (Handler,), {"id": "keeper", "keeps_product_form": frozenset({"combat_roll"})}
        )


def test_every_effect_can_be_held() -> None:
    # Each handler is held through the rules data (or is an anomaly's), so the sweep above and
    # the targeted battles below can be generated for any of them, a new one included.
    # Each player has at least three unit types (an invasion's defender: on the planet).
    for effect in HANDLERS:
        for label, scenario in battles(effect, 2):
            planets = scenario.get("planets") or [{}]
            attacker = scenario["attacker"]["units"]
            defender = scenario["defender"].get("units") or planets[0]["defender"]
            assert min(len(attacker), len(defender)) >= 3, label


def test_effects_held_only_with_round_acting_abilities() -> None:
    # The effects the sweep cannot bring onto the fast path: every battle holding them has
    # another handler that acts in the rounds, and it comes with the holding itself.
    assert set(fast_effects()) >= HELD_ONLY_WITH_ROUND_ACTORS
    data = load()
    for effect in sorted(HELD_ONLY_WITH_ROUND_ACTORS):
        for _, scenario in battles(effect, 2):
            setup = ti4.one_battle(parse_ti_scenario(scenario)).setup
            acting = {h.id for h in setup.handlers if acts_in_rounds(h)}
            factions = {scenario[p].get("faction") for p in ("attacker", "defender")}
            theirs = {
                a.handler
                for f in factions
                if f is not None
                for a in data.factions[f].abilities
                if a.handler is not None
            }
            assert acting, effect
            assert acting <= theirs, (effect, acting)


# --- 2. the mutation test ---------------------------------------------------------------------

#: hooks whose flag, dropped, lets onto the fast path a registered handler that the generated
#: battles then catch (the others are shown by the targeted battles of ``SHOWN`` below)
CAUGHT_BY_HANDLERS = frozenset(
    # aims_combat_hits: since Harrow, which acts only in invasions, is out of play in a space
    # combat (docs/rulings.md 24AJ-1), the L1Z1X flagship's space battles reach the fast path
    {"after_assign_hits", "after_destroyed", "aims_combat_hits", "combat_roll", "in_window"}
)

#: handlers that a dropped flag moves onto the fast path and whose targeted battles still all
#: agree both ways, by hook: the generated invasions have one planet, whose ground combat ends
#: the rounds (the targeted battle of two planets catches it: ``SHOWN``). A handler that acts
#: only before the first roll or after the rounds, or reads only the set-up and its own
#: player's units, declares it instead (``Handler.keeps_product_form``, issue 24: Ambush, the
#: Jol-Nar flagship, Maneuvering Jets, ...): the fast path takes it, and the sweep above
#: cross-checks it (``test_declared_keepers_are_swept``)
AGREES: dict[str, frozenset[str]] = {
    "after_ground_combat": frozenset({"dacxive_animators"}),
    # on anti-fighter barrage hits, before the rounds (the Argent's round actors keep it off
    # the sweep: ``HELD_ONLY_WITH_ROUND_ACTORS``); the targeted battle shows the flag (``SHOWN``)
    "before_assign_hits": frozenset({"raid_formation"}),
    # at the end of combat; only an attacker holds it (the sweep's battles need both players);
    # Indoctrination: at the start of a ground combat, before its rounds, in the generated
    # invasions of one planet (generated in invasions alone since 24AJ-1)
    "in_window": frozenset({"indoctrination", "naalu_flagship_fighters_invade"}),
}

#: handlers that a dropped flag moves onto the fast path but that no battle can hold without
#: another handler acting in the rounds, by hook: the Naaz-Rokha flagship's mechs with their
#: own flip (naazrokha_mech_flip), the Letnev flagship and mech with Munitions Reserves (the
#: L1Z1X flagship, which came with Harrow, is reached in space combats since 24AJ-1 put Harrow
#: out of play there)
UNREACHED: dict[str, frozenset[str]] = {
    "combat_roll": frozenset({"naazrokha_flagship_mech_extra_die"}),
    "in_window": frozenset({"letnev_flagship_repair", "letnev_mech_deploy"}),
}


def moved(hook: str, monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """The handlers that ``hook``'s flag keeps off the fast path (flag dropped for the rest of
    the test)."""
    before = {h for h, cls in HANDLERS.items() if acts_in_rounds(cls(None))}
    drop_round_hook(monkeypatch, hook)
    after = {h for h, cls in HANDLERS.items() if acts_in_rounds(cls(None))}
    assert after <= before
    return sorted(before - after)


def verdict(effect: str) -> str:
    """What the targeted battles of ``effect`` show once it is let onto the fast path:
    ``caught`` (the two ways disagree on one, or the product form refuses one), ``unreached``
    (no battle has rounds solved in product form all the same: another handler in each acts
    in the rounds), or ``agrees`` (some battle was solved in product form, and every one
    agrees)."""
    reached = False
    for label, sc in generated(effect, TARGETED):
        scenario = json.loads(sc)
        if ti4.battle_process(parse_ti_scenario(scenario)).product_rounds() is None:
            continue
        r = check(effect, label, scenario)
        if r.raised or r.gap > TOLERANCE:
            return "caught"
        reached = reached or r.reached
    return "agrees" if reached else "unreached"


def test_the_flags_are_found_through_acts_in_rounds() -> None:
    # The probe finds the flagged hooks; it finds them all (the Winnu flagship's combat_roll).
    found = round_hooks()
    assert "combat_roll" in found
    assert "roll_modifier" not in found


def test_dropping_combat_roll_is_caught_for_the_winnu_flagship(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # The case that started issue 21: 0.368 on the state graph, 0.442 on the fast path.
    assert "winnu_flagship_dice" in moved("combat_roll", monkeypatch)
    assert verdict("winnu_flagship_dice") == "caught"


@pytest.mark.slow
@pytest.mark.parametrize("hook", round_hooks())
def test_dropping_a_round_hook_is_caught_through_the_handlers(
    hook: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    # Every handler the dropped flag lets onto the fast path, on its generated battles: caught,
    # or listed as agreeing or unreached. after_sustain moves none (Direct Hit, Reflective
    # Shielding, Rear Admiral Farran, the Empyrean flagship and the Sardakk mech also answer
    # after_assign_hits).
    handlers = moved(hook, monkeypatch)
    found = {h: verdict(h) for h in handlers}
    expected = {
        h: "agrees"
        if h in AGREES.get(hook, ())
        else "unreached"
        if h in UNREACHED.get(hook, ())
        else "caught"
        for h in handlers
    }
    assert found == expected, f"dropping {hook}"
    assert ("caught" in found.values()) == (hook in CAUGHT_BY_HANDLERS), hook


def test_the_mutation_lists_name_round_hooks_and_handlers() -> None:
    flagged = set(round_hooks())
    assert flagged >= CAUGHT_BY_HANDLERS
    assert set(AGREES) | set(UNREACHED) <= flagged
    for hook, listed in (*AGREES.items(), *UNREACHED.items()):
        assert listed <= set(HANDLERS)
        assert all(overrides(HANDLERS[h], hook) for h in listed), hook


def overriders(hook: str) -> set[str]:
    """The handler ids whose class overrides ``hook``."""
    return {h for h, cls in HANDLERS.items() if overrides(cls, hook)}


def test_the_sweep_reaches_every_hook_the_fast_path_lets_through() -> None:
    # A handler acting in the rounds through a hook not flagged so is caught by the sweep
    # only if the sweep holds a handler overriding that hook. Every such hook is held, but
    # exempt_from_capacity: its only handler is the Argent mech's (HELD_ONLY_WITH_ROUND_ACTORS).
    flagged = set(round_hooks())
    unswept = {
        hook
        for hook in hooks()
        if hook not in flagged
        and overriders(hook) & set(fast_effects())
        and not overriders(hook) & set(swept())
    }
    assert unswept == {"exempt_from_capacity"}


# --- 3. targeted battles: the flags no registered handler shows alone -------------------------
#
# Dropping these flags lets no registered handler onto the fast path that its generated battles
# catch: those relying on them alone act before the first roll or read only their own units,
# or never reach product form. For each, a battle whose answer depends on the flag: a
# registered handler where one can show it, else a probe (a handler not registered, put in
# the setup's handlers) acting through that hook alone, on what the OTHER player has in the
# space area, which the product form's per-player steps cannot see.


def _attacker_destroyer(setup: BattleSetup, state: BattleState) -> bool:
    """Whether the attacker still has a destroyer in the space area."""
    attacker = setup.side(Side.ATTACKER)
    return attacker.count_of(state.side(Side.ATTACKER).space, "destroyer") > 0


class _ForbidsSustain(Handler):
    """The defender's ships may not use SUSTAIN DAMAGE while the attacker has a destroyer in
    the space area."""

    id = "probe_forbids_sustain"

    def forbids_sustain(
        self, setup: BattleSetup, state: BattleState, side: Side, where: int | None, unit: str
    ) -> bool:
        return side is Side.DEFENDER and where is None and _attacker_destroyer(setup, state)


class _LendsSustain(Handler):
    """The defender's mechs in the space area may use SUSTAIN DAMAGE to cancel a hit of a
    combat round against its ships while the attacker has a destroyer there."""

    id = "probe_lends_sustain"

    def lends_sustain(
        self, setup: BattleSetup, state: BattleState, side: Side, where: int | None
    ) -> frozenset[str]:
        if side is not Side.DEFENDER or where is not None or state.phase is not Phase.ASSIGN_HITS:
            return frozenset()
        return frozenset({"mech"}) if _attacker_destroyer(setup, state) else frozenset()


class _BeforeAssign(Handler):
    """Before the defender assigns the hits of a combat round, while the attacker has a
    destroyer in the space area, 1 of those hits is cancelled."""

    id = "probe_before_assign"

    def before_assign_hits(
        self, setup: BattleSetup, state: BattleState, side: Side, where: int | None, cause: str
    ) -> Node[BattleState] | None:
        if (
            side is not Side.DEFENDER
            or where is not None
            or state.phase is not Phase.ASSIGN_HITS
            or not state.hits_on(side)
            or not _attacker_destroyer(setup, state)
        ):
            return None
        return Step(state.with_hits_on(side, state.hits_on(side) - 1))


class _AfterSustain(Handler):
    """After one of the defender's ships used SUSTAIN DAMAGE, while the attacker has a
    destroyer in the space area, the defender places 1 fighter there."""

    id = "probe_after_sustain"

    def after_sustain(
        self, setup: BattleSetup, state: BattleState, side: Side, where: int | None, cause: str
    ) -> Node[BattleState] | None:
        if side is not Side.DEFENDER or where is not None or not _attacker_destroyer(setup, state):
            return None
        mine = state.side(side)
        return Step(state.with_side(side, mine.with_space(mine.space.add("fighter"))))


class _FollowsUp(Handler):
    """Queues its own follow-up at the start of the invasion; heard (in the first Roll Dice
    step: in ``_INVASION`` nothing drains the queue before), it gives the attacker 1 infantry
    on the planet while the defender has a mech there."""

    id = "probe_follow_up"

    def at_invasion_start(self, setup: BattleSetup, state: BattleState) -> Node[BattleState] | None:
        if state.has_used(Side.DEFENDER, self.id):
            return None
        queued = queue_follow_up(state, FollowUp.own(self.id, Side.DEFENDER))
        return Step(queued.using(Side.DEFENDER, self.id))

    def follow_up(
        self, setup: BattleSetup, state: BattleState, side: Side, detail: str, where: int | None
    ) -> Node[BattleState] | None:
        planet = state.planet if where is None else where
        if not state.defender.planet(planet).count("mech"):
            return None
        theirs = state.side(Side.ATTACKER)
        placed = theirs.with_planet(planet, theirs.planet(planet).add("infantry"))
        return Step(state.with_side(Side.ATTACKER, placed))


def _adding(probe: Handler) -> Alter:
    return lambda handlers: (*handlers, probe)


#: a space battle: the attacker with a destroyer, the defender with ships that sustain damage
#: (and, for _LendsSustain, mechs in the space area)
_SPACE: dict[str, Any] = {
    "ruleset": "ti4",
    "battle": "space",
    "attacker": {"units": {"destroyer": 1, "cruiser": 2, "carrier": 1}},
    "defender": {"units": {"dreadnought": 2, "cruiser": 1, "mech": 2}},
    "options": {"check_capacity_before_battle": False},
}


@dataclass(frozen=True)
class Shown:
    """A battle that shows a flag's worth: the handler acting through it (an id of the setup),
    the scenario, and the change of the handlers in play (``None``: as built)."""

    handler: str
    scenario: dict[str, Any]
    alter: Alter | None = None


#: the targeted battle of each flag not caught through the handlers' generated battles
SHOWN: dict[str, Shown] = {
    # Dacxive Animators places an infantry after each ground combat its owner wins: the
    # product form joins the two planets' ground combats into one and asks it once
    "after_ground_combat": Shown(
        "dacxive_animators",
        {
            "ruleset": "ti4",
            "battle": "invasion",
            "attacker": {
                "technologies": ["dacxive_animators"],
                "units": {"carrier": 1, "cruiser": 1, "infantry": 3, "mech": 1},
            },
            "defender": {"technologies": ["dacxive_animators"]},
            "planets": [
                {
                    "name": "A",
                    "defender": {"infantry": 1, "mech": 1, "pds": 1},
                    "commit": {"infantry": 2},
                },
                {
                    "name": "B",
                    "defender": {"infantry": 2, "space_dock": 1, "pds": 1},
                    "commit": {"infantry": 1, "mech": 1},
                },
            ],
            "options": {"check_capacity_before_battle": False},
        },
    ),
    "forbids_sustain": Shown(
        "probe_forbids_sustain", _SPACE, _adding(_ForbidsSustain(Side.ATTACKER))
    ),
    "lends_sustain": Shown("probe_lends_sustain", _SPACE, _adding(_LendsSustain(Side.DEFENDER))),
    "after_sustain": Shown("probe_after_sustain", _SPACE, _adding(_AfterSustain(Side.DEFENDER))),
    # Maneuvering Jets acts on space cannon hits only and declares it (keeps_product_form);
    # Raid Formation, on barrage hits, agrees: a probe acting on the rounds' hits shows it
    "before_assign_hits": Shown(
        "probe_before_assign", _SPACE, _adding(_BeforeAssign(Side.DEFENDER))
    ),
}


@pytest.mark.parametrize("hook", sorted(SHOWN))
def test_dropping_a_round_hook_is_caught_by_a_targeted_battle(
    hook: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    case = SHOWN[hook]
    kept = check(case.handler, hook, case.scenario, case.alter)
    assert not kept.applies, f"{hook}: the battle is on the fast path with the flag"
    drop_round_hook(monkeypatch, hook)
    dropped = check(case.handler, hook, case.scenario, case.alter)
    assert dropped.applies, f"{hook}: another handler keeps the battle off the fast path"
    assert dropped.raised or dropped.gap > TOLERANCE, f"{hook}: the fast path agrees"


#: flags no battle can show today, and why. follow_up: a handler's follow-up is heard only for
#: an entry queued through a hook that returns a node; those asked in the rounds are all
#: flagged, so a handler answering follow_up alone can queue it only before the rounds. Such
#: an entry is heard at the latest in the first Roll Dice step, which the product form plays
#: from the whole state (``_FollowsUp``, acting there on what the other player has, agrees
#: both ways: ``test_a_follow_up_queued_before_the_rounds_agrees``), and every drain in the
#: rounds empties the queue before going on, so no entry outlives its step to act later. The
#: flag keeps off the fast path a handler whose follow-up a hook asked in the rounds queues.
UNSHOWN = frozenset({"follow_up"})

#: an invasion of one planet, where the defender has a mech
_INVASION: dict[str, Any] = {
    "ruleset": "ti4",
    "battle": "invasion",
    "attacker": {"units": {"carrier": 1, "cruiser": 1, "infantry": 3, "mech": 1}},
    "defender": {},
    "planets": [{"name": "A", "defender": {"infantry": 1, "mech": 1, "space_dock": 1}}],
    "options": {"check_capacity_before_battle": False},
}


def test_a_follow_up_queued_before_the_rounds_agrees(monkeypatch: pytest.MonkeyPatch) -> None:
    probe = _FollowsUp(Side.DEFENDER)
    kept = check(probe.id, "follow_up", _INVASION, _adding(probe))
    assert not kept.applies
    drop_round_hook(monkeypatch, "follow_up")
    dropped = check(probe.id, "follow_up", _INVASION, _adding(probe))
    assert dropped.reached
    assert not dropped.raised
    assert dropped.gap <= TOLERANCE
    # the follow-up acted: the attacker's expected losses differ from the battle without it
    with_probe = figures(_report(_INVASION, _adding(probe)))
    without = figures(_report(_INVASION, None))
    loss = "/expected_losses/attacker"
    assert abs(with_probe[loss] - without[loss]) > 0.1


def _report(scenario: dict[str, Any], alter: Alter | None) -> dict[str, Any]:
    with altered(alter):
        report: dict[str, Any] = exact_odds(scenario, product_form=False).to_json()
    return report


def test_every_round_hook_is_shown() -> None:
    assert set(round_hooks()) == CAUGHT_BY_HANDLERS | set(SHOWN) | UNSHOWN
    assert not CAUGHT_BY_HANDLERS & set(SHOWN)
