"""Where compiled kernels are cached, and when a cached kernel is still the right one.

Numba's own cache stamps a function with its own file: edit a kernel that a cached loop
calls, or a component table a kernel froze in, and the loop runs the old code from the
cache. Here every ``@njit(cache=True)`` function compiled against labyrinth_env (its own
kernels, a ruleset package, a template bound to a ruleset) is stamped with the *contents*
of every source file it can compile in: its module and, transitively, every module of the
same project that it imports or holds in its globals (a bound template's ``K`` and ``H``),
plus the versions of numba, llvmlite and numpy and numba's optimisation settings. Any edit
to any of those files gives a new stamp, so stale code is never loaded; nothing depends on
file times or paths, so a fresh clone, a second checkout or a CI worker with the same
sources loads what another one compiled.

Cache root, first that is set: ``$LABYRINTH_CACHE_DIR``; ``$NUMBA_CACHE_DIR/labyrinth_env``;
``$XDG_CACHE_HOME/labyrinth_env/numba`` (``~/.cache/...``). Each module's functions live in
``<root>/<module>/<stamp>/``; a module keeps its ``KEEP_STAMPS`` most recently used stamps. A root that cannot be
written is replaced by a temporary folder for this process, with one warning: the kernels
then compile in every process but run the same. A stamp folder that exists but cannot be
written (a read-only cache, shared or shipped) is still read: its kernels load, and only
those missing from it compile in the process (one warning, at the first that cannot be
saved).

Damage is caught, not obeyed: each compiled file has a SHA-256 beside it
(``<file>.sha256``, written after the file; numba's own files are unchanged, so an older
checkout sharing the folder still reads them), checked before the file is unpickled; a
garbage index, a file cut short or changed, or any other failure to load or rebuild a
cached kernel (an unpickling error, an LLVM bitcode error, a payload of the wrong shape)
is reported in one warning per process and the kernel compiles again, overwriting the
damaged entry. A compiled file without a digest (written before digests, or by an older
checkout) is loaded as numba loads it and gets its digest then.

``install()`` (called when ``labyrinth_env.core`` is imported, before any kernel is defined)
puts the locator first in numba's list; functions that do not depend on labyrinth_env keep
numba's own caching.
"""

from __future__ import annotations

import ast
import atexit
import contextlib
import hashlib
import os
import pickle
import re
import shutil
import sys
import tempfile
import time
import warnings
from functools import cache
from pathlib import Path
from types import ModuleType
from typing import Any

import llvmlite
import numba
import numpy as np
from numba.core import caching

PACKAGE = "labyrinth_env"
# Stamps kept per module, the most recently used: the checkouts (worktrees, branches, CI)
# of different versions on one machine share the cache; with 3 they evicted each other and
# compiled again at every switch. A large kernel's stamp is 10-45 MB.
KEEP_STAMPS = 8
DIGEST_SUFFIX = ".sha256"
_fallback_root: Path | None = None
_warned: set[str] = set()  # what this process has warned about once: "corrupt", "read-only"
_pruned: set[Path] = set()  # the stamp folders this process has marked used and pruned beside


def _warn_once(kind: str, message: str) -> None:
    if kind not in _warned:
        _warned.add(kind)
        warnings.warn(message, RuntimeWarning, stacklevel=3)


def cache_root() -> Path:
    """The folder under which compiled kernels are kept (see the module docstring)."""
    if _fallback_root is not None:
        return _fallback_root
    return _configured_root()


# numba's settings that change the compiled code (the optimisation level, the CPU target)
KERNEL_SETTINGS = ("NUMBA_OPT", "NUMBA_CPU_NAME", "NUMBA_CPU_FEATURES")


def worker_env() -> dict[str, str]:
    """Environment variables that give a worker process (a Ray task's ``runtime_env``, a
    pool started elsewhere) this process's kernel cache: on this machine, or on a cluster
    whose nodes share the folder, the worker then loads what was compiled here. (Nodes that
    do not share it: ``labyrinth compile --import`` an exported archive on each.) Numba's
    settings that its kernels are keyed on go along when set here (``.ci/run``'s
    ``NUMBA_OPT=1``): a worker that did not inherit them would compile its own."""
    env = {"LABYRINTH_CACHE_DIR": str(cache_root())}
    for name in KERNEL_SETTINGS:
        if os.environ.get(name):
            env[name] = os.environ[name]
    return env


def _configured_root() -> Path:
    if os.environ.get("LABYRINTH_CACHE_DIR"):
        return Path(os.environ["LABYRINTH_CACHE_DIR"])
    if os.environ.get("NUMBA_CACHE_DIR"):
        return Path(os.environ["NUMBA_CACHE_DIR"]) / PACKAGE
    base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    return Path(base) / PACKAGE / "numba"


def _use_fallback_root(failed: Path, exc: OSError) -> None:
    global _fallback_root
    _fallback_root = Path(tempfile.mkdtemp(prefix="labyrinth_env-numba-"))
    atexit.register(shutil.rmtree, _fallback_root, True)
    warnings.warn(
        f"labyrinth_env: the kernel cache folder {failed} cannot be written ({exc.strerror or exc}); "
        "kernels compile in this process only (set LABYRINTH_CACHE_DIR to a writable folder)",
        RuntimeWarning,
        stacklevel=4,
    )


# --- the source closure ----------------------------------------------------------------
@cache
def _imported_names(path: str, stamp: tuple[int, int]) -> tuple[tuple[str, int, tuple[str, ...]], ...]:
    """(module, relative level, names) of the import statements a module runs when it is
    imported: its top level, in ``if``/``try`` blocks too, but not inside functions or
    classes (numba code reaches only module globals) nor under ``if TYPE_CHECKING``."""
    del stamp  # part of the memo key: a file edited while the process runs is read again
    found = []
    todo = list(ast.parse(Path(path).read_bytes(), filename=path).body)
    while todo:
        node = todo.pop()
        if isinstance(node, ast.Import):
            found += [(alias.name, 0, ()) for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            found.append((node.module or "", node.level, tuple(alias.name for alias in node.names)))
        elif isinstance(node, ast.If):
            if not (isinstance(node.test, ast.Name) and node.test.id == "TYPE_CHECKING"):
                todo += node.body + node.orelse
        elif isinstance(node, ast.Try):
            todo += node.body + node.orelse + node.finalbody + [n for h in node.handlers for n in h.body]
    return tuple(found)


def _file_of(module: ModuleType) -> str | None:
    path = getattr(module, "__file__", None)
    return path if path and path.endswith(".py") and os.path.exists(path) else None


def _find(name: str) -> ModuleType | str | None:
    """The module ``name`` if it is imported, else its source file found through its
    parent package's ``__path__`` (nothing is imported here)."""
    if name in sys.modules:
        return sys.modules[name]
    parent, _, child = name.rpartition(".")
    package = sys.modules.get(parent)
    for folder in getattr(package, "__path__", None) or ():
        for candidate in (Path(folder) / f"{child}.py", Path(folder) / child / "__init__.py"):
            if candidate.exists():
                return str(candidate)
    return None


def _absolute(module_name: str, is_package: bool, target: str, level: int) -> str:
    if level == 0:
        return target
    base = module_name.split(".")
    base = base if is_package else base[:-1]
    base = base[: len(base) - (level - 1)]
    return ".".join([*base, target] if target else base)


def _references(module_name: str, module: ModuleType | None, path: str, projects: set[str]) -> set[str]:
    """Names of the project modules one module's compiled code may reach: what its file
    imports and the modules its globals hold or come from (a bound template's ``K``
    and ``H``)."""
    names: set[str] = set()
    is_package = os.path.basename(path) == "__init__.py"
    st = os.stat(path)
    for target, level, imported in _imported_names(path, (st.st_mtime_ns, st.st_size)):
        absolute = _absolute(module_name, is_package, target, level)
        if absolute.split(".")[0] not in projects:
            continue
        submodules = [f"{absolute}.{n}" for n in imported if n != "*" and _find(f"{absolute}.{n}") is not None]
        names.update(submodules)
        if not imported or len(submodules) < len(imported):
            names.add(absolute)  # ``import X``, or names defined in X itself
    if module is not None:
        for key, value in list(vars(module).items()):
            if key.startswith("__") and key.endswith("__"):
                # the import system's ``__loader__``, ``__spec__``: set on a module bound
                # through the import system, not on one bound from another's ``bind``; no
                # compiled code reaches them, and they would make the stamp depend on how
                # (in which order) the process imported its bound modules
                continue
            if isinstance(value, ModuleType):
                names.add(value.__name__)
            else:
                origin = getattr(getattr(value, "py_func", value), "__module__", None)
                if isinstance(origin, str):
                    names.add(origin)
    return names


def source_closure(module_name: str) -> dict[str, str]:
    """Module name -> source file of every module whose code ``module_name``'s numba
    functions can compile in: the module itself and, transitively, the modules of
    labyrinth_env and of the module's own top-level package that it reaches."""
    projects = {PACKAGE, module_name.split(".")[0]}
    closure: dict[str, str] = {}
    todo = [module_name]
    while todo:
        name = todo.pop()
        if name in closure or name.split(".")[0] not in projects:
            continue
        found = _find(name)
        module = found if isinstance(found, ModuleType) else None
        path = _file_of(module) if module is not None else found
        if not path:
            continue
        closure[name] = path
        todo.extend(_references(name, module, path, projects))
    return closure


def closure_stamp(module_name: str) -> str:
    """SHA-256 of the closure's contents (by module name, so not tied to where the files
    lie) with the compiler's versions and optimisation settings."""
    digest = hashlib.sha256()
    settings = (numba.__version__, llvmlite.__version__, np.__version__, numba.config.OPT, numba.config.BOUNDSCHECK)
    digest.update(repr(settings).encode())
    for name, path in sorted(source_closure(module_name).items()):
        digest.update(name.encode() + b"\0")
        digest.update(Path(path).read_bytes())
        digest.update(b"\0")
    return digest.hexdigest()


# --- the numba locator -----------------------------------------------------------------
class SourceClosureLocator(caching._CacheLocator):
    """Numba cache locator for functions compiled against labyrinth_env (see the module
    docstring); ``from_function`` returns None for any other function."""

    _stamps: dict[str, str] = {}

    def __init__(self, py_func: Any, py_file: str, module_name: str, stamp: str, root: Path | None = None) -> None:
        self._py_file = py_file
        self._lineno = py_func.__code__.co_firstlineno
        self._stamp = stamp
        self._cache_path = str((root or cache_root()) / module_name / stamp[:20])
        self.writable = True

    def ensure_cache_path(self) -> None:
        if not self.writable:  # a read-only stamp folder: what is missing compiles unsaved
            raise PermissionError(13, "read-only kernel cache", self._cache_path)
        super().ensure_cache_path()

    def get_cache_path(self) -> str:
        return self._cache_path

    def get_source_stamp(self) -> str:
        return self._stamp

    def get_disambiguator(self) -> str:
        return str(self._lineno)

    @classmethod
    def from_function(cls, py_func: Any, py_file: str) -> SourceClosureLocator | None:
        module_name = getattr(py_func, "__module__", None)
        if not module_name or not os.path.exists(py_file):
            return None
        if module_name.split(".")[0] != PACKAGE:
            closure = source_closure(module_name)
            if not any(name.split(".")[0] == PACKAGE for name in closure):
                return None  # not compiled against labyrinth_env: numba's own caching
        stamp = cls._stamps.get(module_name)
        if stamp is None:
            stamp = cls._stamps[module_name] = closure_stamp(module_name)
        self = cls(py_func, py_file, module_name, stamp, _configured_root())
        try:
            self.ensure_cache_path()
        except OSError as exc:
            if os.path.isdir(self._cache_path) and os.access(self._cache_path, os.R_OK | os.X_OK):
                self.writable = False  # read what is there (see the module docstring)
                return self
            if _fallback_root is None:
                _use_fallback_root(Path(self._cache_path), exc)
            self = cls(py_func, py_file, module_name, stamp)
            self.ensure_cache_path()
        _prune(Path(self._cache_path))
        return self


def _prune(current: Path) -> None:
    """Mark ``current`` used (its time) and keep the ``KEEP_STAMPS`` most recently used
    stamps of its module: once per process and folder."""
    if current in _pruned:
        return
    _pruned.add(current)
    try:
        os.utime(current)  # a checkout that only loads keeps its stamp as one that compiles does
        siblings = sorted(
            (p for p in current.parent.iterdir() if p.is_dir() and p != current),
            key=lambda p: p.stat().st_mtime,
            reverse=True,
        )
    except OSError:
        return
    for old in siblings[KEEP_STAMPS - 1 :]:
        shutil.rmtree(old, ignore_errors=True)


# --- damage: digests beside the compiled files, and loads that fail are recompiled ----------
class CorruptCacheError(Exception):
    """A cache file that cannot be what numba wrote (garbage, cut short, changed)."""


class CheckedCacheFile(caching.IndexDataCacheFile):
    """Numba's index and data files, with a SHA-256 of each data file beside it."""

    def _load_index(self) -> dict:
        try:
            overloads = super()._load_index()
        except Exception as exc:  # any garbage: unpickling, EOF, wrong shape
            raise CorruptCacheError(f"index {self._index_path}: {type(exc).__name__}: {exc}") from exc
        # a changed byte can leave a readable index naming files numba never writes
        pattern = re.escape(self._data_name_pattern).replace(re.escape("{number:d}"), r"[1-9][0-9]*")
        if not isinstance(overloads, dict) or not all(
            isinstance(name, str) and re.fullmatch(pattern, name) for name in overloads.values()
        ):
            raise CorruptCacheError(f"index {self._index_path}: it names files that are not this function's")
        return overloads

    def save(self, key: Any, data: Any) -> None:
        try:
            overloads = self._load_index()
        except CorruptCacheError:
            overloads = {}  # start the index again: every entry in it compiles anew
        data_name = overloads.get(key)
        if data_name is None:
            existing = set(overloads.values())
            data_name = next(n for i in range(1, len(existing) + 2) if (n := self._data_name(i)) not in existing)
            overloads[key] = data_name
            self._save_index(overloads)
        self._save_data(data_name, data)

    def _save_data(self, name: str, data: Any) -> None:
        payload = self._dump(data)
        path = self._data_path(name)
        with self._open_for_write(path) as f:
            f.write(payload)
        self._save_digest(path, payload)

    def _save_digest(self, path: str, payload: bytes) -> None:
        with self._open_for_write(path + DIGEST_SUFFIX) as f:
            f.write(hashlib.sha256(payload).hexdigest().encode())

    def _load_data(self, name: str) -> Any:
        path = self._data_path(name)
        for attempt in range(2):
            with open(path, "rb") as f:
                payload = f.read()
            try:
                with open(path + DIGEST_SUFFIX, "rb") as f:
                    digest = f.read().decode("ascii", "replace").strip()
            except FileNotFoundError:
                digest = None
            if digest is None or digest == hashlib.sha256(payload).hexdigest():
                break
            if attempt == 0:
                time.sleep(0.2)  # another process may be between writing a file and its digest
        else:
            raise CorruptCacheError(f"{path}: its content does not match its SHA-256 (cut short or changed)")
        try:
            data = pickle.loads(payload)
        except Exception as exc:
            raise CorruptCacheError(f"{path}: {type(exc).__name__}: {exc}") from exc
        if digest is None:  # written before digests (or by an older checkout): add one
            with contextlib.suppress(OSError):
                self._save_digest(path, payload)
        return data


def _ours(cache: Any) -> bool:
    return isinstance(getattr(cache._impl, "_locator", None), SourceClosureLocator)


def _load_overload(self: Any, sig: Any, target_context: Any) -> Any:
    if not _ours(self):
        return _numba_load_overload(self, sig, target_context)
    try:
        return _numba_load_overload(self, sig, target_context)
    except Exception as exc:  # a damaged entry must not stop make()/reset()
        _warn_once(
            "corrupt",
            f"labyrinth_env: a damaged kernel cache entry was found and is compiled again ({exc}); "
            "any other damaged entry in this process is recompiled without another warning",
        )
        return None


def _save_overload(self: Any, sig: Any, data: Any) -> None:
    if not _ours(self):
        return _numba_save_overload(self, sig, data)
    try:
        _numba_save_overload(self, sig, data)
    except OSError as exc:
        _warn_once(
            "read-only",
            f"labyrinth_env: the kernel cache folder {self._cache_path} cannot be written "
            f"({exc.strerror or exc}): kernels found there are loaded, the others compile in this process "
            "(set LABYRINTH_CACHE_DIR to a writable folder to keep them)",
        )
    return None


def _cache_init(self: Any, py_func: Any) -> None:
    _numba_cache_init(self, py_func)
    if _ours(self):
        self._cache_file.__class__ = CheckedCacheFile


_numba_load_overload = caching.Cache.load_overload
_numba_save_overload = caching.Cache.save_overload
_numba_cache_init = caching.Cache.__init__


def install() -> None:
    """Put the locator first in numba's list, and the checks above on numba's per-function
    caches (for functions this locator places only), once."""
    classes = caching.CacheImpl._locator_classes
    if SourceClosureLocator not in classes:
        classes.insert(0, SourceClosureLocator)
    if caching.Cache.load_overload is not _load_overload:
        caching.Cache.load_overload = _load_overload
        caching.Cache.save_overload = _save_overload
        caching.Cache.__init__ = _cache_init
