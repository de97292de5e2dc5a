# SPDX-License-Identifier: BSD-3-Clause
"""MAGs and PAGs: the truth of a DAG with latents, against Tetrad and against m-separation."""

import networkx as nx
import numpy as np
import pytest

from skbn.graph import (
    ARROW,
    CIRCLE,
    TAIL,
    dag_to_mag,
    dag_to_pag,
    endpoint_matrix,
    from_endpoint_matrix,
    is_ancestral,
    is_m_separated,
    mag_to_pag,
    marked_edges,
    pag_to_mag,
    skeleton,
    to_dag,
)
from skbn.graph._ancestral import _m_connected
from skbn.graph._pag import parse_marked_edges
from skbn.metrics import (
    adjacency_precision_recall_f1,
    arrowhead_precision_recall_f1,
    mark_precision_recall_f1,
    shd,
    structure_report,
)
from tests.data import load_oracle, oracle_dag

ORACLE = load_oracle("tetrad_pag_oracle")


def _observed(case) -> list:
    return [n for n in case["nodes"] if n not in case["latents"]]


def _same_m_separations(A, B, rng, n_queries=400) -> bool:
    """Random m-separation queries (pairs, conditioning sets of every density) agree."""
    q = A.shape[0]
    for _ in range(n_queries):
        a, b = rng.choice(q, size=2, replace=False)
        z = set(np.flatnonzero(rng.random(q) < rng.random()).tolist()) - {a, b}
        if _m_connected(A, {a}, {b}, z) != _m_connected(B, {a}, {b}, z):
            return False
    return True


def test_dag_to_mag_equals_tetrad_on_every_case():
    for case in ORACLE:
        obs = _observed(case)
        M, _ = endpoint_matrix(dag_to_mag(oracle_dag(case), case["latents"]), obs)
        np.testing.assert_array_equal(
            M, parse_marked_edges(case["mag"], obs), err_msg=f"case {case['seed']}"
        )


def test_dag_to_pag_shares_tetrads_skeleton_and_arrowheads():
    for case in ORACLE:
        obs = _observed(case)
        P, _ = endpoint_matrix(dag_to_pag(oracle_dag(case), case["latents"]), obs)
        T = parse_marked_edges(case["pag"], obs)
        np.testing.assert_array_equal(P != 0, T != 0, err_msg=f"case {case['seed']}")
        np.testing.assert_array_equal(P == ARROW, T == ARROW, err_msg=f"case {case['seed']}")


def test_dag_to_pag_keeps_the_true_mags_marks_where_it_has_no_circle():
    # soundness against the truth itself: the true MAG is in the class, so every arrowhead
    # and tail the PAG claims must be the true MAG's mark at that end
    for case in ORACLE:
        dag = oracle_dag(case)
        obs = _observed(case)
        P, _ = endpoint_matrix(dag_to_pag(dag, case["latents"]), obs)
        M, _ = endpoint_matrix(dag_to_mag(dag, case["latents"]), obs)
        decided = (P != 0) & (P != CIRCLE)
        np.testing.assert_array_equal(P[decided], M[decided], err_msg=f"case {case['seed']}")


def _invariant_marks(mag: np.ndarray) -> np.ndarray:
    """The PAG by brute force: the marks shared by every MAG Markov equivalent to ``mag``.

    Every orientation of the skeleton (each edge ``->``, ``<-`` or ``<->``) is tried; those
    that are ancestral, have the same unshielded colliders and the same m-separations (every
    pair, every conditioning set) form the class.
    """
    import itertools

    q = mag.shape[0]
    pairs = [(i, j) for i in range(q) for j in range(i + 1, q) if mag[i, j]]
    queries = [
        (a, b, set(z))
        for a, b in itertools.combinations(range(q), 2)
        for r in range(q - 1)
        for z in itertools.combinations([k for k in range(q) if k not in (a, b)], r)
    ]
    truth = [_m_connected(mag, {a}, {b}, z) for a, b, z in queries]
    shared = None
    orientations = ((ARROW, TAIL), (TAIL, ARROW), (ARROW, ARROW))  # ->, <-, <->
    for choice in itertools.product(orientations, repeat=len(pairs)):
        M = np.zeros_like(mag)
        for (i, j), (at_j, at_i) in zip(pairs, choice):
            M[i, j], M[j, i] = at_j, at_i
        if not is_ancestral(M):
            continue
        if any(_m_connected(M, {a}, {b}, z) != t for (a, b, z), t in zip(queries, truth)):
            continue
        shared = M.copy() if shared is None else np.where(shared == M, M, CIRCLE)
    return np.where(mag != 0, shared, 0)


@pytest.mark.slow
def test_dag_to_pag_equals_the_brute_force_pag_on_small_dags():
    # the PAG by definition: a mark is kept when every MAG of the class has it
    from skbn.datasets import make_erdos_renyi_dag

    rng = np.random.default_rng(5)
    checked = 0
    for seed in range(400):
        dag = make_erdos_renyi_dag(7, int(rng.integers(6, 11)), random_state=seed)
        latents = [n for n in dag if dag.out_degree(n) >= 2][:1]
        M, _ = endpoint_matrix(dag_to_mag(dag, latents))
        if not latents or np.count_nonzero(np.triu(M)) > 8:
            continue
        P, _ = endpoint_matrix(dag_to_pag(dag, latents))
        np.testing.assert_array_equal(P, _invariant_marks(M), err_msg=f"seed {seed}")
        checked += 1
        if checked == 25:
            break
    assert checked == 25


def test_where_tetrads_pag_contradicts_the_true_mag_skbn_has_a_circle():
    # Tetrad 7.6.8's dagToPag differs from skbn on a few marks (same skeleton and
    # arrowheads, tested above): it claims tails where skbn keeps circles on 27 of the 220
    # cases. On some of them the true MAG itself, a member of the class, has an arrowhead
    # there, so Tetrad's tail is wrong; skbn's mark is a circle at each of those ends.
    wrong = 0
    for case in ORACLE:
        obs = _observed(case)
        dag = oracle_dag(case)
        P, _ = endpoint_matrix(dag_to_pag(dag, case["latents"]), obs)
        T = parse_marked_edges(case["pag"], obs)
        truth, _ = endpoint_matrix(dag_to_mag(dag, case["latents"]), obs)
        contradicted = (T != 0) & (T != CIRCLE) & (T != truth)
        assert np.all(P[contradicted] == CIRCLE), f"case {case['seed']}"
        wrong += int(contradicted.sum())
    assert wrong > 0


def test_a_tail_tetrad_leaves_as_a_circle_in_oracle_case_37():
    # In case 37's PAG x1 --> x4 <-- x3 with x1, x3 not adjacent, and x2 o-o x1, x2 o-o x3,
    # x2 *-> x4. With an arrowhead at x2 on x2 - x4, x2 is no ancestor of x4, so neither
    # x2 -> x1 nor x2 -> x3 (both are ancestors of x4): x1 *-> x2 <-* x3 would be an
    # unshielded collider the class does not have. So the tail is forced (Zhang's R10), and
    # Tetrad 7.6.8's dagToPag leaves a circle there.
    (case,) = [c for c in ORACLE if c["seed"] == 37]
    obs = _observed(case)
    P, _ = endpoint_matrix(dag_to_pag(oracle_dag(case), case["latents"]), obs)
    T = parse_marked_edges(case["pag"], obs)
    x1, x2, x3, x4 = (obs.index(n) for n in ("x1", "x2", "x3", "x4"))
    # P[a, b] is the mark at b on the edge a - b
    assert P[x1, x4] == P[x3, x4] == ARROW and P[x4, x1] == P[x4, x3] == TAIL
    assert P[x1, x3] == 0
    assert P[x1, x2] == P[x2, x1] == P[x3, x2] == P[x2, x3] == CIRCLE and P[x2, x4] == ARROW
    assert P[x4, x2] == TAIL and T[x4, x2] == CIRCLE


def test_m_separation_is_d_separation_on_dags():
    d_separated = getattr(nx, "is_d_separator", None)
    if d_separated is None:
        pytest.skip("networkx < 3.3 has no is_d_separator")
    rng = np.random.default_rng(3)
    from skbn.datasets import make_erdos_renyi_dag

    for seed in range(20):
        dag = make_erdos_renyi_dag(12, 18, random_state=seed)
        nodes = list(dag)
        for _ in range(30):
            a, b = rng.choice(nodes, size=2, replace=False)
            z = {n for n in nodes if n not in (a, b) and rng.random() < 0.3}
            assert is_m_separated(dag, a, b, z) == d_separated(dag, {a}, {b}, z)


def test_a_hidden_common_cause():
    dag = nx.DiGraph([("a", "b"), ("L", "b"), ("L", "c"), ("d", "c")])
    mag = dag_to_mag(dag, "L")
    assert marked_edges(mag) == ["a --> b", "b <-> c", "d --> c"]
    assert is_ancestral(mag)
    assert marked_edges(dag_to_pag(dag, ["L"])) == ["a o-> b", "b <-> c", "d o-> c"]
    assert mag.graph["kind"] == "mag" and dag_to_pag(dag, "L").graph["kind"] == "pag"
    # both arcs of each edge, the mark at each head
    pag = dag_to_pag(dag, "L")
    assert pag.edges["b", "c"]["mark"] == "arrow" and pag.edges["a", "b"]["mark"] == "arrow"
    assert pag.edges["b", "a"]["mark"] == "circle"
    # a and c are m-separated marginally, not given b
    assert is_m_separated(mag, "a", "c") and not is_m_separated(mag, "a", "c", ["b"])


def test_without_latents_the_pag_has_the_cpdags_skeleton_and_colliders():
    dag = nx.DiGraph([("a", "c"), ("b", "c"), ("c", "d")])
    assert marked_edges(dag_to_pag(dag)) == ["a o-> c", "b o-> c", "c --> d"]


def test_pag_to_mag_and_back():
    for case in ORACLE[:40]:
        pag = dag_to_pag(oracle_dag(case), case["latents"])
        mag = pag_to_mag(pag)
        assert is_ancestral(mag)
        assert marked_edges(mag_to_pag(mag)) == marked_edges(pag)


def test_pag_to_mag_refuses_a_graph_of_no_mag():
    # a o-> b o-> c o-> a: every MAG of it would hold a directed cycle
    bad = from_endpoint_matrix([[0, 2, 1], [1, 0, 2], [2, 1, 0]], ["a", "b", "c"])
    with pytest.raises(ValueError, match="not the PAG of any MAG"):
        pag_to_mag(bad)


def test_endpoint_matrix_round_trip_and_checks():
    M = np.array([[0, 2, 0], [1, 0, 3], [0, 2, 0]], dtype=np.int8)
    g = from_endpoint_matrix(M, ["a", "b", "c"])
    back, nodes = endpoint_matrix(g)
    np.testing.assert_array_equal(back, M)
    assert nodes == ["a", "b", "c"]
    np.testing.assert_array_equal(parse_marked_edges(marked_edges(g), nodes), M)
    with pytest.raises(ValueError, match="both be non-zero"):
        from_endpoint_matrix([[0, 2], [0, 0]])
    with pytest.raises(ValueError, match="M\\[0, 1\\] is 5"):
        from_endpoint_matrix([[0, 5], [2, 0]])
    with pytest.raises(ValueError, match="no circle marks"):
        from_endpoint_matrix([[0, 2], [1, 0]], kind="mag")
    lone = nx.DiGraph(kind="pag")
    lone.add_edge("a", "b", mark="arrow")
    with pytest.raises(ValueError, match="has no b -> a"):
        endpoint_matrix(lone)
    lone.add_edge("b", "a", mark="o")
    with pytest.raises(ValueError, match="mark 'o'"):
        endpoint_matrix(lone)
    with pytest.raises(ValueError, match="dag_to_pag"):
        endpoint_matrix(nx.DiGraph([("a", "b")]))


def test_dag_only_functions_refuse_a_pag_by_name():
    pag = dag_to_pag(nx.DiGraph([("a", "b"), ("L", "b"), ("L", "c")]), "L")
    for function in (to_dag, skeleton):
        with pytest.raises(ValueError, match="pag_to_mag"):
            function(pag)
    with pytest.raises(ValueError, match="PAG's circles"):
        is_m_separated(pag, "a", "c")
    with pytest.raises(ValueError, match="needs a DAG"):
        dag_to_pag(pag)
    with pytest.raises(ValueError, match="latents names 'M'"):
        dag_to_pag(nx.DiGraph([("a", "b")]), "M")
    with pytest.raises(ValueError, match="disjoint"):
        is_m_separated(nx.DiGraph([("a", "b")]), "a", "a")


def test_repr_counts_edges_by_type():
    pag = dag_to_pag(nx.DiGraph([("a", "b"), ("L", "b"), ("L", "c"), ("d", "c")]), "L")
    assert repr(pag) == "<LearnedGraph pag: 4 nodes, 3 edges (1 <->, 2 o->)>"


# --- metrics -------------------------------------------------------------------------


def test_pag_metrics_equal_tetrads_statistics():
    names = {
        "Adjacency": lambda t, e: adjacency_precision_recall_f1(t, e),
        "Arrowhead": lambda t, e: mark_precision_recall_f1(t, e, "arrow"),
        "Tail": lambda t, e: mark_precision_recall_f1(t, e, "tail"),
    }
    compared = 0
    for case in ORACLE:
        if "statistics" not in case:
            continue
        obs = _observed(case)
        truth = from_endpoint_matrix(parse_marked_edges(case["pag"], obs), obs)
        est = from_endpoint_matrix(parse_marked_edges(case["estimate_pag"], obs), obs)
        for name, metric in names.items():
            prf = metric(truth, est)
            for part in ("Precision", "Recall"):
                expected = case["statistics"][name + part]
                if np.isnan(expected):  # Tetrad's 0/0
                    continue
                assert getattr(prf, part.lower()) == pytest.approx(expected), (
                    f"case {case['seed']} {name}{part}"
                )
                compared += 1
    assert compared > 600


def test_pag_metrics_by_hand():
    nodes = ["a", "b", "c", "d"]
    truth = from_endpoint_matrix(
        parse_marked_edges(["a o-> b", "b <-> c", "d o-> c"], nodes), nodes
    )
    learned = from_endpoint_matrix(
        parse_marked_edges(["a --> b", "c o-> b", "c o-o d", "a o-o d"], nodes), nodes
    )
    # arrows: truth b(a), b(c), c(b), c(d); learned b(a), b(c): 2 shared
    assert arrowhead_precision_recall_f1(truth, learned)[:2] == (1.0, 0.5)
    # tails: truth none, learned one (at a); with no true tail, recall is 0 unless none learned
    assert mark_precision_recall_f1(truth, learned, "tail")[:2] == (0.0, 0.0)
    # circles: truth a(b), d(c); learned c(b), c(d), d(c), a(d), d(a): only d(c) shared
    assert mark_precision_recall_f1(truth, learned, "circle")[:2] == (0.2, 0.5)
    # pairs: a-b mark differs, b-c differs, c-d differs, a-d extra -> 4
    assert shd(truth, learned) == 4
    assert adjacency_precision_recall_f1(truth, learned)[:2] == (0.75, 1.0)
    report = structure_report(truth, learned)
    assert report["shd"] == 4 and report["recall_circle"] == 0.5
    assert report["precision"] == 0.0  # no edge has both marks right


def test_pag_metrics_refuse_a_dag_beside_a_pag():
    pag = dag_to_pag(nx.DiGraph([("a", "b"), ("L", "b"), ("L", "c")]), "L")
    dag = nx.DiGraph([("a", "b"), ("c", "b")])
    with pytest.raises(ValueError, match="dag_to_pag"):
        shd(pag, dag)
    with pytest.raises(ValueError, match="compare two PAGs"):
        structure_report(dag, pag)
    # skeletons compare across kinds
    assert adjacency_precision_recall_f1(pag, dag).f1 == 1.0


# --- files and pictures ----------------------------------------------------------------


@pytest.mark.parametrize("suffix", ["json", "graphml"])
def test_pag_files_keep_every_mark(tmp_path, suffix):
    from skbn.graph import read_graph, write_graph

    case = ORACLE[5]
    pag = dag_to_pag(oracle_dag(case), case["latents"])
    write_graph(pag, tmp_path / f"g.{suffix}")
    back = read_graph(tmp_path / f"g.{suffix}")
    assert back.graph["kind"] == "pag"
    np.testing.assert_array_equal(endpoint_matrix(back)[0], endpoint_matrix(pag)[0])


def test_pag_dot_draws_each_edge_once_with_its_marks():
    from skbn.graph import to_dot

    pag = dag_to_pag(nx.DiGraph([("a", "b"), ("L", "b"), ("L", "c")]), "L")
    lines = [line for line in to_dot(pag).splitlines() if "->" in line]
    assert lines == [
        '  "a" -> "b" [dir=both, arrowhead=normal, arrowtail=odot];',
        '  "b" -> "c" [dir=both, arrowhead=odot, arrowtail=normal];',  # b <-o c
    ]


def test_plot_graph_draws_a_pags_marks():
    import matplotlib

    matplotlib.use("Agg")
    from matplotlib.patches import FancyArrowPatch

    from skbn.plotting import plot_graph

    dag = nx.DiGraph([("a", "b"), ("L", "b"), ("L", "c"), ("d", "c"), ("b", "e"), ("c", "e")])
    pag = dag_to_pag(dag, "L")
    ax = plot_graph(pag)
    arrows = [p for p in ax.patches if isinstance(p, FancyArrowPatch)]
    M, nodes = endpoint_matrix(pag)
    assert len(arrows) == int(np.count_nonzero(np.triu(M)))  # each edge drawn once
    for arrow in arrows:
        u, v = arrow.edge
        assert arrow.marks == (M[nodes.index(v), nodes.index(u)], M[nodes.index(u), nodes.index(v)])
    circles = [line for line in ax.lines if line.get_marker() == "o"]
    assert len(circles) == int((M == CIRCLE).sum())
    with pytest.raises(ValueError, match="structure_report"):
        plot_graph(pag, truth=pag)


def test_tetrads_tail_in_oracle_case_33_has_an_equivalent_mag_with_an_arrowhead():
    # Tetrad 7.6.8 says x3 --> x5; skbn says x3 o-> x5. The MAG below has x3 <-> x5 and is
    # ancestral and Markov equivalent to the true MAG (checked once on every pair and every
    # conditioning set, 4,456,448 queries, none differing; here on random ones), so the tail
    # is not shared by the class
    (case,) = [c for c in ORACLE if c["seed"] == 33]
    obs = _observed(case)
    index = {n: i for i, n in enumerate(obs)}
    truth = parse_marked_edges(case["mag"], obs)
    witness = truth.copy()
    for u, at_u, at_v, v in [
        ("x3", ARROW, ARROW, "x5"),
        ("x3", TAIL, ARROW, "x14"),
        ("x14", ARROW, ARROW, "x5"),
        ("x11", TAIL, ARROW, "x3"),
        ("x16", TAIL, ARROW, "x3"),
    ]:
        witness[index[v], index[u]], witness[index[u], index[v]] = at_u, at_v
    assert is_ancestral(witness)
    assert _same_m_separations(witness, truth, np.random.default_rng(2), 3000)
    assert "x3 --> x5" in case["pag"]
    assert "x3 o-> x5" in marked_edges(dag_to_pag(oracle_dag(case), case["latents"]), obs)


def test_is_legal_pag_holds_for_every_true_pag_and_fails_for_broken_ones():
    from skbn.graph import is_legal_pag
    from skbn.graph._ancestral import _is_maximal

    broken = 0
    for case in ORACLE[:80]:
        dag = oracle_dag(case)
        pag = dag_to_pag(dag, case["latents"])
        assert is_legal_pag(pag), f"case {case['seed']}"
        assert _is_maximal(endpoint_matrix(dag_to_mag(dag, case["latents"]))[0])
        M, nodes = endpoint_matrix(pag)
        # an arrowhead the class forces, turned into a circle, leaves a graph that is no PAG
        forced = np.argwhere((M == ARROW) & (M.T != ARROW))
        if len(forced):
            i, j = forced[0]
            wrong = M.copy()
            wrong[i, j] = CIRCLE
            assert not is_legal_pag(wrong)
            broken += 1
    assert broken >= 40
    # ancestral but not maximal: a <-> b <-> c <-> d with b -> d and c -> a is an inducing
    # path between the non-adjacent a and d
    nodes = ["a", "b", "c", "d"]
    mag = parse_marked_edges(["c --> a", "a <-> b", "b <-> c", "b --> d", "c <-> d"], nodes)
    assert is_ancestral(mag) and not _is_maximal(mag)
