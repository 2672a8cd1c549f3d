"""``spacecombat ec4x new-game``: the map generator as a command (docs/ec4x.md, "The map
generator"), up to the game state's limits (docs/limits.md: 2,000 systems, 5,000 fleets)."""

from __future__ import annotations

import json
import stat
from pathlib import Path

import pytest

from spacecombat.cli import main
from spacecombat.core.limits import MAX_FLEETS, MAX_SYSTEMS
from spacecombat.rulesets.ec4x.turn import starmap
from spacecombat.rulesets.ec4x.turn.game import load_game
from spacecombat.rulesets.ec4x.turn.starmap import generate_map, lanes_of


def new_game(tmp_path: Path, name: str, *args: str) -> Path:
    out = tmp_path / name
    assert main(["ec4x", "new-game", *args, "--out", str(out)]) == 0
    return out


def test_the_same_seed_gives_the_same_bytes(tmp_path: Path) -> None:
    args = ("--systems", "60", "--houses", "4", "--seed", "9")
    first = new_game(tmp_path, "a.json", *args)
    second = new_game(tmp_path, "b.json", *args)
    other = new_game(tmp_path, "c.json", "--systems", "60", "--houses", "4", "--seed", "10")
    assert first.read_bytes() == second.read_bytes()
    assert first.read_bytes() != other.read_bytes()
    assert stat.S_IMODE(first.stat().st_mode) == 0o644


def test_the_state_is_the_generators_and_reads_back(tmp_path: Path) -> None:
    out = new_game(tmp_path, "s.json", "--systems", "60", "--houses", "4", "--seed", "9")
    state = load_game(out)
    assert state == generate_map(9, 60, 4)
    assert state.turn == 1
    assert state.game_id == "generated-9"
    # facts §10 "The hub has 6 lanes and homeworlds have 3"
    lanes = lanes_of(state)
    assert len(lanes["S00"]) == 6
    assert all(len(lanes[h.home]) == 3 for h in state.houses.values() if h.home)


def test_starting_fleets_and_diplomacy(tmp_path: Path) -> None:
    out = new_game(
        tmp_path,
        "s.json",
        *("--systems", "40", "--houses", "3", "--seed", "1"),
        *("--fleets", "5", "--diplomacy", "enemy"),
    )
    state = load_game(out)
    assert len(state.fleets) == 15
    for house, spec in state.houses.items():
        mine = sorted(f.id for f in state.fleets if f.owner == house)
        assert mine == [f"{house}-{n}" for n in range(1, 6)]
        assert all(f.location == spec.home for f in state.fleets if f.owner == house)
        # fleets 3 to 5 are pickets of one destroyer
        picket = state.fleet(f"{house}-3")
        assert [s.flagship for s in picket.squadrons] == ["DD"]
    # 8.1: every pair of the three houses is at war
    assert {frozenset(d.houses) for d in state.diplomacy} == {
        frozenset(p) for p in (("alpha", "beta"), ("alpha", "gamma"), ("beta", "gamma"))
    }
    assert all(d.status == "enemy" for d in state.diplomacy)


def test_neutral_diplomacy_lists_no_pair(tmp_path: Path) -> None:
    out = new_game(tmp_path, "s.json", "--systems", "20", "--houses", "2", "--seed", "1")
    assert json.loads(out.read_text())["diplomacy"] == []
    assert load_game(out).status("alpha", "beta") == "neutral"


def test_the_commands_bounds_are_the_generators() -> None:
    assert (starmap.MIN_SYSTEMS, starmap.MAX_GENERATED_SYSTEMS) == (7, MAX_SYSTEMS)
    assert (starmap.MAX_HOUSES, starmap.STARTING_FLEETS) == (8, 2)


def test_a_map_at_the_documented_limits() -> None:
    state = generate_map(3, MAX_SYSTEMS, 8, fleets=MAX_FLEETS // 8, diplomacy="enemy")
    assert len(state.systems) == MAX_SYSTEMS
    assert len(state.fleets) == MAX_FLEETS
    assert len(state.houses) == 8


@pytest.mark.parametrize(
    ("args", "option"),
    [
        (("--systems", "6", "--houses", "2"), "--systems"),
        (("--systems", "2001", "--houses", "2"), "--systems"),
        (("--systems", "many", "--houses", "2"), "--systems"),
        (("--systems", "20", "--houses", "0"), "--houses"),
        (("--systems", "20", "--houses", "9"), "--houses"),
        (("--systems", "20", "--houses", "2", "--seed", "-1"), "--seed"),
        (("--systems", "20", "--houses", "2", "--fleets", "1"), "--fleets"),
        (("--systems", "20", "--houses", "2", "--fleets", "2501"), "--fleets"),
        (("--systems", "20", "--houses", "2", "--diplomacy", "war"), "--diplomacy"),
        (("--systems", "8", "--houses", "8"), "--systems"),
        (
            (
                "--houses",
                "2",
            ),
            "--systems",
        ),
    ],
)
def test_a_bad_argument_exits_2_naming_the_option(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], args: tuple[str, ...], option: str
) -> None:
    out = tmp_path / "s.json"
    assert main(["ec4x", "new-game", *args, "--out", str(out)]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1
    assert option in err
    assert "Traceback" not in err
    assert not out.exists()


def test_an_unwritable_out_exits_74(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    blocker = tmp_path / "file"
    blocker.write_text("")
    out = blocker / "s.json"  # a folder that is a file: it cannot be made
    assert main(["ec4x", "new-game", "--systems", "20", "--houses", "2", "--out", str(out)]) == 74
    assert capsys.readouterr().err.count("\n") == 1
    assert [p.name for p in tmp_path.iterdir()] == ["file"]


def test_without_out_the_state_goes_to_standard_output(
    capsys: pytest.CaptureFixture[str],
) -> None:
    assert main(["ec4x", "new-game", "--systems", "20", "--houses", "2", "--seed", "4"]) == 0
    assert json.loads(capsys.readouterr().out)["game_id"] == "generated-4"
