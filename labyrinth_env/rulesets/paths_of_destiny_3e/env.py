"""Labyrinth: Paths of Destiny, 3rd edition (``paths_of_destiny_3e_v3``), 2-6 players.

Build the labyrinth tile by tile on a hexagonal board, take a key from another player's
key space and be the only character on the central space, key in hand, during your own
turn. Traps, the Golem, items, events, bridges, jumps and combat stand in the way.
Rules: ``docs/rules/paths_of_destiny_3e.md``.

| Import | ``labyrinth_env.make("paths_of_destiny_3e_v3", num_players=4)`` |
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
east, south-east, south-west, west, north-west, north-east: ``move north-east``; spaces
are named ``(q,r)`` as the text map writes them):

| decision | actions |
|---|---|
| activity (active player) | build, move in a direction, risky jump, safe jump, rest, attack (offset 1-5) |
| | set a trap on corridor N, move the Golem, trigger an event, activate the Crystal of Fate |
| | sip the Healing Potion, pick up (free), end turn (not while Rest or moving the Golem is a must) |
| | lay an ability token on your corridor; Rebuild: remove or move the tile on a cell (the Architect) |
| | change into a character (the Shapeshifter); Illusion: lay the top tile face down on a cell (the Illusionist) |
| place the drawn tile | cell x rotation |
| Golem direction | the Golem steps in a direction |
| reroll? (owner of the Crystal) | keep / reroll |
| Scepter of Control? | no / yes |
| per failed roll of Poisoned Spears | lose 1 Life / take 1 stun |
| free attack (the character entering) | attack offset 1-5 / decline |
| occupant's free attack | attack the one who entered / decline |
| push out of the central space (winner) | push the loser in a direction |
| pick up | key k, item i, exchange item i for carried slot j, done |
| event target | offset 0-5 (0 = yourself) |
| item to drop on death | carried slot 0/1 |
| Fury? (the War Sister losing a combat) | fury / no fury |
| ability token to resolve next (active player) | token 0-20 (one per type is offered) |
| choose a character (draft; seat 0 first) | character 0-14 |
| orient the face-down tile being revealed (the Illusionist; l.465) | rotation 0-5 |

Observation (egocentric: relative seat 0 is the observer): per corridor node (43 cells x
3 corridors, the last 6 cells are the starting spaces) whether it exists, its level and
edges, its kind (central, key, start), a face-down trap (only that one is there) or the
revealed trap's type, items, keys, the Golem, the characters by relative seat, the ability
tokens lying there by type and by owner, and on corridor 0 of a cell a face-down tile of
the Illusionist (that it is there, who laid it, that it is being revealed; never which tile
it is); per seat life, stun, crystal, keys, items,
starting space, character, ability tokens in hand by type; the decision and who makes it, actions
left, the drawn tile while it is being placed (or the face-down tile being revealed), pool
and deck sizes, the current event, the check being resolved.

What is ours, not the publisher's (reconstructed; the rulebook does not print it): 7 of the 15
characters (Witch, Sorcerer, Stormcaller, Warden, Armourer, Thief, Shapeshifter) and every
ability token's owner and effect (l.66-74 list the tokens, not who holds them); the rulebook
names the other 8 and gives some of their abilities (``components.CHARACTERS``, the rules
doc). Most tiles, traps, items and events are ours too (the rules doc, "Reconstructed
components").

Rewards: winner +1, the others -1/(n-1); 0 for everyone on truncation (``max_turns``).

Version history: v0 (first release; characters and their abilities not yet included).
Fix within v0: check and fight totals are clipped to the observation's [0, 1] (with
modifiers they could pass 12 or drop below 0, outside the declared Box); every value that
was inside it is unchanged.
v1 (issue 18, the rulebook's lines): Pick Up is a free activity of the active player on
his own corridor at any time of his turn (a new action), not only step 5 of exploring;
two players get the page-15 board by default (``two_player_variant=False`` is the
standard board, not in the rulebook); End turn is not offered while a stunned player must
rest or a player must keep moving the Golem off his key space; a failed jump onto a bridge
explores the corridor; the Healing Potion costs 1 action for 1 Life and is never used up,
Thief's Tools disarm a trap (back into the pool) instead of +1, a new trap (Spring Floor)
throws the character back where it came from (no pick-up there); characters may enter
unused starting spaces and the Golem any starting space; a stunned character is not
offered the Scepter of Control; death keeps the stun tokens; the Golem may not go back to
any corridor it left during the previous player's turn.
v2 (issue 20): characters (setup step 9, l.89): option ``characters`` ("random", the new
default, dealt from the kernel's RNG; "none", the v1 game; or a name per seat) and
``character_draft``; each seat's character and ability tokens are public in the
observation; new decisions and actions (laying a token, Rebuild, Fury, the order of ability
tokens in step 1 of exploring, the draft, the Shapeshifter's change) and events; Terror now
stops abilities. All 15 characters are written (``components.CHARACTERS``): the
Illusionist's face-down tiles (Illusion, an activity; the orientation decided on the reveal,
a decision; l.465) are hidden information, resampled by ``determinize``.
v3 (issue 33: reconstructions that contradicted the rulebook's lines): the Warden's Seal no
longer stops the Golem ("The Golem ignores all tokens placed on corridors", l.287; "The active
player must move the Golem as many times as shown", l.285): while a Seal lies on a corridor, no
character but the Warden picks up key or item tokens there. Thief's Tools no longer take a trap
off the board (a trap "stays on a given corridor until the end of the game", l.267): when every
roll of a Trap Check fails, they take the check again, all its rolls (l.428); a new event
``thiefs_tools``. The Golem's moves, the pick-ups and the Trap Checks change, so games change
with characters and without them (the Tools are an item).
The ``lookahead`` option (issue 35) came later and leaves the default observation and every
game as they were.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np

from labyrinth_env.aec import LabyrinthAECEnv
from labyrinth_env.core import characters
from labyrinth_env.options import check_bool, lookahead_option, option
from labyrinth_env.rulesets import hexenv
from labyrinth_env.rulesets.paths_of_destiny_3e import SPEC
from labyrinth_env.rulesets.paths_of_destiny_3e import components as C
from labyrinth_env.rulesets.paths_of_destiny_3e import kernel as K
from labyrinth_env.rulesets.paths_of_destiny_3e.sentences import SENTENCES

node_name = hexenv.node_name


# the 15 cards (setup step 9, l.89) for the options, the kernel's deal and the balance report
CHARACTERS = characters.CharacterTable(
    names=tuple(C.CHARACTER_NAMES),
    excluded={2: tuple(C.CHARACTER_NAMES[c] for c in C.TWO_PLAYER_EXCLUDED)},
    why_excluded="the 2-player game, l.499",
    not_ready=tuple(C.CHARACTER_NAMES[c] for c in range(C.NUM_CHARACTERS) if not C.CHARACTER_READY[c]),
    sources=tuple(C.CHARACTER_SOURCES),
)


@dataclass(frozen=True)
class PathsOfDestiny3eOptions:
    num_players: int = option(2, "number of players", int_range=SPEC.players)
    two_player_variant: bool = option(
        True,
        "with 2 players, the rulebook's 2-player board of page 15 (central space moved); False: the "
        "standard board, not in the rulebook; ignored with 3 or more players",
        check=check_bool,
    )
    max_turns: int = option(
        400,
        "truncate after this many turns (a limit is needed: a game need not end)",
        int_range=(1, 1_000_000),
        none_refused=hexenv.NEED_NOT_END,
    )
    ask_crystal: bool = option(
        True, "ask the owner of an active Crystal of Fate whether to reroll (False: never reroll)", check=check_bool
    )
    characters: str | tuple[str, ...] = option(
        "random",
        "'random' (dealt at setup, step 9), 'none' (no characters) or one character name per seat",
        check=characters.option_shape,
    )
    character_draft: bool = option(
        False, "with characters='random': the seats pick their characters in turn instead", check=check_bool
    )
    lookahead: bool = lookahead_option()

    def validate(self) -> None:
        chosen = CHARACTERS.check(self.characters, self.character_draft, self.num_players)
        object.__setattr__(self, "characters", chosen)


class raw_env(LabyrinthAECEnv):
    """Paths of Destiny 3e AEC env (unwrapped: an illegal action raises ``ValueError``)."""

    ruleset = SPEC
    Options = PathsOfDestiny3eOptions
    sentences = SENTENCES

    def sentence_context(self) -> dict[str, Any]:
        return {"own_key_space": hexenv.own_key_spaces(self.record)}

    def seat_lines(self, s: np.void, seat: int) -> list[str]:
        c = int(s["character"][seat])
        lines = [f"your character: {C.CHARACTER_NAMES[c]}: {C.CHARACTER_TEXT[c]}" if c >= 0 else "no character"]
        items = [int(i) for i in s["items"][seat] if i >= 0]
        lines += ["your items:"] + [f"  {C.describe_item(i)}" for i in items] if items else ["your items: none"]
        tokens = [
            C.TOKEN_TYPE_NAMES[int(C.ABILITY_TOKENS[i])]
            for i in range(K.NUM_ABILITY_TOKENS)
            if s["tok_owner"][i] == seat and s["tok_node"][i] < 0
        ]
        if tokens:
            lines.append("your ability tokens: " + ", ".join(tokens))
        keys = [str(k) for k in range(len(s["key_holder"])) if s["key_holder"][k] == seat]
        lines.append(
            f"keys you carry: {', '.join(keys) or 'none'}; life {int(s['life'][seat])}, stun {int(s['stun'][seat])}"
        )
        return lines

    character_table = CHARACTERS

    def options_vector(self) -> np.ndarray:
        o = self.options
        vec = super().options_vector()
        vec[K.OPT_VARIANT] = int(o.two_player_variant and o.num_players == 2)
        vec[K.OPT_CRYSTAL] = int(o.ask_crystal)
        CHARACTERS.encode(vec, K.OPT_CHARACTERS, o.characters, o.character_draft)
        return vec

    def action_names(self) -> list[str]:
        names = ["build"]
        names += hexenv.direction_names("move")
        names += ["risky jump", "safe jump", "rest"]
        names += [f"attack player +{k}" for k in range(1, 6)]
        names += hexenv.trap_action_names()
        names += ["move the golem", "trigger an event", "activate crystal of fate", "sip the healing potion", "pick up"]
        names += ["end turn"]
        names += hexenv.place_action_names("tile")
        names += hexenv.direction_names("golem steps")
        names += ["keep the roll", "reroll with crystal of fate", "scepter: no", "scepter: spend a life"]
        names += ["lose 1 life", "take 1 stun token"]
        names += [f"free attack player +{k}" for k in range(1, 6)]
        names += ["decline the attack", "attack the newcomer"]
        names += hexenv.direction_names("push the loser")
        names += [f"pick up key {k}" for k in range(K.NUM_KEYS)]
        names += [f"pick up {C.ITEM_NAMES[i].lower()}" for i in range(K.NUM_ITEMS)]
        for i in range(K.NUM_ITEMS):
            names += [f"exchange slot {j} for {C.ITEM_NAMES[i].lower()}" for j in range(2)]
        names.append("done picking up")
        names += ["event on yourself"] + [f"event on player +{k}" for k in range(1, 6)]
        names += ["drop item in slot 0", "drop item in slot 1"]
        names += ["lay an ability token"]
        names += [f"rebuild: remove the tile at {node_name(c * K.MC)}" for c in range(K.NUM_BOARD)]
        names += [f"rebuild: move the tile at {node_name(c * K.MC)}" for c in range(K.NUM_BOARD)]
        names += [f"change into the {n.lower()}" for n in C.CHARACTER_NAMES]
        names += ["fury: lose 1 life for +2", "no fury"]
        names += [
            f"resolve {C.TOKEN_TYPE_NAMES[int(C.ABILITY_TOKENS[i])].lower()} token {i}"
            for i in range(K.NUM_ABILITY_TOKENS)
        ]
        names += [f"choose the {n.lower()}" for n in C.CHARACTER_NAMES]
        names += [f"illusion: lay a face-down tile at {node_name(c * K.MC)}" for c in range(K.NUM_BOARD)]
        names += [f"orient the revealed tile: rotation {r}" for r in range(6)]
        assert len(names) == K.NUM_ACTIONS, len(names)
        return names

    def decode_event(self, record: np.ndarray) -> dict[str, Any]:
        kind, seat, a, b, c, d = (int(x) for x in record)
        t = {
            **hexenv.shared_events(K, C, "tile", seat, a, b, c),
            K.EV_TRAP_PLACED: lambda: {"type": "trap_placed", "seat": seat, "node": node_name(a)},
            K.EV_ITEM_PLACED: lambda: {
                "type": "item_placed",
                "seat": seat,
                "item": C.ITEM_NAMES[a],
                "node": node_name(b),
            },
            K.EV_MOVE: lambda: {"type": "move", "seat": seat, "from": node_name(a), "to": node_name(b)},
            K.EV_JUMP: lambda: {
                "type": K.JUMP_NAMES[c],
                "seat": seat,
                "roll": a,
                "success": bool(b),
            },
            K.EV_TRAP_CHECK: lambda: {
                "type": "trap_check",
                "seat": seat,
                "trap": C.TRAP_NAMES[a],
                "failed_rolls": b,
                "rolls": c,
            },
            K.EV_GOLEM_CHECK: lambda: {"type": "golem_check", "seat": seat, "roll": a, "success": bool(b)},
            K.EV_COMBAT: lambda: {"type": "combat", "attacker": seat, "defender": a, "attack": b, "defence": c},
            K.EV_DROP: lambda: {
                "type": "drop",
                "seat": seat,
                "token": K.TOKEN_NAMES[a],
                "id": b if a == K.TOKEN_KEY else C.ITEM_NAMES[b],
                "node": node_name(c),
            },
            K.EV_TO_START: lambda: {"type": "to_start", "seat": seat, "from": node_name(a)},
            K.EV_PICK_UP: lambda: {
                "type": "pick_up",
                "seat": seat,
                "token": K.TOKEN_NAMES[a],
                "id": b if a == K.TOKEN_KEY else C.ITEM_NAMES[b],
            },
            K.EV_EXCHANGE: lambda: {"type": "exchange", "seat": seat, "took": C.ITEM_NAMES[a], "left": C.ITEM_NAMES[b]},
            K.EV_GOLEM_CARD: lambda: {"type": "golem_card", "seat": seat, "card": C.GOLEM_KIND_NAMES[a], "steps": b},
            K.EV_GOLEM_MOVE: lambda: {"type": "golem_move", "from": node_name(a), "to": node_name(b)},
            K.EV_EVENT: lambda: {"type": "event", "seat": seat, "event": C.EVENT_NAMES[a]},
            K.EV_PUSHED_OUT: lambda: {"type": "pushed_out", "seat": seat, "from": node_name(a), "to": node_name(b)},
            K.EV_SCEPTER: lambda: {"type": "scepter", "seat": seat},
            K.EV_HEART: lambda: {"type": "heart_of_the_abyss", "seat": seat},
            K.EV_POTION: lambda: {"type": "potion", "seat": seat},
            K.EV_TRAP_REMOVED: lambda: {
                "type": "trap_removed",
                "seat": seat,
                "node": node_name(a),
                "trap": C.TRAP_NAMES[b],
            },
            K.EV_THROWN_BACK: lambda: {"type": "thrown_back", "seat": seat, "from": node_name(a), "to": node_name(b)},
            K.EV_CHARACTER: lambda: {
                "type": "character",
                "seat": seat,
                "character": C.CHARACTER_NAMES[a],
                "how": K.CHAR_HOW_NAMES[b],
            },
            K.EV_TOKEN_LAID: lambda: {
                "type": "token_laid",
                "seat": seat,
                "token": C.TOKEN_TYPE_NAMES[a],
                "node": node_name(b),
            },
            K.EV_TOKEN_EFFECT: lambda: {
                "type": "token_effect",
                "seat": seat,
                "token": C.TOKEN_TYPE_NAMES[a],
                "node": node_name(b),
                "owner": c,
            },
            K.EV_TOKEN_RETURNED: lambda: {
                "type": "token_returned",
                "seat": seat,
                "token": C.TOKEN_TYPE_NAMES[a],
                "node": node_name(b),
            },
            K.EV_FURY: lambda: {"type": "fury", "seat": seat, "total": a},
            K.EV_DISMEMBER: lambda: {"type": "dismember", "seat": seat, "loser": a},
            K.EV_REBUILD: lambda: {
                "type": "rebuild",
                "seat": seat,
                "tile": C.TILE_NAMES[a],
                "cell": node_name(b * K.MC),
                "how": "moved" if c else "removed",
            },
            K.EV_STEAL: lambda: {"type": "steal", "seat": seat, "loser": a, "key": b},
            K.EV_PORTAL: lambda: {"type": "chaos_portal", "seat": seat, "from": node_name(a), "to": node_name(b)},
            K.EV_FACE_DOWN: lambda: {"type": "face_down_tile", "seat": seat, "cell": node_name(a * K.MC)},
            K.EV_REVEALED: lambda: {
                "type": "face_down_revealed",
                "seat": seat,
                "tile": C.TILE_NAMES[a],
                "cell": node_name(b * K.MC),
                "rotation": c,
                "entered_by": "golem" if d < 0 else d,
            },
            K.EV_TOOLS: lambda: {"type": "thiefs_tools", "seat": seat, "trap": C.TRAP_NAMES[a]},
        }.get(kind)
        if t is None:
            raise ValueError(f"unknown event record {record.tolist()}")
        return t()

    def event_display(self, record: np.ndarray) -> dict[str, Any]:
        # a Trap Check's data counts its failed rolls; the table sees every roll (l.432)
        kind, _, _, _, rolls, packed = (int(x) for x in record)
        if kind != K.EV_TRAP_CHECK:
            return {}
        mask = (1 << K.ROLL_BITS) - 1
        return {
            "dice": [(packed >> (K.ROLL_BITS * i)) & mask for i in range(rolls)],
            "modifier": (packed >> (K.ROLL_BITS * K.MAX_TRAP_ROLLS)) - K.MODIFIER_BIAS,
        }

    def render_text(self) -> str:
        return render_text(self.record, self.text_width)


def render_text(s: np.void, width: int = 100) -> str:
    """The hex map (``hexenv.hex_map``: what lies on each space, its name under it; ``$``
    an item, ``G`` the Golem, ``@`` ability tokens, ``?`` a face-down tile), the panel and the key.
    Face-down traps show only as ``^``; face-down tiles only as ``#?`` and by whose they are."""
    n = int(s["num_players"])

    def items_and_golem(nodes: range) -> str:
        marks = "$" if any(s["item_node"][i] in nodes for i in range(K.NUM_ITEMS)) else ""
        marks += "@" if any(s["tok_node"][i] in nodes for i in range(K.NUM_ABILITY_TOKENS)) else ""
        cell = nodes.start // K.MC
        marks += "?" if cell < K.NUM_BOARD and s["fd_owner"][cell] >= 0 else ""
        return marks + ("G" if s["golem_node"] in nodes else "")

    glyph = hexenv.board_glyphs(s, int(s["center_cell"]), items_and_golem)
    golem_at = node_name(int(s["golem_node"])) if s["golem_node"] >= 0 else "-"
    event = C.EVENT_NAMES[int(s["current_event"])] if s["current_event"] >= 0 else "-"
    panel = [
        *hexenv.panel_head(s, K.DECISIONS, K.RUNNING, K.WON, K.TRUNCATED),
        f"golem at {golem_at}; event: {event}; pools: tiles {int(s['tile_pool_len'])}, "
        f"traps {int(s['trap_pool_len'])}, items {int(s['item_pool_len'])}",
    ]
    if s["drawn_tile"] >= 0:
        tile = int(s["drawn_tile"])
        panel += [
            f"drawn tile: {C.TILE_NAMES[tile]}, its corridors by rotation:",
            *hexenv.tile_rotations(tile, C, width),
        ]
    panel += hexenv.key_line(s) + hexenv.face_up_traps(s, C)
    lying = [
        f"{node_name(int(node))} {C.ITEM_NAMES[i]}".replace(" ", hexenv.NBSP)
        for i, node in enumerate(s["item_node"])
        if node >= 0
    ]
    panel += ["items lying: " + ", ".join(lying)] if lying else []
    panel += hexenv.corridor_lines(s, C)
    laid = [
        f"{node_name(int(s['tok_node'][i]))} {C.TOKEN_TYPE_NAMES[int(C.ABILITY_TOKENS[i])]} of player "
        f"{int(s['tok_owner'][i])}".replace(" ", hexenv.NBSP)
        for i in range(K.NUM_ABILITY_TOKENS)
        if s["tok_node"][i] >= 0
    ]
    panel += ["ability tokens lying: " + ", ".join(laid)] if laid else []
    # the Illusionist's face-down tiles: where and whose, never which tile (no seat has seen it)
    down = [
        f"{node_name(cell * K.MC)} of player {int(s['fd_owner'][cell])}".replace(" ", hexenv.NBSP)
        for cell in range(K.NUM_BOARD)
        if s["fd_owner"][cell] >= 0 and cell != s["rv_cell"]
    ]
    panel += ["face-down tiles: " + ", ".join(down)] if down else []
    if s["rv_cell"] >= 0:
        tile = int(s["fd_tile"][int(s["rv_cell"])])
        panel += [
            f"revealing the tile at {node_name(int(s['rv_cell']) * K.MC)}: {C.TILE_NAMES[tile]}, by rotation:",
            *hexenv.tile_rotations(tile, C, width),
        ]
    for p in range(n):
        items = [C.ITEM_NAMES[int(i)] for i in s["items"][p] if i >= 0]
        c = int(s["character"][p])
        who = C.CHARACTER_NAMES[c] if c >= 0 else "no character"
        hand = [
            C.TOKEN_TYPE_NAMES[int(C.ABILITY_TOKENS[i])]
            for i in range(K.NUM_ABILITY_TOKENS)
            if s["tok_owner"][i] == p and s["tok_node"][i] < 0
        ]
        tokens = f", tokens [{', '.join(hand)}]" if hand else ""
        panel.append(f"{hexenv.player_line(s, p)}, {who}, items [{', '.join(items)}]{tokens}")
    return hexenv.render(glyph, panel, "space", ["$ item", "G Golem", "@ ability token", "#? a face-down tile"], width)


def env(**options: Any) -> raw_env:
    """The env as PettingZoo's wrapped envs behave (see ``labyrinth_env.aec``)."""
    e = raw_env(**options)
    e.checked = True
    return e
