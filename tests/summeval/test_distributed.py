from pathlib import Path

import pytest

from evalcore.data.tac import read_tac
from summeval.metrics import RougeSU, TeslaS
from summeval.pipeline import score_items

DEMO = Path(__file__).resolve().parents[2] / "data" / "demo"


def test_dask_runs_the_unchanged_batch_function():
    pytest.importorskip("dask")
    from summeval.distributed import score_items_dask

    items = read_tac(DEMO / "models", DEMO / "peers")
    metrics = [TeslaS(), RougeSU(4)]
    assert score_items_dask(items, metrics, chunk_size=4) == score_items(items, metrics)


def test_dask_on_a_local_cluster():
    distributed = pytest.importorskip("distributed")
    from summeval.distributed import score_items_dask

    items = read_tac(DEMO / "models", DEMO / "peers")
    with distributed.LocalCluster(n_workers=1, threads_per_worker=1, processes=False, dashboard_address=None) as cluster, \
            distributed.Client(cluster) as client:
        assert score_items_dask(items, [TeslaS()], client=client, chunk_size=4) == score_items(items, [TeslaS()])
