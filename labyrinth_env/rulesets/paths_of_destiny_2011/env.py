"""Labyrinth: The Paths of Destiny, 2011 edition (``paths_of_destiny_2011_v6``), 2-6 players.

Build the labyrinth field by field on a hexagonal board, lift a key (never the one next to
your own start field) and reach the central field with it. Traps (red ones on entry,
orange door traps on leaving), the Guard that sleeps and wakes, bridges to jump down from
or climb up, and fights with the other players stand in the way.
Rules: ``docs/rules/paths_of_destiny_2011.md``.

| Import | ``labyrinth_env.make("paths_of_destiny_2011_v6", num_players=4)`` |
|---|---|
| Actions | Discrete(``kernel.NUM_ACTIONS``) |
| Agents | ``player_0`` .. ``player_{n-1}``, n = 2..6 |
| Observation | dict: ``observation`` float32[``kernel.OBS_SIZE``] in [0, 1], ``action_mask`` int8 |

With ``lookahead=True`` (a learner's aid, off by default) the observation gains 5 floats per
action at its end, for the seat to act: what each legal action leads to in a world
determinized for that seat from its observation (the change of its own progress and of the
best rival's, the result if the game ends, acting again, legal; see
``core/batch_template.lookahead_one``); ``lookahead_layout()`` says where they sit.

Actions (the mask allows only the pending decision's actions; seat offsets count
clockwise from the deciding seat; directions 0-5 are named on the text map's compass,
east, south-east, south-west, west, north-west, north-east: ``move north-east``; fields
are named ``(q,r)`` as the text map writes them):

| decision | actions |
|---|---|
| action (active player) | build, move in a direction, jump down, come down, climb up, rest, attack (offset 1-5) |
| | kill a stunned player (offset 1-5), take a stunned player's key (free), lift key k (free) |
| | set a trap on corridor N, move the Guard, regenerate the fate crystal, end the round |
| choose a start field (2 and 5 players) | start field 0-5 |
| place the board field | cell x rotation |
| Guard direction | the Guard steps in a direction (the player transformed into the Guard, Enslavement) |
| repeat the throw? (a crystal owner; the first-player throw too) | keep / repeat with the fate crystal |
| attack the player coming in? (the player already there) | attack the newcomer / no attack |
| attack on coming in (the newcomer) | attack offset 1-5 / no attack |
| declare an attack (several players there) | join the attack on the chosen player / attack the newcomer / no attack |
| choose a character (``character_draft=True``) | choose the <character> (the cards not yet taken) |
| action, with characters | use skill 1-3 (Adrenaline, Shot, Disarming Traps, Blessing on oneself, Time Loop, |
| | Spreading Illusion: build the top field face down), |
| | use skill 1-3 on player +1..+5 (Blessing, Curse, Enslavement, the Shot at one player), |
| | use skill 1-3 towards a direction (Dark Enlivening, Mystification), |
| | pray: move player +1..+5 in a direction (Prayer) |
| which trap first (two traps in a corridor, l.386; the player crossing) | the first / second trap set (crossed first) |
| try to steal a key? (the Thief in an encounter, l.410) | use skill 1 on player +k / do not try to steal a key |
| where does the Misfortune Rite send the player? (the Witch, l.418) | use skill 3 towards a direction |
| where to build the field face down (the Illusionist, l.380) | field cell x rotation 0 (the place actions) |
| turn the covered field face up (the Illusionist, l.381) | use skill 1 towards direction r: turned r sixths |
| which of the two traps (Disarming Traps, l.411; Misfortune Rite, l.417) | the first / second trap set |
| action, the Architect | correction: turn the field <direction> / his own field by 1/6-5/6 |

Observation (egocentric: relative seat 0 is the observer): per corridor node (43 cells x
3 corridors, the last 6 cells are the frame's start fields) whether it exists, its level
and edges, its kind (central, key, start field), a face-down trap (only that one is there)
or the uncovered trap's type and whether its bracketed number applies, the keys and
whether the observer may lift one there, the Guard and whether it sleeps, the players by
relative seat; per seat life, stun, crystal, keys, start field, the +1 of the encounter,
what it met in its corridor (a fight lost there, its trap fallen into, its start field just left);
the decision and who makes it, actions left, the drawn field while it is placed, pile
sizes and the Guard cards not yet used (by kind, never their order), the throw and the
encounter being resolved, the start fields taken and the first player. With characters
(option ``characters``; public, l.131) a block follows: per relative seat its character
(one-hot) and the adrenaline, blessing and curse tokens on it, the cards still free in the
draft, "choosing a character", a skill's throw (the Shot, disarming a trap: the thrower and
the total in the throw block), the tokens left in the three supplies, and per board corridor
the Head Hunter's second trap (face down, or its type and whether its bracket applies), who is transformed
into the Guard now (Enslavement). Without characters
the observation is v1's, feature for feature.

What is ours, not the publisher's (reconstructed; the rulebook does not print it): 13 of the
30 skills (Foundation, Shortcut, Silent Step, Mirror Image, Bounty, Tracking, Keen Eye,
Blessing, Meditation, Golem Ward, Parry, Disarm, Quick Fingers) and many numbers and ranges of
the 17 the rulebook names (its section VI comments on them but does not print the cards); the
rules doc says which, skill by skill. The board fields, the Table of Traps and the Guard cards
are ours too (the rules doc, "Reconstructed components").

Rewards: winner +1, the others -1/(n-1); 0 for everyone on truncation (``max_turns``).

Version history: v0 (first release; characters and their skills not yet included).
Fix within v0: check and fight totals are clipped to the observation's [0, 1] (with
modifiers they could pass 12 or drop below 0, outside the declared Box); every value that
was inside it is unchanged.
v1 (issue 18: the rulebook's rules where v0 broke them): a key is lifted only past the
obstacles of its corridor (not after losing the fight there or falling into its trap,
l.112, l.120, l.177); lifting and taking a key are free, so a stunned player may do both
(l.108, l.349); the player leaving its start field ignores a door trap on the key field on
its way out too (l.224); a waking Guard meets every player on its field (l.337); being
turned back by a trap into an occupied corridor is an encounter (l.253); a stunned
player's key is taken one at a time, once per meeting (l.257); six players (l.41, l.43;
every start field taken); the Table of Traps holds only the harms the rulebook names (the
start-field portal and the crystal rune became a turn-back barrier and a stunning flash,
l.359); the fate crystal may repeat the throw for the first player (l.76, l.360: a
repeat decision before the seats are taken); the seat block of the observation gains three
flags, the check block a "first player" kind, the action space a sixth seat.
v2 (issue 21: the characters, setup step 8, l.74): options ``characters`` ("none", the
default, as l.74 advises for a first game; "random"; a name per seat) and
``character_draft``; the action space gains 10 + 3 + 15 + 18 + 30 + 2 + 1 + 35 actions at
its end (choose a character; a skill; a skill on a player, also the Thief's victim; towards
a direction; Prayer; which of a corridor's two traps first; no theft; the Architect's
Correction), never legal without characters. The default game
is otherwise v1's: the same dice, events and observations (nothing is drawn for
characters when they are off), but every action mask is longer, so the id moves: the
action space is the kernel's ``NUM_ACTIONS`` for every option (``aec.py``,
``vector.py``), it cannot shrink when characters are off. The skills played so far:
Climbing, Adrenaline, Shot, Blessing, Prayer, Domination, Whirling Blades, Disarming
Traps, Curse, Dark Enlivening, Mystification, Misfortune Rite, Entrapment, Theft, Correction;
reconstructed: Blessing,
Keen Eye, Silent Step, Bounty, Golem Ward, Quick Fingers, Parry, Meditation, Disarm (the rules doc,
"Characters").
v3 (issue 21: the skills v2 left out): the Assassin's Time Loop (l.376, l.363: his crystal turned
face down undoes his last action for every player it touched), as "use skill 3"; no action
is added and the default game (``characters="none"``) is v2's, action for action; games with
characters change. The Illusionist's Spreading Illusion (l.380-381): "use skill 1" builds the
top field face down, unseen by all, where she chooses (the place actions, rotation 0); a piece
stepping into it (a player's move, the Guard's step) has her turn it face up ("use skill 1
towards" a direction: the turn); the character block gains the two decisions and the covered
cells, the field being turned face up shows as the drawn field. Reconstructed: the Illusionist's
Mirror Image (the first fight thrown against her in a round is thrown again) and the
Architect's Shortcut (once a round, a move into a field he built costs no action).
Also in v3 (with characters only): ``characters="random"`` deals with the 3rd edition's
``core.characters.deal`` (each seat draws one of the cards left, in the table's order)
instead of this edition's own partial shuffle: the same seed deals other cards than in v2
(as many draws, so the dice after them are the same); listed cards, the draft and every game
without characters are unchanged.
v4 (issue 21):
- Enslavement played (the Mistress of Golems, l.400-401): "use skill 1 on player +k", 1 action
  and the round's Guard card (l.314), on a player in her corridor: the card moves him as the
  Guard (her steps: the Guard direction decision), the moon stuns him, the sun-burst sends him
  to the central field, he ignores the Guard, each player he comes upon drops a key; then he is
  himself again. No action is added; the character block gains who is transformed (a seat
  each), so its size grows; games without characters are v3's.
- The Architect's Shortcut weakened to "once a round, while he carries no key, a move from a
  field he built into another field he built costs no action" (v3's "into a field he built"
  put him at 2x the fair share with 4-6 players); his Foundation played (reconstructed, a
  public effect): while placing the field he drew he may, once a build and for one more
  action, put it back into the pile at a place the dice choose and build the next one ("use
  skill 2" in the placing decision; event ``foundation``); the Head Hunter's Tracking played
  (reconstructed, a public effect): once a round, without an action point, in his round with
  one left, he turns face up the face-down traps of his corridor ("use skill 3") or of the
  corridor across a direction ("use skill 3 towards"). No action is added; the character
  block of the observation gains two flags (Foundation used in this build, Tracking used this round).
Within v4 (issue 32; no game changes, so no new id; kept in v5): ``determinize`` deals the face-down first
and second trap tokens (Entrapment) and the trap pile again as one set; it dealt the second
tokens and then the first ones separately, so its world told which face-down token was which.
v5 (issue 33, two readings of the rulebook's lines; games with characters change, the default
game is v4's, action for action):
- Dark Enlivening (the Witch, l.416 "You cannot move the trap to the corridor, where there are
  already two traps"): she may move her corridor's trap into a corridor next to it that has one
  trap, where it lies as that corridor's second (crossed as the Head Hunter's two, l.386), never
  into one with two; v4 allowed only a corridor without a trap.
- Shot (the Female Archer, l.391 "you can shoot both of them", a permission): "use skill 2" still
  shoots every player in range; "use skill 2 on player +j" shoots that player alone, offered when
  two or more are in range. No action is added (the skill-on-a-player actions exist for every slot).
- The text board and the picture show a corridor's second trap.
v6 (issue 33, three skills and a corridor's second trap; games with characters change, the
default game is v5's, action for action):
- Mystification (the Illusionist, l.382 "swapping places of the traps in the given corridor"):
  every trap of her corridor and of the one next to it change places, a corridor's two together;
  v5 moved only the first of two.
- Disarming Traps (the Thief, l.411 "disarming a trap in that corridor") and the Misfortune Rite
  (the Witch, l.417-418 "Activating a door trap ...", "If a witch activates a turn-back trap"): one
  trap each; in a corridor with two the user chooses which (decision "which of the two traps",
  the actions "the first / second trap set", shown in the character block's decision features,
  so the observation with characters has one feature more); v5 always took the first.
The ``lookahead`` option (issue 35) came later and leaves the default observation and every
game as they were.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np

from labyrinth_env.aec import LabyrinthAECEnv
from labyrinth_env.core import characters
from labyrinth_env.core.contract import NO_SEAT
from labyrinth_env.options import check_bool, lookahead_option, option
from labyrinth_env.rulesets import hexenv
from labyrinth_env.rulesets.paths_of_destiny_2011 import SPEC
from labyrinth_env.rulesets.paths_of_destiny_2011 import components as C
from labyrinth_env.rulesets.paths_of_destiny_2011 import kernel as K
from labyrinth_env.rulesets.paths_of_destiny_2011.sentences import SENTENCES

node_name = hexenv.node_name


def _source(c: int) -> str:
    """Every character is named in section VI (l.367-418); its skills come from there or are ours."""
    ours = sum(1 for skill in C.SKILLS[c] if skill[1] == C.RECONSTRUCTED)
    return f"rulebook, {ours} of {C.SKILLS_PER_CHARACTER} skills ours"


# the 10 cards (setup step 8, l.74) for the options, the kernel's deal and the balance report
CHARACTERS = characters.CharacterTable(
    names=tuple(C.CHARACTERS), sources=tuple(_source(c) for c in range(C.NUM_CHARACTERS))
)


@dataclass(frozen=True)
class PathsOfDestiny2011Options:
    num_players: int = option(2, "number of players", int_range=SPEC.players)
    max_turns: int = option(
        400,
        "truncate after this many rounds (a limit is needed: a game need not end)",
        int_range=(1, 1_000_000),
        none_refused=hexenv.NEED_NOT_END,
    )
    ask_crystal: bool = option(
        True, "ask the owner of a face-up fate crystal whether to repeat a throw (False: never)", check=check_bool
    )
    characters: Any = option(
        "none",
        'character cards: "none" (setup step 8 skipped, l.74), "random" (one each, drawn) or a name per seat',
        check=characters.option_shape,
    )
    character_draft: bool = option(
        False, 'with characters="random": the seats choose their cards in turn (a decision)', check=check_bool
    )
    lookahead: bool = lookahead_option()

    def validate(self) -> None:
        chosen = CHARACTERS.check(self.characters, self.character_draft, self.num_players)
        object.__setattr__(self, "characters", chosen)


def _seats(mask: int) -> list[int]:
    return [p for p in range(K.NUM_SEATS) if (mask >> p) & 1]


class raw_env(LabyrinthAECEnv):
    """Paths of Destiny 2011 AEC env (unwrapped: an illegal action raises ``ValueError``)."""

    ruleset = SPEC
    Options = PathsOfDestiny2011Options
    sentences = SENTENCES

    def sentence_context(self) -> dict[str, Any]:
        return {"own_key_space": hexenv.own_key_spaces(self.record)}

    def seat_lines(self, s: np.void, seat: int) -> list[str]:
        lines = [hexenv.player_line(s, seat).replace(f"player {seat}", "you", 1) + character_text(s, seat)]
        c = int(s["character"][seat])
        if c >= 0:
            skills = [C.SKILL_NAMES[C.SKILLS_PER_CHARACTER * c + k] for k in range(C.SKILLS_PER_CHARACTER)]
            lines.append(f"your skills: {', '.join(skills)}")
        return lines

    character_table = CHARACTERS

    def options_vector(self) -> np.ndarray:
        o = self.options
        vec = super().options_vector()
        vec[K.OPT_CRYSTAL] = int(o.ask_crystal)
        CHARACTERS.encode(vec, K.OPT_CHARS, o.characters, o.character_draft)
        return vec

    def observation_size(self) -> int:
        """v1's observation without characters; the character block after it with them."""
        return K.OBS_BASE_SIZE if self.options.characters == "none" else K.OBS_SIZE

    def action_names(self) -> list[str]:
        names = ["build"]
        names += hexenv.direction_names("move")
        names += ["jump down", "come down", "climb up", "rest"]
        names += [f"attack player +{k}" for k in range(1, K.NUM_SEATS)]
        names += [f"kill stunned player +{k}" for k in range(1, K.NUM_SEATS)]
        names += [f"take the key of stunned player +{k}" for k in range(1, K.NUM_SEATS)]
        names += [f"lift key {k}" for k in range(K.NUM_KEYS)]
        names += hexenv.trap_action_names()
        names += ["move the guard", "regenerate the fate crystal", "end the round"]
        names += hexenv.place_action_names("field")
        names += hexenv.direction_names("guard steps")
        names += ["keep the throw", "repeat the throw with the fate crystal", "no attack", "attack the newcomer"]
        names += [f"attack player +{k} on coming in" for k in range(1, K.NUM_SEATS)]
        names += ["join the attack on the chosen player"]
        names += [f"choose start field {f}" for f in range(K.NUM_STARTS)]
        names += [f"choose the {c.lower()}" for c in C.CHARACTERS]
        names += [f"use skill {k + 1}" for k in range(K.SKILLS_PER_CHARACTER)]
        offsets = range(1, K.NUM_SEATS)
        names += [f"use skill {k + 1} on player +{o}" for k in range(K.SKILLS_PER_CHARACTER) for o in offsets]
        directions = hexenv.direction_names("")
        names += [f"use skill {k + 1} towards{d}" for k in range(K.SKILLS_PER_CHARACTER) for d in directions]
        names += [f"pray: move player +{o}{d}" for o in offsets for d in directions]
        names += ["the first trap set", "the second trap set"]
        names += ["do not try to steal a key"]
        fields = [f"the field{d}" for d in directions] + ["his own field"]
        names += [f"correction: turn {f} by {t}/6" for f in fields for t in range(1, 6)]
        assert len(names) == K.NUM_ACTIONS, len(names)
        return names

    def decode_event(self, record: np.ndarray) -> dict[str, Any]:
        kind, seat, a, b, c, d = (int(x) for x in record)
        t = {
            **hexenv.shared_events(K, C, "field", seat, a, b, c),
            K.EV_TRAP_SET: lambda: {"type": "trap_set", "seat": seat, "node": node_name(a)},
            K.EV_MOVE: lambda: {
                "type": "move",
                "seat": seat,
                "from": node_name(a),
                "to": node_name(b),
                "how": K.ENTRY_NAMES[c],
            },
            K.EV_JUMP: lambda: {"type": "jump_down", "seat": seat, "die": a, "success": bool(b)},
            K.EV_TRAP_CHECK: lambda: {
                "type": "trap_check",
                "seat": seat,
                "trap": C.TRAP_NAMES[a],
                "roll": b,
                "difficulty": c,
                "how": C.MODE_NAMES[d],
                "success": b >= c,
            },
            K.EV_GUARD_MEETING: lambda: {
                "type": "guard_meeting",
                "seat": seat,
                "roll": a,
                "stunned": a == K.NO_THROW,
                "stays": bool(b),
            },
            K.EV_FIGHT: lambda: {
                "type": "fight",
                "attackers": _seats(a),
                "defender": seat,
                "attack": b,
                "defence": c,
                "winner": "attackers" if b > c else ("defender" if c > b else "none"),
            },
            K.EV_DROP_KEY: lambda: {"type": "drop_key", "seat": seat, "key": a, "node": node_name(b)},
            K.EV_HOME: lambda: {"type": "to_start", "seat": seat, "from": node_name(a)},
            K.EV_RESTORED: lambda: {"type": "restored", "seat": seat},
            K.EV_LIFT_KEY: lambda: {"type": "lift_key", "seat": seat, "key": a},
            K.EV_TAKE_KEY: lambda: {"type": "take_key", "seat": seat, "key": a, "from": b},
            K.EV_KILL: lambda: {"type": "kill", "seat": seat, "victim": a},
            K.EV_GUARD_CARD: lambda: {"type": "guard_card", "seat": seat, "card": C.GUARD_KIND_NAMES[a], "steps": b},
            K.EV_GUARD_MOVE: lambda: {"type": "guard_move", "from": node_name(a), "to": node_name(b)},
            K.EV_GUARD_SLEEP: lambda: {"type": K.GUARD_SLEEP_NAMES[a]},
            K.EV_TURNED_BACK: lambda: {"type": "turned_back", "seat": seat, "from": node_name(a), "to": node_name(b)},
            K.EV_SENT_BACK: lambda: {"type": "sent_back", "seat": seat, "from": node_name(a), "to": node_name(b)},
            K.EV_START_FIELD: lambda: {"type": "start_field", "seat": seat, "field": a},
            K.EV_CHOOSER: lambda: {"type": "first_to_choose", "seat": seat},
            K.EV_DECLARE: lambda: {"type": "declare", "seat": seat, "declares": K.DECLARE_NAMES[a], "target": b},
            K.EV_HELD: lambda: {"type": "held_by_door", "seat": seat, "node": node_name(a)},
            K.EV_CHARACTER: lambda: {"type": "character", "seat": seat, "character": C.CHARACTERS[a]},
            K.EV_SKILL: lambda: {
                "type": "skill",
                "seat": seat,
                "skill": C.SKILL_NAMES[a],
                "target": None if b == K.NO_TARGET else b,
                "node": None if c < 0 else node_name(c),
            },
            K.EV_TOKENS: lambda: {"type": "tokens", "seat": seat, "token": K.TOKEN_NAMES[a], "change": b, "after": c},
            K.EV_THEFT: lambda: {"type": "theft", "seat": seat, "victim": a, "roll": b, "success": bool(c)},
            K.EV_SHOT: lambda: {"type": "shot", "seat": seat, "roll": a, "hit": bool(b), "archer": c},
            K.EV_FACE_DOWN: lambda: {"type": "face_down", "seat": seat, "field": node_name(a * K.MC)},
            K.EV_UNCOVERED: lambda: {
                "type": "uncovered",
                "seat": seat,
                "tile": C.TILE_NAMES[a],
                "field": node_name(b * K.MC),
                "rotation": c,
                "entered_by": None if d == NO_SEAT else d,
            },
            K.EV_FOUNDATION: lambda: {
                "type": "foundation",
                "seat": seat,
                "put_back": C.TILE_NAMES[a],
                "drawn": C.TILE_NAMES[b],
            },
            K.EV_TIME_LOOP: lambda: {
                "type": "time_loop",
                "seat": seat,
                "from": node_name(a),
                "to": node_name(b),
                "life": c,
            },
            K.EV_ENSLAVED_MOVE: lambda: {
                "type": "enslaved_move",
                "seat": seat,
                "from": node_name(a),
                "to": node_name(b),
            },
            K.EV_ENSLAVED_MEETING: lambda: {
                "type": "enslaved_meeting",
                "seat": seat,
                "enslaved": a,
                "key_lost": None if b < 0 else b,
            },
            K.EV_ENSLAVED_END: lambda: {"type": "enslaved_end", "seat": seat, "node": node_name(a)},
            K.EV_DISARM: lambda: {
                "type": "disarm",
                "seat": seat,
                "node": node_name(a),
                "trap": C.TRAP_NAMES[b],
                "roll": c,
                "success": bool(d),
            },
        }.get(kind)
        if t is None:
            raise ValueError(f"unknown event record {record.tolist()}")
        return t()

    def render_text(self) -> str:
        return render_text(self.record, self.text_width)


def render_text(s: np.void, width: int = 100) -> str:
    """The hex map (``hexenv.hex_map``: what lies on each field, its name under it; ``G``
    the Guard, ``g`` asleep, ``?`` a face-down field), the panel and the key. Face-down
    traps show only as ``^``, face-down fields never as which field."""
    n = int(s["num_players"])

    def guard(nodes: range) -> str:
        cell = nodes[0] // K.MC
        covered = "?" if cell < K.NUM_BOARD and s["fd_owner"][cell] >= 0 else ""
        if s["guard_node"] in nodes:
            return covered + ("g" if s["guard_asleep"] else "G")
        return covered

    glyph = hexenv.board_glyphs(s, K.CENTER_CELL, guard)
    guard_at = node_name(int(s["guard_node"])) if s["guard_node"] >= 0 else "-"
    panel = [
        *hexenv.panel_head(s, K.DECISIONS, K.RUNNING, K.WON, K.TRUNCATED),
        f"guard: {'asleep' if s['guard_asleep'] else 'awake'} at {guard_at}; piles: fields "
        f"{int(s['tile_pool_len'])}, traps {int(s['trap_pool_len'])}, "
        f"guard cards {K.NUM_GUARD_CARDS - int(s['guard_pos'])}",
    ]
    if s["drawn_tile"] >= 0:
        tile = int(s["drawn_tile"])
        panel += [
            f"drawn field: {C.TILE_NAMES[tile]}, its corridors by rotation:",
            *hexenv.tile_rotations(tile, C, width),
        ]
    covered = [node_name(cell * K.MC) for cell in range(K.NUM_BOARD) if s["fd_owner"][cell] >= 0]
    if covered:
        panel += [f"face-down fields (Spreading Illusion): {', '.join(covered)}"]
    if s["rv_cell"] >= 0:
        panel += [f"turned face up now: {C.TILE_NAMES[int(s['fd_tile'][int(s['rv_cell'])])]}"]
    panel += hexenv.key_line(s) + hexenv.face_up_traps(s, C) + hexenv.corridor_lines(s, C)
    panel += [hexenv.player_line(s, p) + character_text(s, p) for p in range(n)]
    return hexenv.render(glyph, panel, "field", ["G the Guard (g asleep)", "#? a face-down field"], width)


def character_text(s: np.void, p: int) -> str:
    """``", Witch (curse 6); cursed 1"``: the character (public, l.131) and its tokens."""
    c = int(s["character"][p])
    if c < 0:
        return ""
    text = f", {C.CHARACTERS[c]}"
    if c == K.ARCHER:
        text += f" (adrenaline {int(s['adrenaline'][p])})"
    elif c == K.MONK:
        text += f" (blessings {C.BLESSING_TOKENS - int(s['blessing'][: int(s['num_players'])].sum())} left)"
    elif c == K.WITCH:
        text += f" (curses {C.CURSE_TOKENS - int(s['curse'][: int(s['num_players'])].sum())} left)"
    if s["blessing"][p]:
        text += f", blessed {int(s['blessing'][p])}"
    if s["curse"][p]:
        text += f", cursed {int(s['curse'][p])}"
    if s["slave"] == p:
        text += ", transformed into the Guard (Enslavement)"
    return text


def env(**options: Any) -> raw_env:
    """The env as PettingZoo's wrapped envs behave (see ``labyrinth_env.aec``)."""
    e = raw_env(**options)
    e.checked = True
    return e
