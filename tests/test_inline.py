"""Inline weapon rows and target profiles (mathhammer.data.typed.inline)."""

from fractions import Fraction

import pytest

import mathhammer as mh
from mathhammer.data.typed.inline import (
    describe_target,
    describe_weapon,
    is_inline_target,
    is_inline_weapon,
    parse_target,
    parse_weapon,
    parse_weapons,
)


@pytest.mark.parametrize(
    "row, expected",
    [
        ("10x 2 | 3+ | 4 | -1 | 1 | sustained hits 1",
         (10, "A2 3+ S4 AP-1 D1", 24, "2", 3, 4, -1, "1", ("sustained hits 1",))),
        ('5x Bolt rifle [heavy] | 24" | 2 | 3+ | 4 | -1 | 1',
         (5, "Bolt rifle", 24, "2", 3, 4, -1, "1", ("heavy",))),
        # a row pasted from a seed page, outer bars and all
        ('| Spirit syphon [ignores cover, torrent] | 12" | D6 | N/A | 5 | -1 | 1 | |',
         (1, "Spirit syphon", 12, "D6", None, 5, -1, "1", ("ignores cover", "torrent"))),
        ("Multi-melta | 18 | 2 | 4+ | 9 | -4 | D6 | melta 2",
         (1, "Multi-melta", 18, "2", 4, 9, -4, "D6", ("melta 2",))),
        ("3 × Claws | Melee | 4 | 3+ | 5 | −1 | 2 | lethal hits, anti-infantry 4+",
         (3, "Claws", "melee", "4", 3, 5, -1, "2", ("lethal hits", "anti-infantry 4+"))),
        ("24 | D3+1 | 2+ | 12 | 0 | D6+2",  # a bare number before A is the range
         (1, "A:D3+1 2+ S12 AP0 D:D6+2", 24, "D3+1", 2, 12, 0, "D6+2", ())),
    ],
)
def test_weapon_rows(row, expected):
    w, n = parse_weapon(row)
    assert (n, w.name, w.range, w.attacks, w.skill, w.strength, w.ap, w.damage,
            w.abilities) == expected


def test_weapon_without_range_is_melee_when_asked():
    assert parse_weapon("4 | 3+ | 5 | 0 | 1")[0].range == 24
    assert parse_weapon("4 | 3+ | 5 | 0 | 1", melee=True)[0].melee


def test_several_rows():
    rows = parse_weapons("4x Bolt rifle | 2 | 3+ | 4 | -1 | 1; 1x Melta | 2 | 4+ | 9 | -4 | D6\n")
    assert [(w.name, n) for w, n in rows] == [("Bolt rifle", 4), ("Melta", 1)]


@pytest.mark.parametrize(
    "row, message",
    [
        ("2 | 3 | 4 | -1 | 1", 'BS/WS "3" (column 2): expected 2+ to 6+ or N/A'),
        ("Gun | 24\" | 2 | 7+ | 4 | -1 | 1", 'BS/WS "7+" (column 4)'),
        ("2 | 3+ | 4 | +1 | 1", 'AP "+1" (column 4): expected 0 or -1 to -6'),
        ("2 | 3+ | 4 | -7 | 1", 'AP "-7" (column 4)'),
        ("2 | 3+ | four | -1 | 1", 'S "four" (column 3): expected an integer from 1 to 100'),
        ("D7 | 3+ | 4 | -1 | 1", 'A "D7" (column 1): expected an integer >= 0 or NdS'),
        ("2 | 3+ | 4 | -1 | 0", 'D "0" (column 5): expected at least 1'),
        ("2 | 3+ | 4 | -1 | 1 | fast", 'ability "fast" (column 6): unknown ability'),
        ("2 | 3+ | 4 | -1 | 1 | sustained hits x", 'ability "sustained hits x" (column 6)'),
        ("Gun [fast] | 2 | 3+ | 4 | -1 | 1", 'ability "fast" (column 1)'),
        ("2 | 3+ | 4", "expected the columns A | BS/WS | S | AP | D (then abilities), got 3"),
        ("0x 2 | 3+ | 4 | 0 | 1", 'models "0x": expected at least 1x'),
        ("a | b | c | 2 | 3+ | 4 | -1 | 1", '"c" (column 3): expected at most a name and a range'),
        ("2 | N/A | 4 | 0 | 1", "N/A is only for torrent weapons"),
    ],
)
def test_bad_weapon_rows_name_the_token(row, message):
    with pytest.raises(ValueError) as e:
        parse_weapon(row)
    text = str(e.value)
    assert text.startswith(f'weapon "{row.strip()}": ')
    assert message in text
    assert "\n" not in text


def test_targets():
    t = parse_target("5x T4 Sv3+ W2 4++ FNP5+ INFANTRY")
    assert (t.models, t.toughness, t.save, t.wounds, t.invuln, t.fnp, t.keywords) == (
        5, 4, 3, 2, 4, 5, ("INFANTRY",))
    t = parse_target('M6" T5 Sv2+ W3 Ld6+ OC1 Inv4+ 6+++ stealth Infantry, Character 10 x')
    assert (t.models, t.toughness, t.save, t.wounds, t.invuln, t.fnp, t.keywords,
            t.abilities) == (10, 5, 2, 3, 4, 6, ("INFANTRY", "CHARACTER"), ("stealth",))
    assert parse_target("T12 Sv2+ W16 VEHICLE").models == 1
    assert parse_target("T16 Sv2+ W100 TITANIC").toughness == 16  # a Warlord Titan


@pytest.mark.parametrize(
    "text, message",
    [
        ("5x T4 Sv3 W2", '"Sv3" (token 3): expected a save like Sv3+'),
        ("5x T31 Sv3+ W2", '"T31" (token 2): toughness: T31 is over the limit of 30 '
                           "(mathhammer.limits.MAX_TOUGHNESS)"),
        ("5x T4 Sv3+ W2 7++", '"7++" (token 5): expected 2++ to 6++'),
        ("5x T4 Sv3+ W0", '"W0" (token 4): expected W1 or more'),
        ("5x T4 Sv3+ W2 FNP5", '"FNP5" (token 5): expected Feel No Pain like FNP5+'),
        ("T4 Sv3+ W2 T5", '"T5" (token 4): toughness given twice'),
        ("T4 W2", "missing save (e.g. Sv3+)"),
        ("5x T4 Sv3+ W2 INF4NTRY", '"INF4NTRY" (token 5): expected T4, Sv3+, W2'),
    ],
)
def test_bad_targets_name_the_token(text, message):
    with pytest.raises(ValueError) as e:
        parse_target(text)
    assert str(e.value) == f'target "{text}": {message}' or message in str(e.value)
    assert str(e.value).startswith(f'target "{text}": ')


def test_detection():
    assert is_inline_weapon("2 | 3+ | 4 | 0 | 1") and not is_inline_weapon("Cronos")
    assert is_inline_target("T4 Sv3+ W2") and is_inline_target("5x T4 Sv3 W2")
    assert not is_inline_target("MEQ") and not is_inline_target("Hexmark Destroyer")


def test_round_trip_descriptions():
    row = 'Bolt rifle | 24" | 2 | 3+ | 4 | -1 | 1 | heavy, sustained hits D3'
    assert describe_weapon(parse_weapon(row)[0]) == row
    text = "5x T4 Sv3+ W2 4++ FNP5+ Stealth INFANTRY"
    assert describe_target(parse_target(text)) == text


def test_inline_profiles_feed_the_engine():
    # 2 attacks at 2+ against T4 with no save (Sv7+), one model of W1:
    # each attack kills with 5/6 * 1/2 = 5/12, so P(destroyed) = 1 - (7/12)**2 = 95/144.
    w = parse_weapon("2 | 2+ | 4 | 0 | 1")
    r = mh.attack(w, parse_target("T4 Sv7+ W1"))
    assert r.destroyed == Fraction(95, 144)


def test_multi_word_target_abilities():
    from mathhammer.model.profiles import TARGET_ABILITIES

    if "reanimation protocols" not in TARGET_ABILITIES:
        pytest.skip("this version has no multi-word target abilities")
    t = parse_target("10x T4 Sv4+ W1 Reanimation Protocols deadly demise d3 INFANTRY")
    assert t.abilities == ("reanimation protocols", "deadly demise D3")
    assert t.keywords == ("INFANTRY",)
    assert describe_target(t) == "10x T4 Sv4+ W1 Reanimation Protocols Deadly Demise D3 INFANTRY"
