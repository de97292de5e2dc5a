# SPDX-License-Identifier: BSD-3-Clause
"""Hugin NET files (the text format of Hugin and of many tools that import it).

A file is a ``net { ... }`` block of attributes, one ``node NAME { states = ("a" "b"); }``
block per variable and one ``potential (CHILD | PARENT ...) { data = (...); }`` block per
table. The ``data`` list runs over the parents' configurations with the last parent fastest,
each holding the child's distribution; nesting parentheses are optional. Comments start with
``%``. Discrete chance nodes only: continuous, decision and utility nodes and object-oriented
classes are refused with a clear error.
"""

from __future__ import annotations

import os
import re
from array import array

import numpy as np

from skbn.io._common import (
    MAX_TABLE_ENTRIES,
    NetworkFileError,
    build_network,
    check_identifiers,
    check_table_size,
    check_writable,
    read_text,
    rows_to_table,
    warn_unportable,
    write_text,
)
from skbn.network._discrete import DiscreteBayesianNetwork

__all__ = ["parse_net", "read_net", "to_net", "write_net"]

_TOKEN = re.compile(
    r"""(?P<skip>\s+|%[^\n]*)
      |(?P<quoted>"(?:[^"\\]|\\.)*")
      |(?P<punct>[{}()=;|])
      |(?P<word>[^\s{}()=;|"%]+)""",
    re.VERBOSE | re.DOTALL,
)
#: Deepest nesting of parentheses read (one level per parent, plus one).
_MAX_DEPTH = 100
#: A state name the other libraries' NET readers take (see to_net).
_PORTABLE_STATE = re.compile(r"^[!-'*-+\--~]+$")  # printable ASCII but ',', '(', ')' and space
_UNSUPPORTED = {"continuous", "decision", "utility", "function", "class", "instance"}


class _Tokens:
    """Tokens read one at a time: the file's tokens are never all held at once."""

    def __init__(self, text: str, source: str) -> None:
        self.text, self.source = text, source
        self._items = self._scan()
        self._ahead = next(self._items, None)  # (kind, value, position) or None
        self._last = 0  # where the token read last starts

    def _scan(self):
        text, pos = self.text, 0
        for m in _TOKEN.finditer(text):
            if m.start() != pos:
                break
            pos = m.end()
            if m.lastgroup == "skip":
                continue
            value = m.group()
            if m.lastgroup == "quoted":
                value = re.sub(r"\\(.)", r"\1", value[1:-1])
            yield m.lastgroup, value, m.start()
        if pos != len(text):
            self.fail_at(pos, f"unexpected character {text[pos]!r}")

    def fail_at(self, pos: int, message: str):
        line = self.text.count("\n", 0, pos) + 1
        raise NetworkFileError(f"{self.source}, line {line}: {message}")

    def mark(self) -> int:
        """Where the next token starts (the end of the text after the last)."""
        return self._ahead[2] if self._ahead is not None else len(self.text)

    def fail(self, message: str):
        """Fail at the next token."""
        self.fail_at(self.mark(), message)

    def fail_last(self, message: str):
        """Fail at the token read last."""
        self.fail_at(self._last, message)

    def peek(self) -> str | None:
        return self._ahead[1] if self._ahead is not None else None

    def _closing(self) -> bool:
        """Whether the next token is an unquoted ``)``."""
        return self._ahead is not None and self._ahead[1] == ")" and self._ahead[0] != "quoted"

    def next(self, what: str) -> tuple[str, str]:
        if self._ahead is None:
            self.fail(f"unexpected end of file, expected {what}")
        kind, value, self._last = self._ahead
        self._ahead = next(self._items, None)
        return kind, value

    def expect(self, value: str) -> None:
        kind, got = self.next(repr(value))
        if got != value or kind == "quoted":
            self.fail_last(f"expected {value!r}, got {got!r}")

    def value(self, depth: int = 0):
        """An attribute value: a string, a word or number, or a (nested) list."""
        kind, tok = self.next("a value")
        if kind == "quoted" or kind == "word":
            return tok
        if tok != "(":
            self.fail_last(f"expected a value, got {tok!r}")
        if depth >= _MAX_DEPTH:
            self.fail_last(f"lists nested more than {_MAX_DEPTH} deep")
        items = []
        while not self._closing():
            items.append(self.value(depth + 1))
        self.next("')'")
        return items

    def numbers(self, limit: int, what: str) -> array:
        """A (nested) list of numbers, flattened; reading stops past ``limit`` of them."""
        values = array("d")  # 8 bytes a value, whatever the count
        kind, tok = self.next("a list of numbers")
        if tok != "(" or kind == "quoted":
            self.fail_last(f"{what} is not a list of numbers")
        depth = 1
        while depth:
            kind, tok = self.next("')'")
            if kind == "punct" and tok in ("(", ")"):
                depth += 1 if tok == "(" else -1
                if depth > _MAX_DEPTH:
                    self.fail_last(f"lists nested more than {_MAX_DEPTH} deep")
                continue
            if len(values) == limit:
                self.fail_last(f"{what} has more than the {limit:,} numbers expected")
            try:
                if kind != "word":
                    raise ValueError(tok)
                values.append(float(tok))
            except ValueError:
                self.fail_last(f"{what} holds something that is not a number")
        return values

    def attributes(self, numeric: dict | None = None) -> dict:
        """``{ name = value; ... }`` into a dict (the braces consumed).

        ``numeric`` maps attribute names read as flat lists of numbers to ``(limit, what)``
        (:meth:`numbers`).
        """
        numeric = numeric or {}
        self.expect("{")
        found: dict = {}
        while True:
            kind, name = self.next("an attribute or '}'")
            if name == "}" and kind != "quoted":
                return found
            if kind != "word":
                self.fail_last(f"expected an attribute name, got {name!r}")
            start = self._last
            self.expect("=")
            if name in numeric:
                found[name] = (self.numbers(*numeric[name]), start)
            else:
                found[name] = (self.value(), start)
            self.expect(";")


def _flatten(value) -> list:
    if isinstance(value, list):
        return [x for item in value for x in _flatten(item)]
    return [value]


def parse_net(text: str, source: str = "<string>") -> DiscreteBayesianNetwork:
    """Parse Hugin NET text into a :class:`~skbn.network.DiscreteBayesianNetwork`.

    Parameters
    ----------
    text : str
        The NET document.
    source : str, optional
        Name of the document in error messages.

    Returns
    -------
    DiscreteBayesianNetwork

    Raises
    ------
    NetworkFileError
        On a syntax or consistency error (with the line number), or a node kind other than
        discrete chance nodes.

    Examples
    --------
    >>> bn = parse_net('''
    ... net { name = "tiny"; }
    ... node rain { states = ("no" "yes"); }
    ... node wet { states = ("dry" "wet"); }
    ... potential (rain) { data = (0.8 0.2); }
    ... potential (wet | rain) { data = ((0.9 0.1) (0.2 0.8)); }
    ... ''')
    >>> bn.parents["wet"], bn.cpts["wet"][1].tolist()
    (('rain',), [0.2, 0.8])
    """
    ts = _Tokens(text, source)
    name = "network"
    states: dict[str, tuple[str, ...]] = {}
    tables: dict[str, tuple[tuple[str, ...], list, int]] = {}
    while ts.peek() is not None:
        start = ts.mark()
        kind, keyword = ts.next("'net', 'node' or 'potential'")
        if keyword == "net" and kind == "word":
            attrs = ts.attributes()
            if "name" in attrs and isinstance(attrs["name"][0], str):
                name = attrs["name"][0] or name
        elif keyword in ("node", "discrete") and kind == "word":
            if keyword == "discrete":
                ts.expect("node")
            _, var = ts.next("a node name")
            if var in states:
                ts.fail_at(start, f"node {var!r} is declared twice")
            attrs = ts.attributes()
            if "states" not in attrs or not isinstance(attrs["states"][0], list):
                ts.fail_at(start, f"node {var!r} has no 'states = (...)' list")
            st = attrs["states"][0]
            if not st or any(isinstance(s, list) for s in st) or len(set(st)) != len(st):
                ts.fail_at(
                    attrs["states"][1],
                    f"node {var!r} needs at least one state and distinct state names",
                )
            states[var] = tuple(st)
        elif keyword == "potential" and kind == "word":
            ts.expect("(")
            names, given = [], None
            while True:
                k, tok = ts.next("a node name or ')'")
                if tok == ")" and k != "quoted":
                    break
                if tok == "|" and k != "quoted":
                    given = len(names)
                    continue
                names.append(tok)
            if not names or given == 0 or (given is None and len(names) > 1):
                ts.fail_at(start, "a potential needs '(child)' or '(child | parents)'")
            child = names[0]
            if child in tables:
                ts.fail_at(start, f"second potential for {child!r}")
            # the data is read against the table's size when its nodes are declared already
            # (as Hugin writes them), against the largest table accepted otherwise
            limit = MAX_TABLE_ENTRIES
            if all(v in states for v in names):
                shape = tuple(len(states[u]) for u in names[1:]) + (len(states[child]),)
                limit = check_table_size(_where(source, text, start), child, shape)
            attrs = ts.attributes({"data": (limit, f"the data of {child!r}")})
            if "data" not in attrs:
                ts.fail_at(start, f"the potential of {child!r} has no 'data = (...)'")
            tables[child] = (tuple(names[1:]), attrs["data"][0], start)
        elif kind == "word" and keyword in _UNSUPPORTED:
            ts.fail_at(
                start,
                f"'{keyword}' blocks are not supported: skbn reads discrete chance nodes "
                "(node/discrete node) and their potentials",
            )
        else:
            ts.fail_at(start, f"expected 'net', 'node' or 'potential', got {keyword!r}")
    if not states:
        raise NetworkFileError(f"{source}: no node is declared (is this a Hugin NET file?)")
    parents, cpts = {}, {}
    for child, (pa, data, start) in tables.items():
        unknown = [v for v in (child, *pa) if v not in states]
        if unknown:
            ts.fail_at(start, f"the potential of {child!r} names undeclared nodes {unknown}")
        where = _where(source, text, start)
        shape = tuple(len(states[u]) for u in pa) + (len(states[child]),)
        check_table_size(where, child, shape)
        cpts[child] = rows_to_table(where, child, np.array(data, dtype=np.float64), shape)
        parents[child] = pa
    for var in states:
        if var not in tables:
            raise NetworkFileError(f"{source}: node {var!r} has no potential")
    return build_network(source, states, parents, cpts, name)


def _where(source: str, text: str, pos: int) -> str:
    return f"{source}, line {text.count(chr(10), 0, pos) + 1}"


def read_net(path: str | os.PathLike) -> DiscreteBayesianNetwork:
    """Read a Hugin NET file (plain or gzip-compressed).

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
    >>> path = pathlib.Path(tempfile.mkdtemp()) / "asia.net"
    >>> write_net(load_network("asia"), path)
    >>> read_net(path).parents["either"]
    ('lung', 'tub')
    """
    text, source = read_text(path, "Hugin NET")
    return parse_net(text, source)


def _string(value: str, what: str) -> str:
    """``value`` in double quotes; refused if it holds a quote or a backslash.

    Hugin NET has no escape for them that other readers understand (pyAgrum stops at a
    backslash before a quote), so a file skbn writes must not need one.
    """
    value = str(value)
    if '"' in value or "\\" in value:
        raise ValueError(
            f"{what} {value!r} cannot be written to Hugin NET: its strings cannot hold a "
            "double quote or a backslash that other readers (pyAgrum) understand. Rename it, "
            "or write XDSL, which holds any text."
        )
    return '"' + value + '"'


def _nested(table: np.ndarray) -> str:
    if table.ndim == 1:
        return "(" + " ".join(repr(float(x)) for x in table) + ")"
    return "(" + " ".join(_nested(t) for t in table) + ")"


def to_net(network: DiscreteBayesianNetwork) -> str:
    """Write a discrete network as Hugin NET text.

    Parameters
    ----------
    network : DiscreteBayesianNetwork
        Node names must be identifiers (letters, digits, '_'); state names may be any text.

    Returns
    -------
    str

    Examples
    --------
    >>> bn = parse_net('node a { states = ("lo" "hi"); } potential (a) { data = (0.25 0.75); }')
    >>> print(to_net(bn))
    net
    {
        name = "network";
    }
    <BLANKLINE>
    node a
    {
        label = "a";
        states = ("lo" "hi");
    }
    <BLANKLINE>
    potential (a)
    {
        data = (0.25 0.75);
    }
    """
    network = check_writable(network, "Hugin NET")
    check_identifiers(network, "Hugin NET")
    # the network's name is a label: a quote or backslash in it becomes "_" (see _string)
    name = network.name.replace('"', "_").replace("\\", "_")
    out = ["net", "{", f"    name = {_string(name, 'Network name')};", "}", ""]
    for v in network.nodes:
        st = " ".join(_string(s, f"State of {v!r}") for s in network.states[v])
        label = _string(v, "Node name")
        out += [f"node {v}", "{", f"    label = {label};", f"    states = ({st});", "}", ""]
    for v in network.nodes:
        pa = network.parents[v]
        head = f"potential ({v} | {' '.join(pa)})" if pa else f"potential ({v})"
        out += [head, "{", f"    data = {_nested(network.cpts[v])};", "}", ""]
    # measured over a catalogue of names (tests/io/test_hostile_names.py): pgmpy's NET
    # reader splits state names at white space, commas, brackets and '//', and pyAgrum's
    # reads a non-ASCII state name as empty
    warn_unportable(
        "Hugin NET",
        [
            str(s)
            for v in network.nodes
            for s in network.states[v]
            if not _PORTABLE_STATE.match(str(s)) or "//" in str(s)
        ],
        "pgmpy's NET reader fails on state names with spaces, commas, brackets or '//', and "
        "pyAgrum's reads non-ASCII ones as empty",
        "Rename those states (letters, digits, '_') to be read by them.",
    )
    return "\n".join(out).rstrip("\n")


def write_net(network: DiscreteBayesianNetwork, path: str | os.PathLike) -> None:
    """Write a discrete network to a Hugin NET file.

    Parameters
    ----------
    network : DiscreteBayesianNetwork
    path : str or path-like

    Examples
    --------
    >>> import tempfile, pathlib
    >>> from skbn.datasets import load_network
    >>> path = pathlib.Path(tempfile.mkdtemp()) / "cancer.net"
    >>> write_net(load_network("cancer"), path)
    >>> read_net(path).states["Pollution"]
    ('low', 'high')
    """
    text = to_net(network) + "\n"
    write_text(path, text)
