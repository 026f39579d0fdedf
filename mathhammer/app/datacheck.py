"""A self-check over the installed BattleScribe data: import every datasheet and ask each
phase (ranged, melee) against MEQ, counting what is clean, warned about, failed, or cut off by
a file missing from the data (``mathhammer data check``).

A *datasheet* is a unit or single-model entry a roster can select from a catalogue, counted
once however many catalogues reach it (a Space Marines unit is reached from every chapter):
it is checked through the catalogue a player's lookup uses (a faction catalogue before a
``Library``). Each one is read from the compiled store (:mod:`mathhammer.data.store.compiled`: its
import, made once when the store is built, with the import's error, notes and warnings), loaded
as a unit and asked: its result is one of

- ``missing_file``: a link of it leads into a catalogue that is not in the data (named);
- ``failed``: it could not be imported or asked (the error's cause);
- ``no_weapons``: it imports but has no weapon at all;
- ``warnings``: it imports and answers, with a warning about a weapon, a link or a limit;
- ``clean``: it imports and answers without one (other warnings are kept as ``notes``).

Causes are the messages with their names and numbers taken out, so one class of problem
counts once: ``weapon '…' left out: range '…' is not a distance``.

>>> cause_of("Necrons.cat: 'Warriors': weapon 'Gauss flayer' left out: S '2D6' is not a number")
"weapon '…' left out: S '…' is not a number"
>>> kind_of("weapon '…' left out: S '…' is not a number"), kind_of("no points in the data")
('weapon', 'note')
"""

from __future__ import annotations

import enum
import os
import re
import time
import warnings
from collections import Counter
from collections.abc import Callable, Iterable
from concurrent.futures import ProcessPoolExecutor, as_completed
from pathlib import Path
from typing import Any

import attrs

from ..errors import InputError, field, one_line


class Status(enum.StrEnum):
    """What became of one datasheet (in the order they are decided)."""

    MISSING_FILE = "missing_file"
    FAILED = "failed"
    NO_WEAPONS = "no_weapons"
    WARNINGS = "warnings"
    CLEAN = "clean"


@attrs.frozen
class Sheet:
    """The check of one datasheet as one catalogue sees it."""

    catalogue: str  # the file name
    name: str
    key: str  # the id of the entry that defines it (or of the missing link target)
    own: bool  # defined in this catalogue
    library: bool  # the catalogue is a library
    status: Status
    causes: tuple[str, ...] = ()  # failure or warning causes (for FAILED, WARNINGS)
    notes: tuple[str, ...] = ()  # other warnings' causes
    missing: tuple[str, ...] = ()  # missing files its links lead into
    messages: tuple[str, ...] = ()  # the messages as said

    @property
    def label(self) -> str:
        """``catalogue file:Unit``."""
        return f"{self.catalogue}:{self.name}"


_QUOTED = re.compile(r"'(?:[^'\\]|\\.)*'|\"(?:[^\"\\]|\\.)*\"")
_ID = re.compile(r"\b[0-9a-f]+(?:-[0-9a-f]+){2,}\b")
_FILE = re.compile(r"(?:(?<![^\s:;,])/[^\s:;,]{0,200}\w|(?<![\w/])\w)"  # a path, a word
                   r"(?:[\w ,&()-]|(?<=\w)['’]\w){0,200}\.(?:cat|gst|json)\b")  # (linear)
_FOLDER = re.compile(r" in /\S+")
_NUMBER = re.compile(r"\d+")
_MISSING = re.compile(r"missing file '([^']+)'|missing file \"([^\"]+)\"")
#: ``FILE: 'Unit': `` or ``FILE:Unit: `` before a message
_PREFIX = re.compile(r"^FILE: ?(?:'(?:[^'\\]|\\.)*'|\"(?:[^\"\\]|\\.)*\"|[^:']*)?:\s*")


def cause_of(message: str) -> str:
    """A message without its file, names, ids and numbers: the class of problem it is."""
    text = one_line(message)
    text = _FILE.sub("FILE", text)
    text = _FOLDER.sub("", text)
    text = _PREFIX.sub("", text)
    text = re.sub(r"^.{0,120}? \(imported\): ", "", text)
    text = _ID.sub("ID", text)
    text = _QUOTED.sub("'…'", text)
    text = _NUMBER.sub("N", text)
    return text[:160]


_KINDS = (
    ("link", re.compile(r"^skipped '|links to id|missing file")),
    ("limit", re.compile(r"over the limit|expected an integer|nest too deep")),
    ("weapon", re.compile(r"^weapon '…' left out|^weapon '…': unmapped keywords|"
                          r"^(?:ranged|melee): |no weapon mathhammer can read")),
)


def kind_of(cause: str) -> str:
    """``weapon``, ``link`` or ``limit`` for the causes that keep a datasheet from being clean
    (a weapon left out or with keywords not understood, a link not followed, a value over a
    limit), else ``note`` (a decision said out loud: a default taken, a value read)."""
    for kind, pattern in _KINDS:
        if pattern.search(cause):
            return kind
    return "note"


def missing_files(messages: Iterable[str]) -> tuple[str, ...]:
    """The missing files the messages name (``missing file 'X.json'``)."""
    out: list[str] = []
    for m in messages:
        for a, b in _MISSING.findall(m):
            if (a or b) not in out:
                out.append(a or b)
    return tuple(out)


# --------------------------------------------------------------------------- one catalogue


def _target(edition: str):
    from ..data.units.bundled import load_unit

    return load_unit("MEQ").as_target()


def _ask(unit, edition: str, target, notes: list[str]) -> bool:
    """Ask each phase against the target; True if the unit has any weapon."""
    from ..engine.attack import attack, value_against
    from .specs import check_work

    armed = False
    for melee in (False, True):
        phase = "melee" if melee else "ranged"
        if not unit.weapons(melee=melee):
            continue
        armed = True
        profiles = unit.as_profiles(melee=melee, score=value_against(None))
        if not profiles:
            notes.append(f"{phase}: no weapon fires by default (every one is optional)")
            continue
        check_work(profiles, target, edition)
        attack(profiles, target, rules=edition).damage.mean()
    return armed


def check_stored(store: Any, ds: int, error: str | None, notes: list[str], checked: list[str],
                 edition: str, target: Any) -> tuple[Status, list[str], list[str]]:
    """(status, failure or warning messages, all messages) of one compiled datasheet: its
    import's error, notes and warnings as the store keeps them, then each phase asked."""
    if error is not None:
        msg = one_line(error)
        return Status.FAILED, [msg], [msg]
    said = list(notes)
    try:
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            armed = _ask(store.unit(ds, warn=False), edition, target, said)
        said += checked + [str(w.message) for w in caught]
    except (InputError, RecursionError) as e:
        msg = one_line(str(e)) if not isinstance(e, RecursionError) else "nested too deeply"
        return Status.FAILED, [msg], [*said, msg]
    if not armed:
        return Status.NO_WEAPONS, [], said
    bad = [m for m in said if kind_of(cause_of(m)) != "note"]
    return (Status.WARNINGS if bad else Status.CLEAN), bad, said


def check_catalogue(path: str | os.PathLike, edition: str,
                    checked: Iterable[str] = ()) -> list[Sheet]:
    """Check every datasheet a catalogue offers, as the compiled store of its folder has it
    (see the module's doc); ``checked`` names the files checked in the same run: a datasheet
    another of them defines (not a library) is left to that file's check."""
    from ..data.store.compiled import open_store

    path = Path(path)
    store = open_store(edition, path.parent)  # type: ignore[arg-type]
    cat = store.catalogue(path)
    if cat is None or cat.error:
        msg = (cat.error or "") if cat is not None else f"{path}: not in the data of {path.parent}"
        return [Sheet(path.name, path.name, f"file:{path.name}", True, False, Status.FAILED,
                      (cause_of(msg),), messages=(one_line(msg),))]
    target = _target(edition)
    homes = store.homes()
    out = []
    others = set(checked) - {path.name}
    for name, key, own, ds, error, notes, said_then in store.checks(cat.id):
        home = homes.get(key)
        if not own and home is not None and not home[1] and home[0] in others:
            continue
        status, bad, said = check_stored(store, ds, error, notes, said_then, edition, target)
        missing = missing_files(said)
        if missing:
            status = Status.MISSING_FILE
        causes = tuple(dict.fromkeys(cause_of(m) for m in bad))
        notes_ = tuple(dict.fromkeys(c for c in map(cause_of, said) if c not in causes))
        out.append(Sheet(path.name, name, key, own, cat.library, status, causes, notes_,
                         missing, tuple(said)))
    return out


# --------------------------------------------------------------------------- the whole data


@attrs.frozen
class Report:
    """The counts of a check over one edition's data."""

    edition: str
    folder: str
    catalogues: int
    sheets: tuple[Sheet, ...]
    seconds: float

    def count(self, status: Status) -> int:
        return sum(s.status is status for s in self.sheets)

    @property
    def armed(self) -> int:
        """The datasheets with weapons whose files are all in the data (what the clean share
        is of)."""
        return len(self.sheets) - self.count(Status.NO_WEAPONS) - self.count(Status.MISSING_FILE)

    def causes(self, status: Status) -> dict[str, int]:
        """How many datasheets of ``status`` have each cause, most first."""
        c = Counter(x for s in self.sheets if s.status is status for x in s.causes)
        return dict(sorted(c.items(), key=lambda kv: (-kv[1], kv[0])))

    def notes(self) -> dict[str, int]:
        c = Counter(x for s in self.sheets for x in s.notes)
        return dict(sorted(c.items(), key=lambda kv: (-kv[1], kv[0])))

    def missing(self) -> dict[str, int]:
        c = Counter(f for s in self.sheets if s.status is Status.MISSING_FILE for f in s.missing)
        return dict(sorted(c.items(), key=lambda kv: (-kv[1], kv[0])))

    def examples(self, status: Status, cause: str, n: int = 3) -> list[str]:
        return [s.label for s in self.sheets if s.status is status and cause in s.causes][:n]

    def to_json(self, examples: int = 3) -> dict[str, Any]:
        """The counts as JSON (``examples`` datasheets named for each cause)."""
        out: dict[str, Any] = {
            "edition": self.edition, "folder": self.folder, "catalogues": self.catalogues,
            "datasheets": len(self.sheets), "clean": self.count(Status.CLEAN),
            "with_warnings": self.count(Status.WARNINGS),
            "warnings": self.causes(Status.WARNINGS),
            "failed_datasheets": self.count(Status.FAILED),
            "failed": self.causes(Status.FAILED),
            "no_weapons": self.count(Status.NO_WEAPONS),
            "armed": self.armed,
            "missing_files": self.missing(),
            "notes": self.notes(),
            "seconds": round(self.seconds, 1),
        }
        if examples:
            out["examples"] = {
                st.value: {c: self.examples(st, c, examples) for c in self.causes(st)}
                for st in (Status.FAILED, Status.WARNINGS)
            }
            out["examples"]["no_weapons"] = [s.label for s in self.sheets
                                             if s.status is Status.NO_WEAPONS][:examples * 10]
        return out


def _pick(sheets: Iterable[Sheet]) -> list[Sheet]:
    """One check per datasheet: the faction catalogue that defines it, else one that reaches
    it, else its library (as a lookup by name resolves it)."""
    best: dict[str, Sheet] = {}
    for s in sheets:
        old = best.get(s.key)
        rank = (s.library, not s.own, s.catalogue)
        if old is None or rank < (old.library, not old.own, old.catalogue):
            best[s.key] = s
    return sorted(best.values(), key=lambda s: (s.catalogue, s.name))


def _one(path: str, edition: str, checked: frozenset[str]) -> list[Sheet]:
    return check_catalogue(path, edition, checked)


def check_data(edition: str, data: str | os.PathLike | None = None, *, jobs: int = 2,
               catalogues: Iterable[str] = (),
               progress: Callable[[str, int], None] | None = None) -> Report:
    """Check every datasheet of one edition's installed data (or of the folder ``data``);
    ``catalogues`` keeps the files whose names contain one of the words; ``jobs`` processes
    check catalogues in parallel (each reads the compiled store, built first if need be);
    ``progress(file name, number of files)`` is called as each catalogue is done."""
    from ..data.store.compiled import open_store
    from ..data.store.data_folder import is_game_system

    start = time.perf_counter()
    store = open_store(edition, data)  # type: ignore[arg-type]  # compiled first if need be
    folder = store.folder
    files = [Path(row[0]) for row in store.catalogues() if not is_game_system(Path(row[0]))]
    if catalogues:
        words = [w.lower() for w in catalogues]
        files = [p for p in files if any(w in p.name.lower() for w in words)]
        if not files:
            raise InputError(f"{field('catalogues')} {', '.join(catalogues)}: no such catalogue in "
                             f"{folder}")
    files.sort(key=lambda p: -p.stat().st_size)  # the largest first: the pool ends together
    names = frozenset(p.name for p in files)
    sheets: list[Sheet] = []
    if jobs <= 1 or len(files) == 1:
        for p in files:
            sheets += check_catalogue(p, edition, names)
            if progress is not None:
                progress(p.name, len(files))
    else:
        with ProcessPoolExecutor(max_workers=jobs) as pool:
            todo = {pool.submit(_one, str(p), edition, names): p for p in files}
            for f in as_completed(todo):
                sheets += f.result()
                if progress is not None:
                    progress(todo[f].name, len(files))
    return Report(edition, str(folder), len(files), tuple(_pick(sheets)),
                  time.perf_counter() - start)


