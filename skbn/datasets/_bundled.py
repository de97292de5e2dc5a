# SPDX-License-Identifier: BSD-3-Clause
"""The bnlearn repository networks shipped with skbn."""

from __future__ import annotations

import copy
import difflib
from functools import lru_cache
from importlib import resources

from skbn.io._bif import _read_text, parse_bif
from skbn.network._discrete import DiscreteBayesianNetwork

__all__ = ["list_networks", "load_network"]

_SUFFIX = ".bif.gz"


def _data_dir():
    return resources.files("skbn.datasets") / "data"


@lru_cache(maxsize=1)
def list_networks() -> list[str]:
    """Names of the bundled networks (from the bnlearn Bayesian network repository).

    Returns
    -------
    list of str
        Sorted names, usable with :func:`load_network`.

    Examples
    --------
    >>> names = list_networks()
    >>> len(names), names[:3]
    (24, ['alarm', 'andes', 'asia'])
    """
    return sorted(
        entry.name[: -len(_SUFFIX)]
        for entry in _data_dir().iterdir()
        if entry.name.endswith(_SUFFIX)
    )


@lru_cache(maxsize=32)
def _parsed(name: str) -> DiscreteBayesianNetwork:
    with resources.as_file(_data_dir() / f"{name}{_SUFFIX}") as path:
        bn = parse_bif(_read_text(path), source=f"{name}{_SUFFIX}")
    bn.name = name
    return bn


def load_network(name: str) -> DiscreteBayesianNetwork:
    """Load a bundled discrete Bayesian network by name.

    Parameters
    ----------
    name : str
        One of :func:`list_networks` (case-insensitive), e.g. ``"asia"``, ``"alarm"``,
        ``"insurance"``, ``"hepar2"``, ``"munin"``.

    Returns
    -------
    DiscreteBayesianNetwork
        Its ``graph`` is the true DAG; ``sample(n, random_state)`` draws data. Networks are
        parsed once per session; each call returns its own object.

    Examples
    --------
    >>> bn = load_network("asia")
    >>> bn
    DiscreteBayesianNetwork(name='asia', n_nodes=8, n_arcs=8, n_parameters=18)
    >>> bn.sample(3, random_state=0).shape
    (3, 8)
    """
    if not isinstance(name, str):
        raise TypeError(f"name must be a str, got {type(name).__name__}.")
    key = name.lower().removesuffix(_SUFFIX).removesuffix(".bif")
    names = list_networks()
    if key not in names:
        close = difflib.get_close_matches(key, names, n=3)
        hint = f" Did you mean {', '.join(map(repr, close))}?" if close else ""
        raise ValueError(f"Unknown network {name!r}.{hint} Available: {', '.join(names)}.")
    shared = _parsed(key)
    bn = copy.copy(shared)  # CPT arrays are read-only and shared; the mappings are not
    bn.states, bn.parents = dict(shared.states), dict(shared.parents)
    bn.cpts, bn.arities = dict(shared.cpts), dict(shared.arities)
    return bn
