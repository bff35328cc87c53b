"""The docs' result tables are generated from the committed benchmark runs: every marked region of
every page equals what the renderer gives from docs/results/data, a stale or unknown region is
found, and a benchmark's run folder becomes one data file."""

import json
import shutil
import subprocess

import pytest

from benchmarks import render
from benchmarks.__main__ import main
from evalcore.io.textfiles import InputError


def test_committed_pages_equal_their_generated_tables():
    assert render.render_pages(check=True) == []


def _git(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run(["git", *args], cwd=render.ROOT, capture_output=True, text=True)


def test_every_committed_run_names_a_commit_of_this_history():
    """A run record's commit is how a table names its code: a rebase that rewrites it, or a branch
    deleted with it, leaves the table pointing nowhere."""
    if _git("rev-parse", "--is-shallow-repository").stdout.strip() != "false":
        pytest.skip("not a full git checkout")
    lost = []
    for path in sorted(render.DATA.glob("*.json")):
        commit = json.loads(path.read_text("utf-8"))["run"]["commit"].removesuffix("+changes")
        if _git("merge-base", "--is-ancestor", commit, "HEAD").returncode != 0:
            lost.append(f"{path.name}: {commit}")
    assert not lost, f"run records naming commits outside this history: {lost}"


def test_every_committed_run_is_shown_somewhere():
    pages = "".join(p.read_text("utf-8") for p in render.DOCS.rglob("*.md"))
    used = {m.group(1) for m in render.REGION.finditer(pages)}
    assert {p.stem for p in render.DATA.glob("*.json")} == used


def _site(tmp_path, name="parapeval-speed"):
    """A copy of one committed run and a page with a region of it whose table is hand-edited."""
    data, docs = tmp_path / "data", tmp_path / "docs"
    data.mkdir()
    docs.mkdir()
    shutil.copy(render.DATA / f"{name}.json", data)
    page = docs / "page.md"
    good = render.render_region(name, "speed", data)
    page.write_text(f"# Page\n\n{good.replace('| 1.0x |', '| 1.1x |')}\n\nProse stays.\n", "utf-8")
    return data, docs, page, good


def test_a_hand_edited_table_is_stale_and_rewritten(tmp_path):
    data, docs, page, good = _site(tmp_path)
    assert render.render_pages(docs, data, check=True) == [page]
    assert "| 1.1x |" in page.read_text("utf-8")  # --check changes nothing
    assert render.render_pages(docs, data) == [page]
    assert page.read_text("utf-8") == f"# Page\n\n{good}\n\nProse stays.\n"
    assert render.render_pages(docs, data, check=True) == []


def test_a_changed_run_changes_the_page(tmp_path):
    data, docs, page, _ = _site(tmp_path)
    render.render_pages(docs, data)
    stored = json.loads((data / "parapeval-speed.json").read_text("utf-8"))
    stored["result"]["bleu_pairs_per_s"] = 123.4
    (data / "parapeval-speed.json").write_text(json.dumps(stored), "utf-8")
    assert render.render_pages(docs, data) == [page]
    assert "| sentence BLEU (sacrebleu, effective order) | 123 |" in page.read_text("utf-8")


def test_an_unknown_region_or_a_missing_run_is_an_error_naming_it(tmp_path):
    data, docs, page, _ = _site(tmp_path)
    page.write_text("<!-- bench:parapeval-speed:nope -->\n<!-- /bench -->\n", "utf-8")
    with pytest.raises(InputError, match="bench:parapeval-speed:nope"):
        render.render_pages(docs, data, check=True)
    page.write_text("<!-- bench:scale:runs -->\n<!-- /bench -->\n", "utf-8")
    with pytest.raises(InputError, match="scale.json"):
        render.render_pages(docs, data, check=True)


def test_collect_stores_run_record_and_result_together(tmp_path):
    stored = json.loads((render.DATA / "parapeval-speed.json").read_text("utf-8"))
    bench = tmp_path / "bench"
    run_dir = bench / "parapeval-speed"
    run_dir.mkdir(parents=True)
    (run_dir / "run-parapeval-speed.json").write_text(json.dumps(stored["run"]), "utf-8")
    (run_dir / "speed.json").write_text(json.dumps(stored["result"]), "utf-8")
    other = bench / "parapeval-speed-small"  # a run with other options is not collected
    shutil.copytree(run_dir, other)
    data = tmp_path / "data"
    assert render.collect(bench, data) == ["parapeval-speed"]
    assert json.loads((data / "parapeval-speed.json").read_text("utf-8")) == stored
    (run_dir / "speed.json").unlink()
    with pytest.raises(InputError, match="speed.json"):
        render.collect(bench, data)


def _variant_site(tmp_path):
    """make bench's layout with the committed tesla-m-speed run as the benchmark's own run, as the variant
    tesla-m-speed-en-de (its command with --pair en-de) and as a variant render does not know."""
    stored = json.loads((render.DATA / "tesla-m-speed.json").read_text("utf-8"))
    variant = {**stored, "run": {**stored["run"], "command": [*stored["run"]["command"], "--pair", "en-de"]}}
    bench = tmp_path / "bench"
    for folder, run in ((bench / "tesla-m-speed", stored), (bench / "variants" / "tesla-m-speed-en-de", variant),
                        (bench / "variants" / "tesla-m-speed-unknown", variant)):
        folder.mkdir(parents=True)
        (folder / "run-tesla-m-speed.json").write_text(json.dumps(run["run"]), "utf-8")
        (folder / "tesla_m_speed.json").write_text(json.dumps(run["result"]), "utf-8")
    return bench, stored, variant


def test_collect_takes_the_variant_runs_render_knows(tmp_path):
    bench, stored, variant = _variant_site(tmp_path)
    data = tmp_path / "data"
    assert render.collect(bench, data) == ["tesla-m-speed", "tesla-m-speed-en-de"]
    assert json.loads((data / "tesla-m-speed-en-de.json").read_text("utf-8")) == variant
    assert json.loads((data / "tesla-m-speed.json").read_text("utf-8")) == stored
    assert not (data / "tesla-m-speed-unknown.json").exists()
    # a variant's own folder, or the variants folder, never stands for the benchmark's run
    (data / "tesla-m-speed.json").unlink()
    assert render.collect(bench / "variants" / "tesla-m-speed-en-de", data) == ["tesla-m-speed-en-de"]
    assert render.collect(bench / "variants", data) == ["tesla-m-speed-en-de"]
    assert not (data / "tesla-m-speed.json").exists()


def test_a_run_with_options_is_never_collected_as_the_benchmarks_own(tmp_path):
    """An unknown variant's folder given to --collect holds run-NAME.json like the default run's:
    its options keep it from replacing the benchmark's committed run."""
    bench, _, _ = _variant_site(tmp_path)
    with pytest.raises(InputError, match=r"tesla-m-speed-unknown/run-tesla-m-speed\.json: `python -m benchmarks "
                                         r"tesla-m-speed --pair en-de` is a run with options"):
        render.collect(bench / "variants" / "tesla-m-speed-unknown", tmp_path / "data")
    assert not (tmp_path / "data" / "tesla-m-speed.json").exists()


def test_collect_finds_a_variant_of_a_command_writing_another_benchmarks_report(tmp_path):
    stored = render.load("mqm-beer-held-out")
    folder = tmp_path / "bench" / "variants" / "mqm-beer-held-out"
    folder.mkdir(parents=True)
    (folder / "run-mqm.json").write_text(json.dumps(stored["run"]), "utf-8")
    (folder / "mqm.json").write_text(json.dumps(stored["result"]), "utf-8")
    assert render.collect(tmp_path / "bench", tmp_path / "data") == ["mqm-beer-held-out"]
    assert render.load("mqm-beer-held-out", tmp_path / "data") == stored


def test_a_variant_region_shows_its_command_and_its_benchmarks_tables(tmp_path):
    bench, stored, variant = _variant_site(tmp_path)
    data = tmp_path / "data"
    render.collect(bench, data)
    run = render.render_region("tesla-m-speed-en-de", "run", data)
    assert "`docs/results/data/tesla-m-speed-en-de.json`: `python -m benchmarks tesla-m-speed --pair en-de`" in run
    paths = render.render_region("tesla-m-speed-en-de", "paths", data)
    assert paths.startswith("<!-- bench:tesla-m-speed-en-de:paths -->\n")
    assert paths.split("\n", 1)[1] == render.render_region("tesla-m-speed", "paths", data).split("\n", 1)[1]
    with pytest.raises(InputError, match="bench:tesla-m-speed-en-de:nope; .*stages, baselines, paths"):
        render.render_region("tesla-m-speed-en-de", "nope", data)


def test_an_unknown_variant_is_an_error_naming_it(tmp_path):
    data, docs, page, _ = _site(tmp_path)
    page.write_text("<!-- bench:tesla-m-speed-unknown:stages -->\n<!-- /bench -->\n", "utf-8")
    with pytest.raises(InputError, match=r"page.md: bench:tesla-m-speed-unknown:stages: unknown run .*VARIANTS"):
        render.render_pages(docs, data, check=True)


def test_every_variant_is_a_make_bench_variant_run_of_a_benchmark_with_tables():
    import re

    makefile = (render.ROOT / "Makefile").read_text("utf-8")
    runs = re.findall(r"-m benchmarks ([a-z0-9-]+) [^\n]*?(?:\\\n[^\n]*?)*--out bench/variants/([a-z0-9-]+)", makefile)
    made = {variant: command for command, variant in runs}
    for variant, command in render.VARIANTS.items():
        assert made.get(variant) == command, variant
        assert command in render.TABLES or render.PART_OF[command] in render.TABLES


def test_the_runner_checks_the_committed_pages(capsys):
    assert main(["render", "--check"]) == 0
    assert main(["render", "--collect", "/nonexistent-folder"]) == 2
    assert "not a folder" in capsys.readouterr().err


def test_the_run_line_drops_the_output_folder():
    run = {"benchmark": "scale", "command": ["python", "-m", "benchmarks", "scale", "--out", "bench/scale",
                                            "--workers", "2"],
           "commit": "abc1234", "date": "2026-01-01T00:00:00Z", "wall_seconds": 61.2,
           "machine": {"cpu": "CPU", "cores": 2, "memory_gib": 8, "python": "3.11.7"}}
    line = render.run_line(run)
    assert "`python -m benchmarks scale --workers 2` at commit abc1234" in line and "bench/scale" not in line


def test_make_bench_runs_every_benchmark_the_docs_cite():
    import re

    from benchmarks.catalog import BENCHMARKS

    makefile = (render.ROOT / "Makefile").read_text("utf-8")
    definitions = re.findall(r"^BENCHMARKS :=((?:.*\\\n)*.*)$", makefile, flags=re.M)
    assert len(definitions) == 1, "BENCHMARKS is defined more than once"
    made = set(definitions[0].replace("\\\n", " ").split())
    pages = "".join(p.read_text("utf-8") for p in render.DOCS.rglob("*.md"))
    cited = set(re.findall(r"python -m benchmarks ([a-z0-9][a-z0-9-]*)", pages)) - {"render"}
    assert cited <= set(BENCHMARKS) and cited - made == set()
    assert "benchmarks render --collect bench" in makefile


def test_pem_sts_table_without_pivots_keeps_means_and_baselines():
    from benchmarks.parapeval.run import sts_table

    result = {"sts_b_test": {name: {"pearson": 0.5, "spearman": 0.25} for name in
                             ("pivot F1 fr [default]", "pivot F1 mean [default]", "target n-gram F1", "BLEU")}}
    short = sts_table(result, per_pivot=False)
    assert "pivot F1 fr" not in short and "| pivot F1 mean [default] | 0.5000 | 0.2500 |" in short
    assert "| BLEU |" in short and "| target n-gram F1 |" in short
    assert "| pivot F1 fr [default] |" in sts_table(result)


def test_transfer_regions_name_every_setting_of_the_benchmark():
    from benchmarks.summeval.transfer import DIMS, SETTINGS

    assert sorted(render.TRANSFER_SETTINGS.values()) == sorted(name for name, _, _ in SETTINGS)
    tables = render.TABLES["transfer"][1]
    assert {f"{key}-{dim}" for key in render.TRANSFER_SETTINGS for dim in DIMS} <= set(tables)
