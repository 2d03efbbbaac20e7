"""The tight kernel's layout against the glossary of ``dlx/kernels/tight/layout.py``,
array by array, on random problems of one to several words (of options and of items):
each option's primary items and conflict groups in entry order, each group's members,
each item's band, each option's item mask and conflict mask, read off the problem's
options one by one (no numpy in the expectations)."""

from __future__ import annotations

import numpy as np
import pytest

import dlx
from dlx.kernels.tight import layout as tightlayout
from dlx.kernels.tight.layout import layout, tables
from dlx.kernels.tight.search import _item_masks

# (options, primary items, secondary items, colours, whether an option may lack primary
# items): one word of options and items, then up to 5 words of options (narrow bands),
# 9 (padded), and 2 and 5 words of items
SHAPES = [
    (40, 10, 4, 0, False),
    (40, 10, 4, 2, True),
    (200, 30, 3, 2, False),
    (300, 40, 0, 0, False),
    (300, 40, 5, 3, True),
    (600, 50, 2, 1, False),
    (150, 100, 2, 2, False),
    (400, 300, 3, 2, True),
]


def random_problem(seed, n_options, n_primary, n_secondary, colours, bare):
    """A random problem of that shape; some items without options; options without
    primary items where ``bare``."""
    rng = np.random.default_rng(seed)
    primary = [f"p{i}" for i in range(n_primary)]
    secondary = [f"s{i}" for i in range(n_secondary)]
    problem = dlx.Problem(primary=primary, secondary=secondary)
    used = max(n_primary - 2, 1)  # the last items get no option
    for _ in range(n_options):
        low = 0 if bare and n_secondary else 1
        count = int(rng.integers(low, min(used, 5) + 1))
        items = [primary[i] for i in rng.choice(used, size=count, replace=False)]
        for j in rng.choice(n_secondary, int(rng.integers(0, min(n_secondary, 2) + 1)), False):
            shade = int(rng.integers(0, colours + 1))
            items.append(secondary[j] + (f":c{shade}" if shade else ""))
        problem.add_option(items or [secondary[0]])
    return problem


def entries(problem, option):
    """Option ``option``'s entries: (primary item or None, secondary item or None,
    colour or None), in order."""
    out = []
    for name in problem.option(option):
        item, _, colour = name.partition(":")
        if item in problem.primary:
            out.append((problem.primary.index(item), None, None))
        else:
            out.append((None, item, colour or None))
    return out


def bits_of(words, count):
    """The bit numbers set in the ``count`` uint64 words ``words``."""
    return {64 * w + b for w in range(count) for b in range(64) if int(words[w]) >> b & 1}


@pytest.mark.parametrize("shape", SHAPES)
@pytest.mark.parametrize("seed", [1, 2])
def test_the_layout_is_the_glossarys(shape, seed):
    problem = random_problem(seed, *shape)
    lay = layout(problem)
    bit = {int(o): b for b, o in enumerate(lay.option)}
    listed = {o: entries(problem, o) for o in range(problem.n_options)}

    def members(g):
        out = set()
        for k in range(lay.group_start[g], lay.group_start[g + 1]):
            out |= {64 * int(lay.group_word[k]) + b for b in range(64)
                    if int(lay.group_bits[k]) >> b & 1}  # fmt: skip
        return out

    for p in range(lay.n_primary):  # an item's group: its options; its band: the same
        options = {bit[o] for o, es in listed.items() if any(e[0] == p for e in es)}
        assert members(p) == options and lay.item_size[p] == len(options)
        start, end = lay.item_band_start[p], lay.item_band_start[p + 1]
        first = int(lay.item_first_word[p])
        assert {64 * first + b for b in bits_of(lay.item_band[start:end], end - start)} == options
    masks = _item_masks(problem)
    for o, es in listed.items():
        b = bit[o]
        items = [e[0] for e in es if e[0] is not None]
        row = slice(lay.option_primary_start[b], lay.option_primary_start[b + 1])
        assert lay.option_primary[row].tolist() == items  # in entry order
        assert bits_of(masks[b], lay.item_words) == set(items)
        groups = lay.option_group[lay.option_group_start[b] : lay.option_group_start[b + 1]]
        assert groups[: len(items)].tolist() == items  # then one group a secondary entry
        clash = set()
        for g, (p, item, colour) in zip(groups.tolist(), es, strict=True):
            if p is None:  # (item, colour)'s group: the options of item another colour, or none
                clash_with = {bit[k] for k, other in listed.items() for e in other
                              if e[1] == item and (colour is None or e[2] != colour)}  # fmt: skip
                assert g >= lay.n_primary and members(g) == clash_with
            clash |= members(g)
        assert bits_of(lay.conflict[b], lay.words) == clash
    low, high = tables(lay).size_low, tables(lay).size_high
    sizes = [sum(e[0] is not None for e in es) for es in listed.values()]
    assert (low, high) == (min(sizes), max(sizes))


@pytest.mark.parametrize("shape", SHAPES[:3])
def test_the_layout_without_dense_masks_is_the_same(shape, monkeypatch):
    """Past ``CONFLICT_BYTES`` (no dense masks) every other array is the same."""
    dense = layout(random_problem(3, *shape))
    monkeypatch.setattr(tightlayout, "CONFLICT_BYTES", 0)
    alone = layout(random_problem(3, *shape))
    assert alone.conflict.shape == (0, dense.words)
    for name in ("option", "option_group", "group_word", "group_bits", "item_band"):
        assert np.array_equal(getattr(alone, name), getattr(dense, name))
