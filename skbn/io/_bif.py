# SPDX-License-Identifier: BSD-3-Clause
"""Reading and writing discrete Bayesian networks in the BIF text format.

The reader accepts what the bnlearn repository and most tools write: a ``network`` block,
``variable`` blocks with ``type discrete [ k ] { ... };``, and ``probability`` blocks whose
entries are ``table`` lists, ``default`` rows or ``(parent states) probabilities`` rows, with
``//`` and ``/* */`` comments and ``property`` lines ignored. Files may be gzip-compressed.
Every problem is reported with its line number.

For a conditional ``table`` entry (rare in practice) the values are read with the child's
state varying slowest and the last parent fastest; the writer always writes one row per
parent configuration, so a written file reads back unchanged.
"""

from __future__ import annotations

import math
import os
import re
from array import array
from pathlib import Path

import numpy as np

from skbn.io._common import (
    MAX_TABLE_ENTRIES,
    ROW_SUM_TOLERANCE,
    NetworkFileError,
    _read_text,
    check_writable,
    warn_unportable,
    write_text,
)
from skbn.network._discrete import DiscreteBayesianNetwork

__all__ = ["read_bif", "write_bif", "parse_bif", "BIFError"]

_TOKEN = re.compile(
    r"""(?P<skip>\s+|//[^\n]*|/\*.*?\*/)
      |(?P<unclosed>/\*)
      |(?P<quoted>"[^"]*")
      |(?P<punct>[{}()\[\];,|])
      |(?P<word>[^\s{}()\[\];,|"]+)""",
    re.VERBOSE | re.DOTALL,
)
_WORD = re.compile(r'^(?!.*//)(?!.*/\*)[^\s{}()\[\];,|"]+$')


class BIFError(NetworkFileError):
    """A malformed BIF file; the message gives the line number.

    A :class:`~skbn.io.NetworkFileError`, as the errors of the other formats are.

    Examples
    --------
    >>> try:
    ...     parse_bif("variable a { type discrete [ 2 ] { lo }; }")
    ... except BIFError as error:
    ...     print("line" in str(error))
    True
    """


class _Parser:
    """Tokens read one at a time: the file's tokens are never all held at once."""

    def __init__(self, text: str, source: str) -> None:
        self.text = text
        self.source = source
        self._tokens = self._scan()
        self._ahead = next(self._tokens, None)
        self._last = 0  # where the token read last starts

    def _scan(self):
        text, pos = self.text, 0
        for m in _TOKEN.finditer(text):
            if m.start() != pos:
                self.fail_at(pos, f"unexpected character {text[pos]!r}")
            pos = m.end()
            kind = m.lastgroup
            if kind == "skip":
                continue
            if kind == "unclosed":  # found at once: rescanning for '*/' would be quadratic
                self.fail_at(m.start(), "comment opened with '/*' is never closed")
            value = m.group()
            yield (value[1:-1] if kind == "quoted" else value), m.start()
        if pos != len(text):
            self.fail_at(pos, f"unexpected character {text[pos]!r}")

    def line_of(self, pos: int) -> int:
        return self.text.count("\n", 0, pos) + 1

    def mark(self) -> int:
        """Where the next token starts (the end of the text after the last)."""
        return self._ahead[1] if self._ahead is not None else len(self.text)

    def fail_at(self, pos: int, message: str):
        raise BIFError(f"{self.source}, line {self.line_of(pos)}: {message}")

    def fail(self, message: str):
        """Fail at the next token."""
        self.fail_at(self.mark(), message)

    def fail_last(self, message: str):
        """Fail at the token read last."""
        self.fail_at(self._last, message)

    def peek(self) -> str | None:
        return self._ahead[0] if self._ahead is not None else None

    def next(self, what: str = "a token") -> str:
        if self._ahead is None:
            self.fail(f"unexpected end of file, expected {what}")
        value, self._last = self._ahead
        self._ahead = next(self._tokens, None)
        return value

    def expect(self, value: str) -> None:
        got = self.peek()
        if got != value:
            self.fail(
                f"expected {value!r}, got {got!r}"
                if got is not None
                else f"unexpected end of file, expected {value!r}"
            )
        self.next()

    def skip_statement(self) -> None:
        """Skip to the end of a ``property ... ;`` statement."""
        while self.next("';'") != ";":
            pass

    def skip_block(self) -> None:
        """Skip a ``{ ... }`` block, nested braces included."""
        self.expect("{")
        depth = 1
        while depth:
            tok = self.next("'}'")
            depth += tok == "{"
            depth -= tok == "}"

    def word_list(self, close: str) -> list[str]:
        """Comma-separated words up to ``close`` (consumed)."""
        items = []
        while True:
            tok = self.next(f"a name or {close!r}")
            if tok == close:
                return items
            if tok == ",":
                continue
            if tok in "{}()[];|":
                self.fail_last(f"expected a name, got {tok!r}")
            items.append(tok)

    def numbers(self, limit: int, what: str) -> array:
        """Probabilities up to ';' (consumed), commas optional; at most ``limit`` of them.

        Reading stops at the first value past ``limit`` (``what`` names the entry in the
        message), so an oversized entry is refused without being held.
        """
        values = array("d")  # 8 bytes a value, whatever the count
        while True:
            tok = self.next("a number or ';'")
            if tok == ";":
                return values
            if tok == ",":
                continue
            if len(values) == limit:
                self.fail_last(f"{what} has more than the {limit:,} values expected")
            try:
                values.append(float(tok))
            except ValueError:
                self.fail_last(f"expected a probability, got {tok!r}")


def parse_bif(text: str, source: str = "<string>") -> DiscreteBayesianNetwork:
    """Parse BIF text into a :class:`DiscreteBayesianNetwork`.

    Parameters
    ----------
    text : str
        The BIF document.
    source : str, optional
        Name of the document in error messages; ``"<string>"`` by default.

    Returns
    -------
    DiscreteBayesianNetwork

    Raises
    ------
    BIFError
        On any syntax or consistency error, with the line number.

    Examples
    --------
    >>> bn = parse_bif('''
    ... network tiny { }
    ... variable a { type discrete [ 2 ] { lo, hi }; }
    ... probability ( a ) { table 0.3, 0.7; }
    ... ''')
    >>> bn.states["a"], bn.cpts["a"].tolist()
    (('lo', 'hi'), [0.3, 0.7])
    """
    ps = _Parser(text, source)
    name = "network"
    states: dict[str, tuple[str, ...]] = {}
    parents: dict[str, tuple[str, ...]] = {}
    cpts: dict[str, np.ndarray] = {}
    while ps.peek() is not None:
        keyword = ps.next()
        if keyword == "network":
            name = ps.next("a network name")
            ps.skip_block()
        elif keyword == "variable":
            _parse_variable(ps, states)
        elif keyword == "probability":
            _parse_probability(ps, states, parents, cpts)
        else:
            ps.fail_last(f"expected 'network', 'variable' or 'probability', got {keyword!r}")
    if not states:
        raise BIFError(f"{source}: no variable is declared (is this a BIF file?)")
    missing = [v for v in states if v not in cpts]
    if missing:
        raise BIFError(f"{source}: no probability block for variables {missing[:8]}")
    try:
        return DiscreteBayesianNetwork(states, parents, cpts, name=name)
    except ValueError as exc:
        raise BIFError(f"{source}: {exc}") from None


def _parse_variable(ps: _Parser, states: dict) -> None:
    start = ps.mark()
    var = ps.next("a variable name")
    if var in states:
        ps.fail_at(start, f"variable {var!r} is declared twice")
    ps.expect("{")
    declared = None
    while True:
        tok = ps.next("'type', 'property' or '}'")
        if tok == "}":
            break
        if tok == "property":
            ps.skip_statement()
        elif tok == "type":
            if ps.next("'discrete'") != "discrete":
                ps.fail_last("only discrete variables are supported")
            ps.expect("[")
            count_at = ps.mark()
            count_tok = ps.next("the number of states")
            try:
                count = int(count_tok)
            except ValueError:
                ps.fail_last(f"expected the number of states, got {count_tok!r}")
            ps.expect("]")
            if count < 1:
                ps.fail_at(
                    count_at, f"variable {var!r} declares {count} states; it needs at least one"
                )
            ps.expect("{")
            here = ps.mark()
            declared = ps.word_list("}")
            if len(declared) != count or len(set(declared)) != count:
                ps.fail_at(
                    here,
                    f"variable {var!r} declares {count} states but lists "
                    f"{len(declared)} ({len(set(declared))} distinct)",
                )
            ps.expect(";")
        else:
            ps.fail_last(f"expected 'type' or 'property', got {tok!r}")
    if declared is None:
        ps.fail_at(start, f"variable {var!r} has no type declaration")
    states[var] = tuple(declared)


def _parse_probability(ps: _Parser, states: dict, parents: dict, cpts: dict) -> None:
    ps.expect("(")
    head = ps.mark()
    names = []
    given = None
    while True:
        tok = ps.next("a variable name or ')'")
        if tok == ")":
            break
        if tok == "|":
            given = len(names)
            continue
        if tok != ",":
            names.append(tok)
    if not names or given == 0:
        ps.fail_at(head, "a probability block needs a child variable before '|'")
    child, pa = names[0], tuple(names[1:])
    if given is None and pa:
        ps.fail_at(head, "several variables without '|' in a probability block")
    for v in names:
        if v not in states:
            ps.fail_at(head, f"variable {v!r} is used before it is declared")
    if child in cpts:
        ps.fail_at(head, f"second probability block for {child!r}")
    r = len(states[child])
    pa_shape = tuple(len(states[u]) for u in pa)
    entries = r * math.prod(pa_shape)
    if entries > MAX_TABLE_ENTRIES:
        ps.fail_at(
            head,
            f"the table of {child!r} given {len(pa)} parents would hold {entries:,} "
            f"probabilities, more than the {MAX_TABLE_ENTRIES:,} this reader accepts "
            "(skbn.io.MAX_TABLE_ENTRIES)",
        )
    table = np.full(pa_shape + (r,), np.nan)
    rows_seen: set = set()
    ps.expect("{")
    while True:
        start = ps.mark()
        tok = ps.next("'table', '(', 'default' or '}'")
        if tok == "}":
            break
        if tok == "property":
            ps.skip_statement()
        elif tok == "table":
            values = ps.numbers(table.size, f"the table of {child!r}")
            if len(values) != table.size:
                ps.fail_at(
                    start, f"table of {child!r} has {len(values)} values, expected {table.size}"
                )
            arr = np.moveaxis(np.asarray(values).reshape((r,) + pa_shape), 0, -1)
            _check_rows(ps, start, child, arr.reshape(-1, r))
            table[...] = arr
        elif tok == "default":
            values = ps.numbers(r, f"the default row of {child!r}")
            if len(values) != r:
                ps.fail_at(
                    start, f"default row of {child!r} has {len(values)} values, expected {r}"
                )
            _check_rows(ps, start, child, np.asarray([values]))
            unset = np.isnan(table[..., 0])
            table[unset] = values
        elif tok == "(":
            config = ps.word_list(")")
            if len(config) != len(pa):
                ps.fail_at(
                    start, f"row of {child!r} names {len(config)} parent states, expected {len(pa)}"
                )
            index = []
            for u, s in zip(pa, config):
                try:
                    index.append(states[u].index(s))
                except ValueError:
                    ps.fail_at(start, f"{s!r} is not a state of {u!r}")
            values = ps.numbers(r, f"row {tuple(config)} of {child!r}")
            if len(values) != r:
                ps.fail_at(
                    start,
                    f"row {tuple(config)} of {child!r} has {len(values)} values, expected {r}",
                )
            _check_rows(ps, start, child, np.asarray([values]))
            if tuple(index) in rows_seen:
                ps.fail_at(start, f"row {tuple(config)} of {child!r} is given twice")
            rows_seen.add(tuple(index))
            table[tuple(index)] = values
        else:
            ps.fail_last(f"expected 'table', '(', 'default' or '}}', got {tok!r}")
    rows = table.reshape(-1, r)
    if np.isnan(rows).any():
        ps.fail_at(head, f"probability block of {child!r} leaves parent configurations unspecified")
    cpts[child] = (rows / rows.sum(axis=1, keepdims=True)).reshape(table.shape)
    parents[child] = pa


def _check_rows(ps: _Parser, start: int, child: str, rows: np.ndarray) -> None:
    sums = rows.sum(axis=1)
    if np.any(rows < 0) or np.any(np.abs(sums - 1) > ROW_SUM_TOLERANCE):
        ps.fail_at(start, f"probabilities of {child!r} are negative or do not sum to 1")


def read_bif(path: str | os.PathLike) -> DiscreteBayesianNetwork:
    """Read a BIF file (plain or gzip-compressed).

    Parameters
    ----------
    path : str or path-like
        The file; a ``.gz`` suffix is read as gzip.

    Returns
    -------
    DiscreteBayesianNetwork

    Raises
    ------
    BIFError
        If the file is malformed (the message gives the line number).

    Examples
    --------
    >>> import tempfile, pathlib
    >>> path = pathlib.Path(tempfile.mkdtemp()) / "tiny.bif"
    >>> _ = path.write_text("variable a { type discrete [ 2 ] { lo, hi }; } "
    ...                     "probability ( a ) { table 0.25, 0.75; }")
    >>> read_bif(path).states["a"]
    ('lo', 'hi')
    """
    path = Path(path)
    if not path.exists():
        raise FileNotFoundError(f"No such BIF file: {str(path)!r}.")
    try:
        text = _read_text(path)
    except NetworkFileError as exc:
        raise BIFError(str(exc)) from None
    return parse_bif(text, source=path.name)


#: Words of the format itself: a network named after one is written as ``unnamed``.
BIF_KEYWORDS = frozenset(
    {"network", "variable", "probability", "property", "type", "discrete", "default", "table"}
)


#: A name pyAgrum's BIF reader takes: letters, digits, '_', '-' and '.' (not first), not a
#: keyword (its keywords are lower case: "DISCRETE" is a name) and not a number, though a
#: state may be a whole number. Measured over a catalogue of names and the bundled networks
#: (tests/io/test_hostile_names.py): its lexer reads keywords, numbers, and anything with
#: other characters ('/', '+', '<', '=', '%', '&', accents, quotes) as syntax errors.
_PORTABLE = re.compile(r"^[A-Za-z0-9_][A-Za-z0-9_.\-]*$")
_WHOLE = re.compile(r"^[0-9]+$")
_DECIMAL = re.compile(r"^[0-9]+\.[0-9]*$")


def _portable(name: str, state: bool) -> bool:
    if not _PORTABLE.match(name) or name in BIF_KEYWORDS or _DECIMAL.match(name):
        return False
    return state or not _WHOLE.match(name)


def _check_word(what: str, value: str) -> str:
    if not _WORD.match(value):
        raise ValueError(
            f"{what} {value!r} cannot be written to BIF: names may not contain spaces, "
            "quotes, '//', '/*' or any of {}()[];,|."
        )
    return value


def to_bif(bn: DiscreteBayesianNetwork) -> str:
    """Write a discrete Bayesian network as BIF text (one row per parent configuration).

    A network named after a word of the format (a nameless network is read as
    ``"network"``) is written as ``unnamed``, which other readers (pyAgrum) accept; in the
    network's name, characters BIF cannot hold (spaces, quotes, brackets) become ``_``.
    Variable and state names are data and are refused instead.

    Parameters
    ----------
    bn : DiscreteBayesianNetwork
        The network.

    Returns
    -------
    str

    Examples
    --------
    >>> bn = parse_bif("variable a { type discrete [ 2 ] { lo, hi }; } "
    ...                "probability ( a ) { table 0.25, 0.75; }")
    >>> print(to_bif(bn))
    network unnamed {
    }
    variable a {
      type discrete [ 2 ] { lo, hi };
    }
    probability ( a ) {
      table 0.25, 0.75;
    }
    """
    bn = check_writable(bn, "BIF")
    # the network's name is a label, not data: what BIF cannot hold becomes "_" (as XDSL's
    # writer does), so a NET or XDSL network named "my net" converts to BIF
    name = re.sub(r"[^A-Za-z0-9_.\-]", "_", bn.name).strip("_") or "unnamed"
    if name.lower() in BIF_KEYWORDS:
        # "network network {" (a nameless network read back) stops pyAgrum's parser
        name = "unnamed"
    out = [f"network {name} {{", "}"]
    for v in bn.nodes:
        st = ", ".join(_check_word(f"State of {v!r}", str(s)) for s in bn.states[v])
        out += [
            f"variable {_check_word('Variable name', v)} {{",
            f"  type discrete [ {len(bn.states[v])} ] {{ {st} }};",
            "}",
        ]
    unportable = [v for v in bn.nodes if not _portable(v, state=False)]
    unportable += [str(s) for v in bn.nodes for s in bn.states[v] if not _portable(str(s), True)]
    warn_unportable(
        "BIF",
        unportable,
        "pyAgrum's BIF reader refuses these names (keywords, numbers as variable names, "
        "characters other than letters, digits, '_', '-' and '.')",
        "Rename them to be read by pyAgrum; pgmpy and bnlearn read them.",
    )
    for v in bn.nodes:
        pa = bn.parents[v]
        table = bn.cpts[v]
        if not pa:
            out += [f"probability ( {v} ) {{", f"  table {_numbers(table)};", "}"]
            continue
        out.append(f"probability ( {v} | {', '.join(pa)} ) {{")
        for index in np.ndindex(*table.shape[:-1]):
            config = ", ".join(str(bn.states[u][k]) for u, k in zip(pa, index))
            out.append(f"  ({config}) {_numbers(table[index])};")
        out.append("}")
    return "\n".join(out)


def _numbers(values: np.ndarray) -> str:
    return ", ".join(repr(float(x)) for x in values)


def write_bif(bn: DiscreteBayesianNetwork, path: str | os.PathLike) -> None:
    """Write a network to a BIF file; a ``.gz`` suffix writes it gzip-compressed.

    Parameters
    ----------
    bn : DiscreteBayesianNetwork
        The network.
    path : str or path-like
        The file to write.

    Examples
    --------
    >>> import tempfile, pathlib
    >>> from skbn.datasets import load_network
    >>> path = pathlib.Path(tempfile.mkdtemp()) / "asia.bif.gz"
    >>> write_bif(load_network("asia"), path)
    >>> read_bif(path).cpts["dysp"].shape == load_network("asia").cpts["dysp"].shape
    True
    """
    write_text(path, to_bif(bn) + "\n")
