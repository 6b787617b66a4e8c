"""Fights: the Attack action and the killing of a stunned player, the encounter with the
players in a corridor one comes into (one there: two free fights; several: declarations,
then the fight against the newcomer and the group's against its target), and the fight's
throws (a group throws a die per extra member, minus its lost Life)."""

from __future__ import annotations

from labyrinth_env.core.contract import set_decision
from labyrinth_env.core.events import emit
from labyrinth_env.core.grid import popcount
from labyrinth_env.core.hexboard import occupants
from labyrinth_env.core.jit import njit
from labyrinth_env.core.kernel_common import can_crystal
from labyrinth_env.core.rng import roll
from labyrinth_env.rulesets.paths_of_destiny_2011 import components as C

from .entering import explore
from .life import die, gain_adrenaline, lose_life
from .queries import other_seat, past_trap, set_position
from .skills import (
    bounty,
    disarm_losers,
    fight_bonus,
    mirror_image,
    offer_theft,
    parry,
    silent,
    skill_active,
    throw_modifier,
)
from .tables import (
    A_ATTACK,
    A_ATTACK_NEWCOMER,
    A_DECLINE,
    A_JOIN,
    A_KILL,
    A_TARGET,
    CENTER_NODE,
    CK_FIGHT,
    D_DECLARE,
    D_ENTRANT,
    D_OCCUPANT,
    DECLARE_JOIN,
    DECLARE_NEWCOMER,
    DECLARE_NONE,
    DECLARE_TARGET,
    EV_DECLARE,
    EV_FIGHT,
    EV_KILL,
    EV_LIFE,
    EV_SENT_BACK,
    EV_SKILL,
    LIFE,
    M_ENTER,
    P_CHOOSE,
    P_DECLARE,
    P_DONE,
    P_ENTRANT,
    P_OCCUPANT,
    P_START,
    P_VS_ENTRANT,
    P_VS_TARGET,
    SK_WHIRLING_BLADES,
)


@njit(cache=True)
def can_fight(s, seat: int) -> bool:
    """A stunned player can do nothing but rest: it declares no attack."""
    return s.stun[seat] == 0 and not (s.disarmed >> seat) & 1  # Disarm (the Sword Master)


# --- the fight's throws ----------------------------------------------------------------------
@njit(cache=True)
def side_total(s, members: int, encounter: bool) -> int:
    """One side's throw in a fight: 2 dice for one player, one more die per extra member of
    a group, minus each member's lost life, +1 for a member with the bonus of the encounter
    (a good jump down, or standing on the bridge someone climbs onto)."""
    k = popcount(members)
    if k == 1 and s.char_mode != 0 and (members & (1 << s.ck_def)) != 0 and parry(s, s.ck_def):
        total = best_two_of_three(s)  # Parry: the defender alone throws 3 dice, the lowest dropped
    else:
        total = roll(s.rng, 2 if k == 1 else k + 1, 6)
    for p in range(s.num_players):
        if (members >> p) & 1:
            total -= LIFE - s.life[p]
            total += throw_modifier(s, p) + fight_bonus(s, p)
            if encounter and (s.ex_bonus >> p) & 1:
                total += C.JUMP_BONUS
    return total


@njit(cache=True)
def best_two_of_three(s) -> int:
    a = roll(s.rng, 1, 6)
    b = roll(s.rng, 1, 6)
    c = roll(s.rng, 1, 6)
    return a + b + c - min(a, min(b, c))


@njit(cache=True)
def begin_fight(s, attackers: int, defender: int, encounter: bool) -> None:
    """Both sides throw (``throws.settle_throw`` offers the repeats and applies the outcome)."""
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
    if s.char_mode != 0 and mirror_image(s, defender):  # her image took it: thrown again
        s.ck_a = side_total(s, attackers, encounter)
        s.ck_b = side_total(s, 1 << defender, encounter)
        emit(s, EV_FIGHT, defender, attackers, s.ck_a, s.ck_b)


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
def rethrow_side(s, who: int) -> None:
    """The fate crystal in a fight: ``who``'s side throws again."""
    if who == s.ck_def:
        s.ck_b = side_total(s, 1 << who, s.ck_enc != 0)
    else:
        s.ck_a = side_total(s, s.ck_att, s.ck_enc != 0)
    emit(s, EV_FIGHT, s.ck_def, s.ck_att, s.ck_a, s.ck_b)


@njit(cache=True)
def fight_outcome(s) -> None:
    """The higher result wins; the defeated player, or each member of the defeated group,
    loses 1 life; equal results leave the fight unresolved. A newcomer that loses a fight
    of its encounter on the central field goes back where it came from. Whoever lost has
    not overcome the players there (no key lifted there, l.120) until it wins a fight there
    or they are gone; whoever won has."""
    a, b = s.ck_a, s.ck_b
    if a == b:
        return
    losers = s.ck_att if b > a else (1 << s.ck_def)
    winners = (s.ck_att | (1 << s.ck_def)) & ~losers
    s.fight_lost = (s.fight_lost | losers) & ~winners  # before a death sends a loser home
    bounty(s, winners, losers)  # the Head Hunter's reward, before a death drops the key
    if s.char_mode != 0:
        disarm_losers(s, winners, losers)
    node = s.ck_node
    for p in range(s.num_players):
        if (losers >> p) & 1 and s.position[p] == node:
            lose_life(s, p, 1)
    e = s.ex_seat
    if s.ck_enc and s.ex_active and (losers >> e) & 1 and node == CENTER_NODE and s.position[e] == node:
        back = s.ex_from
        if back >= 0:
            emit(s, EV_SENT_BACK, e, node, back)
            set_position(s, e, back)
            explore(s, e, back, -1, M_ENTER, False, 0)  # as an ordinary move


@njit(cache=True)
def whirling_blades(s) -> None:
    """The Sword Master attacks twice, in an encounter too, both free (l.406): after a fight
    he threw alone as the attacker, a second one against the same player if both still
    stand in that corridor (and he may still use skills)."""
    if s.blade:
        s.blade = 0
        return
    att = s.ck_att
    if popcount(att) != 1:
        return
    p = 0
    while not (att >> p) & 1:
        p += 1
    q = s.ck_def
    node = s.ck_node
    if s.position[p] != node or s.position[q] != node or not skill_active(s, p, SK_WHIRLING_BLADES):
        return
    s.blade = 1
    emit(s, EV_SKILL, p, SK_WHIRLING_BLADES, q, -1)
    begin_fight(s, att, q, s.ck_enc != 0)


# --- Attack and Kill a stunned player (actions) ----------------------------------------------
@njit(cache=True)
def attack_legal(s, seat: int, q: int, kill: bool) -> bool:
    """``q`` (-1: no such player) stands in the corridor (stunned, to be killed: "after
    passing the Guard and the traps", l.259)."""
    if q < 0 or s.position[q] != s.position[seat]:
        return False
    if not kill:
        return not (s.disarmed >> seat) & 1
    return s.stun[q] > 0 and past_trap(s, seat)


@njit(cache=True)
def attack_mask(s, seat: int, out) -> None:
    n = s.num_players
    can_kill = past_trap(s, seat)
    armed = not (s.disarmed >> seat) & 1
    for off in range(1, n):
        q = (seat + off) % n
        if s.position[q] == s.position[seat]:
            out[A_ATTACK + off - 1] = 1 if armed else 0
            out[A_KILL + off - 1] = 1 if s.stun[q] > 0 and can_kill else 0


@njit(cache=True)
def attack(s, seat: int, action: int) -> None:
    begin_fight(s, 1 << seat, other_seat(s, action - A_ATTACK + 1), False)


@njit(cache=True)
def kill(s, seat: int, action: int) -> None:
    """A stunned player loses all its life; its key goes to the killer."""
    victim = other_seat(s, action - A_KILL + 1)
    emit(s, EV_KILL, seat, victim)
    emit(s, EV_LIFE, victim, -s.life[victim], 0)
    gain_adrenaline(s, victim, s.life[victim])
    s.life[victim] = 0
    die(s, victim, seat)


# --- the encounter -----------------------------------------------------------------------------
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
    if phase == P_START and others != 0 and not s.ex_theft and s.char_mode != 0 and offer_theft(s):
        return  # the Thief may try to steal a key before attacks are declared (l.410)
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
            if can_fight(s, q) and not silent(s, seat):
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


# --- the player already there: attack the newcomer? (decision) --------------------------------
@njit(cache=True)
def occupant_mask(out) -> None:
    out[A_DECLINE] = 1
    out[A_ATTACK_NEWCOMER] = 1


@njit(cache=True)
def occupant_declares(s, who: int, action: int) -> None:
    if action == A_ATTACK_NEWCOMER:
        emit(s, EV_DECLARE, who, DECLARE_NEWCOMER, s.ex_seat)
        begin_fight(s, 1 << who, s.ex_seat, True)
    else:
        emit(s, EV_DECLARE, who, DECLARE_NONE, -1)


# --- the newcomer: whom to attack (decision) -------------------------------------------------
@njit(cache=True)
def entrant_mask(s, who: int, out) -> None:
    n = s.num_players
    out[A_DECLINE] = 1
    for off in range(1, n):
        if s.position[(who + off) % n] == s.ex_node:
            out[A_TARGET + off - 1] = 1


@njit(cache=True)
def entrant_declares(s, who: int, action: int) -> None:
    if action == A_DECLINE:
        emit(s, EV_DECLARE, who, DECLARE_NONE, -1)
        return
    x = (who + action - A_TARGET + 1) % s.num_players
    emit(s, EV_DECLARE, who, DECLARE_TARGET, x)
    if s.ex_phase == P_DECLARE:  # several players there: the others declare first
        s.ex_target = x
    else:
        begin_fight(s, 1 << who, x, True)


# --- the others there: join the attack, attack the newcomer, or neither (decision) -----------
@njit(cache=True)
def declare_mask(s, out) -> None:
    node = s.ex_node
    out[A_DECLINE] = 1
    x = s.ex_target
    if x >= 0 and s.position[x] == node:
        out[A_JOIN] = 1
    if s.position[s.ex_seat] == node and not silent(s, s.ex_seat):
        out[A_ATTACK_NEWCOMER] = 1


@njit(cache=True)
def declare(s, who: int, action: int) -> None:
    if action == A_JOIN:
        s.ex_join |= 1 << who
        emit(s, EV_DECLARE, who, DECLARE_JOIN, s.ex_target)
    elif action == A_ATTACK_NEWCOMER:
        s.ex_vs |= 1 << who
        emit(s, EV_DECLARE, who, DECLARE_NEWCOMER, s.ex_seat)
    else:
        emit(s, EV_DECLARE, who, DECLARE_NONE, -1)
