"""Order 12, Colonize a Planet (6.2.13): "This mission is reserved for ETACs under fleet
escort" (ruling G38, option ``colonize_escort``), and fleets of several houses colonising one
empty system in the same turn (ruling G39, option ``colonize_contest``), each both ways. The
houses are neutral and the system empty, so nothing fights: the only draw of these turns is
the contest's ``roll`` (a ``pick`` with equal weights over the houses by name)."""

from __future__ import annotations

from typing import Any

import pytest

from spacecombat.rulesets.ec4x.turn import orders as o
from spacecombat.rulesets.ec4x.turn.conflict import TurnResult
from spacecombat.scenario.ec4x_game import GameState
from tests.ec4x.game.helpers import fleet, play_scripted, two_systems

ESCORTED: dict[str, Any] = {"squadrons": [{"flagship": "FG"}], "spacelift": {"ET": 1}}
ALONE: dict[str, Any] = {"squadrons": [], "spacelift": {"ET": 1}}


def game(fleets: list[dict[str, Any]], **options: object) -> GameState:
    return two_systems(fleets, **options)


def play(state: GameState, picks: list[int], **orders: list[dict[str, Any]]) -> TurnResult:
    return play_scripted(state, picks, **orders)


def owner_of(result: TurnResult, system: str = "B") -> str | None:
    colony = result.state.system(system).colony()
    return colony.owner if colony is not None else None


def failures(result: TurnResult, house: str) -> list[str]:
    return [
        str(e["reason"]) for e in result.reports[house]["events"] if e["event"] == "colonize_failed"
    ]


COLONIZE_B = {"code": 12, "target": "B"}


def test_g38_an_etac_alone_is_refused_by_default() -> None:
    """6.2.13 "reserved for ETACs under fleet escort": a fleet of one ETAC and nothing else
    is refused; it holds, and its report names the requirement."""
    s = game([fleet("F1", at="B", **ALONE)])
    r = play(s, [], alpha=[{"fleet": "F1", "order": COLONIZE_B}])
    assert owner_of(r) is None
    (item,) = r.reports["alpha"]["orders"]
    assert item["refused"] == (
        "order 12 needs one ETAC under fleet escort: combat ship(s) in its fleet (6.2.13)"
    )
    assert r.state.fleet("F1").order_code == 0
    assert r.state.fleet("F1").spacelift == {"ET": 1}


def test_g38_colonize_escort_none_lets_an_etac_alone_colonise() -> None:
    """Option ``colonize_escort: none``: 6.2's table alone ("One ETAC")."""
    s = game([fleet("F1", at="B", **ALONE)], colonize_escort="none")
    r = play(s, [], alpha=[{"fleet": "F1", "order": COLONIZE_B}])
    assert owner_of(r) == "alpha"
    assert all(f.id != "F1" for f in r.state.fleets)  # the ETAC was its only ship


def test_g38_an_escorted_etac_colonises() -> None:
    s = game([fleet("F1", at="B", **ESCORTED)])
    r = play(s, [], alpha=[{"fleet": "F1", "order": COLONIZE_B}])
    assert owner_of(r) == "alpha"
    assert r.state.fleet("F1").spacelift == {}


def contest(**options: object) -> GameState:
    """Alpha's Z1 and beta's G1, both escorted ETACs, at the empty system B: by fleet id beta's
    comes first, by house name alpha."""
    return game(
        [fleet("Z1", at="B", **ESCORTED), fleet("G1", owner="beta", at="B", **ESCORTED)],
        **options,
    )


ORDERS: dict[str, list[dict[str, Any]]] = {
    "alpha": [{"fleet": "Z1", "order": COLONIZE_B}],
    "beta": [{"fleet": "G1", "order": COLONIZE_B}],
}


@pytest.mark.parametrize(("pick", "winner", "loser"), [(0, "alpha", "beta"), (1, "beta", "alpha")])
def test_g39_a_roll_picks_the_house_that_settles(pick: int, winner: str, loser: str) -> None:
    """Default ``colonize_contest: roll``: one pick over [alpha, beta]."""
    r = play(contest(), [pick], **ORDERS)
    assert owner_of(r) == winner
    (reason,) = failures(r, loser)
    assert f"{winner} settles it" in reason
    assert not failures(r, winner)


def test_g39_lowest_fleet_id() -> None:
    """``lowest_fleet_id``: beta's G1 comes before alpha's Z1; no draw."""
    r = play(contest(colonize_contest="lowest_fleet_id"), [], **ORDERS)
    assert owner_of(r) == "beta"
    assert failures(r, "alpha")
    assert r.state.fleet("Z1").spacelift == {"ET": 1}
    assert r.state.fleet("Z1").order_code == 0


def test_g39_neither() -> None:
    """``neither``: no house settles; both fleets keep their ETAC and hold; no draw."""
    r = play(contest(colonize_contest="neither"), [], **ORDERS)
    assert owner_of(r) is None
    for house, fid in (("alpha", "Z1"), ("beta", "G1")):
        (reason,) = failures(r, house)
        assert "no house settles it" in reason
        assert r.state.fleet(fid).spacelift == {"ET": 1}
        assert r.state.fleet(fid).order_code == 0


def test_one_house_two_fleets_is_no_contest() -> None:
    """G17: two fleets of one house try in fleet id order; the later one holds (no draw)."""
    s = game([fleet("F1", at="B", **ESCORTED), fleet("F2", at="B", **ESCORTED)])
    r = play(
        s, [], alpha=[{"fleet": "F1", "order": COLONIZE_B}, {"fleet": "F2", "order": COLONIZE_B}]
    )
    assert owner_of(r) == "alpha"
    assert r.state.fleet("F2").spacelift == {"ET": 1}
    (reason,) = failures(r, "alpha")
    assert "occupied" in reason


@pytest.mark.parametrize(("escort", "settled"), [("combat_ships", False), ("none", True)])
def test_g38_the_escort_is_judged_again_on_landing(escort: str, settled: bool) -> None:
    """G38: a fleet whose escort was lost in this turn's combat reaches step 10 with its ETAC
    alone: by default it does not land (``colonize_failed``, it holds); with
    ``colonize_escort: none`` it does. ``establish_colony`` on the fleet as combat left it."""
    s = game([fleet("F1", at="B", **ESCORTED)], colonize_escort=escort)
    world = o.World(
        state=s, options=o.turn_options(s), fleets={f.id: f for f in s.fleets}, colonies={}
    )
    stripped = o.with_order(s.fleet("F1").model_copy(update={"squadrons": ()}), 12)
    left = o.establish_colony(world, stripped)
    assert ("B" in world.colonies) is settled
    if settled:
        assert left is None  # the ETAC was all that was left
    else:
        assert left == stripped
        (note,) = world.notes["alpha"]
        assert note["event"] == "colonize_failed"
        assert "under fleet escort" in str(note["reason"])
