#!/usr/bin/env bash
# `make install` / `make uninstall`: webbridge with its resource bundles, completions and man page, where shells
# and man look under PREFIX. Uninstall removes exactly the files install writes, and the folders it made if they
# are left empty; nothing else under PREFIX is touched.
#   scripts/install.sh install PREFIX BUILT     (BUILT: the build's bin folder, holding webbridge, *.resources and,
#                                               on Linux, libWebBridgeWebExtension.so)
#   scripts/install.sh uninstall PREFIX
set -euo pipefail
action=${1:?install or uninstall}
prefix=${2:?PREFIX}
libexec="$prefix/libexec/webbridge"
bundles=(WebBridge_BridgeContract.resources WebBridge_BridgeTesting.resources)
# The web process extension the engine loads from beside the binary (Linux only; see Package.swift).
extension_library=libWebBridgeWebExtension.so
[ "$(uname -s)" = Linux ] && libraries=("$extension_library") || libraries=()
# Each installed file: its place, as the shells and man look for it.
bash_completion="$prefix/share/bash-completion/completions/webbridge"
zsh_completion="$prefix/share/zsh/site-functions/_webbridge"
fish_completion="$prefix/share/fish/vendor_completions.d/webbridge.fish"
manual="$prefix/share/man/man1/webbridge.1"
link="$prefix/bin/webbridge"

case "$action" in
install)
    built=${3:?the bin folder of a build}
    for needed in webbridge "${bundles[@]}" "${libraries[@]}"; do
        [ -e "$built/$needed" ] || { echo "make install: $built/$needed is missing; build first" >&2; exit 2; }
    done
    if [ -e "$link" ] && [ ! -L "$link" ]; then
        echo "make install: $link exists and is not the link install makes; remove it first" >&2
        exit 2
    fi
    mkdir -p "$libexec" "$prefix/bin" "$(dirname "$bash_completion")" "$(dirname "$zsh_completion")" \
        "$(dirname "$fish_completion")" "$(dirname "$manual")"
    # The binary finds its bundles beside its real path: they live together, and bin/ holds a link to it.
    install -m 0755 "$built/webbridge" "$libexec/webbridge"
    for bundle in "${bundles[@]}"; do
        rm -rf "${libexec:?}/$bundle"
        cp -R "$built/$bundle" "$libexec/$bundle"
    done
    for library in "${libraries[@]}"; do install -m 0755 "$built/$library" "$libexec/$library"; done
    ln -sfn ../libexec/webbridge/webbridge "$link"
    "$libexec/webbridge" --generate-completion-script bash >"$bash_completion"
    "$libexec/webbridge" --generate-completion-script zsh >"$zsh_completion"
    "$libexec/webbridge" --generate-completion-script fish >"$fish_completion"
    "$libexec/webbridge" --generate-manual >"$manual"
    echo "installed: $link, $libexec, completions (bash, zsh, fish) and $manual"
    ;;
uninstall)
    rm -f "$link" "$libexec/webbridge" "$libexec/$extension_library" "$bash_completion" "$zsh_completion" "$fish_completion" "$manual"
    for bundle in "${bundles[@]}"; do rm -rf "${libexec:?}/$bundle"; done
    # The folders install made, only when nothing else is in them.
    for folder in "$libexec" "$prefix/libexec" "$prefix/bin" "$(dirname "$bash_completion")" \
        "$prefix/share/bash-completion" "$(dirname "$zsh_completion")" "$prefix/share/zsh" \
        "$(dirname "$fish_completion")" "$prefix/share/fish" "$(dirname "$manual")" "$prefix/share/man" \
        "$prefix/share"; do
        rmdir "$folder" 2>/dev/null || true
    done
    echo "uninstalled webbridge from $prefix"
    ;;
*)
    echo "scripts/install.sh: install or uninstall" >&2
    exit 2
    ;;
esac
