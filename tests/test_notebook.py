"""examples/notebook.ipynb runs, from a fresh kernel, and every output is the committed one (the
army-list and DataFrame cells depend on what is installed: they run, and are not compared)."""

import importlib.util
import os
from pathlib import Path

import pytest

nbformat = pytest.importorskip("nbformat", reason="the notebook test needs .[test] (nbformat)")
pytest.importorskip("nbclient", reason="the notebook test needs .[test] (nbclient)")
pytest.importorskip("ipykernel", reason="the notebook test needs .[test] (ipykernel)")

ROOT = Path(__file__).resolve().parent.parent
SHARED = Path(os.environ.get("MATHHAMMER_SHARED", ROOT.parent / "shared"))
spec = importlib.util.spec_from_file_location("make_notebook", ROOT / "examples/make_notebook.py")
make = importlib.util.module_from_spec(spec)
spec.loader.exec_module(make)


def outputs(cell) -> list[tuple]:
    """What a reader sees of a cell: stream text, and the text and HTML of each display."""
    out = []
    for o in cell.get("outputs", ()):
        if o["output_type"] == "stream":
            out.append((o["name"], o["text"]))
        elif "data" in o:
            out.append((o["output_type"], o["data"].get("text/plain"),
                         o["data"].get("text/html")))
        else:
            out.append((o["output_type"], o.get("ename"), o.get("evalue")))
    return out


@pytest.fixture(scope="module")
def committed():
    return nbformat.read(make.NOTEBOOK, as_version=4)


def test_the_committed_notebook_is_the_one_make_notebook_writes(committed):
    built = make.build()
    assert [(c.cell_type, c.source) for c in committed.cells] == [
        (c.cell_type, c.source) for c in built.cells], "run python examples/make_notebook.py"


def run_and_compare(committed, monkeypatch, tmp_path, skip: set[str]) -> list[tuple]:
    """Run the notebook (the kernel imports this checkout's mathhammer) and compare each code
    cell's outputs with the committed ones, except cells tagged in ``skip``."""
    monkeypatch.setenv("PYTHONPATH", os.pathsep.join(
        p for p in (str(ROOT), os.environ.get("PYTHONPATH")) if p))
    ran = make.run(make.build(), cwd=tmp_path)
    code = [(c, r) for c, r in zip(committed.cells, ran.cells, strict=True)
            if c.cell_type == "code"]
    for old, new in code:
        assert all(o["output_type"] != "error" for o in new.outputs), outputs(new)
        if skip & set(old.metadata.get("tags", ())):
            continue
        assert outputs(new) == outputs(old), (
            f"{old.source[:60]!r}: out of date, run python examples/make_notebook.py")
    return code


def test_the_notebook_runs_and_its_outputs_are_current(committed, monkeypatch, tmp_path):
    # no BattleScribe data here (tests/conftest.py): the army cell says so, it is no error
    code = run_and_compare(committed, monkeypatch, tmp_path,
                           {make.NEEDS_DATA, make.NEEDS_PANDAS})
    first = outputs(code[0][1])[0]
    assert first[1].startswith("<Result Hexmark Destroyer -> MEQ:")
    assert '<table class="mathhammer-pmf"' in first[2]
    army = "".join(text for _, text in outputs(code[-2][1]))
    assert army.startswith("No BattleScribe data for 11e")  # without data: said, not an error


@pytest.mark.slow
@pytest.mark.skipif(not (SHARED / "bsdata" / "11e").is_dir(),
                    reason=f"no BattleScribe data at {SHARED}/bsdata")
def test_the_army_cell_with_the_data(committed, monkeypatch, tmp_path):
    monkeypatch.setenv("MATHHAMMER_DATA", str(SHARED / "bsdata"))
    code = run_and_compare(committed, monkeypatch, tmp_path, {make.NEEDS_PANDAS})
    army = "".join(text for _, text in outputs(code[-2][1]))
    assert army.startswith("QC (Imperial Knights, 11e): 945 points")  # 430 + 375 + 140
