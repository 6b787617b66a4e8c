"""The notebooks' code runs (cells executed in order in one namespace, no Jupyter needed)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

NOTEBOOKS = sorted((Path(__file__).parent.parent / "notebooks").glob("*.ipynb"))


@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda p: p.name)
def test_notebook_runs(path, capsys):
    nb = json.loads(path.read_text())
    namespace: dict = {"__name__": "__main__"}
    for i, cell in enumerate(nb["cells"]):
        if cell["cell_type"] != "code":
            continue
        assert not cell.get("outputs"), f"{path.name} cell {i}: outputs must be stripped in git"
        exec(compile("".join(cell["source"]), f"{path.name}[{i}]", "exec"), namespace)
    assert capsys.readouterr().out
