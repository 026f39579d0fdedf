"""The ``mathhammer`` command line, through click's CliRunner."""

import json
import re
import shlex
import sys
import xml.etree.ElementTree as ET
from fractions import Fraction
from pathlib import Path

import attrs
import pytest

import mathhammer as mh
import mathhammer.cli.attack as attack_commands
import mathhammer.cli.table as table_command
from mathhammer.cli import main as cli_main
from mathhammer.cli.params import ENGINE
from mathhammer.data.typed.inline import parse_target, parse_weapon
from mathhammer.data.units.bundled import load_unit
from mathhammer.engine.attack import models_alive, value_against
from mathhammer.engine.sequence import Attack, MortalWounds, Reanimate, sequence_demise
from mathhammer.mechanics.effects import deadly_demise_wounds
from mathhammer.prob.numbers import readable_fraction

#: weapon choice against MEQ (what mathhammer.loadout chooses without a target)
VS_MEQ = value_against(None)


ROOT = Path(__file__).resolve().parent.parent
# ../shared from a clone, ../../shared from a worktree
BSDATA = next((up / "shared" / "bsdata" / "10e" for up in Path(__file__).resolve().parents[1:]
               if (up / "shared" / "bsdata").is_dir()),
              Path(__file__).resolve().parents[2] / "shared" / "bsdata" / "10e")
COUNTERS = ("attacks", "hits", "wounds", "unsaved", "mortal", "damage", "kills")


def lines_of(text: str) -> list[str]:
    """Each line with its words single-spaced: reports are checked by their words and numbers,
    not by their column spacing."""
    return [" ".join(line.split()) for line in text.splitlines()]


def assert_matches(data: dict, result: mh.Result) -> None:
    """The JSON of ``kills --json`` is exactly the library's result."""
    for name in COUNTERS:
        pmf = getattr(result, name)
        assert {int(k): Fraction(v) for k, v in data["pmf"][name].items()} == dict(pmf), name
        assert Fraction(data["mean"][name]) == pmf.mean(), name
        assert data["mean_float"][name] == float(pmf.mean()), name
    assert Fraction(data["destroyed"]) == result.destroyed
    assert {(s["models"], s["wounds_lost"]): Fraction(s["p"]) for s in data["state"]} == dict(
        result.state)


# --- kills ---------------------------------------------------------------------------------------


def test_quick_start_command(cli):
    # The README's quick start: Hexmark pistols at MEQ. Per attack hit 5/6, wound 2/3 (S6 vs T4),
    # unsaved 2/3 (Sv3+ at AP-2): unsaved ~ Binomial(6, 10/27), kills = unsaved // 2.
    out = cli.ok("kills", "Hexmark Destroyer", "MEQ", "--half-range").stdout
    assert out.startswith("Hexmark Destroyer -> MEQ\nrule set:    10e")
    assert "options: half_range" in lines_of(out)
    assert re.search(r"^    3 +1000000/387420489 +0\.26% +0\.26%", out, re.M)
    assert all(len(line) <= 80 for line in out.splitlines())


def test_kills_json_matches_library_on_bundled_units(cli):
    data = cli.json("kills", "hexmark", "meq", "--half-range", "--json")
    expected = mh.attack(load_unit("Hexmark Destroyer"), load_unit("MEQ"), half_range=True)
    assert_matches(data, expected)
    assert data["pmf"]["kills"]["3"] == "1000000/387420489"  # (10/27)**6
    assert data["attacker"] == "Hexmark Destroyer" and data["target"]["name"] == "MEQ"
    assert data["options"]["half_range"] is True and data["named_rules"] == []


def test_kills_melee(cli):
    # Control stave: 4 attacks, hit 2/3, wound 2/3 (S6 vs T5), TEQ saves on 3+ (2+ at AP-1,
    # better than the 4++): unsaved p = 4/27 per attack. One 3-wound model dies at 3 unsaved:
    # P = 4 * (4/27)**3 * 23/27 + (4/27)**4 = 6144/531441 = 2048/177147.
    data = cli.json("kills", "Skitarii Marshal", "TEQ", "--melee", "--json")
    assert data["mean"]["kills"] == "2048/177147"
    assert data["mean"]["unsaved"] == "16/27"
    assert [w["name"] for w in data["weapons"]] == ["Control stave"]


def test_kills_inline_profiles_match_library(cli):
    row, target = "10x 2 | 3+ | 4 | -1 | 1 | sustained hits 1", "5x T4 Sv3+ W2 INFANTRY"
    data = cli.json("kills", row, target, "--json")
    assert_matches(data, mh.attack(parse_weapon(row), parse_target(target)))
    # per attack: 3/6 ordinary hits, 1/6 criticals worth 2 hits: 20 * 5/6 = 50/3
    assert data["mean"]["hits"] == "50/3"


def test_kills_inline_weapon_option_and_several_rows(cli):
    # One attack at 2+ and one auto-hit, S8 vs T4 (2+), no save, one W1 model:
    # P(survive) = (1 - 5/6 * 5/6) * (1 - 5/6) = 11/36 * 1/6.
    data = cli.json("kills", "--weapon", "1 | 2+ | 8 | 0 | 1; 1 | N/A | 8 | 0 | 1 | torrent",
                    "T4 Sv7+ W1", "--json")
    assert Fraction(data["destroyed"]) == 1 - Fraction(11, 36) / 6
    assert len(data["weapons"]) == 2


def test_kills_weapon_pick_models_and_blast(cli):
    # Two Cronos with spirit vortex only: D6 + 2 (Blast, 10 models) attacks each: 2 * 5.5 = 11.
    data = cli.json("kills", "Cronos", "GEQ", "--weapon", "spirit v", "--models", "2", "--json")
    assert data["mean"]["attacks"] == "11/1"
    assert [(w["name"], w["models"]) for w in data["weapons"]] == [("Spirit vortex", 2)]
    # --target-models sizes the target: 20 warriors, +4 attacks each from Blast
    data = cli.json("kills", "Cronos", "Necron Warriors", "-w", "spirit vortex",
                    "--target-models", "20", "--json")
    assert data["mean"]["attacks"] == "15/2" and data["target"]["models"] == 20


def test_kills_named_rule(cli):
    # Conquering Tyrant at half range: re-roll Hit rolls of 1: P(hit) = 5/6 + 1/6 * 5/6 = 35/36.
    data = cli.json("kills", "Hexmark Destroyer", "MEQ", "--half-range", "--rule",
                    "conquering tyrant", "--json")
    assert data["mean"]["hits"] == "35/6"
    assert data["named_rules"] == ["Protocol of the Conquering Tyrant"]
    expected = mh.attack(load_unit("Hexmark Destroyer"), load_unit("MEQ"), half_range=True,
                         apply=["Protocol of the Conquering Tyrant"])
    assert_matches(data, expected)


@pytest.mark.parametrize(
    "flags, field, value",
    [
        (["--half-range"], "half_range", True), (["--charged"], "charged", True),
        (["--stationary"], "stationary", True), (["--cover"], "cover", True),
        (["--overwatch"], "overwatch", True), (["--led"], "led", True),
        (["--hit-mod", "-1"], "hit_mod", -1), (["--wound-mod", "1"], "wound_mod", 1),
        (["--wound-mod-if-stronger", "-1"], "wound_mod_if_stronger", -1),
        (["--save-mod", "1"], "save_mod", 1), (["--damage-mod", "-1"], "damage_mod", -1),
        (["--ap-mod", "1"], "ap_mod", 1), (["--skill-mod", "1"], "skill_mod", 1),
        (["--strength-mod", "2"], "strength_mod", 2), (["--crit-hit", "5+"], "crit_hit", 5),
        (["--crit-wound", "4"], "crit_wound", 4), (["--crit-wound-ap", "1"], "crit_wound_ap", 1),
        (["--reroll-hits", "ones"], "reroll_hits", "ones"),
        (["--reroll-wounds", "noncrit"], "reroll_wounds", "noncrit"),
        (["--halve-damage"], "halve_damage", True),
        (["--ability", "Lethal Hits", "-a", "sustained hits d3"], "abilities",
         ["lethal hits", "sustained hits D3"]),
        (["--rules", "11e"], "rules", "11e"),
        (["--overwatch", "--overwatch-hits-on", "2+"], "overwatch_hits_on", 2),
        (["--no-precision"], "precision", False),
        (["--lethal-hits", "best"], "lethal_hits", "best"),
    ],
)
def test_engine_flags(cli, flags, field, value):
    data = cli.json("kills", "Hexmark Destroyer", "MEQ", *flags, "--json")
    assert data["options"][field] == value
    opts = {k: v for k, v in data["options"].items()}
    expected = mh.attack(load_unit("Hexmark Destroyer"), load_unit("MEQ"), **opts)
    assert Fraction(data["mean"]["kills"]) == expected.kills.mean()


def test_every_engine_option_has_a_flag():
    flagged = {field for _, field, _ in ENGINE} | {"rules", "abilities"}
    assert set(attrs.fields_dict(mh.Options)) == flagged


def test_flags_change_the_numbers(cli):
    # One attack, 3+ to hit, S4 vs T4 (4+), no save, a W1 model: 2/3 * 1/2 = 1/3 ...
    row, t = "1 | 3+ | 4 | 0 | 1", "T4 Sv7+ W1"
    assert cli.json("kills", row, t, "--json")["mean"]["kills"] == "1/3"
    # ... -1 to hit: 1/2 * 1/2 = 1/4; +1 to wound: 2/3 * 2/3 = 4/9
    assert cli.json("kills", row, t, "--hit-mod", "-1", "--json")["mean"]["kills"] == "1/4"
    assert cli.json("kills", row, t, "--wound-mod", "1", "--json")["mean"]["kills"] == "4/9"
    # re-roll failed hits: (2/3 + 1/3 * 2/3) * 1/2 = 4/9
    assert cli.json("kills", row, t, "--reroll-hits", "failed", "--json")["mean"]["kills"] == "4/9"


def test_kills_squad_targets_and_precision(cli):
    # One auto-hitting Precision attack, S8 vs T4 (2+), no save: it goes to the CHARACTER
    # while one stands, and kills it on 5/6; without Precision the bodyguard takes it.
    sniper = "1 | N/A | 8 | 0 | 1 | torrent, precision"
    squad = "2x T4 Sv7+ W1 INFANTRY + 1x T4 Sv7+ W1 CHARACTER"
    data = cli.json("kills", sniper, squad, "--json")
    assert data["character_destroyed"] == "5/6"
    assert [g["mean"] for g in data["group_kills"]] == ["0/1", "5/6"]
    assert data["state"][0]["groups"][0] == {"models": 2, "wounds_lost": 0}
    assert [len(g["keywords"]) for g in data["target"]["groups"]] == [1, 1]
    data = cli.json("kills", sniper, squad, "--no-precision", "--json")
    assert data["character_destroyed"] == "0/1"
    # --leader attaches a unit or inline profile (made a CHARACTER) to the target
    led = cli.json("kills", sniper, "2x T4 Sv7+ W1", "--leader", "T4 Sv7+ W1", "--json")
    assert led["character_destroyed"] == "5/6"
    assert led["target"]["name"] == "2x T4 Sv7+ W1 + T4 Sv7+ W1"
    out = cli.ok("kills", sniper, squad).stdout
    assert re.search(r"^    group 2 +0\.833  5/6$", out, re.M)
    assert re.search(r"^P\(CHARACTER dead\) +83\.33%  5/6$", out, re.M)
    # a bundled Leader: the Skitarii Marshal joins ten GEQ; Hexmark pistols cannot reach him
    data = cli.json("kills", "Hexmark Destroyer", "GEQ", "--leader", "Skitarii Marshal", "--json")
    assert data["character_destroyed"] == "0/1" and data["mean"]["kills"] == "25/6"


def test_kills_deadly_demise_and_hazardous(cli):
    # 10 attacks at 3+, S6 vs T4 (3+), AP-1 vs Sv3+ (4+): each unsaved with 2/3 * 2/3 * 1/2 =
    # 2/9, D2 against one W2 model: P(survive) = (7/9)**10. Deadly Demise D3 on a 6 when it
    # dies: P(>= 1 mortal wound) = P(destroyed) / 6; five hazard tests, each failing on a 1.
    args = ["5x 2 | 3+ | 6 | -1 | 2 | hazardous", "T4 Sv3+ W2 Deadly Demise D3"]
    data = cli.json("kills", *args, "--json")
    destroyed = 1 - Fraction(7, 9) ** 10
    assert Fraction(data["destroyed"]) == destroyed
    demise = {int(k): Fraction(v) for k, v in data["deadly_demise"]["pmf"].items()}
    assert demise == {0: 1 - destroyed / 6, 1: destroyed / 18, 2: destroyed / 18,
                      3: destroyed / 18}
    assert data["hazard"]["tests"] == 5 and data["hazard"]["kills"] is None
    assert Fraction(data["hazard"]["failed"]["0"]) == Fraction(5, 6) ** 5
    out = cli.ok("kills", *args).stdout
    assert re.search(r"^  P\(at least 1\) +15\.32%  1602154576/10460353203$", out, re.M)
    assert re.search(r"^hazardous \(5 tests, to the attacking unit\):$", out, re.M)
    assert re.search(r"^  P\(any failed\) +59\.81%  4651/7776$", out, re.M)
    assert re.search(r"^  mortal wounds +2\.500  5/2$", out, re.M)


def test_kills_output_file(cli, tmp_path):
    out = tmp_path / "report.txt"
    r = cli.ok("kills", "Hexmark Destroyer", "MEQ", "-o", str(out))
    assert r.stdout == "" and f"wrote {out}" in r.stderr
    assert out.read_text().startswith("Hexmark Destroyer -> MEQ")
    r = cli("kills", "Hexmark Destroyer", "MEQ", "-o", str(out))
    assert r.exit_code == 2 and "already exists; use --force" in r.stderr
    cli.ok("kills", "Hexmark Destroyer", "GEQ", "-o", str(out), "--force")
    assert out.read_text().startswith("Hexmark Destroyer -> GEQ")


def test_kills_on_bundled_units_answers(cli):
    # the whole-process time is measured for the closing notes, never asserted here
    r = cli.ok("kills", "Cronos", "Necron Warriors", "--models", "2", "-w", "spirit v", "-w",
            "spirit s", "--target-models", "20", "--half-range", "--json")
    data = json.loads(r.stdout)
    kills = {int(k): Fraction(p) for k, p in data["pmf"]["kills"].items()}
    assert sum(kills.values()) == 1 and max(kills) <= 20
    assert Fraction(data["mean"]["kills"]) == sum(k * p for k, p in kills.items())


# --- odds --------------------------------------------------------------------------------------


def test_odds_hexmark(cli):
    r = cli.ok("odds", "Hexmark Destroyer", "MEQ", "--half-range", "--at-least", "3")
    assert r.stdout.splitlines()[0] == "P(kills >= 3) = 1000000/387420489 = 0.26%"
    exact = cli.ok("odds", "Hexmark Destroyer", "MEQ", "--half-range", "--at-least", "3", "--exact")
    assert exact.stdout == "1000000/387420489\n"
    # no kills: at most one unsaved wound out of 6 at p = 10/27
    p0 = Fraction(17, 27) ** 6 + 6 * Fraction(10, 27) * Fraction(17, 27) ** 5
    r = cli.ok("odds", "Hexmark Destroyer", "MEQ", "--half-range", "--kills", "0", "--exact")
    assert Fraction(r.stdout.strip()) == p0
    r = cli.ok("odds", "Hexmark Destroyer", "MEQ", "--half-range", "--at-most", "0", "--exact")
    assert Fraction(r.stdout.strip()) == p0


def test_odds_destroy_inline(cli):
    # 4 multi-melta shots at half range, each through on 1/2 * 1/2 (no save at AP-4 vs 3+),
    # D6+2 damage against W10: two through destroy on 2D6 >= 6 (26/36), three on 3D6 >= 4
    # (215/216), four always: 54/256 * 26/36 + 12/256 * 215/216 + 1/256 = 935/4608.
    args = ['2x Multi-melta | 18" | 2 | 4+ | 9 | -4 | D6 | melta 2', "T9 Sv3+ W10 VEHICLE",
            "--half-range", "--destroy"]
    assert cli.ok("odds", *args).stdout.splitlines()[0] == "P(destroyed) = 935/4608 = 20.29%"
    data = json.loads(cli.ok("odds", *args, "--json").stdout)
    assert data["p"] == "935/4608" and data["p_float"] == 935 / 4608
    assert data["query"] == "P(destroyed)"


def test_odds_of_damage_and_json_matches_library(cli):
    args = ["Hexmark Destroyer", "MEQ", "--of", "damage", "--at-least", "2"]
    data = json.loads(cli.ok("odds", *args, "--json").stdout)
    r = mh.attack(load_unit("Hexmark Destroyer"), load_unit("MEQ"))
    assert Fraction(data["p"]) == r.damage.at_least(2)
    assert {int(k): Fraction(v) for k, v in data["pmf"]["damage"].items()} == dict(r.damage)
    assert Fraction(data["mean"]["damage"]) == r.damage.mean()
    assert data["query"] == "P(damage >= 2)"
    assert_matches(data, r)  # --json on odds carries every distribution too


# --- turns and mortal-wound rules (sequences) ---------------------------------------------------


def pmf_of(data: dict) -> dict:
    return {int(k): Fraction(v) for k, v in data.items()}


def assert_timeline(data: dict, t: mh.Timeline) -> None:
    """The JSON of a sequence is exactly the library's timeline."""
    assert [s["label"] for s in data["steps"]] == [step.label for step in t.steps]
    assert [Fraction(s["destroyed"]) for s in data["steps"]] == t.destroyed
    for step, state in zip(data["steps"], t.states[1:], strict=True):
        assert pmf_of(step["models_left"]) == dict(state.map(models_alive))
    assert pmf_of(data["pmf"]["kills"]) == dict(t.kills)
    assert pmf_of(data["pmf"]["models_left"]) == dict(t.models_left)
    assert Fraction(data["mean"]["kills"]) == t.kills.mean()
    assert Fraction(data["destroyed"]) == t.destroyed[-1]


def test_kills_turns_match_library(cli):
    data = cli.json("kills", "Hexmark Destroyer", "Necron Warriors", "--turns", "3", "--json")
    t = mh.turns(load_unit("Hexmark Destroyer"), load_unit("Necron Warriors"), 3)
    assert_timeline(data, t)
    assert data["turns"] == 3 and data["reanimation"] is True
    assert [s["label"] for s in data["steps"]] == ["attack 1", "reanimate", "attack 2",
                                                   "reanimate", "attack 3"]
    # turn 1: each of 6 attacks kills with 5/6 (2+) * 2/3 (S6 vs T4) * 5/6 (Sv4+ at AP-2:
    # saves on 6) = 25/54: 10 - 6 * 25/54 = 65/9 models left; six attacks cannot destroy ten
    assert data["steps"][0]["models_left_mean"] == "65/9"
    assert data["steps"][0]["destroyed"] == "0/1"
    # a destroyed unit stays destroyed: P(destroyed) never falls from step to step
    assert t.destroyed == sorted(t.destroyed) and t.destroyed[-1] > 0
    assert "attack" not in data  # several attacks: no single attack's counters


def test_kills_turns_text(cli):
    out = cli.ok("kills", "Hexmark Destroyer", "Necron Warriors", "--turns", "3").stdout
    lines = out.splitlines()
    assert "turns: 3; reanimation between turns: on (Reanimation Protocols, D3)" in \
        lines_of(out)
    assert "attack 1 0.00% 7.222 0" in lines_of(out)  # 65/9
    assert [line.split()[0] for line in lines if line.startswith("  ") and "%" in line][:5] == [
        "attack", "reanimate", "attack", "reanimate", "attack"]
    t = mh.turns(load_unit("Hexmark Destroyer"), load_unit("Necron Warriors"), 3)
    # the exact value has 30/32 digits: too long for the human report (--json has it)
    n, d = t.destroyed[-1].numerator, t.destroyed[-1].denominator
    assert (len(str(n)), len(str(d))) == (30, 32)
    assert "P(destroyed) 1.55% [30/32 digits]" in lines_of(out)
    left = readable_fraction(t.models_left.mean())
    assert re.search(rf"^  models left +5\.281  {re.escape(left)}$", out, re.M)
    ten = readable_fraction(t.kills.prob(10))
    assert re.search(rf"^   10 +{re.escape(ten)} +1\.55% +1\.55% +#+$", out, re.M)


def test_kills_turns_reanimation_switches(cli):
    hexmark, warriors, meq = (load_unit(n) for n in ("Hexmark Destroyer", "Necron Warriors",
                                                     "MEQ"))
    data = cli.json("kills", "Hexmark Destroyer", "Necron Warriors", "--turns", "2",
                    "--no-reanimation", "--json")
    assert_timeline(data, mh.turns(hexmark, warriors, 2, reanimation=False))
    assert [s["label"] for s in data["steps"]] == ["attack 1", "attack 2"]
    assert data["reanimation"] is False
    # MEQ has no Reanimation Protocols: none by default, forced with --reanimation
    data = cli.json("kills", "Hexmark", "MEQ", "--turns", "2", "--json")
    assert [s["label"] for s in data["steps"]] == ["attack 1", "attack 2"]
    data = cli.json("kills", "Hexmark", "MEQ", "--turns", "2", "--reanimation", "--json")
    assert_timeline(data, mh.turns(hexmark, meq, 2, reanimation=True))
    headers = {flags: cli.ok("kills", "Hexmark", target, "--turns", "2", *flags).stdout
               for target, flags in (("MEQ", ()), ("MEQ", ("--reanimation",)),
                                     ("Necron Warriors", ("--no-reanimation",)))}
    assert "turns:       2; no reanimation (no Reanimation Protocols)\n" in headers[()]
    assert "turns:       2; reanimation between turns: on (D3, switched on)\n" in headers[
        ("--reanimation",)]
    assert "turns:       2; no reanimation (switched off)\n" in headers[("--no-reanimation",)]


def test_kills_turns_one_turn_is_the_attack(cli):
    # --turns 1 is one attack: the same distribution as the plain report
    data = cli.json("kills", "Hexmark Destroyer", "MEQ", "--turns", "1", "--json")
    r = mh.attack(load_unit("Hexmark Destroyer"), load_unit("MEQ"))
    assert pmf_of(data["pmf"]["kills"]) == dict(r.kills)
    assert data["attack"]["mean"]["hits"] == "5/1"  # 6 attacks at 2+
    assert [s["label"] for s in data["steps"]] == ["attack 1"]


def test_kills_turns_squad_target(cli):
    # ten Necron Warriors led by a Hexmark Destroyer, two turns, reanimation between
    args = ["Necron Warriors", "Necron Warriors", "--leader", "Hexmark Destroyer", "--turns",
            "2", "--half-range"]
    data = cli.json("kills", *args, "--json")
    _, squad = mh.target_of("Necron Warriors", leader="Hexmark Destroyer")
    warriors = load_unit("Necron Warriors")
    t = mh.turns(warriors, squad, 2, half_range=True)
    assert_timeline(data, t)
    assert "reanimate" in [s["label"] for s in data["steps"]]
    leader_alive = t.final.map(lambda s: s[1].models)
    assert Fraction(data["character_destroyed"]) == leader_alive.prob(0)
    assert pmf_of(data["group_kills"][1]["pmf"]) == dict(leader_alive.map(lambda m: 1 - m))
    out = cli.ok("kills", *args).stdout
    assert re.search(r"^P\(CHARACTER dead\) ", out, re.M)
    assert re.search(r"^    group 2 ", out, re.M)


def test_kills_mortal_wound_rule_after_the_attack(cli):
    # One auto-hitting S8 attack at two W1 models without save kills one on 5/6 (2+ to
    # wound); then Disintegration Beams: D6 1 -> 0, 2-4 -> 1, 5+ -> 2. Destroyed:
    # 5/6 * 5/6 (>= 1 mortal wound) + 1/6 * 2/6 (2 mortal wounds) = 27/36 = 3/4.
    args = ["1 | N/A | 8 | 0 | 1 | torrent", "2x T4 Sv7+ W1", "--rule", "disintegration beams"]
    data = cli.json("kills", *args, "--json")
    assert data["destroyed"] == "3/4"
    assert data["named_rules"] == []
    assert data["mortal_wound_rules"][0]["name"] == "Disintegration Beams"
    assert data["mortal_wound_rules"][0]["mean"] == "7/6"  # 3/6 * 1 + 2/6 * 2
    assert [s["label"] for s in data["steps"]] == ["attack", "Disintegration Beams"]
    assert [s["destroyed"] for s in data["steps"]] == ["0/1", "3/4"]
    assert data["attack"]["mean"]["kills"] == "5/6"  # the attack's own counters
    # the same through the library: a sequence of the attack, then the roll
    w, target = parse_weapon(args[0]), parse_target(args[1])
    beams = mh.find_rule("Disintegration Beams").mortal_wounds.pmf()
    t = mh.sequence(target, [Attack.make([w]), MortalWounds(beams, label="Disintegration Beams")])
    assert_timeline(data, t)
    out = cli.ok("kills", *args).stdout
    assert "then: Disintegration Beams, mortal wounds D6: 2-4 -> 1, 5+ -> 2" in \
        lines_of(out)
    assert re.search(r"^expected \(attack\) +value  exact$", out, re.M)
    assert re.search(r"^P\(destroyed\) +75\.00%  3/4$", out, re.M)
    assert cli.ok("odds", *args, "--destroy", "--exact").stdout == "3/4\n"


def test_kills_mortal_wound_rule_with_other_rules_and_turns(cli):
    # Conquering Tyrant goes to the attack; Blood-fuelled Cruelty is rolled after each attack
    args = ["Hexmark Destroyer", "Necron Warriors", "--half-range", "--turns", "2",
            "--rule", "Conquering Tyrant", "--rule", "Blood-fuelled Cruelty"]
    data = cli.json("kills", *args, "--json")
    assert data["named_rules"] == ["Protocol of the Conquering Tyrant"]
    hexmark, warriors = load_unit("Hexmark Destroyer"), load_unit("Necron Warriors")
    cruelty = mh.find_rule("Blood-fuelled Cruelty").mortal_wounds.pmf()
    assert cruelty.mean() == Fraction(11, 6)  # 4/6 * 2 + 1/6 * 3
    profiles = hexmark.as_profiles(score=VS_MEQ)
    attack = {"apply": [mh.find_rule("Protocol of the Conquering Tyrant")], "half_range": True}
    t = mh.sequence(warriors, [
        Attack.make(profiles, label="attack 1", **attack),
        MortalWounds(cruelty, label="Blood-fuelled Cruelty"), Reanimate(),
        Attack.make(profiles, label="attack 2", **attack),
        MortalWounds(cruelty, label="Blood-fuelled Cruelty")])
    assert_timeline(data, t)
    assert "\neach turn:   Blood-fuelled Cruelty, mortal wounds D6: 2-5 -> D3, 6 -> 3\n" in cli.ok(
        "kills", *args).stdout


def test_odds_turns_match_library(cli):
    t = mh.turns(load_unit("Hexmark Destroyer"), load_unit("Necron Warriors"), 3)
    args = ["Hexmark Destroyer", "Necron Warriors", "--turns", "3"]
    r = cli.ok("odds", *args, "--at-least", "5")
    p = t.kills.at_least(5)
    # the exact value is too long for the human line (32/32 digits): --exact prints it
    assert len(str(p)) > 30
    assert r.stdout.splitlines()[0] == (f"P(kills >= 5 by the end) = {float(p):.2%} (exact: a "
                                        "fraction of 32/32 digits; --exact or --json prints it)")
    assert cli.ok("odds", *args, "--at-least", "5", "--exact").stdout == f"{p}\n"
    assert r.stdout.splitlines()[1].endswith(
        "named rules: none; 3 turns, reanimation between turns")
    r = cli.ok("odds", *args, "--at-least", "5", "--rule", "Poisoner", "--no-reanimation")
    assert r.stdout.splitlines()[1].endswith(
        "named rules: none; 3 turns, no reanimation; then: Poisoner's Art (every turn)")
    assert cli.ok("odds", *args, "--destroy", "--exact").stdout == f"{t.destroyed[-1]}\n"
    assert Fraction(cli.ok("odds", *args, "--kills", "3", "--exact").stdout) == t.kills.prob(3)
    assert Fraction(cli.ok("odds", *args, "--at-most", "3", "--exact").stdout) == \
        t.kills.at_most(3)
    data = json.loads(cli.ok("odds", *args, "--destroy", "--json").stdout)
    assert data["query"] == "P(destroyed by the end)"
    assert Fraction(data["p"]) == t.destroyed[-1]
    assert_timeline(data, t)


# --- mortal ------------------------------------------------------------------------------------


def test_mortal_named_rule(cli):
    # ten W1 warriors: each mortal wound kills one; Disintegration Beams 0/1/2 on 1/6, 3/6, 2/6
    data = cli.json("mortal", "Necron Warriors", "Disintegration Beams", "--json")
    assert data["pmf"]["kills"] == {"0": "1/6", "1": "1/2", "2": "1/3"}
    assert data["mean"]["kills"] == "7/6" and data["mortal_wounds"]["mean"] == "7/6"
    assert data["rolls"] == [{"label": "Disintegration Beams", "roll": "D6: 2-4 -> 1, 5+ -> 2",
                              "pmf": {"0": "1/6", "1": "1/2", "2": "1/3"}, "mean": "7/6",
                              "mean_float": 7 / 6}]
    out = cli.ok("mortal", "Necron Warriors", "Disintegration Beams").stdout
    assert out.startswith("mortal wounds -> Necron Warriors\ntarget:      10x T4 Sv4+ W1")
    assert "rolls: Disintegration Beams: D6: 2-4 -> 1, 5+ -> 2 (expected 7/6)" in \
        lines_of(out)
    assert re.search(r"^    2 +1/3 +33\.33% +33\.33%  #+$", out, re.M)
    assert not re.search(r"^wounds lost", out, re.M)  # W1: the same as kills, not printed twice


def test_mortal_several_rolls_match_library(cli):
    # D3 then D3 on five W2 models: 2D3 wounds lost (at most 6 of 10), kills = lost // 2:
    # 1 kill on 2 or 3 (1/9 + 2/9), 2 on 4 or 5 (3/9 + 2/9), 3 on 6 (1/9): mean 16/9
    data = cli.json("mortal", "MEQ", "D3", "d3", "--json")
    assert data["pmf"]["kills"] == {"1": "1/3", "2": "5/9", "3": "1/9"}
    assert data["mean"]["kills"] == "16/9" and data["mean"]["wounds_lost"] == "4/1"
    assert [s["label"] for s in data["steps"]] == ["D3", "D3"]
    meq = load_unit("MEQ").as_target()
    t = mh.sequence(meq, [MortalWounds("D3", label="D3"), MortalWounds("D3", label="D3")])
    assert_timeline(data, t)
    out = cli.ok("mortal", "MEQ", "D3", "D3", "Blood-fuelled Cruelty").stdout
    assert re.search(r"^wounds lost +exact +P\(=k\) +P\(>=k\)$", out, re.M)  # W2: printed too


def test_mortal_feel_no_pain_and_leader(cli):
    # 2 mortal wounds, each ignored on 5+ (1/3): lost ~ Binomial(2, 2/3); the wounded W2 model
    # takes the second, so one model dies on (2/3)**2 = 4/9
    data = cli.json("mortal", "5x T4 Sv3+ W2 FNP5+", "2", "--json")
    assert data["pmf"]["wounds_lost"] == {"0": "1/9", "1": "4/9", "2": "4/9"}
    assert data["pmf"]["kills"] == {"0": "5/9", "1": "4/9"}
    # a Leader is allocated mortal wounds last: 3 kill one MEQ and wound the next
    data = cli.json("mortal", "MEQ", "3", "--leader", "T4 Sv3+ W4", "--json")
    assert data["pmf"]["kills"] == {"1": "1/1"} and data["character_destroyed"] == "0/1"
    assert data["state"] == [{"groups": [{"models": 4, "wounds_lost": 1},
                                         {"models": 1, "wounds_lost": 0}], "p": "1/1"}]
    assert cli.json("mortal", "MEQ", "2", "--target-models", "1", "--json")["destroyed"] == "1/1"


def test_mortal_crushing_impact(cli):
    # T1: one D6, 5+ (2/6) one mortal wound to the target, a 1 (1/6) one to the charger
    data = cli.json("mortal", "T4 Sv7+ W1", "--crushing-impact", "1", "--json")
    assert data["destroyed"] == "1/3"
    assert data["crushing_impact"]["to_charger"]["pmf"] == {"0": "5/6", "1": "1/6"}
    out = cli.ok("mortal", "T4 Sv7+ W1", "--crushing-impact", "1").stdout
    lines = lines_of(out)
    at = lines.index("crushing impact (11e stratagem; mortal wounds to the charging model):")
    assert lines[at + 1:at + 3] == ["expected 0.167 1/6", "P(at least 1) 16.67% 1/6"]
    # T8 then a D3, on ten warriors: the library's Crushing Impact marginals, at most 6
    data = cli.json("mortal", "Necron Warriors", "D3", "--crushing-impact", "8", "--json")
    crush = mh.crushing_impact(8)
    enemy, charger = crush.map(lambda x: x[0]), crush.map(lambda x: x[1])
    assert pmf_of(data["crushing_impact"]["to_target"]["pmf"]) == dict(enemy)
    assert pmf_of(data["crushing_impact"]["to_charger"]["pmf"]) == dict(charger)
    assert Fraction(data["crushing_impact"]["to_charger"]["mean"]) == Fraction(8, 6)
    assert Fraction(data["mortal_wounds"]["mean"]) == enemy.mean() + 2
    assert enemy.mean() < Fraction(8, 3)  # 8 dice at 1/3 each, capped at 6
    assert [s["label"] for s in data["steps"]] == ["Crushing Impact", "D3"]
    t = mh.sequence(load_unit("Necron Warriors"), [
        MortalWounds(enemy, label="Crushing Impact"), MortalWounds("D3", label="D3")])
    assert_timeline(data, t)


def test_deadly_demise_over_a_sequence(cli):
    # Two W1 models with Deadly Demise 1: a mortal wound kills one (a 6 on 1/6: 1 mortal
    # wound), it reanimates, the next mortal wound kills one again: Binomial(2, 1/6) in all,
    # though no model is missing at the end
    t = mh.Target(models=2, toughness=4, save=3, wounds=1, abilities=["deadly demise 1"])
    tl = mh.sequence(t, [MortalWounds(1), Reanimate(1), MortalWounds(1)])
    assert dict(sequence_demise(tl)) == dict(mh.PMF.binomial(2, Fraction(1, 6)))
    assert tl.kills.prob(1) == 1
    # without reanimation it is the Deadly Demise of the models missing at the end
    tl = mh.sequence(t, [MortalWounds("D3"), MortalWounds(1)])
    assert sequence_demise(tl) == deadly_demise_wounds(t, tl.states[0].outcomes()[0], tl.final)
    data = cli.json("mortal", "2x T9 Sv3+ W3 Deadly Demise D3 VEHICLE", "D6", "2D6", "--json")
    assert pmf_of(data["deadly_demise"]["pmf"]) == dict(sequence_demise(mh.sequence(
        parse_target("2x T9 Sv3+ W3 Deadly Demise D3 VEHICLE"),
        [MortalWounds("D6"), MortalWounds("2D6")])))


def test_turns_hazardous_and_plot(cli, tmp_path):
    # each attack's Hazardous tests (from full strength), reported once per attack
    args = ["3x 1 | 3+ | 9 | -3 | D6 | hazardous", "T9 Sv3+ W8 VEHICLE", "--turns", "2"]
    out = cli.ok("kills", *args).stdout
    lines = lines_of(out)
    at = lines.index("hazardous (3 tests each attack, to the attacking unit):")
    assert lines[at + 1] == "P(any failed) 42.13% 91/216"  # 1 - (5/6)**3
    assert cli.json("kills", *args, "--json")["hazard"]["tests"] == 3
    pytest.importorskip("matplotlib")
    svg = tmp_path / "turns.svg"
    r = cli.ok("kills", "Hexmark Destroyer", "Necron Warriors", "--turns", "3", "--plot", str(svg))
    assert f"wrote {svg}" in r.stderr and "P(kills = k)" in svg.read_text()


# --- table -------------------------------------------------------------------------------------

SEEDS = ("Hexmark Destroyer", "Cronos", "Skitarii Marshal")


def table_json(cli, *args: str) -> dict:
    return json.loads(cli.ok("table", *args, "--format", "json").stdout)


def test_table_values_match_library(cli):
    data = table_json(cli, *SEEDS, "-t", "GEQ", "-t", "MEQ", "--target", "TEQ")
    assert [r["label"] for r in data["rows"]] == list(SEEDS)
    assert [c["label"] for c in data["columns"]] == ["GEQ", "MEQ", "TEQ"]
    for row in data["rows"]:
        for col, cell in zip(data["columns"], row["values"], strict=True):
            r = mh.attack(load_unit(row["label"]), load_unit(col["label"]))
            assert Fraction(cell["exact"]) == r.kills.mean()
    # Hexmark vs GEQ: 6 attacks, each kills with 5/6 * 5/6 (no save at AP-2 vs 5+) = 25/6
    assert data["rows"][0]["values"][0]["exact"] == "25/6"


@pytest.mark.parametrize(
    "metric, exact",
    [("kills", "25/6"), ("damage", "25/6"), ("kills-per-100pts", "125/21"),
     ("destroyed", None)],
)
def test_table_metrics(cli, metric, exact):
    data = table_json(cli, "Hexmark Destroyer", "--targets", "GEQ", "--metric", metric)
    cell = data["rows"][0]["values"][0]
    if exact:
        assert cell["exact"] == exact  # 25/6 kills per 70 points * 100 = 125/21
    else:  # six attacks cannot destroy ten models
        assert cell["exact"] == "0/1"


def test_a_table_wider_than_the_terminal_wraps_its_columns(cli):
    args = ("table", *SEEDS, "-t", "GEQ", "-t", "MEQ", "-t", "TEQ", "-t", "T4 Sv3+ W2",
            "-t", "T10 Sv3+ W12")
    whole = cli.ok(*args).stdout  # not a terminal: one block
    wrapped = cli.ok(*args, env={"COLUMNS": "60"}).stdout
    table = [line for line in wrapped.split("\n\n")[1:-1] if line.startswith("attacker")]
    assert len(table) >= 2  # at least two blocks of columns
    for block in table:
        assert all(len(line) <= 60 for line in block.splitlines())
        assert [line.split()[0] for line in block.splitlines()[2:]] == \
            [s.split()[0] for s in SEEDS]  # every attacker in every block
    cells = sorted(v for line in whole.splitlines()[4:4 + len(SEEDS)] for v in line.split()
                   if v[0].isdigit())
    got = sorted(v for block in table for line in block.splitlines()[2:]
                 for v in line.split() if v[0].isdigit())
    assert got == cells and cells  # the same numbers, each once
    assert max(map(len, whole.splitlines()[2:3])) > 60


def test_table_destroyed_metric_and_inline_rows(cli):
    # P(destroyed) of one W1 T4 model without save: 1 - (1 - 5/6 * 2/3)**6 = 1 - (4/9)**6
    data = table_json(cli, "Hexmark Destroyer", "1 | 2+ | 4 | 0 | 1", "--targets", "T4 Sv7+ W1",
                      "--metric", "destroyed")
    assert Fraction(data["rows"][0]["values"][0]["exact"]) == 1 - Fraction(4, 9) ** 6
    assert Fraction(data["rows"][1]["values"][0]["exact"]) == Fraction(5, 12)


def test_table_default_targets_are_the_archetypes(cli):
    data = table_json(cli, "Skitarii Marshal")
    labels = [c["label"] for c in data["columns"]]
    assert labels[:4] == ["GEQ", "Necron Warriors", "MEQ", "TEQ"]  # by Toughness
    assert {"Light vehicle", "Heavy vehicle", "Monster", "Knight", "HEQ"} <= set(labels)


def test_table_targets_comma_lists_and_repeats(cli):
    data = table_json(cli, "Cronos", "--targets", "GEQ,MEQ", "-t", "TEQ", "-t",
                      "5x T4 Sv3+ W2 4++")
    assert [c["label"] for c in data["columns"]] == ["GEQ", "MEQ", "TEQ", "5x T4 Sv3+ W2 4++"]


def test_table_by_weapon_both_phases(cli):
    data = table_json(cli, *SEEDS, "--by", "weapon", "--ranged", "--melee", "--targets", "MEQ")
    assert [r["label"] for r in data["rows"]] == [
        "Hexmark Destroyer: 1x Enmitic disintegrator pistols",
        "Hexmark Destroyer: 1x Close combat weapon",
        "Cronos: 1x Spirit syphon", "Cronos: 1x Spirit vortex",  # optional wargear too
        "Cronos: 1x Spirit-leech tentacles",
        "Skitarii Marshal: 1x Mechanicus pistol", "Skitarii Marshal: 1x Control stave",
    ]
    data = table_json(cli, "Cronos", "--ranged", "--melee", "-t", "MEQ")
    labels = [r["label"] for r in data["rows"]]
    assert labels == ["Cronos (ranged)", "Cronos (melee)"]


def test_table_vary(cli):
    data = table_json(cli, "Hexmark Destroyer", "--half-range", "--targets", "GEQ",
                      "--vary", "--rule Enslaved Artifice", "--vary", "--rule Conquering Tyrant",
                      "--vary", "--reroll-hits failed --hit-mod -1")
    labels = [r["label"] for r in data["rows"]]
    assert labels == ["Hexmark Destroyer", "Hexmark Destroyer [--rule Enslaved Artifice]",
                      "Hexmark Destroyer [--rule Conquering Tyrant]",
                      "Hexmark Destroyer [--reroll-hits failed --hit-mod -1]"]
    values = [r["values"][0]["exact"] for r in data["rows"]]
    # plain 25/6; Enslaved Artifice changes nothing without Critical-Hit abilities;
    # re-roll 1s: 6 * 35/36 * 5/6 = 175/36; -1 to hit with re-rolls: 3+ -> 6 * 8/9 * 5/6 = 40/9
    assert values == ["25/6", "25/6", "175/36", "40/9"]
    assert data["rows"][2]["named_rules"] == ["Protocol of the Conquering Tyrant"]
    assert data["rows"][3]["options"] == "half_range, hit_mod=-1, reroll_hits=failed"


def test_table_vary_phase_and_models(cli):
    data = table_json(cli, "Cronos", "-t", "GEQ", "--vary", "--melee", "--vary", "--models 2")
    values = [Fraction(r["values"][0]["exact"]) for r in data["rows"]]
    cronos, geq = load_unit("Cronos"), load_unit("GEQ")
    assert values == [mh.attack(cronos, geq).kills.mean(),
                      mh.attack(cronos, geq, melee=True).kills.mean(),
                      mh.attack(cronos.as_profiles(models=2, score=VS_MEQ), geq).kills.mean()]
    # tentacles: 6 attacks, hit 2/3, Anti-INFANTRY 2+ wounds on 2+, Sv5+ at AP-1 saves on 6:
    # 6 * 2/3 * 5/6 * 5/6 = 25/9 against one-wound models
    assert values[1] == Fraction(25, 9)
    assert data["rows"][2]["points"] == 100


@pytest.mark.parametrize("fmt", ["text", "md", "csv", "html", "json"])
def test_table_every_format(cli, fmt):
    out = cli.ok("table", *SEEDS, "--targets", "GEQ,MEQ", "--format", fmt).stdout
    first_value = {"text": "4.17", "md": "| 4.17 |", "csv": "4.166667", "html": 'title="25/6"',
                   "json": '"exact": "25/6"'}[fmt]
    assert first_value in out
    assert "Skitarii Marshal" in out


def test_table_output_file_format_from_suffix(cli, tmp_path):
    out = tmp_path / "t.html"
    r = cli.ok("table", "Cronos", "-t", "MEQ", "-o", str(out))
    assert r.stdout == "" and out.read_text().startswith("<!DOCTYPE html>")
    r = cli("table", "Cronos", "-t", "MEQ", "-o", str(out))
    assert r.exit_code == 2 and r.stderr.strip().endswith("already exists; use --force to "
                                                           "overwrite it")
    cli.ok("table", "Cronos", "-t", "MEQ", "-o", str(out), "--force", "--format", "csv")
    assert out.read_text().startswith("attacker,MEQ")


def test_table_progress_bar_only_on_a_terminal(cli, monkeypatch):
    args = ["table", *SEEDS, "--by", "weapon", "--ranged", "--melee"]  # 7 rows x 9 targets
    assert cli.ok(*args).stderr == ""
    monkeypatch.setattr(table_command, "stderr_is_tty", lambda: True)
    r = cli.ok(*args)
    assert "computing" in r.stderr and "computing" not in r.stdout


def test_seed_table_by_weapon_has_a_row_per_weapon(cli):
    r = cli.ok("table", *SEEDS, "--by", "weapon", "--ranged", "--melee", "--metric", "damage",
            "--format", "json")
    rows = json.loads(r.stdout)["rows"]
    assert len(rows) > len(SEEDS) and all(row["label"] for row in rows)


# --- units, rules, import, catalogue -----------------------------------------------------------


def test_units(cli):
    out = cli.ok("units").stdout
    assert re.search(r"^Hexmark Destroyer +Necrons +1 x M8 T5 Sv3\+ W5 Ld6\+ OC1  \(70 pts\)$",
                     out, re.M)
    assert re.search(r"^Cronos .*\(1: 55 pts, 2: 100 pts\)$", out, re.M)
    assert re.search(r"^MEQ +Archetypes +5 x T4 Sv3\+ W2$", out, re.M)
    out = cli.ok("units", "--faction", "necrons", "--weapons").stdout
    row = '    Enmitic disintegrator pistols | 18" | 6 | 2+ | 6 | -2 | 1 | pistol, ignores cover'
    assert row in out
    assert "Cronos" not in out
    assert cli.ok("units", "--search", "vehicle").stdout.count("\n") == 2


def test_rules(cli):
    out = cli.ok("rules", "--faction", "necrons").stdout
    assert "Enslaved Artifice (Necrons, stratagem, Obeisance Phalanx): crit_hit=5\n" in out
    out = cli.ok("rules", "--search", "enslaved", "--text").stdout.splitlines()
    assert out[0].startswith("Enslaved Artifice") and "unmodified Hit roll of 5+" in out[1]


PAGE = """Necrons – Hexmark Destroyer
RANGED WEAPONS | RANGE | A | BS | S | AP | D | |
| Enmitic disintegrator pistols [pistol, Ignores Cover] | |||||||
| Enmitic disintegrator pistols [pistol, Ignores Cover] | 18" | 6 | 2+ | 6 | -2 | 1 | |
MELEE WEAPONS | RANGE | A | WS | S | AP | D | |
| Close combat weapon | |||||||
| Close combat weapon | Melee | 4 | 3+ | 5 | 0 | 1 | |
ABILITIES
CORE: Deep Strike, Lone Operative
FACTION: Reanimation Protocols
UNIT COMPOSITION
- 1 Hexmark Destroyer
| 1 model | 70 |
KEYWORDS: INFANTRY, CHARACTER, DESTROYER CULT, HEXMARK DESTROYER
"""


def test_import_page_then_query_the_file(cli, tmp_path):
    page = tmp_path / "page.txt"
    page.write_text(PAGE, encoding="utf-8")
    out = tmp_path / "hexmark.toml"
    r = cli.ok("import", str(page), "-o", str(out), "--statline", "M8 T5 Sv3+ W5 Ld6+ OC1")
    assert f"wrote {out}" in r.stderr
    # the imported file answers like the bundled unit
    mine = cli.json("kills", str(out), "MEQ", "--half-range", "--json")
    bundled = cli.json("kills", "Hexmark Destroyer", "MEQ", "--half-range", "--json")
    assert mine["pmf"] == bundled["pmf"]
    r = cli("import", str(page), "-o", str(out))
    assert r.exit_code == 2 and "already exists; use --force to overwrite it" in r.stderr
    cli.ok("import", str(page), "-o", str(out), "--force", "--statline", "M8 T5 Sv3+ W5 Ld6+ OC1")


@pytest.mark.skipif(not BSDATA.is_dir(), reason="shared BattleScribe data not available")
def test_catalogue_commands(cli, tmp_path):
    cat = str(BSDATA / "Necrons.cat")
    names = cli.ok("catalogue", cat, "--search", "immortal").stdout.splitlines()
    assert "Immortals" in names
    data = cli.json("kills", f"{cat}:Immortals", "MEQ", "--json")
    # 5 Immortals, gauss blasters: 10 attacks at 3+, Lethal Hits, S5 vs T4 (3+), and their
    # datasheet's Implacable Eradication (re-roll a Wound roll of 1, applied from the data):
    # P(wound) of a non-critical hit 2/3 + 1/6 * 2/3 = 7/9; per attack 1/6 + 1/2 * 7/9 = 5/9
    assert data["mean"]["wounds"] == "50/9"
    assert data["unit_rules"] == ["Implacable Eradication"]
    out = tmp_path / "immortals.toml"
    cli.ok("import", "--catalogue", cat, "Immortals", "-o", str(out))
    # the unit file keeps its abilities' text, so its kills apply the same re-roll: 50/9
    # (without it, the plain 1/6 + 1/2 * 2/3 = 1/2 an attack, 5)
    text = out.read_text(encoding="utf-8")
    assert "[[abilities.text]]" in text and 're-roll a Wound roll of 1' in text
    got = cli.json("kills", str(out), "MEQ", "--json")
    assert got["mean"]["wounds"] == "50/9" and got["unit_rules"] == ["Implacable Eradication"]
    # the text edited out of the file: the rule goes with it
    out.write_text(re.sub(r"(?s)\[\[abilities\.text\]\].*?(?=\n\[|\Z)", "", text),
                   encoding="utf-8")
    assert cli.json("kills", str(out), "MEQ", "--json")["mean"]["wounds"] == "5/1"
    # a bad text is one line naming the file and the field
    out.write_text(text.replace('name = "Implacable Eradication"', "name = 3", 1),
                   encoding="utf-8")
    r = cli("kills", str(out), "MEQ")
    assert "abilities.text[" in r.stderr and ".name: expected a non-empty string, got 3" in \
        r.stderr and "Traceback" not in r.stderr


# --- version, help, plot -----------------------------------------------------------------------


def test_version(cli):
    assert cli.ok("--version").stdout == f"mathhammer {mh.__version__}\n"


@pytest.mark.parametrize("command", ["kills", "odds", "mortal", "table", "units", "rules",
                                     "import", "catalogue"])
def test_help_has_an_example(cli, command):
    out = cli.ok(command, "--help").stdout
    assert out.startswith(f"Usage: mathhammer {command}")
    assert re.search(rf"Examples?:\n\s+mathhammer {command}", out) or (
        command == "catalogue" and "mathhammer catalogue Necrons.cat" in out)


def test_top_level_help(cli):
    out = cli.ok("--help").stdout
    for command in ("kills", "odds", "mortal", "table", "units", "rules", "import", "catalogue"):
        assert re.search(rf"^  {command} ", out, re.M)


def test_plot_svg(cli, tmp_path):
    pytest.importorskip("matplotlib")
    out = tmp_path / "kills.svg"
    r = cli.ok("kills", "Hexmark Destroyer", "MEQ", "--half-range", "--plot", str(out))
    assert f"wrote {out}" in r.stderr and r.stdout.startswith("Hexmark Destroyer -> MEQ")
    root = ET.parse(out).getroot()
    assert root.tag.endswith("svg")
    text = out.read_text()
    assert "P(kills = k)" in text and "Hexmark Destroyer" in text


def test_plot_without_matplotlib(cli, monkeypatch, tmp_path):
    monkeypatch.setitem(sys.modules, "matplotlib", None)  # import matplotlib raises ImportError
    r = cli("kills", "Hexmark Destroyer", "MEQ", "--plot", str(tmp_path / "k.png"))
    assert r.exit_code == 2
    assert r.stderr == ("mathhammer: error: plotting needs matplotlib: pip install "
                        "'mathhammer[plot]' (or pip install matplotlib)\n")
    assert not (tmp_path / "k.png").exists()


# --- errors: one line on stderr, exit status 2, no traceback ------------------------------------


def _bad_files(tmp: Path) -> dict[str, str]:
    (tmp / "bad.toml").write_text('name = "X"\nfaction = ', encoding="utf-8")
    (tmp / "latin1.toml").write_bytes(b'name = "\xe9"\n')
    (tmp / "exists.md").write_text("keep me", encoding="utf-8")
    return {"BAD": str(tmp / "bad.toml"), "LATIN": str(tmp / "latin1.toml"),
            "EXISTS": str(tmp / "exists.md"), "MISSING": str(tmp / "missing.txt")}


ERRORS = [
    ("kills Hexmrk MEQ", 'unknown unit "Hexmrk"; did you mean Hexmark Destroyer?'),
    ("kills Hexmark MEQ --target-models 9", "models: expected an integer from 1 to 5 for MEQ"),
    ("kills 'Hexmark Destroyer'", "expected ATTACKER and TARGET, got 1 argument"),
    ("kills", "expected ATTACKER and TARGET, got 0 arguments"),
    ("kills '2 | 3 | 4 | -1 | 1' MEQ", 'weapon "2 | 3 | 4 | -1 | 1": BS/WS "3" (column 2)'),
    ("kills Hexmark '5x T4 Sv3 W2'", 'target "5x T4 Sv3 W2": "Sv3" (token 3)'),
    ("kills Hexmark MEQ --reroll-hits some", "Invalid value for '--reroll-hits': 'some' is not"),
    ("kills Hexmark MEQ --rules 12e", "unknown rule set '12e'; known: 10e, 11e"),
    ("kills Hexmark MEQ --rule 'Enslaved Artiface'",
     "unknown named rule 'Enslaved Artiface'; did you mean Enslaved Artifice?"),
    ("kills Hexmark MEQ --half-rnage", "No such option '--half-rnage'"),
    ("kills Hexmark MEQ --weapon lasgun", 'Hexmark Destroyer has no ranged weapon "lasgun"'),
    ("kills Hexmark MEQ --crit-hit 7", "Invalid value for '--crit-hit': expected 2+ to 6+"),
    ("kills Hexmark MEQ --hit-mod 9", "Invalid value for '--hit-mod'"),
    ("kills Hexmark MEQ --ability fast", "unknown ability 'fast'"),
    ("kills Hexmark MEQ --models 3", "models: expected an integer from 1 to 1"),
    ("kills '1 | 3+ | 4 | 0 | 1' MEQ --models 3", "--models: give inline weapons their models"),
    ("kills BAD MEQ", "bad.toml: invalid TOML"),
    ("kills LATIN MEQ", "latin1.toml: cannot read unit file"),
    ("kills /nonexistent/x.toml MEQ", "no such unit file"),
    ("kills Hexmark MEQ --plot k.txt", "k.txt: expected a file name ending in .png, .svg, .pdf"),
    ("kills Hexmark MEQ --plot EXISTS", "exists.md: already exists; use --force to overwrite it"),
    ("odds Hexmark MEQ", "give exactly one of --at-least K, --kills K, --at-most K, --destroy"),
    ("odds Hexmark MEQ --at-least 1 --destroy", "(got --at-least, --destroy)"),
    ("odds Hexmark MEQ --destroy --of damage", "--destroy is about the whole unit"),
    ("kills Hexmark MEQ --no-reanimation", "--no-reanimation: only with --turns N"),
    ("kills Hexmark MEQ --reanimation", "--reanimation: only with --turns N"),
    ("kills Hexmark MEQ --turns 0", "Invalid value for '--turns': 0 is not in the range"),
    ("kills Hexmark MEQ --turns two", "Invalid value for '--turns': 'two' is not a valid"),
    ("odds Hexmark MEQ --turns 2 --of damage --at-least 1",
     "--of damage: with --turns or a mortal-wound rule only kills"),
    ("odds Hexmark MEQ --rule 'Disintegration Beams' --of hits --at-least 1",
     "--of hits: with --turns or a mortal-wound rule only kills"),
    ("mortal MEQ", "give at least one ROLL"),
    ("mortal", "Missing argument 'TARGET'"),
    ("mortal MEQ 'Enslaved Artifice'",
     "ROLL 'Enslaved Artifice': Enslaved Artifice is not a mortal-wound roll"),
    ("mortal MEQ D7", "ROLL 'D7': neither a dice expression (like D3 or 2) nor a named rule; "
                      "unknown named rule 'D7'"),
    ("mortal MEQ 'Disintegration Beans'", "did you mean Disintegration Beams?"),
    ("mortal Nobody D3", 'unknown unit "Nobody"'),
    ("mortal MEQ D3 -o EXISTS", "exists.md: already exists; use --force to overwrite it"),
    ("mortal MEQ D3 --crushing-impact 0", "Invalid value for '--crushing-impact'"),
    ("mortal '5x T4 Sv3 W2' D3", 'target "5x T4 Sv3 W2": "Sv3" (token 3)'),
    ("table Hexmark -t MEQ --rule 'Disintegration Beams'",
     "--rule 'Disintegration Beams' is a mortal-wound roll: `mathhammer kills` and"),
    ("table Hexmark -t MEQ --vary '--turns 2'", "--vary '--turns 2': No such option '--turns'"),
    ("table Hexmark --targets", "Option '--targets' requires an argument"),
    ("table Hexmark -t ' , '", "--targets: expected at least one target"),
    ("table Hexmark -t MEQ --metric wins", "Invalid value for '--metric': 'wins' is not one of"),
    ("table Hexmark -t MEQ --format pdf", "Invalid value for '--format': 'pdf'"),
    ("table Hexmark -t MEQ --vary '--rule Nope'", "unknown named rule 'Nope'"),
    ("table Hexmark -t MEQ --vary --bogus", "--vary '--bogus': No such option '--bogus'"),
    ("table Hexmark -t MEQ --vary 'rule X'", "expected an option like --rule, got 'rule'"),
    ("table Hexmark -t MEQ -o EXISTS", "exists.md: already exists; use --force to overwrite it"),
    ("table Hexmark -t Nobody", 'unknown unit "Nobody"'),
    ("units --faction orks", "no units match faction 'orks'"),
    ("rules --faction orks", "unknown faction 'orks'; known: Adeptus Mechanicus"),
    ("import MISSING -o out.toml", "missing.txt: cannot read: No such file or directory"),
    ("import MISSING -o EXISTS", "exists.md: already exists; use --force to overwrite it"),
    ("catalogue /nonexistent.cat", "/nonexistent.cat: no such file"),
    ("frobnicate", "No such command 'frobnicate'"),
]


@pytest.mark.parametrize("command, message", ERRORS, ids=[c for c, _ in ERRORS])
def test_errors_are_one_line_with_status_2(cli, command, message, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    files = _bad_files(tmp_path)
    args = [files.get(a, a) for a in shlex.split(command)]
    r = cli(*args)
    assert r.exit_code == 2, (r.stdout, r.stderr, r.exception)
    assert isinstance(r.exception, SystemExit)
    assert r.stdout == ""
    assert r.stderr.count("\n") == 1 and r.stderr.endswith("\n")
    assert re.match(r"^mathhammer( \w+)?: error: ", r.stderr)
    assert message in r.stderr
    assert "Traceback" not in r.stderr


def test_main_entry_point_exits_2(capsys):
    with pytest.raises(SystemExit) as e:
        cli_main(["kills", "Hexmrk", "MEQ"])
    assert e.value.code == 2
    assert capsys.readouterr().err.startswith("mathhammer: error: unknown unit")


# --- the command-line examples of the README and docs/ are real output --------------------------


def readme_examples() -> list[tuple[str, str]]:
    pairs = []
    for doc in [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]:
        text = doc.read_text(encoding="utf-8")
        pairs += re.findall(r"```sh\n(mathhammer [^\n]*)\n```\n\n```text\n(.*?)```", text, re.S)
    return pairs


def test_readme_has_cli_examples():
    commands = [c for c, _ in readme_examples()]
    assert 'mathhammer kills "Hexmark Destroyer" MEQ --half-range' in commands
    assert any(c.startswith("mathhammer odds") for c in commands)
    assert any(c.startswith("mathhammer table") for c in commands)
    assert any(c.startswith("mathhammer plan") for c in commands)


@pytest.mark.parametrize("command, output", readme_examples())
def test_readme_output_is_current(cli, command, output):
    assert cli.ok(*shlex.split(command)[1:]).stdout == output


def test_a_bug_is_reported_as_one_and_not_as_bad_input(monkeypatch, capsys):
    # bad input is exit status 2; an unexpected exception is a bug: status 1, with a hint to
    # re-run with --debug, which shows the traceback
    def broken(*_args, **_kwargs):
        raise ZeroDivisionError("division by zero")

    with pytest.raises(SystemExit) as e:
        cli_main(["kills", "Hexmrk", "MEQ"])
    assert e.value.code == 2 and capsys.readouterr().err.startswith("mathhammer: error: ")
    monkeypatch.setattr(attack_commands, "kills_scenario", broken)
    with pytest.raises(SystemExit) as e:
        cli_main(["kills", "Hexmark Destroyer", "MEQ"])
    err = capsys.readouterr().err
    assert e.value.code == 1
    assert err.startswith("mathhammer: internal error: ")
    assert "run again with --debug for the traceback" in err and err[-1] == "\n"
    with pytest.raises(Exception) as e:
        cli_main(["--debug", "kills", "Hexmark Destroyer", "MEQ"])
    assert isinstance(e.value, ZeroDivisionError)


def test_odds_resolves_the_query_once(cli, monkeypatch):
    # the probability and the JSON come from one exact answer, not two runs of the engine
    from mathhammer.app.scenario import Query

    calls = []
    run = Query.run

    def counted(self):
        calls.append(self)
        return run(self)

    monkeypatch.setattr(Query, "run", counted)
    data = cli.json("odds", "Hexmark Destroyer", "MEQ", "--half-range", "--at-least", "3", "--json")
    assert data["p"] == "1000000/387420489" and len(calls) == 1
