"""examples/ and the outputs shown in README.md and docs/ are up to date: regenerating them
changes nothing."""

import importlib.util
import json
import xml.etree.ElementTree as ET
from fractions import Fraction
from pathlib import Path

import pytest

import mathhammer as mh
from mathhammer.data.units.bundled import load_unit
from mathhammer.engine.attack import value_against
from mathhammer.prob.numbers import readable_fraction

#: weapon choice against MEQ (what mathhammer.loadout chooses without a target)
VS_MEQ = value_against(None)


EXAMPLES = Path(__file__).resolve().parent.parent / "examples"
#: drawn by examples/make_web_png.py and make_atlas_png.py in a browser, and the notebook run by
#: examples/make_notebook.py (checked by tests/test_notebook.py), not by make_examples.py
BROWSER_MADE = {"make_web_png.py", "web.png", "web-390.png", "web-1280.png", "web-then-390.png",
                "web-then-1280.png", "web-plan.png", "make_notebook.py",
                "notebook.ipynb", "notebook.png", "make_atlas_png.py", "atlas.png",
                "make_screenshots.py", "page-390-query.png", "page-390-second-unit.png",
                "page-390-comparison.png", "page-390-planner.png", "page-390-plan.png",
                "page-390-profiles.png"}


@pytest.fixture(scope="module")
def regenerated(tmp_path_factory) -> Path:
    spec = importlib.util.spec_from_file_location("make_examples", EXAMPLES / "make_examples.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    out = tmp_path_factory.mktemp("examples")
    module.main(out)
    return out


def committed() -> list[str]:
    return sorted(p.name for p in EXAMPLES.iterdir()
                  if p.is_file() and p.name != "make_examples.py" and p.name not in BROWSER_MADE)


def test_every_example_is_there():
    names = committed()
    for required in ("seed-units-kills.md", "seed-units-kills.html", "seed-units-damage.md",
                     "seed-units-damage.html", "named-rules.md", "named-rules.html",
                     "cronos-geq-kills.svg", "hexmark-warriors-turns.txt",
                     "mortal-crushing-impact.txt", "README.md"):
        assert required in names


@pytest.mark.parametrize("name", [n for n in committed() if not n.endswith(".svg")])
def test_regenerating_changes_nothing(regenerated, name):
    assert (regenerated / name).read_text(encoding="utf-8") == (
        EXAMPLES / name).read_text(encoding="utf-8"), f"examples/{name} is out of date: run " \
                                                      "python examples/make_examples.py"


def test_nothing_extra_is_generated(regenerated):
    made = sorted(p.name for p in regenerated.iterdir())
    assert set(made) - {"cronos-geq-kills.svg"} == set(committed()) - {"cronos-geq-kills.svg"}


def test_the_plot(regenerated):
    # The SVG's bytes depend on the matplotlib version; its data is cronos-geq.json, compared
    # exactly above. Here: the committed plot is a drawing of that query, and it regenerates.
    for folder in (EXAMPLES, regenerated) if (regenerated / "cronos-geq-kills.svg").exists() \
            else (EXAMPLES,):
        root = ET.parse(folder / "cronos-geq-kills.svg").getroot()
        assert root.tag.endswith("svg")
        text = (folder / "cronos-geq-kills.svg").read_text(encoding="utf-8")
        assert "Cronos" in text and "GEQ" in text and "P(kills = k)" in text


def test_example_numbers_are_the_library_s():
    # the JSON example is exactly the library's answer
    data = json.loads((EXAMPLES / "cronos-geq.json").read_text(encoding="utf-8"))
    cronos = load_unit("Cronos")
    r = mh.attack(cronos.as_profiles(weapons=["spirit vortex", "spirit syphon"], models=2,
                                     score=VS_MEQ),
                  load_unit("GEQ"), half_range=True)
    assert {int(k): Fraction(v) for k, v in data["pmf"]["kills"].items()} == dict(r.kills)
    assert Fraction(data["destroyed"]) == r.destroyed
    # two models: spirit vortex D6 + 2 (Blast vs 10) each, spirit syphon D6 each: 2 * 5.5 + 7
    assert data["mean"]["attacks"] == "18/1"
    md = (EXAMPLES / "named-rules.md").read_text(encoding="utf-8")
    # Hexmark pistols vs GEQ at half range, re-rolling 1s: 6 * 35/36 * 5/6 = 175/36 = 4.86
    assert "| Hexmark Destroyer [--rule Conquering Tyrant] | 4.86 |" in md


def test_sequence_example_numbers_are_the_library_s():
    # three turns with Disintegration Beams after each attack, reanimation between turns
    from mathhammer.engine.sequence import Attack, MortalWounds, Reanimate

    hexmark, warriors = load_unit("Hexmark Destroyer"), load_unit("Necron Warriors")
    beams = mh.find_rule("Disintegration Beams").mortal_wounds.pmf()
    steps = []
    for i in (1, 2, 3):
        steps += [Reanimate()] * (i > 1) + [Attack.make(hexmark.as_profiles(score=VS_MEQ)),
                                             MortalWounds(beams)]
    t = mh.sequence(warriors, steps)
    text = (EXAMPLES / "hexmark-warriors-turns.txt").read_text(encoding="utf-8")
    assert f"\nP(destroyed)          27.23%  {readable_fraction(t.destroyed[-1])}\n" in text
    assert f"  kills                7.620  {readable_fraction(t.kills.mean())}\n" in text
    # Crushing Impact T10 on MEQ: ten dice, each 1 hurts the charger: 10/6 expected
    text = (EXAMPLES / "mortal-crushing-impact.txt").read_text(encoding="utf-8")
    assert "  expected             1.667  5/3\n" in text


def _make_examples():
    spec = importlib.util.spec_from_file_location("make_examples", EXAMPLES / "make_examples.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_the_documents_outputs_are_what_the_commands_print():
    # the command outputs of the README and docs/*.md are golden files: `python
    # examples/make_examples.py` regenerates them
    make = _make_examples()
    documents = make.documents()
    assert make.PROJECT_README in documents and len(documents) > 5
    blocks = 0
    for document in documents:
        text = document.read_text(encoding="utf-8")
        blocks += len(make.README_BLOCK.findall(text))
        assert make.readme_with_outputs(text) == text, f"{document.name} is out of date: run " \
                                                       "python examples/make_examples.py"
    assert len(make.README_BLOCK.findall(make.PROJECT_README.read_text(encoding="utf-8"))) >= 2
    assert blocks >= 10
