"""The self-play learner's network as an agent: ``learned`` (the shipped network of the
env's ruleset) or ``learned:PATH`` (a ``net.npz`` written by ``labyrinth train`` with an
``algo: alphazero`` config, or a MaskablePPO ``LookaheadPolicy`` exported by
``agents/policy_net.py``: its actor, played in numpy, with the ``lookahead`` block
computed from the seat's observation as the env's option computes it, and its critic).

With ``simulations=0`` (the default) it plays the network alone: the legal action of the
highest logit for its own observation and the features of its legal actions (read in a
world determinized for its seat, as in training). With ``simulations=N`` the network guides the
search it was trained with (``agents/alphazero_template.py``, no noise) over records
determinized for its seat, and the agent plays the argmax of the search's completed-Q
policy. A PPO network guides the same search (``policy_search``): its actor gives the
prior, its critic (exported beside the actor) the leaves' values, and the agent plays the
most visited move (``choose``). ``leaf_mix`` sets the share of a leaf's value that progress
gives instead (-1, the default: the file's own ``leaf_mix``, else 0).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import numpy as np

from labyrinth_env.agents.base import Agent, Param, legal_actions, model_of
from labyrinth_env.progress import first_use
from labyrinth_env.spec import RulesetSpec

# the shipped networks: <env id>.npz, with the figures they were measured at in docs/training.md
CHECKPOINTS = Path(__file__).resolve().parent / "checkpoints"

LEARNED_PARAMS: dict[str, Param] = {
    "path": Param(str, "", "a net.npz from labyrinth train (empty: the shipped network of the env's ruleset)"),
    "simulations": Param(int, 0, "search iterations per move guided by the network (0: the network alone)", 0, 100_000),
    "c": Param(float, 1.5, "PUCT exploration constant of the search", low=0.0),
    "choose": Param(
        str,
        "auto",
        "the search's move: q (the completed-Q policy's argmax), visits (the most visited), or auto "
        "(q for a self-play network, as it was trained; visits for a PPO network)",
        choices=("auto", "q", "visits"),
    ),
    "leaf_mix": Param(
        float, -1.0, "share of a leaf's value the search takes from progress (-1: the network file's own)", -1.0, 1.0
    ),
}


def _net_module() -> Any:
    """``agents/alphazero_net``, imported when a learned agent is first made: importing
    ``labyrinth_env.agents`` must not set up its numba cache (a read-only kernel cache
    without the learner's kernels would warn at every import)."""
    from labyrinth_env.agents import alphazero_net

    return alphazero_net


def shipped_path(env_id: str) -> Path:
    """The shipped network of ``env_id``; ``ValueError`` if there is none yet."""
    path = CHECKPOINTS / f"{env_id}.npz"
    if not path.is_file():
        have = sorted(p.stem for p in CHECKPOINTS.glob("*.npz"))
        raise ValueError(
            f"agent 'learned': no shipped network for {env_id} (shipped: {', '.join(have) or 'none'}); "
            "train one with labyrinth train --config configs/train/<ruleset>_alphazero.yaml and play it as "
            "learned:<out_dir>/net.npz"
        )
    return path


class LearnedAgent(Agent):
    """The trained network (masked argmax) or its search; needs its seat's view."""

    name = "learned"

    def __init__(
        self,
        seed: int | None = None,
        path: str = "",
        simulations: int = 0,
        c: float = 1.5,
        choose: str = "auto",
        leaf_mix: float = -1.0,
    ) -> None:
        self.path = path
        self.simulations = simulations
        self.c = c
        self.leaf_mix = leaf_mix
        self.choose = choose
        self._net: tuple | None = None
        self._policy: dict[str, np.ndarray] | None = None
        self._search_policy: tuple = ()
        self._ruleset: RulesetSpec | None = None
        if path:  # a bad file fails when the agent is made, not in the middle of a game
            self._load(path)
        self.reset(seed)

    def _load(self, path: str | Path) -> None:
        from labyrinth_env.agents import policy_net

        if policy_net.is_policy_file(path):
            self._policy, self.meta = policy_net.load_policy(path)
            self._net = None
            if self.simulations:
                policy_net.search_arrays(self._policy, self.meta)  # refuses a shape the search cannot read
                if self.leaf_mix < 1.0 and not self.meta.get("critic_layers"):
                    raise ValueError(
                        f"agent 'learned': {str(path)!r} holds no critic (an export from before it had one), so the "
                        "search can value its leaves by progress only: add leaf_mix=1"
                    )
        else:
            self._net, self.meta = _net_module().load_net(path)
            self._policy = None

    def reset(self, seed: int | None = None) -> None:
        self.rng = np.random.default_rng(seed)

    def _bind(self, ruleset: RulesetSpec) -> tuple | None:
        if ruleset is self._ruleset and (self._net is not None or self._policy is not None):
            return self._net
        if not self.path:
            self._load(shipped_path(ruleset.env_id))
        kernel = ruleset.kernel
        if self._policy is not None:
            layout = self.meta["layout"]
            if self.meta.get("env_id") != ruleset.env_id or len(layout["kinds"]) != kernel.NUM_ACTIONS:
                raise ValueError(
                    f"agent 'learned': the policy {self.path or 'shipped'} was trained for "
                    f"{self.meta.get('env_id')!r}, not {ruleset.env_id!r}"
                )
            self._ruleset = ruleset
            if self.simulations:
                from labyrinth_env.agents import policy_net

                self._search_policy = policy_net.search_arrays(self._policy, self.meta, self._own_block(kernel))
                self._bind_search(ruleset)
            return None
        assert self._net is not None
        sizes = (self._net[0].shape[0], self._net[5].shape[0], self._net[7].shape[0])
        if self.meta.get("env_id") != ruleset.env_id or sizes != (
            kernel.OBS_SIZE,
            kernel.NUM_ACTIONS,
            kernel.NUM_SEATS,
        ):
            raise ValueError(
                f"agent 'learned': the network {self.path or 'shipped'} was trained for "
                f"{self.meta.get('env_id')!r}, not {ruleset.env_id!r}"
            )
        self._ruleset = ruleset
        self._bind_search(ruleset)
        return self._net

    def _own_block(self, kernel: Any) -> int:
        """0 if the policy reads the generic lookahead block (the search computes it at each
        node); else the size of the observation a kernel writes with its own block (Team
        Edition's), which the search reads from the kernel with the option switched on."""
        from labyrinth_env.core.batch_template import LOOKAHEAD_FEATURES

        layout = self.meta["layout"]
        full = layout["base_size"] + kernel.NUM_ACTIONS * layout["features"]
        if layout["features"] != LOOKAHEAD_FEATURES or layout["base_size"] != kernel.OBS_SIZE:
            raise ValueError(f"agent 'learned': the search cannot read the lookahead block of {self.path!r}")
        if self.meta.get("generic_lookahead", False):
            return 0
        if full != getattr(kernel, "OBS_SIZE_LOOKAHEAD", -1):
            raise ValueError(f"agent 'learned': {self.path!r} reads a lookahead block this ruleset does not write")
        return full

    def _bind_search(self, ruleset: RulesetSpec) -> None:
        from labyrinth_env.agents import alphazero_template
        from labyrinth_env.core.templates import bind

        self._module = bind(alphazero_template, ruleset)
        m = self._module
        p = np.zeros(m.NUM_PARAMS, dtype=np.float64)
        p[m.P_SIMULATIONS], p[m.P_C], p[m.P_NOISE] = self.simulations, self.c, 0.0
        p[m.P_TARGET] = m.TARGET_COMPLETED_Q
        # by default the search values leaves as the file says: the self-play network as it
        # was trained (mixed with progress if it was), a PPO network by its critic
        p[m.P_LEAF_MIX] = self.leaf_mix if self.leaf_mix >= 0.0 else float(self.meta.get("leaf_mix", 0.0))
        p[m.P_COOPERATIVE] = 1.0 if ruleset.cooperative else 0.0
        self._params = p

    def act(self, observation: dict[str, np.ndarray], view: Any = None) -> int:
        model = model_of(view, "LearnedAgent")
        legal = legal_actions(observation)
        net = self._bind(model.ruleset)
        seed = int(self.rng.integers(0, 1 << 63))  # drawn every move, so games replay exactly
        if legal.size == 1:
            return int(legal[0])
        mask = np.asarray(observation["action_mask"]).astype(np.uint8)
        kernel = model.ruleset.kernel
        if self._policy is not None and self.simulations == 0:
            return self._policy_action(observation, model, mask)
        with first_use(("alphazero", model.ruleset.env_id), f"the {model.ruleset.title} learned agent"):
            if self.simulations == 0:
                # the action features are read in a world determinized for the seat
                action = int(self._module.net_action_one(model.position(), model.seat, net, np.uint64(seed)))
            else:
                visits = np.zeros(kernel.NUM_ACTIONS, dtype=np.int64)
                improved = np.zeros(kernel.NUM_ACTIONS, dtype=np.float32)
                features = np.zeros((kernel.NUM_ACTIONS, _net_module().NUM_FEATURES), dtype=np.float32)
                args = (model.position(), model.seat, np.uint64(seed))
                if self._policy is not None and self._search_policy[-1][-1]:  # CONFIG_OBSERVATION
                    args[0][0]["options"][kernel.OPT_LOOKAHEAD] = 1  # the kernel writes its own block
                if self._policy is not None:
                    self._module.policy_search(*args, self._search_policy, self._params, visits, improved, features)
                else:
                    self._module.search(*args, net, self._params, visits, improved, features)
                # a PPO network's search plays its most visited move by default: the completed-Q
                # policy let a few noisy values overrule its sharp prior (docs/training.md)
                choose = self.choose if self.choose != "auto" else ("q" if self._policy is None else "visits")
                pick = visits.astype(np.float32) if choose == "visits" else improved  # ties: the first
                action = int(_net_module().masked_argmax(pick, mask))
        if not mask[action]:
            raise RuntimeError(f"the learned agent chose action {action}, which the mask does not allow")
        return action

    def _policy_action(self, observation: dict[str, np.ndarray], model: Any, mask: np.ndarray) -> int:
        """The exported PPO policy's masked argmax: the observation with the ``lookahead``
        block the env's option would give (built here when the env was made without it,
        from what the seat may know only)."""
        from labyrinth_env.agents import policy_net
        from labyrinth_env.core.batch_template import LOOKAHEAD_FEATURES

        assert self._policy is not None
        kernel = model.ruleset.kernel
        obs = np.asarray(observation["observation"], dtype=np.float32).reshape(-1)
        layout = self.meta["layout"]
        full = layout["base_size"] + kernel.NUM_ACTIONS * layout["features"]
        # the generic block depends on the observation alone (core/batch_template.lookahead_one)
        generic = self.meta.get("generic_lookahead", False) and layout["features"] == LOOKAHEAD_FEATURES
        if obs.size == layout["base_size"] == kernel.OBS_SIZE and generic:
            block = np.zeros(full, dtype=np.float32)
            block[: obs.size] = obs
            with first_use(("lookahead", model.ruleset.env_id), f"the {model.ruleset.title} lookahead features"):
                model.ruleset.loops.lookahead_game(model.position(), model.seat, block)
            obs = block
        elif obs.size == kernel.OBS_SIZE == layout["base_size"] and full == getattr(kernel, "OBS_SIZE_LOOKAHEAD", -1):
            # a kernel's own block (Team Edition's): its observation of the seat's sample with
            # the option switched on; it reads only what the seat may know, so the sample's
            # block is the true one (tests/test_team_edition_lookahead.py)
            states = model.position()
            states[0]["options"][kernel.OPT_LOOKAHEAD] = 1
            obs = np.zeros(full, dtype=np.float32)
            model.ruleset.loops.observe_one(states, model.seat, obs)
        elif obs.size != full:
            raise ValueError(
                f"agent 'learned': the policy reads observations of {full} floats (lookahead block included), "
                f"the env gives {obs.size}: make the env with lookahead=True (--option lookahead=true)"
            )
        logits = policy_net.policy_logits(self._policy, self.meta, obs)
        legal = np.flatnonzero(mask)
        return int(legal[int(np.argmax(logits[legal]))])  # the first of equal ones, as SB3's argmax
