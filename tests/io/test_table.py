# SPDX-License-Identifier: BSD-3-Clause
"""The library's reading of data tables and file formats, which the command line calls."""

import warnings

import numpy as np
import pandas as pd
import pytest

from skbn.cli import main
from skbn.datasets import load_network, make_problem
from skbn.io import (
    ManyStatesWarning,
    MissingLookalikeWarning,
    format_of,
    read_table,
)
from skbn.learners import BOSS, FGES, default_learner, get_learner, learners_taking
from skbn.preprocessing import bin_continuous


def _read(path, **kwargs):
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        X = read_table(path, **kwargs)
    return X, [w.message for w in caught]


def test_read_table_keeps_states_that_look_missing_and_says_so(tmp_path):
    X = load_network("insurance").sample(300, random_state=0)
    path = tmp_path / "insurance.csv"
    X.to_csv(path, index=False)
    read, caught = _read(path)
    assert (read["Accident"].astype(str) == X["Accident"].astype(str)).all()
    assert read.isna().sum().sum() == 0
    (warning,) = [w for w in caught if isinstance(w, MissingLookalikeWarning)]
    assert warning.tokens["Accident"] == ["None"]
    # named as a token, every such cell is missing and nothing else is
    named, caught = _read(path, na_values=["None"])
    assert not caught
    for column in X.columns:
        expected = X[column].astype(str) == "None"
        assert (named[column].isna() == expected).all(), column


def test_read_table_kinds(tmp_path):
    X, _ = make_problem("asia", n_samples=200, kind="gaussian", random_state=0)
    X.iloc[4, 1] = np.nan
    path = tmp_path / "g.csv"
    X.to_csv(path, index=False)
    gaussian, caught = _read(path, kind="gaussian")
    assert not caught and all(t == np.float64 for t in gaussian.dtypes)
    np.testing.assert_allclose(gaussian.to_numpy(), X.to_numpy(), rtol=1e-12)
    discrete, caught = _read(path, kind="discrete")
    (warning,) = caught
    assert isinstance(warning, ManyStatesWarning) and warning.states["asia"] == 200
    assert all(isinstance(t, pd.CategoricalDtype) for t in discrete.dtypes)
    assert discrete.iloc[4, 1] is pd.NA or pd.isna(discrete.iloc[4, 1])
    text = X.astype(object)
    text.iloc[7, 3] = "high"
    text.to_csv(path, index=False)
    with pytest.raises(ValueError, match=r"needs numbers, and \['lung'\] hold text"):
        read_table(path, kind="gaussian")
    with pytest.raises(ValueError, match="kind='mixed'"):
        read_table(path, kind="mixed")


@pytest.mark.parametrize(
    "content, message",
    [
        ("a;b\n1;2\n", "separated by semicolons"),
        ("a,b,a\n1,2,3\n", r"repeats column names in its header: \['a'\]"),
    ],
)
def test_read_table_refuses_what_it_cannot_read_faithfully(tmp_path, content, message):
    path = tmp_path / "d.csv"
    path.write_text(content)
    with pytest.raises(ValueError, match=message):
        read_table(path)
    with pytest.raises(ValueError, match="no such file"):
        read_table(tmp_path / "absent.csv")


@pytest.mark.slow
def test_the_command_line_reads_a_file_as_the_library_does(tmp_path, capsys):
    # the same CSV learned from the command line and from read_table gives the same graph
    from skbn.graph import read_graph

    X = load_network("insurance").sample(500, random_state=1)
    path = tmp_path / "insurance.csv"
    X.to_csv(path, index=False)
    out = tmp_path / "g.json"
    assert main(["learn", str(path), "--na-values", "None", "--out", str(out), "--quiet"]) == 0
    assert "--na-values" not in capsys.readouterr().err  # the token was named
    read, _ = _read(path, na_values=["None"])
    expected = default_learner(read.shape[1], random_state=0).fit(read).graph_
    assert set(read_graph(out).edges) == set(expected.edges)


def test_format_of_tells_networks_from_graphs():
    assert [format_of(p) for p in ("a.bif", "a.NET", "a.xdsl.gz", "a.graphml", "a.gv")] == [
        "bif",
        "net",
        "xdsl",
        "graphml",
        "dot",
    ]
    with pytest.raises(ValueError, match=r"\.bif, \.net, \.xdsl.*\.graphml, \.json, \.dot"):
        format_of("a.csv")


def test_bin_continuous_cuts_floats_only():
    rng = np.random.default_rng(0)
    X = pd.DataFrame(
        {
            "x": rng.normal(size=400),
            "k": rng.integers(0, 3, 400),
            "s": rng.choice(["a", "b"], 400),
        }
    )
    X.loc[5, "x"] = np.nan
    cut = bin_continuous(X, 4)
    assert sorted(cut["x"].value_counts().tolist()) == [99, 100, 100, 100]  # 399 values
    assert pd.isna(cut.loc[5, "x"])
    # bins are ordered by value: every value of b1 is below every value of b2, and so on
    highs = X["x"].groupby(cut["x"], observed=True).max()
    lows = X["x"].groupby(cut["x"], observed=True).min()
    assert (highs.to_numpy()[:-1] < lows.to_numpy()[1:]).all()
    assert cut["k"].equals(X["k"]) and cut["s"].equals(X["s"])
    wide = bin_continuous(X, 3, "uniform")
    edges = np.linspace(X["x"].min(), X["x"].max(), 4)
    ok = X["x"].notna()
    expected = np.clip(np.searchsorted(edges, X["x"][ok], side="left") - 1, 0, 2)
    assert (wide["x"][ok].cat.codes.to_numpy() == expected).mean() > 0.99  # edges may round
    with pytest.raises(ValueError, match="n_bins=1"):
        bin_continuous(X, 1)
    with pytest.raises(ValueError, match="strategy='kmeans'"):
        bin_continuous(X, 3, "kmeans")
    with pytest.raises(TypeError, match="DataFrame"):
        bin_continuous(X.to_numpy(), 3)


def test_get_learner_is_the_registry_and_the_default():
    assert repr(get_learner("auto", n_features=37, random_state=2)) == repr(
        default_learner(37, random_state=2)
    )
    assert isinstance(get_learner("auto", n_features=1001), FGES)
    assert isinstance(get_learner("auto", n_features=1000), BOSS)
    with pytest.raises(ValueError, match="pass n_features"):
        get_learner("auto")
    with pytest.raises(ValueError, match=r"Unknown learner 'bos'"):
        get_learner("bos")
    with pytest.raises(ValueError, match="BOSS has no parameter 'max_indegree'; hc, tabu"):
        get_learner("boss", max_indegree=2)
    takers = learners_taking("ci_test")
    assert "pc" in takers and "mmhc" in takers and "boss" not in takers
