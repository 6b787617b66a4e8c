"""Scenario tests for the rules issue 18 set right in ``paths_of_destiny_3e_v3``, one (or a
few) per rule, named after it, in the issue's order: pick up as an activity, "must" is
must, the failed jump onto a bridge explores, the reconstructed items and traps that the
text's rules apply to (the Healing Potion is never discarded, a trap that moves a
character, a trap removed back into its pool), characters versus markers (starting
spaces, the Golem, the Scepter while stunned), death and stun, the Golem's previous-turn
corridors, and unlimited stun tokens. The two-player set-up is in
``tests/test_pod3e_rules_board.py`` (``test_two_players_use_the_two_player_setup``).
``docs/rules/paths_of_destiny_3e.md`` quotes the lines.

Board (see ``pod3e_helpers``; two players on the standard board): the centre is cell 18
(node 54); ``arena()`` lays straight corridors on 19, 20 (east, to key space 0, node 63)
and 17, 16 (west, to key space 3, node 45); seat 0 starts beyond key space 0 (node 111),
seat 1 beyond key space 3 (node 120); the starting spaces 1, 2, 4 and 5 are unused.
"""

from __future__ import annotations

from hex_helpers import events_of, key_node_of, node
from pod3e_helpers import CENTER, Scenario, ev, rng_for_rolls, start_node_of, trap_check

from labyrinth_env.rulesets.paths_of_destiny_3e import components as C
from labyrinth_env.rulesets.paths_of_destiny_3e import kernel as K

CENTRE = node(CENTER)  # 54
N19, N20 = node(19), node(20)
N17, N16 = node(17), node(16)
KEY0, KEY3 = key_node_of(0), key_node_of(3)
START0, START3 = start_node_of(0), start_node_of(3)
PARK = key_node_of(5)
EAST, WEST = 0, 3

ITEM = {name: i for i, name in enumerate(C.ITEM_NAMES)}
TRAP = {name: i for i, name in enumerate(C.TRAP_NAMES)}
SWORD, SHIELD, POTION = ITEM["Flaming Sword"], ITEM["Tower Shield"], ITEM["Healing Potion"]
SCEPTER, TOOLS = ITEM["Scepter of Control"], ITEM["Thief's Tools"]
PIT, SPRING = TRAP["Spiked Pit"], TRAP["Spring Floor"]


def arena(num_players: int = 2) -> Scenario:
    sc = Scenario(num_players=num_players)
    sc.lay_line(0)
    sc.lay_line(3)
    sc.golem(PARK)
    for p in range(num_players):
        sc.set(p, crystal=0)
    return sc


def main_actions(sc: Scenario) -> set[int]:
    return {a for a in sc.legal_actions() if a < K.A_PLACE}


def keys_of(sc: Scenario, seat: int) -> list[int]:
    return [k for k in range(K.NUM_KEYS) if int(sc.s["key_holder"][k]) == seat]


# =====================================================================================
# 1. Pick up is an activity (l.127, l.356), with the text's exceptions
# =====================================================================================
def test_pick_up_activity_after_resting_off_stun_on_a_key():
    """l.204: stunned, "he cannot pick up any tokens until he rests"; after resting, the
    active player picks up from his corridor (l.127) without walking out and back."""
    sc = arena()
    sc.put(0, N20)
    sc.place_key(3, N20, dropped_by=1)
    sc.set(0, stun=1)
    assert not sc.legal(K.A_PICK_UP), "stunned: only Rest (l.220)"
    sc.step(K.A_REST)
    assert sc.legal(K.A_PICK_UP)
    sc.step(K.A_PICK_UP)
    assert sc.decision == K.D_PICKUP and sc.decider == 0 and int(sc.s["actions_left"]) == 1, "free"
    evs = sc.step(K.A_PICK_KEY + 3)
    assert ev(K.EV_PICK_UP, 0, K.TOKEN_KEY, 3) in evs and keys_of(sc, 0) == [3]
    assert sc.decision == K.D_MAIN and not sc.legal(K.A_PICK_UP)


def test_pick_up_activity_after_killing_a_key_carrier_with_attack():
    """The Attack activity kills the key carrier on one's own corridor: its key drops
    there (l.246) and the active player may pick it up at once (l.127, l.356)."""
    sc = arena()
    sc.put(0, N19)
    sc.put(1, N19)
    sc.set(1, life=1)
    sc.give_key(1, 0)
    sc.rolls(10, 3)
    sc.step(K.A_ATTACK)
    assert int(sc.s["key_node"][0]) == N19 and sc.decision == K.D_MAIN
    assert sc.legal(K.A_PICK_UP)
    sc.step(K.A_PICK_UP)
    sc.step(K.A_PICK_KEY + 0)
    assert keys_of(sc, 0) == [0] and int(sc.s["actions_left"]) == 1


def test_pick_up_activity_keeps_the_own_key_exception():
    """l.193, l.360: never one's own key from one's own key space, unless another
    character dropped it there."""
    sc = arena()
    sc.put(0, KEY0)
    assert int(sc.s["key_node"][0]) == KEY0
    assert not sc.legal(K.A_PICK_UP), "its own key, never dropped"
    sc.place_key(0, KEY0, dropped_by=1)
    assert sc.legal(K.A_PICK_UP)


def test_pick_up_activity_exchange_each_item_once_per_turn():
    """l.128, l.371-374: with two items the activity exchanges, each item once per turn."""
    sc = arena()
    sc.put(0, N19)
    sc.give_items(0, SWORD, SHIELD)
    sc.place_item(POTION, N19)
    sc.step(K.A_PICK_UP)
    assert sc.legal(K.A_EXCHANGE + 2 * POTION + 0) and not sc.legal(K.A_PICK_ITEM + POTION)
    evs = sc.step(K.A_EXCHANGE + 2 * POTION + 0)
    assert ev(K.EV_EXCHANGE, 0, POTION, SWORD) in evs and int(sc.s["item_node"][SWORD]) == N19
    assert not sc.legal(K.A_PICK_UP), "the sword was just exchanged: not again this turn"


def test_pick_up_activity_not_offered_again_for_what_it_let_lie():
    """A free activity could be asked for forever: what the player let lie this turn is
    not offered again until his next turn (or something new lies there)."""
    sc = arena()
    sc.put(0, N19)
    sc.place_key(3, N20, dropped_by=1)
    sc.move(EAST)
    sc.step(K.A_PICKUP_DONE)
    assert not sc.legal(K.A_PICK_UP)
    sc.fresh_turn(0)
    assert sc.legal(K.A_PICK_UP), "a new turn"


def test_pick_up_activity_not_after_being_pushed_out_of_the_centre():
    """l.441, l.358: the character pushed out after losing a combat picks nothing up
    there, not by the activity either, for the rest of that turn."""
    sc = arena()
    sc.put(0, N19)
    sc.put(1, CENTRE)
    sc.place_key(3, N17, dropped_by=1)
    sc.move(WEST)
    sc.step(K.A_DECLINE)
    sc.rolls(10, 3)
    sc.step(K.A_COUNTER)  # the active seat 0 loses and is pushed west
    sc.step(K.A_PUSH_DIR + WEST)
    assert sc.pos(0) == N17 and sc.decision == K.D_MAIN and int(sc.s["seat"]) == 0
    assert not sc.legal(K.A_PICK_UP)
    sc.fresh_turn(0)
    assert sc.legal(K.A_PICK_UP), "its next turn: the key is there for the taking"


# =====================================================================================
# 3. "Must" is must (l.220, l.174)
# =====================================================================================
def test_stunned_player_must_keep_resting_no_end_turn():
    """l.220: "he must keep performing this activity until he discards all stun tokens"."""
    sc = arena()
    sc.put(0, N19)
    sc.set(0, stun=3)
    assert main_actions(sc) == {K.A_REST}, "no End turn while stunned and actions remain"
    sc.step(K.A_REST)
    assert main_actions(sc) == {K.A_REST}
    sc.step(K.A_REST)
    assert int(sc.s["seat"]) == 1 and int(sc.s["stun"][0]) == 1, "both actions rested; the turn passed"
    sc.set(0, stun=1)
    sc.fresh_turn(0)
    sc.step(K.A_REST)
    assert K.A_END_TURN in main_actions(sc), "no stun left: passing is allowed again"


def test_golem_on_key_space_must_keep_moving_it_no_end_turn():
    """l.174: "this player must keep moving the Golem until the Golem leaves the key space"."""
    sc = arena()
    sc.put(0, START0)
    sc.golem(KEY0)
    assert main_actions(sc) == {K.A_MOVE_GOLEM}
    sc.next_golem_card(C.GOLEM_IDLE)
    sc.step(K.A_MOVE_GOLEM)
    assert main_actions(sc) == {K.A_MOVE_GOLEM}, "still there: move it again, no passing"


# =====================================================================================
# 4. A failed jump onto a bridge explores (l.206)
# =====================================================================================
def test_failed_jump_onto_bridge_still_explores():
    """l.206: "Finally, if he still has any Life left, he explores the new corridor": the
    corridor under the bridge it fell back into (its trap springs again); the character
    already there gets no free attack, since neither moved (l.390)."""
    sc = Scenario()
    sc.lay(20, "03")
    bridge, under = sc.lay(19, ("03", C.BRIDGE), ("14", C.UNDER))
    sc.golem(PARK)
    sc.set(0, crystal=0)
    sc.put(0, under)
    sc.put(1, under)
    sc.place_trap(under, PIT, face_up=True)
    sc.rolls(6, 2)
    evs = sc.step(K.A_RISKY_JUMP)
    assert ev(K.EV_JUMP, 0, 6, 0, 1) in evs and sc.pos(0) == under
    assert trap_check(0, PIT, 1, [2]) in evs, "the corridor is explored: the trap checks it"
    assert int(sc.s["life"][0]) == 1 and int(sc.s["stun"][0]) == 1
    # it never left the corridor: "characters that have not moved cannot attack each other" (l.390)
    assert sc.decision == K.D_MAIN and not events_of(evs, K.EV_COMBAT), "no free attack on the stunned one"
    del bridge


# =====================================================================================
# 5. Reconstructed items and traps the text's rules apply to
# =====================================================================================
def test_healing_potion_never_discarded():
    """l.373, l.471: items "cannot be discarded voluntarily": the Healing Potion gives 1
    Life for 1 action and stays with its carrier."""
    sc = arena()
    sc.put(0, N19)
    sc.set(0, life=2)
    sc.give_items(0, POTION, SWORD)
    evs = sc.step(K.A_USE_POTION)
    assert ev(K.EV_POTION, 0) in evs and ev(K.EV_LIFE, 0, 1, 3) in evs
    assert [int(i) for i in sc.s["items"][0]] == [POTION, SWORD], "not discarded"
    assert int(sc.s["actions_left"]) == 1
    sc.step(K.A_USE_POTION)
    assert int(sc.s["life"][0]) == 4 and int(sc.s["seat"]) == 1
    sc.fresh_turn(0)
    assert not sc.legal(K.A_USE_POTION), "full Life: nothing to drink for"


def test_no_pick_up_when_moved_by_a_trap():
    """l.358: "Players cannot pick up any tokens as a result of resolving effects of a trap
    (i.e. when a player is moved or placed by a trap)": the Spring Floor throws the
    character back onto a corridor with a key; it explores it but takes nothing, not by
    the activity either this turn."""
    sc = arena()
    sc.put(0, N19)
    sc.place_key(3, N19, dropped_by=1)
    sc.place_trap(N20, SPRING)
    sc.rolls(2)
    evs = sc.move(EAST)
    assert ev(K.EV_THROWN_BACK, 0, N20, N19) in evs and sc.pos(0) == N19
    assert sc.decision == K.D_MAIN and int(sc.s["key_node"][3]) == N19, "no pick-up"
    assert not sc.legal(K.A_PICK_UP)
    sc.fresh_turn(0)
    assert sc.legal(K.A_PICK_UP), "its next turn, by its own activity"


def test_trap_thrown_back_explores_the_corridor():
    """The thrown-back character is moved: it explores the corridor it lands on (a trap
    there springs, l.185)."""
    sc = arena()
    sc.put(0, N19)
    sc.place_trap(N19, PIT, face_up=True)
    sc.place_trap(N20, SPRING)
    sc.rolls(2, 2)
    evs = sc.move(EAST)
    assert ev(K.EV_THROWN_BACK, 0, N20, N19) in evs and trap_check(0, PIT, 1, [2]) in evs
    assert int(sc.s["life"][0]) == 3 and int(sc.s["depth"]) == 0


def test_removed_traps_shuffled_back_into_their_pool():
    """l.487: "Trap tokens ... removed from the game board are returned to their pools.
    Trap tokens should be shuffled into their pool": a tile leaving the board (l.152) takes
    its trap off; the token goes back into the pool at a random place."""
    places = set()
    for k in range(12):
        sc = arena()
        token = sc.place_trap(N20, PIT)
        before = int(sc.s["trap_pool_len"])
        sc.s["rng"][0] = rng_for_rolls(None, first=1 + 7919 * k)
        K.abilities.remove_tile(sc.s, 0, 20)
        assert int(sc.s["node_trap"][N20]) == -1 and sc.s["trap_up"][N20] == 0
        pool = sc.s["trap_pool"][: before + 1].tolist()
        assert int(sc.s["trap_pool_len"]) == before + 1 and pool.count(token) == 1
        places.add(pool.index(token))
    assert len(places) > 3, f"shuffled in, not laid on top: {places}"


def test_thiefs_tools_take_a_trap_check_again_when_every_roll_fails_the_trap_stays_l267_l428():
    """l.428 "if any effect or ability enables a player to take a Trap Check again ..., it
    affects all rolls connected with a given trap"; l.267 "once placed, a trap token stays on
    a given corridor until the end of the game": the Tools take the check again, never the
    trap away."""
    sc = arena()
    sc.put(0, N19)
    sc.give_items(0, TOOLS)
    sc.place_trap(N20, PIT)
    sc.rolls(2, 12)  # the Spiked Pit (7+): failed, then passed on the second try
    evs = sc.move(EAST)
    assert ev(K.EV_TOOLS, 0, PIT) in evs
    assert [e[1:5] for e in events_of(evs, K.EV_TRAP_CHECK)] == [(0, PIT, 1, 1), (0, PIT, 0, 1)]
    assert int(sc.s["life"][0]) == 4 and int(sc.s["node_trap"][N20]) >= 0, "passed, and the trap stays"
    sc = arena()
    sc.put(0, N19)
    sc.give_items(0, TOOLS)
    sc.place_trap(N20, PIT)
    sc.rolls(12)
    evs = sc.move(EAST)
    assert not events_of(evs, K.EV_TOOLS) and not events_of(evs, K.EV_TRAP_REMOVED)
    assert int(sc.s["node_trap"][N20]) >= 0, "a passed check leaves the trap where it is (l.267)"
    sc = arena()
    sc.put(0, N19)
    sc.place_trap(N20, PIT)
    sc.rolls(2, 12)
    evs = sc.move(EAST)
    assert not events_of(evs, K.EV_TOOLS) and int(sc.s["life"][0]) == 3, "without the Tools: one try"


# =====================================================================================
# 6. Characters and markers (l.491), starting spaces (l.177), the Scepter while stunned
# =====================================================================================
def test_markers_vs_characters_the_golem_is_no_character():
    """l.491: rules about characters do not affect the Golem: it never blocks setting a
    trap (l.259), never fights, never keeps a character from being alone on the central
    space (l.45), is no event target; and l.177 does not keep it out of starting spaces."""
    sc = arena()
    sc.put(0, N19)
    sc.golem(N20)
    assert sc.legal(K.A_SET_TRAP + N20), "the Golem is no character: a trap may go there"
    sc.step(K.A_SET_TRAP + N20)
    assert int(sc.s["node_trap"][N20]) >= 0 and int(sc.s["actions_left"]) == 1
    sc.golem(N19)
    assert not any(sc.legal(K.A_ATTACK + i) for i in range(5)), "nobody to attack"
    sc.golem(KEY0)
    assert (K.golem_options(sc.s) >> 0) & 1, "into starting space 0 (l.177 binds characters only)"
    sc.golem(CENTRE)
    sc.put(0, CENTRE)
    sc.give_key(0, 3)
    sc.fresh_turn(0)
    K.advance(sc.s)
    assert int(sc.s["outcome"]) == K.WON and int(sc.s["winner"]) == 0, "alone with the Golem counts as alone"


def test_markers_vs_characters_event_targets_are_characters():
    """l.491: "choose a character" never chooses the Golem: one target per character."""
    sc = arena()
    sc.put(0, N19)
    sc.next_event(C.EVENT_NAMES.index("Earthquake"))
    sc.step(K.A_EVENT)
    assert sc.decision == K.D_EVENT_TARGET
    targets = [a - K.A_EVENT_TARGET for a in sc.legal_actions()]
    assert targets == [0, 1], "the two characters, nothing for the Golem"


def test_golem_may_enter_starting_spaces_and_bounces_back():
    """The Golem steps into a starting space (used or not) and, a dead end, back out."""
    sc = arena()
    sc.put(0, N17)
    sc.put(1, N16)
    sc.golem(N20, came_from=N19, from_turn=int(sc.s["turn"]))
    sc.next_golem_card(C.GOLEM_MOVE, 3)
    evs = sc.step(K.A_MOVE_GOLEM)
    moves = [(e[2], e[3]) for e in events_of(evs, K.EV_GOLEM_MOVE)]
    assert moves == [(N20, KEY0), (KEY0, START0), (START0, KEY0)], "in, and bounced off the dead end"


def test_golem_check_not_on_own_starting_space():
    """l.296: a failed Golem Check returns the character to its starting space; on its own
    starting space there is nowhere to send it, so no check is rolled."""
    sc = arena()
    sc.put(1, N16)
    sc.put(0, START0)
    sc.fresh_turn(1)
    sc.golem(KEY0, came_from=N20, from_turn=int(sc.s["turn"]))
    sc.next_golem_card(C.GOLEM_MOVE, 1)
    evs = sc.step(K.A_MOVE_GOLEM)
    assert ev(K.EV_GOLEM_MOVE, -1, KEY0, START0) in evs
    assert not events_of(evs, K.EV_GOLEM_CHECK) and sc.pos(0) == START0


def test_characters_may_enter_unused_starting_spaces():
    """l.177 bars "starting spaces of other characters": a starting space nobody uses is
    open; another player's is not; on an unused one the first-activity rule (l.173) does
    not apply (it is not the character's starting space)."""
    sc = arena()
    sc.put(0, key_node_of(1))
    assert sc.legal(K.A_MOVE + 1), "starting space 1 is unused"
    sc.move(1)
    assert sc.pos(0) == start_node_of(1)
    assert sc.legal(K.A_BUILD) and sc.legal(K.A_MOVE_GOLEM), "not its own starting space"
    sc.put(0, KEY3)
    assert not sc.legal(K.A_MOVE + 3), "seat 1's starting space"


def test_stunned_character_not_offered_the_scepter():
    """l.210, l.220: a stunned character can only rest, not even a free activity; as with
    the Crystal of Fate, it does not use the Scepter of Control: it makes the Golem Check."""
    sc = arena()
    sc.put(0, N16)
    sc.put(1, N19)
    sc.set(1, stun=1)
    sc.golem(N20)
    sc.give_items(1, SCEPTER)
    sc.next_golem_card(C.GOLEM_MOVE, 1)
    sc.rolls(3)
    sc.step(K.A_MOVE_GOLEM)
    evs = sc.golem_dir(WEST)
    assert not events_of(evs, K.EV_SCEPTER) and ev(K.EV_GOLEM_CHECK, 1, 3, 0) in evs
    assert sc.pos(1) == START3 and int(sc.s["life"][1]) == 4, "checked, failed, no Life spent"


# =====================================================================================
# 7. Death and stun (l.249); the Golem's previous-turn corridors (l.288)
# =====================================================================================
def test_death_keeps_stun_tokens():
    """l.249: the dead character "regains all Life"; nothing removes its stun tokens (as
    the Crystal, l.251, they stay as they were)."""
    sc = arena()
    sc.put(0, N19)
    sc.put(1, N19)
    sc.set(1, life=1, stun=2)
    sc.step(K.A_ATTACK)  # a stunned defender loses without rolling
    assert sc.pos(1) == START3 and int(sc.s["life"][1]) == 4
    assert int(sc.s["stun"][1]) == 2
    sc.fresh_turn(1)
    assert main_actions(sc) == {K.A_REST}


def test_golem_never_back_to_any_corridor_of_the_previous_move():
    """l.288: "cannot move the Golem back to the corridor, from which the Golem moved
    during the previous player's turn": every corridor it left then, not only the last."""
    sc = arena()
    sc.clear_cell(19)
    (n19,) = sc.lay(19, "023")  # east, north-west (to cell 12) and west (to the centre)
    (n12,) = sc.lay(12, "45")  # cell 12 joins the centre (4) and cell 19 (5)
    sc.put(0, N16)
    turn = int(sc.s["turn"])
    sc.golem(n19, came_from=[n12, CENTRE], from_turn=turn - 1)  # 12 -> centre -> 19
    assert K.golem_options(sc.s) == 1 << 0, "neither the centre nor cell 12"
    sc.golem(n19, came_from=[n12, CENTRE], from_turn=turn - 2)
    assert K.golem_options(sc.s) == (1 << 0) | (1 << 2) | (1 << 3), "two turns ago: free"


# =====================================================================================
# Limited game components (l.485): stun tokens beyond the box's 12
# =====================================================================================
def test_unlimited_stun_tokens():
    """l.485: "If all stun tokens are depleted, they can be replaced with coins" (and l.210,
    "A character can have any number of stun tokens"): a character holding all 12 of the
    box (l.63) takes a 13th, and rests them off one by one."""
    sc = arena()
    sc.put(0, N19)
    sc.put(1, N16)
    sc.set(1, stun=C.NUM_STUN_TOKENS)  # every token of the box
    sc.next_event(C.EVENT_NAMES.index("Earthquake"))  # choose a character: 1 stun token
    sc.step(K.A_EVENT)
    evs = sc.step(K.A_EVENT_TARGET + 1)
    assert ev(K.EV_STUN, 1, 1, C.NUM_STUN_TOKENS + 1) in evs
    assert int(sc.s["stun"][1]) == C.NUM_STUN_TOKENS + 1
    sc.fresh_turn(1)
    sc.step(K.A_REST)
    assert int(sc.s["stun"][1]) == C.NUM_STUN_TOKENS
