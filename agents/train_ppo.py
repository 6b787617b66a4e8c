"""Train MaskablePPO on the batched vector env from a YAML config.

    python -m labyrinth_env.agents.train_ppo --config configs/train/paths_of_destiny_3e_2p.yaml
    labyrinth train --config ...

The config is checked completely before anything is built (unknown keys, wrong types,
unknown env, options or opponents fail at once). Training logs to TensorBoard, saves
checkpoints, shows a progress bar, evaluates the policy every ``eval.every`` steps
against the random and heuristic agents (win rates with Wilson 95% intervals, logged and
written to ``eval.jsonl``) and ends with ``learning_curve.png`` and ``final_model.zip``
(and ``imitation_model.zip``, the policy after behaviour cloning, when there is one; and
with ``ppo.policy: lookahead``, ``policy.npz``, the actor alone, which ``learned:PATH`` plays
without torch: ``agents/policy_net.py``).
Self-play (``vector.opponents: self_play``) draws opponents from a pool of the learner's
past snapshots; a mix (``vector.opponents: {heuristic: 0.75, random: 0.25}``) sets that share
of the envs against each kernel opponent. ``pretrain.steps > 0`` first clones the ruleset's heuristic (imitation on
that many learner decisions, then PPO from there; the evaluation at step 0 shows where
imitation alone stands). Needs the ``train`` extra.
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
from labyrinth_env.agents.config_schema import check_schema, merge_sections
from labyrinth_env.agents.evaluate import wilson_interval
from labyrinth_env.vector import KERNEL_OPPONENTS, POTENTIALS, VectorEnv, opponent_mix

# ppo.policy: SB3's MLP over the flat observation, or agents.policies.LookaheadPolicy,
# which scores each action from its own lookahead features (the ``lookahead`` option)
POLICIES = ("mlp", "lookahead")

_SECTIONS: dict[str, dict[str, type | tuple[type, ...]]] = {
    "vector": {
        "num_envs": int,
        "learner_seats": (int, str),
        "opponents": (str, dict),
        "shaping": float,
        "potential": str,
    },
    "self_play": {"snapshot_every": int, "pool_size": int},
    "ppo": {
        "learning_rate": float,
        "n_steps": int,
        "batch_size": int,
        "n_epochs": int,
        "gamma": float,
        "gae_lambda": float,
        "ent_coef": float,
        "clip_range": float,
        "net_arch": list,
        "policy": str,
        "standardize": bool,
    },
    "eval": {"every": int, "games": int, "against": list, "deterministic": bool},
    "pretrain": {"steps": int, "epochs": int, "epsilon": float, "batch_size": int, "learning_rate": float},
}
_TOP: dict[str, type | tuple[type, ...]] = {
    "env_id": str,
    "options": dict,
    "total_timesteps": int,
    "seed": int,
    "out_dir": str,
    "checkpoint_every": int,
    "threads": int,
    "numba_threads": int,
    "init_from": str,
    **{k: dict for k in _SECTIONS},
}


@dataclass
class TrainConfig:
    env_id: str
    options: dict = field(default_factory=dict)
    total_timesteps: int = 200_000
    seed: int = 0
    out_dir: str = "results/train/run"
    checkpoint_every: int = 50_000
    threads: int = 1
    # the learner dominates PPO's time; a parallel vector step at these batch sizes mostly
    # waits for a thread that shares a core (measured by benchmarks/ppo_throughput.py)
    numba_threads: int = 1
    vector: dict = field(default_factory=lambda: {"num_envs": 16, "learner_seats": "rotate", "opponents": "random"})
    self_play: dict = field(default_factory=lambda: {"snapshot_every": 20_000, "pool_size": 5})
    ppo: dict = field(default_factory=dict)
    eval: dict = field(
        default_factory=lambda: {
            "every": 20_000,
            "games": 100,
            "against": ["random", "heuristic"],
            "deterministic": False,
        }
    )
    # behaviour cloning from the ruleset's heuristic before PPO (off: steps 0)
    pretrain: dict = field(
        default_factory=lambda: {"steps": 0, "epochs": 4, "epsilon": 0.1, "batch_size": 512, "learning_rate": 1e-3}
    )
    # a curriculum's next stage: start from this MaskablePPO's weights (and Adam's moments);
    # its step count starts again at 0
    init_from: str = ""
    # the file it was read from (not a YAML key): recorded in what the run writes
    source: str = ""


def load_train_config(path: str | Path) -> TrainConfig:
    """Read and fully check a training config; ``ValueError`` says what is wrong."""
    from labyrinth_env.registry import parse_yaml_file

    p = Path(path)
    data = parse_yaml_file(p, "training config")  # missing, a folder, binary, not YAML: one clear error
    cfg = TrainConfig(**check_schema(data, _TOP, _SECTIONS, f"training config {str(p)!r}"))
    merge_sections(cfg, data, _SECTIONS)
    cfg.source = str(p)
    if cfg.env_id not in labyrinth_env.list_envs():
        raise ValueError(f"training config: unknown env_id {cfg.env_id!r}; available: {labyrinth_env.list_envs()}")
    bad = [k for k in cfg.options if not isinstance(k, str)]
    if bad:
        raise ValueError(f"training config {str(p)!r}: option names must be words, got {bad[0]!r}")
    try:
        labyrinth_env.raw_env(cfg.env_id, **cfg.options)  # options checked by the env itself
    except ValueError as exc:
        raise ValueError(f"training config {str(p)!r}: {exc}") from None
    opponents = cfg.vector["opponents"]
    if isinstance(opponents, dict):
        try:  # as the vector env will check it
            opponent_mix(opponents, 1, cfg.env_id)
        except ValueError as exc:
            raise ValueError(f"training config {str(p)!r}: vector.opponents: {exc}") from None
    elif opponents not in (*KERNEL_OPPONENTS, "self_play"):
        raise ValueError(
            f"training config: unknown vector.opponents {opponents!r}; use random, heuristic, self_play "
            "or a mix such as {heuristic: 0.75, random: 0.25}"
        )
    potential = cfg.vector.get("potential", "shaping")
    if potential not in POTENTIALS:
        raise ValueError(f"training config: unknown vector.potential {potential!r}; use one of {list(POTENTIALS)}")
    for opp in cfg.eval["against"]:
        if opp not in KERNEL_OPPONENTS:
            raise ValueError(f"training config: unknown eval.against entry {opp!r}; use {sorted(KERNEL_OPPONENTS)}")
    for key in ("total_timesteps", "checkpoint_every", "threads", "numba_threads"):
        if getattr(cfg, key) < 1:
            raise ValueError(f"training config: {key} must be >= 1")
    if cfg.vector["num_envs"] < 1 or cfg.eval["every"] < 1 or cfg.eval["games"] < 1:
        raise ValueError("training config: vector.num_envs, eval.every and eval.games must be >= 1")
    pre = cfg.pretrain
    if (
        pre["steps"] < 0
        or pre["epochs"] < 1
        or pre["batch_size"] < 1
        or not 0.0 <= pre["epsilon"] <= 1.0
        or pre["learning_rate"] <= 0
    ):
        raise ValueError(
            "training config: pretrain.steps must be >= 0, pretrain.epochs and pretrain.batch_size >= 1, "
            f"pretrain.epsilon in [0, 1], pretrain.learning_rate > 0; got {pre}"
        )
    policy = cfg.ppo.get("policy", "mlp")
    if policy not in POLICIES:
        raise ValueError(f"training config: unknown ppo.policy {policy!r}; use one of {list(POLICIES)}")
    if policy == "lookahead" and labyrinth_env.raw_env(cfg.env_id, **cfg.options).lookahead_layout() is None:
        raise ValueError(
            f"training config: ppo.policy 'lookahead' needs lookahead features in the observation; {cfg.env_id} "
            "with these options has none (every ruleset has them with options: {lookahead: true})"
        )
    if "standardize" in cfg.ppo and policy != "lookahead":
        raise ValueError("training config: ppo.standardize belongs to ppo.policy 'lookahead' (its action head)")
    if pre["steps"] > 0 and labyrinth_env.get_spec(cfg.env_id).heuristic_module is None:
        raise ValueError(f"training config: pretrain needs a heuristic, and {cfg.env_id} has none")
    return cfg


class SnapshotPool:
    """Opponents for self-play: past snapshots of the learner, one drawn per call;
    random legal play until the first snapshot exists."""

    def __init__(self, size: int, seed: int) -> None:
        self.size = size
        self.policies: list[Any] = []
        self.rng = np.random.default_rng(seed)

    def add(self, model: Any) -> None:
        from sb3_contrib import MaskablePPO

        path = Path(model.logger.dir or ".") / f"snapshot_{len(self.policies)}.zip"
        model.save(path)
        self.policies.append(MaskablePPO.load(path, device="cpu"))
        self.policies = self.policies[-self.size :]

    def __call__(self, observations: np.ndarray, masks: np.ndarray) -> np.ndarray:
        if not self.policies:
            return np.array([self.rng.choice(np.flatnonzero(m)) for m in masks], dtype=np.int64)
        policy = self.policies[int(self.rng.integers(len(self.policies)))]
        actions, _ = policy.predict(observations, action_masks=masks, deterministic=False)
        return np.asarray(actions, dtype=np.int64)


def behaviour_cloning(model: Any, vec: VectorEnv, pre: dict[str, Any], gamma: float, progress: bool) -> dict[str, Any]:
    """Imitation before PPO: play ``pre["steps"]`` learner decisions in ``vec`` choosing the
    heuristic's action (a random legal one with probability ``epsilon``, so that the data
    also covers positions the heuristic would not reach), then fit the policy to the
    heuristic's choices (masked cross-entropy) and the value head to the discounted
    returns of those games, for ``epochs`` passes. Returns the fit's statistics."""
    import torch
    from tqdm import tqdm

    num_envs = vec.num_envs
    rounds = max(1, pre["steps"] // num_envs)
    obs_size = vec.single_observation_space.shape[0]
    observations = np.zeros((rounds, num_envs, obs_size), dtype=np.float32)
    masks = np.zeros((rounds, num_envs, vec.single_action_space.n), dtype=bool)
    targets = np.zeros((rounds, num_envs), dtype=np.int64)
    rewards = np.zeros((rounds, num_envs), dtype=np.float32)
    dones = np.zeros((rounds, num_envs), dtype=bool)
    rng = np.random.default_rng(int(model.seed or 0))
    obs, _ = vec.reset()
    for t in tqdm(range(rounds), desc="imitation data", disable=not progress):
        mask = vec.action_masks()
        expert = vec.heuristic_actions()
        explore = rng.random(num_envs) < pre["epsilon"]
        uniform = np.argmax(mask * rng.random(mask.shape), axis=1)
        observations[t], masks[t], targets[t] = obs, mask, expert
        obs, reward, term, trunc, _ = vec.step(np.where(explore, uniform, expert))
        rewards[t], dones[t] = reward, term | trunc
    # discounted returns-to-go; the unfinished tail of each env is left out of the value fit
    returns = np.zeros((rounds, num_envs), dtype=np.float32)
    known = np.zeros((rounds, num_envs), dtype=bool)
    running = np.zeros(num_envs, dtype=np.float32)
    seen_end = np.zeros(num_envs, dtype=bool)
    for t in range(rounds - 1, -1, -1):
        running = np.where(dones[t], 0.0, running * gamma) + rewards[t]
        seen_end |= dones[t]
        returns[t], known[t] = running, seen_end
    n = rounds * num_envs
    flat = {
        "obs": torch.as_tensor(observations.reshape(n, obs_size)),
        "mask": masks.reshape(n, -1),
        "target": torch.as_tensor(targets.reshape(n)),
        "ret": torch.as_tensor(returns.reshape(n)),
        "known": torch.as_tensor(known.reshape(n)),
    }
    policy = model.policy
    policy.set_training_mode(True)
    # supervised fitting takes a larger step than PPO's; PPO's rate is restored afterwards
    ppo_rates = [group["lr"] for group in policy.optimizer.param_groups]
    for group in policy.optimizer.param_groups:
        group["lr"] = pre["learning_rate"]
    accuracy = 0.0
    for _epoch in tqdm(range(pre["epochs"]), desc="behaviour cloning", disable=not progress):
        order = rng.permutation(n)
        hits = 0
        for start in range(0, n, pre["batch_size"]):
            idx = order[start : start + pre["batch_size"]]
            batch_obs = flat["obs"][idx]
            target, batch_mask = flat["target"][idx], flat["mask"][idx]
            values, log_prob, _ = policy.evaluate_actions(batch_obs, target, action_masks=batch_mask)
            known_idx = flat["known"][idx]
            value_loss = (
                ((values.flatten() - flat["ret"][idx]) ** 2)[known_idx].mean() if known_idx.any() else values.sum() * 0
            )
            loss = -log_prob.mean() + 0.5 * value_loss
            policy.optimizer.zero_grad()
            loss.backward()
            torch.nn.utils.clip_grad_norm_(policy.parameters(), 0.5)
            policy.optimizer.step()
            with torch.no_grad():
                chosen, _, _ = policy.forward(batch_obs, deterministic=True, action_masks=batch_mask)
                hits += int((chosen == target).sum())
        accuracy = hits / n
    policy.set_training_mode(False)
    for group, rate in zip(policy.optimizer.param_groups, ppo_rates):
        group["lr"] = rate
    vec.reset()
    # what a uniform legal choice would match: the yardstick for the accuracy
    uniform_accuracy = float(np.mean(1.0 / masks.reshape(n, -1).sum(axis=1)))
    return {"samples": n, "epochs": pre["epochs"], "train_accuracy": accuracy, "uniform_accuracy": uniform_accuracy}


def _eval_env(cfg: TrainConfig, opponent: str, games: int, seed: int) -> VectorEnv:
    learner = "all" if labyrinth_env.get_spec(cfg.env_id).cooperative else "rotate"
    return VectorEnv(cfg.env_id, min(games, 32), learner_seats=learner, opponents=opponent, seed=seed, **cfg.options)


def play_for_win_rate(vec: VectorEnv, choose: Any, games: int) -> dict[str, Any]:
    """Play ``vec`` with ``choose(observations, masks) -> actions`` for the learner seats
    until ``games`` games have ended; the learner's win rate with its Wilson interval."""
    obs, _ = vec.reset()
    wins = finished = 0
    returns = []
    while finished < games:
        obs, rewards, term, trunc, _ = vec.step(choose(obs, vec.action_masks()))
        for i in np.flatnonzero(term | trunc):
            if finished < games:
                finished += 1
                wins += rewards[i] > 0
                returns.append(float(rewards[i]))
    lo, hi = wilson_interval(int(wins), games)
    return {"games": games, "win_rate": float(wins / games), "ci95": [lo, hi], "mean_return": float(np.mean(returns))}


def evaluate_model(model: Any, cfg: TrainConfig, opponent: str, games: int, seed: int) -> dict[str, Any]:
    """Win rate of the policy (masked; sampled unless ``eval.deterministic``) against
    kernel-side opponents, over ``games`` finished games with the learner seat rotating
    (in a cooperative game the policy plays every seat and ``opponent`` plays none).
    Sampling is the default because an argmax policy can repeat one move forever in a
    position where the sampled policy would get out."""
    deterministic = bool(cfg.eval.get("deterministic", False))

    def choose(obs: np.ndarray, masks: np.ndarray) -> np.ndarray:
        return model.predict(obs, action_masks=masks, deterministic=deterministic)[0]

    return {"opponent": opponent, **play_for_win_rate(_eval_env(cfg, opponent, games, seed), choose, games)}


def reference_rates(cfg: TrainConfig, games: int, seed: int) -> dict[str, float]:
    """Yardsticks for the learning curve, on the evaluation's own games: the win rate of
    the random agent, and of the ruleset's heuristic, in the learner's place (in a
    cooperative game: in every seat; in a competitive one: against each ``eval.against``
    opponent)."""
    cooperative = labyrinth_env.get_spec(cfg.env_id).cooperative
    rng = np.random.default_rng(seed)
    rates: dict[str, float] = {}
    for opp in ["random"] if cooperative else cfg.eval["against"]:
        vec = _eval_env(cfg, opp, games, seed)
        players: dict[str, Any] = {"random": lambda obs, masks: np.argmax(masks * rng.random(masks.shape), axis=1)}
        if labyrinth_env.get_spec(cfg.env_id).heuristic_module is not None:
            players["heuristic"] = lambda obs, masks, vec=vec: vec.heuristic_actions()
        for name, choose in players.items():
            label = f"{name} agent" if cooperative else f"{name} agent vs {opp}"
            rates[label] = play_for_win_rate(vec, choose, games)["win_rate"]
    return rates


def plot_curve(
    evals: list[dict[str, Any]], path: Path, title: str, references: dict[str, float] | None = None, team: bool = False
) -> None:
    """The win rates of ``evals`` with their intervals, one line per opponent, and each
    reference rate (``reference_rates``) as a horizontal line in its opponent's colour
    (dotted: the random agent, dashed: the heuristic)."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, ax = plt.subplots(figsize=(9, 4))
    colours: dict[str, Any] = {}
    for opp in sorted({e["opponent"] for e in evals}):
        rows = [e for e in evals if e["opponent"] == opp]
        x = [e["timesteps"] for e in rows]
        (line,) = ax.plot(
            x, [e["win_rate"] for e in rows], marker="o", label="policy in every seat" if team else f"policy vs {opp}"
        )
        ax.fill_between(x, [e["ci95"][0] for e in rows], [e["ci95"][1] for e in rows], alpha=0.2)
        colours[opp] = line.get_color()
    for label, rate in sorted((references or {}).items()):
        opp = label.rsplit(" vs ", 1)[1] if " vs " in label else next(iter(colours), "")
        style = ":" if label.startswith("random") else "--"
        ax.axhline(rate, color=colours.get(opp, "grey"), linestyle=style, linewidth=1.2, label=f"{label}: {rate:.3f}")
    ax.set_xlabel("training steps (learner decisions)")
    ax.set_ylabel(("team " if team else "") + "win rate (95% Wilson CI)")
    ax.set_ylim(-0.01, 1.01)
    # the title spans the figure, legend included: over the axes alone a long env title
    # (ruleset and options) ran off the picture's left edge
    fig.suptitle(title, fontsize="medium", wrap=True)
    ax.grid(alpha=0.3)
    ax.legend(loc="upper left", bbox_to_anchor=(1.01, 1.0), fontsize="small")
    fig.tight_layout()
    fig.savefig(path, dpi=120)
    plt.close(fig)


def build_model(cfg: TrainConfig, env: Any, vec: VectorEnv, tensorboard_log: str | None = None) -> Any:
    """The MaskablePPO of ``cfg.ppo`` on the SB3 adapter ``env`` of ``vec``: SB3's MLP
    policy, or ``LookaheadPolicy`` with the env's lookahead layout (``ppo.policy``); with
    ``init_from``, holding that model's weights (a curriculum's next stage)."""
    from sb3_contrib import MaskablePPO

    ppo = dict(cfg.ppo)
    policy_kwargs: dict[str, Any] = {"net_arch": ppo.pop("net_arch", [256, 256])}
    policy: Any = "MlpPolicy"
    if ppo.pop("policy", "mlp") == "lookahead":
        from labyrinth_env.agents.policies import LookaheadPolicy

        policy = LookaheadPolicy
        policy_kwargs["lookahead"] = vec.raw.lookahead_layout()
        policy_kwargs["standardize"] = ppo.pop("standardize", False)
    model = MaskablePPO(
        policy,
        env,
        seed=cfg.seed,
        verbose=0,
        device="cpu",
        tensorboard_log=tensorboard_log,
        policy_kwargs=policy_kwargs,
        **ppo,
    )
    if cfg.init_from:
        try:
            model.set_parameters(cfg.init_from, exact_match=True, device="cpu")
        except (RuntimeError, ValueError, KeyError) as exc:
            raise ValueError(
                f"init_from {cfg.init_from!r} does not fit this config's policy (env, options, ppo.policy and "
                f"net_arch must be the earlier stage's): {str(exc).splitlines()[0]}"
            ) from None
    return model


def train(cfg: TrainConfig, progress: bool = True) -> dict[str, Any]:
    """Run the training described by ``cfg``; returns the evaluation history and paths."""
    import numba
    import torch
    from stable_baselines3.common.callbacks import BaseCallback, CallbackList, CheckpointCallback

    from labyrinth_env.sb3 import SB3VecEnv

    if cfg.init_from and not Path(cfg.init_from).is_file():  # here, not in the config: an earlier stage writes it
        raise ValueError(
            f"training config: init_from: no model at {cfg.init_from!r} (a final_model.zip of an earlier run "
            "with the same env, options and ppo settings: run that stage first)"
        )
    torch.set_num_threads(cfg.threads)  # small networks on 2 cores: one thread is faster
    numba.set_num_threads(min(cfg.numba_threads, numba.config.NUMBA_NUM_THREADS))
    out = Path(cfg.out_dir)
    out.mkdir(parents=True, exist_ok=True)
    (out / "config.json").write_text(json.dumps(cfg.__dict__, indent=1))
    pool = SnapshotPool(cfg.self_play["pool_size"], cfg.seed) if cfg.vector["opponents"] == "self_play" else None
    learner = "all" if labyrinth_env.get_spec(cfg.env_id).cooperative else cfg.vector["learner_seats"]
    vec = VectorEnv(
        cfg.env_id,
        cfg.vector["num_envs"],
        learner_seats=learner,
        opponents=pool if pool is not None else cfg.vector["opponents"],
        shaping=float(cfg.vector.get("shaping", 0.0)),
        potential=cfg.vector.get("potential", "shaping"),
        seed=cfg.seed,
        **cfg.options,
    )
    env = SB3VecEnv(vec, seed=cfg.seed)
    model = build_model(cfg, env, vec, tensorboard_log=str(out / "tb"))
    evals: list[dict[str, Any]] = []
    imitation = None
    if cfg.pretrain["steps"] > 0:
        teacher = VectorEnv(
            cfg.env_id,
            cfg.vector["num_envs"],
            learner_seats=learner,
            opponents="random" if pool is not None else cfg.vector["opponents"],
            shaping=float(cfg.vector.get("shaping", 0.0)),
            potential=cfg.vector.get("potential", "shaping"),
            seed=cfg.seed + 20_000,
            **cfg.options,
        )
        imitation = behaviour_cloning(model, teacher, cfg.pretrain, model.gamma, progress)
        (out / "imitation.json").write_text(json.dumps(imitation, indent=1))
        model.save(out / "imitation_model.zip")  # where PPO starts, to compare with the final policy

    from tqdm import tqdm

    cooperative = labyrinth_env.get_spec(cfg.env_id).cooperative
    # compiled (or loaded) before the clock starts, each announced while it compiles: the
    # training env's loops and the evaluations' (their opponents' kernels), which would
    # otherwise compile inside the first steps and the first evaluation
    vec.compile_kernels()
    for opp in cfg.eval["against"]:
        _eval_env(cfg, opp, cfg.eval["games"], cfg.seed + 10_000).compile_kernels()
    start = time.perf_counter()  # steps/s everywhere: learner steps per second of wall time, evaluations included

    class EvalCallback(BaseCallback):
        def __init__(self) -> None:
            super().__init__()
            self.next_eval = 0
            self.next_snapshot = cfg.self_play["snapshot_every"]

        def _on_step(self) -> bool:
            if pool is not None and self.num_timesteps >= self.next_snapshot:
                pool.add(self.model)
                self.next_snapshot += cfg.self_play["snapshot_every"]
            if self.num_timesteps >= self.next_eval:
                self.next_eval += cfg.eval["every"]
                for opp in cfg.eval["against"]:
                    res = evaluate_model(self.model, cfg, opp, cfg.eval["games"], seed=cfg.seed + 10_000)
                    res["timesteps"] = int(self.num_timesteps)
                    res["steps_per_s"] = self.num_timesteps / max(time.perf_counter() - start, 1e-9)
                    evals.append(res)
                    self.logger.record(f"eval/win_rate_vs_{opp}", res["win_rate"])
                    with open(out / "eval.jsonl", "a") as fh:
                        fh.write(json.dumps(res) + "\n")
                    if progress:
                        tqdm.write(eval_line(res, cooperative))
            return True

    class ProgressCallback(BaseCallback):
        """The training bar, with the same steps/s as every other figure (learner steps per
        second of wall time, evaluations included)."""

        def _on_training_start(self) -> None:
            # SB3 collects whole rollouts, so a run ends at the next multiple of one rollout
            # (303,104 steps for 300,000 at 32 envs x 128): past a bar's total, tqdm drew
            # "0%| 302016/?"
            rollout = self.model.n_steps * self.model.n_envs
            self.bar = tqdm(
                total=-(-cfg.total_timesteps // rollout) * rollout,
                unit="step",
                desc="PPO",
                bar_format="{desc} {percentage:3.0f}%|{bar}| {n_fmt}/{total_fmt} steps "
                "[{elapsed}<{remaining}{postfix}]",
                disable=not progress,
            )

        def _on_step(self) -> bool:
            self.bar.update(self.num_timesteps - self.bar.n)
            rate = self.num_timesteps / max(time.perf_counter() - start, 1e-9)
            self.bar.set_postfix_str(f"{rate:,.0f} steps/s", refresh=False)
            return True

        def _on_training_end(self) -> None:
            self.bar.close()

    callbacks = CallbackList(
        [
            ProgressCallback(),
            EvalCallback(),
            CheckpointCallback(max(1, cfg.checkpoint_every // vec.num_envs), str(out / "checkpoints"), "model"),
        ]
    )
    model.learn(cfg.total_timesteps, callback=callbacks)
    elapsed = time.perf_counter() - start
    if not evals or evals[-1]["timesteps"] != int(model.num_timesteps):
        for opp in cfg.eval["against"]:  # the final policy, unless just evaluated
            res = evaluate_model(model, cfg, opp, cfg.eval["games"], seed=cfg.seed + 10_000)
            res["timesteps"] = int(model.num_timesteps)
            evals.append(res)
            with open(out / "eval.jsonl", "a") as fh:
                fh.write(json.dumps(res) + "\n")
    model.save(out / "final_model.zip")
    policy_file = None
    if cfg.ppo.get("policy", "mlp") == "lookahead":  # the actor alone, for learned:PATH (agents/policy_net.py)
        from labyrinth_env.agents.policy_net import export_policy

        policy_file = str(out / "policy.npz")
        export_policy(out / "final_model.zip", policy_file, {"env_id": cfg.env_id, "config": cfg.source})
    references = reference_rates(cfg, cfg.eval["games"], seed=cfg.seed + 10_000)
    title = f"MaskablePPO on {cfg.env_id} ({', '.join(f'{k}={v}' for k, v in cfg.options.items())})"
    team = labyrinth_env.get_spec(cfg.env_id).cooperative
    plot_curve(evals, out / "learning_curve.png", title, references, team=team)
    summary = {
        "env_id": cfg.env_id,
        "timesteps": int(model.num_timesteps),
        "seconds": elapsed,
        "steps_per_s": model.num_timesteps / elapsed,
        "final": [e for e in evals if e["timesteps"] == int(model.num_timesteps)],
        "model": str(out / "final_model.zip"),
        "policy": policy_file,
        "checkpoints": str(out / "checkpoints"),
        "tensorboard": str(out / "tb"),
        "imitation": imitation,
        "references": references,
        "curve": str(out / "learning_curve.png"),
    }
    (out / "summary.json").write_text(json.dumps(summary, indent=1))
    return {"evals": evals, **summary}


def eval_line(res: dict[str, Any], cooperative: bool) -> str:
    """One evaluation as printed while training runs."""
    lo, hi = res["ci95"]
    who = "team win rate" if cooperative else f"win rate vs {res['opponent']}"
    return (
        f"step {res['timesteps']:,}: {who} {res['win_rate']:.3f} [{lo:.3f}, {hi:.3f}] over {res['games']} games"
        f" ({res['steps_per_s']:,.0f} steps/s so far)"
    )


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="labyrinth train", description=__doc__.split("\n\n")[0])
    parser.add_argument("--config", required=True, help="YAML training config (see configs/train/)")
    parser.add_argument("--timesteps", type=int, help="override total_timesteps")
    parser.add_argument("--out", help="override out_dir")
    parser.add_argument("--no-progress", action="store_true")
    args = parser.parse_args(argv)
    cfg = load_train_config(args.config)
    if args.timesteps:
        cfg.total_timesteps = args.timesteps
    if args.out:
        cfg.out_dir = args.out
    result = train(cfg, progress=not args.no_progress)
    team = labyrinth_env.get_spec(cfg.env_id).cooperative
    for row in result["final"]:
        lo, hi = row["ci95"]
        who = "team win rate" if team else f"vs {row['opponent']}: win rate"  # a cooperative game has no opponent
        print(f"{who} {row['win_rate']:.3f} [{lo:.3f}, {hi:.3f}] over {row['games']} games")
    rate = result["steps_per_s"]
    print(
        f"{result['timesteps']:,} steps in {result['seconds']:.0f} s ({rate:,.0f} steps/s, evaluations included, "
        f"compiling not); curve: {result['curve']}"
    )
    options = "".join(f" --option {k}={v}" for k, v in cfg.options.items())
    play = f"labyrinth evaluate --env {cfg.env_id}{options} --agent ppo:{result['model']}"
    print(f"model: {result['model']} (to play it: {play})")
    print(f"checkpoints: {result['checkpoints']}/")
    print(f"TensorBoard logs: {result['tensorboard']}/ (tensorboard --logdir {result['tensorboard']})")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
