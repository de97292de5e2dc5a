# SPDX-License-Identifier: BSD-3-Clause
"""``skbn report LEARNED [TRUTH]``: describe a graph file, and score it against a true graph."""

from __future__ import annotations

from pathlib import Path

from skbn.cli._common import print_edges, read_graph_arg, save_figure

__all__ = ["add_parser", "run"]

EXAMPLE = """example:
  skbn learn --network asia -n 2000 --out learned.json
  skbn report learned.json asia --plot learned.png
"""


#: One line for ``skbn --help``.
SUMMARY = "report on a learned graph, against a true one if given"


def add_parser(commands) -> None:
    """Register ``report`` on the subparsers ``commands``."""
    import argparse

    report = commands.add_parser(
        "report",
        help=SUMMARY,
        description="Print the size and kind of a graph (a .json/.graphml graph or a "
        ".bif/.net/.xdsl network), and with TRUTH the structure report of skbn.metrics "
        "(SHD, precision, recall, F1 of adjacencies and arrowheads).",
        epilog=EXAMPLE,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    report.add_argument("learned", help="the learned graph: a graph or network file")
    report.add_argument(
        "truth", nargs="?", help="the true graph: a file, or a bundled network's name"
    )
    report.add_argument("--plot", type=Path, help="draw the learned graph (against the truth)")


def run(args) -> None:
    """Run ``skbn report``."""
    from skbn.metrics import structure_report

    learned = read_graph_arg(args.learned, "LEARNED")
    truth = read_graph_arg(args.truth, "TRUTH") if args.truth else None
    if truth is not None and set(truth.nodes) != set(learned.nodes):

        def shown(names: set) -> str:
            names = sorted(map(str, names))
            more = f" and {len(names) - 5} more" if len(names) > 5 else ""
            return f"{len(names)} node(s), {names[:5]}{more}"

        only_l = set(learned.nodes) - set(truth.nodes)
        only_t = set(truth.nodes) - set(learned.nodes)
        raise ValueError(
            "LEARNED and TRUTH have different nodes"
            + (f"; only in LEARNED: {shown(only_l)}" if only_l else "")
            + (f"; only in TRUTH: {shown(only_t)}" if only_t else "")
            + "."
        )
    n_undirected = sum(1 for u, v in learned.edges() if learned.has_edge(v, u)) // 2
    n_directed = learned.number_of_edges() - 2 * n_undirected
    print(f"graph       {args.learned}: {learned.graph.get('kind', 'dag')}, {len(learned)} nodes")
    print(f"edges       {n_directed} directed, {n_undirected} undirected")
    print_edges(learned, header="")
    if truth is not None:
        print(f"\nagainst {args.truth} ({truth.number_of_edges()} arcs):")
        print(structure_report(truth, learned))
    if args.plot:
        from skbn.plotting import plot_graph

        save_figure(plot_graph(learned, truth=truth, title=Path(args.learned).name), args.plot)
