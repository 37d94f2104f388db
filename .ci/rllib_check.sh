#!/usr/bin/env bash
# Separate CI step for the optional Ray extra (issue 7): `bash .ci/rllib_check.sh`.
#
# In its own virtualenv (the main suite's packages stay as they are) it installs torch (CPU)
# and then this checkout with the [ray] extra, and runs, from outside the checkout so that the
# installed package is what gets tested:
#   0. the adapter tests of tests/integrations (skipped in the main suite without Ray);
#   1. one training iteration of `mjenv train rllib` with no remote env runner (local Ray);
#   2. one iteration with one remote env runner on a two-CPU cluster started here with
#      `ray start --head` (token authentication on, loopback only), joined with --address;
#   3. the check that no masked action was sampled: the env refuses any masked action (the run
#      would fail) and every metrics line must report masked_actions_sampled == 0 over at least
#      one finished episode;
#   4. the conversion of the RLlib checkpoint to an agents.ppo policy file, and
#      `mjenv eval --agent ppo:FILE --vs random --deals 4` on it.
# Temp dirs and Ray processes are cleaned up on every exit (trap), failures included.
# Budget: under 5 minutes on the 2-core CI machine, install included (timings printed).
set -euo pipefail

REPO="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
# Short path: Ray's Unix socket paths under its temp dir must stay below 108 characters.
WORK="$(mktemp -d /tmp/mjrl.XXXXXX)"
RAY_BIN=""
RAY_START_PID=""
T0=$(date +%s)

cleanup() {
    local rc=$?
    trap - EXIT INT TERM
    if [[ -n "${RAY_START_PID:-}" ]]; then
        wait "$RAY_START_PID" 2>/dev/null || true     # let a booting cluster finish, then stop it
    fi
    if [[ -n "$RAY_BIN" && -x "$RAY_BIN" ]]; then
        "$RAY_BIN" stop --force >/dev/null 2>&1 || true
    fi
    rm -rf "$WORK"
    echo "rllib_check: $([[ $rc == 0 ]] && echo passed || echo "FAILED (exit $rc)") in $(( $(date +%s) - T0 ))s"
    exit "$rc"
}
trap cleanup EXIT
trap 'exit 130' INT TERM

phase() { echo "rllib_check [$(( $(date +%s) - T0 ))s] $*"; }

phase "installing torch==2.13.0 and mjenv[ray] into $WORK/venv"
# The venv sees the system site-packages read-only: what is already there at a version that
# fits (torch, numpy, scipy …) is not copied again, which saves minutes of disk I/O on a
# 2-core machine; everything else (Ray, and any version Ray needs) goes into the venv, so the
# main suite's packages stay exactly as they are.
python3 -m venv --system-site-packages "$WORK/venv"
PY="$WORK/venv/bin/python"
PIP=("$PY" -m pip install -q --progress-bar off --no-compile)
# torch first, pinned: it is a local CPU wheel here; an open spec would pull a CUDA build.
"${PIP[@]}" torch==2.13.0
"${PIP[@]}" "$REPO[ray]"
RAY_BIN="$WORK/venv/bin/ray"
MJENV="$WORK/venv/bin/mjenv"
"$PY" -c 'import gymnasium, ray, torch; print("rllib_check: ray", ray.__version__, "gymnasium", gymnasium.__version__, "torch", torch.__version__)'

# Token authentication with a token of our own (never ~/.ray/auth_token), and every Ray
# process on 127.0.0.1 (Ray otherwise binds the machine's interface address).
export RAY_AUTH_MODE=token
export RAY_AUTH_TOKEN_PATH="$WORK/auth_token"
export RAY_ENABLE_WINDOWS_OR_OSX_CLUSTER=0
export RAY_USAGE_STATS_ENABLED=0
export RAY_TMPDIR="$WORK/rl"      # the local instance of step 1 (the cluster uses $WORK/ray)
"$PY" -c 'import secrets; print(secrets.token_hex(32))' > "$RAY_AUTH_TOKEN_PATH"
chmod 600 "$RAY_AUTH_TOKEN_PATH"

# The two-CPU cluster of step 2 boots in the background meanwhile (mostly waiting on its
# daemons); step 1 asks for a local instance explicitly, so it does not join this cluster.
PORT="$("$PY" -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')"
ADDRESS="127.0.0.1:$PORT"
nice "$RAY_BIN" start --head --num-cpus 2 --node-ip-address 127.0.0.1 --port "$PORT" \
    --temp-dir "$WORK/ray" --include-dashboard false --disable-usage-stats > "$WORK/ray_start.log" 2>&1 &
RAY_START_PID=$!

phase "0/4 adapter tests with Ray installed (tests/integrations)"
(cd "$REPO" && "$PY" -m pytest -q -p no:cacheprovider tests/integrations)

cd "$WORK"
TRAIN=(train rllib --total-steps 256 --steps-per-iter 256 --minibatch-size 128
       --update-epochs 1 --num-envs-per-env-runner 2 --max-iterations 1 --pool-size 1 --threads 1)

phase "1/4 one iteration, no remote env runner (local Ray)"
nice "$MJENV" "${TRAIN[@]}" --num-env-runners 0 --out "$WORK/local"

phase "2/4 one iteration, one remote env runner on the local 2-CPU cluster at $ADDRESS"
wait "$RAY_START_PID" || { cat "$WORK/ray_start.log"; exit 1; }
nice "$MJENV" "${TRAIN[@]}" --num-env-runners 1 --address "$ADDRESS" --out "$WORK/remote"
"$RAY_BIN" stop --force >/dev/null 2>&1

phase "3/4 no masked action sampled"
"$PY" - "$WORK/local/metrics.jsonl" "$WORK/remote/metrics.jsonl" <<'EOF'
import json, sys
for path in sys.argv[1:]:
    rows = [json.loads(line) for line in open(path, encoding="utf-8")]
    if not rows:
        sys.exit(f"{path}: no training iteration was logged")
    masked = sum(r["charts/masked_actions_sampled"] for r in rows)
    episodes = rows[-1]["episodes"]
    if masked:
        sys.exit(f"{path}: {masked} masked action(s) sampled")
    if episodes < 1:
        sys.exit(f"{path}: no finished episode to check")
    print(f"rllib_check: {path}: {rows[-1]['global_step']} env steps, {episodes} episodes, "
          f"0 masked actions")
EOF

phase "4/4 convert the RLlib checkpoint and evaluate it"
"$PY" - "$WORK/remote/rllib" "$WORK/converted.pt" "$WORK/remote/policy.pt" <<'EOF'
import sys, torch
from agents.checkpoint_file import read_checkpoint_file
from agents.ppo import PPOAgent
from mjenv.integrations.rllib import convert_checkpoint
checkpoint, converted, written = sys.argv[1:]
convert_checkpoint(checkpoint, converted)
a, b = (read_checkpoint_file(p)["model"] for p in (converted, written))
if a.keys() != b.keys() or not all(torch.equal(a[k], b[k]) for k in a):
    sys.exit("the converted checkpoint differs from the policy file written by the run")
PPOAgent.load(converted)
print(f"rllib_check: converted {checkpoint} -> {converted}: loads, equals the run's policy.pt")
EOF
nice "$MJENV" eval --agent "ppo:$WORK/converted.pt" --vs random --deals 4 --no-progress
