"""The application layer (mathhammer.app): every query value's JSON round trip is lossless, its
JSON schema takes what ``from_json`` takes, the page's JSON queries and the command line give the
same exact numbers, and the web package imports no command-line module."""

from __future__ import annotations

import ast
import json
from fractions import Fraction
from pathlib import Path

import pytest

from mathhammer.app.queries import (
    QUERIES,
    ArmyList,
    ArmyRead,
    Compare,
    Kills,
    Odds,
    Order,
    Plan,
    Salvo,
    Variant,
    query_from_json,
)
from mathhammer.app.schema import json_schema
from mathhammer.app.setup import Setup, setup_fields
from mathhammer.errors import InputError
from mathhammer.jobs.queries import answer
from mathhammer.model.options import Options

PACKAGE = Path(__file__).resolve().parents[1] / "mathhammer"

#: A setup with every field set to a value other than its default.
FULL = Setup(ranged=False, weapons=("4x Lascannon", "Bolt pistol"), pistols=True,
             attacker_keywords=("VEHICLE",), models=5, target_models=3, leader="Skitarii Marshal",
             detachment="Awakened Dynasty", enhancements=("Veil of Darkness",),
             named_rules=("Oath of Moment",), rules="11e", abilities=("lethal hits",), turns=3,
             reanimation=False,
             engine={"half_range": True, "hit_mod": -1, "reroll_hits": "ones", "crit_hit": 5,
                     "precision": False, "lethal_hits": "always"})

#: One value of each query kind, every field given.
EXAMPLES = [
    Kills(target="MEQ", attacker="army:Cronos", setup=FULL, army=ArmyList(text="Cronos"),
          explain=True),
    Kills(target="5x T4 Sv3+ W2", setup=Setup(weapons=("10x 2 | 3+ | 4 | -1 | 1",))),
    Salvo(units=(Order("Hexmark Destroyer", {"half_range": True}),
                 Order("Necron Warriors", {"named_rules": ["Enslaved Artifice"], "models": 10}),
                 Order("Cronos")),
          target="GEQ", setup=Setup(leader="Skitarii Marshal", engine={"hit_mod": 1}),
          until=Fraction(9, 10)),
    Odds(Kills(target="MEQ", attacker="Cronos"), "exactly", 2, "damage"),
    Odds(Salvo(units=(Order("Cronos"), Order("Cronos")), target="MEQ"), "destroyed", 0),
    Compare(attackers=("Hexmark Destroyer", "Cronos"), targets=("GEQ", "MEQ,TEQ"),
            setup=Setup(named_rules=("Dark Harvest",), engine={"cover": True}),
            army=ArmyList(base64="QQ=="), vs_army=ArmyList(text="Cronos"), defence=True,
            attach=("Captain=Intercessor Squad",), allow_unresolved=True, metric="destroyed",
            by="weapon", ranged=True, melee=True,
            variants=(Variant("--rule Enslaved Artifice", {"named_rules": ["Enslaved Artifice"]}),
                      Variant("+1 to hit", {"hit_mod": 1})), title="Necrons"),
    Plan(units=(Order("Hexmark Destroyer"), Order("army:Cronos", {"half_range": True})),
         targets=("MEQ", "vs:GEQ"), setup=Setup(rules="10e", leader="Skitarii Marshal"),
         army=ArmyList(text="Cronos"), vs_army=ArmyList(text="GEQ"), allow_unresolved=True,
         objective="model-points", points=(("MEQ", 90),), destroy="MEQ",
         probability=Fraction(3, 4), split=True, adaptive=True, budget=500, search_budget=999,
         tries=(Variant("charged", {"charged": True}),), attach=("vs:A=B",),
         reach=("Cronos=MEQ@half",), reach_file="reach.csv"),
    ArmyRead(ArmyList(text="Cronos"), rules="10e", attach=("A=B",), fmt="gw"),
]


@pytest.mark.parametrize("query", EXAMPLES, ids=lambda q: type(q).__name__)
def test_the_json_round_trip_is_lossless(query):
    data = query.to_json()
    text = json.dumps(data)  # plain JSON: no Fraction, enum or tuple left
    again = type(query).from_json(json.loads(text))
    assert again == query
    assert again.to_json() == data
    assert query_from_json(query.KIND, json.loads(text)) == query


def test_every_field_is_in_the_round_trip():
    # a field the JSON forgets would be lost: every field of FULL differs from its default,
    # and each is in its JSON
    import attrs

    data = FULL.to_json()
    for f in attrs.fields(Setup):
        if f.name != "engine":
            assert getattr(FULL, f.name) != f.default and f.name in data, f.name
    assert {k for k, _ in FULL.engine} <= set(data)
    for q in EXAMPLES[0], EXAMPLES[5], EXAMPLES[6]:
        for f in attrs.fields(type(q)):
            assert getattr(q, f.name) != f.default, (type(q).__name__, f.name)


@pytest.mark.parametrize("query", EXAMPLES, ids=lambda q: type(q).__name__)
def test_the_schema_takes_what_from_json_takes(query):
    # the schema is of what a face that reads no files sends (no reach_file, no list's path:
    # the command line's only)
    jsonschema = pytest.importorskip("jsonschema")
    schema = json_schema(query.KIND)
    jsonschema.Draft202012Validator.check_schema(schema)
    data = {k: v for k, v in query.to_json().items() if k != "reach_file"}
    jsonschema.validate(data, schema)
    with pytest.raises(jsonschema.ValidationError):
        jsonschema.validate({**data, "half_rnage": True}, schema)
    if isinstance(query, Plan):
        with pytest.raises(jsonschema.ValidationError):
            jsonschema.validate({**data, "army": {"path": "/etc/passwd"}}, schema)


def test_the_schemas_options_are_the_models():
    # one source: each Options field a player sets is an option of a setup, with its help
    import attrs

    by_name = {o["name"]: o for o in setup_fields()}
    for f in attrs.fields(Options):
        if "help" in f.metadata:
            assert by_name[f.name]["help"] in (f.metadata["help"], f.metadata.get("off_help"))
    props = json_schema("kills")["properties"]
    assert props["hit_mod"]["minimum"] == -6 and props["hit_mod"]["maximum"] == 6
    assert props["reroll_hits"]["enum"] == [None, "ones", "failed", "noncrit"]
    assert sorted(QUERIES) == ["army", "compare", "kills", "odds", "plan", "salvo"]


@pytest.mark.parametrize(("kind", "data", "words"), [
    ("kills", {"target": "MEQ", "half_rnage": True}, "unknown parameter 'half_rnage' for kills"),
    ("kills", {"target": "MEQ", "models": 0}, "models: expected a whole number from 1 to 1000"),
    ("kills", {"target": "MEQ", "hit_mod": 7}, "hit_mod: expected an integer from -6 to 6"),
    ("kills", {"target": "MEQ", "weapons": "Lascannon", "models": True}, "models: expected"),
    ("salvo", {"units": [], "target": "MEQ"}, "units: expected at least one attacking unit"),
    ("salvo", {"units": [{"unit": "A", "leader": "B"}], "target": "MEQ"},
     "leader is the query's, not one unit's"),
    ("odds", {"kills": {"target": "MEQ"}, "k": -1}, "k: expected a whole number from 0"),
    ("compare", {"attackers": ["A"], "metric": "fun"}, "metric: expected one of"),
    ("plan", {"units": ["A"], "targets": ["B"], "probability": "2"}, "probability"),
    ("army", {"army": ""}, "army: expected the text of an army list"),
])
def test_a_bad_query_is_one_line_naming_the_field(kind, data, words):
    with pytest.raises(InputError) as e:
        query_from_json(kind, data)
    assert words in str(e.value) and "\n" not in str(e.value)


# --- the page's JSON queries and the command line: the same exact numbers ------------------------


def _page(kind: str, query: dict) -> dict:
    status, body = answer(kind, query)
    assert status == 200, body
    return json.loads(body)


def test_a_kills_query_is_the_command_lines(cli):
    got = _page("kills", {"attacker": "Cronos", "target": "GEQ", "ranged": False, "models": 2,
                          "named_rules": ["Dark Harvest"], "reroll_hits": "ones",
                          "crit_hit": 5})
    want = cli.json("kills", "Cronos", "GEQ", "--melee", "--models", "2", "--rule",
                    "Dark Harvest", "--reroll-hits", "ones", "--crit-hit", "5+", "--json")
    assert got == want
    assert Fraction(got["mean"]["kills"]) > 0


def test_a_salvo_is_the_command_lines(cli):
    # hand-derived too: one shot hitting on 2+ (5/6), wounding T4 on 2+ (5/6), no save, kills
    # the lone model with 25/36; two of them: 1 - (11/36)**2 = 1175/1296
    gun, lone = "1x 1 | 2+ | 8 | -3 | 1", "1x T4 Sv7+ W1"
    got = _page("salvo", {"units": [gun, gun], "target": lone, "until": "90%"})
    want = cli.json("kills", gun, gun, "-t", lone, "--until", "90%", "--json")
    assert got == want and got["destroyed"] == "1175/1296"
    got = _page("salvo", {"units": [{"unit": "Hexmark Destroyer", "half_range": True},
                                    {"unit": "Cronos", "weapons": ["Spirit syphon"]}],
                          "target": "GEQ", "hit_mod": 1})
    want = cli.json("kills", "Hexmark Destroyer --half-range", "Cronos --weapon Spirit syphon",
                    "-t", "GEQ", "--hit-mod", "1", "--json")
    assert got == want


def test_odds_are_the_command_lines(cli):
    got = _page("odds", {"kills": {"attacker": "Hexmark Destroyer", "target": "MEQ",
                                   "half_range": True}, "ask": "at least", "k": 2})
    want = cli.json("odds", "Hexmark Destroyer", "MEQ", "--half-range", "--at-least", "2",
                    "--json")
    assert got == want and got["p"] == "54550000/387420489"


def test_a_comparison_is_the_command_lines(cli):
    got = _page("compare", {"attackers": ["Hexmark Destroyer", "Cronos"],
                            "targets": ["GEQ", "MEQ"], "metric": "destroyed", "by": "weapon",
                            "variants": [{"label": "--hit-mod 1", "hit_mod": 1}]})
    want = cli.json("table", "Hexmark Destroyer", "Cronos", "-t", "GEQ,MEQ", "--metric",
                    "destroyed", "--by", "weapon", "--vary", "--hit-mod 1", "--format", "json")
    assert got == want


def test_a_plan_is_the_command_lines(cli):
    # two guns; X a lone model of 1 wound, Y of 2 wounds: both on X, 1175/1296 (above)
    gun = "1x 1 | 2+ | 8 | -3 | 1"
    got = _page("plan", {"units": [gun, gun], "targets": ["1x T4 Sv7+ W1", "1x T4 Sv7+ W2"],
                         "adaptive": True})
    want = cli.json("plan", gun, gun, "-t", "1x T4 Sv7+ W1", "-t", "1x T4 Sv7+ W2",
                    "--adaptive", "--budget", "2000", "--search-budget", "1000000", "--json")
    assert got["best"]["value"] == "1175/1296"
    for key in want:
        assert got[key] == want[key], key
    units = ["Hexmark Destroyer", {"unit": "Cronos", "named_rules": ["Dark Harvest"]}]
    got = _page("plan", {"units": units, "targets": ["GEQ", "MEQ"], "objective": "models",
                         "tries": [{"label": "--half-range", "half_range": True}]})
    want = cli.json("plan", "Hexmark Destroyer", "Cronos --rule Dark Harvest", "-t", "GEQ",
                    "-t", "MEQ", "--objective", "models", "--try", "--half-range",
                    "--search-budget", "1000000", "--json")
    for key in want:
        assert got[key] == want[key], key


# --- the web is a face of the app, not of the command line ----------------------------------------


def _imports(path: Path) -> list[str]:
    """Every module a file imports, at module level or inside a function, made absolute."""
    package = ".".join(path.relative_to(PACKAGE.parent).with_suffix("").parts[:-1])
    out = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            out += [a.name for a in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = package.rsplit(".", node.level - 1)[0] if node.level else ""
            name = ".".join(x for x in (base, node.module or "") if x)
            out += [name] + [f"{name}.{a.name}" for a in node.names]
    return out


def test_the_web_imports_no_command_line_module():
    # nor does the tool server: the faces are adapters over mathhammer.app, not over each other
    found = {str(p.relative_to(PACKAGE)): [m for m in _imports(p)
                                           if m == "mathhammer.cli" or
                                           m.startswith("mathhammer.cli.")]
             for face in ("web", "mcp", "jobs") for p in (PACKAGE / face).rglob("*.py")}
    assert {k: v for k, v in found.items() if v} == {}
    assert not (PACKAGE / "web" / "command.py").exists()
    # the checker sees an upward import where there is one
    assert "mathhammer.cli.main" in _imports(PACKAGE / "cli" / "serve.py") or \
        "mathhammer.cli" in [m.rsplit(".", 1)[0] for m in _imports(PACKAGE / "cli" / "serve.py")]


def test_the_app_imports_neither_face():
    for p in (PACKAGE / "app").rglob("*.py"):
        bad = [m for m in _imports(p) if m.startswith(("mathhammer.cli", "mathhammer.web"))]
        assert bad == [], p


def test_the_page_sends_no_command_line_syntax():
    # the page's scripts write JSON queries: no "--option" inside a string they send
    scripts = sorted((PACKAGE / "web" / "static").glob("*.js"))
    assert [s.name for s in scripts] == ["app.js", "plan.js"]
    for path in scripts:
        script = path.read_text(encoding="utf-8")
        for flag in ("--weapon", "--rule", "--models", "--half-range", "--melee", "--json"):
            assert flag not in script.replace("--json --full-fractions", ""), (path.name, flag)
    assert "JSON.stringify(query)" in scripts[0].read_text(encoding="utf-8")
