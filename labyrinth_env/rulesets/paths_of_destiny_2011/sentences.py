"""Paths of Destiny 2011 events as sentences (``env.event_text``; ``core.sentences``):
every throw against what it needed (``components``' printed numbers)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from labyrinth_env.core.sentences import Sentence, against, player, players, plural
from labyrinth_env.rulesets.hex_sentences import onto_own_key_space, shared_sentences
from labyrinth_env.rulesets.paths_of_destiny_2011 import components as C

Event = Mapping[str, Any]
Context = Mapping[str, Any]


def _move(e: Event, ctx: Context) -> str:
    how = {"move": "moves", "climb up": "climbs up", "jump down": "jumps down", "leave": "leaves"}.get(
        e["how"], "moves"
    )
    # l.119: "No player may take the key lying directly next to his start field, unless the
    # key was already picked up by another player and then lost in some way"
    own = onto_own_key_space(e, ctx, "field, where it may take a key only if another player picked it up and lost it")
    return f"{player(e['seat'])} {how} from {e['from']} to {e['to']}" + own


def _guard(e: Event, ctx: Context) -> str:
    if e["stunned"]:
        return f"{player(e['seat'])} meets the Guard while stunned and is sent home"
    return (
        f"{player(e['seat'])} throws against the Guard: {e['roll']} against {C.GUARD_STAY}+ "
        f"({C.GOLEM_WARD_STAY}+ with Golem Ward) to stay: " + ("stays" if e["stays"] else "must leave")
    )


def _fight(e: Event, ctx: Context) -> str:
    outcome = {"attackers": "the attack wins", "defender": "the defence holds", "none": "a draw"}[e["winner"]]
    verb = "fight" if len(e["attackers"]) > 1 else "fights"
    return (
        f"{players(e['attackers'])} {verb} {player(e['defender'])}: attack {e['attack']} against "
        f"defence {e['defence']}: {outcome}"
    )


def _declare(e: Event, ctx: Context) -> str:
    if e["target"] is None or e["target"] < 0:
        return f"{player(e['seat'])} declares no attack"
    return f"{player(e['seat'])} {e['declares']} {player(e['target'])}".replace(
        "the newcomer Player", "the newcomer, Player"
    )


def _skill(e: Event, ctx: Context) -> str:
    text = f"{player(e['seat'])} uses {e['skill']}"
    if e["target"] is not None:
        text += f" on {player(e['target'])}"
    if e["node"] is not None:
        text += f" at {e['node']}"
    return text


SENTENCES: dict[str, Sentence] = {
    **shared_sentences("field", C),
    "trap_set": lambda e, ctx: f"{player(e['seat'])} sets a face-down trap at {e['node']}",
    "move": _move,
    "jump_down": lambda e, ctx: f"{player(e['seat'])} jumps down: {against(e['die'], C.JUMP_SUCCESS, e['success'])}",
    "trap_check": lambda e, ctx: (
        f"{player(e['seat'])} throws against the {e['trap']} trap ({e['how']}): "
        f"{against(e['roll'], e['difficulty'], e['success'])}"
    ),
    "guard_meeting": _guard,
    "fight": _fight,
    "drop_key": lambda e, ctx: f"{player(e['seat'])} drops key {e['key']} at {e['node']}",
    "to_start": lambda e, ctx: f"{player(e['seat'])} goes back to the start field from {e['from']}",
    "restored": lambda e, ctx: f"{player(e['seat'])} is restored to full life",
    "lift_key": lambda e, ctx: f"{player(e['seat'])} lifts key {e['key']}",
    "take_key": lambda e, ctx: f"{player(e['seat'])} takes key {e['key']} from {player(e['from'])}",
    "kill": lambda e, ctx: f"{player(e['seat'])} kills {player(e['victim'])}",
    "guard_card": lambda e, ctx: (
        f"{player(e['seat'])} draws a Guard card: {e['card']}"
        + (f", {plural(e['steps'], 'step')}" if e["steps"] else "")
    ),
    "guard_move": lambda e, ctx: f"The Guard moves from {e['from']} to {e['to']}",
    "guard_wakes": lambda e, ctx: "The Guard wakes up",
    "guard_sleeps": lambda e, ctx: "The Guard falls asleep",
    "turned_back": lambda e, ctx: f"{player(e['seat'])} is turned back from {e['from']} to {e['to']}",
    "sent_back": lambda e, ctx: f"{player(e['seat'])} is sent back from {e['from']} to {e['to']}",
    "start_field": lambda e, ctx: f"{player(e['seat'])} chooses start field {e['field']}",
    "first_to_choose": lambda e, ctx: f"{player(e['seat'])} chooses first",
    "declare": _declare,
    "held_by_door": lambda e, ctx: f"{player(e['seat'])} is held by a door at {e['node']}",
    "character": lambda e, ctx: f"{player(e['seat'])} is the {e['character']}",
    "skill": _skill,
    "tokens": lambda e, ctx: (
        f"{player(e['seat'])} {'gets' if e['change'] > 0 else 'gives up'} {abs(e['change'])} "
        f"{e['token']} ({e['after']} now)"
    ),
    "theft": lambda e, ctx: (
        f"{player(e['seat'])} tries to steal a key from {player(e['victim'])}: "
        f"{against(e['roll'], C.THEFT_SUCCESS, e['success'])}"
    ),
    "shot": lambda e, ctx: (
        f"{player(e['archer'])} shoots at {player(e['seat'])}, who throws "
        f"{e['roll']} (hit below {C.SHOT_HIT}): " + ("hit" if e["hit"] else "missed")
    ),
    "face_down": lambda e, ctx: f"{player(e['seat'])} turns the field at {e['field']} face down",
    "uncovered": lambda e, ctx: (
        f"The face-down field at {e['field']} is turned up: {e['tile']}, rotation {e['rotation']}"
        + (f" ({player(e['entered_by'])} enters)" if e["entered_by"] is not None else "")
    ),
    "foundation": lambda e, ctx: f"{player(e['seat'])} puts back the {e['put_back']} and draws the {e['drawn']}",
    "time_loop": lambda e, ctx: (
        f"{player(e['seat'])}'s Time Loop takes them from {e['from']} back to {e['to']} (life {e['life']})"
    ),
    "enslaved_move": lambda e, ctx: f"{player(e['seat'])}, as the Guard, moves from {e['from']} to {e['to']}",
    "enslaved_meeting": lambda e, ctx: (
        f"{player(e['enslaved'])}, as the Guard, meets {player(e['seat'])}"
        + (f", who loses key {e['key_lost']}" if e["key_lost"] is not None else "")
    ),
    "enslaved_end": lambda e, ctx: f"{player(e['seat'])} is no longer the Guard ({e['node']})",
    "disarm": lambda e, ctx: (
        f"{player(e['seat'])} tries to disarm the {e['trap']} trap at {e['node']}: throws {e['roll']}: "
        + ("disarmed" if e["success"] else "failed")
    ),
}
