"""Numba code written once for every ruleset, bound to one ruleset's kernel.

A template module (``core/batch_template.py``, the MCTS search in ``agents/mcts_template.py``)
is ordinary numba code that reaches the ruleset through two module globals, ``K`` (the
kernel) and ``H`` (the heuristic), and a template that declares ``L`` reaches the ruleset's
bound loops (``random_loops``) through it. Numba freezes globals into what it compiles and caches
neither functions passed as arguments nor closures reliably, so each ruleset gets its own
copy of the functions: ``bind(template, spec)`` makes a module named
``<ruleset package>.<template.BOUND_NAME>`` (``labyrinth_env.rulesets.team_edition.loops``)
whose functions are the template's own code objects with that module's globals, where ``K``
and ``H`` are the ruleset's. No source text is copied or rewritten; each bound function
compiles and caches on its own (``core.cache`` keys it on the template, the kernel and the
heuristic), and the module is importable by its name in any process once
``labyrinth_env`` is imported (``import labyrinth_env.rulesets.labyrinx.loops``).

Every ``parallel=True`` loop of a template is also bound serial, as ``<name>_serial``: the
same code with ``prange`` run as ``range``. Callers that gain nothing from threads (a small
batch, one numba thread) use it and never pay for compiling the parallel version, which
costs as much again as the serial one (the loop body is outlined, and everything it calls
linked and optimised once more).

In a child forked after the parent ran GNU OpenMP threads (numba's ``omp`` layer here),
whose first parallel region would abort the child, every bound module's parallel loop is
its serial twin (``forked_after_openmp``): a forked worker calling ``random_steps_batch``
(the benchmarks) or a vector env's loops runs them on its one thread instead of dying.

A ruleset without a heuristic gets ``core/no_heuristic.py`` bound as its ``H`` (the first
legal action), so the loops compile; the agents and the vector env refuse to use it as a
heuristic.
"""

from __future__ import annotations

import importlib
import importlib.abc
import importlib.machinery
import os
import sys
import threading
import types
from typing import Any, Protocol

import numba
from numba.core.caching import NullCache


class Bindable(Protocol):
    """What binding needs of a ruleset (``labyrinth_env.spec.RulesetSpec`` has it; core
    does not import the layers above it)."""

    package: str
    kernel: types.ModuleType
    heuristic: types.ModuleType | None


# bound name -> template module. ``random_loops`` are the loops with ``no_heuristic`` as
# ``H``: a vector env whose opponents are random or external uses them and never compiles
# the ruleset's heuristic (often a tenth of a ruleset's compile time).
TEMPLATES = {
    "loops": "labyrinth_env.core.batch_template",
    "random_loops": "labyrinth_env.core.batch_template",
    "search": "labyrinth_env.agents.mcts_template",
    "alphazero": "labyrinth_env.agents.alphazero_template",
    "analyze": "labyrinth_env.core.analyze_template",
    "no_heuristic": "labyrinth_env.core.no_heuristic",
}
WITHOUT_HEURISTIC = {"random_loops"}
_lock = threading.RLock()
_rulesets: dict[str, Bindable] = {}  # ruleset package -> spec, as the registry hands them over
_parallel_loops: dict[str, list[str]] = {}  # bound module name -> its parallel loops' names
_forked_after_openmp = False


def forked_after_openmp() -> bool:
    """True in a process forked after its parent ran GNU OpenMP threads: parallel regions
    would abort it, so the bound loops run serial (see the module docstring)."""
    return _forked_after_openmp


def _serial_after_fork() -> None:
    global _forked_after_openmp
    try:
        layer = numba.threading_layer()
    except ValueError:  # the parent never ran a parallel region: the child may
        return
    if layer != "omp":  # tbb and workqueue survive fork
        return
    _forked_after_openmp = True
    for name, keys in _parallel_loops.items():
        module = sys.modules.get(name)
        if module is not None:
            for key in keys:
                setattr(module, key, getattr(module, key + "_serial"))


if hasattr(os, "register_at_fork"):
    os.register_at_fork(after_in_child=_serial_after_fork)


def _is_dispatcher(value: Any) -> bool:
    return isinstance(value, numba.core.dispatcher.Dispatcher)


def bind(template: types.ModuleType, spec: Bindable, bound_name: str | None = None) -> types.ModuleType:
    """The module of ``template``'s functions compiled against ``spec``'s kernel and
    heuristic, named ``<ruleset package>.<bound_name>`` (default: the template's
    ``BOUND_NAME``; see ``TEMPLATES``), made once per process and name."""
    bound_name = bound_name or template.BOUND_NAME
    if TEMPLATES.get(bound_name) != template.__name__:
        raise ValueError(f"{bound_name!r} is not a binding of {template.__name__} (see TEMPLATES)")
    name = f"{spec.package}.{bound_name}"
    with _lock:
        module = sys.modules.get(name)
        if module is not None:
            return module
        package = importlib.import_module(spec.package)  # not yet imported in a fresh worker process
        if importlib.machinery.PathFinder.find_spec(name, package.__path__) is not None:
            raise RuntimeError(f"{name} is a file of the ruleset: the template {template.__name__} binds to that name")
        module = types.ModuleType(name, template.__doc__)
        namespace = module.__dict__
        namespace["__file__"] = template.__file__  # the code's source; core.cache reads the template from it
        namespace["__template__"] = template.__name__
        for key, value in vars(template).items():
            if not (key.startswith("__") and key.endswith("__")):
                namespace[key] = value
        namespace["K"] = spec.kernel
        for fn_name in namespace.get("INLINED_KERNEL", ()):
            namespace["inline_" + fn_name] = _inlined(getattr(spec.kernel, fn_name))
        if "H" in namespace:
            heuristic = None if bound_name in WITHOUT_HEURISTIC else spec.heuristic
            namespace["H"] = heuristic or bind(importlib.import_module(TEMPLATES["no_heuristic"]), spec)
        if "L" in namespace:  # a template that calls the ruleset's loops (the learner's features)
            namespace["L"] = bind(importlib.import_module(TEMPLATES["random_loops"]), spec, "random_loops")
        sys.modules[name] = module  # before the functions: numba's cache finds their globals by name
        try:
            for key, value in vars(template).items():
                if getattr(getattr(value, "py_func", value), "__module__", None) != template.__name__:
                    continue  # imported into the template (core kernels): shared as they are
                if _is_dispatcher(value):
                    namespace[key] = _rejit(value, _clone(value.py_func, namespace))
                    if value.targetoptions.get("parallel"):
                        serial = _clone(value.py_func, namespace, suffix="_serial")
                        namespace[key + "_serial"] = _rejit(value, serial, parallel=False)
                        _parallel_loops.setdefault(name, []).append(key)
                        if _forked_after_openmp:
                            namespace[key] = namespace[key + "_serial"]
                elif isinstance(value, types.FunctionType):
                    namespace[key] = _clone(value, namespace)
        except BaseException:
            del sys.modules[name]
            raise
        return module


def _inlined(kernel_fn: Any) -> Any:
    """A dispatcher of ``kernel_fn``'s code that numba inlines into its callers (see
    ``INLINED_KERNEL`` in core/batch_template.py); the function itself without numba."""
    if not _is_dispatcher(kernel_fn):
        return kernel_fn
    options = {**kernel_fn.targetoptions, "inline": "always"}
    return type(kernel_fn)(py_func=kernel_fn.py_func, locals={}, targetoptions=options)


def _rejit(dispatcher: Any, fn: types.FunctionType, parallel: bool | None = None) -> Any:
    """A dispatcher like ``dispatcher`` (its class and options, cached if it is) for ``fn``;
    ``parallel=False`` drops numba's parallel option."""
    options = dict(dispatcher.targetoptions)
    if parallel is False:
        options.pop("parallel", None)
    clone = type(dispatcher)(py_func=fn, locals={}, targetoptions=options)
    if not isinstance(dispatcher._cache, NullCache):  # ``cache`` is not among targetoptions
        clone.enable_caching()
    return clone


def _clone(fn: types.FunctionType, namespace: dict[str, Any], suffix: str = "") -> types.FunctionType:
    """``fn``'s code with ``namespace`` as its globals (named ``<name><suffix>``: numba's
    cache files are named after the function)."""
    clone = types.FunctionType(fn.__code__, namespace, fn.__name__ + suffix, fn.__defaults__, fn.__closure__)
    clone.__kwdefaults__ = fn.__kwdefaults__
    clone.__qualname__ = fn.__qualname__ + suffix
    clone.__doc__ = fn.__doc__
    clone.__annotations__ = dict(fn.__annotations__)
    return clone


def ruleset_packages() -> list[str]:
    """The packages of the rulesets the registry has handed over (``add_ruleset``)."""
    with _lock:
        return list(_rulesets)


def add_ruleset(spec: Bindable) -> None:
    """Make ``spec``'s bound templates importable by name (the registry hands over every
    ruleset it registers; a package already served keeps its first spec)."""
    with _lock:
        _rulesets.setdefault(spec.package, spec)


class BoundTemplateFinder(importlib.abc.MetaPathFinder, importlib.abc.Loader):
    """Makes ``<ruleset package>.<bound name>`` importable for every ruleset handed to
    ``add_ruleset``."""

    def find_spec(self, fullname: str, path: Any = None, target: Any = None) -> importlib.machinery.ModuleSpec | None:
        package, _, bound = fullname.rpartition(".")
        if bound not in TEMPLATES or package not in _rulesets:
            return None
        return importlib.machinery.ModuleSpec(fullname, self)

    def create_module(self, module_spec: importlib.machinery.ModuleSpec) -> types.ModuleType:
        package, _, bound = module_spec.name.rpartition(".")
        module = bind(importlib.import_module(TEMPLATES[bound]), _rulesets[package], bound)
        # the import machinery replaces sys.modules[name] with what create_module returns
        return module

    def exec_module(self, module: types.ModuleType) -> None:
        """Everything was done in ``create_module``."""


def install_finder() -> None:
    if not any(isinstance(f, BoundTemplateFinder) for f in sys.meta_path):
        sys.meta_path.append(BoundTemplateFinder())
