"""Plots of attack results (needs matplotlib: ``pip install 'mathhammer[plot]'``).

matplotlib is imported inside the functions, so the rest of mathhammer works without it.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any, Protocol

from ..errors import InputError
from ..prob.pmf import PMF

MISSING = "plotting needs matplotlib: pip install 'mathhammer[plot]' (or pip install matplotlib)"
FORMATS = (".png", ".svg", ".pdf")


class KillLaw(Protocol):
    """What :func:`plot_kills` draws: a kill distribution (an attack's Result, a sequence's
    kills)."""

    @property
    def kills(self) -> PMF: ...


def check_matplotlib() -> None:
    """Raise a one-line ValueError when matplotlib cannot be imported."""
    try:
        import matplotlib  # noqa: F401
    except ImportError:
        raise InputError(MISSING) from None


def check_suffix(path: str | Path) -> None:
    """Raise a one-line ValueError unless ``path`` ends in a format matplotlib can write here.

    >>> check_suffix("kills.txt")
    Traceback (most recent call last):
    ...
    mathhammer.errors.InputError: kills.txt: expected a file name ending in .png, .svg, .pdf
    """
    if Path(path).suffix.lower() not in FORMATS:
        raise InputError(f"{path}: expected a file name ending in {', '.join(FORMATS)}")


def plot_kills(query: Any, result: KillLaw, path: str | Path) -> Path:
    """Draw P(kills = k) as bars with P(kills >= k) as a line, to ``.png``, ``.svg`` or ``.pdf``.

    SVG output is reproducible (no date, fixed element ids) for a given matplotlib version.
    """
    path = Path(path)
    check_suffix(path)
    check_matplotlib()
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    ks = list(result.kills)
    exact = [float(p) * 100 for p in result.kills.values()]
    at_least = [float(result.kills.at_least(k)) * 100 for k in ks]
    options = query.options.describe()
    named = ", ".join(query.named_rules)
    subtitle = f"rules {query.options.rules}; options: {options}" + (
        f"; named rules: {named}" if named else "")
    with matplotlib.rc_context({"svg.hashsalt": "mathhammer", "svg.fonttype": "none",
                                "font.size": 10}):
        fig, ax = plt.subplots(figsize=(7, 4.2))
        ax.bar(ks, exact, color="#4c72b0", label="P(kills = k)")
        ax.plot(ks, at_least, color="#dd8452", marker="o", label="P(kills \u2265 k)")
        for k, v in zip(ks, exact, strict=True):
            if v >= 0.5:
                ax.annotate(f"{v:.1f}%", (k, v), ha="center", va="bottom", fontsize=8,
                            xytext=(0, 2), textcoords="offset points")
        ax.set_xticks(ks)
        ax.set_xlabel("models destroyed (k)")
        ax.set_ylabel("probability (%)")
        ax.set_ylim(0, 105)
        ax.grid(axis="y", alpha=0.3)
        ax.legend(loc="upper right", frameon=False)
        ax.set_title(f"{query.attacker} \u2192 {query.target_name}\n{subtitle}", fontsize=10)
        fig.tight_layout()
        meta: dict[str, Any] = {"Date": None} if path.suffix.lower() == ".svg" else {}
        try:
            fig.savefig(path, metadata=meta or None, dpi=120)
        except OSError as e:
            raise InputError(f"{path}: cannot write: {e.strerror or e}") from None
        finally:
            plt.close(fig)
    return path
