"""``labyrinth play --web``: a person plays (or watches) a game in the browser.

A small HTTP server on 127.0.0.1 (the standard library's ``http.server``: one game, one
person, a handful of requests a second; nothing to install and nothing listening beyond
this machine) serves one page in the replay viewer's look (``render.replay_html``'s style,
no network) and a JSON API over one ``WebGame``:

- ``GET /state``: what the page shows, all from the person's seat: the board drawn for that
  seat (``to_svg(viewer=seat)``), the seat's private lines (``env.private_lines``), the log
  as sentences, the pending decision and, on the person's turn, its legal actions grouped
  as the terminal groups them, with the board places they name;
- ``POST /act`` ``{"action": N}``: the person's action (refused unless legal and theirs);
- ``POST /advance``: one agent's move (the page asks while it is not the person's turn, so
  every move can be watched, paused and stepped).

When the game ends its replay is written (``labyrinth replay FILE --html OUT`` opens it).
Nothing in the state comes from another seat's view: the picture, the lines and the
actions are the seat's own, the log is the public one.
"""

from __future__ import annotations

import json
import re
import threading
from http.server import BaseHTTPRequestHandler, HTTPServer
from pathlib import Path
from typing import Any

import labyrinth_env
from labyrinth_env.render.replay_html import _PAGE as REPLAY_PAGE

# a place on the board as the actions name it: (r,c) in Labyrinx, r2c4 on the square boards
PLACE = re.compile(r"\(-?\d+,-?\d+\)|\br\dc\d\b")


def choice_groups(names: dict[int, str]) -> dict[str, list[int]]:
    """Actions grouped for a person to choose in steps: by their first word (``push``,
    ``move``, ``build``...) when that gives several groups, else by all but their last word
    (``build at (0,1)`` then its rotations). One group per action when nothing groups."""
    for key in (lambda n: n.split()[0], lambda n: n.rsplit(" ", 2)[0] if n.count(" ") >= 2 else n):
        groups: dict[str, list[int]] = {}
        for action, name in names.items():
            groups.setdefault(key(name), []).append(action)
        if 1 < len(groups) < len(names):
            return groups
    return {name: [action] for action, name in names.items()}


def absolute_names(name: str, decider: int, players: int) -> str:
    """An action's name with its relative seats also named absolutely, as the log names
    players: ``attack player +1`` -> ``attack player +1 (Player 2)`` for seat 1 of 3."""
    return re.sub(
        r"player \+(\d+)",
        lambda m: f"{m.group(0)} (Player {(decider + int(m.group(1))) % players})",
        name,
    )


class WebGame:
    """One game: ``seat`` is the person's (None: everyone is an agent, the person watches)."""

    def __init__(
        self,
        env_id: str,
        seat: int | None,
        agent_specs: list[str],
        seed: int,
        options: dict[str, Any],
        replay_path: str | Path,
    ) -> None:
        from labyrinth_env.agents import make_agent

        self.env = labyrinth_env.raw_env(env_id, **options)
        players = self.env.options.num_players
        if seat is not None and not 0 <= seat < players:
            raise ValueError(f"--seat {seat} is not a seat of a {players}-player game (0..{players - 1})")
        self.seat = seat
        self.agents = [make_agent(agent_specs[i % len(agent_specs)], seed=seed + i) for i in range(players)]
        self.specs = [agent_specs[i % len(agent_specs)] for i in range(players)]
        self.env.reset(seed=seed)
        for agent in self.agents:
            agent.reset(seed)
        self.replay_path = Path(replay_path)
        self.saved: Path | None = None
        self.lock = threading.Lock()

    # the game ----------------------------------------------------------------------------
    @property
    def over(self) -> bool:
        env = self.env
        return not env.agents or env.terminations[env.agent_selection] or env.truncations[env.agent_selection]

    def decider(self) -> int:
        return self.env.agent_name_mapping[self.env.agent_selection]

    def persons_turn(self) -> bool:
        return not self.over and self.seat is not None and self.decider() == self.seat

    def act(self, action: Any) -> None:
        """The person's action; ``ValueError`` naming what is allowed otherwise."""
        if self.over:
            raise ValueError("the game is over")
        if not self.persons_turn():
            raise ValueError(f"it is Player {self.decider()}'s turn, not yours")
        legal = self.env.legal_actions()
        if isinstance(action, bool) or not isinstance(action, int) or action not in legal:
            raise ValueError(
                f"action {action!r} is not legal now; legal: {legal[:20]}{' ...' if len(legal) > 20 else ''}"
            )
        self.env.step(action)
        self._finish()

    def advance(self) -> None:
        """One agent's move (nothing when it is the person's turn or the game is over)."""
        if self.over or self.persons_turn():
            return
        name = self.env.agent_selection
        agent = self.agents[self.decider()]
        view = self.env.seat_view(name, model=getattr(agent, "uses_model", True))
        self.env.step(int(agent.act(self.env.observe(name), view)))
        self._finish()

    def _finish(self) -> None:
        if self.over and self.saved is None:
            self.replay_path.parent.mkdir(parents=True, exist_ok=True)
            self.env.save_replay(self.replay_path)
            self.saved = self.replay_path

    # what the page shows -----------------------------------------------------------------
    def state(self) -> dict[str, Any]:
        env = self.env
        players = env.options.num_players
        groups: list[dict[str, Any]] = []
        places: dict[str, list[int]] = {}
        if self.persons_turn():
            decider = self.decider()
            names = {a: absolute_names(env.action_label(a), decider, players) for a in env.legal_actions()}
            grouped = choice_groups(names) if len(names) > 8 else {"": list(names)}
            for label, actions in grouped.items():
                groups.append({"label": label, "actions": [{"id": a, "name": names[a]} for a in actions]})
            for a, name in names.items():
                for place in PLACE.findall(name):
                    places.setdefault(place, []).append(a)
        if self.over:
            status = f"game over: {env.game_log[-1]['text'] if env.game_log else ''}"
            if self.seat is not None:
                status += f" Your reward: {env._cumulative_rewards.get(f'player_{self.seat}', 0.0):+.2f}."
        elif self.persons_turn():
            status = f"your turn: {env.pending_decision()}"
        else:
            # players named as the log and the board name them ("Player 1"), not by agent name
            status = f"Player {self.decider()} ({self.specs[self.decider()]}) to act: {env.pending_decision()}"
        return {
            "title": env.ruleset.title,
            "seat": self.seat,
            "players": players,
            "agents": [None if p == self.seat else self.specs[p] for p in range(players)],
            "svg": env.to_svg(viewer=self.seat),
            "private": env.private_lines(self.seat) if self.seat is not None else [],
            "log": [e["text"] for e in env.game_log],
            "status": status,
            "your_turn": self.persons_turn(),
            "over": bool(self.over),
            "groups": groups,
            "places": places,
            "steps": len(env.actions_taken),
            "replay": str(self.saved) if self.saved else None,
        }


def make_handler(game: WebGame) -> type[BaseHTTPRequestHandler]:
    page = page_html(game.env.ruleset.title).encode()

    class Handler(BaseHTTPRequestHandler):
        def log_message(self, *args: Any) -> None:  # the terminal stays the person's
            pass

        def _send(self, code: int, body: bytes, kind: str) -> None:
            self.send_response(code)
            self.send_header("Content-Type", kind)
            self.send_header("Content-Length", str(len(body)))
            self.send_header("Cache-Control", "no-store")
            self.end_headers()
            self.wfile.write(body)

        def _json(self, code: int, data: dict[str, Any]) -> None:
            self._send(code, json.dumps(data).encode(), "application/json")

        def do_GET(self) -> None:
            if self.path == "/":
                self._send(200, page, "text/html; charset=utf-8")
            elif self.path == "/state":
                with game.lock:
                    self._json(200, game.state())
            else:
                self._json(404, {"error": f"no page {self.path!r}: the game is at /"})

        def do_POST(self) -> None:
            length = min(int(self.headers.get("Content-Length") or 0), 10_000)
            try:
                body = json.loads(self.rfile.read(length) or b"{}")
                with game.lock:
                    if self.path == "/act":
                        game.act(body.get("action") if isinstance(body, dict) else None)
                    elif self.path == "/advance":
                        game.advance()
                    else:
                        self._json(404, {"error": f"no action {self.path!r}; /act or /advance"})
                        return
                    self._json(200, game.state())
            except (ValueError, json.JSONDecodeError) as exc:
                self._json(400, {"error": str(exc)})

    return Handler


def serve(game: WebGame, port: int = 0) -> HTTPServer:
    """A server for ``game`` on 127.0.0.1 (``port`` 0: any free one); call ``serve_forever``."""
    return HTTPServer(("127.0.0.1", port), make_handler(game))


def page_html(title: str) -> str:
    style = REPLAY_PAGE.split("<style>", 1)[1].split("</style>", 1)[0]
    return _PAGE.replace("__STYLE__", style).replace("__TITLE__", title.replace("<", "&lt;"))


_PAGE = r"""<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<title>__TITLE__</title>
<style>__STYLE__
  .group { margin: 6px 0; }
  .group .label { color: #aaa; font-size: 12px; margin-bottom: 2px; }
  .group button { margin: 2px 3px 2px 0; font-size: 12.5px; padding: 3px 8px; }
  #private { background: #26232b; border-radius: 6px; padding: 6px 8px; white-space: pre-wrap;
             font-family: "DejaVu Sans Mono", Menlo, monospace; font-size: 11.5px; }
  #status { font-size: 15px; font-weight: bold; color: #f5d76e; margin: 6px 0; }
  #error { color: #f08080; min-height: 1em; }
  #picture .place { cursor: pointer; }
  #picture .place:hover { opacity: 0.75; }
  #picture .chosen { outline: 2px solid #f5d76e; }
</style>
</head>
<body data-ready="0">
<header><h1>__TITLE__</h1><div class="sub" id="sub"></div></header>
<main>
  <div id="picture">loading…</div>
  <aside>
    <div class="controls">
      <button id="pause" title="pause or go on with the agents' moves">▌▌ pause</button>
      <button id="step" title="one agent move">► step</button>
      <select id="speed" title="agent moves per second">
        <option value="1">1/s</option><option value="2" selected>2/s</option>
        <option value="5">5/s</option><option value="50">fast</option>
      </select>
    </div>
    <div id="status"></div>
    <div id="error"></div>
    <div id="actions"></div>
    <h2>What your seat knows</h2>
    <div id="private"></div>
    <h2>Game log</h2>
    <div id="log"></div>
    <div class="final" id="final"></div>
  </aside>
</main>
<script>
"use strict";
const $ = (id) => document.getElementById(id);
let state = null, paused = false, busy = false, timer = null, filter = null;

function escapeHtml(s) {
  return String(s).replace(/[&<>"]/g, (c) => ({"&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;"}[c]));
}

async function call(path, body) {
  busy = true;
  try {
    const r = await fetch(path, body === undefined ? {} : {method: "POST", body: JSON.stringify(body)});
    const data = await r.json();
    if (!r.ok) { $("error").textContent = data.error; return; }
    $("error").textContent = "";
    show(data);
  } catch (err) {
    $("error").textContent = "the game's server does not answer (" + err + ")";
  } finally {
    busy = false;
    schedule();
  }
}

function show(s) {
  state = s;
  document.body.dataset.steps = s.steps;
  document.body.dataset.turn = s.your_turn ? "1" : "0";
  document.body.dataset.over = s.over ? "1" : "0";
  const seats = s.agents.map((a, i) => `Player ${i}: ${a === null ? "you" : a}`).join(", ");
  $("sub").textContent = (s.seat === null ? "watching" : `you are Player ${s.seat}`) + " · " + seats;
  $("picture").innerHTML = s.svg;
  $("status").textContent = s.status;
  $("private").textContent = s.private.length ? s.private.join("\n") : "(nothing: you are watching)";
  const log = $("log");
  log.innerHTML = s.log.map((t) => `<div>${escapeHtml(t)}</div>`).join("");
  log.scrollTop = log.scrollHeight;
  $("final").textContent = s.replay ? `replay saved: ${s.replay} (labyrinth replay ${s.replay} --html game.html)` : "";
  if (!s.places || !(filter in s.places)) filter = null;
  drawActions();
  markPlaces();
}

function drawActions() {
  const s = state, box = $("actions");
  if (!s.your_turn) { box.innerHTML = ""; return; }
  const parts = [];
  if (filter !== null) {
    parts.push(`<div class="group"><div class="label">at ${escapeHtml(filter)} ` +
               `<button data-clear="1">show every action</button></div>`);
    parts.push(s.places[filter].map((a) => button(a, nameOf(a))).join("") + "</div>");
  } else {
    for (const g of s.groups) {
      parts.push(`<div class="group"><div class="label">${escapeHtml(g.label)}</div>` +
                 g.actions.map((a) => button(a.id, a.name)).join("") + "</div>");
    }
  }
  box.innerHTML = parts.join("");
  for (const b of box.querySelectorAll("button[data-action]")) b.onclick = () => choose(Number(b.dataset.action));
  for (const b of box.querySelectorAll("button[data-clear]")) b.onclick = () => { filter = null; drawActions(); };
}

function nameOf(id) {
  for (const g of state.groups) for (const a of g.actions) if (a.id === id) return a.name;
  return String(id);
}

function button(id, name) {
  return `<button class="action" data-action="${id}">${escapeHtml(name)}</button>`;
}

function markPlaces() {
  if (!state.your_turn) return;
  for (const t of $("picture").querySelectorAll("title")) {
    const place = t.textContent.split(":")[0].trim();
    const g = t.parentElement;
    if (!(place in state.places) || !g || g.tagName.toLowerCase() !== "g") continue;
    g.classList.add("place");
    g.dataset.place = place;
    g.onclick = () => {
      const acts = state.places[place];
      if (acts.length === 1) { choose(acts[0]); return; }
      filter = place;
      drawActions();
    };
  }
}

function choose(id) {
  if (busy) return;
  filter = null;
  call("/act", {action: id});
}

function schedule() {
  if (timer !== null) clearTimeout(timer);
  timer = null;
  if (!state || state.over || state.your_turn || paused || busy) return;
  timer = setTimeout(() => call("/advance", {}), 1000 / Number($("speed").value));
}

$("pause").onclick = () => {
  paused = !paused;
  $("pause").textContent = paused ? "► go on" : "▌▌ pause";
  schedule();
};
$("step").onclick = () => { if (!busy && state && !state.your_turn && !state.over) call("/advance", {}); };
$("speed").onchange = schedule;
call("/state").then(() => { document.body.dataset.ready = "1"; });
</script>
</body>
</html>
"""
