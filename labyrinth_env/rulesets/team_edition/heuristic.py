"""A greedy Team Edition player as numba functions over the state record.

``heuristic_action(s, mask)`` picks the action for the pending decision of ``s`` and can
run inside batched kernel loops (it allocates only a small scratch per call and never
changes ``s``). The plan, in order:

1. a treasure the acting seat may collect is reachable now and a move is left: go there;
2. one spell (each legal push with each distinct spare orientation, each rotate / switch)
   makes such a treasure reachable: cast it; then the same for two spells (push then
   rotate/switch, switch then push); the plan is replayed on a scratch copy with
   ``K.step``, so the rules used are exactly the kernel's;
3. otherwise cast a single spell only if it brings the reachable area strictly closer
   (Manhattan) to a target, unless a spell would bring a teammate's treasure within that
   teammate's reach (then that one, 5.); then move to the reachable cell nearest to one;
4. a move to the piece's own cell is no move (it is not legal), so standing on a target
   waits for a later move;
5. the team: a spell left unused once its own treasures are out of reach this turn
   (the move used, or no closer cell) is cast where it best places the whole team
   (``team_score``: each player's reach and closeness to its own targets, the next
   player counted twice), if that brings anyone strictly closer; l.146 "Maybe you can
   even help one of your teammates", l.186;
6. otherwise end the turn.

After stepping onto a face-down tile it always flips it (a face-down tile blocks every
path, its own piece's too), and so it does first thing with a piece another agent left on
one; the orientation is the one that makes a target reachable,
else brings the reachable area closest to one, else opens the most cells.

Hidden information is never read: a face-down tile's treasure is used only when
``public_memory`` is on (the default: everyone saw it face up, and every change since was
public). Without public memory, a treasure
the seat wants that is neither collected nor face up in the maze nor on the spare must,
by elimination, lie face down, so every face-down tile becomes a possible target; this
uses only the face-up tiles. Spells are simulated only while a move is left, so no
simulated step ever ends the turn and turns a Daedalus page (the deck order is hidden).
"""

from __future__ import annotations

import numpy as np

from labyrinth_env.core.grid import ROTATE_SQUARE
from labyrinth_env.core.jit import njit
from labyrinth_env.rulesets.team_edition import kernel as K

NUM_CELLS = K.NUM_CELLS
SIZE = K.SIZE
NUM_ARROWS = K.ARROW_LINE.shape[0]
TILE_TREASURE = K.TILE_TREASURE
TILE_SHAPE = K.TILE_SHAPE
NEIGHBORS = K.NEIGHBORS
STATE_DTYPE = K.STATE_DTYPE

# Score of a position after a plan, compared lexicographically: treasures reachable this
# turn dominate, then how close the reachable area comes to a target, then its size.
W_TREASURE = 10_000
W_CLOSER = 100
MAX_DIST = K.MAX_DIST


@njit(cache=True)
def position_score(s, seat: int, hidden: bool, reach_cells, target_cells) -> int:
    """Score of ``s`` (its ``reach`` up to date) for ``seat``; see W_TREASURE, W_CLOSER.
    ``reach_cells`` and ``target_cells`` are int64[NUM_CELLS] scratch."""
    sure = 0
    num_reach = 0
    num_targets = 0
    for cell in range(NUM_CELLS):
        kind = K.target_kind(s, seat, cell, hidden)
        if kind != K.NOT_TARGET:
            target_cells[num_targets] = cell
            num_targets += 1
        if s.reach[cell] > 0:
            reach_cells[num_reach] = cell
            num_reach += 1
            if kind == K.SURE_TARGET:
                sure += 1
    score = sure * W_TREASURE + num_reach
    if num_targets > 0:
        best = MAX_DIST
        for i in range(num_reach):
            for j in range(num_targets):
                d = K.manhattan(reach_cells[i], target_cells[j])
                if d < best:
                    best = d
        score += (MAX_DIST + 1 - best) * W_CLOSER
    return score


@njit(cache=True)
def near_reach(s, cell: int) -> bool:
    """A tile can change what is reachable only if it is reached or borders a reached cell
    (Rotate and Switch holders have no movement spell, so reach is a plain search)."""
    if s.reach[cell] > 0:
        return True
    for d in range(4):
        nb = NEIGHBORS[cell, d]
        if nb >= 0 and s.reach[nb] > 0:
            return True
    return False


@njit(cache=True)
def spell_may_matter(s, action: int) -> bool:
    if action < K.A_SWITCH:
        return near_reach(s, (action - K.A_ROTATE) // 3)
    k = action - K.A_SWITCH
    return near_reach(s, k // 2) or near_reach(s, K.SWITCH_NEIGHBOR[k // 2, k % 2])


@njit(cache=True)
def duplicate_push(s, action: int) -> bool:
    """Whether an earlier orientation of the spare gives the same open edges (straights)."""
    o = (action - K.A_PUSH) % 4
    shape = TILE_SHAPE[s.spare]
    for prev in range(o):
        if ROTATE_SQUARE[shape, prev] == ROTATE_SQUARE[shape, o]:
            return True
    return False


@njit(cache=True)
def best_plan(s, mask, work, reach_cells, target_cells, hidden: bool) -> tuple[int, int]:
    """(first action, score) of the best plan: the best single spell if it or no pair
    reaches a treasure, else the best pair's first spell. Pairs are searched only when no
    single spell reaches one; ``work`` is scratch of >= 3 state records."""
    seat = s.seat
    best_single, single_score = -1, -1
    spell_lo, spell_hi = K.A_ROTATE, K.A_ORIENT
    for a in range(K.A_MOVE):
        if mask[a] and not duplicate_push(s, a):
            work[1] = s
            K.step(work[1], a)
            sc = position_score(work[1], seat, hidden, reach_cells, target_cells)
            if sc > single_score:
                best_single, single_score = a, sc
    for a in range(spell_lo, spell_hi):
        if mask[a]:
            work[1] = s
            K.step(work[1], a)
            sc = position_score(work[1], seat, hidden, reach_cells, target_cells)
            if sc > single_score:
                best_single, single_score = a, sc
    if single_score >= W_TREASURE:
        return best_single, single_score
    best_pair, pair_score = -1, -1
    # push, then rotate or switch
    for a in range(K.A_MOVE):
        if not mask[a] or duplicate_push(s, a):
            continue
        work[1] = s
        K.step(work[1], a)
        w1 = work[1]
        for b in range(spell_lo, spell_hi):
            if not K.is_legal(w1, b) or not spell_may_matter(w1, b):
                continue
            work[2] = w1
            K.step(work[2], b)
            sc = position_score(work[2], seat, hidden, reach_cells, target_cells)
            if sc > pair_score:
                best_pair, pair_score = a, sc
    # switch, then push; rotate-then-push is left out because a rotation stays with its
    # tile, so it equals push-then-rotate of the same tile (or is lost with the tile).
    for a in range(K.A_SWITCH, K.A_ORIENT):
        if not mask[a]:
            continue
        work[1] = s
        K.step(work[1], a)
        w1 = work[1]
        for b in range(K.A_MOVE):
            if not K.is_legal(w1, b) or duplicate_push(w1, b):
                continue
            work[2] = w1
            K.step(work[2], b)
            sc = position_score(work[2], seat, hidden, reach_cells, target_cells)
            if sc > pair_score:
                best_pair, pair_score = a, sc
    if pair_score >= W_TREASURE:
        return best_pair, pair_score
    return best_single, single_score


@njit(cache=True)
def choose_orientation(s, work, reach_cells, target_cells) -> int:
    """Orientation of the tile just flipped face up. The seat has flipped it, so it sees the
    tile; the copy is resolved as ``K.step`` would, minus the end of turn (which would
    turn a hidden Daedalus page)."""
    seat = s.seat
    cell = s.flip_cell
    tile = s.cell_tile[cell]
    best_o, best_score = 0, -1
    for o in range(4):
        work[1] = s
        w = work[1]
        w.tile_down[tile] = 0
        w.tile_rot[tile] = o
        w.decision = K.DECISION_MAIN
        w.flip_cell = -1
        K.refresh_board(w)
        K.try_collect(w, seat, cell)
        hidden = K.hidden_wanted(w, seat)
        K.compute_reach(w)
        sc = position_score(w, seat, hidden, reach_cells, target_cells)
        if sc > best_score:
            best_o, best_score = o, sc
    return K.A_ORIENT + best_o


@njit(cache=True)
def nearest_move(s, seat: int, hidden: bool) -> int:
    """The reachable cell nearest to a target (staying put on ties), or -1 if there is no
    target or the piece is already as close as it can get."""
    here = s.piece[seat]
    best_cell, best_d = -1, MAX_DIST + 1
    for t in range(NUM_CELLS):
        if K.target_kind(s, seat, t, hidden) == K.NOT_TARGET:
            continue
        for cell in range(NUM_CELLS):
            if s.reach[cell] == 0:
                continue
            d = K.manhattan(cell, t)
            if d < best_d or (d == best_d and cell == here):
                best_cell, best_d = cell, d
    if best_cell == here:
        return -1
    return best_cell


@njit(cache=True)
def team_score(s, seat: int, work, reach_cells, target_cells) -> int:
    """How well placed the whole team is in position ``s`` (scratch ``work[2]``): for each
    player, the ``position_score`` of the area its piece reaches (its own targets,
    Manhattan closeness), the next player counted twice, since it plays before any other
    and with the maze as it is left (bar one Daedalus page). ``seat`` is the seat whose
    turn it is; its own next turn comes last and counts once."""
    n = s.num_players
    total = 0
    for k in range(1, n + 1):
        q = (seat + k) % n
        work[2] = s
        w = work[2]
        w.seat = q
        w.spell_used = 0  # the player's own movement spell is fresh on its turn
        K.compute_reach(w)
        sc = position_score(w, q, K.hidden_wanted(w, q), reach_cells, target_cells)
        total += 2 * sc if (k == 1 and n > 1) else sc
    return total


@njit(cache=True)
def help_the_team(s, mask, work, reach_cells, target_cells) -> tuple[int, int]:
    """The spell left unused this turn that best places the team (``team_score``), or -1
    when none brings anyone strictly closer to a treasure. l.146 "Maybe you can even help
    one of your teammates", l.186 "Maybe you can use them on your turn to help your
    teammates?". Returns (action, gain in ``team_score``). Spells are replayed on a copy
    that keeps a move in hand, so no replay ends the turn and turns a hidden Daedalus page;
    the score uses public information."""
    seat = s.seat
    work[1] = s
    base = team_score(work[1], seat, work, reach_cells, target_cells)
    best_action, best_gain = -1, W_CLOSER - 1
    for a in range(K.A_ORIENT):
        if not mask[a] or K.A_MOVE <= a < K.A_ROTATE:
            continue
        if a < K.A_MOVE and duplicate_push(s, a):
            continue
        work[1] = s
        w = work[1]
        w.moves_left = 1
        K.step(w, a)
        gain = team_score(w, seat, work, reach_cells, target_cells) - base
        if gain > best_gain:
            best_action, best_gain = a, gain
    return best_action, best_gain


@njit(cache=True)
def heuristic_action(s, mask) -> int:
    """The heuristic's action for the pending decision of ``s`` (-1 once the game is over).
    ``mask`` (uint8/int8[NUM_ACTIONS]) is overwritten with the legal mask; ``s`` is not
    changed."""
    if s.outcome != K.RUNNING:
        return -1
    K.legal_mask(s, mask)
    work = np.empty(3, dtype=STATE_DTYPE)
    reach_cells = np.empty(NUM_CELLS, dtype=np.int64)
    target_cells = np.empty(NUM_CELLS, dtype=np.int64)
    if s.decision == K.DECISION_ORIENT:
        return choose_orientation(s, work, reach_cells, target_cells)
    if s.decision == K.DECISION_FLIP or mask[K.A_FLIP]:
        return K.A_FLIP  # a face-down tile blocks every path, the piece's own included

    if s.moves_left <= 0:
        # spells cannot bring this seat a treasure without a move: spend them on the team
        action, _ = help_the_team(s, mask, work, reach_cells, target_cells)
        return action if action >= 0 else K.A_END
    seat = s.seat
    hidden = K.hidden_wanted(s, seat)
    # 1. a sure target within reach
    for cell in range(NUM_CELLS):
        if K.move_legal(s, cell) and K.target_kind(s, seat, cell, hidden) == K.SURE_TARGET:
            return K.A_MOVE + cell
    # 2. spells that bring one within reach
    action, score = best_plan(s, mask, work, reach_cells, target_cells, hidden)
    if score >= W_TREASURE:
        return action
    # 3. get closer: a spell only when it brings the reachable area strictly nearer
    # unless a spell would bring a teammate's treasure within its reach instead
    now = position_score(s, seat, hidden, reach_cells, target_cells)
    if action >= 0 and score // W_CLOSER > now // W_CLOSER:
        help_action, gain = help_the_team(s, mask, work, reach_cells, target_cells)
        return help_action if gain >= W_TREASURE else action
    cell = nearest_move(s, seat, hidden)
    if cell >= 0:
        return K.A_MOVE + cell
    action, _ = help_the_team(s, mask, work, reach_cells, target_cells)
    return action if action >= 0 else K.A_END
