"""The two BattleScribe file formats behind one small interface: XML (10th edition, ``.cat``
and ``.gst``) and JSON (11th edition, ``.json``).

An XML element or a JSON object is a :class:`Node` answering the same four questions
(attribute, child list, child text, own text), so :mod:`.parse` reads both formats alike.
XML is parsed safely (:func:`parse_xml`).

>>> j = JsonNode({"id": "e1", "hidden": True, "profiles": [{"name": "Gauss flayer"}]})
>>> j.get("hidden"), [p.get("name") for p in j.children("profiles")]
('true', ['Gauss flayer'])
>>> x = XmlNode(parse_xml("<e id='e1'><profiles><profile name='Gauss flayer'/></profiles></e>",
...                       "test.cat"))
>>> x.get("id"), [p.get("name") for p in x.children("profiles")]
('e1', ['Gauss flayer'])
"""

from __future__ import annotations

import os
from collections.abc import Sequence
from typing import Literal, Protocol

from ...errors import InputError

XML_SUFFIXES = (".cat", ".gst")
JSON_SUFFIXES = (".json",)
#: the file suffixes of each edition's data (its format: XML for 10e, JSON for 11e)
EDITION_SUFFIXES: dict[Literal["10e", "11e"], tuple[str, ...]] = {"10e": XML_SUFFIXES,
                                                                  "11e": JSON_SUFFIXES}


def edition_of_file(path: str | os.PathLike) -> Literal["10e", "11e"] | None:
    """The edition a BattleScribe data file is of, by its format (None: not a data file).

    >>> edition_of_file("Orks.json"), edition_of_file("x/Necrons.CAT"), edition_of_file("a.txt")
    ('11e', '10e', None)
    """
    suffix = os.path.splitext(str(path))[1].lower()
    return next((e for e, s in EDITION_SUFFIXES.items() if suffix in s), None)


class Node(Protocol):
    """What :mod:`.parse` asks of an XML element or a JSON object."""

    def get(self, key: str) -> str | None: ...
    def children(self, plural: str) -> Sequence[Node]: ...  # a list: XmlNode, _Node
    def lists(self) -> list[str]: ...
    def child_text(self, tag: str) -> str: ...
    def own_text(self) -> str: ...


def local_name(tag: str) -> str:
    """An XML tag without its namespace."""
    return tag.rsplit("}", 1)[-1]


class XmlNode:
    """An XML element seen through the adapter (namespaces ignored)."""

    __slots__ = ("e",)

    def __init__(self, element):
        self.e = element

    def get(self, key: str) -> str | None:
        return self.e.get(key)

    def children(self, plural: str) -> list[XmlNode]:
        for c in self.e:
            if local_name(c.tag) == plural:
                return [XmlNode(x) for x in c if isinstance(x.tag, str)]
        return []

    def lists(self) -> list[str]:
        return [local_name(c.tag) for c in self.e if isinstance(c.tag, str)]

    def child_text(self, tag: str) -> str:
        for c in self.e:
            if local_name(c.tag) == tag:
                return c.text or ""
        return ""

    def own_text(self) -> str:
        return self.e.text or ""


class JsonNode:
    """A JSON object seen through the adapter (``$text`` is the element text)."""

    __slots__ = ("d",)

    def __init__(self, d):
        self.d = d

    def get(self, key: str) -> str | None:
        v = self.d.get(key)
        if v is None or isinstance(v, list | dict):
            return None
        if isinstance(v, bool):
            return "true" if v else "false"
        return str(v)

    def children(self, plural: str) -> list[JsonNode]:
        v = self.d.get(plural)
        return [JsonNode(x) for x in v if isinstance(x, dict)] if isinstance(v, list) else []

    def lists(self) -> list[str]:
        return list(self.d)

    def child_text(self, tag: str) -> str:
        v = self.d.get(tag)
        return v if isinstance(v, str) else ""

    def own_text(self) -> str:
        v = self.d.get("$text")
        return v if isinstance(v, str) else ""


def parse_xml(text: str | bytes, path: str):
    """Parse XML safely: no DTDs, no entity expansion, no external resources."""
    from xml.etree.ElementTree import ParseError

    import defusedxml.ElementTree as SafeET
    from defusedxml import DefusedXmlException

    try:
        return SafeET.fromstring(text, forbid_dtd=True)
    except ParseError as e:
        raise InputError(f"{path}: not a well-formed XML file ({e})") from None
    except DefusedXmlException as e:
        raise InputError(f"{path}: refused unsafe XML ({type(e).__name__})") from None
