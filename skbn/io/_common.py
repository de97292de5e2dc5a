# SPDX-License-Identifier: BSD-3-Clause
"""What the network file formats share: their error, size limits, text reading, checks."""

from __future__ import annotations

import math
import os
import re
from pathlib import Path

import numpy as np

from skbn.datasets._bif import (
    MAX_TABLE_ENTRIES,
    ROW_SUM_TOLERANCE,
    BIFError,
    _read_text,
    check_writable,
)
from skbn.datasets._network import DiscreteBayesianNetwork

__all__ = [
    "NetworkFileError",
    "MAX_TABLE_ENTRIES",
    "build_network",
    "check_table_size",
    "check_writable",
    "read_text",
    "rows_to_table",
]

#: An identifier of Hugin NET and GeNIe XDSL: a letter or underscore, then letters, digits,
#: underscores.
IDENTIFIER = re.compile(r"^[A-Za-z_][A-Za-z0-9_]*$")


class NetworkFileError(BIFError):
    """A malformed or unsupported network file (BIF, NET, XDSL); the message says where.

    A subclass of :class:`~skbn.datasets.BIFError` (itself a ``ValueError``), so code that
    catches either catches all three formats.

    Examples
    --------
    >>> from skbn.io import parse_net
    >>> try:
    ...     parse_net("node a { states = (); }")
    ... except NetworkFileError as error:
    ...     print("line 1" in str(error))
    True
    """


def read_text(path: str | os.PathLike, what: str) -> tuple[str, str]:
    """``(text, file name)`` of a plain or gzip-compressed text file, size-limited."""
    path = Path(path)
    if not path.exists():
        raise FileNotFoundError(f"No such {what} file: {str(path)!r}.")
    try:
        return _read_text(path), path.name
    except BIFError as exc:
        raise NetworkFileError(str(exc)) from None


def check_table_size(where: str, child: str, shape: tuple[int, ...]) -> int:
    """Number of entries of a declared table; refuses one too big before any allocation."""
    entries = math.prod(shape)
    if entries > MAX_TABLE_ENTRIES:
        raise NetworkFileError(
            f"{where}: the table of {child!r} would hold {entries:,} probabilities, more than "
            f"the {MAX_TABLE_ENTRIES:,} this reader accepts (skbn.io.MAX_TABLE_ENTRIES)"
        )
    return entries


def rows_to_table(where: str, child: str, values, shape: tuple[int, ...]) -> np.ndarray:
    """Probabilities in C order over ``shape`` (parents', then the child's states), checked.

    Rows within :data:`~skbn.datasets._bif.ROW_SUM_TOLERANCE` of 1 are renormalised.
    """
    arr = np.asarray(values, dtype=np.float64)
    if arr.size != math.prod(shape):
        raise NetworkFileError(
            f"{where}: the table of {child!r} has {arr.size} values, expected "
            f"{math.prod(shape)} ({' x '.join(map(str, shape))})"
        )
    rows = arr.reshape(-1, shape[-1])
    sums = rows.sum(axis=1)
    if not np.all(np.isfinite(rows)) or np.any(rows < 0):
        raise NetworkFileError(f"{where}: the table of {child!r} holds negative or non-numbers")
    if np.any(np.abs(sums - 1) > ROW_SUM_TOLERANCE):
        bad = int(np.flatnonzero(np.abs(sums - 1) > ROW_SUM_TOLERANCE)[0])
        raise NetworkFileError(
            f"{where}: row {bad} of the table of {child!r} sums to {sums[bad]:.6g}, not 1"
        )
    return (rows / sums[:, None]).reshape(shape)


def build_network(source: str, states, parents, cpts, name: str) -> DiscreteBayesianNetwork:
    """The network a reader parsed; a consistency error (a cycle, say) names the file."""
    try:
        return DiscreteBayesianNetwork(states, parents, cpts, name=name)
    except ValueError as exc:
        raise NetworkFileError(f"{source}: {exc}") from None


def check_identifiers(network: DiscreteBayesianNetwork, fmt: str) -> None:
    """Node names of NET and XDSL files must be identifiers; say which are not."""
    bad = [v for v in network.nodes if not IDENTIFIER.match(v)]
    if bad:
        raise ValueError(
            f"{fmt} node names must be identifiers (a letter or '_', then letters, digits, "
            f"'_'); these are not: {bad[:8]}. Rename the data's columns (e.g. "
            "X.columns.str.replace(r'\\W', '_', regex=True)) before learning, or write BIF."
        )
