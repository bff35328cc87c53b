"""Progress bars for long runs, the same in every CLI: shown on an interactive stderr only."""

from __future__ import annotations

import sys
from typing import TYPE_CHECKING, NoReturn

if TYPE_CHECKING:
    from tqdm import tqdm


def bar(total: int, enabled: bool = True, unit: str = "item", min_total: int = 200) -> tqdm[NoReturn]:
    """A tqdm bar on stderr when ``enabled``, stderr is a terminal and the run is long enough."""
    from tqdm import tqdm

    show = enabled and sys.stderr.isatty() and total >= min_total
    return tqdm(total=total, unit=unit, disable=not show, leave=False, file=sys.stderr)
