"""Stock policies: deterministic answers to every decision the rulesets ask.

``StockPolicy`` follows a casualty order and a few switches (``PolicyConfig``); the exact
odds engine uses it as is. ``ScriptedPolicy`` answers from a list (tests, replays).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from functools import cached_property

from spacecombat.core.decisions import DecisionRequest, Option, Policy
from spacecombat.core.errors import IllegalChoice, ReplayError
from spacecombat.core.forces import Forces, Status

#: The casualty order of the issue and of other calculators: cheapest first.
DEFAULT_CASUALTY_ORDER: tuple[str, ...] = (
    "infantry",
    "ground_force",
    "shock_troop",
    "fighter",
    "mech",
    "mechanized_unit",
    "destroyer",
    "carrier",
    "cruiser",
    "dreadnought",
    "war_sun",
    "flagship",
)

# When a damaged unit must be destroyed, destroy first the one that sustained damage this
# round: Duranium Armor can repair only a unit that did not (issue 3; docs/rulings.md).
_DESTROY_FIRST: dict[int, int] = {
    Status.SUSTAINED_THIS_ROUND: 0,
    Status.DAMAGED: 1,
    Status.UNDAMAGED: 2,
}


@dataclass(frozen=True)
class PolicyConfig:
    """The switches of the stock policy, as a scenario's ``policy:`` gives them."""

    casualty_order: tuple[str, ...] = DEFAULT_CASUALTY_ORDER
    sustain: str = "first"
    retreat_after_round: int | None = None
    retreat_when_outnumbered: float | None = None
    retreat_to: tuple[str, ...] = ()
    retreat_takes_planet_ground_forces: bool = False
    planet_order: tuple[str, ...] = ()
    #: TI3: the order the defender takes the pre-combat steps in (first listed first)
    pre_combat_order: tuple[str, ...] = ()
    #: TI4: when to play each card held: ``"never"`` or the first round it may be played in
    #: (cards not named: at the first window where the rules offer them)
    play: tuple[tuple[str, int | str], ...] = ()
    #: how many units of each type to keep back: while a type has no more units than this
    #: among those a hit may reach, the stock policy destroys any other unit first
    #: (docs/rulings.md 22K-1); a SUSTAIN DAMAGE of a kept unit is still taken as ``sustain`` says
    keep: tuple[tuple[str, int], ...] = ()
    #: unit types a unit becomes during the battle, each with the type it was (TI4
    #: ``cavalry_UNIT``): ``keep`` counts and keeps them as that type
    alike: tuple[tuple[str, str], ...] = ()

    @property
    def may_retreat(self) -> bool:
        """Whether this policy ever announces a retreat (or a TI3 withdrawal)."""
        return self.retreat_after_round is not None or self.retreat_when_outnumbered is not None

    def rank(self, unit: str | None) -> int:
        """Place in the casualty order (units not listed go last, by name)."""
        return self._ranks.get(unit, len(self.casualty_order))

    @cached_property
    def _ranks(self) -> dict[str | None, int]:
        """Each listed unit's place in the casualty order (its first, if listed twice)."""
        ranks: dict[str | None, int] = {}
        for index, unit in enumerate(self.casualty_order):
            ranks.setdefault(unit, index)
        return ranks


def stock_policies(configs: Mapping[str, PolicyConfig]) -> dict[str, Policy]:
    """A stock policy for each player, from their configurations."""
    return {player: StockPolicy(config) for player, config in configs.items()}


def rounds_told_apart(configs: Iterable[PolicyConfig]) -> tuple[int, ...]:
    """The rounds from which the stock policies may answer differently than in the round
    before (besides round 1): "retreat after round N" announces from round N on
    (``_announce_retreat``), so between two of these rounds every round is answered alike."""
    afters = {max(1, c.retreat_after_round) for c in configs if c.retreat_after_round is not None}
    return tuple(sorted(afters - {1}))


def last_round_looked_at(configs: Iterable[PolicyConfig]) -> int:
    """The round after the last one a stock policy looks at (retreat after round N looks at
    rounds fought), and at least 2 (rules look at round 1): round numbers beyond it play
    alike, so the exact engine may cap them there."""
    configs = tuple(configs)
    afters = [c.retreat_after_round for c in configs if c.retreat_after_round is not None]
    plays = [n for c in configs for _, n in c.play if isinstance(n, int)]
    return max([2, *(n + 1 for n in afters), *(n + 1 for n in plays)])


class StockPolicy:
    """A player who follows ``config`` and never hesitates."""

    def __init__(self, config: PolicyConfig | None = None) -> None:
        self.config = config or PolicyConfig()

    def choose(self, request: DecisionRequest) -> str:
        chooser = getattr(self, f"_{request.decision}", None)
        if chooser is None:
            raise IllegalChoice(f"the stock policy cannot answer {request.decision!r}")
        option: Option = chooser(request)
        return option.text

    def _assign_hit(self, request: DecisionRequest) -> Option:
        # The first in the casualty order (``min`` keeps the first of equals, as a stable sort).
        rank = self.config.rank
        sustains = [o for o in request.options if o.action == "sustain"]
        destroys = [o for o in request.options if o.action == "destroy"]
        if self.config.keep:
            # units kept back are destroyed only when no other may be (docs/rulings.md 22K-1)
            kept = _kept(self.config.keep, self.config.alike, request.facts.get("area"))
            spare = [o for o in destroys if o.unit not in kept]
            destroys = spare or destroys
        if self.config.sustain == "first" and sustains:
            return min(sustains, key=lambda o: (rank(o.unit), o.text))

        def destroy_order(o: Option) -> tuple[int, int, str]:
            return (rank(o.unit), _DESTROY_FIRST[o.status or 0], o.text)

        if self.config.sustain == "in_order" and sustains:
            # "Don't risk Direct Hit": a unit uses SUSTAIN DAMAGE only when it is the next
            # casualty in the order; a unit Direct Hit cannot destroy sustains first anyway.
            safe = set(_names(request.facts.get("sustain_first")))
            first = [o for o in sustains if o.unit in safe]
            if first:
                return min(first, key=lambda o: (rank(o.unit), o.text))
            casualty = min(destroys, key=destroy_order)
            own = [o for o in sustains if o.unit == casualty.unit]
            return own[0] if own else casualty

        if self.config.sustain == "first" or not sustains:
            return min(destroys, key=destroy_order)
        # sustain last: destroy units that cannot sustain first; sustain only when none is left.
        sustainable = {o.unit for o in sustains}
        plain = [
            o for o in destroys if not (o.unit in sustainable and o.status == Status.UNDAMAGED)
        ]
        if plain:
            return min(plain, key=destroy_order)
        return min(sustains, key=lambda o: (rank(o.unit), o.text))

    def _play_card(self, request: DecisionRequest) -> Option:
        """Play a card when the rules offer it (they offer it only where it can change
        something), unless ``policy.play`` says ``never`` or a later round."""
        when = dict(self.config.play).get(str(request.facts.get("card")))
        wanted = when != "never"
        if isinstance(when, int):
            wanted = _num(request.facts, "round") >= when
        return _pick(request, "pass") if not wanted else request.options[0]

    def _participate_as_ships(self, request: DecisionRequest) -> Option:
        """TI4, The Alastor: every ground force in the space area participates, none from the
        planets (sending a planet's defenders into the fight risks the planet), unless
        ``policy.play`` says ``with_planets`` (all of them), ``never`` or a later round (none).
        """
        when = dict(self.config.play).get(str(request.facts.get("card")))
        if when == "never" or (isinstance(when, int) and _num(request.facts, "round") < when):
            return _pick(request, "pass")
        taken = [o for o in request.options if o.action != "pass"]
        if when != "with_planets":
            taken = [o for o in taken if o.target != "planets"]
        return max(taken, key=lambda o: o.count) if taken else _pick(request, "pass")

    def _announce_retreat(self, request: DecisionRequest) -> Option:
        facts = request.facts
        wanted = False
        # "Retreat after round N": announce in round N (step 2), so the units leave at the end
        # of round N (step 5), having fought N rounds; N = 0 is the same as 1.
        after = self.config.retreat_after_round
        if after is not None and int(_num(facts, "round")) >= after:
            wanted = True
        ratio = self.config.retreat_when_outnumbered
        if ratio is not None:
            own, enemy = _num(facts, "own_dice"), _num(facts, "enemy_dice")
            if enemy > 0 and enemy >= ratio * own:
                wanted = True
        if not wanted:
            return _pick(request, "stay")
        return next((o for o in request.options if o.text != "stay"), request.options[0])

    # TI3: the attacker withdraws, the defender retreats; the same switches decide both.
    _announce_withdrawal = _announce_retreat

    def _pre_combat_order(self, request: DecisionRequest) -> Option:
        for step in self.config.pre_combat_order:
            for option in request.options:
                if option.target == step:
                    return option
        return request.options[0]

    def _promote_shock_troops(self, request: DecisionRequest) -> Option:
        # Promotion only helps: a shock troop hits on 5 instead of 8.
        return max(request.options, key=lambda o: o.count)

    def _bombardment_mode(self, request: DecisionRequest) -> Option:
        # X-89 destroys every ground force the bombardment could reach; its price (the
        # action cards) is paid outside the battle.
        return _pick(request, "x89_bacterial_weapon")

    def _retreat_destination(self, request: DecisionRequest) -> Option:
        for name in self.config.retreat_to:
            for option in request.options:
                if option.target == name:
                    return option
        return request.options[0]

    def _retreat_transport(self, request: DecisionRequest) -> Option:
        rank = self.config.rank
        carry = [o for o in request.options if o.action == "carry"]
        if carry:  # keep the most valuable: the last in the casualty order
            return max(carry, key=lambda o: (rank(o.unit), o.text))
        lift = [o for o in request.options if o.action == "carry_from_planet"]
        if lift and self.config.retreat_takes_planet_ground_forces:
            return max(lift, key=lambda o: (rank(o.unit), o.text))
        return _pick(request, "done")

    def _stow_cargo(self, request: DecisionRequest) -> Option:
        # Every ship leaving a gravity rift has the same chance to be lost; the stock player
        # loads the first ship listed that has room (by ship name, then lightest load first).
        # simply loads the first ship listed with room (ships in name order, fullest first).
        return request.options[0]

    def _planet_order(self, request: DecisionRequest) -> Option:
        for name in self.config.planet_order:
            for option in request.options:
                if option.target == name:
                    return option
        return request.options[0]

    def _place_ground_forces(self, request: DecisionRequest) -> Option:
        # TI4 Ragh's Call: the rules list the planets where the forces help most first.
        return request.options[0]

    def _repair(self, request: DecisionRequest) -> Option:
        rank = self.config.rank
        return max(request.options, key=lambda o: (rank(o.unit), o.text))

    def _remove_excess(self, request: DecisionRequest) -> Option:
        rank = self.config.rank
        return min(request.options, key=lambda o: (rank(o.unit), o.text))


def _kept(
    keep: tuple[tuple[str, int], ...], alike: tuple[tuple[str, str], ...], area: object
) -> frozenset[str]:
    """The unit types ``keep`` holds back in ``area`` (the units where the hit lands, the
    request's fact): those with no more units there than the number kept, each counted with
    the types its units became (``alike``)."""
    if not isinstance(area, Forces):
        return frozenset()
    kept: set[str] = set()
    for unit, count in keep:
        names = (unit, *(new for new, old in alike if old == unit))
        if 0 < sum(area.count(name) for name in names) <= count:
            kept.update(names)
    return frozenset(kept)


def _names(value: object) -> tuple[str, ...]:
    """A request's fact that lists unit names (none when absent)."""
    if isinstance(value, tuple | list | frozenset | set):
        return tuple(str(v) for v in value)
    return ()


def _num(facts: Mapping[str, object], key: str) -> float:
    value = facts.get(key, 0)
    return float(value) if isinstance(value, int | float) else 0.0


def _pick(request: DecisionRequest, text: str) -> Option:
    for option in request.options:
        if option.text == text:
            return option
    return request.options[0]


class ScriptedPolicy:
    """Answers with the given texts, in order (tests, and replaying a log)."""

    def __init__(self, answers: Iterable[str]) -> None:
        self._answers = list(answers)
        self._next = 0

    def choose(self, request: DecisionRequest) -> str:
        if self._next >= len(self._answers):
            raise ReplayError(f"scripted answers ran out at {request.player}'s {request.decision}")
        answer = self._answers[self._next]
        self._next += 1
        return answer

    @property
    def remaining(self) -> int:
        return len(self._answers) - self._next
