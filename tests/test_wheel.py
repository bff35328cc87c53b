"""The suite as a user gets it: a wheel built from this checkout, installed into a fresh virtualenv
outside the repository, run from another folder. The base install scores TESLA-S and ROUGE and
names the extra of every other metric; the ``[all]`` install scores one metric of each family with
the values the development install gives. Installs use constraints.txt (the locked versions)
from the package index and pip's cache, so the test needs no network beyond the index."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
DEMO = ROOT / "data" / "demo"
CONSTRAINTS = ROOT / "constraints.txt"

PACKAGES = ("evalcore", "summeval", "coherence", "parapeval", "mteval")
#: files a metric reads at run time, which the wheel must carry: every file below a package's
#: models/ folder (a new model ships without being listed here), the word lists, the connectives,
#: and the demo `aesop-eval demo` scores
SHIPPED = ("evalcore/wordlists/function_words_en.txt", "coherence/parser/connectives.json",
           *sorted(p.relative_to(ROOT).as_posix()
                   for folder in [*(ROOT / package / "models" for package in PACKAGES), ROOT / "evalcore" / "demo"]
                   for p in folder.rglob("*") if p.is_file() and "__pycache__" not in p.parts))


def _run(cmd: list[str], cwd: Path, env: dict | None = None, timeout: int = 1500) -> subprocess.CompletedProcess:
    return subprocess.run(cmd, cwd=cwd, env=env, capture_output=True, text=True, timeout=timeout)


def _user_env(venv: Path) -> dict:
    """The environment of a user of ``venv``: its bin first, nothing of the checkout on the path."""
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "VIRTUAL_ENV", "PYTHONHOME")}
    env["PATH"] = f"{venv / 'bin'}{os.pathsep}{env.get('PATH', '')}"
    return env


@pytest.fixture(scope="module")
def wheel(tmp_path_factory) -> Path:
    out = tmp_path_factory.mktemp("wheelhouse")
    proc = _run([sys.executable, "-m", "pip", "wheel", "-q", "--no-deps", "-w", str(out), str(ROOT)], cwd=out)
    assert proc.returncode == 0, proc.stderr[-3000:]
    (path,) = out.glob("aesop_eval-*.whl")
    return path


def _venv(tmp_path_factory, name: str, requirement: str) -> Path:
    venv = tmp_path_factory.mktemp(name) / "venv"
    subprocess.run([sys.executable, "-m", "venv", str(venv)], check=True)
    # a user's environment: with the checkout on PYTHONPATH, pip would take the aesop_eval.egg-info
    # that building the wheel leaves in it for an installed aesop-eval and install only its dependencies
    proc = _run([str(venv / "bin" / "pip"), "install", "-q", "-c", str(CONSTRAINTS), requirement], cwd=venv.parent,
                env=_user_env(venv))
    assert proc.returncode == 0, proc.stderr[-3000:]
    return venv


@pytest.fixture(scope="module")
def base_venv(tmp_path_factory, wheel) -> Path:
    return _venv(tmp_path_factory, "base", str(wheel))


@pytest.fixture(scope="module")
def all_venv(tmp_path_factory, wheel) -> Path:
    return _venv(tmp_path_factory, "all", f"aesop-eval[all] @ {wheel.as_uri()}")


@pytest.fixture(scope="module")
def workdir(tmp_path_factory) -> Path:
    """A folder outside the checkout with a copy of the demo inputs."""
    work = tmp_path_factory.mktemp("user")
    shutil.copytree(DEMO, work / "demo")
    shutil.copy(ROOT / "data" / "parapeval" / "demo_pairs.tsv", work / "pairs.tsv")
    shutil.copytree(ROOT / "docs" / "guide" / "paraphrase-example", work / "generators")
    return work


def test_wheel_carries_every_shipped_resource(wheel):
    names = set(zipfile.ZipFile(wheel).namelist())
    assert [f for f in SHIPPED if f not in names] == []
    assert not any(n.startswith("data/") for n in names), "the top-level data/ folder is not a package"
    assert [n for n in names if "bench" in n.split(".dist-info/")[0]] == [], "benchmarks are not installed"


def _summeval(venv: Path, workdir: Path, *metrics: str) -> subprocess.CompletedProcess:
    args = [str(venv / "bin" / "summeval"), "score", "--models", "demo/models", "--peers", "demo/peers",
            "--format", "json"]
    for m in metrics:
        args += ["-m", m]
    return _run(args, cwd=workdir, env=_user_env(venv))


def _dev_json(args: list[str], cwd: Path) -> dict:
    """The same command through the development install (this interpreter)."""
    proc = _run([sys.executable, "-m", *args], cwd=cwd)
    assert proc.returncode == 0, proc.stderr[-3000:]
    return json.loads(proc.stdout)


def test_base_install_scores_tesla_s_and_rouge_outside_the_checkout(base_venv, workdir):
    proc = _summeval(base_venv, workdir, "tesla-s", "rouge-2")
    assert proc.returncode == 0, proc.stderr[-3000:]
    doc = json.loads(proc.stdout)
    dev = _dev_json(["summeval.cli", "score", "--models", "demo/models", "--peers", "demo/peers", "--format", "json",
                     "-m", "tesla-s", "-m", "rouge-2"], workdir)
    assert doc == dev and doc["summaries"]


def test_base_install_scores_the_shipped_demo(base_venv, workdir):
    """A wheel user has no data/demo: `aesop-eval demo` scores the one inside the package."""
    proc = _run([str(base_venv / "bin" / "aesop-eval"), "demo", "--out", "shipped-demo"], cwd=workdir,
                env=_user_env(base_venv))
    assert proc.returncode == 0, proc.stderr[-3000:]
    assert "| D0003-A | 4      |" in proc.stdout and "tesla-s|ngrams:1+sb4|" in proc.stdout
    assert "skipping translations (not installed: pip install 'aesop-eval[mt]')" in proc.stderr
    assert (workdir / "shipped-demo" / "mt" / "src.fr").is_file()


#: the base install's size guard in MiB (apparent size of a fresh venv's site-packages, pip and
#: setuptools included): measured 268 MiB with numba and llvmlite in the extras that compile
#: (`fast`, `pem`, `mt`) as well as POT, PuLP, matplotlib and scikit-learn (471 MiB with numba)
BASE_INSTALL_MAX_MIB = 400


def test_base_install_is_small_and_leaves_the_heavy_dependencies_to_extras(base_venv):
    (site,) = (base_venv / "lib").glob("python3*/site-packages")
    mib = sum(p.stat().st_size for p in site.rglob("*") if p.is_file() and not p.is_symlink()) / 2**20
    assert mib <= BASE_INSTALL_MAX_MIB, f"the base install is {mib:.0f} MiB"
    assert [m for m in ("ot", "pulp", "matplotlib", "sklearn", "numba", "llvmlite") if (site / m).exists()] == []


def test_base_install_imports_every_package_and_cli(base_venv, workdir):
    code = ("import evalcore, summeval, coherence, parapeval, mteval\n"
            "import summeval.cli, coherence.cli, parapeval.cli, mteval.cli, evalcore.cli.aesop\n"
            "import evalcore.resources.registry as r; print(r.checkout_root())")
    proc = _run([str(base_venv / "bin" / "python"), "-c", code], cwd=workdir, env=_user_env(base_venv))
    assert proc.returncode == 0, proc.stderr[-3000:]
    assert proc.stdout.strip() == "None", "the installed suite must not find a checkout"
    for command in ("aesop-eval", "summeval", "coherence", "parapeval", "mteval"):
        proc = _run([str(base_venv / "bin" / command), "--help"], cwd=workdir, env=_user_env(base_venv))
        assert proc.returncode == 0 and "usage:" in proc.stdout, (command, proc.stderr[-3000:])


@pytest.mark.parametrize("command, metric, extra", [
    (["summeval", "score", "--models", "demo/models", "--peers", "demo/peers"], "dicomer", "coherence"),
    (["summeval", "score", "--models", "demo/models", "--peers", "demo/peers"], "cremer", "coherence"),
    (["parapeval", "score", "--input", "pairs.tsv"], "pem", "pem"),
    (["mteval", "score", "-r", "demo/mt/ref.A.en", "-i", "demo/mt/system-a.en"], "bleu", "mt"),
])
def test_base_install_names_the_missing_extra(base_venv, workdir, command, metric, extra):
    proc = _run([str(base_venv / "bin" / command[0]), *command[1:], "-m", metric], cwd=workdir,
                env=_user_env(base_venv))
    assert proc.returncode == 2, proc.stderr[-3000:]
    assert proc.stdout == ""
    assert f"pip install 'aesop-eval[{extra}]'" in proc.stderr
    assert "Traceback" not in proc.stderr and len(proc.stderr.strip().splitlines()) == 1


def test_base_install_lists_uninstalled_metrics(base_venv, workdir):
    proc = _run([str(base_venv / "bin" / "mteval"), "--list-metrics"], cwd=workdir, env=_user_env(base_venv))
    assert proc.returncode == 0, proc.stderr
    lines = {line.split()[0]: line for line in proc.stdout.splitlines()}
    assert "not installed: pip install 'aesop-eval[mt]'" in lines["tesla-m"]
    proc = _run([str(base_venv / "bin" / "summeval"), "--list-metrics"], cwd=workdir, env=_user_env(base_venv))
    lines = {line.split()[0]: line for line in proc.stdout.splitlines()}
    assert "not installed" not in lines["tesla-s"] and "aesop-eval[coherence]" in lines["cremer"]


def _mt_run(name: str) -> str:
    """The run of an mteval metric, from its class's facts: Chinese output where its languages lack
    English, a French source where it reads the source, else English output."""
    from evalcore.metric.registry import spec

    metric = spec(name).load()
    return "chinese" if not {"en", "*"} & set(metric.languages) else "from-french" if metric.reads == "source" \
        else "translations"


def _all_runs() -> dict[str, tuple[list[str], tuple[str, ...]]]:
    """(command, extra arguments, metrics) run in the [all] venv; together every registered metric."""
    from evalcore.metric.registry import registered
    from summeval.registry import BORROWED

    mt = {run: tuple(n for n in registered("mteval") if _mt_run(n) == run)
          for run in ("translations", "from-french", "chinese")}
    return {
        "summaries": (["summeval.cli", "score", "--models", "demo/models", "--peers", "demo/peers"],
                      (*registered("summeval"), *BORROWED)),
        "texts": (["coherence.cli", "score", "demo/peers/D0001-A.M.100.A.1", "demo/peers/D0002-A.M.100.A.1"],
                  tuple(registered("coherence"))),
        "paraphrases": (["parapeval.cli", "compare", "--originals", "generators/originals.txt", "--references",
                         "generators/references.txt", "-i", "generators/copy.txt", "generators/rewrite.txt",
                         "generators/unrelated.txt", "--paired-bs"], tuple(registered("parapeval"))),
        "translations": (["mteval.cli", "score", "-r", "mt/ref.en", "-i", "mt/hyp.en"], mt["translations"]),
        "from-french": (["mteval.cli", "score", "-l", "fr-en", "--src", "mt/src.fr", "-r", "mt/ref.en", "-i",
                         "mt/hyp.en"], mt["from-french"]),
        "chinese": (["mteval.cli", "score", "-l", "en-zh", "-r", "demo/mt-zh/ref.A.zh", "-i",
                     "demo/mt-zh/system-a.zh"], mt["chinese"]),
    }


ALL_RUNS = _all_runs()


def test_all_runs_cover_every_registered_metric():
    from evalcore.metric.registry import registered

    covered = {m for _, metrics in ALL_RUNS.values() for m in metrics}
    assert covered == set(registered())


@pytest.fixture(scope="module")
def mt_files(workdir) -> Path:
    """Two segments with a French source (XMEANT reads one)."""
    folder = workdir / "mt"
    folder.mkdir(exist_ok=True)
    (folder / "src.fr").write_text("Le conseil a approuvé le budget lundi.\nLa pluie a fermé des routes.\n", "utf-8")
    (folder / "ref.en").write_text("The council approved the budget on Monday.\nThe rain closed some roads.\n", "utf-8")
    (folder / "hyp.en").write_text("The council has approved the budget Monday.\nRain closed roads.\n", "utf-8")
    return folder


@pytest.mark.parametrize("run", sorted(ALL_RUNS))
def test_all_install_scores_every_metric_as_the_checkout_does(all_venv, workdir, mt_files, run):
    """Values and signatures equal the development install's; built resources are shared through
    AESOP_CACHE (built by `make setup`)."""
    command, metrics = ALL_RUNS[run]
    args = [*command, "--format", "json", *[a for m in metrics for a in ("-m", m)]]
    proc = _run([str(all_venv / "bin" / "python"), "-m", *args], cwd=workdir, env=_user_env(all_venv))
    assert proc.returncode == 0, (args, proc.stderr[-3000:])
    assert json.loads(proc.stdout) == _dev_json(args, workdir)
