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
}
