# SPDX-License-Identifier: BSD-3-Clause
"""A mutable CPDAG held as adjacency sets, for equivalence-class searches (GES/FGES).

Dense arrays make every query O(p); searches over thousands of variables need neighbour
queries in O(degree), so the state keeps, per node, its directed parents, directed children
and undirected neighbours as sets. ``rebuild`` restores the CPDAG after an operator on the
skeleton component that the operator touched only.
"""

from __future__ import annotations

from collections import deque

import numpy as np
from scipy import sparse

from skbn.graph._array import adjacency_like

__all__ = ["CPDAGState"]


class CPDAGState:
    """Adjacency-set representation of a PDAG over ``p`` nodes (indices 0..p-1)."""

    def __init__(self, p: int, forbidden: np.ndarray | None = None) -> None:
        self.p = p
        #: Arcs Meek's rules may not create (background knowledge), or None.
        self.forbidden = forbidden
        self.pa = [set() for _ in range(p)]  # directed parents
        self.ch = [set() for _ in range(p)]  # directed children
        self.ne = [set() for _ in range(p)]  # undirected neighbours
        self._before: dict | None = None  # snapshots taken during a rebuild

    # -- queries -------------------------------------------------------------------------------

    def adj(self, v: int) -> set:
        return self.pa[v] | self.ch[v] | self.ne[v]

    def adjacent(self, a: int, b: int) -> bool:
        return b in self.ne[a] or b in self.pa[a] or b in self.ch[a]

    def degree(self, v: int) -> int:
        return len(self.pa[v]) + len(self.ch[v]) + len(self.ne[v])

    def is_clique(self, nodes) -> bool:
        nodes = list(nodes)
        for i in range(len(nodes)):
            for j in range(i + 1, len(nodes)):
                if not self.adjacent(nodes[i], nodes[j]):
                    return False
        return True

    def semi_directed_path_blocked(self, source: int, target: int, blockers) -> bool:
        """True if every semi-directed path from source to target meets ``blockers``.

        A semi-directed path follows arcs forwards and undirected edges either way.
        """
        seen = {source}
        queue = deque([source])
        while queue:
            t = queue.popleft()
            if t in blockers:
                continue
            if t == target:
                return False
            for u in self.ch[t] | self.ne[t]:
                if u not in seen:
                    seen.add(u)
                    queue.append(u)
        return True

    # -- edits ---------------------------------------------------------------------------------

    def remove_edge(self, a: int, b: int) -> None:
        for x, y in ((a, b), (b, a)):
            self.pa[x].discard(y)
            self.ch[x].discard(y)
            self.ne[x].discard(y)

    def add_arc(self, a: int, b: int) -> None:
        self.remove_edge(a, b)
        self.ch[a].add(b)
        self.pa[b].add(a)

    def add_undirected(self, a: int, b: int) -> None:
        self.remove_edge(a, b)
        self.ne[a].add(b)
        self.ne[b].add(a)

    def arcs(self) -> tuple[np.ndarray, np.ndarray]:
        """``(rows, cols)`` of every arc, an undirected edge giving both."""
        rows = [u for v in range(self.p) for u in self.pa[v] | self.ne[v]]
        cols = [v for v in range(self.p) for _ in range(len(self.pa[v]) + len(self.ne[v]))]
        return np.array(rows, dtype=np.int64), np.array(cols, dtype=np.int64)

    def to_array(self) -> np.ndarray:
        A = np.zeros((self.p, self.p), dtype=np.int8)
        A[self.arcs()] = 1
        return A

    def to_sparse(self):
        """The PDAG as a scipy CSR matrix (memory grows with the edges, not with p**2)."""
        return adjacency_like(sparse.csr_array((0, 0)), self.p, *self.arcs())

    # -- CPDAG restoration -----------------------------------------------------------------------

    def _component(self, seeds) -> list[int]:
        seen = set(seeds)
        queue = deque(seeds)
        while queue:
            v = queue.popleft()
            for u in self.adj(v):
                if u not in seen:
                    seen.add(u)
                    queue.append(u)
        return sorted(seen)

    def _downstream(self, seeds) -> list[int]:
        """Nodes reachable from ``seeds`` along arcs (forwards) and undirected edges."""
        seen = set(seeds)
        queue = deque(seeds)
        while queue:
            v = queue.popleft()
            for u in self.ch[v] | self.ne[v]:
                if u not in seen:
                    seen.add(u)
                    queue.append(u)
        return sorted(seen)

    def rebuild(self, seeds, *, region: str = "downstream") -> set:
        """Turn the PDAG left by an operator back into a CPDAG; return the changed nodes.

        The PDAG left by a valid GES operator has a consistent extension with the same
        skeleton and unshielded colliders, so its CPDAG is the Meek closure (R1-R3) of that
        pattern (Meek 1995). ``seeds`` must hold every node whose incident edges or whose
        parents' adjacency the operator changed.

        With ``region="downstream"`` only edges into nodes reachable from the seeds along
        arcs and undirected edges are recomputed, with all other edges held fixed: whether an
        arc is compelled depends only on the ancestral structure of its head, which is
        unchanged outside that region. ``region="component"`` recomputes the whole skeleton
        component (the reference the tests compare against).
        """
        if region == "component":
            nodes = self._component(seeds)
        else:
            nodes = self._downstream(seeds)
        # a node whose edges the rebuild edits is snapshotted first; the changed nodes are
        # those whose parents or neighbours differ at the end (an edge undirected and then
        # oriented back is no change)
        self._before = before = {}
        keep = set()
        for c in nodes:
            parents = list(self.pa[c])
            for i in range(len(parents)):
                for j in range(i + 1, len(parents)):
                    a, b = parents[i], parents[j]
                    if not self.adjacent(a, b):
                        keep.add((a, c))
                        keep.add((b, c))
        forbidden = self.forbidden
        for c in nodes:
            for a in list(self.pa[c]):
                # an arc whose reverse the knowledge rules out stays oriented (Tetrad orients
                # by knowledge before Meek's rules); otherwise only colliders keep theirs
                if (a, c) not in keep and (forbidden is None or not forbidden[c, a]):
                    self._snapshot(a)
                    self._snapshot(c)
                    self.add_undirected(a, c)
        self._meek(nodes)
        self._before = None
        return {v for v, (pa, ne) in before.items() if pa != self.pa[v] or ne != self.ne[v]}

    def _snapshot(self, v: int) -> None:
        if v not in self._before:
            self._before[v] = (frozenset(self.pa[v]), frozenset(self.ne[v]))

    def _meek(self, nodes) -> None:
        changed = True
        while changed:
            changed = False
            for a in nodes:
                for b in sorted(self.ne[a]):
                    # both orientations: b may lie outside ``nodes``
                    for u, v in ((a, b), (b, a)):
                        if self.forbidden is not None and self.forbidden[u, v]:
                            continue
                        if v in self.ne[u] and self._meek_orients(u, v):
                            self._snapshot(u)
                            self._snapshot(v)
                            self.add_arc(u, v)
                            changed = True

    def _meek_orients(self, a: int, b: int) -> bool:
        """Whether R1, R2 or R3 orients the undirected edge a - b as a -> b."""
        for c in self.pa[a]:  # R1: c -> a - b, c and b non-adjacent
            if not self.adjacent(c, b):
                return True
        if self.ch[a] & self.pa[b]:  # R2: a -> c -> b
            return True
        both = list(self.ne[a] & self.pa[b])  # R3: a - c -> b, a - d -> b, c, d non-adjacent
        for i in range(len(both)):
            for j in range(i + 1, len(both)):
                if not self.adjacent(both[i], both[j]):
                    return True
        return False
