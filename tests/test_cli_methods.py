# SPDX-License-Identifier: BSD-3-Clause
"""The skbn subcommands of the meta-estimators, as a user runs them."""

import json

import pandas as pd
import pytest

from skbn.cli import main
from skbn.graph import read_graph


def _run(argv, capsys):
    code = main(argv)
    captured = capsys.readouterr()
    assert code == 0, captured.err
    return captured.out


@pytest.mark.parametrize("command", ["learn", "tune", "compare", "bootstrap", "pef", "autosle"])
def test_every_command_has_help(command, capsys):
    with pytest.raises(SystemExit) as info:
        main([command, "--help"])
    assert info.value.code == 0
    text = capsys.readouterr().out
    assert "--network" in text and "--random-state" in text and "--jobs" in text


def test_tune_writes_results_graph_and_curve(tmp_path, capsys):
    results, graph, png = tmp_path / "r.csv", tmp_path / "g.graphml", tmp_path / "c.svg"
    out = _run(
        [
            "tune",
            "--network",
            "asia",
            "-n",
            "1000",
            "--learner",
            "hc:aic",
            "--param",
            "criterion__penalty_discount=1,2,4",
            "--resamples",
            "3",
            "--scoring",
            "normalised-ebic:20",
            "--results",
            str(results),
            "--out",
            str(graph),
            "--plot",
            str(png),
            "--quiet",
        ],
        capsys,
    )
    assert "chosen" in out and "against the true network" in out
    table = pd.read_csv(results)
    assert list(table["criterion__penalty_discount"]) == [1, 2, 4]
    assert read_graph(graph).number_of_nodes() == 8
    assert png.read_text().lstrip().startswith("<?xml")


def test_tune_scores_held_out_structures_with_aic_on_discrete_data_by_default(tmp_path, capsys):
    import numpy as np

    from skbn.datasets import make_problem
    from skbn.learners import HillClimb
    from skbn.model_selection import OTSLSearchCV, aic_scorer
    from skbn.scores import BIC

    results = tmp_path / "r.csv"
    argv = [
        "tune",
        "--network",
        "asia",
        "-n",
        "1000",
        "--learner",
        "hc",
        "--random-state",
        "0",
        "--param",
        "criterion__penalty_discount=1,4",
        "--resamples",
        "3",
        "--results",
        str(results),
        "--quiet",
    ]
    _run(argv, capsys)
    X, _ = make_problem("asia", n_samples=1000, kind="discrete", random_state=0)
    grid = {"criterion__penalty_discount": [1, 4]}
    search = OTSLSearchCV(
        HillClimb(BIC(), random_state=0), grid, scoring=aic_scorer, n_resamples=3, random_state=0
    ).fit(X)
    np.testing.assert_allclose(
        pd.read_csv(results)["mean_score"], search.cv_results_["mean_test_score"], rtol=1e-12
    )


def test_tune_refuses_an_unknown_scoring_before_loading_data(tmp_path, capsys):
    missing = tmp_path / "no_such.csv"
    code = main(["tune", str(missing), "--param", "alpha=1", "--scoring", "bics"])
    assert code == 2
    assert "scoring must be one of" in capsys.readouterr().err


def test_tune_names_an_unknown_parameter(capsys):
    code = main(["tune", "--network", "asia", "--param", "penalty=1,2", "--quiet"])
    assert code == 2
    assert "has no parameter ['penalty']" in capsys.readouterr().err


def test_compare_ranks_learners(tmp_path, capsys):
    csv, png = tmp_path / "phd.csv", tmp_path / "curves.png"
    out = _run(
        [
            "compare",
            "--network",
            "asia",
            "-n",
            "800",
            "--learners",
            "hc:bic",
            "hc:bdeu",
            "--sizes",
            "100",
            "200",
            "--subsamples",
            "2",
            "--out",
            str(csv),
            "--plot",
            str(png),
        ],
        capsys,
    )
    assert "ranking" in out and "agreement" in out
    results = pd.read_csv(csv)
    assert set(results["estimator"]) == {"hc:bic", "hc:bdeu"}
    assert png.stat().st_size > 5000


def test_bootstrap_and_poset(tmp_path, capsys):
    strengths, png = tmp_path / "s.csv", tmp_path / "heat.png"
    out = _run(
        [
            "bootstrap",
            "--network",
            "asia",
            "-n",
            "800",
            "--resamples",
            "5",
            "--strengths",
            str(strengths),
            "--plot",
            str(png),
            "--out",
            str(tmp_path / "g.json"),
        ],
        capsys,
    )
    assert "strength" in out
    assert {"u", "v", "strength", "direction"} <= set(pd.read_csv(strengths).columns)
    out = _run(
        ["bootstrap", "--network", "asia", "-n", "800", "--resamples", "4", "--poset", "--quiet"],
        capsys,
    )
    assert "poset arcs" in out


def test_pef_on_a_replicated_network(tmp_path, capsys):
    png = tmp_path / "clusters.png"
    out = _run(
        ["pef", "--network", "child", "--nodes", "80", "--plot", str(png), "--quiet"], capsys
    )
    assert "clusters" in out and "f1_adjacency" in out
    assert png.stat().st_size > 5000


def test_autosle_with_a_sqlite_study_and_application(tmp_path, capsys):
    members = tmp_path / "members.json"
    url = f"sqlite:///{tmp_path / 'study.db'}"
    argv = [
        "autosle",
        "--problems",
        "3",
        "--max-nodes",
        "12",
        "--trials",
        "2",
        "--ensemble-size",
        "2",
        "--storage",
        url,
        "--members",
        str(members),
        "--quiet",
    ]
    first = _run(argv, capsys)
    assert "learned" in first
    saved = json.loads(members.read_text())
    assert 1 <= len(saved["members"]) <= 2
    # the same call resumes the stored study: same members, no new trials needed
    again = _run([*argv, "--network", "asia", "--kind", "gaussian", "--pef"], capsys)
    assert json.loads(members.read_text()) == saved
    assert "against the true network" in again


def test_learn_with_exact_and_mcmc(capsys):
    for learner in ("exact", "mcmc"):
        out = _run(["learn", "--network", "asia", "-n", "2000", "--learner", learner], capsys)
        assert "against the true network" in out


def test_the_command_line_uses_the_library_default_score():
    from skbn.cli._common import make_score
    from skbn.scores import EBIC, GaussianEBIC

    default = make_score(None, "gaussian")
    assert type(default) is GaussianEBIC and default.gamma == 1.0
    discrete = make_score(None, "discrete")
    assert type(discrete) is EBIC and discrete.gamma == "auto"
    # a named family keeps its own parameters unless an option is given
    assert make_score("ebic", "gaussian").gamma == 0.5
    assert make_score("ebic", "gaussian", gamma=2.0).gamma == 2.0
    assert make_score(None, "gaussian", penalty_discount=3.0).penalty_discount == 3.0


@pytest.mark.parametrize(
    "argv, message",
    [
        (["compare", "--learners", "hc", "--subsamples", "0"], "--subsamples: expected a positive"),
        (["bootstrap", "--resamples", "0"], "--resamples: expected a positive"),
        (["bootstrap", "--threshold", "2"], "--threshold: expected a number between 0 and 1"),
        (["learn", "--jobs", "0"], "--jobs: 0 jobs cannot run anything"),
    ],
)
def test_out_of_range_options_are_refused_by_the_parser(argv, message, capsys):
    # these once ran and ended in a KeyError or "tri() missing ..." traceback, or were
    # silently accepted
    with pytest.raises(SystemExit) as info:
        main([argv[0], "--network", "asia", *argv[1:]])
    assert info.value.code == 2
    assert message in capsys.readouterr().err


def test_a_malformed_normalised_ebic_scorer_is_named(capsys):
    argv = ["tune", "--network", "asia", "--param", "criterion__penalty_discount=1,2"]
    code = main([*argv, "--scoring", "normalised-ebic:x", "--quiet"])
    assert code != 0
    assert "after 'normalised-ebic:' comes the number of penalty values" in capsys.readouterr().err


def test_learn_with_boss_writes_the_learned_cpdag(tmp_path, capsys):
    graph = tmp_path / "g.json"
    _run(
        ["learn", "--network", "sachs", "-n", "5000", "--learner", "boss", "--out", str(graph)],
        capsys,
    )
    learned = read_graph(graph)
    assert learned.number_of_nodes() == 11 and learned.graph["kind"] == "cpdag"
    assert main(["learn", "--network", "asia", "--learner", "boss", "--max-indegree", "2"]) != 0


@pytest.mark.parametrize("learner", ["hc", "pc"])
def test_learn_takes_missing_values_from_a_csv_as_the_library_does(tmp_path, capsys, learner):
    from skbn.datasets import load_network

    X = load_network("asia").sample(1500, random_state=0)
    X = X.astype(object).mask(
        pd.DataFrame(
            __import__("numpy").random.default_rng(0).random(X.shape) < 0.05, columns=X.columns
        )
    )
    path = tmp_path / "m.csv"
    X.to_csv(path, index=False)
    out = tmp_path / "g.json"
    assert main(["learn", str(path), "--learner", learner, "--out", str(out), "--quiet"]) == 0
    assert read_graph(out).number_of_edges() >= 4
    # a learner without an available-case form still refuses, naming the missing columns
    assert main(["learn", str(path), "--learner", "exact", "--quiet"]) == 2
    assert "missing" in capsys.readouterr().err


def test_a_state_named_none_stays_a_state_unless_named_as_missing(tmp_path, capsys):
    from skbn.datasets import load_network

    X = load_network("insurance").sample(400, random_state=0)
    assert "None" in set(X["Accident"].astype(str))
    path = tmp_path / "insurance.csv"
    X.to_csv(path, index=False)
    out = tmp_path / "g.json"
    assert main(["learn", str(path), "--out", str(out), "--quiet"]) == 0
    err = capsys.readouterr().err
    assert "'Accident': 'None'" in err and "--na-values None" in err
    # named as a missing-value token, the same cells become missing values (learned from)
    assert main(["learn", str(path), "--na-values", "None", "--out", str(out), "--quiet"]) == 0
    assert "read as missing" not in capsys.readouterr().err


@pytest.mark.parametrize("name", ["fci", "rfci", "boss-fci"])
def test_learn_with_fci_writes_the_pag_the_library_learns(name, tmp_path, capsys):
    from skbn.datasets import load_network
    from skbn.graph import endpoint_matrix, marked_edges
    from skbn.learners import get_learner

    out, picture = tmp_path / "pag.json", tmp_path / "pag.png"
    argv = ["learn", "--network", "asia", "-n", "3000", "--random-state", "0"]
    text = _run(
        [
            *argv,
            "--learner",
            name,
            "--alpha",
            "0.01",
            "--out",
            str(out),
            "--plot",
            str(picture),
            "--quiet",
        ],
        capsys,
    )
    written = read_graph(out)
    X = load_network("asia").sample(3000, random_state=0)
    learner = get_learner(name, alpha=0.01)
    if "random_state" in learner.get_params():
        learner.set_params(random_state=0)
    expected = learner.fit(X).graph_
    nodes = list(expected.nodes)
    assert written.graph["kind"] == "pag"
    assert (endpoint_matrix(written, nodes)[0] == endpoint_matrix(expected)[0]).all()
    # the edges are listed with their marks, each as the library writes it
    listed = {line.strip() for line in text.splitlines() if line.startswith("  ")}
    assert set(marked_edges(expected)) <= listed
    assert picture.stat().st_size > 0
    # a network file and the DAG-only commands refuse a PAG learner before any work
    assert main([*argv, "--learner", name, "--out", str(tmp_path / "x.bif")]) == 2
    assert "learns a PAG" in capsys.readouterr().err
    assert main(["bootstrap", "--network", "asia", "-n", "300", "--learner", name]) == 2
    assert "learns a PAG" in capsys.readouterr().err
    assert not (tmp_path / "x.bif").exists()
