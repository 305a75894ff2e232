#!/bin/sh
# Runs a command (the test suite) while stress-ng holds every core of the machine busy, as a loaded CI machine
# does, then stops the hog: on the command's end, and on SIGINT or SIGTERM. The hog runs in its own process group,
# which is ended whole and waited for; it also ends if this script is killed outright (its parent-death signal)
# and, at the latest, after 4 hours (stress-ng's own timeout).
# Usage: scripts/with-cpu-hog.sh make test
set -u
command -v stress-ng >/dev/null 2>&1 || {
    echo "error: stress-ng is missing (it holds the cores busy); remedy: run scripts/setup.sh" >&2
    exit 3
}
# One CPU worker per online core (--cpu 0), each always runnable.
setsid setpriv --pdeathsig TERM stress-ng --cpu 0 --timeout 4h --quiet &
hog=$!

stop_hog() {
    trap - EXIT INT TERM
    kill -TERM "-$hog" 2>/dev/null
    # stress-ng ends its workers on SIGTERM: wait for each to go, at most 10 s in all, then kill what is left.
    deadline=$(($(date +%s) + 10))
    for pid in $(pgrep -g "$hog"); do
        [ "$pid" = "$hog" ] && continue
        left=$((deadline - $(date +%s)))
        [ "$left" -gt 0 ] && timeout "$left" tail --pid="$pid" -f /dev/null 2>/dev/null
    done
    if [ -n "$(pgrep -g "$hog" | grep -vx "$hog")" ]; then
        echo "error: the CPU hog's workers (stress-ng, group $hog) outlived SIGTERM by 10 s: killing them" >&2
        kill -KILL "-$hog" 2>/dev/null
    fi
    wait "$hog" 2>/dev/null
    echo "with-cpu-hog: stress-ng stopped" >&2
}
# The command runs in a process group of its own that this script waits for, so a signal to this script alone
# stops the hog at once; the signal is passed on to the command's whole group (`swift test` does not pass it on to
# the test process it runs).
command_pid=
on_signal() {
    [ -n "$command_pid" ] && kill "-$1" "-$command_pid" 2>/dev/null
    stop_hog
    exit "$2"
}
trap 'on_signal INT 130' INT
trap 'on_signal TERM 143' TERM
trap 'stop_hog' EXIT

echo "with-cpu-hog: stress-ng holds $(nproc) cores (pid $hog) while: $*" >&2
started=$(date +%s)
setsid "$@" <&0 &
command_pid=$!
wait "$command_pid"
status=$?
echo "with-cpu-hog: the command exited $status after $(($(date +%s) - started)) s under load" >&2
exit "$status"
