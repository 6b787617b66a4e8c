"""Kernels and tables shared by every ruleset: RNG and dice, board geometry, tile
rotation, reachability, and the fixed-width event buffer.

Importing this package points numba's on-disk cache at a folder named after a hash of
the package's compiled sources: ``core/`` and each ruleset's ``kernel.py``,
``heuristic.py`` and ``components.py`` (unless ``NUMBA_CACHE_DIR`` is set). Numba
invalidates a cached function only when its own file changes, not when a kernel it calls
or a component table it froze in changes; keying the cache on those sources means an
edited kernel is never run from a stale cache, while editing the Python-only layers
(envs, CLI) recompiles nothing.
"""

from __future__ import annotations

import hashlib
import os
import shutil
from pathlib import Path

import numba


def _source_keyed_cache_dir() -> Path:
    package = Path(__file__).resolve().parent.parent
    digest = hashlib.sha256()
    compiled = sorted(package.glob("core/*.py"))
    for name in ("kernel.py", "heuristic.py", "components.py"):
        compiled += sorted(package.glob(f"rulesets/*/{name}"))
    for path in compiled:
        digest.update(path.relative_to(package).as_posix().encode())
        digest.update(path.read_bytes())
    root = package / "__pycache__" / "numba"
    current = root / digest.hexdigest()[:16]
    if root.is_dir():
        for old in root.iterdir():  # caches of earlier versions of the sources
            if old != current:
                shutil.rmtree(old, ignore_errors=True)
    return current


if not os.environ.get("NUMBA_CACHE_DIR"):
    numba.config.CACHE_DIR = str(_source_keyed_cache_dir())
