"""Small 11e BattleScribe JSON datasheets for tests (the shape of ``bsdata/11e/*.json``): the one
place a test builds a datasheet. ``unit(...)`` is one datasheet of one model kind with its weapons
and abilities; ``character(...)`` a one-model datasheet; ``datasheet``, ``group`` and ``model``
build the model groups of a datasheet of several kinds of model.

>>> u = unit("u1", "Squad", 5, ["Infantry"], [("Drilled", "Re-roll it.")],
...          weapon("w1", "Bolt rifle", "2", "3+", "4", "-1", "1"), STATS)
>>> u["selectionEntries"][0]["constraints"][1]["value"], u["profiles"][0]["name"]
(5, 'Drilled')
"""

from __future__ import annotations

import json
from pathlib import Path

#: a Space Marine's statline: M6" T4 Sv3+ W2 Ld6+ OC2
STATS = (("M", '6"'), ("T", "4"), ("SV", "3+"), ("W", "2"), ("LD", "6+"), ("OC", "2"))


def chars(pairs):
    """Characteristics from (name, value) pairs."""
    return [{"name": n, "$text": v} for n, v in pairs]


def ability(pid, name, text):
    """An ability profile."""
    return {"id": pid, "name": name, "typeId": "ab", "typeName": "Abilities",
            "characteristics": chars([("Description", text)])}


def weapon(pid, name, a, bs, s, ap, d, melee=False, range='24"', keywords="-"):
    """A ranged weapon profile (24" without keywords unless told), or a melee one."""
    kind = ("mw", "Melee Weapons") if melee else ("rw", "Ranged Weapons")
    return {"id": pid, "name": name, "typeId": kind[0], "typeName": kind[1],
            "characteristics": chars([("Range", "Melee" if melee else range), ("A", a),
                                      ("WS" if melee else "BS", bs), ("S", s), ("AP", ap),
                                      ("D", d), ("Keywords", keywords)])}


def statline(pid, name, stats):
    """A model's statline profile (M, T, SV, W, LD, OC)."""
    return {"id": pid, "name": name, "typeId": "t", "typeName": "Unit",
            "characteristics": chars(stats)}


def _links(uid, faction, keywords):
    return ([{"id": f"{uid}f", "name": f"Faction: {faction}", "targetId": "f1"}]
            + [{"id": f"{uid}k{i}", "name": k, "targetId": f"k{k}"}
               for i, k in enumerate(keywords)])


def _armed(uid, guns):
    """Each weapon profile as a wargear entry every model takes."""
    return [{"id": f"{uid}w{i}", "name": g["name"], "type": "upgrade",
             "constraints": [{"type": "min", "value": 1, "field": "selections",
                              "scope": "parent"}],
             "profiles": [g]} for i, g in enumerate(guns)]


def unit(uid, name, count, keywords, abilities, gun, statline, points=50, faction="Testers",
         model=None, most=None):
    """A datasheet of ``count`` (to ``most``) models called ``model`` (default ``name``), each
    with ``gun`` (a weapon profile, or a list of them), of faction "Testers" unless told."""
    guns = gun if isinstance(gun, list) else [gun]
    return {
        "id": uid, "name": name, "type": "unit",
        "costs": [{"name": "pts", "typeId": "pts", "value": points}],
        "categoryLinks": _links(uid, faction, keywords),
        "profiles": [ability(f"{uid}a{i}", n, t) for i, (n, t) in enumerate(abilities)],
        "selectionEntries": [{
            "id": f"{uid}m", "name": model or name, "type": "model",
            "constraints": [{"type": "min", "value": count, "field": "selections",
                             "scope": "parent"},
                            {"type": "max", "value": most or count, "field": "selections",
                             "scope": "parent"}],
            "profiles": [{"id": f"{uid}s", "name": model or name, "typeId": "t",
                          "typeName": "Unit", "characteristics": chars(statline)}],
            "selectionEntries": _armed(uid, guns)}]}


def character(uid, name, stats, guns, abilities=(), keywords=("Infantry",), points=50,
              faction="Testers"):
    """A one-model datasheet (a selection entry of type "model": a CHARACTER's shape) with its
    statline, abilities and ``guns``."""
    return {"id": uid, "name": name, "type": "model",
            "costs": [{"name": "pts", "typeId": "pts", "value": points}],
            "categoryLinks": _links(uid, faction, keywords),
            "profiles": [statline(f"{uid}p", name, stats)]
            + [ability(f"{uid}a{i}", n, t) for i, (n, t) in enumerate(abilities)],
            "selectionEntries": _armed(uid, guns)}


def limits(lo=None, hi=None):
    """The min and max constraints of an entry or a group (None: no such limit)."""
    return [{"type": t, "value": v, "field": "selections", "scope": "parent", "id": f"c{t}{v}"}
            for t, v in (("min", lo), ("max", hi)) if v is not None]


def model(mid, name, stats, guns=(), lo=None, hi=None, abilities=(), profile=None):
    """A model entry with its statline (named ``profile``, default ``name``), its own ability
    profiles and its weapons (each one per model)."""
    return {"id": mid, "name": name, "type": "model", "constraints": limits(lo, hi),
            "profiles": [statline(f"{mid}s", profile or name, stats)]
            + [ability(f"{mid}a{i}", n, t) for i, (n, t) in enumerate(abilities)],
            "selectionEntries": [{"id": f"{mid}w{i}", "name": g["name"], "type": "upgrade",
                                  "constraints": limits(1, 1), "profiles": [g]}
                                 for i, g in enumerate(guns)]}


def group(gid, name, entries, lo=None, hi=None, default=None, groups=()):
    """A selection group of model entries (or of other groups) within ``lo``-``hi`` models."""
    out = {"id": gid, "name": name, "constraints": limits(lo, hi), "selectionEntries": entries,
           "selectionEntryGroups": list(groups)}
    if default:
        out["defaultSelectionEntryId"] = default
    return out


def datasheet(uid, name, groups=(), entries=(), points=100):
    """A datasheet of several kinds of model: its model ``entries`` and selection ``groups``."""
    return {"id": uid, "name": name, "type": "unit",
            "costs": [{"name": "pts", "typeId": "pts", "value": points}],
            "categoryLinks": [{"id": f"{uid}f", "name": "Faction: Testers", "targetId": "f1"},
                              {"id": f"{uid}i", "name": "Infantry", "targetId": "kinf"}],
            "selectionEntryGroups": list(groups), "selectionEntries": list(entries)}


def write_folder(folder: Path, catalogue: dict) -> Path:
    """An 11e data folder: ``catalogue`` as ``Testers.json`` beside a game system file
    (``System.json``); returns the catalogue's path."""
    (folder / "Testers.json").write_text(json.dumps({"catalogue": catalogue}), encoding="utf-8")
    (folder / "System.json").write_text(json.dumps({"gameSystem": {
        "id": "gs1", "name": "Test system"}}), encoding="utf-8")
    return folder / "Testers.json"
