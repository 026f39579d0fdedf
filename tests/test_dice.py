"""Dice expressions."""

from fractions import Fraction as F

import pytest

from mathhammer import dice
from mathhammer.prob.dice import format_dice


@pytest.mark.parametrize(
    "text, mean, low, high",
    [
        ("3", 3, 3, 3),
        ("D3", 2, 1, 3),
        ("d6", F(7, 2), 1, 6),
        ("2D6", 7, 2, 12),
        ("D6+3", F(13, 2), 4, 9),
        (" 2d3 + 1 ", 5, 3, 7),
        ("3D6", F(21, 2), 3, 18),
        (4, 4, 4, 4),
    ],
)
def test_accepted_forms(text, mean, low, high):
    d = dice(text)
    assert d.mean() == mean
    assert min(d.outcomes()) == low and max(d.outcomes()) == high
    assert sum(d.values()) == 1


def test_d3_is_half_a_d6_rounded_up():
    d6 = dice("D6")
    assert dice("D3") == d6.map(lambda r: -(-r // 2))


def test_2d3_distribution():
    # 2D3: sums 2..6 with weights 1, 2, 3, 2, 1 over 9
    assert dict(dice("2D3")) == {2: F(1, 9), 3: F(2, 9), 4: F(3, 9), 5: F(2, 9), 6: F(1, 9)}


@pytest.mark.parametrize("bad", ["D7", "2D", "-1", "D6-7", "", "0D6", "D6+", "x", -1, 1.5, True])
def test_rejected_forms_quote_the_text_and_the_accepted_forms(bad):
    with pytest.raises(ValueError) as e:
        dice(bad)
    msg = str(e.value)
    assert repr(bad) in msg and "D6+3" in msg and "\n" not in msg


def test_format():
    assert format_dice("d6 + 1") == "D6+1" and format_dice("1D3") == "D3" and format_dice(2) == "2"
