#!/usr/bin/env bash
# The first builds a new user waits for, measured from a copy of the working tree with no .build anywhere: the package's
# own `swift build`, the consumer's (Examples/Checkout, which depends on WebBridge by path) first `swift build` and
# first build of its tests (what `swift test` builds), and the command plugin's first run there (`swift package webbridge --version`, which builds webbridge for it).
# Each starts from a clean .build. Writes the wall-clock seconds, the machine (cores, CPU, memory, load before
# each build) and the toolchain as JSON to OUTPUT (default Benchmarks/build-times/<UTC time>-<commit>.json).
#   [BUILD_LOGS=folder] scripts/measure-build-times.sh [OUTPUT]     (BUILD_LOGS: keep each build's log there)
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
commit=$(git -C "$root" rev-parse --short HEAD)
output=${1:-$root/Benchmarks/build-times/$(date -u +%Y-%m-%dT%H%M%SZ)-$commit.json}
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT
# The working tree as it is (a commit's files plus any change not yet committed), without any .build or .git.
clone=$scratch/WebBridge
mkdir -p "$clone"
(cd "$root" && git ls-files -z --cached --others --exclude-standard | tar --null -T - -cf -) | tar -xf - -C "$clone"
dirty=$(git -C "$root" status --porcelain --untracked-files=no | grep -q . && echo true || echo false)
entries=()
# The folder as the package sees it: "." for the package itself, Examples/Checkout for the consumer.
relative() { if [ "$1" = "$clone" ]; then echo .; else echo "${1#"$clone"/}"; fi; }
# Runs the command in the folder from a clean .build; records seconds, exit status and the 1-minute load before and
# after (other work on the machine slows a build: compare runs at like loads).
measure() {
    local name=$1 folder=$2
    shift 2
    rm -rf "$folder/.build"
    local load start end status=0
    load=$(cut -d' ' -f1 /proc/loadavg)
    start=$(date +%s.%N)
    (cd "$folder" && "$@") >"$scratch/$name.log" 2>&1 || status=$?
    end=$(date +%s.%N)
    local after seconds warnings
    after=$(cut -d' ' -f1 /proc/loadavg)
    seconds=$(python3 -c "print(round($end - $start, 1))")
    # SwiftPM's warning of pkg-config flags it refuses (Package.swift, CWebKitGTK): none expected.
    warnings=$(grep -c "prohibited flag" "$scratch/$name.log" || true)
    if [ -n "${BUILD_LOGS:-}" ]; then mkdir -p "$BUILD_LOGS" && cp "$scratch/$name.log" "$BUILD_LOGS/"; fi
    echo "$name: ${seconds} s (exit $status, load before $load, $warnings prohibited-flag warnings)" >&2
    entries+=("$(python3 -c 'import json,sys; print(json.dumps({"name": sys.argv[1], "command": sys.argv[2],
        "folder": sys.argv[3], "seconds": float(sys.argv[4]), "exit_status": int(sys.argv[5]),
        "load_average_1m_before": float(sys.argv[6]), "load_average_1m_after": float(sys.argv[7]),
        "prohibited_flag_warnings": int(sys.argv[8])}))' \
        "$name" "$*" "$(relative "$folder")" "$seconds" "$status" "$load" "$after" "$warnings")")
}
measure package_debug_build "$clone" swift build
measure checkout_debug_build "$clone/Examples/Checkout" swift build
measure checkout_test_build "$clone/Examples/Checkout" swift build --build-tests
measure checkout_plugin_first_run "$clone/Examples/Checkout" swift package webbridge --version
mkdir -p "$(dirname "$output")"
python3 - "$output" "$commit" "$dirty" "${entries[@]}" <<'EOF'
import json, os, platform, subprocess, sys
output, commit, dirty, entries = sys.argv[1], sys.argv[2], sys.argv[3] == "true", [json.loads(e) for e in sys.argv[4:]]
cpu = next((l.split(":", 1)[1].strip() for l in open("/proc/cpuinfo") if l.startswith("model name")), "unknown")
memory_kb = next(int(l.split()[1]) for l in open("/proc/meminfo") if l.startswith("MemTotal"))
swift = subprocess.run(["swift", "--version"], capture_output=True, text=True).stdout.splitlines()[0]
os_name = next((l.split("=", 1)[1].strip().strip('"') for l in open("/etc/os-release") if l.startswith("PRETTY_NAME")), "")
report = {
    "commit": commit,
    "uncommitted_changes": dirty,
    "machine": {"cores": os.cpu_count(), "cpu": cpu, "memory_gb": round(memory_kb / 1048576, 1), "os": os_name,
                "kernel": platform.release()},
    "swift": swift,
    "builds": entries,
}
with open(output, "w") as f:
    json.dump(report, f, indent=2)
    f.write("\n")
print(f"build times kept as {output}")
EOF
