"""The cheapest-path search both Paths of Destiny heuristics plan with, and their small
shared helpers (among them how a seat steers the wandering figure, 2011's Guard or 3e's
Golem: ``step_away_value``).

The graph: every corridor node of ``hexboard`` (bridge changes included), then every cell
as a wildcard vertex ``NUM_NODES + cell``: an empty cell marked in ``fill`` counts as a
tile still to come that may open on any side (as the building rule does). An edge's cost
comes from the edition: ``enter[v]`` for entering corridor ``v``, ``leave[u]`` for leaving
corridor ``u`` along its sides, ``level_cost`` added to ``enter[v]`` for changing level on
a bridge tile, ``wild_cost`` for stepping into an empty cell. ``first[v]`` records the
first step of a cheapest path to ``v``: a direction 0-5, ``HOP_LEVEL`` or
``HOP_BUILD + d``.

Ties are broken in an order drawn afresh each turn (``tie_salt``): a fixed order (the
lowest direction, key or cell index first) is not the same for every starting space, and
it made some seats win far more often than others (issue 33, item 6). The order is laid in
the deciding seat's own frame (``tie_frame``: the board turned so that its start field is
field 0), so that every start field sees the same order: an order drawn from the turn number
alone is the same in every game at that turn, and a start field that the first player's
throw puts on a given turn always met the same order, seen from its side of the board
(2011, 4 players: the start field 3 won 0.185 of 3,000 games, field 0, the same field turned half round,
0.256; issue 33).
"""

from __future__ import annotations

import numpy as np

from labyrinth_env.core.contract import RUNNING
from labyrinth_env.core.corridors import corridor_across
from labyrinth_env.core.hexboard import FRAME_NEIGHBORS, FRAME_QR, MAX_CORRIDORS, NUM_BOARD, NUM_CELLS, NUM_NODES
from labyrinth_env.core.jit import njit
from labyrinth_env.core.kernel_common import keys_held
from labyrinth_env.core.rng import splitmix64

NUM_GRAPH = NUM_NODES + NUM_CELLS  # corridor nodes, then empty cells as wildcards
INF = 1 << 30
HOP_LEVEL = 6  # the first step changes level on a bridge tile
HOP_BUILD = 10  # + direction of the empty cell: the first step is a build
TIE_SPAN = 1 << 20  # ``ranked``: a cost times this, plus a tie rank below it


def _turned_cells() -> np.ndarray:
    """``[t, cell]``: the cell the board's ``cell`` lies on once the board is turned ``t``
    sixths about the centre (direction ``d`` becomes ``d + t``; start field ``i`` becomes
    ``i + t``)."""
    index = {(int(q), int(r)): i for i, (q, r) in enumerate(FRAME_QR)}
    out = np.empty((6, NUM_CELLS), dtype=np.int64)
    for turns in range(6):
        for cell in range(NUM_CELLS):
            q, r = int(FRAME_QR[cell, 0]), int(FRAME_QR[cell, 1])
            for _ in range(turns):
                q, r = q + r, -q  # one sixth: the direction (1, 0) becomes (1, -1)
            out[turns, cell] = index[(q, r)]
    return out


TURNED_CELL = _turned_cells()

# 2d6: the distribution of the sum (index = total)
PMF_2D6 = np.zeros(13, dtype=np.float64)
for _a in range(1, 7):
    for _b in range(1, 7):
        PMF_2D6[_a + _b] += 1.0 / 36.0


@njit(cache=True)
def tie_salt(turn: int) -> np.uint64:
    """The tie-breaking order of ``turn``: a public number, so the order reads nothing
    hidden, and mixed, so it favours no seat, direction or part of the board."""
    return splitmix64(np.uint64(turn) + np.uint64(0x5EA75))


@njit(cache=True)
def tie_rank(salt: np.uint64, i: int) -> int:
    """Candidate ``i``'s place (0 .. TIE_SPAN - 1) among equals under ``salt``."""
    return int(splitmix64(salt ^ np.uint64(i)) >> np.uint64(44))


@njit(cache=True)
def tie_frame(s) -> int:
    """The deciding seat's start field (0 while it has none): the turn of the board in
    which ties are broken, so that each start field sees the same order from its side."""
    if s.decider < 0 or s.seat_start[s.decider] < 0:
        return 0
    return int(s.seat_start[s.decider])


@njit(cache=True)
def tie_id(frame: int, v: int) -> int:
    """Vertex ``v`` of the search graph (a corridor node or a wildcard cell) as it lies in
    ``frame``'s turn of the board: the id its tie rank is drawn for."""
    back = (6 - frame) % 6
    if v >= NUM_NODES:
        return NUM_NODES + TURNED_CELL[back, v - NUM_NODES]
    return TURNED_CELL[back, v // MAX_CORRIDORS] * MAX_CORRIDORS + v % MAX_CORRIDORS


@njit(cache=True)
def tie_place(frame: int, cell: int, rot: int) -> int:
    """A tile on ``cell`` turned ``rot`` sixths, as it lies in ``frame``'s turn of the board."""
    return TURNED_CELL[(6 - frame) % 6, cell] * 6 + (rot - frame) % 6


@njit(cache=True)
def tie_directions(salt: np.uint64, frame: int) -> tuple[int, int]:
    """(spin, sign): the six directions are tried as ``(spin + sign * k) % 6``, k = 0..5,
    turned and, half the time, mirrored (sign 5 = -1 mod 6), so that of two directions
    either comes first half the time, whichever side of the board they face; turned with
    ``frame``, so a start field's order is the same from its side."""
    spin = (int(salt % np.uint64(6)) + frame) % 6
    sign = 1 if (salt >> np.uint64(8)) & np.uint64(1) else 5
    return spin, sign


@njit(cache=True)
def tie_order(s) -> np.ndarray:
    """The six directions in the turn's order seen by the deciding seat (``tie_directions``),
    for a heuristic's loop that keeps the first best direction."""
    spin, sign = tie_directions(tie_salt(s.turn), tie_frame(s))
    out = np.empty(6, dtype=np.int64)
    for k in range(6):
        out[k] = (spin + sign * k) % 6
    return out


@njit(cache=True)
def ranked(cost: int, salt: np.uint64, i: int) -> int:
    """``cost`` with candidate ``i``'s tie rank below it; ``INF * TIE_SPAN`` for INF."""
    if cost >= INF:
        return INF * TIE_SPAN
    return cost * TIE_SPAN + tie_rank(salt, i)


@njit(cache=True)
def cheapest_paths(
    s, src: int, fill, enter, leave, level_cost: int, wild_cost: int, dist, first, pred, queue, inq
) -> None:
    """Cheapest costs from ``src`` into ``dist``; ``pred[v]`` is the previous vertex.
    Label-correcting search with a FIFO queue: ~170 vertices and small integer costs. The
    edges are worked out in the loop itself (edge 6 is the other level of a bridge tile):
    a helper called per edge with the arrays costs more than the search. The directions
    are tried in the turn's order (``tie_salt``: turned and, half the time, mirrored), so a
    first step among equally cheap ones favours no side of the board."""
    spin, sign = tie_directions(tie_salt(s.turn), tie_frame(s))
    dist[:] = INF
    first[:] = -1
    pred[:] = -1
    inq[:] = 0
    size = queue.shape[0]
    dist[src] = 0
    queue[0] = src
    inq[src] = 1
    head, count = 0, 1
    while count > 0:
        u = queue[head]
        head = (head + 1) % size
        count -= 1
        inq[u] = 0
        for k in range(7):
            e = (spin + sign * k) % 6 if k < 6 else 6
            v = -1
            w = 0
            hop = -1
            if u < NUM_NODES:
                cell = u // MAX_CORRIDORS
                if e == 6:
                    v = s.node_pair[u]
                    if v < 0:
                        continue
                    w = level_cost + enter[v]
                    hop = HOP_LEVEL
                else:
                    if not (s.node_mask[u] >> e) & 1:
                        continue
                    extra = leave[u]
            else:
                if e == 6:
                    continue
                cell = u - NUM_NODES
                extra = 0
            if e < 6:
                nb = FRAME_NEIGHBORS[cell, e]
                if nb < 0 or nb >= NUM_BOARD:
                    continue  # off the board, or a start field (never worth entering)
                if s.cell_built[nb]:
                    v = corridor_across(s.node_mask, FRAME_NEIGHBORS, cell, e, MAX_CORRIDORS)
                    if v < 0:
                        continue
                    w = extra + enter[v]
                    hop = e
                elif fill[nb]:
                    v = NUM_NODES + nb
                    w = extra + wild_cost
                    hop = HOP_BUILD + e
                else:
                    continue
            nd = dist[u] + w
            if nd < dist[v]:
                dist[v] = nd
                pred[v] = u
                first[v] = hop if u == src else first[u]
                if not inq[v]:
                    inq[v] = 1
                    queue[(head + count) % size] = v
                    count += 1


@njit(cache=True)
def new_scratch(num_targets: int):
    """The arrays one search needs: dist, first, pred, queue, in-queue flags, targets and
    the wildcard cells."""
    dist = np.empty(NUM_GRAPH, dtype=np.int64)
    first = np.empty(NUM_GRAPH, dtype=np.int64)
    pred = np.empty(NUM_GRAPH, dtype=np.int64)
    queue = np.empty(NUM_GRAPH + 1, dtype=np.int64)
    inq = np.empty(NUM_GRAPH, dtype=np.uint8)
    targets = np.empty(num_targets, dtype=np.int64)
    fill = np.empty(NUM_CELLS, dtype=np.uint8)
    return dist, first, pred, queue, inq, targets, fill


@njit(cache=True)
def best_target(s, dist, targets, num_targets: int) -> int:
    """The nearest of ``targets[:num_targets]`` (-1 when none can be reached); among the
    nearest, the first in the turn's order seen by the deciding seat (``tie_salt``,
    ``tie_frame``)."""
    salt, frame = tie_salt(s.turn), tie_frame(s)
    best, best_d = -1, INF * TIE_SPAN
    for i in range(num_targets):
        t = targets[i]
        d = ranked(dist[t], salt, tie_id(frame, t))
        if d < best_d:
            best, best_d = t, d
    return best


@njit(cache=True)
def stands_ahead(node: int, target: int, src: int, pred, lookahead: int) -> bool:
    """Whether ``node`` lies on the built part of the path from ``src`` to ``target``
    within ``lookahead`` steps (past an empty cell a wandering figure will have moved)."""
    path = np.empty(NUM_GRAPH, dtype=np.int64)
    n = 0
    v = target
    while v >= 0 and v != src and n < NUM_GRAPH:
        path[n] = v
        n += 1
        v = pred[v]
    # path[n-1] is the first step, path[0] the target
    for i in range(n - 1, max(n - 1 - lookahead, -1), -1):
        if path[i] >= NUM_NODES:
            break
        if path[i] == node:
            return True
    return False


@njit(cache=True)
def path_marks(pred, target: int) -> np.ndarray:
    """1 on every vertex of the path ``pred`` leads back along from ``target`` to the
    search's source (nothing marked when ``target`` is -1)."""
    on_path = np.zeros(NUM_GRAPH, dtype=np.uint8)
    v = target
    while v >= 0:
        on_path[v] = 1
        v = pred[v]
    return on_path


@njit(cache=True)
def step_away_value(s, me: int, node: int, on_path, dist, near: int, far_cap: int, far_weight: float) -> float:
    """What a step of the wandering figure (2011's Guard, 3e's Golem) onto corridor ``node``
    is worth to seat ``me``, which steers it: never onto the seat, off its path
    (``path_marks``; worse within ``near`` steps of it, -1: no nearer band), onto a rival
    the more keys it carries (a meeting may cost them), then, as a tie-break, far from the
    seat (``dist`` capped at ``far_cap`` steps, ``far_weight`` a step; out of reach: 3)."""
    value = 0.0
    if node == s.position[me]:
        value -= 100.0
    elif on_path[node]:
        value -= 20.0 + (10.0 if dist[node] <= near else 0.0)
    for p in range(s.num_players):
        if p != me and s.position[p] == node:
            value += 5.0 + 10.0 * keys_held(s, p)
    if dist[node] < INF:
        value += min(dist[node], far_cap) * far_weight
    else:
        value += 3.0
    return value


@njit(cache=True)
def first_legal(mask, lo: int, hi: int) -> int:
    for a in range(lo, hi):
        if mask[a]:
            return a
    return -1


@njit(cache=True)
def legal_or_first(a: int, mask) -> int:
    """``a`` when it is legal, else the first legal action: a heuristic's safety net."""
    if a < 0 or not mask[a]:
        for b in range(mask.shape[0]):
            if mask[b]:
                return b
    return a


# ``key_race_progress``: an empty cell costs a build and a step; a path longer than
# PROGRESS_HORIZON steps (or none) counts as that many
PROGRESS_WILD_COST, PROGRESS_STEP, PROGRESS_HORIZON = 2, 0.02, 25


@njit(cache=True)
def key_race_progress(s, seat: int, center_node: int, allowed: int, truncated: int) -> float:
    """What the self-play learner reads as a Paths of Destiny seat's progress: 0.5 for
    holding a key, minus ``PROGRESS_STEP`` per step of the cheapest path (not as the crow
    flies: a key behind a wall is far) to the goal, the nearest key in the bit set
    ``allowed`` while keyless, the central space once holding one. Built corridors cost a
    step, every empty board cell a build and a step, bridges a level change; traps, the
    Golem and the Guard cost nothing (what they do is the game's to teach). Public
    information only: the board, the positions and the keys. 0 once the game is won."""
    if (s.outcome != RUNNING and s.outcome != truncated) or s.position[seat] < 0:
        return 0.0
    dist, first, pred, queue, inq, _targets, fill = new_scratch(1)
    for c in range(NUM_CELLS):
        fill[c] = 0 if s.cell_built[c] else 1
    enter = np.zeros(NUM_NODES, dtype=np.int64)
    for v in range(NUM_NODES):
        enter[v] = 1
    leave = np.zeros(NUM_NODES, dtype=np.int64)
    cheapest_paths(s, s.position[seat], fill, enter, leave, 1, PROGRESS_WILD_COST, dist, first, pred, queue, inq)
    if keys_held(s, seat) > 0:
        return 0.5 - PROGRESS_STEP * min(dist[center_node], PROGRESS_HORIZON)
    best = PROGRESS_HORIZON
    for k in range(s.key_node.shape[0]):
        node = s.key_node[k]
        if node >= 0 and (allowed >> k) & 1:
            best = min(best, dist[node])
    return -PROGRESS_STEP * best
