"""A BattleScribe roster (``.ros``/``.rosz``) in the structured forms other list builders hand
out, for the tests and the fixtures of ``tests/fixtures/army/structured/``:

- :func:`newrecruit_json`: New Recruit's JSON export (the roster's XML as JSON: attributes as
  keys, numbers as numbers, each child list an array under its plural name, an element's text
  as ``$text``, under ``{"roster": ...}``);
- :func:`listforge_json`: ListForge's share JSON as 40kdc-data's importer reads it (the same
  tree under ``{"generatedBy": "List Forge", "roster": ...}``, without the roster schema's
  ``xmlns``, profiles and rules; weapons marked by a ``Ranged Weapon``/``Melee Weapon``
  category);
- :func:`share_link`: a ListForge share link of a JSON value
  (``https://HOST/#/listforge/`` + base64 of the gzipped JSON).

Run ``python tests/roster_json.py`` to write the structured fixtures again from
``tests/fixtures/army/structured/world-eaters.10e.ros``.

>>> tree = newrecruit_json(b'<roster xmlns="http://www.battlescribe.net/schema/rosterSchema" '
...     b'name="x"><costs><cost name="pts" value="85"/></costs><forces/></roster>')
>>> tree["roster"]["costs"], tree["roster"]["forces"]
([{'name': 'pts', 'value': 85}], [])
"""

from __future__ import annotations

import base64
import gzip
import json
import re
import sys
from pathlib import Path
from typing import Any

import defusedxml.ElementTree as SafeET

from mathhammer.data.army.roster import read_roster_bytes

FOLDER = Path(__file__).parent / "fixtures" / "army" / "structured"
_INT = re.compile(r"-?\d{1,9}")
_LISTS = {"costs", "costLimits", "forces", "selections", "categories", "profiles", "rules",
          "characteristics", "publications"}
_NUMBERS = {"number", "value"}
_BOOLS = {"primary", "hidden"}


def _local(tag: str) -> str:
    return tag.rsplit("}", 1)[-1]


def element_json(el: Any) -> dict[str, Any]:
    """One roster element as New Recruit writes it in JSON."""
    out: dict[str, Any] = {}
    for k, v in el.attrib.items():
        if k in _NUMBERS and _INT.fullmatch(v):
            out[k] = int(v)
        elif k in _BOOLS and v in ("true", "false"):
            out[k] = v == "true"
        else:
            out[k] = v
    for c in el:
        tag = _local(c.tag)
        if tag in _LISTS:
            out[tag] = [element_json(x) for x in c]
    text = (el.text or "").strip()
    if text and not len(el):
        out["$text"] = int(text) if _INT.fullmatch(text) else text
    return out


def newrecruit_json(ros: bytes) -> dict[str, Any]:
    """New Recruit's JSON export of a roster (``ros``: ``.ros`` XML or ``.rosz`` bytes)."""
    root = SafeET.fromstring(read_roster_bytes(ros, "roster"), forbid_dtd=True)
    roster = element_json(root)
    roster["xmlns"] = "http://www.battlescribe.net/schema/rosterSchema"
    roster["generatedBy"] = "https://newrecruit.eu"
    return {"roster": roster}


def _listforge_selection(s: dict[str, Any]) -> dict[str, Any]:
    weapon = [p["typeName"].removesuffix("s") for p in s.get("profiles", [])
              if "Weapon" in p.get("typeName", "")]
    out = {k: v for k, v in s.items() if k not in ("profiles", "rules", "selections",
                                                    "categories")}
    cats = s.get("categories", []) + [{"name": w, "primary": False}
                                      for w in dict.fromkeys(weapon)]
    if cats:
        out["categories"] = cats
    if s.get("selections"):
        out["selections"] = [_listforge_selection(c) for c in s["selections"]]
    return out


def listforge_json(ros: bytes) -> dict[str, Any]:
    """ListForge's share JSON of a roster, as 40kdc-data's importer reads it."""
    roster = newrecruit_json(ros)["roster"]
    forces = [{k: v for k, v in f.items() if k != "selections"}
              | {"selections": [_listforge_selection(s) for s in f.get("selections", [])]}
              for f in roster["forces"]]
    return {"id": roster.get("id", ""), "name": roster.get("name", ""),
            "generatedBy": "List Forge", "gameSystemId": roster.get("gameSystemId", ""),
            "gameSystemName": roster.get("gameSystemName", ""),
            "roster": {"name": roster.get("name", ""), "costs": roster.get("costs", []),
                       "forces": forces}}


def share_link(value: Any, host: str = "https://example.app") -> str:
    """A ListForge share link carrying ``value``."""
    packed = gzip.compress(json.dumps(value, ensure_ascii=False).encode("utf-8"), mtime=0)
    return f"{host}/#/listforge/{base64.b64encode(packed).decode('ascii')}"


def write_fixtures(folder: Path = FOLDER) -> list[Path]:
    """The structured fixtures of the World Eaters roster, written again."""
    ros = (folder / "world-eaters.10e.ros").read_bytes()
    nr, lf = newrecruit_json(ros), listforge_json(ros)
    out = {"world-eaters.10e.newrecruit-json.json": json.dumps(nr, indent=1, ensure_ascii=False),
           "world-eaters.10e.listforge-json.json": json.dumps(lf, indent=1, ensure_ascii=False),
           "world-eaters.10e.listforge-link.txt": share_link(lf)}
    paths = []
    for name, text in out.items():
        (folder / name).write_text(text + "\n", encoding="utf-8")
        paths.append(folder / name)
    return paths


if __name__ == "__main__":
    for p in write_fixtures(Path(sys.argv[1]) if len(sys.argv) > 1 else FOLDER):
        print(f"wrote {p}")
