"""`parapeval score --scheduler` on a Dask cluster prints what one process prints: PEM's values,
error records and signature, on the toy resources."""

from __future__ import annotations

import json

import pytest

from parapeval.cli import main
from tests.dask_cluster import local_scheduler

scheduler = pytest.fixture(scope="module")(local_scheduler)


def test_pem_scores_equal_one_process(scheduler, toy_pairs, resource_args, tmp_path, capsys):
    path = tmp_path / "pairs.jsonl"
    rows = [{"original": p.original, "paraphrase": p.paraphrase, "system": f"g{k % 3}"}
            for k, p in enumerate(toy_pairs)]
    rows.insert(3, {"original": "the cat sleeps .", "paraphrase": "", "system": "g0"})
    path.write_text("".join(json.dumps(r) + "\n" for r in rows) + '{"original": "no paraphrase"}\n', "utf-8")
    for fmt in ("json", "jsonl"):
        argv = ["score", "-i", str(path), "--format", fmt, *resource_args]
        local = main(argv), capsys.readouterr().out
        assert local[0] == 1 and '"error' in local[1]
        assert (main([*argv, "--scheduler", scheduler]), capsys.readouterr().out) == local
