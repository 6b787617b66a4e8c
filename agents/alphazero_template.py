"""Self-play and search with a network, in numba, for every ruleset (expert iteration /
AlphaZero): the source every ruleset shares, bound per ruleset like
``core/batch_template.py`` (the module ``<ruleset package>.alphazero``).

The search (``search``) is single-observer information-set MCTS with PUCT, as in
``agents/mcts_template.py``, but guided by the network of ``agents/alphazero_net.py``
instead of the heuristic and rollouts:

- every iteration copies the root and resamples what the deciding seat cannot know with
  ``K.determinize(copy, seat, seed)`` (a fresh seed each time), then walks the open-loop
  tree (keyed on actions) on that copy; the real record is read only through those copies;
- a new node is expanded with the network on the observation of the seat to act there
  and the features of its legal actions (``action_features``: each action played out one
  step in that world), in the determinized world, so only what that world lets it see:
  its prior is the softmax of the logits over that world's legal actions, and its value,
  one entry per seat in the observer's egocentric order, is turned back into absolute
  seats and backed up; a finished game backs up the kernel's returns (adjudicated by
  progress when the turn limit stopped it undecided: ``final_values``); with
  ``leaf_mix`` > 0 a leaf's value is that share progress (``progress_values``, the
  adjudication's shape) and the rest the network's: an untrained value head knows
  nothing, and 128 simulations valued by progress alone already beat the heuristic in
  Paths of Destiny 3e (26 of 40 games, docs/training.md), so the search has something
  to teach from the first game on;
- selection is PUCT over the actions legal in this determinization, with the node's prior
  renormalised over them and the child's availability count in the exploration term
  (ISMCTS); an unvisited child counts at its parent's mean value for the mover;
- at the root of a self-play search a share ``noise`` of the prior is Dirichlet(1) noise
  (normalised exponentials), so self-play tries what the network does not yet favour.

``policy_search`` is the same search guided by a MaskablePPO network instead
(``agents/policy_net.py``: the actor's prior over the ``lookahead`` block of the node's
legal actions, the critic's value; ``evaluate_policy``), so that the PPO networks that ship
as ``learned`` can search at play time too.

The heuristic appears nowhere in ``search``, ``policy_search`` or ``selfplay``; ``play_match`` uses it only as
an opponent to measure the network against.

Self-play (``selfplay``) plays whole games, every seat by the search, and records at every
decision with more than one legal action: the decider's observation, the root's action
features and legal mask, the search's policy target, and, once the game ends, every
seat's return in the decider's egocentric order (adjudicated as ``final_values`` says).
Moves are drawn from the policy target for the first ``temperature_moves`` decisions of a
game, then its argmax is played.
"""

from __future__ import annotations

from types import ModuleType

import numpy as np

from labyrinth_env.agents.alphazero_net import NUM_FEATURES, forward, masked_argmax, masked_softmax
from labyrinth_env.agents.policy_net import CONFIG_OBSERVATION, CONFIG_POTENTIAL, CONFIG_SHAPING, policy_forward
from labyrinth_env.core.batch_template import LOOKAHEAD_FEATURES
from labyrinth_env.core.jit import njit
from labyrinth_env.core.rng import derive_seed, next_u64, pick_random, randint, seed_state

BOUND_NAME = "alphazero"
K: ModuleType | None = None  # the ruleset's kernel, bound by core.templates.bind
H: ModuleType | None = None  # the ruleset's heuristic: an evaluation opponent only
# the ruleset's loops (core/batch_template, bound by core.templates.bind): the action features
# and progress the env's ``lookahead`` option shows are the learner's, written once there
L: ModuleType | None = None

# the params vector (float64) of ``search`` and ``selfplay``
P_SIMULATIONS, P_C, P_NOISE, P_TEMPERATURE_MOVES, P_MAX_DECISIONS, P_TARGET, P_ADJUDICATE = 0, 1, 2, 3, 4, 5, 6
P_LEAF_MIX, P_COOPERATIVE = 7, 8
P_PLAY_NETWORK = 9  # policy_games: the network plays its own move, the search only teaches (DAgger)
NUM_PARAMS = 10
TARGET_VISITS, TARGET_COMPLETED_Q = 0, 1

# the completed-Q policy of Danihelka et al. 2022 (Policy improvement by planning with
# Gumbel, appendix D): sigma(q) = (MAXVISIT_INIT + max visits) * VALUE_SCALE * q, q in [0, 1]
MAXVISIT_INIT, VALUE_SCALE = 50.0, 0.1

OPPONENT_RANDOM, OPPONENT_HEURISTIC, OPPONENT_SELF = 0, 1, 2


@njit(cache=True)
def uniform01(rng) -> float:
    """A uniform float in (0, 1)."""
    return ((next_u64(rng) >> np.uint64(11)) + 0.5) / 9007199254740992.0


@njit(cache=True)
def final_values(s, ret, adjudicate: float) -> None:
    """``ret``: every seat's return in a game that stopped. A game the turn limit (or the
    decision cap) stopped undecided gives nobody anything; with ``adjudicate > 0`` its
    seats get instead ``adjudicate * tanh(PROGRESS_SCALE * (own - best other potential))``,
    so that self-play learns from games that random play never finishes (a training target
    only: the game's own result is unchanged)."""
    ret[:] = 0.0
    if K.to_act(s) < 0:
        K.returns(s, ret)
    if adjudicate <= 0.0:
        return
    for p in range(s.num_players):
        if ret[p] != 0.0:
            return
    for p in range(s.num_players):
        ret[p] = adjudicate * np.tanh(L.PROGRESS_SCALE * (K.progress(s, p) - L.best_other_progress(s, p)))


@njit(cache=True)
def progress_values(s, out, cooperative: bool, root_progress: float) -> None:
    """A static value of the running game ``s`` for every seat, from progress alone:
    competitive, ``tanh(PROGRESS_SCALE * (own - best other))`` (the adjudication's shape);
    cooperative, the team's gain since the search's root, squashed the same way."""
    out[:] = 0.0
    for p in range(s.num_players):
        if cooperative:
            out[p] = np.tanh(L.PROGRESS_SCALE * (K.progress(s, p) - root_progress))
        else:
            out[p] = np.tanh(L.PROGRESS_SCALE * (K.progress(s, p) - L.best_other_progress(s, p)))


@njit(cache=True)
def mix_progress(s, values, scratch, leaf_mix: float, cooperative: bool, root_progress: float) -> None:
    """``values`` (the network's, per seat) become ``leaf_mix`` parts ``progress_values`` and
    the rest the network's (``scratch``: one value per seat)."""
    if leaf_mix <= 0.0:
        return
    progress_values(s, scratch, cooperative, root_progress)
    for p in range(K.NUM_SEATS):
        values[p] = (1.0 - leaf_mix) * values[p] + leaf_mix * scratch[p]


@njit(cache=True)
def evaluate(s, net, x, features, scratch, mask, logits, rel_value, h1, h2, prior, value) -> None:
    """Network prior over the legal actions (``prior``) and per-seat value in absolute
    seats (``value``) of the running game ``s``, from the observation of its seat to act
    and the features of its legal actions (``features``)."""
    mover = K.to_act(s)
    K.observe(s, mover, x)
    K.legal_mask(s, mask)
    L.action_features(s, mover, mask, features, scratch)
    forward(net, x, features, mask, logits, rel_value, h1, h2)
    masked_softmax(logits, mask, prior)
    value[:] = 0.0
    n = s.num_players
    for k in range(n):
        value[(mover + k) % n] = rel_value[k]


@njit(cache=True)
def shaping_term(s, seat: int, config) -> float:
    """``scale * potential`` of ``seat`` in ``s`` for the shaping a PPO network was trained
    with (``policy_net.search_arrays``' config): what its critic's value lacks of the seat's
    expected return (potential-based shaping's rewards from a position on sum to minus it)."""
    if config[CONFIG_POTENTIAL] == 1.0:
        return config[CONFIG_SHAPING] * K.shaping_potential(s, seat)
    if config[CONFIG_POTENTIAL] == 2.0:
        return config[CONFIG_SHAPING] * K.progress(s, seat)
    return 0.0


@njit(cache=True)
def evaluate_policy(s, policy, x, features, scratch, mask, logits, block, prior, value, cooperative: bool) -> None:
    """``evaluate`` with a MaskablePPO network (``agents/policy_net``): the prior from its
    actor, over the block of its legal actions read in this world, and the value from its
    critic, plus the shaping it was trained with (``scale * potential``), which makes it the
    mover's expected return; the other seats get its opposite shared among them (zero-sum),
    a team the same. A network without a critic values every leaf 0 (progress values it:
    ``leaf_mix``)."""
    mover = K.to_act(s)
    K.observe(s, mover, x)
    K.legal_mask(s, mask)
    if x.shape[0] > K.OBS_SIZE:
        # a kernel's own block (Team Edition's), which its observation writes after the
        # planes when the record's lookahead option is on (the caller switches it on)
        features[:] = 0.0
        per = block.shape[1]
        for a in range(K.NUM_ACTIONS):
            for f in range(per):
                block[a, f] = x[K.OBS_SIZE + a * per + f]
        v = policy_forward(policy, x[: K.OBS_SIZE], block, mask, logits)
    else:
        L.action_features(s, mover, mask, features, scratch)
        L.lookahead_rows(features, mask, block)
        v = policy_forward(policy, x, block, mask, logits)
    masked_softmax(logits, mask, prior)
    v = min(1.0, max(-1.0, v + shaping_term(s, mover, policy[-1])))
    n = s.num_players
    for p in range(n):
        value[p] = v if p == mover or cooperative else -v / max(n - 1, 1)


@njit(cache=True)
def puct_select(
    node, mover, mask, child_of, first_child, next_sibling, node_action, visits, avail, value, prior, c_puct, rng
):
    """The action to take at ``node`` for ``mover`` among the legal actions of ``mask``;
    fills ``child_of[a]`` for the legal children (the caller clears it)."""
    c = first_child[node]
    while c >= 0:
        a = node_action[c]
        if mask[a]:
            child_of[a] = c
            avail[c] += 1
        c = next_sibling[c]
    total = 0.0
    legal = 0
    for a in range(mask.shape[0]):
        if mask[a]:
            total += prior[node, a]
            legal += 1
    fpu = value[node, mover] / visits[node] if visits[node] > 0 else 0.0
    sqrt_n = np.sqrt(max(1.0, visits[node]))
    best = -np.inf
    best_a = -1
    ties = 0
    for a in range(mask.shape[0]):
        if not mask[a]:
            continue
        p = prior[node, a] / total if total > 0.0 else 1.0 / legal
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
def completed_q_policy(logits, mask, root_prior, root_value: float, visits, q, out) -> None:
    """``out``: softmax over the legal actions of ``logits + sigma(completed q)``, where an
    unvisited action's q is the mixed value (the network's root value and the visited
    actions' q weighted by their prior), rescaled to [0, 1] over the legal actions. With
    no value evidence it stays the network's own policy (visit counts instead would
    sharpen towards whatever the prior already favours)."""
    total_n = 0
    max_n = 0
    weighted = 0.0
    prior_visited = 0.0
    for a in range(mask.shape[0]):
        if mask[a] and visits[a] > 0:
            total_n += visits[a]
            max_n = max(max_n, visits[a])
            weighted += root_prior[a] * q[a]
            prior_visited += root_prior[a]
    mixed = root_value
    if prior_visited > 0.0:
        mixed = (root_value + total_n * weighted / prior_visited) / (1.0 + total_n)
    low, high = np.inf, -np.inf
    for a in range(mask.shape[0]):
        if mask[a]:
            out[a] = q[a] if visits[a] > 0 else mixed
            low = min(low, out[a])
            high = max(high, out[a])
    scale = (MAXVISIT_INIT + max_n) * VALUE_SCALE / max(high - low, 1e-8)
    for a in range(mask.shape[0]):
        out[a] = logits[a] + scale * (out[a] - low) if mask[a] else 0.0
    masked_softmax(out, mask, out)


@njit(cache=True)
def search(states, seat: int, seed, net, params, root_visits, improved, root_features) -> None:
    """``params[P_SIMULATIONS]`` iterations for ``seat``, to act in ``states[0]``;
    ``root_visits[a]``: the visits of each root action; ``improved``: the completed-Q
    policy (``completed_q_policy``); ``root_features``: the action features the root's
    prior was computed from. ``states[0]`` is read only through copies
    determinized for ``seat``, so two records that differ only in what ``seat`` cannot
    know give the same results for the same seed."""
    tree_search(states, seat, seed, net, no_policy(), False, params, root_visits, improved, root_features)


@njit(cache=True)
def policy_search(states, seat: int, seed, policy, params, root_visits, improved, root_features) -> None:
    """``search`` guided by a MaskablePPO network (``agents/policy_net.search_arrays``)
    instead of the self-play learner's: its actor's prior, its critic's values
    (``evaluate_policy``)."""
    tree_search(states, seat, seed, no_net(), policy, True, params, root_visits, improved, root_features)


@njit(cache=True)
def no_net():
    """A network of the learner's shape that ``tree_search`` never reads (a PPO search)."""
    w, b = np.zeros((1, 1), dtype=np.float32), np.zeros(1, dtype=np.float32)
    return (w, b, w, b, w, b, w, b, w, b)


@njit(cache=True)
def no_policy():
    """A ``policy_net.search_arrays`` tuple that ``tree_search`` never reads (the learner's search)."""
    w, b = np.zeros((1, 1), dtype=np.float32), np.zeros(1, dtype=np.float32)
    config = np.zeros(CONFIG_OBSERVATION + 1, dtype=np.float32)  # policy_net.search_arrays' config
    return (w, b, w, b, w, b, w, b, w, w, w, w, b, b, b, b, w, b, w, b, b, b, config)


@njit(cache=True)
def tree_search(states, seat: int, seed, net, policy, use_policy: bool, params, root_visits, improved, root_features):
    """``search`` (``use_policy`` False: ``net`` guides it) and ``policy_search``
    (``policy`` does): one tree search, two kinds of network."""
    sims = int(params[P_SIMULATIONS])
    c_puct = params[P_C]
    noise = params[P_NOISE]
    adjudicate = params[P_ADJUDICATE]
    leaf_mix = params[P_LEAF_MIX]
    cooperative = params[P_COOPERATIVE] != 0.0
    max_nodes = sims + 1
    first_child = np.full(max_nodes, -1, dtype=np.int64)
    next_sibling = np.full(max_nodes, -1, dtype=np.int64)
    node_action = np.full(max_nodes, -1, dtype=np.int64)
    visits = np.zeros(max_nodes, dtype=np.int64)
    avail = np.zeros(max_nodes, dtype=np.int64)
    value = np.zeros((max_nodes, K.NUM_SEATS), dtype=np.float64)
    prior = np.zeros((max_nodes, K.NUM_ACTIONS), dtype=np.float32)
    path = np.empty(max_nodes + 1, dtype=np.int64)
    child_of = np.full(K.NUM_ACTIONS, -1, dtype=np.int64)
    mask = np.zeros(K.NUM_ACTIONS, dtype=np.uint8)
    x = np.zeros(K.OBS_SIZE, dtype=np.float32)
    features = np.zeros((K.NUM_ACTIONS, NUM_FEATURES), dtype=np.float32)
    scratch = np.empty(1, dtype=K.STATE_DTYPE)
    logits = np.zeros(K.NUM_ACTIONS, dtype=np.float32)
    rel_value = np.zeros(K.NUM_SEATS, dtype=np.float32)
    h1 = np.zeros(net[1].shape[0], dtype=np.float32)
    h2 = np.zeros(net[3].shape[0], dtype=np.float32)
    leaf_prior = np.zeros(K.NUM_ACTIONS, dtype=np.float32)
    block = np.zeros((K.NUM_ACTIONS, LOOKAHEAD_FEATURES), dtype=np.float32)
    # a PPO network's observation: the kernel's, with its own block if the network reads that
    xp = np.zeros(max(K.OBS_SIZE, int(policy[-1][CONFIG_OBSERVATION])), dtype=np.float32)
    ret = np.zeros(K.NUM_SEATS, dtype=np.float64)
    static = np.zeros(K.NUM_SEATS, dtype=np.float64)
    root_progress = 0.0
    root_logits = np.zeros(K.NUM_ACTIONS, dtype=np.float32)
    root_prior = np.zeros(K.NUM_ACTIONS, dtype=np.float32)
    root_mask = np.zeros(K.NUM_ACTIONS, dtype=np.uint8)
    root_value = 0.0
    rng = np.empty(1, dtype=np.uint64)
    rng[0] = seed_state(np.uint64(seed))
    work = np.empty(1, dtype=K.STATE_DTYPE)
    nodes = 1
    for it in range(sims + 1):
        work[0] = states[0]
        s = work[0]
        K.determinize(s, seat, derive_seed(rng))
        if it == 0:  # the root's prior: the seat's own observation, the same in every world
            if use_policy:
                evaluate_policy(s, policy, xp, features, scratch, mask, logits, block, leaf_prior, ret, cooperative)
            else:
                evaluate(s, net, x, features, scratch, mask, logits, rel_value, h1, h2, leaf_prior, ret)
            root_features[:] = features
            root_logits[:] = logits
            root_prior[:] = leaf_prior
            root_mask[:] = mask
            root_progress = K.progress(s, seat)
            mix_progress(s, ret, static, leaf_mix, cooperative, root_progress)
            root_value = ret[seat]
            if noise > 0.0:
                total = 0.0
                for a in range(K.NUM_ACTIONS):
                    if mask[a]:
                        logits[a] = -np.log(uniform01(rng))
                        total += logits[a]
                for a in range(K.NUM_ACTIONS):
                    if mask[a]:
                        leaf_prior[a] = (1.0 - noise) * leaf_prior[a] + noise * logits[a] / total
            prior[0, :] = leaf_prior
            visits[0] = 1
            for p in range(K.NUM_SEATS):
                value[0, p] = ret[p]
            continue
        node = 0
        depth = 0
        path[0] = 0
        while True:
            if K.to_act(s) < 0:
                final_values(s, ret, adjudicate)
                break
            mover = K.to_act(s)
            K.legal_mask(s, mask)
            a = puct_select(
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
                prior,
                c_puct,
                rng,
            )
            child = child_of[a]
            c = first_child[node]  # clear child_of for the next level
            while c >= 0:
                child_of[node_action[c]] = -1
                c = next_sibling[c]
            K.step(s, a)
            if child >= 0:
                node = child
                depth += 1
                path[depth] = node
                continue
            # a new node: the network's prior and value at the position it leads to
            if K.to_act(s) < 0:
                final_values(s, ret, adjudicate)
            elif use_policy:
                evaluate_policy(s, policy, xp, features, scratch, mask, logits, block, leaf_prior, ret, cooperative)
                mix_progress(s, ret, static, leaf_mix, cooperative, root_progress)
            else:
                evaluate(s, net, x, features, scratch, mask, logits, rel_value, h1, h2, leaf_prior, ret)
                mix_progress(s, ret, static, leaf_mix, cooperative, root_progress)
            if nodes < max_nodes:
                child = nodes
                nodes += 1
                node_action[child] = a
                next_sibling[child] = first_child[node]
                first_child[node] = child
                avail[child] = 1
                prior[child, :] = leaf_prior
                depth += 1
                path[depth] = child
            break
        for i in range(depth + 1):
            n = path[i]
            visits[n] += 1
            for p in range(K.NUM_SEATS):
                value[n, p] += ret[p]
    root_visits[:] = 0
    q = np.zeros(K.NUM_ACTIONS, dtype=np.float64)
    c = first_child[0]
    while c >= 0:
        root_visits[node_action[c]] = visits[c]
        if visits[c] > 0:
            q[node_action[c]] = value[c, seat] / visits[c]
        c = next_sibling[c]
    completed_q_policy(root_logits, root_mask, root_prior, root_value, root_visits, q, improved)


@njit(cache=True)
def sample_visits(visits, rng) -> int:
    """An action drawn in proportion to ``visits``."""
    total = 0
    for a in range(visits.shape[0]):
        total += visits[a]
    pick = randint(rng, total)
    for a in range(visits.shape[0]):
        pick -= visits[a]
        if pick < 0:
            return a
    return -1


@njit(cache=True)
def sample_policy(policy, rng) -> int:
    """An action drawn from the distribution ``policy``."""
    u = uniform01(rng)
    last = -1
    for a in range(policy.shape[0]):
        if policy[a] > 0.0:
            last = a
            u -= policy[a]
            if u < 0.0:
                return a
    return last


@njit(cache=True)
def most_visited(visits, mask, rng) -> int:
    """The legal action with the most visits (equal ones: a uniform pick)."""
    best, best_a, ties = -1, -1, 0
    for a in range(visits.shape[0]):
        if not mask[a]:
            continue
        if visits[a] > best:
            best, best_a, ties = visits[a], a, 1
        elif visits[a] == best:
            ties += 1
            if randint(rng, ties) == 0:
                best_a = a
    return best_a


@njit(cache=True)
def selfplay(seeds, options, net, params, obs, features, masks, policy, seats, games, targets, game_returns) -> int:
    """Play one game per seed, every seat by the search; record each decision with a choice
    (see the module docstring) into ``obs``, ``features`` (the root's action features),
    ``masks``, ``policy``, ``seats``, ``games`` (the game's index) and ``targets`` (returns
    in the decider's egocentric order, adjudicated as ``final_values`` says), from row 0
    on; ``game_returns[g]``: game g's returns by absolute seat, as the game gave them.
    Returns the number of rows written; a game that would write past the arrays' end still
    plays out, unrecorded."""
    capacity = obs.shape[0]
    max_decisions = int(params[P_MAX_DECISIONS])
    temperature_moves = int(params[P_TEMPERATURE_MOVES])
    states = np.empty(1, dtype=K.STATE_DTYPE)
    mask = np.zeros(K.NUM_ACTIONS, dtype=np.uint8)
    visits = np.zeros(K.NUM_ACTIONS, dtype=np.int64)
    improved = np.zeros(K.NUM_ACTIONS, dtype=np.float32)
    root_features = np.zeros((K.NUM_ACTIONS, NUM_FEATURES), dtype=np.float32)
    completed = params[P_TARGET] == TARGET_COMPLETED_Q
    ret = np.zeros(K.NUM_SEATS, dtype=np.float64)
    target = np.zeros(K.NUM_SEATS, dtype=np.float64)
    rng = np.empty(1, dtype=np.uint64)
    row = 0
    for g in range(seeds.shape[0]):
        rng[0] = seed_state(np.uint64(seeds[g]) ^ np.uint64(0x9E3779B97F4A7C15))
        K.init(states[0], np.uint64(seeds[g]), options)
        first = row
        decisions = 0
        while K.to_act(states[0]) >= 0 and decisions < max_decisions:
            s = states[0]
            seat = K.to_act(s)
            K.legal_mask(s, mask)
            legal = 0
            for a in range(K.NUM_ACTIONS):
                legal += mask[a] != 0
            if legal == 1:
                K.step(s, pick_random(mask, rng))
                continue
            search(states, seat, derive_seed(rng), net, params, visits, improved, root_features)
            if completed:
                a = sample_policy(improved, rng) if decisions < temperature_moves else masked_argmax(improved, mask)
            elif decisions < temperature_moves:
                a = sample_visits(visits, rng)
            else:
                a = most_visited(visits, mask, rng)
            if row < capacity:
                K.observe(s, seat, obs[row])
                features[row] = root_features
                masks[row, :] = mask
                total = 0
                for b in range(K.NUM_ACTIONS):
                    total += visits[b]
                for b in range(K.NUM_ACTIONS):
                    policy[row, b] = improved[b] if completed else visits[b] / total
                seats[row] = seat
                games[row] = g
                row += 1
            decisions += 1
            K.step(s, a)
        final_values(states[0], ret, 0.0)  # zeros if the decision cap stopped a running game
        final_values(states[0], target, params[P_ADJUDICATE])
        n = states[0].num_players
        game_returns[g, :] = ret
        for r in range(first, row):
            targets[r, :] = 0.0
            for k in range(n):
                targets[r, k] = target[(seats[r] + k) % n]
    return row


@njit(cache=True)
def net_action(states, seat: int, net, seed, work, features, x, mask, logits, rel_value, h1, h2) -> int:
    """The network alone: the legal action of the highest logit for ``seat`` in
    ``states[0]``, its action features read in a world determinized for the seat
    (``work``: two scratch records)."""
    work[0] = states[0]
    world = work[0]
    K.determinize(world, seat, seed)
    K.observe(world, seat, x)
    K.legal_mask(world, mask)
    L.action_features(world, seat, mask, features, work[1:])
    forward(net, x, features, mask, logits, rel_value, h1, h2)
    return masked_argmax(logits, mask)


@njit(cache=True)
def play_match(seeds, options, net, params, learner_seats, opponent: int, out_returns) -> None:
    """Game g from ``seeds[g]``: the learner in seat ``learner_seats[g]``, the ``opponent``
    (random, the heuristic, or the learner itself: a cooperative team of learners) in the
    others; ``out_returns[g]``: the returns by seat. The
    learner plays the network's masked argmax if ``params[P_SIMULATIONS]`` is 0, else the
    most visited action of ``search`` (no noise: the caller sets ``params[P_NOISE]``)."""
    states = np.empty(1, dtype=K.STATE_DTYPE)
    mask = np.zeros(K.NUM_ACTIONS, dtype=np.uint8)
    visits = np.zeros(K.NUM_ACTIONS, dtype=np.int64)
    improved = np.zeros(K.NUM_ACTIONS, dtype=np.float32)
    features = np.zeros((K.NUM_ACTIONS, NUM_FEATURES), dtype=np.float32)
    work = np.empty(2, dtype=K.STATE_DTYPE)
    x = np.zeros(K.OBS_SIZE, dtype=np.float32)
    logits = np.zeros(K.NUM_ACTIONS, dtype=np.float32)
    rel_value = np.zeros(K.NUM_SEATS, dtype=np.float32)
    h1 = np.zeros(net[1].shape[0], dtype=np.float32)
    h2 = np.zeros(net[3].shape[0], dtype=np.float32)
    ret = np.zeros(K.NUM_SEATS, dtype=np.float64)
    rng = np.empty(1, dtype=np.uint64)
    sims = int(params[P_SIMULATIONS])
    for g in range(seeds.shape[0]):
        rng[0] = seed_state(np.uint64(seeds[g]) ^ np.uint64(0x5851F42D4C957F2D))
        K.init(states[0], np.uint64(seeds[g]), options)
        decisions = 0
        while K.to_act(states[0]) >= 0 and decisions < int(params[P_MAX_DECISIONS]):
            s = states[0]
            seat = K.to_act(s)
            if seat == learner_seats[g] or opponent == OPPONENT_SELF:
                if sims > 0:
                    K.legal_mask(s, mask)
                    search(states, seat, derive_seed(rng), net, params, visits, improved, features)
                    if params[P_TARGET] == TARGET_COMPLETED_Q:
                        a = masked_argmax(improved, mask)
                    else:
                        a = most_visited(visits, mask, rng)
                else:
                    world = derive_seed(rng)
                    a = net_action(states, seat, net, world, work, features, x, mask, logits, rel_value, h1, h2)
            elif opponent == OPPONENT_HEURISTIC:
                a = H.heuristic_action(s, mask)
            else:
                K.legal_mask(s, mask)
                a = pick_random(mask, rng)
            K.step(s, a)
            decisions += 1
        K.returns(states[0], ret)
        out_returns[g, :] = ret


@njit(cache=True)
def net_action_one(states, seat: int, net, seed) -> int:
    """``net_action`` for ``states[0]`` from Python (the learned agent)."""
    work = np.empty(2, dtype=K.STATE_DTYPE)
    features = np.zeros((K.NUM_ACTIONS, NUM_FEATURES), dtype=np.float32)
    x = np.zeros(K.OBS_SIZE, dtype=np.float32)
    mask = np.zeros(K.NUM_ACTIONS, dtype=np.uint8)
    logits = np.zeros(K.NUM_ACTIONS, dtype=np.float32)
    rel_value = np.zeros(K.NUM_SEATS, dtype=np.float32)
    h1 = np.zeros(net[1].shape[0], dtype=np.float32)
    h2 = np.zeros(net[3].shape[0], dtype=np.float32)
    return net_action(states, seat, net, seed, work, features, x, mask, logits, rel_value, h1, h2)


# --- a PPO network's own games: expert iteration on it (agents/train_distill.py) ---------
@njit(cache=True)
def policy_observation(s, seat: int, own: bool, out) -> None:
    """What a PPO network (``agents/policy_net``) reads for ``seat`` in ``s``: the kernel's
    observation and the ``lookahead`` block the env's option gives, the kernel's own
    (``own``: Team Edition's, written when the record's option is on) or the generic one
    (``core/batch_template.lookahead_one``, played out in a world made from the seat's
    observation). Neither reads what the seat cannot know."""
    if own:
        K.observe(s, seat, out)
    else:
        K.observe(s, seat, out[: K.OBS_SIZE])
        L.lookahead_one(s, seat, out)


@njit(cache=True)
def policy_action(s, seat: int, policy, own: bool, row, block, mask, logits) -> int:
    """The PPO network alone: the legal action of its highest logit for ``seat`` in ``s``
    (the first of equal ones, as SB3's argmax), from ``policy_observation`` (into ``row``)."""
    policy_observation(s, seat, own, row)
    K.legal_mask(s, mask)
    per = block.shape[1]
    for a in range(K.NUM_ACTIONS):
        for f in range(per):
            block[a, f] = row[K.OBS_SIZE + a * per + f]
    policy_forward(policy, row[: K.OBS_SIZE], block, mask, logits)
    return masked_argmax(logits, mask)


@njit(cache=True)
def policy_games(
    seeds, options, policy, params, learner_seats, opponents, obs, masks, targets, seats, values, game_returns
) -> int:
    """Game g from ``seeds[g]``: the PPO network in seat ``learner_seats[g]`` and the
    ``opponents[g]`` (random, the heuristic, or the network itself: every seat, a team in
    a cooperative game) in the others. With ``params[P_SIMULATIONS]`` 0 the network plays
    alone (its masked argmax: an evaluation, nothing recorded). Else it searches
    (``policy_search``, with ``params[P_NOISE]`` at the root) at each of its decisions and
    plays a move drawn in proportion to the visits for its first ``P_TEMPERATURE_MOVES``
    decisions of a game, then the most visited, or with ``P_PLAY_NETWORK`` its own
    masked argmax (DAgger: the network meets the positions its own play leads to, labelled
    by the search), and records each of its decisions with a choice from row 0 on: the
    network's input (``policy_observation``) in ``obs``, the legal ``masks``, the visit
    distribution in ``targets``, the ``seats``, and in ``values`` the seat's return once the
    game ends (adjudicated by ``P_ADJUDICATE`` as ``final_values`` says) and the shaping
    term of the position (``shaping_term``: the critic's target is their difference).
    ``game_returns[g]``: the game's own returns by seat. Returns the rows written; a game
    that would write past the arrays' end still plays out, unrecorded."""
    capacity = obs.shape[0]
    sims = int(params[P_SIMULATIONS])
    max_decisions = int(params[P_MAX_DECISIONS])
    temperature_moves = int(params[P_TEMPERATURE_MOVES])
    config = policy[-1]
    own = config[CONFIG_OBSERVATION] > 0.0
    play_network = params[P_PLAY_NETWORK] != 0.0
    states = np.empty(1, dtype=K.STATE_DTYPE)
    mask = np.zeros(K.NUM_ACTIONS, dtype=np.uint8)
    visits = np.zeros(K.NUM_ACTIONS, dtype=np.int64)
    improved = np.zeros(K.NUM_ACTIONS, dtype=np.float32)
    features = np.zeros((K.NUM_ACTIONS, NUM_FEATURES), dtype=np.float32)
    row_scratch = np.zeros(obs.shape[1], dtype=np.float32)
    block = np.zeros((K.NUM_ACTIONS, LOOKAHEAD_FEATURES), dtype=np.float32)
    logits = np.zeros(K.NUM_ACTIONS, dtype=np.float32)
    ret = np.zeros(K.NUM_SEATS, dtype=np.float64)
    target = np.zeros(K.NUM_SEATS, dtype=np.float64)
    rng = np.empty(1, dtype=np.uint64)
    row = 0
    for g in range(seeds.shape[0]):
        rng[0] = seed_state(np.uint64(seeds[g]) ^ np.uint64(0xD1B54A32D192ED03))
        K.init(states[0], np.uint64(seeds[g]), options)
        first = row
        decisions = 0
        while K.to_act(states[0]) >= 0 and decisions < max_decisions:
            s = states[0]
            seat = K.to_act(s)
            K.legal_mask(s, mask)
            if seat != learner_seats[g] and opponents[g] != OPPONENT_SELF:
                if opponents[g] == OPPONENT_HEURISTIC:
                    a = H.heuristic_action(s, mask)
                else:
                    a = pick_random(mask, rng)
            elif sims == 0:
                a = policy_action(s, seat, policy, own, row_scratch, block, mask, logits)
            else:
                legal = 0
                for b in range(K.NUM_ACTIONS):
                    legal += mask[b] != 0
                if legal == 1:
                    a = pick_random(mask, rng)
                else:
                    policy_search(states, seat, derive_seed(rng), policy, params, visits, improved, features)
                    if decisions < temperature_moves:
                        a = sample_visits(visits, rng)
                    elif play_network:
                        a = policy_action(s, seat, policy, own, row_scratch, block, mask, logits)
                    else:
                        a = most_visited(visits, mask, rng)
                    if row < capacity:
                        policy_observation(s, seat, own, obs[row])
                        masks[row, :] = mask
                        total = 0
                        for b in range(K.NUM_ACTIONS):
                            total += visits[b]
                        for b in range(K.NUM_ACTIONS):
                            targets[row, b] = visits[b] / total
                        seats[row] = seat
                        values[row, 1] = shaping_term(s, seat, config)
                        row += 1
            decisions += 1
            K.step(states[0], a)
        final_values(states[0], ret, 0.0)
        final_values(states[0], target, params[P_ADJUDICATE])
        game_returns[g, :] = ret
        for r in range(first, row):
            values[r, 0] = target[seats[r]]
    return row
