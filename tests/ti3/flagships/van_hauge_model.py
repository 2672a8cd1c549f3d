"""The hand-derived odds of Van Hauge (5 x2, SUSTAIN DAMAGE) and its ground forces fighting as
fighters (one die each) against one cruiser (7: hits with 2/5), by an independent model of the
rounds (as tests/ti3/flagships/test_van_hauge_fighters.py ``_model``, with the ground forces'
chance to miss a parameter: their modifiers, docs/rulings.md 27T-12).

Each round the Yin hit at least once with ``a = 1 - (2/5)^2 m^g`` (the flagship's two dice at 5
miss with 2/5 each; each of ``g`` ground forces misses with ``m``), the cruiser with ``p = 2/5``;
a round where neither hits repeats. The cruiser's hit goes (the stock order) on the undamaged
flagship's SUSTAIN DAMAGE, else on a ground force, else on the flagship; the flagship lost with
the cruiser is a draw."""

from __future__ import annotations

from fractions import Fraction

#: the flagship's die misses (5: faces 1-4)
FLAGSHIP_MISS = Fraction(2, 5)
#: the cruiser hits (7: faces 7-10)
CRUISER = Fraction(2, 5)

Odds = tuple[Fraction, Fraction, Fraction]


def against_a_cruiser(damaged: int, ground: int, miss: Fraction) -> Odds:
    """(win, draw, loss) of the Yin from the flagship (``damaged``) and ``ground`` ground
    forces each missing with ``miss``."""
    a = 1 - FLAGSHIP_MISS**2 * miss**ground
    p = CRUISER
    rest = 1 - (1 - a) * (1 - p)
    if damaged and not ground:
        return a * (1 - p) / rest, a * p / rest, (1 - a) * p / rest
    after = against_a_cruiser(1, ground - damaged, miss)
    return (
        (a + (1 - a) * p * after[0]) / rest,
        (1 - a) * p * after[1] / rest,
        (1 - a) * p * after[2] / rest,
    )
