"""The questions a player asks, as small frozen values: a kills query, odds of one, several
units into one target (a salvo), a comparison table, the plan of a phase and an army list's
reading. Each is built from what a player names (unit names, inline profiles, the rows of a
pasted list), has a lossless JSON form (``to_json`` / ``from_json``; :func:`json_schema`
describes it), and is answered by :mod:`mathhammer.app.answer`.

>>> q = Kills(attacker="Hexmark Destroyer", target="MEQ",
...           setup=Setup.from_json({"half_range": True}))
>>> q.to_json()
{'attacker': 'Hexmark Destroyer', 'target': 'MEQ', 'half_range': True}
>>> Kills.from_json(q.to_json()) == q
True
>>> Odds.from_json({"kills": q.to_json(), "ask": "at least", "k": 2}).k
2
"""

from __future__ import annotations

from collections.abc import Mapping
from fractions import Fraction
from typing import Any, ClassVar

import attrs

from ..engine.plan import ADAPTIVE_BUDGET, Objective
from ..errors import InputError, suggest
from ..model.limits import check_values
from ..report.scenario import Ask, Counter
from ..report.tables import METRICS, RowsBy
from .setup import Setup, changes_of, json_keys, setup_fields

# --- helpers of the JSON forms -----------------------------------------------------------------


def _object(data: Any, what: str) -> Mapping[str, Any]:
    if not isinstance(data, Mapping):
        raise InputError(f"{what}: expected a JSON object, got {type(data).__name__}")
    return data


def _str(data: Mapping[str, Any], key: str, default: Any = None, *, required: bool = False
         ) -> Any:
    value = data.get(key, default)
    if value is None:
        if required:
            raise InputError(f"{key}: expected a unit's name or an inline profile")
        return default
    if not isinstance(value, str):
        raise InputError(f"{key}: expected text, got {value!r}")
    if required and not value.strip():
        raise InputError(f"{key}: expected a unit's name or an inline profile, got ''")
    return value.strip() if required else value


def _bool(data: Mapping[str, Any], key: str, default: bool = False) -> bool:
    value = data.get(key, default)
    if value is not True and value is not False:
        raise InputError(f"{key}: expected true or false, got {value!r}")
    return value


def _int(data: Mapping[str, Any], key: str, default: Any, lo: int, hi: int) -> Any:
    value = data.get(key, default)
    if value is None or value is default:
        return value
    if isinstance(value, bool) or not isinstance(value, int) or not lo <= value <= hi:
        raise InputError(f"{key}: expected a whole number from {lo} to {hi}, got {value!r}")
    return value


def _strs(data: Mapping[str, Any], key: str) -> tuple[str, ...]:
    value = data.get(key, ())
    values = [value] if isinstance(value, str) else value
    if not isinstance(values, list | tuple) or not all(isinstance(v, str) for v in values):
        raise InputError(f"{key}: expected a list of names, got {value!r}")
    check_values(key, len(values))
    return tuple(v.strip() for v in values if v.strip())


def _keys(data: Mapping[str, Any], own: tuple[str, ...], what: str,
          setup: tuple[str, ...] | None = None) -> None:
    """Every key of ``data`` is one of the query's own or of its setup's (``setup``: those a
    query takes, default all)."""
    known = [*own, *(json_keys() if setup is None else setup)]
    for key in data:
        if key not in known:
            raise InputError(f"unknown parameter {key!r} for {what}; {suggest(key, known)}")


def _setup_of(data: Mapping[str, Any], own: tuple[str, ...],
              setup: tuple[str, ...] | None = None) -> Setup:
    return Setup.from_json({k: v for k, v in data.items() if k not in own}, only=setup)


def _fraction(value: Any, key: str) -> Fraction:
    from ..report.planning import parse_probability

    if isinstance(value, Fraction):
        return value
    if not isinstance(value, str | int | float) or isinstance(value, bool):
        raise InputError(f"{key}: expected a probability (0.9, 90% or 9/10), got {value!r}")
    try:
        return parse_probability(str(value))
    except ValueError as e:
        raise InputError(f"{key}: {e}") from None


def _no_units_in_setup(s: Setup, what: str) -> None:
    for key in ("turns", "reanimation"):
        if getattr(s, key) is not None:
            raise InputError(f"{key}: not for {what}")


# --- an army list, as a player gives it ----------------------------------------------------------


@attrs.frozen
class ArmyList:
    """An army list: its text (pasted), an uploaded file's bytes in base64 (``.ros``, ``.rosz``
    or text) or a file's path (the command line only: the page reads no files)."""

    text: str | None = None
    base64: str | None = None
    path: str | None = None

    def __attrs_post_init__(self) -> None:
        given = [k for k in ("text", "base64", "path") if getattr(self, k) is not None]
        if len(given) != 1:
            raise InputError("army: expected the text of an army list, or an uploaded file")
        value = getattr(self, given[0])
        if not isinstance(value, str) or not value.strip():
            raise InputError("army: expected the text of an army list, or an uploaded file")

    @property
    def where(self) -> str:
        """How the list is named in messages: its path, or how it was given."""
        return self.path if self.path is not None else "army"

    def to_json(self) -> Any:
        if self.text is not None:
            return self.text
        return {"base64": self.base64} if self.base64 is not None else {"path": self.path}

    @classmethod
    def from_json(cls, data: Any) -> ArmyList:
        """``"text"``, ``{"base64": ...}`` or ``{"path": ...}``.

        >>> ArmyList.from_json({"base64": "QQ=="}).base64
        'QQ=='
        """
        if isinstance(data, str):
            return cls(text=data)
        if isinstance(data, Mapping) and len(data) == 1 and next(iter(data)) in (
                "base64", "path") and isinstance(next(iter(data.values())), str):
            return cls(**data)
        raise InputError("army: expected the text of an army list, or an uploaded file")


def _army(data: Mapping[str, Any], key: str) -> ArmyList | None:
    return None if data.get(key) is None else ArmyList.from_json(data[key])


# --- one unit's own options ------------------------------------------------------------------

#: Options of one unit of a salvo or a plan can not be: they are the query's (the target's).
NOT_PER_UNIT = ("rules", "target_models", "leader", "turns", "reanimation")
PER_UNIT = tuple(k for k in json_keys() if k not in NOT_PER_UNIT)


@attrs.frozen
class Order:
    """One attacking unit of a salvo or a plan: its name (a unit, inline rows, or ``army:`` and
    a row of the army list) and its own options, added to the query's.

    >>> o = Order.from_json({"unit": "Devastator Squad", "half_range": True})
    >>> o.to_json(), Order.from_json("Cronos").to_json()
    ({'unit': 'Devastator Squad', 'half_range': True}, 'Cronos')
    """

    unit: str
    changes: tuple[tuple[str, Any], ...] = attrs.field(default=(), converter=lambda v: tuple(
        sorted((k, tuple(x) if isinstance(x, list) else x) for k, x in dict(v).items())))

    def setup(self, shared: Setup) -> Setup:
        """The unit's setup: the query's with its own options."""
        return shared.merged(dict(self.changes))

    def to_json(self) -> Any:
        if not self.changes:
            return self.unit
        return {"unit": self.unit} | {k: list(v) if isinstance(v, tuple) else v
                                      for k, v in self.changes}

    @classmethod
    def from_json(cls, data: Any) -> Order:
        if isinstance(data, str):
            if not data.strip():
                raise InputError("units: expected a unit's name or an inline profile, got ''")
            return cls(data.strip())
        data = _object(data, "units")
        unit = _str(data, "unit", required=True)
        rest = {k: v for k, v in data.items() if k != "unit"}
        for key in rest:
            if key in NOT_PER_UNIT:
                raise InputError(f"attacker {unit!r}: {key} is the query's, not one unit's; "
                                 "give it once, outside the attacker")
        changes = changes_of(rest, only=PER_UNIT)
        Setup().merged(changes)  # every value checked now
        return cls(unit, changes)


def _orders(data: Mapping[str, Any], key: str) -> tuple[Order, ...]:
    value = data.get(key, ())
    if not isinstance(value, list | tuple):
        value = [value]
    check_values(key, len(value))
    return tuple(Order.from_json(v) for v in value)


@attrs.frozen
class Variant:
    """A variant of a comparison's rows or a plan (``--vary``, ``--try``): its label and the
    options it adds.

    >>> Variant.from_json({"label": "+1 to hit", "hit_mod": 1}).changes
    (('hit_mod', 1),)
    """

    label: str
    changes: tuple[tuple[str, Any], ...] = attrs.field(default=(), converter=lambda v: tuple(
        sorted((k, tuple(x) if isinstance(x, list) else x) for k, x in dict(v).items())))

    def to_json(self) -> dict[str, Any]:
        return {"label": self.label} | {k: list(v) if isinstance(v, tuple) else v
                                        for k, v in self.changes}

    @classmethod
    def from_json(cls, data: Any, only: tuple[str, ...] | None = None) -> Variant:
        data = _object(data, "variant")
        rest = {k: v for k, v in data.items() if k != "label"}
        changes = changes_of(rest, only=only)
        Setup().merged(changes)
        label = data.get("label")
        if label is None:
            label = ", ".join(f"{k}={v}" for k, v in sorted(changes.items()))
        if not isinstance(label, str):
            raise InputError(f"variant: label: expected text, got {label!r}")
        return cls(label, changes)


# --- the queries -------------------------------------------------------------------------------


@attrs.frozen
class Kills:
    """``mathhammer kills ATTACKER TARGET``: one attacker (a unit, inline rows, or ``None``
    with inline rows in ``setup.weapons``; ``army:<row>`` a unit of ``army``) against one
    target (or ``army:<row>``), once or over ``setup.turns``."""

    KIND: ClassVar[str] = "kills"
    OWN: ClassVar[tuple[str, ...]] = ("attacker", "target", "army", "explain")

    target: str
    attacker: str | None = None
    setup: Setup = Setup()
    army: ArmyList | None = None
    #: each rule from data applied, with its exact contribution
    explain: bool = False

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {}
        if self.attacker is not None:
            out["attacker"] = self.attacker
        out["target"] = self.target
        if self.army is not None:
            out["army"] = self.army.to_json()
        if self.explain:
            out["explain"] = True
        return out | self.setup.to_json()

    @classmethod
    def from_json(cls, data: Any) -> Kills:
        data = _object(data, "kills")
        _keys(data, cls.OWN, "kills")
        return cls(target=_str(data, "target", required=True),
                   attacker=_str(data, "attacker", required="attacker" in data),
                   setup=_setup_of(data, cls.OWN), army=_army(data, "army"),
                   explain=_bool(data, "explain"))


@attrs.frozen
class Salvo:
    """``mathhammer kills A B C -t TARGET``: several units into one target, in order, its state
    carried; ``until``: the fewest units that destroy it with at least this probability."""

    KIND: ClassVar[str] = "salvo"
    OWN: ClassVar[tuple[str, ...]] = ("units", "target", "until")

    units: tuple[Order, ...]
    target: str
    setup: Setup = Setup()
    until: Fraction | None = None

    def __attrs_post_init__(self) -> None:
        if not self.units:
            raise InputError("units: expected at least one attacking unit")
        _no_units_in_setup(self.setup, "several units into one target (one sequence already)")

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"units": [u.to_json() for u in self.units], "target": self.target}
        if self.until is not None:
            out["until"] = str(self.until)
        return out | self.setup.to_json()

    @classmethod
    def from_json(cls, data: Any) -> Salvo:
        data = _object(data, "salvo")
        _keys(data, cls.OWN, "salvo")
        until = data.get("until")
        return cls(units=_orders(data, "units"), target=_str(data, "target", required=True),
                   setup=_setup_of(data, cls.OWN),
                   until=None if until is None else _fraction(until, "until"))


@attrs.frozen
class Odds:
    """``mathhammer odds``: one exact probability of a kills query or a salvo: of at least,
    exactly or at most ``k`` of ``counter``, or of the target destroyed."""

    KIND: ClassVar[str] = "odds"

    query: Kills | Salvo
    ask: Ask = attrs.field(default=Ask.AT_LEAST, converter=Ask)
    k: int = 1
    counter: Counter = attrs.field(default=Counter.KILLS, converter=Counter)

    def __attrs_post_init__(self) -> None:
        if isinstance(self.k, bool) or not isinstance(self.k, int) or self.k < 0:
            raise InputError(f"k: expected a whole number >= 0, got {self.k!r}")
        if self.ask == Ask.DESTROYED and self.counter != Counter.KILLS:
            raise InputError("destroyed is about the whole unit; drop counter")

    def to_json(self) -> dict[str, Any]:
        return {self.query.KIND: self.query.to_json(), "ask": self.ask.value, "k": self.k,
                "counter": self.counter.value}

    @classmethod
    def from_json(cls, data: Any) -> Odds:
        data = _object(data, "odds")
        _keys(data, ("kills", "salvo", "ask", "k", "counter"), "odds", setup=())
        if ("kills" in data) == ("salvo" in data):
            raise InputError("odds: expected the query it is of: kills or salvo (one of them)")
        query: Kills | Salvo = Kills.from_json(data["kills"]) if "kills" in data else \
            Salvo.from_json(data["salvo"])
        ask = data.get("ask", "at least")
        if ask not in {a.value for a in Ask}:
            raise InputError(f"ask: expected one of {', '.join(a.value for a in Ask)}, got "
                             f"{ask!r}")
        counter = data.get("counter", "kills")
        if counter not in {c.value for c in Counter}:
            raise InputError(f"counter: expected one of {', '.join(c.value for c in Counter)}, "
                             f"got {counter!r}")
        return cls(query, ask, _int(data, "k", 1, 0, 10**6) if "k" in data else
                   (0 if ask == Ask.DESTROYED else 1), counter)


@attrs.frozen
class Compare:
    """``mathhammer table``: attackers (rows; or every unit of ``army``) against targets
    (columns; the standard targets when none; or every unit of ``vs_army``), one number per
    cell (``metric``); ``variants``: one more row per attacker each; ``defence``: ``army``'s
    units are the columns."""

    KIND: ClassVar[str] = "compare"
    OWN: ClassVar[tuple[str, ...]] = ("attackers", "targets", "army", "vs_army", "defence",
                                      "attach", "allow_unresolved", "metric", "by", "ranged",
                                      "melee", "variants", "title")
    #: options of a comparison's setup (the phases are ``ranged`` and ``melee``; the turns,
    #: a kills query's)
    SETUP: ClassVar[tuple[str, ...]] = tuple(k for k in json_keys() if k not in (
        "ranged", "turns", "reanimation"))

    attackers: tuple[str, ...] = ()
    targets: tuple[str, ...] = ()
    setup: Setup = Setup()
    army: ArmyList | None = None
    vs_army: ArmyList | None = None
    defence: bool = False
    attach: tuple[str, ...] = ()
    allow_unresolved: bool = False
    metric: str = "kills"
    by: RowsBy = attrs.field(default=RowsBy.UNIT, converter=RowsBy)
    ranged: bool = False
    melee: bool = False
    variants: tuple[Variant, ...] = ()
    title: str = ""

    def __attrs_post_init__(self) -> None:
        if self.metric not in METRICS:
            raise InputError(f"metric: expected one of {', '.join(METRICS)}, got "
                             f"{self.metric!r}")
        if self.defence and self.army is None:
            raise InputError("defence: give the defending army (army)")
        if not self.attackers and self.army is None and not (self.defence and self.vs_army):
            raise InputError("attackers: expected at least one attacker, or an army list")
        if self.allow_unresolved and not (self.army or self.vs_army):
            raise InputError("allow_unresolved: give the army list (army or vs_army)")

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {}
        for f in attrs.fields(Compare):
            v = getattr(self, f.name)
            if f.name == "setup" or v == f.default:
                continue
            if isinstance(v, ArmyList):
                v = v.to_json()
            elif f.name == "variants":
                v = [x.to_json() for x in v]
            elif isinstance(v, tuple):
                v = list(v)
            elif f.name == "by":
                v = v.value
            out[f.name] = v
        return out | self.setup.to_json()

    @classmethod
    def from_json(cls, data: Any) -> Compare:
        data = _object(data, "compare")
        _keys(data, cls.OWN, "compare", setup=cls.SETUP)
        variants = data.get("variants", ())
        if not isinstance(variants, list | tuple):
            raise InputError(f"variants: expected a list of objects, got {variants!r}")
        check_values("variants", len(variants))
        by = data.get("by", "unit")
        if by not in {b.value for b in RowsBy}:
            raise InputError(f"by: expected one of {', '.join(b.value for b in RowsBy)}, got "
                             f"{by!r}")
        title = data.get("title", "")
        if not isinstance(title, str):
            raise InputError(f"title: expected text, got {title!r}")
        metric = data.get("metric", "kills")
        return cls(attackers=_strs(data, "attackers"), targets=_strs(data, "targets"),
                   setup=_setup_of(data, cls.OWN, cls.SETUP), army=_army(data, "army"),
                   vs_army=_army(data, "vs_army"), defence=_bool(data, "defence"),
                   attach=_strs(data, "attach"),
                   allow_unresolved=_bool(data, "allow_unresolved"), metric=metric, by=by,
                   ranged=_bool(data, "ranged"), melee=_bool(data, "melee"),
                   variants=tuple(Variant.from_json(v, only=_VARY) for v in variants),
                   title=title)


#: What a comparison's variant may change (not the columns: they are every row's).
_VARY = tuple(k for k in Compare.SETUP if k not in ("target_models", "leader"))


@attrs.frozen
class Plan:
    """``mathhammer plan``: which of ``units`` (names with their own options, ``army:<row>``;
    every unit of ``army`` when none of them is one of its rows) shoots which of ``targets``
    (names, ``vs:<row>``; every unit of ``vs_army`` likewise), every assignment evaluated
    exactly; ``tries``: plan again with each variant's options."""

    KIND: ClassVar[str] = "plan"
    OWN: ClassVar[tuple[str, ...]] = ("units", "targets", "army", "vs_army", "allow_unresolved",
                                      "objective", "points", "destroy", "probability", "split",
                                      "adaptive", "budget", "tries", "attach", "reach",
                                      "reach_file")
    SETUP: ClassVar[tuple[str, ...]] = tuple(k for k in json_keys() if k not in (
        "turns", "reanimation"))

    units: tuple[Order, ...] = ()
    targets: tuple[str, ...] = ()
    setup: Setup = Setup()
    army: ArmyList | None = None
    vs_army: ArmyList | None = None
    allow_unresolved: bool = False
    objective: Objective | None = attrs.field(
        default=None, converter=lambda v: None if v is None else Objective(v))
    #: targets' points, for targets without them: (name, points) pairs
    points: tuple[tuple[str, int], ...] = ()
    destroy: str | None = None
    probability: Fraction = Fraction(9, 10)
    split: bool = False
    adaptive: bool = False
    budget: int = ADAPTIVE_BUDGET
    tries: tuple[Variant, ...] = ()
    attach: tuple[str, ...] = ()
    reach: tuple[str, ...] = ()
    reach_file: str | None = None

    def __attrs_post_init__(self) -> None:
        if not self.units and self.army is None:
            raise InputError("units: expected the attacking units, or an army list")
        if not self.targets and self.vs_army is None:
            raise InputError("targets: expected the targets, or the enemy's list")
        if self.allow_unresolved and not (self.army or self.vs_army):
            raise InputError("allow_unresolved: give the army list (army or vs_army)")

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {}
        for f in attrs.fields(Plan):
            v = getattr(self, f.name)
            if f.name == "setup" or v == f.default:
                continue
            if isinstance(v, ArmyList):
                v = v.to_json()
            elif f.name in ("units", "tries"):
                v = [x.to_json() for x in v]
            elif f.name == "points":
                v = dict(v)
            elif f.name == "objective":
                v = v.value
            elif f.name == "probability":
                v = str(v)
            elif isinstance(v, tuple):
                v = list(v)
            out[f.name] = v
        return out | self.setup.to_json()

    @classmethod
    def from_json(cls, data: Any) -> Plan:
        data = _object(data, "plan")
        _keys(data, cls.OWN, "plan", setup=cls.SETUP)
        objective = data.get("objective")
        if objective is not None and objective not in {o.value for o in Objective}:
            raise InputError(f"objective: expected one of "
                             f"{', '.join(o.value for o in Objective)}, got {objective!r}")
        points = _object(data.get("points", {}), "points")
        for name, n in points.items():
            if isinstance(n, bool) or not isinstance(n, int) or not 0 <= n <= 100_000:
                raise InputError(f"points {name!r}: expected a whole number of points, got "
                                 f"{n!r}")
        tries = data.get("tries", ())
        if not isinstance(tries, list | tuple):
            raise InputError(f"tries: expected a list of objects, got {tries!r}")
        check_values("tries", len(tries))
        return cls(units=_orders(data, "units"), targets=_strs(data, "targets"),
                   setup=_setup_of(data, cls.OWN, cls.SETUP), army=_army(data, "army"),
                   vs_army=_army(data, "vs_army"),
                   allow_unresolved=_bool(data, "allow_unresolved"), objective=objective,
                   points=tuple(points.items()), destroy=_str(data, "destroy"),
                   probability=_fraction(data.get("probability", "0.9"), "probability"),
                   split=_bool(data, "split"), adaptive=_bool(data, "adaptive"),
                   budget=_int(data, "budget", ADAPTIVE_BUDGET, 1, 1_000_000),
                   tries=tuple(Variant.from_json(t, only=PER_UNIT) for t in tries),
                   attach=_strs(data, "attach"), reach=_strs(data, "reach"),
                   reach_file=_str(data, "reach_file"))


@attrs.frozen
class ArmyRead:
    """``mathhammer army FILE``: an army list read and resolved against the data, with each
    row's rules from data."""

    KIND: ClassVar[str] = "army"

    army: ArmyList
    rules: str | None = None
    attach: tuple[str, ...] = ()
    fmt: str | None = None

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"army": self.army.to_json()}
        if self.rules is not None:
            out["rules"] = self.rules
        if self.attach:
            out["attach"] = list(self.attach)
        if self.fmt is not None:
            out["fmt"] = self.fmt
        return out

    @classmethod
    def from_json(cls, data: Any) -> ArmyRead:
        data = _object(data, "army")
        _keys(data, ("army", "rules", "attach", "fmt"), "army", setup=())
        army = _army(data, "army")
        if army is None:
            raise InputError("army: expected the text of an army list, or an uploaded file")
        return cls(army, _str(data, "rules"), _strs(data, "attach"), _str(data, "fmt"))


#: Every query value, by its kind.
QUERIES: dict[str, type] = {q.KIND: q for q in (Kills, Salvo, Odds, Compare, Plan, ArmyRead)}


def query_from_json(kind: str, data: Any) -> Any:
    """The query of kind ``kind`` (``kills``, ``salvo``, ``odds``, ``compare``, ``plan``,
    ``army``) from its JSON.

    >>> query_from_json("salvo", {"units": ["Cronos", "Cronos"], "target": "MEQ"}).units[1]
    Order(unit='Cronos', changes=())
    """
    if kind not in QUERIES:
        raise InputError(f"unknown query {kind!r}; expected one of {', '.join(QUERIES)}")
    return QUERIES[kind].from_json(data)


# --- JSON schemas ------------------------------------------------------------------------------

_TYPES = {"bool": {"type": "boolean"}, "int": {"type": "integer"},
          "threshold": {"type": "integer"}, "text": {"type": "string"},
          "list": {"type": "array", "items": {"type": "string"}}}


def _option_schema(o: dict[str, Any]) -> dict[str, Any]:
    out = dict(_TYPES.get(o["kind"], {}))
    if o["kind"] == "choice":
        out = {"enum": [*([None] if o["default"] is None else []), *o["choices"]]}
    if "min" in o:
        out |= {"minimum": o["min"], "maximum": o["max"]}
    if o["name"] in ("models", "target_models", "turns", "leader", "detachment", "rules",
                     "reanimation"):
        out = {"anyOf": [out, {"type": "null"}]}
    return out | {"description": o["help"], "default": o["default"]}


def setup_schema(keys: tuple[str, ...] | None = None) -> dict[str, dict[str, Any]]:
    """The JSON schema of a setup's keys (``keys``: those a query takes)."""
    return {o["name"]: _option_schema(o) for o in setup_fields()
            if keys is None or o["name"] in keys}


_UNIT = {"type": "string", "description": "A unit's name (a unique prefix is enough), "
         "\"Faction:Unit\" of the BattleScribe data, an inline profile (\"5x T4 Sv3+ W2\") or "
         "weapon rows (\"10x 2 | 3+ | 4 | -1 | 1\"), or army:<row> of the army list"}
_ARMY = {"anyOf": [{"type": "string", "description": "the list's text"},
                   {"type": "object", "properties": {"base64": {"type": "string"}},
                    "required": ["base64"], "additionalProperties": False}],
         "description": "An army list: its text, or an uploaded file as {\"base64\": ...}"}
_NAMES = {"type": "array", "items": {"type": "string"}}


def _orders_schema() -> dict[str, Any]:
    return {"type": "array", "items": {"anyOf": [_UNIT, {
        "type": "object", "properties": {"unit": _UNIT, **setup_schema(PER_UNIT)},
        "required": ["unit"], "additionalProperties": False}]},
        "description": "The attacking units in order, each a name or {\"unit\": name, and its "
                       "own options}"}


def _variant_schema(keys: tuple[str, ...]) -> dict[str, Any]:
    return {"type": "array", "items": {"type": "object", "properties": {
        "label": {"type": "string"}, **setup_schema(keys)}, "additionalProperties": False}}


def json_schema(kind: str) -> dict[str, Any]:
    """The JSON schema (draft 2020-12) of a query's JSON: what ``from_json`` takes. Read from
    the values' fields and the options' metadata (:func:`~mathhammer.app.setup.setup_fields`),
    so it cannot drift from them.

    >>> s = json_schema("kills")
    >>> s["required"], s["properties"]["half_range"]["type"]
    (['target'], 'boolean')
    >>> sorted(json_schema("odds")["properties"])
    ['ask', 'counter', 'k', 'kills', 'salvo']
    """
    def obj(props: dict[str, Any], required: list[str], doc: str) -> dict[str, Any]:
        return {"$schema": "https://json-schema.org/draft/2020-12/schema", "title": kind,
                "description": doc, "type": "object", "properties": props,
                "required": required, "additionalProperties": False}

    def doc(cls: type) -> str:
        return " ".join((cls.__doc__ or "").split())

    if kind == "kills":
        return obj({"attacker": _UNIT, "target": _UNIT, "army": _ARMY,
                    "explain": {"type": "boolean", "default": False}, **setup_schema()},
                   ["target"], doc(Kills))
    if kind == "salvo":
        return obj({"units": _orders_schema(), "target": _UNIT,
                    "until": {"type": "string", "description": "0.9, 90% or 9/10"},
                    **setup_schema(tuple(k for k in json_keys()
                                         if k not in ("turns", "reanimation")))},
                   ["units", "target"], doc(Salvo))
    if kind == "odds":
        inner = {k: {key: v for key, v in json_schema(k).items() if key != "$schema"}
                 for k in ("kills", "salvo")}
        return obj({**inner, "ask": {"enum": [a.value for a in Ask], "default": "at least"},
                    "k": {"type": "integer", "minimum": 0, "default": 1},
                    "counter": {"enum": [c.value for c in Counter], "default": "kills"}},
                   [], doc(Odds) + " Give one of kills or salvo.")
    if kind == "compare":
        return obj({"attackers": _NAMES, "targets": _NAMES, "army": _ARMY, "vs_army": _ARMY,
                    "defence": {"type": "boolean"}, "attach": _NAMES,
                    "allow_unresolved": {"type": "boolean"},
                    "metric": {"enum": list(METRICS), "default": "kills"},
                    "by": {"enum": [b.value for b in RowsBy], "default": "unit"},
                    "ranged": {"type": "boolean"}, "melee": {"type": "boolean"},
                    "variants": _variant_schema(_VARY), "title": {"type": "string"},
                    **setup_schema(Compare.SETUP)}, [], doc(Compare))
    if kind == "plan":
        return obj({"units": _orders_schema(), "targets": _NAMES, "army": _ARMY,
                    "vs_army": _ARMY, "allow_unresolved": {"type": "boolean"},
                    "objective": {"enum": [o.value for o in Objective]},
                    "points": {"type": "object", "additionalProperties": {"type": "integer"}},
                    "destroy": {"type": "string"}, "probability": {"type": "string"},
                    "split": {"type": "boolean"}, "adaptive": {"type": "boolean"},
                    "budget": {"type": "integer", "minimum": 1, "maximum": 1_000_000},
                    "tries": _variant_schema(PER_UNIT), "attach": _NAMES, "reach": _NAMES,
                    **setup_schema(Plan.SETUP)}, [], doc(Plan))
    if kind == "army":
        return obj({"army": _ARMY, "rules": {"enum": ["10e", "11e"]}, "attach": _NAMES,
                    "fmt": {"type": "string"}}, ["army"], doc(ArmyRead))
    raise InputError(f"unknown query {kind!r}; expected one of {', '.join(QUERIES)}")


__all__ = ["QUERIES", "ArmyList", "ArmyRead", "Compare", "Kills", "Odds", "Order", "Plan",
           "Salvo", "Variant", "json_schema", "query_from_json", "setup_schema"]
