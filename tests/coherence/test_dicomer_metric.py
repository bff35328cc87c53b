"""DICOMER as a metric of the contract: real text through spaCy and the parsers, notes and the
neutral value for text the pipeline cannot judge, control characters, model files, the parse
cache that must never cost a score, and the summeval view of the same metric."""

from __future__ import annotations

import errno
import pickle
import sqlite3
from typing import Any

import joblib
import numpy as np
import pytest

from coherence.dicomer.analysis import AnalysisCache, parser_id, permuted_parsed
from coherence.dicomer.metric import Dicomer, load_dicomer_model, model_signature
from coherence.dicomer.model import DicomerModel
from coherence.dicomer.train import save_dicomer
from coherence.parser.document import ParsedText
from coherence.parser.pipeline import DiscourseParser
from evalcore.io.models import save_model
from evalcore.metric import InputLimits, Item, Score
from evalcore.resources.registry import ResourceError
from tests.scored import scored

TEXTS = [
    "The company reported higher profits. But its shares fell because investors expected more. "
    "Analysts said the company would recover. The shares rose again in March.",
    "Shares rose again in March. Profits were higher. The company said so, and analysts agreed. "
    "But investors expected more.",
    "The council approved the budget after a long debate. However, the mayor vetoed it. "
    "The council then overrode the veto.",
]
# Symbols with a few words between them: the parser finds terms here, so a model would score it
# with confidence; the input rule says the English pipeline cannot judge it.
EMOJI = "🎉🎉🔥 wow 😀😀👍👍 yes 🚀🚀🚀 ok !!! 🎉🎉"


def write_model(folder, variant: str = "DICOMER+EGRID") -> str:
    """A small model on the Tier 0 parser, saved in the suite's model scheme."""
    from coherence.dicomer.config import variant_config

    parser = DiscourseParser(tier=0)
    analyses = AnalysisCache(parser).analyse(TEXTS)
    model = DicomerModel(variant, C=1.0).fit(analyses, [3.0, 1.0, 2.0], [0, 0, 0])
    info: dict[str, Any] = {"variant": variant, "mode": "listwise", "parser_tier": 0, "C": 1.0,
            "features": variant_config(variant).signature(), "parser": parser_id(parser)}
    info["signature"] = str(model_signature(info, info["parser"]))
    path = folder / "dicomer_model.npz"
    save_dicomer(model, path, {**info, "trained_on": "three test texts", "licence": "test data"})
    return str(path)


@pytest.fixture(scope="module")
def model_file(tmp_path_factory):
    return write_model(tmp_path_factory.mktemp("model"))


@pytest.fixture(autouse=True)
def private_cache(tmp_path, monkeypatch):
    """Every test gets its own cache root (nothing is read from or written to the user's)."""
    monkeypatch.setenv("AESOP_CACHE", str(tmp_path / "cache"))


def test_scores_log_scores_and_signature(model_file):
    metric = Dicomer(model=model_file)
    records = metric.score_batch(TEXTS)
    assert all(r.ok for r in records)
    results = scored(records)
    values = [r.value for r in results]
    assert values[0] > values[1]
    assert np.argsort(values).tolist() == np.argsort([r.log_score for r in results]).tolist()
    sha = load_dicomer_model(model_file)[1]["sha256"]
    sig = str(metric.signature())
    assert sig.startswith("dicomer|variant:DICOMER+EGRID|mode:listwise|parser:rules-v1-code")
    assert sig.endswith(f"|one-sent:ind|svmC:1|transform:shifted_log|model:{sha[:12]}|sentences:auto|v:0.2.0")


def test_score_carries_only_what_dicomer_defines(model_file):
    score = Dicomer(model=model_file).score(TEXTS[2])
    assert isinstance(score, Score) and set(score.components) == {"log_score"} and score.notes == ()
    for missing in ("precision", "recall", "f"):
        with pytest.raises(AttributeError):
            getattr(score, missing)


def test_the_shipped_signature_keeps_the_short_form():
    sig = str(Dicomer().signature())
    assert sig.startswith("dicomer|variant:DICOMER-N|mode:gdtb-permutation|parser:gdtb-clf-v1-code")
    assert ("|stem:porter|tags:NN,VB,JJ,RB|len:2,3|sal:2/occurrences|cols:all_terms|roles:type+arg"
            "|E:union|intra:relative|flagged:neutral|svmC:4.096|transform:shifted_log|genres:open|model:") in sig


def test_opt_in_all_genre_model_is_named_as_such():
    metric = Dicomer(model="gdtb-all")
    sig = str(metric.signature())
    assert metric.name == "dicomer-gdtb-all" and sig.startswith("dicomer-gdtb-all|variant:DICOMER-N|")
    assert "|genres:all|use:non-commercial|" in sig
    info = load_dicomer_model("gdtb-all")[1]
    assert info["licence"].startswith("OPT-IN, NON-COMMERCIAL") and "fiction (CC BY-NC-SA 3.0)" in info["licence"]
    default = load_dicomer_model()[1]
    assert default["licence"].startswith("no non-commercial text") and "fiction" not in default["trained_on"]


def test_shipped_model_gives_unjudged_texts_its_neutral_value():
    """A one-sentence text gets the model's neutral value and says it was not judged, not a learned
    one-sentence indicator (which would carry SummEval's preference for short summaries)."""
    model = load_dicomer_model()[0]
    one, two = Dicomer().score_batch(["Just one sentence here.", TEXTS[0]])
    assert one.value == model.neutral_score_
    assert [n.split(":")[0] for n in one.notes] == ["not_judged", "not_judged"]
    assert two.notes == () and two.value != model.neutral_score_


def test_degenerate_texts_are_scored_and_noted(model_file):
    one, norel = Dicomer(model=model_file).score_batch(["Just one sentence here.", "Dogs bark. Cats sleep."])
    model = load_dicomer_model(model_file)[0]
    assert one.value == model.decision_function(features=[{"text|one_sentence": 1.0}])[0]  # the ranker's own value
    assert [n.split(":")[0] for n in one.notes] == ["one_sentence", "no_relations"]
    assert norel.ok and np.isfinite(norel.value)


def test_empty_texts_are_scored_with_a_note_and_oversized_texts_are_error_records(model_file):
    empty, good, huge = Dicomer(model=model_file).score_batch(
        [Item("  ", id="blank.txt"), Item(TEXTS[0], id="ok.txt"), Item("word " * 300, id="big.txt")],
        InputLimits(max_chars=1000))
    assert empty.ok and any(n.startswith("empty") for n in empty.notes)
    assert good.ok
    assert not huge.ok and huge.item == "big.txt" and "too long (1,500 characters > 1,000" in huge.message


def test_text_the_pipeline_cannot_judge_gets_the_neutral_value(model_file):
    metric = Dicomer(model=model_file)
    model = load_dicomer_model(model_file)[0]
    judged = model.decision_function(AnalysisCache(DiscourseParser(tier=0)).analyse([EMOJI]))[0]
    assert judged != pytest.approx(model.neutral_score_)  # what the text got before the input rule
    emoji, chinese, english = metric.score_batch([EMOJI, "这是一个测试。我们喜欢它。然后我们回家了。", TEXTS[0]])
    assert emoji.ok and emoji.value == model.neutral_score_
    assert emoji.log_score == pytest.approx(model.log_score([model.neutral_score_])[0])
    assert emoji.notes[0].startswith("symbols") and emoji.notes[-1].startswith("neutral:")
    assert not chinese.ok and "100% of letters are not Latin script" in chinese.message  # another script: refused
    assert english.notes == ()


def test_nul_bytes_do_not_move_the_score():
    metric = Dicomer(cache=False)  # the shipped model and parser, where two NULs moved 2.27 to 2.17
    text = ("The council approved the budget after a long debate. However, the mayor vetoed it because "
            "taxes would rise. The council then overrode the veto, and the budget took effect in March.")
    nul = text.replace("budget", "bud\x00get", 2)
    engine = metric._engine()
    raw = engine.model.decision_function(AnalysisCache(engine.parser).analyse([nul]))[0]
    clean, stripped = metric.score_batch([text, nul])
    assert raw != pytest.approx(clean.value)  # unstripped, the NULs change the parse
    assert stripped.value == clean.value
    assert stripped.notes == ("cleaned: candidate: removed 2 control characters (U+0000 control character)",)


def test_pickled_metric_rebuilds_from_its_parameters(model_file):
    metric = Dicomer(model=model_file, cache=False)
    metric.score_batch(TEXTS[:1])
    clone = pickle.loads(pickle.dumps(metric))
    assert clone.get_params() == metric.get_params()
    assert [r.value for r in clone.score_batch(TEXTS)] == [r.value for r in metric.score_batch(TEXTS)]


def test_worker_processes_score_as_one_process(model_file):
    from evalcore.metric.batch import score_with

    items = [Item(t, id=f"t{k}") for k, t in enumerate(TEXTS)]
    one = score_with([Dicomer(model=model_file)], items)
    many = score_with([Dicomer(model=model_file)], items, jobs=2, chunk_size=1)
    assert [r["dicomer"].value for r in many] == [r["dicomer"].value for r in one]


def test_invalid_parameters_are_refused_before_scoring(model_file):
    with pytest.raises(ValueError, match="not both"):
        Dicomer(model=model_file, precomputed="p", external="x {input}").score_batch(TEXTS)
    with pytest.raises(ValueError, match="{input}"):
        Dicomer(model=model_file, external="parse-it").score_batch(TEXTS)


def test_model_files_are_checked(model_file, tmp_path, tamper_model_file):
    with pytest.raises(ResourceError, match="train dicomer"):
        load_dicomer_model(tmp_path / "none.npz")
    tampered = tmp_path / "dicomer_model.npz"
    tampered.write_bytes(open(model_file, "rb").read())
    tamper_model_file(tampered)
    with pytest.raises(ResourceError, match="does not match the SHA-256"):
        load_dicomer_model(tampered)
    old = tmp_path / "old" / "dicomer_model.joblib"  # the format before model files: refused, never unpickled
    old.parent.mkdir()
    joblib.dump(load_dicomer_model(model_file)[0], old)
    with pytest.raises(ResourceError, match="not an aesop-model/1 model file"):
        load_dicomer_model(old)
    other = tmp_path / "other.npz"
    save_model({"model": "not a ranker"}, other, {"metric": "x", "trained_on": "x", "signature": "x", "licence": "x"})
    with pytest.raises(ResourceError, match="retrain with `coherence train dicomer`"):
        load_dicomer_model(other)


def test_shipped_model_scores_as_trained():
    """The shipped model (DICOMER-N on licence-clean GDTB windows vs permutations) scores
    two SummEval summaries of the first document (systems M0 and M1) as when it was trained."""
    m0 = ("( cnn ) donald sterling 's racist remarks cost him an nba team last year . But now it 's his former "
          "female companion who has lost big . A los angeles judge has ordered v. stiviano to pay back more than "
          "$ 2.6 million in gifts after sterling 's wife sued her .")
    m1 = ("A los angeles judge has ordered v. stiviano to pay back more than $ 2.6 million in gifts after "
          "sterling 's wife sued her . ( cnn ) donald sterling 's racist remarks cost him an nba team last year . "
          "But now it 's his former female companion who has lost big . Who is v. stiviano ? .")
    model, info = load_dicomer_model()
    assert info["trained_on"].startswith("601 4-sentence windows of GDTB train (open genres")
    assert info["licence"] and info["signature"].startswith("dicomer|variant:DICOMER-N|mode:gdtb-permutation|")
    assert model.neutral_score_ == pytest.approx(-0.40289722902127345, abs=1e-12)
    values = [r.value for r in Dicomer(cache=False).score_batch([m0, m1])]
    assert values == pytest.approx([-1.575500114806635, -1.1356052549023516], abs=1e-12)


def test_permuted_parse_reuses_spacy_analysis():
    pt = ParsedText(TEXTS[0])
    perm = permuted_parsed(pt, [3, 2, 1, 0])
    assert perm.text.startswith("The shares rose again in March.")
    assert len(perm.sentences) == 4 and sorted(perm.words) == sorted(pt.words)


def test_external_relations_bypass_the_analysis_cache(model_file, tmp_path):
    metric = Dicomer(model=model_file, precomputed=str(tmp_path))
    with pytest.warns(UserWarning, match="trained with parser rules-v1-code.*now come from precomputed"):
        (result,) = metric.score_batch([Item(TEXTS[0], id="x.txt")])
    assert not result.ok and "no precomputed parse" in result.message
    assert metric._engine().cache is None and metric._engine().parser_id == "precomputed"
    assert list(tmp_path.iterdir()) == []


# --- the parse cache: read-only, full or corrupt costs one warning, never a score -----------------

def _cache_file(folder) -> str:
    folder.mkdir(parents=True, exist_ok=True)
    return str(AnalysisCache(DiscourseParser(tier=0), folder).path)


def _warnings(capsys) -> list[str]:
    return [line for line in capsys.readouterr().err.splitlines() if line.startswith("warning:")]


@pytest.fixture
def uncached_values(model_file):
    return [r.value for r in Dicomer(model=model_file, cache=False).score_batch(TEXTS)]


def test_read_only_cache_folder_falls_back_to_no_cache(model_file, uncached_values, tmp_path, monkeypatch, capsys):
    import pathlib

    import evalcore.resources.registry as resources

    root = tmp_path / "ro"
    (root / "dicomer").mkdir(parents=True)
    root.chmod(0o555)
    (root / "dicomer").chmod(0o555)
    real_write = pathlib.Path.write_bytes

    def read_only(self, data):  # the superuser writes anywhere: make the folder read-only for it too
        if str(self).startswith(str(root)):
            raise PermissionError(errno.EACCES, "Permission denied", str(self))
        return real_write(self, data)

    monkeypatch.setattr(pathlib.Path, "write_bytes", read_only)
    monkeypatch.setattr(resources, "_WARNED", set())
    monkeypatch.setenv("AESOP_CACHE", str(root))
    capsys.readouterr()
    metric = Dicomer(model=model_file)
    assert [r.value for r in metric.score_batch(TEXTS)] == uncached_values
    assert [r.value for r in metric.score_batch(TEXTS[::-1])] == uncached_values[::-1]
    warned = _warnings(capsys)
    assert len(warned) == 1 and "not usable" in warned[0] and "continuing without it" in warned[0]
    root.chmod(0o755)


def test_corrupt_cache_file_is_ignored_with_one_warning(model_file, uncached_values, tmp_path, capsys):
    path = _cache_file(tmp_path / "cache" / "dicomer")
    with open(path, "wb") as f:
        f.write(b"this is not a database" * 100)
    metric = Dicomer(model=model_file)
    assert [r.value for r in metric.score_batch(TEXTS)] == uncached_values
    assert [r.value for r in metric.score_batch(TEXTS)] == uncached_values
    warned = _warnings(capsys)
    assert len(warned) == 1 and path in warned[0] and "cannot be read" in warned[0]


def test_corrupt_cache_entry_is_ignored(model_file, uncached_values, tmp_path, capsys):
    from coherence.dicomer.analysis import text_key

    path = _cache_file(tmp_path / "cache" / "dicomer")
    with sqlite3.connect(path) as db:
        db.execute("CREATE TABLE analyses (key TEXT PRIMARY KEY, value BLOB NOT NULL)")
        db.execute("INSERT INTO analyses VALUES (?, ?)", (text_key(TEXTS[1]), b"\x80\x05garbage"))
    assert [r.value for r in Dicomer(model=model_file).score_batch(TEXTS)] == uncached_values
    assert len(_warnings(capsys)) == 1


@pytest.mark.parametrize("failure", [OSError(errno.ENOSPC, "No space left on device"),
                                     sqlite3.OperationalError("database or disk is full"),
                                     sqlite3.OperationalError("attempt to write a readonly database")])
def test_full_or_read_only_cache_file_costs_one_warning(model_file, uncached_values, monkeypatch, capsys, failure):
    def cannot_write(self, rows):
        raise failure

    monkeypatch.setattr(AnalysisCache, "_write_rows", cannot_write)
    metric = Dicomer(model=model_file)
    assert [r.value for r in metric.score_batch(TEXTS)] == uncached_values
    assert [r.value for r in metric.score_batch(TEXTS + ["A new text. It is here."])][:3] == uncached_values
    warned = _warnings(capsys)
    assert len(warned) == 1 and "cannot be written" in warned[0] and str(failure) in warned[0]


def test_disk_cache_is_incremental_and_read_lazily(tmp_path, monkeypatch):
    import coherence.dicomer.analysis as analysis

    parser = DiscourseParser(tier=0)
    first = AnalysisCache(parser, tmp_path)
    made = first.analyse(TEXTS[:2])
    first.save()
    first.analyse(TEXTS[2:3])
    first.save()  # adds the third text without rewriting the others
    monkeypatch.setattr(analysis, "parse_with_sentences",
                        lambda texts, **kwargs: pytest.fail(f"re-parsed {len(texts)} texts"))
    second = AnalysisCache(parser, tmp_path)
    assert second.store == {}  # nothing is read before it is asked for
    assert second.analyse(TEXTS[:2]) == made and len(second.store) == 2
    assert len(second.analyse(TEXTS[:3])) == 3


def test_permutation_analyses_cached_and_seeded():
    cache = AnalysisCache(DiscourseParser(tier=0))
    (perms,) = cache.analyse_permutations([TEXTS[0]], k=20, seed=0)
    assert len(perms) == 20
    original = cache.analyse([TEXTS[0]])[0]
    terms = sorted(t.term for t in original.tokens if t.term)
    assert all(p.n_sentences == 4 and sorted(t.term for t in p.tokens if t.term) == terms for p in perms)
    size = len(cache.store)
    again = cache.analyse_permutations([TEXTS[0]], k=20, seed=0)[0]
    assert len(cache.store) == size and again == perms


def test_training_data_modes():
    from coherence.dicomer.train import training_data

    cache = AnalysisCache(DiscourseParser(tier=0))
    summaries = cache.analyse(TEXTS)
    perms = cache.analyse_permutations(TEXTS[:1], k=3)
    texts, y, groups = training_data("combined", summaries, np.array([3.0, 1.0, 2.0]), ["d", "d", "d"],
                                     summaries[:1], perms)
    assert len(texts) == 3 + 4 and list(y[3:]) == [1.0, 0.0, 0.0, 0.0]
    assert set(groups) == {"doc:d", "perm:0"}
    assert len(training_data("listwise", summaries, np.ones(3), ["d"] * 3, [], [])[0]) == 3
    with pytest.raises(ValueError):
        training_data("pointwise", summaries, np.ones(3), ["d"] * 3, [], [])


def test_dicomer_is_registered_for_every_cli():
    from evalcore.metric.registry import get_metric, registered

    spec = registered("coherence")["dicomer"]
    assert spec.reads == "candidate" and spec.target == "coherence.dicomer.metric:Dicomer"
    assert isinstance(get_metric("dicomer", model="m.joblib"), Dicomer)
    with pytest.raises(ValueError, match="unknown parameter 'kernel'; valid: .*model"):
        get_metric("dicomer", model="m.joblib", kernel="rbf")


def test_a_text_the_parser_fails_on_costs_only_itself(model_file, monkeypatch):
    """Texts are parsed in one batch; when the batch fails, each text is parsed alone, so the
    others keep their scores (the values they get scored alone) and the bad one gets an error
    record naming it."""
    from coherence.dicomer import metric as dicomer_metric

    alone = [Dicomer(model=model_file, cache=False).score(t).value for t in (TEXTS[0], TEXTS[2])]
    dicomer_metric.clear_engines()
    parse_batch = DiscourseParser.parse_batch
    batches = []

    def fragile(self, pts):
        batches.append(len(pts))
        if any("zorblax" in pt.text for pt in pts):
            raise RuntimeError("the parser gave up")
        return parse_batch(self, pts)

    monkeypatch.setattr(DiscourseParser, "parse_batch", fragile)
    items = [Item(TEXTS[0], id="a"), Item(TEXTS[1] + " The zorblax agreed.", id="bad"), Item(TEXTS[2], id="c")]
    good, bad, other = Dicomer(model=model_file, cache=False).score_batch(items)
    assert [good.value, other.value] == alone
    assert not bad.ok and bad.item == "bad" and "the parser gave up" in bad.message
    assert batches[0] == 3 and max(batches[1:]) == 1
