"""Fuzz target of ``aesop-eval meta-evaluate`` on hostile score and judgment tables: digit-like
names, nearly constant and constant scores, columns of blanks or errors, a lower-is-better
metric, ties, and resample counts from impossible to tiny. Properties: nothing vanishes (every
metric column has a leaderboard row), exit 1 exactly when a row is undefined, an impossible
count is a usage error, TER is negated, and a value says how many inputs it used."""

from __future__ import annotations

from pathlib import Path

from hypothesis import strategies as st

from tests.fuzz.harness import Checker, parse_output, write

#: names a natural sort must survive: digit-like characters that are not decimal, other scripts' digits
NAMES = ("s1", "s2", "s10", "①", "②", "D1²", "x³", "٣", "s01", "Ⅻ", "sys-a")
METRICS = ("m1", "ter", "bleu", "blank")
LEVELS = ("system", "item", "global")
STATISTICS = ("pearson", "spearman", "kendall-b", "acc-eq")


def _cell(kind: str):
    """A strategy of one metric cell of a column of ``kind``."""
    if kind == "blank":
        return st.sampled_from(("", "error"))
    if kind == "near":  # differing in the seventh decimal: not constant
        return st.integers(1, 9).map(lambda k: repr(1 - k * 1e-7))
    if kind == "constant":
        return st.just("0.30000000000000004")
    return st.one_of(st.floats(-5, 5, allow_nan=False).map(repr), st.just(""), st.just("error"))


@st.composite
def meta_case(draw) -> dict:
    """A judged grid (some cells missing), one to three metric columns, the flags."""
    systems = draw(st.lists(st.sampled_from(NAMES), min_size=1, max_size=5, unique=True))
    inputs = draw(st.lists(st.sampled_from(NAMES), min_size=1, max_size=4, unique=True))
    names = draw(st.lists(st.sampled_from(METRICS), min_size=1, max_size=3, unique=True))
    kinds = {n: "blank" if n == "blank" else draw(st.sampled_from(("plain", "plain", "near", "constant")))
             for n in names}
    cells = [(s, i) for s in systems for i in inputs]
    kept = [c for c in cells if draw(st.integers(0, 5)) > 0] or cells[:1]
    human = {f"{s}\t{i}": draw(st.sampled_from(("1", "2", "2", "3.5", "")) | st.integers(0, 9).map(str))
             for s, i in kept}
    scores = {f"{s}\t{i}": [draw(_cell(kinds[n])) for n in names] for s, i in cells}
    n = draw(st.sampled_from(("20", "20", "50", "0", "-3", "1000000000000000", "abc")))
    return {"names": names, "human": human, "scores": scores, "n": n,
            "level": draw(st.sampled_from(LEVELS)), "statistic": draw(st.sampled_from(STATISTICS)),
            "format": draw(st.sampled_from(("json", "json", "table")))}


def check_meta(case: dict, workdir: Path) -> None:
    """Run meta-evaluate on the case's tables and check what every run owes."""
    check = Checker(workdir)
    human = write(workdir, "human.tsv", ("system\tinput\tquality\n" + "".join(
        f"{key}\t{v}\n" for key, v in case["human"].items())).encode())
    scores = write(workdir, "scores.tsv", ("system\tinput\t" + "\t".join(case["names"]) + "\n" + "".join(
        f"{key}\t" + "\t".join(row) + "\n" for key, row in case["scores"].items())).encode())
    out = check.run("aesop-eval", ["meta-evaluate", "--scores", scores, "--human", human, "--dimension", "quality",
                                   "--level", case["level"], "--statistic", case["statistic"], "-n", case["n"],
                                   "--format", case["format"]])
    valid_n = case["n"].isdecimal() and 1 <= int(case["n"]) <= 1_000_000
    if not valid_n:
        check.expect(out.code == 2 and "resamples" in out.stderr, "impossible-resamples-are-usage-errors",
                     f"-n {case['n']}: exit {out.code}, {out.stderr[-200:]!r}")
        return
    judged = any(v.strip() for v in case["human"].values())
    numeric = any(c not in ("", "error") for row in case["scores"].values() for c in row)
    if out.code == 2:
        check.expect(not judged or not numeric, "usage-error-only-for-unusable-input",
                     f"exit 2 on judged, scored tables: {out.stderr[-300:]!r}")
        return
    if case["format"] != "json":
        return
    doc = parse_output(check, out, "json")
    rows = {r["metric"]: r for r in doc["metrics"]}
    check.expect(set(rows) == set(case["names"]), "no-metric-vanishes",
                 f"columns {case['names']}, leaderboard rows {sorted(rows)}")
    undefined = [n for n, r in rows.items() if r["value"] is None]
    check.expect((out.code == 1) == bool(undefined), "exit-1-iff-undefined",
                 f"exit {out.code}, undefined rows {undefined}")
    for name, r in rows.items():
        check.expect(r["lower_is_better"] == (name == "ter"), "orientation-from-facts",
                     f"{name}: lower_is_better {r['lower_is_better']}")
        if r["used"] is not None:
            check.expect(0 <= r["used"]["n"] <= r["used"]["of"], "used-counts", f"{name}: {r['used']}")
        if r["value"] is not None:
            check.expect(-1 - 1e-9 <= r["value"] <= 1 + 1e-9, "statistic-in-range", f"{name}: {r['value']}")
    check.expect(doc["systems"] == sorted(doc["systems"], key=_natural), "natural-order",
                 f"systems {doc['systems']}")


def _natural(name: str) -> tuple:
    from evalcore.data.cells import natural_key

    return natural_key(name)
