"""UMEANT's shipped role counts: fillers per role type over the gold frames of Universal
PropBank English EWT dev, so the `umeant` metric weighs roles the same in every batch.

``python -m mteval.meant.up_counts [UP_FILE]`` rewrites ``mteval/models/umeant/up-en-roles.json``.
"""

from __future__ import annotations

import functools
import hashlib
import json
import sys
from datetime import date
from pathlib import Path

from evalcore.io.runinfo import source_commit
from evalcore.resources.registry import package_path, shared_data_dir, shipped_file
from mteval.meant.roles import ROLE_CLASSES, RoleWeights, count_roles, read_counts, umeant_weights

#: the shipped counts, below the data folder
COUNTS_FILE = ("mteval", "models", "umeant", "up-en-roles.json")
UP_ENGLISH = ("srl", "up", "en_ewt-up-dev.conllu")


@functools.lru_cache(maxsize=1)
def up_weights() -> RoleWeights:
    """UMEANT weights from the shipped UP English role counts."""
    path = shipped_file(*COUNTS_FILE)
    counts = read_counts(path.read_text(encoding="utf-8"))
    return umeant_weights(counts, "umeant-up")


def write_counts(up_file: Path, out: Path) -> dict:
    """Count the gold fillers of ``up_file`` per role type and write them with their provenance."""
    from mteval.srl.up import read_up

    sentences = [s.framed() for s in read_up(up_file) if s.annotated]
    counts = count_roles(sentences)
    body = {"counts": {r: counts.get(r, 0) for r in ROLE_CLASSES},
            "frames": sum(len(s.frames) for s in sentences), "sentences": len(sentences),
            "training_data": "Universal PropBank 1.0 English EWT dev (en_ewt-up-dev.conllu), gold frames",
            "data_sha256": hashlib.sha256(up_file.read_bytes()).hexdigest(),
            "licence": "counts derived from UP annotations (CDLA-Sharing-1.0) on UD EWT text (CC BY-SA 4.0)",
            "role_types": "mteval.meant.roles.role_class (PropBank label -> SSST-6 role type)",
            "commit": source_commit(), "date": date.today().isoformat()}
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(json.dumps(body, indent=2) + "\n", encoding="utf-8")
    return body


if __name__ == "__main__":
    source = Path(sys.argv[1]) if len(sys.argv) > 1 else shared_data_dir().joinpath(*UP_ENGLISH)
    print(json.dumps(write_counts(source, package_path(*COUNTS_FILE))["counts"]))
