"""Issue 32, item 3: every regular expression of mathhammer that reads text is linear in its
input. Each pattern (every ``re.compile``, ``re.search``... in ``mathhammer/`` with a literal
pattern) is run the way the code runs it (``match``, ``fullmatch``, ``search``, ``sub``...) on
hostile 60 kB lines (runs of spaces, digits, letters, brackets and the pattern's own
characters) and must end within a second of CPU each: a pattern that backtracks over its
input (``\\s*\\(`` searched in a run of spaces) takes 7.5 s of CPU there (1.9 s at 30 kB,
18.5 s at 100 kB, measured on the 2-core machine under load): 60 kB keeps a wide margin over the
limit at 60% of the cost of 100 kB. A pattern built at run time is listed in :data:`BUILT` with
the reason it is linear."""

from __future__ import annotations

import ast
import itertools
import re
import signal
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
N = 60_000
FUNCS = {"compile", "match", "search", "fullmatch", "sub", "subn", "findall", "finditer",
         "split"}
#: Patterns built at run time: where, and why each is linear.
BUILT = {
    "mathhammer/data/bsdata/files.py": "a fixed bytes pattern, matched at line starts",
    "mathhammer/data/store/compiled.py": "an escaped word between lookarounds",
    "mathhammer/data/rules/detachments.py":
        "keyword alternatives joined by separators of fixed text",
    "mathhammer/data/units/importer.py": "the page's fixed patterns, matched per line",
    "mathhammer/data/typed/inline.py": "escaped words joined by \\s+ between lookarounds",
    "mathhammer/data/rules/sentences.py": "the typos' fixed patterns, compiled from a list",
    "mathhammer/data/rules/titles.py": "title-case words joined by separators of fixed text",
    "mathhammer/data/rules/wordings.py": "fixed phrases joined",
    "mathhammer/data/rules/whom.py": "fixed phrases joined; an escaped keyword phrase",
    "mathhammer/model/abilities.py":
        "a keyword's escaped name, then \\s+ and its value, anchored at both ends",
}


def _methods(tree: ast.AST) -> dict[str, set[str]]:
    """Names bound to a compiled pattern, and the methods called on each."""
    used: dict[str, set[str]] = {}
    for node in ast.walk(tree):
        if isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name):
            used.setdefault(node.value.id, set()).add(node.attr)
    return used


def patterns() -> list[tuple[str, str, int, set[str]]]:
    """(where, pattern, flags, methods the code calls) of every literal pattern."""
    out = []
    for path in sorted((ROOT / "mathhammer").rglob("*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        used = _methods(tree)
        names: dict[int, str] = {}
        for node in ast.walk(tree):
            if isinstance(node, ast.Assign) and len(node.targets) == 1 and isinstance(
                    node.targets[0], ast.Name):
                names[id(node.value)] = node.targets[0].id
        for node in ast.walk(tree):
            if not (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute)
                    and isinstance(node.func.value, ast.Name) and node.func.value.id == "re"
                    and node.func.attr in FUNCS and node.args):
                continue
            where = f"{path.relative_to(ROOT)}:{node.lineno}"
            arg = node.args[0]
            if not (isinstance(arg, ast.Constant) and isinstance(arg.value, str)):
                assert str(path.relative_to(ROOT)) in BUILT, f"{where}: a pattern built at run time"
                continue
            flags = 0
            extra = node.args[1:] if node.func.attr == "compile" else node.args[3:]
            for f in [*extra, *(k.value for k in node.keywords if k.arg == "flags")]:
                flags |= eval(compile(ast.Expression(f), where, "eval"), {"re": re})  # noqa: S307
            if node.func.attr == "compile":
                methods = used.get(names.get(id(node), ""), set()) & FUNCS or {"search"}
            else:
                methods = {node.func.attr}
            out.append((where, arg.value, flags, methods))
    return out


def hostile(pattern: str) -> list[str]:
    """Lines of about 60 kB that make a backtracking pattern slow."""
    own = sorted({c for c in re.sub(r"\\[a-zA-Z]", "", pattern) if c.isprintable()}
                 - set("()[]{}?*+|^$\\"))
    seeds = [" ", "a", "1", "A", "a ", "1 ", "a1", "- ", ", ", "1x ", "(", "((", "[", "a-",
             "a'", "A'", "x."] + own + ["".join(p) for p in itertools.combinations(own[:8], 2)]
    out = []
    for s in dict.fromkeys(seeds):
        out += [s * (N // len(s)), "a" + s * (N // len(s) // 2) + "\n!"]
    return out


class _Slow(Exception):
    pass


def _alarm(*_args):
    raise _Slow


def run(rx: re.Pattern, method: str, text: str) -> None:
    if method in ("sub", "subn"):
        getattr(rx, method)("", text)
    elif method == "finditer":
        for _ in itertools.islice(rx.finditer(text), 10_000):
            pass
    elif method == "findall":
        rx.findall(text)
    else:
        getattr(rx, method)(text)


def slow_patterns(seconds: float = 1.0) -> list[str]:
    old = signal.signal(signal.SIGPROF, _alarm)
    bad = []
    try:
        for where, pattern, flags, methods in patterns():
            rx = re.compile(pattern, flags)
            for text in hostile(pattern):
                try:
                    signal.setitimer(signal.ITIMER_PROF, seconds)
                    for m in sorted(methods):
                        run(rx, m, text)
                except _Slow:
                    bad.append(f"{where}: {pattern!r} ({', '.join(sorted(methods))}) on "
                               f"{text[:6]!r}...")
                    break
                finally:
                    signal.setitimer(signal.ITIMER_PROF, 0)
    finally:
        signal.signal(signal.SIGPROF, old)
    return bad


@pytest.mark.slow
@pytest.mark.skipif(sys.platform == "win32", reason="signal.setitimer")
def test_every_pattern_is_linear_in_its_input():
    assert len(patterns()) > 200
    assert slow_patterns() == []


if __name__ == "__main__":
    for line in slow_patterns():
        print(line)
