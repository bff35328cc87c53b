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
    with distributed.LocalCluster(n_workers=1, threads_per_worker=1, processes=False,
                                  dashboard_address=":0") as cluster, \
            distributed.Client(cluster) as client:
        assert score_items_dask(items, [TeslaS()], client=client, chunk_size=4) == score_items(items, [TeslaS()])


def test_score_command_on_a_cluster_prints_what_one_process_prints(capsys):
    from summeval.cli import main
    from tests.dask_cluster import local_scheduler

    argv = ["score", "--models", str(DEMO / "models"), "--peers", str(DEMO / "peers"), "-m", "tesla-s",
            "-m", "rouge-2", "-m", "rouge-su4", "--format", "json"]
    local = main(argv), capsys.readouterr().out
    assert local[0] == 0
    for address in local_scheduler():
        assert (main([*argv, "--scheduler", address]), capsys.readouterr().out) == local
