"""The ``labyrinth`` command line: demo, envs, play, bench, evaluate, train, tournament, replay, analyze."""

from __future__ import annotations

import argparse
import importlib
import os
import re
import shutil
import sys
import textwrap
import time
from collections.abc import Callable, Sequence
from typing import Any

import numpy as np
from rich.console import Console
from rich.table import Table

import labyrinth_env
from labyrinth_env.registry import check_output_file, player_range

console = Console()


def play_random_game(env_id: str, seed: int, **options) -> tuple[dict, int, float]:
    """One game with uniformly random legal actions: (last log event, steps, seconds)."""
    env = labyrinth_env.make(env_id, **options)
    rng = np.random.default_rng(seed)
    env.reset(seed=seed)
    steps = 0
    start = time.perf_counter()
    for agent in env.agent_iter():
        obs, _, term, trunc, _ = env.last()
        if term or trunc:
            env.step(None)
            continue
        legal = np.flatnonzero(obs["action_mask"])
        env.step(int(legal[rng.integers(len(legal))]))
        steps += 1
        del agent
    return env.unwrapped.game_log[-1], steps, time.perf_counter() - start


ENVS_WIDE = 120  # below this many columns ``envs`` prints two columns: five folded words mid-word


def cmd_envs(_: argparse.Namespace) -> int:
    table = Table(title="labyrinth-env rulesets (labyrinth_env.make(env_id, **options))")
    wide = console.width >= ENVS_WIDE
    for col in ("env id", "game", "players", "kind", "status") if wide else ("env id", "game"):
        # an id is typed as shown: never wrapped (it was, mid-word, at 80 columns)
        table.add_column(col, overflow="fold", no_wrap=col == "env id")
    for spec in labyrinth_env.specs():
        lo, hi = spec.players
        kind = "cooperative" if spec.cooperative else "competitive"
        if wide:
            table.add_row(spec.env_id, f"{spec.title}: {spec.summary}", f"{lo}-{hi}", kind, spec.status)
        else:
            text = f"{spec.title}: {spec.summary}\n{lo}-{hi} players, {kind}; {spec.status}"
            table.add_row(spec.env_id, text, end_section=True)
    console.print(table)
    return 0


DEMO_TOURNAMENT_ENV = "labyrinx_v1"  # its heuristic compiles quickly: the demo waits on the slowest compiles


def cmd_demo(args: argparse.Namespace) -> int:
    from labyrinth_env.compile import compile_rulesets
    from labyrinth_env.core.cache import cache_root

    console.rule("[bold]labyrinth-env demo")
    env_ids = labyrinth_env.list_envs()
    jobs = max(1, min(os.cpu_count() or 1, len(env_ids)))
    console.print(
        f"{len(env_ids)} rulesets. Their numba kernels compile on the first run only (then they load from "
        f"{cache_root()}); {jobs} at a time:"
    )
    paths = {e: ["aec"] for e in env_ids}
    if not args.no_agents:
        paths[DEMO_TOURNAMENT_ENV] += ["heuristic"] + (["determinize", "search"] if args.mcts else [])
    t0 = time.perf_counter()
    compile_seconds = compile_rulesets(env_ids, paths, jobs)
    console.print(f"kernels ready in {time.perf_counter() - t0:.0f} s")

    table = Table(title=f"{args.games} random games per ruleset (AEC env, random legal actions)")
    for col in ("env", "kernels s", "seed", "players", "outcome", "steps", "steps/s"):
        table.add_column(col, justify="right" if col in ("kernels s", "steps", "steps/s") else "left")
    total_steps, total_time = 0, 0.0
    for env_id in env_ids:
        lo, hi = player_range(env_id)
        play_random_game(env_id, seed=args.seed)  # loads the kernels: the rows time steps only
        for g in range(args.games):
            players = lo + g % (hi - lo + 1)
            end, steps, secs = play_random_game(env_id, seed=args.seed + g, num_players=players)
            total_steps += steps
            total_time += secs
            outcome = end.get("outcome", end.get("type"))
            first = g == 0
            table.add_row(
                env_id if first else "",
                f"{compile_seconds[env_id]:.0f}" if first else "",
                str(args.seed + g),
                str(players),
                str(outcome),
                str(steps),
                f"{steps / secs:,.0f}",
            )
        table.add_section()
    table.caption = "kernels s: compiling (first run) or loading from the cache, one process per ruleset"
    console.print(table)
    console.print(f"throughput through env(): {total_steps / total_time:,.0f} AEC steps/s over {total_steps} steps")

    for env_id in env_ids:
        env = labyrinth_env.make(env_id, num_players=2, render_mode="ansi")
        env.reset(seed=args.seed)
        console.print(f"\n{env_id} at the start of a game:")
        print(env.render())

    if not args.no_agents:
        from labyrinth_env.agents.ratings import print_report
        from labyrinth_env.agents.tournament import run_tournament

        # a small tournament: balanced seats, Wilson intervals, ratings, head-to-head
        agents = ["random", "heuristic", *(["mcts:simulations=50"] if args.mcts else [])]
        out = args.out or f"results/demo/seed{args.seed}{'_mcts' if args.mcts else ''}"
        report = run_tournament(
            DEMO_TOURNAMENT_ENV,
            agents,
            args.agent_games,
            seed=args.seed,
            options={"num_players": 2, "max_turns": 200},
            out=out,
            progress=True,
        )
        print_report(report, console=Console(width=max(console.width, 120)))
        console.print(f"tournament games (one replay per line) and report written to {out}/")

    if not args.no_bench:
        from labyrinth_env.benchmarks.throughput import print_table, run

        # the rows whose kernels are loaded already (the kernel rows: labyrinth bench)
        result = run(
            env_ids,
            seconds=args.bench_seconds,
            repeats=1,
            quick=True,
            measure_compile=False,
            kinds=("reference", "aec", "raw"),
        )
        # The table has many columns: let it be wider than a non-terminal's 80 columns.
        print_table(result, console=Console(width=max(console.width, 150)))
        console.print(
            "in-kernel and batched rows, repeats and compile figures: labyrinth bench, labyrinth compile-time"
        )
    return 0


def _pass_through(module: str) -> Callable[[list[str]], int]:
    """A subcommand whose arguments all belong to ``module.main`` (its own ``--help``)."""

    def run(argv: list[str]) -> int:
        code = importlib.import_module(module).main(argv)
        return 0 if code is None else int(code)

    return run


# subcommand -> (help, module whose main(argv) takes every argument after the subcommand)
PASS_THROUGH: dict[str, tuple[str, str]] = {
    "analyze": (
        "a game's card: branching, length, chance, hidden information, seat advantage (labyrinth analyze --help)",
        "labyrinth_env.analyze",
    ),
    "bench": ("throughput benchmark (labyrinth bench --help)", "labyrinth_env.benchmarks.throughput"),
    "compile": (
        "fill the kernel cache for every ruleset, in parallel (labyrinth compile --help)",
        "labyrinth_env.compile",
    ),
    "compile-time": (
        "first-run compile seconds per ruleset and path (labyrinth compile-time --help)",
        "labyrinth_env.benchmarks.compile_time",
    ),
    "evaluate": ("win rate of an agent (labyrinth evaluate --help)", "labyrinth_env.agents.evaluate"),
    "train": (
        "MaskablePPO or AlphaZero-style self-play from a YAML config (labyrinth train --help)",
        "labyrinth_env.agents.train",
    ),
    "tournament": ("balanced tournament with ratings (labyrinth tournament --help)", "labyrinth_env.agents.tournament"),
}


MENU_SIZE = 24  # at most this many lines per list; longer lists are asked for in steps


def _ask_action(env: Any, read: Callable[[str], str], legend: Callable[[], None] = lambda: None) -> int:
    """Ask the person for one of the legal actions: a number from the list shown, an
    action's name or a group's label as shown; long lists come in steps (a kind of action,
    then the action), ``b`` goes back a step, ``?`` shows the key and the list again, ``q``
    quits. A single legal action is taken without asking, with a line saying so."""
    from labyrinth_env.play_web import absolute_names, choice_groups

    raw = env.unwrapped
    decider = raw.agent_name_mapping[raw.agent_selection]
    players = raw.options.num_players
    legal = {int(a): absolute_names(raw.action_label(int(a)), decider, players) for a in raw.legal_actions()}
    if len(legal) == 1:
        action, name = next(iter(legal.items()))
        print(f"  the only legal action, taken for you: {name}")
        return action
    stack = [legal]
    while True:
        current = stack[-1]
        if len(current) == 1 and len(stack) > 1:
            return next(iter(current))
        groups = choice_groups(current) if len(current) > MENU_SIZE else {n: [a] for a, n in current.items()}
        keys = list(groups)
        for i, key in enumerate(keys):
            members = groups[key]
            print(f"  {i:3d}  " + (f"{key}  ({len(members)} choices)" if len(members) > 1 else current[members[0]]))
        back = ", 'b' goes back" if len(stack) > 1 else ""
        while True:
            prompt = f"your choice (0-{len(keys) - 1} or a name; '?' key and list, 'q' quits{back}): "
            text = read(prompt).strip()
            if text.lower() in ("q", "quit", "exit"):
                raise KeyboardInterrupt
            if text == "?":
                legend()
                break
            if text.lower() == "b" and len(stack) > 1:
                stack.pop()
                break
            if not text:
                print(f"  type a number 0-{len(keys) - 1} or an action's name ('?' shows the key and the list)")
                continue
            typed = " ".join(text.lower().split())
            by_label = {" ".join(k.lower().split()): k for k in keys}
            if text.isdigit() or typed in by_label:
                index = int(text) if text.isdigit() else keys.index(by_label[typed])
                if index < len(keys):
                    chosen = groups[keys[index]]
                    if len(chosen) == 1:
                        return chosen[0]
                    stack.append({a: current[a] for a in chosen})
                    break
                print(f"  {text} is not on the list: choose 0-{len(keys) - 1}, or '?' to see the list again")
                continue
            shown = {" ".join(n.lower().split()): a for a, n in current.items()}
            if typed in shown:
                return shown[typed]
            try:
                # a name as shown, with its "(Player N)" or without
                action = raw.str_to_action(re.sub(r" \(player \d+\)", "", typed))
            except ValueError:
                # a group's label from a deeper step of the list ("push top col 1"): its actions
                within = {a: n for a, n in current.items() if n.lower().startswith(typed + " ")}
                if within:
                    stack.append(within)
                    break
                print(f"  no action is named {text!r}: choose a number 0-{len(keys) - 1}, or '?' to see the list again")
                continue
            if action in legal:
                return action
            print(f"  {text!r} is not legal now: choose a number 0-{len(keys) - 1}, or '?' to see the list again")


def warm_up_agents(env_id: str, specs: list[str]) -> None:
    """Compile (or load) what the opponents will run before the first move, and say so:
    their kernels compiled in the middle of a game (51 s and 196 s in 3e), unannounced."""
    from labyrinth_env.compile import prepare

    names = ", ".join(sorted(set(specs))) or "none"
    print(f"getting the agents ready ({names}): the first run compiles their kernels...")
    start = time.perf_counter()
    prepare(env_id, specs)
    print(f"agents ready ({time.perf_counter() - start:.0f} s)")


def play_options(args: argparse.Namespace) -> dict[str, Any]:
    """The env options ``play`` was given (``--players``, ``--variant``, ``--max-turns``,
    ``--option NAME=VALUE``)."""
    from labyrinth_env.options import option_assignment

    options: dict[str, Any] = {"num_players": args.players} if args.players else {}
    if args.variant is not None:
        options["variant"] = args.variant
    if args.max_turns is not None:
        options["max_turns"] = args.max_turns
    options.update(option_assignment(text) for text in args.option)
    return options


def cmd_play_web(args: argparse.Namespace) -> int:
    """``play --web``: serve the game on 127.0.0.1 until the person stops it (Ctrl-C)."""
    import webbrowser

    from labyrinth_env.agents import split_agent_specs
    from labyrinth_env.play_web import WebGame, serve

    replay = args.replay or f"results/play/{args.env}_seed{args.seed}.json"
    check_output_file(replay, "--replay", make_folders=True)
    specs = split_agent_specs(args.agents) or ["heuristic"]
    game = WebGame(args.env, None if args.watch else args.seat, specs, args.seed, play_options(args), replay)
    warm_up_agents(args.env, [s for p, s in enumerate(game.specs) if p != game.seat])
    server = serve(game, args.port)
    url = f"http://127.0.0.1:{server.server_address[1]}/"
    print(f"{game.env.ruleset.title}: the game is at {url} (Ctrl-C stops the server)")
    if not args.no_browser:
        webbrowser.open(url)
    try:
        server.serve_forever()
    except KeyboardInterrupt:
        print("\nstopped" + (f"; replay written to {game.saved}" if game.saved else ""))
    finally:
        server.server_close()
    return 0


def fit_to_terminal(env: Any) -> int:
    """Fit ``env``'s text board to the terminal's width (its panel and key wrap there; an
    80-column terminal wrapped the 100-column boards mid-word) and return the width."""
    columns = shutil.get_terminal_size().columns
    env.unwrapped.text_width = columns
    return columns


def say_wrapped(text: str, columns: int, first: str = "  ", rest: str = "    ") -> None:
    """Print ``text`` wrapped at ``columns``, its later lines indented under the first."""
    print(textwrap.fill(text, max(columns, 40), initial_indent=first, subsequent_indent=rest, break_on_hyphens=False))


def cmd_play(args: argparse.Namespace, read: Callable[[str], str] = input) -> int:
    """A person in one seat, agents in the others, the text board before each decision."""
    from labyrinth_env.agents import make_agent, split_agent_specs
    from labyrinth_env.play_web import absolute_names

    if args.web:
        return cmd_play_web(args)
    if args.watch or args.no_browser or args.port:
        raise ValueError("--watch, --no-browser and --port are for the browser game: add --web")
    options = play_options(args)
    if args.replay:
        check_output_file(args.replay, "--replay", make_folders=True)
    env = labyrinth_env.make(args.env, render_mode="ansi", **options)
    players = env.unwrapped.options.num_players
    if not 0 <= args.seat < players:
        raise ValueError(f"--seat {args.seat} is not a seat of a {players}-player game (0..{players - 1})")
    specs = split_agent_specs(args.agents) or ["heuristic"]
    opponents = [make_agent(specs[i % len(specs)], seed=args.seed + i) for i in range(players)]
    env.reset(seed=args.seed)
    for agent in opponents:
        agent.reset(args.seed)
    me = f"player_{args.seat}"
    print(f"{env.unwrapped.ruleset.title}: you are Player {args.seat} of {players}")
    columns = fit_to_terminal(env)
    widest = max(len(line) for line in env.render().partition("\nkey: ")[0].splitlines())
    if widest > columns:
        print(f"the board's map is {widest} columns wide and this terminal {columns}: widen it to read the map")
    warm_up_agents(args.env, [specs[i % len(specs)] for i in range(players) if i != args.seat])

    def board() -> tuple[str, str]:
        text = env.render()
        head, sep, key = text.partition("\nkey: ")
        return head.rstrip(), ("key: " + key) if sep else ""

    def legend() -> None:
        print(board()[1])

    shown = 0
    told_key = False
    try:
        for name in env.agent_iter():
            columns = fit_to_terminal(env)  # again each step: the person may resize the window
            obs, reward, term, trunc, _ = env.last()
            log = env.unwrapped.game_log
            for event in log[shown:]:
                say_wrapped(event["text"], columns, "  . ")
            shown = len(log)
            if term or trunc:
                if name == me:
                    print(board()[0])
                    print(f"game over: your reward {reward:+.2f}")
                env.step(None)
                continue
            if name == me:
                picture, key = board()
                print(picture)
                if not told_key:
                    print(key + "\n(the key again: '?')")
                    told_key = True
                print("what only you know:")
                for line in env.unwrapped.private_lines(me):
                    lead = "  " + line[: len(line) - len(line.lstrip())]
                    say_wrapped(line.lstrip(), columns, lead, lead + "  ")
                print(f"your turn: {env.unwrapped.pending_decision()}")
                action = _ask_action(env, read, legend)
            else:
                opponent = opponents[env.unwrapped.agent_name_mapping[name]]
                view = env.unwrapped.seat_view(name, model=getattr(opponent, "uses_model", True))
                action = opponent.act(obs, view)
                seat = env.unwrapped.agent_name_mapping[name]
                # named as the log and the board name players, not by agent name ("player_1")
                print(f"Player {seat} chooses: {absolute_names(env.unwrapped.action_label(action), seat, players)}")
            env.step(action)
    except (KeyboardInterrupt, EOFError):
        print("\nstopped")
        return 0
    if args.replay:
        env.unwrapped.save_replay(args.replay)
        print(f"replay written to {args.replay} (labyrinth replay {args.replay} --html game.html)")
    return 0


def cmd_replay(args: argparse.Namespace) -> int:
    """Print a saved game's log and final board, or (``--html``) write its replay page."""
    from labyrinth_env.render.replay_html import replay_record, write_replay_html

    if args.game is not None and args.game < 0:
        raise ValueError(f"--game must be a game index >= 0, got {args.game}")
    if args.html:
        check_output_file(args.html, "--html", make_folders=True)
        data = replay_record(args.path, args.game)
        title = f"{data['env_id']} · game {args.game}" if args.game is not None else None
        out = write_replay_html(data, args.html, title=title, omniscient=args.omniscient)
        print(f"wrote {out} ({len(data['actions'])} steps, {file_size_text(out.stat().st_size)}): open it in a browser")
        return 0
    if args.omniscient:
        raise ValueError("--omniscient applies to the --html page only")
    if args.game is not None:
        from labyrinth_env.registry import replay_data

        env = replay_data(replay_record(args.path, args.game), f"{args.path}, game {args.game}")
    else:
        env = labyrinth_env.load_replay(args.path)
    env.render_mode = "ansi"
    columns = fit_to_terminal(env)
    for event in env.game_log:
        say_wrapped(event["text"], columns, "", "  ")
    print(env.render())
    return 0


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="labyrinth", description="labyrinth-env command line")
    sub = parser.add_subparsers(dest="command", required=True)
    p = sub.add_parser("demo", help="a few random games, a small tournament and a throughput table")
    p.add_argument("--games", type=int, default=4, help="random games per ruleset")
    p.add_argument("--agent-games", type=int, default=24, help="games in the demo tournament")
    p.add_argument("--mcts", action="store_true", help="add the search agent to the demo tournament (slower)")
    p.add_argument("--out", help="where the demo tournament is written (default results/demo/seed<SEED>[_mcts])")
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--bench-seconds", type=float, default=1.0, help="seconds per benchmark row")
    p.add_argument("--no-bench", action="store_true", help="skip the benchmark table")
    p.add_argument("--no-agents", action="store_true", help="skip the demo tournament")
    p.set_defaults(func=cmd_demo)
    p = sub.add_parser("envs", help="list the env ids")
    p.set_defaults(func=cmd_envs)
    for name, (text, _) in PASS_THROUGH.items():
        sub.add_parser(name, help=text, add_help=False)  # listed here, parsed by their own module
    p = sub.add_parser(
        "play", help="play against agents in the terminal (actions listed by name) or in the browser (--web)"
    )
    p.add_argument("--env", required=True, choices=labyrinth_env.list_envs())
    p.add_argument("--players", type=int, help="num_players (default: the env's)")
    p.add_argument(
        "--seat",
        type=int,
        default=0,
        help="your seat, 0..players-1 (who plays first is the game's: most rulesets throw or draw for it)",
    )
    p.add_argument("--agents", default="heuristic", help="agent specs for the other seats, comma-separated")
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--variant", help="the variant option (Team Edition: introductory, standard, expert)")
    p.add_argument("--max-turns", type=int, help="the max_turns option (end the game early)")
    p.add_argument("--option", action="append", default=[], metavar="NAME=VALUE", help="any env option (repeatable)")
    p.add_argument("--web", action="store_true", help="play in the browser: a local page on 127.0.0.1")
    p.add_argument("--watch", action="store_true", help="with --web: agents in every seat, you watch")
    p.add_argument("--no-browser", action="store_true", help="with --web: print the page's address, open nothing")
    p.add_argument("--port", type=int, default=0, help="with --web: the port (default: any free one)")
    p.add_argument(
        "--replay",
        metavar="FILE.json",
        help="where the finished game's replay is written (the terminal: only when given; --web: by default "
        "results/play/<env>_seed<SEED>.json)",
    )
    p.set_defaults(func=cmd_play)
    p = sub.add_parser("replay", help="replay a saved game: print its log and final board, or write an HTML viewer")
    p.add_argument("path", help="a replay JSON file, or a tournament's games.jsonl with --game")
    p.add_argument("--game", type=int, help="the game's index in a tournament's games.jsonl")
    p.add_argument("--html", metavar="OUT.html", help="write a self-contained HTML page stepping through the game")
    p.add_argument("--omniscient", action="store_true", help="with --html: show hidden information too")
    p.set_defaults(func=cmd_replay)
    return parser


def file_size_text(size: int) -> str:
    """A file's size for a person: bytes, KB or MB (21 KB was printed as '0.0 MB')."""
    if size < 1000:
        return f"{size} bytes"
    if size < 1_000_000:
        return f"{size / 1e3:.0f} KB"
    return f"{size / 1e6:.1f} MB"


def main(argv: Sequence[str] | None = None) -> int:
    try:
        return _main(argv)
    except BrokenPipeError:
        # The reader left early (``labyrinth envs | head -1``): stop quietly, as Unix tools do;
        # stdout goes to devnull so the interpreter's final flush does not fail again.
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 1


def _main(argv: Sequence[str] | None) -> int:
    argv = list(sys.argv[1:] if argv is None else argv)
    if argv and argv[0] in PASS_THROUGH:
        # argparse would swallow or refuse their options: hand everything to the module
        run = _pass_through(PASS_THROUGH[argv[0]][1])
        try:
            return run(argv[1:])
        except ValueError as exc:
            return _user_error(exc)
        except BrokenPipeError:
            raise  # main's: the reader left
        except OSError as exc:
            return _user_error(f"{exc.filename or 'output'}: {exc.strerror or exc}")
    args = build_parser().parse_args(argv)
    try:
        return args.func(args)
    except ValueError as exc:
        return _user_error(exc)
    except BrokenPipeError:
        raise  # main's: the reader left
    except OSError as exc:  # a write that failed after the checks (disk full, a folder removed)
        return _user_error(f"{exc.filename or 'output'}: {exc.strerror or exc}")


def _user_error(exc: Exception) -> int:
    """One line on stderr (never wrapped, no traceback) and exit code 2."""
    print(f"labyrinth: error: {' '.join(str(exc).split())}", file=sys.stderr)
    return 2


if __name__ == "__main__":
    sys.exit(main())
