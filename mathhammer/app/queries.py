"""The questions a player asks, as small frozen values: a kills query, odds of one, several
units into one target (a salvo), a comparison table, the plan of a phase and an army list's
reading. Each is built from what a player names (unit names, inline profiles, the rows of a
pasted list), has a lossless JSON form (``to_json`` / ``from_json``; its JSON schema is
:mod:`mathhammer.app.schema`'s), and is answered by :mod:`mathhammer.app.answer`.

Why one module: the six values are read alike (their fields' readers are :mod:`.parts`'), and
side by side a face sees every question it may ask; split, each would be a few dozen lines.

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

from fractions import Fraction
from typing import Any, ClassVar

import attrs

from ..engine.plan import ADAPTIVE_BUDGET, Objective
from ..engine.search import BUDGET as SEARCH_BUDGET
from ..errors import InputError
from ..limits import check_values
from .grids import METRICS, RowsBy
from .parts import (
    PER_UNIT,
    ArmyList,
    Order,
    Variant,
    army_of,
    attach_of,
    check_keys,
    flag_of,
    fraction_of,
    names_of,
    no_turns,
    number_of,
    object_of,
    orders_of,
    reach_of,
    setup_of,
    text_of,
)
from .scenario import Ask, Counter
from .setup import Setup, json_keys

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
        data = object_of(data, "kills")
        check_keys(data, cls.OWN, "kills")
        return cls(target=text_of(data, "target", required=True),
                   attacker=text_of(data, "attacker", required="attacker" in data),
                   setup=setup_of(data, cls.OWN), army=army_of(data, "army"),
                   explain=flag_of(data, "explain"))


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
        no_turns(self.setup, "several units into one target (one sequence already)")

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"units": [u.to_json() for u in self.units], "target": self.target}
        if self.until is not None:
            out["until"] = str(self.until)
        return out | self.setup.to_json()

    @classmethod
    def from_json(cls, data: Any) -> Salvo:
        data = object_of(data, "salvo")
        check_keys(data, cls.OWN, "salvo")
        until = data.get("until")
        return cls(units=orders_of(data, "units"), target=text_of(data, "target", required=True),
                   setup=setup_of(data, cls.OWN),
                   until=None if until is None else fraction_of(until, "until"))


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
        data = object_of(data, "odds")
        check_keys(data, ("kills", "salvo", "ask", "k", "counter"), "odds", setup=())
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
        return cls(query, ask, number_of(data, "k", 1, 0, 10**6) if "k" in data else
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
        data = object_of(data, "compare")
        check_keys(data, cls.OWN, "compare", setup=cls.SETUP)
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
        return cls(attackers=names_of(data, "attackers"), targets=names_of(data, "targets"),
                   setup=setup_of(data, cls.OWN, cls.SETUP), army=army_of(data, "army"),
                   vs_army=army_of(data, "vs_army"), defence=flag_of(data, "defence"),
                   attach=attach_of(data),
                   allow_unresolved=flag_of(data, "allow_unresolved"), metric=metric, by=by,
                   ranged=flag_of(data, "ranged"), melee=flag_of(data, "melee"),
                   variants=tuple(Variant.from_json(v, only=VARY_KEYS) for v in variants),
                   title=title)


#: What a comparison's variant may change (not the columns: they are every row's).
VARY_KEYS = tuple(k for k in Compare.SETUP if k not in ("target_models", "leader"))


@attrs.frozen
class Plan:
    """``mathhammer plan``: which of ``units`` (names with their own options, ``army:<row>``;
    every unit of ``army`` when none of them is one of its rows) shoots which of ``targets``
    (names, ``vs:<row>``; every unit of ``vs_army`` likewise), every assignment evaluated
    exactly; ``tries``: plan again with each variant's options."""

    KIND: ClassVar[str] = "plan"
    OWN: ClassVar[tuple[str, ...]] = ("units", "targets", "army", "vs_army", "allow_unresolved",
                                      "objective", "points", "destroy", "probability", "split",
                                      "adaptive", "budget", "search_budget", "tries",
                                      "attach", "reach", "reach_file")
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
    #: the exact search's steps (engine.search): beyond, the best found and its gap
    search_budget: int = SEARCH_BUDGET
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
        data = object_of(data, "plan")
        check_keys(data, cls.OWN, "plan", setup=cls.SETUP)
        objective = data.get("objective")
        if objective is not None and objective not in {o.value for o in Objective}:
            raise InputError(f"objective: expected one of "
                             f"{', '.join(o.value for o in Objective)}, got {objective!r}")
        points = object_of(data.get("points", {}), "points")
        for name, n in points.items():
            if isinstance(n, bool) or not isinstance(n, int) or not 0 <= n <= 100_000:
                raise InputError(f"points {name!r}: expected a whole number of points, got "
                                 f"{n!r}")
        tries = data.get("tries", ())
        if not isinstance(tries, list | tuple):
            raise InputError(f"tries: expected a list of objects, got {tries!r}")
        check_values("tries", len(tries))
        return cls(units=orders_of(data, "units"), targets=names_of(data, "targets"),
                   setup=setup_of(data, cls.OWN, cls.SETUP), army=army_of(data, "army"),
                   vs_army=army_of(data, "vs_army"),
                   allow_unresolved=flag_of(data, "allow_unresolved"), objective=objective,
                   points=tuple(points.items()), destroy=text_of(data, "destroy"),
                   probability=fraction_of(data.get("probability", "0.9"), "probability"),
                   split=flag_of(data, "split"), adaptive=flag_of(data, "adaptive"),
                   budget=number_of(data, "budget", ADAPTIVE_BUDGET, 1, 1_000_000),
                   search_budget=number_of(data, "search_budget", SEARCH_BUDGET, 1, 10**9),
                   tries=tuple(Variant.from_json(t, only=PER_UNIT) for t in tries),
                   attach=attach_of(data), reach=reach_of(data),
                   reach_file=text_of(data, "reach_file"))


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
        data = object_of(data, "army")
        check_keys(data, ("army", "rules", "attach", "fmt"), "army", setup=())
        army = army_of(data, "army")
        if army is None:
            raise InputError("army: expected the text of an army list, or an uploaded file")
        return cls(army, text_of(data, "rules"), attach_of(data), text_of(data, "fmt"))


#: Every query value, by its kind.
QUERIES: dict[str, Any] = {q.KIND: q for q in (Kills, Salvo, Odds, Compare, Plan, ArmyRead)}


def query_from_json(kind: str, data: Any) -> Any:
    """The query of kind ``kind`` (``kills``, ``salvo``, ``odds``, ``compare``, ``plan``,
    ``army``) from its JSON.

    >>> query_from_json("salvo", {"units": ["Cronos", "Cronos"], "target": "MEQ"}).units[1]
    Order(unit='Cronos', changes=())
    """
    if kind not in QUERIES:
        raise InputError(f"unknown query {kind!r}; expected one of {', '.join(QUERIES)}")
    return QUERIES[kind].from_json(data)


__all__ = ["QUERIES", "ArmyList", "ArmyRead", "Compare", "Kills", "Odds", "Order", "Plan",
           "Salvo", "VARY_KEYS", "Variant", "query_from_json"]
