#!/usr/bin/env bash
# Saves a PNG of an HTML report as WebKitGTK renders it: scripts/report-screenshot.sh REPORT.html OUT.png [WIDTH]
# Builds the small C helper beside it into a temporary directory and runs it under its own Xvfb (xvfb-run -a).
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
cc -O1 -o "$work/report-screenshot" "$here/report-screenshot.c" $(pkg-config --cflags --libs webkit2gtk-4.1)
xvfb-run -a -s "-screen 0 1280x1024x24" "$work/report-screenshot" "$@"
