"""The metamorphic half of "right number or clear error": a hostile file is run beside the plain
UTF-8 file that means the same text, and the two runs' per-item results are compared.

- Lossless differences (a UTF-8 byte-order mark, CRLF line ends, no final newline, control
  characters the suite strips) must not change anything: same exit code, same items scored,
  same values.
- Foreign encodings (UTF-16, latin-1) may be refused or cost the items they garble, but every
  value that *is* reported must be the value of the text the writer meant (no wrong number).
"""

from __future__ import annotations

from collections.abc import Mapping
from functools import partial

from tests.fuzz.harness import Checker, same_number

#: item key -> metric -> value (None: an error record)
Results = Mapping[object, Mapping[str, float | None]]


def compare_runs(check: Checker, actual: Results, meant: Results, lossless: bool, what: str) -> None:
    """Every value ``actual`` reports equals the value of the same item in ``meant``; when the
    difference is ``lossless``, both runs score the same items too."""
    if lossless:
        check.expect(set(actual) == set(meant), "lossless-same-items",
                     lambda: f"{what}: items {sorted(map(str, set(actual) ^ set(meant)))[:6]} are in one run only")
    for key, values in actual.items():
        if key not in meant:
            continue
        for metric, value in values.items():
            other = meant[key].get(metric)
            if lossless:
                check.expect((value is None) == (other is None), "lossless-same-items",
                             partial("{}: {} {} is {!r} here but {!r} in the plain UTF-8 file".format,
                                     what, key, metric, value, other))
            if value is not None and other is not None:
                check.expect(same_number(value, other), "right-number",
                             partial("{}: {} {} = {!r}, but the text it stands for scores {!r}".format,
                                     what, key, metric, value, other))
            elif value is not None:
                check.expect(False, "right-number",
                             f"{what}: {key} {metric} = {value!r}, but the text it stands for cannot be scored")
