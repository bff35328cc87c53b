"""Summary metrics in other languages: TESLA-S and ROUGE read a language with ``lang``
(evalcore.text.languages), English stays as it was, English-only metrics refuse other languages
with an error record naming the language and the metric."""

import json
from pathlib import Path

import pytest
from rouge_score import rouge_scorer

from evalcore.metric import ErrorRecord, Item
from evalcore.metric.inputs import clean_text
from evalcore.metric.registry import get_metric
from evalcore.text.languages import LanguageTokenizer
from summeval.cli import main
from summeval.metrics import Rouge, RougeSU, TeslaS

#: (lang, reference, candidate): news-like sentences in several scripts, NFD French included
PAIRS = [
    ("de", "Die geplante Fusion von Fiat Chrysler und PSA macht Beschäftigten Sorgen.",
     "Die Fusion von Fiat und PSA macht den Beschäftigten und Politikern große Sorgen."),
    ("fr", "Le président a annoncé une réforme des retraites pour l'été.",
     "Le président annonce la réforme des retraites cet été."),
    ("fr", "Le pre\u0301sident a annonce\u0301 une re\u0301forme.", "Le président a annoncé la réforme."),
    ("ru", "Президент России Владимир Путин заявил, что выборы пройдут в сентябре.",
     "Владимир Путин заявил о выборах в сентябре."),
    ("zh", "国务院总理李克强今天在北京会见了德国总理。", "李克强在北京会见德国总理。"),
    ("ja", "東京都は新しい感染対策を発表しました。", "東京都が感染対策を発表した。"),
    ("ar", "أعلن الرئيس عن خطة جديدة للاقتصاد", "أعلن الرئيس خطة جديدة"),
]
ROUGE_KEYS = {"rouge-1": "rouge1", "rouge-2": "rouge2", "rouge-l": "rougeL"}


@pytest.mark.parametrize("kind", list(ROUGE_KEYS))
@pytest.mark.parametrize("stem", [True, False])
def test_rouge_of_a_language_is_rouge_score_given_the_same_tokenizer(kind, stem):
    """Value for value (exact float equality) against Google's rouge-score with our tokenizer, on
    the texts the input rule hands every metric (NFC)."""
    for lang, ref, cand in PAIRS:
        ours = Rouge(kind=kind, stem=stem, lang=lang, measure="f").score(ref, cand)
        key = ROUGE_KEYS[kind]
        scorer = rouge_scorer.RougeScorer([key], tokenizer=LanguageTokenizer(lang, stem))
        theirs = scorer.score(clean_text(ref), clean_text(cand))[key]
        assert (ours.precision, ours.recall, ours.f) == (theirs.precision, theirs.recall, theirs.fmeasure), lang
        assert ours.value > 0, lang


def test_english_signatures_are_unchanged_and_other_languages_name_their_parts():
    assert str(TeslaS().signature()) == ("tesla-s|ngrams:1+sb4|fw:0.1|alpha:0.8|refs:max|tok:ptb-lc|stem:no|fwd:list"
                                         "|v:0.2.0")
    assert str(Rouge().signature()) == "rouge-2|measure:recall|refs:max|tok:rouge-score|stem:porter|v:0.2.0"
    assert str(TeslaS(lang="en").signature()) == str(TeslaS().signature())
    sig = str(TeslaS(lang="ru", stem=True).signature())
    assert "lang:ru" in sig and "tok:unicode-words-cf" in sig and "stem:snowball-russian" in sig
    assert "sw:stop-words-" in sig and ":russian" in sig and "syn:none" in sig
    assert "tok:unicode-characters-cf" in str(RougeSU(lang="zh").signature())
    assert "|stem:no-snowball|" in str(TeslaS(lang="ko", stem=True).signature())  # why the words stay whole
    assert "|stem:no|" in str(TeslaS(lang="ko").signature())


def test_english_values_do_not_move_with_the_new_parameter():
    ref, cand = "The cat sat on the mat near the door.", "A cat was sitting on the mat."
    assert TeslaS(lang="en").score(ref, cand) == TeslaS().score(ref, cand)
    assert Rouge(kind="rouge-l", lang="en").score(ref, cand) == Rouge(kind="rouge-l").score(ref, cand)


@pytest.mark.parametrize("lang, ref, cand", [p for p in PAIRS if p[0] in ("ru", "zh", "ja")])
def test_russian_chinese_japanese_score_where_english_reads_nothing(lang, ref, cand):
    for metric in (TeslaS(lang=lang), Rouge(kind="rouge-2", lang=lang), RougeSU(lang=lang)):
        score = metric.score(ref, cand)
        assert score.value > 0 and not score.notes, (metric.name, score)
    english = Rouge(kind="rouge-1").score_batch([Item(cand, (ref,))])[0]  # English reads [a-z0-9] only
    assert not english.ok and "not Latin script, the script of lang=en" in english.message


def test_a_shared_character_is_never_a_zero_in_chinese():
    for metric in (TeslaS(lang="zh"), Rouge(kind="rouge-1", lang="zh"), RougeSU(lang="zh")):
        assert metric.score("他昨天去了上海。", "北京很冷，上海很热。").value > 0, metric.name


def test_a_text_in_another_script_is_an_error_record_for_every_metric():
    """Chinese read as German or as English (the default): an error record naming the script, not a
    silent zero with a note; every metric alike."""
    item = Item("李克强在北京会见德国总理。", ("国务院总理李克强今天在北京会见了德国总理。",), id="t1/a")
    for metric in (TeslaS(lang="de"), Rouge(kind="rouge-1", lang="de"), TeslaS(), Rouge(kind="rouge-1"),
                   RougeSU(), get_metric("rouge-l")):
        record = metric.score_batch([item])[0]
        assert isinstance(record, ErrorRecord) and record.item == "t1/a", metric.name
        assert "candidate: 100% of letters are not Latin script" in record.message, metric.name
    mixed = TeslaS().score_batch([Item("A cat sat on the mat.", ("国务院总理李克强今天在北京会见了德国总理。",))])[0]
    assert isinstance(mixed, ErrorRecord) and "reference 1: 100% of letters are not Latin" in mixed.message
    assert TeslaS(lang="zh").score_batch([item])[0].ok


def test_an_item_in_another_language_is_read_in_its_language_or_refused():
    items = [Item("Владимир Путин заявил о выборах.", ("Путин заявил, что выборы пройдут.",), lang="ru"),
             Item("A cat sat on the mat.", ("The cat sat on the mat.",)),
             Item("བཀྲ་ཤིས་བདེ་ལེགས།", ("བཀྲ་ཤིས།",), lang="bo")]
    ru, en, bo = TeslaS().score_batch(items)
    assert ru.value == TeslaS(lang="ru").score(items[0].references, items[0].candidate).value
    assert any(n.startswith("lang: read as ru (tesla-s|") for n in ru.notes)
    assert en.value == TeslaS().score(items[1].references, items[1].candidate).value
    assert not bo.ok and "tesla-s does not read language 'bo'" in bo.message


@pytest.mark.parametrize("lang, ref, cand", [
    ("bn", "প্রধানমন্ত্রী আজ ঢাকায় নতুন সেতুর উদ্বোধন করেছেন।", "প্রধানমন্ত্রী ঢাকায় সেতুর উদ্বোধন করেছেন।"),
    ("am", "ጠቅላይ ሚኒስትሩ ዛሬ በአዲስ አበባ አዲስ ድልድይ መርቀዋል።", "ጠቅላይ ሚኒስትሩ በአዲስ አበባ ድልድይ መርቀዋል።"),
])
def test_bengali_and_amharic_are_read_unstemmed_and_say_so(lang, ref, cand):
    for metric in (TeslaS(lang=lang, stem=True), Rouge(kind="rouge-2", lang=lang), RougeSU(lang=lang)):
        score = metric.score(ref, cand)
        assert score.value > 0.3 and not score.notes, (metric.name, score)
    assert "stem:no-snowball" in str(TeslaS(lang=lang, stem=True).signature())


def test_thai_is_read_by_icu_word_breaks():
    pytest.importorskip("icu")
    ref, cand = "นายกรัฐมนตรีเปิดสะพานใหม่ในกรุงเทพวันนี้", "นายกรัฐมนตรีเปิดสะพานในกรุงเทพ"
    for metric in (TeslaS(lang="th"), Rouge(kind="rouge-1", lang="th")):
        assert 0.3 < metric.score(ref, cand).value < 1, metric.name
    record = TeslaS().score_batch([Item(cand, (ref,), lang="th")])[0]
    assert record.ok and "tok:icu" in record.notes[-1]


def test_english_only_metrics_refuse_another_language_naming_both():
    pytest.importorskip("spacy")
    item = Item("Die Fusion macht Sorgen.", ("Die geplante Fusion macht Beschäftigten Sorgen.",), id="d1", lang="de")
    for name in ("dicomer", "cremer"):
        record = get_metric(name).score_batch([item])[0]
        assert not record.ok and record.item == "d1"
        assert record.message.startswith(f"{name} does not read language 'de'"), record.message


def test_pos_function_words_refuse_another_language():
    with pytest.raises(ValueError, match="English"):
        TeslaS(function_words="pos", lang="de").validate()
    record = TeslaS(function_words="pos").score_batch([Item("Die Fusion.", ("Die Fusion.",), lang="de")])[0]
    assert not record.ok and "lang 'de'" in record.message


def _jsonl(path: Path, rows) -> Path:
    path.write_text("".join(json.dumps(r, ensure_ascii=False) + "\n" for r in rows), encoding="utf-8")
    return path


def test_cli_lang_scores_what_reads_it_and_refuses_the_rest(tmp_path, capsys):
    pytest.importorskip("spacy")
    rows = [{"topic": "t1", "system": "a", "summary": "Путин заявил о выборах в сентябре.",
             "references": ["Владимир Путин заявил, что выборы пройдут в сентябре."]},
            {"topic": "t1", "system": "b", "summary": "Выборы пройдут осенью.",
             "references": ["Владимир Путин заявил, что выборы пройдут в сентябре."]}]
    path = _jsonl(tmp_path / "ru.jsonl", rows)
    code = main(["score", "-i", str(path), "--lang", "ru", "-m", "tesla-s", "-m", "rouge-2", "-m", "dicomer",
                 "--format", "json"])
    out = capsys.readouterr()
    assert code == 1
    doc = json.loads(out.out)
    assert "lang:ru" in doc["signature"]["tesla-s"]["short"]
    for summary in doc["summaries"]:
        assert summary["scores"]["tesla-s"] > 0 and summary["scores"]["rouge-2"] is not None
        assert "dicomer does not read language 'ru'" in summary["errors"]["dicomer"]


def test_cli_per_item_lang_and_a_script_error_record(tmp_path, capsys):
    """The second line names no language: read as English (the default), it is an error record for
    every metric naming the script, and the command exits 1."""
    rows = [{"topic": "t1", "system": "a", "summary": "李克强在北京会见德国总理。",
             "references": ["国务院总理李克强今天在北京会见了德国总理。"], "lang": "zh"},
            {"topic": "t2", "system": "a", "summary": "李克强在北京会见德国总理。",
             "references": ["国务院总理李克强今天在北京会见了德国总理。"]}]
    path = _jsonl(tmp_path / "zh.jsonl", rows)
    code = main(["score", "-i", str(path), "-m", "tesla-s", "-m", "rouge-1", "--format", "jsonl"])
    out = capsys.readouterr()
    assert code == 1
    zh, en = (json.loads(line) for line in out.out.splitlines())
    assert zh["scores"]["tesla-s"] > 0.5 and zh["scores"]["rouge-1"] > 0.5
    for name in ("tesla-s", "rouge-1"):
        assert en["scores"].get(name) is None and "not Latin script, the script of lang=en" in en["errors"][name]


def test_a_null_lang_field_is_an_error_not_english(tmp_path, capsys):
    path = _jsonl(tmp_path / "null.jsonl", [{"topic": "t", "system": "s", "summary": "Выборы пройдут осенью.",
                                             "references": ["Выборы пройдут в сентябре."], "lang": None}])
    assert main(["score", "-i", str(path)]) == 2
    assert "null.jsonl:1: 'lang' must be an ISO 639-1 code such as \"de\", got null" in capsys.readouterr().err


@pytest.mark.parametrize("how", ["option", "every line"])
def test_a_language_no_metric_can_read_is_refused_per_item_and_per_metric(tmp_path, capsys, monkeypatch, how):
    """Thai without the segment extra, and TESLA-S-POS (English tags) on German: error records for
    those (metric, summary) pairs, exit 1, the other metrics' scores kept."""
    import evalcore.extras

    monkeypatch.setattr(evalcore.extras, "is_installed", lambda extra: extra != "segment")
    thai = [{"topic": "t", "system": "s", "summary": "สวัสดีครับ", "references": ["สวัสดี"]}]
    if how == "every line":
        thai[0]["lang"] = "th"
    path = _jsonl(tmp_path / "th.jsonl", thai)
    code = main(["score", "-i", str(path), "-m", "tesla-s", "--format", "jsonl",
                 *(["--lang", "th"] if how == "option" else [])])
    out = capsys.readouterr()
    row = json.loads(out.out)
    assert code == 1 and row["scores"].get("tesla-s") is None and "aesop-eval[segment]" in row["errors"]["tesla-s"]
    pytest.importorskip("spacy")
    german = _jsonl(tmp_path / "de.jsonl", [{"topic": "t", "system": "s", "summary": "Die Fusion macht Sorgen.",
                                             "references": ["Die geplante Fusion macht Sorgen."]}])
    code = main(["score", "-i", str(german), "--lang", "de", "-m", "tesla-s", "-m", "tesla-s-pos", "--format", "json"])
    doc = json.loads(capsys.readouterr().out)
    (summary,) = doc["summaries"]
    assert code == 1 and summary["scores"]["tesla-s"] > 0 and "lang:de" in doc["signature"]["tesla-s"]["short"]
    assert summary["scores"].get("tesla-s-pos") is None and "English" in summary["errors"]["tesla-s-pos"]


def test_a_bad_lang_field_names_its_line(tmp_path, capsys):
    path = _jsonl(tmp_path / "bad.jsonl", [{"topic": "t", "system": "s", "summary": "x", "references": ["y"],
                                            "lang": "German"}])
    assert main(["score", "-i", str(path)]) == 2
    assert "'lang' must be an ISO 639-1 code" in capsys.readouterr().err


def test_the_documented_command_on_the_demo_file(capsys):
    """docs/languages.md's command: every summary scored in its language, DICOMER refused, exit 1."""
    pytest.importorskip("spacy")
    demo = Path(__file__).resolve().parents[2] / "data" / "demo" / "lang" / "summaries.jsonl"
    code = main(["score", "-i", str(demo), "-m", "tesla-s", "-m", "rouge-2", "-m", "dicomer", "--format", "tsv"])
    out = capsys.readouterr().out.splitlines()
    assert code == 1 and out[0].split("\t") == ["topic", "system", "tesla-s", "rouge-2", "dicomer", "errors"]
    rows = {(r.split("\t")[0], r.split("\t")[1]): r.split("\t") for r in out[1:]}
    assert len(rows) == 6
    for (topic, system), row in rows.items():
        assert "dicomer does not read language" in row[5]
        if system == "1":  # the close summary beats the off-topic one in every language
            assert float(row[2]) > float(rows[topic, "2"][2]) and float(row[3]) > float(rows[topic, "2"][3])


def test_stem_help_says_snowball_per_language_and_which_have_none(capsys):
    with pytest.raises(SystemExit):
        main(["score", "--help"])
    text = " ".join(capsys.readouterr().out.split())
    assert "Porter for English, the language's Snowball stemmer" in text and "stem:no-snowball" in text
    for code in ("he", "ja", "ko", "vi", "bn", "am"):
        assert f" {code}," in text or f" {code})" in text, code


def test_lang_auto_reads_each_summary_in_the_language_the_identifier_finds(tmp_path, capsys):
    pytest.importorskip("py3langid")
    demo = Path(__file__).resolve().parents[2] / "data" / "demo" / "lang" / "summaries.jsonl"
    rows = [json.loads(line) for line in demo.read_text("utf-8").splitlines()]
    unnamed = _jsonl(tmp_path / "unnamed.jsonl", [{k: v for k, v in r.items() if k != "lang"} for r in rows])
    assert main(["score", "-i", str(demo), "-m", "tesla-s", "-m", "rouge-2", "--format", "tsv"]) == 0
    named = capsys.readouterr().out
    assert main(["score", "-i", str(unnamed), "--lang", "auto", "-m", "tesla-s", "-m", "rouge-2", "--format",
                 "tsv"]) == 0
    out = capsys.readouterr()
    assert out.out == named and "--lang auto: py3langid-0.4.0 read the summaries as de 2, ru 2, zh 2" in out.err


def test_lang_auto_without_its_extra_is_a_usage_error_naming_the_install(tmp_path, capsys, monkeypatch):
    import evalcore.extras

    monkeypatch.setattr(evalcore.extras, "missing_modules", lambda extra: ["py3langid"] if extra == "langid" else [])
    path = _jsonl(tmp_path / "x.jsonl", [{"topic": "t", "system": "s", "summary": "A cat.", "references": ["A cat."]}])
    assert main(["score", "-i", str(path), "--lang", "auto"]) == 2
    out = capsys.readouterr()
    assert out.out == "" and "aesop-eval[langid]" in out.err


def test_a_greek_copy_in_capitals_is_a_copy():
    """Issue 38: the capitals copy of a Greek reference scored TESLA-S .179, below a paraphrase."""
    ref = "Η κυβέρνηση ανακοίνωσε νέα μέτρα για την οικονομία της χώρας."
    caps = "Η ΚΥΒΕΡΝΗΣΗ ΑΝΑΚΟΙΝΩΣΕ ΝΕΑ ΜΕΤΡΑ ΓΙΑ ΤΗΝ ΟΙΚΟΝΟΜΙΑ ΤΗΣ ΧΩΡΑΣ."
    paraphrase = "Νέα μέτρα για την οικονομία ανακοίνωσε η κυβέρνηση."
    for metric in (TeslaS(lang="el"), Rouge(kind="rouge-2", lang="el")):
        copy, other = metric.score(ref, caps).value, metric.score(ref, paraphrase).value
        assert copy == pytest.approx(1.0) and copy > other, metric.name
    assert "tok:unicode-words-cf-noacc" in str(TeslaS(lang="el").signature())
