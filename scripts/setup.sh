#!/usr/bin/env bash
# Installs what the build and the tests need on Debian/Ubuntu, only when it is missing.
set -euo pipefail
missing=()
pkg-config --exists webkit2gtk-4.1 2>/dev/null || missing+=(libwebkit2gtk-4.1-dev)
command -v Xvfb >/dev/null 2>&1 || missing+=(xvfb)
# node runs the generated JS contract module in the contract tests.
command -v node >/dev/null 2>&1 || missing+=(nodejs)
# tsc type-checks pages written against the generated TypeScript declarations in the contract tests.
command -v tsc >/dev/null 2>&1 || missing+=(node-typescript)
# python3 runs the replaying stand-in for xcrun/xcodebuild in the cloud-Mac tests.
command -v python3 >/dev/null 2>&1 || missing+=(python3)
# The completion tests run the generated scripts in each shell; the man page test renders it with groff.
command -v zsh >/dev/null 2>&1 || missing+=(zsh)
command -v fish >/dev/null 2>&1 || missing+=(fish)
command -v groff >/dev/null 2>&1 || missing+=(groff-base)
# scripts/check-shell-setup.sh runs the README's completion lines as a new account's bash would: with
# bash-completion, which loads a command's completion from ~/.local/share/bash-completion on Tab.
[ -f /usr/share/bash-completion/bash_completion ] || missing+=(bash-completion)
# stress-ng holds every core busy in `make test-loaded`.
command -v stress-ng >/dev/null 2>&1 || missing+=(stress-ng)
# xmllint validates the JUnit report against the common JUnit schema (Tests/webbridgeTests/Fixtures).
command -v xmllint >/dev/null 2>&1 || missing+=(libxml2-utils)
if [ ${#missing[@]} -gt 0 ]; then
    echo "webbridge setup: installing ${missing[*]}" >&2
    if [ "$(id -u)" -eq 0 ]; then sudo=(); else sudo=(sudo); fi
    export DEBIAN_FRONTEND=noninteractive
    "${sudo[@]}" apt-get update -q
    "${sudo[@]}" apt-get install -y -q --no-install-recommends "${missing[@]}"
fi
# junitparser (PyPI) reads the JUnit report in the tests as a dashboard's parser would. pip into the python3 on
# PATH; a system python that refuses pip (PEP 668, Debian 12) gets it for this user.
if ! python3 -c 'import junitparser' >/dev/null 2>&1; then
    echo "webbridge setup: installing junitparser (PyPI)" >&2
    python3 -m pip install -q junitparser 2>/dev/null ||
        python3 -m pip install -q --user --break-system-packages junitparser
fi
# jsonschema (PyPI) validates the JSON reports against Docs/report.schema.json in the tests; check-jsonschema
# (PyPI) validates Docs/CI.md's workflow against GitHub's workflow schema, which it ships (no download at run time).
for module in jsonschema:jsonschema check_jsonschema:check-jsonschema; do
    if ! python3 -c "import ${module%%:*}" >/dev/null 2>&1; then
        echo "webbridge setup: installing ${module##*:} (PyPI)" >&2
        python3 -m pip install -q "${module##*:}" 2>/dev/null ||
            python3 -m pip install -q --user --break-system-packages "${module##*:}"
    fi
done
