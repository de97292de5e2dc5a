# SPDX-License-Identifier: BSD-3-Clause
"""What the network file formats share: their error, size limits, text reading, checks."""

from __future__ import annotations

import codecs
import gzip
import io
import math
import os
import re
import zlib
from pathlib import Path

import networkx as nx
import numpy as np

from skbn.network._discrete import DiscreteBayesianNetwork
from skbn.network._gaussian import LinearGaussianNetwork
from skbn.utils._warnings import stack_level

__all__ = [
    "NetworkFileError",
    "NetworkPortabilityWarning",
    "MAX_TABLE_ENTRIES",
    "build_network",
    "check_table_size",
    "check_writable",
    "read_text",
    "rows_to_table",
]

#: Rows whose probabilities sum to within this of 1 are renormalised; others are an error.
ROW_SUM_TOLERANCE = 1e-2
#: The largest conditional probability table read (parent configurations times states; the
#: biggest in the bnlearn repository has 280,000 entries). A larger declared table is refused
#: before any memory is taken for it.
MAX_TABLE_ENTRIES = 50_000_000
#: The largest (decompressed) file read; the biggest of the repository is about 1 MB.
MAX_TEXT_BYTES = 200_000_000


#: An identifier of Hugin NET and GeNIe XDSL: a letter or underscore, then letters, digits,
#: underscores.
IDENTIFIER = re.compile(r"^[A-Za-z_][A-Za-z0-9_]*$")


class NetworkFileError(ValueError):
    """A malformed or unsupported network file (BIF, NET, XDSL); the message says where.

    The base of every format's reading error (:class:`~skbn.io.BIFError` is one), and a
    ``ValueError``, so code that catches it catches all three formats.

    Examples
    --------
    >>> from skbn.io import parse_net
    >>> try:
    ...     parse_net("node a { states = (); }")
    ... except NetworkFileError as error:
    ...     print("line 1" in str(error))
    True
    """


def _read_text(path: Path) -> str:
    data = path.read_bytes()
    if data[:2] == b"\x1f\x8b":
        try:
            with gzip.GzipFile(fileobj=io.BytesIO(data)) as stream:
                data = stream.read(MAX_TEXT_BYTES + 1)
        except (EOFError, OSError, zlib.error) as exc:
            raise NetworkFileError(f"{path.name}: not a complete gzip file ({exc})") from None
    if len(data) > MAX_TEXT_BYTES:
        raise NetworkFileError(
            f"{path.name}: more than {MAX_TEXT_BYTES:,} bytes of text, more than this reader "
            "accepts (skbn.io._common.MAX_TEXT_BYTES)"
        )
    encoding = _encoding_of(data, path.name)
    if data.startswith(b"\xef\xbb\xbf"):  # a UTF-8 byte-order mark is not text
        data = data[3:]
    try:
        return data.decode(encoding)
    except UnicodeDecodeError as exc:
        line = data.count(b"\n", 0, exc.start) + 1
        raise NetworkFileError(
            f"{path.name}, line {line}: byte {data[exc.start]:#04x} is not "
            f"{'UTF-8' if encoding == 'utf-8' else encoding} text"
        ) from None


def _encoding_of(data: bytes, name: str) -> str:
    """The text encoding: a UTF-16 byte-order mark, an XML declaration's, or UTF-8."""
    if data[:2] in (b"\xff\xfe", b"\xfe\xff"):
        return "utf-16"
    head = data[3:300] if data.startswith(b"\xef\xbb\xbf") else data[:300]
    if head.startswith(b"<?xml"):
        declared = re.match(rb"<\?xml[^>]*?encoding=[\"']([A-Za-z0-9._-]+)[\"']", head)
        if declared:
            label = declared.group(1).decode("ascii")
            try:
                return codecs.lookup(label).name
            except LookupError:
                raise NetworkFileError(
                    f"{name}, line 1: the XML declaration names the encoding {label!r}, which "
                    "Python does not know"
                ) from None
    return "utf-8"


def check_writable(network, fmt: str) -> DiscreteBayesianNetwork:
    """Refuse, with the fix, what a network file cannot hold (a graph, a Gaussian model)."""
    if isinstance(network, DiscreteBayesianNetwork):
        return network
    if isinstance(network, LinearGaussianNetwork):
        raise TypeError(
            f"{fmt} files written by skbn hold discrete networks; a LinearGaussianNetwork "
            "cannot be written to one. Convert it with skbn.io.to_pgmpy (pgmpy's "
            "LinearGaussianBayesianNetwork), or discretise the data before fitting."
        )
    if isinstance(network, nx.Graph):
        raise TypeError(
            f"A {fmt} file holds a network with its parameters, and this is a graph without "
            "them. Fit them first: learner.network_ after fit, or "
            "skbn.parameters.fit_network(graph, X); to save the structure alone use "
            "skbn.graph.write_graph (.graphml, .json, .dot)."
        )
    raise TypeError(
        f"Expected a DiscreteBayesianNetwork to write as {fmt}, got {type(network).__name__}."
    )


def read_text(path: str | os.PathLike, what: str) -> tuple[str, str]:
    """``(text, file name)`` of a plain or gzip-compressed text file, size-limited."""
    path = Path(path)
    if not path.exists():
        raise FileNotFoundError(f"No such {what} file: {str(path)!r}.")
    return _read_text(path), path.name


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

    Rows within :data:`ROW_SUM_TOLERANCE` of 1 are renormalised.
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


class NetworkPortabilityWarning(UserWarning):
    """A written network file that skbn reads back but another library's reader does not.

    The file is valid in its format; the message names the names that library's reader
    refuses or misreads, and which library, so they can be renamed before writing.

    Examples
    --------
    >>> import warnings
    >>> from skbn.io import parse_bif, to_bif
    >>> bn = parse_bif("variable table { type discrete [ 2 ] { lo, hi }; } "
    ...                "probability ( table ) { table 0.5, 0.5; }")
    >>> with warnings.catch_warnings(record=True) as caught:
    ...     warnings.simplefilter("always")
    ...     _ = to_bif(bn)
    >>> caught[0].category.__name__
    'NetworkPortabilityWarning'
    """


def warn_unportable(fmt: str, names: list, reader: str, advice: str) -> None:
    """Warn (once per file) that ``reader`` refuses or misreads these ``names`` of ``fmt``."""
    if names:
        import warnings

        shown = list(dict.fromkeys(names))
        warnings.warn(
            f"{fmt} file written; skbn reads it back, but {reader}: "
            f"{shown[:8]}{' ...' if len(shown) > 8 else ''}. {advice}",
            NetworkPortabilityWarning,
            stacklevel=stack_level(),
        )


def write_text(path, text: str) -> None:
    """Write ``text`` as UTF-8; gzip-compressed when the name ends in ``.gz`` (any case).

    The gzip header holds no time stamp, so the same network always gives the same bytes.
    """
    path = Path(path)
    data = text.encode("utf-8")
    if path.suffix.lower() == ".gz":
        data = gzip.compress(data, mtime=0)
    path.write_bytes(data)
