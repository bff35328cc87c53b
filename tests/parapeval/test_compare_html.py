"""`parapeval compare --format html` in headless Chromium: the page fits 1400 and 800 px, every
metric has its ranked table (systems in rank order) and pair table, long signatures wrap."""

import json
import re
import shutil
import subprocess

import pytest

from parapeval.cli import main
from tests.parapeval.test_compare import EXAMPLE, SYSTEMS

CHROMIUM = shutil.which("chromium")

MEASURE = """<script>window.addEventListener('load', function () {
  var right = function (e) { return e.getBoundingClientRect().right; };
  var out = {inner: window.innerWidth, doc: document.documentElement.scrollWidth,
             tables: Array.from(document.querySelectorAll('table')).map(right),
             codes: Array.from(document.querySelectorAll('li code')).map(right),
             sections: Array.from(document.querySelectorAll('section')).map(function (s) {
               var rows = s.querySelector('table.systems').rows;
               return {id: s.id, pairs: s.querySelectorAll('table.pairs tr').length,
                       order: Array.from(rows).slice(1).map(function (r) { return r.cells[2].textContent; })};
             })};
  var pre = document.createElement('pre'); pre.id = 'measure'; pre.textContent = JSON.stringify(out);
  document.body.appendChild(pre);
});</script>"""


@pytest.mark.skipif(CHROMIUM is None, reason="needs headless Chromium (Debian package `chromium`) at /usr/bin/chromium")
@pytest.mark.parametrize("width", [1400, 800])
def test_html_report_fits_the_page_and_ranks_in_chromium(tmp_path, width, capsys):
    assert CHROMIUM is not None  # the test is skipped without it
    page = tmp_path / "ranked.html"
    rc = main(["compare", "--originals", str(EXAMPLE / "originals.txt"), "--references",
               str(EXAMPLE / "references.txt"), "-i", *(str(EXAMPLE / s) for s in SYSTEMS), "-m", "self-bleu",
               "-m", "ibleu", "-m", "bleu", "--paired-bs", "--format", "html", "-o", str(page)])
    assert rc == 0 and capsys.readouterr().out == ""
    measured_page = tmp_path / "measure.html"
    measured_page.write_text(page.read_text().replace("</body>", MEASURE + "</body>"))
    dom = subprocess.run(
        [CHROMIUM, "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
         "--disable-background-networking", "--disable-component-update", "--disable-sync",
         f"--user-data-dir={tmp_path / 'profile'}", f"--window-size={width},2000", "--dump-dom",
         measured_page.as_uri()], capture_output=True, text=True, timeout=120, check=True).stdout
    found = re.search(r'<pre id="measure">(.*?)</pre>', dom)
    assert found is not None
    m = json.loads(found.group(1).replace("&quot;", '"'))
    assert m["inner"] == width and m["doc"] <= width
    assert all(r <= width for r in m["tables"] + m["codes"]) and len(m["codes"]) == 3
    sections = {s["id"]: s for s in m["sections"]}
    assert set(sections) == {"self-bleu", "ibleu", "bleu"}
    assert sections["self-bleu"]["order"] == ["unrelated.txt", "rewrite.txt", "copy.txt"]
    assert sections["ibleu"]["order"][0] == "rewrite.txt" and sections["ibleu"]["order"][-1] == "copy.txt"
    assert all(s["pairs"] == 4 for s in sections.values())  # a header and the three pairs
