"""Information-set MCTS over one ruleset's kernel: the numba search every ruleset shares.

Written once against two module globals, ``K`` (the ruleset's kernel) and ``H`` (its
heuristic), like ``labyrinth_env/core/batch_template.py``, and bound per ruleset by
``labyrinth_env.core.templates.bind`` (the module ``<ruleset package>.search``).

One search (``search``), single-observer ISMCTS with max^n values:

- every iteration copies the root, resamples what the searching seat cannot know with
  ``K.determinize(copy, seat, seed)`` (a fresh seed each time: deck orders, hidden tokens
  and the RNG, so later dice are sampled too) and walks the tree on that copy; the tree
  is keyed on actions only (open loop), so chance and hidden information are averaged;
- a node keeps visit and availability counts and a value sum per seat; selection is
  PUCT over the actions legal in this determinization, for the seat to act, with a prior
  that puts ``prior`` of its mass on the ruleset heuristic's action and spreads the rest
  evenly (so a weak budget still plays at least as the heuristic would, and the search
  overrules it only where the simulations say so); the exploration term uses the child's
  availability count instead of the parent's visits (ISMCTS: an action is not legal in
  every determinization);
- one node is added per iteration, then a rollout (heuristic, with ``epsilon`` random
  actions, or random) runs at most ``rollout_turns`` turns (the state's ``turn`` counter)
  and ``rollout_steps`` steps, and the position is scored: the kernel's returns if the game
  is over, else from ``K.shaping_potential`` (competitive: each seat's potential minus the
  mean of the others', zero-sum like the returns; cooperative: the team's gain since the
  root), times ``scale``, squashed into (-1, 1) by tanh (a decided game's returns stay
  the extremes, and a large lead still has a gradient);
- the action played is the root child with the most visits (ties: higher mean value).

The search reads the real state only through ``K.determinize`` on a copy, which depends
only on what the seat knows and the seed, so it never sees hidden information.
"""

from __future__ import annotations

from types import ModuleType

import numpy as np

from labyrinth_env.core.jit import njit
from labyrinth_env.core.rng import derive_seed, pick_random, randint, seed_state

BOUND_NAME = "search"
K: ModuleType | None = None  # the ruleset's kernel, bound by core.templates.bind
H: ModuleType | None = None  # the ruleset's heuristic

ROLLOUT_RANDOM, ROLLOUT_HEURISTIC = 0, 1

# the params vector (float64) handed to ``search``
P_SIMULATIONS, P_C, P_PRIOR, P_ROLLOUT, P_EPSILON = 0, 1, 2, 3, 4
P_ROLLOUT_TURNS, P_ROLLOUT_STEPS, P_SCALE, P_COOPERATIVE = 5, 6, 7, 8
NUM_PARAMS = 9

NO_ACTION = -2  # a node's heuristic action not computed yet


@njit(cache=True)
def score(s, out, cooperative: bool, scale: float, root_potential: float) -> None:
    """Per-seat value of ``s``: its returns once the game is over, else the heuristic
    evaluation from the shaping potential (see the module docstring)."""
    if K.to_act(s) < 0:
        K.returns(s, out)
        return
    out[:] = 0.0
    n = s.num_players
    if cooperative:
        v = np.tanh(scale * (K.shaping_potential(s, 0) - root_potential))
        for p in range(n):
            out[p] = v
        return
    if n < 2:
        return
    total = 0.0
    for p in range(n):
        out[p] = K.shaping_potential(s, p)
        total += out[p]
    for p in range(n):
        out[p] = np.tanh(scale * (out[p] - (total - out[p]) / (n - 1)))


@njit(cache=True)
def rollout(s, params, mask, hmask, rng) -> None:
    """Play on from ``s`` (in place) with the rollout policy up to the caps."""
    heuristic = params[P_ROLLOUT] == ROLLOUT_HEURISTIC
    epsilon = params[P_EPSILON]
    max_turns = int(params[P_ROLLOUT_TURNS])
    max_steps = int(params[P_ROLLOUT_STEPS])
    start = s.turn
    steps = 0
    while K.to_act(s) >= 0 and steps < max_steps and s.turn - start < max_turns:
        if heuristic and (epsilon <= 0.0 or randint(rng, 1 << 30) >= epsilon * (1 << 30)):
            a = H.heuristic_action(s, hmask)
        else:
            K.legal_mask(s, mask)
            a = pick_random(mask, rng)
        K.step(s, a)
        steps += 1


@njit(cache=True)
def select(
    node, mover, mask, child_of, first_child, next_sibling, node_action, visits, avail, value, heur, params, rng
):
    """The action to take at ``node`` for ``mover`` (PUCT over the legal actions of this
    determinization). Bumps the availability of the legal children and fills
    ``child_of[a]`` (-1: no child yet) for them; the caller clears it."""
    c_puct = params[P_C]
    prior = params[P_PRIOR]
    legal = 0
    for a in range(mask.shape[0]):
        legal += mask[a] != 0
    c = first_child[node]
    while c >= 0:
        a = node_action[c]
        if mask[a]:
            child_of[a] = c
            avail[c] += 1
        c = next_sibling[c]
    h = heur[node]
    h_legal = h >= 0 and mask[h] != 0
    base = (1.0 - prior) / legal if h_legal else 1.0 / legal
    fpu = value[node, mover] / visits[node] if visits[node] > 0 else 0.0
    sqrt_n = np.sqrt(max(1.0, visits[node]))
    best = -np.inf
    best_a = -1
    ties = 0
    for a in range(mask.shape[0]):
        if not mask[a]:
            continue
        p = base + prior if (h_legal and a == h) else base
        c = child_of[a]
        if c >= 0 and visits[c] > 0:
            u = value[c, mover] / visits[c] + c_puct * p * np.sqrt(avail[c]) / (1.0 + visits[c])
        else:
            u = fpu + c_puct * p * sqrt_n
        if u > best + 1e-12:
            best, best_a, ties = u, a, 1
        elif u >= best - 1e-12:
            ties += 1  # equal scores: a uniform pick among them (reservoir sampling)
            if randint(rng, ties) == 0:
                best_a = a
    return best_a


@njit(cache=True)
def search(states, seat: int, seed, params, root_visits, root_values) -> int:
    """The action ``seat`` should play in ``states[0]`` after ``params[P_SIMULATIONS]``
    iterations; ``root_visits[a]`` / ``root_values[a]`` get each root action's visits and
    mean value for ``seat``. ``states[0]`` is read only through determinized copies."""
    sims = int(params[P_SIMULATIONS])
    cooperative = params[P_COOPERATIVE] != 0
    scale = params[P_SCALE]
    max_nodes = sims + 1
    first_child = np.full(max_nodes, -1, dtype=np.int64)
    next_sibling = np.full(max_nodes, -1, dtype=np.int64)
    node_action = np.full(max_nodes, -1, dtype=np.int64)
    visits = np.zeros(max_nodes, dtype=np.int64)
    avail = np.zeros(max_nodes, dtype=np.int64)
    value = np.zeros((max_nodes, K.NUM_SEATS), dtype=np.float64)
    heur = np.full(max_nodes, NO_ACTION, dtype=np.int64)
    path = np.empty(max_nodes, dtype=np.int64)
    child_of = np.full(K.NUM_ACTIONS, -1, dtype=np.int64)
    mask = np.zeros(K.NUM_ACTIONS, dtype=np.uint8)
    hmask = np.zeros(K.NUM_ACTIONS, dtype=np.uint8)
    root_mask = np.zeros(K.NUM_ACTIONS, dtype=np.uint8)
    ret = np.zeros(K.NUM_SEATS, dtype=np.float64)
    rng = np.empty(1, dtype=np.uint64)
    rng[0] = seed_state(np.uint64(seed))
    work = np.empty(1, dtype=K.STATE_DTYPE)
    nodes = 1
    root_potential = 0.0
    prior_on = params[P_PRIOR] > 0.0
    for it in range(sims):
        work[0] = states[0]
        s = work[0]
        K.determinize(s, seat, derive_seed(rng))
        if it == 0:
            K.legal_mask(s, root_mask)  # legality is public: the same in every determinization
            root_potential = K.shaping_potential(s, seat)
        node = 0
        depth = 0
        path[0] = 0
        expanded = False
        while K.to_act(s) >= 0 and not expanded:
            mover = K.to_act(s)
            if prior_on and heur[node] == NO_ACTION:
                heur[node] = H.heuristic_action(s, hmask)
            K.legal_mask(s, mask)
            a = select(
                node,
                mover,
                mask,
                child_of,
                first_child,
                next_sibling,
                node_action,
                visits,
                avail,
                value,
                heur,
                params,
                rng,
            )
            child = child_of[a]
            c = first_child[node]  # clear child_of for the next level
            while c >= 0:
                child_of[node_action[c]] = -1
                c = next_sibling[c]
            if child < 0:
                expanded = True
                if nodes < max_nodes:
                    child = nodes
                    nodes += 1
                    node_action[child] = a
                    next_sibling[child] = first_child[node]
                    first_child[node] = child
                    avail[child] = 1
            K.step(s, a)
            if child < 0:
                break
            node = child
            depth += 1
            path[depth] = node
        if expanded:
            rollout(s, params, mask, hmask, rng)
        score(s, ret, cooperative, scale, root_potential)
        for i in range(depth + 1):
            n = path[i]
            visits[n] += 1
            for p in range(K.NUM_SEATS):
                value[n, p] += ret[p]
    root_visits[:] = 0
    root_values[:] = 0.0
    best_a = -1
    best_n = -1
    best_q = -np.inf
    c = first_child[0]
    while c >= 0:
        a = node_action[c]
        if visits[c] > 0:
            q = value[c, seat] / visits[c]
            root_visits[a] = visits[c]
            root_values[a] = q
            if root_mask[a] and (visits[c] > best_n or (visits[c] == best_n and q > best_q)):
                best_a, best_n, best_q = a, visits[c], q
        c = next_sibling[c]
    if best_a < 0:  # no simulation finished (sims == 0): any legal action
        best_a = pick_random(root_mask, rng)
    return best_a
