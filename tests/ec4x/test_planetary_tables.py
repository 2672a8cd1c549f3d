"""The planetary tables (data/planetary.toml): 7.5.1, 7.5.2, 7.6 and facts §6, checked on load."""

from __future__ import annotations

from fractions import Fraction
from pathlib import Path

import pytest

from spacecombat.core.errors import RulesDataError
from spacecombat.rulesets.ec4x.planetary.tables import (
    PLANETARY_FILE,
    planetary,
    read_planetary,
)


def test_7_5_1_bombardment_table() -> None:
    t = planetary()
    cers = [t.bombardment_row(face).cer for face in range(10)]
    assert cers == [Fraction(1, 4)] * 3 + [Fraction(1, 2)] * 3 + [Fraction(1)] * 4
    assert [t.bombardment_row(face).critical for face in range(10)] == [False] * 9 + [True]


def test_7_6_ground_combat_table() -> None:
    t = planetary()
    cers = [t.ground_row(face).cer for face in range(10)]
    half, one, one_half = Fraction(1, 2), Fraction(1), Fraction(3, 2)
    assert cers == [half] * 3 + [one] * 4 + [one_half] * 2 + [Fraction(2)]


def test_7_5_2_shield_rows() -> None:
    shields = planetary().shields
    assert [(s.d20_above, s.blocked_pct) for s in shields.values()] == [
        (17, 25), (14, 30), (11, 35), (8, 40), (5, 45), (2, 50)
    ]  # fmt: skip
    # "% Chance" equals the d20 column: 15% is 3 faces of 20 above 17
    assert all(s.chance_pct == 5 * (20 - s.d20_above) for s in shields.values())


def test_facts_6_ground_units() -> None:
    units = planetary().units
    assert {c: (u.pc, u.attack, u.defense) for c, u in units.items()} == {
        "PS": (100, 0, 100),
        "GB": (20, 10, 8),
        "AA": (15, 3, 5),
        "MD": (25, 6, 6),
        "SP": (100, 0, 50),
    }
    t = planetary()
    assert t.bombardment_max_rounds == 3
    assert (t.invasion_iu_loss, t.blitz_marine_as, t.crippled_as) == (Fraction(1, 2),) * 3


@pytest.mark.parametrize(
    ("old", "new", "message"),
    [
        ('low = 3           # "3, 4, 5"', "low = 4", "bombardment_cer.1: low: must be 3"),
        ("chance_pct = 45", "chance_pct = 50", "shield.2: chance_pct 50 is not the chance"),
        ('code = "AA"', 'code = "XX"', "ground_unit: unknown 'XX'"),
        ("level = 6", "level = 7", "shield: unknown 7"),
        ("bombardment_max_rounds = 3", "bombardment_max_round = 3", "limits"),
        ('cer = "2"', 'cer = "3"', "ground_cer.3.cer"),
    ],
)
def test_bad_data_is_refused_naming_the_key(
    tmp_path: Path, old: str, new: str, message: str
) -> None:
    text = PLANETARY_FILE.read_text(encoding="utf-8")
    assert old in text
    bad = tmp_path / "planetary.toml"
    bad.write_text(text.replace(old, new, 1), encoding="utf-8")
    with pytest.raises(RulesDataError, match=message.replace("(", r"\(")):
        read_planetary(bad)
