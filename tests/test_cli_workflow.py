# SPDX-License-Identifier: BSD-3-Clause
"""The command line carries the workflow: every --help example runs, graphs go in and out."""

import contextlib
import io
import shlex

import pytest

from skbn.cli import COMMANDS, main
from skbn.datasets import load_network


def _help(*words) -> str:
    out = io.StringIO()
    with contextlib.redirect_stdout(out), pytest.raises(SystemExit):
        main([*words, "--help"])
    return out.getvalue()


def _examples(text: str) -> list[list[str]]:
    return [shlex.split(line)[1:] for line in text.splitlines() if line.startswith("  skbn ")]


HELPS = [(name,) for name in COMMANDS if name != "networks"] + [
    ("networks", "list"),
    ("networks", "sample"),
]


@pytest.mark.parametrize("words", HELPS, ids=" ".join)
def test_every_help_has_an_example_that_runs_as_printed(words, tmp_path, monkeypatch, capsys):
    examples = _examples(_help(*words))
    assert examples, f"skbn {' '.join(words)} --help shows no example"
    monkeypatch.chdir(tmp_path)
    assert any(argv[: len(words)] == list(words) for argv in examples)
    for argv in examples:  # in order: an example may read what the one before wrote
        assert main(argv) == 0, capsys.readouterr().err
        for flag in ("--out", "--plot"):
            if flag in argv:  # what the example promises to write is there
                assert (tmp_path / argv[argv.index(flag) + 1]).stat().st_size > 0


def test_version(capsys):
    from skbn import __version__

    with pytest.raises(SystemExit) as exit_:
        main(["--version"])
    assert exit_.value.code == 0
    assert capsys.readouterr().out.strip() == f"skbn {__version__}"


def test_bad_out_is_refused_before_any_work(tmp_path, capsys, monkeypatch):
    import skbn.cli.learn as learn

    def fail(*args, **kwargs):  # pragma: no cover - reached only on the old behaviour
        raise AssertionError("data was loaded before --out was checked")

    monkeypatch.setattr(learn, "load_source", fail)
    assert main(["learn", "--network", "asia", "--out", str(tmp_path / "g.xyz")]) == 2
    assert "--format" in capsys.readouterr().err
    assert main(["learn", "--network", "asia", "--out", str(tmp_path / "no" / "g.bif")]) == 2
    assert "does not exist" in capsys.readouterr().err
    assert main(["learn", "--network", "asia", "--format", "bif"]) == 2


@pytest.mark.parametrize("suffix", [".bif", ".net", ".xdsl"])
def test_learn_writes_a_fitted_network(tmp_path, suffix):
    from skbn.io import read_network

    out = tmp_path / f"asia{suffix}"
    assert main(["learn", "--network", "asia", "-n", "3000", "--out", str(out)]) == 0
    net = read_network(out)
    truth = load_network("asia")
    assert set(net.nodes) == set(truth.nodes)
    assert all(net.states[v] == truth.states[v] for v in net.nodes)
    assert net.n_arcs > 0


def test_fit_parameters_and_report_read_graph_files(tmp_path, capsys):
    from skbn.graph import write_graph
    from skbn.io import read_network
    from skbn.parameters import fit_network

    asia = load_network("asia")
    X = asia.sample(3000, random_state=0)
    data = tmp_path / "asia.csv"
    X.to_csv(data, index=False)
    graph = tmp_path / "truth.graphml"
    write_graph(asia.graph, graph)
    out = tmp_path / "fitted.net"
    assert (
        main(["fit-parameters", str(graph), str(data), "--out", str(out), "--method", "mle"]) == 0
    )
    fitted = read_network(out)
    import pandas as pd

    expected = fit_network(asia.graph, pd.read_csv(data), method="mle")
    for v in asia.nodes:
        assert fitted.parents[v] == expected.parents[v]
        assert fitted.cpts[v] == pytest.approx(expected.cpts[v], abs=1e-15)
    capsys.readouterr()
    assert main(["report", str(out), "asia"]) == 0
    report = capsys.readouterr().out
    assert "shd                  0" in report
    assert main(["report", str(out), str(tmp_path / "missing.json")]) == 2
    assert "not a bundled network" in capsys.readouterr().err
    assert main(["fit-parameters", str(graph), str(data), "--out", str(tmp_path / "x.json")]) == 2
    assert "network format" in capsys.readouterr().err


def test_kind_discrete_on_float_columns_warns(tmp_path, capsys):
    import numpy as np
    import pandas as pd

    rng = np.random.default_rng(0)
    data = tmp_path / "floats.csv"
    pd.DataFrame({"a": rng.normal(size=60), "b": rng.integers(0, 3, 60)}).to_csv(data, index=False)
    assert main(["learn", str(data), "--kind", "discrete"]) == 0
    err = capsys.readouterr().err
    assert "'a': 60 states" in err and "'b'" not in err


def test_learn_reads_background_knowledge_files(tmp_path, capsys):
    from skbn.graph import read_graph

    (tmp_path / "req.csv").write_text("from,to\nsmoke,lung\n")
    (tmp_path / "forb.csv").write_text("# no arc out of either\neither,xray\neither,dysp\n")
    order = ["asia smoke", "tub lung bronc", "either", "xray dysp"]
    rows = [f"{v},{k}" for k, tier in enumerate(order) for v in tier.split()]
    (tmp_path / "tiers.csv").write_text("node,tier\n" + "\n".join(rows) + "\n")
    out = tmp_path / "k.json"
    argv = ["learn", "--network", "asia", "-n", "2000", "--out", str(out)]
    knowledge = ["--require", str(tmp_path / "req.csv"), "--forbid", str(tmp_path / "forb.csv")]
    assert main(argv + knowledge + ["--tiers", str(tmp_path / "tiers.csv")]) == 0
    g = read_graph(out)
    assert g.has_edge("smoke", "lung")
    assert not g.has_edge("either", "xray") and not g.has_edge("either", "dysp")
    tier = {v: k for k, t in enumerate(order) for v in t.split()}
    assert all(tier[u] <= tier[v] for u, v in g.edges)
    # without the files the same run does use one of the forbidden arcs
    assert main(argv) == 0
    plain = read_graph(out)
    assert plain.has_edge("either", "xray") or plain.has_edge("either", "dysp")
    capsys.readouterr()
    assert main(["learn", "--network", "asia", "--learner", "pc", "--start", "asia"]) == 2
    assert "does not take --start" in capsys.readouterr().err
    (tmp_path / "bad.csv").write_text("a,b,c\n")
    assert main(["learn", "--network", "asia", "--require", str(tmp_path / "bad.csv")]) == 2
    assert "line 1: expected two" in capsys.readouterr().err


def test_tune_uses_learns_default_score_and_warns_at_the_grid_edge(capsys, monkeypatch):
    import skbn.cli.tune as tune
    from skbn.model_selection import OTSLSearchCV

    seen = {}
    original = OTSLSearchCV.fit

    def spy(self, X, y=None):
        seen["estimator"] = self.estimator
        return original(self, X, y)

    monkeypatch.setattr(OTSLSearchCV, "fit", spy)
    argv = ["tune", "--network", "asia", "-n", "1500", "--resamples", "2", "--quiet"]
    # far too small; EBIC(gamma="auto") raises gamma to make up for it, so the three tie and
    # an edge of the grid wins either way
    grid = "criterion__penalty_discount=0.001,0.002,0.004"
    assert main([*argv, "--param", grid]) == 0
    from skbn.scores import EBIC

    criterion = seen["estimator"].criterion  # what skbn learn uses on discrete data
    assert type(criterion) is EBIC and criterion.gamma == "auto"
    err = capsys.readouterr().err
    assert "is at the edge of its grid [0.001, 0.002, 0.004]" in err
    assert tune._at_grid_edge({"a": [1, 2, 3]}, {"a": 2}) == {}
    assert tune._at_grid_edge({"a": [1, 2]}, {"a": 2}) == {}  # two values have no inside


@pytest.mark.parametrize(
    "command", [["learn", "--learner", "pc"], ["bootstrap", "--resamples", "4"]]
)
def test_quiet_silences_the_progress_output(command, capsys, monkeypatch):
    from skbn.cli import _common

    argv = [*command, "--network", "asia", "-n", "1000"]
    monkeypatch.setattr(_common, "_on_terminal", lambda: True)
    assert main(argv) == 0
    loud = capsys.readouterr()
    assert main([*argv, "--quiet"]) == 0
    quiet = capsys.readouterr()
    assert len(quiet.out + quiet.err) < len(loud.out + loud.err)
    progress = "PCStable level" if command[0] == "learn" else "bootstrap"
    assert progress in loud.out + loud.err and progress not in quiet.err


def test_progress_bars_stay_out_of_redirected_output(capsys):
    # captured output is no terminal: a bar's carriage returns would litter a log file
    assert main(["bootstrap", "--resamples", "4", "--network", "asia", "-n", "1000"]) == 0
    out = capsys.readouterr()
    assert "\r" not in out.out + out.err
    assert "learner     HillClimb(" in out.out  # it says which learner ran (not 'auto')
    assert "strongest   " in out.out and " arcs seen in any resample" in out.out


def test_library_warnings_are_one_line_without_source_paths(tmp_path, capsys):
    import warnings

    import numpy as np
    import pandas as pd

    data = tmp_path / "ints.csv"
    rng = np.random.default_rng(0)
    pd.DataFrame({"age": rng.integers(0, 60, 200), "b": rng.integers(0, 2, 200)}).to_csv(
        data, index=False
    )
    with warnings.catch_warnings():
        warnings.simplefilter("always")
        assert main(["learn", str(data), "--quiet"]) == 0
    err = capsys.readouterr().err
    assert "skbn: warning: Integer columns with more than 20" in err
    assert ".py:" not in err and "DataKindWarning" not in err


def test_pef_says_when_it_makes_a_discrete_network_gaussian(capsys):
    argv = ["pef", "--network", "asia", "-n", "500", "--quiet"]
    assert main(argv) == 0
    assert "linear-Gaussian model on its graph" in capsys.readouterr().out


def test_tune_and_autosle_refuse_bad_input_before_the_search(tmp_path, capsys, monkeypatch):
    import skbn.ensemble as ensemble
    import skbn.model_selection._base_search as base_search

    def no_work(*args, **kwargs):  # pragma: no cover - reached only on the old behaviour
        raise AssertionError("the search ran before the input was checked")

    monkeypatch.setattr(base_search, "run_fits", no_work)
    monkeypatch.setattr(ensemble.AutoSLEEnsemble, "learn_members", no_work)
    argv = ["tune", "--network", "asia", "-n", "500", "--param"]
    assert main([*argv, "criterion__penalty_discount=1,-1"]) == 2
    assert "is invalid, so no fit was run" in capsys.readouterr().err
    data = tmp_path / "holes.csv"
    data.write_text("a,b\n1.0,2.0\n,3.0\n2.5,1.0\n")
    assert main(["autosle", str(data), "--problems", "2", "--trials", "2"]) == 2
    assert "missing values" in capsys.readouterr().err


def test_cli_network_formats_are_the_librarys():
    from skbn.cli._common import NETWORK_FORMATS
    from skbn.io import NETWORK_FORMATS as LIBRARY

    assert NETWORK_FORMATS == tuple(LIBRARY)


def test_repeated_csv_column_names_are_refused(tmp_path, capsys):
    # pandas would read the header a,a,b as a, a.1, b and learn over a node that is not there
    data = tmp_path / "dup.csv"
    data.write_text("a,a,b\n0,1,0\n1,0,1\n0,0,1\n1,1,0\n")
    graph = tmp_path / "g.json"
    graph.write_text(
        '{"directed": true, "multigraph": false, "graph": {}, '
        '"nodes": [{"id": "a"}, {"id": "b"}], "edges": [{"source": "a", "target": "b"}]}'
    )
    for argv in (
        ["learn", str(data)],
        ["fit-parameters", str(graph), str(data), "--out", str(tmp_path / "m.bif")],
    ):
        assert main(argv) == 2
        err = capsys.readouterr().err
        assert "repeats column names" in err and "['a']" in err
    assert not (tmp_path / "m.bif").exists()


def test_learn_prints_the_data_kind_the_test_and_every_edge(tmp_path, capsys):
    from skbn.learners import PCStable

    X = load_network("asia").sample(2000, random_state=0)
    path = tmp_path / "asia.csv"
    X.to_csv(path, index=False)
    main(["learn", str(path), "--learner", "pc", "--quiet"])
    out = capsys.readouterr().out
    assert "8 variables (discrete)" in out
    assert "test        GSquare()" in out
    graph = PCStable().fit(X.astype(str)).graph_  # the CLI reads the CSV as strings
    listed = [line.strip() for line in out.split("edges\n")[1].splitlines() if line.strip()]
    expected = sorted(
        f"{u} -- {v}" if graph.has_edge(v, u) else f"{u} -> {v}"
        for u, v in graph.edges()
        if not graph.has_edge(v, u) or u < v
    )
    assert sorted(listed) == expected and expected


def test_report_lists_the_edges_and_out_dash_is_refused(tmp_path, capsys):
    import networkx as nx

    from skbn.graph import write_graph

    graph = nx.DiGraph([("a", "b"), ("c", "b"), ("b", "d"), ("d", "b")])
    graph.graph["kind"] = "pdag"
    path = tmp_path / "g.json"
    write_graph(graph, path)
    main(["report", str(path)])
    out = capsys.readouterr().out
    assert [line.strip() for line in out.splitlines() if line.startswith("  ")] == [
        "a -> b",
        "b -- d",
        "c -> b",
    ]
    data = tmp_path / "asia.csv"
    load_network("asia").sample(200, random_state=0).to_csv(data, index=False)
    assert main(["learn", str(data), "--out", "-"]) == 2
    assert "writing to standard output is not supported" in capsys.readouterr().err
    assert not (tmp_path / "-").exists()


def test_kind_mixed_samples_a_conditional_gaussian_network(capsys):
    from skbn.datasets import make_conditional_gaussian

    assert main(["learn", "--network", "asia", "--kind", "mixed", "-n", "1000", "--quiet"]) == 0
    out = capsys.readouterr().out
    assert "1000 rows sampled from asia (mixed), 8 variables" in out
    assert "CGBIC()" in out  # the conditional-Gaussian score for mixed data
    # the truth it reports against is the network's own graph
    truth = make_conditional_gaussian(load_network("asia"), 0.3, random_state=0).graph
    assert f"n_true_edges         {truth.number_of_edges()}" in out
    assert main(["learn", "--network", "asia", "--kind", "mixed", "--nodes", "20"]) == 2
    assert "--nodes does not apply" in capsys.readouterr().err


def test_bootstrap_counts_pairs_once_and_matches_the_averaged_graph(capsys):
    import re

    argv = ["bootstrap", "--network", "asia", "-n", "500", "--resamples", "4", "--quiet"]
    assert main(argv) == 0
    out = capsys.readouterr().out
    pairs, directed, undirected = map(
        int, re.search(r"(\d+) pairs .*has (\d+) directed and (\d+) undirected", out).groups()
    )
    # each strong pair once (the table lists both directions), each an edge of the graph
    assert pairs == directed + undirected > 0


def test_the_default_learner_follows_the_measured_rule(tmp_path, capsys, monkeypatch):
    import networkx as nx

    from skbn.graph import read_graph
    from skbn.learners import BOSS, default_learner

    bn = load_network("asia")
    X = bn.sample(2000, random_state=1)
    data = tmp_path / "asia.csv"
    X.to_csv(data, index=False)
    out = tmp_path / "g.json"
    assert main(["learn", str(data), "--quiet", "--random-state", "3", "--out", str(out)]) == 0
    printed = capsys.readouterr().out
    assert "BOSS(criterion=EBIC(gamma='auto'), polish=True, random_state=3)" in printed
    # the graph written is the one the library's default learner finds on the same data
    expected = default_learner(X.shape[1], random_state=3).fit(X).graph_
    assert isinstance(default_learner(X.shape[1]), BOSS)
    assert nx.utils.graphs_equal(read_graph(out), nx.DiGraph(expected))
    # above the measured size the rule switches to FGES
    monkeypatch.setattr("skbn.learners._registry.AUTO_BOSS_MAX_FEATURES", 5)
    assert type(default_learner(8)).__name__ == "FGES"
    assert main(["learn", str(data), "--quiet"]) == 0
    assert "learner     FGES(" in capsys.readouterr().out


def test_options_that_do_not_apply_are_refused_before_any_work(tmp_path, capsys):
    data = tmp_path / "asia.csv"
    load_network("asia").sample(300, random_state=0).to_csv(data, index=False)
    cases = [
        (["learn", str(data), "--learner", "pc", "--score", "bdeu"], "--score does not apply"),
        (["learn", str(data), "--learner", "hc", "--test", "g2"], "--test applies to pc"),
        (["learn", str(data), "--test", "g2"], "--learner auto takes a score"),
        (["learn", str(data), "--score", "bic", "--gamma", "0.5"], "--gamma applies to the ebic"),
        (["learn", str(data), "-n", "100"], "-n/--n-samples applies to --network"),
        (["learn", str(data), "--plot", str(tmp_path / "g.txt")], "picture format"),
        (["learn", str(data), "--plot", str(tmp_path / "no" / "g.png")], "does not exist"),
        (["networks", "sample", "asia", "--out", str(tmp_path / "x.parquet")], "writes CSV"),
        (["networks", "sample", "asia", "--out", str(tmp_path / "no" / "x.csv")], "does not exist"),
    ]
    for argv, message in cases:
        assert main(argv) == 2, argv
        captured = capsys.readouterr()
        assert message in captured.err, (argv, captured.err)
        # refused before any work: nothing learned, sampled or written
        assert "learner     " not in captured.out and "sampled " not in captured.out
    assert sorted(p.name for p in tmp_path.iterdir()) == ["asia.csv"]
    # the same options where they apply still work
    assert main(["learn", str(data), "--score", "ebic", "--gamma", "0.5", "--quiet"]) == 0
    out = tmp_path / "x.csv.gz"
    assert main(["networks", "sample", "asia", "-n", "20", "--out", str(out)]) == 0
    import pandas as pd

    assert len(pd.read_csv(out)) == 20


def test_fit_parameters_names_the_nodes_the_data_lacks(tmp_path, capsys):
    import networkx as nx

    from skbn.graph import write_graph

    graph = tmp_path / "g.json"
    write_graph(nx.DiGraph([("a", "b"), ("b", "c")], kind="dag"), graph)
    data = tmp_path / "d.csv"
    data.write_text("x,y\n1,2\n2,1\n")
    assert main(["fit-parameters", str(graph), str(data), "--out", str(tmp_path / "m.bif")]) == 2
    err = capsys.readouterr().err
    assert "no column for 3 of the graph's 3 nodes (a, b, c)" in err
    assert "shares no column with the graph" in err and "Its columns: x, y" in err
    assert not (tmp_path / "m.bif").exists()


def test_a_byte_order_mark_is_not_part_of_the_first_column_name(tmp_path, capsys):
    from skbn.graph import read_graph

    bom = b"\xef\xbb\xbf"
    repeated = tmp_path / "repeated.csv"
    repeated.write_bytes(bom + b"a,a\n1,2\n2,1\n1,1\n")
    assert main(["learn", str(repeated), "--quiet"]) == 2
    assert "repeats column names in its header: ['a']" in capsys.readouterr().err
    fine = tmp_path / "fine.csv"
    fine.write_bytes(bom + b"a,b\n1,2\n2,1\n1,1\n2,2\n")
    out = tmp_path / "g.json"
    assert main(["learn", str(fine), "--quiet", "--out", str(out)]) == 0
    assert sorted(read_graph(out).nodes) == ["a", "b"]


@pytest.mark.parametrize(
    "command",
    [
        ["learn"],
        ["bootstrap", "--resamples", "2"],
        ["pef"],
        ["tune", "--param", "criterion__gamma=0.5,1"],
    ],
)
def test_a_network_file_for_continuous_data_is_refused_before_learning(tmp_path, capsys, command):
    from skbn.datasets import make_problem

    X, _ = make_problem("asia", n_samples=300, random_state=0)
    data = tmp_path / "g.csv"
    X.to_csv(data, index=False)
    out = tmp_path / "m.bif"
    assert main([*command, str(data), "--out", str(out), "--quiet"]) == 2
    captured = capsys.readouterr()
    assert "BIF files hold discrete networks, and this data is gaussian" in captured.err
    assert "skbn.io" not in captured.err  # command-line advice, not Python
    assert "learner     " not in captured.out and not out.exists()


def test_bins_discretise_continuous_columns_so_a_network_file_can_be_written(tmp_path, capsys):
    import numpy as np
    import pandas as pd

    from skbn.cli._common import discretise
    from skbn.datasets import make_problem
    from skbn.io import read_network

    X, _ = make_problem("asia", n_samples=400, random_state=0)
    X.iloc[3, 2] = np.nan
    cut, n_cut = discretise(X, 4)
    assert n_cut == 8 and list(cut["asia"].cat.categories) == ["b1", "b2", "b3", "b4"]
    # quantile bins hold equal counts (400 rows into 4), ordered by value
    counts = cut["tub"].value_counts().sort_index()
    assert counts.tolist() == [100, 100, 100, 100]
    assert X["tub"][cut["tub"] == "b1"].max() <= X["tub"][cut["tub"] == "b2"].min()
    assert pd.isna(cut.iloc[3, 2]) and cut.iloc[:, 2].notna().sum() == 399
    wide, _ = discretise(X, 3, "uniform")
    edges = np.linspace(X["smoke"].min(), X["smoke"].max(), 4)
    expected = np.clip(np.searchsorted(edges, X["smoke"], side="left") - 1, 0, 2)
    assert (wide["smoke"].cat.codes.to_numpy() == expected).mean() > 0.99  # edges may round
    data = tmp_path / "g.csv"
    X.to_csv(data, index=False)
    out = tmp_path / "m.bif"
    assert main(["learn", str(data), "--bins", "4", "--out", str(out), "--quiet"]) == 0
    assert "8 continuous column(s) cut into 4 quantile bins" in capsys.readouterr().out
    assert read_network(out).states["asia"] == ("b1", "b2", "b3", "b4")
    discrete = tmp_path / "d.csv"
    load_network("asia").sample(100, random_state=0).to_csv(discrete, index=False)
    assert main(["learn", str(discrete), "--bins", "3"]) == 2
    assert "no continuous column to cut" in capsys.readouterr().err
    assert main(["learn", str(data), "--bins", "1"]) == 2
    assert "at least 2 bins" in capsys.readouterr().err


def test_an_unknown_graph_suffix_gets_command_line_advice(tmp_path, capsys):
    path = tmp_path / "graph.xyz"
    path.write_text("a -> b\n")
    assert main(["report", str(path)]) == 2
    err = capsys.readouterr().err
    assert "cannot tell the format from the suffix; use a graph file (.json, .graphml, .txt" in err
    assert "format=" not in err  # no Python keyword in a command-line message


def test_make_learner_sets_what_each_learner_has():
    # the options reach the parameters each learner reports, and only those
    from skbn.cli._common import make_learner
    from skbn.learners._registry import LEARNERS
    from skbn.scores import BDeu

    for name, cls in LEARNERS.items():
        accepted = cls().get_params()
        kwargs = dict(alpha=0.01, random_state=4)
        if "max_indegree" in accepted:
            kwargs["max_indegree"] = 3
        if "max_degree" in accepted:
            kwargs["max_degree"] = 5
        learner = make_learner(name, BDeu(), "g_sq", **kwargs)
        got = learner.get_params()
        assert type(learner) is cls
        if "criterion" in accepted:  # --score
            assert type(got["criterion"]).__name__ == "BDeu"
        if "ci_test" in accepted:  # --test
            assert got["ci_test"] == "g_sq"
        for parameter, value in kwargs.items():
            if parameter in accepted:
                assert got[parameter] == value, (name, parameter)
    with pytest.raises(
        ValueError, match="--max-indegree applies to hc, tabu, mmhc, exact and mcmc, not boss"
    ):
        make_learner("boss", None, max_indegree=2)


@pytest.mark.parametrize(
    "argv, message",
    [
        (["networks", "sample", "asia", "-n", "1000000000"], "Sampling 1000000000 rows"),
        (["learn", "--network", "asia", "--nodes", "1000000000", "-n", "100"], "n_nodes="),
    ],
)
def test_sizes_beyond_the_machine_are_refused_before_allocating(argv, message, capsys):
    # these allocated 29.8 GiB (a traceback) or grew to 23 GB until the kernel killed them
    assert main(argv) == 2
    err = capsys.readouterr().err
    assert message in err and "GiB, more than this machine's" in err


def test_memory_error_is_an_error_line_not_a_traceback(monkeypatch, capsys):
    def exhausted(args):
        raise MemoryError("Unable to allocate 9.3 GiB")

    monkeypatch.setattr(COMMANDS["learn"], "run", exhausted)
    assert main(["learn", "--network", "asia"]) == 2
    err = capsys.readouterr().err
    assert err.startswith("skbn: error: out of memory (Unable to allocate 9.3 GiB)")
    assert "Traceback" not in err


def test_hill_climbing_refuses_p_squared_tables_beyond_memory(monkeypatch):
    import numpy as np

    from skbn.learners import HillClimb, TabuSearch

    X = load_network("asia").sample(200, random_state=0)
    monkeypatch.setattr("skbn.utils._memory.physical_memory", lambda: 1000)
    for learner in (HillClimb(), TabuSearch()):
        with pytest.raises(ValueError, match=r"on 8 variables \(its \(p, p\) tables"):
            learner.fit(X)
    monkeypatch.setattr("skbn.utils._memory.physical_memory", lambda: 2**34)
    assert np.isfinite(HillClimb().fit(X).score(X))


@pytest.mark.parametrize(
    "argv, message",
    [
        (
            [
                "tune",
                "--network",
                "asia",
                "--param",
                "penalty_discount=1,2",
                "--results",
                "nodir/r.csv",
            ],
            "--results nodir/r.csv: the folder 'nodir' does not exist",
        ),
        (
            ["bootstrap", "--network", "asia", "--strengths", "nodir/s.csv"],
            "--strengths nodir/s.csv: the folder 'nodir' does not exist",
        ),
        (
            ["fit-parameters", "g.json", "d.csv", "--out", "nodir/x.bif"],
            "--out nodir/x.bif: the folder 'nodir' does not exist",
        ),
        (
            ["learn", "--network", "asia", "--learner", "hc", "--alpha", "2"],
            "--alpha applies to pc, fci, rfci, gfci, boss-fci, grasp-fci, fcit, mmhc and mcmc",
        ),
        (
            ["learn", "--network", "asia", "--learner", "hc", "--iss", "-1"],
            "--iss applies to the bdeu score; EBIC(gamma='auto') has no iss",
        ),
    ],
)
def test_options_that_would_fail_late_or_be_ignored_are_refused_first(
    argv, message, capsys, monkeypatch
):
    # these failed only after the whole run, or were ignored without a word; all but --iss
    # (whose score follows the data's kind) are refused before the data is read
    from skbn.cli import bootstrap, learn, tune

    def no_work(*args, **kwargs):
        raise AssertionError("the data was read before the options were checked")

    if "--iss" not in argv:
        for module in (bootstrap, learn, tune):
            monkeypatch.setattr(module, "load_source", no_work)
    assert main(argv) == 2
    assert message in capsys.readouterr().err


def test_a_semicolon_separated_file_is_refused_with_the_fix(tmp_path, capsys):
    path = tmp_path / "semi.csv"
    path.write_text("a;b\n0;1\n1;0\n0;0\n")
    assert main(["learn", str(path)]) == 2
    err = capsys.readouterr().err
    assert "separated by semicolons" in err and "sep=';'" in err


def _measured_csv(tmp_path):
    import numpy as np

    rng = np.random.default_rng(0)
    age = rng.integers(20, 80, 300)
    kind = np.where(np.arange(300) % 2 == 0, "a", "b")
    y = np.where(rng.random(300) < 0.8, (age > 50).astype(int), rng.integers(0, 2, 300))
    path = tmp_path / "t.csv"
    lines = ["age,kind,y", *(f"{a},{k},{v}" for a, k, v in zip(age, kind, y))]
    path.write_text("\n".join(lines) + "\n")
    return path


def test_column_kinds_can_be_declared_on_the_command_line(tmp_path, capsys):
    # one integer measurement beside a text column: --bins alone finds nothing to cut, and
    # --kind gaussian cannot read the text; --continuous says which column is a number
    path = _measured_csv(tmp_path)
    assert main(["learn", str(path), "--bins", "4", "--quiet"]) == 2
    assert "name measurements with --continuous" in capsys.readouterr().err
    assert main(["learn", str(path), "--kind", "gaussian", "--quiet"]) == 2
    assert "['kind'] hold text" in capsys.readouterr().err
    out = tmp_path / "m.bif"
    argv = ["learn", str(path), "--continuous", "age", "--bins", "4", "--quiet", "--out", str(out)]
    assert main(argv) == 0
    text = out.read_text()
    assert "variable age" in text and "b4" in text  # age cut into 4 bins
    assert "1 column(s) declared continuous" in capsys.readouterr().out
    assert main(["learn", str(path), "--continuous", "kind", "--quiet"]) == 2
    assert "'kind' holds values that are not numbers (e.g. 'a')" in capsys.readouterr().err
    assert main(["learn", str(path), "--continuous", "age", "--discrete", "age"]) == 2
    assert "both name ['age']" in capsys.readouterr().err
    assert main(["learn", str(path), "--discrete", "nope"]) == 2
    assert "name ['nope'], which are not columns" in capsys.readouterr().err
    # a network file of mixed data is refused with the option that makes it possible
    assert main(["learn", str(path), "--continuous", "age", "--out", str(out)]) == 2
    assert "add --bins N" in capsys.readouterr().err


def test_report_counts_the_nodes_it_does_not_show(tmp_path, capsys):
    import json

    import networkx as nx

    learned = tmp_path / "l.json"
    truth = tmp_path / "t.json"
    learned.write_text(
        json.dumps(nx.node_link_data(nx.DiGraph([(f"a{k}", "z") for k in range(8)]), edges="edges"))
    )
    truth.write_text(json.dumps(nx.node_link_data(nx.DiGraph([("z", "q")]), edges="edges")))
    assert main(["report", str(learned), str(truth)]) == 2
    err = capsys.readouterr().err
    assert "only in LEARNED: 8 node(s)" in err and "and 3 more" in err
    assert "only in TRUTH: 1 node(s), ['q']" in err
