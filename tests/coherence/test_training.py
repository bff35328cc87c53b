"""The two training commands end to end on small slices of the public data: the parser on a
few GDTB documents, DICOMER on a few SummEval documents (written to a temporary folder)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest


def _tiny_gdtb(gdtb_dir: Path, root: Path, train: int = 4) -> Path:
    """A GDTB folder of ``train`` training documents and one development document (links)."""
    from coherence.corpora import gdtb_splits

    splits = gdtb_splits(gdtb_dir)
    chosen = {"train": [d for d in splits["train"] if not d.startswith("GUM_reddit")][:train],
              "dev": [d for d in splits["dev"] if not d.startswith("GUM_reddit")][:1]}
    for kind in ("raw", "gold"):
        folder = root / "pdtb" / kind / "00"
        folder.mkdir(parents=True)
        for name in chosen["train"] + chosen["dev"]:
            (folder / name).symlink_to(gdtb_dir / "pdtb" / kind / "00" / name)
    (root / "splits.md").write_text("".join(f"## {split}\n\n" + "".join(f"  * {d}\n" for d in docs) + "\n"
                                            for split, docs in chosen.items()), "utf-8")
    return root


def test_train_parser_writes_a_usable_model(gdtb_dir, pdtb2_table, tmp_path, monkeypatch):
    from coherence.dicomer.analysis import parser_id
    from coherence.parser.pipeline import DiscourseParser
    from coherence.train import train

    monkeypatch.setenv("AESOP_CACHE", str(tmp_path / "cache"))
    signature = train(_tiny_gdtb(gdtb_dir, tmp_path / "gdtb"), pdtb2_table, tmp_path / "model", log=lambda m: None)
    assert signature["train_documents"] == 4 and set(signature["tuning"]) == {
        "connective", "argpos", "explicit_sense", "nonexplicit"}
    assert signature["licence"] == signature["data_licence"] and signature["trained_on"].startswith("GDTB train: 4 ")
    parser = DiscourseParser(tier=1, model_path=str(tmp_path / "model" / "parser_tier1.joblib"))
    assert parser.model_sha256 == signature["sha256"]
    # the parser's identity (caches, DICOMER models) follows the model it loaded, not the shipped one
    assert parser_id(parser) != parser_id(DiscourseParser(tier=1))
    assert parser_id(parser).endswith(f"-model{signature['sha256'][:8]}")
    rels = parser.parse("It rained all day. Because the roads flooded, the match was cancelled.")
    assert any(r.explicit and r.connective_text.lower() == "because" for r in rels)


def test_a_tampered_parser_model_is_refused(tmp_path):
    from evalcore.resources import ResourceError

    from coherence.parser.pipeline import load_model, model_paths

    shipped, side = model_paths()
    copy = tmp_path / shipped.name
    copy.write_bytes(shipped.read_bytes()[:-1] + b"\0")
    (tmp_path / side.name).write_text(side.read_text("utf-8"), "utf-8")
    with pytest.raises(ResourceError, match="does not match the SHA-256"):
        load_model(str(copy))


@pytest.fixture(scope="module")
def tiny_summeval(tmp_path_factory) -> Path:
    from evalcore.resources import ResourceError, shared_data_dir

    try:
        full = shared_data_dir() / "summeval" / "summeval_16sys_mean_expert.json"
    except ResourceError as exc:
        pytest.skip(f"public data absent: {exc}")
    data = json.loads(full.read_text("utf-8"))
    path = tmp_path_factory.mktemp("se") / "summeval_small.json"
    path.write_text(json.dumps({k: data[k] for k in sorted(data)[:3]}), "utf-8")
    return path


@pytest.mark.parametrize("mode", ["listwise", "combined"])
def test_train_dicomer_writes_a_usable_model(tiny_summeval, tmp_path, monkeypatch, mode):
    from coherence.dicomer.metric import Dicomer
    from coherence.dicomer.train import train

    monkeypatch.setenv("AESOP_CACHE", str(tmp_path / "cache"))
    info = train(mode=mode, variant="DICOMER", data=tiny_summeval, tier=0, out=tmp_path / "model")
    assert info["training_data"]["summaries"] == 48 and info["n_pairs"] > 0
    assert (info["training_data"]["source_articles_permuted"] == 3) == (mode == "combined")
    assert info["trained_on"].startswith("summeval_small.json: 48 SummEval summaries") and info["licence"]
    assert ("source articles" in info["trained_on"]) == (mode == "combined") and len(info["sha256"]) == 64
    metric = Dicomer(model=str(tmp_path / "model" / "dicomer_model.joblib"))
    assert str(metric.signature()) == info["signature"].replace("|v:", f"|model:{info['sha256'][:12]}|v:")
    results = metric.score_batch(["The council met. It approved the budget because taxes rose.", "One sentence."])
    assert all(r.ok for r in results) and results[1].notes[0].startswith("one_sentence")
