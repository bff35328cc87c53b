"""The suite's benchmarks: a checkout's folder, never installed. Run one with
``python -m benchmarks NAME --out DIR`` (``--list`` names them); they import the packages, the
packages never import them."""
