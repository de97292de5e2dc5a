# SPDX-License-Identifier: BSD-3-Clause
import warnings

import numpy as np
import pandas as pd
import pytest

from skbn.data import DataKindWarning, DiscreteData, GaussianData, check_data


def test_discrete_frame_is_encoded_column_major_with_sorted_states():
    X = pd.DataFrame({"a": ["y", "x", "y"], "b": [3, 1, 3], "c": [True, False, True]})
    data = check_data(X)
    assert isinstance(data, DiscreteData)
    assert data.names == ("a", "b", "c")
    assert data.states == (("x", "y"), (1, 3), (False, True))
    np.testing.assert_array_equal(data.codes, [[1, 1, 1], [0, 0, 0], [1, 1, 1]])
    assert data.codes.dtype == np.int16 and data.codes.flags.f_contiguous
    assert data.arities.tolist() == [2, 2, 2]
    assert not data.codes.flags.writeable


def test_categorical_keeps_declared_categories_including_unused():
    col = pd.Categorical(["lo", "hi", "lo"], categories=["lo", "mid", "hi"])
    data = check_data(pd.DataFrame({"v": col, "w": ["a", "b", "a"]}))
    assert data.states[0] == ("lo", "mid", "hi")
    assert data.arities[0] == 3
    assert data.codes[:, 0].tolist() == [0, 2, 0]
    pd.testing.assert_series_equal(data.to_frame()["v"], pd.Series(col, name="v"))


def test_array_gets_default_names_and_gaussian_statistics():
    rng = np.random.default_rng(0)
    values = rng.normal(size=(50, 3))
    data = check_data(values)
    assert isinstance(data, GaussianData)
    assert data.names == ("x0", "x1", "x2")
    np.testing.assert_allclose(data.covariance, np.cov(values.T, bias=True))
    np.testing.assert_allclose(data.correlation, np.corrcoef(values.T))
    np.testing.assert_allclose(data.means, values.mean(axis=0))


def test_constant_columns_are_allowed_and_reported():
    data = check_data(pd.DataFrame({"a": [1, 1, 1], "b": [0, 1, 0]}))
    assert data.constant_columns == ("a",)
    g = check_data(pd.DataFrame({"a": [1.0, 1.0], "b": [0.5, 1.5]}))
    assert g.constant_columns == ("a",)
    assert g.correlation[0, 1] == 0.0 and g.correlation[0, 0] == 1.0


def test_already_checked_data_passes_through():
    data = check_data([[0, 1], [1, 0]])
    assert check_data(data) is data
    assert check_data(data, kind="discrete") is data
    with pytest.raises(ValueError, match="Gaussian"):
        check_data(data, kind="gaussian")


def test_string_dtype_columns_are_discrete():
    X = pd.DataFrame({"a": pd.array(["u", "v", "u"], dtype="string"), "b": [1, 2, 2]})
    assert check_data(X).states[0] == ("u", "v")


@pytest.mark.parametrize(
    "X, error, match",
    [
        (pd.DataFrame({"a": [1.0, np.nan], "b": [1.0, 2.0]}), ValueError, "'a'.*missing"),
        (pd.DataFrame({"a": ["x", None], "b": ["y", "z"]}), ValueError, "'a'.*missing"),
        (pd.DataFrame({"a": [1.0, np.inf], "b": [1.0, 2.0]}), ValueError, "'a'.*infinite"),
        # the covariance of 'b' would overflow (HillClimb once returned 0 arcs, scores NaN)
        (
            pd.DataFrame({"a": [1.0, 2.0, 0.5], "b": [1e160, -3e159, 2e158]}),
            ValueError,
            "'b'.*up to 1e\\+160.*overflows float64. Rescale",
        ),
        # the variance of 'b' would underflow (FGES, BOSS and HillClimb once found no arc)
        (
            pd.DataFrame({"a": [1.0, 2.0, 0.5], "b": [1e-160, -3e-161, 2e-162]}),
            ValueError,
            "'b' vary so little.*underflows float64. Rescale",
        ),
        # values near 1e-150, spread over 1e-150: the same
        (
            pd.DataFrame({"a": [1.0, 2.0, 0.5], "b": [1e-150, 2e-150, 1.5e-150]}),
            ValueError,
            "'b' vary so little",
        ),
        (pd.DataFrame({"a": [1.0], "b": [2.0]}), ValueError, "1 sample"),
        (np.zeros((5, 0)), ValueError, "0 feature"),
        (pd.DataFrame([[1, 2], [3, 4]], columns=["a", "a"]), ValueError, "Duplicate.*'a'"),
        (pd.DataFrame([[1, 2], [3, 4]], columns=[1, "1"]), ValueError, "collide"),
        ("not data", TypeError, "DataFrame"),
        ({"a": [1, 2]}, TypeError, "DataFrame"),
        (5, TypeError, "DataFrame"),
        (np.zeros((2, 2, 2)), ValueError, "2-D"),
        (np.zeros(4), ValueError, "2-D"),
        (pd.Series([1, 2]), ValueError, "Series"),
        (np.array([[1 + 1j, 2], [3, 4]]), ValueError, "Complex"),
        (pd.DataFrame({"t": pd.to_datetime(["2020-01-01", "2020-01-02"])}), TypeError, "'t'"),
        (pd.DataFrame({"a": [[1], [2]], "b": [0, 1]}), TypeError, "'a'.*categories"),
        # a tuple beside a string: hashable, but no category (pandas warned while sorting)
        (pd.DataFrame({"a": [(1, 2), "x"]}), TypeError, r"'a'.*\(1, 2\) \(tuple\)"),
    ],
)
def test_bad_input_is_refused_with_a_clear_error(X, error, match):
    with pytest.raises(error, match=match):
        check_data(X)


def test_integer_valued_floats_are_codes_only_when_discrete_is_asked_for():
    from skbn.data import DataKindWarning

    X = pd.DataFrame({"a": [0.0, 1.0, 2.0, 1.0], "b": [1.0, 1.0, 0.0, 0.0]})
    assert isinstance(check_data(X), GaussianData)
    with pytest.warns(DataKindWarning, match="bin codes"):  # in more rows, said so
        assert isinstance(check_data(pd.concat([X] * 20)), GaussianData)
    data = check_data(X, kind="discrete")
    assert data.states == ((0, 1, 2), (0, 1))
    # with a blank cell (the usual reason an integer column is float) astype(int) fails;
    # the advice is then the nullable "Int64", and following it works
    holed = pd.concat([X] * 20, ignore_index=True)
    holed.loc[3, "a"] = np.nan
    with pytest.warns(DataKindWarning, match=r"X\.astype\('Int64'\)"):
        check_data(holed, missing="allow")
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        assert check_data(holed.astype("Int64"), missing="allow").kind == "discrete"
    with pytest.raises(ValueError, match="'b' hold non-integer"):
        check_data(X.assign(b=[0.5, 1.0, 0.0, 0.0]), kind="discrete")


def test_kind_mismatch_names_the_columns():
    floats = pd.DataFrame({"temp": [0.5, 1.5], "size": [1.0, 2.0]})
    with pytest.raises(ValueError, match="'temp' hold non-integer.*KBinsDiscretizer"):
        check_data(floats, kind="discrete")
    ints = pd.DataFrame({"n": [1, 2], "m": [3, 4]})
    with pytest.raises(ValueError, match="'n', 'm'.*astype\\(float\\)"):
        check_data(ints, kind="gaussian")
    with pytest.raises(ValueError, match="kind must be"):
        check_data(ints, kind="hybrid")


def test_too_many_categories():
    X = pd.DataFrame({"id": np.arange(40), "b": np.zeros(40, dtype=int)})
    with pytest.raises(ValueError, match="'id' has 40 categories"):
        check_data(X, max_categories=32)
    assert check_data(X.astype({"id": "category"}), max_categories=40).arities[0] == 40


def test_default_category_limit_is_2_to_the_15():
    X = pd.DataFrame({"id": np.arange(2**15 + 1)})
    with pytest.raises(ValueError, match="32769 categories"):
        check_data(X)


def test_many_valued_integer_columns_warn_with_the_fix():
    import warnings

    from skbn.data import INTEGER_STATES_WARNING, DataKindWarning

    k = INTEGER_STATES_WARNING + 1
    X = pd.DataFrame({"age": np.arange(2 * k) % k, "b": [0, 1] * k})
    with pytest.warns(DataKindWarning, match=r"'age': 21.*astype\('category'\)"):
        data = check_data(X)
    assert data.arities.tolist() == [k, 2]
    with warnings.catch_warnings():  # the stated kind silences it
        warnings.simplefilter("error")
        check_data(X.astype({"age": "category"}))
        check_data(X.assign(age=X["age"] % INTEGER_STATES_WARNING))


def test_bin_codes_read_as_gaussian_warn():
    import warnings

    from sklearn.preprocessing import KBinsDiscretizer

    from skbn import HillClimb
    from skbn.data import DataKindWarning

    rng = np.random.default_rng(0)
    Z = rng.normal(size=(400, 3))
    codes = KBinsDiscretizer(n_bins=4, encode="ordinal", strategy="uniform").fit_transform(Z)
    with pytest.warns(DataKindWarning, match="bin codes"):
        HillClimb().fit(codes)
    with warnings.catch_warnings():  # following the advice: a discrete score, no warning
        warnings.simplefilter("error")
        assert HillClimb(criterion="bdeu").fit(codes).data_kind_ == "discrete"
        check_data(Z)  # ordinary Gaussian data never warns


def test_a_discrete_score_on_mixed_data_gives_advice_that_works_when_followed():
    import re

    from sklearn.compose import make_column_transformer
    from sklearn.pipeline import make_pipeline
    from sklearn.preprocessing import KBinsDiscretizer

    from skbn import HillClimb

    rng = np.random.default_rng(1)
    x = rng.normal(size=600)
    X = pd.DataFrame(
        {"x": x, "y": np.where(x + 0.5 * rng.normal(size=600) > 0, "hi", "lo"), "w": "c"}
    )
    with pytest.raises(ValueError, match="'x' hold non-integer floats") as error:
        HillClimb("bdeu").fit(X)
    assert re.search(r"KBinsDiscretizer\(encode='ordinal'\) in a Pipeline", str(error.value))
    binning = make_column_transformer(
        (KBinsDiscretizer(encode="ordinal"), ["x"]),
        remainder="passthrough",
        verbose_feature_names_out=False,
    ).set_output(transform="pandas")
    graph = make_pipeline(binning, HillClimb("bdeu")).fit(X)[-1].graph_
    assert set(graph.nodes) == {"x", "y", "w"}
    assert graph.has_edge("x", "y") or graph.has_edge("y", "x")
    # the other advice: model both kinds with a score for mixed data
    mixed = HillClimb("bic").fit(X).graph_
    assert mixed.has_edge("y", "x")  # the discrete node comes first in a CG network


def test_identifier_like_string_columns_warn_and_categories_do_not():
    import warnings as _w

    from skbn.data import DataKindWarning

    n = 100
    X = pd.DataFrame({"patient": [f"p{i}" for i in range(n)], "sex": ["f", "m"] * (n // 2)})
    with pytest.warns(DataKindWarning, match=r"'patient': 100 values in 100 rows"):
        check_data(X)
    with _w.catch_warnings():
        _w.simplefilter("error", DataKindWarning)
        check_data(X.astype({"patient": "category"}))  # declared: no warning
        check_data(X.iloc[:, 1:])


def test_bin_codes_beside_a_string_column_warn_as_they_do_alone():
    # the ColumnTransformer workflow: KBinsDiscretizer(encode="ordinal") floats + a string
    rng = np.random.default_rng(0)
    codes = pd.DataFrame(rng.integers(0, 3, (100, 2)).astype(float), columns=["f1", "f2"])
    X = codes.assign(s=["a", "b"] * 50)
    with pytest.warns(DataKindWarning, match=r"'f1'.*conditional-Gaussian.*bic-cg"):
        assert check_data(X).kind == "mixed"
    codes.iloc[3, 0] = np.nan  # a missing value does not hide the codes
    with pytest.warns(DataKindWarning, match="conditional-Gaussian"):
        check_data(codes.assign(s=["a", "b"] * 50), missing="allow")
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        check_data(X, kind="mixed")  # a stated kind is not second-guessed
        check_data(X.assign(f1=X["f1"] + 0.5))  # not every float column holds codes


@pytest.mark.parametrize("bad", [1, 100_000])
def test_max_categories_beyond_the_int16_codes_is_refused(bad):
    # 33,000 states with max_categories=100_000 used to wrap the int16 codes into "missing"
    X = pd.DataFrame({"a": [f"s{i}" for i in range(33_000)], "b": ["x", "y"] * 16_500})
    with pytest.raises(ValueError, match="max_categories must be between 2 and 32768"):
        check_data(X, max_categories=bad)


def test_a_value_of_another_type_is_named_as_such():
    import pandas as pd

    from skbn.learners import HillClimb

    X = pd.DataFrame({"a": ["0", "1"] * 50, "b": ["x", "y", "y", "x"] * 25})
    model = HillClimb().fit(X)
    with pytest.raises(ValueError, match=r"holds 0 \(int\) where fit saw '0' \(str\)"):
        model.score(X.assign(a=[0, 1] * 50))
    with pytest.raises(ValueError, match="not seen during fit: \\['2'\\]"):
        model.score(X.assign(a=["2", "1"] * 50))


def test_the_missing_values_error_names_the_learners_by_their_flags():
    # the list comes from each learner's _handles_missing flag, not from a hand-kept list
    import skbn.learners as learners
    from skbn.data import MissingValuesError
    from skbn.datasets import load_network
    from skbn.learners import ExactSearch

    X = load_network("asia").sample(200, random_state=0)
    X.iloc[0, 0] = None
    with pytest.raises(MissingValuesError) as caught:
        ExactSearch().fit(X)
    message = str(caught.value)
    assert "ExactSearch needs complete data" in message
    takers = [n for n in learners.__all__ if getattr(getattr(learners, n), "_handles_missing", 0)]
    others = [n for n in learners.__all__ if n not in takers and n[0].isupper()]
    assert takers and all(f" {n}," in message or f" {n} " in message for n in takers)
    # StructuralEM imputes instead; it is named on its own
    assert not any(f" {n}," in message for n in others if n not in ("StructuralEM",))


def test_many_columns_keep_one_copy_of_the_data(monkeypatch):
    # above DENSE_COVARIANCE_MAX columns (memory at scale) a DataFrame's column-major block
    # is read in place: no copy, centred or not, is kept; the scores and the screen centre
    # the columns as they read them
    import skbn.data._containers as containers

    monkeypatch.setattr(containers, "DENSE_COVARIANCE_MAX", 5)
    rng = np.random.default_rng(0)
    raw = rng.normal(size=(200, 8)) * 3 + 10
    raw[:, 7] = 4.0  # a constant column
    frame = pd.DataFrame(raw, columns=[f"c{j}" for j in range(8)])
    data = check_data(frame)
    block = frame._mgr.blocks[0].values  # the frame's own storage, (columns, rows)
    assert np.shares_memory(data.columns, block)
    assert data.columns.flags.f_contiguous
    Z = data.centred
    assert not np.shares_memory(Z, block)
    np.testing.assert_allclose(Z, raw - raw.mean(axis=0), atol=1e-12)
    assert data.constant_columns == ("c7",)
    assert (data.n_samples, data.n_features) == (200, 8)
    cov = data.covariance_block([0, 3])
    np.testing.assert_allclose(cov, np.cov(raw[:, [0, 3]], rowvar=False, bias=True))
    rows, cols, weights = data.correlated_pairs(1e-12)
    r = np.corrcoef(raw[:, :7], rowvar=False)
    np.testing.assert_allclose(weights, np.abs(r[rows, cols]), rtol=1e-12)
    assert 7 not in rows and 7 not in cols and rows.size == 21
    assert data.take(rows=[0, 1], columns=[2]).values.shape == (2, 1)
    # row-major values are copied once into column-major order
    row_major = containers.GaussianData(np.ascontiguousarray(raw), data.names)
    assert not np.shares_memory(row_major.columns, row_major.values)
    assert row_major.columns is row_major.columns
    np.testing.assert_array_equal(row_major.columns, raw)


@pytest.mark.parametrize("scale", [1e-145, 1.0, 1e140])
def test_gaussian_structure_does_not_depend_on_a_columns_scale(scale):
    # at 1e-160 the column was read as constant (no arc) by FGES, BOSS and HillClimb; now
    # refused there, and from 1e-145 to 1e140 every learner finds the one dependence
    from skbn.learners import BOSS, FGES, HillClimb, PCStable

    rng = np.random.default_rng(0)
    x = rng.normal(size=500)
    X = pd.DataFrame({"a": x * scale, "b": x + 0.3 * rng.normal(size=500)})
    for learner in (FGES(), BOSS(), HillClimb(), PCStable()):
        graph = learner.fit(X).graph_
        assert {frozenset(e) for e in graph.edges} == {frozenset("ab")}
