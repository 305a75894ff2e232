#!/usr/bin/env python3
# Test stand-in for xcodebuild and xcrun, which cannot exist on Linux: it prints a RECORDED REAL output
# (a file under realdata/) and exits with the recorded code. It appends its argv to calls.jsonl so tests
# can assert the exact argv. Rules (rules.json in $REPLAY_DIR) pick the recording: the first rule whose
# tool matches, whose "contains" strings all occur in the joined argv and whose "excludes" strings don't.
# "createBundle" makes the -resultBundlePath folder, as xcodebuild does, refusing (exit 64) if it exists.
# "hang" waits for a signal after the output, as a hung xcodebuild does.
# "ignoreSignals" makes it ignore SIGTERM and SIGINT (noting each on its output) and keep waiting, and "child"
# starts a child that shares its output and ignores them too: only SIGKILL of the whole group stops them.
# A hanging run writes its pids (and its child's) to pids.json in $REPLAY_DIR before any output, so a test can check none is left.
import json
import os
import sys

tool = os.path.basename(sys.argv[0])
args = sys.argv[1:]
folder = os.environ["REPLAY_DIR"]
with open(os.path.join(folder, "calls.jsonl"), "a") as log:
    log.write(json.dumps([tool] + args) + "\n")
joined = " ".join(args)
with open(os.path.join(folder, "rules.json")) as rules_file:
    rules = json.load(rules_file)
for rule in rules:
    if rule["tool"] != tool:
        continue
    if not all(token in joined for token in rule.get("contains", [])):
        continue
    if any(token in joined for token in rule.get("excludes", [])):
        continue
    if rule.get("createBundle") and "-resultBundlePath" in args:
        bundle = args[args.index("-resultBundlePath") + 1]
        if os.path.exists(bundle):
            sys.stderr.write('xcodebuild: error: Existing file at -resultBundlePath "%s"\n' % bundle)
            sys.exit(64)
        os.makedirs(bundle)
    if rule.get("ignoreSignals"):
        import signal

        def noted(number, frame):
            sys.stdout.write("replay: ignored signal %d\n" % number)
            sys.stdout.flush()

        signal.signal(signal.SIGTERM, noted)
        signal.signal(signal.SIGINT, noted)
    if rule.get("hang"):
        pids = {"tool": os.getpid()}
        if rule.get("child"):
            import subprocess

            ignoring = "import signal; [signal.signal(s, signal.SIG_IGN) for s in (signal.SIGTERM, signal.SIGINT)]; "
            child = subprocess.Popen([sys.executable, "-c", ignoring + "signal.pause()"])
            pids["child"] = child.pid
        with open(os.path.join(folder, "pids.json.tmp"), "w") as pid_file:
            json.dump(pids, pid_file)
        os.rename(os.path.join(folder, "pids.json.tmp"), os.path.join(folder, "pids.json"))
    with open(rule["output"], "rb") as recorded:
        data = recorded.read()
    stream = sys.stderr if rule.get("stderr") else sys.stdout
    stream.buffer.write(data)
    stream.flush()
    if rule.get("hang"):
        # A hung xcodebuild (a simulator that never boots): the recorded output, then nothing until a signal.
        import signal

        while True:
            signal.pause()
    sys.exit(rule.get("exit", 0))
sys.stderr.write("replay: no recorded output for: %s %s\n" % (tool, joined))
sys.exit(127)
