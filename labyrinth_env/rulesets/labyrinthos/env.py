"""Labyrinthos (``labyrinthos_v2``), 2-4 players.

Explore a 7x7 maze of face-down tiles, spend Feet and Hand action tokens on your hero
board, take wounds that block actions, find the four keys (each replaces an action) and
be the first to move onto the Door tile with all four, while the Minotaur (or Medusa, or
Cerberus) is moved by a die at the end of every turn.
Rules: ``docs/rules/labyrinthos.md``.

| Import | ``labyrinth_env.make("labyrinthos_v2", num_players=4, monster="medusa")`` |
|---|---|
| Actions | Discrete(``kernel.NUM_ACTIONS``) |
| Agents | ``player_0`` .. ``player_{n-1}``, n = 2..4 |
| Observation | dict: ``observation`` float32[``kernel.OBS_SIZE``] in [0, 1], ``action_mask`` int8 |

With ``lookahead=True`` (a learner's aid, off by default) the observation gains 5 floats per
action at its end, for the seat to act: what each legal action leads to in a world
determinized for that seat from its observation (the change of its own progress and of the
best rival's, the result if the game ends, acting again, legal; see
``core/batch_template.lookahead_one``); ``lookahead_layout()`` says where they sit.

Actions (the mask allows only the pending decision's actions; cells are ``rRcC``, row and
column 0-6, the Door tile is r3c3; seat offsets count clockwise from the deciding seat):

| decision | actions |
|---|---|
| action (active player) | move to a cell, explore N/E/S/W, discover key, desperate action (a card), |
| | rotate wall (from side, to side), rotate tile (cell, clockwise / counter-clockwise), heal, |
| | special action, key action (16, one per key token), recover / rearrange (Feet paid), pass |
| choose a hero board | hero 0-3 |
| place the explored tile | rotation 0-3 |
| choose a key token / place it on a slot / rearrange / heal / place a wound | key token 0-15 / action slot 0-8 |
| place a wall; build; visions | inner edge 0-83 (build also removes; visions: the wall, then its new side); done |
| spend a monster movement point | move to a cell, rotate a tile, remove a wall (edge) |
| secret passage / charge / displace the attacked hero | cell / direction / cell |
| wild intuition; Hermes' Mischief | yes / no (yes only holding the card) |
| reaction to an attack | play a card / no (every attacked hero who could react is asked) |
| refresh the action pool | take f Feet and 7 - f Hand tokens |
| discard before drawing / down to the limit | a card type (/ done) |
| secret lever, Earthquake | rotate tile (/ done); Stone Gaze, Gorgon's Eye: player +1..+3 |
| Ariadne's Thread, Hiding Place, a moving key action | move to a cell |
| Trickster's Swap | player +1..+3, then the action slot of the key token given |

Observation (egocentric: relative seat 0 is the observer): per cell whether it is explored
and then its pathways, symbol, Door / key colour / hero colour, the walls on its sides,
the monster, the heroes by relative seat (a face-down tile shows nothing but walls); per
seat its hero, Feet and Hand tokens, the wound and the face-up key token (colour, action)
on each action slot, keys held, hand size, whether it is the active player, whether the monster attacked it in
the current chain of attacks; the
observer's own hand by card type; the decision and who makes it, the monster (kind, on the
board, points left, the hunted hero, the last die faces), supplies, deck size, the face-up
discard pile, the key tokens the observer has looked at, what the decision is about.

Rewards: winner +1, the others -1/(n-1); 0 for everyone on truncation (``max_turns``).

Version history: v0 (first release). v1 (issue 19): reaction prompts never tell a hand:
every player who could play Hermes' Mischief (every attacked hero who could play a reaction)
by public facts is asked, holding the card or not, and answers no without it; the monster
must leave its starting tile when some way of spending its points does so (the Door tile
only when none does), and a charge goes a way that moves it; the 16 key tokens carry 16
different key actions (12 reconstructed); Ariadne's Thread, the Bull Leaper key and the
Tamer's Beast Caller allow moving onto the monster's tile; new cards Hiding Place (targets
the Hide symbol) and Trickster's Swap (swaps key tokens); the base deck's counts changed to
make room (still 60 cards); a turn's Minotaur symbols after the sixth give no points (so
attacks cannot pass the monster between heroes for ever); observation and action space
grew (16 key actions, 2 decisions, 2 cards, the symbol count). v2 (issue 33): a Minotaur
symbol gives its two points every time (l.209; v1 gave none after a turn's sixth); instead
the monster attacks a hero at most once in a chain of attacks and passes it after, as it
passes a hero on a Hide tile, which ends every chain; the observation's per-seat block shows
who was attacked in the current chain (the symbol count is gone).
The ``lookahead`` option (issue 35) came later and leaves the default observation and every
game as they were.
"""

from __future__ import annotations

import textwrap
from dataclasses import dataclass
from typing import Any

import numpy as np

from labyrinth_env.aec import LabyrinthAECEnv
from labyrinth_env.core.grid import SQUARE_DIRECTIONS, rotate_mask
from labyrinth_env.options import check_bool, lookahead_option, option
from labyrinth_env.render.panel import turn_shown
from labyrinth_env.rulesets.labyrinthos import SPEC
from labyrinth_env.rulesets.labyrinthos import components as C
from labyrinth_env.rulesets.labyrinthos import kernel as K
from labyrinth_env.rulesets.labyrinthos.sentences import SENTENCES


@dataclass(frozen=True)
class LabyrinthosOptions:
    num_players: int = option(2, "number of players", int_range=SPEC.players)
    max_turns: int | None = option(
        1000, "truncate after this many player turns (None: never)", int_range=(1, 1_000_000), optional=True
    )
    monster: str = option("minotaur", "the monster in the maze (Monstrous Myths)", choices=C.MONSTER_NAMES)
    use_empty_key_slot: bool = option(
        True, "heroes may store a key on the empty key slot (False: the harder game)", check=check_bool
    )
    lookahead: bool = lookahead_option()


def cell_name(cell: int) -> str:
    r, c = divmod(int(cell), K.SIZE)
    return f"r{r}c{c}"


def edge_name(e: int) -> str:
    a, b = K.EDGE_CELLS[int(e)]
    return f"{cell_name(a)}-{cell_name(b)}"


def _seats(mask: int) -> list[int]:
    return [p for p in range(K.NUM_SEATS) if (mask >> p) & 1]


class raw_env(LabyrinthAECEnv):
    """Labyrinthos AEC env (unwrapped: an illegal action raises ``ValueError``)."""

    ruleset = SPEC
    Options = LabyrinthosOptions
    sentences = SENTENCES

    def sentence_context(self) -> dict[str, Any]:
        s, n = self.record, self.options.num_players
        ctx: dict[str, Any] = {"monster": self.options.monster, "num_players": n}
        ctx["first_player"] = int(s["first_player"])
        ctx["door"] = cell_name(K.DOOR_CELL)
        heroes = [int(h) for h in s["hero"][:n]]
        if min(heroes) >= 0:
            # every hero chosen: the starting tiles lie face up, so which tile lies where and
            # where each hero began are public (the tiles never leave their cells)
            ctx["start_tiles"] = {cell_name(int(c)): C.TILE_NAMES[int(s["cell_tile"][c])] for c in K.START_CELLS}
            ctx["hero_starts"] = {
                p: cell_name(int(c))
                for p in range(n)
                for c in K.START_CELLS
                if s["cell_tile"][c] == C.HERO_START_TILE[heroes[p]]
            }
        return ctx

    def action_label(self, action: int) -> str:
        # a card action discards in the two discard decisions: "desperate action: X" read as
        # if the card were played (issue 37)
        card = int(action) - K.A_CARD
        if int(self.record["decision"]) in (K.D_DISCARD_OPT, K.D_DISCARD) and 0 <= card < C.NUM_CARD_TYPES:
            return f"discard {C.CARD_NAMES[card]}"
        return super().action_label(action)

    def seat_lines(self, s: np.void, seat: int) -> list[str]:
        counts = s["hand"][seat]
        lines = [f"your hand ({int(counts.sum())} cards):"]
        for t, v in enumerate(counts):
            if v > 0:
                copies = f" x{int(v)}" if v > 1 else ""
                lines.append(f"  {C.CARD_NAMES[t]}{copies}: {C.CARD_TEXT[t]}")
        if not counts.sum():
            lines.append("  (empty)")
        seen = [
            f"{C.KEY_COLOUR_NAMES[K.KEY_TOKEN_COLOUR[k]]} {C.KEY_ACTION_NAMES[K.KEY_TOKEN_ACTION[k]]}"
            for k in range(len(s["key_pile"]))
            if s["key_pile"][k] and s["key_seen"][seat, k]
        ]
        if seen:
            lines.append("key tokens in the pile you have looked at: " + ", ".join(seen))
        h = int(s["hero"][seat])
        if h >= 0:
            lines.append(f"your hero: {C.HERO_NAMES[h]} (special action: {C.SPECIAL_NAMES[h]})")
        return lines

    def options_vector(self) -> np.ndarray:
        o = self.options
        vec = super().options_vector()
        vec[K.OPT_MONSTER] = C.MONSTER_NAMES.index(o.monster)
        vec[K.OPT_KEY_SLOT] = int(o.use_empty_key_slot)
        return vec

    def action_names(self) -> list[str]:
        names = [f"move to {cell_name(c)}" for c in range(K.NUM_CELLS)]
        names += [f"explore {d}" for d in K.DIRECTION_NAMES]
        names += ["discover key"]
        names += [f"desperate action: {n.lower()}" for n in C.CARD_NAMES]
        names += [f"rotate wall from {K.DIRECTION_NAMES[k // 4]} to {K.DIRECTION_NAMES[k % 4]}" for k in range(16)]
        for c in range(K.NUM_CELLS):
            names += [f"rotate tile {cell_name(c)} {way}" for way in K.TURN_NAMES]
        names += ["heal", "special action"]
        names += [f"key action: {n}" for n in C.KEY_ACTION_NAMES]
        names += [f"recover paying {f} feet and {C.RECOVER_COST - f} hand" for f in range(C.RECOVER_COST + 1)]
        names += [f"rearrange paying {f} feet and {C.REARRANGE_COST - f} hand" for f in range(C.REARRANGE_COST + 1)]
        names += ["pass"]
        names += [f"place the explored tile turned {r} clockwise" for r in range(4)]
        names += [f"choose the key token {n}" for n in C.KEY_ACTION_NAMES]
        names += [f"action slot {n}" for n in C.SLOT_NAMES]
        names += [f"wall between {edge_name(e)}" for e in range(K.NUM_EDGES)]
        names += [f"charge {d}" for d in K.DIRECTION_NAMES]
        names += [f"take {f} feet and {C.POOL_SIZE - f} hand tokens" for f in range(C.POOL_SIZE + 1)]
        names += [f"choose hero {C.HERO_NAMES[h].lower()} ({C.SPECIAL_NAMES[h]})" for h in range(C.NUM_HEROES)]
        names += [f"choose player +{k}" for k in range(1, K.NUM_SEATS)]
        names += ["yes", "no", "done"]
        assert len(names) == K.NUM_ACTIONS, len(names)
        return names

    def decode_event(self, record: np.ndarray) -> dict[str, Any]:
        kind, seat, a, b, c, _ = (int(x) for x in record)
        t = {
            K.EV_FIRST_PLAYER: lambda: {"type": "first_player", "seat": seat},
            K.EV_HERO: lambda: {"type": "hero", "seat": seat, "hero": C.HERO_NAMES[a]},
            K.EV_TURN: lambda: {"type": "start_turn", "seat": seat, "turn": a},
            K.EV_MOVE: lambda: {
                "type": "move",
                "seat": seat,
                "from": cell_name(a) if a >= 0 else None,
                "to": cell_name(b),
                "how": K.HOW_NAMES[c],
            },
            K.EV_EXPLORE: lambda: {"type": "explore", "seat": seat, "cell": cell_name(a), "tile": C.TILE_NAMES[b]},
            K.EV_ORIENT: lambda: {"type": "orient", "seat": seat, "cell": cell_name(a), "rotation": b},
            K.EV_KEY: lambda: {
                "type": "discover_key",
                "seat": seat,
                "colour": C.KEY_COLOUR_NAMES[K.KEY_TOKEN_COLOUR[a]],
                "action": C.KEY_ACTION_NAMES[K.KEY_TOKEN_ACTION[a]],
                "slot": C.SLOT_NAMES[b],
            },
            K.EV_CARD: lambda: {"type": "card", "seat": seat, "card": C.CARD_NAMES[a]},
            K.EV_CANCEL: lambda: {"type": "cancel", "seat": seat, "card": C.CARD_NAMES[a], "of": b},
            K.EV_WALL_ROTATED: lambda: {"type": "rotate_wall", "seat": seat, "from": edge_name(a), "to": edge_name(b)},
            K.EV_TILE_ROTATED: lambda: {
                "type": "rotate_tile",
                "seat": seat,
                "cell": cell_name(a),
                "way": K.TURN_NAMES[b],
            },
            K.EV_WALL_PLACED: lambda: {"type": "wall_placed", "seat": seat, "edge": edge_name(a)},
            K.EV_WALL_REMOVED: lambda: {"type": "wall_removed", "seat": seat, "edge": edge_name(a)},
            K.EV_HEAL: lambda: {"type": "heal", "seat": seat, "slot": C.SLOT_NAMES[a]},
            K.EV_RECOVER: lambda: {"type": "recover", "seat": seat, "wounds": a},
            K.EV_REARRANGE: lambda: {"type": "rearrange", "seat": seat, "from": C.SLOT_NAMES[a], "to": C.SLOT_NAMES[b]},
            K.EV_WOUND: lambda: {"type": "wound", "seat": seat, "slot": C.SLOT_NAMES[a] if a >= 0 else None},
            K.EV_REFRESH: lambda: {"type": "refresh", "seat": seat, "feet": a, "hand": b},
            K.EV_DRAW: lambda: {"type": "draw", "seat": seat, "cards": a},
            K.EV_DISCARD: lambda: {"type": "discard", "seat": seat, "card": C.CARD_NAMES[a]},
            K.EV_ROLL: lambda: {"type": "minotaur_die", "seat": seat, "face": C.MINOTAUR_FACE_NAMES[a]},
            K.EV_BLOOD: lambda: {"type": "blood_die", "seat": seat, "wounds": a},
            K.EV_MONSTER_MOVE: lambda: {
                "type": "monster_move",
                "seat": seat,
                "from": cell_name(a) if a >= 0 else None,
                "to": cell_name(b),
                "how": K.MONSTER_HOW_NAMES[c],
            },
            K.EV_ATTACK: lambda: {"type": "attack", "seat": seat, "cell": cell_name(a), "heroes": _seats(b)},
            K.EV_DISPLACE: lambda: {
                "type": "displace",
                "seat": seat,
                "to": cell_name(a) if a >= 0 else None,
                "by": b,
            },
            K.EV_TOKENS: lambda: {"type": "tokens", "seat": seat, "feet": a, "hand": b},
            K.EV_RESHUFFLE: lambda: {"type": "reshuffle", "cards": a},
            K.EV_SPECIAL: lambda: {"type": "special_action", "seat": seat, "action": C.SPECIAL_NAMES[a]},
            K.EV_KEY_ACTION: lambda: {"type": "key_action", "seat": seat, "action": C.KEY_ACTION_NAMES[a]},
            K.EV_HUNT: lambda: {"type": "hunt", "target": a},
            K.EV_WIN: lambda: {"type": "win", "seat": seat},
            K.EV_TRUNCATED: lambda: {"type": "truncated"},
            K.EV_POINTS: lambda: {"type": "movement_points", "seat": seat, "points": a},
            K.EV_SHIELD: lambda: {"type": "shield_maiden", "seat": seat},
            K.EV_INTUITION: lambda: {"type": "wild_intuition", "seat": seat, "rolls": bool(a)},
            K.EV_KEY_SWAP: lambda: {
                "type": "key_swap",
                "seat": seat,
                "with": a,
                "gave": C.KEY_ACTION_NAMES[K.KEY_TOKEN_ACTION[b]],
                "got": C.KEY_ACTION_NAMES[K.KEY_TOKEN_ACTION[c]],
            },
        }.get(kind)
        if t is None:
            raise ValueError(f"unknown event record {record.tolist()}")
        return t()

    def render_text(self) -> str:
        return render_text(self.record, self.text_width)


def _glyph_paths(mask: int) -> str:
    return "".join(SQUARE_DIRECTIONS[d] if (mask >> d) & 1 else "." for d in range(4))


# a tile's symbol on the text board (``C.SYMBOL_NAMES``' order; none: a blank)
SYMBOL_LETTERS = " wmhtp"
assert len(SYMBOL_LETTERS) == len(C.SYMBOL_NAMES)
BODY = 8  # the characters of a cell: pathways (4), the tile's mark, who is there (3)


def _cell_body(s: np.void, cell: int, n: int) -> str:
    if s["cell_up"][cell]:
        t = int(s["cell_tile"][cell])
        mark = SYMBOL_LETTERS[int(C.TILE_SYMBOL[t])]
        if C.TILE_KIND[t] == C.KIND_DOOR:
            mark = "D"
        elif C.TILE_KIND[t] == C.KIND_KEY:
            mark = C.KEY_COLOUR_NAMES[int(C.TILE_COLOUR[t])][0]
        body = _glyph_paths(int(s["cell_mask"][cell])) + mark
    else:
        body = "#### "
    who = ("M" if int(s["monster_cell"]) == cell else "") + "".join(
        str(p) for p in range(n) if int(s["position"][p]) == cell
    )
    if len(who) > BODY - 5:
        who = who[: BODY - 6] + "*"
    return (body + who).ljust(BODY)


def render_text(s: np.void, width: int = 100) -> str:
    """The 7x7 maze with its row (``r0``-``r6``) and column (``c0``-``c6``) labels, as cells
    are named in the actions (``r2c4``), the panel and the key. A cell shows a face-up tile's
    open pathways (``N``, ``E``, ``S``, ``W``; ``.`` closed), its mark, then the monster
    ``M`` and the heroes' seat digits; ``####`` a face-down tile (nothing of it shows); ``|``
    / ``=`` a wall on the east / south side."""
    n = int(s["num_players"])
    monster = C.MONSTER_NAMES[int(s["monster"])]
    lines = ["   " + "".join(f"c{c}".ljust(BODY + 1) for c in range(K.SIZE)).rstrip()]
    for r in range(K.SIZE):
        row, below = [f"r{r} "], ["   "]
        for c in range(K.SIZE):
            cell = r * K.SIZE + c
            e = K.EDGE_OF[cell, 1]
            row.append(_cell_body(s, cell, n) + ("|" if e >= 0 and s["wall"][e] else " "))
            e = K.EDGE_OF[cell, 2]
            below.append(("=" * BODY if e >= 0 and s["wall"][e] else " " * BODY) + " ")
        lines.append("".join(row).rstrip())
        lines.append("".join(below).rstrip())
    status = {K.RUNNING: "running", K.WON: f"won by player {int(s['winner'])}", K.TRUNCATED: "truncated"}
    where = f"at {cell_name(int(s['monster_cell']))}" if s["monster_cell"] >= 0 else "off the board"
    panel = [
        f"turn {turn_shown(s['turn'], s['outcome'])}, {status[int(s['outcome'])]}; the {monster} {where}; "
        f"walls in supply {int(s['wall_supply'])}, deck {int(s['deck_len'])} cards",
    ]
    if int(s["outcome"]) == K.RUNNING:
        decision = f"{K.DECISIONS[int(s['decision'])]} (player {int(s['decider'])})"
        panel.append(f"active player {int(s['seat'])}; decision: {decision}")
    pending = int(s["pending_cell"])
    if s["decision"] == K.D_ORIENT and pending >= 0 and s["cell_up"][pending]:
        tile = int(s["cell_tile"][pending])
        turns = [f"turned {r} {_glyph_paths(rotate_mask(int(K.TILE_MASK[tile]), r, 4))}" for r in range(4)]
        panel.append(f"the explored tile at {cell_name(pending)} opens: " + ", ".join(turns))
    for p in range(n):
        h = int(s["hero"][p])
        slots = []
        for i in range(C.NUM_SLOTS):
            k = int(s["slot_key"][p, i])
            if k < 0:
                name = C.SLOT_NAMES[i]
            else:
                name = f"{C.KEY_COLOUR_NAMES[K.KEY_TOKEN_COLOUR[k]]} {C.KEY_ACTION_NAMES[K.KEY_TOKEN_ACTION[k]]}"
            slots.append(name + ("*" if s["slot_wound"][p, i] else ""))
        where = cell_name(int(s["position"][p])) if s["position"][p] >= 0 else "-"
        head = (
            f"player {p} ({C.HERO_NAMES[h] if h >= 0 else '-'}) at {where}: {int(s['feet'][p])} feet, "
            f"{int(s['hands'][p])} hand, {int(s['hand'][p].sum())} cards; slots (* wounded): "
        )
        panel += _wrap(head, slots, width)
    letters = SYMBOL_LETTERS[1:]
    legend = (
        "NESW a tile's open pathways (. closed), then its mark: D the Door, "
        f"{'/'.join(name[0] for name in C.KEY_COLOUR_NAMES)} a key tile ({', '.join(C.KEY_COLOUR_NAMES)}), "
        f"{'/'.join(letters)} a symbol ({', '.join(C.SYMBOL_NAMES[1:])}); M\xa0the\xa0{monster}; digits: the heroes "
        "(player numbers); #### a face-down tile; | a wall on the east side, ===== on the south side; "
        "north is up (r0), east to the right (c6)"
    )
    width = max(width, 40)
    legend = textwrap.wrap(legend, width, initial_indent="key: ", subsequent_indent="     ", break_on_hyphens=False)
    legend = [line.replace("\xa0", " ") for line in legend]  # the non-breaking spaces keep a mark with its words
    panel = [part for line in panel for part in textwrap.wrap(line, width, subsequent_indent="    ")]
    return "\n".join([*lines, *panel, "", *legend])


def _wrap(head: str, parts: list[str], width: int = 100) -> list[str]:
    """``head`` and ``parts`` (comma-separated) wrapped at ``width``, the next lines indented."""
    lines, line = [], head
    for i, part in enumerate(parts):
        piece = part + ("," if i < len(parts) - 1 else "")
        if len(line) + len(piece) > width:
            lines.append(line.rstrip())
            line = "    "
        line += piece + " "
    lines.append(line.rstrip())
    return lines


def env(**options: Any) -> raw_env:
    """The env as PettingZoo's wrapped envs behave (see ``labyrinth_env.aec``)."""
    e = raw_env(**options)
    e.checked = True
    return e
