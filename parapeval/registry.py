"""parapeval's metrics, by name, for the suite's lazy registry (listing them imports nothing heavy)."""

from evalcore.metric.registry import MetricSpec

METRICS = {
    "pem": MetricSpec(target="parapeval.pem.metric:PEM", reads="source", extra="pem",
                      summary="PEM (Liu et al. 2010): pivot-language adequacy, LM fluency and target n-gram F1 "
                              "of an (original, paraphrase) pair, combined by an SVR"),
    "self-bleu": MetricSpec(target="parapeval.ibleu.metric:SelfBleu", reads="source",
                            summary="self-BLEU (sacrebleu): BLEU of the paraphrase against its original "
                                    "(lower is better: more rewriting; a copy gets 100)"),
    "ibleu": MetricSpec(target="parapeval.ibleu.metric:IBleu", reads="source+references",
                        summary="iBLEU (Sun and Zhou 2012): alpha * BLEU(paraphrase, references) - (1 - alpha) * "
                                "BLEU(paraphrase, original), alpha 0.8 by default"),
}
