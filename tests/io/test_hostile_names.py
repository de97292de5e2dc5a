# SPDX-License-Identifier: BSD-3-Clause
"""A catalogue of hostile names through every format skbn writes.

For each name as a node and as a state, writing either refuses it with a ValueError that
names it, or writes a file that skbn reads back unchanged. The names the writer did not warn
about (NetworkPortabilityWarning, naming the library) are then written together into one
file, which pyAgrum (and pgmpy, for BIF and NET) must read with exactly those names.
"""

import warnings

import numpy as np
import pytest

from skbn.io import NetworkPortabilityWarning, read_network, write_network
from skbn.network import DiscreteBayesianNetwork

CATALOGUE = [
    "a b",
    "x,y",
    "semi;colon",
    "brace{",
    "paren(",
    "pipe|",
    "eq=",
    'quote"',
    "apos'",
    "back\\slash",
    "é",
    "中文",
    "1lead",
    "x-y",
    "network",
    "variable",
    "probability",
    "table",
    "default",
    "//c",
    "/*c",
    "%c",
    "<lt",
    "&amp",
    "tab\tx",
    "",
    "  ",
    "nul\x00",
    "soh\x01",
    "a" * 300,
    "None",
    "NA",
    "nan",
    "1",
    "1.0",
    " trail ",
    "True",
]
LIBRARIES = {"bif": ["pyAgrum", "pgmpy"], "net": ["pyAgrum", "pgmpy"], "xdsl": ["pyAgrum"]}


def _network(nodes, states):
    """Root nodes ``nodes`` with ``states`` each, and a child ``zz`` of the first."""
    first = nodes[0]
    k = len(states)
    return DiscreteBayesianNetwork(
        {**{v: tuple(states) for v in nodes}, "zz": ("s0", "s1")},
        {**{v: () for v in nodes}, "zz": (first,)},
        {**{v: np.full(k, 1 / k) for v in nodes}, "zz": np.tile([0.3, 0.7], (k, 1))},
        name="h",
    )


def _as_node(name):
    return _network([name], ["s0", "s1"])


def _as_state(name):
    return _network(["v"], ["ok", name])


def _read_names(library, path, fmt):
    """``(nodes, states of v or None)`` as the other library reads the file."""
    if library == "pyAgrum":
        gum = pytest.importorskip("pyagrum")
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            bn = gum.loadBN(str(path))
        nodes = sorted(bn.names())
        return nodes, list(bn.variable("v").labels()) if "v" in nodes else None
    readwrite = pytest.importorskip("pgmpy.readwrite")
    reader = readwrite.BIFReader if fmt == "bif" else readwrite.NETReader
    model = reader(str(path)).get_model()
    nodes = sorted(model.nodes())
    return nodes, list(model.get_cpds("v").state_names["v"]) if "v" in nodes else None


@pytest.mark.parametrize("fmt", ["bif", "net", "xdsl"])
@pytest.mark.parametrize("kind", ["node", "state"])
def test_every_written_name_reads_back_or_is_refused_or_warned(tmp_path, fmt, kind):
    path = tmp_path / f"h.{fmt}"
    make = _as_node if kind == "node" else _as_state
    clean = {library: [] for library in LIBRARIES[fmt]}
    for name in CATALOGUE:
        try:
            bn = make(name)
        except ValueError:
            continue  # the model itself refuses it (an empty name)
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            try:
                write_network(bn, path)
            except ValueError as error:  # refused, saying what and where
                assert repr(name)[1:-1][:20] in str(error) or fmt.upper() in str(error)
                continue
        back = read_network(path)
        assert back.states == bn.states and back.parents == bn.parents, (fmt, name)
        for node in bn.nodes:
            np.testing.assert_allclose(back.cpts[node], bn.cpts[node])
        warned = " ".join(str(w.message) for w in caught if w.category is NetworkPortabilityWarning)
        for library in clean:
            if not (library in warned and repr(name)[1:-1] in warned):
                clean[library].append(name)
    # what the writer did not warn about, the other library reads exactly (one file each)
    for library, names in clean.items():
        assert names, library
        bn = _network(sorted(set(names)), ["s0", "s1"]) if kind == "node" else None
        if kind == "state":
            bn = _network(["v"], ["ok", *dict.fromkeys(n for n in names if n != "ok")])
        with warnings.catch_warnings():
            warnings.simplefilter("error", NetworkPortabilityWarning)
            write_network(bn, path)
        nodes, states = _read_names(library, path, fmt)
        assert nodes == sorted(bn.nodes), (library, fmt)
        if kind == "state":
            assert states == list(bn.states["v"]), (library, fmt)
