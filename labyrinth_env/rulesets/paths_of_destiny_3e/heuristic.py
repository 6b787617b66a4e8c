"""A rule-based Paths of Destiny (3rd edition) player as numba functions over the state.

``heuristic_action(s, mask)`` picks the action of ``s.decider`` for whatever decision is
pending. It never changes ``s`` (placements are tried on a private copy) and can run inside
batched kernel loops.

The plan. The seat's *targets* are the keys it may take (never its own, unless another
character dropped it there) or, once it holds a key, the central space. A shortest-path
search runs over corridor nodes (``corridor_across`` and ``NEIGHBORS``, bridge jumps
included) and over the empty cells, which count as wildcards a future tile may open on
any side, as the kernel's own connectivity check does (with few tiles left, an empty cell
next to the board counts only if a tile still in the pool may legally go there: the set of
tiles left is public, only their order is not). Step costs (``COST_*``): a move
costs 1, a trap on the corridor adds its expected harm (the type only once it is face up),
the Golem's corridor adds a lot, an empty cell costs a build and a move, a bridge jump costs
the two actions of a safe jump. Then, for the activity:

1. stunned: rest; on the starting space: move the Golem off the key space if it blocks it,
   else step onto the key space; low on Life with a Healing Potion: drink it;
2. on the central space with a key and others there: attack one (the winner pushes the
   loser out, and then it is alone); without a key: attack a key carrier on the corridor
   when the fight is not hopeless;
3. standing on a key it could not pick up (it arrived stunned or was placed): step off so
   as to come back;
4. follow the cheapest path: a bridge jump first if it is the next step (safely, with both
   actions; one action short, wait for the next turn; never risky); if the Golem stands a
   few built steps ahead on the path, move the Golem (once per turn); else move along the
   path, never into the Golem's corridor; if the next step is an empty cell (or the Golem
   is in the way), build;
5. otherwise, with a whole turn unused and the Crystal of Fate spent, activate it; else end
   the turn.

Characters (``ability_action``, before attacking): the Shapeshifter changes at once into the
free character highest in ``CHARACTER_PREFERENCE`` (the draft picks by the same list); a
token owner without a key lays a token on a corridor next to the central space or on its own
key space while its key lies there; the Architect removes the first removable tile on a
rival key carrier's cheapest way to the central space. The combat bonuses (Swordmaster,
Golem Mistress, Living Armor) count in the combat odds; the War Sister uses Fury when +2
wins the combat, or ties it with Life to spare; tokens are resolved in any order.

A drawn tile goes where it brings the seat's cheapest path to a target lowest. Ties (between
placements, nearest targets, first steps) are broken in an order drawn afresh each turn
(``hexsearch.tie_salt``), laid in the deciding seat's own turn of the board
(``hexsearch.tie_frame``), never by the lowest index, which favoured some starting spaces.
The Golem steps away from the seat's path and never onto the seat,
preferably onto an opponent (a key carrier first). Free attacks: attack key carriers and
central-space occupants when the odds allow, decline hopeless ones. The Crystal of Fate
rerolls a failed jump, a failed trap check whose harm is serious (or whose failure takes
the Crystal anyway), a Golem check when the reroll has a fair chance, a lost combat when
the stakes are high and the odds fair. Keys are always picked up, items when a slot is free
(or when an exchange is clearly better).

Hidden information is never read: a face-down trap counts by its presence only (the mean
harm over the whole trap set), pool and deck orders and the RNG are never looked at; the
drawn tile is shown to every seat while it is placed; a face-down tile of the Illusionist
is read only once it is being revealed (face up). The Illusionist lays a face-down tile on
the empty cell a rival (a key carrier first) is about to build or cross; paths count a
face-down tile as a cell still to fill, entered by a Move; the revealed tile is turned for
the decider's good if it enters, against the rival who enters, for the decider's own way
when the Golem enters. Events and traps are never started
by the heuristic (their outcome is a gamble); when an event asks for a target, it picks
the opponent that leads.
"""

from __future__ import annotations

import numpy as np

from labyrinth_env.core import hexsearch
from labyrinth_env.core.corridors import corridor_across
from labyrinth_env.core.hexsearch import HOP_BUILD, INF, PMF_2D6
from labyrinth_env.core.hexsearch import HOP_LEVEL as HOP_JUMP
from labyrinth_env.core.jit import njit
from labyrinth_env.rulesets.paths_of_destiny_3e import components as C
from labyrinth_env.rulesets.paths_of_destiny_3e import kernel as K

STATE_DTYPE = K.STATE_DTYPE
MC = K.MC
NUM_NODES = K.NUM_NODES
NUM_BOARD = K.NUM_BOARD
NEIGHBORS = K.NEIGHBORS

# --- step costs of the path search ---------------------------------------------------------------
COST_MOVE = 1
COST_WILD = 3  # enter an empty cell: a build (that may not fit) and a move
COST_JUMP = 2  # a safe jump takes both actions of a turn
REFINE_POOL = 8  # with this few tiles left, check which empty cells a tile can still fill
COST_GOLEM = 25  # the Golem Check fails 35 times in 36: back to the starting space
GOLEM_LOOKAHEAD = 3  # move the Golem when it stands this close ahead on the path
ILLUSION_REACH = 3  # the Illusionist lays a face-down tile this few steps ahead of a rival


def _at_least(target: float) -> float:
    return float(sum(PMF_2D6[t] for t in range(2, 13) if t >= target))


def _trap_harm() -> np.ndarray:
    """Expected harm of walking into each trap type, in "actions lost" (a Life ~ 2, a stun
    token 1, going back to start 12, the Crystal 1)."""
    harm = np.zeros(C.NUM_TRAP_TYPES, dtype=np.float64)
    for t in range(C.NUM_TRAP_TYPES):
        rolls, diff = int(C.TRAP_ROLLS[t]), int(C.TRAP_DIFFICULTY[t])
        effect, param = int(C.TRAP_EFFECT[t]), int(C.TRAP_PARAM[t])
        fail = 1.0 - _at_least(diff)
        fails = rolls * fail
        any_fail = 1.0 - (1.0 - fail) ** rolls
        if effect == C.TRAP_LOSE_LIFE:
            harm[t] = fails * param * 2.0
        elif effect == C.TRAP_TAKE_STUN:
            harm[t] = fails * param
        elif effect == C.TRAP_LIFE_OR_STUN:
            harm[t] = fails * 1.0
        elif effect == C.TRAP_BACK_TO_START:
            harm[t] = any_fail * 12.0
        elif effect == C.TRAP_CRYSTAL_INACTIVE:
            harm[t] = any_fail * 1.0
        elif effect == C.TRAP_THROWN_BACK:
            harm[t] = any_fail * 2.0  # the step is lost, and the corridor behind explored again
        else:
            harm[t] = fails * (param * 2.0 + 1.0)
    return harm


TRAP_HARM = _trap_harm()
# a revealed trap costs its own harm; a face-down one the mean over the whole trap set
# (public: the box contents), never the type under the token
TRAP_COST = np.rint(TRAP_HARM).astype(np.int64)
TRAP_COST_HIDDEN = round(float((TRAP_HARM[C.TRAP_TOKENS.astype(np.int64)]).mean()))
TRAP_TOKENS = K.TRAP_TOKENS
TRAP_ROLLS = K.TRAP_ROLLS
TRAP_DIFFICULTY = K.TRAP_DIFFICULTY
TRAP_EFFECT = K.TRAP_EFFECT
TRAP_PARAM = K.TRAP_PARAM


def _item_values() -> np.ndarray:
    v = np.zeros(C.NUM_ITEMS, dtype=np.int64)
    for i in range(C.NUM_ITEMS):
        special = int(C.ITEM_SPECIAL[i])
        if special == C.SPECIAL_HEART or special == C.SPECIAL_SCEPTER:
            v[i] = 4
        elif special == C.SPECIAL_POTION:
            v[i] = 3
        elif special == C.SPECIAL_TOOLS:
            v[i] = 2
        elif special == C.SPECIAL_SALTS:
            v[i] = 1
        else:
            v[i] = (
                2 * int(C.ITEM_TRAP_BONUS[i])
                + int(C.ITEM_ATTACK_BONUS[i])
                + int(C.ITEM_DEFEND_BONUS[i])
                + int(C.ITEM_JUMP_BONUS[i])
                + int(C.ITEM_GOLEM_BONUS[i])
            )
    return v


ITEM_VALUE = _item_values()
ITEM_ATTACK = K.ITEM_ATTACK
ITEM_DEFEND = K.ITEM_DEFEND
ITEM_JUMP = K.ITEM_JUMP
ITEM_TRAP = K.ITEM_TRAP
ITEM_GOLEM = K.ITEM_GOLEM
EVENT_ONCE = K.EVENT_ONCE


# --- probabilities ----------------------------------------------------------------------------------
@njit(cache=True)
def p_at_least(target: int) -> float:
    """P(2d6 >= target)."""
    p = 0.0
    for t in range(2, 13):
        if t >= target:
            p += PMF_2D6[t]
    return p


@njit(cache=True)
def p_beats(diff: int) -> float:
    """P(2d6 + diff beats 2d6) in a combat where ties are rerolled."""
    win = 0.0
    lose = 0.0
    for a in range(2, 13):
        for b in range(2, 13):
            pa = PMF_2D6[a] * PMF_2D6[b]
            if a + diff > b:
                win += pa
            elif a + diff < b:
                lose += pa
    return win / (win + lose)


@njit(cache=True)
def attack_bonus(s, seat: int) -> int:
    return K.item_sum(s, seat, ITEM_ATTACK) + K.event_mod(s, C.LONG_COMBAT_MOD) + K.combat_bonus(s, seat)


@njit(cache=True)
def defend_bonus(s, seat: int) -> int:
    return K.item_sum(s, seat, ITEM_DEFEND) + K.combat_bonus(s, seat)


@njit(cache=True)
def p_attack_wins(s, attacker: int, defender: int) -> float:
    """The attacker's chance in a fresh combat (a stunned defender loses without rolling)."""
    if s.stun[defender] > 0:
        return 1.0
    return p_beats(attack_bonus(s, attacker) - defend_bonus(s, defender))


# --- the path search ----------------------------------------------------------------------------------
@njit(cache=True)
def enter_cost(s, v: int) -> int:
    c = COST_MOVE
    t = s.node_trap[v]
    if t >= 0:
        if s.trap_up[v]:
            c += TRAP_COST[TRAP_TOKENS[t]]
        else:
            c += TRAP_COST_HIDDEN
    if s.golem_node == v:
        c += COST_GOLEM
    return c


@njit(cache=True)
def shortest_paths(s, src: int, fill, dist, first, pred, queue, inq) -> None:
    """Cheapest costs from ``src`` over corridor nodes, bridge jumps and the empty cells
    marked in ``fill`` (see ``fill_wild`` and ``core.hexsearch``): a safe jump takes both
    actions of a turn; leaving a corridor costs nothing extra."""
    enter = np.empty(NUM_NODES, dtype=np.int64)
    for v in range(NUM_NODES):
        enter[v] = enter_cost(s, v)
    leave = np.zeros(NUM_NODES, dtype=np.int64)
    hexsearch.cheapest_paths(
        s, src, fill, enter, leave, COST_JUMP - COST_MOVE, COST_WILD, dist, first, pred, queue, inq
    )


@njit(cache=True)
def wants_key(s, seat: int, k: int) -> bool:
    """A key lying on the board that ``seat`` may take."""
    node = s.key_node[k]
    return node >= 0 and K.pickable_key(s, seat, k, node)


@njit(cache=True)
def fill_targets(s, seat: int, targets) -> int:
    """The nodes the seat heads for: the central space with a key; else the keys it may
    take; else the characters that carry keys; else the central space."""
    if K.keys_held(s, seat) > 0:
        targets[0] = K.center_node(s)
        return 1
    n = 0
    for k in range(K.NUM_KEYS):
        if wants_key(s, seat, k):
            targets[n] = s.key_node[k]
            n += 1
    if n > 0:
        return n
    for p in range(s.num_players):
        if p != seat and K.keys_held(s, p) > 0 and s.position[p] < K.START_CELL * MC:
            targets[n] = s.position[p]
            n += 1
    if n > 0:
        return n
    targets[0] = K.center_node(s)
    return 1


@njit(cache=True)
def new_scratch():
    return hexsearch.new_scratch(K.NUM_KEYS + K.NUM_SEATS)


@njit(cache=True)
def remaining_tiles(s, out) -> int:
    """The normal tiles still in the pool, in tile order (a public set: every other tile
    lies face up on the board or is being placed; the pool's order stays unknown)."""
    seen = np.zeros(K.NUM_NORMAL_TILES, dtype=np.uint8)
    for cell in range(NUM_BOARD):
        t = s.cell_tile[cell]
        if s.cell_built[cell] and 0 <= t < K.NUM_NORMAL_TILES:
            seen[t] = 1
    if s.drawn_tile >= 0:
        seen[s.drawn_tile] = 1
    n = 0
    for t in range(K.NUM_NORMAL_TILES):
        if not seen[t]:
            out[n] = t
            n += 1
    return n


@njit(cache=True)
def fill_wild(s, fill, refine: bool) -> None:
    """Mark the empty cells a path may cross as wildcards: none when nothing can be built;
    else every empty board cell, except (``refine``, with few tiles left) the cells next to
    the board where no tile left in the pool has a legal placement."""
    fill[:] = 0
    if not K.any_buildable(s):
        return
    for cell in range(NUM_BOARD):
        if not s.cell_built[cell]:
            fill[cell] = 1
    if not refine or s.tile_pool_len > REFINE_POOL:
        return
    tiles = np.empty(K.NUM_NORMAL_TILES, dtype=np.int64)
    n = remaining_tiles(s, tiles)
    ok = np.zeros(NUM_BOARD, dtype=np.uint8)
    work = np.empty(1, dtype=STATE_DTYPE)
    work[0] = s
    for i in range(n):
        K.compute_placements(work[0], tiles[i])
        for cell in range(NUM_BOARD):
            for r in range(6):
                if work[0].place_ok[cell * 6 + r]:
                    ok[cell] = 1
    for cell in range(NUM_BOARD):
        if K.buildable_cell(s, cell) and not ok[cell]:
            fill[cell] = 0


@njit(cache=True)
def plan_cost(s, seat: int, dist, first, pred, queue, inq, targets, fill) -> int:
    """The seat's cheapest cost to any of its targets (``INF`` if cut off)."""
    fill_wild(s, fill, False)
    shortest_paths(s, s.position[seat], fill, dist, first, pred, queue, inq)
    nt = fill_targets(s, seat, targets)
    t = hexsearch.best_target(s, dist, targets, nt)
    return INF if t < 0 else dist[t]


@njit(cache=True)
def golem_ahead(s, target: int, src: int, pred) -> bool:
    """Whether the Golem stands on the built part of the path to ``target`` within
    ``GOLEM_LOOKAHEAD`` steps (past an empty cell the Golem will have moved anyway)."""
    return hexsearch.stands_ahead(s.golem_node, target, src, pred, GOLEM_LOOKAHEAD)


# --- decisions ------------------------------------------------------------------------------------------
@njit(cache=True)
def on_centre_with_others(s, seat: int) -> bool:
    c = K.center_node(s)
    return s.position[seat] == c and K.occupants(s, c, seat) != 0


@njit(cache=True)
def attack_value(s, me: int, target: int, free: bool) -> float:
    """How much ``me`` wants to attack ``target`` now (<= 0: not at all)."""
    p = p_attack_wins(s, me, target)
    have_key = K.keys_held(s, me) > 0
    risky_for_me = s.life[me] <= 1 and (have_key or s.items[me, 0] >= 0)
    if have_key and on_centre_with_others(s, me):
        return 1.0 + p  # the only way to be alone on the central space
    if K.keys_held(s, target) > 0 and not have_key:
        need = 0.6 if risky_for_me else 0.35
        return p if p >= need else 0.0
    if free and p >= 0.6 and not risky_for_me:
        return p - 0.5  # cheap Life off a rival (a free attack costs no action)
    return 0.0


@njit(cache=True)
def choose_attack(s, mask, me: int, base: int, free: bool) -> int:
    """The best attack action among ``base + off - 1`` (off 1..n-1), or -1."""
    n = s.num_players
    best, best_v = -1, 0.0
    for off in range(1, n):
        a = base + off - 1
        if not mask[a]:
            continue
        v = attack_value(s, me, (me + off) % n, free)
        if v > best_v:
            best, best_v = a, v
    return best


@njit(cache=True)
def step_off_move(s, mask, me: int) -> int:
    """The legal move onto the cheapest neighbouring corridor (not the Golem's), or -1."""
    best, best_c = -1, INF
    for d in hexsearch.tie_order(s):  # ties: the turn's order
        a = K.A_MOVE + d
        if not mask[a]:
            continue
        v = K.move_target(s, me, d)
        if v < 0 or v == s.golem_node or v >= K.START_CELL * MC:
            continue
        c = enter_cost(s, v)
        if c < best_c:
            best, best_c = a, c
    return best


@njit(cache=True)
def standing_on_wanted_key(s, me: int) -> bool:
    node = s.position[me]
    if K.keys_held(s, me) > 0:
        return False
    for k in range(K.NUM_KEYS):
        if s.key_node[k] == node and K.pickable_key(s, me, k, node):
            return True
    return False


# --- the characters' abilities ------------------------------------------------------------------
# The order in which the draft and the Shapeshifter's change pick characters: the combat
# characters first (combat decides who keeps the keys), then the tokens that hurt.
CHARACTER_PREFERENCE = np.array(
    [
        C.SWORDMASTER,
        C.WAR_SISTER,
        C.THIEF,
        C.GOLEM_MISTRESS,
        C.ARMOURER,
        C.WARLOCK,
        C.WITCH,
        C.STORMCALLER,
        C.ARCH_PRIESTESS,
        C.SORCERER,
        C.ARCHITECT,
        C.PALADIN,
        C.WARDEN,
        C.SHAPESHIFTER,
        C.ILLUSIONIST,
    ],
    dtype=np.int64,
)


@njit(cache=True)
def preferred_character(mask, base: int) -> int:
    for c in CHARACTER_PREFERENCE:
        if mask[base + c]:
            return base + c
    return -1


@njit(cache=True)
def token_spot(s, me: int) -> bool:
    """A corridor others must pass: next to the central space, or a key space whose key
    still lies there (its keyholders-to-be come for it)."""
    node = s.position[me]
    cell = node // MC
    for d in range(6):
        if K.NEIGHBORS[cell, d] == s.center_cell:
            return True
    for k in range(K.NUM_KEYS):
        if s.key_node[k] == node and k != s.seat_start[me]:
            return False  # another's key lies here: take it, do not linger
        if s.key_node[k] == node:
            return True
    return False


@njit(cache=True)
def rebuild_cut(s, mask, me: int) -> int:
    """The Architect's Rebuild: remove the tile a rival key carrier must cross next on its
    way to the central space (the first removable tile of its cheapest path), or -1."""
    dist, first, pred, queue, inq, _targets, fill = new_scratch()
    fill_wild(s, fill, False)
    centre = K.center_node(s)
    for p in range(s.num_players):
        if p == me or K.keys_held(s, p) == 0 or s.position[p] >= K.START_CELL * MC:
            continue
        src = s.position[p]
        shortest_paths(s, src, fill, dist, first, pred, queue, inq)
        path = np.empty(hexsearch.NUM_GRAPH, dtype=np.int64)
        n = 0
        v = centre
        while v >= 0 and v != src and n < hexsearch.NUM_GRAPH:
            path[n] = v
            n += 1
            v = pred[v]
        if v != src:
            continue  # no way to the centre at all
        for i in range(n - 1, -1, -1):  # from the carrier's first step on
            u = path[i]
            if u < NUM_NODES and u // MC < NUM_BOARD and mask[K.A_REBUILD + u // MC]:
                return K.A_REBUILD + u // MC
    return -1


@njit(cache=True)
def ability_action(s, mask, me: int) -> int:
    """Each character's main ability when it is worth an action: the Shapeshifter changes
    into the best free character; token owners lay a token where others must pass; the
    Architect cuts a rival key carrier's way. The combat abilities act through the combat
    odds (``attack_bonus``), Fury when it is offered."""
    a = preferred_character(mask, K.A_SHAPESHIFT)
    if a >= 0:
        return a
    if mask[K.A_LAY_TOKEN] and token_spot(s, me) and K.keys_held(s, me) == 0:
        return K.A_LAY_TOKEN
    if s.character[me] == C.ARCHITECT and mask[K.A_REBUILD : K.A_MOVE_TILE].any():
        return rebuild_cut(s, mask, me)
    # once a turn, as its first action, while she carries no key herself
    first = s.actions_left == C.ACTIONS_PER_TURN and K.keys_held(s, me) == 0
    if s.character[me] == C.ILLUSIONIST and first and mask[K.A_FACE_DOWN : K.A_ORIENT].any():
        return illusion_cut(s, mask, me)
    return -1


@njit(cache=True)
def illusion_cut(s, mask, me: int) -> int:
    """The Illusionist's face-down tile on the empty cell a rival key carrier must build or
    cross within its next few steps on its way to the central space: it then meets a closed
    space, and entering it lets her turn it against him (``orient_action``). -1 if none is
    near. (Against every rival, not only key carriers, she spent her actions hindering
    players who were not winning: 0.3x her fair share with 5-6 players.)"""
    dist, first, pred, queue, inq, targets, fill = new_scratch()
    fill_wild(s, fill, False)
    for _ in range(1):
        for p in range(s.num_players):
            if p == me or K.keys_held(s, p) == 0 or s.position[p] >= K.START_CELL * MC:
                continue
            src = s.position[p]
            shortest_paths(s, src, fill, dist, first, pred, queue, inq)
            t = hexsearch.best_target(s, dist, targets, fill_targets(s, p, targets))
            n = 0
            v = t
            path = np.empty(hexsearch.NUM_GRAPH, dtype=np.int64)
            while v >= 0 and v != src and n < hexsearch.NUM_GRAPH:
                path[n] = v
                n += 1
                v = pred[v]
            for i in range(n - 1, max(n - 1 - ILLUSION_REACH, -1), -1):
                u = path[i]
                if u >= NUM_NODES and mask[K.A_FACE_DOWN + u - NUM_NODES]:
                    return K.A_FACE_DOWN + u - NUM_NODES
    return -1


@njit(cache=True)
def opened(s):
    """A copy of ``s`` in which the face-down tiles are empty cells: a path may cross one
    as it would a cell still to build (its face is unknown; entering it is a Move)."""
    work = np.empty(1, dtype=STATE_DTYPE)
    work[0] = s
    for cell in range(NUM_BOARD):
        if s.fd_owner[cell] >= 0:
            work[0].cell_built[cell] = 0
    return work


@njit(cache=True)
def orient_action(s, mask) -> int:
    """The revealed tile turned so that the character entering it is best off if it is the
    decider, worst off if it is a rival; turned for the decider's own way when the Golem
    enters it."""
    me = s.decider
    entrant = s.rv_seat
    cell = s.rv_cell
    tile = s.fd_tile[cell]  # face up now: public
    who = entrant if entrant >= 0 else me
    sign = -1 if entrant >= 0 and entrant != me else 1
    dist, first, pred, queue, inq, targets, fill = new_scratch()
    work = np.empty(1, dtype=STATE_DTYPE)
    work[0] = s
    w = work[0]
    best, best_v = -1, -INF
    for r in range(6):
        a = K.A_ORIENT + r
        if not mask[a]:
            continue
        K.set_tile(w, cell, tile, r)
        src = s.position[who]
        if entrant >= 0:  # where it will stand: the corridor it enters
            src = corridor_across(w.node_mask, NEIGHBORS, src // MC, (s.rv_edge + 3) % 6, MC)
        fill_wild(w, fill, False)
        shortest_paths(w, src, fill, dist, first, pred, queue, inq)
        tt = hexsearch.best_target(w, dist, targets, fill_targets(w, who, targets))
        cost = INF if tt < 0 else dist[tt]
        K.clear_cell(w, cell)
        w.cell_built[cell] = 1
        value = -sign * cost
        if value > best_v:
            best, best_v = a, value
    if best < 0 or work.shape[0] == 0:
        best = hexsearch.first_legal(mask, K.A_ORIENT, K.A_ORIENT + 6)
    return best


@njit(cache=True)
def fury_action(s) -> int:
    """Fury when +2 wins the combat outright, or ties it with Life to spare."""
    me = s.decider
    mine = s.ck_a if s.ck_seat == me else s.ck_b
    theirs = s.ck_b if s.ck_seat == me else s.ck_a
    if mine + C.FURY_BONUS > theirs or (mine + C.FURY_BONUS == theirs and s.life[me] >= 3):
        return K.A_FURY
    return K.A_NO_FURY


@njit(cache=True)
def main_action(s, mask) -> int:
    me = s.seat
    if mask[K.A_REST]:
        return K.A_REST  # stunned: nothing else is allowed
    if K.at_start(s, me):
        if mask[K.A_MOVE_GOLEM]:
            return K.A_MOVE_GOLEM  # the Golem blocks the key space
        a = hexsearch.first_legal(mask, K.A_MOVE, K.A_MOVE + 6)
        return a if a >= 0 else K.A_END_TURN
    if mask[K.A_PICK_UP]:
        return K.A_PICK_UP  # free: what it let lie this turn is not offered again
    if mask[K.A_USE_POTION] and s.life[me] <= 2 and K.max_life(s) > s.life[me]:
        return K.A_USE_POTION
    a = ability_action(s, mask, me)
    if a >= 0:
        return a
    a = choose_attack(s, mask, me, K.A_ATTACK, False)
    if a >= 0:
        return a
    if standing_on_wanted_key(s, me):
        a = step_off_move(s, mask, me)
        if a >= 0:
            return a
    a = way_action(s, mask, me)
    if a >= 0:
        return a
    if s.actions_left >= 2 and mask[K.A_ACTIVATE_CRYSTAL]:
        return K.A_ACTIVATE_CRYSTAL
    return K.A_END_TURN


@njit(cache=True)
def way_action(s, mask, me: int) -> int:
    """The action that takes the seat along its cheapest way to its target (face-down tiles
    opened, ``opened``, and counted as open ground): the step, the jump, moving the Golem
    off the way, or a build; -1 when the way asks for none of them now."""
    dist, first, pred, queue, inq, targets, fill = new_scratch()
    src = s.position[me]
    work = opened(s)
    fill_wild(work[0], fill, True)
    for cell in range(NUM_BOARD):
        if s.fd_owner[cell] >= 0:
            fill[cell] = 1
    shortest_paths(work[0], src, fill, dist, first, pred, queue, inq)
    nt = fill_targets(s, me, targets)
    t = hexsearch.best_target(s, dist, targets, nt)
    if work.shape[0] == 0:
        return K.A_END_TURN  # (``work`` mentioned last: alive until here)
    if t >= 0 and t != src:
        hop = first[t]
        if hop >= HOP_BUILD and K.face_down_ahead(s, src, hop - HOP_BUILD) >= 0 and mask[K.A_MOVE + hop - HOP_BUILD]:
            return K.A_MOVE + hop - HOP_BUILD  # into a face-down tile: it is revealed
        if hop == HOP_JUMP and mask[K.A_SAFE_JUMP]:
            return K.A_SAFE_JUMP  # both actions now; the Golem can wait for the next turn
        if mask[K.A_MOVE_GOLEM] and golem_ahead(s, t, src, pred):
            return K.A_MOVE_GOLEM
        if 0 <= hop < 6 and mask[K.A_MOVE + hop] and K.move_target(s, me, hop) != s.golem_node:
            return K.A_MOVE + hop
        # the next step is an empty cell, or it cannot be taken now (the Golem is there):
        # build. One action short of a safe jump, wait for the next turn instead.
        if mask[K.A_BUILD] and hop != HOP_JUMP and fill.any():
            return K.A_BUILD
    elif t < 0 and mask[K.A_BUILD] and fill.any():
        return K.A_BUILD  # cut off: only new tiles can open a way
    return -1


@njit(cache=True)
def place_action(s, mask) -> int:
    """The placement of the drawn tile that brings the seat's cheapest path lowest."""
    me = s.seat
    tile = s.drawn_tile
    dist, first, pred, queue, inq, targets, fill = new_scratch()
    work = np.empty(1, dtype=STATE_DTYPE)
    work[0] = s
    # A record taken from an array does not keep the array alive in numba: ``work`` must
    # stay in use until the last use of ``w`` (see the end), or ``w`` dangles once numba
    # frees ``work`` after its last mention.
    w = work[0]
    w.drawn_tile = -1
    salt, frame = hexsearch.tie_salt(s.turn), hexsearch.tie_frame(s)
    best, best_cost = -1, INF * hexsearch.TIE_SPAN
    for i in range(NUM_BOARD * 6):
        a = K.A_PLACE + i
        if not mask[a]:
            continue
        cell = i // 6
        rot = i % 6
        K.set_tile(w, cell, tile, rot)
        for k in range(MC):  # a trap icon brings a (face-down) trap
            if K.TILE_ICON[tile, k] == C.ICON_TRAP and s.trap_pool_len > 0:
                w.node_trap[cell * MC + k] = 0
        cost = plan_cost(w, me, dist, first, pred, queue, inq, targets, fill)
        for k in range(MC):
            w.node_trap[cell * MC + k] = -1
        K.clear_cell(w, cell)
        cost = hexsearch.ranked(cost, salt, hexsearch.tie_place(frame, cell, rot))  # ties: ``tie_frame``
        if cost < best_cost:
            best, best_cost = a, cost
    if best < 0 or work.shape[0] == 0:  # (``work`` mentioned last: alive until here)
        best = hexsearch.first_legal(mask, K.A_PLACE, K.A_GOLEM_DIR)
    return best


@njit(cache=True)
def golem_dir_action(s, mask) -> int:
    """Step the Golem away from the seat's path, never onto the seat, preferably onto a rival."""
    me = s.seat
    dist, first, pred, queue, inq, targets, fill = new_scratch()
    src = s.position[me]
    fill_wild(s, fill, False)
    shortest_paths(s, src, fill, dist, first, pred, queue, inq)
    nt = fill_targets(s, me, targets)
    on_path = hexsearch.path_marks(pred, hexsearch.best_target(s, dist, targets, nt))
    cell = s.golem_node // MC
    best, best_v = -1, -1e9
    for d in hexsearch.tie_order(s):  # ties: the turn's order
        a = K.A_GOLEM_DIR + d
        if not mask[a]:
            continue
        node = corridor_across(s.node_mask, NEIGHBORS, cell, d, MC)
        if node < 0:  # into a face-down tile: unknown, neither good nor bad
            value = 0.0
        else:
            value = hexsearch.step_away_value(s, me, node, on_path, dist, GOLEM_LOOKAHEAD, 30, 0.1)
        if value > best_v:
            best, best_v = a, value
    return best


@njit(cache=True)
def trap_reroll_worth(s, me: int) -> bool:
    t = s.ck_b
    fails = s.ck_a
    effect = TRAP_EFFECT[t]
    if effect == C.TRAP_CRYSTAL_INACTIVE:
        return True  # the failure takes the Crystal anyway: the reroll is free
    bonus = K.item_sum(s, me, ITEM_TRAP) + K.event_mod(s, C.LONG_TRAP_MOD)
    q = p_at_least(TRAP_DIFFICULTY[t] - bonus)
    rolls = TRAP_ROLLS[t]
    if effect == C.TRAP_BACK_TO_START:
        return q**rolls >= 0.3
    per_fail = 1.0
    life_per_fail = 0
    if effect == C.TRAP_LOSE_LIFE:
        per_fail = 2.0 * TRAP_PARAM[t]
        life_per_fail = TRAP_PARAM[t]
    elif effect == C.TRAP_TAKE_STUN:
        per_fail = 1.0 * TRAP_PARAM[t]
    elif effect == C.TRAP_LOSE_LIFE_AND_STUN:
        per_fail = 2.0 * TRAP_PARAM[t] + 1.0
        life_per_fail = TRAP_PARAM[t]
    now = fails * per_fail
    expected = rolls * (1.0 - q) * per_fail
    if life_per_fail * fails >= s.life[me]:
        return expected < now  # it would die
    return now >= 2.0 and expected <= now - 1.5


@njit(cache=True)
def reroll_action(s) -> int:
    me = s.decider
    kind = s.ck_kind
    if kind == K.CK_JUMP:
        return K.A_REROLL  # a failed jump: 2 Life and a stun token
    if kind == K.CK_GOLEM:
        bonus = K.item_sum(s, me, ITEM_GOLEM) + K.event_mod(s, C.LONG_GOLEM_MOD) + K.golem_bonus(s, me)
        p = p_at_least(C.GOLEM_DIFFICULTY - bonus)
        return K.A_REROLL if p >= 0.15 else K.A_KEEP
    if kind == K.CK_TRAP:
        return K.A_REROLL if trap_reroll_worth(s, me) else K.A_KEEP
    if kind == K.CK_COMBAT:
        attacking = s.ck_seat == me
        opp = s.ck_opp if attacking else s.ck_seat
        their = s.ck_b if attacking else s.ck_a
        bonus = attack_bonus(s, me) if attacking else defend_bonus(s, me)
        fresh = p_attack_wins(s, me, opp) if attacking else 1.0 - p_attack_wins(s, opp, me)
        p = 0.0
        for r in range(2, 13):
            if r + bonus > their:
                p += PMF_2D6[r]
            elif r + bonus == their:
                p += PMF_2D6[r] * fresh
        node = s.position[me]
        stakes = (
            (s.life[me] <= 1 and (K.keys_held(s, me) > 0 or s.items[me, 0] >= 0))
            or node == K.center_node(s)
            or K.keys_held(s, opp) > 0
            or K.keys_held(s, me) > 0
        )
        return K.A_REROLL if stakes and p >= 0.4 else K.A_KEEP
    return K.A_KEEP


@njit(cache=True)
def pickup_action(s, mask) -> int:
    me = s.decider
    a = hexsearch.first_legal(mask, K.A_PICK_KEY, K.A_PICK_KEY + K.NUM_KEYS)
    if a >= 0:
        return a
    best, best_v = -1, 0
    for i in range(K.NUM_ITEMS):
        if mask[K.A_PICK_ITEM + i] and ITEM_VALUE[i] + 1 > best_v:
            best, best_v = K.A_PICK_ITEM + i, ITEM_VALUE[i] + 1
    if best >= 0:
        return best
    # an exchange when the new item is clearly better than the one it replaces
    best_gain = 1
    for i in range(K.NUM_ITEMS):
        for j in range(2):
            a = K.A_EXCHANGE + 2 * i + j
            if not mask[a]:
                continue
            old = s.items[me, j]
            if old < 0:
                continue
            gain = ITEM_VALUE[i] - ITEM_VALUE[old]
            if gain > best_gain:
                best, best_gain = a, gain
    if best >= 0:
        return best
    return K.A_PICKUP_DONE


@njit(cache=True)
def event_target_action(s, mask) -> int:
    """A one-time event that hurts a chosen character: the opponent that leads (keys, then
    the active Crystal for Plague, then nearness to its goal by Life)."""
    me = s.decider
    n = s.num_players
    once = EVENT_ONCE[s.current_event] if s.current_event >= 0 else 0
    best, best_v = -1, -1e9
    for off in range(n):
        a = K.A_EVENT_TARGET + off
        if not mask[a]:
            continue
        p = (me + off) % n
        if p == me:
            v = -1000.0
        else:
            v = 100.0 * K.keys_held(s, p) + s.life[p]
            if once == C.ONCE_CHOOSE_CRYSTAL_INACTIVE and s.crystal[p]:
                v += 50.0
            if once == C.ONCE_CHOOSE_TO_START and K.at_start(s, p):
                v -= 200.0
        if v > best_v:
            best, best_v = a, v
    return best


@njit(cache=True)
def push_action(s, mask) -> int:
    """Push the loser where it hurts: onto the Golem, else a trap, else where it is farthest
    from the central space (ties: the turn's order)."""
    cell = s.push_from // MC
    best, best_v = -1, -1e9
    for d in hexsearch.tie_order(s):  # ties: the turn's order
        a = K.A_PUSH_DIR + d
        if not mask[a]:
            continue
        node = corridor_across(s.node_mask, NEIGHBORS, cell, d, MC)
        v = 0.0
        if node == s.golem_node:
            v += 20.0
        t = s.node_trap[node]
        if t >= 0:
            v += TRAP_COST[TRAP_TOKENS[t]] if s.trap_up[node] else TRAP_COST_HIDDEN
        if s.node_pair[node] >= 0:
            v += 0.5  # a bridge: coming back may take a jump
        v -= 0.1 * bin_count(s.node_mask[node])  # fewer ways back
        if v > best_v:
            best, best_v = a, v
    return best


@njit(cache=True)
def bin_count(x: int) -> int:
    c = 0
    while x:
        c += x & 1
        x >>= 1
    return c


@njit(cache=True)
def drop_action(s) -> int:
    me = s.decider
    a, b = s.items[me, 0], s.items[me, 1]
    if a < 0:
        return K.A_DROP_ITEM
    if b < 0:
        return K.A_DROP_ITEM + 1
    return K.A_DROP_ITEM if ITEM_VALUE[a] < ITEM_VALUE[b] else K.A_DROP_ITEM + 1


@njit(cache=True)
def counter_value(s, me: int, entrant: int) -> bool:
    p = p_attack_wins(s, me, entrant)
    have_key = K.keys_held(s, me) > 0
    risky = s.life[me] <= 1 and (have_key or s.items[me, 0] >= 0)
    if K.keys_held(s, entrant) > 0 and not have_key:
        return p >= (0.6 if risky else 0.35)
    if have_key and s.position[me] == K.center_node(s):
        return p >= 0.4  # pushing it out leaves me alone on the central space
    return p >= 0.6 and not risky


@njit(cache=True)
def heuristic_action(s, mask) -> int:
    """The heuristic's action for the pending decision of ``s`` (made by ``s.decider``), or
    -1 once the game is over. ``mask`` (uint8/int8[NUM_ACTIONS]) is overwritten with the
    legal mask; ``s`` is not changed."""
    if s.outcome != K.RUNNING:
        return -1
    K.legal_mask(s, mask)
    dec = s.decision
    me = s.decider
    if dec == K.D_MAIN:
        a = main_action(s, mask)
    elif dec == K.D_PLACE:
        a = place_action(s, mask)
    elif dec == K.D_GOLEM_DIR:
        a = golem_dir_action(s, mask)
    elif dec == K.D_REROLL:
        a = reroll_action(s)
    elif dec == K.D_SCEPTER:
        a = K.A_SCEPTER_YES if s.life[me] >= 2 else K.A_SCEPTER_NO
    elif dec == K.D_LIFE_OR_STUN:
        a = K.A_LOSE_LIFE if s.life[me] >= 3 else K.A_TAKE_STUN
    elif dec == K.D_FREE_ATTACK:
        a = choose_attack(s, mask, me, K.A_FREE_ATTACK, True)
        if a < 0:
            a = K.A_DECLINE
    elif dec == K.D_COUNTER:
        entrant = s.ex_seat[s.depth - 1]
        a = K.A_COUNTER if counter_value(s, me, entrant) else K.A_DECLINE
    elif dec == K.D_PUSH_DIR:
        a = push_action(s, mask)
    elif dec == K.D_PICKUP:
        a = pickup_action(s, mask)
    elif dec == K.D_EVENT_TARGET:
        a = event_target_action(s, mask)
    elif dec == K.D_FURY:
        a = fury_action(s)
    elif dec == K.D_DRAFT:
        a = preferred_character(mask, K.A_DRAFT)
    elif dec == K.D_TOKEN_ORDER:
        a = hexsearch.first_legal(mask, K.A_RESOLVE_TOKEN, K.A_DRAFT)
    elif dec == K.D_ORIENT:
        a = orient_action(s, mask)
    else:
        a = drop_action(s)
    return hexsearch.legal_or_first(a, mask)
