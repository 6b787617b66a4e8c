"""A MaskablePPO policy for observations that end with per-action lookahead features
(``team_edition_v2`` with ``lookahead=True``; ``raw_env.lookahead_layout()`` says where).

A flat MLP over the whole observation would have to learn, for each of the hundreds of
actions separately, that action ``a``'s logit should follow action ``a``'s features. Here
one small network scores every action from its own features, the embedding of its kind
(push, move, rotate, ...) and a context vector from the board planes, with weights
shared across actions; a linear head on the same context adds a per-action bias:

    logit[a] = base(h)[a] + score(features[a], kind_embedding[kind[a]], context(h)),
    h = trunk(planes)

With ``standardize=True`` the score also reads each feature standardized over the legal
actions of its position (minus their mean, over their standard deviation), and adds a
linear term of those (zero at the start): a one-step change of progress is a few hundredths
of the feature's range, so a score over the raw features needs large weights before the
best action stands out, which PPO's small steps were slow to reach (3e from scratch, 300k
steps). The value network sees the planes and, per feature, its maximum over the actions
(what the best action would bring). Works with every SB3 entry point (``predict``,
``evaluate_actions``, save/load) because it only replaces the extractor and the action
head of ``MaskableActorCriticPolicy``. Needs the ``train`` extra.
"""

from __future__ import annotations

from typing import Any

import torch
from sb3_contrib.common.maskable.policies import MaskableActorCriticPolicy
from torch import nn

LAYOUT_KEYS = ("base_size", "features", "kinds")


def check_layout(layout: Any, obs_size: int, num_actions: int) -> dict[str, Any]:
    """``layout`` as ``raw_env.lookahead_layout()`` gives it, checked against the spaces."""
    if not isinstance(layout, dict) or sorted(layout) != sorted(LAYOUT_KEYS):
        raise ValueError(f"lookahead layout must be a dict with keys {list(LAYOUT_KEYS)}, got {layout!r}")
    base, per_action, kinds = layout["base_size"], layout["features"], list(layout["kinds"])
    if len(kinds) != num_actions:
        raise ValueError(f"lookahead layout names {len(kinds)} action kinds for {num_actions} actions")
    if base + per_action * num_actions != obs_size:
        raise ValueError(
            f"lookahead layout ({base} + {per_action} x {num_actions}) does not match the observation size "
            f"{obs_size}: was the env made with lookahead=True?"
        )
    return {"base_size": int(base), "features": int(per_action), "kinds": [int(k) for k in kinds]}


class LookaheadExtractor(nn.Module):
    """Policy latent: the trunk's output followed by the raw per-action features (the
    action head splits them again); value latent: its own trunk."""

    def __init__(self, layout: dict[str, Any], pi_arch: list[int], vf_arch: list[int], activation: type[nn.Module]):
        super().__init__()
        self.base_size = layout["base_size"]
        self.num_actions = len(layout["kinds"])
        self.per_action = layout["features"]
        self.policy_net = _mlp(self.base_size, pi_arch, activation)
        self.value_net = _mlp(self.base_size + self.per_action, vf_arch, activation)
        self.hidden_pi = pi_arch[-1] if pi_arch else self.base_size
        self.latent_dim_pi = self.hidden_pi + self.num_actions * self.per_action
        self.latent_dim_vf = vf_arch[-1] if vf_arch else self.base_size + self.per_action

    def forward(self, features: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor]:
        return self.forward_actor(features), self.forward_critic(features)

    def forward_actor(self, features: torch.Tensor) -> torch.Tensor:
        planes = features[:, : self.base_size]
        return torch.cat([self.policy_net(planes), features[:, self.base_size :]], dim=1)

    def forward_critic(self, features: torch.Tensor) -> torch.Tensor:
        planes = features[:, : self.base_size]
        per_action = features[:, self.base_size :].reshape(-1, self.num_actions, self.per_action)
        return self.value_net(torch.cat([planes, per_action.max(dim=1).values], dim=1))


class LookaheadHead(nn.Module):
    """The action head: ``base(h) + score(features, kind, context(h))`` per action."""

    def __init__(
        self,
        layout: dict[str, Any],
        hidden: int,
        context: int = 16,
        kind_dim: int = 8,
        width: int = 64,
        standardize: bool = False,
    ):
        super().__init__()
        self.hidden = hidden
        self.num_actions = len(layout["kinds"])
        self.per_action = layout["features"]
        self.standardize = standardize
        self.register_buffer("kinds", torch.as_tensor(layout["kinds"], dtype=torch.long), persistent=False)
        self.base = nn.Linear(hidden, self.num_actions)
        self.context = nn.Linear(hidden, context)
        self.kind_embedding = nn.Embedding(int(max(layout["kinds"])) + 1, kind_dim)
        read = self.per_action * (2 if standardize else 1)
        self.score = nn.Sequential(nn.Linear(read + kind_dim + context, width), nn.Tanh(), nn.Linear(width, 1))
        if standardize:
            self.linear = nn.Linear(self.per_action, 1, bias=False)
            nn.init.zeros_(self.linear.weight)

    def forward(self, latent: torch.Tensor) -> torch.Tensor:
        h = latent[:, : self.hidden]
        per_action = latent[:, self.hidden :].reshape(-1, self.num_actions, self.per_action)
        batch = latent.shape[0]
        ctx = self.context(h)[:, None, :].expand(batch, self.num_actions, -1)
        kind = self.kind_embedding(self.kinds)[None].expand(batch, -1, -1)
        if not self.standardize:
            return self.base(h) + self.score(torch.cat([per_action, kind, ctx], dim=2)).squeeze(2)
        relative = standardized(per_action)
        scores = self.score(torch.cat([per_action, relative, kind, ctx], dim=2)).squeeze(2)
        return self.base(h) + scores + self.linear(relative).squeeze(2)


def standardized(per_action: torch.Tensor) -> torch.Tensor:
    """Each feature minus its mean over the position's legal actions (the rows with a
    nonzero feature: the env leaves the others' rows zero), over their standard deviation;
    zero where the legal actions agree, and in the rows of other actions."""
    legal = (per_action.abs().sum(dim=2, keepdim=True) > 0).to(per_action.dtype)
    count = legal.sum(dim=1, keepdim=True).clamp(min=1.0)
    mean = (per_action * legal).sum(dim=1, keepdim=True) / count
    spread = (((per_action - mean) * legal) ** 2).sum(dim=1, keepdim=True) / count
    return (per_action - mean) * legal / (spread.sqrt() + 1e-3)


class LookaheadPolicy(MaskableActorCriticPolicy):
    """``MaskableActorCriticPolicy`` with ``LookaheadExtractor`` and ``LookaheadHead``;
    ``lookahead`` (policy kwarg) is the env's ``lookahead_layout()``, ``standardize`` the
    head's (above)."""

    def __init__(self, observation_space: Any, action_space: Any, lr_schedule: Any, *args: Any, **kwargs: Any):
        layout = kwargs.pop("lookahead", None)
        if layout is None:
            raise ValueError("LookaheadPolicy needs policy_kwargs['lookahead'] (the env's lookahead_layout())")
        self.layout = check_layout(layout, int(observation_space.shape[0]), int(action_space.n))
        self.standardize = kwargs.pop("standardize", False)
        if not isinstance(self.standardize, bool):
            raise ValueError(f"LookaheadPolicy's standardize must be True or False, got {self.standardize!r}")
        super().__init__(observation_space, action_space, lr_schedule, *args, **kwargs)

    def _build_mlp_extractor(self) -> None:
        arch = self.net_arch
        if isinstance(arch, dict):
            pi_arch, vf_arch = list(arch.get("pi", [])), list(arch.get("vf", []))
        else:
            pi_arch = vf_arch = list(arch) if arch is not None else [256, 256]
        self.mlp_extractor = LookaheadExtractor(self.layout, pi_arch, vf_arch, self.activation_fn)

    def _build(self, lr_schedule: Any) -> None:
        super()._build(lr_schedule)
        # replace the linear action head SB3 built over the latent, then rebuild the
        # optimizer so that it holds the new parameters
        self.action_net = LookaheadHead(self.layout, self.mlp_extractor.hidden_pi, standardize=self.standardize)
        if self.ortho_init:
            self.action_net.base.apply(lambda m: self.init_weights(m, gain=0.01))
        self.optimizer = self.optimizer_class(self.parameters(), lr=lr_schedule(1), **self.optimizer_kwargs)

    def _get_constructor_parameters(self) -> dict[str, Any]:
        data = super()._get_constructor_parameters()
        data["lookahead"] = self.layout
        data["standardize"] = self.standardize
        return data


def _mlp(inputs: int, arch: list[int], activation: type[nn.Module]) -> nn.Sequential:
    layers: list[nn.Module] = []
    for width in arch:
        layers += [nn.Linear(inputs, width), activation()]
        inputs = width
    return nn.Sequential(*layers)
