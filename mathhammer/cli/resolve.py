"""From a command's options to the library's questions, and its answer to a file: the attack
commands call :func:`mathhammer.report.specs.attacker_of` and
:func:`~mathhammer.report.specs.target_of` with their options here.

>>> target("5x T4 Sv3+ W2", {"target_models": None, "leader": None, "ruleset": "10e"})[1].models
5
"""

from __future__ import annotations

from collections.abc import Iterable
from pathlib import Path
from typing import Any

import attrs
import click

from ..data.attached import target_rules
from ..data.unit_rules import UnitRules
from ..errors import InputError
from ..model.options import Options
from ..model.profiles import Target
from ..model.squad import Squad
from ..report.scenario import Query
from ..report.specs import (
    Attacker,
    attacker_of,
    check_work,
    option_warnings,
    split_rules,
    target_of,
)
from .army import current_data
from .output import (  # check_output, emit: in .output (cli.army uses them), imported from here
    check_output,  # noqa: F401
    emit,  # noqa: F401
    given,
    warn,
)
from .params import options_of

#: What an output file's suffix asks for.
SUFFIX_FORMAT = {".txt": "text", ".md": "md", ".csv": "csv", ".html": "html", ".htm": "html",
                 ".json": "json"}


def attacker(spec: str | None, p: dict[str, Any], *, melee: bool,
             every_weapon: bool = False, against: Target | Squad | None = None) -> Attacker:
    """The attacker ``spec`` names, with the ``--weapon``, ``--models`` and ``--pistols`` of
    ``p``; its weapons chosen against the target ``against`` (MEQ when None)."""
    named = file_rules(p.get("named_rules") or ())
    return attacker_of(spec, p["weapons"], melee=melee, models=p["models"],
                       every_weapon=every_weapon, rules=p["ruleset"], data=current_data(),
                       target=against, options=options_of(p), named_rules=named,
                       pistols=bool(p.get("pistols")),
                       keywords=p.get("attacker_keywords") or (),
                       detachment=p.get("detachment"), enhancements=p.get("enhancements", ()))


def file_rules(names: tuple[str, ...] | list[str]) -> tuple[str, ...]:
    """The named rules from files among ``names`` that change the attack (what weapon choice
    weighs); a unit's own switch or an unknown name is left to :func:`data_rules` and
    :func:`~mathhammer.report.specs.split_rules`, which say so."""
    from ..data.named_rules import find_rule

    out = []
    for name in names:
        try:
            rule = find_rule(name)
        except InputError:
            continue
        if rule.mortal_wounds is None:
            out.append(rule.name)
    return tuple(out)


def target(spec: str, p: dict[str, Any]) -> tuple[str, Target | Squad]:
    """The target ``spec`` names, with the ``--target-models`` and ``--leader`` of ``p``."""
    return target_of(spec, p["target_models"], p["leader"], rules=p.get("ruleset") or "10e",
                     data=current_data())


def target_and_rules(spec: str, p: dict[str, Any]) -> tuple[str, Target | Squad, tuple[Any, ...]]:
    """:func:`target` with the target's rules from data that change attacks against it (its
    own, its Leader's: as ``kills ATTACKER TARGET`` applies them)."""
    name, profile = target(spec, p)
    found = target_rules(spec, p.get("leader"), rules=p.get("ruleset") or "10e",
                         data=current_data())
    return name, profile, found.applied


def warn_options(p: dict[str, Any], options: Options, attacking: Attacker,
                 named: tuple[str, ...] | None = None) -> None:
    """Warn about the options of ``p`` (made into ``options``) that change nothing for this
    attacker (``named``: the named rules from files, when some --rule names a unit's switch),
    and what the attacker's notes say (a Leader that cannot lead this unit)."""
    for text in option_warnings(options, p["named_rules"] if named is None else named,
                                attacking, lethal_asked=p.get("lethal_hits") is not None):
        warn(text)
    for text in attacking.notes:
        warn(text)


def data_rules(p: dict[str, Any], attacking: Attacker, target_spec: str
               ) -> tuple[UnitRules, tuple[str, ...]]:
    """The rules from data of both sides, with the switches ``--rule`` names switched on (as
    ``applied``), and the other ``--rule`` names (named rules from files)."""
    found = attacking.rules + target_rules(target_spec, p.get("leader"),
                                           rules=p.get("ruleset") or "10e",
                                           data=current_data())
    return switch_on(found, p["named_rules"])


def switch_on(found: UnitRules, names: Iterable[str], elsewhere: UnitRules | None = None
              ) -> tuple[UnitRules, tuple[str, ...]]:
    """The rules from data ``found`` with the switches ``--rule`` ``names`` name switched on
    (as ``applied``), and the other names (named rules from files; a switch of ``elsewhere``,
    another unit of the same list, is left out: this unit goes without it)."""
    switched, rest = [], []
    for name in names:
        rules = found.named(name)
        if not rules:
            why = found.refusal(name)
            if why is not None:
                if elsewhere is None:  # one unit: it is another unit's rule, said
                    raise InputError(why)
                continue  # a list's row: this unit goes without it
            offered = found.offered(name)  # a rule another unit gives this one
            rules = (offered,) if offered is not None else ()
        if not rules and (elsewhere is None or (elsewhere.switch(name) is None and
                                                elsewhere.refusal(name) is None and
                                                elsewhere.offered(name) is None)):
            rest.append(name)
        switched += [r for r in rules if r not in switched]
    return attrs.evolve(found, applied=found.applied + tuple(switched)), tuple(rest)


def build_query(args: tuple[str, ...], p: dict[str, Any]) -> Query:
    """The query of ``kills`` and ``odds``: ATTACKER TARGET (or TARGET alone, with inline
    ``--weapon`` rows) and the options."""
    from ..data.inline import is_inline_weapon

    if len(args) == 2:
        attacker_spec, target_spec = args
    elif len(args) == 1 and any(is_inline_weapon(w) for w in p["weapons"]):
        attacker_spec, target_spec = None, args[0]
    else:
        raise click.UsageError(f"expected ATTACKER and TARGET, got {len(args)} argument"
                               f"{'s' * (len(args) != 1)}")
    if p.get("reanimation") is not None and p.get("turns") is None:
        flag = "--reanimation" if p["reanimation"] else "--no-reanimation"
        raise click.UsageError(f"{flag}: only with --turns N")
    name, defending = target(target_spec, p)
    attacking = attacker(attacker_spec, p, melee=not p["ranged"], against=defending)
    found, rest = data_rules(p, attacking, target_spec)
    named, mortal = split_rules(rest)
    options = options_of(p)
    if attacking.led:
        options = attrs.evolve(options, led=True)
    if p.get("pistols") and not p["ranged"]:
        warn("--pistols has no effect with --melee: Pistols are ranged weapons")
    if not attacking.profiles and attacking.left_out:
        raise InputError(f"{attacking.label}: no weapon fires: "
                         + "; ".join(x.text for x in attacking.left_out))
    warn_options(p, options, attacking, rest)
    check_work(attacking.profiles, defending, p["ruleset"])
    return Query(attacking.label, attacking.profiles, name, defending, options, named,
                 attacking.profile, mortal, p.get("turns"), p.get("reanimation"),
                 left_out=attacking.left_out, unit_rules=found.applied,
                 not_modelled=found.not_modelled, switches_off=switches_off(found))


def switches_off(found: UnitRules) -> tuple[str, ...]:
    """The names of the switches of a query's units not switched on (its own, its target's,
    then their stratagems), each once."""
    on = {r.name for r in found.applied}
    return tuple(dict.fromkeys(r.name for r in found.switches + found.stratagems
                               if r.name not in on))


def check_suffix(path: Path | None, fmt: str) -> None:
    """Warn when the output file's suffix names another format than the one written."""
    named = SUFFIX_FORMAT.get(path.suffix.lower()) if path is not None else None
    if named is not None and named != fmt:
        hint = " (add --json)" if named == "json" and fmt == "text" else ""
        warn(f"--output {str(path)!r}: writing {fmt}, though the suffix says {named}{hint}")


def one_edition(*lists: tuple[str, Any]) -> str | None:
    """The edition of the army lists given as ``(how it was given, army)`` pairs (None when
    there is none); lists of two editions are an error: one game is played under one
    edition's rules, and each list's units are its edition's datasheets.

    >>> from types import SimpleNamespace as List
    >>> one_edition(("--army a.txt", List(edition="10e")), ("--vs-army b.txt", None))
    '10e'
    >>> one_edition(("--army a.txt", List(edition="10e")), ("--vs-army b.txt",
    ...                                                     List(edition="11e")))
    ... # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    mathhammer.errors.InputError: --army a.txt is a 10e list and --vs-army b.txt an 11e list: a ...
    """
    listed = [(how, a) for how, a in lists if getattr(a, "edition", None) is not None]
    if not listed:
        return None
    editions = {a.edition for _how, a in listed}
    if len(editions) > 1:
        (h1, a1), (h2, a2) = listed[:2]

        def an(e: str) -> str:
            return f"{'an' if e.startswith(('11', '8')) else 'a'} {e}"

        raise InputError(f"{h1} is {an(a1.edition)} list and {h2} {an(a2.edition)} list: a "
                         "game is played under one edition's rules; give lists of one edition")
    return listed[0][1].edition


def lists_ruleset(ctx: click.Context, p: dict[str, Any], *lists: tuple[str, Any]) -> None:
    """The rule set of a command given army lists (:func:`one_edition`): the lists' edition
    unless ``--rules`` says another (then a warning: the units are the list's edition's
    datasheets, played under the other core rules)."""
    from ..data.datastore import EDITIONS

    edition = one_edition(*lists)
    if edition is None:
        return
    if not given(ctx, "ruleset"):
        p["ruleset"] = edition  # the lists' edition unless --rules says
    elif p["ruleset"] in EDITIONS and p["ruleset"] != edition:  # (a rule-set file: as given)
        how = next(h for h, a in lists if getattr(a, "edition", None) == edition)
        warn(f"--rules {p['ruleset']}: {how} is a list of {edition}; its units are {edition} "
             f"datasheets, played under the {p['ruleset']} core rules")
