#!/usr/bin/env bash
# The README's completion and man-page lines, as a new account runs them: each README line (the sh blocks of
# "Shell completions and the man page" and "Installed for every shell") runs in bash from a fresh HOME (a temp
# folder, nothing else in the environment), then bash (with Debian's bash-completion), zsh and fish start from that
# home as a login would and complete a subcommand and an option, and `man webbridge` finds the page. Fails, naming
# the README line or the shell, each thing a new user would trip on.
#   scripts/check-shell-setup.sh [swift]     (webbridge is the one `swift build --show-bin-path` holds, or the one
#                                            in WEBBRIDGE_BIN, a bin folder with its resource bundles)
set -uo pipefail
swift=${1:-swift}
root=$(cd "$(dirname "$0")/.." && pwd)
bin=${WEBBRIDGE_BIN:-$(cd "$root" && "$swift" build --show-bin-path)}
[ -x "$bin/webbridge" ] || { echo "check-shell-setup: $bin/webbridge is missing: swift build --product webbridge" >&2; exit 1; }
# WEBBRIDGE_README: another README to read the lines from (an earlier one, to see this check fail on it).
readme=${WEBBRIDGE_README:-$root/README.md}
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT
failures=0
fail() {
    echo "check-shell-setup: $*" >&2
    failures=$((failures + 1))
}

# The lines of the README's sh block that follows the line holding MARKER.
readme_block() {
    python3 - "$readme" "$1" <<'EOF'
import sys
lines, marker = open(sys.argv[1]).read().splitlines(), sys.argv[2]
start = next((i for i, line in enumerate(lines) if marker in line), None)
# The block belongs to the marker's bullet: no other bullet or heading comes between them.
opening = None
for i in range(start + 1 if start is not None else len(lines), len(lines)):
    if lines[i].startswith("```sh"):
        opening = i
        break
    if lines[i].startswith(("- ", "#")):
        break
for line in lines[opening + 1:] if opening is not None else []:
    if line.startswith("```"):
        break
    if line.strip():
        print(line)
EOF
}

# Runs the README's lines one by one in bash, from the fresh home HOME, with webbridge on PATH (the build's bin
# folder, with its resource bundles; `make install` gets BUILT=it). Then, in the same session, `man -w webbridge`.
run_readme_lines() {
    local home=$1 marker=$2 lines=$scratch/lines.txt
    readme_block "$marker" >"$lines"
    [ -s "$lines" ] || { fail "no sh block after '$marker' in README.md"; return; }
    # shellcheck disable=SC2016
    env -i HOME="$home" PATH="$bin:/usr/bin:/bin" TERM=dumb LANG=C.UTF-8 WEBBRIDGE_ROOT="$root" WEBBRIDGE_BIN="$bin" \
        bash --noprofile --norc -c '
            cd "$WEBBRIDGE_ROOT"
            while IFS= read -r line; do
                # `make install` in the README builds the release binary; here it installs the build at hand.
                case "$line" in make\ install*) line="${line/make install/make -s install BUILT=$WEBBRIDGE_BIN}" ;; esac
                eval "$line" || { echo "README line failed (exit $?): $line" >&2; exit 1; }
            done <"$0"
            page=$(man -w webbridge) || { echo "man -w webbridge found no page after the README lines" >&2; exit 1; }
            case "$page" in "$HOME"/*) ;; *) echo "man -w webbridge found $page, not the page under $HOME" >&2; exit 1 ;; esac
            man -P cat webbridge 2>/dev/null | grep -q "WEBBRIDGE(1)" || { echo "man webbridge does not show the page" >&2; exit 1; }
        ' "$lines" >"$scratch/readme.out" 2>&1 ||
        fail "from a fresh home ($marker): $(cat "$scratch/readme.out")"
}

# What each shell, started from HOME as a login would, offers for a subcommand and an option; PATH as given.
check_shells() {
    local home=$1 path=$2 what=$3 offered
    local -a fresh=(env -i HOME="$home" PATH="$path" TERM=dumb LANG=C.UTF-8)
    # bash: an interactive login shell reads /etc/profile, which loads bash-completion; on Tab bash-completion
    # loads a command's completion from where the README put it. Here Tab's loader is called, then the function.
    local bash_complete='
        _completion_loader webbridge >/dev/null 2>&1
        function=$(complete -p webbridge 2>/dev/null | sed -n "s/.* -F \([^ ]*\) .*/\1/p")
        [ -n "$function" ] || { echo "NO COMPLETION"; exit 0; }
        COMP_WORDS=("$@"); COMP_CWORD=$(($# - 1)); COMP_LINE="$*"; COMP_POINT=${#COMP_LINE}
        "$function" webbridge "${COMP_WORDS[COMP_CWORD]}" "${COMP_WORDS[COMP_CWORD - 1]}"
        printf "%s\n" "${COMPREPLY[@]}"'
    offered=$("${fresh[@]}" bash -l -i -c "$bash_complete" bash webbridge ch 2>/dev/null)
    [ "$offered" = check ] || fail "$what: bash offered '$offered' for 'webbridge ch', not 'check'"
    offered=$("${fresh[@]}" bash -l -i -c "$bash_complete" bash webbridge check --fo 2>/dev/null)
    [ "$offered" = --format ] || fail "$what: bash offered '$offered' for 'webbridge check --fo', not '--format'"
    # zsh: an interactive shell reads ~/.zshrc, whose compinit binds _webbridge from fpath. zsh's completion
    # builtins work only inside a completion widget, so these print what the real _webbridge hands them.
    local zsh_complete='
        [[ $_comps[webbridge] == _webbridge ]] || { print "NOT BOUND: ${_comps[webbridge]:-nothing}"; exit 0 }
        compadd() { [[ $1 == -- ]] && shift; print -rl -- "$@" }
        _describe() { local name=${@[-1]}; print -rl -- "${(@)${(@P)name}%%:*}" }
        _files() { print -r -- "(files)" }
        words=(webbridge "$@"); CURRENT=$#words; _webbridge'
    offered=$("${fresh[@]}" zsh -i -c "$zsh_complete" zsh ch 2>/dev/null)
    grep -qx check <<<"$offered" || fail "$what: zsh offered '$offered' for 'webbridge ch', no 'check'"
    offered=$("${fresh[@]}" zsh -i -c "$zsh_complete" zsh check --fo 2>/dev/null)
    grep -qx -- --format <<<"$offered" || fail "$what: zsh offered '$offered' for 'webbridge check --fo', no '--format'"
    # fish: its own `complete -C` completes a command line as Tab does, from ~/.config and ~/.local/share.
    offered=$("${fresh[@]}" fish -c "complete -C 'webbridge ch'" 2>/dev/null | cut -f1)
    [ "$offered" = check ] || fail "$what: fish offered '$offered' for 'webbridge ch', not 'check'"
    offered=$("${fresh[@]}" fish -c "complete -C 'webbridge check --fo'" 2>/dev/null | cut -f1)
    [ "$offered" = --format ] || fail "$what: fish offered '$offered' for 'webbridge check --fo', not '--format'"
}

# 1. By hand: the README's lines, webbridge on PATH from the build.
home=$scratch/by-hand
mkdir -p "$home"
run_readme_lines "$home" "**Shell completions and the man page**"
check_shells "$home" "$bin:/usr/bin:/bin" "the README's completion lines"

# 2. `make install PREFIX=~/.local`, then a login whose PATH has ~/.local/bin: man needs no MANPATH.
home=$scratch/installed
mkdir -p "$home"
run_readme_lines "$home" "**Installed for every shell**"
check_shells "$home" "$home/.local/bin:/usr/bin:/bin" "make install PREFIX=~/.local"
page=$(env -i HOME="$home" PATH="$home/.local/bin:/usr/bin:/bin" man -w webbridge 2>&1)
[ "$page" = "$home/.local/share/man/man1/webbridge.1" ] ||
    fail "after make install PREFIX=~/.local, man -w webbridge (no MANPATH) gave '$page'"

if [ "$failures" -gt 0 ]; then
    echo "check-shell-setup: $failures check(s) failed" >&2
    exit 1
fi
echo "check-shell-setup: the README's completion, man and make install lines work from a fresh home in bash, zsh and fish"
