"""One player's round tables shared across battles (a sweep's points, docs/architecture.md,
"Sweeps").

In product form (``core/rounds.py``) a player's steps of a round read that player's units and
nothing of the other player's: the dice they roll (``pool``), whether they are still in the
fight (``alive``) and the units they are left with after taking 1, 2, ... hits
(``after_hits_row``). The odds engine already relies on it: it builds each player's chain from
one template state for every entry of the rounds (``analysis/product.py``). What else those
steps read is fixed by the battle's setup: the scenario's rules, options and policies and
that player's faction, technologies and policy.

So when a sweep solves many battles that differ only in the other player's units (and in
counts of one's own, which are the states of the chain), the tables can be shared: ``sharing``
sets, for the battles solved inside it, a key per player standing for everything the setup
says of that player (``player_key``: the scenario without the players' units, derived from
the scenario, not listed by hand), and ``build_chains`` asks ``wrap`` for a form whose
per-player steps are remembered under ``(step, token, units)`` (and a whole chain under its
starts and the most hits a round: ``chain``), the token standing for the key, the player and
``where``: the form, the arena and the template state without the units (``_where``).
The form's own walks of taking hits (the decisions ``after_hits_row`` is made of) are shared
too, by the battles of one setup (``PlayerRounds.share_walks``), so a battle whose fleet is new
to the cache makes only the decisions no earlier battle made. ``tests/sweep/test_cache.py``
checks cached against uncached answers over thousands of random pairs to 1e-12.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Hashable, Iterator, Mapping
from contextlib import contextmanager
from contextvars import ContextVar
from typing import Any, TypeVar

from spacecombat.core.pool import DicePool
from spacecombat.core.rounds import PlayerRounds

#: entries a cache keeps before it starts again (a few MB of round tables)
MOST_ENTRIES = 200_000


class PartsCache:
    """Per-player round tables, by key; cleared whole when it reaches ``MOST_ENTRIES``."""

    def __init__(self, most: int = MOST_ENTRIES) -> None:
        self.most = most
        self.tables: dict[Hashable, Any] = {}
        self.hits = 0
        self.misses = 0
        self._tokens: dict[Hashable, int] = {}
        self._issued = 0

    def get(self, key: Hashable) -> Any:
        found = self.tables.get(key, _MISSING)
        if found is _MISSING:
            self.misses += 1
        else:
            self.hits += 1
        return found

    def put(self, key: Hashable, value: Any) -> None:
        if len(self.tables) >= self.most:
            self.tables.clear()
            # the numbers handed out stay taken (a battle being solved may still use its
            # own): a ``long`` met again gets a new one
            self._tokens.clear()
        self.tables[key] = value

    def token(self, long: Hashable) -> int:
        """A small number standing for ``long`` (a player's key with the form and template
        it is read from) in this cache: equal for equal ``long`` until the cache starts
        again, never the number of another ``long``, so that a look-up hashes the number, not
        the whole template state again."""
        found = self._tokens.get(long)
        if found is None:
            found = self._tokens[long] = self._issued
            self._issued += 1
        return found


_MISSING = object()
T = TypeVar("T")
_ACTIVE: ContextVar[tuple[PartsCache, Mapping[str, Hashable]] | None] = ContextVar(
    "spacecombat_parts_cache", default=None
)


def player_key(scenario: Mapping[str, Any], player: str) -> str:
    """Everything a scenario says that ``player``'s steps of a round may read besides the units
    they are given: the whole scenario but both players' units. The other player's units they
    never read (product form); their own units are the argument of each step (``pool``,
    ``alive``, ``after_hits_row`` are keyed by them), and the units a player started the
    battle with are one more state of its chain, read through the state like any other (so a
    battle with 3 cruisers meets the tables another battle made for its 4 cruisers after a
    hit). ``tests/sweep/test_cache.py`` checks this over random battles and variants where one
    player's units are drawn again, sharing one cache."""
    return battle_key(scenario)


def battle_key(scenario: Mapping[str, Any]) -> str:
    """Everything a scenario says that the end of a combat may read besides the two players'
    units (which the end's state holds): the scenario without either player's units."""
    reduced = dict(scenario)
    for player in ("attacker", "defender"):
        side = reduced.get(player)
        if isinstance(side, Mapping):
            reduced[player] = {k: v for k, v in side.items() if k != "units"}
    return json.dumps(reduced, sort_keys=True, separators=(",", ":"), default=str)


@contextmanager
def sharing(cache: PartsCache, scenario: Mapping[str, Any]) -> Iterator[None]:
    """Battles solved inside share ``cache``'s round tables, keyed from ``scenario`` (the
    decoded scenario being solved)."""
    keys = {player: player_key(scenario, player) for player in ("attacker", "defender")}
    keys["battle"] = battle_key(scenario)
    token = _ACTIVE.set((cache, keys))
    try:
        yield
    finally:
        _ACTIVE.reset(token)


def _where(form: Any, template: Any) -> Hashable:
    """What of the template state, besides the units, a part may read: the form, the arena,
    and the template without the two players' units (the round, the phase, the cards used,
    what a tactical action carried from its space combat, ...). Within one battle the engine
    reads every part from one template; across battles, only parts read from templates that
    agree on all of this are shared."""
    arena = form.arena(template) if hasattr(form, "arena") else None
    fields = getattr(template, "_fields", ())
    rest = template._replace(attacker=None, defender=None) if "attacker" in fields else template
    return (type(form).__qualname__, arena, rest)


def wrap(form: Any, template: Any) -> Any:
    """``form`` itself, or, inside ``sharing``, a form remembering its per-player steps (and
    ``form`` made to keep its walks of taking hits in the tables of the battle's setup)."""
    active = _ACTIVE.get()
    if active is None:
        return form
    cache, keys = active
    where = _where(form, template)
    if isinstance(form, PlayerRounds):
        # the walks of taking hits, shared by the battles of one setup (their decisions)
        walks = ("walks", cache.token(("walks", keys["battle"], where)))
        shared = cache.get(walks)
        if shared is _MISSING:
            shared = {}
            cache.put(walks, shared)
        form.share_walks(shared)
    return _Remembering(form, cache, keys, where)


def chain(form: Any, player: str, starts: list[Any], most: int, build: Callable[[], T]) -> T:
    """``build()``, a player's chain from ``starts``; remembered across battles when ``form``
    is one ``wrap`` made inside ``sharing``."""
    if isinstance(form, _Remembering):
        return form.chain(player, tuple(starts), most, build)
    return build()


def ends(form: Any, template: Any) -> Callable[[Hashable, Callable[[], T]], T]:
    """Where the end of the combat leaves a pair of units (``pair``: both players' units and
    who announced a retreat), for the pairs of one battle's template: ``settle()``,
    remembered across battles inside ``sharing``. Once a round has put a player out, what the
    end of the combat does depends on the two players' units and who announced, not on the
    round (``product_odds._account`` already settles every pair from one template state), and
    on the battle's setup: ``battle_key``. The part of the key that does not depend on the
    pair is worked out once."""
    active = _ACTIVE.get()
    if active is None:
        return lambda pair, settle: settle()
    cache, keys = active
    prefix = cache.token(("end", keys["battle"], _where(form, template)))

    def remembered(pair: Hashable, settle: Callable[[], T]) -> T:
        key = ("end", prefix, pair)
        found = cache.get(key)
        if found is _MISSING:
            found = settle()
            cache.put(key, found)
        known: T = found
        return known

    return remembered


class _Remembering:
    """A product form whose ``pool``, ``alive`` and ``after_hits_row`` are remembered across
    battles; everything else is the form's own."""

    def __init__(
        self,
        form: Any,
        cache: PartsCache,
        keys: Mapping[str, Hashable],
        where: Hashable,
    ) -> None:
        self._form = form
        self._cache = cache
        self._prefix = {
            player: cache.token((keys[player], player, where))
            for player in ("attacker", "defender")
        }

    def __getattr__(self, name: str) -> Any:
        return getattr(self._form, name)

    def _key(self, step: str, player: str, *rest: Hashable) -> Hashable:
        return (step, self._prefix[player], *rest)

    def _remembered(self, key: Hashable, compute: Callable[[], Any]) -> Any:
        found = self._cache.get(key)
        if found is _MISSING:
            found = compute()
            self._cache.put(key, found)
        return found

    def pool(self, player: str, units: Any, template: Any) -> DicePool:
        pool: DicePool = self._remembered(
            self._key("pool", player, units), lambda: self._form.pool(player, units, template)
        )
        return pool

    def alive(self, player: str, units: Any, template: Any) -> bool:
        return bool(
            self._remembered(
                self._key("alive", player, units),
                lambda: self._form.alive(player, units, template),
            )
        )

    def chain(self, player: str, starts: tuple[Any, ...], most: int, build: Callable[[], T]) -> T:
        """A player's whole chain (``product.build_chain``) from ``starts`` under up to
        ``most`` hits a round: built from nothing but this form's ``pool``, ``alive`` and
        ``after_hits_row`` of that player's units reachable from ``starts`` (whose keys hold
        the player's key and ``where``), so it is remembered under the same key with the
        starts, in their order, and ``most``. Its arrays are made read-only: a battle that
        meets the chain again cannot change it."""
        found = self._cache.get(self._key("chain", player, starts, most))
        if found is _MISSING:
            found = build()
            for array in (found.hits, found.after, found.alive):  # type: ignore[attr-defined]
                array.setflags(write=False)
            self._cache.put(self._key("chain", player, starts, most), found)
        known: T = found
        return known

    def after_hits_row(self, player: str, units: Any, most: int, template: Any) -> list[Any]:
        """The row for 1, ..., ``most`` hits. Its entry for h hits is ``after_hits`` for h hits
        (``ProductForm.after_hits_row``), whatever ``most`` is: so one row is kept for the
        units, the longest asked for, and a shorter one is its beginning."""
        key = self._key("row", player, units)
        found = self._cache.get(key)
        if found is _MISSING or len(found) < most:
            found = self._form.after_hits_row(player, units, most, template)
            self._cache.put(key, found)
        row: list[Any] = found[:most]
        return row
