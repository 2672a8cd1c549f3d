"""A siege solved on its own for the exact engine (7.5, 7.6; issue 24, docs/architecture.md 24R-1).

Planetary combat reads nothing of the battle but its assault (``Assault``: the strikers, the
colony as the siege began, the readings) and the siege's own state (``Siege``): bombardment
rounds (7.5.1–7.5.4), the landing (7.6.1, 7.6.2) and ground combat "until one side is
completely destroyed" (7.6.1) draw and decide from them alone. The battle's other facts (the
defender's squadrons destroyed or retreated, the rounds, who refused orders) are only carried
to the outcome. So the exact engine solves a siege apart (``SiegeSolver``), once for each of
its states, and gives the battle the distribution of the siege's last states
(``Ec4xBattle.folded``). Before, every end of space combat that led to a siege made a copy of
all of the siege's states in the battle's graph (reach battle 110: 10,859 chance states of
bombardment for 79 conditions of the units), and ground combat's rounds cycled in it.

The siege's states form no cycle but one: a ground round in which neither side reduces a unit
ends where it began (7.6.1 "Repeat the process"; its number is not read). That loop is taken
out at once: the round's other ends, each divided by one less the chance of the loop (the
chance of leaving the state through each of them, however many times the round is fought
again first). Any other state met again while its ends are sought gives up the solve (the
battle's graph then explores the siege as before).
"""

from __future__ import annotations

from collections.abc import Mapping
from fractions import Fraction

from spacecombat.analysis.graph import TooManyStates, Weight, chances, following
from spacecombat.core.decisions import Policy, decide
from spacecombat.core.engine import Chance, Decision, Draw, Step
from spacecombat.rulesets.ec4x.planetary.process import advance
from spacecombat.rulesets.ec4x.planetary.siege import Assault, Siege, Stage

#: the siege's stages from the landing on: ground rounds play alike whatever their number
#: (7.6.1 "Repeat the process")
GROUND_STAGES = Stage.LAND

Ends = dict[Siege, Weight]


def canonical_siege(siege: Siege) -> Siege:
    """The siege as what follows reads it: a ground round's number is never read (7.6.1)."""
    if siege.stage >= GROUND_STAGES and siege.round > 1:
        return siege.at(siege.stage, round=1)
    return siege


class Cycle(Exception):
    """A state of the siege met again while its ends are sought, other than a ground round's
    loop: the siege is not solved apart."""


class SiegeSolver:
    """The last states (``DONE``) of one assault's siege from any of its states, each with its
    chance, the decisions taken by ``policies`` (the attacker's choice of ground units, 7.5.4,
    7.6.1). Memoised by state, so the sieges the battle's many ends of space combat begin share
    what they have in common. ``work``: the outcomes of draws followed so far (the caller
    bounds it)."""

    def __init__(self, assault: Assault, policies: Mapping[str, Policy], *, exact: bool) -> None:
        self.assault = assault
        self.policies = policies
        self.exact = exact
        self.work = 0
        #: the most ``work`` may reach (``TooManyStates`` beyond; the caller sets it)
        self.most_work: int | None = None
        self._ends: dict[Siege, Ends] = {}
        #: where the steps and decisions from a state lead: the next draw's state or the end
        self._next: dict[Siege, Siege] = {}
        #: the draws' states whose ends are being sought (a loop back to one is a cycle)
        self._open: set[Siege] = set()

    def ends(self, siege: Siege) -> Ends | None:
        """The siege's last states from ``siege`` with their chances; None if it cycles."""
        try:
            return self._ends_of(self._settle(canonical_siege(siege)))
        except Cycle:
            self._open.clear()
            return None

    def _settle(self, siege: Siege) -> Siege:
        """The state of the next draw (or the end) after ``siege``'s steps and decisions."""
        known = self._next.get(siege)
        if known is not None:
            return known
        passed = [siege]
        current = siege
        while current.stage is not Stage.DONE:
            node = advance(self.assault, current)
            if isinstance(node, Step):
                step = node
            elif isinstance(node, Decision):
                step = node.then(decide(node.request, self.policies))
            else:
                break
            current = canonical_siege(step.state)
            known = self._next.get(current)
            if known is not None:
                current = known
                break
            passed.append(current)
        for state in passed:
            self._next[state] = current
        return current

    def _ends_of(self, siege: Siege) -> Ends:
        """``ends`` from a settled state (a draw's or the end)."""
        known = self._ends.get(siege)
        if known is not None:
            return known
        if siege.stage is Stage.DONE:
            itself: Ends = {siege: Fraction(1) if self.exact else 1.0}
            self._ends[siege] = itself
            return itself
        node = advance(self.assault, siege)
        assert isinstance(node, Draw | Chance), "a settled state of a siege draws"
        self._open.add(siege)
        outcomes = chances(node, self.exact)
        self.work += len(outcomes)
        if self.most_work is not None and self.work > self.most_work:
            self._open.clear()
            raise TooManyStates(self.most_work, where="while planetary combat was solved")
        after: dict[Siege, Weight] = {}
        for face, weight in outcomes.items():
            then = self._settle(canonical_siege(following(node, face).state))
            after[then] = after.get(then, 0) + weight
        found: Ends = {}
        for then, weight in after.items():
            if then in self._open:
                if not self._loops(then):
                    raise Cycle
                # back where a ground round began: kept as an end until that state's own ends
                # are found (a draw of that round is reached only from it)
                found[then] = found.get(then, 0) + weight
                continue
            for last, chance in self._ends_of(then).items():
                found[last] = found.get(last, 0) + weight * chance
        loop = found.pop(siege, 0) if self._loops(siege) else 0
        if loop:
            # the ground round fought again from where it began, until it leaves
            left = 1 - loop
            if not left:
                raise Cycle  # a round that can never be left: the battle's graph reports it
            found = {last: chance / left for last, chance in found.items()}
        self._open.discard(siege)
        self._ends[siege] = found
        return found

    @staticmethod
    def _loops(siege: Siege) -> bool:
        """A ground round's first draw: the one state a round may end where it began."""
        return siege.stage is Stage.GROUND and not siege.rolls
