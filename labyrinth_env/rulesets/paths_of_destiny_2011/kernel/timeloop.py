"""The Assassin's Time Loop (l.376, l.363): "turn your fate crystal face down: your last
action is undone, and the players it touched come back to their state before it".

- *Your last action*: the action of his round he has just carried out, with everything it
  set off (the Guard met, the traps crossed, the encounter and its fights, the throws and
  their repeats), when it is a move, jumping down, coming down, climbing up, an attack or
  killing a stunned player: the actions that can touch other players ("if you were e.g.
  attacking them", l.376). Building, setting a trap and moving the Guard draw from hidden
  piles (a field, a token, a card seen by all cannot go back unseen), and resting and
  regenerating touch nobody: they are not undone. The loop must come right after the
  action: any other action of his (free ones too, or ending the round) makes that one his
  last action instead, and his round's end closes it.
- *The players it touched*: every player whose own state the action changed: his corridor,
  life, stun points, fate crystal, keys, tokens, and what he met in his corridor (a fight
  lost, a trap fallen into, his start field left, the keys taken from stunned players, the
  Sword Master's Disarm, the Guard ignoring him). They all come back, the Assassin too, and
  he gets back the action points the action cost; everyone else is untouched by definition.
  The board stays as it is: a trap uncovered by the action stays uncovered (everyone saw
  it), and its bracketed number too.
- The Time Loop is a skill (l.132: not on the start field; l.351: not while stunned) that
  "requires using the fate crystal at the same time" (l.363): only with his crystal face up,
  which it turns face down (no action point).
- The dice are not turned back: the record's generator goes on, so the same seed and
  actions give the same game, and doing the action again throws new dice.
- The state kept is public (corridors, life, stun, crystals, keys, tokens: l.131), never
  observed, and taken only when an Assassin with a face-up crystal acts (``loop_watch``)."""

from __future__ import annotations

from labyrinth_env.core import pod
from labyrinth_env.core.events import emit
from labyrinth_env.core.jit import njit

from .tables import (
    A_ATTACK,
    A_CLIMB_UP,
    A_MOVE,
    A_TAKE_KEY,
    ASSASSIN,
    EV_CRYSTAL,
    EV_SKILL,
    EV_TIME_LOOP,
    NO_TARGET,
    NUM_KEYS,
    NUM_SEATS,
    SK_TIME_LOOP,
)


@njit(cache=True)
def loopable(action: int) -> bool:
    """Move, jump down, come down, climb up (``A_MOVE`` .. ``A_CLIMB_UP``), attack, kill."""
    return (A_MOVE <= action <= A_CLIMB_UP) or (A_ATTACK <= action < A_TAKE_KEY)


@njit(cache=True)
def clear_loop(s) -> None:
    s.loop_ready = 0
    s.loop_actions = 0
    s.loop_position[:] = -1
    s.loop_life[:] = 0
    s.loop_stun[:] = 0
    s.loop_crystal[:] = 0
    s.loop_tokens[:, :] = 0
    s.loop_took_key[:] = 0
    s.loop_disarm_turn[:] = 0
    s.loop_met[:] = 0
    s.loop_key_node[:] = -1
    s.loop_key_holder[:] = -1
    s.loop_key_touched[:] = 0


@njit(cache=True)
def keep_state(s) -> None:
    """The players' state now: what the Time Loop brings back."""
    s.loop_actions = s.actions_left
    for p in range(NUM_SEATS):
        s.loop_position[p] = s.position[p]
        s.loop_life[p] = s.life[p]
        s.loop_stun[p] = s.stun[p]
        s.loop_crystal[p] = s.crystal[p]
        s.loop_tokens[0, p] = s.adrenaline[p]
        s.loop_tokens[1, p] = s.blessing[p]
        s.loop_tokens[2, p] = s.curse[p]
        s.loop_took_key[p] = s.took_key[p]
        s.loop_disarm_turn[p] = s.disarm_turn[p]
    s.loop_met[0] = s.fight_lost
    s.loop_met[1] = s.trap_fell
    s.loop_met[2] = s.left_start
    s.loop_met[3] = s.disarmed
    s.loop_met[4] = s.guard_ignore
    for k in range(NUM_KEYS):
        s.loop_key_node[k] = s.key_node[k]
        s.loop_key_holder[k] = s.key_holder[k]
        s.loop_key_touched[k] = s.key_touched[k]


@njit(cache=True)
def loop_watch(s, seat: int, action: int) -> None:
    """Before each action of the round (``turn.do_action``): the state is kept when an
    Assassin with a face-up crystal begins an action he may undo; any other action of his
    becomes his last one, and the loop closes."""
    s.loop_ready = 0
    if s.character[seat] == ASSASSIN and s.crystal[seat] == 1 and loopable(action):
        keep_state(s)
        s.loop_ready = 1


@njit(cache=True)
def time_loop_legal(s, seat: int) -> bool:
    """Right after an action he may undo, his crystal face up (l.363); the caller has checked
    that he may use skills (l.132, l.351)."""
    return s.loop_ready == 1 and s.crystal[seat] == 1


@njit(cache=True)
def touched(s, p: int) -> bool:
    """Whether the undone action changed player ``p``'s own state."""
    if s.position[p] != s.loop_position[p] or s.life[p] != s.loop_life[p] or s.stun[p] != s.loop_stun[p]:
        return True
    if s.crystal[p] != s.loop_crystal[p] or s.took_key[p] != s.loop_took_key[p]:
        return True
    if s.adrenaline[p] != s.loop_tokens[0, p] or s.blessing[p] != s.loop_tokens[1, p]:
        return True
    if s.curse[p] != s.loop_tokens[2, p] or s.disarm_turn[p] != s.loop_disarm_turn[p]:
        return True
    bits = s.fight_lost ^ s.loop_met[0]
    bits |= s.trap_fell ^ s.loop_met[1]
    bits |= s.left_start ^ s.loop_met[2]
    bits |= s.disarmed ^ s.loop_met[3]
    bits |= s.guard_ignore ^ s.loop_met[4]
    if (bits >> p) & 1:
        return True
    for k in range(NUM_KEYS):
        was = s.loop_key_holder[k] == p
        if was != (s.key_holder[k] == p):
            return True
        if was and ((s.key_touched[k] ^ s.loop_key_touched[k]) >> p) & 1:
            return True
    return False


@njit(cache=True)
def bring_back(s, p: int) -> None:
    emit(s, EV_TIME_LOOP, p, s.position[p], s.loop_position[p], s.loop_life[p])
    s.position[p] = s.loop_position[p]
    s.life[p] = s.loop_life[p]
    s.stun[p] = s.loop_stun[p]
    s.crystal[p] = s.loop_crystal[p]
    s.adrenaline[p] = s.loop_tokens[0, p]
    s.blessing[p] = s.loop_tokens[1, p]
    s.curse[p] = s.loop_tokens[2, p]
    s.took_key[p] = s.loop_took_key[p]
    s.disarm_turn[p] = s.loop_disarm_turn[p]


@njit(cache=True)
def time_loop(s, seat: int) -> None:
    """Every player the action touched comes back (the Assassin among them: his action points
    too); the keys lie and are held as before; then his crystal is turned face down."""
    emit(s, EV_SKILL, seat, SK_TIME_LOOP, NO_TARGET, s.loop_position[seat])
    for p in range(s.num_players):
        if touched(s, p):
            bring_back(s, p)
    s.fight_lost = s.loop_met[0]
    s.trap_fell = s.loop_met[1]
    s.left_start = s.loop_met[2]
    s.disarmed = s.loop_met[3]
    s.guard_ignore = s.loop_met[4]
    for k in range(NUM_KEYS):
        s.key_node[k] = s.loop_key_node[k]
        s.key_holder[k] = s.loop_key_holder[k]
        s.key_touched[k] = s.loop_key_touched[k]
    s.actions_left = s.loop_actions
    s.loop_ready = 0
    pod.turn_crystal(s, seat, 0, EV_CRYSTAL)
