# SPDX-License-Identifier: BSD-3-Clause
"""``skbn query`` and ``skbn effect``: the numbers they print are the library's."""

import networkx as nx
import numpy as np
import pandas as pd
import pytest

from skbn.causal import adjusted_effect, ida
from skbn.cli import main
from skbn.datasets import load_network
from skbn.graph import write_graph
from skbn.inference import evidence_probability, map_query, mpe, query
from skbn.network import LinearGaussianNetwork


def _numbers(text: str) -> list[float]:
    out = []
    for token in text.replace(",", " ").replace("(", " ").replace(")", " ").split():
        try:
            out.append(float(token))
        except ValueError:
            pass
    return out


def test_query_prints_the_posterior_and_the_evidence_probability(capsys):
    network = load_network("asia")
    assert main(["query", "asia", "--target", "dysp", "--evidence", "smoke=yes,xray=yes"]) == 0
    out = capsys.readouterr().out
    posterior = query(network, "dysp", {"smoke": "yes", "xray": "yes"})
    p_e = evidence_probability(network, {"smoke": "yes", "xray": "yes"})
    numbers = _numbers(out)
    assert numbers[0] == pytest.approx(p_e, rel=1e-5)
    assert numbers[1:] == pytest.approx(posterior.to_list(), rel=1e-5)


def test_query_mpe_and_a_file_of_cases(tmp_path, capsys):
    network = load_network("asia")
    assert main(["query", "asia", "--mpe", "--evidence", "dysp=yes"]) == 0
    out = capsys.readouterr().out
    explanation, _ = mpe(network, {"dysp": "yes"})
    for node, state in explanation.items():
        assert f"  {node} = {state}\n" in out
    cases = tmp_path / "cases.csv"
    cases.write_text("smoke,xray\nyes,yes\nno,\n,no\n")
    out_file = tmp_path / "post.csv"
    args = ["query", "asia", "--target", "lung", "--target", "bronc"]
    assert main([*args, "--evidence-file", str(cases), "--out", str(out_file)]) == 0
    written = pd.read_csv(out_file)
    assert list(written.columns) == ["lung=yes", "lung=no", "bronc=yes", "bronc=no"]
    evidence = pd.DataFrame({"smoke": ["yes", "no", None], "xray": ["yes", None, "no"]})
    expected = query(network, "lung", evidence)
    assert np.allclose(written[["lung=yes", "lung=no"]].to_numpy(), expected.to_numpy())


@pytest.mark.parametrize(
    "argv, message",
    [
        (["--target", "dysp", "--evidence", "smoke=maybe"], "smoke takes yes, no"),
        (["--target", "dysp", "--evidence", "smoke"], "write NODE=STATE"),
        (["--target", "nope"], "'nope' is not a node"),
        ([], "give --target NODE"),
        (["--target", "dysp", "--out", "x.csv"], "--out writes one posterior row per case"),
    ],
)
def test_query_refuses_bad_options_by_name(argv, message, capsys):
    assert main(["query", "asia", *argv]) == 2
    assert message in capsys.readouterr().err


@pytest.fixture()
def linear(tmp_path):
    W = np.zeros((4, 4))
    W[0, 1], W[0, 2], W[1, 2], W[3, 2] = 0.8, 0.5, 1.5, 1.0  # a -> x, a -> y, x -> y, b -> y
    data = LinearGaussianNetwork(W, [1, 1, 1, 1], ["a", "x", "y", "b"]).sample(3000, random_state=0)
    path = tmp_path / "lin.csv"
    data.to_csv(path, index=False)
    dag = nx.DiGraph([("a", "x"), ("a", "y"), ("x", "y"), ("b", "y")], kind="dag")
    graph = tmp_path / "dag.json"
    write_graph(dag, graph)
    cpdag = nx.DiGraph(list(dag.edges()) + [("x", "a"), ("y", "a"), ("y", "x")], kind="pdag")
    cpdag_path = tmp_path / "cpdag.json"
    write_graph(cpdag, cpdag_path)
    return pd.read_csv(path), path, dag, graph, cpdag_path


def test_effect_prints_the_adjusted_estimate_and_interval(linear, capsys):
    data, path, dag, graph, _ = linear
    argv = ["effect", str(path), str(graph), "--treatment", "x", "--outcome", "y"]
    assert main([*argv, "--bootstrap", "100", "--seed", "3"]) == 0
    out = capsys.readouterr().out
    fit = adjusted_effect(data, dag, "x", "y", n_bootstrap=100, random_state=3)
    assert "adjust for  a, b  (optimal set)" in out
    assert _numbers(out.splitlines()[1])[:3] == pytest.approx(
        [fit.estimate, fit.low, fit.high], rel=1e-3
    )
    assert main([*argv, "--adjust", "minimal"]) == 0
    assert "adjust for  a  (minimal set)" in capsys.readouterr().out
    assert main([*argv, "--adjust", "b"]) == 2
    assert "leaves a non-causal path open. The optimal set is ['a', 'b']" in (
        capsys.readouterr().err
    )


def test_effect_on_a_cpdag_lists_the_ida_effects(linear, capsys):
    from skbn.causal import ida
    from skbn.graph import read_graph

    data, path, _, _, cpdag_path = linear
    argv = ["effect", str(path), str(cpdag_path), "--treatment", "x", "--outcome", "y"]
    assert main(argv) == 0
    out = capsys.readouterr().out
    effects = ida(data, read_graph(cpdag_path), "x", "y")
    listed = _numbers(out.splitlines()[2])
    assert listed == pytest.approx(effects.tolist(), rel=1e-3, abs=1e-4)
    assert main([*argv, "--bootstrap", "10"]) == 2
    assert "not amenable to adjustment" in capsys.readouterr().err


def test_effect_on_an_amenable_cpdag_adjusts_as_on_its_dags(capsys, tmp_path):
    from skbn.graph import dag_to_cpdag

    W = np.zeros((4, 4))
    W[0, 1], W[1, 2], W[3, 2] = 0.8, 1.5, 1.0  # a -> x -> y <- b
    data = LinearGaussianNetwork(W, [1, 1, 1, 1], ["a", "x", "y", "b"]).sample(3000, random_state=0)
    path = tmp_path / "lin.csv"
    data.to_csv(path, index=False)
    dag = nx.DiGraph([("a", "x"), ("x", "y"), ("b", "y")])
    cpdag = dag_to_cpdag(dag)  # a - x, with both arcs into y fixed by the collider
    assert cpdag.has_edge("x", "a") and cpdag.has_edge("a", "x")
    cpdag_path = tmp_path / "cpdag.json"
    write_graph(cpdag, cpdag_path)
    argv = ["effect", str(path), str(cpdag_path), "--treatment", "x", "--outcome", "y"]
    assert main(argv) == 0
    out = capsys.readouterr().out
    fit = adjusted_effect(pd.read_csv(path), cpdag, "x", "y")
    assert fit.adjustment == adjusted_effect(data, dag, "x", "y").adjustment == ["b"]
    assert "a CPDAG in which every possibly causal path" in out
    assert "adjust for  b  (optimal set)" in out
    assert _numbers(out.splitlines()[2])[0] == pytest.approx(fit.estimate, rel=1e-3)
    assert fit.estimate == pytest.approx(1.5, abs=0.05)


def test_effect_on_an_mpdag_adjusts_where_knowledge_makes_it_amenable(capsys, tmp_path):
    from skbn.graph import dag_to_cpdag, meek_orient

    # a -> b -> x -> y <- a: the CPDAG leaves a - b - x undirected; knowing b -> x leaves
    # a - b, and a confounds x and y through b
    names = ["a", "b", "x", "y"]
    W = np.zeros((4, 4))
    W[0, 1], W[1, 2], W[2, 3], W[0, 3] = 0.9, 0.8, 1.5, 1.0
    data = LinearGaussianNetwork(W, [1] * 4, names).sample(4000, random_state=0)
    path = tmp_path / "lin.csv"
    data.to_csv(path, index=False)
    known = dag_to_cpdag(nx.DiGraph([("a", "b"), ("b", "x"), ("x", "y"), ("a", "y")]))
    known.remove_edge("x", "b")
    mpdag = meek_orient(known)
    assert mpdag.has_edge("a", "b") and mpdag.has_edge("b", "a")
    mpdag_path = tmp_path / "mpdag.json"
    write_graph(mpdag, mpdag_path)
    argv = ["effect", str(path), str(mpdag_path), "--treatment", "x", "--outcome", "y"]
    assert main(argv) == 0
    out = capsys.readouterr().out
    assert "an MPDAG (a CPDAG oriented by knowledge) in which every possibly causal" in out
    assert "adjust for  a  (optimal set)" in out
    assert _numbers(out.splitlines()[2])[0] == pytest.approx(1.5, abs=0.05)
    # the effect of b on y starts with the undirected b - a: IDA's effects, one per parent
    # set of b that a DAG of the MPDAG has ({} and {a}), as the Python call gives them
    assert main([*argv[:3], "--treatment", "b", "--outcome", "y"]) == 0
    out = capsys.readouterr().out
    assert "an MPDAG, so the parents of b are open" in out
    effects = ida(pd.read_csv(path), mpdag, "b", "y")
    assert len(effects) == 2
    assert _numbers(out.splitlines()[2]) == pytest.approx(effects.tolist(), rel=1e-3)


def test_effect_on_a_pag_adjusts_for_the_canonical_set(capsys, tmp_path):
    from skbn.graph import dag_to_pag

    # z -> x -> y with a hidden h -> x, h -> w: the PAG keeps x -> y visible (z o-> x)
    names = ["z", "h", "w", "x", "y"]
    W = np.zeros((5, 5))
    W[0, 3], W[1, 3], W[1, 2], W[3, 4], W[0, 4] = 0.9, 0.7, 0.8, 1.5, 0.6
    data = LinearGaussianNetwork(W, [1] * 5, names).sample(4000, random_state=0).drop(columns="h")
    path = tmp_path / "lin.csv"
    data.to_csv(path, index=False)
    dag = nx.DiGraph([("z", "x"), ("h", "x"), ("h", "w"), ("x", "y"), ("z", "y")])
    pag = dag_to_pag(dag, ["h"])
    pag_path = tmp_path / "pag.json"
    write_graph(pag, pag_path)
    argv = ["effect", str(path), str(pag_path), "--treatment", "x", "--outcome", "y"]
    assert main(argv) == 0
    out = capsys.readouterr().out
    fit = adjusted_effect(pd.read_csv(path), pag, "x", "y", "canonical")
    assert "a PAG in which every possibly causal path from x starts with a visible arc" in out
    assert f"adjust for  {', '.join(fit.adjustment)}  (canonical set)" in out
    assert _numbers(out.splitlines()[2])[0] == pytest.approx(fit.estimate, rel=1e-3)
    assert fit.estimate == pytest.approx(1.5, abs=0.05)
    assert main([*argv[:3], "--treatment", "w", "--outcome", "x"]) == 2
    assert "not amenable" in capsys.readouterr().err


def test_query_map_prints_the_subset_state_and_its_posterior(capsys):
    network = load_network("asia")
    evidence = {"xray": "yes"}
    argv = ["query", "asia", "--map", "--target", "lung", "--target", "tub"]
    assert main([*argv, "--evidence", "xray=yes"]) == 0
    out = capsys.readouterr().out
    state, log_p = map_query(network, ["lung", "tub"], evidence)
    posterior = np.exp(log_p - evidence_probability(network, evidence, log=True))
    assert _numbers(out.splitlines()[1])[0] == pytest.approx(posterior, rel=1e-5)
    for node, value in state.items():
        assert f"  {node} = {value}\n" in out
    assert main(["query", "asia", "--mpe", "--target", "lung"]) == 2
    assert "use --map" in capsys.readouterr().err


def test_effect_by_the_frontdoor_formula_with_the_confounder_hidden(capsys, tmp_path):
    from skbn.causal import frontdoor_effect

    # u -> x, u -> y, x -> m -> y with u not in the data: no adjustment set, one front door
    names = ["u", "x", "m", "y"]
    W = np.zeros((4, 4))
    W[0, 1], W[0, 3], W[1, 2], W[2, 3] = 1.0, 1.0, 0.8, 1.5
    data = LinearGaussianNetwork(W, [1] * 4, names).sample(20000, random_state=0)
    path = tmp_path / "lin.csv"
    data.drop(columns="u").to_csv(path, index=False)
    dag = nx.DiGraph([("u", "x"), ("u", "y"), ("x", "m"), ("m", "y")])
    dag_path = tmp_path / "dag.json"
    write_graph(dag, dag_path)
    argv = ["effect", str(path), str(dag_path), "--treatment", "x", "--outcome", "y"]
    assert main([*argv, "--frontdoor", "--bootstrap", "20"]) == 0
    out = capsys.readouterr().out
    fit = frontdoor_effect(pd.read_csv(path), dag, "x", "y")
    assert "a DAG with u hidden (no column)" in out
    assert "mediators   m  (minimal front-door set)" in out
    assert _numbers(out.splitlines()[2])[0] == pytest.approx(fit.estimate, rel=1e-3)
    assert fit.estimate == pytest.approx(1.2, abs=0.05)
    # the same graph without --frontdoor: adjustment needs u, which has no column
    assert main(argv) == 2
    err = capsys.readouterr().err
    assert "holds ['u'], which the data have no column for" in err and "--frontdoor" in err
    assert main([*argv, "--frontdoor", "x"]) == 2
    assert "mediators hold the treatment" in capsys.readouterr().err
