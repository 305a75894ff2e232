#!/usr/bin/env python3
"""Runs `make test` under the CPU hog (scripts/with-cpu-hog.sh) and keeps its figures.

The figures of a loaded run: its wall time, the machine's load average while it ran (sampled every 10 s), which
classes failed, and what the stress tests printed: each race's stressed failures and replay rates, each robust
twin's failures. They go to .build/test-loaded.json and are kept as Benchmarks/loaded/<UTC time>-<commit>.json
(never over an existing file): the history of loaded runs is those files, as make bench's is.
Usage: scripts/record-loaded-run.py SWIFT COMMAND...   (exits with COMMAND's status)
"""
import datetime
import json
import os
import re
import subprocess
import sys
import threading


def load_sampler(samples, stop):
    while not stop.wait(10):
        with open("/proc/loadavg") as f:
            samples.append(float(f.read().split()[0]))


def figures(logs):
    """What the stress classes printed: `stress RACE: …replays reproduced A of B and C of D (shrunk)` and
    `lifecycle twin under FAULT: N of M failed` and `twin RACE: …` lines."""
    races, twins = {}, {}
    if not os.path.isdir(logs):
        return races, twins
    for name in sorted(os.listdir(logs)):
        if not name.endswith(".log"):
            continue
        with open(os.path.join(logs, name), errors="replace") as f:
            for line in f:
                race = re.match(r"stress ([\w-]+): (\d+) of (\d+) failed;.*replays reproduced (\d+) of (\d+) and (\d+) of (\d+)", line)
                if race:
                    r = race.groups()
                    races[r[0]] = {
                        "stressed_failed": int(r[1]), "stressed": int(r[2]),
                        "replays_reproduced": int(r[3]), "replays": int(r[4]),
                        "shrunk_reproduced": int(r[5]), "shrunk_replays": int(r[6]),
                    }
                twin = re.match(r"(?:lifecycle )?twin (?:under |of )([\w-]+): (\d+) of (\d+) failed", line)
                if twin:
                    twins[twin.group(1)] = {"failed": int(twin.group(2)), "sessions": int(twin.group(3))}
    return races, twins


def main():
    if len(sys.argv) < 3:
        print("usage: scripts/record-loaded-run.py SWIFT COMMAND...", file=sys.stderr)
        return 3
    swift, command = sys.argv[1], sys.argv[2:]
    commit = subprocess.run(["git", "rev-parse", "--short", "HEAD"], capture_output=True, text=True).stdout.strip()
    started = datetime.datetime.now(datetime.timezone.utc)
    samples, stop = [], threading.Event()
    sampler = threading.Thread(target=load_sampler, args=(samples, stop), daemon=True)
    sampler.start()
    status = subprocess.call(["scripts/with-cpu-hog.sh"] + command)
    stop.set()
    seconds = (datetime.datetime.now(datetime.timezone.utc) - started).total_seconds()
    bin_path = subprocess.run([swift, "build", "--show-bin-path"], capture_output=True, text=True).stdout.strip()
    logs = os.path.join(bin_path, "test-logs")
    failed = []
    if os.path.exists(os.path.join(logs, "failed")):
        with open(os.path.join(logs, "failed")) as f:
            failed = [line.strip() for line in f if line.strip()]
    races, twins = figures(logs)
    record = {
        "started": started.strftime("%Y-%m-%dT%H:%M:%SZ"), "commit": commit or "unknown",
        "command": " ".join(command), "exit_status": status, "wall_seconds": round(seconds, 1),
        "cores": os.cpu_count(),
        "load_average": {
            "samples": len(samples),
            "mean": round(sum(samples) / len(samples), 2) if samples else None,
            "max": max(samples) if samples else None,
        },
        "failed": failed, "races": races, "twins": twins,
    }
    os.makedirs(".build", exist_ok=True)
    with open(".build/test-loaded.json", "w") as f:
        json.dump(record, f, indent=2, sort_keys=True)
        f.write("\n")
    os.makedirs("Benchmarks/loaded", exist_ok=True)
    kept = "Benchmarks/loaded/%s-%s.json" % (started.strftime("%Y-%m-%dT%H%M%SZ"), commit or "unknown")
    if not os.path.exists(kept):
        with open(kept, "w") as f:
            json.dump(record, f, indent=2, sort_keys=True)
            f.write("\n")
        print("make test-loaded: %.0f s, load average %s (max %s); this run is kept as %s" % (
            seconds, record["load_average"]["mean"], record["load_average"]["max"], kept), file=sys.stderr)
    return status


if __name__ == "__main__":
    sys.exit(main())
