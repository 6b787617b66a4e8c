"""Rulesets and env ids: discovering the specs, ``register_ruleset``, ``make``/``raw_env``,
and loading replays.

The built-in rulesets are the packages under ``labyrinth_env.rulesets``, each declaring its
``SPEC`` (``labyrinth_env.spec.RulesetSpec``) in its ``__init__.py``; they are found when a
spec is first asked for, and nothing else keeps a table of rulesets. A ruleset of one's
own is added with ``register_ruleset(spec)``. Every spec is checked against the kernel
contract (``check_ruleset``: the kernel by ``core.contract``, the env class, heuristic and
picture here) the first time an env of it is made, and handed to ``core.templates``, whose
finder makes its bound templates (``<ruleset package>.loops``) importable.
"""

from __future__ import annotations

import dataclasses
import importlib
import json
import os
import pkgutil
import re
import stat
import threading
import warnings
from collections.abc import Callable
from pathlib import Path
from types import ModuleType
from typing import Any

from labyrinth_env.aec import REPLAY_FORMAT, REPLAY_VERSION, LabyrinthAECEnv
from labyrinth_env.core import templates
from labyrinth_env.core.contract import ContractError, arity, is_jitted, kernel_problems
from labyrinth_env.spec import RulesetSpec

NAMESPACE = "labyrinth_env"
_SPECS: dict[str, RulesetSpec] = {}  # env id -> spec
_CHECKED: set[str] = set()
_lock = threading.RLock()
_builtins_found = False


def _find_builtins() -> None:
    global _builtins_found
    if _builtins_found:
        return
    with _lock:
        if _builtins_found:
            return
        import labyrinth_env.rulesets as package

        for info in sorted(pkgutil.iter_modules(package.__path__), key=lambda m: m.name):
            if info.ispkg:
                spec = getattr(importlib.import_module(f"{package.__name__}.{info.name}"), "SPEC", None)
                if isinstance(spec, RulesetSpec):
                    _add(spec)
        _builtins_found = True


def _add(spec: RulesetSpec) -> RulesetSpec:
    known = _SPECS.get(spec.env_id)
    if known is None:
        _SPECS[spec.env_id] = spec
        templates.add_ruleset(spec)
        return spec
    if known is not spec and known.declaration() != spec.declaration():
        raise ValueError(f"env id {spec.env_id!r} is already registered (by {known.package}) with another spec")
    return known


def register_ruleset(spec: RulesetSpec) -> RulesetSpec:
    """Add a ruleset of one's own: afterwards ``make``, ``raw_env``, ``list_envs``,
    Gymnasium's and PettingZoo's registries, ``VectorEnv``, the agents, tournaments and the
    benchmarks serve it like the built-in ones. Registering the same spec (or an equal
    one, e.g. unpickled in a worker process) again does nothing; another spec under a
    known env id is refused. Returns the registered spec."""
    if not isinstance(spec, RulesetSpec):
        raise TypeError(f"register_ruleset takes a labyrinth_env.spec.RulesetSpec, got {type(spec).__name__}")
    _find_builtins()
    with _lock:
        spec = _add(spec)
    _register_with_libraries([spec])
    return spec


def specs() -> list[RulesetSpec]:
    """Every registered ruleset, by env id."""
    _find_builtins()
    return [_SPECS[k] for k in sorted(_SPECS)]


def list_envs() -> list[str]:
    """The env ids that can be made."""
    return [s.env_id for s in specs()]


def get_spec(env_id: str) -> RulesetSpec:
    """The spec of ``env_id``; ``ValueError`` naming the known ids when there is none."""
    _find_builtins()
    spec = _SPECS.get(env_id) if isinstance(env_id, str) else None
    if spec is None:
        raise ValueError(f"unknown env id {env_id!r}{_other_version(env_id)}; available: {', '.join(list_envs())}")
    return spec


def _other_version(env_id: object) -> str:
    """A hint when ``env_id`` names another version of a known game: games that change
    get a new ``_vN`` (so old results stay comparable), and a script written for the old
    id should learn which one this release plays rather than get a bare list."""
    match = re.fullmatch(r"(.+)_v(\d+)", env_id) if isinstance(env_id, str) else None
    if match is None:
        return ""
    versions = [s.env_id for s in _SPECS.values() if s.env_id.rsplit("_v", 1)[0] == match.group(1)]
    if not versions:
        return ""
    return f" ({env_id} is another version of {match.group(1)}; this release plays {', '.join(sorted(versions))})"


def check_ruleset(spec: RulesetSpec) -> None:
    """Raise ``ContractError`` naming every missing or misshapen piece of the ruleset
    (kernel constants, record fields, functions, heuristic, env class, options, picture).
    The kernel's part is ``core.contract.kernel_problems``; the rest is here, where env
    classes are known."""
    try:
        kernel = spec.kernel
    except ImportError as exc:
        raise ContractError(
            f"ruleset {spec.env_id}: its kernel {spec.kernel_module!r} cannot be imported ({exc})"
        ) from None
    problems = kernel_problems(kernel, spec.players[1])
    problems += _module_problems(
        spec, "heuristic", "heuristic", _is_heuristic, "an @njit heuristic_action(s, mask) -> int"
    )
    problems += _env_class_problems(spec)
    problems += _module_problems(
        spec,
        "picture",
        "picture module",
        lambda m: callable(getattr(m, "draw", None)),
        "draw(state, viewer=None, omniscient=False)",
    )
    if problems:
        listing = "\n  - ".join(problems)
        raise ContractError(f"ruleset {spec.env_id} does not meet the kernel contract:\n  - {listing}")


def _is_heuristic(module: ModuleType) -> bool:
    fn = getattr(module, "heuristic_action", None)
    return fn is not None and is_jitted(fn) and arity(fn) == 2


def _module_problems(
    spec: RulesetSpec, name: str, what: str, fits: Callable[[ModuleType], bool], needs: str
) -> list[str]:
    """The problems of the optional module ``spec.<name>`` (none if the spec has none): it
    must import, and ``fits`` must accept it (else it ``needs`` what is said)."""
    path = getattr(spec, f"{name}_module")
    if path is None:
        return []
    try:
        module = getattr(spec, name)
    except ImportError as exc:
        return [f"its {what} {path!r} cannot be imported ({exc})"]
    return [] if fits(module) else [f"{path} needs {needs}"]


def _env_class_problems(spec: RulesetSpec) -> list[str]:
    """The env class: a ``LabyrinthAECEnv`` subclass with its own event decoding, action
    names and text board, and options whose player range is the spec's."""
    try:
        env_class = spec.env_class
    except (ImportError, AttributeError) as exc:
        return [f"its env class {spec.env!r} cannot be loaded ({exc})"]
    if not (isinstance(env_class, type) and issubclass(env_class, LabyrinthAECEnv)):
        return [f"{spec.env} must be a subclass of labyrinth_env.aec.LabyrinthAECEnv"]
    problems = [
        f"{spec.env} does not define {method}()"
        for method in ("decode_event", "action_names", "render_text")
        if getattr(env_class, method) is getattr(LabyrinthAECEnv, method)
    ]
    options = getattr(env_class, "Options", None)
    fields = {f.name: f for f in dataclasses.fields(options)} if dataclasses.is_dataclass(options) else None
    if fields is None:
        problems.append(f"{spec.env}.Options must be a dataclass of options (labyrinth_env.options.option)")
    elif "num_players" not in fields:
        problems.append(f"{spec.env}.Options has no num_players option")
    elif tuple(fields["num_players"].metadata["option"].int_range or ()) != tuple(spec.players):
        problems.append(
            f"{spec.env}.Options.num_players allows {fields['num_players'].metadata['option'].int_range}, "
            f"the spec says {spec.players}"
        )
    return problems


def checked_spec(env_id: str) -> RulesetSpec:
    """``get_spec``, and the kernel contract checked once per process."""
    spec = get_spec(env_id)
    if env_id not in _CHECKED:
        check_ruleset(spec)
        _CHECKED.add(env_id)
    return spec


def player_range(env_id: str) -> tuple[int, int]:
    """The smallest and largest ``num_players`` an env accepts."""
    return get_spec(env_id).players


def raw_env(env_id: str, **options: Any) -> LabyrinthAECEnv:
    """The unwrapped AEC env: an illegal action raises ``ValueError``."""
    return checked_spec(env_id).env_class(**options)


def make(env_id: str, **options: Any) -> LabyrinthAECEnv:
    """The AEC env as PettingZoo users expect it (order enforcing, bounds, illegal actions
    end the game with -1 for the offender)."""
    env = raw_env(env_id, **options)
    env.checked = True
    return env


def parallel_env(env_id: str, **options: Any) -> Any:
    """PettingZoo's parallel API over ``make(env_id, **options)``, by PettingZoo's
    ``turn_based_aec_to_parallel``: one seat decides per step (the AEC env's
    ``agent_selection``; the other agents' actions are ignored), and each observation keeps
    its ``action_mask`` (all zeros but for the seat to act). These games give one seat
    several decisions in a row, so ``aec_to_parallel`` refuses them; ``max_turns``, not
    PettingZoo's ``max_cycles``, limits a game (``make`` says so)."""
    from pettingzoo.utils.conversions import turn_based_aec_to_parallel

    return turn_based_aec_to_parallel(make(env_id, **options))


def registered_id(env_id: str) -> str:
    """The id under which ``env_id`` is registered with Gymnasium and PettingZoo:
    ``paths_of_destiny_3e_v3`` -> ``labyrinth_env/paths_of_destiny_3e-v3`` (their
    ``namespace/name-vN`` form)."""
    spec = get_spec(env_id)
    return f"{NAMESPACE}/{spec.name}-v{spec.version}"


def _register_with_libraries(specs_: list[RulesetSpec]) -> None:
    import gymnasium

    try:
        from pettingzoo import aec_registry
        from pettingzoo import register as pettingzoo_register
    except ImportError:  # PettingZoo before its registry (1.27)
        aec_registry = pettingzoo_register = None
    for spec in specs_:
        rid = registered_id(spec.env_id)
        if rid not in gymnasium.registry:
            gymnasium.register(
                id=rid,
                entry_point="labyrinth_env.single:SingleAgentEnv",
                vector_entry_point="labyrinth_env.vector:VectorEnv",
                kwargs={"env_id": spec.env_id},
            )
        if pettingzoo_register is not None and rid not in aec_registry:
            pettingzoo_register("aec", rid, entry_point="labyrinth_env.registry:make", kwargs={"env_id": spec.env_id})


def register_envs() -> None:
    """Make every ruleset reachable through the registries users already know:

    * ``gymnasium.make(id, ...)``: the single-agent env (``SingleAgentEnv``), and
      ``gymnasium.make_vec(id, num_envs, ...)``: the batched ``VectorEnv``;
    * ``pettingzoo.make("aec", id, ...)`` (PettingZoo versions that have a registry): the AEC
      env as ``make`` gives it.

    Called once on ``import labyrinth_env`` (entry points are strings: no kernel is
    imported); ids already registered are left as they are."""
    _register_with_libraries(specs())


def _replay_error(source: str | Path, what: str) -> ValueError:
    return ValueError(f"malformed replay {str(source)!r}: {what}")


# A replay or config is kilobytes (a long game's replay well under a megabyte); a results
# file holds a JSON line per game. Larger files are refused before they are read.
MAX_TEXT_BYTES = 64 * 2**20
MAX_RESULTS_BYTES = 2**30


def read_text_file(path: str | Path, what: str = "file", max_bytes: int = MAX_TEXT_BYTES) -> str:
    """A user's text file (replay, config), or ``ValueError`` naming it and what is wrong:
    missing, a folder, not a regular file (``/dev/zero``, a FIFO: it would be read for ever
    or block), larger than ``max_bytes``, unreadable, not text."""
    p = Path(path)
    try:
        st = os.stat(p)
    except FileNotFoundError:
        raise ValueError(f"{what} {str(p)!r} does not exist") from None
    except OSError as exc:
        raise ValueError(f"{what} {str(p)!r} cannot be read: {exc.strerror}") from None
    if stat.S_ISDIR(st.st_mode):
        raise ValueError(f"{what} {str(p)!r} is a folder, not a file")
    if not stat.S_ISREG(st.st_mode):
        raise ValueError(f"{what} {str(p)!r} is not a regular file (a device, FIFO or socket)")
    if st.st_size > max_bytes:
        raise ValueError(f"{what} {str(p)!r} is {st.st_size:,} bytes; at most {max_bytes:,} are read")
    try:
        with p.open("rb") as f:
            data = f.read(max_bytes + 1)
    except OSError as exc:
        raise ValueError(f"{what} {str(p)!r} cannot be read: {exc.strerror}") from None
    if len(data) > max_bytes:  # grew while it was read
        raise ValueError(f"{what} {str(p)!r} is more than {max_bytes:,} bytes; at most that many are read")
    try:
        return data.decode()
    except UnicodeDecodeError:
        raise ValueError(f"{what} {str(p)!r} is not text (a binary file?)") from None


def check_output_file(path: str | Path, what: str, make_folders: bool = False) -> Path:
    """``path`` if a file can be written there: it is not a folder, and its folder exists
    and is writable (``make_folders``: or can be made, in a writable folder); else
    ``ValueError`` naming ``what`` (the flag), checked before any work is done."""
    p = Path(path)
    if p.is_dir():
        raise ValueError(f"{what} {str(p)!r} is a folder; it must be a file path")
    if make_folders:
        check_output_folder(p.parent, what)
        return p
    parent = p.parent
    if not parent.is_dir():
        kind = "is a file" if parent.exists() else "does not exist"
        raise ValueError(f"{what} {str(p)!r}: the folder {str(parent)!r} {kind}")
    if not os.access(parent, os.W_OK | os.X_OK) or (p.exists() and not os.access(p, os.W_OK)):
        raise ValueError(f"{what} {str(p)!r} cannot be written (permission denied)")
    return p


def check_output_folder(path: str | Path, what: str) -> Path:
    """``path`` if it is, or can be made, a writable folder (its nearest existing ancestor
    is a writable folder); else ``ValueError`` naming ``what``, checked before any work."""
    p = Path(path)
    if p.exists() and not p.is_dir():
        raise ValueError(f"{what} {str(p)!r} is a file; it must be a folder")
    existing = p
    while not existing.exists() and existing != existing.parent:
        existing = existing.parent
    if not existing.is_dir():
        raise ValueError(f"{what} {str(p)!r}: {str(existing)!r} is a file, not a folder")
    if not os.access(existing, os.W_OK | os.X_OK):
        raise ValueError(f"{what} {str(p)!r} cannot be written (permission denied in {str(existing)!r})")
    return p


def parse_json_file(path: str | Path, what: str = "file") -> Any:
    """A JSON file's content, or ``ValueError`` naming the file and what is wrong (as
    ``read_text_file``; not JSON, nested too deeply, a number too long to read)."""
    return parse_json_text(read_text_file(path, what), f"{what} {str(path)!r}")


def parse_yaml_file(path: str | Path, what: str = "file") -> Any:
    """A YAML file's content, or ``ValueError`` naming the file and what is wrong."""
    import yaml

    text = read_text_file(path, what)
    if "\x00" in text:
        raise ValueError(f"{what} {str(path)!r} is not text (a binary file?)")
    try:
        return yaml.safe_load(text)
    except yaml.YAMLError as exc:
        raise ValueError(f"{what} {str(path)!r} is not YAML: {' '.join(str(exc).split())}") from None
    except RecursionError:
        raise ValueError(f"{what} {str(path)!r}: YAML nested too deeply") from None


def parse_json_text(text: str, where: str) -> Any:
    """``json.loads`` with its failures as one ``ValueError`` naming ``where``."""
    try:
        return json.loads(text)
    except json.JSONDecodeError as exc:
        raise ValueError(f"{where}: not JSON ({exc})") from None
    except RecursionError:
        raise ValueError(f"{where}: JSON nested too deeply") from None
    except ValueError as exc:  # e.g. an integer of more digits than Python converts
        raise ValueError(f"{where}: unreadable JSON value ({exc})") from None


def _is_int(value: Any) -> bool:
    return type(value) is int  # not bool (True == 1) and not float (1.0 == 1)


def check_replay(data: Any, source: str | Path) -> dict[str, Any]:
    """Check a parsed replay's structure (not yet its moves); ``source`` names it in errors
    (a file, or a line of a tournament's results)."""
    if not isinstance(data, dict):
        raise _replay_error(source, "expected a JSON object")
    if data.get("format") != REPLAY_FORMAT:
        raise _replay_error(source, f"'format' must be {REPLAY_FORMAT!r}, got {data.get('format')!r}")
    if not _is_int(data.get("version")) or data["version"] != REPLAY_VERSION:
        raise _replay_error(source, f"'version' must be the integer {REPLAY_VERSION}, got {data.get('version')!r}")
    required = {"env_id": str, "options": dict, "seed": int, "actions": list}
    for key, typ in required.items():
        if key not in data:
            raise _replay_error(source, f"missing key {key!r} (needs {', '.join(required)})")
        if not isinstance(data[key], typ) or isinstance(data[key], bool):
            raise _replay_error(source, f"{key!r} must be {typ.__name__}, got {type(data[key]).__name__}")
    for i, a in enumerate(data["actions"]):
        if not _is_int(a):
            raise _replay_error(source, f"action #{i} is {a!r}, not an int")
    if not all(isinstance(k, str) for k in data["options"]):
        raise _replay_error(source, "'options' keys must be option names (strings)")
    illegal = data.get("illegal_action")
    if illegal is not None and (
        not isinstance(illegal, dict)
        or set(illegal) != {"agent", "action"}
        or not isinstance(illegal["agent"], str)
        or not _is_int(illegal["action"])
    ):
        raise _replay_error(source, f"'illegal_action' must be {{'agent': str, 'action': int}}, got {illegal!r}")
    if data["env_id"] not in list_envs():
        raise _replay_error(source, f"unknown env id {data['env_id']!r}; available: {', '.join(list_envs())}")
    return data


def read_replay(path: str | Path) -> dict[str, Any]:
    """Parse and check a replay file's structure (not yet its moves)."""
    return check_replay(parse_json_file(path, "replay file"), path)


def load_replay(path: str | Path) -> LabyrinthAECEnv:
    """An env (as ``make`` gives) that has replayed the file; its ``game_log`` equals the
    original's. Bad files raise ``ValueError`` saying what is wrong."""
    return replay_data(read_replay(path), path)


def replay_data(data: dict[str, Any], source: str | Path, env: LabyrinthAECEnv | None = None) -> LabyrinthAECEnv:
    """``load_replay`` for a replay already parsed (``check_replay``); ``source`` names it
    in errors. ``env``: an env made earlier with the same env id and options, replayed into
    again (a results file replays many games of one env)."""
    p = source
    data = check_replay(data, source)
    if env is None:
        try:
            env = raw_env(data["env_id"], **data["options"])
        except ValueError as exc:
            raise _replay_error(p, str(exc)) from None
    env.checked = False
    try:
        env.reset(seed=data["seed"])
    except ValueError as exc:
        raise _replay_error(p, str(exc)) from None
    for i, action in enumerate(data["actions"]):
        if env.agent_selection is None or not env.agents or env.terminations[env.agent_selection]:
            raise _replay_error(p, f"action #{i} ({action}) comes after the game ended")
        try:
            env.step(action)
        except ValueError as exc:
            raise _replay_error(p, f"action #{i}: {exc}") from None
    env.checked = True
    illegal = data.get("illegal_action")
    if illegal is not None:  # the move that ended the game: it must still be that agent's, and illegal
        if not env.agents or env.agent_selection != illegal["agent"]:
            raise _replay_error(p, f"illegal_action: {illegal['agent']} is not the agent to act after the actions")
        if illegal["action"] in env.legal_actions():
            raise _replay_error(p, f"illegal_action: action {illegal['action']} is legal there")
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            try:
                env.step(illegal["action"])
            except ValueError as exc:
                raise _replay_error(p, f"illegal_action: {exc}") from None
    # the digest covers the illegal action too: deleting it (a game still running) is refused
    digest = data.get("log_sha256")
    if digest is not None and digest != env.log_digest():
        raise _replay_error(
            p,
            "the replayed game log and illegal action differ from the recorded ones (edited, other rules or version?)",
        )
    return env
