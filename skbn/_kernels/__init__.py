# SPDX-License-Identifier: BSD-3-Clause
"""Numba kernels: counting, local scores, CI statistics, search moves. No estimator logic.

Importing this package first installs :class:`_KernelCacheLocator` in front of numba's cache
locators, so every ``@njit(cache=True)`` kernel below is cached

* under one key for all kernel sources together: numba keys a cached kernel by its own file
  only, so a kernel that links a function of another module (``ci`` links ``discrete``'s
  ``stratum_index``) would otherwise keep the old copy after that module changes;
* in a directory of its own per key, outside the installed package: ``NUMBA_CACHE_DIR`` when
  set, else the user's cache directory (``~/.cache/skbn`` on Linux). Installs of different
  skbn versions never share files, and ``pip uninstall skbn`` leaves nothing behind in
  site-packages. Deleting that directory clears the cache (:func:`kernel_cache_dir` names it).

Where that directory cannot be written, numba's own locators apply as before.

It also sets how numba's threads wait and how many a joblib or Dask worker starts
(:mod:`skbn._kernels._threads`), which must happen before numba is imported.
"""

from __future__ import annotations

import hashlib
import os
import sys
from pathlib import Path

from skbn._kernels import _threads

_threads.configure()

_HERE = Path(__file__).resolve().parent


def _sources_key() -> str:
    """Hash of every kernel source file and of numba's version."""
    import numba

    digest = hashlib.sha256(numba.__version__.encode())
    digest.update(sys.version.encode())
    for path in sorted(_HERE.glob("*.py")):
        digest.update(path.name.encode())
        digest.update(path.read_bytes())
    return digest.hexdigest()[:20]


def _cache_root() -> Path:
    """``NUMBA_CACHE_DIR`` if set, else the platform's user cache directory for skbn."""
    from numba.core import config

    if config.CACHE_DIR:
        return Path(config.CACHE_DIR)
    if sys.platform == "win32":
        base = Path(os.environ.get("LOCALAPPDATA", Path.home() / "AppData" / "Local"))
    elif sys.platform == "darwin":
        base = Path.home() / "Library" / "Caches"
    else:
        base = Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache")
    return base / "skbn"


def kernel_cache_dir() -> Path:
    """Directory holding the compiled kernels of this installation.

    Returns
    -------
    pathlib.Path

    Examples
    --------
    >>> kernel_cache_dir().name.startswith("skbn-kernels-")
    True
    """
    return _cache_root() / f"skbn-kernels-{_KEY}"


def _install_locator() -> None:
    from numba.core import caching

    impl = getattr(caching, "CacheImpl", None) or getattr(caching, "_CacheImpl", None)
    base = getattr(caching, "_CacheLocator", None)
    if impl is None or base is None:  # a numba whose caching layout we do not know
        return

    class _KernelCacheLocator(base):
        """Cache skbn's kernels under one key for all kernel sources (see the package doc)."""

        def __init__(self, py_func, py_file):
            self._lineno = py_func.__code__.co_firstlineno
            self._path = str(kernel_cache_dir())

        def get_cache_path(self):
            return self._path

        def get_source_stamp(self):
            return _KEY

        def get_disambiguator(self):
            return str(self._lineno)

        @classmethod
        def from_function(cls, py_func, py_file):
            try:
                if Path(py_file).resolve().parent != _HERE:
                    return None
                self = cls(py_func, py_file)
                self.ensure_cache_path()
            except OSError:
                return None
            return self

    if not any(c.__name__ == "_KernelCacheLocator" for c in impl._locator_classes):
        impl._locator_classes.insert(0, _KernelCacheLocator)


_KEY = _sources_key()
_install_locator()
