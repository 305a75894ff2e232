#!/usr/bin/env bash
# Installs the peer that `make bench` compares against: Selenium (pip) driving Debian's WebKitWebDriver.
# Only what is missing is installed; nothing else on the machine is changed.
set -euo pipefail
python=${PYTHON:-python3}
missing_apt=()
command -v WebKitWebDriver >/dev/null 2>&1 || missing_apt+=(webkit2gtk-driver)
command -v Xvfb >/dev/null 2>&1 || missing_apt+=(xvfb)
command -v "$python" >/dev/null 2>&1 || missing_apt+=(python3 python3-pip)
if [ ${#missing_apt[@]} -gt 0 ]; then
  echo "webbridge bench-peer: installing ${missing_apt[*]} (apt)" >&2
  if [ "$(id -u)" -eq 0 ]; then sudo=(); else sudo=(sudo); fi
  export DEBIAN_FRONTEND=noninteractive
  "${sudo[@]}" apt-get update -q
  "${sudo[@]}" apt-get install -y -q --no-install-recommends "${missing_apt[@]}"
fi
if ! "$python" -c 'import selenium' >/dev/null 2>&1; then
  echo "webbridge bench-peer: installing selenium (pip)" >&2
  # Debian's own python refuses system-wide pip installs (PEP 668); a user install is allowed.
  "$python" -m pip install -q selenium 2>/dev/null || "$python" -m pip install -q --user --break-system-packages selenium
fi
echo "webbridge bench-peer: WebKitWebDriver $(command -v WebKitWebDriver), selenium $("$python" -c 'import selenium; print(selenium.__version__)')"
