#!/usr/bin/env bash
# Installs what the build and the tests need on Debian/Ubuntu, only when it is missing.
set -euo pipefail
missing=()
pkg-config --exists webkit2gtk-4.1 2>/dev/null || missing+=(libwebkit2gtk-4.1-dev)
command -v Xvfb >/dev/null 2>&1 || missing+=(xvfb)
# node runs the generated JS contract module in the contract tests.
command -v node >/dev/null 2>&1 || missing+=(nodejs)
# python3 runs the replaying stand-in for xcrun/xcodebuild in the cloud-Mac tests.
command -v python3 >/dev/null 2>&1 || missing+=(python3)
[ ${#missing[@]} -eq 0 ] && exit 0
echo "webbridge setup: installing ${missing[*]}" >&2
if [ "$(id -u)" -eq 0 ]; then sudo=(); else sudo=(sudo); fi
export DEBIAN_FRONTEND=noninteractive
"${sudo[@]}" apt-get update -q
"${sudo[@]}" apt-get install -y -q --no-install-recommends "${missing[@]}"
