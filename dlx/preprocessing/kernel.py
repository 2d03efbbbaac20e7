"""The preprocessing kernel: Knuth's DLX-PRE rules, round after round, in numba.

Every ``@njit(cache=True)`` function this kernel calls lives in this file (numba's cache
only notices edits to the file a function is defined in); ``dlx/preprocessing/reduce.py``
builds its arrays from a ``Problem`` and reads its answer.

Data structures
---------------
Items are numbered from 0, the ``n_primary`` primary items first. Entry ``j`` puts item
``item[j]`` with colour ``colour[j]`` (0: none) in option ``owner[j]``; option ``o``'s
entries are ``option_start[o]`` to ``option_start[o + 1] - 1``, in the order the option
was given (Knuth's order in memory: an option is tested when its first surviving item
is the item in hand). Item ``i``'s entries, in option order, are
``list_entry[list_start[i]:list_start[i + 1]]``.

Where DLX-PRE unlinks nodes, this kernel keeps flags and counts: ``alive[o]`` (option
``o`` not deleted), ``gone[i]`` (item ``i`` removed, or left in no option), ``hidden[o]``
(1: option ``o`` taken out of every list but the one being worked on; 2: deleted, so
that one look tells a visible option) and ``length[i]``,
the number of live, unhidden options that hold item ``i`` (DLX-PRE's ``len``). An
entry *survives* when its option is alive and its item is not gone. Hiding an option
through one of its entries lowers the length of its other surviving items.

The rules (DLX-PRE's, in its order)
-----------------------------------
Each round takes the items in order, each that still has options:

- *Hide* item ``c``: hide every live option that holds ``c`` without a colour. If a
  primary item ``p`` is left with no options, every option of ``p`` holds ``c``: ``c``
  is *forced* by ``p`` (the last such ``p`` met). Then ``c`` is removed: options of
  ``c`` that hold ``p`` lose ``c``, the others are deleted.
- Otherwise each live option ``r`` whose first surviving item is ``c`` (uncoloured) is
  *tested*: its other items' clashing options are hidden too (those that hold the
  item with no colour or another colour); if a primary item not in ``r`` is left with
  no options, ``r`` can never be chosen, and is deleted once every option of ``c`` has
  been tested (the last tested deleted first).

A primary item left with no options ends the work: the problem has no solution
(``infeasible``). Rounds stop when one changes nothing, or after ``max_rounds``.
"""

from __future__ import annotations

import numpy as np
from numba import njit


@njit(cache=True)
def _hide_item(c, item, colour, owner, option_start, list_start, list_entry, n_primary,
               alive, gone, hidden, length):  # fmt: skip
    """Hide every live option holding ``c`` uncoloured; the last primary item left
    without options, or -1."""
    forcing = -1
    for k in range(list_start[c], list_start[c + 1]):
        j0 = list_entry[k]
        o = owner[j0]
        if alive[o] == 0 or colour[j0] != 0:
            continue
        hidden[o] = 1
        s = option_start[o]
        size = option_start[o + 1] - s
        for t in range(1, size):
            j = s + (j0 - s + t) % size
            other = item[j]
            if gone[other]:
                continue
            length[other] -= 1
            if length[other] == 0 and other < n_primary:
                forcing = other
    return forcing


@njit(cache=True)
def _unhide_item(c, item, colour, owner, option_start, list_start, list_entry,
                 alive, gone, hidden, length):  # fmt: skip
    """Undo ``_hide_item(c)``."""
    for k in range(list_start[c], list_start[c + 1]):
        j0 = list_entry[k]
        o = owner[j0]
        if alive[o] == 0 or colour[j0] != 0:
            continue
        hidden[o] = 0
        for j in range(option_start[o], option_start[o + 1]):
            if j != j0 and gone[item[j]] == 0:
                length[item[j]] += 1


@njit(cache=True)
def _is_first(j0, item, owner, option_start, gone):
    """Whether entry ``j0`` holds its option's first surviving item."""
    for j in range(option_start[owner[j0]], j0):
        if gone[item[j]] == 0:
            return False
    return True


@njit(cache=True)
def _blocks(j0, token, item, colour, owner, option_start, list_start, list_entry,
            n_primary, alive, gone, hidden, length, stamp, hid_entry):  # fmt: skip
    """Whether option ``r`` (``owner[j0]``, its first surviving entry ``j0``, ``c``
    hidden) leaves a primary item outside ``r`` without options once the options that
    clash with ``r``'s other items are hidden; everything hidden here is unhidden."""
    r = owner[j0]
    s, e = option_start[r], option_start[r + 1]
    for j in range(s, e):
        if j != j0:
            stamp[item[j]] = token
    n_hid = 0
    blocked = False
    for j in range(j0 + 1, e):
        cc = item[j]
        if gone[cc]:
            continue
        x = colour[j]
        for k in range(list_start[cc], list_start[cc + 1]):
            jp = list_entry[k]
            p = owner[jp]
            if hidden[p] != 0 or (x > 0 and colour[jp] == x):  # dead, hidden, or no clash
                continue
            for jj in range(option_start[p], option_start[p + 1]):
                other = item[jj]
                if jj == jp or gone[other]:
                    continue
                if length[other] == 1 and other < n_primary and stamp[other] != token:
                    blocked = True
                    for back in range(option_start[p], jj):  # p's hiding undone
                        if back != jp and gone[item[back]] == 0:
                            length[item[back]] += 1
                    break
                length[other] -= 1
            if blocked:
                break
            hidden[p] = 1
            hid_entry[n_hid] = jp
            n_hid += 1
        if blocked:
            break
    for t in range(n_hid):
        jp = hid_entry[t]
        p = owner[jp]
        hidden[p] = 0
        for jj in range(option_start[p], option_start[p + 1]):
            if jj != jp and gone[item[jj]] == 0:
                length[item[jj]] += 1
    return blocked


@njit(cache=True)
def _delete(o, j0, including, item, option_start, n_primary, alive, gone, hidden, length):
    """Delete option ``o``: its surviving items after entry ``j0`` in circular order
    (and ``j0``'s last when ``including``) lose it; the primary item left with no
    options, or -1 (an item left with none is gone)."""
    alive[o] = 0
    hidden[o] = 2
    s = option_start[o]
    size = option_start[o + 1] - s
    for t in range(1, size + (1 if including else 0)):
        j = s + (j0 - s + t) % size
        other = item[j]
        if gone[other]:
            continue
        length[other] -= 1
        if length[other] == 0:
            gone[other] = 1
            if other < n_primary:
                return other
    return -1


@njit(cache=True)
def _holds(o, wanted, item, option_start, gone):
    """Whether option ``o`` still holds item ``wanted``."""
    for j in range(option_start[o], option_start[o + 1]):
        if item[j] == wanted and gone[item[j]] == 0:
            return True
    return False


@njit(cache=True)
def reduce(item, colour, owner, option_start, list_start, list_entry, n_primary,
           alive, max_rounds):  # fmt: skip
    """Apply DLX-PRE's rules until a round changes nothing (or ``max_rounds`` rounds,
    -1: no limit). ``alive`` (uint8, one an option: 0 for an option that starts
    deleted) is updated in place. Returns ``(rounds, infeasible, gone, forced_by)``:
    the rounds run, the primary item left without options (-1: none), whether each
    item is gone, and the primary item that forced each removed item (-1: none)."""
    n_items = len(list_start) - 1
    n_options = len(option_start) - 1
    gone = np.zeros(n_items, dtype=np.uint8)
    hidden = np.zeros(n_options, dtype=np.uint8)
    length = np.zeros(n_items, dtype=np.int64)
    stamp = np.zeros(n_items, dtype=np.int64)
    forced_by = np.full(n_items, -1, dtype=np.int64)
    hid_entry = np.zeros(max(n_options, 1), dtype=np.int64)
    marked = np.zeros(max(n_options, 1), dtype=np.int64)
    for o in range(n_options):
        hidden[o] = 0 if alive[o] else 2
    for j in range(len(item)):
        if alive[owner[j]]:
            length[item[j]] += 1
    for i in range(n_items):
        if length[i] == 0:
            gone[i] = 1
            if i < n_primary:
                return 0, i, gone, forced_by
    token = 0
    rounds = 0
    while max_rounds < 0 or rounds < max_rounds:
        rounds += 1
        change = False
        for c in range(n_items):
            if length[c] == 0:
                continue
            forcing = _hide_item(c, item, colour, owner, option_start, list_start,
                                 list_entry, n_primary, alive, gone, hidden, length)  # fmt: skip
            if forcing >= 0:
                _unhide_item(c, item, colour, owner, option_start, list_start, list_entry,
                             alive, gone, hidden, length)  # fmt: skip
                for k in range(list_start[c], list_start[c + 1]):
                    j0 = list_entry[k]
                    o = owner[j0]
                    if alive[o] == 0 or _holds(o, forcing, item, option_start, gone):
                        continue
                    empty = _delete(o, j0, False, item, option_start, n_primary, alive,
                                    gone, hidden, length)  # fmt: skip
                    if empty >= 0:
                        return rounds, empty, gone, forced_by
                gone[c] = 1
                length[c] = 0
                forced_by[c] = forcing
                change = True
                continue
            n_marked = 0
            for k in range(list_start[c], list_start[c + 1]):
                j0 = list_entry[k]
                o = owner[j0]
                if alive[o] == 0 or colour[j0] != 0:
                    continue
                if not _is_first(j0, item, owner, option_start, gone):
                    continue
                token += 1
                if _blocks(j0, token, item, colour, owner, option_start, list_start,
                           list_entry, n_primary, alive, gone, hidden, length, stamp,
                           hid_entry):  # fmt: skip
                    marked[n_marked] = j0
                    n_marked += 1
            _unhide_item(c, item, colour, owner, option_start, list_start, list_entry,
                         alive, gone, hidden, length)  # fmt: skip
            for t in range(n_marked - 1, -1, -1):
                j0 = marked[t]
                change = True
                empty = _delete(owner[j0], j0, True, item, option_start, n_primary, alive,
                                gone, hidden, length)  # fmt: skip
                if empty >= 0:
                    return rounds, empty, gone, forced_by
        if not change:
            break
    return rounds, -1, gone, forced_by
