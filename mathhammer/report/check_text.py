"""The self-check of the installed data (:mod:`mathhammer.app.datacheck`, ``mathhammer data
check``) and the rules-from-data coverage as text for the terminal."""

from __future__ import annotations

from typing import Any

from ..app.datacheck import Report, Status


def report_text(r: Report, causes: int = 12) -> str:
    """The counts for the terminal, the largest causes first."""
    n = len(r.sheets)

    def pct(k: int) -> str:
        return f"{100 * k / n:.1f}%" if n else "-"

    lines = [f"{r.edition} data in {r.folder}: {n} datasheets from {r.catalogues} catalogues "
             f"({r.seconds:.1f} s)"]
    clean = r.count(Status.CLEAN)
    share = f"{100 * clean / r.armed:.1f}%" if r.armed else "-"
    lines.append(f"  clean            {clean:6d}  {pct(clean)} ({share} of the {r.armed} with "
                 "weapons and every file)")
    for status, label in ((Status.WARNINGS, "with warnings"), (Status.FAILED, "failed")):
        k = r.count(status)
        lines.append(f"  {label:16s} {k:6d}  {pct(k)}")
        for cause, m in list(r.causes(status).items())[:causes]:
            ex = ", ".join(r.examples(status, cause, 2))
            lines.append(f"    {m:5d}  {cause}  (e.g. {ex})")
    k = r.count(Status.NO_WEAPONS)
    lines.append(f"  without weapons  {k:6d}  {pct(k)}")
    k = r.count(Status.MISSING_FILE)
    if k:
        lines.append(f"  linking into a missing file (counted apart) {k}:")
        for f, m in r.missing().items():
            lines.append(f"    {m:5d}  {f}")
    return "\n".join(lines) + "\n"


def coverage_text(cov: dict[str, Any], top: int = 8) -> str:
    """The rules-from-data coverage (:func:`mathhammer.data.rules.coverage.data_coverage`) for the
    terminal: how many abilities change an attack, how many are applied (automatically or as a
    switch, each for the beneficiary it names), by beneficiary, and the largest groups not
    modelled.

    >>> print(coverage_text({"attack_relevant": 4, "applied": 3, "automatic": 2, "partly": 1,
    ...                      "by_beneficiary": {"unit": 2, "enemy attacks": 1},
    ...                      "not_modelled": {"sets Damage": 1}}), end="")
    abilities that change an attack: 4; applied (or offered as switches): 3 (75.0%)
      wholly automatic 2; not modelled 1 (1 of them in part)
      by beneficiary: unit 2, enemy attacks 1
      not modelled: sets Damage 1
    """
    n, done = cov["attack_relevant"], cov["applied"]
    share = f" ({100 * done / n:.1f}%)" if n else ""
    lines = [f"abilities that change an attack: {n}; applied (or offered as switches): "
             f"{done}{share}"]
    if "automatic" in cov:
        lines.append(f"  wholly automatic {cov['automatic']}; not modelled {n - done} "
                     f"({cov.get('partly', 0)} of them in part)")
    if cov.get("by_beneficiary"):
        lines.append("  by beneficiary: " + ", ".join(
            f"{k} {v}" for k, v in cov["by_beneficiary"].items()))
    groups = sorted(cov["not_modelled"].items(), key=lambda kv: (-kv[1], kv[0]))[:top]
    if groups:
        lines.append("  not modelled: " + ", ".join(f"{k} {v}" for k, v in groups))
    return "\n".join(lines) + "\n"
