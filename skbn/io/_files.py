# SPDX-License-Identifier: BSD-3-Clause
"""One entry point for network files: the format from the suffix or ``format=``, checked first."""

from __future__ import annotations

import os
from pathlib import Path

from skbn.io._bif import read_bif, write_bif
from skbn.io._net import read_net, write_net
from skbn.io._xdsl import read_xdsl, write_xdsl

__all__ = ["NETWORK_FORMATS", "format_of", "network_format", "read_network", "write_network"]

#: Network file formats: name -> (suffixes, reader, writer).
NETWORK_FORMATS = {
    "bif": ((".bif",), read_bif, write_bif),
    "net": ((".net",), read_net, write_net),
    "xdsl": ((".xdsl",), read_xdsl, write_xdsl),
}
#: Graph formats, which hold a structure without parameters (skbn.graph.write_graph).
GRAPH_SUFFIXES = (".graphml", ".json", ".dot", ".gv")


def network_format(path: str | os.PathLike, format: str | None = None) -> str:
    """The network format of ``path`` (its suffix, or ``format``), refused before any work.

    Parameters
    ----------
    path : str or path-like
        ``.bif``, ``.net`` or ``.xdsl``, optionally followed by ``.gz``.
    format : {"bif", "net", "xdsl"}, optional
        Overrides the suffix.

    Returns
    -------
    str

    Examples
    --------
    >>> network_format("model.bif.gz"), network_format("model.txt", format="net")
    ('bif', 'net')
    """
    if format is not None:
        if format not in NETWORK_FORMATS:
            raise ValueError(
                f"format={format!r} is not a network format; choose one of "
                f"{sorted(NETWORK_FORMATS)}."
            )
        return format
    name = Path(path).name.lower()
    if name.endswith(".gz"):
        name = name[:-3]
    for fmt, (suffixes, _, _) in NETWORK_FORMATS.items():
        if name.endswith(suffixes):
            return fmt
    hint = (
        " That suffix is a graph format, which holds no parameters: use "
        "skbn.graph.read_graph/write_graph for it."
        if name.endswith(GRAPH_SUFFIXES)
        else ""
    )
    raise ValueError(
        f"Cannot tell the network format of {str(path)!r} from its suffix; use .bif, .net or "
        f".xdsl, or pass format='bif', 'net' or 'xdsl'.{hint}"
    )


def format_of(path: str | os.PathLike) -> str:
    """The format a file's suffix names: a network format or a graph format.

    One rule for every reader of a path that may hold either: :func:`network_format`'s
    suffixes (``.bif``, ``.net``, ``.xdsl``, each optionally ``.gz``) and
    :func:`skbn.graph.graph_format`'s (``.graphml``, ``.json``, ``.dot``, ``.gv``, ``.txt``).

    Parameters
    ----------
    path : str or path-like

    Returns
    -------
    str
        One of ``"bif"``, ``"net"``, ``"xdsl"`` (read with :func:`read_network`) or
        ``"graphml"``, ``"json"``, ``"dot"``, ``"tetrad"`` (read with
        :func:`skbn.graph.read_graph`).

    Raises
    ------
    ValueError
        When the suffix names neither kind, listing the suffixes that do.

    Examples
    --------
    >>> from skbn.io import format_of
    >>> format_of("alarm.bif.gz"), format_of("learned.json")
    ('bif', 'json')
    """
    from skbn.graph import graph_format

    for detect in (network_format, graph_format):
        try:
            return detect(path)
        except ValueError:
            pass
    raise ValueError(
        f"Cannot tell the format of {str(path)!r} from its suffix; use a network file (.bif, "
        ".net, .xdsl, optionally .gz) or a graph file (.graphml, .json, .dot, .txt)."
    )


def read_network(path: str | os.PathLike, format: str | None = None):
    """Read a discrete network from a BIF, Hugin NET or GeNIe XDSL file.

    Parameters
    ----------
    path : str or path-like
        The file (a ``.gz`` suffix is read as gzip).
    format : {"bif", "net", "xdsl"}, optional
        By default taken from the suffix.

    Returns
    -------
    DiscreteBayesianNetwork

    Examples
    --------
    >>> import tempfile, pathlib
    >>> from skbn.datasets import load_network
    >>> folder = pathlib.Path(tempfile.mkdtemp())
    >>> write_network(load_network("cancer"), folder / "cancer.xdsl")
    >>> read_network(folder / "cancer.xdsl").parents["Cancer"]
    ('Pollution', 'Smoker')
    """
    fmt = network_format(path, format)
    return NETWORK_FORMATS[fmt][1](path)


def write_network(network, path: str | os.PathLike, format: str | None = None) -> None:
    """Write a discrete network as BIF, Hugin NET or GeNIe XDSL.

    Parameters
    ----------
    network : DiscreteBayesianNetwork
        A learner's ``network_``, :func:`skbn.parameters.fit_network`'s result, or a loaded
        network.
    path : str or path-like
        The file; the format comes from its suffix (``.bif``, ``.bif.gz``, ``.net``,
        ``.xdsl``) unless ``format`` is given.
    format : {"bif", "net", "xdsl"}, optional

    Examples
    --------
    >>> import tempfile, pathlib
    >>> from skbn.datasets import load_network
    >>> path = pathlib.Path(tempfile.mkdtemp()) / "asia.net"
    >>> write_network(load_network("asia"), path)
    >>> read_network(path).n_parameters
    18
    """
    fmt = network_format(path, format)
    NETWORK_FORMATS[fmt][2](network, path)  # each writer refuses what it cannot hold
