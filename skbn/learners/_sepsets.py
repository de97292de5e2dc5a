# SPDX-License-Identifier: BSD-3-Clause
"""The separating sets of the constraint-based learners, named when they are read."""

from __future__ import annotations

from collections.abc import Iterator, Mapping, MutableMapping, Sequence

import numpy as np

__all__ = ["RemovalLog", "SeparatingSets"]


class RemovalLog(MutableMapping):
    """``frozenset({i, j}) -> list of tuple``: the separating sets found during one fit.

    A dict to its readers, filled a level of PC-Stable at a time by :meth:`add_level`: the
    pairs separated by the empty set (about 4,000 of the 5,000 removals at 100 Gaussian
    variables) are held as a boolean matrix and read as ``[()]``, the others as arrays
    indexed by pair, turned into tuples when a pair is read. Recording every removal in a
    dict one by one took longer than the tests that found them.

    Parameters
    ----------
    p : int
        The number of variables.
    """

    def __init__(self, p: int) -> None:
        self._p = int(p)
        self._which: int | None = None  # one_each(): the set read of each pair
        self._empty: np.ndarray | None = None
        self._coded: dict = {}  # min * p + max -> (sets of the level, first row, rows)
        self._levels: list = []  # each add_level's (codes, sets, first row, rows) by pair
        self._sets: dict = {}

    def add_level(self, xs, ys, conds) -> None:
        """Record the pairs ``(xs[k], ys[k])`` separated by the rows ``conds[k]``.

        The rows of a pair are kept in the order given (duplicates read once); a pair is
        recorded at one level only, as PC-Stable removes it once.
        """
        xs, ys = np.asarray(xs, dtype=np.int64), np.asarray(ys, dtype=np.int64)
        if not len(xs):
            return
        if conds.shape[1] == 0:
            if self._empty is None:
                self._empty = np.zeros((self._p, self._p), dtype=bool)
            self._empty[xs, ys] = self._empty[ys, xs] = True
            return
        codes = np.minimum(xs, ys) * self._p + np.maximum(xs, ys)
        order = np.argsort(codes, kind="stable")
        conds = np.ascontiguousarray(conds[order])
        unique, first, counts = np.unique(codes[order], return_index=True, return_counts=True)
        self._coded.update(
            zip(unique.tolist(), zip([conds] * len(unique), first.tolist(), counts.tolist()))
        )
        self._levels.append((codes[order], conds, first, counts))

    def one_each(self, which: int = 0) -> RemovalLog:
        """The same pairs, each read as one set: its first (``0``) or last (``-1``)."""
        out = RemovalLog(self._p)
        out._which = which
        out._empty = None if self._empty is None else self._empty.copy()
        out._coded = dict(self._coded)
        out._levels = list(self._levels)
        out._sets = {key: tuple(sets[which]) for key, sets in self._sets.items()}
        return out

    def in_some_set(self, a: int, c: int, b: int) -> bool:
        """Whether ``b`` belongs to a separating set of ``a`` and ``c`` (False: none held).

        What rule R0 asks of each unshielded triple ``a - b - c``, without turning the
        pair's sets into tuples.
        """
        if self._empty is not None and self._empty[a, c]:
            return False
        entry = self._coded.get(min(a, c) * self._p + max(a, c))
        if entry is not None:
            conds, start, count = entry
            if self._which is not None:
                row = start + (count - 1 if self._which == -1 else 0)
                return b in conds[row].tolist()
            return b in conds[start : start + count].ravel().tolist()
        sets = self._sets.get(frozenset((a, c)))
        if sets is None:
            return False
        if self._which is not None:
            return b in sets
        return any(b in sep for sep in sets)

    def in_some_set_many(self, a: np.ndarray, c: np.ndarray, b: np.ndarray) -> np.ndarray:
        """:meth:`in_some_set` for arrays of triples at once (bool array)."""
        a, b, c = (np.asarray(v, dtype=np.int64) for v in (a, b, c))
        out = np.zeros(len(a), dtype=bool)
        if not len(a):
            return out
        codes = np.minimum(a, c) * self._p + np.maximum(a, c)
        if self._coded:
            # (pair, member) of every set still held in arrays, against the triples' (pair, b)
            members = []
            live_codes = np.fromiter(self._coded, np.int64, len(self._coded))
            for level_codes, conds, first, counts in self._levels:
                if self._which is None:
                    rows = np.arange(len(level_codes))
                else:
                    rows = first + (counts - 1 if self._which == -1 else 0)
                live = np.isin(level_codes[rows], live_codes)
                rows = rows[live]
                width = conds.shape[1]
                members.append(np.repeat(level_codes[rows], width) * self._p + conds[rows].ravel())
            held = np.unique(np.concatenate(members))
            if len(held):
                asked = codes * self._p + b
                at = np.minimum(np.searchsorted(held, asked), len(held) - 1)
                out |= held[at] == asked
        held_in_dict = [code for code in map(self._code, self._sets) if code is not None]
        for k in np.flatnonzero(np.isin(codes, held_in_dict) & ~out).tolist():
            key = frozenset((int(a[k]), int(c[k])))
            sets = self._sets.get(key)
            if sets is not None:
                member = int(b[k])
                out[k] = (
                    member in sets
                    if self._which is not None
                    else any(member in sep for sep in sets)
                )
        return out

    def _code(self, key) -> int | None:
        if not isinstance(key, frozenset) or len(key) != 2:
            return None
        x, y = key
        if not (isinstance(x, (int, np.integer)) and isinstance(y, (int, np.integer))):
            return None
        if not (0 <= x < self._p and 0 <= y < self._p):
            return None
        return int(min(x, y)) * self._p + int(max(x, y))

    def _take(self, key, code):
        """Move an array-held pair into the dict, as the value its readers see."""
        if self._empty is not None and self._empty.flat[code]:
            x, y = divmod(code, self._p)
            self._empty[x, y] = self._empty[y, x] = False
            value = () if self._which is not None else [()]
        else:
            conds, start, count = self._coded.pop(code)
            rows = [tuple(r) for r in conds[start : start + count].tolist()]
            if self._which is not None:
                value = rows[-1 if self._which == -1 else 0]
            else:
                value = list(dict.fromkeys(rows))
        self._sets[key] = value
        return value

    def _held(self, code) -> bool:
        if code is None:
            return False
        return code in self._coded or (self._empty is not None and bool(self._empty.flat[code]))

    def __getitem__(self, key):
        try:
            return self._sets[key]
        except (KeyError, TypeError):
            pass
        code = self._code(key)
        if not self._held(code):
            raise KeyError(key)
        return self._take(key, code)

    def __setitem__(self, key, value) -> None:
        code = self._code(key)
        if self._held(code):
            self._take(key, code)
        self._sets[key] = value

    def __delitem__(self, key) -> None:
        code = self._code(key)
        if self._held(code):
            self._take(key, code)
        del self._sets[key]

    def __iter__(self) -> Iterator[frozenset]:
        yield from list(self._sets)
        for code in list(self._coded):
            yield frozenset(divmod(code, self._p))
        if self._empty is not None:
            xs, ys = np.nonzero(np.triu(self._empty))
            for x, y in zip(xs.tolist(), ys.tolist()):
                yield frozenset((x, y))

    def __len__(self) -> int:
        empty = 0 if self._empty is None else int(np.count_nonzero(self._empty)) // 2
        return len(self._sets) + len(self._coded) + empty

    def __repr__(self) -> str:
        return repr(dict(self))


class SeparatingSets(Mapping):
    """``frozenset({u, v}) -> list of tuple``: the separating sets of each removed pair.

    The learners find the sets as column positions; a fit at 100 variables removes about
    5,000 pairs, and naming every set cost more than the tests that found them. This mapping
    keeps the positions and names a pair's sets when they are read, so ``sepsets_`` reads as
    the dict it stands for (``==`` compares it with one) at no cost to a fit that does not
    read it.

    Parameters
    ----------
    positions : dict
        ``frozenset({i, j}) -> list of tuple of int`` (``single=False``), or
        ``-> tuple of int`` (``single=True``, one set per pair).
    names : sequence of str
        The column names.
    single : bool, default=False
        Whether each pair holds one set rather than a list of them.
    """

    def __init__(self, positions: dict, names: Sequence[str], single: bool = False) -> None:
        self._positions = positions
        self._names = list(names)
        self._single = single
        self._index: dict | None = None

    def _named(self, sets) -> list[tuple]:
        names = self._names
        if self._single:
            return [tuple(names[v] for v in sets)]
        return [tuple(names[v] for v in sep) for sep in sets]

    def __getitem__(self, pair) -> list[tuple]:
        if self._index is None:
            self._index = {name: i for i, name in enumerate(self._names)}
        try:
            key = frozenset(self._index[v] for v in pair)
            sets = self._positions[key]
        except (KeyError, TypeError):
            raise KeyError(pair) from None
        return self._named(sets)

    def __iter__(self) -> Iterator[frozenset]:
        names = self._names
        for pair in self._positions:
            yield frozenset(names[v] for v in pair)

    def __len__(self) -> int:
        return len(self._positions)

    def __repr__(self) -> str:
        return repr(dict(self))
