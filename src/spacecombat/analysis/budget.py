"""Budgets that bound the exact engine's memory and time, whatever the battle.

The exact engine's cost grows fast with a battle's size: a player with anti-fighter barrage
against them can be left in (fighters) x (other losses) different ways, and solving the combat
rounds in product form holds arrays of (attacker states) x (defender states) and does about
(attacker states) x (defender states)² x (most hits in a roll) multiply-adds. So before it
allocates anything large the engine estimates that size and that work, and when either is over
its budget it stops with ``TooLarge`` (a ``TooManyStates`` is one): ``odds()`` then answers by
Monte Carlo, with a note that says why. Nothing here depends on the machine: the same battle
gets the same kind of answer everywhere.

The values are chosen so that the exact part of any battle stays well under 500 MB of resident
memory (Python, numpy and the rules code take about 100 MB of their own) and about half a
minute on one core of the project's machine (docs/benchmarks.md); docs/limits.md lists them.
"""

from __future__ import annotations

from spacecombat.core.errors import SpacecombatError

#: chance states the generic state graph may explore (about 1.5 ms each: ~5 s); as many
#: again may be folded into the roll before them (graph.py ``Joining``: a TI4 defender's
#: combat roll), which the graph does not hold (TI4's cost about 0.5-0.9 ms each since the
#: leaps of issue 24: docs/benchmarks.md)
CHANCE_STATES = 3_000
#: states the generic state graph may reach from the outcomes of rolls ("settled" states, each
#: kept with where it leads; the graph's edges are fewer): a chance state of many dice has one
#: outcome per number of hits, so 3,000 chance states of 200 dice each could reach 600,000.
#: Each costs about 40 µs of rules code and 0.5 KB: at most ~4 s and ~50 MB
GRAPH_SETTLED = 100_000
#: states passed on the way from an outcome to the next roll that the generic state graph
#: remembers, besides the settled states, so that a walk meeting one again stops there (each
#: about 0.5 KB with what it holds: ~100 MB; the largest faction battle measured remembered
#: 174,614 and peaked at 140 MB in all); beyond it they are no longer remembered (walks take
#: longer, answers are the same)
GRAPH_PASSED = 200_000
#: steps and decisions of the rules the generic state graph may follow in all (assigning h
#: hits is h decisions, so 100 space cannon dice against 100 mechs take ~2 million steps
#: before the first combat round): about 10-20 µs each, ~2.5-5 s (the fuzz suite found a
#: battle spending 5 s on 500,000 steps before it fell back)
GRAPH_STEPS = 250_000
#: outcomes of rolls the generic state graph may follow in all (each costs one step of the
#: rules code and a look-up, about 15 µs, more when states are large): a chance state of 190
#: dice has 191 outcomes, so 3,000 such states would follow 573,000 of them: ~2-3 s
GRAPH_OUTCOMES = 150_000
#: states of one player's units that rounds in product form may index (each state costs one
#: real Assign Hits decision and a dice pool, about 60 µs, and a row of the hits table)
CHAIN_STATES = 6_000
#: bytes of arrays the product-form solver may hold at once (mass by pair of states, one
#: defender kernel being built and solved, the hits tables, the kernel cache)
ARRAY_BYTES = 256_000_000
#: bytes of defender kernels kept for reuse between rounds (part of ``ARRAY_BYTES``); beyond
#: it kernels are rebuilt when needed (a rebuild costs about 1/width of using one)
KERNEL_CACHE_BYTES = 64_000_000
#: multiply-adds the product-form solver may do, as estimated by ``product.plan``: absorption
#: plus the round-by-round pass. 20 dreadnoughts, cruisers, destroyers and carriers and 60
#: fighters a side is estimated at 0.89 trillion and takes 13 s on the project's machine
#: (Monte Carlo's 20,000 battles take 70 s there on 2 cores); 25 of each and 75 fighters
#: (3.8 trillion) falls back
WORK = 1_000_000_000_000
#: the round-by-round pass (when the battle ends) costs about this many times absorption
#: (measured: 3 to 6 on battles from 64 dreadnoughts to 20 of each ship and 60 fighters)
ROUNDS_FACTOR = 6
#: combat rounds the round-by-round passes push before reporting the rest as unfinished
ROUNDS_PUSHED = 10_000
#: retreat announcements the product form evaluates (pairs of what the decision reads of each
#: player, in each round where a policy may answer differently), each one run of the Announce
#: Retreats procedure (about 15 µs): ~3 s
ANNOUNCEMENTS = 200_000
#: combinations of who is left on each planet that an invasion of several planets runs
#: through establishing control, one run each (about 200 µs with 9 planets): up to 3 per
#: planet, so 7 planets (2,187) are solved exactly and 8 (6,561) fall back
COMBINATIONS = 5_000
#: states of one cycle of states (units repaired and damaged again) solved with exact
#: fractions: Gaussian elimination is cubic in it, on ever longer fractions (162 states: ~5 s)
FRACTION_COMPONENT = 200

#: settled states a ruleset's own cap (EC4X's ``settled_states``, scaled with a larger
#: ``--budget``) may reach at most: about 0.5 KB each, ~250 MB
MOST_SETTLED = 500_000


class TooLarge(SpacecombatError):
    """The battle is larger than the exact engine's budget allows; the message says how, in a
    person's words (``odds()`` answers by Monte Carlo instead, with it as the note)."""


def size_text(count: float) -> str:
    """Bytes as a person reads them: ``7.4 GB``, ``256 MB``."""
    if count >= 1e9:
        return f"{count / 1e9:.1f} GB"
    if count >= 1e6:
        return f"{count / 1e6:.0f} MB"
    return f"{count / 1e3:.0f} KB"


def count_text(count: float) -> str:
    """A count as a person reads it: ``8.9 trillion``, ``12 billion``, ``4,096``."""
    if count >= 1e12:
        return f"{count / 1e12:.1f} trillion"
    if count >= 1e9:
        return f"{count / 1e9:.0f} billion"
    return f"{count:,.0f}"
