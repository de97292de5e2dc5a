// SPDX-License-Identifier: BSD-3-Clause
// Driver for tests/data/make_dagitty_adjustment_oracle.py: reads one JSON case a line
// ({type, nodes, edges: [[u, op, v]], x, y, sets}) from standard input and writes, a line
// each, dagitty's verdict on every set and its canonical adjustment set (or null).
// DAGITTY_NODE names dagitty-node.js, built from dagitty's jslib as its Makefile does.
const dagitty = require(process.env.DAGITTY_NODE);
const lines = require("fs").readFileSync(0, "utf8").split("\n").filter(Boolean);
const answers = lines.map((line) => {
  const c = JSON.parse(line);
  const text = c.nodes.join(" ") + " " + c.edges.map((e) => e.join(" ")).join(" ");
  const g = dagitty.GraphParser.parseGuess(c.type + " { " + text + " }");
  g.addSource(g.getVertex(c.x));
  g.addTarget(g.getVertex(c.y));
  const verdicts = c.sets.map((Z) =>
    dagitty.GraphAnalyzer.isAdjustmentSet(g, Z.map((v) => g.getVertex(v)), [])
  );
  const canonical = dagitty.GraphAnalyzer.canonicalAdjustmentSet(g);
  return JSON.stringify({
    verdicts: verdicts,
    canonical: canonical.length ? canonical[0].map((v) => v.id).sort() : null,
  });
});
console.log(answers.join("\n"));
