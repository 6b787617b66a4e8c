"""Characters and their abilities: the deal at setup (or the draft, a decision per seat),
the ability tokens (laid by their owners, resolved in step 1 of exploring in the active
player's order, back to their owners when their tile leaves the board), the passive
bonuses, the War Sister's Fury and Dismember, the Architect's Rebuild, and the Terror
event that stops characters using abilities (l.317).

Tokens: ``tok_owner[i]`` is the seat that owns token ``i`` (-1: in the box) and
``tok_node[i]`` where it lies (-1: in front of its owner); token ``i`` is of type
``ABILITY_TOKENS[i]``."""

from __future__ import annotations

import numpy as np

from labyrinth_env.core import characters, hexboard, pod
from labyrinth_env.core.contract import set_decision
from labyrinth_env.core.events import emit
from labyrinth_env.core.jit import njit
from labyrinth_env.core.rng import randint
from labyrinth_env.rulesets.paths_of_destiny_3e import components as C

from .building import compute_placements
from .items import return_item
from .life import add_stun, gain_life, lose_life
from .moving import push_exploration
from .queries import benefits, center_node, token_on
from .tables import (
    A_DRAFT,
    A_FURY,
    A_MOVE_TILE,
    A_NO_FURY,
    A_REBUILD,
    A_RESOLVE_TOKEN,
    A_SHAPESHIFT,
    ABILITY_TOKENS,
    CHAR_CHANGED,
    CHAR_DRAFTED,
    CHAR_LISTED,
    CHARACTER_COMBAT,
    CHARACTER_GOLEM,
    CHARACTER_TOKEN,
    D_DRAFT,
    D_PLACE,
    D_TOKEN_ORDER,
    DEALABLE,
    DEALABLE_2P,
    EV_BUILD_NOWHERE,
    EV_CHARACTER,
    EV_DISMEMBER,
    EV_FURY,
    EV_PORTAL,
    EV_REBUILD,
    EV_STEAL,
    EV_TOKEN_EFFECT,
    EV_TOKEN_LAID,
    EV_TOKEN_RETURNED,
    EVENT_LONG,
    MC,
    NUM_ABILITY_TOKENS,
    NUM_BOARD,
    NUM_BOARD_NODES,
    NUM_CHARACTERS,
    NUM_ITEMS,
    NUM_KEYS,
    OPT_CHARACTERS,
)
from .traps import return_trap, throw_back


# --- who may use what ----------------------------------------------------------------------
@njit(cache=True)
def abilities_blocked(s) -> bool:
    """Terror's long-lasting effect: "no character can use his or her character abilities
    (any abilities already in the game are still active)" (l.317): no ability is used
    (bonuses included) while tokens already on the board keep working."""
    e = s.current_event
    return e >= 0 and EVENT_LONG[e] == C.LONG_NO_ABILITIES


@njit(cache=True)
def is_character(s, seat: int, c: int) -> bool:
    """``seat`` plays character ``c`` and may use its abilities now."""
    return s.character[seat] == c and not abilities_blocked(s)


@njit(cache=True)
def combat_bonus(s, seat: int) -> int:
    """The Swordmaster's +3 (l.445), the Golem Mistress's Domination +1 (l.447); the
    Armourer's +2 on his Living Armor's corridor (a token in the game: Terror spares it)."""
    c = s.character[seat]
    bonus = 0 if c < 0 or abilities_blocked(s) else CHARACTER_COMBAT[c]
    for i in range(NUM_ABILITY_TOKENS):
        if (
            ABILITY_TOKENS[i] == C.TOK_LIVING_ARMOR
            and s.tok_owner[i] == seat
            and s.tok_node[i] == s.position[seat]
            and benefits(s, i)
        ):
            bonus += C.LIVING_ARMOR_BONUS
    return bonus


@njit(cache=True)
def golem_bonus(s, seat: int) -> int:
    """The Golem Mistress's +2: a Golem Check "could be greater than 12 because of some
    characters skill" (l.296)."""
    c = s.character[seat]
    return 0 if c < 0 or abilities_blocked(s) else CHARACTER_GOLEM[c]


# --- characters at setup (step 9, l.89) ------------------------------------------------------
@njit(cache=True)
def dealable(s) -> int:
    return DEALABLE_2P if s.num_players == 2 else DEALABLE


@njit(cache=True)
def give_character(s, seat: int, c: int, how: int) -> None:
    """``seat`` plays ``c``: it takes the ability tokens of ``c`` not on the board (l.89, l.463)."""
    s.character[seat] = c
    emit(s, EV_CHARACTER, seat, c, how)
    kind = CHARACTER_TOKEN[c]
    for i in range(NUM_ABILITY_TOKENS):
        if ABILITY_TOKENS[i] == kind and s.tok_node[i] < 0:
            s.tok_owner[i] = seat


@njit(cache=True)
def deal_characters(s) -> bool:
    """Every seat's character as the options say; True if a draft is to be made."""
    n = s.num_players
    s.tok_owner[:] = -1
    s.tok_node[:] = -1
    s.fury_used = 0
    chosen = np.full(s.character.shape[0], -1, dtype=np.int64)
    mode = characters.deal(s.options, OPT_CHARACTERS, s.rng, chosen, n, dealable(s))
    for p in range(s.character.shape[0]):
        s.character[p] = -1
    for p in range(n):
        if chosen[p] >= 0:
            give_character(s, p, chosen[p], CHAR_LISTED if mode == characters.MODE_LIST else 0)
    return mode == characters.MODE_DRAFT


@njit(cache=True)
def draft_next(s) -> int:
    """The next seat to pick (seat 0 first, clockwise), -1 once all have picked."""
    return characters.draft_seat(s.character, s.num_players, 0)


@njit(cache=True)
def draft_mask(s, out) -> None:
    characters.draft_mask(s.character, s.num_players, dealable(s), out, A_DRAFT, NUM_CHARACTERS)


@njit(cache=True)
def draft_pick(s, who: int, action: int) -> bool:
    """``who`` takes a character; True once every seat has one."""
    give_character(s, who, action - A_DRAFT, CHAR_DRAFTED)
    nxt = draft_next(s)
    if nxt >= 0:
        set_decision(s, D_DRAFT, nxt)
        return False
    return True


# --- laying a token (activity) -----------------------------------------------------------------
@njit(cache=True)
def hand_token(s, seat: int) -> int:
    """A token in front of ``seat`` (-1: none)."""
    for i in range(NUM_ABILITY_TOKENS):
        if s.tok_owner[i] == seat and s.tok_node[i] < 0:
            return i
    return -1


@njit(cache=True)
def lay_token_legal(s, seat: int) -> bool:
    """A token in hand, on a corridor of a space tile (not the central space nor a starting
    space, like traps, l.260) where no token of that type lies yet."""
    if abilities_blocked(s) or s.character[seat] < 0:
        return False
    t = hand_token(s, seat)
    node = s.position[seat]
    if t < 0 or node < 0 or node >= NUM_BOARD_NODES or node == center_node(s):
        return False
    for i in range(NUM_ABILITY_TOKENS):
        if s.tok_node[i] == node and ABILITY_TOKENS[i] == ABILITY_TOKENS[t]:
            return False
    return True


@njit(cache=True)
def lay_token(s, seat: int) -> None:
    t = hand_token(s, seat)
    s.tok_node[t] = s.position[seat]
    emit(s, EV_TOKEN_LAID, seat, ABILITY_TOKENS[t], s.position[seat])


@njit(cache=True)
def return_token(s, t: int) -> None:
    """Back to its owner (l.152); one whose owner changed character since goes to the seat
    that plays its character now, or to the box (l.462-463: the token was the old
    character's, and only the one playing it holds its tokens)."""
    emit(s, EV_TOKEN_RETURNED, s.tok_owner[t], ABILITY_TOKENS[t], s.tok_node[t])
    s.tok_node[t] = -1
    if not benefits(s, t):
        s.tok_owner[t] = -1
        for p in range(s.num_players):
            c = s.character[p]
            if c >= 0 and CHARACTER_TOKEN[c] == ABILITY_TOKENS[t]:
                s.tok_owner[t] = p


@njit(cache=True)
def consecrated(s, node: int) -> bool:
    """The Arch-priestess's Consecration: no combat on this corridor."""
    return token_on(s, node, C.TOK_CONSECRATION)


# --- step 1 of exploring: the tokens on the corridor (l.187) --------------------------------------
@njit(cache=True)
def tokens_to_resolve(s, f: int) -> int:
    """The tokens on the explored corridor not resolved yet (bits)."""
    node = s.ex_node[f]
    m = 0
    for i in range(NUM_ABILITY_TOKENS):
        if s.tok_node[i] == node and not (s.ex_tokens[f] >> i) & 1:
            m |= 1 << i
    return m


@njit(cache=True)
def token_types(bits: int) -> int:
    kinds = 0
    for i in range(NUM_ABILITY_TOKENS):
        if (bits >> i) & 1:
            kinds |= 1 << ABILITY_TOKENS[i]
    return kinds


@njit(cache=True)
def resolve_tokens(s, f: int) -> bool:
    """Resolve the next token of exploration ``f``; True once none is left. With tokens of
    two types or more left, the active player chooses the order (a decision)."""
    left = tokens_to_resolve(s, f)
    if left == 0:
        return True
    kinds = token_types(left)
    if kinds & (kinds - 1):
        set_decision(s, D_TOKEN_ORDER, s.seat)
        return False
    for i in range(NUM_ABILITY_TOKENS):
        if (left >> i) & 1:
            resolve_token(s, f, i)
            break
    return False


@njit(cache=True)
def token_order_mask(s, out) -> None:
    left = tokens_to_resolve(s, s.depth - 1)
    seen = 0
    for i in range(NUM_ABILITY_TOKENS):  # one action per type (tokens of a type are alike)
        k = ABILITY_TOKENS[i]
        if (left >> i) & 1 and not (seen >> k) & 1:
            out[A_RESOLVE_TOKEN + i] = 1
            seen |= 1 << k


@njit(cache=True)
def choose_token(s, action: int) -> None:
    resolve_token(s, s.depth - 1, action - A_RESOLVE_TOKEN)


@njit(cache=True)
def resolve_token(s, f: int, t: int) -> None:
    """One token's effect on the character exploring (every effect in ``components.CHARACTERS``)."""
    s.ex_tokens[f] |= np.uint32(1 << t)
    seat = s.ex_seat[f]
    node = s.ex_node[f]
    owner = s.tok_owner[t]
    kind = ABILITY_TOKENS[t]
    # its owner's own: the token spares (or, Faith, heals) him, unless he changed character
    mine = seat == owner and benefits(s, t)
    if kind == C.TOK_FAITH:
        if mine:
            emit(s, EV_TOKEN_EFFECT, seat, kind, node, owner)
            gain_life(s, seat, 1)
        return
    if mine:
        return  # the other tokens strike the other characters only
    if kind == C.TOK_HELLFIRE:
        emit(s, EV_TOKEN_EFFECT, seat, kind, node, owner)
        return_token(s, t)
        lose_life(s, seat, 1)
    elif kind == C.TOK_CURSE:
        emit(s, EV_TOKEN_EFFECT, seat, kind, node, owner)
        return_token(s, t)
        add_stun(s, seat, 1)
    elif kind == C.TOK_TORNADO:
        # only a character that came by its own move: one moved by a trap, a token or a lost
        # combat is not thrown again (two Tornadoes would throw it to and fro for ever)
        if s.ex_pickup[f] and s.ex_from[f] >= 0 and s.ex_from[f] != node:
            emit(s, EV_TOKEN_EFFECT, seat, kind, node, owner)
            throw_back(s, seat)
    elif kind == C.TOK_CHAOS_PORTAL and s.ex_pickup[f]:
        other = random_portal(s, t)
        if other >= 0:
            emit(s, EV_TOKEN_EFFECT, seat, kind, node, owner)
            portal_to(s, f, seat, other)


@njit(cache=True)
def random_portal(s, t: int) -> int:
    """Another Chaos Portal of the same owner on the board, at random (-1: none)."""
    count = 0
    for i in range(NUM_ABILITY_TOKENS):
        if other_portal(s, t, i):
            count += 1
    if count == 0:
        return -1
    k = randint(s.rng, count)
    for i in range(NUM_ABILITY_TOKENS):
        if other_portal(s, t, i):
            if k == 0:
                return s.tok_node[i]
            k -= 1
    return -1


@njit(cache=True)
def other_portal(s, t: int, i: int) -> bool:
    """Token ``i`` is another Chaos Portal of ``t``'s owner, on another corridor."""
    if i == t or ABILITY_TOKENS[i] != C.TOK_CHAOS_PORTAL or s.tok_owner[i] != s.tok_owner[t]:
        return False
    return s.tok_node[i] >= 0 and s.tok_node[i] != s.tok_node[t]


@njit(cache=True)
def portal_to(s, f: int, seat: int, target: int) -> None:
    """Through the portal: it explores the other corridor in place of this one, picking
    nothing up there (placed, not moved: l.358), and is not sent on again."""
    node = s.ex_node[f]
    s.depth = f
    emit(s, EV_PORTAL, seat, node, target)
    s.position[seat] = target
    push_exploration(s, seat, target, False, False, node)


# --- a tile leaves the board (l.152) ----------------------------------------------------------
@njit(cache=True)
def remove_tile(s, seat: int, cell: int) -> None:
    """The tile to the bottom of the Labyrinth pool, its traps and items back to their
    pools, the ability tokens on it back to their owners (l.152, l.487)."""
    pod.insert_tile(s, lift_tile(s, seat, cell), 0)


@njit(cache=True)
def lift_tile(s, seat: int, cell: int) -> int:
    """Take the tile off the board, everything on it back where l.152 sends it."""
    for k in range(MC):
        node = cell * MC + k
        if s.node_trap[node] >= 0:
            return_trap(s, seat, node)
        for i in range(NUM_ITEMS):
            if s.item_node[i] == node:
                return_item(s, i)
        for i in range(NUM_ABILITY_TOKENS):
            if s.tok_node[i] == node:
                return_token(s, i)
    tile = s.cell_tile[cell]
    hexboard.clear_cell(s, cell)
    return tile


# --- Rebuild (the Architect; activity) -----------------------------------------------------------
@njit(cache=True)
def rebuild_target(s, cell: int) -> bool:
    """A normal space tile (l.171) with no key token on it (l.152), no character and not
    the Golem (nothing says where they would go)."""
    if cell < 0 or cell >= NUM_BOARD or s.cell_tile[cell] < 0 or s.cell_tile[cell] >= C.NUM_NORMAL_TILES:
        return False
    for k in range(NUM_KEYS):
        if s.key_node[k] >= 0 and s.key_node[k] // MC == cell:
            return False
    for p in range(s.num_players):
        if s.position[p] >= 0 and s.position[p] // MC == cell:
            return False
    return s.golem_node // MC != cell


@njit(cache=True)
def rebuild_usable(s, seat: int) -> bool:
    """The Architect with his Crystal of Fate active (l.346)."""
    return is_character(s, seat, C.ARCHITECT) and s.crystal[seat] != 0


@njit(cache=True)
def rebuild_mask(s, seat: int, out) -> None:
    if rebuild_usable(s, seat):
        for cell in range(NUM_BOARD):
            if rebuild_target(s, cell):
                out[A_REBUILD + cell] = 1
                out[A_MOVE_TILE + cell] = 1


@njit(cache=True, inline="always")
def rebuild(s, seat: int, cell: int, move: bool) -> None:
    """Destroy the tile, or lift it and build it again where the Build rules allow."""
    s.crystal[seat] = 0
    emit(s, EV_REBUILD, seat, s.cell_tile[cell], cell, 1 if move else 0)
    if not move:
        remove_tile(s, seat, cell)
        return
    tile = lift_tile(s, seat, cell)
    pod.place_or_return(s, seat, tile, compute_placements(s, tile) > 0, D_PLACE, EV_BUILD_NOWHERE)


# --- Change (the Shapeshifter; activity) and Changing Characters (l.455-467) -----------------------
@njit(cache=True)
def shapeshift_legal(s, seat: int, c: int) -> bool:
    """The Shapeshifter with an active Crystal, into a character no one plays (and one the
    set-up allows)."""
    if not is_character(s, seat, C.SHAPESHIFTER) or s.crystal[seat] == 0:
        return False
    if c < 0 or c >= NUM_CHARACTERS or c == C.SHAPESHIFTER or not (dealable(s) >> c) & 1:
        return False
    return not (characters.taken(s.character, s.num_players) >> c) & 1


@njit(cache=True)
def shapeshift_mask(s, seat: int, out) -> None:
    if is_character(s, seat, C.SHAPESHIFTER) and s.crystal[seat] != 0:
        for c in range(NUM_CHARACTERS):
            if shapeshift_legal(s, seat, c):
                out[A_SHAPESHIFT + c] = 1


@njit(cache=True)
def change_character(s, seat: int, c: int) -> None:
    """l.459-463: Life, Crystal, stun, keys and items stay; the old character's tokens on
    the board stay (``benefits`` keeps the new one from their good), those in hand go back
    to the box; the new character's tokens not on the board are taken."""
    for i in range(NUM_ABILITY_TOKENS):
        if s.tok_owner[i] == seat and s.tok_node[i] < 0:
            s.tok_owner[i] = -1
    give_character(s, seat, c, CHAR_CHANGED)


@njit(cache=True)
def shapeshift(s, seat: int, c: int) -> None:
    s.crystal[seat] = 0
    change_character(s, seat, c)


# --- Steal (the Thief) -------------------------------------------------------------------------------
@njit(cache=True)
def steal(s, winner: int, loser: int) -> None:
    """The Thief who wins a combat takes a key token from the loser."""
    if not is_character(s, winner, C.THIEF):
        return
    for k in range(NUM_KEYS):
        if s.key_holder[k] == loser:
            s.key_holder[k] = winner
            emit(s, EV_STEAL, winner, loser, k)
            return


# --- Fury and Dismember (the War Sister) --------------------------------------------------------
@njit(cache=True)
def fury_seat(s) -> int:
    """The War Sister losing the combat being resolved, if she may still use Fury (once per
    combat, not with her last Life, not stunned; l.445: after both Combat Checks)."""
    if s.fury_used:
        return -1
    att, dfn = s.ck_seat, s.ck_opp
    loser = dfn if s.ck_a > s.ck_b else att
    if is_character(s, loser, C.WAR_SISTER) and s.life[loser] > C.FURY_LIFE and s.stun[loser] == 0:
        return loser
    return -1


@njit(cache=True)
def fury_mask(out) -> None:
    out[A_FURY] = 1
    out[A_NO_FURY] = 1


@njit(cache=True)
def fury(s, who: int, action: int) -> bool:
    """Use Fury: 1 Life for +2 to her check. True if the checks now tie (repeat both, l.234)."""
    s.fury_used = 1
    if action == A_NO_FURY:
        return False
    lose_life(s, who, C.FURY_LIFE)
    if who == s.ck_seat:
        s.ck_a += C.FURY_BONUS
        total = s.ck_a
    else:
        s.ck_b += C.FURY_BONUS
        total = s.ck_b
    emit(s, EV_FURY, who, total)
    return s.ck_a == s.ck_b


@njit(cache=True)
def dismember(s, winner: int, loser: int) -> int:
    """The Life the loser loses: all of it against the War Sister (l.445), else 1."""
    if is_character(s, winner, C.WAR_SISTER) and s.life[loser] > 1:
        emit(s, EV_DISMEMBER, winner, loser)
        return s.life[loser]
    return 1
