# SPDX-License-Identifier: BSD-3-Clause
"""Helpers shared by the benchmark scripts: timing, optional peers, graphs and their scores."""

from __future__ import annotations

import shutil
import statistics
import subprocess
import time
import warnings
from collections.abc import Callable

import networkx as nx


def timed(fn: Callable, repeats: int, slow_seconds: float):
    """Run ``fn`` up to ``repeats`` times; return (median seconds, last result, runs).

    A run slower than ``slow_seconds`` ends the repeats: slow peers are timed once.
    """
    times, result = [], None
    for _ in range(repeats):
        start = time.perf_counter()
        result = fn()
        times.append(time.perf_counter() - start)
        if times[-1] > slow_seconds:
            break
    return statistics.median(times), result, len(times)


def available(module: str) -> bool:
    """Whether an optional peer library can be imported (its warnings silenced)."""
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            __import__(module)
        return True
    except ImportError:
        return False


def graph_from_arcs(names, arcs, kind: str) -> nx.DiGraph:
    """A graph over ``names`` with the arcs ``(u, v)`` of a peer's output."""
    g = nx.DiGraph(kind=kind)
    g.add_nodes_from(names)
    g.add_edges_from(arcs)
    return g


def structure_scores(truth: nx.DiGraph, graph: nx.DiGraph):
    """F1-adjacent, F1-arrowhead, SHD and edge count against the true DAG.

    Arrowheads and SHD compare with the DAG for a learner that returns one, with its CPDAG
    for one that returns a CPDAG or PDAG.
    """
    from skbn.graph import dag_to_cpdag
    from skbn.metrics import f1_adjacency, f1_arrowhead, shd

    reference = truth if graph.graph.get("kind") == "dag" else dag_to_cpdag(truth)
    return (
        f1_adjacency(truth, graph),
        f1_arrowhead(reference, graph),
        shd(reference, graph),
        graph.number_of_edges(),
    )


def bnlearn_version() -> str:
    """``"bnlearn X.Y"`` when R with bnlearn is on the PATH, else ``""``."""
    if shutil.which("Rscript") is None:
        return ""
    out = subprocess.run(
        ["Rscript", "-e", 'cat(as.character(packageVersion("bnlearn")))'],
        capture_output=True,
        text=True,
        check=False,
    )
    return f"bnlearn {out.stdout.strip()}" if out.returncode == 0 else ""


def _put_result(queue, target, args) -> None:
    queue.put(target(*args))


def run_with_limit(target: Callable, args: tuple, limit: float):
    """``target(*args)`` in a forked child; None when it does not finish within ``limit`` s.

    The child's result comes back through a queue, so it must be picklable (a dict of
    figures). A fit that runs past the limit is killed: a grid records it as unfinished
    instead of stalling on it.
    """
    import multiprocessing as mp

    ctx = mp.get_context("fork")
    queue = ctx.Queue()
    proc = ctx.Process(target=_put_result, args=(queue, target, args))
    proc.start()
    proc.join(limit)
    if proc.is_alive():
        proc.kill()
        proc.join()
        return None
    return queue.get() if not queue.empty() else None
