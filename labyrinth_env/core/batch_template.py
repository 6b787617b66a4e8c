"""Batched loops over one ruleset's kernel: the source every ruleset shares.

Written once against two module globals, ``K`` (the ruleset's kernel) and ``H`` (its
heuristic), and bound per ruleset by ``labyrinth_env.core.templates.bind`` (the module
``<ruleset package>.loops``, ``spec.loops``): the same code objects, compiled and cached
once per ruleset. The kernel is reached only through the contract
(``labyrinth_env.core.contract``). Each ``parallel=True`` loop is bound serial too, as
``<name>_serial`` (``random_steps_batch_serial``, ``vector_step_serial``).
"""

from __future__ import annotations

from types import ModuleType

import numpy as np
from numba import prange

from labyrinth_env.core.contract import RUNNING, TRUNCATED, WON
from labyrinth_env.core.jit import njit
from labyrinth_env.core.rng import derive_seed, pick_random, splitmix64

BOUND_NAME = "loops"
K: ModuleType | None = None  # the ruleset's kernel, bound by core.templates.bind
H: ModuleType | None = None  # the ruleset's heuristic (core.no_heuristic for a ruleset without one)

# The kernel's top functions, inlined (numba IR) into the entry points bound to them
# (``templates.bind`` sets them): compiled on their own, each would optimise and emit
# everything it calls once more, as its own library, before the entry point does it again.
INLINED_KERNEL = ("init", "step", "legal_mask", "observe")
inline_init = inline_step = inline_legal_mask = inline_observe = None

OPPONENT_RANDOM, OPPONENT_HEURISTIC, OPPONENT_EXTERNAL = 0, 1, 2

# the kernels' progress (``K.progress``: how near a seat is to winning) moves by 0.01-0.2 a
# step; scaled, its changes weigh like a win's 1
PROGRESS_SCALE = 10.0
# per action in the ``lookahead`` observation: own progress, the best rival's, the result,
# acting again, legal (see ``lookahead_one``)
LOOKAHEAD_FEATURES = 5

# Bounds no option switches off, so that no kernel call can loop for ever (a stalled game
# would otherwise hold the caller in compiled code, where Ctrl-C cannot reach it). The vector
# env passes its bound on opponent decisions between two learner decisions (far above any
# real game's, a few seconds of heuristic play at most); a game that reaches it is truncated
# and reported (``info[4]``).
MAX_EMPTY_GAMES = 1_000  # games in a row that end before a learner seat decides
MAX_GAME_DECISIONS = 10_000_000  # decisions of one game in ``play_games``
STALLED = -3  # seat returned when MAX_EMPTY_GAMES was reached
ENDED = -4  # seat returned for a finished game left in place (vector_step without restart)


# --- one game, built from the kernel contract (init, step, legal_mask, returns) -----------
@njit(cache=True)
def step_autoreset(s, action: int, rewards) -> bool:
    """Step one game; when it ends, write its returns and start the next game from a seed
    drawn from the finished game's RNG. Returns True when a game ended."""
    K.step(s, action)
    if s.outcome == RUNNING:
        rewards[:] = 0.0
        return False
    K.returns(s, rewards)
    K.init(s, derive_seed(s.rng), s.options)
    return True


@njit(cache=True, inline="always")
def random_legal_action(s, mask, rng) -> int:
    """A uniformly random legal action (``mask`` is filled here)."""
    K.legal_mask(s, mask)
    return pick_random(mask, rng)


@njit(cache=True)
def heuristic_one(states, mask) -> int:
    """The heuristic's action for game 0 of ``states`` (the entry point from Python, which
    hands over a batch of one so that numba sees the record in place)."""
    return H.heuristic_action(states[0], mask)


@njit(cache=True)
def heuristic_steps(s, mask, num_steps: int) -> int:
    """Play ``num_steps`` heuristic steps in one game (auto-reset when a game ends, as the
    batched loops do). Returns the number of games finished; for benchmarks."""
    rewards = np.zeros(K.NUM_SEATS)
    done = 0
    for _ in range(num_steps):
        if step_autoreset(s, H.heuristic_action(s, mask), rewards):
            done += 1
    return done


@njit(cache=True)
def play_games(states, options, seeds, heuristic_seats: int, rng_seed: int, out) -> None:
    """Competitive rulesets: one game per seed in the kernel, the seats in the bit set
    ``heuristic_seats`` playing the heuristic and the others uniformly random legal
    actions. ``out[g]`` gets (winner or -1, turns, steps, outcome); for tests and
    evaluations."""
    s = states[0]
    mask = np.zeros(K.NUM_ACTIONS, dtype=np.uint8)
    rng = np.zeros(1, dtype=np.uint64)
    rng[0] = np.uint64(rng_seed) * np.uint64(2654435761) + np.uint64(1)
    for g in range(seeds.shape[0]):
        K.init(s, seeds[g], options)
        steps = 0
        while s.outcome == RUNNING and steps < MAX_GAME_DECISIONS:
            if (heuristic_seats >> s.decider) & 1:
                a = H.heuristic_action(s, mask)
            else:
                a = random_legal_action(s, mask, rng)
            K.step(s, a)
            steps += 1
        out[g, 0] = s.winner if s.outcome == WON else -1
        out[g, 1] = s.turn
        out[g, 2] = steps
        out[g, 3] = s.outcome if s.outcome != RUNNING else TRUNCATED


# --- single-game entry points for Python (one call per AEC env step) ----------------------
@njit(cache=True)
def init_one(states, seed, options) -> None:
    inline_init(states[0], seed, options)


@njit(cache=True, inline="always")
def refresh(s, mask, rewards) -> int:
    inline_legal_mask(s, mask)
    K.returns(s, rewards)
    return K.to_act(s)


@njit(cache=True)
def refresh_one(states, mask, rewards) -> int:
    """Mask and returns of game 0; returns the seat to act (-1 when over)."""
    return refresh(states[0], mask, rewards)


@njit(cache=True)
def step_one(states, action: int, mask, rewards) -> int:
    """Step game 0 and refresh its mask and returns. Returns the next seat to act (-1 when
    over) or -2 if the action was illegal (state unchanged)."""
    if not inline_step(states[0], action):
        return -2
    return refresh(states[0], mask, rewards)


@njit(cache=True)
def observe_one(states, seat: int, out) -> None:
    inline_observe(states[0], seat, out)


@njit(cache=True, inline="always")
def opponent_action(s, kind: int, mask, rng) -> int:
    if kind == OPPONENT_HEURISTIC:
        return H.heuristic_action(s, mask)
    return random_legal_action(s, mask, rng)


@njit(cache=True, parallel=True)
def heuristic_actions(states, masks, out) -> None:
    """The ruleset heuristic's choice for each game's pending decision (``masks`` are
    scratch buffers; the games are not changed)."""
    for i in prange(states.shape[0]):
        out[i] = H.heuristic_action(states[i], masks[i])


@njit(cache=True, parallel=True)
def legal_mask_batch(states, masks) -> None:
    for i in prange(states.shape[0]):
        K.legal_mask(states[i], masks[i])


@njit(cache=True, parallel=True)
def observe_batch(states, seats, out) -> None:
    for i in prange(states.shape[0]):
        K.observe(states[i], seats[i], out[i])


@njit(cache=True, parallel=True)
def step_batch(states, actions, rewards, dones) -> None:
    for i in prange(states.shape[0]):
        dones[i] = step_autoreset(states[i], actions[i], rewards[i])


@njit(cache=True)
def random_steps(s, mask, rng, num_steps: int) -> int:
    """``num_steps`` random legal steps (the mask computed every step), starting a new game
    whenever one ends. Returns the number of games finished."""
    rewards = np.zeros(K.NUM_SEATS)
    done = 0
    for _ in range(num_steps):
        if step_autoreset(s, random_legal_action(s, mask, rng), rewards):
            done += 1
    return done


@njit(cache=True, parallel=True)
def random_steps_batch(states, masks, rngs, num_steps: int, games_done) -> None:
    for i in prange(states.shape[0]):
        games_done[i] += random_steps(states[i], masks[i], rngs[i], num_steps)


# --- what each legal action leads to: the learners' features --------------------------
@njit(cache=True)
def best_other_progress(s, seat: int) -> float:
    """The highest progress (``K.progress``) among the seats other than ``seat`` (0 alone)."""
    best = 0.0
    for p in range(s.num_players):
        if p != seat:
            best = max(best, K.progress(s, p))
    return best


@njit(cache=True)
def action_features(s, seat: int, mask, features, scratch) -> None:
    """``features[a]`` for every action ``mask`` allows to ``seat`` in ``s``, read from the
    position the action leads to (``scratch``: one record to play it in): the change of the
    seat's own progress (``K.progress``) and of the best other seat's (``PROGRESS_SCALE`` times),
    the seat's return if the action ends the game, and whether the seat acts again. ``s``
    must be a world the seat may see (determinized for it): its dice and draws are that
    world's, so the features carry nothing hidden."""
    features[:] = 0.0
    own = K.progress(s, seat)
    other = best_other_progress(s, seat)
    ret = np.zeros(K.NUM_SEATS, dtype=np.float64)
    for a in range(mask.shape[0]):
        if not mask[a]:
            continue
        scratch[0] = s
        t = scratch[0]
        K.step(t, a)
        if K.to_act(t) < 0:
            K.returns(t, ret)
            features[a, 2] = ret[seat]
            if ret[seat] != 0.0:  # a decided game's potential is 0: the return says it all
                continue
        features[a, 0] = PROGRESS_SCALE * (K.progress(t, seat) - own)
        features[a, 1] = PROGRESS_SCALE * (best_other_progress(t, seat) - other)
        features[a, 3] = 1.0 if K.to_act(t) == seat else 0.0


@njit(cache=True)
def observation_seed(obs, size: int) -> np.uint64:
    """A seed made of the first ``size`` numbers of an observation: of what the seat sees and
    nothing else, so that a world determinized from it is the same for every hidden truth
    behind the same observation."""
    bits = obs[:size].view(np.uint32)
    h = np.uint64(size)
    for i in range(size):
        h = splitmix64(h ^ np.uint64(bits[i]))
    return h


@njit(cache=True)
def lookahead_one(s, seat: int, out) -> None:
    """The per-action block at the end of ``out``, after the kernel's observation (the
    ``lookahead`` option, ``LOOKAHEAD_FEATURES`` per action): for each action legal to
    ``seat`` when it is to act, in [0, 1], ``0.5 + tanh(change)/2`` of its own progress
    and of the best rival's, ``0.5 + result/2`` if the action ends the game, whether it
    acts again, and 1 for a legal action (zero rows: not legal, or another seat's turn).
    Played out in a world ``K.determinize`` made for the seat from a seed of its
    observation, never in ``s``: what a die or a draw will show stays unknown, and the block
    depends on the observation alone."""
    base = out.shape[0] - K.NUM_ACTIONS * LOOKAHEAD_FEATURES
    out[base:] = 0.0
    if K.to_act(s) != seat:
        return
    worlds = np.empty(2, dtype=K.STATE_DTYPE)
    worlds[0] = s
    K.determinize(worlds[0], seat, observation_seed(out, base))
    mask = np.zeros(K.NUM_ACTIONS, dtype=np.int8)
    K.legal_mask(worlds[0], mask)
    features = np.zeros((K.NUM_ACTIONS, 4), dtype=np.float64)
    action_features(worlds[0], seat, mask, features, worlds[1:])
    lookahead_rows(features, mask, out[base:].reshape((K.NUM_ACTIONS, LOOKAHEAD_FEATURES)))


@njit(cache=True)
def lookahead_rows(features, mask, block) -> None:
    """``block[a]`` (``LOOKAHEAD_FEATURES`` numbers in [0, 1]) from ``action_features``'
    ``features[a]`` for every legal action, zeros for the others: the option's block, and
    what a PPO network guiding the search reads at each node."""
    block[:] = 0.0
    for a in range(mask.shape[0]):
        if mask[a]:
            block[a, 0] = 0.5 + 0.5 * np.tanh(features[a, 0])
            block[a, 1] = 0.5 + 0.5 * np.tanh(features[a, 1])
            block[a, 2] = 0.5 + 0.5 * features[a, 2]
            block[a, 3] = features[a, 3]
            block[a, 4] = 1.0


@njit(cache=True)
def lookahead_game(states, seat: int, out) -> None:
    """``lookahead_one`` for game 0 (the AEC env)."""
    lookahead_one(states[0], seat, out)


@njit(cache=True, parallel=True)
def lookahead_batch(states, index, seats, obs) -> None:
    """``lookahead_one`` for the games ``index`` whose ``seats`` entry is a seat (the vector env)."""
    for j in prange(index.shape[0]):
        i = index[j]
        if seats[i] >= 0:
            lookahead_one(states[i], seats[i], obs[i])


# --- the vector env: learner seats against kernel-side opponents -------------------------
@njit(cache=True, inline="always")
def play_opponents(s, learner, kind: int, mask, rng, max_decisions: int) -> bool:
    """Let kernel-side opponents act until a learner seat must decide or the game ends
    (external opponents decide in Python: nothing to do here). After ``max_decisions``
    opponent decisions in a row the game is truncated: returns False (stalled)."""
    if kind == OPPONENT_EXTERNAL:
        return True
    for _ in range(max_decisions):
        if s.outcome != RUNNING or learner[K.to_act(s)]:
            return True
        K.step(s, opponent_action(s, kind, mask, rng))
    if s.outcome != RUNNING or learner[K.to_act(s)]:
        return True
    s.outcome = TRUNCATED
    return False


@njit(cache=True, inline="always")
def vector_finish(s, mask, obs) -> int:
    """Mask and observation for the learner seat that must decide next; returns that seat."""
    seat = K.to_act(s)
    K.legal_mask(s, mask)
    K.observe(s, seat, obs)
    return seat


@njit(cache=True, inline="always")
def start_learner_game(s, seed, options, learner, kind: int, mask, rng, max_decisions: int) -> bool:
    """A new game, played by kernel-side opponents up to a learner seat's first decision.
    A game the opponents finish (or stall) before any learner seat decides is no episode
    for the learner (no rulebook game can end that early; a toy race can): the next game
    starts, seeded from that one. False after ``MAX_EMPTY_GAMES`` such games in a row."""
    K.init(s, seed, options)
    play_opponents(s, learner, kind, mask, rng, max_decisions)
    for _ in range(MAX_EMPTY_GAMES):
        if s.outcome == RUNNING:
            return True
        K.init(s, derive_seed(s.rng), s.options)
        play_opponents(s, learner, kind, mask, rng, max_decisions)
    return s.outcome == RUNNING


@njit(cache=True, inline="always")
def vector_reset_one(s, seed, options, learner, kind: int, mask, obs, rng, max_decisions: int) -> int:
    if not start_learner_game(s, seed, options, learner, kind, mask, rng, max_decisions):
        return STALLED
    return vector_finish(s, mask, obs)


@njit(cache=True, parallel=True)
def vector_reset(states, seeds, options, learners, kind: int, masks, obs, seats, rngs, max_decisions: int) -> None:
    for i in prange(states.shape[0]):
        seats[i] = vector_reset_one(
            states[i], seeds[i], options, learners[i], kind, masks[i], obs[i], rngs[i], max_decisions
        )


@njit(cache=True, inline="always")
def vector_step_one(
    s,
    action: int,
    learner,
    reward_seat: int,
    kind: int,
    mask,
    obs,
    final_obs,
    returns,
    rng,
    info,
    max_decisions: int,
    restart: bool,
) -> int:
    """One decision by the seat to act (a learner, or an external opponent): apply it, let
    kernel-side opponents play, and if the game ended record it in ``info``
    (terminated, truncated, ``reward_seat``'s return, its shaping potential in the final
    position: 0 after a decided game, the position's value after a truncation, which
    ends the episode but not the game; ``info[5]`` the same of its ``K.progress``), write
    that seat's last observation to ``final_obs`` and, with ``restart``, start the next
    game (seeded from this one's RNG; without it the finished game stays in ``s``, to be
    drawn, until the caller resets it);
    ``info[4]`` counts games truncated because the opponents stalled. Returns the next seat
    to decide; -2 if the action was illegal (nothing changed); ``ENDED`` for a finished game
    left in place; ``STALLED`` if no new game reached a learner decision."""
    if not K.step(s, action):
        return -2
    if not play_opponents(s, learner, kind, mask, rng, max_decisions):
        info[4] += 1.0
    if s.outcome != RUNNING:
        K.returns(s, returns)
        if s.outcome == TRUNCATED:
            info[1] = 1.0
        else:
            info[0] = 1.0
        info[2] += returns[reward_seat]
        info[3] = K.shaping_potential(s, reward_seat)
        info[5] = K.progress(s, reward_seat)
        K.observe(s, reward_seat, final_obs)
        if not restart:
            return ENDED
        if not start_learner_game(s, derive_seed(s.rng), s.options, learner, kind, mask, rng, max_decisions):
            return STALLED
    return vector_finish(s, mask, obs)


@njit(cache=True, parallel=True)
def vector_step(
    states,
    index,
    actions,
    learners,
    reward_seats,
    kind: int,
    masks,
    obs,
    final_obs,
    seats,
    returns,
    rngs,
    infos,
    max_decisions: int,
    restart: bool,
) -> None:
    """``vector_step_one`` for the games ``index`` (all of them, or those waiting on an
    external opponent); ``infos`` rows accumulate until the caller clears them."""
    for j in prange(index.shape[0]):
        i = index[j]
        seats[i] = vector_step_one(
            states[i],
            actions[i],
            learners[i],
            reward_seats[i],
            kind,
            masks[i],
            obs[i],
            final_obs[i],
            returns[i],
            rngs[i],
            infos[i],
            max_decisions,
            restart,
        )


@njit(cache=True, parallel=True)
def potentials(states, seats, out) -> None:
    """The ruleset's opt-in shaping potential of ``seats[i]`` in game i."""
    for i in prange(states.shape[0]):
        out[i] = K.shaping_potential(states[i], seats[i])


@njit(cache=True, parallel=True)
def progresses(states, seats, out) -> None:
    """``K.progress`` of ``seats[i]`` in game i (the vector env's ``potential="progress"``)."""
    for i in prange(states.shape[0]):
        out[i] = K.progress(states[i], seats[i])
