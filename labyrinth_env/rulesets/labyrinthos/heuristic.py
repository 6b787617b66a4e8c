"""A rule-based Labyrinthos player as numba functions over the state.

``heuristic_action(s, mask)`` picks the action of ``s.decider`` for whatever decision is
pending. It never changes ``s`` and can run inside batched kernel loops.

The plan. The seat's *target* is the Door tile once it holds four keys, else the nearest
explored key tile of a colour it lacks, else the nearest face-down tile (the key tiles lie
among them). A cheapest-path search runs over the 7x7 cells: a move costs 1, a pathway
that must be turned first adds a Rotate Tile per quarter turn (any explored tile may be
turned from anywhere), a wall on the way adds the Rotate Wall that clears it (much more
when the wall limit leaves it no side to turn to), a face-down tile costs an Explore,
secret passages link to each other, the monster's tile is avoided (``kernel/routes.py``,
the same search the kernel's ``progress`` counts). Then, in the action decision:

1. a needed action (move, explore, discover key, rotate tile) wounded: heal it (Bandages,
   Heal) or Recover;
2. on a key tile of a missing colour: discover the key (Bandages first, then the others);
   keys go on the empty key slot, then desperate action, heal, special action, rotate wall;
3. play Ambrosia when wounded twice, Winged Sandals and Daedalus' Tools when possible;
   the Runner's Swift Stride when short of Feet;
4. follow the path: take the secret passage, or clear the wall (Rotate Wall, else the Build
   or Visions key, else heal a wounded Rotate Wall or Recover), turn the tile, explore or
   move;
5. otherwise pass; the pool is refreshed with 4 Feet and 3 Hand tokens.

Controlling the monster, it goes for the other heroes and keeps away from the seat's own
hero; attacked rivals are pushed onto traps. Wounds go on the least needed actions. Walls
(the symbol, Stonemason) go between two explored tiles far from its hero: walling off
face-down tiles can shut the last key tile in for everyone.
Reactions are always played when held (every player who could react is asked, holding a
reaction card or not: without one it answers no). Cards it never plays are discarded before drawing.

Hidden information is never read: face-down tiles count by their place only, other hands,
the deck and the RNG are never looked at.
"""

from __future__ import annotations

import numpy as np

from labyrinth_env.core.grid import rotate_mask
from labyrinth_env.core.jit import njit
from labyrinth_env.rulesets.labyrinthos import components as C
from labyrinth_env.rulesets.labyrinthos import kernel as K
from labyrinth_env.rulesets.labyrinthos.kernel.routes import INF, plan, target_cell

STATE_DTYPE = K.STATE_DTYPE
NUM_CELLS = K.NUM_CELLS
# action slots in the order wounds go on them: the least needed first
WOUND_ORDER = np.array(
    [
        C.S_SPECIAL,
        C.S_DESPERATE,
        C.S_HEAL,
        C.S_ROTATE_WALL,
        C.S_KEY,
        C.S_ROTATE_TILE,
        C.S_DISCOVER,
        C.S_EXPLORE,
        C.S_MOVE,
    ],
    dtype=np.int64,
)
# ... and in the order they are healed: the most needed first
HEAL_ORDER = np.array(
    [
        C.S_MOVE,
        C.S_EXPLORE,
        C.S_DISCOVER,
        C.S_ROTATE_TILE,
        C.S_ROTATE_WALL,
        C.S_KEY,
        C.S_HEAL,
        C.S_DESPERATE,
        C.S_SPECIAL,
    ],
    dtype=np.int64,
)
# ... and in the order keys cover them: the empty key slot first
KEY_SLOT_ORDER = np.array(
    [
        C.S_KEY,
        C.S_DESPERATE,
        C.S_HEAL,
        C.S_SPECIAL,
        C.S_ROTATE_WALL,
        C.S_ROTATE_TILE,
        C.S_DISCOVER,
        C.S_EXPLORE,
        C.S_MOVE,
    ],
    dtype=np.int64,
)
# the key token chosen from a pile: the ones that heal, move or pay for moves first
KEY_PICK_ORDER = np.array(
    [
        C.K_BANDAGES,
        C.K_GOLDEN_THREAD,
        C.K_WINGED_KEY,
        C.K_BULL_LEAPER,
        C.K_PASSAGE_KEY,
        C.K_SECRET_LEVER,
        C.K_BUILD,
        C.K_VISIONS,
        C.K_HOMEWARD,
        C.K_BANISHMENT,
        C.K_LABRYS,
        C.K_HORN_OF_MINOS,
        C.K_ORACLE,
        C.K_KEYSTONE,
        C.K_GORGONS_EYE,
        C.K_LOCKSMITH,
    ],
    dtype=np.int64,
)
assert sorted(KEY_PICK_ORDER) == list(range(C.NUM_KEY_ACTIONS))
HERO_ORDER = np.array([C.H_SWIFT_STRIDE, C.H_SHIELD_MAIDEN, C.H_WILD_INTUITION, C.H_BEAST_CALLER], dtype=np.int64)
KEEP_CARD = np.zeros(C.NUM_CARD_TYPES, dtype=np.int64)
for _t in range(C.NUM_CARD_TYPES):
    _e = C.CARD_EFFECT[_t]
    KEEP_CARD[_t] = 1 if _e in (C.E_CANCEL, C.E_HEAL_ALL, C.E_FEET, C.E_HANDS, C.E_DODGE, C.E_MIRROR) else 0
REFRESH_FEET = 4


@njit(cache=True)
def first_step(s, me: int, goal: int, prev) -> int:
    c = goal
    while c >= 0 and prev[c] != s.position[me]:
        c = prev[c]
    return c


@njit(cache=True)
def turn_action(s, cell: int, d: int) -> int:
    """Rotate Tile on ``cell`` the shorter way towards opening ``d``."""
    if (rotate_mask(s.cell_mask[cell], 1, 4) >> d) & 1:
        return K.A_ROTATE + 2 * cell + K.CLOCKWISE
    return K.A_ROTATE + 2 * cell + K.COUNTER_CLOCKWISE


@njit(cache=True)
def next_cell(s, me: int) -> int:
    """The next cell on the seat's cheapest path to its target (-1: none)."""
    dist = np.empty(NUM_CELLS, dtype=np.int64)
    prev = np.empty(NUM_CELLS, dtype=np.int64)
    plan(s, me, dist, prev)
    goal = target_cell(s, me, dist)
    if goal < 0 or dist[goal] >= INF or goal == s.position[me]:
        return -1
    return first_step(s, me, goal, prev)


@njit(cache=True)
def blocking_wall(s, me: int) -> int:
    """The wall on the first step of the seat's path (-1: none)."""
    b = next_cell(s, me)
    a = s.position[me]
    for d in range(4):
        if b >= 0 and K.NEIGHBORS[a, d] == b and s.wall[K.EDGE_OF[a, d]]:
            return K.EDGE_OF[a, d]
    return -1


@njit(cache=True)
def clear_wall_action(s, mask, me: int, d: int) -> int:
    """A wall blocks the way towards ``d``: turn it away, or Build / Visions, or heal Rotate Wall."""
    for g in range(4):
        if g != d and mask[K.A_ROT_WALL + d * 4 + g]:
            return K.A_ROT_WALL + d * 4 + g
    for k in (C.K_BUILD, C.K_VISIONS):
        if mask[K.A_KEY_ACT + k]:
            return K.A_KEY_ACT + k
    if s.slot_wound[me, C.S_ROTATE_WALL] and s.slot_key[me, C.S_ROTATE_WALL] < 0:
        if mask[K.A_KEY_ACT + C.K_BANDAGES]:
            return K.A_KEY_ACT + C.K_BANDAGES
        if mask[K.A_HEAL]:
            return K.A_HEAL
        for f in range(C.RECOVER_COST, -1, -1):
            if mask[K.A_RECOVER + f]:
                return K.A_RECOVER + f
    return -1


@njit(cache=True)
def path_action(s, mask, me: int) -> int:
    b = next_cell(s, me)
    if b < 0:
        return -1
    a = s.position[me]
    if K.is_passage(s, a) and K.is_passage(s, b):  # the plan takes the secret passage
        return K.A_CELL + b if mask[K.A_CELL + b] else -1
    d = -1
    for k in range(4):
        if K.NEIGHBORS[a, k] == b:
            d = k
    e = K.EDGE_OF[a, d]
    if s.wall[e]:
        return clear_wall_action(s, mask, me, d)
    if not K.open_towards(s, a, d):
        act = turn_action(s, a, d)
        return act if mask[act] else -1
    if not s.cell_up[b]:
        return K.A_EXPLORE + d if mask[K.A_EXPLORE + d] else -1
    if not K.open_towards(s, b, (d + 2) % 4):
        act = turn_action(s, b, (d + 2) % 4)
        return act if mask[act] else -1
    return K.A_CELL + b if mask[K.A_CELL + b] else -1


@njit(cache=True)
def care_action(s, mask, me: int) -> int:
    """Heal a wounded action the plan needs, or Recover."""
    need = 0
    for slot in (C.S_MOVE, C.S_EXPLORE, C.S_ROTATE_TILE, C.S_DISCOVER):
        if slot == C.S_DISCOVER and K.keys_held(s, me) == K.NUM_COLOURS:
            continue
        if s.slot_wound[me, slot]:
            need += 1
    if need == 0:
        return -1
    if need == 1:
        if mask[K.A_KEY_ACT + C.K_BANDAGES]:
            return K.A_KEY_ACT + C.K_BANDAGES
        if mask[K.A_HEAL]:
            return K.A_HEAL
    for f in range(C.RECOVER_COST, -1, -1):
        if mask[K.A_RECOVER + f]:
            return K.A_RECOVER + f
    return -1


@njit(cache=True)
def card_action(s, mask, me: int) -> int:
    for t in range(C.NUM_CARD_TYPES):
        if not mask[K.A_CARD + t]:
            continue
        e = C.CARD_EFFECT[t]
        if e == C.E_HEAL_ALL and K.wounds(s, me) >= 2:
            return K.A_CARD + t
        if (e == C.E_FEET or e == C.E_HANDS) and s.hands[me] >= 1:
            return K.A_CARD + t
    return -1


@njit(cache=True)
def main_action(s, mask) -> int:
    me = s.seat
    a = care_action(s, mask, me)
    if a >= 0:
        return a
    if mask[K.A_DISCOVER]:
        return K.A_DISCOVER
    a = card_action(s, mask, me)
    if a >= 0:
        return a
    if mask[K.A_SPECIAL] and s.hero[me] == C.H_SWIFT_STRIDE and s.feet[me] < 2 and s.hands[me] >= 1:
        return K.A_SPECIAL
    if mask[K.A_KEY_ACT + C.K_WINGED_KEY] and s.feet[me] < 2 and s.hands[me] >= 1:
        return K.A_KEY_ACT + C.K_WINGED_KEY
    a = path_action(s, mask, me)
    if a >= 0:
        return a
    return K.A_PASS


@njit(cache=True)
def orient_action(s, mask, me: int) -> int:
    """Open back towards where the hero comes from, then towards face-down tiles (or the
    Door with four keys)."""
    cell = s.pending_cell
    here = s.position[me]
    tile_mask = K.TILE_MASK[s.cell_tile[cell]]
    best, best_v = K.A_ORIENT, -1.0
    four = K.keys_held(s, me) == K.NUM_COLOURS
    for r in range(4):
        m = rotate_mask(tile_mask, r, 4)
        v = 0.0
        for d in range(4):
            if not (m >> d) & 1:
                continue
            nb = K.NEIGHBORS[cell, d]
            if nb < 0:
                continue
            if nb == here:
                v += 3.0
            elif not s.cell_up[nb]:
                v += 1.0
            if four:
                dr = abs(nb // K.SIZE - 3) + abs(nb % K.SIZE - 3)
                v += 0.5 if dr < abs(cell // K.SIZE - 3) + abs(cell % K.SIZE - 3) else 0.0
        if v > best_v:
            best, best_v = K.A_ORIENT + r, v
    return best


@njit(cache=True)
def rival_score(s, me: int, cell: int) -> float:
    """How good it is for ``me`` that the monster stands on ``cell``."""
    v = 0.0
    near = 99
    for p in range(s.num_players):
        c = s.position[p]
        dd = abs(c // K.SIZE - cell // K.SIZE) + abs(c % K.SIZE - cell % K.SIZE)
        if p == me:
            if dd == 0 and (K.attackable(s, cell) >> p) & 1:
                v -= 100.0
            v += 0.5 * min(dd, 4)
        else:
            near = min(near, dd)
            if dd == 0 and (K.attackable(s, cell) >> p) & 1:
                v += 20.0 + 5.0 * K.keys_held(s, p)
    return v - near


@njit(cache=True)
def charge_end(s, d: int) -> int:
    """Where a charge towards ``d`` would stop (the kernel's ``charge`` without its effects)."""
    c = s.monster_cell
    while True:
        nb = K.NEIGHBORS[c, d]
        if nb < 0 or not s.cell_up[nb] or not K.open_towards(s, c, d) or not K.open_towards(s, nb, (d + 2) % 4):
            return c
        c = nb
        if K.attackable(s, c) != 0:
            return c


@njit(cache=True)
def monster_action(s, mask, me: int) -> int:
    best, best_v = -1, -1e9
    here = rival_score(s, me, s.monster_cell) - 0.1
    for a in range(K.NUM_ACTIONS):
        if not mask[a]:
            continue
        if a < K.A_EXPLORE:
            v = rival_score(s, me, a - K.A_CELL)
        elif K.A_CHARGE <= a < K.A_CHARGE + 4:
            v = rival_score(s, me, charge_end(s, a - K.A_CHARGE))
        else:
            v = here
        if v > best_v:
            best, best_v = a, v
    return best


@njit(cache=True)
def displace_action(s, mask, me: int) -> int:
    victim = s.pending_seat
    best, best_v = -1, -1e9
    for c in range(NUM_CELLS):
        if not mask[K.A_CELL + c]:
            continue
        trap = K.TILE_SYMBOL[s.cell_tile[c]] == C.SYM_TRAP
        v = (-1.0 if trap else 0.0) if victim == me else (1.0 if trap else 0.0)
        if v > best_v:
            best, best_v = K.A_CELL + c, v
    return best


@njit(cache=True)
def first_in(order, base: int, mask) -> int:
    for i in order:
        if mask[base + i]:
            return base + i
    return -1


@njit(cache=True)
def wall_action(s, mask, me: int) -> int:
    """A wall between two explored tiles (never walling off face-down ones, which would
    shut the key tiles in), as far from the seat's hero as possible."""
    best, best_v = -1, -1
    c = s.position[me]
    for e in range(K.NUM_EDGES):
        if mask[K.A_EDGE + e]:
            a, b = K.EDGE_CELLS[e, 0], K.EDGE_CELLS[e, 1]
            v = abs(a // K.SIZE - c // K.SIZE) + abs(a % K.SIZE - c % K.SIZE)
            if s.cell_up[a] and s.cell_up[b]:
                v += 20
            if v > best_v:
                best, best_v = K.A_EDGE + e, v
    return best


@njit(cache=True)
def build_action(s, mask, me: int, dec: int) -> int:
    """Build and Visions: take away the wall on the seat's way, then stop."""
    if dec == K.D_VISION_TO:
        here = s.position[me]
        for e in range(K.NUM_EDGES):  # turn it to a side away from the hero
            if mask[K.A_EDGE + e] and K.EDGE_CELLS[e, 0] != here and K.EDGE_CELLS[e, 1] != here:
                return K.A_EDGE + e
        return -1
    e = blocking_wall(s, me)
    if e >= 0 and mask[K.A_EDGE + e]:
        return K.A_EDGE + e
    return K.A_DONE


@njit(cache=True)
def discard_action(s, mask, me: int, optional: bool) -> int:
    for t in range(C.NUM_CARD_TYPES):
        if mask[K.A_CARD + t] and not KEEP_CARD[t]:
            return K.A_CARD + t
    if optional:
        return K.A_DONE
    for t in range(C.NUM_CARD_TYPES):
        if mask[K.A_CARD + t]:
            return K.A_CARD + t
    return -1


@njit(cache=True)
def refresh_action(mask) -> int:
    for off in range(C.POOL_SIZE + 1):
        for f in (REFRESH_FEET + off, REFRESH_FEET - off):
            if 0 <= f <= C.POOL_SIZE and mask[K.A_REFRESH + f]:
                return K.A_REFRESH + f
    return -1


@njit(cache=True)
def free_move_action(s, mask, me: int) -> int:
    a = path_action(s, mask, me)
    if 0 <= a < K.A_EXPLORE:
        return a
    for c in range(NUM_CELLS):
        if mask[K.A_CELL + c]:
            return K.A_CELL + c
    return -1


# the decisions answered by a fixed preference (an order of actions, or one answer), with no
# search of the board
BY_ORDER = (K.D_HERO, K.D_KEY_PICK, K.D_KEY_SLOT, K.D_HEAL, K.D_WOUND, K.D_INTUITION, K.D_CANCEL, K.D_DODGE, K.D_LEVER)


@njit(cache=True)
def decide(s, mask, dec: int, me: int) -> int:
    if dec == K.D_MAIN:
        return main_action(s, mask)
    if dec in BY_ORDER:
        return answer_by_order(s, mask, dec, me)
    if dec == K.D_ORIENT:
        return orient_action(s, mask, me)
    if dec == K.D_MONSTER or dec == K.D_PASSAGE or dec == K.D_CHARGE:
        return monster_action(s, mask, me)
    if dec == K.D_DISPLACE:
        return displace_action(s, mask, me)
    if dec == K.D_REFRESH:
        return refresh_action(mask)
    if dec == K.D_DISCARD_OPT or dec == K.D_DISCARD:
        return discard_action(s, mask, me, dec == K.D_DISCARD_OPT)
    if dec == K.D_WALL:
        return wall_action(s, mask, me)
    if dec in (K.D_BUILD, K.D_VISION_FROM, K.D_VISION_TO):
        return build_action(s, mask, me, dec)
    if dec == K.D_FREE_MOVE:
        return free_move_action(s, mask, me)
    return -1  # the first legal action (target, rotate card, rearrange, visions' side)


@njit(cache=True)
def answer_by_order(s, mask, dec: int, me: int) -> int:
    """The answer to ``dec``, one of ``BY_ORDER``."""
    if dec == K.D_HERO:
        return first_in(HERO_ORDER, K.A_HERO, mask)
    if dec == K.D_KEY_PICK:
        return first_in(KEY_PICK_ORDER, K.A_KEY_PICK, mask)
    if dec == K.D_KEY_SLOT:
        return first_in(KEY_SLOT_ORDER, K.A_SLOT, mask)
    if dec == K.D_HEAL:
        return first_in(HEAL_ORDER, K.A_SLOT, mask)
    if dec == K.D_WOUND:
        if K.keys_held(s, me) == K.NUM_COLOURS and mask[K.A_SLOT + C.S_DISCOVER]:
            return K.A_SLOT + C.S_DISCOVER
        return first_in(WOUND_ORDER, K.A_SLOT, mask)
    if dec == K.D_INTUITION:
        return K.A_NO
    if dec == K.D_CANCEL:  # asked whatever it holds: without Hermes' Mischief it can only pass
        return K.A_YES if mask[K.A_YES] else K.A_NO
    if dec == K.D_DODGE:
        for t in range(C.NUM_CARD_TYPES):
            if mask[K.A_CARD + t]:
                return K.A_CARD + t
        return K.A_NO
    return K.A_DONE  # D_LEVER: no tile turned


@njit(cache=True)
def heuristic_action(s, mask) -> int:
    """The heuristic's action for the pending decision of ``s`` (made by ``s.decider``), or
    -1 once the game is over. ``mask`` is overwritten with the legal mask; ``s`` is not
    changed."""
    if s.outcome != K.RUNNING:
        return -1
    K.legal_mask(s, mask)
    a = decide(s, mask, s.decision, s.decider)
    if a < 0 or not mask[a]:  # a safety net: never an illegal action
        for b in range(K.NUM_ACTIONS):
            if mask[b]:
                return b
    return a
