"""Named rules (rules/<faction>.toml): every rule moves the numbers the way its text says,
conditions gate it, merging is as documented, bad files fail with one line, names resolve.

Reference profiles (means are per whole attack of 6 dice):
GUN   ranged A6 BS4+ S4 AP0 D1  -> hits 6*1/2 = 3, wounds 3*1/2 = 3/2, unsaved 3/2*1/2 = 3/4
BLADE melee  A6 WS4+ S4 AP0 D1  -> the same numbers in melee
against T4: 10 models T4 Sv4+ W1 INFANTRY (never runs out of models: at most 6 damage).
"""

from __future__ import annotations

from fractions import Fraction as F
from pathlib import Path
from typing import NamedTuple

import attrs
import pytest

import mathhammer as mh
from mathhammer.data.rules.named import (
    apply_rules,
    find_rule,
    list_rules,
    load_named_rules,
    read_named_rule_file,
)
from mathhammer.model.abilities import KNOWN
from mathhammer.model.named import Conditions, MortalWoundsRoll
from mathhammer.model.state import TargetState

GUN = mh.Weapon("Gun", attacks=6, skill=4, strength=4, ap=0, damage=1)
BLADE = mh.Weapon("Blade", attacks=6, skill=4, strength=4, ap=0, damage=1, range="melee")
T4 = mh.Target(models=10, toughness=4, save=4, wounds=1, keywords=["INFANTRY"])
T4W2 = mh.Target(models=10, toughness=4, save=4, wounds=2)
MONSTER = mh.Target(models=3, toughness=8, save=4, wounds=10, keywords=["MONSTER"])
PLAIN = mh.Target(models=10, toughness=4, save=4, wounds=1)


def state(models: int) -> mh.PMF:
    return mh.PMF.point(TargetState(models, 0))


class Case(NamedTuple):
    rule: str
    metric: str
    weapon: mh.Weapon
    before: F
    after: F
    target: mh.Target = T4
    options: dict = {}
    start: int | None = None  # models of T4 left before the attack


def _mean(case: Case, apply: list[str]) -> F:
    st = state(case.start) if case.start is not None else None
    r = mh.attack(case.weapon, case.target, apply=apply, state=st, **case.options)
    return getattr(r, case.metric).mean()


GUN_SUS = attrs.evolve(GUN, abilities=["sustained hits 1"])
GUN_AP1 = attrs.evolve(GUN, ap=-1)
GUN_AP3 = attrs.evolve(GUN, ap=-3)
BLADE_AP3 = attrs.evolve(BLADE, ap=-3)
GUN_S5 = attrs.evolve(GUN, strength=5)
GUN_D2 = attrs.evolve(GUN, damage=2)
PISTOL = attrs.evolve(GUN, abilities=["pistol"])

# Each rule changes the numbers in the direction its text says. The comment is the arithmetic.
UP, DOWN = "up", "down"
CASES: list[tuple[str, Case]] = [
    # --- Necrons ---
    # crit on 5+: Sustained Hits 1 adds a hit on 2/6 instead of 1/6: 6*(1/2+1/6)=4 -> 6*(1/2+2/6)=5
    (UP, Case("Enslaved Artifice", "hits", GUN_SUS, F(4), F(5))),
    # half range: re-roll 1s: 1/2 + 1/6*1/2 = 7/12 -> 6*7/12 = 7/2
    (UP, Case("Protocol of the Conquering Tyrant", "hits", GUN, F(3), F(7, 2),
              options={"half_range": True})),
    # half range and led: re-roll failed: 1/2 + 1/2*1/2 = 3/4 -> 9/2
    (UP, Case("Protocol of the Conquering Tyrant", "hits", GUN, F(3), F(9, 2),
              options={"half_range": True, "led": True})),
    # Overwatch hits on 2+ instead of 6: 6 attacks * 5/6 = 5 hits (was 6 * 1/6 = 1)
    (UP, Case("Inescapable Death", "hits", GUN, F(1), F(5), options={"overwatch": True})),
    # +1 S: S5 > T4 wounds on 3+: 3 hits * 2/3 = 2 (was 3*1/2)
    (UP, Case("Protocol of the Hungry Void", "wounds", BLADE, F(3, 2), F(2))),
    # led: also AP -1 -> 5+ save fails 2/3: 2 wounds * 2/3 = 4/3 (unled with the +1 S: 2*1/2 = 1)
    (UP, Case("Protocol of the Hungry Void", "unsaved", BLADE, F(3, 4), F(4, 3),
              options={"led": True})),
    # +1 to hit: 4+ becomes 3+: 6*2/3 = 4
    (UP, Case("Phasal Subjugator", "hits", GUN, F(3), F(4))),
    # re-roll the Hit roll (failed): 6*3/4 = 9/2
    (UP, Case("Concentrated Atomisation", "hits", GUN, F(3), F(9, 2))),
    # +1 S melee: wounds 3*2/3 = 2
    (UP, Case("Disruption Fields", "wounds", BLADE, F(3, 2), F(2))),
    # Sustained Hits 2: 6*(1/2 + 1/6*2) = 5
    (UP, Case("Unwavering Defence", "hits", BLADE, F(3), F(5))),
    # crit wound AP -1: per hit 1/6*2/3 (5+ save) + 2/6*1/2 = 5/18 -> 3 hits * 5/18 = 5/6
    (UP, Case("Conquest Protocols", "unsaved", GUN, F(3, 4), F(5, 6))),
    (UP, Case("Ingrained Superiority", "unsaved", GUN, F(3, 4), F(5, 6))),
    # -1 to be hit: 5+ : 6*1/3 = 2
    (DOWN, Case("Masks of Death", "hits", GUN, F(3), F(2))),
    (DOWN, Case("Terrifying Charge", "hits", BLADE, F(3), F(2))),
    # target below half (4 of 10 left): +1 hit and +1 wound: hits 4, wounds 4*2/3 = 8/3
    (UP, Case("The Spoor of Frailty", "hits", GUN, F(3), F(4), start=4)),
    (UP, Case("The Spoor of Frailty", "wounds", GUN, F(3, 2), F(8, 3), start=4)),
    # re-roll hit rolls of 1: 7/2; set up this turn: re-roll the Hit roll: 9/2
    (UP, Case("Arisen Tyrant", "hits", BLADE, F(3), F(7, 2))),
    (UP, Case("Arisen Tyrant (set up this turn)", "hits", BLADE, F(3), F(9, 2))),
    # Feel No Pain 6+: damage 3/4 * 5/6 = 5/8; 5+: 3/4 * 2/3 = 1/2
    (DOWN, Case("Inured to Damage", "damage", GUN, F(3, 4), F(5, 8))),
    (DOWN, Case("Inured to Damage (after destroying a unit)", "damage", GUN, F(3, 4), F(1, 2))),
    # --- Drukhari ---
    # -1 to wound when S > T: S5 vs T4 3+ (2/3) -> 4+ (1/2): wounds 3*2/3 = 2 -> 3/2
    (DOWN, Case("Stitchflesh Abominations", "wounds", GUN_S5, F(2), F(3, 2))),
    (DOWN, Case("Darkest Artifice", "wounds", GUN_S5, F(2), F(3, 2))),
    # worsen AP: AP-1 vs Sv4 fails 2/3 -> AP0 fails 1/2: unsaved 3/2*2/3 = 1 -> 3/4
    (DOWN, Case("Connoisseurs of Pain", "unsaved", GUN_AP1, F(1), F(3, 4))),
    # Devastating Wounds: a crit wound (1/6 per hit) is a mortal wound, no save:
    # damage 3 hits * (1/6 + 2/6*1/2) = 1 (was 3/4)
    (UP, Case("Distillers of Fear", "damage", BLADE, F(3, 4), F(1))),
    (UP, Case("Salting the Wound", "damage", BLADE, F(3, 4), F(1))),
    # +1 to hit in the Fight phase: 4
    (UP, Case("Taken Alive", "hits", BLADE, F(3), F(4))),
    # -1 Damage: D2 -> D1 against W2 models: damage 3/4*2 = 3/2 -> 3/4
    (DOWN, Case("Insensible to Pain", "damage", GUN_D2, F(3, 2), F(3, 4), target=T4W2)),
    # target below half (4 of 10): +1 hit -> 4; with a Pain token +1 wound: 4*2/3 = 8/3
    (UP, Case("Instinctive Spite", "hits", GUN, F(3), F(4), start=4)),
    (UP, Case("Instinctive Spite (Pain token)", "wounds", GUN, F(3, 2), F(8, 3), start=4)),
    # Lethal Hits: per attack 1/6 (crit, auto-wound) + 2/6*1/2 = 1/3 -> wounds 2
    (UP, Case("Dark Harvest", "wounds", BLADE, F(3, 2), F(2))),
    (UP, Case("Malicious Frenzy (Lethal Hits)", "wounds", GUN, F(3, 2), F(2))),
    # Sustained Hits 1: 6*(1/2+1/6) = 4
    (UP, Case("Malicious Frenzy (Sustained Hits 1)", "hits", GUN, F(3), F(4))),
    # winning: re-roll hit 1s: 7/2
    (UP, Case("Callous Competition (winning the wager)", "hits", GUN, F(3), F(7, 2))),
    # losing: also re-roll wound 1s: 7/2 hits * 7/12 = 49/24 (vs 3/2)
    (UP, Case("Callous Competition (losing the wager)", "wounds", GUN, F(3, 2), F(49, 24))),
    # -1 to be hit in melee: 2
    (DOWN, Case("Murderer's Circus", "hits", BLADE, F(3), F(2))),
    # charged: Lethal Hits -> wounds 2
    (UP, Case("Deadly Debut", "wounds", BLADE, F(3, 2), F(2), options={"charged": True})),
    # WYCHES: also AP -1: 2 wounds * 2/3 (5+ save) = 4/3 (vs 3/4)
    (UP, Case("Deadly Debut (WYCHES)", "unsaved", BLADE, F(3, 4), F(4, 3),
              options={"charged": True})),
    # --- core stratagems (10e) ---
    # Fire Overwatch: only a 6 hits: 6 * 1/6 = 1 (was 6 * 1/2 = 3)
    (DOWN, Case("Fire Overwatch", "hits", GUN, F(3), F(1))),
    # Go to Ground against AP-3: the 4+ save at AP-3 fails always; with cover 6+, and the 6+
    # invulnerable save: 3 hits * 1/2 wounds * 5/6 = 5/4 (was 3/2)
    (DOWN, Case("Go to Ground", "unsaved", GUN_AP3, F(3, 2), F(5, 4))),
    # --- Adeptus Mechanicus ---
    # BS 4+ -> 3+ (not a capped modifier): 6*2/3 = 4
    (UP, Case("Protector Imperative", "hits", GUN, F(3), F(4))),
    # stationary: the granted Heavy adds +1 on top of BS 3+: 2+ -> 6*5/6 = 5
    (UP, Case("Protector Imperative", "hits", GUN, F(3), F(5), options={"stationary": True})),
    (DOWN, Case("Protector Imperative (defending, BATTLELINE)", "hits", BLADE, F(3), F(2))),
    # WS 4+ -> 3+: 4
    (UP, Case("Conqueror Imperative", "hits", BLADE, F(3), F(4))),
    # AP -1 on every attack: unsaved 3/2*2/3 = 1; in melee also WS 3+: 4*1/2*2/3 = 4/3
    (UP, Case("Conqueror Imperative (BATTLELINE)", "unsaved", GUN, F(3, 4), F(1))),
    (UP, Case("Conqueror Imperative (BATTLELINE)", "unsaved", BLADE, F(3, 4), F(4, 3))),
    # led: re-roll the Hit roll: 9/2
    (UP, Case("Control Edict", "hits", BLADE, F(3), F(9, 2), options={"led": True})),
    # AP -1: 1
    (UP, Case("Overload Machine Spirits", "unsaved", GUN, F(3, 4), F(1))),
    (UP, Case("Ballistic Synchrony", "wounds", GUN, F(3, 2), F(2))),
    # a Pistol gets +1 to hit: 4
    (UP, Case("Omni-targeters", "hits", PISTOL, F(3), F(4))),
    # -1 to wound: 5+ : 3*1/3 = 1
    (DOWN, Case("Saviour Systems", "wounds", GUN, F(3, 2), F(1))),
    (DOWN, Case("Baleful Halo", "wounds", BLADE, F(3, 2), F(1))),
    # re-roll wound 1s: 3*7/12 = 7/4
    (UP, Case("Acquisition At Any Cost", "wounds", GUN, F(3, 2), F(7, 4))),
    # Stealth (-1 hit: 2 hits, 1 wound) and cover (Sv4+ -> 3+, fails 1/3): 1/3
    (DOWN, Case("Incense Exhausts", "unsaved", GUN, F(3, 4), F(1, 3))),
    (UP, Case("Lethal Dosage", "wounds", GUN, F(3, 2), F(2))),
    (UP, Case("Pre-calibrated Purge Solution", "hits", GUN, F(3), F(9, 2))),
    # AP-3 vs Sv4+ never saves: unsaved = wounds 3/2; with 4++: 3/2*1/2 = 3/4
    (DOWN, Case("Bulwark Imperative", "unsaved", GUN_AP3, F(3, 2), F(3, 4))),
    (DOWN, Case("Responsive Shielding", "unsaved", BLADE_AP3, F(3, 2), F(3, 4))),
    # Anti-INFANTRY 2+: wounds 3*5/6 = 5/2; Anti-MONSTER 4+ vs T8 (6+): 3*1/6 = 1/2 -> 3/2
    (UP, Case("Autoclavic Denunciation", "wounds", GUN, F(3, 2), F(5, 2))),
    (UP, Case("Autoclavic Denunciation", "wounds", GUN, F(1, 2), F(3, 2), target=MONSTER)),
    # Stealth: -1 to ranged hits: 2
    (DOWN, Case("Malphonic Susurrus", "hits", GUN, F(3), F(2))),
    (DOWN, Case("Stealth Optimisation", "hits", GUN, F(3), F(2))),
    # cover: 3/2 wounds * 1/3 = 1/2
    (DOWN, Case("Stealth Optimisation (SICARIAN)", "unsaved", GUN, F(3, 4), F(1, 2))),
    # led: Sustained Hits 1: 4
    (UP, Case("Peerless Eradicator", "hits", GUN, F(3), F(4), options={"led": True})),
    (UP, Case("Procedural Elimination (ranged)", "hits", GUN, F(3), F(7, 2))),
    (UP, Case("Procedural Elimination (melee)", "hits", BLADE, F(3), F(7, 2))),
    (UP, Case("Precognitated Firefields", "hits", GUN, F(3), F(4))),
    # Sustained Hits 2: 5
    (UP, Case("Precognitated Firefields (BATTLELINE)", "hits", GUN, F(3), F(5))),
    (UP, Case("Binharic Offence", "unsaved", BLADE, F(3, 4), F(1))),
]

# Rules that do not apply in these situations: the whole result is unchanged.
GATED = [
    ("Protocol of the Conquering Tyrant", GUN, {}, None),  # not within half range
    ("Protocol of the Conquering Tyrant", BLADE, {"half_range": True}, None),  # melee
    ("Protocol of the Hungry Void", GUN, {"led": True}, None),  # ranged
    ("Concentrated Atomisation", BLADE, {}, None),
    ("Disruption Fields", GUN, {}, None),
    ("Unwavering Defence", GUN, {}, None),
    ("The Spoor of Frailty", GUN, {}, None),  # target at full strength
    ("Instinctive Spite", GUN, {}, 5),  # 5 of 10 is not below half
    ("Instinctive Spite (Pain token)", GUN, {}, None),
    ("Distillers of Fear", GUN, {}, None),
    ("Salting the Wound", GUN, {}, None),
    ("Taken Alive", GUN, {}, None),
    ("Dark Harvest", GUN, {}, None),
    ("Murderer's Circus", GUN, {}, None),
    ("Deadly Debut", BLADE, {}, None),  # did not charge
    ("Deadly Debut (WYCHES)", GUN, {"charged": True}, None),
    ("Protector Imperative", BLADE, {}, None),
    ("Protector Imperative (defending, BATTLELINE)", GUN, {}, None),
    ("Conqueror Imperative", GUN, {}, None),
    ("Control Edict", GUN, {}, None),  # not led
    ("Overload Machine Spirits", BLADE, {}, None),
    ("Ballistic Synchrony", BLADE, {}, None),
    ("Omni-targeters", GUN, {}, None),  # not a Pistol
    ("Saviour Systems", BLADE, {}, None),
    ("Incense Exhausts", BLADE, {}, None),
    ("Lethal Dosage", BLADE, {}, None),
    ("Pre-calibrated Purge Solution", BLADE, {}, None),
    ("Bulwark Imperative", BLADE_AP3, {}, None),
    ("Baleful Halo", GUN, {}, None),
    ("Autoclavic Denunciation", BLADE, {}, None),
    ("Peerless Eradicator", GUN, {}, None),  # not led
    ("Peerless Eradicator", BLADE, {"led": True}, None),
    ("Procedural Elimination (ranged)", BLADE, {}, None),
    ("Procedural Elimination (melee)", GUN, {}, None),
    ("Precognitated Firefields", BLADE, {}, None),
    ("Stealth Optimisation (SICARIAN)", BLADE, {}, None),
    ("Malphonic Susurrus", BLADE, {}, None),  # Stealth only works against ranged attacks
    ("Stitchflesh Abominations", GUN, {}, None),  # S4 is not greater than T4
]

ENGINE_GATED = {"Malphonic Susurrus", "Stitchflesh Abominations"}

MORTAL = {  # rule: mean mortal wounds of its roll
    "Disintegration Beams": F(7, 6),  # 3/6*1 + 2/6*2
    "Blood-fuelled Cruelty": F(11, 6),  # 4/6*2 (D3) + 1/6*3
    "Poisoner's Art": F(1),  # 3/6*2
    "Rad-bombardment (standing firm)": F(4, 3),  # 4/6*2
    "Rad-bombardment (taking cover)": F(2, 3),  # 2/6*2
    "Rad-bombardment (fallout)": F(2, 3),  # 4/6*1
}
NO_EFFECT = {"Eager for the Kill", "Counter-offensive", "Heroic Intervention", "Rapid Ingress"}
#: rules tested in another file (Epic Challenge's Precision needs a CHARACTER: test_stratagems)
ELSEWHERE = {"Epic Challenge"}


@pytest.mark.parametrize(
    ("direction", "case"), CASES, ids=[f"{c.rule}-{c.metric}-{c.weapon.name}" for _, c in CASES]
)
def test_rule_moves_the_numbers_as_its_text_says(direction: str, case: Case) -> None:
    before, after = _mean(case, []), _mean(case, [case.rule])
    assert (before, after) == (case.before, case.after)
    assert (after > before) if direction == UP else (after < before)


@pytest.mark.parametrize(("rule", "weapon", "options", "start"), GATED,
                         ids=[f"{g[0]}-{g[1].name}" for g in GATED])
def test_conditions_gate_the_rule(rule, weapon, options, start) -> None:
    st = state(start) if start is not None else None
    plain = mh.attack(weapon, T4, state=st, **options)
    ruled = mh.attack(weapon, T4, state=st, apply=[rule], **options)
    assert ruled.summary() == plain.summary() and ruled.state == plain.state
    w, t, o = apply_rules([find_rule(rule)], weapon, T4, mh.Options(**options),
                          below_half=start is not None and start * 2 < 10)
    if rule not in ENGINE_GATED:  # else the rule applies, and the engine ignores it here
        assert (w, t, o) == (weapon, T4, mh.Options(**options))


def test_every_shipped_rule_is_tested() -> None:
    tested = {c.rule for _, c in CASES} | set(MORTAL) | NO_EFFECT | ELSEWHERE
    assert {r.name for r in load_named_rules()} == tested


@pytest.mark.parametrize("rule", sorted(MORTAL))
def test_mortal_wound_rolls_are_data_but_not_usable_in_attack(rule: str) -> None:
    r = find_rule(rule)
    assert not r.usable and r.mortal_wounds is not None
    assert r.mortal_wounds.pmf().mean() == MORTAL[rule]
    with pytest.raises(ValueError, match=r"mortal-wound roll .*not yet usable in attack"):
        mh.attack(GUN, T4, apply=[rule])


def test_mortal_wound_table_distribution() -> None:
    # Blood-fuelled Cruelty: 1 -> 0 (1/6), 2-5 -> D3 (4/6: 1, 2, 3 each 4/18), 6 -> 3 (1/6)
    pmf = find_rule("Blood-fuelled Cruelty").mortal_wounds.pmf()
    assert {k: pmf.prob(k) for k in range(4)} == {
        0: F(1, 6), 1: F(2, 9), 2: F(2, 9), 3: F(2, 9) + F(1, 6)
    }


def test_rule_without_effect_is_refused() -> None:
    with pytest.raises(ValueError, match="Eager for the Kill changes no numbers of an attack"):
        apply_rules(["Eager for the Kill"], GUN, T4, mh.Options(), below_half=False)


def test_spoor_of_frailty_below_starting_strength_through_the_engine() -> None:
    # 8 of 10 left: below Starting Strength, not below half: +1 to hit only -> 4 hits
    assert _mean(Case("The Spoor of Frailty", "hits", GUN, F(3), F(4), start=8),
                 ["The Spoor of Frailty"]) == 4


# --- apply_rules: outputs and merge semantics -----------------------------------------------


def _apply(names, weapon=GUN, target=T4, *, below_half=False, below_starting=None, **opts):
    return apply_rules([find_rule(n) for n in names], weapon, target, mh.Options(**opts),
                       below_half=below_half, below_starting=below_starting)


def test_spoor_of_frailty_below_starting_only() -> None:
    _, _, o = _apply(["Spoor of Frailty"], below_starting=True)
    assert (o.hit_mod, o.wound_mod) == (1, 0)
    _, _, o = _apply(["Spoor of Frailty"], below_half=True)  # below half implies below starting
    assert (o.hit_mod, o.wound_mod) == (1, 1)


def test_weapon_keeps_its_profile_and_gains_abilities() -> None:
    w, t, o = _apply(["Overload Machine Spirits"])
    assert w == attrs.evolve(GUN, abilities=["hazardous"]) and t == T4
    assert o == mh.Options(ap_mod=1)


def test_modifiers_add_and_the_engine_caps_them() -> None:
    _, _, o = _apply(["Taken Alive", "Phasal Subjugator", "Masks of Death"], BLADE)
    assert o.hit_mod == 1 + 1 - 1
    _, _, o = _apply(["Taken Alive", "Phasal Subjugator"], BLADE)
    assert o.hit_mod == 2
    # the +2 is capped at +1: the same hits as one +1 (4)
    assert mh.attack(BLADE, T4, apply=["Taken Alive", "Phasal Subjugator"]).hits.mean() == 4


def test_critical_threshold_takes_the_lowest() -> None:
    assert _apply(["Enslaved Artifice"], crit_hit=4)[2].crit_hit == 4
    assert _apply(["Enslaved Artifice"], crit_hit=6)[2].crit_hit == 5


def test_crit_wound_ap_adds() -> None:
    assert _apply(["Conquest Protocols", "Ingrained Superiority"])[2].crit_wound_ap == 2


def test_rerolls_take_the_broadest() -> None:
    assert _apply(["Arisen Tyrant"], reroll_hits="noncrit")[2].reroll_hits == "noncrit"
    assert _apply(["Arisen Tyrant", "Concentrated Atomisation"])[2].reroll_hits == "failed"
    assert _apply(["Concentrated Atomisation", "Arisen Tyrant"])[2].reroll_hits == "failed"


def test_target_takes_the_better_invulnerable_save_and_feel_no_pain() -> None:
    four = _apply(["Bulwark Imperative"], GUN, attrs.evolve(T4, invuln=5))[1]
    three = _apply(["Bulwark Imperative"], GUN, attrs.evolve(T4, invuln=3))[1]
    assert (four.invuln, three.invuln) == (4, 3)
    t = _apply(["Inured to Damage", "Inured to Damage (after destroying a unit)"])[1]
    assert t.fnp == 5
    assert _apply(["Inured to Damage"], GUN, attrs.evolve(T4, fnp=5))[1].fnp == 5


def test_target_abilities_union() -> None:
    t = _apply(["Stealth Optimisation", "Malphonic Susurrus"], GUN,
               attrs.evolve(T4, abilities=["stealth"]))[1]
    assert t.abilities == ("stealth",)


def test_switches_or() -> None:
    assert _apply(["Stealth Optimisation (SICARIAN)"], cover=True)[2].cover is True
    assert _apply(["Stealth Optimisation (SICARIAN)"])[2].cover is True


def test_granted_sustained_hits_never_lowers_a_printed_one() -> None:
    sus2 = attrs.evolve(GUN, abilities=["sustained hits 2"])
    w = _apply(["Malicious Frenzy (Sustained Hits 1)"], sus2)[0]
    assert w.abilities == ("sustained hits 2",)
    # Sustained Hits 2 keeps 6*(1/2 + 2/6) = 5 hits
    assert mh.attack(sus2, T4, apply=["Malicious Frenzy (Sustained Hits 1)"]).hits.mean() == 5
    w = _apply(["Precognitated Firefields (BATTLELINE)"], GUN_SUS)[0]
    assert w.abilities == ("sustained hits 2",)


def test_hungry_void_ap_is_not_cumulative_with_other_improvements() -> None:
    o = _apply(["Hungry Void"], BLADE, led=True, ap_mod=1)[2]
    assert (o.ap_mod, o.strength_mod) == (1, 1)
    # whatever the order of the rules
    assert _apply(["Hungry Void", "Binharic Offence"], BLADE, led=True)[2].ap_mod == 1
    assert _apply(["Binharic Offence", "Hungry Void"], BLADE, led=True)[2].ap_mod == 1
    assert _apply(["Hungry Void", "Connoisseurs of Pain"], BLADE, led=True)[2].ap_mod == 0
    # a worsening still counts: Connoisseurs of Pain (-1) then Hungry Void (+1) -> 0
    assert _apply(["Connoisseurs of Pain", "Hungry Void"], BLADE, led=True)[2].ap_mod == 0


def test_conditions_are_judged_on_the_weapon_as_given() -> None:
    # Omni-targeters' +1 needs a weapon that already is a Pistol
    assert _apply(["Omni-targeters"], PISTOL)[2].hit_mod == 1
    assert _apply(["Omni-targeters"], GUN)[2].hit_mod == 0


def test_apply_rules_is_pure() -> None:
    opts = mh.Options(half_range=True)
    first = apply_rules(["Conquering Tyrant"], GUN, T4, opts, below_half=False)
    again = apply_rules(["Conquering Tyrant"], GUN, T4, opts, below_half=False)
    assert first == again and opts == mh.Options(half_range=True)


def test_modifier_overflow_names_the_rule() -> None:
    with pytest.raises(ValueError, match="^Masks of Death: hit_mod: expected an integer"):
        _apply(["Masks of Death"], hit_mod=-6)


def test_conditions_describe() -> None:
    assert Conditions(attack="ranged", half_range=True, below_half=False).describe() == (
        "ranged attacks, within half range, not target below half strength"
    )


# --- finding and listing --------------------------------------------------------------------


def test_find_rule_by_name_prefix_alias_and_part() -> None:
    assert find_rule("ENSLAVED ARTIFICE").name == "Enslaved Artifice"
    assert find_rule("enslav").name == "Enslaved Artifice"
    assert find_rule("Conquering Tyrant").name == "Protocol of the Conquering Tyrant"
    assert find_rule("Poisoner\u2019s Art").name == "Poisoner's Art"
    assert find_rule("frailty").name == "The Spoor of Frailty"


def test_unknown_rule_suggests_the_closest_names() -> None:
    with pytest.raises(ValueError) as e:
        find_rule("Masks of Deth")
    assert str(e.value) == "unknown named rule 'Masks of Deth'; did you mean Masks of Death?"
    with pytest.raises(ValueError) as e:
        find_rule("Disruptor Fields")
    assert str(e.value) == "unknown named rule 'Disruptor Fields'; did you mean Disruption Fields?"
    with pytest.raises(ValueError) as e:
        mh.attack(GUN, T4, apply=["Protocol of the Hungry Viod"])
    assert str(e.value) == (
        "unknown named rule 'Protocol of the Hungry Viod'; did you mean Protocol of the Hungry "
        "Void, Protocol of the Conquering Tyrant?"
    )


def test_unknown_rule_that_is_a_detachment_lists_its_rules() -> None:
    with pytest.raises(ValueError) as e:
        find_rule("Explorator Maniple")
    assert str(e.value) == (
        "unknown named rule 'Explorator Maniple'; rules of the Explorator Maniple detachment: "
        "Acquisition At Any Cost, Incense Exhausts"
    )


def test_ambiguous_rule_names_every_match() -> None:
    with pytest.raises(ValueError) as e:
        find_rule("malicious frenzy")
    assert str(e.value) == (
        "ambiguous named rule 'malicious frenzy': matches Malicious Frenzy (Lethal Hits), "
        "Malicious Frenzy (Sustained Hits 1)"
    )


def test_nothing_close() -> None:
    with pytest.raises(ValueError, match=r"^unknown named rule 'zzzz'; no close match among"):
        find_rule("zzzz")
    with pytest.raises(ValueError, match="expected a name"):
        find_rule("  ")


def test_list_rules() -> None:
    necrons = list_rules("necrons")
    assert {r.faction for r in necrons} == {"Necrons"} and len(necrons) == 19
    assert [r.name for r in list_rules(search="invulnerable")] == [
        "Bulwark Imperative", "Responsive Shielding", "Go to Ground"
    ]
    # the three seed factions and the 10e core stratagems
    assert len(load_named_rules()) == len(list_rules()) == 19 + 19 + 29 + 6
    with pytest.raises(ValueError, match="^unknown faction 'Orks'; known: Adeptus Mechanicus"):
        list_rules("Orks")


def test_rule_fields_round_trip_from_the_file() -> None:
    r = find_rule("Protocol of the Hungry Void")
    assert (r.faction, r.kind, r.detachment, r.cp, r.side) == (
        "Necrons", "stratagem", "Awakened Dynasty", 1, "attacker"
    )
    assert r.requires == Conditions(attack="melee")
    assert [e.requires for e in r.effects] == [Conditions(), Conditions(led=True)]
    assert r.effects[1].changes == (("ap_mod", 1),) and r.effects[1].not_cumulative == ("ap_mod",)
    assert r.file == "rules/factions/necrons.toml" and r.source.startswith("seeds/000_")
    assert r.text.startswith("Add 1 to the Strength characteristic of melee weapons")


def test_rule_sets_and_named_rules_live_in_their_own_folders() -> None:
    rules = Path(mh.__file__).parent.parent / "rules"
    assert sorted(p.stem for p in (rules / "core").glob("*.toml")) == ["10e", "11e"]
    assert {r.file for r in mh.list_rules()} == {
        f"rules/factions/{name}.toml"
        for name in ("necrons", "drukhari", "adeptus-mechanicus", "core-10e")}
    assert mh.load_ruleset("10e").name == "10e"


def test_mortal_wounds_describe_and_lookup() -> None:
    mw = MortalWoundsRoll(roll="D6", table=((2, 5, "D3"), (6, 6, "3")))
    assert mw.describe() == "D6: 2-5 -> D3, 6 -> 3"
    assert [mw.wounds_on(f) for f in range(1, 7)] == ["0", "D3", "D3", "D3", "D3", "3"]


# --- malformed files: one line naming file, rule, field and value ---------------------------

HEAD = 'faction = "Testers"\n'
GOOD_RULE = (
    '[[rule]]\nname = "Good"\nkind = "stratagem"\nside = "attacker"\ntext = "t"\n'
    "effect = { hit_mod = 1 }\n"
)


#: the weapon abilities an error names, every spelling of the model's keywords
#: (``mathhammer.model.abilities.KEYWORDS``: a new keyword joins this list, not this file)
KNOWN_ABILITIES = ", ".join(KNOWN)


def _rule(body: str, name: str = "X") -> str:
    return (f'{HEAD}[[rule]]\nname = "{name}"\nkind = "stratagem"\nside = "attacker"\n'
            f'text = "t"\n{body}\n')


BAD_FILES = [
    # (file text, message after "<path>: ")
    ("faction = \n", "cannot read named rules: Invalid value (at line 1, column 11)"),
    ('faction = "F"\nrules = []\n', "rules: unknown key; did you mean rule?"),
    ("[[rule]]\nname = 'x'\n", "faction: missing"),
    (HEAD, "rule: expected one or more [[rule]] tables"),
    (_rule("effect = { hit_mod = 1 }\ncolour = 'red'"),
     "rule 'X': colour: unknown key; known: name, aliases, kind, detachment, cp, side, text, "
     "assumes, note, requires, effect, no_effect, not_modelled"),
    (_rule("effect = { hit_mod = 1 }\nrequire = { led = true }"),
     "rule 'X': require: unknown key; did you mean requires?"),
    (HEAD + '[[rule]]\nkind = "stratagem"\n', "rule[0]: name: missing"),
    (_rule("effect = { hit_mod = 1 }").replace('kind = "stratagem"', 'kind = "relic"'),
     "rule 'X': kind: expected one of stratagem, detachment rule, enhancement, datasheet "
     "ability, army rule, got 'relic'"),
    (_rule("effect = { hit_mod = 1 }").replace('side = "attacker"', 'side = "both"'),
     "rule 'X': side: expected one of attacker, defender, got 'both'"),
    (_rule("cp = -1\neffect = { hit_mod = 1 }"),
     "rule 'X': cp: expected an integer from 0 to 5, got -1"),
    (_rule("effect = { hitmod = 1 }"),
     "rule 'X': effect.hitmod: unknown effect field; did you mean hit_mod?"),
    (_rule("effect = { crit_hit = 7 }"),
     "rule 'X': effect.crit_hit: expected an integer from 2 to 6, got 7"),
    (_rule("effect = { hit_mod = 0 }"),
     "rule 'X': effect.hit_mod: expected a non-zero integer, got 0"),
    (_rule('effect = { hit_mod = "+1" }'),
     "rule 'X': effect.hit_mod: expected an integer from -6 to 6, got '+1'"),
    (_rule('effect = { reroll_hits = "some" }'),
     "rule 'X': effect.reroll_hits: expected one of 'ones', 'failed', 'noncrit', got 'some'"),
    (_rule("effect = { cover = false }"),
     "rule 'X': effect.cover: expected true (a rule can only switch it on), got False"),
    (_rule('effect = { abilities = ["fast"] }'),
     f"rule 'X': effect.abilities: unknown ability 'fast'; known: {KNOWN_ABILITIES}"),
    (_rule('effect = { abilities = "lethal hits" }'),
     "rule 'X': effect.abilities: expected a list of strings, got 'lethal hits'"),
    (_rule("effect = { invuln = 1 }"),
     "rule 'X': effect.invuln: expected an integer from 2 to 6 (X+), got 1"),
    (_rule('effect = { target_abilities = ["fly"] }'),
     "rule 'X': effect.target_abilities: expected one of stealth, reanimation protocols, "
     "deadly demise X, got 'fly'"),
    (_rule('effect = { hit_mod = 1, requires = { atack = "melee" } }'),
     "rule 'X': effect.requires.atack: unknown condition; did you mean attack?"),
    (_rule('requires = { attack = "shooting" }\neffect = { hit_mod = 1 }'),
     "rule 'X': requires.attack: expected 'ranged' or 'melee', got 'shooting'"),
    (_rule('requires = { led = "yes" }\neffect = { hit_mod = 1 }'),
     "rule 'X': requires.led: expected true or false, got 'yes'"),
    (_rule('requires = { weapon_ability = "fast" }\neffect = { hit_mod = 1 }'),
     f"rule 'X': requires.weapon_ability: unknown ability 'fast'; known: {KNOWN_ABILITIES}"),
    (_rule('effect = { requires = { led = true } }'),
     "rule 'X': effect: expected at least one effect field"),
    (_rule('effect = { hit_mod = 1, not_cumulative = ["ap_mod"] }'),
     "rule 'X': effect.not_cumulative: expected additive fields of this effect, got 'ap_mod'"),
    (_rule(""), "rule 'X': effect: expected exactly one of effect, no_effect or not_modelled"),
    (_rule('effect = { hit_mod = 1 }\nno_effect = "moves"'),
     "rule 'X': effect: expected exactly one of effect, no_effect or not_modelled"),
    (_rule("[[rule.effect]]\nhit_mod = 1\n[[rule.effect]]\ncrit_wound = 1"),
     "rule 'X': effect[1].crit_wound: expected an integer from 2 to 6, got 1"),
    (_rule('effect = { mortal_wounds = { roll = "D7", table = { "2+" = "1" } } }'),
     "rule 'X': effect.mortal_wounds.roll: bad dice expression 'D7': expected an integer >= 0 "
     "or NdS+K with S 3 or 6 (e.g. 3, D3, D6, 2D6, D6+3, 2D3+1)"),
    (_rule('effect = { mortal_wounds = { roll = "D6", table = { "2 to 4" = "1" } } }'),
     "rule 'X': effect.mortal_wounds.table.'2 to 4': expected a result like \"6\", \"2-4\" or "
     "\"5+\", got '2 to 4'"),
    (_rule('effect = { mortal_wounds = { roll = "D6", table = { "5-7" = "1" } } }'),
     "rule 'X': effect.mortal_wounds.table.'5-7': expected results from 1 to 6, got '5-7'"),
    (_rule('effect = { mortal_wounds = { roll = "D6", table = { "2-4" = "1", "4+" = "2" } } }'),
     "rule 'X': effect.mortal_wounds.table.'4+': overlaps another result, got '4+'"),
    (_rule('effect = { mortal_wounds = { roll = "D6", table = { "4+" = "D4" } } }'),
     "rule 'X': effect.mortal_wounds.table.'4+': bad dice expression 'D4': expected an integer "
     ">= 0 or NdS+K with S 3 or 6 (e.g. 3, D3, D6, 2D6, D6+3, 2D3+1)"),
    (_rule('effect = { mortal_wounds = { roll = "D6" } }'),
     "rule 'X': effect.mortal_wounds: expected { roll = \"D6\", table = { \"2-4\" = \"1\" } }, "
     "got {'roll': 'D6'}"),
    (_rule('effect = { hit_mod = 1, mortal_wounds = { roll = "D6", table = { "6" = "1" } } }'),
     "rule 'X': effect.mortal_wounds: must be the only field of the effect"),
    (_rule('requires = { led = true }\n'
           'effect = { mortal_wounds = { roll = "D6", table = { "6" = "1" } } }'),
     "rule 'X': effect.mortal_wounds: must be the rule's only effect"),
]


@pytest.mark.parametrize(("text", "message"), BAD_FILES, ids=[m[:40] for _, m in BAD_FILES])
def test_malformed_file_gives_one_line(tmp_path: Path, text: str, message: str) -> None:
    path = tmp_path / "bad.toml"
    path.write_text(text, encoding="utf-8")
    with pytest.raises(ValueError) as e:
        read_named_rule_file(path)
    assert str(e.value) == f"{path}: {message}"
    assert "\n" not in str(e.value)
    with pytest.raises(ValueError) as e2:  # the folder loader gives the same message
        load_named_rules(tmp_path)
    assert str(e2.value) == str(e.value)


def test_duplicate_names_across_files(tmp_path: Path) -> None:
    (tmp_path / "a.toml").write_text(HEAD + GOOD_RULE, encoding="utf-8")
    (tmp_path / "b.toml").write_text(
        HEAD + GOOD_RULE.replace('name = "Good"', 'name = "Other"\naliases = ["GOOD"]'),
        encoding="utf-8",
    )
    with pytest.raises(ValueError) as e:
        load_named_rules(tmp_path)
    assert str(e.value) == (
        f"{tmp_path / 'b.toml'}: rule 'Other': name 'GOOD' is already used by 'Good' in "
        f"{tmp_path / 'a.toml'}"
    )


def test_folder_skips_rule_sets_and_other_files(tmp_path: Path) -> None:
    (tmp_path / "good.toml").write_text(HEAD + GOOD_RULE, encoding="utf-8")
    (tmp_path / "10e.toml").write_text('name = "10e"\n[hit]\nmodifier_cap = 1\n', "utf-8")
    (tmp_path / "other.toml").write_text('title = "not a rule file"\n', encoding="utf-8")
    rules = load_named_rules(tmp_path)
    assert [(r.name, r.faction, r.effects[0].changes) for r in rules] == [
        ("Good", "Testers", (("hit_mod", 1),))
    ]
    assert find_rule("good", directory=tmp_path) is rules[0]
