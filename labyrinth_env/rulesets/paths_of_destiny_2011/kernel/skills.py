"""Characters and their skills (l.128-134, l.367-418): the cards dealt, fixed or chosen in turn
(the draft decision), who may use a skill (not on the start field, l.132; not stunned,
l.351), the tokens (adrenaline, blessing, curse: l.47-51) and the skills the kernel plays,
each skill's legality, mask and effect side by side. The card texts (the rulebook's names,
our completions and reconstructions) are in ``components.SKILLS``.

A blessing (+1) or a curse (-1) lies on a player until his next dice throw: it changes that
throw, and a repeat with the fate crystal, which "is not a new throw" (l.362); the tokens
go back to the Monk's or the Witch's supply once the throw is settled."""

from __future__ import annotations

from labyrinth_env.core import characters
from labyrinth_env.core.contract import set_decision
from labyrinth_env.core.corridors import corridor_across
from labyrinth_env.core.events import emit
from labyrinth_env.core.hexboard import at_start, occupants
from labyrinth_env.core.jit import njit
from labyrinth_env.core.rng import randint, roll_2d6
from labyrinth_env.rulesets.paths_of_destiny_2011 import components as C

from .enslavement import enslave, enslave_legal
from .entering import do_move
from .illusion import begin_face_down, illusion_possible
from .life import add_stun
from .queries import move_target
from .tables import (
    A_CHARACTER,
    A_NO_THEFT,
    A_PRAY,
    A_SKILL,
    A_SKILL_AT,
    A_SKILL_DIR,
    A_TRAP_ORDER,
    ARCHER,
    ARCHITECT,
    ASSASSIN,
    CENTER_CELL,
    CK_DISARM,
    CK_FIGHT,
    CK_FIRST,
    CK_NONE,
    CK_SHOT,
    CK_THEFT,
    D_THEFT,
    D_WHICH_TRAP,
    EV_CHARACTER,
    EV_DISARM,
    EV_SHOT,
    EV_SKILL,
    EV_TAKE_KEY,
    EV_THEFT,
    EV_TOKENS,
    EV_TRAP_REVEALED,
    HEAD_HUNTER,
    ILLUSIONIST,
    KEY_NODES,
    M_ENTER,
    M_LEAVE,
    MC,
    MISTRESS,
    MONK,
    NEIGHBORS,
    NO_TARGET,
    NUM_BOARD,
    NUM_CHARACTERS,
    NUM_KEYS,
    NUM_SEATS,
    OPT_CHARS,
    SK_ADRENALINE,
    SK_BLESSING,
    SK_BOUNTY,
    SK_CLIMBING,
    SK_CURSE,
    SK_DARK_ENLIVENING,
    SK_DISARM,
    SK_DISARMING,
    SK_DOMINATION,
    SK_ENSLAVEMENT,
    SK_GOLEM_WARD,
    SK_KEEN_EYE,
    SK_MEDITATION,
    SK_MIRROR_IMAGE,
    SK_MISFORTUNE_RITE,
    SK_MYSTIFICATION,
    SK_PARRY,
    SK_PRAYER,
    SK_QUICK_FINGERS,
    SK_SHORTCUT,
    SK_SHOT,
    SK_SILENT_STEP,
    SK_SPREADING_ILLUSION,
    SK_THEFT,
    SK_TIME_LOOP,
    SKILLS_PER_CHARACTER,
    SWORD_MASTER,
    THIEF,
    TOKEN_ADRENALINE,
    TOKEN_BLESSING,
    TOKEN_CURSE,
    TRAP_DIFF,
    TRAP_DIFF2,
    TRAP_TOKENS,
    WITCH,
)
from .timeloop import time_loop, time_loop_legal

SEAT_OFFSETS = NUM_SEATS - 1
ALL_CHARACTERS = (1 << NUM_CHARACTERS) - 1  # every card may be dealt, whatever the player count


# --- the cards (set-up step 8, l.74) ----------------------------------------------------------
@njit(cache=True)
def setup_characters(s) -> None:
    """No tokens on anyone; the cards dealt from the record's generator, given by the
    options, or left to the draft (``draft_pos`` < players). Nothing is drawn without
    characters, so such a game throws the same dice as before them."""
    n = s.num_players
    s.adrenaline[:] = 0
    s.blessing[:] = 0
    s.curse[:] = 0
    s.shot_queue = 0
    s.adrenaline_used = 0
    s.draft_pos = n
    s.char_mode = characters.deal(s.options, OPT_CHARS, s.rng, s.character, n, ALL_CHARACTERS)
    if s.char_mode == characters.MODE_DRAFT:
        s.draft_pos = 0
        return
    if s.char_mode != characters.MODE_NONE:
        for p in range(n):
            emit(s, EV_CHARACTER, p, s.character[p])


@njit(cache=True)
def drafting(s) -> bool:
    return s.draft_pos < s.num_players


@njit(cache=True)
def character_mask(s, out) -> None:
    characters.draft_mask(s.character, s.num_players, ALL_CHARACTERS, out, A_CHARACTER, NUM_CHARACTERS)


@njit(cache=True)
def take_character(s, seat: int, action: int) -> None:
    """The seat keeps that card to the end of the game (l.130); the next seat chooses."""
    s.character[seat] = action - A_CHARACTER
    emit(s, EV_CHARACTER, seat, s.character[seat])
    s.draft_pos += 1


# --- who may use a skill ---------------------------------------------------------------------------
@njit(cache=True)
def can_use_skills(s, seat: int) -> bool:
    """A character, off its start field (l.132), not stunned (l.351)."""
    return s.character[seat] >= 0 and s.stun[seat] == 0 and not at_start(s, seat)


@njit(cache=True)
def skill_active(s, seat: int, skill: int) -> bool:
    return s.character[seat] == skill // SKILLS_PER_CHARACTER and can_use_skills(s, seat)


@njit(cache=True)
def on_board(s, seat: int) -> bool:
    return s.position[seat] >= 0 and not at_start(s, seat)


@njit(cache=True)
def next_to(s, a: int, b: int) -> bool:
    """Corridor ``b`` joins corridor ``a`` across a field's edge (one move apart)."""
    for d in range(6):
        if (s.node_mask[a] >> d) & 1 and corridor_across(s.node_mask, NEIGHBORS, a // MC, d, MC) == b:
            return True
    return False


@njit(cache=True)
def in_reach(s, seat: int, target: int, same: bool) -> bool:
    """``target`` stands on the board in ``seat``'s corridor (``same``) or in one next to it."""
    if target < 0 or target == seat or not on_board(s, target):
        return False
    a = s.position[seat]
    b = s.position[target]
    return a == b if same else (a == b or next_to(s, a, b))


@njit(cache=True)
def tokens_out(tokens, n: int) -> int:
    t = 0
    for p in range(n):
        t += tokens[p]
    return t


# --- the throws' modifiers: blessings and curses ---------------------------------------------------
@njit(cache=True)
def throw_modifier(s, seat: int) -> int:
    """+1 per blessing, -1 per curse on the player (curses accumulate, l.415)."""
    return s.blessing[seat] - s.curse[seat]


@njit(cache=True)
def spend_tokens(s, seat: int) -> None:
    """The throw is settled: its blessings and curses go back to the supplies."""
    if s.blessing[seat] != 0:
        emit(s, EV_TOKENS, seat, TOKEN_BLESSING, -s.blessing[seat], 0)
        s.blessing[seat] = 0
    if s.curse[seat] != 0:
        emit(s, EV_TOKENS, seat, TOKEN_CURSE, -s.curse[seat], 0)
        s.curse[seat] = 0


@njit(cache=True)
def throw_settled(s, kind: int) -> None:
    """After the throw in progress (``ck_*``) is settled, whoever threw spends its tokens (a
    fight: every member of both sides)."""
    if kind in (CK_NONE, CK_FIRST):
        return
    if kind == CK_FIGHT:
        for p in range(s.num_players):
            if (s.ck_att >> p) & 1 or p == s.ck_def:
                spend_tokens(s, p)
        return
    spend_tokens(s, s.ck_seat)


@njit(cache=True)
def fight_bonus(s, seat: int) -> int:
    """Domination (l.402): +1 in every fight, on the central field with a key too."""
    return 1 if skill_active(s, seat, SK_DOMINATION) else 0


@njit(cache=True)
def climbing(s, seat: int) -> bool:
    """Climbing (l.375): the +1 after a jump down, even after a fall."""
    return skill_active(s, seat, SK_CLIMBING)


# --- Adrenaline (the Female Archer, l.390) ---------------------------------------------------------
@njit(cache=True)
def adrenaline_legal(s, seat: int) -> bool:
    return skill_active(s, seat, SK_ADRENALINE) and s.adrenaline[seat] > 0 and not s.adrenaline_used


@njit(cache=True)
def use_adrenaline(s, seat: int) -> None:
    """Hand a token back: one more action this round (once a round)."""
    s.adrenaline[seat] -= 1
    s.adrenaline_used = 1
    s.actions_left += 1
    emit(s, EV_SKILL, seat, SK_ADRENALINE, NO_TARGET, -1)
    emit(s, EV_TOKENS, seat, TOKEN_ADRENALINE, -1, s.adrenaline[seat])


# --- Shot (the Female Archer, l.391-392) -----------------------------------------------------------
@njit(cache=True)
def shot_targets(s, seat: int) -> int:
    """The other players in the corridors next to the Archer's."""
    out = 0
    for q in range(s.num_players):
        if q != seat and in_reach(s, seat, q, False) and s.position[q] != s.position[seat]:
            out |= 1 << q
    return out


@njit(cache=True)
def shot_legal(s, seat: int) -> bool:
    """The Shot, "use skill 2": at every player in range (with one there, at him)."""
    return s.actions_left >= 1 and skill_active(s, seat, SK_SHOT) and shot_targets(s, seat) != 0


@njit(cache=True)
def shot_at_legal(s, seat: int, target: int) -> bool:
    """The Shot, "use skill 2 on player +j": at him alone, where two or more are in range: "you can
    shoot both of them" (l.391) is a permission, so she may shoot one."""
    if not shot_legal(s, seat):
        return False
    targets = shot_targets(s, seat)
    return ((targets >> target) & 1) == 1 and (targets & (targets - 1)) != 0


@njit(cache=True)
def shoot(s, seat: int, target: int) -> None:
    """At ``target`` alone, or (``NO_TARGET``) at every player in range (l.391); each throws
    in turn (``next_shot``)."""
    s.shot_queue = shot_targets(s, seat) if target == NO_TARGET else 1 << target
    emit(s, EV_SKILL, seat, SK_SHOT, target, -1)


@njit(cache=True)
def throw_against_shot(s) -> None:
    s.ck_a = roll_2d6(s.rng) + throw_modifier(s, s.ck_seat)
    emit(s, EV_SHOT, s.ck_seat, s.ck_a, 1 if s.ck_a < C.SHOT_HIT else 0, s.seat)


@njit(cache=True)
def next_shot(s) -> None:
    """The next player shot at throws 2 dice for himself (l.391)."""
    q = 0
    while not (s.shot_queue >> q) & 1:
        q += 1
    s.shot_queue &= ~(1 << q)
    s.ck_kind = CK_SHOT
    s.ck_seat = q
    throw_against_shot(s)


@njit(cache=True)
def shot_outcome(s, seat: int) -> None:
    """Below 7 he is hit: 1 stun point (a skill giving stun points, l.345)."""
    if s.ck_a < C.SHOT_HIT:
        add_stun(s, seat, 1)


# --- Disarming Traps (the Thief, l.411) --------------------------------------------------------------
@njit(cache=True)
def disarm_legal(s, seat: int) -> bool:
    """A trap in the Thief's corridor (the Guard there does not matter, l.411)."""
    return s.actions_left >= 1 and skill_active(s, seat, SK_DISARMING) and s.node_trap[s.position[seat]] >= 0


@njit(cache=True)
def disarm(s, seat: int) -> None:
    """l.411 "disarming a trap in that corridor": one trap, so of a corridor's two the Thief
    chooses which (``D_WHICH_TRAP``; v5 always took the first set)."""
    node = s.position[seat]
    emit(s, EV_SKILL, seat, SK_DISARMING, NO_TARGET, node)
    if s.node_trap2[node] >= 0:
        set_decision(s, D_WHICH_TRAP, seat)
        return
    throw_to_disarm(s, seat, node)


@njit(cache=True)
def throw_to_disarm(s, seat: int, node: int) -> None:
    """Throw 2 dice against the corridor's first trap's number (its highest, of the ways it
    works; the bracketed one once anyone failed it)."""
    ty = TRAP_TOKENS[s.node_trap[node]]
    mode = M_ENTER
    for m in range(M_LEAVE + 1):  # the trap's highest number, whichever way it works
        if TRAP_DIFF[ty, m] > TRAP_DIFF[ty, mode]:
            mode = m
    s.ck_kind = CK_DISARM
    s.ck_seat = seat
    s.ck_node = node
    s.ck_trap = ty
    s.ck_mode = mode
    s.ck_diff = TRAP_DIFF2[ty, mode] if s.trap_failed[node] else TRAP_DIFF[ty, mode]
    throw_against_disarm(s)


@njit(cache=True)
def throw_against_disarm(s) -> None:
    s.ck_a = roll_2d6(s.rng) + throw_modifier(s, s.ck_seat)
    emit(s, EV_DISARM, s.ck_seat, s.ck_node, s.ck_trap, s.ck_a, 1 if s.ck_a >= s.ck_diff else 0)


@njit(cache=True)
def disarm_outcome(s) -> None:
    """At the number or more the token leaves the board, shuffled back into the trap pile
    (the 57 tokens stay in the game)."""
    if s.ck_a < s.ck_diff:
        return
    node = s.ck_node
    token = s.node_trap[node]
    s.node_trap[node] = -1
    s.trap_up[node] = 0
    s.trap_failed[node] = 0
    settle_slots(s, node)
    for p in range(s.num_players):  # a trap that is gone holds nobody back (l.120)
        if s.position[p] == node:
            s.trap_fell &= ~(1 << p)
    n = s.trap_pool_len
    j = randint(s.rng, n + 1)
    s.trap_pool[n] = s.trap_pool[j]
    s.trap_pool[j] = token
    s.trap_pool_len = n + 1


# --- Theft (the Thief, l.410) ---------------------------------------------------------------------
@njit(cache=True)
def keys_held_by(s, seat: int) -> int:
    n = 0
    for k in range(s.key_holder.shape[0]):
        if s.key_holder[k] == seat:
            n += 1
    return n


@njit(cache=True)
def theft_victims(s, thief: int, node: int) -> int:
    """The players of corridor ``node`` holding a key, besides the Thief."""
    out = 0
    for q in range(s.num_players):
        if q != thief and s.position[q] == node and keys_held_by(s, q) > 0:
            out |= 1 << q
    return out


@njit(cache=True)
def offer_theft(s) -> bool:
    """An encounter begins (``fights.encounter_step``): a Thief in it (coming in or there)
    with a key carrier beside him may try, before attacks are declared (l.410). Whether he
    is asked depends only on public things (the cards, l.131; the keys held)."""
    s.ex_theft = 1
    node = s.ex_node
    for p in range(s.num_players):
        thief = s.position[p] == node and s.character[p] == THIEF and skill_active(s, p, SK_THEFT)
        if thief and theft_victims(s, p, node) != 0:
            set_decision(s, D_THEFT, p)
            return True
    return False


@njit(cache=True)
def theft_mask(s, thief: int, out) -> None:
    out[A_NO_THEFT] = 1
    v = theft_victims(s, thief, s.position[thief])
    n = s.num_players
    for off in range(1, n):
        if (v >> ((thief + off) % n)) & 1:
            out[A_SKILL_AT + off - 1] = 1


@njit(cache=True)
def try_theft(s, thief: int, action: int) -> None:
    """Throw 2 dice: at 8 or more one key of that player is the Thief's."""
    if action == A_NO_THEFT:
        return
    victim = (thief + action - A_SKILL_AT + 1) % s.num_players
    emit(s, EV_SKILL, thief, SK_THEFT, victim, -1)
    s.ck_kind = CK_THEFT
    s.ck_seat = thief
    s.ck_def = victim
    throw_against_theft(s)


@njit(cache=True)
def throw_against_theft(s) -> None:
    s.ck_a = roll_2d6(s.rng) + throw_modifier(s, s.ck_seat)
    emit(s, EV_THEFT, s.ck_seat, s.ck_def, s.ck_a, 1 if s.ck_a >= C.THEFT_SUCCESS else 0)


@njit(cache=True)
def take_one_key(s, taker: int, victim: int) -> None:
    for k in range(s.key_holder.shape[0]):
        if s.key_holder[k] == victim:
            s.key_holder[k] = taker
            s.key_touched[k] |= 1 << taker
            emit(s, EV_TAKE_KEY, taker, k, victim)
            return


@njit(cache=True)
def theft_outcome(s) -> None:
    if s.ck_a >= C.THEFT_SUCCESS and s.position[s.ck_def] == s.position[s.ck_seat]:
        take_one_key(s, s.ck_seat, s.ck_def)


# --- the reconstructed passives: Keen Eye, Silent Step, Bounty, Golem Ward ---------------------------
@njit(cache=True)
def trap_bonus(s, seat: int) -> int:
    """Keen Eye (the Female Archer): +1 against traps."""
    return 1 if s.character[seat] == ARCHER and skill_active(s, seat, SK_KEEN_EYE) else 0


@njit(cache=True)
def silent(s, seat: int) -> bool:
    """Silent Step (the Assassin): nobody there attacks him as he comes in."""
    return s.character[seat] == ASSASSIN and skill_active(s, seat, SK_SILENT_STEP)


@njit(cache=True)
def guard_needed(s, seat: int) -> int:
    """The throw that keeps a player in the Guard's corridor: 12 (l.329), 10 with Golem Ward."""
    if s.character[seat] == MISTRESS and skill_active(s, seat, SK_GOLEM_WARD):
        return C.GOLEM_WARD_STAY
    return C.GUARD_STAY


@njit(cache=True)
def bounty(s, winners: int, losers: int) -> None:
    """Bounty (the Head Hunter): winning a fight, he takes a key of a loser carrying one."""
    for p in range(s.num_players):
        if (winners >> p) & 1 and s.character[p] == HEAD_HUNTER and skill_active(s, p, SK_BOUNTY):
            for q in range(s.num_players):
                if (losers >> q) & 1 and keys_held_by(s, q) > 0:
                    emit(s, EV_SKILL, p, SK_BOUNTY, q, -1)
                    take_one_key(s, p, q)
                    return


@njit(cache=True)
def mirror_image(s, seat: int) -> bool:
    """Mirror Image (the Illusionist): the first fight thrown against her in a round is
    thrown again (marked used here)."""
    if s.character[seat] != ILLUSIONIST or not skill_active(s, seat, SK_MIRROR_IMAGE):
        return False
    if (s.mirror_used >> seat) & 1:
        return False
    s.mirror_used |= 1 << seat
    emit(s, EV_SKILL, seat, SK_MIRROR_IMAGE, NO_TARGET, -1)
    return True


@njit(cache=True)
def shortcut(s, seat: int, d: int) -> bool:
    """Shortcut (the Architect): once a round, while he carries no key, his move from a field
    he built into another field he built costs no action (marked used here). v3's "into a
    field he built", with or without a key, put him at 2x the fair share with 4-6 players."""
    if s.character[seat] != ARCHITECT or s.shortcut_used or not skill_active(s, seat, SK_SHORTCUT):
        return False
    for k in range(NUM_KEYS):
        if s.key_holder[k] == seat:  # the way out with a key is walked in full
            return False
    here = s.position[seat] // MC
    if here >= NUM_BOARD or s.cell_builder[here] != seat:
        return False
    to = move_target(s, seat, d)
    if to < 0 or to // MC >= NUM_BOARD or s.cell_builder[to // MC] != seat:
        return False
    s.shortcut_used = 1
    emit(s, EV_SKILL, seat, SK_SHORTCUT, NO_TARGET, to)
    return True


@njit(cache=True)
def quick_fingers(s, seat: int) -> bool:
    """Quick Fingers (the Thief): on a key field the players there never stop him lifting."""
    if s.character[seat] != THIEF or not skill_active(s, seat, SK_QUICK_FINGERS):
        return False
    for i in range(KEY_NODES.shape[0]):
        if KEY_NODES[i] == s.position[seat]:
            return True
    return False


@njit(cache=True)
def parry(s, seat: int) -> bool:
    """Parry (the Sword Master): defending alone, one die more, the lowest dropped."""
    return s.character[seat] == SWORD_MASTER and skill_active(s, seat, SK_PARRY)


@njit(cache=True)
def meditation(s, seat: int) -> None:
    """Meditation (the Monk): at the start of his round, alone in his corridor, a blessing
    token from his supply onto himself."""
    if s.character[seat] != MONK or not skill_active(s, seat, SK_MEDITATION):
        return
    if tokens_out(s.blessing, s.num_players) >= C.BLESSING_TOKENS:
        return
    for q in range(s.num_players):
        if q != seat and s.position[q] == s.position[seat]:
            return
    s.blessing[seat] += 1
    emit(s, EV_SKILL, seat, SK_MEDITATION, seat, -1)
    emit(s, EV_TOKENS, seat, TOKEN_BLESSING, 1, s.blessing[seat])


@njit(cache=True)
def disarm_losers(s, winners: int, losers: int) -> None:
    """Disarm (the Sword Master): who loses a fight to him may not attack until the end of
    his next round."""
    for p in range(s.num_players):
        if (winners >> p) & 1 and s.character[p] == SWORD_MASTER and skill_active(s, p, SK_DISARM):
            for q in range(s.num_players):
                if (losers >> q) & 1:
                    s.disarmed |= 1 << q
                    s.disarm_turn[q] = s.turn
            emit(s, EV_SKILL, p, SK_DISARM, NO_TARGET, -1)
            return


@njit(cache=True)
def rearm(s, seat: int) -> None:
    """His round ends: a Disarm of an earlier round is over."""
    if (s.disarmed >> seat) & 1 and s.disarm_turn[seat] != s.turn:
        s.disarmed &= ~(1 << seat)


# --- Blessing (the Monk) and Curse (the Witch, l.415) ------------------------------------------------
@njit(cache=True)
def blessing_legal(s, seat: int, target: int) -> bool:
    """Yourself or a player in your corridor, a blessing token left."""
    if s.actions_left < 1 or not skill_active(s, seat, SK_BLESSING):
        return False
    if tokens_out(s.blessing, s.num_players) >= C.BLESSING_TOKENS:
        return False
    return target == seat or in_reach(s, seat, target, True)


@njit(cache=True)
def curse_legal(s, seat: int, target: int) -> bool:
    """Another player in your corridor or one next to it, a curse token left."""
    if s.actions_left < 1 or not skill_active(s, seat, SK_CURSE):
        return False
    if tokens_out(s.curse, s.num_players) >= C.CURSE_TOKENS:
        return False
    return in_reach(s, seat, target, False)


@njit(cache=True)
def bless(s, seat: int, target: int) -> None:
    s.blessing[target] += 1
    emit(s, EV_SKILL, seat, SK_BLESSING, target, -1)
    emit(s, EV_TOKENS, target, TOKEN_BLESSING, 1, s.blessing[target])


@njit(cache=True)
def curse(s, seat: int, target: int) -> None:
    s.curse[target] += 1
    emit(s, EV_SKILL, seat, SK_CURSE, target, -1)
    emit(s, EV_TOKENS, target, TOKEN_CURSE, 1, s.curse[target])


@njit(cache=True)
def swap_slots(s, node: int) -> None:
    """The corridor's two traps change slots."""
    t, up, failed = s.node_trap2[node], s.trap2_up[node], s.trap2_failed[node]
    s.node_trap2[node], s.trap2_up[node], s.trap2_failed[node] = s.node_trap[node], s.trap_up[node], s.trap_failed[node]
    s.node_trap[node], s.trap_up[node], s.trap_failed[node] = t, up, failed


@njit(cache=True)
def settle_slots(s, node: int) -> None:
    """A second trap left alone (the first disarmed or moved) becomes the first."""
    if s.node_trap[node] < 0 and s.node_trap2[node] >= 0:
        swap_slots(s, node)


# --- Dark Enlivening (the Witch, l.416) and Mystification (the Illusionist, l.382) -------------------
@njit(cache=True)
def across(s, node: int, d: int) -> int:
    """The corridor joined to ``node`` across its field's edge ``d`` (-1: none)."""
    if not (s.node_mask[node] >> d) & 1:
        return -1
    return corridor_across(s.node_mask, NEIGHBORS, node // MC, d, MC)


@njit(cache=True)
def swap_traps(s, a: int, b: int) -> None:
    """Mystification: every trap of corridor ``a`` and every trap of ``b`` (none, one or
    two on either side) change places, l.382 "swapping places of the traps", a corridor's
    two going together (v5 moved only the first); each token face up or down and failed or
    not as it was; nobody counts as fallen into a trap that left."""
    t, up, failed = s.node_trap[b], s.trap_up[b], s.trap_failed[b]
    s.node_trap[b], s.trap_up[b], s.trap_failed[b] = s.node_trap[a], s.trap_up[a], s.trap_failed[a]
    s.node_trap[a], s.trap_up[a], s.trap_failed[a] = t, up, failed
    t, up, failed = s.node_trap2[b], s.trap2_up[b], s.trap2_failed[b]
    s.node_trap2[b], s.trap2_up[b], s.trap2_failed[b] = s.node_trap2[a], s.trap2_up[a], s.trap2_failed[a]
    s.node_trap2[a], s.trap2_up[a], s.trap2_failed[a] = t, up, failed
    for p in range(s.num_players):
        if s.position[p] == a or s.position[p] == b:
            s.trap_fell &= ~(1 << p)


@njit(cache=True)
def enliven_legal(s, seat: int, d: int) -> bool:
    """The trap of the Witch's corridor into the corridor across ``d``: a board corridor
    with no trap or one, "You cannot move the trap to the corridor, where there are already
    two traps" (l.416; her skill prevails over l.218's one trap a corridor, l.134); nobody
    there (as for setting one, l.220)."""
    if s.actions_left < 1 or not skill_active(s, seat, SK_DARK_ENLIVENING):
        return False
    node = s.position[seat]
    if s.node_trap[node] < 0:
        return False
    to = across(s, node, d)
    if to < 0 or not board_corridor(to) or s.node_trap2[to] >= 0:
        return False
    return occupants(s, to, seat) == 0


@njit(cache=True)
def enliven(s, a: int, b: int) -> None:
    """Dark Enlivening: the trap of corridor ``a`` (its first) goes to ``b``, as its only
    trap or, where ``b`` has one, as its second; face up or down and failed or not as it
    was; nobody counts as fallen into a trap that left."""
    if s.node_trap[b] < 0:
        s.node_trap[b], s.trap_up[b], s.trap_failed[b] = s.node_trap[a], s.trap_up[a], s.trap_failed[a]
    else:
        s.node_trap2[b], s.trap2_up[b], s.trap2_failed[b] = s.node_trap[a], s.trap_up[a], s.trap_failed[a]
    s.node_trap[a], s.trap_up[a], s.trap_failed[a] = -1, 0, 0
    settle_slots(s, a)
    for p in range(s.num_players):
        if s.position[p] == a:
            s.trap_fell &= ~(1 << p)


@njit(cache=True)
def board_corridor(node: int) -> bool:
    """A corridor of a board field (neither the central field nor the frame)."""
    cell = node // MC
    return cell < NUM_BOARD and cell != CENTER_CELL


@njit(cache=True)
def mystify_legal(s, seat: int, d: int) -> bool:
    """The traps of the Illusionist's corridor and of the one across ``d`` change places
    (at least one of them has a trap; neither is the central or a start field); the Guard
    there does not stop it (l.382)."""
    if s.actions_left < 1 or not skill_active(s, seat, SK_MYSTIFICATION):
        return False
    node = s.position[seat]
    to = across(s, node, d)
    if to < 0 or (s.node_trap[node] < 0 and s.node_trap[to] < 0):
        return False
    return board_corridor(node) and board_corridor(to)


# --- Misfortune Rite (the Witch, l.417-418; the throws and her decision: ``rite``) -----------------
@njit(cache=True)
def rite_targets(s, node: int) -> int:
    out = 0
    for q in range(s.num_players):
        if q != s.seat and s.position[q] == node:
            out |= 1 << q
    return out


@njit(cache=True)
def rite_legal(s, seat: int, d: int) -> bool:
    """A trap in the corridor across ``d`` and someone standing there."""
    if s.actions_left < 1 or not skill_active(s, seat, SK_MISFORTUNE_RITE):
        return False
    to = across(s, s.position[seat], d)
    return to >= 0 and s.node_trap[to] >= 0 and rite_targets(s, to) != 0


@njit(cache=True)
def misfortune_rite(s, seat: int, d: int) -> None:
    """l.417-418 speak of the trap the Witch activates, one trap: of a corridor's two she
    chooses which (``D_WHICH_TRAP``; v5 always set off the first set)."""
    to = across(s, s.position[seat], d)
    emit(s, EV_SKILL, seat, SK_MISFORTUNE_RITE, NO_TARGET, to)
    if s.node_trap2[to] >= 0:
        s.rite_node = to  # where, until she has chosen (nothing is queued yet)
        s.rite_queue = 0
        set_decision(s, D_WHICH_TRAP, seat)
        return
    set_off(s, seat, to)


@njit(cache=True)
def set_off(s, seat: int, to: int) -> None:
    """The corridor's first trap is uncovered and goes off on each player there (a door
    trap: nothing, l.417)."""
    ty = TRAP_TOKENS[s.node_trap[to]]
    if not s.trap_up[to]:
        s.trap_up[to] = 1
        emit(s, EV_TRAP_REVEALED, seat, to, ty)
    if TRAP_DIFF[ty, M_ENTER] > 0:
        s.rite_node = to
        s.rite_queue = rite_targets(s, to)
    else:
        s.rite_node = -1


# --- which of two traps (Disarming Traps, the Misfortune Rite: decision) ---------------------------
@njit(cache=True)
def which_trap_mask(out) -> None:
    out[A_TRAP_ORDER] = 1
    out[A_TRAP_ORDER + 1] = 1


@njit(cache=True)
def choose_which_trap(s, seat: int, action: int) -> None:
    """The trap chosen goes to the first slot, where the skill's own code reads it."""
    rite = s.rite_node >= 0
    node = s.rite_node if rite else s.position[seat]
    if action == A_TRAP_ORDER + 1:
        swap_slots(s, node)
    if rite:
        set_off(s, seat, node)
    else:
        throw_to_disarm(s, seat, node)


# --- Prayer (the Monk, l.396) ---------------------------------------------------------------------
@njit(cache=True)
def prayer_legal(s, seat: int, target: int, d: int) -> bool:
    """Another player in the Monk's corridor, one move he could make himself."""
    if s.actions_left < 1 or not skill_active(s, seat, SK_PRAYER):
        return False
    return in_reach(s, seat, target, True) and move_target(s, target, d) >= 0


@njit(cache=True)
def pray(s, seat: int, target: int, d: int) -> None:
    """He is moved and bears the standard consequences there (l.396): the Guard, a trap, the
    players, as after his own move (a door trap of the corridor he leaves does not hold
    him: he does not try to leave it)."""
    emit(s, EV_SKILL, seat, SK_PRAYER, target, move_target(s, target, d))
    do_move(s, target, d)


# --- the skill actions ----------------------------------------------------------------------------
@njit(cache=True)
def seat_at(s, off: int) -> int:
    """The seat ``off`` (1-5) places after the active player's (-1: none)."""
    return (s.seat + off) % s.num_players if off < s.num_players else -1


@njit(cache=True)
def skill_allowed(s, seat: int, action: int) -> bool:
    """A skill action, for a seat that may use skills (``can_use_skills``)."""
    c = s.character[seat]
    if action < A_SKILL_AT:
        skill = c * SKILLS_PER_CHARACTER + action - A_SKILL
        if skill == SK_ADRENALINE:
            return adrenaline_legal(s, seat)
        if skill == SK_SHOT:
            return shot_legal(s, seat)
        if skill == SK_DISARMING:
            return disarm_legal(s, seat)
        if skill == SK_BLESSING:
            return blessing_legal(s, seat, seat)
        if skill == SK_TIME_LOOP:
            return time_loop_legal(s, seat)
        if skill == SK_SPREADING_ILLUSION:  # one action, as building (l.148)
            return s.actions_left >= 1 and illusion_possible(s)
        return False
    if action < A_SKILL_DIR:
        k = action - A_SKILL_AT
        skill = c * SKILLS_PER_CHARACTER + k // SEAT_OFFSETS
        target = seat_at(s, k % SEAT_OFFSETS + 1)
        if target < 0:
            return False
        if skill == SK_BLESSING:
            return blessing_legal(s, seat, target)
        if skill == SK_CURSE:
            return curse_legal(s, seat, target)
        if skill == SK_ENSLAVEMENT:
            return enslave_legal(s, seat, target)
        if skill == SK_SHOT:
            return shot_at_legal(s, seat, target)
        return False
    if action < A_PRAY:
        k = action - A_SKILL_DIR
        skill = c * SKILLS_PER_CHARACTER + k // 6
        if skill == SK_DARK_ENLIVENING:
            return enliven_legal(s, seat, k % 6)
        if skill == SK_MYSTIFICATION:
            return mystify_legal(s, seat, k % 6)
        if skill == SK_MISFORTUNE_RITE:
            return rite_legal(s, seat, k % 6)
        return False
    k = action - A_PRAY
    target = seat_at(s, k // 6 + 1)
    return c == MONK and target >= 0 and prayer_legal(s, seat, target, k % 6)


@njit(cache=True)
def skill_legal(s, seat: int, action: int) -> bool:
    """Whether a skill action is allowed now (the main decision): a character off its start
    field, not stunned (l.132, l.351), and the skill's own conditions (l.133)."""
    return can_use_skills(s, seat) and skill_allowed(s, seat, action)


@njit(cache=True, inline="always")
def skill_mask(s, seat: int, out) -> None:
    """``skill_legal`` for every skill action (``out`` zeroed), only the groups of the
    seat's character asked."""
    c = s.character[seat]
    if c < 0 or not can_use_skills(s, seat):
        return
    lo, hi = A_SKILL, A_SKILL_AT
    if c == MONK:
        # Blessing (on himself, on a player), then Prayer only with someone in his corridor
        out[A_SKILL + 1] = 1 if skill_allowed(s, seat, A_SKILL + 1) else 0
        lo, hi = A_SKILL_AT + SEAT_OFFSETS, A_SKILL_AT + 2 * SEAT_OFFSETS
        for q in range(s.num_players):
            if q != seat and s.position[q] == s.position[seat]:
                hi = A_TRAP_ORDER
        for a in range(lo, min(hi, A_SKILL_DIR)):
            out[a] = 1 if skill_allowed(s, seat, a) else 0
        lo = A_PRAY
    elif c == WITCH:
        lo, hi = A_SKILL_AT, A_PRAY
    elif c == ILLUSIONIST:
        out[A_SKILL] = 1 if skill_allowed(s, seat, A_SKILL) else 0  # Spreading Illusion
        lo, hi = A_SKILL_DIR, A_PRAY
    elif c == MISTRESS:  # Enslavement, on a player
        lo, hi = A_SKILL_AT, A_SKILL_AT + SEAT_OFFSETS
    elif c == ARCHER:  # her skills, then the Shot at one player
        lo, hi = A_SKILL, A_SKILL_AT + 2 * SEAT_OFFSETS
    for a in range(lo, hi):
        out[a] = 1 if skill_allowed(s, seat, a) else 0


@njit(cache=True)
def any_skill(s, seat: int) -> bool:
    """A skill usable now (``turn.any_action``: the round does not end while one is)."""
    if s.character[seat] < 0 or not can_use_skills(s, seat):
        return False
    for a in range(A_SKILL, A_TRAP_ORDER):
        if skill_allowed(s, seat, a):
            return True
    return False


@njit(cache=True)
def use_skill(s, seat: int, action: int) -> None:
    """Carry out a legal skill action: one action point, except Adrenaline's (it gives one)."""
    c = s.character[seat]
    if action >= A_PRAY:
        k = action - A_PRAY
        s.actions_left -= 1
        pray(s, seat, seat_at(s, k // 6 + 1), k % 6)
        return
    if action >= A_SKILL_DIR:
        k = action - A_SKILL_DIR
        skill = c * SKILLS_PER_CHARACTER + k // 6
        if skill == SK_MISFORTUNE_RITE:
            s.actions_left -= 1
            misfortune_rite(s, seat, k % 6)
            return
        node = s.position[seat]
        to = across(s, node, k % 6)
        s.actions_left -= 1
        emit(s, EV_SKILL, seat, skill, NO_TARGET, to)
        if skill == SK_DARK_ENLIVENING:
            enliven(s, node, to)
        else:
            swap_traps(s, node, to)
        return
    if action < A_SKILL_AT:
        skill = c * SKILLS_PER_CHARACTER + action - A_SKILL
        target = NO_TARGET if skill == SK_SHOT else seat
    else:
        skill = c * SKILLS_PER_CHARACTER + (action - A_SKILL_AT) // SEAT_OFFSETS
        target = seat_at(s, (action - A_SKILL_AT) % SEAT_OFFSETS + 1)
    if skill == SK_ADRENALINE:
        use_adrenaline(s, seat)
        return
    if skill == SK_TIME_LOOP:  # the crystal, no action point (l.363)
        time_loop(s, seat)
        return
    s.actions_left -= 1
    if skill == SK_SHOT:
        shoot(s, seat, target)
    elif skill == SK_DISARMING:
        disarm(s, seat)
    elif skill == SK_BLESSING:
        bless(s, seat, target)
    elif skill == SK_CURSE:
        curse(s, seat, target)
    elif skill == SK_SPREADING_ILLUSION:
        begin_face_down(s, seat)
    elif skill == SK_ENSLAVEMENT:  # the Guard card follows (``turn.do_action``)
        enslave(s, seat, target)
