"""Small 11e BattleScribe JSON datasheets for tests (the shape of ``bsdata/11e/*.json``):
``unit(...)`` is one datasheet of one model kind with one weapon and its abilities.

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


def weapon(pid, name, a, bs, s, ap, d, melee=False):
    """A 24" ranged (or a melee) weapon profile without keywords."""
    kind = ("mw", "Melee Weapons") if melee else ("rw", "Ranged Weapons")
    return {"id": pid, "name": name, "typeId": kind[0], "typeName": kind[1],
            "characteristics": chars([("Range", "Melee" if melee else '24"'), ("A", a),
                                      ("WS" if melee else "BS", bs), ("S", s), ("AP", ap),
                                      ("D", d), ("Keywords", "-")])}


def unit(uid, name, count, keywords, abilities, gun, statline, points=50):
    """A datasheet of ``count`` models called ``name``, each with ``gun`` (a weapon profile, or
    a list of them), of faction "Testers"."""
    guns = gun if isinstance(gun, list) else [gun]
    return {
        "id": uid, "name": name, "type": "unit",
        "costs": [{"name": "pts", "typeId": "pts", "value": points}],
        "categoryLinks": [{"id": f"{uid}f", "name": "Faction: Testers", "targetId": "f1"}]
        + [{"id": f"{uid}k{i}", "name": k, "targetId": f"k{k}"} for i, k in enumerate(keywords)],
        "profiles": [ability(f"{uid}a{i}", n, t) for i, (n, t) in enumerate(abilities)],
        "selectionEntries": [{
            "id": f"{uid}m", "name": name, "type": "model",
            "constraints": [{"type": "min", "value": count, "field": "selections",
                             "scope": "parent"},
                            {"type": "max", "value": count, "field": "selections",
                             "scope": "parent"}],
            "profiles": [{"id": f"{uid}s", "name": name, "typeId": "t", "typeName": "Unit",
                          "characteristics": chars(statline)}],
            "selectionEntries": [{
                "id": f"{uid}w{i}", "name": g["name"], "type": "upgrade",
                "constraints": [{"type": "min", "value": 1, "field": "selections",
                                 "scope": "parent"}],
                "profiles": [g]} for i, g in enumerate(guns)]}]}


def write_folder(folder: Path, catalogue: dict) -> Path:
    """An 11e data folder: ``catalogue`` as ``Testers.json`` beside a game system file
    (``System.json``); returns the catalogue's path."""
    (folder / "Testers.json").write_text(json.dumps({"catalogue": catalogue}), encoding="utf-8")
    (folder / "System.json").write_text(json.dumps({"gameSystem": {
        "id": "gs1", "name": "Test system"}}), encoding="utf-8")
    return folder / "Testers.json"
