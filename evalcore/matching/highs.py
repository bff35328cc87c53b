"""HiGHS solvers that print nothing on stdout: the process's first construction (which prints
HiGHS's banner) runs with stdout redirected to stderr, and every solver gets ``output_flag`` and
``log_to_console`` off before a model is passed."""

from __future__ import annotations

from evalcore.io.native_output import once_per_process


def silence_highs_banner() -> None:
    """Construct this process's first HiGHS solver with stdout on stderr (HiGHS prints its banner then)."""
    import highspy

    once_per_process("highs-banner", highspy.Highs)


def new_highs():
    """A silent ``highspy.Highs`` solver, ready for ``passModel``."""
    import highspy

    silence_highs_banner()
    solver = highspy.Highs()
    solver.setOptionValue("output_flag", False)
    solver.setOptionValue("log_to_console", False)
    return solver
