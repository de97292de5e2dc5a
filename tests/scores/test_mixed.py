# SPDX-License-Identifier: BSD-3-Clause
"""Conditional-Gaussian scores against hand computations and known properties."""

import math
import shutil
import subprocess

import networkx as nx
import numpy as np
import pandas as pd
import pytest

from skbn.scores import (
    BIC,
    CGAIC,
    CGBIC,
    CGEBIC,
    CGLogLikelihood,
    GaussianBIC,
    get_score,
)


@pytest.fixture(scope="module")
def frame():
    rng = np.random.default_rng(0)
    n = 400
    g = rng.integers(0, 3, n)
    h = (rng.random(n) < 0.3 + 0.3 * (g == 1)).astype(int)
    x = rng.normal(size=n) + g
    y = 0.5 * x + 2.0 * h + rng.normal(size=n) * (1 + g)
    z = 0.8 * y + rng.normal(size=n)
    return pd.DataFrame(
        {"g": g.astype(str), "h": np.where(h == 1, "yes", "no"), "x": x, "y": y, "z": z}
    )


def _hand_loglik(y, X, groups):
    """Sum over groups of the maximised Gaussian log-likelihood of y regressed on X."""
    total = 0.0
    for level in np.unique(groups):
        rows = groups == level
        design = np.column_stack([np.ones(rows.sum()), X[rows]])
        beta, *_ = np.linalg.lstsq(design, y[rows], rcond=None)
        resid = y[rows] - design @ beta
        var = resid @ resid / rows.sum()
        total += -0.5 * rows.sum() * (math.log(2 * math.pi * var) + 1)
    return total


def test_continuous_child_loglik_equals_a_regression_per_configuration(frame):
    bound = CGLogLikelihood().bind(frame)
    y = frame["y"].to_numpy()
    groups = (frame["g"] + frame["h"]).to_numpy()
    expected = _hand_loglik(y, frame[["x"]].to_numpy(), groups)
    assert bound.local_score("y", ["g", "h", "x"]) == pytest.approx(expected, rel=1e-10)
    # no discrete parent: one regression; no parent at all: the marginal Gaussian
    one = np.zeros(len(y))
    assert bound.local_score("y", ["x"]) == pytest.approx(
        _hand_loglik(y, frame[["x"]].to_numpy(), one), rel=1e-10
    )
    assert bound.local_score("y") == pytest.approx(
        _hand_loglik(y, np.zeros((len(y), 0)), one), rel=1e-10
    )
    assert bound.local_score("y", ["g"]) == pytest.approx(
        _hand_loglik(y, np.zeros((len(y), 0)), frame["g"].to_numpy()), rel=1e-10
    )


def test_discrete_child_is_multinomial_and_never_has_a_continuous_parent(frame):
    bound = CGLogLikelihood().bind(frame)
    counts = pd.crosstab(frame["g"], frame["h"]).to_numpy().astype(float)
    rows = counts.sum(axis=1, keepdims=True)
    expected = float(np.sum(counts * np.log(counts / rows)))
    assert bound.local_score("h", ["g"]) == pytest.approx(expected, rel=1e-12)
    assert bound.local_score("h", ["g", "x"]) == -np.inf
    assert CGBIC().bind(frame).local_score("h", ["x"]) == -np.inf


def test_penalties_count_parameters_per_configuration(frame):
    n, p = len(frame), frame.shape[1]
    ll = CGLogLikelihood().bind(frame)
    # y with discrete parents g (3 levels), h (2) and continuous x: 6 configurations, each
    # with an intercept, one coefficient and a variance
    k = 6 * 3
    assert CGBIC().bind(frame).local_score("y", ["g", "h", "x"]) == pytest.approx(
        ll.local_score("y", ["g", "h", "x"]) - k * math.log(n) / 2
    )
    assert CGAIC(penalty_discount=2).bind(frame).local_score("y", ["g", "h", "x"]) == (
        pytest.approx(ll.local_score("y", ["g", "h", "x"]) - 2 * k)
    )
    assert CGEBIC(gamma=1).bind(frame).local_score("y", ["g", "h", "x"]) == pytest.approx(
        ll.local_score("y", ["g", "h", "x"]) - k * (math.log(n) / 2 + math.log(p))
    )
    # a discrete child: (r - 1) q, as discrete BIC counts
    assert CGBIC().bind(frame).local_score("h", ["g"]) == pytest.approx(
        BIC().bind(frame[["g", "h"]]).local_score("h", ["g"])
    )


def test_on_continuous_columns_only_it_is_gaussian_bic(frame):
    floats = frame[["x", "y", "z"]]
    cg, gauss = CGBIC().bind(floats), GaussianBIC().bind(floats)
    for child, parents in [("z", []), ("z", ["y"]), ("y", ["x", "z"])]:
        assert cg.local_score(child, parents) == pytest.approx(
            gauss.local_score(child, parents), rel=1e-9
        )


def test_equal_on_equivalent_dags_that_keep_discrete_nodes_first(frame):
    score = CGBIC()
    # g -> h is covered (Pa(h) = Pa(g) + g): reversing it keeps the equivalence class
    a = nx.DiGraph([("g", "h"), ("g", "x"), ("g", "y"), ("h", "y"), ("x", "y"), ("y", "z")])
    b = nx.DiGraph([("h", "g"), ("g", "x"), ("g", "y"), ("h", "y"), ("x", "y"), ("y", "z")])
    assert score.score_graph(a, frame) == pytest.approx(score.score_graph(b, frame), rel=1e-12)
    # x -> y is covered (Pa(y) = Pa(x) + x = {g, x}): two continuous nodes, one discrete parent
    c = nx.DiGraph([("g", "h"), ("g", "x"), ("g", "y"), ("x", "y"), ("y", "z"), ("h", "z")])
    d = nx.DiGraph([("g", "h"), ("g", "x"), ("g", "y"), ("y", "x"), ("y", "z"), ("h", "z")])
    assert score.score_graph(c, frame) == pytest.approx(score.score_graph(d, frame), rel=1e-12)
    # a reversal that is not covered (x -> y while y also has the parent h) changes the score
    e = nx.DiGraph([("g", "h"), ("g", "x"), ("g", "y"), ("h", "y"), ("y", "x"), ("y", "z")])
    assert score.score_graph(e, frame) != pytest.approx(score.score_graph(a, frame), rel=1e-6)


def test_a_configuration_with_too_few_rows_makes_the_family_impossible():
    rng = np.random.default_rng(1)
    g = np.array(["a"] * 50 + ["b"] * 2)
    X = pd.DataFrame({"g": g, "x": rng.normal(size=52), "y": rng.normal(size=52)})
    bound = CGLogLikelihood().bind(X)
    assert np.isfinite(bound.local_score("y", ["g"]))  # 2 rows: a mean and a variance
    assert bound.local_score("y", ["g", "x"]) == -np.inf  # 2 rows, 3 parameters


def test_registry_resolves_family_names_for_mixed_data(frame):
    assert isinstance(get_score("bic", "mixed"), CGBIC)
    assert isinstance(get_score("bic-cg", "mixed"), CGBIC)
    assert isinstance(get_score(None, "mixed"), CGBIC)
    assert isinstance(get_score("loglik-cg", "mixed"), CGLogLikelihood)
    with pytest.raises(ValueError, match="not defined for mixed discrete and continuous"):
        get_score("bdeu", "mixed")


def _bnlearn_available() -> bool:
    if shutil.which("Rscript") is None:
        return False
    probe = subprocess.run(
        ["Rscript", "-e", "library(bnlearn)"], capture_output=True, text=True, check=False
    )
    return probe.returncode == 0


@pytest.mark.skipif(not _bnlearn_available(), reason="R with bnlearn is not installed")
def test_loglik_agrees_with_bnlearn_loglik_cg(frame, tmp_path):
    """bnlearn plugs in unbiased standard deviations; per configuration with n_s rows and
    p = k + 1 regression coefficients the maximised log-likelihood exceeds bnlearn's by
    n_s / 2 log(n_s / (n_s - p)) - p / 2, which depends on the counts alone."""
    path = tmp_path / "mixed.csv"
    frame.to_csv(path, index=False)
    script = f"""
    suppressMessages(library(bnlearn))
    d <- read.csv("{path}", stringsAsFactors = TRUE)
    d$g <- factor(d$g)
    dag <- model2network("[g][h|g][x|g][y|g:h:x][z|y]")
    cat(sprintf("%.10f", score(dag, d, type = "loglik-cg", by.node = TRUE)), sep = "\\n")
    """
    out = subprocess.run(["Rscript", "-e", script], capture_output=True, text=True, check=True)
    theirs = dict(zip(["g", "h", "x", "y", "z"], map(float, out.stdout.split())))
    ours = CGLogLikelihood().bind(frame)
    families = {"g": [], "h": ["g"], "x": ["g"], "y": ["g", "h", "x"], "z": ["y"]}
    for node, parents in families.items():
        mine = ours.local_score(node, parents)
        if node in ("g", "h"):
            assert mine == pytest.approx(theirs[node], rel=1e-8)
            continue
        k = sum(1 for u in parents if frame[u].dtype.kind == "f")
        disc = [u for u in parents if frame[u].dtype.kind != "f"]
        counts = frame.groupby(disc).size().to_numpy() if disc else np.array([len(frame)])
        p = k + 1
        shift = float(np.sum(counts / 2 * np.log(counts / (counts - p)) - p / 2))
        assert mine == pytest.approx(theirs[node] + shift, rel=1e-8), node
