"""``policy.keep`` (issue 22; core/policies.py; docs/rulings.md 22K-1, 22K-2): the stock policy
holds units of a type back until no other unit the hit may reach is left; a kept unit may still
use SUSTAIN DAMAGE; keep never makes an option illegal. TI4 (ti4-space-combat.md step 4,
ti4-ground-combat.md step 2) and TI3 (ti3-combat.md, assign hits): the owner chooses which of
their units take the hits."""

from __future__ import annotations

import copy
import io
import math
from fractions import Fraction
from pathlib import Path
from typing import Any

import pytest
import yaml

from spacecombat import odds
from spacecombat.analysis import product
from spacecombat.analysis.exact import exact_odds
from spacecombat.cli.resolve import TerminalPlayer
from spacecombat.core.decisions import DecisionRequest, Option
from spacecombat.core.dice import ScriptedDice
from spacecombat.core.engine import Played
from spacecombat.core.errors import ScenarioError
from spacecombat.core.events import Event
from spacecombat.core.forces import Forces, Status
from spacecombat.core.policies import PolicyConfig, StockPolicy
from spacecombat.replayer import replay
from spacecombat.resolver import resolve
from spacecombat.rulesets import catalogue
from tests.helpers import assert_logs_replay, assert_sampled_as_played, invasion, run, space

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"


def losses(played: Played[Any], player: str) -> list[tuple[str, str]]:
    """The attacker's (or defender's) units sustaining damage ("S") or destroyed ("D"), in
    order."""
    found = []
    for e in played.events:
        if e.get("player") != player:
            continue
        if e["event"] == "damage_sustained":
            found.append(("S", str(e["unit"])))
        elif e["event"] == "unit_destroyed":
            found.append(("D", str(e["unit"])))
    return found


def with_policy(scenario: dict[str, Any], side: str, **policy: Any) -> dict[str, Any]:
    out = copy.deepcopy(scenario)
    out[side]["policy"] = {**out[side].get("policy", {}), **policy}
    return out


def ti3(scenario: dict[str, Any]) -> dict[str, Any]:
    return {**scenario, "ruleset": "ti3"}


# --- the stock policy alone ------------------------------------------------------------------

DESTROY = tuple(
    Option(f"destroy {unit}", "destroy", unit, Status.UNDAMAGED)
    for unit in ("fighter", "carrier", "cruiser")
)


def request(area: Forces | None) -> DecisionRequest:
    facts: dict[str, object] = {"hits": 1, "cause": "test", "sustain_first": frozenset()}
    if area is not None:
        facts["area"] = area
    return DecisionRequest("assign_hit", "attacker", "assign", DESTROY, facts)


def test_the_policy_counts_the_kept_type_in_the_area() -> None:
    policy = StockPolicy(PolicyConfig(keep=(("fighter", 2),)))
    # 2 fighters, keep 2: both held back, the carrier goes first
    assert policy.choose(request(Forces.of({"fighter": 2, "carrier": 1, "cruiser": 1}))) == (
        "destroy carrier"
    )
    # 3 fighters, keep 2: one is spare and goes first, as the casualty order says
    assert policy.choose(request(Forces.of({"fighter": 3, "carrier": 1, "cruiser": 1}))) == (
        "destroy fighter"
    )
    # a request that does not say the area: nothing to count, the casualty order decides
    assert policy.choose(request(None)) == "destroy fighter"


# --- which unit the stock policy destroys ------------------------------------------------------


CARRIER_FLEET = space({"units": "1 carrier, 1 destroyer, 1 cruiser"}, {"units": "2 cruiser"})
# The attacker's destroyer AFB (2 dice, no fighters to hit), then its cruiser, carrier and
# destroyer each hit; the defender's 2 cruisers hit twice: every defender is destroyed and the
# attacker loses 2 of its 3 ships.
CARRIER_DICE = [1, 1, 10, 10, 10, 10, 10]


def test_the_kept_carrier_survives_while_the_others_die() -> None:
    # Default order (destroyer, carrier, cruiser): the carrier is the second casualty.
    plain = run(CARRIER_FLEET, CARRIER_DICE)
    assert losses(plain, "attacker") == [("D", "destroyer"), ("D", "carrier")]
    kept = run(with_policy(CARRIER_FLEET, "attacker", keep={"carrier": 1}), CARRIER_DICE)
    assert losses(kept, "attacker") == [("D", "destroyer"), ("D", "cruiser")]
    assert kept.outcome["winner"] == "attacker"


def test_units_beyond_the_number_kept_take_their_turn_and_the_last_goes_last() -> None:
    # 2 carriers, keep 1: the first carrier is a casualty in its place in the order, the second
    # only once nothing else is left (the defender's 3 hits destroy all three ships).
    scenario = space(
        {"units": "2 carrier, 1 cruiser", "policy": {"keep": {"carrier": 1}}},
        {"units": "3 cruiser"},
    )
    played = run(scenario, [1, 1, 1, 10, 10, 10])
    assert losses(played, "attacker") == [("D", "carrier"), ("D", "cruiser"), ("D", "carrier")]
    assert played.outcome["winner"] == "defender"


def test_keep_zero_changes_nothing() -> None:
    scenario = with_policy(CARRIER_FLEET, "attacker", keep={"carrier": 0})
    assert losses(run(scenario, CARRIER_DICE), "attacker") == [
        ("D", "destroyer"),
        ("D", "carrier"),
    ]


def test_the_shared_policy_keeps_for_both_sides_and_a_side_overrides_it() -> None:
    shared = {**CARRIER_FLEET, "policy": {"keep": {"carrier": 1}}}
    assert losses(run(shared, CARRIER_DICE), "attacker") == [("D", "destroyer"), ("D", "cruiser")]
    # the side's own `keep` replaces the shared one (as every policy key does)
    own = with_policy(shared, "attacker", keep={"destroyer": 1})
    assert losses(run(own, CARRIER_DICE), "attacker") == [("D", "carrier"), ("D", "cruiser")]


# --- keep with sustain (docs/rulings.md 22K-2) ---------------------------------------------------

# A kept unit that can sustain: the dreadnought is first in the casualty order but kept. The
# attacker's destroyer (AFB: 2 dice) and both ships miss; the 3 cruisers hit 3 times.
DREADNOUGHT = space(
    {
        "units": "1 dreadnought, 1 destroyer",
        "policy": {"casualty_order": ["dreadnought", "destroyer"]},
    },
    {"units": "3 cruiser"},
)
DREADNOUGHT_DICE = [1, 1, 1, 1, 10, 10, 10]


@pytest.mark.parametrize(
    ("sustain", "without", "kept"),
    [
        # first: a kept unit sustains at once too (a sustain loses no unit)
        (
            "first",
            [("S", "dreadnought"), ("D", "dreadnought"), ("D", "destroyer")],
            [("S", "dreadnought"), ("D", "destroyer"), ("D", "dreadnought")],
        ),
        # last: the destroyer (cannot sustain) first either way
        (
            "last",
            [("D", "destroyer"), ("S", "dreadnought"), ("D", "dreadnought")],
            [("D", "destroyer"), ("S", "dreadnought"), ("D", "dreadnought")],
        ),
        # in_order: the kept dreadnought is last in the order, so it sustains only when it is
        # the next casualty, after the destroyer
        (
            "in_order",
            [("S", "dreadnought"), ("D", "dreadnought"), ("D", "destroyer")],
            [("D", "destroyer"), ("S", "dreadnought"), ("D", "dreadnought")],
        ),
    ],
)
def test_a_kept_unit_that_can_sustain(
    sustain: str, without: list[tuple[str, str]], kept: list[tuple[str, str]]
) -> None:
    scenario = with_policy(DREADNOUGHT, "attacker", sustain=sustain)
    assert losses(run(scenario, DREADNOUGHT_DICE), "attacker") == without
    scenario = with_policy(scenario, "attacker", keep={"dreadnought": 1})
    assert losses(run(scenario, DREADNOUGHT_DICE), "attacker") == kept


# Ground combat, one infantry kept to hold the planet: the mech (SUSTAIN DAMAGE) is the other
# unit. Both attacker dice miss; the 3 defending infantry hit 3 times.
HOLD = invasion({"units": "1 carrier, 1 infantry, 1 mech"}, {"units": "3 infantry"})
HOLD_DICE = [1, 1, 10, 10, 10]


@pytest.mark.parametrize(
    ("sustain", "without"),
    [
        ("first", [("S", "mech"), ("D", "infantry"), ("D", "mech")]),
        ("last", [("D", "infantry"), ("S", "mech"), ("D", "mech")]),
        ("in_order", [("D", "infantry"), ("S", "mech"), ("D", "mech")]),
    ],
)
def test_a_kept_infantry_is_the_last_ground_force_lost(
    sustain: str, without: list[tuple[str, str]]
) -> None:
    # ti4-ground-combat.md step 2. With keep, the mech sustains (it is the only other unit),
    # then is destroyed, then the infantry, whatever `sustain` says.
    scenario = with_policy(HOLD, "attacker", sustain=sustain)
    assert losses(run(scenario, HOLD_DICE), "attacker") == without
    scenario = with_policy(scenario, "attacker", keep={"infantry": 1})
    assert losses(run(scenario, HOLD_DICE), "attacker") == [
        ("S", "mech"),
        ("D", "mech"),
        ("D", "infantry"),
    ]


def test_a_ship_the_cavalry_changes_is_kept_as_its_type() -> None:
    # docs/rulings.md 14CV-1: the chosen ship is still its unit type (here the carrier, as
    # `cavalry_carrier`), so `keep: {carrier: 1}` keeps it. Barrage (5 dice) misses; round 1:
    # the destroyer hits, one cruiser hits (the Cavalry ship sustains); round 2: all miss but
    # the 2 cruisers left, which hit twice.
    faces = [1, 1, 1, 1, 1, 1, 1, 10, 1, 10, 1, 1, 1, 1, 10, 10]
    scenario = space(
        {
            "units": "1 destroyer, 1 carrier",
            "promissory_notes": ["the_cavalry"],
            "policy": {"casualty_order": ["carrier", "destroyer"]},
        },
        {"units": "3 cruiser"},
        options={"check_capacity_before_battle": False},
    )
    assert losses(run(scenario, faces), "attacker") == [
        ("S", "cavalry_carrier"),
        ("D", "cavalry_carrier"),
        ("D", "destroyer"),
    ]
    kept = with_policy(scenario, "attacker", keep={"carrier": 1})
    assert losses(run(kept, faces), "attacker") == [
        ("S", "cavalry_carrier"),
        ("D", "destroyer"),
        ("D", "cavalry_carrier"),
    ]


# --- keep never makes an option illegal ------------------------------------------------------


def test_anti_fighter_barrage_hits_go_to_kept_fighters() -> None:
    # ti4-space-combat.md step 2 / docs/rulings.md R4: barrage hits may only go to fighters,
    # so both kept fighters are destroyed although the carrier could be lost instead.
    scenario = space(
        {"units": "1 carrier, 2 fighter", "policy": {"keep": {"fighter": 2}}},
        {"units": "1 destroyer"},
    )
    played = run(scenario, [9, 9, 10, 10])
    assert losses(played, "attacker")[:2] == [("D", "fighter"), ("D", "fighter")]


def test_a_person_may_still_choose_the_kept_unit() -> None:
    # keep only orders the stock choice: --ask (TerminalPlayer) accepts any legal option.
    scenario = with_policy(CARRIER_FLEET, "attacker", keep={"carrier": 1})
    person = TerminalPlayer(stdin=io.StringIO("destroy carrier\ndestroy cruiser\n"))
    played = resolve(scenario, dice=ScriptedDice(CARRIER_DICE), policies={"attacker": person})
    assert losses(played, "attacker") == [("D", "carrier"), ("D", "cruiser")]


# --- exact odds, Monte Carlo, replay -----------------------------------------------------------


def _wins(a: Fraction, q: Fraction, after: Fraction | None) -> Fraction:
    """The attacker's chance to win from a state where it scores a hit with chance ``a`` and the
    defender's single unit with chance ``q``; ``after``: the chance from the state the next hit
    leaves (None: the next hit destroys the attacker's last unit). A round where nobody hits
    repeats; both hitting leaves the attacker the winner unless that was its last unit."""
    repeat = (1 - a) * (1 - q)
    if after is None:
        return a * (1 - q) / (1 - repeat)
    return (a + (1 - a) * q * after) / (1 - repeat)


MECH_AND_INFANTRY = invasion({"units": "1 carrier, 1 infantry, 1 mech"}, {"units": "1 infantry"})


def test_exact_odds_of_keeping_the_infantry_derived_by_hand() -> None:
    """ti4-ground-combat.md: infantry hits on 8 (3/10), mech on 6 (1/2); the defender's one
    infantry is destroyed by the attacker's first hit. The attacker scores a hit with
    a = 1 - 7/10 * 1/2 = 13/20 while it has both units. The first hit is sustained by the mech
    (sustain first); the second destroys the infantry (default: the damaged mech fights on,
    a = 1/2) or, keeping the infantry, the mech (a = 3/10); the third destroys the last unit.
    Default 293767/296413; keep 383207/387617 (the draws are the rounds where both last units
    hit: 1323/296413 and 1323/387617)."""
    q = Fraction(3, 10)
    for keep, last in ((None, Fraction(1, 2)), ({"infantry": 1}, Fraction(3, 10))):
        scenario = MECH_AND_INFANTRY
        if keep is not None:
            scenario = with_policy(scenario, "attacker", keep=keep)
        two = _wins(Fraction(13, 20), q, _wins(last, q, None))
        expected = _wins(Fraction(13, 20), q, two)
        report = odds(scenario, fractions=True)
        assert report.attacker_win == expected
    assert _wins(
        Fraction(13, 20), q, _wins(Fraction(13, 20), q, _wins(Fraction(1, 2), q, None))
    ) == (Fraction(293767, 296413))
    kept = odds(with_policy(MECH_AND_INFANTRY, "attacker", keep={"infantry": 1}), fractions=True)
    assert (kept.attacker_win, kept.draw) == (Fraction(383207, 387617), Fraction(1323, 387617))


def test_keeping_changes_the_survivors_not_only_the_odds() -> None:
    plain = odds(MECH_AND_INFANTRY).to_json()
    kept = odds(with_policy(MECH_AND_INFANTRY, "attacker", keep={"infantry": 1})).to_json()

    def fleets(report: dict[str, Any]) -> dict[tuple[tuple[str, int], ...], float]:
        return {
            tuple(sorted(f["units"].items())): f["probability"]
            for f in report["survivors"]["attacker"]["fleets"]
        }

    # the attacker's lone survivor: the damaged mech by default, the infantry when kept
    assert (("mech", 1),) in fleets(plain)
    assert (("infantry", 1),) not in fleets(plain)
    assert (("infantry", 1),) in fleets(kept)
    assert (("mech", 1),) not in fleets(kept)
    # both units surviving happens on the same dice either way
    both = (("infantry", 1), ("mech", 1))
    assert fleets(plain)[both] == pytest.approx(fleets(kept)[both], abs=1e-12)


def test_keeping_one_of_the_only_type_changes_nothing() -> None:
    """2 infantry against 1 infantry: every attacker unit is an infantry, so keeping one
    holds nothing back (22K-1: the kept unit goes when no other is left). Hand-derived: a hit
    with 2 infantry 1 - (7/10)^2 = 51/100, with 1 infantry 3/10, defender 3/10."""
    scenario = invasion({"units": "1 carrier, 2 infantry"}, {"units": "1 infantry"})
    q = Fraction(3, 10)
    expected = _wins(Fraction(51, 100), q, _wins(Fraction(3, 10), q, None))
    plain = odds(scenario, fractions=True)
    kept = odds(with_policy(scenario, "attacker", keep={"infantry": 1}), fractions=True)
    assert plain.attacker_win == kept.attacker_win == expected == Fraction(3233, 3723)
    assert (plain.defender_win, plain.draw) == (kept.defender_win, kept.draw)


KEEP_SCENARIOS = [
    with_policy(MECH_AND_INFANTRY, "attacker", keep={"infantry": 1}, sustain="last"),
    with_policy(
        space({"units": "2 carrier, 1 cruiser, 2 fighter"}, {"units": "2 destroyer, 1 cruiser"}),
        "attacker",
        keep={"carrier": 1, "fighter": 1},
        sustain="in_order",
    ),
    ti3(
        with_policy(
            space({"units": "1 carrier, 1 cruiser"}, {"units": "1 cruiser"}),
            "attacker",
            keep={"carrier": 1},
        )
    ),
]


@pytest.mark.parametrize("index", range(len(KEEP_SCENARIOS)))
def test_monte_carlo_agrees_with_the_exact_odds(index: int) -> None:
    # The same rules code and policy: each result's sampled share is within 4 standard errors
    # of the exact chance.
    scenario, trials = KEEP_SCENARIOS[index], 3000
    exact = odds(scenario)
    sampled = odds(scenario, method="montecarlo", trials=trials, seed=index, workers=1)
    for name in ("attacker_win", "defender_win", "draw"):
        p, share = float(getattr(exact, name)), float(getattr(sampled, name))
        error = math.sqrt(max(p * (1 - p), 1e-12) / trials)
        assert abs(share - p) <= 4 * error, (name, p, share)


@pytest.mark.parametrize("index", range(len(KEEP_SCENARIOS)))
def test_logs_replay_and_the_sampler_plays_as_the_resolver(index: int) -> None:
    assert_logs_replay(KEEP_SCENARIOS[index])
    assert_sampled_as_played(KEEP_SCENARIOS[index], trials=30)


def test_a_log_of_a_battle_keep_decided_replays() -> None:
    # The policy travels with the scenario in the log (forces_set): replaying a log of a
    # battle where keep decided reproduces it.
    scenario = with_policy(CARRIER_FLEET, "attacker", keep={"carrier": 1})
    played = resolve(scenario, dice=ScriptedDice(CARRIER_DICE))
    chosen: list[Event] = [e for e in played.events if e["event"] == "choice_made"]
    assert [e["choice"] for e in chosen if e["player"] == "attacker"] == [
        "destroy destroyer",
        "destroy cruiser",
    ]
    assert replay(list(played.events)).reproduces


# --- TI3 ------------------------------------------------------------------------------------------


def test_ti3_the_kept_carrier_survives() -> None:
    # ti3-combat.md: both attacker ships miss, the 2 defending cruisers hit; by default the
    # carrier goes first, kept it goes last.
    scenario = ti3(space({"units": "1 carrier, 1 cruiser"}, {"units": "2 cruiser"}))
    faces = [1, 1, 10, 10]
    assert losses(run(scenario, faces), "attacker") == [("D", "carrier"), ("D", "cruiser")]
    kept = with_policy(scenario, "attacker", keep={"carrier": 1})
    assert losses(run(kept, faces), "attacker") == [("D", "cruiser"), ("D", "carrier")]


def test_ti3_exact_odds_of_keeping_the_carrier_derived_by_hand() -> None:
    """ti3-combat.md: cruiser hits on 7 (2/5), carrier on 9 (1/5). Attacker cruiser + carrier
    against 1 cruiser (q = 2/5): a hit with 1 - 3/5 * 4/5 = 13/25. After one loss the
    attacker fights on with the cruiser (default: the carrier is lost first) or the carrier
    (kept): 74/89 against 917/1157."""
    scenario = ti3(space({"units": "1 carrier, 1 cruiser"}, {"units": "1 cruiser"}))
    q = Fraction(2, 5)
    plain = odds(scenario, fractions=True).attacker_win
    kept = odds(with_policy(scenario, "attacker", keep={"carrier": 1}), fractions=True)
    assert plain == _wins(Fraction(13, 25), q, _wins(Fraction(2, 5), q, None)) == Fraction(74, 89)
    assert kept.attacker_win == _wins(Fraction(13, 25), q, _wins(Fraction(1, 5), q, None))
    assert kept.attacker_win == Fraction(917, 1157)


def test_ti3_ground_forces_kept_in_an_invasion() -> None:
    # ti3-combat.md invasion combat: the mechanized unit (SUSTAIN DAMAGE) sustains, then is
    # destroyed before the kept ground force.
    scenario = ti3(
        invasion(
            {"units": "1 carrier, 1 ground_force, 1 mechanized_unit"},
            {"units": "3 ground_force"},
        )
    )
    faces = [1, 1, 1, 10, 10, 10]  # the mechanized unit's 2 dice (TI3 27S-12), the ground force's
    assert losses(run(scenario, faces), "attacker") == [
        ("S", "mechanized_unit"),
        ("D", "ground_force"),
        ("D", "mechanized_unit"),
    ]
    kept = with_policy(scenario, "attacker", keep={"ground_force": 1})
    assert losses(run(kept, faces), "attacker") == [
        ("S", "mechanized_unit"),
        ("D", "mechanized_unit"),
        ("D", "ground_force"),
    ]


# --- bad input ------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("ruleset", "keep", "message"),
    [
        ("ti4", {"bogus": 1}, "keep.bogus: unknown unit 'bogus'; allowed: war_sun, dreadnought"),
        ("ti4", {"ground_force": 1}, "keep.ground_force: unknown unit 'ground_force'; allowed:"),
        ("ti3", {"mech": 1}, "keep.mech: unknown unit 'mech'; allowed: war_sun, dreadnought"),
        ("ti4", {"infantry": -1}, "keep.infantry: must be at least 0 (got -1)"),
        ("ti4", {"infantry": 1.5}, "keep.infantry: must be a whole number, written as one"),
        ("ti4", {"infantry": "1"}, "keep.infantry: must be a whole number, written as one"),
        ("ti3", {"carrier": True}, "keep.carrier: must be a whole number, written as one"),
        ("ti4", {"infantry": 201}, "keep.infantry: must be at most 200"),
        ("ti4", ["infantry"], "keep: must be a mapping"),
    ],
)
@pytest.mark.parametrize("layer", ["policy", "attacker.policy"])
def test_bad_keep_is_refused_naming_the_field(
    ruleset: str, keep: object, message: str, layer: str
) -> None:
    scenario = {**space({"units": "1 carrier"}, {"units": "1 cruiser"}), "ruleset": ruleset}
    if layer == "policy":
        scenario["policy"] = {"keep": keep}
    else:
        scenario["attacker"]["policy"] = {"keep": keep}
    with pytest.raises(ScenarioError) as caught:
        resolve(scenario, seed=1)
    assert str(caught.value).startswith(f"{layer}.{message}")


def test_ec4x_has_no_casualty_choice_to_keep() -> None:
    # EC4X assigns hits by its own rules (no stock casualty choice): a house's `keep` is an
    # unknown key, refused with the keys a house allows.
    scenario = yaml.safe_load((EXAMPLES / "ec4x" / "blitz.yaml").read_text(encoding="utf-8"))
    house = next(iter(scenario["houses"]))
    scenario["houses"][house]["keep"] = {"scout": 1}
    with pytest.raises(ScenarioError) as caught:
        resolve(scenario, seed=1)
    assert str(caught.value).startswith(f"houses.{house}.keep: unknown key; allowed: prestige")


@pytest.mark.parametrize("sustain", ["first", "last", "in_order"])
def test_the_fast_path_agrees_with_the_state_graph(
    sustain: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    # The product form walks Assign Hits once per set of units (rulesets/ti4/rounds.py): keep
    # reads only the units, so the walk holds; checked against the generic state graph.
    scenario = space(
        {
            "units": "2 dreadnought, 2 carrier, 1 cruiser, 2 fighter",
            "policy": {"keep": {"carrier": 1, "dreadnought": 1}, "sustain": sustain},
        },
        {"units": "1 dreadnought, 3 cruiser", "policy": {"keep": {"dreadnought": 1}}},
    )
    solved: list[object] = []
    real = product.solve

    def spy(*args: Any, **kwargs: Any) -> Any:
        solved.append(args)
        return real(*args, **kwargs)

    monkeypatch.setattr(product, "solve", spy)
    fast = exact_odds(scenario)
    assert solved, "the fast path was taken"
    slow = exact_odds(scenario, product_form=False)
    for name in ("attacker_win", "defender_win", "draw"):
        assert float(getattr(fast, name)) == pytest.approx(float(getattr(slow, name)), abs=1e-9)
    for player in ("attacker", "defender"):
        assert fast.expected_losses[player] == pytest.approx(slow.expected_losses[player], abs=1e-9)
    # and keep changed the answer (the test could fail)
    plain = copy.deepcopy(scenario)
    del plain["attacker"]["policy"]["keep"], plain["defender"]["policy"]
    assert exact_odds(plain).expected_losses != fast.expected_losses


def test_the_page_catalogue_offers_keep_for_ti_only() -> None:
    # rulesets/catalogue.py reads the PolicySpec model: the page's policy fields (a mapping
    # of unit counts, carried over as the scenario gives it) for TI4 and TI3, not EC4X.
    for ruleset in (catalogue.ti4(), catalogue.ti3()):
        keep = ruleset["policy"]["fields"]["keep"]
        [mapping] = [form for form in keep["anyOf"] if form.get("type") == "object"]
        assert mapping["additionalProperties"]["type"] == "integer"
        assert mapping["additionalProperties"]["minimum"] == 0
    assert "keep" not in catalogue.ec4x()["policy"]["fields"]
