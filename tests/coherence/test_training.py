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
    parser = DiscourseParser(tier=1, model_path=str(tmp_path / "model" / "parser_tier1.npz"))
    assert parser.model_sha256 == signature["sha256"]
    # the parser's identity (caches, DICOMER models) follows the model it loaded, not the shipped one
    assert parser_id(parser) != parser_id(DiscourseParser(tier=1))
    assert parser_id(parser).endswith(f"-model{signature['sha256'][:8]}")
    rels = parser.parse("It rained all day. Because the roads flooded, the match was cancelled.")
    assert any(r.explicit and r.connective_text is not None and r.connective_text.lower() == "because" for r in rels)


def test_a_tampered_parser_model_is_refused(tmp_path, tamper_model_file):
    from coherence.parser.pipeline import load_parser_model, model_path
    from evalcore.resources.registry import ResourceError

    shipped = model_path()
    copy = tmp_path / shipped.name
    copy.write_bytes(shipped.read_bytes())
    tamper_model_file(copy)
    with pytest.raises(ResourceError, match="does not match the SHA-256"):
        load_parser_model(str(copy))


@pytest.fixture(scope="module")
def tiny_summeval(tmp_path_factory) -> Path:
    from evalcore.resources.registry import ResourceError, shared_data_dir

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
    metric = Dicomer(model=str(tmp_path / "model" / "dicomer_model.npz"))
    expected = info["signature"].replace("|v:", f"|model:{info['sha256'][:12]}|sentences:auto|v:")
    assert str(metric.signature()) == expected
    results = metric.score_batch(["The council met. It approved the budget because taxes rose.", "One sentence."])
    assert all(r.ok for r in results) and results[1].notes[0].startswith("one_sentence")


@pytest.mark.parametrize("genres", ["open", "all"])
def test_train_dicomer_on_gdtb_windows_writes_a_named_usable_model(gdtb_dir, tmp_path, monkeypatch, genres):
    from coherence.dicomer.metric import Dicomer
    from coherence.dicomer.synthetic import OPEN_GENRES
    from coherence.dicomer.train import train

    monkeypatch.setenv("AESOP_CACHE", str(tmp_path / "cache"))
    _tiny_gdtb(gdtb_dir, tmp_path / "data" / "discourse" / "gdtb", train=4)
    info = train(mode="gdtb-permutation", data=tmp_path / "data", tier=0, out=tmp_path / "model", genres=genres)
    counts = info["training_data"]["windows_per_genre"]
    assert info["variant"] == "DICOMER-N" and info["genres"] == genres and info["n_pairs"] > 0
    assert info["training_data"]["summaries"] == 0 and sum(counts.values()) == info["training_data"]["windows"] > 0
    assert set(counts) <= set(OPEN_GENRES) or genres == "all"
    name = "dicomer_model" if genres == "open" else "dicomer_gdtb_all"
    assert [p.name for p in sorted((tmp_path / "model").iterdir())] == [f"{name}.npz"]
    assert info["trained_on"].startswith(f"{info['training_data']['windows']} 4-sentence windows of GDTB train")
    metric = Dicomer(model=str(tmp_path / "model" / f"{name}.npz"))
    one, two = metric.score_batch(["One sentence only.", "The council met. It approved the budget because taxes rose."])
    assert one.value == metric._engine().model.neutral_score_ and one.notes[0].startswith("not_judged")
    assert two.ok


def test_neutral_variant_leaves_unjudged_texts_out_of_training():
    """Texts without structure are not trained on as zero vectors, which would pull the ranker:
    the neutral variant drops them, so adding one changes nothing."""
    import numpy as np

    from coherence.dicomer.analysis import AnalysisCache
    from coherence.dicomer.model import DicomerModel
    from coherence.parser.pipeline import DiscourseParser

    texts = ["The council met. However, it approved the budget because taxes rose. Then it adjourned.",
             "The budget passed. Because taxes rose, the mayor objected. Later the council voted again.",
             "Taxes rose. The council then met. However, the budget failed because the mayor vetoed it.",
             "Only one sentence."]
    analyses = AnalysisCache(DiscourseParser(tier=0)).analyse(texts)
    y, groups = np.array([3.0, 1.0, 2.0, 5.0]), np.zeros(4)
    with_flagged = DicomerModel("DICOMER-N", C=1.0).fit(analyses, y, groups)
    without = DicomerModel("DICOMER-N", C=1.0).fit(analyses[:3], y[:3], groups[:3])
    assert np.allclose(with_flagged.decision_function(analyses[:3]), without.decision_function(analyses[:3]))
    assert with_flagged.decision_function(analyses[3:])[0] == with_flagged.neutral_score_
    with pytest.raises(ValueError, match="no training text"):
        DicomerModel("DICOMER-N", C=1.0).fit(analyses[3:], y[3:], groups[3:])


def _judged_jsonl(tmp_path: Path) -> tuple[Path, Path]:
    texts = {"a": ["The council met. However, it approved the budget because taxes rose.",
                   "Taxes rose. The budget passed. Because the mayor objected, they voted again.",
                   "Budget. Council. Taxes."],
             "b": ["The storm hit the coast. As a result, the town closed its schools.",
                   "Schools closed. The storm then hit because winds rose.",
                   "Storm. Coast. Town."]}
    lines, human = [], []
    for topic, summaries in texts.items():
        for k, text in enumerate(summaries):
            lines.append(json.dumps({"topic": topic, "system": str(k), "summary": text, "references": ["ref"]}))
            human.append(json.dumps({"topic": topic, "system": str(k), "coherence": 3.0 - k}))
    (tmp_path / "s.jsonl").write_text("\n".join(lines) + "\n", "utf-8")
    (tmp_path / "h.jsonl").write_text("\n".join(human) + "\n", "utf-8")
    return tmp_path / "s.jsonl", tmp_path / "h.jsonl"


def test_train_dicomer_on_your_own_judged_summaries(tmp_path, monkeypatch, capsys):
    from coherence.cli import main
    from coherence.dicomer.metric import Dicomer

    monkeypatch.setenv("AESOP_CACHE", str(tmp_path / "cache"))
    summaries, human = _judged_jsonl(tmp_path)
    assert main(["train", "dicomer", "-i", str(summaries), "--human", str(human), "--tier", "0",
                 "--out", str(tmp_path)]) == 0
    info = json.loads(capsys.readouterr().out)
    assert info["mode"] == "listwise" and info["training_data"]["summaries"] == 6 and info["n_pairs"] > 0
    assert info["trained_on"] == ("s.jsonl: 6 summaries of 2 topics ranked by human coherence within each topic "
                                  "(listwise)")
    assert "inherits the licence" in info["licence"]
    assert Dicomer(model=str(tmp_path / "dicomer_model.npz")).score("The council met. Then it voted.").ok
    # no --out: the shipped model is never replaced by a user's model
    assert main(["train", "dicomer", "-i", str(summaries), "--human", str(human), "--tier", "0"]) == 2
    assert "needs --out" in capsys.readouterr().err
    assert main(["train", "dicomer", "-i", str(summaries), "--tier", "0", "--out", str(tmp_path)]) == 2
    assert main(["train", "dicomer", "-i", str(summaries), "--human", str(human), "--target", "fluency",
                 "--out", str(tmp_path)]) == 2
    assert "no human 'fluency' score for 6 summaries, e.g. " in capsys.readouterr().err
