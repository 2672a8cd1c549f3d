"""The odds report: who holds the system (or takes each planet), win / draw / loss (and no combat
at all), survivors, expected losses, rounds.

Each battle end counts under its own result, as the resolver names it: ``attacker_win``,
``defender_win``, ``draw``, and, beside them, ``no_combat`` (space cannon offense, or capacity
checked before the battle, left a player without ships, so no combat was fought), TI3's
``stalemate`` and a multi-planet invasion's ``mixed``; so a scenario gets the same answer from
``resolve`` and ``odds``.

What a player reads first is beside them: in a space battle, who holds the space area of the
active system once the battle is over (``holds``: the player whose ships are left in it, whether
combat was fought or not, a retreat leaving it to the other player; docs/rulings.md 22H-1); in an
invasion, the chance that the attacker takes each planet (``taken``)."""

from __future__ import annotations

from collections.abc import Callable, Hashable, Mapping
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any, Protocol

from spacecombat.analysis.graph import Terminal, Weight
from spacecombat.core.outcome import holders, stays_in_space

PLAYERS = ("attacker", "defender")
#: a headline probability's place in a report: a name, or a group and a name
#: (``OddsReport.headlines``)
Place = tuple[str, ...]
#: who may hold the space area once a space battle is over, in the order reports list them
HOLDERS = (*PLAYERS, "neither")


class Accountant(Protocol):
    """What the report needs from a ruleset's battle."""

    def survivors(self, outcome: Mapping[str, object], player: str) -> dict[str, int]: ...

    def losses(self, outcome: Mapping[str, object], player: str) -> float: ...


@dataclass
class OddsReport:
    """A battle's odds. Probabilities are floats, or ``Fraction`` when computed exactly so."""

    attacker_win: Weight
    defender_win: Weight
    draw: Weight
    residual: Weight
    method: str
    other: dict[str, Weight] = field(default_factory=dict)
    survivors: dict[str, Any] = field(default_factory=dict)
    expected_losses: dict[str, float] = field(default_factory=dict)
    rounds: dict[str, Any] = field(default_factory=dict)
    confidence: dict[str, Any] | None = None
    after_rounds: dict[str, Any] | None = None
    trials: int | None = None
    #: Monte Carlo's stopping rule, when it was on (docs/protocol.md): the half-width asked for
    #: (``target``), the widest headline interval's when it stopped (``widest``), and whether
    #: every headline got within the target (``reached``) or the trials ran out first
    precision: dict[str, Any] | None = None
    note: str | None = None
    #: what a player should know before the dice (``Battle.notices()``), one sentence each
    notices: list[str] = field(default_factory=list)
    #: a battle of houses (EC4X): for each house the chance of each fate (``holds``,
    #: ``retreated``, ``destroyed``, ``not_engaged``), its expected losses and its survivors;
    #: then ``attacker_win``, ``defender_win`` and ``draw`` are not part of the report
    houses: dict[str, dict[str, Any]] | None = None
    #: a battle for a colony (EC4X planetary combat): the chance that it falls, is seized, of
    #: each planetary result, and what is expected to be left of it
    colony: dict[str, Any] | None = None
    #: for each player who may retreat: the chance that they do (the battle then counts as the
    #: other player's win) and what gets away, apart from the survivors of a win
    retreats: dict[str, dict[str, Any]] = field(default_factory=dict)
    #: an invasion of several planets: for each planet, the chance that the attacker takes it
    #: and each player's ground forces left on it
    planets: dict[str, dict[str, Any]] = field(default_factory=dict)
    #: a space battle: the chance that each player (or neither) holds the space area of the
    #: active system once the battle is over (``HOLDERS``)
    holds: dict[str, Weight] | None = None
    #: an invasion: for each planet, the chance that the attacker takes it
    taken: dict[str, Weight] | None = None

    @property
    def no_combat(self) -> Weight:
        """The probability that no combat is fought at all (0 when it cannot happen)."""
        zero: Weight = Fraction(0) if isinstance(self.residual, Fraction) else 0.0
        return self.other.get("no_combat", zero)

    def headlines(self) -> dict[Place, Weight]:
        """The headline probabilities (docs/protocol.md), each by its place in ``confidence``
        (one name, or a group and a name): a battle of players' results (``attacker_win``,
        ``defender_win``, ``draw``, and any other, e.g. ``no_combat``), who holds the space
        area (``holds``) and each planet taken (``taken``); a battle of houses (EC4X) each
        house's chance of each fate, each result (``results``), and the colony's chance to
        fall and to be seized (``colony``). Monte Carlo gives a 95% interval for each, and
        stops when every one is narrow enough."""
        out: dict[Place, Weight] = {}
        if self.houses is None:
            for name in ("attacker_win", "defender_win", "draw"):
                out[(name,)] = getattr(self, name)
            for name, chance in self.other.items():
                out[(name,)] = chance
            for shares, key in ((self.holds, "holds"), (self.taken, "taken")):
                if shares is not None:
                    for name, chance in shares.items():
                        out[(key, name)] = chance
            return out
        for house, facts in self.houses.items():
            for fate in FATES:
                out[(house, fate)] = facts[fate]
        for name, chance in self.other.items():
            out[("results", name)] = chance
        if self.colony is not None:
            out[("colony", "falls")] = self.colony["falls"]
            out[("colony", "seized")] = self.colony["seized"]
        return out

    def fractions_json(self) -> dict[str, Any]:
        """The headline probabilities computed as exact fractions, as strings (``"279/289"``),
        by their places in the report (``spacecombat odds --fractions``; the report's other
        figures, and a house's fates, are floats)."""
        out: dict[str, Any] = {}
        for place, chance in self.headlines().items():
            if isinstance(chance, Fraction):
                if len(place) == 1:
                    out[place[0]] = str(chance)
                else:
                    out.setdefault(place[0], {})[place[1]] = str(chance)
        if isinstance(self.residual, Fraction):
            out["residual"] = str(self.residual)
        return out

    def to_json(self) -> dict[str, Any]:
        """The report with plain floats (the names of the issue: attacker_win, ...)."""
        if self.houses is not None:
            return self._houses_json()
        out: dict[str, Any] = {
            "attacker_win": float(self.attacker_win),
            "defender_win": float(self.defender_win),
            "draw": float(self.draw),
            "residual": float(self.residual),
            "method": self.method,
        }
        out.update({k: float(v) for k, v in self.other.items()})
        if self.holds is not None:
            out["holds"] = {k: float(v) for k, v in self.holds.items()}
        if self.taken is not None:
            out["taken"] = {k: float(v) for k, v in self.taken.items()}
        out["survivors"] = self.survivors
        out["expected_losses"] = self.expected_losses
        out["rounds"] = self.rounds
        if self.retreats:
            out["retreats"] = self.retreats
        if self.planets:
            out["planets"] = self.planets
        if self.trials is not None:
            out["trials"] = self.trials
        if self.precision is not None:
            out["precision"] = self.precision
        if self.confidence is not None:
            out["confidence_95"] = self.confidence
        if self.after_rounds is not None:
            out["after_rounds"] = self.after_rounds
        if self.note is not None:
            out["note"] = self.note
        if self.notices:
            out["notices"] = list(self.notices)
        return out

    def _houses_json(self) -> dict[str, Any]:
        """A battle of houses: who holds the system (``results``), and each house's fates."""
        assert self.houses is not None
        out: dict[str, Any] = {
            "method": self.method,
            "results": {k: float(v) for k, v in self.other.items()},
            "houses": self.houses,
            "residual": float(self.residual),
            "rounds": self.rounds,
        }
        if self.colony is not None:
            out["colony"] = self.colony
        for name in ("trials", "precision", "confidence", "after_rounds", "note"):
            value = getattr(self, name)
            if value is not None:
                out["confidence_95" if name == "confidence" else name] = value
        if self.notices:
            out["notices"] = list(self.notices)
        return out


#: a house's fates in a battle of houses (EC4X), in the order reports list them
FATES = ("holds", "retreated", "destroyed", "not_engaged")


Fleet = tuple[tuple[str, int], ...]


@dataclass
class Accounts:
    """What the report adds up over the battle's ends: each result's chance, each player's
    surviving fleets and expected losses, each player's retreats and, in an invasion of several
    planets, each planet's fate. An end can be added whole (``end``), or, where the exact engine
    knows that a player's part of an end depends on that player's units alone, as its result
    (``result``) and each player's part apart (``player``)."""

    zero: Weight
    results: dict[str, Weight] = field(default_factory=dict)
    fleets: dict[str, dict[Fleet, float]] = field(default_factory=dict)
    losses: dict[str, float] = field(default_factory=dict)
    retreats: dict[str, float] = field(default_factory=dict)
    retreat_fleets: dict[str, dict[Fleet, float]] = field(default_factory=dict)
    #: an invasion of several planets: each player's ground forces left on each planet
    planet_fleets: dict[str, dict[str, dict[Fleet, float]]] = field(default_factory=dict)
    #: a space battle's ends: who holds the space area (``HOLDERS``); ``None`` until one is added
    holds: dict[str, Weight] | None = None
    #: an invasion's ends: for each planet, the chance that the attacker takes it, and of each
    #: of its results (every invasion, one planet or several: ``result``)
    taken: dict[str, Weight] = field(default_factory=dict)
    planet_outcomes: dict[str, dict[str, Weight]] = field(default_factory=dict)
    #: an invasion's ends: the chance that the attacker takes every planet
    taken_all: Weight = 0.0
    #: the chance of each result alone (``results`` has the yes/no facts besides)
    outcomes: dict[str, Weight] = field(default_factory=dict)

    def __post_init__(self) -> None:
        self.taken_all = self.zero

    def end(self, battle: Accountant, outcome: Mapping[str, object], chance: Weight) -> None:
        """One battle end, whole."""
        self.result(outcome, chance)
        for player in PLAYERS:
            self.player(battle, outcome, player, chance)
        self.planet_results(battle, outcome, chance)
        if is_space(outcome):
            stays = [stays_in_space(battle, outcome, player) for player in PLAYERS]
            self.hold(*(chance if here else self.zero for here in holders(*stays)))

    def result(self, outcome: Mapping[str, object], chance: Weight) -> None:
        """The end's result, and each yes/no fact of it (TI3's planet_taken) as a probability;
        in an invasion, whether the attacker took each planet (its record's ``controller``)."""
        self.add(str(outcome.get("result")), chance)
        named = str(outcome.get("result"))
        self.outcomes[named] = self.outcomes.get(named, self.zero) + chance
        for name, value in outcome.items():
            if isinstance(value, bool):
                self.add(name, chance if value else self.zero)
        records = outcome.get("planets")
        if isinstance(records, list):
            if all(record.get("controller") == "attacker" for record in records):
                self.taken_all += chance
            for record in records:
                name = str(record.get("planet"))
                took = record.get("controller") == "attacker"
                self.taken[name] = self.taken.get(name, self.zero) + (chance if took else 0)
                seen = self.planet_outcomes.setdefault(name, {})
                result = str(record.get("result"))
                seen[result] = seen.get(result, self.zero) + chance

    def hold(self, attacker: Weight, defender: Weight, neither: Weight) -> None:
        """More chance that the attacker, the defender or neither holds the space area."""
        held = self.holds
        if held is None:
            held = self.holds = dict.fromkeys(HOLDERS, self.zero)
        for name, chance in zip(HOLDERS, (attacker, defender, neither), strict=True):
            held[name] += chance

    def add(self, name: str, chance: Weight) -> None:
        """``chance`` more for the result or fact ``name``."""
        self.results[name] = self.results.get(name, self.zero) + chance

    def player(
        self, battle: Accountant, outcome: Mapping[str, object], player: str, chance: Weight
    ) -> None:
        """``player``'s part of an end: survivors, losses, and whether they retreated."""
        units = tuple(sorted(battle.survivors(outcome, player).items()))
        self.fleet(player, units, float(chance))
        self.loss(player, float(chance) * battle.losses(outcome, player))
        # TI4 says "retreat"; TI3 "withdrawal" for the attacker's withdrawal and the defender's
        # retreat alike
        retreat = outcome.get("retreat") or outcome.get("withdrawal")
        if isinstance(retreat, Mapping) and retreat.get("player") == player:
            self.retreats[player] = self.retreats.get(player, 0.0) + float(chance)
            away = self.retreat_fleets.setdefault(player, {})
            away[units] = away.get(units, 0.0) + float(chance)

    def fleet(self, player: str, units: Fleet, chance: float) -> None:
        """``chance`` more that ``player`` is left with ``units``."""
        kept = self.fleets.setdefault(player, {})
        kept[units] = kept.get(units, 0.0) + chance

    def loss(self, player: str, expected: float) -> None:
        """``expected`` more resources lost by ``player`` (a loss times its chance)."""
        self.losses[player] = self.losses.get(player, 0.0) + expected

    def planet_results(
        self, battle: Accountant, outcome: Mapping[str, object], chance: Weight
    ) -> None:
        """An invasion of several planets: each planet's result and ground forces left."""
        records = outcome.get("planets")
        if not isinstance(records, list) or len(records) < 2:
            return
        for record in records:
            self.planet(battle, record, chance)

    def planet(self, battle: Accountant, record: Mapping[str, object], chance: Weight) -> None:
        """One planet's record (``core/outcome.planet_record``) at one end: its survivors are
        what ``battle.survivors`` counts of the units on it (an invasion's ground forces). (Who
        took it and its result are counted with the end's result: ``result``.)"""
        for player in PLAYERS:
            self.planet_player(battle, record, player, chance)

    def planet_player(
        self, battle: Accountant, record: Mapping[str, object], player: str, chance: Weight
    ) -> None:
        """One player's ground forces left on one planet (its record) at some ends."""
        mine = self.planet_fleets.setdefault(str(record.get("planet")), {})
        alone = {player: {"planets": [record.get(player)]}}
        units = tuple(sorted(battle.survivors(alone, player).items()))
        kept = mine.setdefault(player, {})
        kept[units] = kept.get(units, 0.0) + float(chance)

    def survivors(self, player: str) -> dict[str, Any]:
        return survivors_report(self.fleets.get(player, {}))

    def expected_losses(self, player: str) -> float:
        return round(self.losses.get(player, 0.0), 12)

    def retreat_report(self) -> dict[str, dict[str, Any]]:
        return {
            player: {
                "probability": min(1.0, chance),
                "survivors": survivors_report(self.retreat_fleets.get(player, {})),
            }
            for player, chance in self.retreats.items()
            if chance > 0
        }

    def planet_report(self) -> dict[str, dict[str, Any]]:
        """Each planet invaded: the chance that the attacker takes it, of each of its results,
        and each player's ground forces left on it (one planet: its fight is the invasion's,
        its ground forces the survivors)."""
        if len(self.taken) == 1 and not self.planet_fleets:
            name = next(iter(self.taken))
            fleets = {p: self.survivors(p) for p in PLAYERS}
            return {name: self._planet(name, fleets)}
        return {
            name: self._planet(name, {p: survivors_report(f) for p, f in players.items()})
            for name, players in self.planet_fleets.items()
        }

    def _planet(self, name: str, survivors: dict[str, Any]) -> dict[str, Any]:
        return planet_entry(self.taken[name], self.planet_outcomes[name], survivors)


def planet_entry(
    taken: Weight, results: Mapping[str, Weight], survivors: dict[str, Any]
) -> dict[str, Any]:
    """A planet's part of a report: the chance that the attacker takes it, of each of its
    results (likeliest first), and each player's ground forces left on it."""
    return {
        "taken": float(taken),
        "results": {
            result: float(p) for result, p in sorted(results.items(), key=lambda item: -item[1])
        },
        "survivors": survivors,
    }


def summarise(
    battle: Accountant,
    ends: Mapping[Terminal, Weight],
    residual: Weight,
    by_round: Mapping[int, float],
    still_fighting: float,
    *,
    method: str,
    accounts: Accounts | None = None,
) -> OddsReport:
    """Fold the probability of each battle end into the report (``accounts``: ends already
    added up by a solver that adds players' parts apart)."""
    if any("houses" in end.outcome for end in ends):
        return _summarise_houses(battle, ends, residual, by_round, still_fighting, method=method)
    zero: Weight = Fraction(0) if isinstance(residual, Fraction) else 0.0
    if accounts is None:
        accounts = Accounts(zero)
    for end, chance in ends.items():
        accounts.end(battle, end.outcome, chance)
    results = dict(accounts.results)
    return OddsReport(
        attacker_win=results.pop("attacker_win", zero),
        defender_win=results.pop("defender_win", zero),
        draw=results.pop("draw", zero),
        residual=residual,
        method=method,
        other=results,
        survivors={p: accounts.survivors(p) for p in PLAYERS},
        expected_losses={p: accounts.expected_losses(p) for p in PLAYERS},
        rounds=rounds_report(by_round, still_fighting),
        retreats=accounts.retreat_report(),
        planets=accounts.planet_report(),
        holds=accounts.holds,
        taken=accounts.taken or None,
    )


def is_space(outcome: Mapping[str, object]) -> bool:
    """Whether ``outcome`` ends a space battle (whose space area someone may hold)."""
    return outcome.get("battle") == "space"


def _summarise_houses(
    battle: Accountant,
    ends: Mapping[Terminal, Weight],
    residual: Weight,
    by_round: Mapping[int, float],
    still_fighting: float,
    *,
    method: str,
) -> OddsReport:
    """A battle of houses: the chance of each result (the house left holding the system,
    ``shared``, ``none``…) and, for each house, of each fate, with losses and survivors."""
    zero: Weight = Fraction(0) if isinstance(residual, Fraction) else 0.0
    accounts = Accounts(zero)
    fates: dict[str, dict[str, Weight]] = {}
    for end, chance in ends.items():
        outcome = end.outcome
        accounts.add(str(outcome.get("result")), chance)
        houses = outcome.get("houses")
        assert isinstance(houses, Mapping)
        for house, facts in houses.items():
            assert isinstance(facts, Mapping)
            fate = str(facts.get("fate"))
            mine = fates.setdefault(house, dict.fromkeys(FATES, zero))
            mine[fate] = mine.get(fate, zero) + chance
            accounts.player(battle, outcome, house, chance)
    colony = _colony(ends)
    houses_report = {
        house: {
            **{fate: float(p) for fate, p in fates[house].items()},
            "expected_losses": accounts.expected_losses(house),
            "survivors": accounts.survivors(house),
        }
        for house in fates
    }
    return OddsReport(
        attacker_win=zero,
        defender_win=zero,
        draw=zero,
        residual=residual,
        method=method,
        other=accounts.results,
        rounds=rounds_report(by_round, still_fighting),
        houses=houses_report,
        colony=colony,
    )


#: what is left of a colony, in the report: counts, and ground units standing
COLONY_COUNTS = ("iu", "pu", "shield", "spaceports")
COLONY_UNITS = ("batteries", "armies", "marines")


def _colony(ends: Mapping[Terminal, Weight]) -> dict[str, Any] | None:
    """The colony's fate over the battle's ends, when it is attacked from orbit (EC4X 7.5,
    7.6): the chance that it falls and that its assets are seized, of each planetary result,
    and the expected IU, PU, shield level, spaceports and ground units left (standing:
    undamaged or crippled, seized ones included, for its owner after the battle)."""
    blocks: list[tuple[Mapping[str, object], Weight]] = []
    for end, chance in ends.items():
        block = end.outcome.get("colony")
        if isinstance(block, Mapping) and "fallen" in block:
            blocks.append((block, chance))
    if not blocks:
        return None
    # the chances are summed as they come (exact fractions stay exact: Monte Carlo's counts
    # over its trials) and made floats once
    zero: Weight = Fraction(0) if isinstance(blocks[0][1], Fraction) else 0.0
    results: dict[str, Weight] = {}
    fallen = seized = zero
    left = dict.fromkeys(COLONY_COUNTS + COLONY_UNITS, 0.0)
    for block, chance in blocks:
        name = str(block.get("result"))
        results[name] = results.get(name, zero) + chance
        fallen += chance if block.get("fallen") else zero
        seized += chance if block.get("seized") else zero
        for key in COLONY_COUNTS:
            left[key] += float(chance) * float(str(block.get(key) or 0))
        for key in COLONY_UNITS:
            units = block.get(key)
            if isinstance(units, Mapping):
                standing = sum(int(units.get(k) or 0) for k in ("undamaged", "crippled", "seized"))
                left[key] += float(chance) * standing
    return {
        "falls": float(fallen),
        "seized": float(seized),
        "results": {
            name: float(p) for name, p in sorted(results.items(), key=lambda item: -item[1])
        },
        "expected_left": {key: round(value, 12) for key, value in left.items()},
    }


def survivors_report(fleets: Mapping[tuple[tuple[str, int], ...], float]) -> dict[str, Any]:
    # most likely first; chances equal but for float noise (sums taken in another order) are
    # ranked by the fleet, so the order never hangs on the last bits
    ranked = sorted(fleets.items(), key=lambda item: (-round(item[1], 12), item[0]))
    at_least: dict[int, float] = {}
    for units, chance in fleets.items():
        total = sum(n for _, n in units)
        for k in range(1, total + 1):
            at_least[k] = at_least.get(k, 0.0) + chance
    return {
        # (a sum of floats may pass 1 by a rounding error: a probability never does)
        "fleets": [
            {"units": dict(units), "probability": min(1.0, chance)} for units, chance in ranked
        ],
        "at_least": {str(k): min(1.0, at_least[k]) for k in sorted(at_least)},
    }


def rounds_report(by_round: Mapping[int, float], still: float) -> dict[str, Any]:
    total = sum(by_round.values())
    mean = sum(r * p for r, p in by_round.items()) / total if total else 0.0
    return {
        "distribution": {str(r): by_round[r] for r in sorted(by_round)},
        "expected": mean,
        "unfinished": still,
    }


#: what an end hands over to the next stage of a tactical action (its final state's
#: ``Terminal`` to a hashable key)
Split = Callable[[Terminal], Hashable]


@dataclass
class Parts:
    """A battle solved, before its report: the accounts of its ends, the chance left
    unsolved, the rounds; with ``split``, the ends where the attacker holds the space area,
    by what they hand over to the next stage of a tactical action and their result
    (``handed``)."""

    accounts: Accounts
    split: Split | None = None
    residual: Weight = 0.0
    by_round: dict[int, float] = field(default_factory=dict)
    still: float = 0.0
    handed: dict[Hashable, dict[str, Weight]] = field(default_factory=dict)

    def hand(self, key: Hashable, result: str, chance: Weight) -> None:
        """``chance`` more that the battle ends handing ``key`` over, with ``result``."""
        by_result = self.handed.setdefault(key, {})
        by_result[result] = by_result.get(result, self.accounts.zero) + chance

    def add_ends(self, battle: Accountant, ends: Mapping[Terminal, Weight]) -> None:
        """Battle ends, whole (and, with ``split``, those the attacker holds the space area
        at, by what they hand over)."""
        for end, chance in ends.items():
            self.accounts.end(battle, end.outcome, chance)
            if self.split is not None and is_space(end.outcome):
                stays = [stays_in_space(battle, end.outcome, p) for p in PLAYERS]
                if stays == [True, False]:
                    self.hand(self.split(end), str(end.outcome.get("result")), chance)

    def report(self, battle: Accountant) -> OddsReport:
        return summarise(
            battle,
            {},
            self.residual,
            self.by_round,
            self.still,
            method="exact",
            accounts=self.accounts,
        )
