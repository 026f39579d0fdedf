"""An API call as a command of the command line, free of any web framework.

An API call's parameters (a query string or a JSON object) become the command's arguments,
checked by the same click parser, and the command runs with ``--json``. So
``/api/kills?attacker=Hexmark+Destroyer&target=MEQ&half_range=true`` answers exactly what
``mathhammer kills "Hexmark Destroyer" MEQ --half-range --json`` prints, and a bad value gets
the same one-line message.

>>> import json
>>> argv = to_argv("odds", {"attacker": ["Hexmark Destroyer"], "target": ["MEQ"],
...                         "half_range": ["true"], "at_least": ["2"]})
>>> argv
['odds', '--json', '--half-range', '--at-least=2', '--', 'Hexmark Destroyer', 'MEQ']
>>> status, body = run_command(argv)
>>> status, json.loads(body)["p"]
(200, '54550000/387420489')
"""

from __future__ import annotations

import contextlib
import io
import json
import re
from collections.abc import Mapping
from typing import Any

import click

from ..cli.main import cli
from ..data.inline import is_inline_target
from ..data.paths import data_dir
from ..errors import InputError, one_line
from ..model.limits import check_values
from .links import check_spec

#: The commands the API runs, each with the output flag that makes it print JSON.
COMMANDS = {"kills": "--json", "odds": "--json", "table": "--format=json"}
#: Options of those commands that the API does not take (files, output shapes); several
#: units into one target are ``then`` (the units after ``attacker``) and ``until``.
_HIDDEN = {"as_json", "plot", "output", "force", "exact", "fmt", "help", "version",
           "full_fractions", "target_unit", "until_p", "tries", "link", "page_url"}
#: How many attacking units the page sends into one target at most (``attacker`` and ``then``).
MAX_UNITS = 12
#: Options of those commands that name a file or a folder: the page reads none on a request's
#: behalf, and the data it uses is the server's (``mathhammer serve --data DIR``).
REFUSED = {
    "data": "the web page reads no files; it uses the data the server was started with "
            "(mathhammer serve --data DIR)",
    "army": "the web page reads no files; paste the list's text (POST /api/army)",
    "vs_army": "the web page reads no files; paste the list's text (POST /api/army)",
}
#: Options of ``--vary`` that read files, by click name (``--rules`` is checked against
#: the bundled rule sets, ``--leader`` as a unit).
_VARY_REFUSED = {"data": "--data"}
_TRUE = {"true", "1", "on", "yes"}
_FALSE = {"false", "0", "off", "no"}


def _command(name: str) -> click.Command:
    if name not in COMMANDS:
        raise InputError(f"unknown command {name!r}; expected one of {', '.join(COMMANDS)}")
    return cli.get_command(None, name)


def _key(opt: click.Option) -> str:
    """The API name of an option: a boolean pair or a negative flag by its field name
    (``ranged``, ``precision``), any other by its long flag (``--half-range``: ``half_range``)."""
    if opt.is_flag and (opt.secondary_opts or opt.flag_value is False):
        return opt.name
    longs = [o for o in opt.opts if o.startswith("--")]
    return longs[0][2:].replace("-", "_")


def parameters(command: str) -> dict[str, click.Option]:
    """The API parameters of a command besides the units, by API name.

    >>> sorted(parameters("kills"))[:4]
    ['ability', 'ap_mod', 'attacker_keyword', 'attacks_mod']
    """
    return {_key(p): p for p in _command(command).params
            if isinstance(p, click.Option) and p.name not in _HIDDEN}


def _positional(command: str) -> dict[str, bool]:
    """The unit parameters of a command: name -> may be repeated."""
    return {"attacker": True} if command == "table" else {"attacker": False, "target": False}


def value_list(raw: Any) -> list[Any]:
    if raw is None:
        return []
    return list(raw) if isinstance(raw, list | tuple) else [raw]


def as_bool(key: str, value: Any) -> bool:
    if isinstance(value, bool):
        return value
    text = str(value).strip().lower()
    if text in _TRUE or text == "":
        return True
    if text in _FALSE:
        return False
    raise InputError(f"{key}: expected true or false, got {value!r}")


def check_unit(key: str, spec: str) -> str:
    """One of several attacking units as ``kills A B -t T`` reads it: a unit's name or an
    inline profile, then its own options (``"Devastator Squad --half-range --weapon 4x
    Lascannon"``), checked as ``vary`` is (no option that reads a file).

    >>> check_unit("then", "Cronos --rules house.toml")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    mathhammer.errors.InputError: then 'Cronos --rules house.toml': --rules: expected one of...
    """
    from ..cli.plan import split_spec

    name, extra = split_spec(str(spec))
    check_spec(key, name)
    if extra:
        try:
            check_vary(extra)
        except InputError as e:
            raise InputError(f"{key} {spec!r}: {str(e).split(': ', 1)[1]}") from None
    return str(spec)


def check_targets(text: str) -> str:
    """A ``targets`` value as ``table`` will read it (an inline profile, or names separated by
    commas), each target checked by :func:`check_spec`.

    >>> check_targets("MEQ, secret.toml")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    mathhammer.errors.InputError: targets 'secret.toml': the web page reads no files; give a ...
    """
    text = str(text)
    if is_inline_target(text.strip()):
        return check_spec("targets", text)
    for part in text.split(","):
        if part.strip():
            check_spec("targets", part)
    return text


def check_vary(text: str) -> str:
    """A ``vary`` value without an option that reads a file: ``--data``, ``--rules`` other than
    a bundled rule set, a ``--leader`` that is not a unit's name or inline profile.

    >>> check_vary("--rules house.toml")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    mathhammer.errors.InputError: vary '--rules house.toml': --rules: expected one of 10e, 11e...
    """
    from ..cli.table import vary_args

    for name, flag, value in vary_args(str(text)):
        if name in _VARY_REFUSED:
            raise InputError(f"vary {text!r}: {flag}: {REFUSED[name]}")
        if name == "ruleset" and value not in editions():
            raise InputError(f"vary {text!r}: {flag}: expected one of {', '.join(editions())}, "
                             f"got {value!r}")
        if name == "leader" and value is not None:
            check_spec(f"vary {text!r}: {flag}", value)
    return str(text)


def editions() -> list[str]:
    """The bundled core rule sets (``--rules``), oldest first.

    >>> editions()
    ['10e', '11e']
    """
    return sorted(p.stem for p in (data_dir("rules") / "core").glob("*.toml"))


def to_argv(command: str, params: Mapping[str, Any]) -> list[str]:
    """The command line for an API call: ``params`` maps API names to a value or a list of
    values (strings as in a query string, or JSON values). Units go after ``--`` and option
    values after ``=``, so no value is read as an option."""
    opts = parameters(command)
    units = _positional(command)
    argv = [command, COMMANDS[command]]
    tail: list[str] = []
    for key, raw in params.items():  # every array bounded before any value is read
        check_values(key, len(value_list(raw)))
    several = command != "table" and bool(value_list(params.get("then")))
    if several:  # kills A B C -t TARGET: the units in order into one target
        firsts = [v for v in value_list(params.get("attacker")) if str(v).strip()]
        if len(firsts) != 1:
            raise InputError("attacker: expected the first attacking unit (then: the others)")
        specs = [*firsts, *(v for v in value_list(params["then"]) if str(v).strip())]
        if len(specs) > MAX_UNITS:
            raise InputError(f"then: {len(specs)} attacking units into one target; the page "
                             f"takes at most {MAX_UNITS}")
        tail = [check_unit("attacker" if i == 0 else "then", v) for i, v in enumerate(specs)]
        for v in value_list(params.get("target")):
            argv.append(f"--target={check_spec('target', v)}")
    for key, raw in params.items():
        values = value_list(raw)
        if key in REFUSED:
            raise InputError(f"{key}: {REFUSED[key]}")
        if several and key in ("attacker", "then", "target"):
            continue
        if key == "until" and command == "kills":
            if not several:
                raise InputError("until: with several attacking units (then) only")
            if values:
                argv.append(f"--until={values[0]}")
            continue
        if key in units:
            if len(values) > 1 and not units[key]:
                raise InputError(f"{key}: given {len(values)} times, expected once")
            tail += [check_spec(key, v) for v in values if str(v).strip()]
            continue
        opt = opts.get(key)
        if opt is None:
            extra = ["then", *(["until"] if command == "kills" else [])]
            known = ", ".join(sorted(k for k in [*units, *opts, *extra] if k not in REFUSED))
            raise InputError(f"unknown parameter {key!r} for {command}; known: {known}")
        if not values:
            continue
        if len(values) > 1 and not opt.multiple:
            raise InputError(f"{key}: given {len(values)} times, expected once")
        flag = next(o for o in opt.opts if o.startswith("--"))
        if opt.is_flag:
            on = as_bool(key, values[0])
            if opt.secondary_opts:
                argv.append(flag if on else opt.secondary_opts[0])
            elif on != (opt.flag_value is False):
                argv.append(flag)
            continue
        for v in values:
            text = str(v)
            if key == "leader":
                text = check_spec(key, text)
            elif key == "targets":
                text = check_targets(text)
            elif key == "vary":
                text = check_vary(text)
            if key == "rules" and text not in editions():
                raise InputError(f"rules: expected one of {', '.join(editions())}, got {text!r}")
            argv.append(f"{flag}={text}")
    if command == "table" and not tail:
        raise InputError("attacker: expected at least one attacker")
    if command != "table" and "target" not in params:
        raise InputError("target: expected a unit's name or an inline profile")
    if command != "table" and len(tail) == 1 and "attacker" in params and not several:
        raise InputError("target: expected a unit's name or an inline profile")
    return argv + ["--", *tail]


def _with_warnings(out: str, err: str) -> str:
    """The command's JSON with the warnings it printed (a guess said out loud: a Leader that
    cannot lead the unit, a rule not modelled...) as ``warnings``, one line each."""
    warnings = [x.strip() for x in err.splitlines() if "warning:" in x]
    if not warnings:
        return out
    try:
        data = json.loads(out)
    except ValueError:
        return out
    if not isinstance(data, dict):
        return out
    data["warnings"] = warnings
    return json.dumps(data, indent=2, ensure_ascii=False) + "\n"


def run_command(argv: list[str]) -> tuple[int, str]:
    """Run a command line in this process: ``(200, its output)``, or ``(400, the one-line
    error)`` as the command prints it, or ``(500, one line)`` for a fault of mathhammer.

    Output is captured by swapping ``sys.stdout``, so call it where nothing else prints (a
    worker process)."""
    out, err = io.StringIO(), io.StringIO()
    try:
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
            cli.main(argv, prog_name="mathhammer", standalone_mode=True)
        code = 0
    except SystemExit as e:
        code = e.code if isinstance(e.code, int) else 1
    except (ValueError, TypeError) as e:
        return 400, f"mathhammer {argv[0]}: error: {one_line(e)}"
    except Exception as e:  # a bug: one line, no traceback to the page
        return 500, f"mathhammer {argv[0]}: internal error: {type(e).__name__}: {one_line(e)}"
    if code == 0:
        return 200, _with_warnings(out.getvalue(), err.getvalue())
    lines = [x for x in err.getvalue().splitlines() if x.strip()]
    return 400, (lines[-1] if lines else f"mathhammer {argv[0]}: error (exit status {code})")


_INVALID = re.compile(r"Invalid value for '--([\w-]+)'(?: / '-\w')?: ")
_PREFIX = re.compile(r"^mathhammer(?: \w+)?: error: ")
_SEE_HELP = re.compile(r"(?<!\s)\s*\(see mathhammer \w+ --help\)")
_FLAG = re.compile(r"(?<![\w-])--(?:no-)?([a-z][\w-]*)")


def page_words(line: str) -> str:
    """An error line of the command line in the page's words: the field as the form names it,
    the value and what is allowed, without flags or ``--help`` hints.

    >>> page_words("mathhammer kills: error: Invalid value for '--models' / '-m': expected a "
    ...            "number of models >= 1, got '0' (see mathhammer kills --help)")
    "models: expected a number of models >= 1, got '0'"
    >>> page_words("mathhammer: error: --pistols has no effect with --melee")
    'pistols has no effect with melee'
    """
    text = _SEE_HELP.sub("", _PREFIX.sub("", line.strip()))
    text = _INVALID.sub(lambda m: f"{m.group(1).replace('-', ' ')}: ", text)
    return _FLAG.sub(lambda m: m.group(1).replace("-", " "), text)


def call(command: str, params: Mapping[str, Any]) -> tuple[int, str]:
    """An API call from its parameters (see :func:`to_argv`, :func:`run_command`)."""
    try:
        argv = to_argv(command, params)
    except ValueError as e:
        return 400, f"mathhammer {command}: error: {one_line(e)}"
    return run_command(argv)


def parsed_params(command: str, params: Mapping[str, Any]) -> dict[str, Any]:
    """The command's options as click parses them (the same checks and messages)."""
    argv = to_argv(command, params)
    return cli.get_command(None, command).make_context(command, argv[1:]).params


__all__ = ["COMMANDS", "MAX_UNITS", "REFUSED", "as_bool", "call", "check_spec", "check_targets",
           "check_unit", "check_vary", "editions", "page_words", "parameters", "parsed_params",
           "run_command", "to_argv", "value_list"]
