# SPDX-License-Identifier: BSD-3-Clause
"""The separating sets of the constraint-based learners, named when they are read."""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence

__all__ = ["SeparatingSets"]


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
