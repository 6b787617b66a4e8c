"""Labyrinthos kernel: the whole game as numba functions over one state record
(``STATE_DTYPE``). The kernel contract (``labyrinth_env.core.contract``) is this module's
``init``, ``legal_mask``, ``step``, ``observe``, ``returns``, ``determinize``,
``shaping_potential`` and ``to_act``; every constant of ``tables`` is read as ``K.<name>``.

A turn is a sequence of decisions. Everything that must be resolved before the turn can
go on (a tile's symbol, wounds to place, an attacked hero to displace, the monster's
movement points, a Desperation card's effect and the chance to cancel it) is a *task* on a
small stack in the state; ``turn.advance`` runs the monster's movement in progress first,
then the top task, then the turn's phase, until a decision is pending or the game is
over. So every step is a pure function of the record and the action.

One module per decision family, each with its decisions' masks and effects side by side:

| module | decisions |
|---|---|
| ``turn`` | the task stack and the phases; ``D_HERO``, ``D_REFRESH``, ``D_DISCARD_OPT``, ``D_DISCARD`` |
| ``actions`` | ``D_MAIN`` (the board actions, Recover, Pass), ``D_ORIENT`` |
| ``keys`` | Discover Key, Rearrange: ``D_KEY_PICK``, ``D_KEY_SLOT``, ``D_REARRANGE`` |
| ``key_actions`` | Secret Lever, Build, Visions: ``D_LEVER``, ``D_BUILD``, ``D_VISION_FROM``, ``D_VISION_TO`` |
| ``heroes`` | arriving on a tile, wounds: ``D_INTUITION``, ``D_WOUND``, ``D_HEAL`` |
| ``maze`` | pathways, walls, rotations: ``D_WALL`` |
| ``monster`` | the die, movement points, charge, the hunt: ``D_MONSTER``, ``D_PASSAGE``, ``D_CHARGE`` |
| ``attack`` | the attacked heroes: ``D_DODGE``, ``D_DISPLACE`` |
| ``cards`` | Desperation cards: ``D_CANCEL``, ``D_TARGET``, ``D_FREE_MOVE``, ``D_ROTATE_CARD``, ``D_SWAP_*`` |

``board`` holds the hero-board queries and the task stack, ``observe`` the observation.
The square grid, tile rotation, RNG and the common record come from ``labyrinth_env.core``.
"""

from __future__ import annotations

import numpy as np

from labyrinth_env.core.contract import (  # noqa: F401 (outcome codes and to_act: the kernel's are the contract's)
    LOST,
    NO_SEAT,
    RUNNING,
    TRUNCATED,
    WON,
    clear_mask,
    start_record,
    take_decision,
    tally_unseen,
    to_act,
    winner_returns,
)
from labyrinth_env.core.events import emit
from labyrinth_env.core.jit import njit
from labyrinth_env.core.kernel_common import private_dice, reseed, shuffle_unknown
from labyrinth_env.core.rng import randint
from labyrinth_env.rulesets.labyrinthos import components as C

from .actions import action_mask, orient_mask, orient_tile, take_action
from .attack import displace_mask, displace_to, dodge, dodge_mask
from .board import first_round, gain_tokens, hand_size, holds_colour, keys_held, wounds  # noqa: F401 (K.<name>)
from .cards import (
    ariadnes_thread,
    cancel_mask,
    earthquake,
    earthquake_mask,
    free_move_mask,
    hermes_mischief,
    init_cards,
    stone_gaze,
    swap_key,
    swap_key_mask,
    swap_player,
    swap_player_mask,
    target_mask,
)
from .heroes import heal_chosen_wound, heal_mask, intuition_mask, place_chosen_wound, wild_intuition, wound_mask
from .key_actions import (
    build,
    build_mask,
    lever_mask,
    secret_lever,
    vision_from,
    vision_from_mask,
    vision_to,
    vision_to_mask,
)
from .keys import key_pick_mask, key_slot_mask, lift_key, place_key, rearrange_mask, take_key
from .maze import (  # noqa: F401 (K.<name>: the heuristic's and the tests' queries)
    can_move_wall,
    init_maze,
    is_passage,
    occupied_mask,
    open_towards,
    place_wall_token,
    wall_count,
    wall_token_mask,
)
from .monster import (  # noqa: F401 (K.attack, K.roll_monster_die: the tests')
    attack,
    attackable,
    charge_mask,
    choose_charge,
    monster_point,
    monster_point_mask,
    passage_mask,
    roll_monster_die,
    take_passage,
)
from .observe import observe  # noqa: F401 (the contract's)
from .routes import face_down_count, lost_actions, route_cost, unexplored_needed
from .tables import *  # noqa: F403 (every constant, read as K.<name>)
from .tables import (
    D_BUILD,
    D_CANCEL,
    D_CHARGE,
    D_DISCARD,
    D_DISCARD_OPT,
    D_DISPLACE,
    D_DODGE,
    D_FREE_MOVE,
    D_HEAL,
    D_HERO,
    D_INTUITION,
    D_KEY_PICK,
    D_KEY_SLOT,
    D_LEVER,
    D_MAIN,
    D_MONSTER,
    D_NONE,
    D_ORIENT,
    D_PASSAGE,
    D_REARRANGE,
    D_REFRESH,
    D_ROTATE_CARD,
    D_SWAP_KEY,
    D_SWAP_PLAYER,
    D_TARGET,
    D_VISION_FROM,
    D_VISION_TO,
    D_WALL,
    D_WOUND,
    DOOR_CELL,
    EV_FIRST_PLAYER,
    HOW_THREAD,
    MAX_DECK,
    MOVE_AS_MOVE,
    NUM_ACTIONS,
    NUM_CARD_TYPES,
    NUM_COLOURS,
    NUM_SEATS,
    OPT_KEY_SLOT,
    OPT_MONSTER,
    OUTER_CELLS,
    PH_HERO,
    SIZE,
    START_CELLS,
    TILE_MASK,
)
from .turn import (
    advance,
    choose_hero,
    choose_hero_mask,
    discard_before_drawing,
    discard_before_drawing_mask,
    discard_down,
    discard_mask,
    refresh_mask,
    refresh_pool,
)


# --- a new game -----------------------------------------------------------------------------------
@njit(cache=True)
def init(s, seed, options) -> None:
    start_record(s, seed, options)
    opts = s.options
    n = s.num_players
    s.monster = opts[OPT_MONSTER]
    s.use_key_slot = opts[OPT_KEY_SLOT]
    init_maze(s)
    s.feet_supply = C.NUM_FEET_TOKENS
    s.hand_supply = C.NUM_HAND_TOKENS
    s.wound_supply = C.NUM_WOUND_TOKENS
    s.key_pile[:] = 1
    s.key_seen[:, :] = 0
    s.slot_key[:, :] = -1
    s.slot_wound[:, :] = 0
    for p in range(NUM_SEATS):
        s.hero[p] = -1
        s.position[p] = -1
        s.feet[p] = 0
        s.hands[p] = 0
    for p in range(n):
        gain_tokens(s, p, C.START_FEET, C.START_HANDS)
    init_cards(s)
    s.num_tasks = 0
    s.task_overflow = 0
    s.m_active = 0
    s.m_points = 0
    s.m_ctrl = -1
    s.m_start = -1
    s.m_hunt = -1
    s.last_face = -1
    s.last_blood = -1
    s.pending_cell = -1
    s.pending_token = -1
    s.pending_slot = -1
    s.pending_edge = -1
    s.pending_seat = -1
    s.count_left = 0
    s.attacked = 0
    s.move_mode = MOVE_AS_MOVE
    s.move_how = HOW_THREAD
    s.first_player = randint(s.rng, n)
    emit(s, EV_FIRST_PLAYER, s.first_player)
    s.seat = s.first_player
    s.hero_pos = 0
    s.phase = PH_HERO
    s.decision = D_NONE
    s.decider = s.first_player
    advance(s)


# --- the pending decision, dispatched to its family ----------------------------------------------------
@njit(cache=True)
def legal_mask(s, out) -> None:
    """Fill ``out`` with the legal actions of the pending decision."""
    if not clear_mask(s, out):
        return
    dec = s.decision
    who = s.decider
    if dec == D_MAIN:
        action_mask(s, out)
    elif dec == D_MONSTER:
        monster_point_mask(s, out)
    elif dec == D_HERO:
        choose_hero_mask(s, who, out)
    elif dec == D_ORIENT:
        orient_mask(s, who, out)
    elif dec == D_KEY_PICK:
        key_pick_mask(s, who, out)
    elif dec == D_KEY_SLOT:
        key_slot_mask(s, who, out)
    elif dec == D_REARRANGE:
        rearrange_mask(s, who, out)
    elif dec == D_HEAL:
        heal_mask(s, who, out)
    elif dec == D_WALL:
        wall_token_mask(s, who, out)
    elif dec == D_WOUND:
        wound_mask(s, who, out)
    elif dec == D_PASSAGE:
        passage_mask(s, who, out)
    elif dec == D_CHARGE:
        charge_mask(s, who, out)
    elif dec == D_DISPLACE:
        displace_mask(s, who, out)
    elif dec == D_INTUITION:
        intuition_mask(s, who, out)
    elif dec == D_CANCEL:
        cancel_mask(s, who, out)
    elif dec == D_DODGE:
        dodge_mask(s, who, out)
    elif dec == D_REFRESH:
        refresh_mask(s, who, out)
    elif dec == D_DISCARD_OPT:
        discard_before_drawing_mask(s, who, out)
    elif dec == D_DISCARD:
        discard_mask(s, who, out)
    elif dec == D_LEVER:
        lever_mask(s, who, out)
    elif dec == D_BUILD:
        build_mask(s, who, out)
    elif dec == D_VISION_FROM:
        vision_from_mask(s, who, out)
    elif dec == D_VISION_TO:
        vision_to_mask(s, who, out)
    elif dec == D_TARGET:
        target_mask(s, who, out)
    elif dec == D_FREE_MOVE:
        free_move_mask(s, who, out)
    elif dec == D_ROTATE_CARD:
        earthquake_mask(s, who, out)
    elif dec == D_SWAP_PLAYER:
        swap_player_mask(s, who, out)
    elif dec == D_SWAP_KEY:
        swap_key_mask(s, who, out)


@njit(cache=True)
def make_decision(s, dec: int, who: int, action: int) -> None:
    """Apply the legal ``action`` to the decision ``dec`` made by ``who``."""
    if dec == D_MAIN:
        take_action(s, action)
    elif dec == D_MONSTER:
        monster_point(s, action)
    elif dec == D_HERO:
        choose_hero(s, who, action)
    elif dec == D_ORIENT:
        orient_tile(s, who, action)
    elif dec == D_KEY_PICK:
        take_key(s, who, action)
    elif dec == D_KEY_SLOT:
        place_key(s, who, action)
    elif dec == D_REARRANGE:
        lift_key(s, who, action)
    elif dec == D_HEAL:
        heal_chosen_wound(s, who, action)
    elif dec == D_WALL:
        place_wall_token(s, who, action)
    elif dec == D_WOUND:
        place_chosen_wound(s, who, action)
    elif dec == D_PASSAGE:
        take_passage(s, who, action)
    elif dec == D_CHARGE:
        choose_charge(s, who, action)
    elif dec == D_DISPLACE:
        displace_to(s, who, action)
    elif dec == D_INTUITION:
        wild_intuition(s, who, action)
    elif dec == D_CANCEL:
        hermes_mischief(s, who, action)
    elif dec == D_DODGE:
        dodge(s, who, action)
    elif dec == D_REFRESH:
        refresh_pool(s, who, action)
    elif dec == D_DISCARD_OPT:
        discard_before_drawing(s, who, action)
    elif dec == D_DISCARD:
        discard_down(s, who, action)
    elif dec == D_LEVER:
        secret_lever(s, who, action)
    elif dec == D_BUILD:
        build(s, who, action)
    elif dec == D_VISION_FROM:
        vision_from(s, who, action)
    elif dec == D_VISION_TO:
        vision_to(s, who, action)
    elif dec == D_TARGET:
        stone_gaze(s, who, action)
    elif dec == D_FREE_MOVE:
        ariadnes_thread(s, who, action)
    elif dec == D_ROTATE_CARD:
        earthquake(s, who, action)
    elif dec == D_SWAP_PLAYER:
        swap_player(s, who, action)
    elif dec == D_SWAP_KEY:
        swap_key(s, who, action)


@njit(cache=True)
def is_legal(s, action: int) -> bool:
    if s.outcome != RUNNING or action < 0 or action >= NUM_ACTIONS:
        return False
    # a local mask: a rejected action must leave every byte of the state as it was
    mask = np.zeros(NUM_ACTIONS, dtype=np.uint8)
    legal_mask(s, mask)
    return mask[action] != 0


@njit(cache=True)
def step(s, action: int) -> bool:
    """Apply one legal action and everything automatic after it. Returns False, changing
    nothing, if the action is not legal now."""
    if not is_legal(s, action):
        return False
    who = s.decider
    dec = take_decision(s, D_NONE)  # advance() sets the next one
    make_decision(s, dec, who, action)
    advance(s)
    return True


returns = winner_returns


# --- search and shaping --------------------------------------------------------------------------------
@njit(cache=True)
def face_down_tiles(s, cells) -> np.ndarray:
    """The tiles lying face down on ``cells``, in cell order."""
    tiles = np.empty(cells.shape[0], dtype=np.int8)
    m = 0
    for c in cells:
        if not s.cell_up[c]:
            tiles[m] = s.cell_tile[c]
            m += 1
    return tiles[:m]


@njit(cache=True)
def unknown_cards(s, seat: int) -> np.ndarray:
    """The deck followed by the hands of every player but ``seat`` (by card type, in seat
    order): the cards ``seat`` cannot see."""
    pool = np.empty(MAX_DECK, dtype=np.int8)
    m = 0
    for i in range(s.deck_len):
        pool[m] = s.deck[i]
        m += 1
    for p in range(s.num_players):
        if p != seat:
            for t in range(NUM_CARD_TYPES):
                for _ in range(s.hand[p, t]):
                    pool[m] = t
                    m += 1
    return pool[:m]


@njit(cache=True)
def determinize(s, seat: int, seed) -> None:
    """Resample what ``seat`` cannot know: the face-down tiles (the starting ones among the
    starting cells, the others among the outer cells), the deck with the other players'
    hands (sizes kept), and the RNG. Each unknown set is sorted before it is shuffled, so
    the result depends only on what ``seat`` knows and ``seed``."""
    rng = private_dice(seed)
    for cells in (START_CELLS, OUTER_CELLS):
        tiles = face_down_tiles(s, cells)
        shuffle_unknown(rng, tiles)
        m = 0
        for c in cells:
            if not s.cell_up[c]:
                s.cell_tile[c] = tiles[m]
                s.cell_mask[c] = TILE_MASK[tiles[m]]
                m += 1
    pool = unknown_cards(s, seat)
    shuffle_unknown(rng, pool)
    m = 0
    for p in range(s.num_players):
        if p != seat:
            size = hand_size(s, p)
            s.hand[p, :] = 0
            for _ in range(size):
                s.hand[p, pool[m]] += 1
                m += 1
    for i in range(s.deck_len):
        s.deck[i] = pool[m]
        m += 1
    reseed(s, rng)


@njit(cache=True)
def unseen(s, seat: int, out) -> None:
    """The contract's account of what ``seat`` cannot see: the sets ``determinize``
    resamples (the face-down tiles, the deck with the other hands); for ``NO_SEAT``, what no
    seat has seen (the face-down tiles and the deck). Cards count by type; with other
    hands in the set the log10 arrangements are an upper bound (they count a hand's cards
    in every order, though a hand is a set)."""
    out[:] = 0.0
    for cells in (START_CELLS, OUTER_CELLS):
        tally_unseen(out, face_down_tiles(s, cells))
    if seat == NO_SEAT:
        tally_unseen(out, s.deck[: s.deck_len])
    else:
        tally_unseen(out, unknown_cards(s, seat))


@njit(cache=True)
def shaping_potential(s, seat: int) -> float:
    """Opt-in reward shaping (never the default): 0.2 per key held, minus 0.02 per wound
    and 0.01 per step from the Door tile once all four keys are held. 0 once the game is
    won; a truncated game keeps its position's value."""
    if (s.outcome != RUNNING and s.outcome != TRUNCATED) or s.position[seat] < 0:
        return 0.0
    k = keys_held(s, seat)
    v = 0.2 * k - 0.02 * wounds(s, seat)
    if k == NUM_COLOURS:
        c = s.position[seat]
        v -= 0.01 * (abs(c // SIZE - DOOR_CELL // SIZE) + abs(c % SIZE - DOOR_CELL % SIZE))
    return v


# ``progress``: a key outweighs any way still to go, so collecting one never reads as a loss
# (it leaves the search term as it was); tokens only break ties. The search weight is the
# best of 0.004-0.05 for the untrained prior against the heuristic (docs/training.md)
PROGRESS_KEY = 0.2
PROGRESS_WOUND = 0.02
PROGRESS_ROUTE = 0.005  # per unit of ``routes.plan`` cost, up to PROGRESS_ROUTE_CAP units
PROGRESS_ROUTE_CAP = 30
PROGRESS_SEARCH = 0.03  # per face-down tile while a key tile the seat needs lies face down
PROGRESS_TOKEN = 0.0005  # per pool token, up to a turn's worth of each kind


@njit(cache=True)
def progress(s, seat: int) -> float:
    """The self-play learner's progress: what the seat must still do to win (l.307 "collect
    all four Labyrinth Keys and move onto the Door tile"). 0.2 per key held (or being
    taken: Discover Key's pick and slot), minus 0.02 per wound, minus 0.005 per unit of the
    cheapest way to the seat's target (``routes.route_cost``: moves, explores, tile turns
    and walls to clear through the maze as it lies; at most 30 units) and per unit of the
    board actions it cannot use (``routes.lost_actions``: a key token or a wound on Move
    costs most, on the empty key slot nothing), minus 0.03 per face-down tile while a key
    tile the seat needs is among them (searching is progress), plus 0.0005 per Feet token
    (up to 4) and Hand token (up to 3) in the pool, so that a pool with Feet to walk beats
    one without and a token is not spent for nothing.

    Reads only public fields: keys, wounds and pools on the boards, the explored tiles,
    walls, the heroes' and the monster's tiles; a face-down tile by its place only. 0 once
    the game is won; a truncated game keeps its value."""
    if (s.outcome != RUNNING and s.outcome != TRUNCATED) or s.position[seat] < 0:
        return 0.0
    keys = keys_held(s, seat)
    if s.decider == seat and (s.decision == D_KEY_PICK or (s.decision == D_KEY_SLOT and s.pending_token >= 0)):
        keys += 1
    v = PROGRESS_KEY * keys - PROGRESS_WOUND * wounds(s, seat)
    v -= PROGRESS_ROUTE * (min(route_cost(s, seat), PROGRESS_ROUTE_CAP) + lost_actions(s, seat))
    if unexplored_needed(s, seat) > 0:
        v -= PROGRESS_SEARCH * face_down_count(s)
    return v + PROGRESS_TOKEN * (min(s.feet[seat], 4) + min(s.hands[seat], 3))
