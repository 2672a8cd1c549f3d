"""EC4X rules tables (data/units.toml, data/combat.toml): values against the spec and the
reference facts, the loader's refusals, the space CER table (7.3.3) and ROE (7.1.1)."""

from __future__ import annotations

from fractions import Fraction
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from spacecombat.core.errors import RulesDataError
from spacecombat.rulesets.ec4x.tables import (
    CODES,
    COMBAT_FILE,
    UNITS_FILE,
    ShipClass,
    read_tables,
    roe_allows,
    space_cer,
    tables,
)


def test_every_class_of_facts_2_is_defined() -> None:
    """Facts §2, §5, §6: every class code, and nothing else."""
    assert set(tables().classes) == set(CODES)


@pytest.mark.parametrize(
    ("code", "pc", "attack", "defense", "cc", "cr"),
    [
        ("CT", 20, 2, 3, 1, 2),
        ("FG", 30, 3, 4, 2, 3),
        ("DD", 40, 5, 6, 2, 4),
        ("CL", 60, 8, 9, 3, 6),
        ("CA", 80, 12, 13, 3, 7),
        ("BC", 100, 16, 18, 3, 8),
        ("BB", 150, 20, 25, 3, 10),
        ("DN", 200, 28, 30, 4, 12),
        ("SD", 250, 35, 40, 5, 14),
        ("PB", 400, 50, 20, 6, 6),
        ("CV", 120, 5, 18, 3, 8),
        ("CX", 200, 8, 25, 4, 10),
        ("RR", 150, 12, 10, 3, 4),
    ],
)
def test_ship_stats_match_facts_table_2(
    code: str, pc: int, attack: int, defense: int, cc: int, cr: int
) -> None:
    """Facts §2 (WEP1, spec window): PC, AS, DS, CC, CR of each ship class."""
    ship = tables().classes[code]
    assert (ship.pc, ship.attack, ship.defense, ship.cc, ship.cr) == (pc, attack, defense, cc, cr)
    assert ship.kind == "ship"


def test_scout_fighter_starbase_and_spacelift_match_facts() -> None:
    """Facts §2, §5, §6: SC, FS, SB, ET, TT (no CR for any of them; CL for spacelift)."""
    classes = tables().classes
    assert classes["SC"] == ShipClass("SC", "Scout", 50, 1, 2, 1, None, None, None, "scout")
    assert classes["FS"] == ShipClass(
        "FS", "Fighter Squadron", 20, 4, 3, None, None, None, 4, "fighter"
    )
    assert classes["SB"] == ShipClass(
        "SB", "Starbase", 300, 45, 50, None, None, None, 5, "starbase"
    )
    assert classes["ET"] == ShipClass("ET", "ETAC", 50, 0, 10, None, None, 1, None, "spacelift")
    assert classes["TT"] == ShipClass(
        "TT", "Troop Transport", 30, 0, 15, None, None, 1, None, "spacelift"
    )


def test_buckets_follow_7_3_2_2() -> None:
    """7.3.2.2: Raider 1, Cruiser/Carrier 2 (BC..SD by analogy), Destroyer 3, Fighter 4,
    Starbase 5; CT, FG, SC, PB unnamed (None)."""
    bucket = {code: ship.bucket for code, ship in tables().classes.items()}
    assert bucket["RR"] == 1
    assert {bucket[c] for c in ("CL", "CA", "BC", "BB", "DN", "SD", "CV", "CX")} == {2}
    assert (bucket["DD"], bucket["FS"], bucket["SB"]) == (3, 4, 5)
    assert all(bucket[c] is None for c in ("CT", "FG", "SC", "PB", "ET", "TT"))


def test_bucket_base_weights_are_1_to_5() -> None:
    """7.3.2.2 Base Weight column: 1.0 .. 5.0."""
    assert dict(tables().bucket_weight) == {1: 1, 2: 2, 3: 3, 4: 4, 5: 5}


def test_carrier_capacity_by_aco_level() -> None:
    """Facts §3: CV 3/4/5 and CX 5/6/8 fighter squadrons at ACO I/II/III; CL is ACO I."""
    assert dict(tables().carrier_capacity) == {"CV": (3, 4, 5), "CX": (5, 6, 8)}
    assert (tables().classes["CV"].cl, tables().classes["CX"].cl) == (3, 5)


@pytest.mark.parametrize(
    ("roll", "cer"),
    [
        (-3, Fraction(1, 4)),
        (0, Fraction(1, 4)),
        (2, Fraction(1, 4)),
        (3, Fraction(1, 2)),
        (4, Fraction(1, 2)),
        (5, Fraction(3, 4)),
        (6, Fraction(3, 4)),
        (7, Fraction(1)),
        (9, Fraction(1)),
        (15, Fraction(1)),
    ],
)
def test_space_cer_table_7_3_3(roll: int, cer: Fraction) -> None:
    """7.3.3 CER Table: "Less than zero, 0, 1, 2" 1/4; 3-4 1/2; 5-6 3/4; 7, 8, 9*, 9+ 1."""
    assert space_cer(roll) == cer


@given(st.integers(-50, 50))
def test_space_cer_is_monotone_7_3_3(roll: int) -> None:
    """7.3.3: a higher modified roll never gives a lower CER."""
    assert space_cer(roll) <= space_cer(roll + 1)


# ---- 7.1.1 ROE ---------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("roe", "own", "hostile"),
    [(2, 4, 1), (3, 3, 1), (4, 2, 1), (5, 3, 2), (6, 1, 1), (7, 2, 3), (8, 1, 2), (9, 1, 3)],
)
def test_roe_ratio_levels_hold_exactly_at_their_ratio_7_1_1(
    roe: int, own: int, hostile: int
) -> None:
    """7.1.1: "4:1 or better", ..., "even if outgunned 3:1": the exact ratio stays engaged,
    one AS less (scaled by 10) wants to retreat."""
    assert roe_allows(roe, own * 10, hostile * 10)
    assert not roe_allows(roe, own * 10 - 1, hostile * 10)
    assert roe_allows(roe, own * 10, hostile * 10 - 1)


def test_roe_0_avoids_all_hostile_forces_7_1_1() -> None:
    """7.1.1 ROE 00 "Avoid all hostile forces": never stays, even far stronger; against AS 0
    by default too (E3), unless roe0_defenseless="stay"."""
    assert not roe_allows(0, 1000, 1)
    assert not roe_allows(0, 5, 0)
    assert roe_allows(0, 5, 0, roe0_defenseless="stay")
    assert not roe_allows(0, 5, 1, roe0_defenseless="stay")


def test_roe_1_engages_only_defenseless_forces_7_1_1() -> None:
    """7.1.1 ROE 01 "only if they are defenseless": hostile AS 0."""
    assert roe_allows(1, 0, 0)
    assert roe_allows(1, 3, 0)
    assert not roe_allows(1, 1000, 1)


def test_roe_10_engages_regardless_7_1_1() -> None:
    """7.1.1 ROE 10 "regardless of their size"."""
    assert roe_allows(10, 0, 1000)


@given(st.integers(1, 10), st.integers(0, 500))
def test_roe_stays_against_a_defenseless_hostile_7_1_1(roe: int, own: int) -> None:
    """Hostile AS 0: every ROE 1..10 stays engaged."""
    assert roe_allows(roe, own, 0)


@given(st.integers(0, 10), st.integers(0, 500), st.integers(0, 500), st.integers(0, 50))
def test_roe_is_monotone_in_own_strength(roe: int, own: int, hostile: int, more: int) -> None:
    """7.1.1: more own strength never makes a Task Force retreat."""
    if roe_allows(roe, own, hostile):
        assert roe_allows(roe, own + more, hostile)


@given(st.integers(0, 9), st.integers(0, 500), st.integers(0, 500))
def test_roe_is_monotone_in_level(roe: int, own: int, hostile: int) -> None:
    """7.1.1: "The higher the ROE, the more aggressive": a higher ROE never retreats sooner."""
    if roe_allows(roe, own, hostile):
        assert roe_allows(roe + 1, own, hostile)


@pytest.mark.parametrize(("roe", "own", "hostile"), [(-1, 1, 1), (11, 1, 1), (5, -1, 1)])
def test_roe_refuses_impossible_arguments(roe: int, own: int, hostile: int) -> None:
    with pytest.raises(ValueError, match=r"ROE|never negative"):
        roe_allows(roe, own, hostile)


# ---- the loader --------------------------------------------------------------------------------


def _copy(tmp_path: Path, name: str, text: str) -> Path:
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return path


def test_unknown_key_is_refused_naming_file_and_key(tmp_path: Path) -> None:
    """A data file with an unknown key is refused with the file and the key named."""
    text = UNITS_FILE.read_text(encoding="utf-8").replace(
        'code = "DD"', 'code = "DD"\nspeed = 3', 1
    )
    units = _copy(tmp_path, "units.toml", text)
    with pytest.raises(RulesDataError, match=r"units\.toml: class\.2\.speed: Extra inputs"):
        read_tables(units, COMBAT_FILE)


def test_unknown_key_in_the_combat_file_is_refused(tmp_path: Path) -> None:
    text = COMBAT_FILE.read_text(encoding="utf-8").replace(
        "[raider_detection]", "[raider_detection]\nELI6 = []"
    )
    combat = _copy(tmp_path, "combat.toml", text)
    with pytest.raises(RulesDataError, match=r"combat\.toml: raider_detection\.ELI6: Extra"):
        read_tables(UNITS_FILE, combat)


def test_a_missing_value_is_an_error_not_a_default(tmp_path: Path) -> None:
    """A ship without CR is refused (every ship class has a command rating, facts §2)."""
    text = UNITS_FILE.read_text(encoding="utf-8").replace("CR = 4\nbucket = 3", "bucket = 3", 1)
    units = _copy(tmp_path, "units.toml", text)
    with pytest.raises(RulesDataError, match=r"units\.toml: class\.2: .*DD \(ship\) needs CR"):
        read_tables(units, COMBAT_FILE)


def test_a_missing_class_is_refused(tmp_path: Path) -> None:
    text = UNITS_FILE.read_text(encoding="utf-8").replace('code = "TT"', 'code = "XX"')
    units = _copy(tmp_path, "units.toml", text)
    with pytest.raises(RulesDataError, match=r"units\.toml: class: unknown 'XX'"):
        read_tables(units, COMBAT_FILE)


def test_a_gap_in_the_cer_table_is_refused(tmp_path: Path) -> None:
    text = COMBAT_FILE.read_text(encoding="utf-8").replace("low = 5 ", "low = 6 ", 1)
    combat = _copy(tmp_path, "combat.toml", text)
    with pytest.raises(RulesDataError, match=r"combat\.toml: space_cer\.2: low"):
        read_tables(UNITS_FILE, combat)


def test_a_value_of_the_wrong_kind_is_refused(tmp_path: Path) -> None:
    text = UNITS_FILE.read_text(encoding="utf-8").replace("AS = 5\nDS = 6", 'AS = "5"\nDS = 6')
    units = _copy(tmp_path, "units.toml", text)
    with pytest.raises(RulesDataError, match=r"units\.toml: class\.2\.AS: Input should be"):
        read_tables(units, COMBAT_FILE)


def test_a_detection_range_must_be_three_faces(tmp_path: Path) -> None:
    text = COMBAT_FILE.read_text(encoding="utf-8").replace(
        '[[14, 16], [17, 19], "NA"', '[[14, 17], [17, 19], "NA"'
    )
    combat = _copy(tmp_path, "combat.toml", text)
    with pytest.raises(RulesDataError, match=r"combat\.toml: raider_detection\.ELI1\.0"):
        read_tables(UNITS_FILE, combat)
