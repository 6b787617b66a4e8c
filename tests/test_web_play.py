"""Issue 37, item 2: ``labyrinth play --web``. Headless Chromium (selenium, as the replay
viewer's test) plays a whole game of every ruleset by clicking legal actions; the page shows
the person's own hand and never another seat's (the same game seen from two seats)."""

from __future__ import annotations

import json
import threading
import time
import urllib.request

import numpy as np
import pytest
from test_replay_viewer import _browser

import labyrinth_env
from labyrinth_env.play_web import WebGame, absolute_names, serve

# short games (max_turns) so a whole game takes seconds per ruleset
GAMES = {
    "labyrinx_v1": {"max_turns": 4},
    "labyrinthos_v2": {"max_turns": 2},
    "paths_of_destiny_3e_v3": {"max_turns": 2},
    "paths_of_destiny_2011_v6": {"max_turns": 2},
    "team_edition_v2": {"max_turns": 2},
}


def start(game: WebGame):
    server = serve(game)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    return server, f"http://127.0.0.1:{server.server_address[1]}/"


def post(url: str, body: dict) -> tuple[int, dict]:
    req = urllib.request.Request(url, data=json.dumps(body).encode(), method="POST")
    try:
        with urllib.request.urlopen(req) as r:
            return r.status, json.loads(r.read())
    except urllib.error.HTTPError as exc:
        return exc.code, json.loads(exc.read())


def test_the_api_refuses_what_is_not_the_persons_to_do(tmp_path):
    game = WebGame("labyrinx_v1", 0, ["random"], 3, {"max_turns": 4}, tmp_path / "r.json")
    server, url = start(game)
    try:
        while not game.persons_turn():
            game.advance()
        legal = game.env.legal_actions()
        illegal = next(a for a in range(game.env.kernel.NUM_ACTIONS) if a not in legal)
        code, data = post(url + "act", {"action": illegal})
        assert code == 400 and "not legal now" in data["error"]
        code, data = post(url + "act", {"action": "1"})
        assert code == 400 and "not legal" in data["error"]
        steps = len(game.env.actions_taken)
        code, data = post(url + "act", {"action": legal[0]})
        assert code == 200 and data["steps"] == steps + 1
        if not data["your_turn"] and not data["over"]:
            code, data = post(url + "act", {"action": legal[0]})
            assert code == 400 and "not yours" in data["error"]
    finally:
        server.shutdown()


@pytest.mark.parametrize("env_id", ["paths_of_destiny_3e_v3", "paths_of_destiny_2011_v6"])
def test_a_hex_boards_places_are_named_as_the_actions_name_them(tmp_path, env_id):
    """Placing the drawn tile: every space the actions name is a titled space of the
    picture, which the page makes clickable."""
    game = WebGame(env_id, 0, ["random"], 0, {}, tmp_path / "r.json")
    rng = np.random.default_rng(0)
    for _ in range(2000):
        if game.persons_turn():
            state = game.state()
            if any(name.startswith("build ") for g in state["groups"] for name in (a["name"] for a in g["actions"])):
                break
            legal = game.env.legal_actions()
            game.act(legal[rng.integers(len(legal))])
        else:
            game.advance()
    else:
        pytest.fail("no tile to place in 2000 steps")
    assert state["places"]
    for place in state["places"]:
        assert f"<title>{place}: " in state["svg"], place


def test_action_names_say_which_player_a_relative_seat_is():
    assert absolute_names("attack player +1", 1, 3) == "attack player +1 (Player 2)"
    assert absolute_names("push player +2", 2, 3) == "push player +2 (Player 1)"


def _hidden_from(env, me: int, other: int) -> list[str]:
    """Lines (and Labyrinthos card names) seat ``other`` knows and seat ``me`` does not."""
    mine = set(env.private_lines(me))
    lines = [line.strip() for line in env.private_lines(other) if line not in mine and ":" in line]
    if env.env_id.startswith("labyrinthos"):
        held = {line.split(":")[0].split(" x")[0].strip() for line in env.private_lines(me)}
        lines += [
            name
            for line in env.private_lines(other)
            if line.startswith("  ") and (name := line.split(":")[0].split(" x")[0].strip()) not in held
        ]
    return lines


@pytest.mark.parametrize("env_id", sorted(GAMES))
def test_a_whole_game_in_headless_chromium(tmp_path, env_id):
    webdriver, options, service = _browser()
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support.ui import WebDriverWait

    seed = 4
    games = {
        seat: WebGame(env_id, seat, ["random"], seed, GAMES[env_id], tmp_path / f"seat{seat}.json") for seat in (0, 1)
    }
    # what seat 1 knows and seat 0 does not, at the start of the same game
    secret = _hidden_from(games[0].env, 0, 1)
    if env_id in ("labyrinx_v1", "labyrinthos_v2"):
        assert secret, "the two seats' hands differ in this game"
    servers = {seat: start(game) for seat, game in games.items()}
    driver = webdriver.Chrome(options=options, service=service)
    rng = np.random.default_rng(0)
    try:
        driver.set_page_load_timeout(60)
        wait = WebDriverWait(driver, 30)
        for seat, (_, url) in servers.items():
            driver.get(url)
            wait.until(lambda d: d.find_element(By.TAG_NAME, "body").get_attribute("data-ready") == "1")
            shown = driver.find_element(By.ID, "private").text
            assert (
                shown == "\n".join(games[seat].env.private_lines(seat)).strip()
                or shown.split() == " ".join(games[seat].env.private_lines(seat)).split()
            )
            if seat == 0:
                page = driver.page_source
                assert not [line for line in secret if line in page], "another seat's private lines on the page"
                assert "your hand" in shown or env_id not in ("labyrinx_v1", "labyrinthos_v2")
        # seat 0 plays the whole game by clicking legal actions
        driver.get(servers[0][1])
        wait.until(lambda d: d.find_element(By.TAG_NAME, "body").get_attribute("data-ready") == "1")
        driver.execute_script("document.getElementById('speed').value = '50';")
        clicks, place_clicks, deadline = 0, 0, time.monotonic() + 120
        while driver.find_element(By.TAG_NAME, "body").get_attribute("data-over") != "1":
            assert time.monotonic() < deadline, f"{env_id}: the game did not end ({clicks} clicks)"
            buttons = driver.find_elements(By.CSS_SELECTOR, "button.action")
            places = driver.find_elements(By.CSS_SELECTOR, "#picture g.place")
            if driver.find_element(By.TAG_NAME, "body").get_attribute("data-turn") == "1" and buttons:
                steps = driver.find_element(By.TAG_NAME, "body").get_attribute("data-steps")
                if places and rng.random() < 0.5:
                    # a place on the board: its only action is taken, or its actions are listed
                    place = places[rng.integers(len(places))]
                    name = place.get_attribute("data-place")
                    driver.execute_script("arguments[0].dispatchEvent(new MouseEvent('click', {bubbles: true}))", place)
                    place_clicks += 1
                    time.sleep(0.05)
                    listed = driver.find_elements(By.CSS_SELECTOR, "button.action")
                    if driver.find_element(By.TAG_NAME, "body").get_attribute("data-steps") == steps:
                        assert listed and all(name in b.text for b in listed), name
                    continue
                buttons[rng.integers(len(buttons))].click()
                clicks += 1
                wait.until(lambda d, s=steps: d.find_element(By.TAG_NAME, "body").get_attribute("data-steps") != s)
            else:
                time.sleep(0.02)
        assert clicks >= 1
        if not env_id.startswith("paths_of_destiny"):  # 2 short turns may build nothing there
            assert place_clicks >= 1, "the board's places are clickable"
        final = driver.find_element(By.ID, "final").text
        assert "replay saved" in final
        wait.until(lambda d: "game over" in d.find_element(By.ID, "status").text)
        log = driver.find_element(By.ID, "log").text
        assert log.splitlines()[-1] == games[0].env.game_log[-1]["text"]
        replayed = labyrinth_env.load_replay(tmp_path / "seat0.json")
        assert replayed.actions_taken == games[0].env.actions_taken
        assert driver.find_element(By.ID, "private").text.split() == " ".join(games[0].env.private_lines(0)).split()
    finally:
        driver.quit()
        for server, _ in servers.values():
            server.shutdown()
