# SPDX-License-Identifier: BSD-3-Clause
"""How numba's threads wait and how many there are; set before numba is imported.

Measured on 2 cores (``examples/benchmarks/results/threading/``): with OpenMP's default
active wait, numba's idle threads spin for the next parallel region; beside one busy process
HillClimb on ALARM took 2x-120x its quiet time and BOSS 3x-7x, while one thread, or threads
that sleep when idle, stayed within 1.5x. skbn therefore asks OpenMP for a passive wait
(``OMP_WAIT_POLICY``, and ``KMP_BLOCKTIME=0`` for Intel's runtime) unless the user chose one.

Inside a joblib (loky) or Dask worker each process starts its own numba threads; those
frameworks say how many threads a worker should use in ``OMP_NUM_THREADS`` (loky: cores
over workers; Dask's nanny: 1). Unless ``NUMBA_NUM_THREADS`` is set, numba's threads are
capped to that number, so workers x threads <= cores.

:func:`parallel_pays` says when a kernel call is large enough for threads to pay; below it
the kernel's serial twin runs. Results do not depend on it.
"""

from __future__ import annotations

import os
import sys

#: Rows x variables below which the discrete score kernels run on one thread (the
#: environment variable ``SKBN_SERIAL_WORK`` overrides it; 0 means always all threads). On
#: 2 cores two threads gained nothing over one below ~4 million (HillClimb on ALARM at
#: 10,000 and 100,000 rows, ANDES at 10,000; examples/benchmarks/results/threading/).
SERIAL_WORK = float(os.environ.get("SKBN_SERIAL_WORK", 4_000_000))


def _omp_cap() -> int | None:
    value = os.environ.get("OMP_NUM_THREADS", "").split(",")[0].strip()
    return int(value) if value.isdigit() and int(value) > 0 else None


def configure() -> None:
    """Set the wait policy and the thread cap (a no-op for what the user set)."""
    os.environ.setdefault("OMP_WAIT_POLICY", "PASSIVE")
    os.environ.setdefault("KMP_BLOCKTIME", "0")
    cap = _omp_cap()
    if cap is None or "NUMBA_NUM_THREADS" in os.environ:
        return
    cap = min(cap, os.cpu_count() or cap)
    if "numba" not in sys.modules:
        os.environ["NUMBA_NUM_THREADS"] = str(cap)
        return
    import numba  # imported before skbn: cap this thread (loky runs tasks in the main one)

    if cap < numba.get_num_threads():
        numba.set_num_threads(cap)


def parallel_pays(work: float) -> bool:
    """Whether a kernel call of ``work`` rows x variables should run on numba's threads.

    Below :data:`SERIAL_WORK` the serial twin of a parallel kernel runs instead: waking
    sleeping threads costs more than they save, and a parallel kernel that is never called
    is never compiled (a first small fit compiles only the serial twins).
    """
    return work >= SERIAL_WORK
