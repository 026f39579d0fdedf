"""How an attack is made, as a player gives it: the phase, the weapons picked, the models, the
target's size and Leader, the named rules, the core rules, and the situational options of
:class:`~mathhammer.model.options.Options` (only those given are kept, so a repeat of a default
is still "given").

One value, one source of option names and help: the command line's options, the page's form
and the JSON of every query read these fields (:func:`setup_fields`).

>>> s = Setup.from_json({"weapons": ["4x Lascannon"], "half_range": True, "models": 5})
>>> s.weapons, s.models, s.engine
(('4x Lascannon',), 5, (('half_range', True),))
>>> Setup.from_json(s.to_json()) == s
True
>>> s.merged({"named_rules": ("Oath of Moment",), "hit_mod": 1}).to_json()["named_rules"]
['Oath of Moment']
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import attrs

from ..errors import InputError, suggest
from ..limits import MAX_MODELS, check_values, over
from ..model.abilities import canonical
from ..model.options import Options

#: The Options fields a player sets (not ``rules``, ``abilities``: fields of :class:`Setup`).
ENGINE = tuple(f.name for f in attrs.fields(Options) if "help" in f.metadata)
_ENGINE_FIELDS = {f.name: f for f in attrs.fields(Options)}
#: Options that take several values and add up when a variant gives more.
REPEATABLE = ("weapons", "named_rules", "abilities", "enhancements", "attacker_keywords")


def _names(name: str):
    def convert(value: Any) -> tuple[str, ...]:
        values = [value] if isinstance(value, str) else value
        if not isinstance(values, list | tuple):
            raise InputError(f"{name}: expected a list of names, got {value!r}")
        check_values(name, len(values))
        out = []
        for v in values:
            if not isinstance(v, str):
                raise InputError(f"{name}: expected a name, got {v!r}")
            if v.strip():
                out.append(v.strip())
        return tuple(out)

    return convert


def _abilities(value: Any) -> tuple[str, ...]:
    return tuple(canonical(a) for a in _names("abilities")(value))


def _count(name: str, lo: int = 1, hi: int = MAX_MODELS):
    def check(_inst: Any, _attr: Any, value: Any) -> None:
        if value is None:
            return
        if isinstance(value, bool) or not isinstance(value, int):
            raise InputError(f"{name}: expected a whole number from {lo} to {hi}, got {value!r}")
        if value > hi and hi == MAX_MODELS:
            raise over(name, value, MAX_MODELS, "MAX_MODELS")
        if not lo <= value <= hi:
            raise InputError(f"{name}: expected a whole number from {lo} to {hi}, got {value!r}")

    return check


def _flag(name: str, optional: bool = False):
    def check(_inst: Any, _attr: Any, value: Any) -> None:
        if value is None and optional:
            return
        if value is not True and value is not False:
            raise InputError(f"{name}: expected true or false, got {value!r}")

    return check


def _text(name: str):
    def check(_inst: Any, _attr: Any, value: Any) -> None:
        if value is not None and not (isinstance(value, str) and value.strip()):
            raise InputError(f"{name}: expected a name, got {value!r}")

    return check


def _engine(value: Any) -> tuple[tuple[str, Any], ...]:
    """The Options given, checked by :meth:`Options.make` (its messages name field and
    value), as sorted (name, value) pairs."""
    items = dict(value)
    for key in items:
        if key not in ENGINE:
            raise InputError(f"unknown option {key!r}; {suggest(key, list(ENGINE))}")
    Options.make(**items)
    return tuple(sorted(items.items()))


def _field(default: Any, help: str, flag: str, **kwargs: Any) -> Any:
    return attrs.field(default=default, metadata={"help": help, "flag": flag}, **kwargs)


@attrs.frozen
class Setup:
    """How an attack is made besides who attacks what. ``rules`` None: the edition of the data
    when it holds one, else 10e (:meth:`with_rules`); ``engine``: the
    :class:`~mathhammer.model.options.Options` fields given, by name."""

    ranged: bool = _field(True, "Which weapons fire: ranged (true, the default) or melee "
                          "(false).", "--ranged/--melee", validator=_flag("ranged"))
    weapons: tuple[str, ...] = _field(
        (), 'Pick a weapon of the attacker by name ("2x Lascannon" or the name twice for two; '
        '"Plasma pistol - supercharge" for one profile), or give an inline row "10x 2 | 3+ | 4 '
        '| -1 | 1 | sustained hits 1".', "--weapon", converter=_names("weapons"))
    pistols: bool = _field(False, "The attacker is within Engagement Range: its models shoot "
                           "only their Pistols (MONSTER and VEHICLE models all their guns).",
                           "--pistols", validator=_flag("pistols"))
    attacker_keywords: tuple[str, ...] = _field(
        (), "A keyword of the models firing inline weapon rows: MONSTER or VEHICLE models fire "
        "Pistols with their other guns.", "--attacker-keyword",
        converter=_names("attacker_keywords"))
    models: int | None = _field(None, "Attacking models.", "--models",
                                validator=_count("models"))
    target_models: int | None = _field(None, "Models in the target (its first model group).",
                                       "--target-models", validator=_count("target_models"))
    leader: str | None = _field(None, "Attach this CHARACTER unit (name, file or inline "
                                "profile) to the target as its Leader.", "--leader",
                                validator=_text("leader"))
    detachment: str | None = _field(None, "Apply this detachment rule to the attacker, its "
                                    "text read from the attacker's catalogue (BattleScribe "
                                    "data).", "--detachment", validator=_text("detachment"))
    enhancements: tuple[str, ...] = _field(
        (), "Give the attacker (its Leader, in an attached unit) this enhancement, its text "
        "read from the attacker's catalogue.", "--enhancement", converter=_names("enhancements"))
    named_rules: tuple[str, ...] = _field(
        (), "Switch on a named rule (stratagem...). See `mathhammer rules`.", "--rule",
        converter=_names("named_rules"))
    rules: str | None = _field(None, "The core rule set (default: the edition of the data when "
                               "it holds one, else 10e).", "--rules", validator=_text("rules"))
    abilities: tuple[str, ...] = _field(
        (), 'Give every weapon an ability, e.g. "lethal hits".', "--ability",
        converter=_abilities)
    turns: int | None = _field(None, "N turns of the same attack, the target's state carried "
                               "from one to the next; Reanimation Protocols between turns for "
                               "a target that has them.", "--turns",
                               validator=_count("turns", 1, 20))
    reanimation: bool | None = _field(
        None, "With turns: reanimate between turns or not (default: if the target has "
        "Reanimation Protocols).", "--reanimation/--no-reanimation",
        validator=_flag("reanimation", optional=True))
    engine: tuple[tuple[str, Any], ...] = attrs.field(default=(), converter=_engine)

    @property
    def ruleset(self) -> str:
        """The core rule set (``rules``, 10e when not resolved yet)."""
        return self.rules or "10e"

    def with_rules(self, data: str | None = None) -> Setup:
        """The setup with ``rules`` resolved (the data's only edition, else 10e) and checked."""
        from ..model.ruleset import load_ruleset

        if self.rules is not None:
            load_ruleset(self.rules)
            return self
        from ..data.store.data_folder import default_edition

        return attrs.evolve(self, rules=default_edition(data))

    def given(self, name: str) -> bool:
        """Whether the Options field ``name`` was given."""
        return name in dict(self.engine)

    def options(self) -> Options:
        """The engine's :class:`~mathhammer.model.options.Options` of the attack."""
        return Options.make(rules=self.ruleset, abilities=self.abilities, **dict(self.engine))

    def merged(self, changes: Mapping[str, Any]) -> Setup:
        """This setup with ``changes`` (a variant's, a unit's own options): repeatable options
        add to these, others replace them."""
        own = {f.name: getattr(self, f.name) for f in attrs.fields(Setup) if f.name != "engine"}
        engine = dict(self.engine)
        for key, value in changes.items():
            if key in ENGINE:
                engine[key] = value
            elif key in REPEATABLE:
                own[key] = own[key] + tuple(_names(key)(value))
            elif key in own:
                own[key] = value
            else:
                raise InputError(f"unknown option {key!r}; {suggest(key, json_keys())}")
        return Setup(**own, engine=engine)

    def to_json(self) -> dict[str, Any]:
        """The setup as a flat JSON object: the fields that differ from the defaults, then the
        Options given."""
        out: dict[str, Any] = {}
        for f in attrs.fields(Setup):
            if f.name == "engine":
                continue
            v = getattr(self, f.name)
            if v != f.default:
                out[f.name] = list(v) if isinstance(v, tuple) else v
        for key, value in self.engine:
            out[key] = list(value) if isinstance(value, tuple) else \
                (value.value if hasattr(value, "value") else value)
        return out

    @classmethod
    def from_json(cls, data: Mapping[str, Any], *, only: tuple[str, ...] | None = None
                  ) -> Setup:
        """The setup of a flat JSON object (:meth:`to_json`); an unknown key is an error
        naming the closest (``only``: the keys allowed, for a query that takes fewer)."""
        return cls().merged(changes_of(data, only=only))


def editions() -> list[str]:
    """The bundled core rule sets (a setup's ``rules``), oldest first.

    >>> editions()
    ['10e', '11e']
    """
    from ..resources import data_dir

    return sorted(p.stem for p in (data_dir("rules") / "core").glob("*.toml"))


def json_keys() -> list[str]:
    """Every key of a setup's JSON: its fields, then the Options fields."""
    return [f.name for f in attrs.fields(Setup) if f.name != "engine"] + list(ENGINE)


def changes_of(data: Mapping[str, Any], *, only: tuple[str, ...] | None = None
               ) -> dict[str, Any]:
    """The options a JSON object gives, each key checked (known, allowed in ``only``).

    >>> changes_of({"half_rnage": True})  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    mathhammer.errors.InputError: unknown option 'half_rnage'; did you mean half_range...
    """
    if not isinstance(data, Mapping):
        raise InputError(f"expected an object of options, got {data!r}")
    keys = json_keys() if only is None else list(only)
    for key in data:
        if key not in keys:
            raise InputError(f"unknown option {key!r}; {suggest(key, keys)}")
    return dict(data)


def setup_fields() -> list[dict[str, Any]]:
    """Every option of a setup as metadata: its JSON name, command-line flag, kind (``bool``,
    ``int``, ``threshold``, ``choice``, ``list``, ``text``), default, range or choices and
    help: read from the fields of :class:`Setup` and :class:`~mathhammer.model.options.Options`
    (no hand-kept list). The command line, the page and a tool server build their options
    from it.

    >>> [o["name"] for o in setup_fields()][:3]
    ['ranged', 'weapons', 'pistols']
    >>> next(o for o in setup_fields() if o["name"] == "hit_mod")["max"]
    6
    """
    out: list[dict[str, Any]] = []
    for f in attrs.fields(Setup):
        if f.name == "engine":
            continue
        kind = ("list" if isinstance(f.default, tuple) else "bool" if f.name in (
            "ranged", "pistols", "reanimation") else "int" if f.name in (
            "models", "target_models", "turns") else "text")
        entry: dict[str, Any] = {"name": f.name, "flag": f.metadata["flag"], "kind": kind,
                                 "default": list(f.default) if isinstance(f.default, tuple)
                                 else f.default, "help": f.metadata["help"]}
        if kind == "int":
            entry |= {"min": 1, "max": 20 if f.name == "turns" else MAX_MODELS}
        out.append(entry)
    for name in ENGINE:
        f = _ENGINE_FIELDS[name]
        meta = f.metadata
        entry = {"name": name, "flag": "--" + name.replace("_", "-"), "help": meta["help"],
                 "default": getattr(f.default, "value", f.default)}
        if "choices" in meta:
            entry |= {"kind": "choice", "choices": [c.value for c in meta["choices"]]}
        elif "range" in meta:
            lo, hi = meta["range"]
            entry |= {"kind": "threshold" if meta["threshold"] else "int", "min": lo, "max": hi}
        else:
            entry["kind"] = "bool"
            if "off_flag" in meta:
                entry |= {"flag": meta["off_flag"], "help": meta["off_help"]}
        out.append(entry)
    return out


__all__ = ["ENGINE", "REPEATABLE", "Setup", "changes_of", "editions", "json_keys",
           "setup_fields"]
