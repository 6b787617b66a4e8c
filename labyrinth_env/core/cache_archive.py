"""The kernel cache in one file, to compile once per machine (or once for many): ``labyrinth
compile --export FILE`` packs the compiled kernels of the installed sources, ``labyrinth
compile --import FILE`` unpacks them into this machine's cache, so a fresh clone loads
instead of compiling.

The archive is a gzipped tar laid out as the cache root itself (``<module>/<stamp>/<files>``,
see ``core.cache``) with ``MANIFEST.json`` first, so an unpacked copy also serves as it is
(``LABYRINTH_CACHE_DIR`` pointing at it, read-only allowed). The manifest names what the
code was compiled for and from: the Python, numba, llvmlite and numpy versions, numba's CPU
target (LLVM triple, CPU name and features: code built for one CPU may crash on another),
each module's source stamp and each file's SHA-256. An import refuses, in one line and
before writing anything, an archive built for another Python, numba or CPU target, from
other sources than the installed ones, or damaged (a file that does not match its digest,
a cut or garbled archive, a name outside the layout); files are unpacked into a folder of
their own inside the cache root and moved into place only once all of them check.

Numba's cache files are pickles, which run code when loaded: import archives only from a
source you would run code from (your own ``--export``, your build machine).

A portable archive is one compiled with ``NUMBA_CPU_NAME=generic`` (numba then targets no
particular CPU features), and it is used where the same setting is made; the speed that
costs is in ``docs/benchmarks.md`` ("A kernel cache for another machine").
"""

from __future__ import annotations

import hashlib
import importlib
import io
import json
import os
import re
import shutil
import sys
import tarfile
import tempfile
from collections.abc import Iterable, Sequence
from pathlib import Path
from typing import Any

import llvmlite
import numba
import numpy as np

from labyrinth_env.core.cache import SourceClosureLocator, cache_root, closure_stamp, source_closure

MANIFEST = "MANIFEST.json"
FORMAT = 1
STAMP_CHARS = 20  # the stamp folder's name: the first characters of the closure stamp (core.cache)
_MEMBER = re.compile(rf"[A-Za-z_][A-Za-z0-9_.]*/[0-9a-f]{{{STAMP_CHARS}}}/[A-Za-z0-9_.<>-]+")
# numba's files of one function: ``<function>-<line>.py311.nbi`` (its index), ``...py311.<n>.nbc``
# (a compiled overload) and ``core.cache``'s ``.sha256`` beside each compiled file
_CACHE_FILE = re.compile(r"(?P<stem>.+\.py\d+)(\.\d+\.nbc(\.sha256)?|\.nbi)")


class ArchiveError(ValueError):
    """An archive that is not imported: the message says why in one line."""


def target() -> dict[str, str]:
    """What compiled code here depends on besides its sources: numba keys its own cache
    entries on the same CPU target (triple, CPU name, features)."""
    from numba.core.registry import cpu_target

    triple, cpu_name, features = cpu_target.target_context.codegen().magic_tuple()
    impl = sys.implementation.name
    return {
        "python": f"{impl}-{sys.version_info.major}.{sys.version_info.minor}",
        "numba": numba.__version__,
        "llvmlite": llvmlite.__version__,
        "numpy": np.__version__,
        "triple": triple,
        "cpu_name": cpu_name,
        "cpu_features": features,
    }


def installed_stamp(module_name: str) -> str | None:
    """The stamp the installed sources give ``module_name`` (None if it cannot be imported
    here: a ruleset that is not installed or registered): the one the cache locator gave
    its functions when they were defined (a bound template's closure, read while it was
    being bound, is what its folder is named after)."""
    if module_name.split(".")[0] not in _project_packages():
        return None  # a name from an archive is imported only if it is this project's
    try:
        importlib.import_module(module_name)
    except Exception:  # any import failure means: not these sources
        return None
    return SourceClosureLocator._stamps.get(module_name) or closure_stamp(module_name)


def _project_packages() -> set[str]:
    """Top-level packages whose modules hold kernels: labyrinth_env's and each registered
    ruleset's."""
    from labyrinth_env.core.templates import ruleset_packages  # filled by the registry: core never asks it

    return {"labyrinth_env", *(package.split(".")[0] for package in ruleset_packages())}


def _cached_modules(root: Path) -> list[str]:
    try:
        return sorted(p.name for p in root.iterdir() if p.is_dir() and not p.name.startswith("."))
    except FileNotFoundError:
        return []


def _selected_modules(root: Path, packages: Iterable[str]) -> list[str]:
    """The cached modules of ``packages`` (ruleset packages) and every project module they
    compile in (core kernels, templates)."""
    cached = _cached_modules(root)
    wanted: set[str] = set()
    for package in packages:
        for name in cached:
            ours = name == package or name.startswith(package + ".")
            if ours and installed_stamp(name) is not None:
                wanted.add(name)
                wanted.update(source_closure(name))
                template = getattr(sys.modules[name], "__template__", None)  # a bound template's own
                if template is not None:
                    wanted.update(source_closure(template))
    return [name for name in cached if name in wanted]


def _digest(path: Path) -> str:
    h = hashlib.sha256()
    with path.open("rb") as f:
        for block in iter(lambda: f.read(1 << 20), b""):
            h.update(block)
    return h.hexdigest()


def export_archive(out: Path, packages: Sequence[str], root: Path | None = None) -> dict[str, Any]:
    """Write the cached kernels of ``packages`` (and what they compile in), as the installed
    sources stamp them, to ``out``; returns the manifest. ``ArchiveError`` if the cache
    holds none of them."""
    root = root or cache_root()
    modules: dict[str, str] = {}
    files: dict[str, str] = {}
    for name in _selected_modules(root, packages):
        stamp = installed_stamp(name)
        folder = root / name / stamp[:STAMP_CHARS] if stamp else None
        if folder is None or not folder.is_dir():
            continue  # compiled only from other sources (another checkout): not these
        names = sorted(p.name for p in folder.iterdir() if p.is_file() and _CACHE_FILE.fullmatch(p.name))
        # a module none of whose functions compiled (a template: only its bound copies do)
        # still has its folder, which a read-only copy must hold for the module to import
        modules[name] = stamp
        for file_name in names:
            files[f"{name}/{stamp[:STAMP_CHARS]}/{file_name}"] = _digest(folder / file_name)
    if not files:
        raise ArchiveError(f"the kernel cache {root} holds no kernels compiled from these sources")
    manifest = {
        "format": FORMAT,
        "target": target(),
        "sources": _sources_digest(modules),
        "modules": modules,
        "files": files,
    }
    out.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(prefix=out.name + ".", suffix=".part", dir=out.parent)
    os.close(fd)
    try:
        with tarfile.open(tmp, "w:gz", compresslevel=6) as tar:
            data = json.dumps(manifest, indent=1, sort_keys=True).encode()
            info = tarfile.TarInfo(MANIFEST)
            info.size = len(data)
            tar.addfile(info, io.BytesIO(data))
            for name, stamp in modules.items():
                tar.add(root / name / stamp[:STAMP_CHARS], arcname=f"{name}/{stamp[:STAMP_CHARS]}", recursive=False)
            for relative in files:
                tar.add(root / relative, arcname=relative, recursive=False)
        os.replace(tmp, out)  # a reader never finds half an archive under the name
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise
    return manifest


def _sources_digest(modules: dict[str, str]) -> str:
    return hashlib.sha256("".join(f"{m} {s}\n" for m, s in sorted(modules.items())).encode()).hexdigest()


def _damaged(exc: BaseException | str) -> ArchiveError:
    detail = exc if isinstance(exc, str) else f"{type(exc).__name__}: {exc}"
    return ArchiveError(f"it is damaged or not a kernel cache archive ({detail})")


def check_manifest(manifest: Any) -> None:
    """Refuse (``ArchiveError``) an archive not built for this Python, numba and CPU target
    or not from the installed sources."""
    if not isinstance(manifest, dict) or manifest.get("format") != FORMAT:
        raise _damaged(f"{MANIFEST} is not a format-{FORMAT} manifest")
    here = target()
    theirs = manifest.get("target")
    modules = manifest.get("modules")
    if not isinstance(theirs, dict) or not isinstance(modules, dict) or not isinstance(manifest.get("files"), dict):
        raise _damaged(f"{MANIFEST} lacks its target, modules or files")
    for key, what in (("python", "Python"), ("numba", "numba"), ("llvmlite", "llvmlite"), ("numpy", "numpy")):
        if theirs.get(key) != here[key]:
            raise ArchiveError(
                f"it was compiled with {what} {theirs.get(key)}, this install has {what} {here[key]} "
                "(compile here: labyrinth compile)"
            )
    if (theirs.get("triple"), theirs.get("cpu_name")) != (here["triple"], here["cpu_name"]) or theirs.get(
        "cpu_features"
    ) != here["cpu_features"]:
        same_name = theirs.get("cpu_name") == here["cpu_name"]
        raise ArchiveError(
            f"it was compiled for CPU target {theirs.get('cpu_name')}"
            f"{' with other CPU features' if same_name else ''} ({theirs.get('triple')}), this process targets "
            f"{here['cpu_name']} ({here['triple']}): its code could crash here (compile here, or export and "
            "import with NUMBA_CPU_NAME=generic set on both machines)"
        )
    if _sources_digest(modules) != manifest.get("sources"):
        raise _damaged(f"{MANIFEST}'s sources digest does not match its modules")
    other = [name for name, stamp in sorted(modules.items()) if installed_stamp(name) != stamp]
    if other:
        raise ArchiveError(
            f"it was compiled from other sources than the installed ones ({len(other)} of {len(modules)} "
            f"modules differ, first {other[0]}): its kernels would be stale (compile here: labyrinth compile)"
        )


def import_archive(archive: Path, root: Path | None = None) -> dict[str, Any]:
    """Check ``archive`` and unpack it into the cache root; returns its manifest.
    ``ArchiveError`` (one line) if it is refused; then nothing was written. Kernels the
    cache already holds are kept, the archive's others added."""
    root = root or cache_root()
    try:
        tar = tarfile.open(archive, "r:gz")  # noqa: SIM115 (closed below: its errors are told apart here)
    except FileNotFoundError:
        raise ArchiveError("no such file") from None
    except (tarfile.TarError, OSError, EOFError) as exc:
        raise _damaged(exc) from None
    with tar:
        try:
            first = tar.next()
            if first is None or first.name != MANIFEST or not first.isfile():
                raise _damaged(f"its first member is not {MANIFEST}")
            manifest = json.loads(tar.extractfile(first).read())
        except ArchiveError:
            raise
        except Exception as exc:  # gzip, tar or JSON garbage
            raise _damaged(exc) from None
        check_manifest(manifest)
        try:
            root.mkdir(parents=True, exist_ok=True)
            staging = Path(tempfile.mkdtemp(prefix=".import-", dir=root))
        except OSError as exc:
            raise ArchiveError(f"the kernel cache {root} cannot be written ({exc.strerror or exc})") from None
        try:
            _unpack(tar, first, manifest, staging)
            _move_in(staging, manifest, root)
        finally:
            shutil.rmtree(staging, ignore_errors=True)
    return manifest


def _unpack(tar: tarfile.TarFile, first: tarfile.TarInfo, manifest: dict[str, Any], staging: Path) -> None:
    files, manifest_modules = manifest["files"], manifest["modules"]
    seen: set[str] = set()
    try:
        for member in tar:
            name = member.name
            if member is first:
                continue
            if member.isdir() and name.count("/") == 1:
                module, _, stamp = name.partition("/")
                if manifest_modules.get(module, "")[:STAMP_CHARS] != stamp:
                    raise _damaged(f"it holds the folder {name!r}, which its manifest does not list")
                continue
            layout = _MEMBER.fullmatch(name) and _CACHE_FILE.fullmatch(name.rpartition("/")[2])
            if not member.isfile() or not layout or ".." in name or name not in files:
                raise _damaged(f"it holds {name!r}, which its manifest does not list")
            target_path = staging / name
            target_path.parent.mkdir(parents=True, exist_ok=True)
            h = hashlib.sha256()
            with tar.extractfile(member) as src, target_path.open("wb") as dst:
                for block in iter(lambda: src.read(1 << 20), b""):
                    h.update(block)
                    dst.write(block)
            if h.hexdigest() != files[name]:
                raise _damaged(f"{name} does not match its SHA-256")
            seen.add(name)
    except ArchiveError:
        raise
    except (tarfile.TarError, OSError, EOFError, ValueError) as exc:
        raise _damaged(exc) from None
    missing = set(files) - seen
    if missing:
        raise _damaged(f"{len(missing)} files its manifest lists are missing, e.g. {sorted(missing)[0]}")


def _move_in(staging: Path, manifest: dict[str, Any], root: Path) -> None:
    """Move each function's files (index, compiled files, digests) into the cache, the
    index last so a process reading the cache meanwhile never finds an index without its
    files; a function whose index the cache already has keeps the cache's files."""
    for module, stamp in manifest["modules"].items():
        (root / module / stamp[:STAMP_CHARS]).mkdir(parents=True, exist_ok=True)
    groups: dict[tuple[str, str], list[str]] = {}
    for name in manifest["files"]:
        folder, _, file_name = name.rpartition("/")
        stem = _CACHE_FILE.fullmatch(file_name)["stem"]
        groups.setdefault((folder, stem), []).append(file_name)
    for (folder, stem), names in sorted(groups.items()):
        destination = root / folder
        destination.mkdir(parents=True, exist_ok=True)
        if (destination / f"{stem}.nbi").exists():
            continue
        for file_name in sorted(names, key=lambda n: n.endswith(".nbi")):
            os.replace(staging / folder / file_name, destination / file_name)
