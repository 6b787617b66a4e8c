"""Every ``python`` block of docs/ecosystem.md runs as it stands (each in a fresh
namespace), so the page's snippets stay true."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

PAGE = Path(__file__).resolve().parent.parent / "docs" / "ecosystem.md"
# every python block, under the title of its section
BLOCKS = [
    (section.partition("\n")[0], code)
    for section in re.split(r"^## ", PAGE.read_text(encoding="utf-8"), flags=re.M)[1:]
    for code in re.findall(r"^```python\n(.*?)^```", section, re.M | re.S)
]
NEEDS = {
    "SuperSuit": "supersuit",
    "Tianshou": "tianshou",
    "OpenSpiel": "pyspiel",
    "stable-baselines3": "sb3_contrib",
    "RLlib": "tree",  # dm-tree: installed with ray[rllib], in RLlib's own venv
}


def test_the_page_has_its_snippets() -> None:
    assert len(BLOCKS) >= 11


@pytest.mark.parametrize("title, code", BLOCKS, ids=[f"{title} {i}" for i, (title, _) in enumerate(BLOCKS)])
def test_snippet_runs(title: str, code: str) -> None:
    for key, module in NEEDS.items():
        if title.startswith(key):
            pytest.importorskip(module)
    exec(compile(code, f"docs/ecosystem.md ({title})", "exec"), {"__name__": "__snippet__"})
