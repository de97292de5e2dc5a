# SPDX-License-Identifier: BSD-3-Clause
"""FCIT: BOSS's graph, colliders from the score, targeted tests, a legal PAG at each step."""

from __future__ import annotations

import numpy as np
from scipy import sparse

from skbn.ci_tests import CITest
from skbn.graph._convert import from_adjacency
from skbn.learners._boss import BOSS
from skbn.learners._fcit_stages import run_fcit
from skbn.learners._score_fci import _ORDER_CONSTRAINTS, _ScoreGuidedFCI
from skbn.learners._sepsets import SeparatingSets
from skbn.scores import Score

__all__ = ["FCIT"]


class FCIT(_ScoreGuidedFCI):
    """FCIT: a PAG from BOSS's DAG, its edges removed by targeted tests.

    BOSS (best order score search) finds the score's best DAG, whose PAG (as if nothing
    were hidden) is the start; its unshielded colliders are kept as long as they stay
    unshielded. With latent variables that DAG holds an extra edge for pairs a hidden cause
    joins. Each edge ``x - y`` is then tested given a set found by *recursive blocking*: a
    walk of the paths out of ``x`` that conditions on a node only where leaving it out would
    leave a path to ``y`` open (tried with the middle nodes of open discriminating paths
    through the edge walked through or conditioned on, and with common neighbours left out).
    A separated pair loses its edge and the PAG is rebuilt (the colliders above, a collider
    at each common neighbour of a removed pair outside its separating set, then Zhang's
    complete rules); a removal after which the PAG has no legal MAG is undone. Optionally
    FCI's test of each remaining edge given the subsets of either end's adjacencies follows.
    See :class:`FCI` for what the marks claim.

    Parameters
    ----------
    criterion : str, Score or None, default=None
        The score of BOSS, by family name or object: None is ``"bic"`` for the data's kind.
    ci_test : str, CITest or None, default=None
        The test that removes edges and decides discriminating paths: None is ``"g_sq"`` on
        discrete data and ``"fisher_z"`` on continuous data.
    alpha : float, default=0.05
        Significance level of every test.
    penalty_discount : float, default=1.0
        Multiplier of the score's penalty (Tetrad's "penalty discount").
    n_starts : int, default=1
        Random starting orders of BOSS; the best-scoring result is kept.
    use_bes : bool, default=True
        Finish each BOSS start with the backward equivalence search (Tetrad's FCIT does
        not: ``use_bes=False`` runs its setting).
    check_adjacency_sepsets : bool, default=True
        Run the last stage (every subset of either end's adjacencies). It removes edges
        that only such a set separates, at the cost of tests exponential in the degree.
    max_cond_size : int, default=None
        Largest separating set the removal stages test (Tetrad's "depth"); None for no
        limit.
    max_path_length : int, default=None
        Longest discriminating path of the rules, in edges; None for no limit.
    allowed_edges, forbidden_edges, required_edges : iterable of (u, v), DiGraph or array
        Background knowledge, as for :class:`FCI`: BOSS honours it too.
    tiers : list of lists of str, dict or Tiers, default=None
        Background-knowledge order: a later tier does not cause an earlier one.
    n_jobs : int, default=None
        Threads of BOSS; the result is identical to the serial run.
    random_state : int, RandomState or None, default=None
        Seed of BOSS's starting orders.
    verbose : int, default=0
        Above 0, print what each stage removed; above 1, BOSS's progress too.

    Attributes
    ----------
    graph_ : networkx.DiGraph
        The PAG: ``graph_.graph["kind"] == "pag"``, both arcs of every edge, each with the
        ``mark`` at its head (see :mod:`skbn.graph`).
    cpdag_ : networkx.DiGraph
        BOSS's graph (a CPDAG, or a PDAG with knowledge).
    n_removed_ : int
        BOSS's edges that a test removed, both stages.
    n_removed_adjacency_ : int
        Of those, the ones the last stage removed.
    n_rejected_ : int
        Removals undone because the PAG had no legal MAG after them.
    n_tests_ : int
        Distinct tests run.
    sepsets_ : Mapping
        ``frozenset({u, v}) -> list of tuple``: the separating set of each removed pair, and
        of the ends of each discriminating path the rules decided.
    parameters_ : None
        A PAG holds no single DAG to put parameters on.

    See Also
    --------
    BOSSFCI : BOSS's graph corrected by FCI's level-wise tests (faster on dense graphs).
    FCI : Tests only; no score.

    Notes
    -----
    The stages follow Tetrad 7.6.8's ``Fcit``. Where Tetrad iterates over hash sets (the
    edges, the common neighbours, the middle nodes), skbn goes in column order, so the
    result does not depend on the run. Tetrad runs its own schedule of orientation rules
    (R4 only in a round where R1-R3 changed a mark, R8-R10 once at the end); skbn applies
    Zhang's rules to closure, as its other PAG learners do. Where no set decides a
    discriminating path, Tetrad stops with an error and skbn leaves the triple open. When
    ``max_cond_size`` is set, skbn bounds the last stage's sets by it too (Tetrad tries
    every subset there).

    References
    ----------
    J. Ramsey, B. Andrews and P. Spirtes, "FCIT: a fast and accurate latent-variable
    search", arXiv:2510.04263, 2025. J. Zhang, "On the completeness of orientation rules
    for causal discovery in the presence of latent confounders and selection bias",
    Artificial Intelligence 172, 2008.

    Examples
    --------
    A hidden cause ``L`` of ``b`` and ``c``:

    >>> import networkx as nx
    >>> from skbn.datasets import make_linear_gaussian
    >>> from skbn.graph import dag_to_pag, marked_edges
    >>> from skbn.learners import FCIT
    >>> dag = nx.DiGraph([("a", "b"), ("L", "b"), ("L", "c"), ("d", "c")])
    >>> X = make_linear_gaussian(dag, random_state=0).sample(2000, random_state=0)
    >>> est = FCIT(alpha=0.01, random_state=0).fit(X.drop(columns="L"))
    >>> marked_edges(est.graph_)
    ['a o-> b', 'b <-> c', 'd o-> c']
    >>> marked_edges(est.graph_) == marked_edges(dag_to_pag(dag, latents="L"))
    True
    """

    _search_class = BOSS
    _search_parameters = ("n_starts", "use_bes", "n_jobs", "random_state")
    _parameter_constraints = {
        **_ORDER_CONSTRAINTS,
        "use_bes": ["boolean"],
        "check_adjacency_sepsets": ["boolean"],
    }

    def __init__(
        self,
        criterion: Score | str | None = None,
        ci_test: CITest | str | None = None,
        *,
        alpha: float = 0.05,
        penalty_discount: float = 1.0,
        n_starts: int = 1,
        use_bes: bool = True,
        check_adjacency_sepsets: bool = True,
        max_cond_size: int | None = None,
        max_path_length: int | None = None,
        allowed_edges=None,
        forbidden_edges=None,
        required_edges=None,
        tiers=None,
        n_jobs: int | None = None,
        random_state=None,
        verbose: int = 0,
    ) -> None:
        self.criterion = criterion
        self.ci_test = ci_test
        self.alpha = alpha
        self.penalty_discount = penalty_discount
        self.n_starts = n_starts
        self.use_bes = use_bes
        self.check_adjacency_sepsets = check_adjacency_sepsets
        self.max_cond_size = max_cond_size
        self.max_path_length = max_path_length
        self.allowed_edges = allowed_edges
        self.forbidden_edges = forbidden_edges
        self.required_edges = required_edges
        self.tiers = tiers
        self.n_jobs = n_jobs
        self.random_state = random_state
        self.verbose = verbose

    def _learn(self, data, prepared):
        constraints, search, search_prepared = prepared
        search._fit_column_order = None
        try:
            A, search_kind = search._learn(data, search_prepared)
        finally:
            del search._fit_column_order
        A = (A.toarray() if sparse.issparse(A) else np.asarray(A)).astype(bool)
        names = data.names
        self.cpdag_ = from_adjacency(A.astype(np.int8), names, kind=search_kind)
        M, stages = run_fcit(
            A,
            self._resolved_test(data).bind(data),
            alpha=self.alpha,
            depth=-1 if self.max_cond_size is None else self.max_cond_size,
            max_path_length=-1 if self.max_path_length is None else self.max_path_length,
            forbidden=np.asarray(constraints.forbidden, dtype=bool),
            required=np.asarray(constraints.required, dtype=bool),
            adjacency=self.check_adjacency_sepsets,
        )
        self.n_removed_adjacency_ = stages.n_removed_adjacency
        self.n_removed_ = stages.n_removed_blocking + self.n_removed_adjacency_
        self.n_rejected_ = stages.n_rejected
        self.n_tests_ = stages.n_tests
        if self.verbose:
            print(
                f"FCIT: {stages.n_removed_blocking} edges removed by recursive blocking "
                f"({self.n_rejected_} removals undone), {self.n_removed_adjacency_} by "
                "adjacency subsets"
            )
        self.sepsets_ = SeparatingSets(
            {pair: tuple(sorted(sep)) for pair, sep in stages.sepsets.items()}, names, single=True
        )
        return M, "pag"
