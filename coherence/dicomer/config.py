"""One configuration object for the discourse role matrix and its features (spec 8).

The named variants of the papers (LIN, LIN+C, LIN+E, DICOMER, Lin 2011's ablations) are
presets of this object, and the object's signature string is logged with every score.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass, replace

ROLE_DETAILS = ("type+arg", "arg", "type")
EN_MODES = ("union", "separate")
COLUMNS = ("all_terms", "terms_in_args")
TF_DEFINITIONS = ("occurrences", "sentences")
INTRA_VALUES = ("relative", "count")
#: training settings of :mod:`coherence.dicomer.train`, here so that the command line offers them
#: without importing scikit-learn (the ``coherence`` extra)
SUMMEVAL_MODES = ("listwise", "permutation", "combined")
MODES = (*SUMMEVAL_MODES, "gdtb-permutation")
DEFAULT_MODE = "gdtb-permutation"
DEFAULT_VARIANT = "DICOMER-N"


@dataclass(frozen=True)
class DicomerConfig:
    """How cells are filled and which features are read off the matrix.

    ``role_detail`` selects Lin 2011's ablations (``arg`` = Arg+Sal, ``type`` = Type+Sal);
    ``salience=False`` is Type+Arg. ``entity_grid`` appends the Barzilay & Lapata features
    (Lin 2011's combined model); ``discourse=False`` keeps the entity grid alone.
    ``one_sentence`` adds an indicator for one-sentence texts, which have no transitions: the
    ranker then learns where they belong (SummEval's experts rate them more coherent than the
    rest, 4.1 vs 3.4) instead of every such text getting the same arbitrary score.
    """

    lengths: tuple[int, ...] = (2, 3)
    salience: bool = True
    salience_threshold: int = 2
    tf_definition: str = "occurrences"
    columns: str = "all_terms"
    role_detail: str = "type+arg"
    explicit_flag: bool = False
    en_mode: str = "union"
    intra_cell: bool = False
    intra_cell_value: str = "relative"
    discourse: bool = True
    entity_grid: bool = False
    one_sentence: bool = True
    neutral: bool = False

    def __post_init__(self) -> None:
        for name, value, allowed in (("role_detail", self.role_detail, ROLE_DETAILS),
                                     ("en_mode", self.en_mode, EN_MODES),
                                     ("columns", self.columns, COLUMNS),
                                     ("tf_definition", self.tf_definition, TF_DEFINITIONS),
                                     ("intra_cell_value", self.intra_cell_value, INTRA_VALUES)):
            if value not in allowed:
                raise ValueError(f"{name} must be one of {allowed}, got {value!r}")
        if not self.lengths or any(n < 1 for n in self.lengths):
            raise ValueError(f"lengths must be positive integers, got {self.lengths!r}")
        if not (self.discourse or self.entity_grid):
            raise ValueError("a configuration needs the discourse matrix, the entity grid or both")
        if self.neutral and self.one_sentence:
            raise ValueError("neutral (flagged texts get no features) and the one-sentence indicator exclude each "
                             "other")

    def as_dict(self) -> dict:
        return {**asdict(self), "lengths": list(self.lengths)}

    def signature(self) -> str:
        """Compact, stable description of every option (stemmer and open-class tags are fixed)."""
        parts = [f"stem:porter|tags:NN,VB,JJ,RB|len:{','.join(map(str, self.lengths))}",
                 f"sal:{self.salience_threshold if self.salience else 'off'}/{self.tf_definition}",
                 f"cols:{self.columns}|roles:{self.role_detail}"]
        if self.explicit_flag:
            parts.append(f"E:{self.en_mode}")
        if self.intra_cell:
            parts.append(f"intra:{self.intra_cell_value}")
        if not self.discourse:
            parts.append("discourse:off")
        if self.entity_grid:
            parts.append("egrid:SOX")
        if self.one_sentence:
            parts.append("one-sent:ind")
        if self.neutral:
            parts.append("flagged:neutral")
        return "|".join(parts)


_LIN = DicomerConfig()
VARIANTS: dict[str, DicomerConfig] = {
    "LIN": _LIN,
    "LIN+C": replace(_LIN, intra_cell=True),
    "LIN+E": replace(_LIN, explicit_flag=True),
    "DICOMER": replace(_LIN, intra_cell=True, explicit_flag=True),
    "Arg+Sal": replace(_LIN, role_detail="arg"),
    "Type+Sal": replace(_LIN, role_detail="type"),
    "Type+Arg": replace(_LIN, salience=False),
    "EGRID": replace(_LIN, discourse=False, entity_grid=True),
    "LIN+EGRID": replace(_LIN, entity_grid=True),
    "DICOMER+EGRID": replace(_LIN, intra_cell=True, explicit_flag=True, entity_grid=True),
    # the shipped default: DICOMER without the one-sentence indicator, flagged texts neutral
    "DICOMER-N": replace(_LIN, intra_cell=True, explicit_flag=True, one_sentence=False, neutral=True),
}


def variant_config(name: str) -> DicomerConfig:
    """The preset called ``name`` (case-insensitive), e.g. ``"DICOMER"`` = LIN+C+E."""
    for key, config in VARIANTS.items():
        if key.lower() == name.lower():
            return config
    raise ValueError(f"unknown variant {name!r}; choose from {', '.join(VARIANTS)}")


def variant_name(config: DicomerConfig) -> str:
    """The preset name of ``config``, or ``"custom"``."""
    return next((k for k, v in VARIANTS.items() if v == config), "custom")
