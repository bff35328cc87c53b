"""`coherence score --scheduler` on a Dask cluster prints what one process prints: DICOMER's
values, notes, error records and signature."""

from __future__ import annotations

import pytest

from coherence.cli import main
from tests.coherence.test_dicomer_metric import TEXTS, write_model
from tests.dask_cluster import local_scheduler

scheduler = pytest.fixture(scope="module")(local_scheduler)


@pytest.fixture(autouse=True)
def private_cache(tmp_path, monkeypatch):
    monkeypatch.setenv("AESOP_CACHE", str(tmp_path / "cache"))


@pytest.fixture(scope="module")
def model_file(tmp_path_factory):
    return write_model(tmp_path_factory.mktemp("model"))


def test_dicomer_scores_equal_one_process(scheduler, model_file, tmp_path, capsys):
    texts = [*TEXTS, "Just one sentence here.", "", b"not \xff text"]
    files = []
    for k, text in enumerate(texts):
        path = tmp_path / f"t{k}.txt"
        path.write_bytes(text) if isinstance(text, bytes) else path.write_text(text, "utf-8")
        files.append(str(path))
    argv = ["score", *files, "--format", "json", "--model", model_file]
    local = main(argv), capsys.readouterr().out
    assert local[0] == 1 and '"errors"' in local[1] and '"notes"' in local[1]
    assert (main([*argv, "--scheduler", scheduler]), capsys.readouterr().out) == local
