# SPDX-License-Identifier: BSD-3-Clause
"""``skbn query NETWORK --target C --evidence A=yes,B=no``: ask a network questions."""

from __future__ import annotations

from pathlib import Path

__all__ = ["add_parser", "run"]

EXAMPLE = """examples:
  skbn query asia --target dysp --evidence smoke=yes,xray=yes
  skbn query asia --target lung --target bronc --evidence smoke=yes --joint
  skbn query asia --mpe --evidence dysp=yes
  skbn query asia --map --target lung --target tub --evidence xray=yes
  skbn learn --network asia -n 5000 --out asia.bif
  skbn networks sample asia -n 20 --out cases.csv
  skbn query asia.bif --target lung --evidence-file cases.csv --out posteriors.csv
"""

#: One line for ``skbn --help``.
SUMMARY = "exact posteriors, P(evidence) and the most probable explanation of a network"


def add_parser(commands) -> None:
    """Register ``query`` on the subparsers ``commands``."""
    import argparse

    query = commands.add_parser(
        "query",
        help=SUMMARY,
        description="Exact inference on a discrete network (a .bif/.net/.xdsl file or a "
        "bundled network's name): the posterior of each --target given the evidence, "
        "their joint posterior (--joint), or the most probable state of every node (--mpe). "
        "With --evidence-file, one case per row of a CSV file (an empty cell is "
        "unobserved) and one posterior row per case. --map gives the most probable joint "
        "state of the targets, the other nodes summed out.",
        epilog=EXAMPLE,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    query.add_argument("network", help="a network file (.bif, .net, .xdsl) or a bundled name")
    query.add_argument(
        "--target", action="append", default=[], help="a node asked about (repeat for more)"
    )
    query.add_argument("--evidence", default="", help="observed states, NODE=STATE[,NODE=STATE...]")
    query.add_argument(
        "--evidence-file", type=Path, help="CSV file of cases (columns: observed nodes)"
    )
    query.add_argument("--joint", action="store_true", help="the targets' joint posterior")
    query.add_argument("--mpe", action="store_true", help="the most probable explanation instead")
    query.add_argument(
        "--map",
        action="store_true",
        help="the most probable joint state of the --target nodes (the others summed out)",
    )
    query.add_argument("--out", type=Path, help="write the posteriors (CSV) here")


def _network(text: str):
    from skbn.datasets import list_networks, load_network
    from skbn.io import read_network

    if Path(text).exists():
        return read_network(text)
    if text in list_networks():
        return load_network(text)
    raise ValueError(
        f"NETWORK {text!r}: no such file, and not a bundled network (skbn networks list)."
    )


def _evidence(text: str, network) -> dict:
    found = {}
    for item in filter(None, (part.strip() for part in text.split(","))):
        node, sep, state = item.partition("=")
        node, state = node.strip(), state.strip()
        if not sep or not node or not state:
            raise ValueError(f"--evidence {item!r}: write NODE=STATE (e.g. smoke=yes).")
        if node not in network.states:
            raise ValueError(f"--evidence {item!r}: {node!r} is not a node of the network.")
        states = [str(s) for s in network.states[node]]
        if state not in states:
            raise ValueError(f"--evidence {item!r}: {node} takes {', '.join(states)}.")
        found[node] = network.states[node][states.index(state)]
    return found


def run(args) -> None:
    """Run ``skbn query``."""
    import numpy as np
    import pandas as pd

    from skbn.inference import evidence_probability, map_query, mpe, query

    network = _network(args.network)
    if not hasattr(network, "states"):
        raise ValueError(f"NETWORK {args.network!r}: skbn query answers discrete networks.")
    unknown = [t for t in args.target if t not in network.states]
    if unknown:
        raise ValueError(f"--target {unknown[0]!r} is not a node of the network.")
    if not args.mpe and not args.target:
        raise ValueError("give --target NODE (one or more), or --mpe.")
    if args.mpe and args.map:
        raise ValueError("give --mpe (every node) or --map (the --target nodes), not both.")
    if args.mpe and args.target:
        raise ValueError("--mpe explains every node; for the --target nodes use --map.")
    if args.evidence and args.evidence_file:
        raise ValueError("give --evidence or --evidence-file, not both.")
    if args.out and not args.evidence_file:
        raise ValueError("--out writes one posterior row per case of --evidence-file.")
    if args.evidence_file:
        from skbn.io import read_table

        cases = read_table(args.evidence_file, kind="discrete")
        cases = cases.astype(object).where(cases.notna(), None)
        if args.mpe or args.map:
            found, logp = (
                mpe(network, cases) if args.mpe else map_query(network, args.target, cases)
            )
            # log P(explanation, case) less log P(case): the explanation's posterior
            logp = logp - evidence_probability(network, cases, log=True)
            table = pd.DataFrame(found).assign(probability=np.exp(logp))
        else:
            table = query(network, args.target, cases, joint=args.joint)
            if isinstance(table, dict):
                table = pd.concat(table, axis=1)
            # one header row: "node=state" (joint: "a=x & b=y")
            if isinstance(table.columns, pd.MultiIndex) and not args.joint:
                table.columns = [f"{node}={state}" for node, state in table.columns]
            elif isinstance(table.columns, pd.MultiIndex):
                names = table.columns.names
                table.columns = [
                    " & ".join(f"{n}={v}" for n, v in zip(names, key)) for key in table.columns
                ]
            else:
                table.columns = [f"{table.columns.name}={state}" for state in table.columns]
        if args.out:
            table.to_csv(args.out, index=False)
            print(f"posteriors  {len(table)} cases written to {args.out}")
        else:
            print(table.to_string())
        return
    evidence = _evidence(args.evidence, network)
    if evidence:
        shown = ", ".join(f"{k}={v}" for k, v in evidence.items())
        print(f"evidence    {shown}  (P = {evidence_probability(network, evidence):.6g})")
    if args.mpe or args.map:
        found, logp = (
            mpe(network, evidence) if args.mpe else map_query(network, args.target, evidence)
        )
        posterior = np.exp(logp - evidence_probability(network, evidence, log=True))
        what = "most probable explanation" if args.mpe else "most probable joint state"
        print(f"{what} (P(it | evidence) = {posterior:.6g}):")
        for node, state in found.items():
            print(f"  {node} = {state}")
        return
    answer = query(network, args.target, evidence, joint=args.joint)
    answers = answer if isinstance(answer, dict) else {"": answer}
    for name, series in answers.items():
        print(f"\nP({name or ', '.join(args.target)} | evidence)")
        print(series.to_string())
