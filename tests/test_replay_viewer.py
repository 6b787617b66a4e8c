"""The HTML replay viewer: ``labyrinth replay game.json --html out.html`` writes one
self-contained page; headless Chromium (Debian's chromium + chromedriver through selenium)
opens it, steps through the game and checks that the picture and the action text change.
A screenshot is kept in ``test-artifacts/`` (git-ignored).

Without a browser the browser test is skipped, unless ``LABYRINTH_REQUIRE_BROWSER=1`` (set
by ``.ci/run``), which turns a missing browser into a failure so CI never skips it.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import time
from pathlib import Path

import numpy as np
import pytest

import labyrinth_env
from labyrinth_env.cli import main as cli
from labyrinth_env.render.replay_html import event_text, pack_frames, replay_record, unpack_frames

ROOT = Path(__file__).resolve().parents[1]
ARTIFACTS = ROOT / "test-artifacts"
CHROMIUM = os.environ.get("LABYRINTH_CHROMIUM", "/usr/bin/chromium")
CHROMEDRIVER = os.environ.get("LABYRINTH_CHROMEDRIVER", "/usr/bin/chromedriver")
CHROMIUM_ARGS = (
    "--headless=new",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--disable-dev-shm-usage",
    "--window-size=1500,900",
)


def saved_game(tmp_path: Path, env_id: str = "paths_of_destiny_3e_v3", steps: int = 80) -> Path:
    env = labyrinth_env.make(env_id, num_players=3)
    env.reset(seed=4)
    rng = np.random.default_rng(4)
    for _ in range(steps):
        if env.terminations[env.agent_selection] or env.truncations[env.agent_selection]:
            break
        legal = env.unwrapped.legal_actions()
        env.step(int(legal[rng.integers(len(legal))]))
    path = tmp_path / "game.json"
    env.unwrapped.save_replay(path)
    return path


def frames_of(page: str) -> list[dict]:
    return unpack_frames(re.search(r'const PACKED = "([A-Za-z0-9+/=]+)";', page).group(1))


def test_replay_html_is_self_contained_and_has_every_step(tmp_path, capsys):
    game = saved_game(tmp_path)
    out = tmp_path / "out.html"
    assert cli(["replay", str(game), "--html", str(out)]) == 0
    assert "open it in a browser" in capsys.readouterr().out
    page = out.read_text()
    data = json.loads(game.read_text())
    frames = frames_of(page)
    assert len(frames) == len(data["actions"]) + 1
    assert all(f["svg"].startswith("<svg") for f in frames)
    # no network: no external scripts, styles, images or links
    assert not re.search(r'(src|href)\s*=\s*["\']?(https?:)?//', page)
    assert "<script src" not in page and "@import" not in page
    env = labyrinth_env.load_replay(game)
    assert [e for f in frames for e in f["events"]] == [event_text(e) for e in env.game_log]
    first = frames[1]["action"]
    assert first.startswith("player_") and first.endswith(": " + env.action_to_str(data["actions"][0]))
    # hidden information stays out of the page unless asked for
    assert "face down:" not in page
    omni = tmp_path / "omni.html"
    assert cli(["replay", str(game), "--html", str(omni), "--omniscient"]) == 0


def test_replay_of_a_tournament_game_and_bad_input(tmp_path, capsys):
    game = json.loads(saved_game(tmp_path, "team_edition_v2", 25).read_text())
    results = tmp_path / "games.jsonl"
    results.write_text("".join(json.dumps({**game, "index": i, "agents": ["random"] * 3}) + "\n" for i in (0, 1)))
    assert replay_record(results, 1)["index"] == 1
    out = tmp_path / "g1.html"
    assert cli(["replay", str(results), "--game", "1", "--html", str(out)]) == 0
    assert "game 1" in out.read_text() and "player_0=random" in out.read_text()
    capsys.readouterr()
    assert cli(["replay", str(results), "--game", "0"]) == 0  # without --html: the log and the text board
    printed = capsys.readouterr().out
    # the log as sentences (issue 37: it printed the raw dicts), then the board
    assert "Turn 1: Player 0 plays" in printed and "'type'" not in printed and "Daedalus pages left" in printed
    for argv, message in (
        ([str(results), "--html", str(out)], "choose one with --game"),
        ([str(results), "--game", "5", "--html", str(out)], "no game with index 5"),
        ([str(tmp_path / "game.json"), "--game", "1", "--html", str(out)], "is one replay"),
        ([str(tmp_path / "game.json"), "--html", str(tmp_path / "x.png")], "ending in .html"),
        ([str(tmp_path / "missing.json"), "--html", str(out)], "does not exist"),
    ):
        assert cli(["replay", *argv]) == 2
        assert message in capsys.readouterr().err
    broken = dict(game, actions=[*game["actions"], 10_000])
    (tmp_path / "broken.json").write_text(json.dumps(broken))
    assert cli(["replay", str(tmp_path / "broken.json"), "--html", str(out)]) == 2
    assert "action" in capsys.readouterr().err


def _browser():
    """A selenium Chrome driver on the system chromium, or a skip (a failure in CI)."""
    required = os.environ.get("LABYRINTH_REQUIRE_BROWSER") == "1"
    missing = [p for p in (CHROMIUM, CHROMEDRIVER) if not shutil.which(p)]
    try:
        from selenium import webdriver
        from selenium.webdriver.chrome.service import Service
    except ImportError:
        missing.append("selenium (pip install selenium)")
    if missing:
        if required:
            pytest.fail(f"LABYRINTH_REQUIRE_BROWSER=1 but missing: {', '.join(missing)}")
        pytest.skip(f"no browser: missing {', '.join(missing)} (apt-get install chromium chromium-driver)")
    options = webdriver.ChromeOptions()
    options.binary_location = CHROMIUM
    for arg in CHROMIUM_ARGS:
        options.add_argument(arg)
    return webdriver, options, Service(executable_path=CHROMEDRIVER)


def test_replay_viewer_in_headless_chromium(tmp_path):
    webdriver, options, service = _browser()
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support.ui import WebDriverWait

    game = saved_game(tmp_path)
    page = tmp_path / "replay.html"
    assert cli(["replay", str(game), "--html", str(page)]) == 0
    options.add_argument(f"--user-data-dir={tmp_path / 'chromium-profile'}")
    driver = webdriver.Chrome(options=options, service=service)
    try:
        driver.set_page_load_timeout(60)
        driver.get(page.as_uri())
        WebDriverWait(driver, 30).until(
            lambda d: d.find_element(By.TAG_NAME, "body").get_attribute("data-ready") == "1"
        )

        def seen() -> tuple[str, str, str]:
            pic = driver.find_element(By.ID, "picture").get_attribute("innerHTML")
            return (driver.find_element(By.ID, "step").text, driver.find_element(By.ID, "action").text, pic)

        step, action, picture = seen()
        assert step == "0" and action == "start of the game" and picture.startswith("<svg")
        frames = frames_of(page.read_text())
        history = [seen()]
        for i in range(1, 4):
            driver.find_element(By.ID, "next").click()
            history.append(seen())
            assert history[-1][0] == str(i)
            assert history[-1][1] == frames[i]["action"] and history[-1][1] != history[-2][1]
        assert len({h[2] for h in history}) > 1, "the picture never changed"
        driver.find_element(By.ID, "prev").click()
        assert seen()[0] == "2" and seen()[1] == frames[2]["action"]
        # the slider jumps, the play button runs forward
        driver.execute_script(
            "const s = document.getElementById('slider'); s.value = 30; s.dispatchEvent(new Event('input'));"
        )
        assert seen()[0] == "30" and seen()[1] == frames[30]["action"]
        assert len(frames) > 60, "the game must outlast the playback below"
        driver.find_element(By.ID, "speed").find_element(By.CSS_SELECTOR, "option[value='5']").click()
        driver.find_element(By.ID, "play").click()
        WebDriverWait(driver, 10).until(lambda d: int(d.find_element(By.ID, "step").text) >= 31)
        driver.find_element(By.ID, "play").click()
        time.sleep(0.3)
        paused = seen()[0]
        time.sleep(0.4)
        assert seen()[0] == paused, "pause did not stop the playback"
        driver.find_element(By.ID, "last").click()
        assert seen()[0] == str(len(frames) - 1)
        log_lines = driver.find_elements(By.CSS_SELECTOR, "#log > div:not([hidden])")
        assert len(log_lines) == len(frames)
        driver.find_element(By.ID, "first").click()
        driver.find_element(By.ID, "next").click()
        shot = tmp_path / "replay_viewer.png"
        assert driver.save_screenshot(str(shot))
    finally:
        driver.quit()
    from PIL import Image

    image = np.asarray(Image.open(shot).convert("RGB"))
    assert image.shape[0] > 400 and len(np.unique(image.reshape(-1, 3), axis=0)) > 50
    ARTIFACTS.mkdir(exist_ok=True)
    shutil.copy(shot, ARTIFACTS / "replay_viewer.png")


def test_tournament_report_links_each_game_to_its_replay_command(tmp_path, capsys):
    from labyrinth_env.agents.tournament import run_tournament

    out = tmp_path / "t"
    run_tournament(
        "paths_of_destiny_3e_v3",
        ["random", "heuristic"],
        3,
        seed=1,
        options={"num_players": 2, "max_turns": 3},
        out=out,
    )
    rows = [line for line in (out / "replays.md").read_text().splitlines() if line.startswith("| ") and "`" in line]
    assert [row.split(" | ")[0] for row in rows] == ["| 0", "| 1", "| 2"]
    assert "## Replays" in (out / "report.md").read_text() and "replays.md" in (out / "report.md").read_text()
    command = rows[2].split("`")[1].split()
    assert command[:2] == ["labyrinth", "replay"] and "--game" in command and "--html" in command
    capsys.readouterr()
    assert cli(command[1:]) == 0
    page = Path(command[-1])
    assert (
        page.exists() and len(frames_of(page.read_text())) == len(replay_record(out / "games.jsonl", 2)["actions"]) + 1
    )


def test_frames_pack_and_unpack_to_the_same_pictures():
    frames = [
        {"svg": "<svg>\na\nb\nc\n</svg>", "action": "start", "events": []},
        {"svg": "<svg>\na\nx\nc\n</svg>", "action": "p: x", "events": ["e"]},
        {"svg": "<svg>\n</svg>", "action": "end", "events": []},
    ]
    assert unpack_frames(pack_frames(frames)) == frames
