# SPDX-License-Identifier: BSD-3-Clause
"""Background knowledge: one service checks it, and every learner honours or refuses it."""

import numpy as np
import pytest
from sklearn.base import clone

from skbn.constraints import EdgeConstraints, Tiers
from skbn.datasets import load_network, make_problem
from skbn.learners import FGES, MMHC, ExactSearch, HillClimb, OrderMCMC, PCStable, TabuSearch
from skbn.utils.estimator_checks import check_edge_constraints

NAMES = ["a", "b", "c", "d"]


def test_the_four_kinds_merge_into_allowed_and_required():
    c = EdgeConstraints.from_parameters(
        NAMES,
        allowed_edges=[("a", "b"), ("b", "c"), ("c", "d"), ("d", "a"), ("a", "c")],
        forbidden_edges=[("a", "c")],
        required_edges=[("a", "b")],
        tiers=[["a", "b"], ["c"]],
    )
    assert c.arcs(c.allowed) == [("a", "b"), ("b", "c"), ("c", "d"), ("d", "a")]  # d: no tier
    assert c.arcs(c.required) == [("a", "b")]
    assert c.given == {"allowed", "forbidden", "required", "tiers"}
    assert not c.is_empty
    assert EdgeConstraints.from_parameters(NAMES).is_empty


def test_tiers_rule_out_backward_arcs_and_optionally_arcs_within():
    c = EdgeConstraints.from_parameters(NAMES, tiers=Tiers([["a", "b"], ["c"]]))
    assert c.arcs(c.forbidden) == [("c", "a"), ("c", "b")]  # d is in no tier
    c = EdgeConstraints.from_parameters(
        NAMES, tiers=Tiers([["a", "b"], ["c", "d"]], forbid_within=[1])
    )
    assert set(c.arcs(c.forbidden)) == {
        ("c", "a"),
        ("c", "b"),
        ("d", "a"),
        ("d", "b"),
        ("c", "d"),
        ("d", "c"),
    }
    as_dict = EdgeConstraints.from_parameters(NAMES, tiers={"a": 0, "b": 0, "c": 1})
    assert as_dict.arcs(as_dict.forbidden) == [("c", "a"), ("c", "b")]


@pytest.mark.parametrize(
    "kwargs, message",
    [
        (dict(forbidden_edges=[("a", "z")]), "forbidden_edges names variables that are not"),
        (dict(required_edges=[("a", "a")]), "self-loop"),
        (dict(allowed_edges=np.ones((3, 3))), "must have shape \\(4, 4\\)"),
        (dict(required_edges=[("a",)]), "\\(parent, child\\) pairs"),
        (dict(tiers=[["a"], ["a", "b"]]), "'a' is in tier 0 and in tier 1"),
        (dict(tiers=[["a"], ["zz"]]), "tiers name variables that are not columns"),
        (dict(tiers="abc"), "tiers must be a list of lists"),
        (
            dict(required_edges=[("c", "a")], tiers=[["a"], ["c"]]),
            "\\('c', 'a'\\) is ruled out by tiers",
        ),
        (
            dict(required_edges=[("a", "b")], forbidden_edges=[("a", "b")]),
            "\\('a', 'b'\\) is in forbidden_edges",
        ),
        (
            dict(required_edges=[("a", "b")], allowed_edges=[("b", "a")]),
            "\\('a', 'b'\\) is not in allowed_edges",
        ),
        (dict(required_edges=[("a", "b"), ("b", "a")]), "directed cycle"),
    ],
)
def test_bad_knowledge_is_refused_before_work(kwargs, message):
    with pytest.raises(ValueError, match=message):
        EdgeConstraints.from_parameters(NAMES, **kwargs)


def test_tiers_refuse_unknown_tier_indices():
    with pytest.raises(ValueError, match="forbid_within names tiers \\[3\\]"):
        Tiers([["a"]], forbid_within=[3])


@pytest.fixture(scope="module")
def discrete():
    return load_network("asia").sample(2000, random_state=0)


@pytest.fixture(scope="module")
def gaussian():
    return make_problem("asia", n_samples=1000, random_state=1)[0]


LEARNERS = [
    HillClimb(),
    TabuSearch(),
    FGES(),
    PCStable(),
    MMHC(),
    ExactSearch(max_indegree=2),
    OrderMCMC(n_iter=300, random_state=0),
]


@pytest.mark.parametrize("learner", LEARNERS, ids=lambda e: type(e).__name__)
@pytest.mark.parametrize("kind", ["discrete", "gaussian"])
def test_every_learner_honours_or_refuses_each_kind(learner, kind, discrete, gaussian):
    check_edge_constraints(learner, discrete if kind == "discrete" else gaussian)


def test_fges_refuses_required_edges_and_says_what_to_use(discrete):
    with pytest.raises(ValueError, match="FGES cannot honour required_edges.*HillClimb"):
        FGES(required_edges=[("asia", "tub")]).fit(discrete)


def test_tiers_orient_edges_of_an_equivalence_class(gaussian):
    # in the chain class the learner cannot orient smoke - lung; tiers do
    free = FGES().fit(gaussian).graph_
    assert free.has_edge("smoke", "lung") and free.has_edge("lung", "smoke")
    tiered = FGES(tiers=[["smoke"], ["lung"]]).fit(gaussian).graph_
    assert tiered.has_edge("smoke", "lung") and not tiered.has_edge("lung", "smoke")
    assert tiered.graph["kind"] == "pdag"
    pc = PCStable(tiers=[["smoke"], ["lung"]]).fit(gaussian).graph_
    assert not pc.has_edge("lung", "smoke")


def test_exact_search_is_optimal_under_the_knowledge(discrete):
    from itertools import permutations

    from skbn.scores import BIC

    X = discrete[["smoke", "lung", "bronc", "dysp"]]
    forbidden = [("bronc", "dysp")]
    est = ExactSearch(forbidden_edges=forbidden, required_edges=[("dysp", "smoke")]).fit(X)
    assert not est.graph_.has_edge("bronc", "dysp") and est.graph_.has_edge("dysp", "smoke")
    # brute force over every DAG with at most the 4! orders and all parent sets
    names = list(X.columns)
    bound = BIC().bind(X)
    best = -np.inf
    for order in permutations(range(4)):
        total = 0.0
        for k, v in enumerate(order):
            before = order[:k]
            options = []
            for mask in range(1 << len(before)):
                parents = [before[i] for i in range(len(before)) if mask >> i & 1]
                if (names.index("bronc") in parents and names[v] == "dysp") or (
                    names[v] == "smoke" and names.index("dysp") not in parents
                ):
                    continue
                options.append(bound.local_score(v, parents))
            total += max(options) if options else -np.inf
        best = max(best, total)
    assert est.score_ == pytest.approx(best)


@pytest.mark.parametrize("learner", [PCStable(), MMHC()], ids=lambda e: type(e).__name__)
def test_n_jobs_minus_one_means_every_core_and_changes_nothing(learner, discrete):
    one = clone(learner).set_params(n_jobs=1).fit(discrete)
    every = clone(learner).set_params(n_jobs=-1).fit(discrete)
    assert set(one.graph_.edges) == set(every.graph_.edges)
    with pytest.raises(ValueError, match="n_jobs"):
        clone(learner).set_params(n_jobs=0).fit(discrete)


@pytest.mark.parametrize("discrete", [None, False, True])
def test_no_knowledge_forms_no_matrix_over_the_variables(discrete):
    # a million columns: a (p, p) boolean matrix would need 931 GiB, so without knowledge
    # (and without both kinds of columns) nothing of that size may be formed
    p = 1_000_000
    names = [f"x{j}" for j in range(p)]
    kinds = None if discrete is None else np.full(p, discrete)
    constraints = EdgeConstraints.from_parameters(names, discrete=kinds)
    assert constraints.given == frozenset()
    assert len(constraints.names) == p
