"""Text tables shared by every report: alignment, Markdown escaping, correlation tables."""

from evalcore.io.tables import correlation_markdown, correlation_rows, table


def test_table_aligns_and_escapes_pipes():
    out = table(["name", "v"], [["a|b", "1"], ["long name", "22"]])
    assert out.splitlines() == ["| name      | v  |", "|-----------|----|",
                                "| a\\|b      | 1  |", "| long name | 22 |"]
    assert table(["only"], []) == "| only |\n|------|"


def _entry(value):
    return {k: {"value": value, "ci_low": value - 0.1, "ci_high": value + 0.1}
            for k in ("pearson", "spearman", "kendall")}


def test_correlation_tables_per_grouping_with_headline_ci_and_significance():
    corr = {g: {"rel": {"m1": _entry(0.5), "m2": _entry(0.25)}} for g in ("item", "system")}
    rows = correlation_rows(corr)
    assert [r[0] for r in rows] == ["item level (per document, averaged)", "system level"]
    assert rows[0][1] == "CI: 95% bootstrap of ρ" and rows[1][1] == "CI: 95% bootstrap of τ"
    assert rows[0][3][0] == ["m1", "r 0.500 · ρ 0.500 · τ 0.500 [ρ 0.40, 0.60]"]
    sig = {"system": {"rel": {"m1>m2": {"pearson": 0.9, "spearman": 0.8, "kendall": 0.75}}}}
    md = correlation_markdown(corr, sig, title="Demo ")
    assert "**Demo system level** (CI: 95% bootstrap of τ)" in md
    assert "| m1>m2 | 0.750 |" in md and md.count("A beats B") == 1
