# SPDX-License-Identifier: BSD-3-Clause
"""GeNIe / SMILE XDSL files (XML).

A ``<smile>`` document lists its nodes under ``<nodes>``, parents before children. A
``<cpt id="...">`` node has ``<state id="..."/>`` elements, an optional ``<parents>`` list and
``<probabilities>`` running over the parents' configurations with the last parent fastest,
the node's own states fastest of all. ``<deterministic>`` nodes are read as 0/1 tables;
noisy-MAX, equation, decision and utility nodes are refused with a clear error. The writer adds
GeNIe's display extension (node names and a grid of positions) so the file opens laid out.

GeNIe itself wants identifiers (a letter, then letters, digits, '_') for node and state ids;
skbn writes state names as they are, which pyAgrum and pgmpy read back unchanged.
"""

from __future__ import annotations

import math
import os
import re
import xml.etree.ElementTree as ET

import numpy as np

from skbn.io._common import (
    NetworkFileError,
    build_network,
    check_identifiers,
    check_table_size,
    check_writable,
    read_text,
    rows_to_table,
    write_text,
)
from skbn.network._discrete import DiscreteBayesianNetwork

__all__ = ["parse_xdsl", "read_xdsl", "to_xdsl", "write_xdsl"]

_REFUSED_NODES = {
    "noisymax": "noisy-MAX",
    "noisyadder": "noisy-adder",
    "equation": "equation (continuous)",
    "decision": "decision",
    "utility": "utility",
    "mau": "multi-attribute utility",
    "tdcpt": "dynamic (temporal)",
}


def _fail(source: str, message: str):
    raise NetworkFileError(f"{source}: {message}")


def parse_xdsl(text: str, source: str = "<string>") -> DiscreteBayesianNetwork:
    """Parse GeNIe XDSL text into a :class:`~skbn.network.DiscreteBayesianNetwork`.

    Parameters
    ----------
    text : str
        The XDSL (XML) document.
    source : str, optional
        Name of the document in error messages.

    Returns
    -------
    DiscreteBayesianNetwork

    Raises
    ------
    NetworkFileError
        On malformed XML, an inconsistent table, or a node kind skbn does not read.

    Examples
    --------
    >>> bn = parse_xdsl('''<smile version="1.0" id="tiny"><nodes>
    ...   <cpt id="rain"><state id="no"/><state id="yes"/>
    ...     <probabilities>0.8 0.2</probabilities></cpt>
    ...   <cpt id="wet"><state id="dry"/><state id="wet"/><parents>rain</parents>
    ...     <probabilities>0.9 0.1 0.2 0.8</probabilities></cpt>
    ... </nodes></smile>''')
    >>> bn.name, bn.cpts["wet"].tolist()
    ('tiny', [[0.9, 0.1], [0.2, 0.8]])
    """
    # anywhere in the text: a declaration after padding or a long comment is still one
    if re.search(r"<!(DOCTYPE|ENTITY)", text):
        _fail(source, "document type declarations and entities are not accepted in XDSL")
    try:
        root = ET.fromstring(text)
    except ET.ParseError as exc:
        _fail(source, f"not well-formed XML ({exc})")
    if root.tag != "smile":
        _fail(source, f"the root element is <{root.tag}>, expected <smile> (is this XDSL?)")
    nodes = root.find("nodes")
    if nodes is None or len(nodes) == 0:
        _fail(source, "no <nodes> with at least one node (is this an XDSL network?)")
    name = root.get("id") or "network"
    states: dict[str, tuple[str, ...]] = {}
    parents: dict[str, tuple[str, ...]] = {}
    cpts: dict[str, np.ndarray] = {}
    for node in nodes:
        var = node.get("id")
        if not var:
            _fail(source, f"a <{node.tag}> node has no id")
        where = f"{source}, node {var!r}"
        if node.tag in _REFUSED_NODES:
            _fail(
                source,
                f"node {var!r} is a {_REFUSED_NODES[node.tag]} node; skbn reads chance nodes "
                "with a table (<cpt>) or deterministic ones",
            )
        if node.tag not in ("cpt", "deterministic"):
            _fail(source, f"node {var!r} is a <{node.tag}> element, which skbn does not read")
        if var in states:
            _fail(source, f"node {var!r} is declared twice")
        st = tuple(s.get("id") or "" for s in node.findall("state"))
        if not st or "" in st or len(set(st)) != len(st):
            _fail(source, f"node {var!r} needs at least one state, each with a distinct id")
        pa_el = node.find("parents")
        pa = tuple((pa_el.text or "").split()) if pa_el is not None else ()
        unknown = [u for u in pa if u not in states]
        if unknown:
            _fail(
                source,
                f"node {var!r} has parents {unknown} that are not declared before it "
                "(XDSL lists parents first)",
            )
        states[var] = st
        shape = tuple(len(states[u]) for u in pa) + (len(st),)
        check_table_size(where, var, shape)
        if node.tag == "cpt":
            probs = node.find("probabilities")
            if probs is None:
                _fail(source, f"node {var!r} has no <probabilities>")
            try:
                values = np.array((probs.text or "").split(), dtype=np.float64)
            except ValueError:
                _fail(source, f"the probabilities of {var!r} hold something that is not a number")
            cpts[var] = rows_to_table(where, var, values, shape)
        else:
            resulting = (node.findtext("resultingstates") or "").split()
            index = {s: k for k, s in enumerate(st)}
            if len(resulting) != math.prod(shape[:-1]) or any(s not in index for s in resulting):
                _fail(source, f"the <resultingstates> of {var!r} do not match its parents/states")
            table = np.zeros((len(resulting), len(st)))
            table[np.arange(len(resulting)), [index[s] for s in resulting]] = 1.0
            cpts[var] = table.reshape(shape)
        parents[var] = pa
    return build_network(source, states, parents, cpts, name)


def read_xdsl(path: str | os.PathLike) -> DiscreteBayesianNetwork:
    """Read a GeNIe XDSL file (plain or gzip-compressed).

    Parameters
    ----------
    path : str or path-like

    Returns
    -------
    DiscreteBayesianNetwork

    Examples
    --------
    >>> import tempfile, pathlib
    >>> from skbn.datasets import load_network
    >>> path = pathlib.Path(tempfile.mkdtemp()) / "asia.xdsl"
    >>> write_xdsl(load_network("asia"), path)
    >>> read_xdsl(path).states["smoke"]
    ('yes', 'no')
    """
    text, source = read_text(path, "GeNIe XDSL")
    return parse_xdsl(text, source)


def _numbers(table: np.ndarray) -> str:
    return " ".join(repr(float(x)) for x in table.ravel())


def to_xdsl(network: DiscreteBayesianNetwork) -> str:
    """Write a discrete network as GeNIe XDSL text (nodes listed parents first).

    Parameters
    ----------
    network : DiscreteBayesianNetwork
        Node names must be identifiers (letters, digits, '_').

    Returns
    -------
    str

    Examples
    --------
    >>> bn = parse_xdsl('<smile id="t"><nodes><cpt id="a"><state id="lo"/><state id="hi"/>'
    ...                 '<probabilities>0.25 0.75</probabilities></cpt></nodes></smile>')
    >>> print(to_xdsl(bn).splitlines()[3])
        <cpt id="a">
    """
    network = check_writable(network, "GeNIe XDSL")
    check_identifiers(network, "GeNIe XDSL")
    # an empty id, or a character XML 1.0 cannot hold, would not read back
    bad = [
        (v, str(s))
        for v in network.nodes
        for s in network.states[v]
        if not str(s).strip() or re.search(r"[\x00-\x08\x0b\x0c\x0e-\x1f]", str(s))
    ]
    if bad:
        raise ValueError(
            f"GeNIe XDSL state names must be non-empty and hold no control characters; "
            f"these are not: {bad[:8]}. Rename them, or write BIF or NET."
        )
    ident = re.sub(r"\W", "_", network.name) or "network"
    if not re.match(r"[A-Za-z_]", ident):
        ident = "n_" + ident
    root = ET.Element("smile", version="1.0", id=ident, numsamples="10000", discsamples="10000")
    nodes = ET.SubElement(root, "nodes")
    # parents first: the network's own topological order (smallest node index first)
    order = [network.nodes[i] for i in network._order.tolist()]
    for v in order:
        cpt = ET.SubElement(nodes, "cpt", id=v)
        for s in network.states[v]:
            ET.SubElement(cpt, "state", id=str(s))
        if network.parents[v]:
            ET.SubElement(cpt, "parents").text = " ".join(network.parents[v])
        ET.SubElement(cpt, "probabilities").text = _numbers(network.cpts[v])
    genie = ET.SubElement(
        ET.SubElement(root, "extensions"),
        "genie",
        version="1.0",
        app="skbn",
        name=network.name,
    )
    columns = max(1, math.ceil(math.sqrt(len(order))))
    for k, v in enumerate(network.nodes):
        node = ET.SubElement(genie, "node", id=v)
        ET.SubElement(node, "name").text = v
        ET.SubElement(node, "interior", color="e5f6f7")
        ET.SubElement(node, "outline", color="000080")
        ET.SubElement(node, "font", color="000000", name="Arial", size="8")
        x, y = 40 + 160 * (k % columns), 40 + 90 * (k // columns)
        ET.SubElement(node, "position").text = f"{x} {y} {x + 120} {y + 50}"
    ET.indent(root, space="    ")
    body = ET.tostring(root, encoding="unicode")
    return '<?xml version="1.0" encoding="UTF-8"?>\n' + body


def write_xdsl(network: DiscreteBayesianNetwork, path: str | os.PathLike) -> None:
    """Write a discrete network to a GeNIe XDSL file.

    Parameters
    ----------
    network : DiscreteBayesianNetwork
    path : str or path-like

    Examples
    --------
    >>> import tempfile, pathlib
    >>> from skbn.datasets import load_network
    >>> path = pathlib.Path(tempfile.mkdtemp()) / "cancer.xdsl"
    >>> write_xdsl(load_network("cancer"), path)
    >>> read_xdsl(path).parents["Xray"]
    ('Cancer',)
    """
    write_text(path, to_xdsl(network) + "\n")
