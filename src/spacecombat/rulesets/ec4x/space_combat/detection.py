"""EC4X raider detection before combat (7.1.3, 7.3.1.1; assets 2.4.2-2.4.3 as restated in
reference/ec4x-facts.md §4). Pure rules: the dice (1D3, 1D20) are arguments."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Literal

from spacecombat.rulesets.ec4x.tables import CLK_LEVELS, ELI_LEVELS, tables

DominantPenalty = Literal["as_written", "as_example"]
StarbaseCap = Literal["cap", "uncapped"]
RangeRule = Literal["lower", "d3", "upper"]
Comparison = Literal["at_least", "greater"]

MAX_ELI = 5  # facts §4 step 4: "Cap the result at ELI5"
STARBASE_ELI_BONUS = 2  # 7.3.1.1: "Starbases receive +2 ELI modifier for detection rolls"


def mesh_bonus(scouts: int) -> int:
    """Facts §4 step 3, the mesh network modifier: 1 scout 0, 2-3 +1, 4-5 +2, 6+ +3."""
    if scouts < 1:
        raise ValueError("a detecting unit has at least one scout")
    return 0 if scouts == 1 else 1 if scouts <= 3 else 2 if scouts <= 5 else 3


def effective_eli(
    levels: Sequence[int], *, dominant_penalty: DominantPenalty = "as_written"
) -> int:
    """The effective ELI of one detecting unit (a fleet's scouts; facts §4, 7.3.1.1).

    The ceiling of the mean level; minus 1 for the dominant-tech penalty; plus the mesh bonus;
    capped at ELI5. ``dominant_penalty`` (ruling E1):

    - ``"as_written"``: -1 if more than 50% of the scouts are below that rounded mean;
    - ``"as_example"``: -1 whenever the ceiling rounded the mean up (so the base is the mean
      rounded down), which reproduces both worked examples: 2xELI2 + 3xELI4 -> 3 + 2 = 5 and
      ELI1 + ELI3 -> 2 + 1 = 3.

    Each level is 1..5 (ELI tech). No floor is needed: the base is never below the lowest
    level, so the result is always 1..5 (ruling E2).
    """
    if not levels:
        raise ValueError("a detecting unit has at least one scout")
    if any(level not in ELI_LEVELS for level in levels):
        raise ValueError(f"scout ELI levels are 1..5, got {list(levels)}")
    count, total = len(levels), sum(levels)
    rounded = -(-total // count)
    if dominant_penalty == "as_written":
        below = sum(1 for level in levels if level < rounded)
        penalty = 1 if 2 * below > count else 0
    else:
        penalty = 1 if total % count else 0
    return min(MAX_ELI, rounded - penalty + mesh_bonus(count))


def starbase_eli(level: int, *, cap: StarbaseCap = "cap") -> int:
    """A starbase's ELI for detection rolls: its level +2 (7.3.1.1), a unit of its own.

    ``cap`` (ruling E3): ``"cap"`` caps it at ELI5 like any effective ELI (facts §4 step 4);
    ``"uncapped"`` gives 6 or 7, which read the table's ELI5 row but keep their value for the
    range rule (``range_rule``), so an ELI7 starbase uses the lower bound against CLK5.
    """
    if level not in ELI_LEVELS:
        raise ValueError(f"a starbase's ELI level is 1..5, got {level}")
    boosted = level + STARBASE_ELI_BONUS
    return min(MAX_ELI, boosted) if cap == "cap" else boosted


def _check(eli: int, clk: int, *, max_eli: int) -> None:
    if not 1 <= eli <= max_eli:
        raise ValueError(f"ELI is 1..{max_eli} here, got {eli}")
    if clk not in CLK_LEVELS:
        raise ValueError(f"CLK is 1..5, got {clk}")


def threshold_range(eli: int, clk: int) -> tuple[int, int] | None:
    """The raider detection table's cell (facts §4): the 1D20 threshold range, None for NA."""
    _check(eli, clk, max_eli=MAX_ELI)
    return tables().raider_detection[eli, clk]


def range_rule(eli: int, clk: int) -> RangeRule:
    """How the threshold is picked from the range (facts §4): ELI >= CLK+2 the lower bound;
    ELI = CLK or CLK+1 a 1D3 roll; ELI < CLK the upper bound. ELI may exceed 5 (E3)."""
    _check(eli, clk, max_eli=MAX_ELI + STARBASE_ELI_BONUS)
    if eli >= clk + 2:
        return "lower"
    return "d3" if eli >= clk else "upper"


def threshold(eli: int, clk: int, d3: int | None = None) -> int | None:
    """The 1D20 detection threshold of ``eli`` against ``clk`` (None: NA, cannot detect).

    ``d3`` (1 lower, 2 middle, 3 upper) is required exactly when ``range_rule`` is ``"d3"``.
    An ELI above 5 (an uncapped starbase, E3) reads the ELI5 row.
    """
    rule = range_rule(eli, clk)
    if (d3 is not None) != (rule == "d3"):
        raise ValueError(f"ELI{eli} against CLK{clk} uses the {rule} rule: d3 is given iff d3")
    if d3 is not None and d3 not in (1, 2, 3):
        raise ValueError(f"a 1D3 roll is 1..3, got {d3}")
    cell = threshold_range(min(eli, MAX_ELI), clk)
    if cell is None:
        return None
    low, high = cell
    if rule == "lower":
        return low
    if rule == "upper":
        return high
    assert d3 is not None
    return low + (high - low) * (d3 - 1) // 2


def detects(d20: int, threshold: int, *, comparison: Comparison = "at_least") -> bool:
    """Whether a 1D20 roll detects: roll >= threshold (facts §4: the examples rule over the
    table's "> x"; ruling E4); ``comparison="greater"`` reads the "> x" notation."""
    if not 1 <= d20 <= 20:
        raise ValueError(f"a 1D20 roll is 1..20, got {d20}")
    return d20 >= threshold if comparison == "at_least" else d20 > threshold
