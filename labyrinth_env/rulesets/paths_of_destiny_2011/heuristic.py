"""A rule-based Paths of Destiny (2011 edition) player as numba functions over the state.

``heuristic_action(s, mask)`` picks the action of ``s.decider`` for whatever decision is
pending. It never changes ``s`` (placements are tried on a private copy) and can run inside
batched kernel loops.

The plan. The seat's *targets* are the keys it may lift or, once it holds one, the central
field (with no key lying free, the players carrying keys). A cheapest-path search runs over
corridor nodes (``corridor_across`` over ``NEIGHBORS``, bridge changes included) and over
the empty cells, which count as wildcards a future field may open on any side (as the
kernel's building rule does). Step costs: a move 1; entering a trap's corridor adds its
expected harm (its type only once uncovered; a face-down token the mean over the Table of
Traps); leaving a door trap's corridor adds that trap's expected cost; the awake Guard's
corridor adds a lot (35 in 36 meetings send the player home); an empty cell costs a build
and a move; changing level costs the two actions of coming down or climbing up. Then, in
the main decision:

1. lift every key it may, take every key of a stunned player there (free, stunned too); stunned: rest;
2. a key carrier in the corridor and no key of its own: attack it when the odds are fair;
3. follow the cheapest path: coming down / climbing up with both actions (one short of
   climbing: wait; coming down with one action: jump down only when holding nothing to
   lose and at full life); if the awake Guard stands a few built steps ahead, move the
   Guard (once per round); else move along the path (never into the awake Guard's
   corridor); if the next step is an empty cell, build;
4. otherwise, a whole round unused and the crystal face down: regenerate it; else end.

A drawn field goes where it makes the seat's cheapest path lowest. Ties (between placements,
nearest targets, first steps) are broken in an order drawn afresh each turn
(``hexsearch.tie_salt``), laid in the deciding seat's own turn of the board
(``hexsearch.tie_frame``), never by the lowest index, which favoured some start fields
(issue 33, item 6). The Guard steps away
from the seat's path and never onto the seat, preferably onto a rival carrying a key.
Enslavement: the Mistress of Golems takes the round's Guard card for a rival of her corridor
carrying no key when a rival carrying a key stands next to it, and steps the transformed
player onto a key carrier (he drops a key, l.401), else away from the central field.
Encounters: attack when the odds (2 dice minus lost life, +1 bonuses, groups) are good or
the other carries a key; join a group when the group's odds are good. The crystal repeats
a failed Guard throw when holding a key, a failed jump, a trap throw whose failure hurts,
and a fight not won when a key is at stake.

With characters (``characters`` option): in the draft it takes the first free card of
``DRAFT_ORDER``; its fights count blessings, curses and Domination; before its path it hands
an adrenaline token back when its actions are spent, blesses itself with a key carrier in
its corridor (before the fight), disarms a face-up door trap in its corridor (of two traps,
that one), always tries a theft, crosses two traps in the order they lie. Shot and Curse are not used: shooting or
cursing every key carrier in reach cost the Female Archer and the Witch more actions than
it won (balance report, 4 and 5 players, 300 games: the Witch's share 0.44x / 0.43x of the
fair one with them, 1.03x / 0.81x without). The skills that change a way are judged by the
cheapest paths they change, tried on a copy of the record (``way_skill_action``): the
ways of the other players carrying a key made longer, its own made shorter, by two actions
or more (the skill's own action included). Prayer moves a key carrier of the Monk's
corridor where his way is longest (the Guard or a trap he meets there counted); Dark
Enlivening and Mystification move or swap the traps of its corridor with the one next to
it; the Misfortune Rite sets off a trap under a key carrier next to the Witch when its
expected harm is worth the action (of two traps, the more harmful), and sends its turn-back victim where his way is
longest; Correction turns the field that shortens the Architect's way most when it wins two
actions more than it shortens the others' ways (opening a way for everyone cost him 0.7x of
his share with 4-6 players). Passive
skills (Climbing, Whirling Blades, Domination) play themselves. The Head Hunter turns face up
(Tracking, free) the face-down trap he would meet next; the Architect puts back a drawn field
no placement of which shortens his way (Foundation).

Hidden information is never read: a face-down trap counts by its presence only, pile and
deck orders and the RNG are never looked at; the drawn field is public while it is placed.
Traps are never set and stunned players are never killed (their keys are taken for free).
"""

from __future__ import annotations

import numpy as np

from labyrinth_env.core import hexsearch
from labyrinth_env.core.corridors import corridor_across
from labyrinth_env.core.grid import HEX_CENTER, hex_distance
from labyrinth_env.core.hexsearch import HOP_BUILD, HOP_LEVEL, INF, PMF_2D6
from labyrinth_env.core.jit import njit
from labyrinth_env.rulesets.paths_of_destiny_2011 import components as C
from labyrinth_env.rulesets.paths_of_destiny_2011 import kernel as K
from labyrinth_env.rulesets.paths_of_destiny_2011.kernel.correction import correction_cell
from labyrinth_env.rulesets.paths_of_destiny_2011.kernel.foundation import A_FOUNDATION
from labyrinth_env.rulesets.paths_of_destiny_2011.kernel.rite import A_RITE
from labyrinth_env.rulesets.paths_of_destiny_2011.kernel.skills import (
    across,
    enliven,
    fight_bonus,
    in_reach,
    swap_traps,
    throw_modifier,
)
from labyrinth_env.rulesets.paths_of_destiny_2011.kernel.tracking import A_TRACK_DIR, A_TRACK_HERE

STATE_DTYPE = K.STATE_DTYPE
MC = K.MC
NUM_NODES = K.NUM_NODES
NUM_BOARD = K.NUM_BOARD
NEIGHBORS = K.NEIGHBORS

COST_MOVE = 1
COST_WILD = 3  # an empty cell: a build (that may not fit) and a move
COST_LEVEL = 2  # coming down or climbing up takes a whole round
COST_GUARD = 30  # 35 meetings in 36 send the player home
GUARD_LOOKAHEAD = 3  # move the Guard when it stands this close ahead on the path
# the draft: the first free card of this order (a guess at their strength, before the
# balance report: fight bonuses first, then skills that rob or slow the key carriers)
_DRAFT = ("Sword Master", "Mistress of Golems", "Thief", "Witch", "Female Archer", "Monk", "Assassin")
DRAFT_ORDER = np.array([C.CHARACTERS.index(c) for c in (*_DRAFT, "Illusionist", "Head Hunter", "Architect")])
# each board cell's steps from the central field (Enslavement: where the transformed player is sent)
CENTRE_STEPS = np.array([hex_distance(c, int(HEX_CENTER)) for c in range(NUM_BOARD)], dtype=np.int64)


def _fail(diff: int) -> float:
    return float(sum(PMF_2D6[t] for t in range(2, 13) if t < diff))


def _trap_cost() -> np.ndarray:
    """Expected harm of each trap type and way, in actions (a life ~ 2, a stun point 1,
    turned back or held 1.5)."""
    cost = np.zeros((C.NUM_TRAP_TYPES, C.NUM_MODES), dtype=np.float64)
    for t in range(C.NUM_TRAP_TYPES):
        for m in range(C.NUM_MODES):
            d = int(C.TRAP_DIFFICULTY[t, m])
            if d == 0:
                continue
            harm = 2.0 * C.TRAP_LIFE[t, m] + C.TRAP_STUN[t, m]
            move = int(C.TRAP_MOVE[t, m])
            harm += 1.5 if move != C.MOVE_NONE else 0.0
            cost[t, m] = _fail(d) * harm
    return cost


TRAP_COST = np.rint(_trap_cost() * 2).astype(np.int64)  # in half-actions, rounded
_TOKENS = C.TRAP_TOKENS.astype(np.int64)
TRAP_COST_HIDDEN_ENTER = round(float(TRAP_COST[_TOKENS, C.MODE_ENTER].mean()))
TRAP_COST_HIDDEN_LEAVE = round(float(TRAP_COST[_TOKENS, C.MODE_LEAVE].mean()))
TRAP_TOKENS = K.TRAP_TOKENS
TRAP_DOOR = (C.TRAP_DIFFICULTY[:, C.MODE_LEAVE] > 0).astype(np.int64)  # works on leaving


# --- probabilities ------------------------------------------------------------------------
@njit(cache=True)
def p_fight(att_dice: int, att_mod: int, def_mod: int) -> float:
    """P(attackers' side wins) with ``att_dice`` dice (2 or 3; more count as 3) plus
    ``att_mod`` against 2 dice plus ``def_mod`` (a draw counts as half)."""
    win = 0.0
    for a in range(2, 13):
        for b in range(2, 13):
            pa = PMF_2D6[a] * PMF_2D6[b]
            extra = 3.5 * (att_dice - 2)  # each extra die, by its mean
            x = a + extra + att_mod
            y = b + def_mod
            if x > y:
                win += pa
            elif x == y:
                win += 0.5 * pa
    return win


@njit(cache=True)
def fight_mod(s, p: int) -> int:
    """What a player adds to its throw: minus its lost life, plus a bonus of the encounter."""
    m = s.life[p] - K.LIFE + throw_modifier(s, p) + fight_bonus(s, p)
    if s.ex_active and (s.ex_bonus >> p) & 1:
        m += 1
    return m


@njit(cache=True)
def p_attack(s, me: int, target: int) -> float:
    return p_fight(2, fight_mod(s, me), fight_mod(s, target))


# --- the path search --------------------------------------------------------------------------
@njit(cache=True)
def enter_cost(s, v: int) -> int:
    """A move, the traps there (a corridor may hold two: l.386, l.416), the awake Guard."""
    c = COST_MOVE * 2 + trap_cost(s.node_trap[v], s.trap_up[v], C.MODE_ENTER, TRAP_COST_HIDDEN_ENTER)
    c += trap_cost(s.node_trap2[v], s.trap2_up[v], C.MODE_ENTER, TRAP_COST_HIDDEN_ENTER)
    if s.guard_node == v and not s.guard_asleep:
        c += COST_GUARD * 2
    return c


@njit(cache=True)
def leave_cost(s, u: int) -> int:
    c = trap_cost(s.node_trap[u], s.trap_up[u], C.MODE_LEAVE, TRAP_COST_HIDDEN_LEAVE)
    return c + trap_cost(s.node_trap2[u], s.trap2_up[u], C.MODE_LEAVE, TRAP_COST_HIDDEN_LEAVE)


@njit(cache=True)
def trap_cost(t: int, up: int, mode: int, hidden: int) -> int:
    """One trap token's expected harm (none: 0), a face-down one by its presence only."""
    if t < 0:
        return 0
    return TRAP_COST[TRAP_TOKENS[t], mode] if up else hidden


@njit(cache=True)
def shortest_paths(s, src: int, fill, dist, first, pred, queue, inq) -> None:
    """Cheapest costs from ``src`` in half-actions (see ``core.hexsearch``): a door trap's
    corridor charges for leaving it, changing level takes a whole round."""
    enter = np.empty(NUM_NODES, dtype=np.int64)
    leave = np.empty(NUM_NODES, dtype=np.int64)
    for v in range(NUM_NODES):
        enter[v] = enter_cost(s, v)
        leave[v] = leave_cost(s, v)
    hexsearch.cheapest_paths(
        s, src, fill, enter, leave, COST_LEVEL * 2 - 2, COST_WILD * 2, dist, first, pred, queue, inq
    )


@njit(cache=True)
def fill_targets(s, seat: int, targets) -> int:
    """The central field with a key; else the keys it may lift (not one in its own corridor
    while it is not past the trap or the players there: it goes out and comes back); else
    the key carriers."""
    if K.keys_held(s, seat) > 0:
        targets[0] = K.CENTER_NODE
        return 1
    n = 0
    barred = not (K.past_trap(s, seat) and K.past_players(s, seat))
    for k in range(K.NUM_KEYS):
        if barred and s.key_node[k] == s.position[seat]:
            continue
        if K.pickable_key(s, seat, k):
            targets[n] = s.key_node[k]
            n += 1
    if n > 0:
        return n
    for p in range(s.num_players):
        if p != seat and K.keys_held(s, p) > 0 and not K.at_start(s, p):
            targets[n] = s.position[p]
            n += 1
    if n > 0:
        return n
    targets[0] = K.CENTER_NODE
    return 1


@njit(cache=True)
def fill_wild(s, fill) -> None:
    fill[:] = 0
    if not K.any_buildable(s):
        return
    for cell in range(NUM_BOARD):
        if not s.cell_built[cell]:
            fill[cell] = 1


@njit(cache=True)
def new_scratch():
    return hexsearch.new_scratch(K.NUM_KEYS + K.NUM_SEATS)


@njit(cache=True)
def plan(s, seat: int, dist, first, pred, queue, inq, targets, fill) -> int:
    """Run the search from ``seat``; returns its best target (-1 if cut off)."""
    fill_wild(s, fill)
    shortest_paths(s, s.position[seat], fill, dist, first, pred, queue, inq)
    return hexsearch.best_target(s, dist, targets, fill_targets(s, seat, targets))


@njit(cache=True)
def guard_ahead(s, target: int, src: int, pred) -> bool:
    """The awake Guard on the built part of the path within ``GUARD_LOOKAHEAD`` steps."""
    return not s.guard_asleep and hexsearch.stands_ahead(s.guard_node, target, src, pred, GUARD_LOOKAHEAD)


# --- decisions ------------------------------------------------------------------------------------
@njit(cache=True)
def attack_value(s, me: int, target: int) -> float:
    """How much ``me`` wants to attack ``target`` (<= 0: not at all)."""
    p = p_attack(s, me, target)
    mine = K.keys_held(s, me)
    theirs = K.keys_held(s, target)
    if theirs > 0 and mine == 0:
        return p if p >= 0.4 else 0.0
    if s.life[me] <= 1 and mine > 0:
        return 0.0  # dying would cost the key
    return p - 0.5 if p >= 0.65 else 0.0


@njit(cache=True)
def best_attack(s, mask, me: int, base: int) -> int:
    """The best action ``base + off - 1`` (off 1..n-1) by ``attack_value``, or -1."""
    n = s.num_players
    best, best_v = -1, 0.0
    for off in range(1, n):
        a = base + off - 1
        if mask[a]:
            v = attack_value(s, me, (me + off) % n)
            if v > best_v:
                best, best_v = a, v
    return best


@njit(cache=True)
def path_action(s, mask, me: int) -> int:
    dist, first, pred, queue, inq, targets, fill = new_scratch()
    src = s.position[me]
    t = plan(s, me, dist, first, pred, queue, inq, targets, fill)
    if t < 0 or t == src:
        if t < 0 and mask[K.A_BUILD]:
            return K.A_BUILD  # cut off: only new fields open a way
        return -1
    hop = first[t]
    if hop == HOP_LEVEL:
        if mask[K.A_COME_DOWN]:
            return K.A_COME_DOWN
        if mask[K.A_CLIMB_UP]:
            return K.A_CLIMB_UP
        safe = K.keys_held(s, me) == 0 and s.life[me] == K.LIFE
        if mask[K.A_JUMP_DOWN] and safe:
            return K.A_JUMP_DOWN
        return -1  # wait for a round with both actions
    if mask[K.A_MOVE_GUARD] and guard_ahead(s, t, src, pred):
        return K.A_MOVE_GUARD
    if 0 <= hop < 6 and mask[K.A_MOVE + hop]:
        v = K.move_target(s, me, hop)
        if not (v == s.guard_node and not s.guard_asleep):
            return K.A_MOVE + hop
    if mask[K.A_BUILD] and hop >= HOP_BUILD:
        return K.A_BUILD
    return -1


@njit(cache=True)
def carrier_in_reach(s, me: int, same: bool) -> int:
    """A player holding a key in ``me``'s corridor (``same``) or next to it, or -1."""
    for q in range(s.num_players):
        if q != me and K.keys_held(s, q) > 0 and in_reach(s, me, q, same):
            return q
    return -1


@njit(cache=True)
def skill_action(s, mask, me: int) -> int:
    """A skill worth its action now, or -1 (see the module docstring)."""
    c = s.character[me]
    if c == K.ARCHER:
        if mask[K.A_SKILL] and s.actions_left == 0:
            return K.A_SKILL  # adrenaline: one more action
    elif c == K.MONK:
        ready = mask[K.A_SKILL + 1] and s.blessing[me] == 0 and s.actions_left >= 2
        if ready and carrier_in_reach(s, me, True) >= 0:
            return K.A_SKILL + 1
    elif c == K.THIEF:
        if mask[K.A_SKILL + 1] and door_slot(s, s.position[me]) >= 0:
            return K.A_SKILL + 1
    elif c == K.MISTRESS:
        return enslavement_action(s, mask, me)
    return way_skill_action(s, mask, me)


@njit(cache=True)
def enslavement_action(s, mask, me: int) -> int:
    """Enslavement: the Mistress takes the round's Guard card for a rival of her corridor
    carrying no key (a sun-burst would carry a key to the central field) when a rival carrying
    a key stands next to her corridor: footprints (7 cards in 12) let her step the transformed
    player onto him, and he drops a key (l.401)."""
    n = s.num_players
    near = False
    for q in range(n):
        if q != me and K.keys_held(s, q) > 0 and s.position[q] != s.position[me] and in_reach(s, me, q, False):
            near = True
    if not near:
        return -1
    for off in range(1, n):
        a = K.A_SKILL_AT + off - 1
        if mask[a] and K.keys_held(s, (me + off) % n) == 0:
            return a
    return -1


@njit(cache=True)
def slave_dir_action(s, mask) -> int:
    """The transformed player's step (Enslavement): onto a rival carrying a key, who drops it
    (l.401), else away from the central field."""
    me = s.seat
    p = s.slave
    cell = s.position[p] // MC
    best, best_v = -1, -1e9
    for d in hexsearch.tie_order(s):  # ties: the turn's order
        a = K.A_GUARD_DIR + d
        if not mask[a]:
            continue
        node = corridor_across(s.node_mask, NEIGHBORS, cell, d, MC)
        value = float(CENTRE_STEPS[node // MC])
        for q in range(s.num_players):
            if q != me and q != p and s.position[q] == node and not (s.slave_ignore >> q) & 1:
                value += 10.0 * K.keys_held(s, q)
        if value > best_v:
            best, best_v = a, value
    return best


@njit(cache=True)
def draft_action(s, mask) -> int:
    for c in DRAFT_ORDER:
        if mask[K.A_CHARACTER + c]:
            return K.A_CHARACTER + c
    return -1


@njit(cache=True)
def main_action(s, mask) -> int:
    me = s.seat
    a = issue21_skill_action(s, mask, me)  # before anything: the Time Loop follows its action
    if a >= 0:
        return a
    a = hexsearch.first_legal(mask, K.A_TAKE_KEY, K.A_SET_TRAP)  # free keys first, stunned or not
    if a >= 0:
        return a
    if mask[K.A_REST]:
        return K.A_REST
    a = best_attack(s, mask, me, K.A_ATTACK)
    if a >= 0:
        return a
    if s.character[me] >= 0:
        a = skill_action(s, mask, me)
        if a >= 0:
            return a
    a = path_action(s, mask, me)
    if a >= 0:
        return a
    if s.actions_left >= 2 and mask[K.A_REGENERATE]:
        return K.A_REGENERATE
    return K.A_END_TURN


@njit(cache=True)
def place_action(s, mask) -> int:
    """The placement of the drawn field that makes the seat's cheapest path lowest; the
    Architect puts a field back (Foundation) when no placement makes it lower than the empty
    cells already promise."""
    me = s.seat
    tile = s.drawn_tile
    dist, first, pred, queue, inq, targets, fill = new_scratch()
    work = np.empty(1, dtype=STATE_DTYPE)
    work[0] = s
    w = work[0]  # keep ``work`` in use below: a record taken from it must not outlive it
    w.drawn_tile = -1
    t = plan(w, me, dist, first, pred, queue, inq, targets, fill)
    now = INF if t < 0 else dist[t]
    salt, frame = hexsearch.tie_salt(s.turn), hexsearch.tie_frame(s)
    best, best_cost, best_key = -1, INF, INF * hexsearch.TIE_SPAN
    for i in range(NUM_BOARD * 6):
        a = K.A_PLACE + i
        if not mask[a]:
            continue
        K.set_tile(w, i // 6, tile, i % 6)
        t = plan(w, me, dist, first, pred, queue, inq, targets, fill)
        cost = INF if t < 0 else dist[t]
        K.clear_cell(w, i // 6)
        key = hexsearch.ranked(cost, salt, hexsearch.tie_place(frame, i // 6, i % 6))  # ties: ``tie_frame``
        if key < best_key:
            best, best_cost, best_key = a, cost, key
    if mask[A_FOUNDATION] and best_cost >= now:
        return A_FOUNDATION
    if best < 0 or work.shape[0] == 0:
        best = hexsearch.first_legal(mask, K.A_PLACE, K.A_GUARD_DIR)
    return best


@njit(cache=True)
def guard_dir_action(s, mask) -> int:
    """Step the Guard off the seat's path, never onto the seat, preferably onto a rival."""
    me = s.seat
    dist, first, pred, queue, inq, targets, fill = new_scratch()
    on_path = hexsearch.path_marks(pred, plan(s, me, dist, first, pred, queue, inq, targets, fill))
    cell = s.guard_node // MC
    best, best_v = -1, -1e9
    for d in hexsearch.tie_order(s):  # ties: the turn's order
        a = K.A_GUARD_DIR + d
        if not mask[a]:
            continue
        node = corridor_across(s.node_mask, NEIGHBORS, cell, d, MC)
        value = hexsearch.step_away_value(s, me, node, on_path, dist, -1, 60, 0.05)
        if value > best_v:
            best, best_v = a, value
    return best


@njit(cache=True)
def reroll_action(s) -> int:
    me = s.decider
    kind = s.ck_kind
    stake = K.keys_held(s, me) > 0
    if kind == K.CK_JUMP:
        return K.A_REROLL
    if kind == K.CK_GUARD:
        return K.A_REROLL if stake else K.A_KEEP
    if kind == K.CK_TRAP:
        t = s.ck_trap
        m = s.ck_mode
        hurts = C.TRAP_LIFE[t, m] * 2 + C.TRAP_STUN[t, m] + (1 if C.TRAP_MOVE[t, m] == C.MOVE_TURN_BACK else 0)
        return K.A_REROLL if hurts >= 2 or (stake and s.life[me] <= C.TRAP_LIFE[t, m]) else K.A_KEEP
    if kind == K.CK_FIGHT:
        theirs = 0
        for p in range(s.num_players):
            if ((s.ck_att >> p) & 1 or p == s.ck_def) and p != me:
                theirs += K.keys_held(s, p)
        return K.A_REROLL if stake or theirs > 0 else K.A_KEEP
    return K.A_KEEP


@njit(cache=True)
def declare_action(s, mask, me: int) -> int:
    """Several players in the corridor: join the newcomer's group when it is likely to win or
    the target carries a key; attack a newcomer carrying a key."""
    x = s.ex_target
    if mask[K.A_JOIN] and x >= 0:
        mods = fight_mod(s, s.ex_seat) + fight_mod(s, me)
        for p in range(s.num_players):
            if (s.ex_join >> p) & 1:
                mods += fight_mod(s, p)
        if K.keys_held(s, x) > 0 or p_fight(3, mods, fight_mod(s, x)) >= 0.7:
            return K.A_JOIN
    e = s.ex_seat
    if mask[K.A_ATTACK_NEWCOMER] and attack_value(s, me, e) > 0:
        return K.A_ATTACK_NEWCOMER
    return K.A_DECLINE


@njit(cache=True)
def start_action(s, mask) -> int:
    """As far as possible from the fields already taken (ties: the lowest field)."""
    best, best_v = -1, -1
    for f in range(K.NUM_STARTS):
        if not mask[K.A_START_FIELD + f]:
            continue
        near = 6
        for p in range(s.num_players):
            g = s.seat_start[p]
            if g >= 0:
                near = min(near, min((f - g) % 6, (g - f) % 6))
        if near > best_v:
            best, best_v = K.A_START_FIELD + f, near
    return best


# --- skills that change a way: Prayer, Dark Enlivening, Mystification, Misfortune Rite, Correction
# (each judged by the cheapest paths it changes, tried on a copy of the record) --------------------
SKILL_GAIN = 4  # half-actions: such a skill is used when it wins two actions (its own one included)
RITE_HARM = 3  # half-actions of expected harm to the key carriers that make the Misfortune Rite worth it
CUT_OFF = 120  # half-actions counted for a seat with no way at all


@njit(cache=True)
def way_cost(s, seat: int) -> int:
    """The seat's cheapest path to its best target (``plan``), in half-actions, capped."""
    dist, first, pred, queue, inq, targets, fill = new_scratch()
    t = plan(s, seat, dist, first, pred, queue, inq, targets, fill)
    return CUT_OFF if t < 0 else min(dist[t], CUT_OFF)


@njit(cache=True)
def rivals_way(s, me: int) -> int:
    """The ways of the other players carrying a key to the central field, summed."""
    total = 0
    for q in range(s.num_players):
        if q != me and K.keys_held(s, q) > 0 and not K.at_start(s, q):
            total += way_cost(s, q)
    return total


@njit(cache=True)
def way_change(w, me: int, mine: int, theirs: int) -> int:
    """What the change made on the copy ``w`` wins ``me``: the carriers' ways longer (they were
    ``theirs``), its own shorter (it was ``mine``)."""
    return rivals_way(w, me) - theirs - (way_cost(w, me) - mine)


@njit(cache=True)
def way_if_moved(s, work, q: int, to: int) -> int:
    """``q``'s way if it were moved into corridor ``to`` (on ``work``, a one-record copy),
    counting what meets it there (the Guard, a trap: ``enter_cost``). The copy is handed in
    whole: a record taken from an array must not outlive the array (numba frees it after
    its last use, and the record would point into freed memory)."""
    work[0] = s
    w = work[0]
    K.set_position(w, q, to)
    return enter_cost(s, to) + way_cost(w, q)


@njit(cache=True)
def swap_gain(s, work, a: int, b: int, me: int, mine: int, theirs: int, move_one: bool) -> int:
    """``way_change`` on ``work`` with the first trap of corridor ``a`` moved into ``b``
    (``move_one``: Dark Enlivening) or the traps of both swapped (Mystification)."""
    work[0] = s
    w = work[0]
    if move_one:
        enliven(w, a, b)
    else:
        swap_traps(w, a, b)
    return way_change(w, me, mine, theirs)


@njit(cache=True)
def door_slot(s, node: int) -> int:
    """The slot (0 first, 1 second) of a face-up door trap in corridor ``node``, or -1."""
    if s.node_trap[node] >= 0 and s.trap_up[node] and TRAP_DOOR[TRAP_TOKENS[s.node_trap[node]]]:
        return 0
    if s.node_trap2[node] >= 0 and s.trap2_up[node] and TRAP_DOOR[TRAP_TOKENS[s.node_trap2[node]]]:
        return 1
    return -1


@njit(cache=True)
def enter_harm(t: int, up: int) -> int:
    """What a trap costs a player coming in, in half-actions (a face-down one by its presence)."""
    return TRAP_COST[TRAP_TOKENS[t], C.MODE_ENTER] if up else TRAP_COST_HIDDEN_ENTER


@njit(cache=True)
def which_trap_action(s, me: int) -> int:
    """Of a corridor's two traps: the Misfortune Rite sets off the more harmful (ties: the
    first), Disarming Traps takes the face-up door trap (what it disarms for, else the first)."""
    if s.rite_node >= 0:
        node = s.rite_node
        second = enter_harm(s.node_trap2[node], s.trap2_up[node]) > enter_harm(s.node_trap[node], s.trap_up[node])
        return K.A_TRAP_ORDER + (1 if second else 0)
    return K.A_TRAP_ORDER + (1 if door_slot(s, s.position[me]) == 1 else 0)


@njit(cache=True)
def others_way(s, me: int) -> int:
    """The ways of every other player on the board, summed, a key carrier's counted twice."""
    total = 0
    for q in range(s.num_players):
        if q != me and not K.at_start(s, q):
            total += way_cost(s, q) * (2 if K.keys_held(s, q) > 0 else 1)
    return total


@njit(cache=True)
def turn_gain(work, cell: int, turns: int, me: int, mine: int, others: int) -> int:
    """With ``cell`` turned by ``turns`` on ``work`` (turned back after): how much shorter its
    own way gets (it was ``mine``), or with ``others`` >= 0 (the others' ``others_way``
    before), that less how much shorter the others' ways get."""
    w = work[0]
    tile, rot = w.cell_tile[cell], w.cell_rot[cell]
    K.set_tile(w, cell, tile, (rot + turns) % 6)
    v = mine - way_cost(w, me)
    if others >= 0:
        v -= others - others_way(w, me)
    K.set_tile(w, cell, tile, rot)
    return v


@njit(cache=True)
def prayer_action(s, mask, me: int) -> int:
    """Prayer (the Monk, l.396): a key carrier of his corridor moved where his way is longest,
    counting what meets him there ("the player you moved bears standard consequences": the
    Guard, a trap), when that is worth two actions."""
    n = s.num_players
    work = np.empty(1, dtype=STATE_DTYPE)
    best, best_v = -1, SKILL_GAIN - 1
    for off in range(1, n):
        q = (me + off) % n
        base = K.A_PRAY + (off - 1) * 6
        if K.keys_held(s, q) == 0 or hexsearch.first_legal(mask, base, base + 6) < 0:
            continue
        now = way_cost(s, q)
        for d in hexsearch.tie_order(s):  # ties: the turn's order
            if not mask[base + d]:
                continue
            v = way_if_moved(s, work, q, K.move_target(s, q, d)) - COST_MOVE * 2 - now
            if v > best_v:
                best, best_v = base + d, v
    return best


@njit(cache=True)
def trap_swap_action(s, mask, me: int, base: int, move_one: bool) -> int:
    """Dark Enlivening (the Witch, l.416) or Mystification (the Illusionist, l.382), actions
    ``base + d``: its corridor's first trap moves across ``d`` (``move_one``) or the traps
    of both corridors change places, where that lengthens the key carriers' ways or shortens its own
    (a door trap it would have to leave through) by two actions or more."""
    if hexsearch.first_legal(mask, base, base + 6) < 0:
        return -1
    node = s.position[me]
    mine, theirs = way_cost(s, me), rivals_way(s, me)
    work = np.empty(1, dtype=STATE_DTYPE)
    best, best_v = -1, SKILL_GAIN - 1
    for d in hexsearch.tie_order(s):  # ties: the turn's order
        if not mask[base + d]:
            continue
        v = swap_gain(s, work, node, across(s, node, d), me, mine, theirs, move_one)
        if v > best_v:
            best, best_v = base + d, v
    return best


@njit(cache=True)
def rite_action(s, mask, me: int) -> int:
    """Misfortune Rite (the Witch, l.417-418): the trap of a corridor next to hers set off on
    the key carriers there when its expected harm to them (a face-down trap by its presence
    only) is worth it."""
    base = A_RITE
    best, best_v = -1, RITE_HARM - 1
    for d in hexsearch.tie_order(s):  # ties: the turn's order
        if not mask[base + d]:
            continue
        to = across(s, s.position[me], d)
        harm = enter_harm(s.node_trap[to], s.trap_up[to])
        if s.node_trap2[to] >= 0:  # of two, she sets off the more harmful (``which_trap_action``)
            harm = max(harm, enter_harm(s.node_trap2[to], s.trap2_up[to]))
        v = 0
        for q in range(s.num_players):
            if q != me and s.position[q] == to and K.keys_held(s, q) > 0:
                v += harm
        if v > best_v:
            best, best_v = base + d, v
    return best


@njit(cache=True)
def rite_send_action(s, mask) -> int:
    """Where the Misfortune Rite's turn-back trap sends its victim (the Witch decides, l.418):
    the corridor from which his way is longest, counting what meets him there."""
    v = s.rite_victim
    work = np.empty(1, dtype=STATE_DTYPE)
    best, best_v = -1, -1
    for d in hexsearch.tie_order(s):  # ties: the turn's order
        if not mask[A_RITE + d]:
            continue
        value = way_if_moved(s, work, v, K.move_target(s, v, d))
        if value > best_v:
            best, best_v = A_RITE + d, value
    return best


@njit(cache=True)
def correction_action(s, mask, me: int) -> int:
    """Correction (the Architect, l.371): the turn of a field next to his, or of his own, that
    shortens his way most, when that wins two actions more than it shortens the others'
    ways (a key carrier's twice; the mask already keeps every way of l.152)."""
    lo = K.A_CORRECTION
    if hexsearch.first_legal(mask, lo, lo + 7 * 5) < 0:
        return -1
    mine = way_cost(s, me)
    work = np.empty(1, dtype=STATE_DTYPE)
    work[0] = s
    best, best_v = -1, SKILL_GAIN - 1
    for k in range(7 * 5):
        if mask[lo + k]:
            v = turn_gain(work, correction_cell(s, me, k // 5), k % 5 + 1, me, mine, -1)
            if v > best_v:
                best, best_v = lo + k, v
    if best < 0:
        return -1
    k = best - lo
    net = turn_gain(work, correction_cell(s, me, k // 5), k % 5 + 1, me, mine, others_way(s, me))
    return best if net >= SKILL_GAIN else -1


@njit(cache=True)
def way_skill_action(s, mask, me: int) -> int:
    """The skill of these five the seat's character has, when it is worth its action, or -1."""
    c = s.character[me]
    if c == K.MONK:
        return prayer_action(s, mask, me)
    if c == K.WITCH:
        a = rite_action(s, mask, me)
        if a >= 0:
            return a
        return trap_swap_action(s, mask, me, K.A_SKILL_DIR + (K.SK_DARK_ENLIVENING % K.SKILLS_PER_CHARACTER) * 6, True)
    if c == K.ILLUSIONIST:
        return trap_swap_action(s, mask, me, K.A_SKILL_DIR + (K.SK_MYSTIFICATION % K.SKILLS_PER_CHARACTER) * 6, False)
    if c == K.ARCHITECT:
        return correction_action(s, mask, me)
    return -1


@njit(cache=True)
def heuristic_action(s, mask) -> int:
    """The heuristic's action for the pending decision of ``s`` (made by ``s.decider``), or
    -1 once the game is over. ``mask`` is overwritten with the legal mask; ``s`` is not
    changed."""
    if s.outcome != K.RUNNING:
        return -1
    K.legal_mask(s, mask)
    dec = s.decision
    me = s.decider
    if dec == K.D_MAIN:
        a = main_action(s, mask)
    elif dec == K.D_START:
        a = start_action(s, mask)
    elif dec == K.D_PLACE:
        a = place_action(s, mask)
    elif dec == K.D_GUARD_DIR:
        a = slave_dir_action(s, mask) if s.slave >= 0 else guard_dir_action(s, mask)
    elif dec == K.D_REROLL:
        a = reroll_action(s)
    elif dec == K.D_CHARACTER:
        a = draft_action(s, mask)
    elif dec == K.D_THEFT:  # always worth a try: nothing is lost on a failure
        a = hexsearch.first_legal(mask, K.A_SKILL_AT, K.A_SKILL_DIR)
    elif dec == K.D_TRAP_ORDER:
        a = K.A_TRAP_ORDER
    elif dec == K.D_RITE:
        a = rite_send_action(s, mask)
    elif dec == K.D_WHICH_TRAP:
        a = which_trap_action(s, me)
    elif dec == K.D_FACE_DOWN or dec == K.D_UNCOVER:
        a = illusion_decision(s, mask, me)
    elif dec == K.D_OCCUPANT:
        a = K.A_ATTACK_NEWCOMER if attack_value(s, me, s.ex_seat) > 0 else K.A_DECLINE
    elif dec == K.D_ENTRANT:
        a = best_attack(s, mask, me, K.A_TARGET)
        if a < 0:
            a = K.A_DECLINE
    else:
        a = declare_action(s, mask, me)
    return hexsearch.legal_or_first(a, mask)


# --- the skills of issue 21's second round (Time Loop, ...) ----------------------------------
@njit(cache=True)
def time_loop_action(s, mask, me: int) -> int:
    """The Assassin undoes his last action (Time Loop) when it cost him life or a key; what
    the loop brings back is public (l.131)."""
    a = K.A_SKILL + 2
    if s.character[me] != K.ASSASSIN or not mask[a]:
        return -1
    held = 0
    before = 0
    for k in range(K.NUM_KEYS):
        held += 1 if s.key_holder[k] == me else 0
        before += 1 if s.loop_key_holder[k] == me else 0
    return a if s.life[me] < s.loop_life[me] or held < before else -1


@njit(cache=True)
def issue21_skill_action(s, mask, me: int) -> int:
    """The skills added in v3, each in its own function (-1: none worth it now)."""
    if s.character[me] < 0:
        return -1
    a = tracking_action(s, mask, me)
    if a >= 0:
        return a
    return time_loop_action(s, mask, me)


@njit(cache=True)
def tracking_action(s, mask, me: int) -> int:
    """The Head Hunter turns face up (Tracking, free) the face-down trap he would meet next:
    in his corridor (a door trap holds him when he leaves), else in the corridor his
    cheapest path enters next; the path is planned again with it face up."""
    if s.character[me] != K.HEAD_HUNTER:
        return -1
    if mask[A_TRACK_HERE]:
        return A_TRACK_HERE
    if not mask[A_TRACK_DIR : A_TRACK_DIR + 6].any():
        return -1
    dist, first, pred, queue, inq, targets, fill = new_scratch()
    t = plan(s, me, dist, first, pred, queue, inq, targets, fill)
    if t < 0 or t == s.position[me]:
        return -1
    hop = first[t]
    if 0 <= hop < 6 and mask[A_TRACK_DIR + hop]:
        return A_TRACK_DIR + hop
    return -1


@njit(cache=True)
def uncover_action(s, mask, me: int) -> int:
    """The Illusionist turns a face-down field face up (l.381) the way that makes her own
    cheapest path lowest (the field is public from now on)."""
    cell = s.rv_cell
    tile = s.fd_tile[cell]
    dist, first, pred, queue, inq, targets, fill = new_scratch()
    work = np.empty(1, dtype=STATE_DTYPE)
    work[0] = s
    w = work[0]  # keep ``work`` in use below: a record taken from it must not outlive it
    salt, frame = hexsearch.tie_salt(s.turn), hexsearch.tie_frame(s)
    best, best_cost = -1, INF * hexsearch.TIE_SPAN
    for r in range(6):
        a = K.A_SKILL_DIR + r
        if not mask[a]:
            continue
        K.set_tile(w, cell, tile, r)
        t = plan(w, me, dist, first, pred, queue, inq, targets, fill)
        cost = hexsearch.ranked(INF if t < 0 else dist[t], salt, hexsearch.tie_place(frame, cell, r))
        K.clear_cell(w, cell)
        w.cell_built[cell] = 1
        if cost < best_cost:
            best, best_cost = a, cost
    if best < 0 or work.shape[0] == 0:
        best = hexsearch.first_legal(mask, K.A_SKILL_DIR, K.A_SKILL_DIR + 6)
    return best


@njit(cache=True)
def illusion_decision(s, mask, me: int) -> int:
    """Spreading Illusion's decisions: where to build face down (it never chooses to: the
    first cell offered), how to turn a field face up (``uncover_action``)."""
    if s.decision == K.D_UNCOVER:
        return uncover_action(s, mask, me)
    return hexsearch.first_legal(mask, K.A_PLACE, K.A_GUARD_DIR)
