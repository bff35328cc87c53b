"""``coherence --list-metrics`` reads the registry table only: no DICOMER model, no scikit-learn."""

import subprocess
import sys

HEAVY = ("sklearn", "coherence.dicomer.metric", "coherence.dicomer.model", "coherence.dicomer.train", "spacy")


def test_listing_metrics_imports_no_model():
    code = ("import io, sys, contextlib\nfrom coherence.cli import main\nout = io.StringIO()\n"
            "with contextlib.redirect_stdout(out):\n    try:\n        main(['--list-metrics'])\n"
            "    except SystemExit as exc:\n        rc = exc.code\n"
            f"print(rc, out.getvalue().split()[0], sorted(m for m in sys.modules if m.split('.')[0] in "
            f"{ {h.split('.')[0] for h in HEAVY} !r} and (m in {HEAVY!r} or m.startswith(('sklearn.', 'spacy.')))))")
    run = subprocess.run([sys.executable, "-c", code], check=True, capture_output=True, text=True)
    out = run.stdout.split(maxsplit=2)
    assert out[:2] == ["0", "dicomer"]
    assert out[2].strip() == "[]"
