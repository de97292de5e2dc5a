# SPDX-License-Identifier: BSD-3-Clause
"""DataSchema: the one encoder of new rows for learners, the classifier and the networks."""

import numpy as np
import pandas as pd
import pytest

from skbn.classification import BayesianNetworkClassifier
from skbn.data import DataSchema, check_data
from skbn.datasets import load_network
from skbn.learners import HillClimb


@pytest.fixture(scope="module")
def mixed():
    rng = np.random.default_rng(0)
    g = rng.choice(["a", "b", "c"], 300)
    x = rng.normal(size=300) + (g == "b")
    return pd.DataFrame({"g": g, "x": x, "h": rng.choice(["u", "v"], 300), "y": x + 1.0})


@pytest.mark.parametrize("network", ["asia", "child"])
def test_a_checked_frame_encodes_back_to_its_own_codes(network):
    X = load_network(network).sample(500, random_state=0)
    data = check_data(X)
    rows = data.schema.encode(X)
    np.testing.assert_array_equal(rows.codes, data.codes)
    assert rows.values is None and rows.unseen == []
    # the same rows as strings (object columns, not categorical) give the same codes
    np.testing.assert_array_equal(data.schema.encode(X.astype(str)).codes, data.codes)


def test_a_frame_and_its_checked_data_encode_alike(mixed):
    data = check_data(mixed)
    assert data.schema.kind == "mixed"
    from_frame = data.schema.encode(mixed)
    from_data = data.schema.encode(data)
    np.testing.assert_array_equal(from_frame.codes, from_data.codes)
    np.testing.assert_array_equal(from_frame.values, from_data.values)
    np.testing.assert_array_equal(from_frame.values[:, 1], mixed["x"].to_numpy())


def test_the_learner_and_its_network_read_rows_through_one_schema():
    X = load_network("asia").sample(400, random_state=1)
    model = HillClimb().fit(X)
    network = model.network_
    assert network.schema.states == model._schema.states
    held_out = load_network("asia").sample(50, random_state=2)
    a = model._schema.encode(held_out).codes
    b = network.schema.encode(held_out).codes
    np.testing.assert_array_equal(a, b)
    np.testing.assert_allclose(network.log_likelihood(held_out), model.score_samples(held_out))


def test_states_the_fit_lacked_are_refused_or_reported():
    X = pd.DataFrame({"a": ["x", "y"] * 20, "b": ["u", "v", "v", "u"] * 10})
    schema = check_data(X).schema
    new = X.assign(a=["x", "z"] * 20)
    with pytest.raises(ValueError, match=r"'a' has values not seen during fit: \['z'\]"):
        schema.encode(new)
    rows = schema.encode(new, unknown="missing")
    assert rows.unseen == [("a", ["z"])]
    assert (rows.codes[1::2, 0] == -1).all() and (rows.codes[::2, 0] == 0).all()
    # a value of another type is a column of the wrong type, never a new category
    with pytest.raises(ValueError, match="the same text, another type"):
        check_data(X.assign(a=["0", "1"] * 20)).schema.encode(
            X.assign(a=[0, 1] * 20), unknown="missing"
        )


def test_missing_values_are_refused_or_kept(mixed):
    schema = check_data(mixed).schema
    holes = mixed.copy()
    holes.loc[3, "g"] = None
    holes.loc[5, "x"] = np.nan
    with pytest.raises(ValueError, match="Column 'g' contains missing values"):
        schema.encode(holes)
    rows = schema.encode(holes, missing="allow")
    assert rows.codes[3, 0] == -1 and np.isnan(rows.values[5, 1])
    assert rows.unseen == []


def test_columns_of_another_kind_order_or_count_are_named(mixed):
    schema = check_data(mixed).schema
    with pytest.raises(ValueError, match="feature names should match"):
        schema.encode(mixed[["x", "g", "h", "y"]])
    with pytest.raises(ValueError, match="X has 3 features, but HillClimb is expecting 4"):
        schema.encode(mixed.iloc[:, :3].to_numpy(), who="HillClimb")
    with pytest.raises(ValueError, match="'x' was continuous during fit; it must hold numbers"):
        schema.encode(mixed.assign(x=["p"] * len(mixed)))
    swapped = check_data(mixed.assign(x=mixed["g"], g=mixed["x"]))
    with pytest.raises(ValueError, match=r"Columns \['g', 'x'\] are not of the kind"):
        schema.encode(swapped)


def test_the_classifier_marginalises_what_its_schema_reports_unseen():
    X = load_network("asia").sample(600, random_state=0)
    y = X.pop("lung")
    clf = BayesianNetworkClassifier(structure="naive_bayes").fit(X, y)
    assert clf._schema.names == tuple(X.columns)
    odd = X.head(20).astype(object)
    odd.loc[odd.index[:5], "smoke"] = "sometimes"
    with pytest.warns(UserWarning, match="'smoke': \\['sometimes'\\]"):
        proba = clf.predict_proba(odd)
    # an unseen value is a missing one: the same as leaving the cell empty
    empty = X.head(20).astype(object)
    empty.loc[empty.index[:5], "smoke"] = None
    np.testing.assert_allclose(proba, clf.predict_proba(empty))


def test_schema_slices_and_compares():
    schema = DataSchema(["a", "b", "c"], [True, False, True], [("x", "y"), (), ("u",)])
    assert schema.kind == "mixed" and schema.arities().tolist() == [2, 1, 1]
    part = schema.take([2, 0])
    assert part == DataSchema(["c", "a"], [True, True], [("u",), ("x", "y")])
    assert part.kind == "discrete" and part != schema
    with pytest.raises(ValueError, match="one entry per column"):
        DataSchema(["a"], [True, False], [(), ()])
