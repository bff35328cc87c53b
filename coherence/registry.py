"""The metrics ``coherence`` registers (name -> class and the arguments the name stands for).
Read by :mod:`evalcore.metric.registry` without importing any metric."""

from evalcore.metric.registry import MetricSpec

METRICS = {
    "dicomer": MetricSpec("coherence.dicomer.metric:Dicomer",
                          "DICOMER readability from discourse relations (reference-free; Lin et al. 2012)",
                          reads="candidate", extra="coherence"),
    "dicomer-gdtb-all": MetricSpec("coherence.dicomer.metric:Dicomer",
                                   "DICOMER trained on every GUM genre of GDTB (opt-in: some texts "
                                   "CC BY-NC-SA, non-commercial)", reads="candidate", kwargs={"model": "gdtb-all"},
                                   extra="coherence"),
    "readability": MetricSpec("coherence.readability.metric:Readability",
                              "readability of English text from features of TAC's five linguistic-quality questions "
                              "(LM, repetition, reference, discourse, entity continuity; trained on SummEval)",
                              reads="candidate", extra="coherence"),
    "readability-all": MetricSpec("coherence.readability.metric:Readability",
                                  "readability trained on every judged set (SummEval, DialSummEval, WebNLG+ 2020; "
                                  "opt-in: non-commercial)", reads="candidate", kwargs={"model": "all"},
                                  extra="coherence"),
}
