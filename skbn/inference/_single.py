# SPDX-License-Identifier: BSD-3-Clause
"""One case's hard evidence on a small question: a contraction compiled once and kept.

A single query of a small network spends most of its time in Python and numpy's per-call
overhead (building likelihood factors, finding an order, scaling each product), not in
arithmetic. When the nodes a question leaves unobserved -- the targets and the ancestors
that are not observed -- have few joint states, the posterior is one ``einsum`` over the
CPTs with the observed states sliced out, and its contraction path depends only on which
nodes are targets and which are observed. So the path, the subscripts and the slicing
pattern are compiled the first time a question of that kind is asked and kept per network;
later cases only look up their states, slice, and contract.

Nothing here is needed for correctness: :func:`compiled_query` returns None whenever the
general elimination must answer (soft or missing evidence, an observed target, a question
too large to compile, a product that underflows or evidence of probability 0), and the
caller then takes that route.
"""

from __future__ import annotations

import string
import weakref
from typing import NamedTuple

import numpy as np

from skbn.inference._elimination import _ancestral_set

#: Largest number of joint states of a question's unobserved relevant nodes for which a
#: plan is compiled: every intermediate of the contraction is at most this large.
MAX_CELLS = 1 << 16
#: Up to this many joint states (and operands), one ``einsum`` over all of them costs less
#: than searching for a contraction path.
_ONE_PASS_CELLS = 4096
_ONE_PASS_OPERANDS = 24
#: Plans kept per network; the table is cleared when it is full.
_MAX_PLANS = 256
_LETTERS = string.ascii_letters

_PLANS: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()


class _Plan(NamedTuple):
    observed: tuple  # the observed nodes, sorted: codes[a] is the state of observed[a]
    lookup: tuple  # per observed node, {state label: code}
    tables: tuple  # nodes whose CPT keeps a free axis (read at each call: always current)
    slicers: tuple  # per such table, per axis: the observed node's position, or -1
    fixed_tables: tuple  # nodes whose CPT has every axis observed (a number per case)
    fixed_slicers: tuple
    steps: tuple  # per contraction: the operands' positions, and its subscripts
    shape: tuple  # the targets' arities


def _compile(network, keep: tuple, observed: tuple) -> _Plan | None:
    if set(keep) & set(observed):
        return None  # an observed target: the general route's answer (an indicator)
    relevant = set(_ancestral_set(network, keep + observed))
    free = [v for v in network.nodes if v in relevant and v not in observed]
    if len(free) > len(_LETTERS):
        return None
    cells = 1
    for v in free:
        cells *= network.arities[v]
        if cells > MAX_CELLS:
            return None
    letter = {v: _LETTERS[k] for k, v in enumerate(free)}
    position = {v: a for a, v in enumerate(observed)}
    tables, slicers, terms, shapes = [], [], [], []
    fixed_tables, fixed_slicers = [], []
    for v in network.nodes:
        if v not in relevant:
            continue  # barren: its table sums to one
        scope = tuple(network.parents[v]) + (v,)
        slicer = tuple(position.get(u, -1) for u in scope)
        if all(a >= 0 for a in slicer):
            fixed_tables.append(v)
            fixed_slicers.append(slicer)
            continue
        tables.append(v)
        slicers.append(slicer)
        terms.append("".join(letter[u] for u in scope if u not in position))
        shapes.append(tuple(network.arities[u] for u in scope if u not in position))
    output = "".join(letter[v] for v in keep)
    if cells <= _ONE_PASS_CELLS:
        # a pass over the joint states per group of operands: no search for a path
        path, left = [], len(terms)
        while left > _ONE_PASS_OPERANDS:
            path.append(tuple(range(_ONE_PASS_OPERANDS)))
            left -= _ONE_PASS_OPERANDS - 1
        path.append(tuple(range(left)))
    else:
        dummies = [np.empty(s) for s in shapes]
        path = np.einsum_path(",".join(terms) + "->" + output, *dummies, optimize="greedy")
        path = path[0][1:]
        if any(len(step) > _ONE_PASS_OPERANDS for step in path):
            return None  # numpy's einsum takes at most 32 operands at once
    lookup = tuple({state: k for k, state in enumerate(network.states[v])} for v in observed)
    return _Plan(
        observed,
        lookup,
        tuple(tables),
        tuple(slicers),
        tuple(fixed_tables),
        tuple(fixed_slicers),
        _steps(terms, path, output),
        tuple(network.arities[v] for v in keep),
    )


def _steps(terms: list[str], path: list, output: str) -> tuple:
    """The pairwise contractions of ``path`` as (positions, subscripts), numpy's order.

    Each step takes the operands at ``positions`` (removed from the list, highest first)
    and appends their contraction, which keeps the letters that other operands or the
    output still hold; a last step puts the output's letters in order.
    """
    terms = list(terms)
    steps = []
    for positions in path:
        positions = tuple(sorted(positions, reverse=True))
        taken = [terms.pop(k) for k in positions]
        rest = set(output).union(*terms)
        kept = "".join(sorted({c for t in taken for c in t} & rest))
        steps.append((positions, ",".join(taken) + "->" + kept))
        terms.append(kept)
    (last,) = terms
    steps.append(((0,), last + "->" + output))
    return tuple(steps)


def _plan(network, keep: tuple, observed: tuple) -> _Plan | None:
    cache = _PLANS.get(network)
    if cache is None:
        cache = _PLANS[network] = {}
    key = (keep, observed)
    if key in cache:
        return cache[key]
    plan = _compile(network, keep, observed)
    if len(cache) >= _MAX_PLANS:
        cache.clear()
    cache[key] = plan
    return plan


def _index(slicer, codes):
    return tuple(slice(None) if a < 0 else codes[a] for a in slicer)


def compiled_query(network, keep: list[str], evidence) -> tuple[np.ndarray, float] | None:
    """``P(keep, e)`` over the targets' joint states and its total, or None.

    ``evidence`` is one case's ``{node: state}`` with every name a node of ``network``
    (checked by the caller's route on a miss). None means the general elimination must
    answer; the values are those of the targets' joint states in C order.
    """
    observed = tuple(sorted(evidence))
    plan = _plan(network, tuple(keep), observed)
    if plan is None:
        return None
    codes = []
    for node, lookup in zip(observed, plan.lookup):
        try:
            code = lookup.get(evidence[node])
        except TypeError:  # an unhashable value: the general route says what is wrong
            return None
        if code is None:
            return None  # a label given as another type, a missing cell, or no state at all
        codes.append(code)
    cpts = network.cpts
    constant = 1.0
    for v, slicer in zip(plan.fixed_tables, plan.fixed_slicers):
        constant *= float(cpts[v][_index(slicer, codes)])
    operands = [cpts[v][_index(s, codes)] for v, s in zip(plan.tables, plan.slicers)]
    for positions, subscripts in plan.steps:
        taken = [operands.pop(k) for k in positions]
        operands.append(np.einsum(subscripts, *taken))
    values = operands[0] * constant
    values = np.reshape(values, -1)
    total = float(values.sum())
    if not (total > 0.0 and np.isfinite(total)):
        return None  # probability 0, or a product that underflowed: the scaled route
    return values, total
