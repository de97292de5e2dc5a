# SPDX-License-Identifier: BSD-3-Clause
"""DataSchema: the names, kinds and states of checked data, and the one encoder of new rows.

A fitted learner, the classifier and the networks all meet rows they did not see during fit
(``score_samples``, ``predict_proba``, ``log_likelihood``, evidence). Each used to turn such
rows into codes its own way; they now ask the schema of the data they were fitted on.
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np
import pandas as pd

#: How a value outside the states is described, by where the rows come from:
#: (subject, what it has, what the states are, who saw the lookalike state).
_UNSEEN_WORDS = {
    "fit": ("Column {!r}", "has values not seen during fit", "the fitted states are", "fit saw"),
    "network": (
        "Column {!r}",
        "has values that are not states of the node",
        "its states are",
        "the node has",
    ),
    "evidence": (
        "Evidence on {!r}",
        "holds values that are not its states",
        "its states are",
        "the node has",
    ),
}


class EncodedRows(NamedTuple):
    """New rows encoded as the fit did: what :meth:`DataSchema.encode` returns.

    Parameters
    ----------
    codes : ndarray of shape (n_samples, n_features), dtype int16, or None
        State codes of the discrete columns (0 in continuous ones; -1 for a missing or, when
        allowed, unseen value); None when no column is discrete.
    values : ndarray of shape (n_samples, n_features), dtype float64, or None
        Values of the continuous columns (0.0 in discrete ones; NaN where missing, when
        allowed); None when no column is continuous.
    unseen : list of (str, list)
        With ``unknown="missing"``: each column that held values the schema's states lack,
        with up to 100 of those values.

    Examples
    --------
    >>> import pandas as pd
    >>> from skbn.data import check_data
    >>> schema = check_data(pd.DataFrame({"a": ["x", "y"]})).schema
    >>> rows = schema.encode(pd.DataFrame({"a": ["y", "w", None]}), missing="allow",
    ...                      unknown="missing")
    >>> rows.codes[:, 0].tolist(), rows.values, rows.unseen
    ([1, -1, -1], None, [('a', ['w'])])
    """

    codes: np.ndarray | None
    values: np.ndarray | None
    unseen: list


def unseen_values_error(name, unseen, states, origin: str = "fit") -> ValueError:
    """The error for values of column ``name`` that are not among its ``states``.

    A value whose text is a state's text but whose type differs (``1`` where the states hold
    ``"1"``) gets its own message: the column has the wrong type, not a new category.
    """
    unseen = list(dict.fromkeys(unseen))
    subject, has, are, saw = _UNSEEN_WORDS[origin]
    subject = subject.format(name)
    as_text = {str(s): s for s in states}
    lookalikes = [v for v in unseen if str(v) in as_text]
    if lookalikes:
        value = lookalikes[0]
        state = as_text[str(value)]
        return ValueError(
            f"{subject} holds {value!r} ({type(value).__name__}) where {saw} "
            f"{state!r} ({type(state).__name__}): the same text, another type. Give the "
            f"column the type of the states (e.g. X[{name!r}].astype(str))."
        )
    return ValueError(
        f"{subject} {has}: {sorted(map(str, unseen))[:5]}; {are} {list(map(str, states))[:10]}."
    )


def encode_column(
    name,
    column: pd.Series,
    states,
    *,
    missing: str = "error",
    unknown: str = "error",
    origin: str = "fit",
    match_text: bool = False,
) -> tuple[np.ndarray, list]:
    """Codes of ``column`` in ``states``, and the values found outside them.

    Parameters
    ----------
    name : str
        The column's name, for messages.
    column : pandas.Series
    states : sequence
        The state labels, in code order.
    missing : {"error", "allow"}
        Refuse a missing value (NaN, None, pd.NA), or give it the code -1.
    unknown : {"error", "missing"}
        Refuse a value outside ``states``, or give it the code -1 and report it. A value
        that differs from a state only by its type is refused either way.
    origin : {"fit", "network", "evidence"}
        Where the rows come from, for the wording of the refusal.
    match_text : bool, default=False
        Take a value whose text is a state's text as that state (``1`` for ``"1"``), as for
        evidence typed by hand against states read from a file; otherwise such a value is
        refused as a column of the wrong type.

    Returns
    -------
    codes : ndarray of shape (n,), dtype int64
    unseen : list
        Up to 100 distinct values outside ``states`` (empty unless ``unknown="missing"``).
    """
    absent = column.isna().to_numpy()
    if missing == "error" and absent.any():
        raise ValueError(f"Column {name!r} contains missing values (NaN/None).")
    index = pd.Index(list(states))
    if isinstance(column.dtype, pd.CategoricalDtype):
        # map the categories once, then their codes (-1 stays missing)
        codes = np.append(index.get_indexer(column.cat.categories), -1)[column.cat.codes]
    elif column.dtype.kind in "biuf" and index.inferred_type in ("integer", "floating"):
        codes = index.get_indexer(column.to_numpy())  # numeric hashing, no boxing
    else:
        codes = index.get_indexer(column.to_numpy(dtype=object))
    codes = np.asarray(codes, dtype=np.int64)
    outside = (codes < 0) & ~absent
    if match_text and outside.any():
        as_text = pd.Index([str(s) for s in states])
        retry = as_text.get_indexer(column.astype(str).to_numpy(dtype=object))
        codes = np.where(outside, retry, codes)
        outside = (codes < 0) & ~absent
    if not outside.any():
        return codes, []
    values = column[outside].drop_duplicates().tolist()[:100]  # Python scalars
    as_text = {str(s) for s in states}
    if unknown == "error" or any(str(v) in as_text for v in values):
        raise unseen_values_error(name, values, states, origin)
    return codes, values


class DataSchema:
    """The names, kinds and states of checked data: what new rows are encoded against.

    Every checked-data container has one (``data.schema``); a fitted learner keeps the
    schema of its training data, and :meth:`encode` turns new rows (a DataFrame, an array
    or a checked container) into the codes and values its network reads, with the same
    checks for every caller: the columns and their order, missing values, values outside
    the fitted states, a column of the other kind.

    Parameters
    ----------
    names : sequence of str
        Column (node) names.
    discrete : sequence of bool
        Which columns are discrete.
    states : sequence of sequence
        The state labels of each discrete column, in code order (``()`` for a continuous
        one).
    origin : {"fit", "network", "evidence"}, default="fit"
        Where the rows come from, for the wording of a refusal.

    Examples
    --------
    >>> import pandas as pd
    >>> from skbn.data import check_data
    >>> schema = check_data(pd.DataFrame({"a": ["x", "y"], "b": [0.5, 1.5]})).schema
    >>> schema.kind, schema.states
    ('mixed', (('x', 'y'), ()))
    >>> rows = schema.encode(pd.DataFrame({"a": ["y", "x", "y"], "b": [2.0, 0.0, 1.0]}))
    >>> rows.codes[:, 0].tolist(), rows.values[:, 1].tolist()
    ([1, 0, 1], [2.0, 0.0, 1.0])
    """

    def __init__(self, names, discrete, states, origin: str = "fit") -> None:
        self.names = tuple(str(n) for n in names)
        self.discrete = np.asarray(discrete, dtype=bool).copy()
        self.discrete.setflags(write=False)
        self.states = tuple(tuple(s) for s in states)
        if not (len(self.names) == len(self.discrete) == len(self.states)):
            raise ValueError("names, discrete and states must have one entry per column.")
        if origin not in _UNSEEN_WORDS:
            raise ValueError(f"origin must be one of {sorted(_UNSEEN_WORDS)}, got {origin!r}.")
        self.origin = origin

    @property
    def kind(self) -> str:
        """``"discrete"``, ``"gaussian"`` or ``"mixed"``."""
        if self.discrete.all() and len(self.discrete):
            return "discrete"
        return "mixed" if self.discrete.any() else "gaussian"

    @property
    def n_features(self) -> int:
        """Number of columns."""
        return len(self.names)

    def arities(self) -> np.ndarray:
        """Number of states of each column (1 for a continuous one).

        Returns
        -------
        ndarray of shape (n_features,), dtype int64
        """
        return np.array([max(len(s), 1) for s in self.states], dtype=np.int64)

    def take(self, columns) -> DataSchema:
        """The schema of some columns.

        Parameters
        ----------
        columns : slice or sequence of int
            Column positions, in the order wanted.

        Returns
        -------
        DataSchema
        """
        cols = np.arange(self.n_features)[columns]
        return DataSchema(
            [self.names[j] for j in cols],
            self.discrete[cols],
            [self.states[j] for j in cols],
            self.origin,
        )

    def __repr__(self) -> str:
        return f"DataSchema(kind={self.kind!r}, n_features={self.n_features})"

    def __eq__(self, other) -> bool:
        return (
            isinstance(other, DataSchema)
            and self.names == other.names
            and np.array_equal(self.discrete, other.discrete)
            and self.states == other.states
        )

    __hash__ = None  # mutable-looking arrays inside: compare, do not hash

    # -- encoding ------------------------------------------------------------------------------

    def encode(
        self, X, *, missing: str = "error", unknown: str = "error", who: str | None = None
    ) -> EncodedRows:
        """Encode the rows of ``X`` against this schema.

        Parameters
        ----------
        X : DataFrame, array-like of shape (n_samples, n_features), or checked data
            The same columns, in the same order, as the schema's.
        missing : {"error", "allow"}, default="error"
            Refuse missing values, or keep them (code -1, value NaN).
        unknown : {"error", "missing"}, default="error"
            Refuse a value outside a column's states, or encode it as missing (-1) and
            report it in ``unseen``.
        who : str, optional
            The estimator that asks, for the message about a wrong number of columns.

        Returns
        -------
        EncodedRows
        """
        if not isinstance(X, pd.DataFrame) and isinstance(getattr(X, "schema", None), DataSchema):
            return self._encode_checked(X)  # checked data: a resample of the engine
        frame = self._frame(X, who)
        n, p = len(frame), self.n_features
        kind = self.kind
        codes = np.zeros((n, p), dtype=np.int16, order="F") if kind != "gaussian" else None
        values = np.zeros((n, p), dtype=np.float64, order="F") if kind != "discrete" else None
        unseen = []
        for j, name in enumerate(self.names):
            column = frame.iloc[:, j]
            if self.discrete[j]:
                encoded, new = encode_column(
                    name,
                    column,
                    self.states[j],
                    missing=missing,
                    unknown=unknown,
                    origin=self.origin,
                )
                codes[:, j] = encoded
                if new:
                    unseen.append((name, new))
                continue
            if missing == "error" and column.isna().any():
                raise ValueError(f"Column {name!r} contains missing values (NaN/None).")
            try:
                values[:, j] = column.to_numpy(dtype=np.float64, na_value=np.nan)
            except (TypeError, ValueError):
                was = "was continuous during fit" if self.origin == "fit" else "is continuous"
                raise ValueError(f"Column {name!r} {was}; it must hold numbers.") from None
            if np.isinf(values[:, j]).any():
                raise ValueError(f"Column {name!r} contains infinite values.")
        return EncodedRows(codes, values, unseen)

    def _frame(self, X, who) -> pd.DataFrame:
        """``X`` as a DataFrame with the schema's columns (names checked when it has some)."""
        if isinstance(X, pd.DataFrame):
            self._frame_names(X.columns)
            return X
        arr = np.asarray(X, dtype=object) if self.kind != "gaussian" else np.asarray(X)
        if arr.ndim != 2:
            raise ValueError(
                f"Expected 2-D data, got an array with {arr.ndim} dimension(s); reshape "
                "a single row with X.reshape(1, -1)."
            )
        if arr.shape[1] != self.n_features:
            raise ValueError(
                f"X has {arr.shape[1]} features, but {who or 'the schema'} is expecting "
                f"{self.n_features} features as input."
            )
        return pd.DataFrame({n: arr[:, j] for j, n in enumerate(self.names)})

    def _encode_checked(self, data) -> EncodedRows:
        """Rows already checked (DiscreteData, GaussianData, MixedData): same columns, kinds."""
        given = data.schema
        self._frame_names(given.names)
        kind = self.kind
        if kind != "mixed" and data.kind != kind:
            words = {"mixed": "mixed discrete and continuous", "gaussian": "continuous"}
            raise ValueError(
                f"X is {words.get(data.kind, data.kind)} data; the network was fitted on "
                f"{words.get(kind, kind)}."
            )
        if kind == "gaussian":
            return EncodedRows(None, data.values, [])
        if not np.array_equal(given.discrete, self.discrete):
            wrong = [n for n, a, b in zip(self.names, given.discrete, self.discrete) if a != b]
            raise ValueError(
                f"Columns {wrong[:8]} are not of the kind (discrete or continuous) they had "
                "during fit."
            )
        if given.states != self.states:
            # the fit-time states first; any state beyond them was not seen during fit
            data = data.with_states(self.states)
            for j, name in enumerate(self.names):
                extra = data.states[j][len(self.states[j]) :] if self.discrete[j] else ()
                if extra:
                    raise unseen_values_error(name, extra, self.states[j], self.origin)
        return EncodedRows(data.codes, data.values if kind == "mixed" else None, [])

    def _frame_names(self, given) -> None:
        given = [str(c) for c in given]
        if given != list(self.names):
            names = list(self.names)
            raise ValueError(
                "The feature names should match those that were passed during fit. "
                f"Expected {names[:8]}{'...' if len(names) > 8 else ''}, "
                f"got {given[:8]}{'...' if len(given) > 8 else ''}."
            )
