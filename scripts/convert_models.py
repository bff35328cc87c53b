"""Convert the shipped joblib models (+ JSON sidecars) to model files (:mod:`evalcore.io.models`).

Each old file is checked against the SHA-256 of its sidecar, converted, read back, and compared
with the original object attribute by attribute (arrays bit for bit): the same state gives the
same scores. Hashes of converted models quoted in other headers (the parser's in DICOMER's
``parser``, DICOMER's in CREMER's ``dicomer``) are replaced by the new ones; DICOMER's ``parser``
names the parser as this checkout computes it (its code hash covers the loader changed with this
format). Run once from the repository root: ``python scripts/convert_models.py [--keep]``.
"""

from __future__ import annotations

import argparse
import json
import math
import sys
from pathlib import Path

import joblib
import numpy as np

from evalcore.io.models import load_model, model_digest, save_model
from evalcore.io.persist import file_sha256

ROOT = Path(__file__).resolve().parent.parent


def specs():
    """(old file, new file, metric, allowed classes), the parser before the models quoting it."""
    from coherence.dicomer.model import DicomerModel
    from coherence.parser.nonexplicit import PairFeaturizer
    from parapeval.pem.model import PEMRegressor

    out = [("coherence/models/parser_tier1.joblib", "gdtb-clf-v1", (PairFeaturizer,)),
           ("coherence/models/dicomer_model.joblib", "dicomer", (DicomerModel,)),
           ("coherence/models/dicomer_gdtb_all.joblib", "dicomer-gdtb-all", (DicomerModel,)),
           ("summeval/models/cremer_linear.joblib", "cremer", ()),
           ("summeval/models/cremer_poly.joblib", "cremer-pf", ()),
           ("summeval/models/cremer_rbf.joblib", "cremer-rbf", ()),
           ("summeval/models/cremer_news_chat_linear.joblib", "cremer-news-chat", ()),
           ("mteval/models/tesla-f-wmt12.joblib", "tesla-f", ()),
           ("mteval/models/beer-wmt12/beer-wmt12.joblib", "beer", ()),
           ("mteval/models/srl-en/model.joblib", "srl-en", ()),
           ("mteval/models/srl-fr/model.joblib", "srl-fr", ()),
           ("parapeval/models/pem-default.pkl", "pem", (PEMRegressor,))]
    return [(ROOT / old, (ROOT / old).with_suffix(".npz"), metric, classes) for old, metric, classes in out]


def same(a, b, where: str = "model") -> None:
    """Raise AssertionError naming the first place where ``a`` and ``b`` differ."""
    assert type(a) is type(b), f"{where}: {type(a).__name__} != {type(b).__name__}"
    if isinstance(a, np.ndarray):
        assert a.dtype == b.dtype and a.shape == b.shape, f"{where}: {a.dtype}{a.shape} != {b.dtype}{b.shape}"
        assert a.tobytes() == b.tobytes(), f"{where}: array bytes differ"
    elif isinstance(a, dict):
        assert list(a) == list(b), f"{where}: keys differ"
        for k in a:
            same(a[k], b[k], f"{where}[{k!r}]")
    elif isinstance(a, (list, tuple)):
        assert len(a) == len(b), f"{where}: lengths differ"
        for k, (x, y) in enumerate(zip(a, b)):
            same(x, y, f"{where}[{k}]")
    elif isinstance(a, float) and math.isnan(a):
        assert math.isnan(b), where
    elif hasattr(a, "__dict__") and not isinstance(a, type):
        same(a.__getstate__(), b.__getstate__(), f"{where}.")
    else:
        assert a == b, f"{where}: {a!r} != {b!r}"


def replaced(value, hashes: dict[str, str], texts: dict[str, str]):
    """``value`` with every old parser id in ``texts`` and every old hash (full, 12 or 8 hex
    digits) replaced by the new one."""
    if isinstance(value, str):
        for old, new in texts.items():
            value = value.replace(old, new)
        for old, new in hashes.items():
            for k in (64, 12, 8):
                value = value.replace(old[:k], new[:k])
        return value
    if isinstance(value, dict):
        return {k: replaced(v, hashes, texts) for k, v in value.items()}
    if isinstance(value, list):
        return [replaced(v, hashes, texts) for v in value]
    return value


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--keep", action="store_true", help="keep the old files (default: delete them)")
    args = parser.parse_args(argv)
    todo = [s for s in specs() if s[0].is_file()]
    loaded, hashes = [], {}
    for old, new, metric, classes in todo:
        info = json.loads(old.with_suffix(".json").read_text("utf-8"))
        if info.get("sha256") != file_sha256(old):
            raise SystemExit(f"{old} does not match its sidecar's SHA-256: restore it before converting")
        obj = joblib.load(old)
        hashes[info["sha256"]] = model_digest(obj, classes)
        loaded.append((old, new, metric, classes, obj, info))
    texts: dict[str, str] = {}
    for old, new, metric, classes, obj, info in loaded:
        if metric.startswith("dicomer"):
            from coherence.dicomer.analysis import parser_id
            from coherence.parser.pipeline import DiscourseParser

            texts[info["parser"]] = parser_id(DiscourseParser(tier=int(info["parser_tier"])))
        header = {k: v for k, v in info.items() if k not in ("sha256", "suite_version", "format")}
        if "format" in info:  # a trainer's own format name (PEM's): "format" now names the file's
            header["model_format"] = info["format"]
        header = {**replaced(header, hashes, texts), "metric": metric, "converted_from": f"{old.name} (joblib, "
                  f"SHA-256 {info['sha256']}, suite {info.get('suite_version')})"}
        save_model(obj, new, header, classes)
        back, head = load_model(new, classes=classes)
        same(obj, back)
        assert head["sha256"] == hashes[info["sha256"]]
        print(f"{old.relative_to(ROOT)} -> {new.name}: identical state, sha256 {head['sha256'][:12]}")
        if not args.keep:
            old.unlink()
            old.with_suffix(".json").unlink()
    return 0


if __name__ == "__main__":
    sys.exit(main())
