"""parapeval's metrics, by name, for the suite's lazy registry (listing them imports nothing heavy)."""

from evalcore.metric.registry import MetricSpec

METRICS = {
    "pem": MetricSpec(target="parapeval.pem.metric:PEM", reads="source", extra="pem",
                      summary="PEM (Liu et al. 2010): pivot-language adequacy, LM fluency and target n-gram F1 "
                              "of an (original, paraphrase) pair, combined by an SVR"),
}
