"""Stratagems as switches (issue 21): the 40kdc data's effect trees through the one translator
(translate_effect), the stratagems a unit can use, switched on by name, listed by
``rules --for``, and what is not modelled named. Every number is worked out by hand."""

import json
import os
from fractions import Fraction as F
from math import comb
from pathlib import Path

import attrs
import pytest

import mathhammer as mh
from mathhammer.data.rules import stratagems
from mathhammer.data.rules.effect_tree import translate_effect
from mathhammer.data.rules.unit_rules import side_rules
from mathhammer.data.units.unit import Origin

SHARED = Path(os.environ.get("MATHHAMMER_BSDATA", Path(__file__).resolve().parents[2]
                             / "shared" / "bsdata"))
MEQ = mh.Target(models=5, toughness=4, save=3, wounds=2, keywords=["INFANTRY"])
#: one Custodian Guard's spear: 2 attacks, BS 2+, S4 AP-1 D2
SPEAR = mh.Weapon("Guardian spear", attacks=2, skill=2, strength=4, ap=-1, damage=2)
SPEAR_MELEE = mh.Weapon("Guardian spear", attacks=5, skill=2, strength=7, ap=-2, damage=2,
                        range="melee")


def stat(stat, value, op="add", **more):
    return {"type": "stat-modifier", "target": "unit",
            "modifier": {"stat": stat, "operation": op, "value": value, **more}}


def unsaved(rule, weapon=SPEAR, target=MEQ):
    return mh.attack([(weapon, 1)], target, apply=[rule] if rule else []).unsaved.mean()


# -- the translator: effect trees ------------------------------------------------------------

def test_one_stratagem_switched_on_changes_unsaved_wounds_by_the_hand_derived_amount():
    # Talons Interlocked (40kdc): ranged weapons +1 Strength, Armour Penetration improved by 1
    tree = {"type": "sequence", "steps": [
        stat("S", 1, attack_type="ranged", scope="weapon"),
        stat("AP", 1, op="improve", attack_type="ranged", scope="weapon")]}
    [part] = translate_effect("Talons Interlocked", tree, "text", "test", attack="ranged")
    assert part.switch and part.rule.side == "attacker" and part.rule.kind == "stratagem"
    assert part.rule.describe() == "ranged attacks: strength_mod=+1; ap_mod=+1"
    # without: 2 attacks hit on 2+ (5/3 hits), S4 v T4 wound on 4+ (5/6), save 3+ at AP-1
    # is 4+, fails 1/2: 5/12. With: S5 v T4 wounds on 3+ (10/9), save at AP-2 is 5+, fails
    # 2/3: 20/27.
    assert unsaved(None) == F(5, 12)
    assert unsaved(part.rule) == F(20, 27)
    # used in the Shooting phase: a melee weapon is not changed
    assert unsaved(part.rule, SPEAR_MELEE) == unsaved(None, SPEAR_MELEE)


def test_add_to_armour_penetration_and_ballistic_skill_follow_the_numbers():
    # the data adds -1 to AP (AP-1 -> AP-2: better) and subtracts 1 from BS (3+ -> 2+: better)
    [ap] = translate_effect("A", stat("AP", -1), "t")
    [bs] = translate_effect("B", stat("BS", 1, op="subtract"), "t")
    assert ap.rule.describe() == "ap_mod=+1" and bs.rule.describe() == "skill_mod=+1"
    # AP-2: save 5+, fails 2/3: 5/3 hits * 1/2 wounds * 2/3 = 5/9
    assert unsaved(ap.rule) == F(5, 9)



def test_a_stratagem_for_its_own_attacks_improves_their_ap_whatever_the_datas_sign():
    # 40kdc's Clownin' Dakka (Orks) and Counterpredation (Tyranids) "add 1" to their own
    # attacks' AP where Target Weak Point and 18 others "add -1": no player pays CP for a
    # worse AP, so both improve it (docs/rules.md); Armour of Contempt's incoming "add 1"
    # still worsens the attacks against the unit
    [plus] = translate_effect("Clownin' Dakka", stat("AP", 1, attack_type="ranged"), "t")
    [minus] = translate_effect("Target Weak Point", stat("AP", -1, attack_type="ranged"), "t")
    [contempt] = translate_effect("Armour of Contempt", stat("AP", 1, incoming=True), "t")
    assert plus.rule.describe() == minus.rule.describe() == "if ranged attacks: ap_mod=+1"
    assert contempt.rule.side == "defender" and contempt.rule.describe() == "ap_mod=-1"
    # the spear AP-1 -> AP-2: save 5+ fails 2/3: 5/3 hits * 1/2 wounds * 2/3 = 5/9 (5/12 without)
    assert unsaved(plus.rule) == F(5, 9)
    # an ability's "add 1" (not a stratagem) keeps the data's sign: AP-1 -> AP0
    [ability] = translate_effect("X", stat("AP", 1), "t", kind="datasheet ability")
    assert ability.rule.describe() == "ap_mod=-1"


def test_a_named_weapons_ap_is_said_not_modelled():
    # Cosmic Storm: "add 1 to the AP of Tesla Sphere weapons" (weapon_name), not every gun
    [part] = translate_effect("Cosmic Storm", stat("AP", 1, weapon_name="Tesla Sphere"), "t")
    assert part.rule.not_modelled == "changes one named weapon only"

def test_a_defensive_stratagem_changes_the_attacks_against_the_unit():
    # Armour of Contempt (40kdc): incoming attacks' AP +1 (AP-1 -> AP0)
    [aoc] = translate_effect("Armour of Contempt", stat("AP", 1, incoming=True), "t")
    # the enemy's Wound rolls -1 (the "attacker" of the data is the enemy unit)
    [wnd] = translate_effect("Ride Hard", {"type": "roll-modifier", "target": "attacker",
                                           "modifier": {"roll": "wound", "operation":
                                                        "subtract", "value": 1}}, "t")
    assert (aoc.rule.side, aoc.rule.describe()) == ("defender", "ap_mod=-1")
    assert (wnd.rule.side, wnd.rule.describe()) == ("defender", "wound_mod=-1")
    # AP0 v Sv3+: fails 1/3: 5/3 * 1/2 * 1/3 = 5/18; -1 to wound: 5+ (1/3): 5/3*1/3*1/2 = 5/18
    assert unsaved(aoc.rule) == F(5, 18) and unsaved(wnd.rule) == F(5, 18)


def test_a_choice_is_one_switch_per_option_and_conditions_are_read():
    tree = {"type": "conditional", "condition": {"operator": "or", "operands": [
        {"type": "target-has-keyword", "parameters": {"keyword": "Monster"}},
        {"type": "target-has-keyword", "parameters": {"keyword": "Vehicle"}}]},
        "effect": {"type": "choice", "options": [
            {"type": "keyword-grant", "target": "unit",
             "modifier": {"keywords": ["Lethal Hits"], "weapon_type": "ranged"}},
            {"type": "keyword-grant", "target": "unit",
             "modifier": {"keywords": ["Sustained Hits 1"], "weapon_type": "ranged"}}]}}
    parts = translate_effect("Munitions", tree, "t")
    assert [(p.rule.name, p.rule.describe()) for p in parts] == [
        ("Munitions (1)", "if ranged attacks, target MONSTER or VEHICLE: "
                          "abilities=[lethal hits]"),
        ("Munitions (2)", "if ranged attacks, target MONSTER or VEHICLE: "
                          "abilities=[sustained hits 1]")]
    # against MEQ (INFANTRY) the condition does not hold: nothing changes
    assert unsaved(parts[0].rule) == F(5, 12)


def test_a_condition_the_engine_cannot_check_is_asserted_by_the_switch():
    tree = {"type": "conditional", "condition": {"type": "is-battle-shocked",
                                                 "parameters": {"subject": "target"}},
            "effect": {"type": "roll-modifier", "target": "unit",
                       "modifier": {"roll": "hit", "operation": "add", "value": 1}}}
    [part] = translate_effect("Shock", tree, "t", assumes="Shock is used")
    assert part.switch and part.rule.assumes == "Shock is used; is battle shocked (target)"
    # +1 to hit: 2+ stays 2+ (an unmodified 1 fails): no change on BS 2+
    assert unsaved(part.rule) == F(5, 12)


@pytest.mark.parametrize(("tree", "reason"), [
    ({"type": "mortal-wounds", "target": "target", "modifier": {"count": "D3"}},
     "mortal wounds outside the attack's rolls"),
    ({"type": "dice-gated", "dice": "D6", "threshold": 4, "on_success": {
        "type": "mortal-wounds", "target": "target", "modifier": {"count": 1}}},
     "mortal wounds outside the attack's rolls"),
    ({"type": "re-roll", "target": "unit", "modifier": {"roll": "any"}},
     "re-rolls one roll of any kind"),
    ({"type": "feel-no-pain", "target": "unit", "modifier": {"scope": "damage-1",
                                                             "threshold": 5}},
     "Feel No Pain against some attacks only"),
    ({"type": "keyword-grant", "target": "unit", "modifier": {"keywords": ["Mobile"]}},
     "grants Mobile, an ability mathhammer does not know"),
    (stat("D", 6, op="set"), "sets a characteristic"),
])
def test_a_stratagem_that_cannot_be_modelled_is_named(tree, reason):
    [part] = translate_effect("X", tree, "t")
    assert not part.rule.usable and part.rule.not_modelled == reason


def test_effects_that_change_no_attack_make_no_rule():
    move = {"type": "movement-modifier", "target": "unit",
            "modifier": {"distance": 6, "move_type": "reactive"}}
    assert translate_effect("Move", move, "t") == ()


# -- the 40kdc data (the optional extra) -----------------------------------------------------

needs_40kdc = pytest.mark.skipif(not stratagems.available(),
                                 reason="the 40kdc data (pip install mathhammer[stratagems]) "
                                        "is not installed")


@attrs.frozen
class FakeUnit:
    """What unit_stratagems reads of a data unit."""

    name: str = "Custodian Guard"
    faction: str = "Adeptus Custodes"
    origin: Origin = Origin("11e", "Imperium - Adeptus Custodes.json", "Custodian Guard",
                            "Imperium - Adeptus Custodes")
    keywords: tuple = ("CUSTODIAN GUARD", "INFANTRY", "BATTLELINE", "IMPERIUM")
    faction_keywords: tuple = ("ADEPTUS CUSTODES",)


@needs_40kdc
def test_the_core_stratagems_of_the_40kdc_data():
    core = {s.name: s for s in stratagems.all_stratagems() if not s.faction}
    assert len(core) == 10
    fire = core["Fire Overwatch"]
    assert [p.rule.describe() for p in fire.parts] == ["if ranged attacks: overwatch"]
    assert fire.when() == "1CP, movement/charge phases, opponent's turn"
    smoke = core["Smokescreen"]
    assert [(p.rule.side, p.rule.describe()) for p in smoke.parts] == [
        ("defender", "ranged attacks: cover")]
    assert smoke.keywords == ("SMOKE",)
    assert core["Explosives"].not_modelled == "mortal wounds outside the attack's rolls"
    assert core["Command Re-roll"].not_modelled == "re-rolls one roll of any kind"
    assert core["Counter-offensive"].parts == ()  # changes no attack
    assert core["Epic Challenge"].usable_by({"CHARACTER"})
    assert not core["Epic Challenge"].usable_by({"INFANTRY"})
    assert "40kdc" in fire.source and stratagems.CREDIT in fire.source


@needs_40kdc
def test_coverage_of_the_40kdc_stratagems_adds_up():
    c = stratagems.stratagem_coverage()
    assert c["stratagems"] >= c["with_effect"] >= c["attack_relevant"] >= c["applied"]
    assert c["applied"] + c["partly_applied"] <= c["attack_relevant"]
    fully_named = c["attack_relevant"] - c["applied"]
    assert 0 < fully_named <= sum(c["not_modelled"].values())


@needs_40kdc
def test_a_units_stratagems_by_faction_and_keywords_switched_on_by_name():
    unit = FakeUnit()
    names = {s.name for s in stratagems.unit_stratagems(unit)}
    assert {"Talons Interlocked", "Fire Overwatch", "Command Re-roll"} <= names
    assert "Epic Challenge" not in names  # CHARACTER only
    assert "Smokescreen" not in names  # SMOKE only
    only = stratagems.unit_stratagems(unit, "Shield Host")
    assert {s.detachment for s in only} == {"", "Shield Host"}
    found = side_rules(stratagems.stratagem_rules(unit), "attacker")
    assert found.switches == () and found.applied == ()  # stratagems are listed apart
    talons = found.switch("talons interlocked")
    assert talons is not None and talons.detachment == "Talons of the Emperor"
    # S+1 and AP improved by 1 for ranged attacks: 5/12 -> 20/27 as worked out above
    assert unsaved(talons) == F(20, 27)
    # a 10e unit has none (the 40kdc data is 11e)
    assert stratagems.unit_stratagems(attrs.evolve(unit, origin=Origin("10e", "x.cat"))) == ()
    # where a unit came from is its origin, never its source text parsed back
    assert stratagems.unit_stratagems(attrs.evolve(unit, origin=Origin(file="guard.toml"))) == ()


def test_rules_for_says_how_to_get_the_stratagems_without_the_40kdc_data(cli, monkeypatch):
    monkeypatch.setattr(stratagems, "available", lambda: False)
    r = cli("rules", "--for", "Necron Warriors")
    assert r.exit_code == 0, r.output
    assert r.stdout.splitlines()[-1].startswith(
        "stratagems: none from data (install mathhammer[stratagems]")


@pytest.mark.slow
@needs_40kdc
@pytest.mark.skipif(not (SHARED / "11e").is_dir(), reason="shared BattleScribe data not found")
def test_rules_for_lists_the_stratagems_and_kills_switches_one_on(cli):
    data = ["--rules", "11e", "--data", str(SHARED)]
    r = cli("rules", "--for", "Custodian Guard", *data)
    assert r.exit_code == 0, r.output
    lines = r.stdout.splitlines()
    i = lines.index("  Talons Interlocked [Talons of the Emperor; 1CP, shooting phase, your "
                    "turn; units with ADEPTUS CUSTODES and INFANTRY]")
    assert lines[i + 1] == "    attacking: ranged attacks: strength_mod=+1; ap_mod=+1"
    assert "  Command Re-roll [core; 1CP, command/movement/shooting/charge/fight phases, " \
           "either turn]" in lines
    assert "    not modelled: re-rolls one roll of any kind" in lines

    def mean(*more):
        r = cli("kills", "Custodian Guard", "MEQ", "--ranged", *data,
                                     "--json", *more)
        assert r.exit_code == 0, r.output
        return F(json.loads(r.stdout)["mean"]["unsaved"])

    # the unit's own Stand Vigil (re-roll Wound rolls of 1) is applied either way; the
    # default unit is its smallest, 4 models, each with a guardian spear (2 shots at 2+):
    # without: 4 * 5/3 hits * (1/2 + 1/6 * 1/2 = 7/12) * 1/2 = 35/18;
    # Talons Interlocked: 4 * 5/3 * (2/3 + 1/6 * 2/3 = 7/9) * 2/3 = 280/81
    assert mean() == F(35, 18)
    assert mean("--rule", "Talons Interlocked") == F(280, 81)


# -- a player's own stratagems as a named-rules file ---------------------------------------

PLAYER_FILE = '''faction = "Space Marines"
source = "my codex, page 12"

[[rule]]
name = "Honour the Chapter (my list)"
kind = "stratagem"
detachment = "Gladius Task Force"
cp = 1
side = "attacker"
text = "Until the end of the phase, add 1 to the Wound roll of ranged attacks."
assumes = "the stratagem is used on the unit in your Shooting phase"
requires = { attack = "ranged" }

[rule.effect]
wound_mod = 1
'''


def test_a_players_detachment_stratagems_as_a_rules_file(cli, tmp_path, monkeypatch):
    from mathhammer.data.rules.named import USER_ENV, find_rule, list_rules

    (tmp_path / "mine.toml").write_text(PLAYER_FILE, encoding="utf-8")
    monkeypatch.setenv(USER_ENV, str(tmp_path))
    rule = find_rule("honour the chapter")
    assert (rule.kind, rule.detachment, rule.cp) == ("stratagem", "Gladius Task Force", 1)
    assert [r.name for r in list_rules("space marines")] == ["Honour the Chapter (my list)"]
    rifle = mh.Weapon("Rifle", attacks=2, skill=3, strength=4, ap=-1, damage=1)
    # 10 attacks hit on 3+: 20/3 hits; S4 v T4 wounds on 4+, with +1 on 3+ (2/3): 40/9;
    # save 3+ at AP-1 fails 1/2: 20/9 (5/3 without)
    assert mh.attack([(rifle, 5)], MEQ, apply=[rule.name]).unsaved.mean() == F(20, 9)
    assert mh.attack([(rifle, 5)], MEQ).unsaved.mean() == F(5, 3)
    r = cli("kills", "MEQ", "-w", "5x Rifle | 24\" | 2 | 3+ | 4 | -1 | 1",
                                 "--rule", "Honour the Chapter", "--json")
    assert r.exit_code == 0, r.output
    assert json.loads(r.stdout)["mean"]["unsaved"] == "20/9"
    # a bad file is one line naming the file, rule and field
    (tmp_path / "mine.toml").write_text(PLAYER_FILE.replace("wound_mod = 1", "wound_mod = 9"),
                                        encoding="utf-8")
    r = cli("rules", "--faction", "space marines")
    assert r.exit_code == 2
    assert "mine.toml: rule 'Honour the Chapter (my list)': effect.wound_mod" in r.output


def test_a_stratagems_penalty_to_its_own_rolls_defends_and_strength_over_toughness():
    # the data does not always mark a defensive -1 as incoming; a stratagem never hurts its
    # own unit's rolls
    penalty = {"type": "roll-modifier", "target": "unit",
               "modifier": {"roll": "wound", "operation": "subtract", "value": 1,
                            "attack_type": "ranged"}}
    [part] = translate_effect("Built to Last", penalty, "t", attack="ranged")
    assert (part.rule.side, part.rule.describe()) == ("defender", "ranged attacks: "
                                                                 "wound_mod=-1")
    stronger = {"type": "conditional", "effect": {**penalty, "target": "attacker"},
                "condition": {"type": "attack-stat-compare", "parameters": {
                    "attacker_stat": "S", "comparison": "greater-than", "target_stat": "T"}}}
    [part] = translate_effect("Angels Defiant", stronger, "t")
    assert part.rule.describe() == "if ranged attacks: wound_mod_if_stronger=-1"
    # S4 v T4 is not stronger: unchanged (5/12); a S5 spear is: wounds on 3+ -> 4+:
    # 5/3 * 1/2 * 1/2 = 5/12 instead of 5/3 * 2/3 * 1/2 = 5/9
    assert unsaved(part.rule) == F(5, 12)
    s5 = attrs.evolve(SPEAR, strength=5)
    assert unsaved(None, s5) == F(5, 9) and unsaved(part.rule, s5) == F(5, 12)
    # a datasheet ability's -1 to its own rolls stays the attacker's
    [own] = translate_effect("Drawback", penalty, "t", kind="datasheet ability")
    assert own.rule.side == "attacker"


@pytest.mark.slow
@needs_40kdc
@pytest.mark.skipif(not (SHARED / "11e").is_dir(), reason="shared BattleScribe data not found")
def test_plan_try_picks_the_stratagem_that_helps_most(cli):
    r = cli("plan", "Custodian Guard", "-t", "MEQ", "--rules", "11e",
                                 "--data", str(SHARED), "--objective", "models",
                                 "--try", "--rule Talons Interlocked",
                                 "--try", "--rule Archeotech Munitions (1)")
    assert r.exit_code == 0, r.output
    # kills of the default 4 spears (8 shots; D2 into W2 models: one kill per unsaved wound,
    # at most the 5 models), the unit's own Stand Vigil (re-roll a Wound roll of 1) applied as
    # in kills. Per shot P(unsaved): as given 5/6 * 7/12 * 1/2 = 35/144; Talons Interlocked
    # 5/6 * (2/3 + 1/6 * 2/3 = 7/9) * 2/3 = 35/81; Lethal Hits (1/6 + 4/6 * 7/12 = 5/9) * 1/2
    # = 5/18. Kills = min(Binomial(8, p), 5).
    def kills(p):
        return sum(comb(8, k) * p ** k * (1 - p) ** (8 - k) * min(k, 5) for k in range(9))

    gap = kills(F(35, 81)) - max(kills(F(35, 144)), kills(F(5, 18)))
    assert f"best: --rule Talons Interlocked, ahead of the next by {float(gap):.3f}" \
        in r.stdout
    assert round(float(gap), 3) == 1.155


def test_the_10e_core_stratagems_file():
    from mathhammer.data.rules.named import find_rule, list_rules

    core = {r.name: r for r in list_rules("core stratagems (10e)")}
    assert sorted(core) == ["Counter-offensive", "Epic Challenge", "Fire Overwatch",
                            "Go to Ground", "Heroic Intervention", "Rapid Ingress"]
    assert all(r.kind == "stratagem" and r.source == "seeds/000_54ab22f9a0343292.txt"
               for r in core.values())
    # Epic Challenge: Precision. One melee attack (WS2+, S4 v T4) into a Bodyguard with a
    # CHARACTER Leader, no saves: with Precision the wound goes to the Leader:
    # P(Leader dead) = 5/6 * 1/2 = 5/12; without, the Bodyguard takes it: 0
    blade = mh.Weapon("Blade", attacks=1, skill=2, strength=4, ap=0, damage=1, range="melee")
    unit = mh.Squad((mh.Target(models=2, toughness=4, save=7, wounds=1, name="Guard"),
                     mh.Target(models=1, toughness=4, save=7, wounds=1, name="Leader",
                               keywords=["CHARACTER"])))
    assert mh.attack((blade, 1), unit).character_destroyed == 0
    assert mh.attack((blade, 1), unit, apply=["Epic Challenge"]).character_destroyed \
        == F(5, 12)
    # a rule that changes no attack says so when applied
    with pytest.raises(ValueError, match="Counter-offensive changes no numbers"):
        mh.attack((blade, 1), unit, apply=[find_rule("counter-offensive")])


def test_a_not_modelled_rule_in_a_file_is_named_and_cannot_be_applied(tmp_path, monkeypatch):
    from mathhammer.data.rules.named import USER_ENV, find_rule

    (tmp_path / "mine.toml").write_text('''faction = "House"
[[rule]]
name = "My Command Re-roll"
kind = "stratagem"
side = "attacker"
text = "Re-roll one die."
not_modelled = "re-rolls one die of the player's choice"
''', encoding="utf-8")
    monkeypatch.setenv(USER_ENV, str(tmp_path))
    rule = find_rule("my command re-roll")
    assert rule.describe() == "not modelled: re-rolls one die of the player's choice"
    with pytest.raises(ValueError, match="My Command Re-roll is not modelled: re-rolls one"):
        mh.attack((SPEAR, 1), MEQ, apply=[rule])


def test_stealth_and_an_enemy_without_cover():
    [st] = translate_effect("Veil", {"type": "ability-grant", "target": "unit",
                                     "modifier": {"grant_type": "stealth"}}, "t")
    assert (st.rule.side, st.rule.describe()) == ("defender", "target_abilities=[stealth]")
    # Stealth: -1 to hit ranged attacks: BS 2+ hits on 3+: 2 * 2/3 = 4/3 hits, * 1/2 * 1/2
    assert unsaved(st.rule) == F(1, 3)
    [nc] = translate_effect("Flush Them Out", {
        "type": "rule-state", "target": "all-enemy",
        "modifier": {"direction": "suppressed", "rule": "benefit-of-cover"}}, "t")
    assert (nc.rule.side, nc.rule.describe()) == ("attacker", "abilities=[ignores cover]")


@needs_40kdc
def test_the_40kdc_records_are_kept_in_the_cache_folder_and_rebuilt_when_unreadable():
    from mathhammer.cache import clear_caches
    from mathhammer.data.store.data_folder import cache_dir

    version = stratagems._version()
    path = cache_dir() / f"40kdc-stratagems-{version}.json"
    first = stratagems._records(version)
    assert path.is_file() and len(first["stratagems"]) == len(stratagems.all_stratagems())
    path.write_text("{not json", encoding="utf-8")
    clear_caches()
    assert stratagems._records(version) == first  # rebuilt from the dataset
    assert json.loads(path.read_text(encoding="utf-8")) == first
