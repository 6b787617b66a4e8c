"""``labyrinth compile --export FILE`` / ``--import FILE`` (``labyrinth_env.core.cache_archive``):
an imported archive, or an unpacked copy named by ``LABYRINTH_CACHE_DIR``, makes a fresh cache
load instead of compile; an archive for another Python, numba or CPU target, from other
sources, or damaged, is refused in one line with nothing written."""

from __future__ import annotations

import gzip
import io
import json
import os
import subprocess
import sys
import tarfile
from pathlib import Path

import pytest

from labyrinth_env import cli
from labyrinth_env.core.cache_archive import MANIFEST, _sources_digest, target
from tests.test_cache import _can_mount_read_only
from tests.test_compile import _USE_EVERYTHING
from tests.toy_ruleset import SPEC as TOY_SPEC

ROOT = Path(__file__).resolve().parent.parent


@pytest.fixture(scope="module")
def archive(tmp_path_factory) -> Path:
    """The toy ruleset's kernels (the paths ``_USE_EVERYTHING`` takes), compiled or loaded
    into this machine's cache and exported."""
    out = tmp_path_factory.mktemp("archive") / "toy.tar.gz"
    argv = [
        "compile",
        "--env",
        TOY_SPEC.env_id,
        "--paths",
        "aec",
        "vector",
        "parallel",
        "heuristic",
        "determinize",
        "search",
    ]
    assert cli.main([*argv, "--export", str(out)]) == 0
    return out


def _use_everything(cache: Path, read_only: bool = False) -> tuple[list[str], str]:
    """Run ``_USE_EVERYTHING`` on ``cache`` in a fresh process: (what it compiled, stderr)."""
    env = {**os.environ, "LABYRINTH_CACHE_DIR": str(cache), "NUMBA_NUM_THREADS": "1"}
    env.pop("NUMBA_CACHE_DIR", None)
    argv = [sys.executable, "-c", _USE_EVERYTHING]
    if read_only:  # a read-only bind mount in a mount namespace of its own (root ignores file modes)
        argv = ["unshare", "-m", "--propagation", "private", "sh", "-c",
                f'mount --bind -o ro "{cache}" "{cache}" && exec "$@"', "sh", *argv]  # fmt: skip
    done = subprocess.run(argv, cwd=ROOT, capture_output=True, text=True, env=env, timeout=600)
    assert done.returncode == 0, done.stderr[-3000:]
    return json.loads(done.stdout.strip().splitlines()[-1]), done.stderr


def _import(archive: Path, cache: Path, monkeypatch, capsys) -> tuple[int, str, str]:
    monkeypatch.setenv("LABYRINTH_CACHE_DIR", str(cache))
    code = cli.main(["compile", "--import", str(archive)])
    out, err = capsys.readouterr()
    return code, out, err


def test_an_imported_archive_makes_a_fresh_cache_load_without_compiling(archive, tmp_path, monkeypatch, capsys):
    fresh = tmp_path / "fresh"
    code, out, err = _import(archive, fresh, monkeypatch, capsys)
    assert code == 0 and not err, err
    assert "imported" in out and str(fresh) in out
    compiled, stderr = _use_everything(fresh)
    assert compiled == [], compiled
    assert "compiling" not in stderr and "Warning" not in stderr, stderr[-2000:]
    # importing again keeps what is there and adds nothing wrong
    code, _, err = _import(archive, fresh, monkeypatch, capsys)
    assert code == 0 and not err


def test_an_unpacked_copy_serves_as_the_cache_read_only_too(archive, tmp_path):
    unpacked = tmp_path / "unpacked"
    with tarfile.open(archive) as tar:
        tar.extractall(unpacked, filter="data")
    read_only = _can_mount_read_only(tmp_path)
    compiled, stderr = _use_everything(unpacked, read_only=read_only)
    assert compiled == [], compiled
    assert "compiling" not in stderr and "Warning" not in stderr, stderr[-2000:]


def test_importing_the_agents_sets_up_no_learner_cache():
    """``import labyrinth_env.agents`` leaves the self-play network's numba module alone: an
    unpacked archive without the learner's kernels, read-only, warned at every import that
    its folder could not be written (CI, the test above)."""
    code = "import sys, labyrinth_env.agents; print('labyrinth_env.agents.alphazero_net' in sys.modules)"
    done = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, timeout=120)
    assert done.stdout.strip() == "False", done.stdout + done.stderr[-2000:]


def _members(archive: Path) -> list[tuple[tarfile.TarInfo, bytes]]:
    with tarfile.open(archive) as tar:
        return [(m, tar.extractfile(m).read() if m.isfile() else b"") for m in tar]


def _repack(archive: Path, out: Path, manifest_edit=None, file_edit=None, extra: str | None = None) -> Path:
    """A copy of ``archive`` with its manifest and/or its first compiled file changed."""
    members = _members(archive)
    manifest = json.loads(members[0][1])
    if manifest_edit:
        manifest_edit(manifest)
    with tarfile.open(out, "w:gz") as tar:
        data = json.dumps(manifest).encode()
        info = tarfile.TarInfo(MANIFEST)
        info.size = len(data)
        tar.addfile(info, io.BytesIO(data))
        edited = False
        for member, content in members[1:]:
            if member.isdir():
                tar.addfile(member)
                continue
            if file_edit and not edited and member.name.endswith(".nbc"):
                content, edited = file_edit(content), True
                member.size = len(content)
            tar.addfile(member, io.BytesIO(content))
        if extra:
            info = tarfile.TarInfo(extra)
            info.size = 1
            tar.addfile(info, io.BytesIO(b"x"))
    return out


def _other_sources(manifest: dict) -> None:
    module = sorted(manifest["modules"])[-1]
    manifest["modules"][module] = "0" * 64
    manifest["sources"] = _sources_digest(manifest["modules"])


def _set_target(key: str, value: str):
    def edit(manifest: dict) -> None:
        manifest["target"][key] = value

    return edit


def _flip_byte(path: Path, out: Path) -> Path:
    content = bytearray(path.read_bytes())
    content[len(content) // 2] ^= 0x40
    out.write_bytes(bytes(content))
    return out


REFUSALS = {
    "other sources": (lambda a, o: _repack(a, o, manifest_edit=_other_sources), "compiled from other sources"),
    "other numba": (lambda a, o: _repack(a, o, manifest_edit=_set_target("numba", "0.1.0")), "numba 0.1.0"),
    "other python": (lambda a, o: _repack(a, o, manifest_edit=_set_target("python", "cpython-3.1")), "Python"),
    "other CPU": (lambda a, o: _repack(a, o, manifest_edit=_set_target("cpu_name", "cannonlake")), "cannonlake"),
    "other CPU features": (
        lambda a, o: _repack(a, o, manifest_edit=_set_target("cpu_features", "+sse2")),
        "other CPU features",
    ),
    "a compiled file changed": (lambda a, o: _repack(a, o, file_edit=lambda c: c[:-1] + b"!"), "SHA-256"),
    "a file the manifest does not list": (
        lambda a, o: _repack(a, o, extra=f"tests.toy_ruleset.kernel/{'0' * 20}/x-1.py311.nbi"),
        "does not list",
    ),
    "a byte flipped in the archive": (lambda a, o: _flip_byte(a, o), "damaged"),
    "cut short": (lambda a, o: (o.write_bytes(a.read_bytes()[: a.stat().st_size // 2]), o)[1], "damaged"),
    "not an archive": (lambda a, o: (o.write_text("hello"), o)[1], "damaged"),
    "a gzip of something else": (lambda a, o: (o.write_bytes(gzip.compress(b"x" * 2000)), o)[1], "damaged"),
}


@pytest.mark.parametrize("how", list(REFUSALS))
def test_an_archive_for_other_sources_or_targets_or_damaged_is_refused_in_one_line(
    how, archive, tmp_path, monkeypatch, capsys
):
    make, words = REFUSALS[how]
    bad = make(archive, tmp_path / "bad.tar.gz")
    fresh = tmp_path / "fresh"
    code, out, err = _import(bad, fresh, monkeypatch, capsys)
    assert code == 2, (how, out, err)
    lines = err.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith(f"labyrinth compile: cannot import {bad}: "), (how, err)
    assert words in lines[0], (how, lines[0])
    assert "Traceback" not in err
    written = [p for p in fresh.rglob("*") if p.is_file()] if fresh.exists() else []
    assert written == [], (how, written)  # nothing half-applied


def test_the_manifest_names_the_target_and_every_file(archive):
    members = _members(archive)
    assert members[0][0].name == MANIFEST
    manifest = json.loads(members[0][1])
    assert manifest["target"] == target()
    assert set(manifest["files"]) == {m.name for m, _ in members[1:] if m.isfile()}
    assert {f"{m}/{s[:20]}" for m, s in manifest["modules"].items()} == {m.name for m, _ in members if m.isdir()}
    assert any(name.startswith("tests.toy_ruleset.random_loops/") for name in manifest["files"])


def _worker_game() -> dict:
    """In a Ray worker: a toy game with the heuristic in every seat, counting compiles."""
    from numba.core import event

    import labyrinth_env
    from labyrinth_env.agents import make_agent
    from labyrinth_env.core.cache import cache_root

    labyrinth_env.register_ruleset(TOY_SPEC)
    compiled: list[str] = []

    class Count(event.Listener):
        def on_start(self, ev) -> None:
            pass

        def on_end(self, ev) -> None:
            compiled.append(ev.data["dispatcher"].py_func.__qualname__)

    event.register("numba:compile", Count())
    env = labyrinth_env.make(TOY_SPEC.env_id)
    env.reset(seed=1)
    agent = make_agent("heuristic")
    for _ in range(30):
        obs, _, term, trunc, _ = env.last()
        env.step(None if term or trunc else int(agent.act(obs, env)))
        if not env.agents:
            break
    return {"root": str(cache_root()), "compiled": compiled}


def test_a_ray_worker_given_the_drivers_cache_starts_a_game_with_nothing_compiled(
    archive, tmp_path, monkeypatch, capsys
):
    from labyrinth_env.agents.tournament import _local_ray_on_loopback
    from labyrinth_env.core.cache import worker_env

    _local_ray_on_loopback()  # a single node on 127.0.0.1 (when Ray is not imported yet)
    ray = pytest.importorskip("ray", reason="ray is not installed (pip install -e '.[distributed]')")

    ray.init(address="local", num_cpus=1, _node_ip_address="127.0.0.1", include_dashboard=False, log_to_driver=False)
    try:
        # the driver's cache: a fresh folder filled from the archive after Ray started, so
        # the worker can only find it through what the driver hands it
        fresh = tmp_path / "driver-cache"
        code, _, err = _import(archive, fresh, monkeypatch, capsys)
        assert code == 0, err
        env_vars = {"PYTHONPATH": str(ROOT), "NUMBA_NUM_THREADS": "1", **worker_env()}
        task = ray.remote(num_cpus=1)(_worker_game).options(runtime_env={"env_vars": env_vars})
        got = ray.get(task.remote(), timeout=600)
    finally:
        ray.shutdown()
    assert got["root"] == str(fresh)
    assert got["compiled"] == [], got["compiled"]


def test_an_archive_naming_modules_outside_the_project_is_refused_without_importing_them(
    archive, tmp_path, monkeypatch, capsys
):
    import importlib

    imported = []
    real = importlib.import_module
    monkeypatch.setattr(importlib, "import_module", lambda name, *a: (imported.append(name), real(name, *a))[1])

    def foreign(manifest: dict) -> None:
        manifest["modules"]["antigravity"] = "0" * 64
        manifest["sources"] = _sources_digest(manifest["modules"])

    bad = _repack(archive, tmp_path / "bad.tar.gz", manifest_edit=foreign)
    code, _, err = _import(bad, tmp_path / "fresh", monkeypatch, capsys)
    assert code == 2 and "compiled from other sources" in err, err
    assert "antigravity" not in imported


def test_worker_env_carries_the_numba_settings_the_kernels_are_keyed_on(monkeypatch) -> None:
    from labyrinth_env.core.cache import worker_env

    monkeypatch.setenv("NUMBA_OPT", "1")
    monkeypatch.setenv("NUMBA_CPU_NAME", "generic")
    monkeypatch.delenv("NUMBA_CPU_FEATURES", raising=False)
    env = worker_env()
    assert env["NUMBA_OPT"] == "1" and env["NUMBA_CPU_NAME"] == "generic"
    assert "NUMBA_CPU_FEATURES" not in env and "LABYRINTH_CACHE_DIR" in env
