"""One copy of a template (``batch_template.py``, ``mcts_template.py``) per ruleset,
compiled and cached like any module.

``batch_module("team_edition")`` returns the module of batched loops bound to that
ruleset's ``kernel`` and ``heuristic``; ``specialise(template, prefix, ruleset)`` does the
same for any template written against the same two import lines. The copy is written
next to the numba cache (a folder keyed on the compiled sources, see
``labyrinth_env.core``) and rewritten only when the template changes, so numba's
file-based cache stays valid between processes.
"""

from __future__ import annotations

import importlib.util
import os
import sys
import tempfile
from functools import cache
from pathlib import Path
from types import ModuleType

import numba

_TEMPLATE = Path(__file__).with_name("batch_template.py")
_KERNEL_LINE = "from labyrinth_env.rulesets.team_edition import kernel as K  # batching: kernel"
_HEURISTIC_LINE = "from labyrinth_env.rulesets.team_edition import heuristic as H  # batching: heuristic"


def _folder() -> Path:
    base = Path(numba.config.CACHE_DIR) if numba.config.CACHE_DIR else Path(tempfile.gettempdir()) / "labyrinth_env"
    folder = base / "batch_modules"
    folder.mkdir(parents=True, exist_ok=True)
    return folder


@cache
def batch_module(ruleset: str) -> ModuleType:
    """The batched loops (random play, vector env steps, masks and observations for many
    games) for ``labyrinth_env.rulesets.<ruleset>``."""
    return specialise(_TEMPLATE, "batch", ruleset)


@cache
def specialise(template: Path, prefix: str, ruleset: str) -> ModuleType:
    """The module ``template`` with its ``K``/``H`` import lines pointed at
    ``labyrinth_env.rulesets.<ruleset>``, imported as ``labyrinth_env._<prefix>_<ruleset>``."""
    text = Path(template).read_text()
    if _KERNEL_LINE not in text or _HEURISTIC_LINE not in text:
        raise RuntimeError(f"{Path(template).name} lost its kernel/heuristic import lines")
    package = f"labyrinth_env.rulesets.{ruleset}"
    text = text.replace(_KERNEL_LINE, f"from {package} import kernel as K")
    text = text.replace(_HEURISTIC_LINE, f"from {package} import heuristic as H")
    path = _folder() / f"{prefix}_{ruleset}.py"
    if not path.exists() or path.read_text() != text:
        # write then rename, so a process compiling in parallel never reads half a file
        fd, tmp = tempfile.mkstemp(dir=path.parent, suffix=".tmp")
        with os.fdopen(fd, "w") as fh:
            fh.write(text)
        os.replace(tmp, path)
    name = f"labyrinth_env._{prefix}_{ruleset}"
    spec = importlib.util.spec_from_file_location(name, path)
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module  # numba re-imports it by name when loading cached code
    spec.loader.exec_module(module)
    return module
