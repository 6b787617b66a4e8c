"""RLlib (new API stack): any ruleset as a ``MultiAgentEnv`` and PPO with action masking
in a few lines (``pip install "ray[rllib]"``; RLlib pins its own Gymnasium, so give it a
venv of its own: ``docs/ecosystem.md``)::

    from labyrinth_env.rllib import ppo_config

    algo = ppo_config("team_edition_v2", num_players=2).build_algo()
    print(algo.train()["env_runners"]["episode_return_mean"])

Observations are ``{"observations": float32[...], "action_mask": float32[...]}``, the keys
RLlib's ``ActionMaskingTorchRLModule`` reads; one agent is asked at a time (the seat to
decide), and every seat's reward arrives when the game ends. All seats share one policy
(``"shared"``): in the competitive games that is self-play, in Team Edition the team.
"""

from __future__ import annotations

from typing import Any

import gymnasium
import numpy as np
from ray.rllib.env.multi_agent_env import MultiAgentEnv

import labyrinth_env

POLICY = "shared"


class RLlibEnv(MultiAgentEnv):
    """One game of ``env_id`` (an AEC env underneath) in RLlib's multi-agent API."""

    def __init__(self, config: dict[str, Any] | None = None) -> None:
        super().__init__()
        config = dict(config or {})
        env_id = config.pop("env_id", None)
        if env_id is None:
            raise ValueError("the env config needs 'env_id' (one of labyrinth_env.list_envs())")
        self.env = labyrinth_env.make(env_id, **config)
        self.possible_agents = list(self.env.possible_agents)
        self.agents = list(self.possible_agents)
        size = self.env.obs_size
        actions = self.env.kernel.NUM_ACTIONS
        space = gymnasium.spaces.Dict(
            {
                "observations": gymnasium.spaces.Box(0.0, 1.0, shape=(size,), dtype=np.float32),
                "action_mask": gymnasium.spaces.Box(0.0, 1.0, shape=(actions,), dtype=np.float32),
            }
        )
        self.observation_spaces = dict.fromkeys(self.possible_agents, space)
        self.action_spaces = dict.fromkeys(self.possible_agents, gymnasium.spaces.Discrete(actions))

    def _observation(self) -> dict[str, dict[str, np.ndarray]]:
        agent = self.env.agent_selection
        seen = self.env.observe(agent)
        return {agent: {"observations": seen["observation"], "action_mask": seen["action_mask"].astype(np.float32)}}

    def reset(self, *, seed: int | None = None, options: dict | None = None) -> tuple[dict, dict]:
        self.env.reset(seed=seed)
        self.agents = list(self.possible_agents)
        return self._observation(), {}

    def step(self, action_dict: dict[str, int]) -> tuple[dict, dict, dict, dict, dict]:
        agent = self.env.agent_selection
        if agent not in action_dict:
            raise ValueError(f"{self.env.env_id}: {agent} is to act; the actions were for {sorted(action_dict)}")
        self.env.step(int(action_dict[agent]))
        ended = not self.env.agents or all(self.env.terminations[a] or self.env.truncations[a] for a in self.env.agents)
        if ended:
            returns = {a: float(self.env._returns[i]) for i, a in enumerate(self.possible_agents)}
            truncated = self.env.kernel_truncated()
            done = dict.fromkeys(self.possible_agents, not truncated)
            cut = dict.fromkeys(self.possible_agents, truncated)
            done["__all__"], cut["__all__"] = not truncated, truncated
            # every seat's last observation, so each one's episode ends with the game
            last = {
                a: {
                    "observations": self.env.observe(a)["observation"],
                    "action_mask": np.zeros(self.action_spaces[a].n, dtype=np.float32),
                }
                for a in self.possible_agents
            }
            return last, returns, done, cut, {}
        # RLlib wants a reward with every observation after an agent's first: 0 until the end
        rewards = dict.fromkeys(self.possible_agents, 0.0)
        return self._observation(), rewards, {"__all__": False}, {"__all__": False}, {}


def ppo_config(env_id: str, **options: Any) -> Any:
    """A ``PPOConfig`` that trains one shared, action-masking policy on ``env_id`` (small
    defaults for a laptop: one local env runner; change them on the returned config)."""
    from ray.rllib.algorithms.ppo import PPOConfig
    from ray.rllib.core.rl_module.multi_rl_module import MultiRLModuleSpec
    from ray.rllib.core.rl_module.rl_module import RLModuleSpec
    from ray.rllib.examples.rl_modules.classes.action_masking_rlm import ActionMaskingTorchRLModule

    module = RLModuleSpec(module_class=ActionMaskingTorchRLModule, model_config={"head_fcnet_hiddens": [64]})
    return (
        PPOConfig()
        # RLlib's env check steps random actions from the whole action space, blind to the
        # mask: here they are illegal moves that end its test game, so it is skipped
        .environment(RLlibEnv, env_config={"env_id": env_id, **options}, disable_env_checking=True)
        .multi_agent(policies={POLICY}, policy_mapping_fn=lambda agent_id, episode, **kwargs: POLICY)
        .rl_module(rl_module_spec=MultiRLModuleSpec(rl_module_specs={POLICY: module}))
        .env_runners(num_env_runners=0)
        .training(train_batch_size_per_learner=512, minibatch_size=128, num_epochs=2)
    )
