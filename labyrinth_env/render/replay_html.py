"""A saved game as one self-contained HTML page: the picture of every step (inline SVG),
the action taken, the events it resolved and the whole log so far, with back/forward/play
controls, a step slider and the arrow keys. No network: the pictures travel compressed
in the page (each distinct SVG line once, then gzip; see ``pack_frames``) and the browser
unpacks them (``DecompressionStream``); the script is inline.

    labyrinth replay game.json --html game.html
    labyrinth replay results/tournament/x/games.jsonl --game 17 --html game17.html
"""

from __future__ import annotations

import base64
import gzip
import html
import json
from pathlib import Path
from typing import Any

from labyrinth_env.aec import replay_digest
from labyrinth_env.registry import (
    MAX_RESULTS_BYTES,
    check_replay,
    parse_json_text,
    raw_env,
    read_replay,
    read_text_file,
)


def replay_record(path: str | Path, game: int | None = None) -> dict[str, Any]:
    """The replay in a JSON replay file, or game ``game`` (its ``index``) of a tournament's
    JSON-lines results file; ``ValueError`` saying what is wrong otherwise."""
    p = Path(path)
    if p.suffix != ".jsonl":
        if game is not None:
            raise ValueError(f"--game picks a game of a tournament's games.jsonl; {str(p)!r} is one replay")
        return read_replay(p)
    if game is None:
        raise ValueError(f"{str(p)!r} holds many games: choose one with --game INDEX")
    lines = read_text_file(p, "results file", MAX_RESULTS_BYTES).splitlines()
    for n, line in enumerate(lines):
        if not line.strip():
            continue
        rec = parse_json_text(line, f"results file {str(p)!r}, line {n + 1}")
        if isinstance(rec, dict) and rec.get("index") == game:
            return check_replay(rec, f"{p}, line {n + 1}")
    raise ValueError(f"results file {str(p)!r} has no game with index {game}")


def event_text(event: dict[str, Any]) -> str:
    """An event of ``game_log`` as the page shows it: its sentence (``text``)."""
    return str(event["text"])


def replay_frames(data: dict[str, Any], omniscient: bool = False) -> tuple[list[dict[str, Any]], Any]:
    """Replay ``data`` (a checked replay dict): one frame per state (the start, then after
    every action) with its SVG, the action's text and the events it resolved; and the env."""
    env = raw_env(data["env_id"], **data["options"])
    env.reset(seed=data["seed"])
    frames = [
        {
            "svg": env.to_svg(omniscient=omniscient),
            "action": "start of the game",
            "events": [event_text(e) for e in env.game_log],
        }
    ]
    for i, action in enumerate(data["actions"]):
        agent = env.agent_selection
        if not env.agents or env.terminations[agent] or env.truncations[agent]:
            raise ValueError(f"replay action #{i} ({action}) comes after the game ended")
        before = len(env.game_log)
        try:
            text = f"{agent}: {env.action_to_str(action)}"
            env.step(action)
        except ValueError as exc:
            raise ValueError(f"replay action #{i}: {exc}") from None
        frames.append(
            {
                "svg": env.to_svg(omniscient=omniscient),
                "action": text,
                "events": [event_text(e) for e in env.game_log[before:]],
            }
        )
    digest = data.get("log_sha256")
    if digest is not None and digest != replay_digest(env._event_data(), data.get("illegal_action")):
        raise ValueError("the replayed game log differs from the recorded one (other rules or version?)")
    return frames, env


def pack_frames(frames: list[dict[str, Any]]) -> str:
    """The frames as the page carries them: every distinct SVG line once, each frame's
    picture as runs ``[first line, count, ...]`` over them (consecutive pictures share
    most lines, which gzip alone would not see across its 32 kB window), gzip, base64."""
    index: dict[str, int] = {}
    lines: list[str] = []
    packed = []
    for f in frames:
        runs: list[int] = []
        for line in f["svg"].split("\n"):
            i = index.get(line)
            if i is None:
                i = index[line] = len(lines)
                lines.append(line)
            if runs and runs[-2] + runs[-1] == i:
                runs[-1] += 1
            else:
                runs += [i, 1]
        packed.append({**f, "svg": runs})
    payload = json.dumps({"lines": lines, "frames": packed}, separators=(",", ":"))
    return base64.b64encode(gzip.compress(payload.encode(), compresslevel=9, mtime=0)).decode()


def unpack_frames(blob: str) -> list[dict[str, Any]]:
    """``pack_frames`` undone (what the page's script does)."""
    payload = json.loads(gzip.decompress(base64.b64decode(blob)))
    lines = payload["lines"]
    out = []
    for f in payload["frames"]:
        runs = f["svg"]
        svg = "\n".join("\n".join(lines[a : a + n]) for a, n in zip(runs[::2], runs[1::2]))
        out.append({**f, "svg": svg})
    return out


def replay_html(data: dict[str, Any], title: str | None = None, omniscient: bool = False) -> str:
    """The page for replay ``data`` (see the module docstring)."""
    frames, env = replay_frames(data, omniscient)
    blob = pack_frames(frames)
    agents = data.get("agents")
    subtitle = [
        f"seed {data['seed']}",
        f"{len(data['actions'])} actions",
        ", ".join(f"{k}={v}" for k, v in data["options"].items()),
    ]
    if agents:
        subtitle.append("seats: " + ", ".join(f"player_{i}={a}" for i, a in enumerate(agents)))
    if omniscient:
        subtitle.append("omniscient view (hidden information shown)")
    title = title or f"{data['env_id']} replay"
    final = env.game_log[-1] if env.game_log else {}
    return (
        _PAGE.replace("__TITLE__", html.escape(title))
        .replace("__SUBTITLE__", html.escape(" · ".join(subtitle)))
        .replace("__FINAL__", html.escape(event_text(final) if final else ""))
        .replace("__FRAMES__", blob)
    )


def write_replay_html(
    data: dict[str, Any], path: str | Path, title: str | None = None, omniscient: bool = False
) -> Path:
    out = Path(path)
    if out.suffix.lower() not in (".html", ".htm"):
        raise ValueError(f"--html needs a file name ending in .html, got {str(out)!r}")
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(replay_html(data, title, omniscient), encoding="utf-8")
    return out


_PAGE = r"""<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<title>__TITLE__</title>
<style>
  body { margin: 0; font-family: "DejaVu Sans", Verdana, Arial, sans-serif; background: #1f1d24; color: #eee; }
  header { padding: 10px 16px; background: #2b2730; border-bottom: 1px solid #444; }
  header h1 { font-size: 18px; margin: 0 0 4px 0; }
  header .sub { font-size: 12px; color: #bbb; }
  main { display: flex; gap: 14px; padding: 12px 16px; align-items: flex-start; }
  #picture { flex: 0 0 auto; background: #2b2730; border-radius: 8px; line-height: 0; }
  #picture svg { max-width: 72vw; height: auto; }
  aside { flex: 1 1 300px; min-width: 260px; font-size: 13px; }
  .controls { display: flex; gap: 6px; align-items: center; flex-wrap: wrap; margin-bottom: 8px; }
  button { background: #3d3946; color: #eee; border: 1px solid #5a5566; border-radius: 5px; padding: 5px 10px;
           font-size: 14px; cursor: pointer; }
  button:hover { background: #4b4657; }
  #slider { width: 100%; margin: 6px 0 10px 0; }
  #step { font-weight: bold; }
  #action { font-size: 15px; font-weight: bold; color: #f5d76e; margin: 6px 0; min-height: 1.2em; }
  h2 { font-size: 13px; color: #aaa; margin: 12px 0 4px 0; text-transform: uppercase; letter-spacing: 0.05em; }
  #events { margin: 0; padding-left: 18px; min-height: 1.2em; }
  #log { max-height: 46vh; overflow-y: auto; background: #26232b; border-radius: 6px; padding: 6px 8px;
         font-family: "DejaVu Sans Mono", Menlo, monospace; font-size: 11.5px; line-height: 1.45; }
  #log .s { color: #888; }
  #log .now { background: #3f3a1f; }
  .final { color: #9fd89f; font-size: 12px; margin-top: 8px; }
  select { background: #3d3946; color: #eee; border: 1px solid #5a5566; border-radius: 5px; padding: 4px; }
</style>
</head>
<body data-ready="0">
<header><h1>__TITLE__</h1><div class="sub">__SUBTITLE__</div></header>
<main>
  <div id="picture">loading…</div>
  <aside>
    <div class="controls">
      <button id="first" title="first step (Home)">|◄</button>
      <button id="prev" title="step back (←)">◄</button>
      <button id="play" title="play / pause (space)">► play</button>
      <button id="next" title="step forward (→)">►</button>
      <button id="last" title="last step (End)">►|</button>
      <select id="speed" title="steps per second">
        <option value="1">1/s</option><option value="2" selected>2/s</option>
        <option value="5">5/s</option><option value="15">15/s</option>
      </select>
    </div>
    <div>step <span id="step">0</span> / <span id="total">0</span></div>
    <input type="range" id="slider" min="0" max="0" value="0">
    <div id="action"></div>
    <h2>This step</h2>
    <ul id="events"></ul>
    <h2>Game log</h2>
    <div id="log"></div>
    <div class="final">end: __FINAL__</div>
  </aside>
</main>
<script>
"use strict";
const PACKED = "__FRAMES__";
let frames = [], at = 0, timer = null;
const $ = (id) => document.getElementById(id);

async function unpack(b64) {
  const bytes = Uint8Array.from(atob(b64), (c) => c.charCodeAt(0));
  const stream = new Blob([bytes]).stream().pipeThrough(new DecompressionStream("gzip"));
  const payload = JSON.parse(await new Response(stream).text());
  const lines = payload.lines;
  for (const f of payload.frames) {
    const runs = f.svg, parts = [];
    for (let k = 0; k < runs.length; k += 2) parts.push(lines.slice(runs[k], runs[k] + runs[k + 1]).join("\n"));
    f.svg = parts.join("\n");
  }
  return payload.frames;
}

function escapeHtml(s) {
  return s.replace(/[&<>"]/g, (c) => ({"&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;"}[c]));
}

function buildLog() {
  const parts = [];
  frames.forEach((f, i) => {
    const lines = [`<span class="s">${i}</span> <b>${escapeHtml(f.action)}</b>`]
      .concat(f.events.map((e) => "&nbsp;&nbsp;· " + escapeHtml(e)));
    parts.push(`<div data-step="${i}" hidden>${lines.join("<br>")}</div>`);
  });
  $("log").innerHTML = parts.join("");
}

function show(i) {
  at = Math.max(0, Math.min(frames.length - 1, i));
  const f = frames[at];
  $("picture").innerHTML = f.svg;
  $("step").textContent = at;
  $("slider").value = at;
  $("action").textContent = f.action;
  $("events").innerHTML = f.events.length ? f.events.map((e) => `<li>${escapeHtml(e)}</li>`).join("")
                                          : "<li>(nothing resolved)</li>";
  const log = $("log");
  for (const div of log.children) {
    const s = Number(div.dataset.step);
    div.hidden = s > at;
    div.classList.toggle("now", s === at);
  }
  log.scrollTop = log.scrollHeight;
  if (at === frames.length - 1) pause();
}

function play() {
  if (at === frames.length - 1) show(0);
  $("play").textContent = "▌▌ pause";
  timer = setInterval(() => show(at + 1), 1000 / Number($("speed").value));
}
function pause() {
  if (timer !== null) clearInterval(timer);
  timer = null;
  $("play").textContent = "► play";
}

unpack(PACKED).then((data) => {
  frames = data;
  $("total").textContent = frames.length - 1;
  $("slider").max = frames.length - 1;
  buildLog();
  show(0);
  $("first").onclick = () => { pause(); show(0); };
  $("prev").onclick = () => { pause(); show(at - 1); };
  $("next").onclick = () => { pause(); show(at + 1); };
  $("last").onclick = () => { pause(); show(frames.length - 1); };
  $("play").onclick = () => (timer === null ? play() : pause());
  $("slider").oninput = (e) => { pause(); show(Number(e.target.value)); };
  $("speed").onchange = () => { if (timer !== null) { pause(); play(); } };
  document.addEventListener("keydown", (e) => {
    if (e.key === "ArrowRight") { pause(); show(at + 1); }
    else if (e.key === "ArrowLeft") { pause(); show(at - 1); }
    else if (e.key === "Home") { pause(); show(0); }
    else if (e.key === "End") { pause(); show(frames.length - 1); }
    else if (e.key === " ") { e.preventDefault(); timer === null ? play() : pause(); }
  });
  document.body.dataset.ready = "1";
}).catch((err) => {
  $("picture").textContent = "This browser cannot unpack the pictures (" + err + "); use a current browser.";
});
</script>
</body>
</html>
"""
