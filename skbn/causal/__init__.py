# SPDX-License-Identifier: BSD-3-Clause
"""Causal effects from a graph: adjustment sets, adjusted estimates and IDA.

* :func:`is_adjustment_set`, :func:`adjustment_set`, :func:`forbidden_nodes`,
  :func:`proper_causal_nodes` and :func:`is_amenable`: the adjustment criterion on a DAG
  and Perkovic et al.'s generalised adjustment criterion on a CPDAG, an MPDAG (a CPDAG
  oriented further by background knowledge), a MAG or a PAG (complete: a set passes
  exactly when adjusting for it gives the causal effect in every model of the DAG, or of
  every DAG the graph stands for), and the optimal, minimal, parent and canonical sets
  they admit.
* :func:`adjusted_effect`: the effect estimated from data by adjusting for such a set (the
  regression coefficient for continuous data, the adjustment formula for discrete data),
  with a bootstrap interval.
* :func:`is_frontdoor_set`, :func:`frontdoor_set` and :func:`frontdoor_effect`: Pearl's
  front-door criterion on a DAG and the effect by the front-door formula, for an effect
  whose confounder is not measured but whose mediators are.
* :func:`ida`: the possible linear effects given a CPDAG, one per parent set of the
  treatment that the CPDAG allows (local IDA); :func:`joint_ida` those of a joint
  intervention on several treatments.

For the effect of an intervention in a fitted network, see :mod:`skbn.inference`
(``network.do``, :func:`~skbn.inference.total_effect`).
"""

from skbn.causal._adjustment import (
    adjustment_set,
    forbidden_nodes,
    is_adjustment_set,
    is_amenable,
    proper_causal_nodes,
)
from skbn.causal._effects import AdjustedEffect, adjusted_effect, frontdoor_effect, ida, joint_ida
from skbn.causal._frontdoor import frontdoor_set, is_frontdoor_set

__all__ = [
    "AdjustedEffect",
    "adjusted_effect",
    "adjustment_set",
    "forbidden_nodes",
    "frontdoor_effect",
    "frontdoor_set",
    "ida",
    "is_adjustment_set",
    "is_amenable",
    "is_frontdoor_set",
    "joint_ida",
    "proper_causal_nodes",
]
