"""Every registered metric on one line at the input rule's size cap: a score within the time and
memory bounds docs/bounds.md states (checked here with generous margins), or an error record that
names the metric's own limit. One child process scores every metric in turn, so its peak RSS
bounds each metric's."""

import json
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from evalcore.metric import InputLimits, Item, ReferenceMetric, Score
from evalcore.metric.registry import registered

ROOT = Path(__file__).resolve().parents[1]
#: seconds one cap-sized item may take (docs/bounds.md's figures with a margin for a loaded machine)
SECONDS = 20.0
#: peak RSS of the child that scores every metric in turn, models included
PEAK_RSS_MIB = 3072

_CHILD = textwrap.dedent("""
    import json, sys, time
    sys.path.insert(0, sys.argv[1])
    sys.path.insert(0, sys.argv[1] + "/scripts")
    from measure_bounds import cap_line, peak_rss_mib, reads_chinese
    from evalcore.metric import Item
    from evalcore.metric.inputs import DEFAULT_MAX_CHARS
    from evalcore.metric.registry import get_metric, registered
    lines = {False: (cap_line(DEFAULT_MAX_CHARS, False, 1), cap_line(DEFAULT_MAX_CHARS, False, 2)),
             True: (cap_line(DEFAULT_MAX_CHARS, True, 1), cap_line(DEFAULT_MAX_CHARS, True, 2))}
    for name in registered():
        metric = get_metric(name)
        cand, ref = lines[reads_chinese(metric)]
        start = time.perf_counter()
        result = metric.score_batch([Item(cand, (ref,), source=ref)])[0]
        print(json.dumps({"metric": name, "ok": result.ok, "message": getattr(result, "message", ""),
                          "seconds": time.perf_counter() - start, "own_cap": metric.max_chars,
                          "rss_mib": peak_rss_mib()}), flush=True)
""")


@pytest.fixture(scope="module")
def at_the_cap():
    done = subprocess.run([sys.executable, "-c", _CHILD, str(ROOT)], capture_output=True, text=True, timeout=600,
                          cwd=ROOT)
    assert done.returncode == 0, done.stderr[-2000:]
    return {row["metric"]: row for row in map(json.loads, filter(None, done.stdout.splitlines()))}


def test_every_metric_scores_a_cap_sized_line_within_bounds_or_names_its_limit(at_the_cap):
    assert set(at_the_cap) == set(registered())
    for name, row in at_the_cap.items():
        if row["own_cap"] is not None and row["own_cap"] < InputLimits().max_chars:
            assert not row["ok"] and f"too long for {name}" in row["message"], (name, row)
        elif not row["ok"]:  # a limit of the metric's own making, named in the message
            assert " > " in row["message"] and ("limit" in row["message"] or "too long" in row["message"]), (name, row)
        assert row["seconds"] < SECONDS, (name, row)
    assert max(row["rss_mib"] for row in at_the_cap.values()) < PEAK_RSS_MIB


class _Capped(ReferenceMetric):
    """A metric declaring its own smaller cap."""

    name = "capped"
    max_chars = 10

    def _score_items(self, items):
        return [Score(float(len(item.candidate))) for item in items]


def test_own_cap_gives_an_error_record_naming_the_metric_and_its_limit():
    results = _Capped().score_batch([Item("short", ("ref",), id="a"), Item("x" * 11, ("ref",), id="b"),
                                     Item("fine", ("r" * 11,), id="c")])
    assert results[0].ok and results[0].value == 5.0
    assert not results[1].ok and results[1].item == "b"
    assert "candidate is too long for capped (11 characters > 10, the metric's own limit" in results[1].message
    assert not results[2].ok and "reference 1 is too long for capped" in results[2].message
    # a smaller cap chosen by the user stays in force, with the user's message
    small = _Capped().score_batch([Item("x" * 8, ("ref",))], InputLimits(5))[0]
    assert not small.ok and "raise the cap" in small.message


def _script_line(code: str, seed: int, chars: int) -> str:
    """A line of exactly ``chars`` characters in ``code``'s script: words of 2-9 letters drawn from
    the script's first 400 letters (Han/kana characters one after another where the language is
    read by characters)."""
    import random
    import unicodedata

    import regex

    from evalcore.text.languages import LANGUAGES

    lang = LANGUAGES[code]
    pattern = regex.compile(rf"[\p{{Script={lang.scripts[0]}}}&&\p{{L}}]", regex.V1)
    # letters that NFC keeps as they are: the caps count the text as read (NFC), and a presentation
    # form (Hebrew U+FB2A, say) decomposes into two or three characters there
    pool = [chr(c) for c in range(0x20, 0x30000)
            if pattern.match(chr(c)) and unicodedata.normalize("NFC", chr(c)) == chr(c)][:400]
    rng = random.Random(seed)
    if lang.segmentation == "characters":
        return "".join(rng.choice(pool) for _ in range(chars))
    vocabulary = ["".join(rng.choice(pool) for _ in range(rng.randint(2, 9))) for _ in range(3000)]
    words: list[str] = []
    size = 0
    while size < chars:
        words.append(rng.choice(vocabulary))
        size += len(words[-1]) + 1
    return " ".join(words)[:chars]


def test_every_script_scores_a_cap_sized_line_within_bounds():
    """TESLA-S and ROUGE with ``lang``: one language per script and way of reading it (docs/bounds.md)."""
    import time

    from evalcore.metric.inputs import DEFAULT_MAX_CHARS
    from evalcore.text.languages import LANGUAGES
    from summeval.metrics import Rouge, RougeSU, TeslaS

    firsts: dict[tuple[str, str], str] = {}
    for code, lang in sorted(LANGUAGES.items()):
        firsts.setdefault((lang.scripts[0], lang.segmentation), code)
    codes = sorted({*firsts.values(), "ru", "de"})  # and the languages of the shared benchmark data
    assert len(codes) >= 12
    for code in codes:
        cand, ref = _script_line(code, 1, DEFAULT_MAX_CHARS), _script_line(code, 2, DEFAULT_MAX_CHARS)
        for metric in (TeslaS(lang=code), Rouge(kind="rouge-l", lang=code), RougeSU(lang=code)):
            start = time.process_time()
            result = metric.score_batch([Item(cand, (ref,))])[0]
            assert result.ok and result.value > 0, (code, metric.name, result)
            assert time.process_time() - start < SECONDS, (code, metric.name)
