# SPDX-License-Identifier: BSD-3-Clause
"""Reading a data table from a CSV file: one policy for the command line and for notebooks."""

from __future__ import annotations

import csv
import os
from collections import Counter
from pathlib import Path

from skbn.utils._warnings import warn

__all__ = ["MISSING_LOOKALIKES", "MissingLookalikeWarning", "ManyStatesWarning", "read_table"]

#: Tokens that pandas, R and spreadsheets read as missing; :func:`read_table` reads them as
#: values unless ``na_values`` names them, and warns when a column holds one.
MISSING_LOOKALIKES = ("NA", "N/A", "n/a", "NaN", "nan", "-nan", "NULL", "null", "None", "#N/A")

_SEPARATORS = {";": "semicolons", "\t": "tabs", "|": "bars"}


class MissingLookalikeWarning(UserWarning):
    r"""Text columns hold tokens that other tools read as missing values.

    Parameters
    ----------
    message : str
    tokens : dict of str to list of str
        Each such column and the tokens it holds; kept as the attribute ``tokens``.

    Examples
    --------
    >>> import tempfile, pathlib, warnings
    >>> from skbn.io import read_table
    >>> path = pathlib.Path(tempfile.mkdtemp()) / "data.csv"
    >>> _ = path.write_text("smoke\nNA\nyes\n")
    >>> with warnings.catch_warnings(record=True) as caught:
    ...     warnings.simplefilter("always")
    ...     _ = read_table(path)
    >>> caught[0].message.tokens
    {'smoke': ['NA']}
    """

    def __init__(self, message: str, tokens: dict[str, list[str]]):
        super().__init__(message)
        self.tokens = tokens


class ManyStatesWarning(UserWarning):
    r"""Columns read as discrete have more distinct values than categories usually have.

    Parameters
    ----------
    message : str
    states : dict of str to int
        Each such float column and its number of distinct values; kept as the attribute
        ``states``.

    Examples
    --------
    >>> import tempfile, pathlib, warnings
    >>> from skbn.io import read_table
    >>> path = pathlib.Path(tempfile.mkdtemp()) / "data.csv"
    >>> _ = path.write_text("dose\n" + "\n".join(str(k / 7) for k in range(30)))
    >>> with warnings.catch_warnings(record=True) as caught:
    ...     warnings.simplefilter("always")
    ...     _ = read_table(path, kind="discrete")
    >>> caught[0].message.states
    {'dose': 30}
    """

    def __init__(self, message: str, states: dict[str, int]):
        super().__init__(message)
        self.states = states


def _header(path: Path) -> list[str]:
    # utf-8-sig: a byte-order mark (spreadsheets write one) is not part of the first name
    with open(path, newline="", encoding="utf-8-sig") as handle:
        return next(csv.reader(handle), [])


def read_table(path: str | os.PathLike, *, kind: str | None = None, na_values=()):
    r"""Read a CSV file of data as skbn's learners and the command line read it.

    Only empty cells, and cells holding one of ``na_values``, are missing values: a state
    named ``None`` or ``NA`` (the INSURANCE network has two) stays a state, and a text
    column holding a token that other tools read as missing (:data:`MISSING_LOOKALIKES`)
    gets a :class:`MissingLookalikeWarning` naming it. Repeated column names are refused
    (pandas would rename them), as is a file whose fields are separated by something other
    than commas.

    Parameters
    ----------
    path : str or path-like
        A comma-separated file with a header row of column names.
    kind : {"discrete", "gaussian"} or None, default=None
        ``None`` keeps pandas' types (numbers as numbers, text as text, so that
        :func:`skbn.data.check_data` decides each column's kind); ``"discrete"`` reads
        every column as categories (a float column with many distinct values gets a
        :class:`ManyStatesWarning`); ``"gaussian"`` reads every column as floats and
        refuses a column that holds text.
    na_values : sequence of str, default=()
        Tokens that mark missing values besides the empty cell.

    Returns
    -------
    pandas.DataFrame

    Examples
    --------
    >>> import tempfile, pathlib
    >>> from skbn.io import read_table
    >>> path = pathlib.Path(tempfile.mkdtemp()) / "data.csv"
    >>> _ = path.write_text("smoke,cough\nyes,None\nno,\n")
    >>> read_table(path, na_values=["None"])["cough"].isna().tolist()
    [True, True]
    >>> import warnings
    >>> with warnings.catch_warnings(record=True) as caught:
    ...     warnings.simplefilter("always")
    ...     X = read_table(path)  # a state named None stays a state, with a warning
    >>> X["cough"].tolist(), caught[0].category.__name__
    (['None', nan], 'MissingLookalikeWarning')
    """
    import pandas as pd

    if kind not in (None, "discrete", "gaussian"):
        raise ValueError(f"kind={kind!r}: choose 'discrete', 'gaussian' or None (as read).")
    path = Path(path)
    if not path.exists():
        raise ValueError(f"cannot read {str(path)!r}: no such file")
    na_values = [str(token) for token in na_values]
    try:
        header = _header(path)
        X = pd.read_csv(
            path, keep_default_na=False, na_values=["", *na_values], encoding="utf-8-sig"
        )
    except (pd.errors.ParserError, pd.errors.EmptyDataError, UnicodeDecodeError) as exc:
        raise ValueError(f"cannot read {str(path)!r} as CSV: {exc}") from None
    if len(header) == 1:
        # one column whose name holds another separator: a file that is not comma-separated
        found = [sep for sep in _SEPARATORS if sep in header[0]]
        if found:
            raise ValueError(
                f"{str(path)!r} reads as one column named {header[0][:60]!r}: its fields are "
                f"separated by {_SEPARATORS[found[0]]}, and skbn reads comma-separated files. "
                f"Convert it, e.g. python -c \"import pandas as pd; pd.read_csv('{path}', "
                f"sep={found[0]!r}).to_csv('data.csv', index=False)\"."
            )
    repeated = [name for name, count in Counter(header).items() if count > 1]
    if repeated:
        raise ValueError(
            f"{str(path)!r} repeats column names in its header: {repeated[:8]}; every column "
            "is a node, so names must be unique. Rename the repeated columns."
        )
    _warn_lookalikes(X, na_values)
    if kind == "discrete":
        return _as_discrete(X)
    if kind == "gaussian":
        return _as_gaussian(X)
    return X


def _warn_lookalikes(X, na_values) -> None:
    import pandas as pd

    lookalikes = set(MISSING_LOOKALIKES) - set(na_values)
    held = {
        str(c): sorted(set(X[c].astype(str)) & lookalikes)
        for c in X.columns
        if not pd.api.types.is_numeric_dtype(X[c]) and not pd.api.types.is_bool_dtype(X[c])
    }
    held = {c: tokens for c, tokens in held.items() if tokens}
    if held:
        shown = "; ".join(f"{c!r}: {', '.join(map(repr, t))}" for c, t in list(held.items())[:8])
        tokens = sorted({t for ts in held.values() for t in ts})
        warn(
            MissingLookalikeWarning(
                f"columns hold values that other tools read as missing ({shown}); skbn reads "
                f"them as states. If they mark missing values, pass na_values={tokens}.",
                held,
            )
        )


def _as_discrete(X):
    from skbn.data import INTEGER_STATES_WARNING

    many = {str(c): int(X[c].nunique()) for c in X.columns if X[c].dtype.kind == "f"}
    many = {c: k for c, k in many.items() if k > INTEGER_STATES_WARNING}
    if many:
        shown = ", ".join(f"{c!r}: {k}" for c, k in list(many.items())[:8])
        warn(
            ManyStatesWarning(
                f"reading as discrete makes every distinct value of these float columns a "
                f"state ({shown} states); bin them first (skbn.preprocessing.bin_continuous) "
                "unless they really are categories.",
                many,
            )
        )
    return X.astype("string").astype("category")  # missing values stay missing


def _as_gaussian(X):
    import pandas as pd

    text = [
        c for c in X.columns if pd.to_numeric(X[c], errors="coerce").isna().gt(X[c].isna()).any()
    ]
    if text:
        raise ValueError(
            f"reading every column as gaussian needs numbers, and {text[:5]} hold text; drop "
            "those columns, or keep each column's own type (no kind) so that text columns are "
            "read as discrete and numbers as measurements."
        )
    return X.astype(float)
