"""Where scoring runs: worker processes (``--jobs``), a Dask cluster (``--scheduler``), and the
progress bars of long runs. The metric layer calls these; they know nothing of metrics."""
