# SPDX-License-Identifier: BSD-3-Clause
"""Questions asked of a fitted network: posteriors and the probability of evidence.

* :func:`query`: exact posteriors ``P(targets | evidence)`` of a discrete network (by
  variable elimination, one evidence row or a DataFrame of rows at once, hard and soft
  evidence), of a linear-Gaussian one (the conditional of its joint normal), or of a
  conditional-Gaussian one (continuous values as evidence; a continuous target's posterior
  is a :class:`MixturePosterior`).
* :func:`evidence_probability`: ``P(evidence)`` of a discrete or conditional-Gaussian
  network, per evidence row.
* :func:`mpe`: the most probable explanation (the joint argmax of every node) given the
  evidence, per evidence row; :func:`map_query` the most probable joint state of a subset
  (the others summed out).
* :func:`likelihood_weighting`: approximate posteriors of a discrete network by weighted
  forward sampling, for networks whose exact elimination does not fit in memory;
  :func:`loopy_belief_propagation` the same by sum-product messages on its factor graph
  (deterministic, with a flag for convergence).
* :func:`intervene`: the network after ``do(X = x)`` (graph surgery), so that
  ``P(Y | do(X = x), e)`` is a query of it; :func:`total_effect` in a linear-Gaussian SEM.

The same queries are methods of the networks (``network.query``,
``network.evidence_probability``), so a learner's ``network_`` answers them directly.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from skbn.inference._approximate import likelihood_weighting
from skbn.inference._conditional_gaussian import (
    MixturePosterior,
    cg_evidence_probability,
    cg_map,
    cg_mpe,
    cg_query,
)
from skbn.inference._discrete import discrete_evidence_probability, discrete_query
from skbn.inference._gaussian import GaussianPosterior, gaussian_query
from skbn.inference._intervention import intervene, total_effect
from skbn.inference._loopy import loopy_belief_propagation
from skbn.inference._mpe import maximum_a_posteriori, most_probable_explanation
from skbn.network._discrete import DiscreteBayesianNetwork
from skbn.network._gaussian import LinearGaussianNetwork
from skbn.network._mixed import ConditionalGaussianNetwork

__all__ = [
    "GaussianPosterior",
    "MixturePosterior",
    "evidence_probability",
    "intervene",
    "likelihood_weighting",
    "loopy_belief_propagation",
    "map_query",
    "mpe",
    "query",
    "total_effect",
]


def query(
    network,
    targets: str | Sequence[str],
    evidence=None,
    *,
    soft_evidence: Mapping[str, Sequence[float]] | None = None,
    joint: bool = False,
):
    """Exact posterior distribution of ``targets`` given ``evidence``.

    Parameters
    ----------
    network : DiscreteBayesianNetwork, LinearGaussianNetwork or ConditionalGaussianNetwork
        E.g. a learner's ``network_`` or :func:`skbn.datasets.load_network`.
    targets : str or list of str
        The nodes asked about.
    evidence : dict, DataFrame or None, default=None
        What is observed: ``{node: state}`` for one case (a number for a Gaussian node), or
        a DataFrame with one row per case and a column per observed node, where a missing
        cell (NaN, None) is unobserved. A target may be observed (its posterior is then
        that state).
    soft_evidence : dict of str to array-like, optional
        Discrete networks only: likelihoods ``P(finding | node = s)`` per state of a node
        (virtual evidence, as pyAgrum's soft evidence); an array of shape ``(n_rows, r)``
        gives each evidence row its own.
    joint : bool, default=False
        Discrete networks: the joint posterior of all targets instead of one per target.

    Returns
    -------
    Series, DataFrame, dict or GaussianPosterior
        Discrete: for one target a Series over its states (one evidence case) or a
        DataFrame of evidence rows by states (a batch); for a list of targets a dict of
        those by target; with ``joint=True`` one Series or DataFrame over the targets'
        joint states (a MultiIndex). A batch row whose evidence has probability 0 is NaN;
        a single case raises. Gaussian: a :class:`GaussianPosterior` (``mean``,
        ``covariance``, ``std``). A continuous node of a conditional-Gaussian network: a
        :class:`MixturePosterior` (one case), or a DataFrame with columns ``mean``, ``std``
        and ``mixture`` (a batch).

    Raises
    ------
    ValueError
        A target or evidence node the network does not have, a value that is not a state,
        evidence of probability 0 in a single case, or an elimination whose largest factor
        would not fit in memory (checked before it is allocated).

    Notes
    -----
    The barren nodes (not ancestors of a target or an observed node) are dropped first. One
    target, or a joint posterior, is computed by variable elimination; several targets by
    one clique tree read off the elimination order (a collect and a Hugin distribute pass),
    which answers all of them at about twice the cost of one elimination. The order is
    weighted min-fill. All rows of a batch share one pass: each observed node contributes a
    likelihood factor per row (an indicator for a state, ones where the cell is missing).
    The memory a pass needs is checked before anything is allocated, and a batch above
    256 MiB is split. One case with hard evidence whose unobserved relevant nodes have at
    most 65,536 joint states (most questions of a small network) is answered by one
    contraction of the CPTs with the observed states sliced out; its path is found the
    first time a question with those targets and observed nodes is asked and kept with
    the network, so repeated questions of one kind skip that work.

    Examples
    --------
    >>> from skbn.datasets import load_network
    >>> from skbn.inference import query
    >>> asia = load_network("asia")
    >>> query(asia, "lung", {"smoke": "yes", "dysp": "yes"}).round(4)
    lung
    yes    0.1483
    no     0.8517
    Name: probability, dtype: float64
    >>> import pandas as pd
    >>> rows = pd.DataFrame({"xray": ["yes", None], "smoke": ["no", "yes"]})
    >>> query(asia, "tub", rows).round(4)
    tub     yes      no
    0    0.1480  0.8520
    1    0.0104  0.9896
    """
    if isinstance(network, DiscreteBayesianNetwork):
        return discrete_query(network, targets, evidence, soft_evidence=soft_evidence, joint=joint)
    if isinstance(network, LinearGaussianNetwork):
        if soft_evidence is not None:
            raise ValueError("soft_evidence is for discrete networks; observe values instead.")
        return gaussian_query(network, targets, evidence)
    if isinstance(network, ConditionalGaussianNetwork):
        return cg_query(network, targets, evidence, soft_evidence=soft_evidence, joint=joint)
    raise TypeError(
        "query answers DiscreteBayesianNetwork, LinearGaussianNetwork and "
        "ConditionalGaussianNetwork objects (a learner's network_, or "
        f"skbn.datasets.load_network); got {type(network).__name__}."
    )


def evidence_probability(
    network: DiscreteBayesianNetwork | ConditionalGaussianNetwork,
    evidence,
    *,
    soft_evidence: Mapping[str, Sequence[float]] | None = None,
    log: bool = False,
):
    """Probability of the evidence, ``P(e)``, summed over every unobserved node.

    On a conditional-Gaussian network with continuous values observed it is a density in
    those values (the discrete states' probability times their normal density).

    Parameters
    ----------
    network : DiscreteBayesianNetwork or ConditionalGaussianNetwork
    evidence : dict, DataFrame or None
        As for :func:`query`.
    soft_evidence : dict of str to array-like, optional
        As for :func:`query`: the likelihoods multiply in.
    log : bool, default=False
        Return ``log P(e)`` (``-inf`` for impossible evidence), which does not underflow.

    Returns
    -------
    float or ndarray of shape (n_rows,)

    Examples
    --------
    >>> from skbn.datasets import load_network
    >>> from skbn.inference import evidence_probability
    >>> round(evidence_probability(load_network("asia"), {"smoke": "yes", "dysp": "yes"}), 4)
    0.2764
    """
    if isinstance(network, ConditionalGaussianNetwork):
        return cg_evidence_probability(network, evidence, soft_evidence=soft_evidence, log=log)
    if not isinstance(network, DiscreteBayesianNetwork):
        raise TypeError(
            "evidence_probability answers DiscreteBayesianNetwork and "
            f"ConditionalGaussianNetwork objects; got {type(network).__name__}."
        )
    return discrete_evidence_probability(network, evidence, soft_evidence=soft_evidence, log=log)


def mpe(
    network: DiscreteBayesianNetwork | ConditionalGaussianNetwork,
    evidence=None,
    *,
    soft_evidence: Mapping[str, Sequence[float]] | None = None,
):
    """The most probable explanation: the joint state of every node most probable given ``e``.

    On a conditional-Gaussian network the maximum is joint over the discrete states and the
    continuous values (the log-probability is then a log-density): the continuous values
    are the conditional means given the evidence and the maximising discrete states.

    Parameters
    ----------
    network : DiscreteBayesianNetwork or ConditionalGaussianNetwork
    evidence : dict, DataFrame or None, default=None
        As for :func:`query`; the observed nodes keep their states.
    soft_evidence : dict of str to array-like, optional
        As for :func:`query`.

    Returns
    -------
    explanation : dict or DataFrame
        ``{node: state}`` for one case; for a batch, a DataFrame of categorical columns (one
        row per evidence row; a row whose evidence is impossible is missing).
    log_probability : float or ndarray of shape (n_rows,)
        ``log P(explanation, e)``; subtract ``evidence_probability(..., log=True)`` for the
        log-posterior ``log P(explanation | e)``.

    Notes
    -----
    Max-product variable elimination (weighted min-fill order) with a traceback, all rows of a
    batch in one pass. Where several explanations are equally probable, one of them is
    returned.

    Examples
    --------
    >>> from skbn.datasets import load_network
    >>> from skbn.inference import mpe
    >>> explanation, log_p = mpe(load_network("asia"), {"dysp": "yes"})
    >>> explanation["bronc"], explanation["lung"]
    ('yes', 'no')
    """
    if isinstance(network, ConditionalGaussianNetwork):
        return cg_mpe(network, evidence, soft_evidence=soft_evidence)
    if not isinstance(network, DiscreteBayesianNetwork):
        raise TypeError(
            "mpe answers DiscreteBayesianNetwork and ConditionalGaussianNetwork objects; got "
            f"{type(network).__name__}."
        )
    return most_probable_explanation(network, evidence, soft_evidence=soft_evidence)


def map_query(
    network: DiscreteBayesianNetwork | ConditionalGaussianNetwork,
    targets: str | Sequence[str],
    evidence=None,
    *,
    soft_evidence: Mapping[str, Sequence[float]] | None = None,
):
    """The most probable joint state of ``targets`` given ``e`` (MAP over a subset).

    Unlike :func:`mpe`, the nodes outside ``targets`` are summed out, not maximised: the
    answer is the argmax of the targets' joint posterior ``P(targets | e)``, which can
    differ from those nodes' states in the most probable explanation of every node.

    Parameters
    ----------
    network : DiscreteBayesianNetwork or ConditionalGaussianNetwork
    targets : str or list of str
        The nodes whose joint state is asked (discrete ones; on a conditional-Gaussian
        network the continuous nodes are integrated out and may be observed).
    evidence : dict, DataFrame or None, default=None
        As for :func:`query`.
    soft_evidence : dict of str to array-like, optional
        As for :func:`query`.

    Returns
    -------
    state : dict or DataFrame
        ``{target: state}`` for one case; for a batch, a DataFrame of categorical columns.
    log_probability : float or ndarray of shape (n_rows,)
        ``log P(targets = state, e)`` (a log-density where continuous values are observed);
        subtract ``evidence_probability(..., log=True)`` for the log-posterior.

    Notes
    -----
    Variable elimination in a constrained order: the other nodes are summed out first (a
    weighted min-fill order among them), then the targets are maximised with a traceback,
    all rows of a batch in one pass; exact, and as costly as a joint query of the targets.

    Examples
    --------
    Given a positive X-ray, the most probable explanation of every node has lung cancer,
    but lung cancer on its own is (slightly) less probable than not:

    >>> from skbn.datasets import load_network
    >>> from skbn.inference import map_query, mpe, query
    >>> asia = load_network("asia")
    >>> mpe(asia, {"xray": "yes"})[0]["lung"]
    'yes'
    >>> map_query(asia, "lung", {"xray": "yes"})[0]
    {'lung': 'no'}
    >>> query(asia, "lung", {"xray": "yes"}).round(3).tolist()
    [0.489, 0.511]
    """
    if isinstance(network, ConditionalGaussianNetwork):
        return cg_map(network, targets, evidence, soft_evidence=soft_evidence)
    if not isinstance(network, DiscreteBayesianNetwork):
        raise TypeError(
            "map_query answers DiscreteBayesianNetwork and ConditionalGaussianNetwork "
            f"objects; got {type(network).__name__}."
        )
    targets = [targets] if isinstance(targets, str) else list(targets)
    unknown = [t for t in targets if t not in network.nodes]
    if unknown or not targets:
        raise ValueError(
            f"map_query: targets {unknown} are not nodes of the network."
            if unknown
            else "map_query needs at least one target."
        )
    return maximum_a_posteriori(network, targets, evidence, soft_evidence=soft_evidence)
