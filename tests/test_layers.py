"""The package's layers (docs/development.md, "Package layout"): every import of a mathhammer
module, at module level or inside a function (and every ``importlib.import_module`` of a literal
name), points to the same layer or a lower one, and the modules' imports form no cycle; each
package's docstring indexes its modules.

Run as a script to count the upward imports and the largest cycle of another checkout:
``python tests/test_layers.py /path/to/mathhammer``.
"""

from __future__ import annotations

import ast
import re
import sys
from collections.abc import Iterator
from pathlib import Path

import attrs

PACKAGE = Path(__file__).resolve().parents[1] / "mathhammer"

#: the rank of each top-level part of the package: a module may import its own rank or lower
RANKS = {
    "errors": 0, "cache": 0, "resources": 0, "limits": 0,
    "prob": 1, "model": 2, "mechanics": 3, "engine": 4, "data": 5,
    # the questions as values, resolved and answered (app), then rendered (report)
    "app": 6, "library": 6, "report": 7,
    # the JSON API's jobs (framework-free), which the page and the tool server both run
    "jobs": 8,
    # the faces, siblings that import nothing of each other (test_siblings_...)
    "web": 9, "mcp": 9,
    # the command line, which also launches the other faces (serve, mcp) and makes the page's
    # share links (mathhammer link)
    "cli": 10, "__main__": 11,
}

#: (importing module, imported module): the upward imports allowed, each with its reason
EXEMPT: dict[tuple[str, str], str] = {
    # a notebook shows a Result by its own methods, which render the kills report on call only
    ("engine.attack", "report.display"): "a Result's display methods, imported on call",
}


@attrs.frozen
class Import:
    """``importer`` imports ``imported`` at ``line`` (``top``: at module level; ``typing``: for
    a type checker only, under ``if TYPE_CHECKING:``, never run)."""

    importer: str
    imported: str
    line: int
    top: bool
    typing: bool = False


def module_name(path: Path, package: Path) -> str:
    parts = path.relative_to(package).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def _is_package(path: Path) -> bool:
    return path.name == "__init__.py"


def imports(path: Path, package: Path, known: set[str]) -> Iterator[Import]:
    """Every import of a module of the package in the file ``path``: ``from . import x``,
    ``from ..x import y``, ``import mathhammer.x``, ``importlib.import_module("mathhammer.x")``;
    a name imported from a package that is one of its modules counts as that module."""
    me = module_name(path, package)
    tree = ast.parse(path.read_text(encoding="utf-8"))
    top = set(map(id, tree.body))
    typing = {id(n) for block in ast.walk(tree) if isinstance(block, ast.If)
              and getattr(block.test, "id", getattr(block.test, "attr", "")) == "TYPE_CHECKING"
              for stmt in block.body for n in ast.walk(stmt)}
    here = me.split(".") if _is_package(path) else me.split(".")[:-1]
    if me == "":
        here = []

    def inner(name: str) -> str | None:  # "mathhammer.x.y" -> "x.y"
        if name == "mathhammer":
            return ""
        return name.removeprefix("mathhammer.") if name.startswith("mathhammer.") else None

    def found(target: str, names: list[str], node: ast.AST) -> Iterator[Import]:
        for name in names or [""]:
            sub = f"{target}.{name}".strip(".")
            dep = sub if sub in known else target
            if dep != me:
                yield Import(me, dep, node.lineno, id(node) in top,  # type: ignore[attr-defined]
                             id(node) in typing)

    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom):
            if node.level:
                base = here[: len(here) - node.level + 1]
                target = ".".join([*base, *([node.module] if node.module else [])])
            else:
                target = inner(node.module or "")
                if target is None:
                    continue
            yield from found(target, [a.name for a in node.names], node)
        elif isinstance(node, ast.Import):
            for a in node.names:
                target = inner(a.name)
                if target is not None:
                    yield from found(target, [], node)
        elif (isinstance(node, ast.Call) and getattr(node.func, "attr", None) == "import_module"
              and node.args and isinstance(node.args[0], ast.Constant)
              and isinstance(node.args[0].value, str)):
            target = inner(node.args[0].value)
            if target is not None:
                yield from found(target, [], node)


def all_imports(package: Path = PACKAGE) -> list[Import]:
    files = [p for p in package.rglob("*.py") if "__pycache__" not in p.parts]
    known = {module_name(p, package) for p in files}
    return list(dict.fromkeys(i for p in sorted(files) for i in imports(p, package, known)))


def rank(module: str) -> int | None:
    """The layer of a module; the package root (it re-exports the curated API) has none."""
    return RANKS.get(module.split(".")[0]) if module else None


def upward(found: list[Import]) -> list[Import]:
    """The imports that point up a layer and are not exempt."""
    return [i for i in found
            if rank(i.importer) is not None and rank(i.imported) is not None
            and rank(i.imported) > rank(i.importer)  # type: ignore[operator]
            and (i.importer, i.imported) not in EXEMPT]


def sideways(found: list[Import]) -> list[Import]:
    """The imports between two packages of one rank (the faces web and mcp; app and library),
    which are siblings: what both need sits below them. The root's modules of rank 0 (errors,
    cache, resources, limits) are one foundation and may use each other."""
    return [i for i in found
            if rank(i.importer) and rank(i.importer) == rank(i.imported)
            and i.importer.split(".")[0] != i.imported.split(".")[0]]


def largest_cycle(found: list[Import]) -> list[str]:
    """The modules of the largest strongly connected part of the import graph (the package
    root left out: it re-exports; the exempt imports and those for type checkers only left
    out); one module alone is no cycle."""
    graph: dict[str, set[str]] = {}
    for i in found:
        if (i.importer and i.imported and not i.typing
                and (i.importer, i.imported) not in EXEMPT):
            graph.setdefault(i.importer, set()).add(i.imported)
            graph.setdefault(i.imported, set())
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on: set[str] = set()
    best: list[str] = []

    def strong(v: str) -> None:  # Tarjan's algorithm
        nonlocal best
        index[v] = low[v] = len(index)
        stack.append(v)
        on.add(v)
        for w in sorted(graph[v]):
            if w not in index:
                strong(w)
                low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            part = []
            while True:
                w = stack.pop()
                on.discard(w)
                part.append(w)
                if w == v:
                    break
            if len(part) > 1 and len(part) > len(best):
                best = sorted(part)

    sys.setrecursionlimit(max(sys.getrecursionlimit(), 10_000))
    for v in sorted(graph):
        if v not in index:
            strong(v)
    return best


def test_every_module_has_a_rank():
    tops = {module_name(p, PACKAGE).split(".")[0] for p in PACKAGE.rglob("*.py")}
    assert tops - {""} <= set(RANKS), sorted(tops - set(RANKS) - {""})


def test_no_import_points_up_a_layer():
    up = upward(all_imports())
    assert not up, "\n".join(
        f"{i.importer} (line {i.line}, {'module level' if i.top else 'in a function'}) imports "
        f"{i.imported}: {i.importer.split('.')[0]} is below {i.imported.split('.')[0]}"
        for i in up)


def test_siblings_import_nothing_of_each_other():
    side = sideways(all_imports())
    assert not side, "\n".join(
        f"{i.importer} (line {i.line}) imports {i.imported}: siblings of rank "
        f"{rank(i.importer)}" for i in side)


def test_the_exemptions_are_few_and_still_needed():
    assert len(EXEMPT) <= 2
    found = {(i.importer, i.imported) for i in all_imports()}
    assert set(EXEMPT) <= found, set(EXEMPT) - found


def test_every_package_indexes_its_modules():
    """Each package's docstring is its index: it names every module and subpackage in it
    (a Sphinx reference, ``:mod:`.name``` or ``:mod:`mathhammer.pkg.name```). An army-list
    reader (a module that registers a format) need not be named: the registry finds it and the
    manual's tables of formats are made from it, so a new format stays one module and a
    fixture (docs/development.md)."""
    registry = re.compile(r"^(?:text_format|register)\(", re.M)
    missing = {}
    for init in sorted(PACKAGE.rglob("__init__.py")):
        pkg = init.parent
        if pkg == PACKAGE or "__pycache__" in pkg.parts:
            continue
        doc = ast.get_docstring(ast.parse(init.read_text(encoding="utf-8"))) or ""
        dotted = module_name(init, PACKAGE.parent)
        parts = [p.stem for p in pkg.glob("*.py") if p.stem != "__init__"] + [
            p.name for p in pkg.iterdir() if (p / "__init__.py").is_file()]
        unnamed = sorted(m for m in parts
                         if not re.search(rf":\w+:`~?(?:{re.escape(dotted)})?\.{m}\b", doc)
                         and not (dotted == "mathhammer.data.army" and registry.search(
                             (pkg / f"{m}.py").read_text(encoding="utf-8"))))
        if unnamed:
            missing[dotted] = unnamed
    assert missing == {}


def test_one_name_per_concept():
    """No two classes of the package share a name (module-private ``_Names`` aside): a reader
    never has to ask which ``Salvo``, ``Unit`` or ``Row`` a line means."""
    where: dict[str, list[str]] = {}
    for path in sorted(PACKAGE.rglob("*.py")):
        if "__pycache__" in path.parts:
            continue
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.ClassDef) and not node.name.startswith("_"):
                where.setdefault(node.name, []).append(module_name(path, PACKAGE))
    assert {name: mods for name, mods in where.items() if len(mods) > 1} == {}


def test_no_import_cycle():
    assert largest_cycle(all_imports()) == []


def test_the_check_sees_an_upward_import_in_a_function(tmp_path):
    """The checks fail on a planted upward import (inside a function), a planted cycle and a
    planted import between siblings."""
    pkg = tmp_path / "mathhammer"
    for name, text in {
        "__init__.py": "",
        "prob/__init__.py": "",
        "prob/pmf.py": "def show():\n    from ..report import display\n",
        "report/__init__.py": "",
        "report/display.py": "from ..prob import pmf\n",
    }.items():
        (pkg / name).parent.mkdir(parents=True, exist_ok=True)
        (pkg / name).write_text(text)
    found = all_imports(pkg)
    assert [(i.importer, i.imported, i.top) for i in upward(found)] == [
        ("prob.pmf", "report.display", False)]
    assert largest_cycle(found) == ["prob.pmf", "report.display"]
    (pkg / "mcp" / "answers.py").parent.mkdir()
    (pkg / "mcp" / "__init__.py").write_text("")
    (pkg / "mcp" / "answers.py").write_text("def run():\n    from ..web.api import job\n")
    (pkg / "web").mkdir()
    (pkg / "web" / "__init__.py").write_text("")
    (pkg / "web" / "api.py").write_text("")
    assert [(i.importer, i.imported) for i in sideways(all_imports(pkg))] == [
        ("mcp.answers", "web.api")]


if __name__ == "__main__":
    root = Path(sys.argv[1]) if len(sys.argv) > 1 else PACKAGE
    found = all_imports(root)
    up = upward(found)
    print(f"upward imports: {len(up)} ({sum(i.top for i in up)} at module level, "
          f"{sum(not i.top for i in up)} in functions)")
    for i in up:
        print(f"  {i.importer}:{i.line} -> {i.imported}{'' if i.top else ' (in a function)'}")
    side = sideways(found)
    print(f"imports between siblings: {len(side)}")
    for i in side:
        print(f"  {i.importer}:{i.line} -> {i.imported}")
    cycle = largest_cycle(found)
    print(f"largest cycle: {len(cycle)} modules")
