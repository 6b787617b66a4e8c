"""Paths of Destiny (2011 edition) kernel: the base game as numba functions over one state
record (``STATE_DTYPE``). Kernel contract: see DESIGN.md.

The turn (the rulebook's "round") is a sequence of decisions. What is being resolved lives
in the state: the entry into a corridor (``ex_*``: the Guard, the trap, the encounter with
the players there, step by step), the throw in progress (``ck_*``: a jump, a Guard meeting,
a trap, a fight, waiting perhaps for a fate-crystal decision), the Guard's steps left and
its queued meetings. ``advance`` carries on from there once a decision is made, so every
step is a pure function of the record and the action.

The hex board, tile rotation, reachability and dice are shared with the 3rd edition
through ``labyrinth_env.core`` (``hexboard``, ``grid``, ``corridors``, ``rng``).
"""

from __future__ import annotations

import numpy as np
from numba import njit

from labyrinth_env.core import hexboard, kernel_common
from labyrinth_env.core.contract import (  # noqa: F401 (outcome codes and to_act: the kernel's are the contract's)
    LOST,
    RUNNING,
    TRUNCATED,
    WON,
    declare_winner,
    next_turn,
    set_decision,
    start_record,
    state_dtype,
    to_act,
    winner_returns,
)
from labyrinth_env.core.corridors import corridor_across, open_reach
from labyrinth_env.core.events import clear_events, emit
from labyrinth_env.core.grid import HEX_CENTER
from labyrinth_env.core.hexboard import (
    FRAME_NEIGHBORS,
    NUM_BOARD,
    NUM_CELLS,
    any_buildable,
    at_start,
    move_target,
    occupants,
    start_node,
)
from labyrinth_env.core.hexboard import KEY_CELLS as _KEY_CELLS
from labyrinth_env.core.hexboard import START_CELL as _START_CELL
from labyrinth_env.core.kernel_common import can_crystal, deal_shuffled, keys_held, shuffle_unknown
from labyrinth_env.core.rng import d6, randint, roll, roll_2d6, shuffle
from labyrinth_env.rulesets.paths_of_destiny_2011 import components as C

# --- geometry -------------------------------------------------------------------------------
MC = C.MAX_CORRIDORS
NUM_SEATS = C.MAX_PLAYERS
NUM_STARTS = 6
START_CELL = _START_CELL  # start field i is cell START_CELL + i
NUM_NODES = NUM_CELLS * MC
NUM_BOARD_NODES = NUM_BOARD * MC
NEIGHBORS = FRAME_NEIGHBORS
KEY_CELLS = _KEY_CELLS
KEY_NODES = KEY_CELLS * MC  # the key field's one corridor
CENTER_CELL = HEX_CENTER
CENTER_NODE = CENTER_CELL * MC

TILE_MASK = C.TILE_CORRIDOR_MASK.copy()
TILE_LEVEL = C.TILE_CORRIDOR_LEVEL.copy()
TILE_PAIR = C.TILE_BRIDGE_PAIR.copy()
NUM_NORMAL_TILES = C.NUM_NORMAL_TILES
NUM_TILES = C.NUM_TILES
NUM_TRAPS = C.NUM_TRAPS
NUM_TRAP_TYPES = C.NUM_TRAP_TYPES
NUM_GUARD_CARDS = C.NUM_GUARD_CARDS
NUM_KEYS = C.NUM_KEYS
LIFE = C.LIFE
TRAP_TOKENS = C.TRAP_TOKENS.astype(np.int64)
TRAP_DIFF = C.TRAP_DIFFICULTY.astype(np.int64)
TRAP_DIFF2 = C.TRAP_BRACKET.astype(np.int64)
TRAP_LIFE = C.TRAP_LIFE.astype(np.int64)
TRAP_STUN = C.TRAP_STUN.astype(np.int64)
TRAP_MOVE = C.TRAP_MOVE.astype(np.int64)
TRAP_CRYSTAL = C.TRAP_CRYSTAL.astype(np.int64)
GUARD_KIND = C.GUARD_CARD_KIND.astype(np.int64)
GUARD_STEPS = C.GUARD_CARD_STEPS.astype(np.int64)
GUARD_CLASS = C.GUARD_CARD_CLASS.astype(np.int64)
FIXED_SEATS = np.full((NUM_SEATS + 1, NUM_SEATS), -1, dtype=np.int64)
for _n, _seats in C.FIXED_SEATS.items():
    FIXED_SEATS[_n, : len(_seats)] = _seats

# options vector
OPT_PLAYERS, OPT_MAX_TURNS, OPT_CRYSTAL = 0, 1, 2
NUM_OPTIONS = 4

# --- actions ----------------------------------------------------------------------------------
A_BUILD = 0
A_MOVE = 1  # + direction (6)
A_JUMP_DOWN = 7
A_COME_DOWN = 8
A_CLIMB_UP = 9
A_REST = 10
A_ATTACK = 11  # + (offset - 1): the player `offset` seats after you (4)
A_KILL = A_ATTACK + NUM_SEATS - 1  # + (offset - 1): kill a stunned player, taking its key
A_TAKE_KEY = A_KILL + NUM_SEATS - 1  # + (offset - 1): take the key of a stunned player (free)
A_LIFT_KEY = A_TAKE_KEY + NUM_SEATS - 1  # + key (free)
A_SET_TRAP = A_LIFT_KEY + NUM_KEYS  # + board corridor node (111)
A_MOVE_GUARD = A_SET_TRAP + NUM_BOARD_NODES
A_REGENERATE = A_MOVE_GUARD + 1
A_END_TURN = A_REGENERATE + 1
A_PLACE = A_END_TURN + 1  # + cell * 6 + rotation (222)
A_GUARD_DIR = A_PLACE + NUM_BOARD * 6  # + direction (6)
A_KEEP = A_GUARD_DIR + 6  # keep the throw
A_REROLL = A_KEEP + 1  # throw again with the fate crystal
A_DECLINE = A_REROLL + 1  # no attack
A_ATTACK_NEWCOMER = A_DECLINE + 1  # a player in the corridor attacks the one coming in
A_TARGET = A_ATTACK_NEWCOMER + 1  # + (offset - 1): the newcomer attacks that player (free)
A_JOIN = A_TARGET + NUM_SEATS - 1  # attack the player the newcomer chose, in its group
A_START_FIELD = A_JOIN + 1  # + start field (6)
NUM_ACTIONS = A_START_FIELD + NUM_STARTS

# --- decisions --------------------------------------------------------------------------------
D_MAIN, D_START, D_PLACE, D_GUARD_DIR, D_REROLL, D_OCCUPANT, D_ENTRANT, D_DECLARE = range(8)
NUM_DECISIONS = 8
DECISIONS = (
    "action",
    "choose a start field",
    "place the board field",
    "Guard direction",
    "repeat the throw with the fate crystal?",
    "attack the player coming in?",
    "attack on coming in",
    "declare an attack",
)

# throws in progress
CK_NONE, CK_JUMP, CK_GUARD, CK_TRAP, CK_FIGHT = 0, 1, 2, 3, 4
NUM_CHECKS = 5
# how a character came into a corridor: the trap modes, then "sent back" (an ordinary move)
M_ENTER, M_CLIMB, M_DOWN, M_LEAVE = C.MODE_ENTER, C.MODE_CLIMB, C.MODE_DOWN, C.MODE_LEAVE
# encounter phases (``ex_phase``)
P_START, P_OCCUPANT, P_ENTRANT, P_CHOOSE, P_DECLARE, P_VS_ENTRANT, P_VS_TARGET, P_DONE = 0, 1, 2, 3, 4, 5, 6, 7

# events: (type, seat, a, b, c, d)
EV_FIRST_PLAYER = 1  # seat, roll
EV_START_TURN = 2  # seat, turn
EV_BUILD = 3  # seat, tile, cell, rotation
EV_BUILD_NOWHERE = 4  # seat, tile (no legal place: back to the bottom of the pile)
EV_TRAP_SET = 5  # seat, node (face down)
EV_MOVE = 6  # seat, from node, to node, mode (M_*)
EV_JUMP = 7  # seat, die, success
EV_REST = 8  # seat, stun left
EV_TRAP_REVEALED = 9  # seat, node, trap type
EV_TRAP_CHECK = 10  # seat, trap type, throw, difficulty, mode
EV_GUARD_MEETING = 11  # seat, throw (0: stunned, no throw), stays
EV_FIGHT = 12  # defender, attackers (bit set), attackers' result, defender's result
EV_LIFE = 13  # seat, change, life after
EV_STUN = 14  # seat, change, stun after
EV_DEATH = 15  # seat, node
EV_DROP_KEY = 16  # seat, key, node
EV_HOME = 17  # seat, from node (back on its start field)
EV_RESTORED = 18  # seat (life and stun restored at the start field)
EV_LIFT_KEY = 19  # seat, key
EV_TAKE_KEY = 20  # seat, key, from seat
EV_KILL = 21  # seat, victim
EV_GUARD_CARD = 22  # seat, kind, steps
EV_GUARD_MOVE = 23  # -1, from, to
EV_GUARD_SLEEP = 24  # -1, asleep (1 falls asleep, 0 wakes up)
EV_REROLL = 25  # seat, check kind
EV_CRYSTAL = 26  # seat, active after
EV_TURNED_BACK = 27  # seat, from, to
EV_SENT_BACK = 28  # seat, from (the central field), to
EV_WIN = 29  # seat
EV_TRUNCATED = 30
EV_START_FIELD = 31  # seat, start field
EV_CHOOSER = 32  # seat drawn to choose first
EV_DECLARE = 33  # seat, kind (0 none, 1 newcomer's target, 2 joins, 3 attacks the newcomer), target
EV_HELD = 34  # seat, node (a door trap held it)
MAX_EVENTS = 64

STATE_DTYPE = state_dtype(
    NUM_OPTIONS,
    MAX_EVENTS,
    [
        ("ask_crystal", np.int8),
        ("seat_start", np.int8, (NUM_SEATS,)),
        ("choose_order", np.int8, (NUM_SEATS,)),
        ("choose_pos", np.int8),
        ("first_player", np.int8),
        # board
        *hexboard.BOARD_FIELDS,
        ("trap_failed", np.uint8, (NUM_NODES,)),
        # piles and the deck
        ("tile_pool", np.int8, (NUM_NORMAL_TILES,)),
        ("tile_pool_len", np.int8),
        ("drawn_tile", np.int8),
        ("trap_pool", np.int8, (NUM_TRAPS,)),
        ("trap_pool_len", np.int16),
        ("guard_deck", np.int8, (NUM_GUARD_CARDS,)),
        ("guard_pos", np.int8),
        # the Guard
        ("guard_node", np.int16),
        ("guard_from", np.int16),
        ("guard_from_turn", np.int32),
        ("guard_asleep", np.int8),
        ("guard_steps", np.int8),
        ("guard_ignore", np.int32),
        ("guard_checks", np.int32),
        # keys and players
        ("key_node", np.int16, (NUM_KEYS,)),
        ("key_holder", np.int8, (NUM_KEYS,)),
        ("key_touched", np.int32, (NUM_KEYS,)),
        ("position", np.int16, (NUM_SEATS,)),
        ("life", np.int8, (NUM_SEATS,)),
        ("stun", np.int8, (NUM_SEATS,)),
        ("crystal", np.int8, (NUM_SEATS,)),
        # the round
        ("actions_left", np.int8),
        ("guard_used", np.int8),
        # the entry into a corridor being resolved
        ("ex_active", np.int8),
        ("ex_seat", np.int8),
        ("ex_node", np.int16),
        ("ex_from", np.int16),
        ("ex_mode", np.int8),
        ("ex_ignore_trap", np.int8),
        ("ex_step", np.int8),
        ("ex_phase", np.int8),
        ("ex_bonus", np.int32),
        ("ex_target", np.int8),
        ("ex_declared", np.int32),
        ("ex_join", np.int32),
        ("ex_vs", np.int32),
        # the throw being resolved
        ("ck_kind", np.int8),
        ("ck_seat", np.int8),
        ("ck_att", np.int32),
        ("ck_def", np.int8),
        ("ck_a", np.int16),
        ("ck_b", np.int16),
        ("ck_asked", np.int32),
        ("ck_enc", np.int8),
        ("ck_trap", np.int8),
        ("ck_mode", np.int8),
        ("ck_node", np.int16),
        ("ck_diff", np.int8),
        ("move_dir", np.int8),
        # scratch for searches
        *hexboard.SEARCH_FIELDS,
    ],
)


# --- small queries --------------------------------------------------------------------------------
@njit(cache=True)
def own_key_node(s, seat: int) -> int:
    return KEY_NODES[s.seat_start[seat]]


@njit(cache=True)
def first_key(s, seat: int) -> int:
    for k in range(NUM_KEYS):
        if s.key_holder[k] == seat:
            return k
    return -1


@njit(cache=True)
def popcount(m: int) -> int:
    c = 0
    while m:
        c += m & 1
        m >>= 1
    return c


@njit(cache=True)
def pickable_key(s, seat: int, k: int) -> bool:
    """A key lying in a corridor that ``seat`` may lift: never the one lying on the key field
    next to its own start field, unless another player picked that key up and lost it."""
    node = s.key_node[k]
    if node < 0:
        return False
    if node == own_key_node(s, seat):
        return (s.key_touched[k] & ~(1 << seat)) != 0
    return True


# --- building -------------------------------------------------------------------------------------
@njit(cache=True)
def set_tile(s, cell: int, tile: int, rot: int) -> None:
    hexboard.lay_tile(s, cell, tile, rot, TILE_MASK, TILE_LEVEL, TILE_PAIR)


clear_cell = hexboard.clear_cell  # lifts a tile again (trying every placement, in the tests)


@njit(cache=True)
def reach_from_centre(s) -> None:
    open_reach(s.node_mask, s.node_pair, s.cell_built, NEIGHBORS, MC, CENTER_NODE, -1, s.reach, s.queue)


@njit(cache=True)
def key_ways(s, joins: int = hexboard.REACHED) -> int:
    """The seats that (with ``s.reach`` from the centre, or labels of ``hexboard.label_cut``
    and the components ``joins`` joined to the centre) can still build a way to a key they
    may lift (bridges count as ordinary ways; empty cells as fields still to come)."""
    m = 0
    for p in range(s.num_players):
        for k in range(NUM_KEYS):
            node = s.key_node[k]
            if node >= 0 and hexboard.joined(s, joins, node) and pickable_key(s, p, k):
                m |= 1 << p
                break
    return m


@njit(cache=True)
def ways_open(s, need_keys: int) -> bool:
    """Every player can still build a way from its start field to the central field, and to
    a key (for the seats in ``need_keys``, which had one before)."""
    reach_from_centre(s)
    return ways_joined(s, need_keys, hexboard.REACHED)


@njit(cache=True)
def ways_joined(s, need_keys: int, joins: int) -> bool:
    """``ways_open`` read from ``s.reach``: a search from the centre (``joins =
    hexboard.REACHED``) or the labels of ``hexboard.label_cut`` with the components
    ``joins`` that a tile joins to the centre's."""
    for p in range(s.num_players):
        if not hexboard.joined(s, joins, start_node(s, p)):
            return False
    return (key_ways(s, joins) & need_keys) == need_keys


@njit(cache=True)
def compute_placements(s, tile: int) -> int:
    """Fill ``place_ok`` for the drawn field; returns how many placements are legal. Only a
    cell that is an articulation point between the centre and a start field or a reachable
    key (its loss as an open space could cut a way) has each rotation tried."""
    s.place_ok[:] = 0
    reach_from_centre(s)
    need = key_ways(s)
    targets = np.empty(NUM_SEATS + NUM_KEYS, dtype=np.int64)
    nt = 0
    for p in range(s.num_players):
        targets[nt] = start_node(s, p)
        nt += 1
    for k in range(NUM_KEYS):
        node = s.key_node[k]
        if node >= 0 and s.reach[node]:
            targets[nt] = node
            nt += 1
    critical = np.empty(NUM_CELLS, dtype=np.bool_)
    tree = hexboard.new_tree()
    if not hexboard.critical_cells(s, CENTER_NODE, targets[:nt], critical, tree):
        critical[:] = True  # a way already cut: try everything
    count = hexboard.place_freely(s, critical)
    for cell in range(NUM_BOARD):
        if critical[cell] and hexboard.touches_board(s.cell_built, cell):
            # what ways_open would find with the tile laid, from one labelling of the board
            # around the cell instead of a search per rotation
            hexboard.label_cut(s, cell, tree)
            for r in range(6):
                if ways_joined(s, need, hexboard.tile_joins(s, cell, TILE_MASK[tile], TILE_PAIR[tile], r)):
                    s.place_ok[cell * 6 + r] = 1
                    count += 1
    return count


@njit(cache=True)
def do_build(s, seat: int) -> None:
    s.tile_pool_len -= 1
    tile = s.tile_pool[s.tile_pool_len]
    if compute_placements(s, tile) > 0:
        s.drawn_tile = tile
        set_decision(s, D_PLACE, seat)
        return
    for i in range(s.tile_pool_len, 0, -1):  # nowhere to put it: to the bottom of the pile
        s.tile_pool[i] = s.tile_pool[i - 1]
    s.tile_pool[0] = tile
    s.tile_pool_len += 1
    emit(s, EV_BUILD_NOWHERE, seat, tile)


@njit(cache=True)
def place_tile(s, cell: int, rot: int) -> None:
    tile = s.drawn_tile
    s.drawn_tile = -1
    set_tile(s, cell, tile, rot)
    emit(s, EV_BUILD, s.seat, tile, cell, rot)


# --- life, stun, death, the start field -------------------------------------------------------------
@njit(cache=True)
def restore(s, seat: int) -> None:
    """Back on the start field: all life back, stun points put aside (the crystal stays)."""
    if s.life[seat] != LIFE or s.stun[seat] != 0:
        s.life[seat] = LIFE
        s.stun[seat] = 0
        emit(s, EV_RESTORED, seat)


@njit(cache=True)
def go_home(s, seat: int) -> None:
    emit(s, EV_HOME, seat, s.position[seat])
    s.position[seat] = start_node(s, seat)
    restore(s, seat)


@njit(cache=True)
def die(s, seat: int, taker: int) -> None:
    """All life lost: one key stays where the last life was lost (or goes to ``taker``, who
    killed a stunned player), any others are kept; back to the start field."""
    node = s.position[seat]
    emit(s, EV_DEATH, seat, node)
    k = first_key(s, seat)
    if k >= 0:
        if taker >= 0:
            s.key_holder[k] = taker
            s.key_touched[k] |= 1 << taker
            emit(s, EV_TAKE_KEY, taker, k, seat)
        else:
            s.key_holder[k] = -1
            s.key_node[k] = node
            emit(s, EV_DROP_KEY, seat, k, node)
    go_home(s, seat)


@njit(cache=True)
def lose_life(s, seat: int, n: int) -> bool:
    """Lose ``n`` life; returns True if that was the last (the player is then at home)."""
    life = max(s.life[seat] - n, 0)
    emit(s, EV_LIFE, seat, life - s.life[seat], life)
    s.life[seat] = life
    if life == 0:
        die(s, seat, -1)
        return True
    return False


@njit(cache=True)
def add_stun(s, seat: int, n: int) -> None:
    s.stun[seat] += n
    emit(s, EV_STUN, seat, n, s.stun[seat])


# --- entering a corridor -------------------------------------------------------------------------------
@njit(cache=True)
def place(s, seat: int, node: int, mode: int) -> None:
    emit(s, EV_MOVE, seat, s.position[seat], node, mode)
    s.position[seat] = node


@njit(cache=True)
def explore(s, seat: int, node: int, came_from: int, mode: int, ignore_trap: bool, bonus: int) -> None:
    """Resolve, step by step, what ``seat`` meets in the corridor it came into: the Guard, a
    trap, the players there. Its own start field holds nothing and restores it."""
    if node == start_node(s, seat):
        restore(s, seat)
        return
    s.ex_active = 1
    s.ex_seat = seat
    s.ex_node = node
    s.ex_from = came_from
    s.ex_mode = mode
    s.ex_ignore_trap = 1 if ignore_trap else 0
    s.ex_step = 1
    s.ex_phase = P_START
    s.ex_bonus = bonus
    s.ex_target = -1
    s.ex_declared = 0
    s.ex_join = 0
    s.ex_vs = 0


@njit(cache=True)
def can_fight(s, seat: int) -> bool:
    """A stunned player can do nothing but rest: it declares no attack."""
    return s.stun[seat] == 0


@njit(cache=True)
def explore_step(s) -> None:
    """Carry the entry on by one step (or until it stops for a decision)."""
    seat = s.ex_seat
    node = s.ex_node
    if s.position[seat] != node:
        s.ex_active = 0  # sent away (the Guard, death, a trap): nothing more here
        return
    step = s.ex_step
    if step == 1:  # the Guard, awake
        s.ex_step = 2
        if s.guard_node == node and not s.guard_asleep:
            begin_guard(s, seat)
    elif step == 2:  # a trap
        s.ex_step = 3
        t = s.node_trap[node]
        if t >= 0 and not s.ex_ignore_trap:
            ty = TRAP_TOKENS[t]
            if not s.trap_up[node]:
                s.trap_up[node] = 1
                emit(s, EV_TRAP_REVEALED, seat, node, ty)
            if TRAP_DIFF[ty, s.ex_mode] > 0:
                begin_trap(s, seat, node, ty, s.ex_mode)
    elif step == 3:  # the other players
        encounter_step(s)
    else:
        s.ex_active = 0


@njit(cache=True)
def next_declarer(s, others: int) -> int:
    """The next player in the corridor (clockwise from the newcomer) who has not declared yet."""
    n = s.num_players
    for off in range(1, n):
        q = (s.ex_seat + off) % n
        if (others >> q) & 1 and q != s.ex_target and not (s.ex_declared >> q) & 1 and can_fight(s, q):
            return q
    return -1


@njit(cache=True)
def encounter_step(s) -> None:
    """The encounter with the players in the corridor. One player there: it may attack the
    newcomer, then the newcomer may attack it (two fights, both free). Several: the newcomer
    declares a target or none, then each of the others (not the target) declares whether it
    attacks the target, joining the newcomer's group, or the newcomer; the fight against
    the newcomer comes first, then the group's fight against the target."""
    seat = s.ex_seat
    node = s.ex_node
    others = occupants(s, node, seat)
    phase = s.ex_phase
    if phase == P_START:
        if others == 0:
            s.ex_step = 4
        elif popcount(others) == 1:
            s.ex_phase = P_OCCUPANT
        else:
            s.ex_phase = P_CHOOSE
    elif phase == P_OCCUPANT:
        s.ex_phase = P_ENTRANT
        if others != 0:
            q = 0
            while not (others >> q) & 1:
                q += 1
            if can_fight(s, q):
                set_decision(s, D_OCCUPANT, q)
    elif phase == P_ENTRANT:
        s.ex_phase = P_DONE
        if others != 0 and can_fight(s, seat):
            set_decision(s, D_ENTRANT, seat)
    elif phase == P_CHOOSE:
        s.ex_phase = P_DECLARE
        if others != 0 and can_fight(s, seat):
            set_decision(s, D_ENTRANT, seat)
    elif phase == P_DECLARE:
        q = next_declarer(s, others)
        if q >= 0:
            s.ex_declared |= 1 << q
            set_decision(s, D_DECLARE, q)
        else:
            s.ex_phase = P_VS_ENTRANT
    elif phase == P_VS_ENTRANT:
        s.ex_phase = P_VS_TARGET
        att = s.ex_vs & others
        if att != 0:
            begin_fight(s, att, seat, True)
    elif phase == P_VS_TARGET:
        s.ex_phase = P_DONE
        x = s.ex_target
        if x >= 0 and (others >> x) & 1:
            begin_fight(s, (s.ex_join & others) | (1 << seat), x, True)
    else:
        s.ex_step = 4


# --- throws and the fate crystal ---------------------------------------------------------------------
@njit(cache=True)
def side_total(s, members: int, encounter: bool) -> int:
    """One side's throw in a fight: 2 dice for one player, one more die per extra member of
    a group, minus each member's lost life, +1 for a member with the bonus of the encounter
    (a good jump down, or standing on the bridge someone climbs onto)."""
    k = popcount(members)
    total = roll(s.rng, 2 if k == 1 else k + 1, 6)
    for p in range(s.num_players):
        if (members >> p) & 1:
            total -= LIFE - s.life[p]
            if encounter and (s.ex_bonus >> p) & 1:
                total += C.JUMP_BONUS
    return total


@njit(cache=True)
def check_failed(s) -> bool:
    kind = s.ck_kind
    if kind == CK_JUMP:
        return s.ck_a < C.JUMP_SUCCESS
    if kind == CK_GUARD:
        return s.ck_a < C.GUARD_STAY
    if kind == CK_TRAP:
        return s.ck_a < s.ck_diff
    return False


@njit(cache=True)
def fight_candidate(s) -> int:
    """The next player on a side that did not win the fight (attackers first on a draw) who
    may still repeat that side's throw with its fate crystal, or -1."""
    if s.ck_a <= s.ck_b:
        for p in range(s.num_players):
            if (s.ck_att >> p) & 1 and not (s.ck_asked >> p) & 1 and can_crystal(s, p):
                return p
    if s.ck_a >= s.ck_b:
        p = s.ck_def
        if not (s.ck_asked >> p) & 1 and can_crystal(s, p):
            return p
    return -1


@njit(cache=True)
def offer_reroll(s) -> bool:
    """After a failed throw (or a fight not won) the owner of a face-up crystal decides."""
    if s.ck_kind == CK_FIGHT:
        p = fight_candidate(s)
        if p < 0:
            return False
        s.ck_asked |= 1 << p
        set_decision(s, D_REROLL, p)
        return True
    if check_failed(s) and can_crystal(s, s.ck_seat):
        set_decision(s, D_REROLL, s.ck_seat)
        return True
    return False


@njit(cache=True)
def settle(s) -> None:
    if not offer_reroll(s):
        resolve_check(s)


@njit(cache=True)
def begin_jump(s, seat: int) -> None:
    s.ck_kind = CK_JUMP
    s.ck_seat = seat
    s.ck_a = d6(s.rng)
    emit(s, EV_JUMP, seat, s.ck_a, 1 if s.ck_a >= C.JUMP_SUCCESS else 0)
    settle(s)


@njit(cache=True)
def finish_jump(s, seat: int, success: bool) -> None:
    node = s.position[seat]
    below = s.node_pair[node]
    place(s, seat, below, M_DOWN)
    if success:
        explore(s, seat, below, node, M_DOWN, False, 1 << seat)
        return
    if not lose_life(s, seat, C.JUMP_FAIL_LIFE):
        add_stun(s, seat, C.JUMP_FAIL_STUN)
        explore(s, seat, below, node, M_DOWN, False, 0)


@njit(cache=True)
def begin_guard(s, seat: int) -> None:
    """A player meets the awake Guard: a stunned one goes home at once, the others throw."""
    if s.stun[seat] > 0:
        emit(s, EV_GUARD_MEETING, seat, 0, 0)
        go_home(s, seat)
        return
    s.ck_kind = CK_GUARD
    s.ck_seat = seat
    s.ck_a = roll_2d6(s.rng)
    emit(s, EV_GUARD_MEETING, seat, s.ck_a, 1 if s.ck_a >= C.GUARD_STAY else 0)
    settle(s)


@njit(cache=True)
def trap_difficulty(s, node: int, ty: int, mode: int) -> int:
    # the number in brackets once anyone has failed this token
    return TRAP_DIFF2[ty, mode] if s.trap_failed[node] else TRAP_DIFF[ty, mode]


@njit(cache=True)
def begin_trap(s, seat: int, node: int, ty: int, mode: int) -> None:
    s.ck_kind = CK_TRAP
    s.ck_seat = seat
    s.ck_node = node
    s.ck_trap = ty
    s.ck_mode = mode
    s.ck_diff = trap_difficulty(s, node, ty, mode)
    s.ck_a = roll_2d6(s.rng)
    emit(s, EV_TRAP_CHECK, seat, ty, s.ck_a, s.ck_diff, mode)
    settle(s)


@njit(cache=True)
def begin_fight(s, attackers: int, defender: int, encounter: bool) -> None:
    s.ck_kind = CK_FIGHT
    s.ck_att = attackers
    s.ck_def = defender
    s.ck_seat = defender
    s.ck_enc = 1 if encounter else 0
    s.ck_asked = 0
    s.ck_node = s.position[defender]
    s.ck_a = side_total(s, attackers, encounter)
    s.ck_b = side_total(s, 1 << defender, encounter)
    emit(s, EV_FIGHT, defender, attackers, s.ck_a, s.ck_b)
    settle(s)


@njit(cache=True)
def rethrow(s, who: int) -> None:
    """The fate crystal: the same throw again, not a new one (same difficulty, same bonus)."""
    s.crystal[who] = 0
    emit(s, EV_REROLL, who, s.ck_kind)
    emit(s, EV_CRYSTAL, who, 0)
    kind = s.ck_kind
    if kind == CK_JUMP:
        s.ck_a = d6(s.rng)
        emit(s, EV_JUMP, who, s.ck_a, 1 if s.ck_a >= C.JUMP_SUCCESS else 0)
    elif kind == CK_GUARD:
        s.ck_a = roll_2d6(s.rng)
        emit(s, EV_GUARD_MEETING, who, s.ck_a, 1 if s.ck_a >= C.GUARD_STAY else 0)
    elif kind == CK_TRAP:
        s.ck_a = roll_2d6(s.rng)
        emit(s, EV_TRAP_CHECK, who, s.ck_trap, s.ck_a, s.ck_diff, s.ck_mode)
    elif who == s.ck_def:
        s.ck_b = side_total(s, 1 << who, s.ck_enc != 0)
        emit(s, EV_FIGHT, s.ck_def, s.ck_att, s.ck_a, s.ck_b)
    else:
        s.ck_a = side_total(s, s.ck_att, s.ck_enc != 0)
        emit(s, EV_FIGHT, s.ck_def, s.ck_att, s.ck_a, s.ck_b)


@njit(cache=True)
def resolve_check(s) -> None:
    """Apply the outcome of the throw in progress."""
    kind = s.ck_kind
    seat = s.ck_seat
    s.ck_kind = CK_NONE
    if kind == CK_JUMP:
        finish_jump(s, seat, s.ck_a >= C.JUMP_SUCCESS)
    elif kind == CK_GUARD:
        if s.ck_a < C.GUARD_STAY:
            go_home(s, seat)  # keys are kept
    elif kind == CK_TRAP:
        trap_outcome(s, seat)
    elif kind == CK_FIGHT:
        fight_outcome(s)


@njit(cache=True)
def trap_outcome(s, seat: int) -> None:
    node = s.ck_node
    ty = s.ck_trap
    mode = s.ck_mode
    if s.ck_a >= s.ck_diff:
        if mode == M_LEAVE:  # the door opened: the move goes on
            do_move(s, seat, s.move_dir)
        return
    s.trap_failed[node] = 1
    if TRAP_LIFE[ty, mode] > 0 and lose_life(s, seat, TRAP_LIFE[ty, mode]):
        return
    if TRAP_STUN[ty, mode] > 0:
        add_stun(s, seat, TRAP_STUN[ty, mode])
    if TRAP_CRYSTAL[ty, mode] > 0 and s.crystal[seat]:
        s.crystal[seat] = 0
        emit(s, EV_CRYSTAL, seat, 0)
    move = TRAP_MOVE[ty, mode]
    if move == C.MOVE_TURN_BACK:
        back = s.ex_from
        if back >= 0:
            emit(s, EV_TURNED_BACK, seat, node, back)
            s.position[seat] = back
            s.ex_active = 0
            if back == start_node(s, seat):
                restore(s, seat)
    elif move == C.MOVE_TO_START:
        go_home(s, seat)
    elif move == C.MOVE_HELD:
        emit(s, EV_HELD, seat, node)


@njit(cache=True)
def fight_outcome(s) -> None:
    """The higher result wins; the defeated player, or each member of the defeated group,
    loses 1 life; equal results leave the fight unresolved. A newcomer that loses a fight
    of its encounter on the central field goes back where it came from."""
    a, b = s.ck_a, s.ck_b
    if a == b:
        return
    losers = s.ck_att if b > a else (1 << s.ck_def)
    node = s.ck_node
    for p in range(s.num_players):
        if (losers >> p) & 1 and s.position[p] == node:
            lose_life(s, p, 1)
    e = s.ex_seat
    if s.ck_enc and s.ex_active and (losers >> e) & 1 and node == CENTER_NODE and s.position[e] == node:
        back = s.ex_from
        if back >= 0:
            emit(s, EV_SENT_BACK, e, node, back)
            s.position[e] = back
            explore(s, e, back, -1, M_ENTER, False, 0)  # as an ordinary move


# --- the Guard --------------------------------------------------------------------------------------------
@njit(cache=True)
def guard_options(s) -> int:
    """Directions the Guard may step in: along corridors (never over a bridge), never onto a
    start field, never back into the corridor it came from in the previous player's round
    or earlier in this move, unless that is the only way (the end of a corridor)."""
    return hexboard.wander_options(s, s.guard_node, s.guard_from, s.guard_from_turn)


@njit(cache=True)
def guard_to(s, node: int) -> None:
    emit(s, EV_GUARD_MOVE, -1, s.guard_node, node)
    s.guard_from = s.guard_node
    s.guard_from_turn = s.turn
    s.guard_node = node
    s.guard_checks |= occupants(s, node, -1) & ~s.guard_ignore


@njit(cache=True)
def guard_step(s, d: int) -> None:
    other = corridor_across(s.node_mask, NEIGHBORS, s.guard_node // MC, d, MC)
    s.guard_steps -= 1
    guard_to(s, other)


@njit(cache=True)
def move_guard(s) -> None:
    """Draw the top Guard card and follow it. A sleeping Guard is only woken by it (and meets
    whoever stands with it); an awake one ignores the players already standing with it."""
    if s.guard_pos >= NUM_GUARD_CARDS:  # all used: shuffle them again
        shuffle(s.rng, s.guard_deck, NUM_GUARD_CARDS)
        s.guard_pos = 0
    card = s.guard_deck[s.guard_pos]
    s.guard_pos += 1
    kind = GUARD_KIND[card]
    emit(s, EV_GUARD_CARD, s.seat, kind, GUARD_STEPS[card])
    if s.guard_asleep:
        s.guard_asleep = 0
        emit(s, EV_GUARD_SLEEP, -1, 0)
        s.guard_checks |= occupants(s, s.guard_node, -1)
        return
    s.guard_ignore = occupants(s, s.guard_node, -1)
    if kind == C.GUARD_MOVE:
        s.guard_steps = GUARD_STEPS[card]
    elif kind == C.GUARD_SUN:
        if s.guard_node != CENTER_NODE:
            guard_to(s, CENTER_NODE)
    elif kind == C.GUARD_MOON:
        s.guard_asleep = 1
        emit(s, EV_GUARD_SLEEP, -1, 1)


# --- the round ---------------------------------------------------------------------------------------------
@njit(cache=True)
def check_win(s) -> bool:
    seat = s.seat
    if s.position[seat] == CENTER_NODE and keys_held(s, seat) > 0:
        declare_winner(s, seat, EV_WIN)
        return True
    return False


@njit(cache=True)
def start_turn(s) -> None:
    s.actions_left = C.ACTIONS_PER_TURN
    s.guard_used = 0
    emit(s, EV_START_TURN, s.seat, s.turn)


@njit(cache=True)
def end_turn(s) -> None:
    if next_turn(s, EV_TRUNCATED):
        start_turn(s)


@njit(cache=True)
def any_main_action(s) -> bool:
    """Anything to do besides ending the turn. Without action points only the free actions
    (taking and lifting keys) can be allowed (see ``main_legal``), so only they are asked:
    the search through every action used to follow each turn's last action."""
    lo, hi = (A_TAKE_KEY, A_SET_TRAP) if s.actions_left <= 0 else (0, A_END_TURN)
    for a in range(lo, hi):
        if main_legal(s, a):
            return True
    return False


@njit(cache=True)
def guard_check_next(s) -> None:
    for p in range(s.num_players):
        if (s.guard_checks >> p) & 1:
            s.guard_checks &= ~(1 << p)
            if s.position[p] == s.guard_node and not s.guard_asleep:
                begin_guard(s, p)
            return


@njit(cache=True)
def guard_step_auto(s) -> bool:
    """Take the Guard's next step when it has one way only (or none: the steps are lost);
    False when the active player must choose."""
    opts = guard_options(s)
    if opts == 0:
        s.guard_steps = 0
        return True
    if opts & (opts - 1) == 0:
        d = 0
        while not (opts >> d) & 1:
            d += 1
        guard_step(s, d)
        return True
    return False


@njit(cache=True)
def advance(s) -> None:
    """Resolve everything automatic until a decision is pending or the game is over."""
    while s.outcome == RUNNING:
        if s.decision != D_MAIN:
            return
        if s.choose_pos < s.num_players:
            set_decision(s, D_START, s.choose_order[s.choose_pos])
            return
        if s.guard_checks != 0:
            guard_check_next(s)
            continue
        if s.guard_steps > 0:
            if not guard_step_auto(s):
                set_decision(s, D_GUARD_DIR, s.seat)
                return
            continue
        if s.ex_active:
            explore_step(s)
            continue
        if check_win(s):
            return
        if not any_main_action(s):
            end_turn(s)
            continue
        set_decision(s, D_MAIN, s.seat)
        return


# --- legality -------------------------------------------------------------------------------------------------
@njit(cache=True)
def trap_settable(s, node: int) -> bool:
    return hexboard.settable_corridor(s, node, CENTER_CELL)


@njit(cache=True)
def other_seat(s, off: int) -> int:
    return (s.seat + off) % s.num_players if off < s.num_players else -1


@njit(cache=True)
def main_legal(s, a: int) -> bool:
    """Whether action ``a`` of the main decision is allowed now: the one place the action
    rules live (``legal_mask`` and ``is_legal`` both ask it)."""
    if a == A_END_TURN:
        return True
    seat = s.seat
    node = s.position[seat]
    acts = s.actions_left
    if s.stun[seat] > 0:  # only rest until every stun point is gone
        return a == A_REST and acts >= 1
    if a >= A_LIFT_KEY and a < A_SET_TRAP:  # free
        return s.key_node[a - A_LIFT_KEY] == node and pickable_key(s, seat, a - A_LIFT_KEY)
    if a >= A_TAKE_KEY and a < A_LIFT_KEY:  # free
        q = other_seat(s, a - A_TAKE_KEY + 1)
        return q >= 0 and s.position[q] == node and s.stun[q] > 0 and keys_held(s, q) > 0
    if acts <= 0:
        return False
    if a == A_BUILD:
        return any_buildable(s)
    if a < A_JUMP_DOWN:
        return move_target(s, seat, a - A_MOVE) >= 0
    if a == A_JUMP_DOWN:
        return s.node_level[node] == C.BRIDGE
    if a == A_COME_DOWN:
        return acts >= 2 and s.node_level[node] == C.BRIDGE
    if a == A_CLIMB_UP:
        return acts >= 2 and s.node_level[node] == C.UNDER
    if a == A_REST:
        return False
    if a < A_KILL:
        q = other_seat(s, a - A_ATTACK + 1)
        return q >= 0 and s.position[q] == node
    if a < A_TAKE_KEY:
        q = other_seat(s, a - A_KILL + 1)
        return q >= 0 and s.position[q] == node and s.stun[q] > 0
    if a < A_MOVE_GUARD:
        return s.trap_pool_len > 0 and trap_settable(s, a - A_SET_TRAP)
    if a == A_MOVE_GUARD:
        return not s.guard_used
    if a == A_REGENERATE:
        return acts >= 2 and s.crystal[seat] == 0
    return False


@njit(cache=True)
def main_mask(s, out) -> None:
    """``main_legal`` for every action of the main decision at once (``out`` zeroed), the
    per-action checks hoisted out of the loops; a test keeps the two equal."""
    seat = s.seat
    node = s.position[seat]
    acts = s.actions_left
    out[A_END_TURN] = 1
    if s.stun[seat] > 0:
        out[A_REST] = 1 if acts >= 1 else 0
        return
    n = s.num_players
    for off in range(1, n):
        q = (seat + off) % n
        if s.position[q] == node:
            stunned = s.stun[q] > 0
            if stunned and keys_held(s, q) > 0:
                out[A_TAKE_KEY + off - 1] = 1
            if acts >= 1:
                out[A_ATTACK + off - 1] = 1
                out[A_KILL + off - 1] = 1 if stunned else 0
    for k in range(NUM_KEYS):
        if s.key_node[k] == node and pickable_key(s, seat, k):
            out[A_LIFT_KEY + k] = 1
    if acts <= 0:
        return
    out[A_BUILD] = 1 if any_buildable(s) else 0
    for d in range(6):
        out[A_MOVE + d] = 1 if move_target(s, seat, d) >= 0 else 0
    level = s.node_level[node]
    out[A_JUMP_DOWN] = 1 if level == C.BRIDGE else 0
    out[A_COME_DOWN] = 1 if acts >= 2 and level == C.BRIDGE else 0
    out[A_CLIMB_UP] = 1 if acts >= 2 and level == C.UNDER else 0
    if s.trap_pool_len > 0:
        for x in range(NUM_BOARD_NODES):
            if s.node_mask[x] != 0 and s.node_trap[x] < 0:
                out[A_SET_TRAP + x] = 1
        for k in range(MC):
            out[A_SET_TRAP + CENTER_NODE + k] = 0
        for q in range(n):
            if q != seat and 0 <= s.position[q] < NUM_BOARD_NODES:
                out[A_SET_TRAP + s.position[q]] = 0
    out[A_MOVE_GUARD] = 0 if s.guard_used else 1
    out[A_REGENERATE] = 1 if acts >= 2 and s.crystal[seat] == 0 else 0


@njit(cache=True)
def encounter_mask(s, dec: int, who: int, out) -> None:
    node = s.ex_node
    n = s.num_players
    out[A_DECLINE] = 1
    if dec == D_OCCUPANT:
        out[A_ATTACK_NEWCOMER] = 1
    elif dec == D_ENTRANT:
        for off in range(1, n):
            if s.position[(who + off) % n] == node:
                out[A_TARGET + off - 1] = 1
    else:
        x = s.ex_target
        if x >= 0 and s.position[x] == node:
            out[A_JOIN] = 1
        if s.position[s.ex_seat] == node:
            out[A_ATTACK_NEWCOMER] = 1


@njit(cache=True)
def legal_mask(s, out) -> None:
    """Fill ``out`` with the legal actions of the pending decision."""
    out[:] = 0
    if s.outcome != RUNNING:
        return
    dec = s.decision
    if dec == D_MAIN:
        main_mask(s, out)
    elif dec == D_START:
        for f in range(NUM_STARTS):
            free = True
            for p in range(s.num_players):
                if s.seat_start[p] == f:
                    free = False
            out[A_START_FIELD + f] = 1 if free else 0
    elif dec == D_PLACE:
        for i in range(NUM_BOARD * 6):
            out[A_PLACE + i] = s.place_ok[i]
    elif dec == D_GUARD_DIR:
        hexboard.mark_directions(out, A_GUARD_DIR, guard_options(s))
    elif dec == D_REROLL:
        out[A_KEEP] = 1
        out[A_REROLL] = 1
    else:
        encounter_mask(s, dec, s.decider, out)


@njit(cache=True)
def is_legal(s, action: int) -> bool:
    if s.outcome != RUNNING or action < 0 or action >= NUM_ACTIONS:
        return False
    if s.decision == D_MAIN:
        return action < A_PLACE and main_legal(s, action)
    # a local mask: a rejected action must leave every byte of the state as it was
    mask = np.zeros(NUM_ACTIONS, dtype=np.uint8)
    legal_mask(s, mask)
    return mask[action] != 0


# --- applying actions ------------------------------------------------------------------------------------------
@njit(cache=True)
def do_move(s, seat: int, d: int) -> None:
    node = s.position[seat]
    to = move_target(s, seat, d)
    # a trap on the key field is ignored by the player leaving its start field
    ignore = at_start(s, seat)
    place(s, seat, to, M_ENTER)
    explore(s, seat, to, node, M_ENTER, ignore, 0)


@njit(cache=True)
def try_move(s, seat: int, d: int) -> None:
    """A move; a door trap in the corridor being left is checked first (revealed if face down)."""
    node = s.position[seat]
    t = s.node_trap[node]
    if t >= 0 and TRAP_DIFF[TRAP_TOKENS[t], M_LEAVE] > 0:
        ty = TRAP_TOKENS[t]
        if not s.trap_up[node]:
            s.trap_up[node] = 1
            emit(s, EV_TRAP_REVEALED, seat, node, ty)
        s.move_dir = d
        begin_trap(s, seat, node, ty, M_LEAVE)
        return
    do_move(s, seat, d)


@njit(cache=True)
def take_key(s, seat: int, victim: int) -> None:
    k = first_key(s, victim)
    s.key_holder[k] = seat
    s.key_touched[k] |= 1 << seat
    emit(s, EV_TAKE_KEY, seat, k, victim)


@njit(cache=True)
def do_main(s, action: int) -> None:
    seat = s.seat
    if action == A_END_TURN:
        s.actions_left = 0
        end_turn(s)
        return
    if action >= A_TAKE_KEY and action < A_SET_TRAP:  # free
        if action >= A_LIFT_KEY:
            k = action - A_LIFT_KEY
            s.key_node[k] = -1
            s.key_holder[k] = seat
            s.key_touched[k] |= 1 << seat
            emit(s, EV_LIFT_KEY, seat, k)
        else:
            take_key(s, seat, other_seat(s, action - A_TAKE_KEY + 1))
        return
    if action in (A_COME_DOWN, A_CLIMB_UP, A_REGENERATE):
        s.actions_left -= 2
    else:
        s.actions_left -= 1
    node = s.position[seat]
    if action == A_BUILD:
        do_build(s, seat)
    elif action < A_JUMP_DOWN:
        try_move(s, seat, action - A_MOVE)
    elif action == A_JUMP_DOWN:
        begin_jump(s, seat)
    elif action == A_COME_DOWN:
        place(s, seat, s.node_pair[node], M_DOWN)
        explore(s, seat, s.node_pair[node], node, M_DOWN, False, 0)
    elif action == A_CLIMB_UP:
        up = s.node_pair[node]
        # the player standing on the bridge gets +1 in a fight that follows
        bonus = occupants(s, up, seat)
        place(s, seat, up, M_CLIMB)
        explore(s, seat, up, node, M_CLIMB, False, bonus)
    elif action == A_REST:
        s.stun[seat] -= 1
        emit(s, EV_REST, seat, s.stun[seat])
    elif action < A_KILL:
        begin_fight(s, 1 << seat, other_seat(s, action - A_ATTACK + 1), False)
    elif action < A_TAKE_KEY:
        victim = other_seat(s, action - A_KILL + 1)
        emit(s, EV_KILL, seat, victim)
        emit(s, EV_LIFE, victim, -s.life[victim], 0)
        s.life[victim] = 0
        die(s, victim, seat)
    elif action < A_MOVE_GUARD:
        at = action - A_SET_TRAP
        s.trap_pool_len -= 1
        s.node_trap[at] = s.trap_pool[s.trap_pool_len]
        s.trap_up[at] = 0
        s.trap_failed[at] = 0
        emit(s, EV_TRAP_SET, seat, at)
    elif action == A_MOVE_GUARD:
        s.guard_used = 1
        move_guard(s)
    elif action == A_REGENERATE:
        s.crystal[seat] = 1
        emit(s, EV_CRYSTAL, seat, 1)


@njit(cache=True)
def do_encounter(s, dec: int, who: int, action: int) -> None:
    seat = s.ex_seat
    if dec == D_OCCUPANT:
        if action == A_ATTACK_NEWCOMER:
            emit(s, EV_DECLARE, who, 3, seat)
            begin_fight(s, 1 << who, seat, True)
        else:
            emit(s, EV_DECLARE, who, 0, -1)
    elif dec == D_ENTRANT:
        if action == A_DECLINE:
            emit(s, EV_DECLARE, who, 0, -1)
            return
        x = (who + action - A_TARGET + 1) % s.num_players
        emit(s, EV_DECLARE, who, 1, x)
        if s.ex_phase == P_DECLARE:  # several players there: the others declare first
            s.ex_target = x
        else:
            begin_fight(s, 1 << who, x, True)
    else:
        if action == A_JOIN:
            s.ex_join |= 1 << who
            emit(s, EV_DECLARE, who, 2, s.ex_target)
        elif action == A_ATTACK_NEWCOMER:
            s.ex_vs |= 1 << who
            emit(s, EV_DECLARE, who, 3, seat)
        else:
            emit(s, EV_DECLARE, who, 0, -1)


@njit(cache=True)
def choose_start(s, who: int, field: int) -> None:
    s.seat_start[who] = field
    s.position[who] = start_node(s, who)
    emit(s, EV_START_FIELD, who, field)
    s.choose_pos += 1
    if s.choose_pos >= s.num_players:
        start_turn(s)


@njit(cache=True)
def step(s, action: int) -> bool:
    """Apply one legal action and everything automatic after it. Returns False, changing
    nothing, if the action is not legal now."""
    if not is_legal(s, action):
        return False
    clear_events(s)
    dec = s.decision
    who = s.decider
    s.decision = D_MAIN  # the decision is made; advance() sets the next one
    if dec == D_MAIN:
        do_main(s, action)
    elif dec == D_START:
        choose_start(s, who, action - A_START_FIELD)
    elif dec == D_PLACE:
        k = action - A_PLACE
        place_tile(s, k // 6, k % 6)
    elif dec == D_GUARD_DIR:
        guard_step(s, action - A_GUARD_DIR)
    elif dec == D_REROLL:
        if action == A_REROLL:
            rethrow(s, who)
        if s.ck_kind == CK_FIGHT:
            settle(s)  # another player of a side that did not win may still repeat its throw
        else:
            resolve_check(s)
    else:
        do_encounter(s, dec, who, action)
    if s.decision == D_MAIN:
        advance(s)
    return True


# --- the kernel contract ------------------------------------------------------------------------------------
@njit(cache=True)
def init_board(s) -> None:
    hexboard.lay_frame(s, CENTER_CELL, TILE_MASK, TILE_LEVEL, TILE_PAIR, C.CENTRAL_TILE_ID, C.KEY_TILE_ID)
    s.trap_failed[:] = 0
    for k in range(NUM_KEYS):
        s.key_node[k] = KEY_NODES[k]
        s.key_holder[k] = -1
        s.key_touched[k] = 0
    deal_shuffled(s.rng, s.tile_pool, NUM_NORMAL_TILES)
    s.tile_pool_len = NUM_NORMAL_TILES
    s.drawn_tile = -1
    deal_shuffled(s.rng, s.trap_pool, NUM_TRAPS)
    s.trap_pool_len = NUM_TRAPS
    deal_shuffled(s.rng, s.guard_deck, NUM_GUARD_CARDS)
    s.guard_pos = 0
    s.guard_node = CENTER_NODE
    s.guard_from = -1
    s.guard_from_turn = -10
    s.guard_asleep = 0
    s.guard_steps = 0
    s.guard_ignore = 0
    s.guard_checks = 0


@njit(cache=True)
def init_resolution(s) -> None:
    """Every field of what is being resolved, so a reused record starts byte-identical."""
    s.ex_active = 0
    s.ex_seat = 0
    s.ex_node = 0
    s.ex_from = 0
    s.ex_mode = 0
    s.ex_ignore_trap = 0
    s.ex_step = 0
    s.ex_phase = 0
    s.ex_bonus = 0
    s.ex_target = -1
    s.ex_declared = 0
    s.ex_join = 0
    s.ex_vs = 0
    s.ck_kind = CK_NONE
    s.ck_seat = 0
    s.ck_att = 0
    s.ck_def = 0
    s.ck_a = 0
    s.ck_b = 0
    s.ck_asked = 0
    s.ck_enc = 0
    s.ck_trap = 0
    s.ck_mode = 0
    s.ck_node = 0
    s.ck_diff = 0
    s.move_dir = 0
    s.events[:, :] = 0
    s.reach[:] = 0
    s.queue[:] = 0
    s.place_ok[:] = 0


@njit(cache=True)
def init(s, seed, options) -> None:
    start_record(s, seed, options)
    n = s.options[OPT_PLAYERS]
    s.num_players = n
    s.max_turns = s.options[OPT_MAX_TURNS]
    s.ask_crystal = s.options[OPT_CRYSTAL]
    init_board(s)
    init_resolution(s)
    for p in range(NUM_SEATS):
        s.seat_start[p] = -1
        s.position[p] = -1
        s.choose_order[p] = -1
        s.life[p] = LIFE if p < n else 0
        s.crystal[p] = 1 if p < n else 0
        s.stun[p] = 0
    s.actions_left = 0
    s.guard_used = 0
    first = kernel_common.roll_for_first(s, n, EV_FIRST_PLAYER)
    s.first_player = first
    s.seat = first
    if n == 2:  # the player who begins chooses second
        s.choose_order[0] = 1 - first
        s.choose_order[1] = first
        s.choose_pos = 0
    elif n == 5:  # a draw names the first to choose; the others follow clockwise
        c = randint(s.rng, n)
        emit(s, EV_CHOOSER, c)
        for i in range(n):
            s.choose_order[i] = (c + i) % n
        s.choose_pos = 0
    else:
        for p in range(n):
            s.seat_start[p] = FIXED_SEATS[n, p]
            s.position[p] = start_node(s, p)
        s.choose_pos = n
        start_turn(s)
    s.decision = D_MAIN
    s.decider = first
    advance(s)


returns = winner_returns


# --- observation ----------------------------------------------------------------------------------------------
NODE_FEATURES = 1 + 3 + 6 + 3 + 1 + NUM_TRAP_TYPES + 1 + NUM_KEYS + 1 + 2 + NUM_SEATS
# the node features both editions share come first (see core.hexboard.observe_corridors)
F_EXISTS, F_KIND, F_TRAP_DOWN, F_TRAP_TYPE = (
    hexboard.F_EXISTS,
    hexboard.F_KIND,
    hexboard.F_TRAP_DOWN,
    hexboard.F_TRAP_TYPE,
)
F_TRAP_FAILED = F_TRAP_TYPE + NUM_TRAP_TYPES
F_KEY = F_TRAP_FAILED + 1
F_KEY_MINE = F_KEY + NUM_KEYS
F_GUARD = F_KEY_MINE + 1  # the Guard, then "asleep"
F_CHAR = F_GUARD + 2
OBS_SEATS = NUM_NODES * NODE_FEATURES
SEAT_FEATURES = 8 + NUM_STARTS
OBS_GLOBAL = OBS_SEATS + NUM_SEATS * SEAT_FEATURES
G_DECISION = 0
G_DECIDER = G_DECISION + NUM_DECISIONS
G_ROUND = G_DECIDER + NUM_SEATS  # actions left, Guard moved
G_DRAWN = G_ROUND + 2
G_PILES = G_DRAWN + NUM_TILES  # board fields, traps, Guard cards left
G_GUARD_CARDS = G_PILES + 3  # Guard cards left by kind
G_CHECK = G_GUARD_CARDS + C.NUM_GUARD_CLASSES  # kind one-hot, then a, b, difficulty, mode one-hot
G_CK_SEATS = G_CHECK + NUM_CHECKS + 3 + 4  # attackers, defender / thrower by relative seat
G_ENCOUNTER = G_CK_SEATS + 2 * NUM_SEATS  # newcomer, target, joined, against the newcomer, declared
G_STARTS = G_ENCOUNTER + 5 * NUM_SEATS  # start fields taken, first player
GLOBAL_FEATURES = G_STARTS + NUM_STARTS + NUM_SEATS
OBS_SIZE = OBS_GLOBAL + GLOBAL_FEATURES


@njit(cache=True)
def rel_bits(out, base: int, mask: int, seat: int, n: int) -> None:
    for p in range(n):
        if (mask >> p) & 1:
            out[base + (p - seat) % n] = 1.0


@njit(cache=True)
def observe_nodes(s, seat: int, out) -> None:
    hexboard.observe_corridors(s, out, NODE_FEATURES, CENTER_CELL, TRAP_TOKENS)
    for node in range(NUM_NODES):
        if s.node_mask[node] != 0 and s.node_trap[node] >= 0 and s.trap_up[node]:
            out[node * NODE_FEATURES + F_TRAP_FAILED] = s.trap_failed[node]
    for k in range(NUM_KEYS):
        node = s.key_node[k]
        if node >= 0:
            out[node * NODE_FEATURES + F_KEY + k] = 1.0
            if pickable_key(s, seat, k):
                out[node * NODE_FEATURES + F_KEY_MINE] = 1.0
    out[s.guard_node * NODE_FEATURES + F_GUARD] = 1.0
    out[s.guard_node * NODE_FEATURES + F_GUARD + 1] = s.guard_asleep


@njit(cache=True)
def observe_seats(s, seat: int, out) -> None:
    n = s.num_players
    for p in range(n):
        rel = (p - seat) % n
        b = OBS_SEATS + rel * SEAT_FEATURES
        kernel_common.observe_character(s, p, out, b, LIFE)
        if s.position[p] >= 0:
            out[s.position[p] * NODE_FEATURES + F_CHAR + rel] = 1.0
            out[b + 6] = 1.0 if at_start(s, p) else 0.0
            out[b + 8 + s.seat_start[p]] = 1.0
        out[b + 7] = 1.0 if s.ex_active and (s.ex_bonus >> p) & 1 else 0.0


@njit(cache=True)
def observe_global(s, seat: int, out) -> None:
    n = s.num_players
    g = OBS_GLOBAL
    if s.outcome == RUNNING:
        out[g + G_DECISION + s.decision] = 1.0
        out[g + G_DECIDER + (s.decider - seat) % n] = 1.0
    out[g + G_ROUND] = s.actions_left / C.ACTIONS_PER_TURN
    out[g + G_ROUND + 1] = s.guard_used
    if s.drawn_tile >= 0:
        out[g + G_DRAWN + s.drawn_tile] = 1.0
    out[g + G_PILES] = s.tile_pool_len / NUM_NORMAL_TILES
    out[g + G_PILES + 1] = s.trap_pool_len / NUM_TRAPS
    out[g + G_PILES + 2] = (NUM_GUARD_CARDS - s.guard_pos) / NUM_GUARD_CARDS
    for i in range(s.guard_pos, NUM_GUARD_CARDS):  # the used cards were shown: the rest is known
        out[g + G_GUARD_CARDS + GUARD_CLASS[s.guard_deck[i]]] += 1.0 / 3.0
    kind = s.ck_kind
    out[g + G_CHECK + kind] = 1.0
    if kind != CK_NONE:
        c = g + G_CHECK + NUM_CHECKS
        out[c] = kernel_common.check_total_feature(s.ck_a)
        if kind == CK_FIGHT:
            out[c + 1] = kernel_common.check_total_feature(s.ck_b)
            rel_bits(out, g + G_CK_SEATS, s.ck_att, seat, n)
            rel_bits(out, g + G_CK_SEATS + NUM_SEATS, 1 << s.ck_def, seat, n)
        else:
            rel_bits(out, g + G_CK_SEATS + NUM_SEATS, 1 << s.ck_seat, seat, n)
        if kind == CK_TRAP:
            out[c + 2] = s.ck_diff / 12.0
            out[c + 3 + s.ck_mode] = 1.0
    if s.ex_active:
        e = g + G_ENCOUNTER
        rel_bits(out, e, 1 << s.ex_seat, seat, n)
        if s.ex_target >= 0:
            rel_bits(out, e + NUM_SEATS, 1 << s.ex_target, seat, n)
        rel_bits(out, e + 2 * NUM_SEATS, s.ex_join, seat, n)
        rel_bits(out, e + 3 * NUM_SEATS, s.ex_vs, seat, n)
        rel_bits(out, e + 4 * NUM_SEATS, s.ex_declared, seat, n)
    for p in range(n):
        if s.seat_start[p] >= 0:
            out[g + G_STARTS + s.seat_start[p]] = 1.0
    out[g + G_STARTS + NUM_STARTS + (s.first_player - seat) % n] = 1.0


@njit(cache=True)
def observe(s, seat: int, out) -> None:
    """What ``seat`` may know, egocentric (relative seat 0 is ``seat``): the board, face-down
    traps only as "a trap is here", pile sizes and the Guard cards not yet used (the used
    ones were shown) but never an order, the drawn field while it is placed, the throw and
    the encounter being resolved."""
    out[:] = 0.0
    observe_nodes(s, seat, out)
    observe_seats(s, seat, out)
    observe_global(s, seat, out)


@njit(cache=True)
def determinize(s, seat: int, seed) -> None:
    """Resample what ``seat`` cannot know: the order of the board-field and trap piles and
    of the Guard cards not yet used, which trap lies under each face-down token (with the
    pile), and the RNG. Each unknown set is sorted before it is shuffled, so the result
    depends only on what ``seat`` knows and ``seed``."""
    rng = kernel_common.private_dice(seed)
    shuffle_unknown(rng, s.tile_pool[: s.tile_pool_len])
    shuffle_unknown(rng, s.guard_deck[s.guard_pos :])
    hexboard.reshuffle_hidden_traps(s, rng)
    kernel_common.reseed(s, rng)


# --- shared with the batched loops of labyrinth_env.core.batch_template ---------------------------


@njit(cache=True)
def shaping_potential(s, seat: int) -> float:
    """Opt-in reward shaping (never the default): 0.5 for holding a key, minus 0.05 per
    step (as the crow flies) to the goal: the nearest key the seat may lift while keyless,
    the central field once holding one. 0 once the game is won; a truncated game keeps its
    position's value (as the 3rd edition's)."""
    allowed = 0
    for k in range(NUM_KEYS):
        if pickable_key(s, seat, k):
            allowed |= 1 << k
    return hexboard.key_race_potential(s, seat, CENTER_CELL, allowed, TRUNCATED)
