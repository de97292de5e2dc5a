# SPDX-License-Identifier: BSD-3-Clause
"""Kernels loaded from numba's on-disk cache give the answers of freshly compiled ones.

Several processes share one fresh cache directory and compile the kernels in different
orders, as a user's sessions do; a last process then runs every workload with every kernel
loaded from that cache. Its results must equal the fresh results of the earlier processes
and the slow references. On the code before the sorting kernels (numba's quicksort closures
shared one mangled name between a cached sort and a cached argsort), the last process's
GSquare on the sorted path returned 0.0 and BOSS built other trees.
"""

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

WORKLOADS = Path(__file__).with_name("kernel_cache_workloads.py")

#: Processes writing the shared cache, each compiling its workloads in this order. The
#: first is the README's first run; the orders differ so that numba's per-process counters
#: give the same closures different numbers in different processes.
SCHEDULE = [
    ["hill_climb"],
    ["g2_sorted", "g2_dense"],
    ["sorting", "boss_gaussian"],
    ["g2_renumbered", "family_sorted", "boss_discrete"],
    ["pc_discrete", "g2_sorted"],
]
ALL = [
    "hill_climb",
    "g2_sorted",
    "g2_dense",
    "sorting",
    "boss_gaussian",
    "g2_renumbered",
    "family_sorted",
    "boss_discrete",
    "pc_discrete",
]


def _run(cache_dir, out, names):
    env = {**os.environ, "NUMBA_CACHE_DIR": str(cache_dir)}
    subprocess.run(
        [sys.executable, str(WORKLOADS), str(out), *names],
        env=env,
        check=True,
        timeout=600,
        capture_output=True,
    )
    return json.loads(out.read_text(encoding="utf-8"))


def _close(a, b):
    if isinstance(a, list):
        return len(a) == len(b) and all(_close(x, y) for x, y in zip(a, b))
    if isinstance(a, float):
        return a == pytest.approx(b, rel=1e-9, abs=1e-9)
    return a == b


@pytest.mark.slow
def test_kernels_loaded_from_a_shared_cache_match_fresh_compiles(tmp_path):
    cache = tmp_path / "numba-cache"
    fresh = {}
    for k, names in enumerate(SCHEDULE):
        run = _run(cache, tmp_path / f"run{k}.json", names)
        for name, res in run["results"].items():
            fresh.setdefault(name, res["result"])
            assert res["result"] == fresh[name], f"{name} differs between two processes"
            if res["reference"] is not None:
                assert _close(res["result"], res["reference"]), f"{name} differs from reference"
    assert sorted(fresh) == sorted(ALL)

    last = _run(cache, tmp_path / "last.json", ALL)
    assert last["compiled"] == 0 and last["loaded"] >= 10, "the last process must load only"
    for name in ALL:
        res = last["results"][name]
        assert res["result"] == fresh[name], f"{name}: cached kernels differ from fresh ones"
        if res["reference"] is not None:
            assert _close(res["result"], res["reference"]), f"{name} differs from reference"
