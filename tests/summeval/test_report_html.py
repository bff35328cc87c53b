"""The HTML report: images fit the page at 1400 and 800 px (headless Chromium), point labels do
not overlap, intervals on plotted correlations and system scores, sortable tables, headings over
their own tables, long signatures wrap."""

import json
import re
import shutil
import subprocess
from html.parser import HTMLParser

import numpy as np
import pytest

from evalcore.metric import Signature
from evalcore.metric.registry import get_metric
from evalcore.stats.correlation import correlation_table, matrices, resample_documents
from summeval.pipeline import SummaryResult, aggregate_systems
from summeval.report import score_intervals
from summeval.report_html import write_report
from tests.summeval.named import Named

NAMES = ["tesla-s", "dicomer", "cremer", "cremer-rbf", "cremer-pf", "rouge-1", "rouge-2", "rouge-l", "rouge-su4"]
TOPICS = [f"D{k:04d}-A" for k in range(1, 6)]
SYSTEMS = [f"M{k}" for k in range(16)]
CHROMIUM = shutil.which("chromium")


def synthetic_report(tmp_path):
    """16 systems (one missing a topic) x 5 topics x the 9 metrics of --metric all, with human
    scores, written as a report; values cluster so labels compete for space."""
    rng = np.random.default_rng(7)
    quality = {s: rng.uniform(2, 4) for s in SYSTEMS}
    results = [SummaryResult(t, s, {n: quality[s] / 10 + rng.normal(0, 0.02) + j for j, n in enumerate(NAMES)})
               for t in TOPICS for s in SYSTEMS if (t, s) != ("D0005-A", "M3")]
    human = {(r.topic, r.system): {"responsiveness": quality[r.system] + rng.normal(0, 0.3)} for r in results}
    systems, rankings = aggregate_systems(results, [get_metric(n) for n in NAMES])
    keys = sorted(human)
    scored = {(r.topic, r.system): r.scores for r in results}
    corr = correlation_table(matrices(scored, NAMES, TOPICS, SYSTEMS),
                             matrices(human, ["responsiveness"], TOPICS, SYSTEMS), n_boot=200)
    by_system = {s: {"responsiveness": float(np.mean([human[k]["responsiveness"] for k in keys if k[1] == s]))}
                 for s in SYSTEMS}
    long = Signature("dicomer", {"variant": "DICOMER-N", "features": "+".join(f"feature{k}" for k in range(60))},
                     {"model": "f" * 64}, "0.1.0")
    signatures = {n: long if n == "dicomer" else Signature(n, {"refs": "max"}, {}, "0.1.0") for n in NAMES}
    return write_report(tmp_path / "rep", signatures, NAMES, results, systems, rankings, by_system, corr)


MEASURE = """<script>window.addEventListener('load', function () {
  var box = function (e) { var r = e.getBoundingClientRect(); return [r.left, r.right]; };
  var systems = document.querySelector('table.sortable');
  var out = {inner: window.innerWidth, doc: document.documentElement.scrollWidth,
             imgs: Array.from(document.images).map(box),
             codes: Array.from(document.querySelectorAll('li code')).map(box)};
  systems.querySelectorAll('th')[3].click();
  out.sorted = Array.from(systems.tBodies[0].rows).map(function (r) { return r.cells[1].textContent; });
  var pre = document.createElement('pre'); pre.id = 'measure'; pre.textContent = JSON.stringify(out);
  document.body.appendChild(pre);
});</script>"""


@pytest.mark.skipif(CHROMIUM is None, reason="needs headless Chromium (Debian package `chromium`) at /usr/bin/chromium")
@pytest.mark.parametrize("width", [1400, 800])
def test_report_fits_the_page_in_chromium(tmp_path, width):
    assert CHROMIUM is not None  # the test is skipped without it
    html_path, _ = synthetic_report(tmp_path)
    page = tmp_path / "measure.html"
    page.write_text(html_path.read_text().replace("</body>", MEASURE + "</body>"))
    profile = tmp_path / "profile"
    dom = subprocess.run(
        [CHROMIUM, "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
         "--disable-background-networking", "--disable-component-update", "--disable-sync",
         f"--user-data-dir={profile}", f"--window-size={width},2000", "--dump-dom", page.as_uri()],
        capture_output=True, text=True, timeout=120, check=True).stdout
    measured = re.search(r'<pre id="measure">(.*?)</pre>', dom)
    assert measured is not None
    m = json.loads(measured.group(1).replace("&quot;", '"'))
    assert m["inner"] == width and m["doc"] <= width  # nothing widens the page
    assert len(m["imgs"]) == 2 and all(0 <= left and right <= width for left, right in m["imgs"])
    assert all(right <= width for _, right in m["codes"])  # the 700-character signature wraps
    values = {r[1][1]: float(r[3][1].split()[0]) for r in table_rows(html_path.read_text())[0][1]}
    ranked = sorted((s for s in SYSTEMS if s != "M3"), key=values.__getitem__)
    assert m["sorted"] == [*ranked, "M3"]  # ascending by tesla-s; the unranked system last


def test_point_labels_do_not_overlap():
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    from matplotlib.backends.backend_agg import FigureCanvasAgg

    from summeval.report_plots import place_labels

    rng = np.random.default_rng(1)
    xs, ys = rng.normal(0.3, 0.01, 16), rng.normal(3.0, 0.1, 16)
    fig, ax = plt.subplots(figsize=(3.3, 3.0))
    ax.scatter(xs, ys)
    fig.tight_layout()
    placed = place_labels(ax, xs.tolist(), ys.tolist(), [f"M{k}" for k in range(16)])
    assert isinstance(fig.canvas, FigureCanvasAgg)
    renderer = fig.canvas.get_renderer()
    boxes = [t.get_window_extent(renderer) for t in placed]
    assert len(placed) >= 10
    assert not any(a.overlaps(b) for i, a in enumerate(boxes) for b in boxes[i + 1:])
    plt.close(fig)


def test_system_score_intervals_bootstrap_the_ranked_topics():
    results = [SummaryResult(t, "a", {"m": v}) for t, v in (("t1", 0.1), ("t2", 0.2), ("t3", 0.6))]
    results += [SummaryResult("t1", "b", {"m": 0.5})]
    systems, rankings = aggregate_systems(results, [Named()])
    intervals = score_intervals(systems, rankings, n_boot=500, seed=3)
    means = np.array([0.1, 0.2, 0.6])[resample_documents(3, 500, 3)].mean(axis=1)
    assert intervals["a"]["m"] == pytest.approx(tuple(np.percentile(means, [2.5, 97.5])))
    assert intervals["b"]["m"] == (0.5, 0.5)  # unranked: its one topic


class _Tags(HTMLParser):
    """The page as a sequence of (tag, text) for headings, tables (first header cell) and images."""

    def __init__(self):
        super().__init__()
        self.seq, self._in, self._text = [], None, ""

    def handle_starttag(self, tag, attrs):
        if tag in ("h2", "h3", "th", "td"):
            self._in, self._text = tag, ""
        elif tag == "img":
            self.seq.append(("img", dict(attrs)["alt"]))
        elif tag in ("table", "tr"):
            self.seq.append((tag, ""))

    def handle_data(self, data):
        if self._in:
            self._text += data

    def handle_endtag(self, tag):
        if tag == self._in:
            self.seq.append((tag, self._text))
            self._in = None


def table_rows(page: str):
    """Each table's (header, rows) with rows as lists of (tag, text)."""
    parser = _Tags()
    parser.feed(page)
    tables: list[tuple[list, list[list]]] = []
    current: tuple[list, list[list]] | None = None
    for tag, text in parser.seq:
        if tag == "table":
            current = ([], [])
            tables.append(current)
        elif tag == "tr" and current is not None:
            current[1].append([])
        elif tag in ("th", "td") and current is not None:
            (current[0] if tag == "th" else current[1][-1]).append((tag, text))
    return [(head, [r for r in rows if r]) for head, rows in tables]


def test_headings_sit_over_their_own_tables_and_cells_carry_intervals(tmp_path):
    html_path, md_path = synthetic_report(tmp_path)
    page = html_path.read_text()
    parser = _Tags()
    parser.feed(page)
    seq = [(tag, text) for tag, text in parser.seq if tag in ("h2", "h3", "img", "table")]
    order = [f"{tag}:{text}"[:24] for tag, text in seq]
    at = order.index("h3:System level")
    assert order[at + 1:at + 4] == ["table:", "img:system-level correla", "img:system-level scatter"]
    assert order[at + 4:at + 6] == ["h3:Item level (per docum", "table:"]
    assert order[at - 1] == "h2:Correlation with huma"
    assert "(CI: 95% bootstrap of τ)" in page.split("System level")[1].split("Item level")[0]
    assert "(CI: 95% bootstrap of ρ)" in page.split("Item level")[1]
    md = md_path.read_text()
    assert md.index("### System level") < md.index("![system-level correlation") < md.index("### Item level")
    systems = table_rows(page)[0][1]
    assert all(re.fullmatch(r"-?\d\.\d{4} \(\d+\)\[-?\d\.\d{4}, -?\d\.\d{4}\]", row[3][1]) for row in systems[:-1])
    assert "<script>" in page and "http" not in page.split("<script>")[1]  # inline, no network
