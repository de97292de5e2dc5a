# SPDX-License-Identifier: BSD-3-Clause
"""GrowShrink and IAMB against bnlearn's gs, iamb and inter.iamb (answers of bnlearn 4.9).

``tests/data/make_bnlearn_blanket_oracle.py`` ran bnlearn on samples that skbn's sampler
regenerates here (every value as a string, as bnlearn read them); the tests need no R. The
blanket phase follows bnlearn step for step, so with bnlearn's ``mi`` test every variable's
blanket must be bnlearn's ``learn.mb`` (HITON-PC's parents and children its ``learn.nbr``),
and the learner's graph bnlearn's ``gs``, ``iamb``, ``inter.iamb``, ``fast.iamb``,
``iamb.fdr`` or ``si.hiton.pc`` graph, arc for arc.
"""

import numpy as np
import pandas as pd
import pytest

from skbn.datasets import load_network
from skbn.feature_selection import MarkovBlanketSelector
from skbn.graph import markov_blanket
from skbn.learners import HITONMB, HITONPC, IAMB, GrowShrink
from tests.data import load_oracle

ORACLE = load_oracle("bnlearn_blanket_oracle")
LEARNERS = {
    "gs": lambda: GrowShrink("mi", alpha=0.05),
    "iamb": lambda: IAMB("mi", alpha=0.05),
    "inter.iamb": lambda: IAMB("mi", alpha=0.05, variant="inter"),
    "fast.iamb": lambda: IAMB("mi", alpha=0.05, variant="fast"),
    "iamb.fdr": lambda: IAMB("mi", alpha=0.05, variant="fdr"),
    "si.hiton.pc": lambda: HITONPC("mi", alpha=0.05),
}


def _data(case):
    return load_network(case["network"]).sample(case["n"], random_state=case["seed"]).astype(str)


@pytest.fixture(scope="module", params=ORACLE, ids=lambda c: c["network"])
def case(request):
    return request.param, _data(request.param)


@pytest.mark.parametrize("method", list(LEARNERS))
def test_every_blanket_is_bnlearns(case, method):
    spec, X = case
    learner = LEARNERS[method]()
    from skbn.data import check_data

    data = check_data(X)
    # a blanket learner's blanket (learn.mb); HITON-PC's parents and children (learn.nbr)
    learn = getattr(learner, "blanket_of", None) or learner._parents_and_children_of
    for target, expected in spec[method]["blankets"].items():
        found = learn(data, list(X.columns).index(target))
        assert sorted(X.columns[found]) == expected, (method, target)


@pytest.mark.parametrize("method", list(LEARNERS))
def test_the_graph_is_bnlearns(case, method):
    # skeleton, colliders (bnlearn's rule and order) and the propagated orientations; an
    # undirected edge is an arc both ways in both libraries
    spec, X = case
    learned = LEARNERS[method]().fit(X).graph_
    assert set(learned.edges) == set(map(tuple, spec[method]["arcs"]))
    assert learned.graph["kind"] == "cpdag"


def test_blankets_are_symmetric_and_hold_the_neighbours(case):
    _, X = case
    learner = IAMB("mi").fit(X)
    for node, blanket in learner.markov_blankets_.items():
        assert all(node in learner.markov_blankets_[other] for other in blanket)
        assert set(learner.graph_.predecessors(node)) | set(learner.graph_.successors(node)) <= (
            set(blanket)
        )


def test_selector_with_a_blanket_learner_reads_the_target_blanket_only():
    from skbn.data import check_data

    network = load_network("alarm")
    X = network.sample(5000, random_state=0).astype(str)
    target = "HR"
    selector = MarkovBlanketSelector(IAMB("mi")).fit(X.drop(columns=target), X[target])
    assert selector.graph_ is None  # the blanket alone, no whole structure
    # the same blanket as IAMB's own for HR, with the target as the last column
    frame = X.drop(columns=target).assign(class_=X[target])
    found = IAMB("mi").blanket_of(check_data(frame), frame.shape[1] - 1)
    assert list(selector.markov_blanket_) == list(frame.columns[found])


def _collider_frame(n=4000, seed=0):
    """a and b independent causes of c (noisy OR), d a child of c; a's blanket is {b, c}."""
    import numpy as np
    import pandas as pd

    rng = np.random.default_rng(seed)
    a = rng.random(n) < 0.5
    b = rng.random(n) < 0.5
    c = np.where(rng.random(n) < 0.9, a | b, ~(a | b))
    d = np.where(rng.random(n) < 0.85, c, ~c)
    return pd.DataFrame({"a": a, "b": b, "c": c, "d": d}).astype(int).astype(str)


def test_hiton_mb_adds_the_spouse_that_hiton_pc_leaves_out():
    from skbn.data import check_data

    X = _collider_frame()
    data = check_data(X)
    # b is independent of a on its own, so HITON-PC keeps it out of a's set; given c they
    # are dependent (a -> c <- b), so HITON-MB adds it back as a spouse
    assert HITONPC("mi")._parents_and_children_of(data, 0) == [2]
    assert HITONMB("mi").blanket_of(data, 0) == [1, 2]
    assert HITONMB("mi").blanket_of(data, 3) == [2]  # d's blanket is its parent alone
    learner = HITONMB("mi").fit(X)
    assert learner.markov_blanket("a") == ["b", "c"]
    assert learner.markov_blanket("c") == ["a", "b", "d"]


def test_hiton_mb_graph_is_hiton_pcs_and_blankets_match_the_one_target_route(case):
    from skbn.data import check_data

    spec, X = case
    learner = HITONMB("mi").fit(X)
    assert set(learner.graph_.edges) == set(map(tuple, spec["si.hiton.pc"]["arcs"]))
    data = check_data(X)
    for j, node in enumerate(X.columns):
        blanket = learner.markov_blanket(node)
        # the selector's route (HITON-PC for the target and its members only) agrees
        assert list(X.columns[learner.blanket_of(data, j)]) == blanket
        # parents and children (before the symmetry check) are in the blanket
        assert set(learner.parents_and_children_[node]) <= set(blanket)


def test_hiton_mb_finds_alarms_blankets():
    # against the true blankets of ALARM at n = 10,000 (mean F1 measured 0.877; IAMB 0.884)
    import numpy as np

    network = load_network("alarm")
    X = network.sample(10000, random_state=0)
    learner = HITONMB().fit(X)
    scores = []
    for node in X.columns:
        found = set(learner.markov_blanket(node))
        true = set(markov_blanket(network.graph, node))
        scores.append(2 * len(found & true) / (len(found) + len(true)) if found | true else 1.0)
    assert np.mean(scores) >= 0.85


def test_a_large_set_searched_without_bound_warns(monkeypatch):
    # one latent factor behind every column: blankets hold everything, and each pair's
    # separation tries every subset (IAMB 46.7 s at 18 columns, over 120 s at 25, no word);
    # here 8 columns and a lowered threshold
    import warnings

    from skbn.learners import _blanket

    rng = np.random.default_rng(0)
    factor = rng.normal(size=(2000, 1))
    X = pd.DataFrame(factor + 0.7 * rng.normal(size=(2000, 8)), columns=list("abcdefgh"))
    monkeypatch.setattr(_blanket, "LARGE_SUBSET_POOL", 4)
    for learner in (IAMB(), GrowShrink(), HITONMB()):
        with pytest.warns(UserWarning, match="every subset of 4 or more variables.*max_sx"):
            learner.fit(X)
        with warnings.catch_warnings():
            warnings.simplefilter("error")
            learner.set_params(max_sx=2).fit(X)
