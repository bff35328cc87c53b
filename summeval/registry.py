"""The metrics ``summeval`` registers (name -> class and the arguments the name stands for).
Read by :mod:`evalcore.metric.registry` without importing any metric; ``dicomer``, which
``summeval score`` also offers, is registered by ``coherence``."""

from evalcore.metric.registry import MetricSpec

_TESLA = "summeval.tesla_s.metric:TeslaS"
_ROUGE = "summeval.rouge.metric:Rouge"
_ROUGE_SU = "summeval.rouge.metric:RougeSU"
_CREMER = "summeval.cremer.metric:Cremer"
_CREMER_SVR = "summeval.cremer.metric:CremerSVR"
#: spaCy (POS tags, DICOMER's parses) comes with the ``coherence`` extra

METRICS = {
    "tesla-s": MetricSpec(_TESLA, "TESLA-S content score against model summaries (function words by word list)"),
    "tesla-s-pos": MetricSpec(_TESLA, "TESLA-S with function words by spaCy POS tags (the paper's definition; English "
                                               "only: other languages get error records)",
                              kwargs={"function_words": "pos"}, extra="coherence"),
    "rouge-1": MetricSpec(_ROUGE, "ROUGE-1 recall (rouge-score, Porter stemming)", kwargs={"kind": "rouge-1"}),
    "rouge-2": MetricSpec(_ROUGE, "ROUGE-2 recall (rouge-score, Porter stemming)", kwargs={"kind": "rouge-2"}),
    "rouge-l": MetricSpec(_ROUGE, "ROUGE-L recall (rouge-score, Porter stemming)", kwargs={"kind": "rouge-l"}),
    "rouge-1-f": MetricSpec(_ROUGE, "ROUGE-1 F1", kwargs={"kind": "rouge-1", "measure": "f"}),
    "rouge-2-f": MetricSpec(_ROUGE, "ROUGE-2 F1", kwargs={"kind": "rouge-2", "measure": "f"}),
    "rouge-l-f": MetricSpec(_ROUGE, "ROUGE-L F1", kwargs={"kind": "rouge-l", "measure": "f"}),
    "rouge-su4": MetricSpec(_ROUGE_SU, "ROUGE-SU4 recall as ROUGE-1.5.5 computes it", kwargs={"max_gap": 4}),
    "rouge-su4-f": MetricSpec(_ROUGE_SU, "ROUGE-SU4 F1", kwargs={"max_gap": 4, "measure": "f"}),
    "cremer": MetricSpec(_CREMER, "CREMER responsiveness: TESLA-S plus a readability term, weighted as far as held-out "
                                  "judged sets allow (0 = TESLA-S)", extra="coherence"),
    "cremer-lf": MetricSpec(_CREMER_SVR, "CREMER-LF (the paper's): linear SVR over TESLA-S (z within topic) and "
                                         "DICOMER",
                            kwargs={"kernel": "linear"}, extra="coherence"),
    "cremer-rbf": MetricSpec(_CREMER_SVR, "CREMER-RBF responsiveness: RBF SVR over TESLA-S (z within topic) and "
                                          "DICOMER",
                             kwargs={"kernel": "rbf"}, extra="coherence"),
    "cremer-pf": MetricSpec(_CREMER_SVR, "CREMER-PF responsiveness: polynomial SVR over TESLA-S (z within topic) and "
                                     "DICOMER",
                            kwargs={"kernel": "poly"}, extra="coherence"),
    "cremer-news-chat": MetricSpec(_CREMER_SVR, "opt-in, NON-COMMERCIAL: CREMER(-LF) fitted on SummEval and "
                                                "DialSummEval (SAMSum, CC BY-NC-ND)",
                                   kwargs={"kernel": "linear", "training": "news-chat"}, extra="coherence"),
}

#: what `summeval score` computes when no metric is named
DEFAULT_METRICS = ("tesla-s", "rouge-2", "rouge-su4")
#: `--metric all`: the AESOP report in one pass (content, readability, responsiveness, baselines)
ALL_METRICS = ("tesla-s", "dicomer", "readability", "cremer", "cremer-lf", "cremer-rbf", "cremer-pf", "rouge-1",
               "rouge-2", "rouge-l", "rouge-su4")
#: metrics of other packages that `summeval score` offers
BORROWED = ("dicomer", "readability")
