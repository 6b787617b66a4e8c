"""Expert iteration (AlphaZero-style self-play) from a YAML config: the network guides the
search, the search's visit counts and the games' results train the network.

    labyrinth train --config configs/train/labyrinx_alphazero.yaml
    labyrinth train --config configs/train/labyrinx_alphazero.yaml --resume

Each iteration plays ``selfplay.games`` games in numba (``agents/alphazero_template.py``:
every seat by the search over worlds determinized for the deciding seat, expanded and
valued by the network; no heuristic), adds their decisions to a replay buffer of the last
``train.buffer`` decisions, and takes ``train.updates`` Adam steps on minibatches drawn
from it (loss: cross-entropy of the masked policy against the search's policy target,
plus the squared error of every seat's value against the game's returns). Three aids for
games that random play never finishes: the network weighs each legal action's features
(``core/batch_template.action_features``), ``net.feature_prior`` starts those weights at a
given weighting, and an undecided game's value targets follow each seat's progress
(``selfplay.adjudicate``; ``selfplay.max_turns`` stops self-play games sooner than the
evaluation's). Every ``eval.every``
iterations the network alone (masked argmax; ``eval.simulations > 0``: its search) plays
``eval.games`` games against each of ``eval.against``, the same games every time, seats
rotating; win rates with Wilson 95% intervals go to ``eval.jsonl``, ``scalars.jsonl``,
TensorBoard (``tb/``, when the ``tensorboard`` package is installed) and
``learning_curve.png``.

The run stops after ``iterations`` iterations or once ``budget_minutes`` of training
(summed over resumed sessions) have passed, whichever comes first. ``checkpoint.pt``
(network, optimizer, buffer, random state, history) is written every
``checkpoint_every`` iterations and at the end; ``--resume`` continues from it, and the
run then goes on exactly as if it had never stopped (same games, same updates, same
weights). ``net.npz`` is the network alone (the file ``learned:PATH`` loads).
"""

from __future__ import annotations

import argparse
import json
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

import labyrinth_env
from labyrinth_env.agents import alphazero_net as N
from labyrinth_env.agents.config_schema import check_schema, merge_sections
from labyrinth_env.agents.evaluate import wilson_interval
from labyrinth_env.compile import warm

ALGO = "alphazero"
EVAL_OPPONENTS = ("random", "heuristic", "self")  # self: every seat the learner (a team, in Team Edition)
# the policy target: the completed-Q policy of the search's root, or its visit distribution
TARGETS = ("visits", "completed_q")  # in the order of the template's TARGET_* codes
EVAL_SEED = 1_000_003  # eval game g plays from seed EVAL_SEED + g, every evaluation

_SECTIONS: dict[str, dict[str, type | tuple[type, ...]]] = {
    "net": {"hidden": list, "feature_prior": list},
    "selfplay": {
        "games": int,
        "simulations": int,
        "c": float,
        "noise": float,
        "temperature_moves": int,
        "max_decisions": int,
        "target": str,
        "adjudicate": float,
        "leaf_mix": float,
        "max_turns": int,
    },
    "train": {
        "learning_rate": float,
        "batch_size": int,
        "updates": int,
        "buffer": int,
        "weight_decay": float,
        "value_weight": float,
    },
    "eval": {"every": int, "games": int, "against": list, "simulations": int},
}
_TOP: dict[str, type | tuple[type, ...]] = {
    "algo": str,
    "env_id": str,
    "options": dict,
    "seed": int,
    "out_dir": str,
    "iterations": int,
    "budget_minutes": float,
    "checkpoint_every": int,
    "threads": int,
    **{k: dict for k in _SECTIONS},
}


@dataclass
class AlphaZeroConfig:
    env_id: str
    algo: str = ALGO
    options: dict = field(default_factory=dict)
    seed: int = 0
    out_dir: str = "results/train/alphazero"
    iterations: int = 1_000_000
    budget_minutes: float = 120.0
    checkpoint_every: int = 5
    threads: int = 1
    net: dict = field(default_factory=lambda: {"hidden": [128, 128], "feature_prior": []})
    selfplay: dict = field(
        default_factory=lambda: {
            "games": 16,
            "simulations": 32,
            "c": 1.5,
            "noise": 0.25,
            "temperature_moves": 20,
            "max_decisions": 20_000,
            "target": "completed_q",
            "adjudicate": 0.5,
            "leaf_mix": 0.0,
            "max_turns": 0,
        }
    )
    train: dict = field(
        default_factory=lambda: {
            "learning_rate": 1e-3,
            "batch_size": 256,
            "updates": 50,
            "buffer": 50_000,
            "weight_decay": 1e-4,
            "value_weight": 1.0,
        }
    )
    eval: dict = field(
        default_factory=lambda: {"every": 5, "games": 40, "against": ["random", "heuristic"], "simulations": 0}
    )


def check_config(data: Any, where: str = "training config") -> AlphaZeroConfig:
    """A mapping (the YAML) checked completely into a config; ``ValueError`` says what is
    wrong and what is allowed."""
    cfg = AlphaZeroConfig(**check_schema(data, _TOP, _SECTIONS, where))
    merge_sections(cfg, data, _SECTIONS)
    if cfg.algo != ALGO:
        raise ValueError(f"{where}: algo {cfg.algo!r} is not {ALGO!r}")
    if cfg.env_id not in labyrinth_env.list_envs():
        raise ValueError(f"{where}: unknown env_id {cfg.env_id!r}; available: {labyrinth_env.list_envs()}")
    try:
        labyrinth_env.raw_env(cfg.env_id, **cfg.options)
    except (ValueError, TypeError) as exc:
        raise ValueError(f"{where}: {exc}") from None
    try:
        cfg.net["hidden"] = list(N.check_hidden(cfg.net["hidden"]))
        cfg.net["feature_prior"] = N.check_feature_prior(cfg.net["feature_prior"])
    except ValueError as exc:
        raise ValueError(f"{where}: {exc}") from None
    sp, tr, ev = cfg.selfplay, cfg.train, cfg.eval
    positive = {
        "iterations": cfg.iterations,
        "checkpoint_every": cfg.checkpoint_every,
        "threads": cfg.threads,
        "selfplay.games": sp["games"],
        "selfplay.simulations": sp["simulations"],
        "selfplay.max_decisions": sp["max_decisions"],
        "train.batch_size": tr["batch_size"],
        "train.updates": tr["updates"],
        "train.buffer": tr["buffer"],
        "eval.every": ev["every"],
        "eval.games": ev["games"],
    }
    for key, value in positive.items():
        if value < 1:
            raise ValueError(f"{where}: {key} must be >= 1, got {value}")
    if not cfg.budget_minutes > 0:
        raise ValueError(f"{where}: budget_minutes must be > 0, got {cfg.budget_minutes}")
    if sp["max_turns"] < 0:
        raise ValueError(f"{where}: selfplay.max_turns must be >= 0 (0: the turn limit of options)")
    if sp["max_turns"]:
        try:
            labyrinth_env.raw_env(cfg.env_id, **{**cfg.options, "max_turns": sp["max_turns"]})
        except (ValueError, TypeError) as exc:
            raise ValueError(f"{where}: selfplay.max_turns: {exc}") from None
    if not 0.0 <= sp["adjudicate"] <= 1.0:
        raise ValueError(f"{where}: selfplay.adjudicate must be in [0, 1] (0: undecided games teach a draw)")
    if not 0.0 <= sp["leaf_mix"] <= 1.0:
        raise ValueError(f"{where}: selfplay.leaf_mix must be in [0, 1] (0: the network's value alone)")
    if not 0.0 <= sp["noise"] <= 1.0 or sp["c"] < 0 or sp["temperature_moves"] < 0:
        raise ValueError(f"{where}: selfplay.noise must be in [0, 1], selfplay.c and temperature_moves >= 0")
    if not tr["learning_rate"] > 0 or tr["weight_decay"] < 0 or tr["value_weight"] < 0:
        raise ValueError(f"{where}: train.learning_rate must be > 0, weight_decay and value_weight >= 0")
    if sp["target"] not in TARGETS:
        raise ValueError(f"{where}: unknown selfplay.target {sp['target']!r}; use one of {list(TARGETS)}")
    if ev["simulations"] < 0:
        raise ValueError(f"{where}: eval.simulations must be >= 0 (0: the network alone)")
    for opp in ev["against"]:
        if opp not in EVAL_OPPONENTS:
            raise ValueError(f"{where}: unknown eval.against entry {opp!r}; use {list(EVAL_OPPONENTS)}")
    if "heuristic" in ev["against"] and labyrinth_env.get_spec(cfg.env_id).heuristic_module is None:
        raise ValueError(f"{where}: eval.against names the heuristic, and {cfg.env_id} has none")
    return cfg


def load_config(path: str | Path) -> AlphaZeroConfig:
    """Read and fully check a config file."""
    from labyrinth_env.registry import parse_yaml_file

    p = Path(path)
    return check_config(parse_yaml_file(p, "training config"), f"training config {str(p)!r}")


class SparseRows:
    """Rows of a mostly-zero float32 matrix (observations, visit distributions, masks):
    the nonzero columns and values of each row. A Labyrinx observation has about 230
    nonzeros in 7,507 entries, so the buffer holds thirty times more decisions."""

    def __init__(self, indptr: np.ndarray, indices: np.ndarray, values: np.ndarray, width: int) -> None:
        self.indptr, self.indices, self.values, self.width = indptr, indices, values, int(width)

    @classmethod
    def from_dense(cls, dense: np.ndarray) -> SparseRows:
        rows, cols = np.nonzero(dense)
        indptr = np.zeros(dense.shape[0] + 1, dtype=np.int64)
        np.cumsum(np.bincount(rows, minlength=dense.shape[0]), out=indptr[1:])
        return cls(indptr, cols.astype(np.int32), dense[rows, cols].astype(np.float32), dense.shape[1])

    @classmethod
    def concat(cls, parts: list[SparseRows]) -> SparseRows:
        """The rows of ``parts``, one after the other."""
        offsets = np.cumsum([0] + [p.indices.shape[0] for p in parts[:-1]])
        indptr = np.concatenate([[0]] + [p.indptr[1:] + off for p, off in zip(parts, offsets, strict=True)])
        return cls(
            indptr.astype(np.int64),
            np.concatenate([p.indices for p in parts]),
            np.concatenate([p.values for p in parts]),
            parts[0].width,
        )

    def __len__(self) -> int:
        return self.indptr.shape[0] - 1

    def gather(self, rows: np.ndarray) -> np.ndarray:
        """The dense float32 rows ``rows``."""
        starts, ends = self.indptr[rows], self.indptr[rows + 1]
        lengths = ends - starts
        out = np.zeros((rows.shape[0], self.width), dtype=np.float32)
        which = np.repeat(np.arange(rows.shape[0]), lengths)
        flat = np.repeat(starts - np.cumsum(lengths) + lengths, lengths) + np.arange(int(lengths.sum()))
        out[which, self.indices[flat]] = self.values[flat]
        return out

    def arrays(self, prefix: str) -> dict[str, np.ndarray]:
        return {
            f"{prefix}_indptr": self.indptr,
            f"{prefix}_indices": self.indices,
            f"{prefix}_values": self.values,
            f"{prefix}_width": np.array(self.width),
        }

    @classmethod
    def from_arrays(cls, data: Any, prefix: str) -> SparseRows:
        return cls(
            data[f"{prefix}_indptr"], data[f"{prefix}_indices"], data[f"{prefix}_values"], int(data[f"{prefix}_width"])
        )


class ReplayBuffer:
    """The decisions of the last iterations, at most ``capacity`` (whole iterations are
    dropped, oldest first, once the newest alone fit)."""

    KINDS = ("obs", "features", "policy", "mask")

    def __init__(self, capacity: int) -> None:
        self.capacity = capacity
        self.chunks: list[dict[str, Any]] = []

    def __len__(self) -> int:
        return sum(len(c["targets"]) for c in self.chunks)

    def add(self, rows: dict[str, SparseRows], targets: np.ndarray) -> None:
        """One iteration's decisions (``rows``: one ``SparseRows`` per kind of ``KINDS``)."""
        chunk: dict[str, Any] = {**{k: rows[k] for k in self.KINDS}, "targets": targets.astype(np.float32)}
        self.chunks.append(chunk)
        while len(self.chunks) > 1 and len(self) - len(self.chunks[0]["targets"]) >= self.capacity:
            self.chunks.pop(0)

    def sample(self, rng: np.random.Generator, size: int) -> dict[str, np.ndarray]:
        """``size`` decisions drawn uniformly with replacement, as dense arrays."""
        sizes = np.array([len(c["targets"]) for c in self.chunks])
        picks = rng.integers(0, int(sizes.sum()), size=size)
        offsets = np.concatenate([[0], np.cumsum(sizes)])
        which = np.searchsorted(offsets, picks, side="right") - 1
        out = {k: np.zeros((size, 0), dtype=np.float32) for k in (*self.KINDS, "targets")}
        parts: dict[str, list[np.ndarray]] = {k: [] for k in out}
        order = []
        for c in np.unique(which):
            sel = np.flatnonzero(which == c)
            rows = picks[sel] - offsets[c]
            order.append(sel)
            for k in self.KINDS:
                parts[k].append(self.chunks[c][k].gather(rows))
            parts["targets"].append(self.chunks[c]["targets"][rows])
        back = np.argsort(np.concatenate(order), kind="stable")
        return {k: np.concatenate(v)[back] for k, v in parts.items()}

    def state(self) -> dict[str, np.ndarray]:
        data: dict[str, np.ndarray] = {"count": np.array(len(self.chunks))}
        for i, c in enumerate(self.chunks):
            for k in self.KINDS:
                data.update(c[k].arrays(f"c{i}_{k}"))
            data[f"c{i}_targets"] = c["targets"]
        return data

    def load(self, data: Any) -> None:
        self.chunks = []
        for i in range(int(data["count"])):
            chunk: dict[str, Any] = {k: SparseRows.from_arrays(data, f"c{i}_{k}") for k in self.KINDS}
            chunk["targets"] = np.asarray(data[f"c{i}_targets"])
            self.chunks.append(chunk)


def search_params(module: Any, cfg: AlphaZeroConfig, simulations: int, noise: float) -> np.ndarray:
    p = np.zeros(module.NUM_PARAMS, dtype=np.float64)
    p[module.P_SIMULATIONS] = simulations
    p[module.P_C] = cfg.selfplay["c"]
    p[module.P_NOISE] = noise
    p[module.P_TEMPERATURE_MOVES] = cfg.selfplay["temperature_moves"]
    p[module.P_MAX_DECISIONS] = cfg.selfplay["max_decisions"]
    p[module.P_TARGET] = TARGETS.index(cfg.selfplay["target"])
    p[module.P_ADJUDICATE] = cfg.selfplay["adjudicate"]
    p[module.P_LEAF_MIX] = cfg.selfplay["leaf_mix"]
    p[module.P_COOPERATIVE] = 1.0 if labyrinth_env.get_spec(cfg.env_id).cooperative else 0.0
    return p


def losses(model: Any, batch: dict[str, np.ndarray], players: int, value_weight: float) -> tuple[Any, Any, Any]:
    """``(total, policy, value)`` losses of ``model`` on a batch: cross-entropy of the
    masked policy against the search's visit distribution, and the mean squared error of
    the value of each seat in the game (egocentric order) against its return."""
    import torch

    x = torch.from_numpy(batch["obs"])
    mask = torch.from_numpy(batch["mask"]) > 0
    features = torch.from_numpy(batch["features"]).reshape(mask.shape[0], mask.shape[1], N.NUM_FEATURES)
    target_pi = torch.from_numpy(batch["policy"])
    target_v = torch.from_numpy(batch["targets"][:, :players])
    logits, value = model(x, features)
    logits = logits.masked_fill(~mask, -1e9)
    policy_loss = -(target_pi * torch.log_softmax(logits, dim=1)).sum(dim=1).mean()
    value_loss = ((value[:, :players] - target_v) ** 2).mean()
    return policy_loss + value_weight * value_loss, policy_loss, value_loss


class Trainer:
    """One run's state: network, optimizer, buffer, random state and history; ``iterate``
    does one iteration, ``save``/``load`` checkpoint it."""

    def __init__(self, cfg: AlphaZeroConfig) -> None:
        import torch

        from labyrinth_env.agents import alphazero_template
        from labyrinth_env.core.templates import bind

        torch.set_num_threads(cfg.threads)
        self.cfg = cfg
        self.spec = labyrinth_env.get_spec(cfg.env_id)
        self.kernel = self.spec.kernel
        self.module = bind(alphazero_template, self.spec)
        raw = labyrinth_env.raw_env(cfg.env_id, **cfg.options)
        self.options_vector = raw.options_vector()
        # self-play may stop games sooner than the evaluation's games (adjudicated by progress)
        turns = cfg.selfplay["max_turns"]
        self.selfplay_options = (
            labyrinth_env.raw_env(cfg.env_id, **{**cfg.options, "max_turns": turns}).options_vector()
            if turns
            else self.options_vector
        )
        self.players = int(raw.options.num_players)
        K = self.kernel
        self.model = N.TorchNet(K.OBS_SIZE, K.NUM_ACTIONS, K.NUM_SEATS, tuple(cfg.net["hidden"]), seed=cfg.seed)
        if cfg.net["feature_prior"]:
            N.set_feature_prior(self.model, cfg.net["feature_prior"])
        self.optimizer = torch.optim.Adam(
            self.model.parameters(), lr=cfg.train["learning_rate"], weight_decay=cfg.train["weight_decay"]
        )
        self.buffer = ReplayBuffer(cfg.train["buffer"])
        self.rng = np.random.default_rng(cfg.seed)
        self.iteration = 0
        self.seconds = 0.0  # training time over every session
        self.games = 0
        self.history: list[dict[str, Any]] = []
        self.rows_per_game = 256  # the record arrays' size for one game, doubled when a game overflows

    # --- one iteration ------------------------------------------------------------------
    def selfplay(self, net: tuple) -> dict[str, Any]:
        """Play ``selfplay.games`` games, one numba call each, into the buffer. One game at a
        time keeps the dense record arrays to one game's decisions (a long Paths of Destiny
        game records thousands, of 10,411 floats each); its rows are stored sparse."""
        K, sp = self.kernel, self.cfg.selfplay
        games = sp["games"]
        seeds = self.rng.integers(0, 2**63, size=games, dtype=np.int64).astype(np.uint64)
        params = search_params(self.module, self.cfg, sp["simulations"], sp["noise"])
        returns = np.zeros((games, K.NUM_SEATS), dtype=np.float64)
        parts: dict[str, list[Any]] = {k: [] for k in (*ReplayBuffer.KINDS, "targets")}
        for g in range(games):
            while True:
                capacity = self.rows_per_game
                obs = np.zeros((capacity, K.OBS_SIZE), dtype=np.float32)
                features = np.zeros((capacity, K.NUM_ACTIONS, N.NUM_FEATURES), dtype=np.float32)
                masks = np.zeros((capacity, K.NUM_ACTIONS), dtype=np.uint8)
                policy = np.zeros((capacity, K.NUM_ACTIONS), dtype=np.float32)
                seats = np.zeros(capacity, dtype=np.int64)
                which = np.zeros(capacity, dtype=np.int64)
                targets = np.zeros((capacity, K.NUM_SEATS), dtype=np.float32)
                rows = self.module.selfplay(
                    seeds[g : g + 1],
                    self.selfplay_options,
                    net,
                    params,
                    obs,
                    features,
                    masks,
                    policy,
                    seats,
                    which,
                    targets,
                    returns[g : g + 1],
                )
                if rows < capacity:
                    break
                self.rows_per_game *= 2  # too small for this game: play it again (the same game), larger
            parts["obs"].append(SparseRows.from_dense(obs[:rows]))
            parts["features"].append(SparseRows.from_dense(features[:rows].reshape(rows, -1)))
            parts["policy"].append(SparseRows.from_dense(policy[:rows]))
            parts["mask"].append(SparseRows.from_dense(masks[:rows]))
            parts["targets"].append(targets[:rows])
        self.buffer.add({k: SparseRows.concat(parts[k]) for k in ReplayBuffer.KINDS}, np.concatenate(parts["targets"]))
        decided = np.abs(returns[:, : self.players]).sum(axis=1) > 0
        rows = sum(len(p) for p in parts["targets"])
        return {"decisions": int(rows), "games": games, "decided": float(decided.mean())}

    def update(self) -> dict[str, float]:
        tr = self.cfg.train
        total = pol = val = 0.0
        for _ in range(tr["updates"]):
            batch = self.buffer.sample(self.rng, tr["batch_size"])
            loss, p, v = losses(self.model, batch, self.players, tr["value_weight"])
            self.optimizer.zero_grad()
            loss.backward()
            self.optimizer.step()
            total, pol, val = total + loss.item(), pol + p.item(), val + v.item()
        n = tr["updates"]
        return {"loss": total / n, "policy_loss": pol / n, "value_loss": val / n}

    def evaluate(self, net: tuple) -> list[dict[str, Any]]:
        ev = self.cfg.eval
        games = ev["games"]
        seeds = (EVAL_SEED + np.arange(games)).astype(np.uint64)
        seats = np.arange(games, dtype=np.int64) % self.players
        params = search_params(self.module, self.cfg, ev["simulations"], 0.0)
        rows = []
        for opponent in ev["against"]:
            kind = {
                "random": self.module.OPPONENT_RANDOM,
                "heuristic": self.module.OPPONENT_HEURISTIC,
                "self": self.module.OPPONENT_SELF,
            }[opponent]
            returns = np.zeros((games, self.kernel.NUM_SEATS), dtype=np.float64)
            self.module.play_match(seeds, self.options_vector, net, params, seats, kind, returns)
            wins = int((returns[np.arange(games), seats] > 0).sum())
            lo, hi = wilson_interval(wins, games)
            rows.append(
                {"opponent": opponent, "games": games, "wins": wins, "win_rate": wins / games, "ci95": [lo, hi]}
            )
        return rows

    def iterate(self) -> dict[str, Any]:
        start = time.perf_counter()
        net = N.to_arrays(self.model)
        stats = self.selfplay(net)
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
            stats["eval"] = self.evaluate(N.to_arrays(self.model))
            stats["eval_seconds"] = time.perf_counter() - trained
        self.seconds += time.perf_counter() - start
        stats["seconds"] = self.seconds
        self.history.append(stats)
        return stats

    # --- checkpoints --------------------------------------------------------------------
    def save(self, out: Path) -> None:
        import torch

        out.mkdir(parents=True, exist_ok=True)
        state = {
            "config": self.cfg.__dict__,
            "model": self.model.state_dict(),
            "optimizer": self.optimizer.state_dict(),
            "rng": self.rng.bit_generator.state,
            "iteration": self.iteration,
            "seconds": self.seconds,
            "games": self.games,
            "history": self.history,
        }
        tmp = out / "checkpoint.pt.tmp"
        torch.save(state, tmp)
        np.savez_compressed(out / "buffer.tmp.npz", **self.buffer.state())
        (out / "buffer.tmp.npz").replace(out / "buffer.npz")
        tmp.replace(out / "checkpoint.pt")
        self.save_net(out / "net.npz")

    def save_net(self, path: Path) -> None:
        meta = {
            "env_id": self.cfg.env_id,
            "options": self.cfg.options,
            "hidden": self.cfg.net["hidden"],
            "iteration": self.iteration,
            "games": self.games,
            "seed": self.cfg.seed,
            "leaf_mix": self.cfg.selfplay["leaf_mix"],
        }
        N.save_net(path, N.to_arrays(self.model), meta)

    def load(self, out: Path) -> None:
        import torch

        path = out / "checkpoint.pt"
        if not path.is_file():
            raise ValueError(f"--resume: no checkpoint at {str(path)!r}")
        state = torch.load(path, weights_only=False)
        saved = state["config"]
        for key in ("env_id", "options", "net", "seed"):
            if saved[key] != getattr(self.cfg, key):
                raise ValueError(
                    f"--resume: the checkpoint's {key} {saved[key]!r} differs from the config's "
                    f"{getattr(self.cfg, key)!r}; resume with the config the run started with"
                )
        self.model.load_state_dict(state["model"])
        self.optimizer.load_state_dict(state["optimizer"])
        self.rng.bit_generator.state = state["rng"]
        self.iteration, self.seconds, self.games = state["iteration"], state["seconds"], state["games"]
        self.history = state["history"]
        with np.load(out / "buffer.npz") as data:
            self.buffer.load({k: data[k] for k in data.files})


def write_scalars(writer: Any, log: Any, stats: dict[str, Any]) -> None:
    scalars = {
        k: stats[k]
        for k in (
            "loss",
            "policy_loss",
            "value_loss",
            "games_per_hour",
            "updates_per_s",
            "decided",
            "buffer",
            "selfplay_seconds",
            "update_seconds",
            "eval_seconds",
        )
        if k in stats
    }
    for row in stats.get("eval", []):
        scalars[f"eval/win_rate_vs_{row['opponent']}"] = row["win_rate"]
    log.write(json.dumps({"iteration": stats["iteration"], "games": stats["games_total"], **scalars}) + "\n")
    log.flush()
    if writer is not None:
        for k, v in scalars.items():
            writer.add_scalar(k, v, stats["games_total"])
        writer.flush()


def plot_curve(history: list[dict[str, Any]], path: Path, title: str) -> Path | None:
    """Win rates (with their intervals) and losses against self-play games."""
    try:
        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        return None
    fig, (ax1, ax2) = plt.subplots(1, 2, figsize=(11, 4))
    games = [h["games_total"] for h in history]
    ax2.plot(games, [h["policy_loss"] for h in history], label="policy loss")
    ax2.plot(games, [h["value_loss"] for h in history], label="value loss")
    ax2.set_xlabel("self-play games")
    ax2.legend()
    evals = [h for h in history if "eval" in h]
    for opponent in sorted({row["opponent"] for h in evals for row in h["eval"]}):
        xs, ys, lo, hi = [], [], [], []
        for h in evals:
            for row in h["eval"]:
                if row["opponent"] == opponent:
                    xs.append(h["games_total"])
                    ys.append(row["win_rate"])
                    lo.append(row["ci95"][0])
                    hi.append(row["ci95"][1])
        ax1.plot(xs, ys, marker="o", label=f"vs {opponent}")
        ax1.fill_between(xs, lo, hi, alpha=0.2)
    ax1.set_ylim(0, 1)
    ax1.set_xlabel("self-play games")
    ax1.set_ylabel("win rate (Wilson 95%)")
    if evals:
        ax1.legend()
    fig.suptitle(title)
    fig.tight_layout()
    fig.savefig(path, dpi=80)
    plt.close(fig)
    return path


def train(cfg: AlphaZeroConfig, resume: bool = False, progress: bool = True) -> dict[str, Any]:
    """Run (or continue) the training of ``cfg``; returns the last evaluation and figures."""
    out = Path(cfg.out_dir)
    if not resume and (out / "checkpoint.pt").exists():
        raise ValueError(
            f"{str(out)!r} already holds a run (checkpoint.pt): pass --resume to continue it, or choose another --out"
        )
    trainer = Trainer(cfg)
    if resume:
        trainer.load(out)
    # the self-play games, matches and search compiled (announced) before the first
    # iteration, whose time and budget they would otherwise take
    warm(cfg.env_id, ["aec", "alphazero"])
    out.mkdir(parents=True, exist_ok=True)
    writer = None
    try:
        from torch.utils.tensorboard import SummaryWriter

        writer = SummaryWriter(str(out / "tb"))
    except ImportError:
        pass  # the tensorboard package is optional; scalars.jsonl has every scalar
    budget = cfg.budget_minutes * 60.0
    with open(out / "scalars.jsonl", "a") as log, open(out / "eval.jsonl", "a") as evals:
        while trainer.iteration < cfg.iterations and trainer.seconds < budget:
            stats = trainer.iterate()
            write_scalars(writer, log, stats)
            if "eval" in stats:
                evals.write(json.dumps({"iteration": stats["iteration"], "eval": stats["eval"]}) + "\n")
                evals.flush()
            if progress:
                line = (
                    f"iteration {stats['iteration']}: {stats['decisions']} decisions, "
                    f"{stats['games_per_hour']:,.0f} games/h, loss {stats['loss']:.3f} "
                    f"(policy {stats['policy_loss']:.3f}, value {stats['value_loss']:.3f}), "
                    f"{stats['seconds'] / 60:.1f} min"
                )
                for row in stats.get("eval", []):
                    line += f"; vs {row['opponent']} {row['win_rate']:.2f}"
                print(line, flush=True)
            if trainer.iteration % cfg.checkpoint_every == 0:
                trainer.save(out)
    trainer.save(out)
    if writer is not None:
        writer.close()
    curve = plot_curve(trainer.history, out / "learning_curve.png", f"{cfg.env_id} {cfg.options} (AlphaZero)")
    last_eval = next((h["eval"] for h in reversed(trainer.history) if "eval" in h), [])
    return {
        "iterations": trainer.iteration,
        "games": trainer.games,
        "seconds": trainer.seconds,
        "final": last_eval,
        "curve": None if curve is None else str(curve),
        "net": str(out / "net.npz"),
        "trainer": trainer,
    }


def run_command(argv: list[str] | None, description: str, algo: str, load: Any, run: Any) -> int:
    """``labyrinth train`` for an iteration trainer (``algo: alphazero`` or ``distill``): the
    config read by ``load``, the command line's overrides, ``run(cfg, resume, progress)``,
    and the last evaluation and where the network went, printed."""
    parser = argparse.ArgumentParser(prog="labyrinth train", description=description)
    parser.add_argument("--config", required=True, help=f"YAML config with algo: {algo} (see configs/train/)")
    parser.add_argument("--resume", action="store_true", help="continue the run in out_dir from its checkpoint")
    parser.add_argument("--iterations", type=int, help="override iterations")
    parser.add_argument("--budget-minutes", type=float, help="override budget_minutes")
    parser.add_argument("--out", help="override out_dir")
    parser.add_argument("--no-progress", action="store_true")
    args = parser.parse_args(argv)
    cfg = load(args.config)
    if args.iterations is not None:
        if args.iterations < 1:
            raise ValueError(f"--iterations must be >= 1, got {args.iterations}")
        cfg.iterations = args.iterations
    if args.budget_minutes is not None:
        if not args.budget_minutes > 0:
            raise ValueError(f"--budget-minutes must be > 0, got {args.budget_minutes}")
        cfg.budget_minutes = args.budget_minutes
    if args.out:
        cfg.out_dir = args.out
    result = run(cfg, resume=args.resume, progress=not args.no_progress)
    for row in result["final"]:
        lo, hi = row["ci95"]
        print(f"vs {row['opponent']}: win rate {row['win_rate']:.3f} [{lo:.3f}, {hi:.3f}] over {row['games']} games")
    print(
        f"{result['iterations']} iterations, {result['games']:,} games in {result['seconds'] / 60:.1f} min; "
        f"network: {result['net']}; curve: {result['curve']}"
    )
    return 0


def main(argv: list[str] | None = None) -> int:
    return run_command(argv, __doc__.split("\n\n")[0], ALGO, load_config, train)


if __name__ == "__main__":
    raise SystemExit(main())
