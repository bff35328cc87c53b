"""The long fuzzing budget: ``python -m tests.fuzz.run --minutes 30`` draws cases of every target
with fresh random seeds until the time is spent, prints how many inputs it tried and how many
failed (by target and property), and saves each failing input under ``--out`` for replay:
``python -m tests.fuzz.run --replay fuzz-failures/<target>/<property>-<n>``."""

from __future__ import annotations

import argparse
import json
import random
import shutil
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path

from hypothesis import HealthCheck, Phase, given, seed, settings

from tests.fuzz.harness import PropertyFailure
from tests.fuzz.targets import TARGETS, from_json, to_json

#: failing inputs kept per (target, property); the rest are counted only
KEEP_PER_PROPERTY = 25


def run_case(target: str, case: dict, workdir: Path) -> PropertyFailure | None:
    """The failure of one case (None when every property holds); an exception of the check
    itself is a failure too (``harness-error``), so a broken fuzzer cannot look like a pass."""
    try:
        TARGETS[target].check(case, workdir)
    except PropertyFailure as failure:
        return failure
    except Exception as exc:  # noqa: BLE001 - reported as a failure, with its type
        return PropertyFailure("harness-error", f"{type(exc).__name__}: {exc}")
    return None


class Campaign:
    """Tries cases, counts them, and saves failing ones (re-run in their saved folder, so the
    files and the commands in ``case.json`` point there)."""

    def __init__(self, out: Path, deadline: float):
        self.out = out
        self.deadline = deadline
        self.tried: Counter[str] = Counter()
        self.failed: Counter[tuple[str, str]] = Counter()
        self.saved: Counter[tuple[str, str]] = Counter()

    def try_case(self, target: str, case: dict) -> None:
        if time.monotonic() > self.deadline:
            return
        self.tried[target] += 1
        with tempfile.TemporaryDirectory(prefix="fuzz-") as tmp:
            failure = run_case(target, case, Path(tmp))
        if failure is None:
            return
        self.failed[target, failure.prop] += 1
        if self.saved[target, failure.prop] < KEEP_PER_PROPERTY:
            self.saved[target, failure.prop] += 1
            self.save(target, case, failure)

    def save(self, target: str, case: dict, failure: PropertyFailure) -> Path:
        folder = self.out / target / f"{failure.prop}-{self.saved[target, failure.prop]}"
        shutil.rmtree(folder, ignore_errors=True)
        return save_case(folder, target, case, failure)


def save_case(folder: Path, target: str, case: dict, failure: PropertyFailure) -> Path:
    """Rerun a failing case in ``folder`` (so its files and commands stay there) and write
    ``case.json``: the property, what was seen, the commands, and the case for replay."""
    folder.mkdir(parents=True, exist_ok=True)
    failure = run_case(target, case, folder) or failure
    (folder / "case.json").write_text(json.dumps({
        "target": target, "property": failure.prop, "detail": failure.detail, "commands": failure.commands,
        "replay": f"python -m tests.fuzz.run --replay {folder}", "case": to_json(case)}, indent=1), "utf-8")
    return folder


def fuzz_round(campaign: Campaign, target: str, examples: int, round_seed: int) -> None:
    """``examples`` cases of one target drawn with ``round_seed``; failures are recorded, not
    raised, so the round goes on."""

    @seed(round_seed)
    @settings(max_examples=examples, derandomize=False, database=None, deadline=None, phases=[Phase.generate],
              suppress_health_check=list(HealthCheck))
    @given(TARGETS[target].strategy())
    def body(case):
        campaign.try_case(target, case)

    body()


def replay(folder: Path) -> int:
    """Rerun a saved case in ``folder/replay`` (its files and commands stay there to look at);
    0 when every property now holds."""
    saved = json.loads((folder / "case.json").read_text("utf-8"))
    workdir = folder / "replay"
    shutil.rmtree(workdir, ignore_errors=True)
    workdir.mkdir()
    failure = run_case(saved["target"], from_json(saved["case"]), workdir)
    if failure is None:
        print(f"{folder}: every property holds now (was: [{saved['property']}] {saved['detail']})")
        return 0
    print(f"{folder}: still fails\n{failure}")
    return 1


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(prog="python -m tests.fuzz.run", description=__doc__.split("\n\n")[0])
    p.add_argument("--minutes", type=float, default=30.0, help="time budget (default 30)")
    p.add_argument("--targets", default=",".join(TARGETS), help=f"comma-separated (default all: {','.join(TARGETS)})")
    p.add_argument("--out", type=Path, default=Path("fuzz-failures"), help="folder for failing inputs")
    p.add_argument("--examples", type=int, default=20, help="cases per round of one target (default 20)")
    p.add_argument("--seed", type=int, default=None, help="seed of the round seeds (default: random)")
    p.add_argument("--replay", type=Path, metavar="FOLDER", help="rerun one saved failing input and exit")
    args = p.parse_args(argv)
    if args.replay:
        return replay(args.replay)
    targets = [t for t in args.targets.split(",") if t]
    unknown = [t for t in targets if t not in TARGETS]
    if unknown:
        p.error(f"unknown target {unknown[0]!r}; choose from {', '.join(TARGETS)}")
    rng = random.Random(args.seed)
    started = time.monotonic()
    campaign = Campaign(args.out, started + 60 * args.minutes)
    while time.monotonic() < campaign.deadline:
        for target in targets:
            fuzz_round(campaign, target, args.examples, rng.getrandbits(64))
    tried, failed = sum(campaign.tried.values()), sum(campaign.failed.values())
    print(f"tried {tried} inputs in {(time.monotonic() - started) / 60:.1f} min, {failed} failed")
    for target in targets:
        fails = {prop: n for (t, prop), n in campaign.failed.items() if t == target}
        print(f"  {target}: {campaign.tried[target]} tried, {sum(fails.values())} failed"
              + "".join(f"\n    {prop}: {n}" for prop, n in sorted(fails.items())))
    if failed:
        print(f"failing inputs saved under {args.out}/<target>/<property>-<n>/case.json "
              f"(at most {KEEP_PER_PROPERTY} per property); replay one with "
              f"python -m tests.fuzz.run --replay FOLDER")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
