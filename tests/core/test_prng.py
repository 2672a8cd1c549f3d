"""SplitMix64 and the draws built on it (core/prng.py), and EC4X's seed (7.3.2.5)."""

from __future__ import annotations

import hashlib
from collections import Counter

import pytest
from hypothesis import given
from hypothesis import strategies as st

from spacecombat.core.dice import ScriptedDice, SeededDice, SplitMixDice
from spacecombat.core.errors import ReplayError
from spacecombat.core.prng import MASK, SplitMix64
from spacecombat.rulesets.ec4x.seed import ec4x_seed


def test_splitmix64_matches_the_reference_outputs_for_seed_0() -> None:
    """The first outputs of Vigna's reference splitmix64.c started from state 0."""
    generator = SplitMix64(0)
    assert [generator.next() for _ in range(4)] == [
        0xE220A8397B1DCDAF,
        0x6E789E6AA1B965F4,
        0x06C45D188009454F,
        0xF88BB8A8724C81EC,
    ]


def test_below_takes_the_output_modulo_n_when_it_is_not_rejected() -> None:
    """below(n) = next() mod n unless next() falls in the last, partial block of 2^64."""
    raw = SplitMix64(0)
    drawn = SplitMix64(0)
    for n in (3, 10, 20, 7):
        assert drawn.below(n) == raw.next() % n


def test_below_rejects_outputs_in_the_partial_block() -> None:
    """For n = 2^63 + 1 about half the outputs are rejected; the draw still lands below n."""
    generator = SplitMix64(5)
    n = 2**63 + 1
    assert all(0 <= generator.below(n) < n for _ in range(50))


def test_pick_takes_the_first_index_whose_cumulative_weight_exceeds_r() -> None:
    """pick(weights): r = below(total); weights (1, 2, 3) cover r = 0 | 1-2 | 3-5."""
    for seed in range(40):
        r = SplitMix64(seed).below(6)
        expected = 0 if r < 1 else 1 if r < 3 else 2
        assert SplitMix64(seed).pick([1, 2, 3]) == expected


@given(
    st.integers(0, MASK),
    st.lists(
        st.lists(st.integers(1, 2**61), min_size=1, max_size=6)
        | st.lists(st.integers(1, 12), min_size=1, max_size=12),
        min_size=1,
        max_size=8,
    ),
)
def test_pick_is_below_of_the_total_then_the_cumulative_walk(
    seed: int, draws: list[list[int]]
) -> None:
    """``pick`` writes ``below``'s steps out (issue 24's speed): draw after draw the same
    index and the same generator state as ``below(sum(weights))`` and the cumulative walk,
    rejections included (totals of several 2^61 reject up to a quarter of the outputs)."""
    ours, reference = SplitMix64(seed), SplitMix64(seed)
    for weights in draws:
        r = reference.below(sum(weights))
        expected = next(i for i in range(len(weights)) if r < sum(weights[: i + 1]))
        assert ours.pick(weights) == expected
        assert ours.state == reference.state


def test_pick_refuses_a_total_beyond_64_bits() -> None:
    with pytest.raises(ValueError, match="below"):
        SplitMix64(0).pick([MASK, 1])


def test_pick_frequencies_follow_the_weights() -> None:
    generator = SplitMix64(12345)
    counts = Counter(generator.pick([1, 3, 6]) for _ in range(30_000))
    for index, weight in enumerate((1, 3, 6)):
        assert abs(counts[index] / 30_000 - weight / 10) < 0.012


def test_seeds_outside_64_bits_are_refused() -> None:
    with pytest.raises(ValueError, match="0 to"):
        SplitMix64(MASK + 1)
    with pytest.raises(ValueError, match="0 to"):
        SplitMix64(-1)


@given(st.integers(0, MASK))
def test_the_same_seed_draws_the_same(seed: int) -> None:
    a, b = SplitMixDice(seed), SplitMixDice(seed)
    assert a.roll(5) == b.roll(5)
    assert a.pick([2, 5, 1]) == b.pick([2, 5, 1])


def test_splitmix_dice_faces_are_below_10_plus_1() -> None:
    """A d10 face of SplitMixDice is below(10) + 1."""
    generator = SplitMix64(99)
    assert SplitMixDice(99).roll(20) == tuple(generator.below(10) + 1 for _ in range(20))


def test_ec4x_seed_is_sha256_of_game_and_turn_modulo_2_32() -> None:
    """7.3.2.5: SHA-256 of "{gameId}-{turnNumber}", read big-endian, modulo 2^32."""
    assert ec4x_seed("demo-1", 12) == 598587255
    assert ec4x_seed("game-42", 7) == 1875041491
    digest = hashlib.sha256(b"game-42-7").digest()
    assert ec4x_seed("game-42", 7) == int.from_bytes(digest[-4:], "big")


def test_the_first_draws_of_a_known_seed() -> None:
    """Pinned: the first ten d10 faces (read 0-9), five d20s and a weighted pick from the seed
    of game "game-42", turn 7. Another implementation following docs/ec4x.md gets the same."""
    generator = SplitMix64(ec4x_seed("game-42", 7))
    assert [generator.below(10) for _ in range(10)] == [1, 3, 6, 9, 6, 7, 1, 2, 3, 4]
    assert [generator.below(20) + 1 for _ in range(5)] == [11, 1, 10, 7, 2]
    assert generator.pick([1, 2, 3]) == 1


def test_seeded_dice_pick_within_range() -> None:
    dice = SeededDice(3)
    assert all(0 <= dice.pick([1, 1, 4]) < 3 for _ in range(100))


def test_scripted_picks_are_returned_in_order_and_running_out_is_an_error() -> None:
    dice = ScriptedDice(picks=[2, 0])
    assert dice.pick([1, 1, 1]) == 2
    assert dice.pick([5]) == 0
    with pytest.raises(ReplayError, match="ran out"):
        dice.pick([1])
    with pytest.raises(ReplayError, match="2 outcomes"):
        ScriptedDice(picks=[4]).pick([1, 1])
