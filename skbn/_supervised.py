# SPDX-License-Identifier: BSD-3-Clause
"""Features and a class in one frame: what the classifier and the blanket selector learn on.

The features keep skbn's column conventions (categorical, object, bool and integer columns
are discrete; float columns continuous); continuous ones are binned by a discretiser fitted
here, or kept continuous for a conditional-Gaussian network. The class becomes the last
column, a discrete variable with the codes ``0 .. n_classes - 1``.
"""

from __future__ import annotations

import contextlib
import inspect
import re
import warnings

import networkx as nx
import numpy as np
import pandas as pd
import scipy.sparse as sp
from sklearn.base import clone
from sklearn.preprocessing import KBinsDiscretizer
from sklearn.utils import assert_all_finite, get_tags
from sklearn.utils.multiclass import check_classification_targets
from sklearn.utils.validation import check_consistent_length, column_or_1d

from skbn.graph._array import pdag_to_dag_array, topological_sort_array
from skbn.learners._hill_climb import HillClimb
from skbn.learners._registry import default_learner
from skbn.learners._trees import TAN
from skbn.preprocessing import MDLPDiscretizer
from skbn.utils._numeric import mutual_information_of_joints
from skbn.utils._warnings import stack_level

#: The structures a name stands for; a learner instance is also accepted.
STRUCTURES = ("auto", "hill_climb", "naive_bayes", "tan")

#: Bins of the default discretiser (quantile bins fitted on each continuous column).
DEFAULT_BINS = 5

#: With ``categorical_features="auto"``, a column of whole numbers (integer, or float with
#: NaN where pandas read blank cells) with at most this many distinct observed values is
#: read as categories; with more, as a measurement, binned like a float column (into as
#: many quantile bins as the default discretiser makes). Chosen on six real tables
#: (``examples/benchmarks/results/classifier_defaults``, "Integer columns"): mean regret
#: 1.6% against 2.3% for 10 or 20 and 3.9% for every integer column a category.
MAX_CATEGORY_VALUES = 5


def default_discretizer() -> KBinsDiscretizer:
    """Quantile bins, ordinal codes, the same bins on every run."""
    params = dict(n_bins=DEFAULT_BINS, encode="ordinal", strategy="quantile", random_state=0)
    if "quantile_method" in inspect.signature(KBinsDiscretizer).parameters:
        params["quantile_method"] = "averaged_inverted_cdf"  # scikit-learn >= 1.7
    return KBinsDiscretizer(**params)


def feature_frame(X) -> pd.DataFrame:
    """``X`` as a frame with string column names (``x0, x1, ...`` for an array)."""
    if isinstance(X, pd.DataFrame):
        frame = X.copy(deep=False)
        frame.columns = [str(c) for c in X.columns]
    else:
        if hasattr(X, "toarray"):
            raise TypeError(
                "Sparse input is not supported: a Bayesian network reads each column as one "
                "variable. Pass a dense array or a DataFrame."
            )
        arr = np.asarray(X)
        if arr.ndim != 2:
            raise ValueError(
                f"Expected 2D array, got {arr.ndim}D array instead. Reshape your data with "
                "X.reshape(1, -1) for a single sample or X.reshape(-1, 1) for a single feature."
            )
        frame = pd.DataFrame(arr, columns=[f"x{j}" for j in range(arr.shape[1])])
        if frame.dtypes.eq(object).any():
            frame = frame.infer_objects()
    if frame.shape[1] == 0:
        raise ValueError(f"0 feature(s) (shape={frame.shape}) while a minimum of 1 is required.")
    if len(frame) == 0:
        raise ValueError(f"0 sample(s) (shape={frame.shape}) while a minimum of 1 is required.")
    return frame


def _is_number(dtype) -> bool:
    return pd.api.types.is_numeric_dtype(dtype) and not pd.api.types.is_bool_dtype(dtype)


def _whole_numbers(column: pd.Series) -> bool:
    if pd.api.types.is_integer_dtype(column.dtype):
        return True
    values = column.to_numpy(dtype=np.float64, na_value=np.nan)
    values = values[np.isfinite(values)]
    return bool(np.all(values == np.round(values)))


def _declared(frame: pd.DataFrame, categorical_features) -> set[str]:
    """The columns ``categorical_features`` names (names, positions or a boolean mask)."""
    names = list(frame.columns)
    given = np.asarray(categorical_features)
    if given.ndim != 1:
        raise ValueError(
            "categorical_features must be 'auto' or a list of column names, of positions, or "
            f"a boolean mask of the {len(names)} features; got an array of shape {given.shape}."
        )
    if given.size == 0:
        return set()
    if given.dtype.kind == "b":
        if given.size != len(names):
            raise ValueError(
                f"categorical_features as a boolean mask needs {len(names)} entries (one per "
                f"feature), got {given.size}."
            )
        return {n for n, keep in zip(names, given) if keep}
    if given.dtype.kind in "iu":
        bad = [int(k) for k in given if not -len(names) <= int(k) < len(names)]
        if bad:
            raise ValueError(
                f"categorical_features holds positions {bad[:5]} outside the {len(names)} features."
            )
        return {names[int(k)] for k in given}
    given = [str(v) for v in given.tolist()]
    unknown = [v for v in given if v not in set(names)]
    if unknown:
        raise ValueError(
            f"categorical_features names {unknown[:5]}, which are not columns of X "
            f"(its columns: {names[:10]})."
        )
    return set(given)


def feature_kinds(frame: pd.DataFrame, categorical_features="auto") -> tuple[list, list]:
    """Return ``(numeric, categorical)``: the numeric columns read as numbers or categories.

    Text, categorical and boolean columns are always categories (and not listed). With
    ``"auto"``, float columns are numbers, and so are columns of whole numbers with more
    than :data:`MAX_CATEGORY_VALUES` distinct observed values; whole numbers with fewer are
    categories. With a list (names, positions or a mask, as scikit-learn's
    ``HistGradientBoostingClassifier``), the listed columns are categories and every other
    numeric column is a number.
    """
    numbers = [c for c in frame.columns if _is_number(frame[c].dtype)]
    if isinstance(categorical_features, str):
        numeric = [
            c
            for c in numbers
            if not _whole_numbers(frame[c]) or frame[c].nunique() > MAX_CATEGORY_VALUES
        ]
        return numeric, [c for c in numbers if c not in set(numeric)]
    declared = _declared(frame, categorical_features)
    return [c for c in numbers if c not in declared], [c for c in numbers if c in declared]


def _to_cast(frame: pd.DataFrame, categorical: list) -> list:
    """The categories among number columns that need a cast to be read as categories.

    Float columns (continuous otherwise), and integer columns with more values than the
    data check's integer warning counts (declared categories: the warning would ask for
    the cast). Other integer columns are discrete as they are, and stay uncast: casting a
    million rows at every prediction would cost more than the prediction.
    """
    from skbn.data import INTEGER_STATES_WARNING

    return [
        c
        for c in categorical
        if not pd.api.types.is_integer_dtype(frame[c].dtype)
        or frame[c].nunique() > INTEGER_STATES_WARNING
    ]


def _as_float(name: str, column: pd.Series) -> np.ndarray:
    try:
        return column.to_numpy(dtype=np.float64, na_value=np.nan)
    except (TypeError, ValueError):
        raise ValueError(
            f"Column {name!r} was a number column during fit and now holds values that are "
            "not numbers; pass the columns of fit."
        ) from None


def class_codes(y, n_samples: int):
    """``(classes, codes)`` of the target, checked as scikit-learn's classifiers check it."""
    y = column_or_1d(y, warn=True)
    check_consistent_length(np.empty(n_samples), y)
    if y.dtype.kind in "fc":
        assert_all_finite(y, input_name="y")
    check_classification_targets(y)
    classes, codes = np.unique(y, return_inverse=True)
    return classes, codes.astype(np.int64)


def class_name(names) -> str:
    """A name for the class column that no feature has."""
    name = "class"
    while name in set(names):
        name = "_" + name
    return name


class Binning:
    """The fitted discretiser of the continuous columns (or none).

    Missing values (NaN) stay missing: the bins are fitted on the observed values, and a
    missing cell is missing in the binned column too.
    """

    def __init__(self, discretizer, columns: list[str], categorical=()) -> None:
        self.columns = list(columns)
        self.categorical = list(categorical)
        self.discretizer = None
        if self.columns and discretizer is not None:
            self.discretizer = clone(discretizer)

    def kinds(self, frame: pd.DataFrame) -> pd.DataFrame:
        """``frame`` with the number columns as floats and the others as categories.

        The same casts at fit and at prediction: whatever dtype a column arrives in (an
        integer column read as float because a cell is blank), it is read as in fit.
        """
        if not self.columns and not self.categorical:
            return frame
        frame = frame.copy(deep=False)
        for name in self.columns:
            if not pd.api.types.is_float_dtype(frame[name].dtype):
                frame[name] = _as_float(name, frame[name])
        for name in self.categorical:
            if not isinstance(frame[name].dtype, pd.CategoricalDtype):
                frame[name] = frame[name].astype("category")
        return frame

    def fit_transform(self, frame: pd.DataFrame, y=None) -> pd.DataFrame:
        """Bin the continuous columns of ``frame`` (a copy) and fit the bins.

        ``y`` (the class codes) goes to the discretiser's ``fit``, for a supervised one.
        """
        if self.discretizer is None:
            return frame
        values, absent = self._observed(frame, fit=True)
        with self._named_features():
            codes = self.discretizer.fit_transform(values, y)
        return self._replace(frame, self._bin_codes(codes, absent), absent)

    def transform(self, frame: pd.DataFrame) -> pd.DataFrame:
        """Bin the continuous columns with the fitted bins."""
        if self.discretizer is None:
            return frame
        values, absent = self._observed(frame)
        with self._named_features():
            codes = self.discretizer.transform(values)
        return self._replace(frame, self._bin_codes(codes, absent), absent)

    @contextlib.contextmanager
    def _named_features(self):
        """Name the columns behind the discretiser's "feature k" in its warnings and errors.

        It sees the continuous columns alone, so its positions are not the user's.
        """

        def named(message: str) -> str:
            found = sorted({int(k) for k in re.findall(r"[Ff]eature (\d+)", message)})
            found = [k for k in found if k < len(self.columns)]
            if not found:
                return message
            shown = ", ".join(f"feature {k} is column {self.columns[k]!r}" for k in found)
            return f"{message} (the discretizer sees the continuous columns only: {shown})"

        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            try:
                yield
            except ValueError as exc:
                raise ValueError(named(str(exc))) from exc
        for w in caught:
            warnings.warn(named(str(w.message)), w.category, stacklevel=stack_level())

    def _bin_codes(self, codes, absent) -> np.ndarray:
        """The discretiser's output checked to be one bin code per value.

        A transformer that returns anything else (one-hot columns, scaled values, NaN where
        a value was observed) would be truncated to meaningless codes; it is refused.
        """
        name = type(self.discretizer).__name__
        fix = (
            "The discretizer must return one non-negative integer bin code per value, such "
            "as KBinsDiscretizer(encode='ordinal') or MDLPDiscretizer()"
        )
        if sp.issparse(codes):
            raise ValueError(
                f"{name} returned a sparse matrix (one-hot bins?). {fix}; with "
                "KBinsDiscretizer set encode='ordinal'."
            )
        codes = codes.to_numpy() if hasattr(codes, "to_numpy") else np.asarray(codes)
        if codes.shape != absent.shape:
            raise ValueError(
                f"{name} returned an array of shape {codes.shape} for {absent.shape[1]} "
                f"continuous columns {self.columns[:8]} (one-hot bins?). {fix}; with "
                "KBinsDiscretizer set encode='ordinal'."
            )
        try:
            codes = codes.astype(np.float64)
        except (TypeError, ValueError):
            raise ValueError(f"{name} returned values that are not numbers. {fix}.") from None
        with np.errstate(invalid="ignore"):
            bad = (~np.isfinite(codes) | (codes < 0) | (np.mod(codes, 1) != 0)) & ~absent
        if bad.any():
            i, j = (int(v[0]) for v in np.nonzero(bad))
            raise ValueError(
                f"{name} returned {float(codes[i, j])!r} for an observed value of column "
                f"{self.columns[j]!r} (row {i}), which is no bin code. {fix}."
            )
        return codes

    def _observed(self, frame, fit: bool = False):
        """The columns' values with NaN filled, and where NaN was.

        The filled cells are set back to missing after binning: when fitting, NaN is filled
        by the column's median (the bins are fitted on the observed values and those), when
        transforming by any finite value; a discretiser that takes NaN (its ``allow_nan``
        tag) gets it as it is. Infinity is refused.
        """
        values = frame[self.columns].to_numpy(dtype=np.float64)
        absent = np.isnan(values)
        infinite = np.isinf(values)
        if infinite.any():
            column = self.columns[int(np.flatnonzero(infinite.any(axis=0))[0])]
            raise ValueError(
                f"Input contains infinity: column {column!r} has infinite values; replace "
                "them, or mark them missing with NaN, first."
            )
        # one row in all: the data's own check says so (scikit-learn's words: "1 sample")
        few = (~absent).sum(axis=0) < min(2, len(values))
        if fit and few.any():
            shown = ", ".join(repr(self.columns[j]) for j in np.flatnonzero(few)[:8])
            raise ValueError(
                f"Columns {shown} have fewer than 2 observed values (all the others are "
                "missing): nothing can be learned about them, nor bins fitted. Drop them."
            )
        if absent.any() and not get_tags(self.discretizer).input_tags.allow_nan:
            fill = np.nanmedian(values, axis=0) if fit else np.zeros(values.shape[1])
            values = np.where(absent, fill, values)
        return values, absent

    def _replace(self, frame, codes, absent):
        frame = frame.copy()
        codes = np.where(absent, 0, codes)  # a discretiser that takes NaN gives it back
        for k, column in enumerate(self.columns):
            binned = pd.array(codes[:, k].astype(np.int64), dtype="Int64")
            binned[absent[:, k]] = pd.NA
            frame[column] = binned
        return frame

    @property
    def kept_continuous(self) -> list[str]:
        """The continuous columns left continuous (no discretiser)."""
        return [] if self.discretizer is not None else self.columns


def _naive_bayes(p: int, target: int) -> np.ndarray:
    A = np.zeros((p, p), dtype=np.int8)
    A[target, [j for j in range(p) if j != target]] = 1
    return A


def _graph_of(learner, names) -> tuple[np.ndarray, np.ndarray | None]:
    """The DAG a fitted learner found, and its PDAG where that has no consistent extension.

    A CPDAG or PDAG gives its consistent extension (Dor and Tarsi). A PDAG with none (PC's
    conflicting colliders) keeps its directed arcs, and its undirected edges follow a
    topological order of those arcs (ties broken by name, so the column order does not
    matter); that may add v-structures, and the PDAG is returned too.
    """
    graph = learner.graph_
    A = nx.to_numpy_array(graph, nodelist=list(names), dtype=np.int8)
    if graph.graph.get("kind", "dag") == "dag":
        return A, None
    # the extension is taken in name order, so the same CPDAG gives the same DAG (and the
    # same parameters and predictions) whatever the order of the columns
    by_name = np.argsort(np.array([str(v) for v in names], dtype=object), kind="stable")
    dag = pdag_to_dag_array(A[np.ix_(by_name, by_name)])
    if dag is not None:
        out = np.empty_like(dag)
        out[np.ix_(by_name, by_name)] = dag
        return out, None
    directed = ((A == 1) & (A.T == 0)).astype(np.int8)
    order = topological_sort_array(directed[np.ix_(by_name, by_name)])
    if order is None:  # the directed arcs alone close a cycle: no DAG keeps them
        raise ValueError(
            f"{type(learner).__name__} returned a graph whose directed arcs form a cycle, so "
            "it defines no distribution to classify with; use another structure."
        )
    rank = np.empty(len(names), dtype=np.int64)
    rank[by_name[order]] = np.arange(len(names))
    undirected = (A == 1) & (A.T == 1)
    dag = directed | (undirected & (rank[:, None] < rank[None, :])).astype(np.int8)
    return dag, A


def structure_graph(structure, data, target: int, random_state=None, criterion=None):
    """The DAG of ``structure`` (a name of :data:`STRUCTURES` or a learner) over ``data``.

    Returns ``(dag, pdag)``: ``pdag`` the learner's PDAG where it has no consistent DAG
    extension (:func:`_graph_of`), else None.

    ``"auto"`` is :func:`~skbn.learners.default_learner` for the number of columns (BOSS
    without its tabu polish, or FGES), seeded by ``random_state``; ``criterion``, if given,
    is the score of that BOSS and of ``"hill_climb"``'s search (a name the score registry
    resolves for the data's kind).
    """
    if isinstance(structure, str) and structure == "naive_bayes":
        return _naive_bayes(data.n_features, target), None
    if isinstance(structure, str) and structure == "tan":
        learner = TAN(class_node=target)
    elif isinstance(structure, str) and structure == "hill_climb":
        learner = HillClimb() if criterion is None else HillClimb(criterion=criterion)
    elif isinstance(structure, str) and structure == "auto":
        learner = default_learner(data.n_features, random_state=random_state)
        if "polish" in learner.get_params():
            # on the classification benchmark the polish raised breast_cancer's log loss
            # (0.167 against 0.144), moved the others by 0.0002 at most and left ALARM's
            # blanket F1 as it was, at more fit time
            learner.set_params(polish=False)
            if criterion is not None:
                learner.set_params(criterion=criterion)
    else:
        learner = clone(structure)
    return _graph_of(learner.fit(data), data.names)


def structure_dag(structure, data, target: int, random_state=None, criterion=None) -> np.ndarray:
    """The DAG of :func:`structure_graph`."""
    return structure_graph(structure, data, target, random_state, criterion)[0]


def blanket_of(dag: np.ndarray, target: int) -> list[int]:
    """Parents, children and the children's other parents of ``target`` in ``dag``."""
    children = np.flatnonzero(dag[target]).tolist()
    parents = np.flatnonzero(dag[:, target]).tolist()
    spouses = {int(k) for c in children for k in np.flatnonzero(dag[:, c])} - {target}
    return sorted(set(children) | set(parents) | spouses)


def pdag_blanket_of(A: np.ndarray, target: int) -> list[int]:
    """The blanket of ``target`` in a PDAG: what it could be in any orientation of it.

    Its neighbours (parents, children and undirected ones) and the parents of its children
    and of its undirected neighbours (spouses, were the neighbour a child).
    """
    directed = (A == 1) & (A.T == 0)
    undirected = (A == 1) & (A.T == 1)
    neighbours = set(np.flatnonzero(directed[target] | directed[:, target] | undirected[target]))
    could_be_children = np.flatnonzero(directed[target] | undirected[target])
    spouses = {int(k) for c in could_be_children for k in np.flatnonzero(directed[:, c])}
    return sorted((neighbours | spouses) - {target})


def _quantile_codes(values: np.ndarray, bins: int = DEFAULT_BINS) -> np.ndarray:
    """Codes of ``bins`` quantile bins of a continuous column, -1 where missing."""
    seen = ~np.isnan(values)
    codes = np.full(len(values), -1, dtype=np.int64)
    if seen.any():
        edges = np.unique(np.quantile(values[seen], np.linspace(0, 1, bins + 1)[1:-1]))
        codes[seen] = np.searchsorted(edges, values[seen], side="right")
    return codes


def mutual_information(a: np.ndarray, b: np.ndarray) -> float:
    """Plug-in mutual information (nats) of two code columns, on the rows observing both."""
    both = (a >= 0) & (b >= 0)
    if not both.any():
        return 0.0
    a, b = a[both], b[both]
    joint = np.zeros((1, int(a.max()) + 1, int(b.max()) + 1))
    np.add.at(joint[0], (a, b), 1.0)
    return float(mutual_information_of_joints(joint / joint.sum())[0])


def strongest_features(data, target: int, k: int) -> list[int]:
    """The ``k`` features with the largest mutual information with ``target``.

    On the data the search saw (binned features as their bins; a continuous feature kept
    continuous through 5 quantile bins); ties go to the earlier column.
    """
    discrete = getattr(data, "discrete", np.ones(data.n_features, dtype=bool))
    y = np.asarray(data.codes[:, target], dtype=np.int64)
    strength = []
    for j in range(data.n_features):
        if j == target:
            continue
        if discrete[j]:
            x = np.asarray(data.codes[:, j], dtype=np.int64)
        else:
            x = _quantile_codes(np.asarray(data.values[:, j], dtype=np.float64))
        strength.append((-mutual_information(x, y), j))
    return [j for _, j in sorted(strength)[:k]]


def check_kept_continuous(frame: pd.DataFrame, binning: Binning) -> None:
    """Refuse infinity in continuous columns that stay continuous (no discretiser).

    NaN is a missing value: learned around in ``fit``, marginalised in prediction.
    """
    for column in binning.kept_continuous:
        values = frame[column].to_numpy(dtype=np.float64)
        if np.isinf(values).any():
            raise ValueError(
                f"Input contains infinity: column {column!r} is continuous and kept so "
                "(discretizer=None); replace the infinite values, or mark them missing with "
                "NaN."
            )


def supervised_data(estimator, X, y, discretizer, categorical_features="auto"):
    """Check ``X`` and ``y`` and encode them as one data set, the class its last column.

    Sets ``n_features_in_`` (and ``feature_names_in_`` for a frame with string names) on
    ``estimator``. Returns ``(data, names, classes, binning)``: the checked data, the feature
    names, the sorted class labels and the fitted :class:`Binning`.
    """
    from sklearn.utils.validation import validate_data

    from skbn.data import check_data

    frame = feature_frame(X)
    validate_data(estimator, X, skip_check_array=True)
    classes, codes = class_codes(y, len(frame))
    names = list(frame.columns)
    if isinstance(discretizer, str):
        discretizer = MDLPDiscretizer() if discretizer == "mdlp" else default_discretizer()
    numeric, categorical = feature_kinds(frame, categorical_features)
    binning = Binning(discretizer, numeric, _to_cast(frame, categorical))
    frame = binning.kinds(frame)
    check_kept_continuous(frame, binning)
    frame = binning.fit_transform(frame, codes)
    frame[class_name(names)] = codes
    return check_data(frame, missing="allow"), names, classes, binning
