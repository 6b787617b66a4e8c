"""The kernel cache (``labyrinth_env.core.cache``): a function is stamped with the contents of
every source it compiles in, so editing any of them (not only the function's own file) is
never answered with old code, while an unchanged tree loads from the cache; a folder that
cannot be written falls back to compiling in the process, with one warning."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

import labyrinth_env
from labyrinth_env.core.cache import source_closure

TOY = Path(__file__).parent / "toy_ruleset"

# Plays the first decision of 40 games of the copied toy ruleset through its bound loops
# (``step_one`` lives in core/batch_template.py, the die in the toy's kernel/tables.py) and
# prints the rolls seen and whether ``step_one`` came from the cache.
SCRIPT = """
import json, sys
import numpy as np
sys.path.insert(0, sys.argv[1])
import labyrinth_env
from toycopy import SPEC
labyrinth_env.register_ruleset(SPEC)
loops, K = SPEC.loops, SPEC.kernel
states = SPEC.new_states(1)
mask = np.zeros(K.NUM_ACTIONS, dtype=np.int8)
rewards = np.zeros(K.NUM_SEATS)
rolls = set()
for seed in range(40):
    loops.init_one(states, np.uint64(seed), np.array([2, 30], dtype=np.int32))
    loops.refresh_one(states, mask, rewards)
    loops.step_one(states, K.A_PASS, mask, rewards)
    rolls.add(int(states[0]["roll"]))
stats = loops.step_one.stats
print(json.dumps({"rolls": sorted(rolls), "hits": sum(stats.cache_hits.values()),
                  "misses": sum(stats.cache_misses.values())}))
"""


def _run(packages: Path, cache: Path) -> dict:
    env = {**os.environ, "LABYRINTH_CACHE_DIR": str(cache), "NUMBA_NUM_THREADS": "1"}
    env.pop("NUMBA_CACHE_DIR", None)
    out = subprocess.run(
        [sys.executable, "-c", SCRIPT, str(packages)], capture_output=True, text=True, env=env, timeout=600
    )
    assert out.returncode == 0, out.stderr[-3000:]
    return json.loads(out.stdout.strip().splitlines()[-1])


@pytest.mark.slow  # three fresh processes, two of which compile
def test_an_edit_to_any_compiled_source_recompiles_and_an_unchanged_tree_loads(tmp_path):
    packages = tmp_path / "packages"
    shutil.copytree(TOY, packages / "toycopy", ignore=shutil.ignore_patterns("__pycache__"))
    cache = tmp_path / "cache"
    first = _run(packages, cache)
    assert first["rolls"] == [1, 2, 3, 4, 5, 6] and first["hits"] == 0
    again = _run(packages, cache)
    assert again["rolls"] == first["rolls"] and again["hits"] > 0 and again["misses"] == 0
    # a one-sided die, in a file that step_one's own file (the template) does not change with
    tables = packages / "toycopy" / "kernel" / "tables.py"
    tables.write_text(tables.read_text().replace("DIE_SIDES = 6", "DIE_SIDES = 1"))
    edited = _run(packages, cache)
    assert edited["rolls"] == [1] and edited["hits"] == 0


def test_the_stamp_covers_every_module_compiled_in_and_nothing_else():
    spec = labyrinth_env.get_spec("toy_race_v0")
    assert spec.loops.K is spec.kernel  # bound, so its closure can be read
    closure = set(source_closure("tests.toy_ruleset.loops"))
    assert {
        "tests.toy_ruleset.loops",  # the template's code, bound to the toy
        "tests.toy_ruleset.kernel",
        "tests.toy_ruleset.kernel.tables",
        "tests.toy_ruleset.kernel.turn",
        "tests.toy_ruleset.heuristic",
        "labyrinth_env.core.contract",
        "labyrinth_env.core.rng",
    } <= closure
    # Python-only layers (env, registry, spec) and other rulesets are not compiled in
    assert not {"tests.toy_ruleset.env", "labyrinth_env.registry", "labyrinth_env.aec", "labyrinth_env.spec"} & closure
    assert not any(name.startswith("labyrinth_env.rulesets.") for name in closure)


def test_an_unwritable_cache_folder_compiles_in_the_process_with_one_warning(tmp_path):
    blocker = tmp_path / "a_file"
    blocker.write_text("not a folder")
    env = {**os.environ, "LABYRINTH_CACHE_DIR": str(blocker / "cache"), "NUMBA_NUM_THREADS": "1"}
    code = (
        "import labyrinth_env, numpy as np\n"
        "from tests.toy_ruleset import SPEC\n"
        "labyrinth_env.register_ruleset(SPEC)\n"
        "env = labyrinth_env.make('toy_race_v0'); env.reset(seed=0)\n"
        "env.step(int(np.flatnonzero(env.observe(env.agent_selection)['action_mask'])[0]))\n"
        "print('played')\n"
    )
    root = Path(__file__).parents[1]
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env, timeout=600, cwd=root)
    assert out.returncode == 0 and out.stdout.strip() == "played", out.stderr[-2000:]
    assert out.stderr.count("cannot be written") == 1, out.stderr[-2000:]
    assert "Traceback" not in out.stderr


# --- damage and read-only caches (issue 32, item 5) ----------------------------------------------
TINY = """
from labyrinth_env.core.jit import njit


@njit(cache=True)
def triple(x):
    return 3 * x + 1
"""

TINY_SCRIPT = """
import json, sys, warnings
warnings.simplefilter("always")
sys.path.insert(0, sys.argv[1])
import labyrinth_env.core
import tinykernel
value = tinykernel.triple(5)
stats = tinykernel.triple.stats
print(json.dumps({"value": value, "hits": sum(stats.cache_hits.values()), "misses": sum(stats.cache_misses.values())}))
"""


def _tiny(packages: Path, cache: Path, read_only: bool = False) -> tuple[dict, str]:
    """Run the tiny kernel in a fresh process: (its figures, its stderr)."""
    env = {**os.environ, "LABYRINTH_CACHE_DIR": str(cache), "NUMBA_NUM_THREADS": "1"}
    env.pop("NUMBA_CACHE_DIR", None)
    argv = [sys.executable, "-c", TINY_SCRIPT, str(packages)]
    if read_only:  # a read-only bind mount in a mount namespace of its own (root ignores file modes)
        argv = ["unshare", "-m", "--propagation", "private", "sh", "-c",
                f'mount --bind -o ro "{cache}" "{cache}" && exec "$@"', "sh", *argv]  # fmt: skip
    out = subprocess.run(argv, capture_output=True, text=True, env=env, timeout=300, cwd=Path(__file__).parents[1])
    assert out.returncode == 0 and "Traceback" not in out.stderr, out.stderr[-3000:]
    return json.loads(out.stdout.strip().splitlines()[-1]), out.stderr


def _files(cache: Path, pattern: str) -> list[Path]:
    found = sorted(cache.rglob(pattern))
    assert found, pattern
    return found


def _damage(cache: Path, how: str) -> None:
    import pickle

    if how == "garbage index":
        _files(cache, "*.nbi")[0].write_bytes(b"\x80\x04garbage that is not an index")
    elif how == "index cut short":
        index = _files(cache, "*.nbi")[0]
        index.write_bytes(index.read_bytes()[:40])
    elif how == "compiled file cut short":
        data = _files(cache, "*.nbc")[0]
        data.write_bytes(data.read_bytes()[: data.stat().st_size // 2])
    elif how == "compiled file byte flipped":
        data = _files(cache, "*.nbc")[0]
        content = bytearray(data.read_bytes())
        content[len(content) // 2] ^= 0x10
        data.write_bytes(bytes(content))
    elif how == "a payload of the wrong shape, digest recomputed":
        import hashlib

        data = _files(cache, "*.nbc")[0]
        payload = pickle.dumps((1, 2))
        data.write_bytes(payload)
        Path(str(data) + ".sha256").write_text(hashlib.sha256(payload).hexdigest())


DAMAGE = [
    "garbage index",
    "index cut short",
    "compiled file cut short",
    "compiled file byte flipped",
    "a payload of the wrong shape, digest recomputed",
]


@pytest.fixture(scope="module")
def tiny_cache(tmp_path_factory):
    """A tiny kernel compiled once into a cache of its own."""
    root = tmp_path_factory.mktemp("tiny")
    (root / "packages").mkdir()
    (root / "packages" / "tinykernel.py").write_text(TINY)
    first, err = _tiny(root / "packages", root / "cache")
    assert first == {"value": 16, "hits": 0, "misses": 1} and "Warning" not in err, err
    assert _files(root / "cache", "*.nbc.sha256")
    return root


def test_a_damaged_cache_is_reported_once_and_recompiled_past(tiny_cache, tmp_path):
    for how in DAMAGE:
        cache = tmp_path / how.replace(" ", "_").replace(",", "")
        shutil.copytree(tiny_cache / "cache", cache)
        _damage(cache, how)
        got, err = _tiny(tiny_cache / "packages", cache)
        assert got["value"] == 16 and got["hits"] == 0, (how, got)
        assert err.count("damaged kernel cache entry") == 1, (how, err)
        again, err = _tiny(tiny_cache / "packages", cache)  # the entry was written anew
        assert again == {"value": 16, "hits": 1, "misses": 0} and "Warning" not in err, (how, err)


def test_a_cache_written_before_digests_loads_and_gets_its_digests(tiny_cache, tmp_path):
    shutil.copytree(tiny_cache / "cache", tmp_path / "cache")
    for digest in _files(tmp_path / "cache", "*.sha256"):
        digest.unlink()
    got, err = _tiny(tiny_cache / "packages", tmp_path / "cache")
    assert got == {"value": 16, "hits": 1, "misses": 0} and "Warning" not in err, err
    assert _files(tmp_path / "cache", "*.nbc.sha256")


def _can_mount_read_only(tmp_path: Path) -> bool:
    probe = tmp_path / "probe"
    probe.mkdir()
    cmd = f'mount --bind -o ro "{probe}" "{probe}" && ! touch "{probe}/x" 2>/dev/null'
    try:
        done = subprocess.run(["unshare", "-m", "--propagation", "private", "sh", "-c", cmd], capture_output=True)
    except OSError:
        return False
    return done.returncode == 0


def test_a_read_only_cache_with_valid_kernels_is_read_not_recompiled(tiny_cache, tmp_path):
    if not _can_mount_read_only(tmp_path):
        pytest.skip("needs unshare and mount (a read-only bind mount)")
    shutil.copytree(tiny_cache / "cache", tmp_path / "cache")
    got, err = _tiny(tiny_cache / "packages", tmp_path / "cache", read_only=True)
    assert got == {"value": 16, "hits": 1, "misses": 0}, err
    assert "Warning" not in err, err
    # a read-only cache that lacks the kernel: it compiles, with one warning, nothing saved
    for item in _files(tmp_path / "cache", "*.nb*"):
        item.unlink()
    got, err = _tiny(tiny_cache / "packages", tmp_path / "cache", read_only=True)
    assert got == {"value": 16, "hits": 0, "misses": 1} and err.count("cannot be written") == 1, err


def test_an_index_that_names_other_files_is_damage_and_a_save_writes_past_it(tmp_path):
    # a changed byte in a file name inside a readable index: numba would try to write the
    # compiled file there (a missing folder: every process compiles again, never saved)
    import pickle

    import numba

    from labyrinth_env.core.cache import CheckedCacheFile, CorruptCacheError

    cache = CheckedCacheFile(str(tmp_path), "kernel-12.py311", "stamp")
    cache.save("key", {"n": 1})
    index = tmp_path / "kernel-12.py311.nbi"
    with index.open("wb") as f:
        pickle.dump(numba.__version__, f)
        f.write(pickle.dumps(("stamp", {"key": "kernel-12.py311.1.nb/"})))
    with pytest.raises(CorruptCacheError, match="names files that are not this function's"):
        cache.load("key")
    cache.save("key", {"n": 2})
    assert cache.load("key") == {"n": 2}


_STAMP_AFTER_IMPORTS = """
import importlib, sys
import labyrinth_env
from labyrinth_env.core.cache import SourceClosureLocator
from tests.toy_ruleset import SPEC
labyrinth_env.register_ruleset(SPEC)
for name in sys.argv[1:]:
    importlib.import_module("tests.toy_ruleset." + name)
print(SourceClosureLocator._stamps["tests.toy_ruleset.random_loops"])
"""


def test_a_bound_modules_stamp_does_not_depend_on_the_order_its_neighbours_were_imported():
    # the random-opponent loops bind ``no_heuristic`` as their H: imported through the import
    # system first, that module carried the import system's ``__loader__`` (whose class lives
    # in core/templates.py) into the loops' stamp, so two processes with the same sources
    # stamped the loops differently and an exported cache missed in one of them
    stamps = []
    for order in (["random_loops"], ["no_heuristic", "random_loops"]):
        done = subprocess.run(
            [sys.executable, "-c", _STAMP_AFTER_IMPORTS, *order],
            capture_output=True,
            text=True,
            timeout=300,
            cwd=Path(__file__).parents[1],
        )
        assert done.returncode == 0, done.stderr[-2000:]
        stamps.append(done.stdout.split()[-1])
    assert stamps[0] == stamps[1]


def test_a_stamp_in_use_outlives_newer_ones_up_to_keep_stamps(tmp_path, monkeypatch):
    # Checkouts of different versions share the cache: the stamp one of them only loads
    # from must count as used, or the others' compiles evict it and it compiles again.
    import time

    from labyrinth_env.core import cache

    module = tmp_path / "labyrinth_env.some.kernel"
    others = [module / f"other{i}" for i in range(cache.KEEP_STAMPS - 1)]  # other0 the newest
    in_use, new = module / "in_use", module / "new"
    for age, stamp in enumerate([*others, in_use]):
        stamp.mkdir(parents=True)
        os.utime(stamp, (time.time() - 100 - age, time.time() - 100 - age))
    monkeypatch.setattr(cache, "_pruned", set())
    cache._prune(in_use)  # a process loading from the oldest stamp: all KEEP_STAMPS stay
    assert len(list(module.iterdir())) == cache.KEEP_STAMPS
    new.mkdir()
    monkeypatch.setattr(cache, "_pruned", set())
    cache._prune(new)  # another process, another version: the least recently used goes
    kept = {p.name for p in module.iterdir()}
    assert kept == {"new", "in_use", *(p.name for p in others[:-1])}
