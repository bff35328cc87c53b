"""TESLA-M: the papers' worked matching examples, each similarity, the F-measures by hand, the
multi-reference rule, bad input and determinism."""

import math

import numpy as np
import pytest

from evalcore.matching import bag_overlap, match
from evalcore.metric import Item
from mteval.lexical import german
from mteval.lexical.preprocess import Segment, function_word, prepare
from mteval.lexical.similarity import encode, ngram_similarity, unigram_ms
from mteval.tesla.btng import FEATURES, bags, btng_fmeasures, ms_problem
from mteval.tesla.metric import TeslaM


def seg(*tokens: str) -> Segment:
    """A segment from ``word/lemma/TAG`` strings; a ``*`` suffix marks a function word."""
    words, lemmas, tags, function = [], [], [], []
    for t in tokens:
        word, lemma, tag = t.rstrip("*").split("/")
        words.append(word)
        lemmas.append(lemma)
        tags.append(tag)
        function.append(t.endswith("*"))
    return Segment(tuple(words), tuple(lemmas), tuple(tags), tuple(function))


def position_weights(segment: Segment, n: int, discount: float = 0.1) -> np.ndarray:
    """The weight of the n-gram starting at every position (no merging of equal n-grams)."""
    w = np.where(segment.function, discount, 1.0)
    return np.array([w[i:i + n].prod() for i in range(len(segment) - n + 1)])


def starts(segment: Segment, n: int) -> np.ndarray:
    return np.arange(max(len(segment) - n + 1, 0))


def unigram_pos(x: Segment, y: Segment) -> np.ndarray:
    return (np.array(x.tags)[:, None] == np.array(y.tags)[None, :]).astype(float)


# ---- the worked examples (spec section 2), through the shared matcher ---------------------------
# The plain texts lost the figures' edge endpoints; these reconstructions use the printed node
# weights and edge similarities and reproduce the printed optima.

def wmt2011_figure1() -> tuple[list[float], list[float], np.ndarray]:
    """Reference bigrams of "Good morning , sir ." (weights 1.0, 0.1, 0.1, 0.1) against the
    candidate bigrams of "Hello , Querrien ." (0.01, 0.1, 0.1); edges 0.5, 0.1, 0.8, 0.4, 0.8."""
    x = [1.0, 0.1, 0.1, 0.1]  # Good morning | morning , | , sir | sir .
    y = [0.01, 0.1, 0.1]  # Hello , | , Querrien | Querrien .
    sim = np.zeros((4, 3))
    sim[0, 0], sim[1, 0] = 0.5, 0.1  # Good morning ~ Hello , ; morning , ~ Hello ,
    sim[2, 1], sim[1, 1] = 0.8, 0.4  # , sir ~ , Querrien ; morning , ~ , Querrien
    sim[3, 2] = 0.8  # sir . ~ Querrien .
    return x, y, sim


def tesla2010_figure1() -> tuple[list[float], list[float], np.ndarray]:
    """Weights 1.0, 0.8, 0.2, 0.1 against 1.0, 0.8, 0.1, 0.2; edges 0.5, 0.5, 1.0, 1.0."""
    x, y = [1.0, 0.8, 0.2, 0.1], [1.0, 0.8, 0.1, 0.2]
    sim = np.zeros((4, 4))
    sim[0, 0], sim[1, 1], sim[2, 1], sim[3, 2] = 0.5, 0.5, 1.0, 1.0
    return x, y, sim


@pytest.mark.parametrize("method", ["auto", "network-simplex", "highs", "pulp"])
def test_wmt2011_figure1_optimum_is_0_165(method):
    assert match(*wmt2011_figure1(), method=method) == pytest.approx(0.5 * 0.01 + 0.8 * 0.1 + 0.8 * 0.1)
    assert match(*wmt2011_figure1(), method=method) == pytest.approx(0.165)


@pytest.mark.parametrize("method", ["auto", "network-simplex", "highs", "pulp"])
def test_tesla2010_figure1_optimum_is_1_1(method):
    assert match(*tesla2010_figure1(), method=method) == pytest.approx(0.5 * 1.0 + 0.5 * 0.6 + 1.0 * 0.2 + 1.0 * 0.1)
    assert match(*tesla2010_figure1(), method=method) == pytest.approx(1.1)


def test_wmt2011_figure1_weights_follow_from_the_discount():
    """The figure's weights are the bigram weights of the tagged sentences (0.1 per function
    word; the figure counts punctuation and "Hello" as function words)."""
    ref = bags(seg("Good/good/JJ", "morning/morning/NN", ",/,/,*", "sir/sir/NN", "././.*"), 0.1)
    hyp = bags(seg("Hello/hello/UH*", ",/,/,*", "Querrien/querrien/NNP", "././.*"), 0.1)
    assert ref.ms_weights[1] == pytest.approx([1.0, 0.1, 0.1, 0.1])
    assert hyp.ms_weights[1] == pytest.approx([0.01, 0.1, 0.1])
    assert ref.totals[1] == pytest.approx(1.3) and hyp.totals[1] == pytest.approx(0.21)


# ---- similarities ---------------------------------------------------------------------------------
def test_s_ms_cases():
    ref = encode(seg("car/car/NN", "halted/halt/VBD", "quickly/quickly/RB", "the/the/DT*"), 0.1)
    hyp = encode(seg("cars/car/NNS", "automobile/automobile/NN", "stopped/stop/VBD", "a/a/DT*"), 0.1)
    u = unigram_ms(ref, hyp)
    assert u[0, 0] == 1.0  # same lemma, other tag
    assert u[0, 1] == 1.0  # WordNet synonyms (car.n.01), same tag: (1 + 1) / 2
    assert u[1, 2] == 1.0  # halt ~ stop (stop.v.01), same tag
    assert u[0, 3] == 0.0  # no shared synset, other tag
    assert u[2, 1] == 0.0
    assert u[1, 0] == 0.0
    assert u[3, 3] == 0.5  # the ~ a: determiners have no synsets here; same tag: (0 + 1) / 2
    # synonyms with different tags: (1 + 0) / 2
    syn_other_tag = unigram_ms(encode(seg("car/car/NN"), 0.1), encode(seg("automobiles/automobile/NNS"), 0.1))
    assert syn_other_tag[0, 0] == 0.5


def test_s_ms_without_synonyms_or_tags():
    ref, hyp = seg("car/car/NN", "big/big/JJ"), seg("automobile/automobile/NN", "big/big/JJR")
    no_syn = unigram_ms(encode(ref, 0.1, synonyms=False), encode(hyp, 0.1, synonyms=False))
    assert no_syn[0, 0] == 0.5 and no_syn[1, 1] == 1.0
    no_pos = unigram_ms(encode(ref, 0.1, synonyms=False), encode(hyp, 0.1, synonyms=False), pos=False)
    assert no_pos[0, 0] == 0.0 and no_pos[1, 1] == 1.0  # lemma identity only


def test_ngram_similarity_is_zero_if_a_position_is_zero_else_the_mean():
    u = np.array([[1.0, 0.5, 0.0],
                  [0.0, 0.5, 1.0],
                  [0.5, 0.0, 1.0]])
    b = ngram_similarity(u, 2, np.arange(2), np.arange(2))
    assert b[0, 0] == pytest.approx((1.0 + 0.5) / 2)  # (0,0) and (1,1)
    assert b[0, 1] == pytest.approx((0.5 + 1.0) / 2)  # (0,1) and (1,2)
    assert b[1, 0] == 0.0  # (1,0) = 0
    assert b[1, 1] == pytest.approx((0.5 + 1.0) / 2)  # (1,1) and (2,2)
    t = ngram_similarity(u, 3, np.arange(1), np.arange(1))
    assert t.shape == (1, 1) and t[0, 0] == pytest.approx((1.0 + 0.5 + 1.0) / 3)
    assert ngram_similarity(u, 2, np.array([1]), np.array([0])).tolist() == [[0.0]]  # chosen starts only


# ---- F-measures by hand -----------------------------------------------------------------------------
def test_btng_fmeasures_by_hand():
    ref = seg("the/the/DT*", "car/car/NN", "stopped/stop/VBD")
    hyp = seg("an/an/DT*", "automobile/automobile/NN", "halted/halt/VBD")
    # unigrams: the~an 0.5 (weight 0.1), car~automobile 1, stop~halt 1; totals 2.1 on both sides
    # bigrams: (the car)~(an automobile) 0.75 at weight 0.1, (car stopped)~(automobile halted) 1
    # trigram: (0.5 + 1 + 1) / 3 at weight 0.1; tags equal throughout: s_pos F = 1
    expected = [2.05 / 2.1, 1.075 / 1.1, (2.5 / 3 * 0.1) / 0.1, 1.0, 1.0, 1.0]
    assert btng_fmeasures(ref, hyp) == pytest.approx(expected)


def test_f_measure_weights_recall_by_alpha():
    ref = seg("a/a/NN", "b/b/NN", "c/c/NN", "d/d/NN")
    hyp = seg("a/a/NN", "x/x/VB")  # one of 4 reference words, one of 2 candidate words
    p, r = 1 / 2, 1 / 4
    f = btng_fmeasures(ref, hyp, alpha=0.8)[0]
    assert f == pytest.approx(p * r / (0.8 * p + 0.2 * r))
    assert btng_fmeasures(hyp, ref, alpha=0.8)[0] != pytest.approx(f)  # recall-heavy: not symmetric


def test_orders_neither_side_has_are_left_out():
    f = btng_fmeasures(seg("dog/dog/NN"), seg("dog/dog/NN"))
    assert f[0] == 1.0 and f[3] == 1.0 and np.isnan(f[[1, 2, 4, 5]]).all()
    g = btng_fmeasures(seg("dog/dog/NN", "ran/run/VBD"), seg("dog/dog/NN"))
    assert g[1] == 0.0 and np.isnan(g[2])  # one side has bigrams: F = 0


def test_closed_form_equals_lp_on_s_pos():
    rng = np.random.default_rng(0)
    tags = ["NN", "VB", "DT", "JJ"]

    def toks(k):
        return [f"w{i}/w{i}/{tags[j]}" + ("*" if tags[j] == "DT" else "") for i, j in enumerate(rng.integers(0, 4, k))]

    for _ in range(30):
        x, y = seg(*toks(rng.integers(3, 12))), seg(*toks(rng.integers(3, 12)))
        for n in (1, 2, 3):
            sim = ngram_similarity(unigram_pos(x, y), n, starts(x, n), starts(y, n))
            lp = match(position_weights(x, n), position_weights(y, n), sim, method="network-simplex")
            assert bag_overlap(bags(x, 0.1).pos[n - 1], bags(y, 0.1).pos[n - 1]) == pytest.approx(lp, abs=1e-9)


def test_merged_s_ms_bags_give_the_lp_of_all_occurrences():
    ref = prepare(["The cat sat on the mat and the cat slept on the mat."])[0]
    hyp = prepare(["A cat was sitting on a rug, and the cat was sleeping on the carpet."])[0]
    for n in (1, 2, 3):
        xw, yw, sim = ms_problem(ref, hyp, n)
        full = ngram_similarity(unigram_ms(encode(ref, 0.1), encode(hyp, 0.1)), n, starts(ref, n), starts(hyp, n))
        if n == 1:
            assert len(xw) < len(ref) and len(yw) < len(hyp)  # repeated words are one entry
        assert match(xw, yw, sim) == pytest.approx(
            match(position_weights(ref, n), position_weights(hyp, n), full, method="pulp"), abs=1e-9)


# ---- the metric ----------------------------------------------------------------------------------------
REF = "The quick brown fox jumps over the lazy dog."
HYP = "A fast brown fox leaped over a lazy dog!"


def test_identical_segments_score_one():
    s = TeslaM().score([REF], REF)
    assert s.value == pytest.approx(1.0)
    assert set(s.components) == set(FEATURES) and all(v == pytest.approx(1.0) for v in s.components.values())


def test_score_is_the_mean_of_the_six_f_measures():
    s = TeslaM().score([REF], HYP)
    ref, hyp = prepare([REF, HYP])
    f = btng_fmeasures(ref, hyp)
    assert s.value == pytest.approx(f.mean())
    assert [s.components[k] for k in FEATURES] == pytest.approx(f.tolist())
    assert 0 < s.value < 1


def test_several_references_are_averaged_or_maxed():
    refs = [REF, "A quick brown fox jumped over the sleepy dog.", "Something else entirely."]
    each = [TeslaM().score([r], HYP).value for r in refs]
    assert TeslaM().score(refs, HYP).value == pytest.approx(np.mean(each))
    assert TeslaM(multi_ref="max").score(refs, HYP).value == pytest.approx(max(each))


def test_corpus_score_is_the_mean_of_sentence_scores():
    items = [([REF], HYP), ([REF], REF), (["Good morning, sir."], "Hello, Querrien.")]
    m = TeslaM()
    sentences = [r.value for r in m.score_batch(items)]
    assert m.corpus_score(items).value == pytest.approx(np.mean(sentences))


def test_bad_segments_give_error_records_and_keep_the_others():
    items = [([REF], HYP), (["..."], HYP), ([REF], "?!"), Item(HYP, (), id="no-refs"), ([REF], "")]
    out = TeslaM().score_batch(items)
    assert len(out) == len(items)
    assert out[0].ok and out[0].value > 0
    assert not out[1].ok and "reference 1 has no word" in out[1].message
    assert out[2].ok and out[2].value == 0.0  # a candidate without words matches nothing
    assert not out[3].ok
    assert out[4].ok and out[4].value == 0.0 and out[4].notes[0].startswith("empty")  # an empty output is scored


def test_deterministic_and_batch_equals_one_by_one():
    items = [([REF], HYP), (["Good morning, sir."], "Hello, Querrien."), ([HYP], REF)]
    first = [r.value for r in TeslaM().score_batch(items)]
    assert [r.value for r in TeslaM().score_batch(items)] == first
    assert [TeslaM().score(refs, cand).value for refs, cand in items] == first


def test_signature_names_every_choice():
    sig = str(TeslaM().signature())
    for field in ("alpha:0.8", "fw:0.1", "refs:mean", "lang:en", "ngrams:1-3", "sim:ms+pos", "pos:ptb",
                  "syn:wordnet-3.0", "tagger:en_core_web_sm"):
        assert field in sig
    es = str(TeslaM(language="es").signature())
    assert "pos:none" in es and "syn:none" in es and "lemma:simplemma" in es and "sim:ms|" in es


def test_targets_without_tags_use_lemma_identity_only():
    s = TeslaM(language="es").score(["Las casas eran más grandes."], "La casa era grande.")
    assert set(s.components) == {"ms1", "ms2", "ms3"}
    assert s.value == pytest.approx(np.mean([s.components[k] for k in ("ms1", "ms2", "ms3")]))
    assert s.components["ms1"] > 0.5  # casas/casa, eran/era, grandes/grande share lemmas


def test_german_is_tagged_with_stts_and_lemmatised_by_hanta():
    """Hand-checked: STTS tags (HanTa's "VV(FIN)" written as STTS "VVFIN"), lemmas of inflected
    words and contracted prepositions, function words by closed class (modals and separable
    prefixes included, pronominal adverbs not)."""
    houses, away = prepare(["Die Häuser waren größer, als ich dachte.",
                            "Er kann sich zur Zeit nicht darum kümmern, denn er fährt morgen weg."], "de")
    assert houses.words == ("Die", "Häuser", "waren", "größer", "als", "ich", "dachte")
    assert houses.lemmas == ("der", "haus", "sein", "groß", "als", "ich", "denken")
    assert houses.tags == ("ART", "NN", "VAFIN", "ADJD", "KOKOM", "PPER", "VVFIN")
    assert houses.function == (True, False, True, False, True, True, False)
    assert away.tags == ("PPER", "VMFIN", "PRF", "APPRART", "NN", "PTKNEG", "PROAV", "VVINF", "KON", "PPER",
                         "VVFIN", "ADV", "PTKVZ")
    assert (away.lemmas[1], away.lemmas[10]) == ("können", "fahren")  # kann, fährt
    assert [w for w, f in zip(away.words, away.function) if not f] == ["Zeit", "darum", "kümmern", "fährt", "morgen"]


@pytest.mark.parametrize("hanta,stts_tag,function", [
    ("VV(FIN)", "VVFIN", False), ("VM(INF)", "VMINF", True), ("VA(PP)", "VAPP", True), ("ADJ(A)", "ADJA", False),
    ("NNA", "NN", False), ("NNI", "NN", False), ("NE", "NE", False), ("ART", "ART", True), ("PPOSAT", "PPOSAT", True),
    ("APPO", "APPO", True), ("KOUI", "KOUI", True), ("PTKZU", "PTKZU", True), ("PTKANT", "PTKANT", True),
    ("ITJ", "ITJ", True), ("PWAV", "PWAV", False), ("CARD", "CARD", False), ("TRUNC", "TRUNC", False),
])
def test_german_tags_are_written_as_stts_and_function_words_follow_the_english_rule(hanta, stts_tag, function):
    assert german.stts(hanta) == stts_tag
    assert function_word(german.upos(stts_tag), stts_tag) is function


def test_german_signature_names_hanta_and_all_six_fmeasures_exist():
    m = TeslaM(language="de")
    sig = str(m.signature())
    for field in ("lang:de", "sim:ms+pos", "tok:spacy-", "tagger:hanta-1.2.1", "pos:stts", "lemma:hanta-1.2.1",
                  "fwd:pos+intj", "syn:none"):
        assert field in sig
    assert "simplemma" not in sig and "spacy-stoplist" not in sig
    ref = "Die Regierung hat die Steuern im letzten Jahr deutlich erhöht."
    assert m.score([ref], ref).value == pytest.approx(1.0)
    s = m.score([ref], "Im vergangenen Jahr erhöhte die Regierung die Abgaben stark.")
    assert set(s.components) == set(FEATURES) and 0 < s.value < 1
    assert s.components["pos1"] > s.components["ms1"] * 0.5  # equal tags count where lemmas differ
    inflected = m.score(["Die Häuser waren größer."], "Das Haus war groß.")  # same lemmas and tags
    assert inflected.value == pytest.approx(1.0)


@pytest.mark.parametrize("params", [dict(alpha=1.0), dict(discount=0), dict(multi_ref="all"), dict(language="xx")])
def test_bad_parameters_are_refused(params):
    with pytest.raises(ValueError):
        TeslaM(**params).validate()


def test_undefined_components_are_left_out_of_the_corpus_means():
    m = TeslaM()
    scores = [m.score(["dog"], "dog"), m.score([REF], HYP)]
    corpus = m.aggregate(scores)
    assert corpus.components["ms3"] == pytest.approx(scores[1].components["ms3"])
    assert corpus.components["ms1"] == pytest.approx((1.0 + scores[1].components["ms1"]) / 2)
    assert not math.isnan(corpus.value)


def test_preparation_drops_non_alphanumeric_tokens_and_flags_function_words_by_pos():
    (s,) = prepare(["The cats weren't running -- 3.5% faster!"])
    assert s.words == ("The", "cats", "were", "n't", "running", "3.5", "faster")
    assert s.lemmas[:5] == ("the", "cat", "be", "not", "run")
    assert s.tags[1] == "NNS"  # Penn Treebank tags for English
    assert s.function == (True, False, True, True, False, False, False)


def test_interjections_are_function_words_as_in_wmt2011_figure1():
    """The figure weighs "Hello ," 0.01: "Hello" (UH) is discounted like a function word."""
    hello, good = prepare(["Hello, Querrien.", "Good morning, sir."])
    assert hello.tags[0] == "UH" and hello.function == (True, False)
    assert good.function == (False, False, False)
    assert bags(hello, 0.1).ms_weights[1] == pytest.approx([0.1])
    assert "|fwd:pos+intj|" in str(TeslaM().signature())


@pytest.mark.parametrize("language,ref,hyp,pos", [
    ("fr", "Les chats couraient vite dans la rue.", "Le chat court vite.", "upos"),
    ("zh", "我们今天去北京大学看了很多书。", "今天我们去北京大学看书。", "ictclas"),
])
def test_other_target_languages_are_tagged_and_named(language, ref, hyp, pos):
    m = TeslaM(language=language)
    assert m.score([ref], ref).value == pytest.approx(1.0)
    s = m.score([ref], hyp)
    assert 0 < s.value < 1 and set(s.components) == set(FEATURES)
    sig = str(m.signature())
    assert f"pos:{pos}" in sig and "syn:none" in sig and f"lang:{language}" in sig
    assert not m.english


def test_clearing_a_german_preparer_forgets_hanta_word_analyses():
    from mteval.lexical import german
    from mteval.lexical.preprocess import Preparer

    prep = Preparer("de")
    prep(["Die Zürichnordbahn fährt heute ."])
    assert german._lemma.cache_info().currsize > 0
    assert german._tagger().analyze_forward.cache_info().currsize > 0
    prep.clear()
    assert german._lemma.cache_info().currsize == 0
    assert german._tagger().analyze_forward.cache_info().currsize == 0
