"""Expert iteration on a PPO network (``algo: distill``): a MaskablePPO ``LookaheadPolicy``
trained from scratch (``ppo.policy: lookahead``) guides the search, and the search's visit
counts train its actor, the games' results its critic.

    labyrinth train --config configs/train/team_edition_distill.yaml
    labyrinth train --config configs/train/team_edition_distill.yaml --resume

``init_from`` names the PPO run's ``final_model.zip`` (its ``config.json`` beside it gives
the shaping the critic was trained with). Each iteration plays ``selfplay.games`` games in
numba (``agents/alphazero_template.policy_games``): the network's seat (every seat, a team
in Team Edition, with ``against: [self]``) by ``policy_search`` over worlds determinized
for the deciding seat, the others by the opponents of ``selfplay.against`` (the heuristic
may be one, as an opponent only: the learner never trains on its choices). The
network's seat searches at each of its decisions and plays the search's move, or with
``selfplay.play: network`` its own (DAgger: the search only labels the positions the
network's own play leads to, which are the ones it meets alone). Each decision adds to a
replay buffer of the last ``train.buffer`` decisions: the network's input as the env's
``lookahead`` option gives it, the legal mask, the search's visit distribution, and the
seat's result. ``train.updates`` Adam steps on minibatches from it
follow (loss: cross-entropy of the masked actor against the search's move, its most
visited action, or with ``train.target: visits`` its visit distribution, plus ``value_weight``
times the squared error of the critic against the result minus the shaping term the
critic's values leave out, ``alphazero_template.shaping_term``). The games run in
``workers`` processes, each game from its own seed, so a run is the same with any number
of workers.

Every ``eval.every`` iterations the network alone (masked argmax, the way ``learned``
plays it) plays ``eval.games`` games against each of ``eval.against``, the same games
every time, seats rotating; win rates with Wilson 95% intervals go to ``eval.jsonl``,
``scalars.jsonl``, TensorBoard and ``learning_curve.png``. ``checkpoint.pt`` (network,
optimizer, buffer, random state, history) is written every ``checkpoint_every``
iterations and at the end, and ``--resume`` goes on exactly as if the run had never
stopped. ``policy.npz`` is the network (the file ``learned:PATH`` loads) and
``final_model.zip`` the SB3 model with the trained weights.
"""

from __future__ import annotations

import json
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

import labyrinth_env
from labyrinth_env.agents.config_schema import check_schema, merge_sections
from labyrinth_env.agents.evaluate import wilson_interval
from labyrinth_env.agents.train_alphazero import ReplayBuffer, SparseRows, plot_curve, run_command, write_scalars

ALGO = "distill"
OPPONENTS = ("random", "heuristic", "self")  # in the order of alphazero_template's OPPONENT_* codes
# the actor's target: the search's move (its most visited action, one-hot) or its visit distribution
TARGETS = ("move", "visits")
# who moves in the learner's games: the search (expert iteration) or the network, the search
# labelling its positions only (DAgger: the network alone meets the positions it leads to)
PLAYS = ("search", "network")
EVAL_SEED = 1_000_003  # eval game g plays from seed EVAL_SEED + g, every evaluation

_SECTIONS: dict[str, dict[str, type | tuple[type, ...]]] = {
    "selfplay": {
        "games": int,
        "simulations": int,
        "c": float,
        "noise": float,
        "temperature_moves": int,
        "max_decisions": int,
        "adjudicate": float,
        "leaf_mix": float,
        "against": list,
        "play": str,
    },
    "train": {
        "learning_rate": float,
        "batch_size": int,
        "updates": int,
        "buffer": int,
        "value_weight": float,
        "target": str,
    },
    "eval": {"every": int, "games": int, "against": list},
}
_TOP: dict[str, type | tuple[type, ...]] = {
    "algo": str,
    "env_id": str,
    "options": dict,
    "init_from": str,
    "seed": int,
    "out_dir": str,
    "iterations": int,
    "budget_minutes": float,
    "checkpoint_every": int,
    "threads": int,
    "workers": int,
    **{k: dict for k in _SECTIONS},
}


@dataclass
class DistillConfig:
    env_id: str
    algo: str = ALGO
    options: dict = field(default_factory=dict)
    init_from: str = ""
    seed: int = 0
    out_dir: str = "results/train/distill"
    iterations: int = 1_000_000
    budget_minutes: float = 60.0
    checkpoint_every: int = 1
    threads: int = 1
    workers: int = 1
    source: str = ""  # the config file, recorded in policy.npz
    selfplay: dict = field(
        default_factory=lambda: {
            "games": 32,
            "simulations": 64,
            "c": 1.5,
            "noise": 0.1,
            "temperature_moves": 0,
            "max_decisions": 20_000,
            "adjudicate": 0.0,
            "leaf_mix": 0.0,
            "against": ["self"],
            "play": "search",
        }
    )
    train: dict = field(
        default_factory=lambda: {
            "learning_rate": 1e-4,
            "batch_size": 256,
            "updates": 100,
            "buffer": 100_000,
            "value_weight": 0.5,
            "target": "move",
        }
    )
    eval: dict = field(default_factory=lambda: {"every": 1, "games": 100, "against": ["heuristic"]})


def check_config(data: Any, where: str = "training config") -> DistillConfig:
    """A mapping (the YAML) checked completely into a config; ``ValueError`` says what is
    wrong and what is allowed."""
    cfg = DistillConfig(**check_schema(data, _TOP, _SECTIONS, where))
    merge_sections(cfg, data, _SECTIONS)
    if cfg.algo != ALGO:
        raise ValueError(f"{where}: algo {cfg.algo!r} is not {ALGO!r}")
    if cfg.env_id not in labyrinth_env.list_envs():
        raise ValueError(f"{where}: unknown env_id {cfg.env_id!r}; registered: {labyrinth_env.list_envs()}")
    if not cfg.init_from:
        raise ValueError(f"{where}: init_from is required: the final_model.zip of a run with ppo.policy: lookahead")
    sp, tr, ev = cfg.selfplay, cfg.train, cfg.eval
    for name, value, low in (
        ("iterations", cfg.iterations, 1),
        ("checkpoint_every", cfg.checkpoint_every, 1),
        ("threads", cfg.threads, 1),
        ("workers", cfg.workers, 1),
        ("selfplay.games", sp["games"], 1),
        ("selfplay.simulations", sp["simulations"], 1),
        ("selfplay.temperature_moves", sp["temperature_moves"], 0),
        ("selfplay.max_decisions", sp["max_decisions"], 1),
        ("train.batch_size", tr["batch_size"], 1),
        ("train.updates", tr["updates"], 1),
        ("train.buffer", tr["buffer"], 1),
        ("eval.every", ev["every"], 1),
        ("eval.games", ev["games"], 1),
    ):
        if value < low:
            raise ValueError(f"{where}: {name} must be >= {low}, got {value}")
    for name, value in (("selfplay.noise", sp["noise"]), ("selfplay.leaf_mix", sp["leaf_mix"])):
        if not 0.0 <= value <= 1.0:
            raise ValueError(f"{where}: {name} must be in [0, 1], got {value}")
    for name, value in (
        ("budget_minutes", cfg.budget_minutes),
        ("train.learning_rate", tr["learning_rate"]),
        ("selfplay.c", sp["c"]),
    ):
        if not value > 0:
            raise ValueError(f"{where}: {name} must be > 0, got {value}")
    if sp["play"] not in PLAYS:
        raise ValueError(f"{where}: selfplay.play must be one of {list(PLAYS)}, got {sp['play']!r}")
    if tr["target"] not in TARGETS:
        raise ValueError(f"{where}: train.target must be one of {list(TARGETS)}, got {tr['target']!r}")
    if not 0.0 <= sp["adjudicate"] <= 1.0 or tr["value_weight"] < 0:
        raise ValueError(f"{where}: selfplay.adjudicate must be in [0, 1] and train.value_weight >= 0")
    cooperative = labyrinth_env.get_spec(cfg.env_id).cooperative
    for name, against in (("selfplay.against", sp["against"]), ("eval.against", ev["against"])):
        allowed = ["self"] if cooperative else list(OPPONENTS)
        bad = [a for a in against if a not in allowed]
        if not against or bad:
            raise ValueError(f"{where}: {name} must list opponents among {allowed}, got {against!r}")
    if "heuristic" in sp["against"] + ev["against"] and labyrinth_env.get_spec(cfg.env_id).heuristic_module is None:
        raise ValueError(f"{where}: {cfg.env_id} has no heuristic to play against")
    try:
        labyrinth_env.raw_env(cfg.env_id, **{**cfg.options, "lookahead": True})
    except (TypeError, ValueError) as exc:
        raise ValueError(f"{where}: options: {exc}") from None
    return cfg


def load_config(path: str | Path) -> DistillConfig:
    """Read and fully check a config file."""
    from labyrinth_env.registry import parse_yaml_file

    p = Path(path)
    cfg = check_config(parse_yaml_file(p, "training config"), f"training config {str(p)!r}")
    cfg.source = str(path)
    return cfg


class PolicyBuffer(ReplayBuffer):
    """The replay buffer of the self-play learner, holding a PPO network's inputs:
    ``targets`` are ``[result, shaping term]`` per decision."""

    KINDS = ("obs", "policy", "mask")


def _module(spec: Any) -> Any:
    from labyrinth_env.agents import alphazero_template
    from labyrinth_env.core.templates import bind

    return bind(alphazero_template, spec)


def play_games(
    spec: Any, options: np.ndarray, policy: tuple, params: np.ndarray, seeds: np.ndarray, seats: np.ndarray,
    opponents: np.ndarray, obs_size: int, rows_per_game: int,
) -> tuple[dict[str, SparseRows], np.ndarray, np.ndarray, int]:  # fmt: skip
    """Play these games (``alphazero_template.policy_games``, one call each, so that the
    dense record arrays hold one game's decisions); returns their decisions as sparse rows,
    ``[result, shaping term]`` per decision, every game's returns, and the rows per game
    the arrays were last sized for. Runs in worker processes too (``spec``, the ruleset,
    travels with the call: a ruleset of one's own is registered in the parent only)."""
    m = _module(labyrinth_env.register_ruleset(spec))  # a no-op for a ruleset this process knows
    K = m.K
    parts: dict[str, list[Any]] = {k: [] for k in (*PolicyBuffer.KINDS, "targets")}
    returns = np.zeros((seeds.shape[0], K.NUM_SEATS), dtype=np.float64)
    record = params[m.P_SIMULATIONS] > 0
    for g in range(seeds.shape[0]):
        while True:
            capacity = rows_per_game if record else 1
            obs = np.zeros((capacity, obs_size), dtype=np.float32)
            masks = np.zeros((capacity, K.NUM_ACTIONS), dtype=np.uint8)
            targets = np.zeros((capacity, K.NUM_ACTIONS), dtype=np.float32)
            rows_seats = np.zeros(capacity, dtype=np.int64)
            values = np.zeros((capacity, 2), dtype=np.float32)
            args = (seeds[g : g + 1], options, policy, params, seats[g : g + 1], opponents[g : g + 1])
            rows = m.policy_games(*args, obs, masks, targets, rows_seats, values, returns[g : g + 1])
            if not record or rows < capacity:
                break
            rows_per_game *= 2  # too small for this game: play it again (the same game), larger
        parts["obs"].append(SparseRows.from_dense(obs[:rows]))
        parts["policy"].append(SparseRows.from_dense(targets[:rows]))
        parts["mask"].append(SparseRows.from_dense(masks[:rows]))
        parts["targets"].append(values[:rows])
    rows_out = {k: SparseRows.concat(parts[k]) for k in PolicyBuffer.KINDS}
    return rows_out, np.concatenate(parts["targets"]), returns, rows_per_game


def _worker_init() -> None:
    from labyrinth_env.agents.tournament import _worker_init as tournament_worker_init

    tournament_worker_init()


def losses(
    policy: Any, batch: dict[str, np.ndarray], value_weight: float, target: str = "move"
) -> tuple[Any, Any, Any]:
    """``(total, policy, value)`` losses of the SB3 ``LookaheadPolicy`` on a batch: the
    cross-entropy of its masked actor against the search's move (``target`` "move": the
    most visited action, the one the search plays) or its visit distribution ("visits"),
    and the squared error of its critic against the result minus the shaping term. The
    move: a network that already agrees with its search at most decisions (93% in Team
    Edition) learns from visit distributions mostly to spread its policy where it was
    right, while the network alone plays its argmax."""
    import torch

    obs = torch.from_numpy(batch["obs"])
    mask = torch.from_numpy(batch["mask"]) > 0
    features = policy.extract_features(obs, policy.pi_features_extractor)
    logits = policy.action_net(policy.mlp_extractor.forward_actor(features))
    logits = logits.masked_fill(~mask, -1e9)
    visits = batch["policy"]
    if target == "move":
        visits = np.eye(visits.shape[1], dtype=np.float32)[visits.argmax(axis=1)]
    target_pi = torch.from_numpy(visits)
    policy_loss = -(target_pi * torch.log_softmax(logits, dim=1)).sum(dim=1).mean()
    value = policy.value_net(policy.mlp_extractor.forward_critic(features))[:, 0]
    goal = torch.from_numpy(batch["targets"][:, 0] - batch["targets"][:, 1])
    value_loss = ((value - goal) ** 2).mean()
    return policy_loss + value_weight * value_loss, policy_loss, value_loss


class Trainer:
    """One run's state: the PPO model, optimizer, buffer, random state and history;
    ``iterate`` does one iteration, ``save``/``load`` checkpoint it."""

    def __init__(self, cfg: DistillConfig, progress: bool = False) -> None:
        import torch
        from sb3_contrib import MaskablePPO

        from labyrinth_env.agents import policy_net
        from labyrinth_env.agents.policies import LookaheadPolicy

        torch.set_num_threads(cfg.threads)
        self.cfg = cfg
        self.spec = labyrinth_env.get_spec(cfg.env_id)
        self.module = _module(self.spec)
        K = self.spec.kernel
        raw = labyrinth_env.raw_env(cfg.env_id, **{**cfg.options, "lookahead": True})
        self.options_vector = raw.options_vector()  # Team Edition's record writes its own block
        self.players = int(raw.options.num_players)
        self.generic = raw.generic_lookahead()
        self.obs_size = int(raw.obs_size)
        init = Path(cfg.init_from)
        if not init.is_file():
            raise ValueError(
                f"training config: init_from: no model at {cfg.init_from!r} (the final_model.zip of a run with "
                "ppo.policy: lookahead: run that stage first)"
            )
        self.model = MaskablePPO.load(str(init), device="cpu")
        self.policy = self.model.policy
        if not isinstance(self.policy, LookaheadPolicy) or self.policy.observation_space.shape[0] != self.obs_size:
            raise ValueError(
                f"training config: init_from {cfg.init_from!r} is not a LookaheadPolicy of {cfg.env_id} with "
                f"lookahead=True (observation of {self.obs_size} floats)"
            )
        self.policy.set_training_mode(False)
        shaping = policy_net.shaping_of_run(init.parent)
        if shaping is None:
            raise ValueError(
                f"training config: init_from: no config.json beside {cfg.init_from!r} to say the shaping its critic "
                "was trained with"
            )
        self.shaping = shaping
        self.optimizer = torch.optim.Adam(self.policy.parameters(), lr=cfg.train["learning_rate"])
        self.buffer = PolicyBuffer(cfg.train["buffer"])
        self.rng = np.random.default_rng(cfg.seed)
        self.iteration = 0
        self.seconds = 0.0
        self.games = 0
        self.history: list[dict[str, Any]] = []
        self.rows_per_game = 256
        self.pool: Any = None
        self.progress = progress  # a bar over each iteration's games (minutes in Labyrinthos)
        assert K.OBS_SIZE + K.NUM_ACTIONS * self.policy.layout["features"] == self.obs_size

    # --- the games ----------------------------------------------------------------------
    def search_policy(self) -> tuple:
        from labyrinth_env.agents import policy_net

        arrays, shape = policy_net.policy_arrays(self.policy)
        own = 0 if self.generic else self.obs_size
        return policy_net.search_arrays(arrays, {**shape, **self.shaping}, own)

    def params(self, simulations: int, noise: float) -> np.ndarray:
        m, sp = self.module, self.cfg.selfplay
        p = np.zeros(m.NUM_PARAMS, dtype=np.float64)
        p[m.P_SIMULATIONS], p[m.P_C], p[m.P_NOISE] = simulations, sp["c"], noise
        p[m.P_TEMPERATURE_MOVES], p[m.P_MAX_DECISIONS] = sp["temperature_moves"], sp["max_decisions"]
        p[m.P_ADJUDICATE], p[m.P_LEAF_MIX] = sp["adjudicate"], sp["leaf_mix"]
        p[m.P_TARGET] = m.TARGET_VISITS
        p[m.P_COOPERATIVE] = 1.0 if self.spec.cooperative else 0.0
        p[m.P_PLAY_NETWORK] = 1.0 if sp["play"] == "network" else 0.0
        return p

    def run_games(
        self, policy: tuple, params: np.ndarray, seeds: np.ndarray, seats: np.ndarray, opponents: np.ndarray, what: str
    ) -> tuple[dict[str, SparseRows], np.ndarray, np.ndarray]:
        """``play_games`` over ``workers`` processes in batches of a few games (a bar counts
        the games as the batches finish), in seed order."""
        from tqdm import tqdm

        games = seeds.shape[0]
        batches = np.array_split(np.arange(games), min(games, max(1, 4 * self.cfg.workers), max(1, games // 2)))
        args = [
            (self.spec, self.options_vector, policy, params, seeds[b], seats[b], opponents[b], self.obs_size)
            for b in batches
        ]
        bar = tqdm(total=games, desc=what, unit="game", leave=False, disable=not self.progress)
        results = []
        if self.cfg.workers == 1:
            for a in args:
                results.append(play_games(*a, self.rows_per_game))
                bar.update(a[4].shape[0])
        else:
            if self.pool is None:
                import multiprocessing
                from concurrent.futures import ProcessPoolExecutor

                from labyrinth_env.agents.tournament import _worker_environment

                with _worker_environment():
                    self.pool = ProcessPoolExecutor(
                        self.cfg.workers, multiprocessing.get_context("spawn"), initializer=_worker_init
                    )
            futures = [self.pool.submit(play_games, *a, self.rows_per_game) for a in args]
            for future, a in zip(futures, args, strict=True):
                results.append(future.result())
                bar.update(a[4].shape[0])
        bar.close()
        self.rows_per_game = max(r[3] for r in results)
        rows = {k: SparseRows.concat([r[0][k] for r in results]) for k in PolicyBuffer.KINDS}
        return rows, np.concatenate([r[1] for r in results]), np.concatenate([r[2] for r in results])

    def seatings(self, against: list[str], games: int, first: int) -> tuple[np.ndarray, np.ndarray]:
        """Game g's learner seat (rotating) and opponent (``against`` in turn)."""
        index = first + np.arange(games)
        seats = (index % self.players).astype(np.int64)
        opponents = np.array([OPPONENTS.index(against[i % len(against)]) for i in index], dtype=np.int64)
        return seats, opponents

    def selfplay(self, policy: tuple) -> dict[str, Any]:
        sp = self.cfg.selfplay
        games = sp["games"]
        seeds = self.rng.integers(0, 2**63, size=games, dtype=np.int64).astype(np.uint64)
        seats, opponents = self.seatings(sp["against"], games, self.games)
        params = self.params(sp["simulations"], sp["noise"])
        rows, targets, returns = self.run_games(policy, params, seeds, seats, opponents, "games")
        self.buffer.add(rows, targets)
        won = returns[np.arange(games), seats] > 0
        return {"decisions": int(targets.shape[0]), "games": games, "won": float(won.mean())}

    def update(self) -> dict[str, float]:
        tr = self.cfg.train
        self.policy.set_training_mode(True)
        total = pol = val = 0.0
        for _ in range(tr["updates"]):
            batch = self.buffer.sample(self.rng, tr["batch_size"])
            loss, p, v = losses(self.policy, batch, tr["value_weight"], tr["target"])
            self.optimizer.zero_grad()
            loss.backward()
            self.optimizer.step()
            total, pol, val = total + loss.item(), pol + p.item(), val + v.item()
        self.policy.set_training_mode(False)
        n = tr["updates"]
        return {"loss": total / n, "policy_loss": pol / n, "value_loss": val / n}

    def evaluate(self, policy: tuple) -> list[dict[str, Any]]:
        ev = self.cfg.eval
        games = ev["games"]
        seeds = (EVAL_SEED + np.arange(games)).astype(np.uint64)
        out = []
        for opponent in ev["against"]:
            seats, opponents = self.seatings([opponent], games, 0)
            what = f"evaluation vs {opponent}"
            _, _, returns = self.run_games(policy, self.params(0, 0.0), seeds, seats, opponents, what)
            wins = int((returns[np.arange(games), seats] > 0).sum())
            lo, hi = wilson_interval(wins, games)
            out.append({"opponent": opponent, "games": games, "wins": wins, "win_rate": wins / games, "ci95": [lo, hi]})
        return out

    def iterate(self) -> dict[str, Any]:
        start = time.perf_counter()
        stats = self.selfplay(self.search_policy())
        played = time.perf_counter()
        stats.update(self.update())
        trained = time.perf_counter()
        self.iteration += 1
        self.games += stats["games"]
        stats.update(
            iteration=self.iteration,
            games_total=self.games,
            buffer=len(self.buffer),
            selfplay_seconds=played - start,
            update_seconds=trained - played,
            games_per_hour=stats["games"] * 3600.0 / max(played - start, 1e-9),
            updates_per_s=self.cfg.train["updates"] / max(trained - played, 1e-9),
        )
        if self.iteration % self.cfg.eval["every"] == 0:
            stats["eval"] = self.evaluate(self.search_policy())
            stats["eval_seconds"] = time.perf_counter() - trained
        self.seconds += time.perf_counter() - start
        stats["seconds"] = self.seconds
        self.history.append(stats)
        return stats

    def close(self) -> None:
        if self.pool is not None:
            self.pool.shutdown()
            self.pool = None

    # --- checkpoints --------------------------------------------------------------------
    def save(self, out: Path) -> None:
        import torch

        out.mkdir(parents=True, exist_ok=True)
        state = {
            "config": {k: v for k, v in self.cfg.__dict__.items() if k != "source"},
            "policy": self.policy.state_dict(),
            "optimizer": self.optimizer.state_dict(),
            "rng": self.rng.bit_generator.state,
            "iteration": self.iteration,
            "seconds": self.seconds,
            "games": self.games,
            "history": self.history,
            "rows_per_game": self.rows_per_game,
        }
        tmp = out / "checkpoint.pt.tmp"
        torch.save(state, tmp)
        np.savez_compressed(out / "buffer.tmp.npz", **self.buffer.state())
        (out / "buffer.tmp.npz").replace(out / "buffer.npz")
        tmp.replace(out / "checkpoint.pt")
        self.save_policy(out)

    def save_policy(self, out: Path) -> None:
        """``final_model.zip`` (the SB3 model, trained weights) and ``policy.npz`` (the file
        ``learned:PATH`` plays)."""
        from labyrinth_env.agents.policy_net import export_policy

        self.model.save(out / "final_model.zip")
        extra = {
            "env_id": self.cfg.env_id,
            "config": self.cfg.source,
            **self.shaping,
            "distill_iterations": self.iteration,
            "distill_games": self.games,
            "init_from": self.cfg.init_from,
        }
        export_policy(out / "final_model.zip", out / "policy.npz", extra)

    def load(self, out: Path) -> None:
        import torch

        path = out / "checkpoint.pt"
        if not path.is_file():
            raise ValueError(f"--resume: no checkpoint at {str(path)!r}")
        state = torch.load(path, weights_only=False)
        saved = state["config"]
        for key in ("env_id", "options", "init_from", "seed"):
            if saved[key] != getattr(self.cfg, key):
                raise ValueError(
                    f"--resume: the checkpoint's {key} {saved[key]!r} differs from the config's "
                    f"{getattr(self.cfg, key)!r}; resume with the config the run started with"
                )
        self.policy.load_state_dict(state["policy"])
        self.optimizer.load_state_dict(state["optimizer"])
        self.rng.bit_generator.state = state["rng"]
        self.iteration, self.seconds, self.games = state["iteration"], state["seconds"], state["games"]
        self.history = state["history"]
        self.rows_per_game = state["rows_per_game"]
        with np.load(out / "buffer.npz") as data:
            self.buffer.load({k: data[k] for k in data.files})


def warm_games(trainer: Trainer) -> None:
    """Compile (or load) the games of the run, announced, before the clock starts."""
    from labyrinth_env.compile import warm
    from labyrinth_env.progress import first_use

    warm(trainer.cfg.env_id, ["aec", "alphazero"])
    policy = trainer.search_policy()
    params = trainer.params(1, 0.0)
    params[trainer.module.P_MAX_DECISIONS] = 2
    seats, opponents = trainer.seatings(trainer.cfg.selfplay["against"], 1, 0)
    with first_use(("distill", trainer.cfg.env_id), f"the {trainer.spec.title} PPO network's games"):
        for p in (params, trainer.params(0, 0.0)):
            play_games(
                trainer.spec, trainer.options_vector, policy, p, np.zeros(1, dtype=np.uint64), seats,
                opponents, trainer.obs_size, 8,
            )  # fmt: skip


def train(cfg: DistillConfig, resume: bool = False, progress: bool = True) -> dict[str, Any]:
    """Run (or continue) the training of ``cfg``; returns the last evaluation and figures."""
    out = Path(cfg.out_dir)
    if not resume and (out / "checkpoint.pt").exists():
        raise ValueError(
            f"{str(out)!r} already holds a run (checkpoint.pt): pass --resume to continue it, or choose another --out"
        )
    trainer = Trainer(cfg, progress)
    if resume:
        trainer.load(out)
    warm_games(trainer)
    out.mkdir(parents=True, exist_ok=True)
    (out / "config.json").write_text(json.dumps({**cfg.__dict__, **trainer.shaping}, indent=1))
    writer = None
    try:
        from torch.utils.tensorboard import SummaryWriter

        writer = SummaryWriter(str(out / "tb"))
    except ImportError:
        pass  # the tensorboard package is optional; scalars.jsonl has every scalar
    budget = cfg.budget_minutes * 60.0
    try:
        with open(out / "scalars.jsonl", "a") as log, open(out / "eval.jsonl", "a") as evals:
            if not resume and not trainer.history and progress:
                print("evaluating the starting network ...", flush=True)
            if not resume:
                start_eval = trainer.evaluate(trainer.search_policy())
                evals.write(json.dumps({"iteration": 0, "eval": start_eval}) + "\n")
                if progress:
                    print("; ".join(f"start: vs {r['opponent']} {r['win_rate']:.3f}" for r in start_eval), flush=True)
            while trainer.iteration < cfg.iterations and trainer.seconds < budget:
                stats = trainer.iterate()
                write_scalars(writer, log, stats)
                if "eval" in stats:
                    evals.write(json.dumps({"iteration": stats["iteration"], "eval": stats["eval"]}) + "\n")
                    evals.flush()
                if progress:
                    line = (
                        f"iteration {stats['iteration']}: {stats['decisions']} decisions, "
                        f"{stats['games_per_hour']:,.0f} games/h, search won {stats['won']:.2f}, "
                        f"loss {stats['loss']:.3f} (policy {stats['policy_loss']:.3f}, value "
                        f"{stats['value_loss']:.3f}), {stats['seconds'] / 60:.1f} min"
                    )
                    for row in stats.get("eval", []):
                        line += f"; network vs {row['opponent']} {row['win_rate']:.3f}"
                    print(line, flush=True)
                if trainer.iteration % cfg.checkpoint_every == 0:
                    trainer.save(out)
        trainer.save(out)
    finally:
        trainer.close()
    if writer is not None:
        writer.close()
    curve = plot_curve(trainer.history, out / "learning_curve.png", f"{cfg.env_id} {cfg.options} (search distilled)")
    last_eval = next((h["eval"] for h in reversed(trainer.history) if "eval" in h), [])
    return {
        "iterations": trainer.iteration,
        "games": trainer.games,
        "seconds": trainer.seconds,
        "final": last_eval,
        "curve": None if curve is None else str(curve),
        "net": str(out / "policy.npz"),
        "trainer": trainer,
    }


def main(argv: list[str] | None = None) -> int:
    return run_command(argv, __doc__.split("\n\n")[0], ALGO, load_config, train)


if __name__ == "__main__":
    raise SystemExit(main())
