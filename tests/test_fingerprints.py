"""Whole games of every built-in ruleset, through the public API, against the fingerprints
recorded in ``tests/golden/fingerprints.json`` (``tests/fingerprint.py``): a change that
alters any game, observation, mask, reward, log, vector-env step or search decision fails
here. A change meant to alter a game bumps the env id's version and records them again
(``python -m tests.fingerprint --write``)."""

from __future__ import annotations

import json

from tests.fingerprint import GOLDEN, fingerprints


def test_every_game_is_the_recorded_game():
    recorded = json.loads(GOLDEN.read_text())
    now = fingerprints()
    assert set(now) == set(recorded), "the fingerprinted settings changed: record them again"
    differ = sorted(k for k in now if now[k] != recorded[k])
    assert not differ, f"{len(differ)} of {len(now)} fingerprints differ, e.g. {differ[:5]}"
