"""The application's messages name a query's fields (:func:`mathhammer.errors.field`), and each
face says them in its words: the command line the flag its click options declare (one table,
:func:`mathhammer.cli.output.flag_table`), the page, the tool server and the library the field.
"""

from __future__ import annotations

import ast
import json
import re
from pathlib import Path

import pytest

from mathhammer.cli.main import cli as root
from mathhammer.cli.output import flag_table, said
from mathhammer.errors import InputError, field, marked, words
from mathhammer.jobs.run import job

APP = Path(__file__).resolve().parents[1] / "mathhammer" / "app"
INLINE = "1x 1 | 3+ | 4 | 0 | 1"
GUN = 'Gun | 24" | 2 | 3+ | 4 | 0 | 1'


def _fields_named() -> set[tuple[str, bool | None]]:
    """Every ``field(NAME[, VALUE])`` of app/'s modules, read from their source."""
    out: set[tuple[str, bool | None]] = set()
    for path in APP.glob("*.py"):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Call) and getattr(node.func, "id", None) == "field" \
                    and node.args and isinstance(node.args[0], ast.Constant):
                value = node.args[1] if len(node.args) > 1 else None
                out.add((node.args[0].value,
                         value.value if isinstance(value, ast.Constant) else
                         None if value is None else True))
    return out


def test_every_field_app_names_is_an_option_of_the_command_line():
    # a field renamed (or an option) would print the bare field on the command line: caught here
    table = flag_table(root)
    named = _fields_named()
    assert len(named) >= 20, named  # attach, army, counter, destroy, leader, ... (counted)
    for name, value in sorted(named, key=str):
        flag = table.get((name, value)) or table.get((name, None))
        assert flag is not None and flag.startswith("--"), (name, value)
        if value is not None:  # a switch's side: a flag of its own (--melee, --no-reanimation)
            assert "/" not in flag and table.get((name, not value)) != flag, (name, flag)


def _flag_strings(path: Path) -> list[str]:
    """The string constants of a module that name a flag (``--name``, ``-t``), its docstrings, and
    ``Setup``'s option metadata (the page's tooltips: test_setup_flags...) left out."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    skip = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Module | ast.ClassDef | ast.FunctionDef) and node.body and \
                isinstance(node.body[0], ast.Expr):
            skip.add(id(node.body[0].value))
        if isinstance(node, ast.Call) and getattr(node.func, "id", None) == "_field" \
                and len(node.args) > 2:
            skip.add(id(node.args[2]))
    return [n.value for n in ast.walk(tree) if isinstance(n, ast.Constant)
            and isinstance(n.value, str) and id(n) not in skip
            and re.search(r"(?<![\w-])(--[a-z]|-[a-z](?![\w-]))", n.value)]


def test_no_message_of_app_names_a_flag():
    # (at ac51527, 48 string pieces of app/'s messages named flags; the page rewrote them)
    found = {p.name: s for p in APP.glob("*.py") if (s := _flag_strings(p))}
    assert found == {}


def test_setup_flags_are_the_command_lines():
    # the page's tooltips show each option's flag (setup_fields): the command line's own
    from mathhammer.app.setup import setup_fields

    table = flag_table(root)
    for o in setup_fields():
        assert table[o["name"], None] == o["flag"], o["name"]


def test_each_face_says_a_field_in_its_words():
    e = InputError(f"{field('models')}: no; {field('ranged', False)}, "
                   f"{field('reanimation', False)}, {field('rules')} 11e, {field('nonesuch')}")
    kills = root.get_command(None, "kills")
    assert said(e, root, kills) == "--models: no; --melee, --no-reanimation, --rules 11e, nonesuch"
    assert str(e) == "models: no; ranged=false, reanimation=false, rules 11e, nonesuch"
    table = root.get_command(None, "table")  # its own --targets, else another command's flag
    assert said(InputError(f"{field('targets')}, {field('ranged', False)}"), root, table) \
        == "--targets, --melee"
    assert marked(e) != str(e) and words(marked(e)) == str(e)
    assert said("no fields", root) == "no fields"


@pytest.mark.parametrize(("body", "args", "cli_line", "page_line"), [
    ({"attacker": INLINE, "target": "MEQ", "models": 3}, [INLINE, "MEQ", "--models", "3"],
     '--models: give inline weapons their models in the row, e.g. "10x 2 | 3+ | 4 | -1 | 1"',
     'models: give inline weapons their models in the row, e.g. "10x 2 | 3+ | 4 | -1 | 1"'),
    ({"attacker": GUN, "target": "MEQ", "ranged": False}, [GUN, "MEQ", "--melee"],
     'weapon "Gun" has a range of 24" but --melee asks for melee weapons: write Melee as its '
     "range, or drop --melee",
     'weapon "Gun" has a range of 24" but ranged=false asks for melee weapons: write Melee as '
     "its range, or drop ranged=false"),
])
def test_an_error_is_one_line_in_each_face(cli, body, args, cli_line, page_line):
    line = cli.fails("kills", *args)
    assert line == f"mathhammer: error: {cli_line}"
    assert job("query", "kills", body) == (400, f"mathhammer: error: {page_line}")


def test_a_warning_is_one_line_in_each_face(cli):
    r = cli("kills", "Hexmark Destroyer", "MEQ", "--melee", "--pistols", "--json")
    assert r.exit_code == 0
    assert "warning: --pistols has no effect with --melee: Pistols are ranged weapons\n" \
        in r.stderr
    code, text = job("query", "kills", {"attacker": "Hexmark Destroyer", "target": "MEQ",
                                        "ranged": False, "pistols": True})
    assert code == 200
    assert json.loads(text)["warnings"] == [
        "warning: pistols has no effect with ranged=false: Pistols are ranged weapons"]
