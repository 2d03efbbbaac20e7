"""Hypothesis strategies the tests share: small random exact-cover problems."""

from __future__ import annotations

from hypothesis import strategies as st

import dlx


@st.composite
def problems(
    draw,
    bounds: bool = True,
    colours: bool = True,
    max_secondary: int = 3,
    max_options: int = 8,
    max_primary: int = 4,
):
    """Small random problems: up to ``max_primary`` primary items (with random ``lo:hi``
    bounds unless ``bounds`` is False), up to ``max_secondary`` secondary items (coloured
    at random unless ``colours`` is False), and 1 to ``max_options`` options."""
    n_primary = draw(st.integers(1, max_primary))
    n_secondary = draw(st.integers(0, max_secondary))
    primary = [f"p{i}" for i in range(n_primary)]
    secondary = [f"s{i}" for i in range(n_secondary)]
    item_bounds = {}
    if bounds:
        for name in primary:
            hi = draw(st.integers(1, 3))
            item_bounds[name] = (draw(st.integers(0, hi)), hi)
    p = dlx.Problem(primary=primary, secondary=secondary, bounds=item_bounds)
    for _ in range(draw(st.integers(1, max_options))):
        entries = draw(st.lists(st.sampled_from(primary), min_size=1, max_size=3, unique=True))
        chosen = (
            draw(st.lists(st.sampled_from(secondary), max_size=2, unique=True)) if secondary else []
        )
        for name in chosen:
            colour = draw(st.sampled_from([None, "a", "b"])) if colours else None
            entries.append(name if colour is None else f"{name}:{colour}")
        p.add_option(entries)
    return p


@st.composite
def costed_problems(draw, max_options: int = 9):
    """Small random problems with colours whose options cost 0 to 3 (many ties)."""
    primary = [f"p{i}" for i in range(draw(st.integers(1, 4)))]
    secondary = [f"s{i}" for i in range(draw(st.integers(0, 2)))]
    p = dlx.Problem(primary=primary, secondary=secondary)
    for _ in range(draw(st.integers(1, max_options))):
        items = draw(st.lists(st.sampled_from(primary), min_size=1, max_size=3, unique=True))
        if secondary:
            for name in draw(st.lists(st.sampled_from(secondary), max_size=2, unique=True)):
                colour = draw(st.sampled_from([None, "a", "b"]))
                items.append(name if colour is None else f"{name}:{colour}")
        p.add_option(items, cost=draw(st.integers(0, 3)))
    return p
