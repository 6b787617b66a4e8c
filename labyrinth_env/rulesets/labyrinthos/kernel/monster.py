"""The monster (the Minotaur, Medusa or Cerberus): the Minotaur die, its movement points,
the secret passage face, the charge, Cerberus' hunt, the Door rule and the start of an
attack.

A movement is *in progress* while ``s.m_active`` is set: ``turn.advance`` asks
``monster_continue`` for the next point (``D_MONSTER``) before anything else, so points
gained from a symbol or a card are spent at once. An attack ends the movement and leaves
tasks: each attacked hero's reaction and wounds (``attack.offer_dodge``), then its
displacement (``attack.displace``).
"""

from __future__ import annotations

import numpy as np

from labyrinth_env.core.contract import set_decision
from labyrinth_env.core.events import emit
from labyrinth_env.core.grid import rotate_mask
from labyrinth_env.core.jit import njit
from labyrinth_env.core.rng import randint
from labyrinth_env.rulesets.labyrinthos import components as C

from .board import push
from .maze import (
    fill_moves,
    is_passage,
    linked,
    occupied_mask,
    open_towards,
    remove_wall,
    rotate_chosen_tile,
    step_to,
)
from .tables import (
    A_CELL,
    A_CHARGE,
    A_EDGE,
    A_EXPLORE,
    A_HEAL,
    A_ROTATE,
    BLOOD_FACES,
    D_CHARGE,
    D_MONSTER,
    D_PASSAGE,
    DOOR_CELL,
    EDGE_OF,
    EV_ATTACK,
    EV_BLOOD,
    EV_HUNT,
    EV_MONSTER_MOVE,
    EV_POINTS,
    EV_ROLL,
    FACE_HOOVES,
    FACE_KIND,
    MONSTER_HOW_CHARGE,
    MONSTER_HOW_DOOR,
    MONSTER_HOW_PASSAGE,
    MONSTER_HOW_POINT,
    NEIGHBORS,
    NUM_CELLS,
    T_DISPLACE,
    T_DODGE,
    TILE_SYMBOL,
)


# --- a movement ---------------------------------------------------------------------------------
@njit(cache=True)
def start_movement(s, ctrl: int) -> None:
    s.m_active = 1
    s.m_ctrl = ctrl
    s.m_start = s.monster_cell
    s.m_hunt = -1


@njit(cache=True)
def gain_points(s, ctrl: int, points: int) -> None:
    """The ``T_MONSTER`` task: movement points from a symbol, a card or Beast Caller,
    spent at once by ``ctrl`` (nothing while the monster is not in the maze)."""
    if s.monster_cell >= 0:
        start_movement(s, ctrl)
        s.m_points = points
        emit(s, EV_POINTS, ctrl, points)


@njit(cache=True)
def any_other_passage(s) -> bool:
    for c in range(NUM_CELLS):
        if c != s.monster_cell and is_passage(s, c):
            return True
    return False


@njit(cache=True)
def roll_monster_die(s, ctrl: int) -> None:
    face = randint(s.rng, 6)
    s.last_face = face
    emit(s, EV_ROLL, ctrl, face)
    start_movement(s, ctrl)
    kind = FACE_KIND[face]
    if kind == C.F_HOOVES:
        s.m_points = FACE_HOOVES[face]
        emit(s, EV_POINTS, ctrl, s.m_points)
    elif kind == C.F_PASSAGE:
        s.m_points = 0
        if any_other_passage(s):
            set_decision(s, D_PASSAGE, ctrl)
        else:
            end_movement(s)
    else:
        s.m_points = 0
        set_decision(s, D_CHARGE, ctrl)


@njit(cache=True)
def monster_continue(s) -> None:
    """The monster's movement in progress: ask for the next point or end it."""
    if s.m_points <= 0 or (s.m_hunt >= 0 and hunting_stuck(s)):
        end_movement(s)
        return
    set_decision(s, D_MONSTER, s.m_ctrl)


@njit(cache=True)
def end_movement(s) -> None:
    """RULEBOOK: the monster never ends its movement on the tile it started on: if it could
    not leave, it goes to the Door tile."""
    s.m_active = 0
    s.m_points = 0
    s.m_hunt = -1
    if s.monster_cell == s.m_start:
        if s.monster_cell != DOOR_CELL:
            emit(s, EV_MONSTER_MOVE, s.m_ctrl, s.monster_cell, DOOR_CELL, MONSTER_HOW_DOOR)
        s.monster_cell = DOOR_CELL


@njit(cache=True)
def attackable(s, cell: int) -> int:
    """The heroes (bit set) the monster attacks on moving onto ``cell``: none on a Hide tile
    (l.210), and none it already attacked in this chain of attacks (``s.attacked``), whom it
    passes as it passes a hero on a Hide tile. RECONSTRUCTED (an end to every chain): a hero
    displaced by an attack onto a Minotaur symbol resolves it (l.235) and gains two points
    (l.209) that can move the monster into another attack; with the monster bound to leave
    its tile (l.227) and a single way to displace, such a chain could repeat for ever. Each
    hero attacked at most once a chain, a chain holds at most one attack per hero."""
    if TILE_SYMBOL[s.cell_tile[cell]] == C.SYM_HIDE:
        return 0
    return occupied_mask(s, cell) & ~s.attacked


@njit(cache=True)
def monster_to(s, ctrl: int, cell: int, how: int) -> bool:
    """Move the monster (``how``: a ``MONSTER_HOW_*`` code); True if it attacked."""
    emit(s, EV_MONSTER_MOVE, ctrl, s.monster_cell, cell, how)
    s.monster_cell = cell
    if attackable(s, cell) != 0:
        attack(s, ctrl)
        return True
    return False


@njit(cache=True)
def attack(s, ctrl: int) -> None:
    """The monster moved onto heroes it may attack (``attackable``): the Blood die, wounds
    (each attacked hero may answer with a reaction card), then the controller displaces
    each hero; the monster's remaining points are lost."""
    cell = s.monster_cell
    heroes = attackable(s, cell)
    s.attacked |= heroes
    emit(s, EV_ATTACK, ctrl, cell, heroes)
    end_movement(s)
    blood = BLOOD_FACES[randint(s.rng, 6)]
    s.last_blood = blood
    emit(s, EV_BLOOD, ctrl, blood)
    n = s.num_players
    medusa = 1 if s.monster == C.MEDUSA else 0
    for i in range(n - 1, -1, -1):  # pushed in reverse: resolved in turn order from the active player
        p = (s.seat + i) % n
        if (heroes >> p) & 1:
            push(s, T_DISPLACE, p, ctrl)
    if blood > 0:
        for i in range(n - 1, -1, -1):
            p = (s.seat + i) % n
            if (heroes >> p) & 1:
                push(s, T_DODGE, p, blood, medusa)


# --- Cerberus' hunt -----------------------------------------------------------------------------
@njit(cache=True)
def hunt_distances(s) -> np.ndarray:
    """Monster moves from each tile to the hunted hero's tile (-1: unreachable)."""
    dist = np.full(NUM_CELLS, -1, dtype=np.int64)
    queue = np.empty(NUM_CELLS, dtype=np.int64)
    target = s.position[s.m_hunt]
    dist[target] = 0
    queue[0] = target
    head, tail = 0, 1
    while head < tail:
        c = queue[head]
        head += 1
        for nb in range(NUM_CELLS):
            if dist[nb] < 0 and linked(s, nb, c):
                dist[nb] = dist[c] + 1
                queue[tail] = nb
                tail += 1
    return dist


@njit(cache=True)
def line_of_sight_hero(s) -> int:
    """The nearest hero in a straight line from the monster with no wall or dead end between (-1: none)."""
    best, best_d = -1, 99
    for d in range(4):
        c = s.monster_cell
        steps = 0
        while True:
            c = step_to(s, c, d)
            if c < 0:
                break
            steps += 1
            m = occupied_mask(s, c)
            if m != 0 and steps < best_d:
                for i in range(s.num_players):
                    p = (s.seat + i) % s.num_players
                    if (m >> p) & 1:
                        best, best_d = p, steps
                        break
                break
    return best


@njit(cache=True)
def hunt_step_ok(s, dist, cell: int) -> bool:
    """Cerberus hunting: only a move that gets it closer to the hunted hero."""
    here = dist[s.monster_cell]
    return linked(s, s.monster_cell, cell) and dist[cell] >= 0 and (here < 0 or dist[cell] < here)


@njit(cache=True)
def hunting_stuck(s) -> bool:
    dist = hunt_distances(s)
    for c in range(NUM_CELLS):
        if hunt_step_ok(s, dist, c):
            return False
    return True


# --- the Door rule: leave the starting tile whenever it can ------------------------------------
# RULEBOOK l.227: "can never end its movement on the same tile that it started on. If the
# Minotaur is ever in a situation where it cannot move off the tile it started on, it is
# placed on the Door tile instead." So while some way of spending the points ends off the
# starting tile, only the points that keep such a way are legal; the Door is the fallback
# when none is left. The search below runs on copies of the pathways and walls.
@njit(cache=True)
def opening(s, masks, walls, cell: int, d: int) -> bool:
    """A move leads from ``cell`` towards ``d`` with the pathways ``masks`` and walls ``walls``."""
    nb = NEIGHBORS[cell, d]
    if nb < 0 or not s.cell_up[nb] or not (masks[cell] >> d) & 1:
        return False
    return (masks[nb] >> ((d + 2) % 4)) & 1 == 1 and walls[EDGE_OF[cell, d]] == 0


@njit(cache=True)
def can_move_off(s, masks, walls, cell: int) -> bool:
    for d in range(4):
        if opening(s, masks, walls, cell, d):
            return True
    if is_passage(s, cell):
        for c in range(NUM_CELLS):
            if c != cell and is_passage(s, c):
                return True
    return False


@njit(cache=True)
def maze_changes(s, cell: int) -> np.ndarray:
    """What a point can change around the monster on ``cell``: (tile, quarter turns) for
    its tile and the explored ones next to it, (-1, edge) for the walls on its sides."""
    out = np.empty((14, 2), dtype=np.int64)
    m = 0
    for i in range(5):
        c = cell if i == 4 else NEIGHBORS[cell, i]
        if c >= 0 and s.cell_up[c]:
            out[m, 0], out[m, 1] = c, 1
            out[m + 1, 0], out[m + 1, 1] = c, 3
            m += 2
    for d in range(4):
        e = EDGE_OF[cell, d]
        if e >= 0 and s.wall[e]:
            out[m, 0], out[m, 1] = -1, e
            m += 1
    return out[:m]


@njit(cache=True)
def change(masks, walls, c: int, x: int) -> int:
    """Apply one maze change (``maze_changes``' row); returns what ``unchange`` restores."""
    if c >= 0:
        old = masks[c]
        masks[c] = rotate_mask(old, x, 4)
        return old
    old = walls[x]
    walls[x] = 0
    return old


@njit(cache=True)
def unchange(masks, walls, c: int, x: int, old: int) -> None:
    if c >= 0:
        masks[c] = old
    else:
        walls[x] = old


@njit(cache=True)
def can_leave(s, masks, walls, cell: int, points: int) -> bool:
    """With ``points`` left on ``cell``, some way of spending them moves the monster off it:
    a move now, or up to two tile rotations or wall removals first (three points at most)."""
    if points <= 0:
        return False
    if can_move_off(s, masks, walls, cell):
        return True
    if points == 1:
        return False
    ch = maze_changes(s, cell)
    for i in range(ch.shape[0]):
        o1 = change(masks, walls, ch[i, 0], ch[i, 1])
        ok = can_move_off(s, masks, walls, cell)
        if not ok and points >= 3:
            for j in range(ch.shape[0]):
                o2 = change(masks, walls, ch[j, 0], ch[j, 1])
                ok = can_move_off(s, masks, walls, cell)
                unchange(masks, walls, ch[j, 0], ch[j, 1], o2)
                if ok:
                    break
        unchange(masks, walls, ch[i, 0], ch[i, 1], o1)
        if ok:
            return True
    return False


@njit(cache=True)
def attacks_on(s, cell: int) -> bool:
    """Moving onto ``cell`` would attack (and so end the movement there)."""
    return attackable(s, cell) != 0


@njit(cache=True)
def keep_leaving(s, out) -> None:
    """Strike from ``out`` the points after which the monster could no longer end off its
    starting tile, when it still can (``can_leave``)."""
    m = s.monster_cell
    k = s.m_points
    masks = s.cell_mask.copy()
    walls = s.wall.copy()
    if m == s.m_start and not can_leave(s, masks, walls, m, k):
        return  # it cannot move off: any point, then the Door tile
    start = s.m_start
    if m != start:  # off it already: a rotation keeps it there; back onto it only to leave again
        if out[A_CELL + start] and (attacks_on(s, start) or not can_leave(s, masks, walls, start, k - 1)):
            out[A_CELL + start] = 0
        return
    ch = maze_changes(s, m)
    for i in range(ch.shape[0]):
        c, x = ch[i, 0], ch[i, 1]
        a = A_ROTATE + 2 * c + (0 if x == 1 else 1) if c >= 0 else A_EDGE + x
        o = change(masks, walls, c, x)
        if not can_leave(s, masks, walls, m, k - 1):
            out[a] = 0
        unchange(masks, walls, c, x, o)


# --- D_MONSTER: spend a movement point ----------------------------------------------------------
@njit(cache=True)
def monster_point_mask(s, out) -> None:
    """A point moves the monster (as a player's move), rotates its tile or an adjacent
    explored one, or removes a wall on its tile's sides; never so that it must end on
    its starting tile while it could leave it (``keep_leaving``)."""
    if s.m_hunt >= 0:  # Cerberus hunting: every point goes into getting closer
        dist = hunt_distances(s)
        for c in range(NUM_CELLS):
            if hunt_step_ok(s, dist, c):
                out[A_CELL + c] = 1
        return
    fill_moves(s, s.monster_cell, False, out)
    m = s.monster_cell
    out[A_ROTATE + 2 * m] = 1
    out[A_ROTATE + 2 * m + 1] = 1
    for d in range(4):
        nb = NEIGHBORS[m, d]
        if nb >= 0 and s.cell_up[nb]:
            out[A_ROTATE + 2 * nb] = 1
            out[A_ROTATE + 2 * nb + 1] = 1
        e = EDGE_OF[m, d]
        if e >= 0 and s.wall[e]:
            out[A_EDGE + e] = 1
    keep_leaving(s, out)


@njit(cache=True)
def monster_point(s, action: int) -> None:
    """Spend one movement point (the pending decision's action)."""
    ctrl = s.m_ctrl
    s.m_points -= 1
    if action < A_EXPLORE:
        if monster_to(s, ctrl, action - A_CELL, MONSTER_HOW_POINT):
            return
        if s.monster == C.CERBERUS and s.m_hunt < 0 and s.m_points > 0:
            h = line_of_sight_hero(s)
            if h >= 0:
                s.m_hunt = h
                emit(s, EV_HUNT, -1, h)
    elif action < A_HEAL:
        rotate_chosen_tile(s, -1, action)
    else:
        remove_wall(s, -1, action - A_EDGE)


# --- D_PASSAGE: the die's secret passage face ----------------------------------------------------
@njit(cache=True)
def passage_mask(s, who: int, out) -> None:
    for c in range(NUM_CELLS):
        if c != s.monster_cell and is_passage(s, c):
            out[A_CELL + c] = 1


@njit(cache=True)
def take_passage(s, who: int, action: int) -> None:
    monster_to(s, who, action - A_CELL, MONSTER_HOW_PASSAGE)
    if s.m_active:  # no attack: the face's movement ends there
        end_movement(s)


# --- D_CHARGE: the die's charge face --------------------------------------------------------------
@njit(cache=True)
def charge_moves(s, d: int) -> bool:
    """A charge towards ``d`` gets off the tile (walls are smashed, pathways are not)."""
    c = s.monster_cell
    nb = NEIGHBORS[c, d]
    return nb >= 0 and s.cell_up[nb] == 1 and open_towards(s, c, d) and open_towards(s, nb, (d + 2) % 4)


@njit(cache=True)
def charge_mask(s, who: int, out) -> None:
    """The directions that move the monster; all four (then the Door tile) when none does."""
    n = 0
    for d in range(4):
        if charge_moves(s, d):
            out[A_CHARGE + d] = 1
            n += 1
    if n == 0:
        for d in range(4):
            out[A_CHARGE + d] = 1


@njit(cache=True)
def charge(s, d: int) -> None:
    """RULEBOOK: a straight line until a dead end or a hero, smashing walls; heroes on Hide
    tiles (and those ``attackable`` spares) are charged through. A face-down tile counts as
    a dead end."""
    ctrl = s.m_ctrl
    c = s.monster_cell
    while True:
        nb = NEIGHBORS[c, d]
        if nb < 0 or not s.cell_up[nb] or not open_towards(s, c, d) or not open_towards(s, nb, (d + 2) % 4):
            break
        e = EDGE_OF[c, d]
        if s.wall[e]:
            remove_wall(s, -1, e)
        c = nb
        if attackable(s, c) != 0:
            monster_to(s, ctrl, c, MONSTER_HOW_CHARGE)
            return
    if c != s.monster_cell:
        monster_to(s, ctrl, c, MONSTER_HOW_CHARGE)
    end_movement(s)


@njit(cache=True)
def choose_charge(s, who: int, action: int) -> None:
    charge(s, action - A_CHARGE)
