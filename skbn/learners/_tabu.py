# SPDX-License-Identifier: BSD-3-Clause
"""Tabu search: hill climbing that walks through non-improving moves."""

from __future__ import annotations

from skbn.learners._hill_climb import HillClimb
from skbn.scores import Score

__all__ = ["TabuSearch"]


class TabuSearch(HillClimb):
    """Hill climbing with a tabu list, as bnlearn's ``tabu``.

    At a local optimum the search keeps taking the best move that does not return to one of
    the last ``tabu_length`` DAGs, even if it lowers the score, and stops after ``max_tabu``
    moves without improving the best score found, which it returns.

    Parameters are those of :class:`HillClimb`; the defaults differ only in
    ``tabu_length=10`` (and so ``max_tabu=10``), bnlearn's defaults.

    Parameters
    ----------
    criterion : str, Score or None, default=None
        See :class:`HillClimb`.
    max_indegree : int, default=None
        See :class:`HillClimb`.
    tabu_length : int, default=10
        Number of recently visited DAGs the search may not return to.
    max_tabu : int, default=None
        Moves without improvement before stopping; ``tabu_length`` when None.
    max_iter, n_restarts, n_perturbations, start_graph : see :class:`HillClimb`
        Search limits, random restarts and the start graph.
    allowed_edges, forbidden_edges, required_edges, tiers : see :class:`HillClimb`
        Background knowledge (:mod:`skbn.constraints`).
    tol, tie_order, random_state, verbose : see :class:`HillClimb`
        Improvement threshold, how ties between moves are broken, seed, progress output.

    See Also
    --------
    HillClimb : Plain hill climbing, the same search without a tabu list by default.

    Examples
    --------
    >>> from skbn.datasets import load_network
    >>> X = load_network("asia").sample(2000, random_state=0)
    >>> TabuSearch().fit(X).graph_.graph["kind"]
    'dag'
    """

    def __init__(
        self,
        criterion: Score | str | None = None,
        *,
        max_indegree: int | None = None,
        tabu_length: int = 10,
        max_tabu: int | None = None,
        max_iter: int | None = None,
        n_restarts: int = 0,
        n_perturbations: int = 1,
        start_graph=None,
        allowed_edges=None,
        forbidden_edges=None,
        required_edges=None,
        tiers=None,
        tol: float = 1e-9,
        tie_order: str = "stable",
        random_state=None,
        verbose: int = 0,
    ) -> None:
        super().__init__(
            criterion,
            max_indegree=max_indegree,
            tabu_length=tabu_length,
            max_tabu=max_tabu,
            max_iter=max_iter,
            n_restarts=n_restarts,
            n_perturbations=n_perturbations,
            start_graph=start_graph,
            allowed_edges=allowed_edges,
            forbidden_edges=forbidden_edges,
            required_edges=required_edges,
            tiers=tiers,
            tol=tol,
            tie_order=tie_order,
            random_state=random_state,
            verbose=verbose,
        )
