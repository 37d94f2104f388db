"""A bot that plays by docs/protocol.md until its Nth decision of a hand, then fails there:
``crash`` (exits), ``hang`` (stops answering), ``garbage`` (a line that is not JSON),
``illegal`` (a well-formed answer naming an action that is not legal), ``chatty`` (a second,
unasked line after an answer). Usage: fault_bot.py MODE [N]."""

import json
import sys
import time

mode = sys.argv[1]
fail_at = int(sys.argv[2]) if len(sys.argv) > 2 else 2
asked = 0
print(f"fault_bot {mode} started", file=sys.stderr, flush=True)
for line in sys.stdin:
    message = json.loads(line)
    if message["type"] == "deal":
        asked = 0
    if "legal" not in message:
        continue
    asked += 1
    if asked == fail_at:
        print(f"fault_bot: failing with {mode}", file=sys.stderr, flush=True)
        if mode == "crash":
            sys.exit(3)
        if mode == "hang":
            time.sleep(3600)
        if mode == "garbage":
            print("I think I'll discard the 5m", flush=True)
            continue
        if mode == "chatty":                # both lines in one write: they arrive together
            print(json.dumps({"action": message["legal"][0]}) + "\n"
                  + json.dumps({"note": "and another thing"}), flush=True)
            continue
        if mode == "illegal":
            legal = message["legal"]
            print(json.dumps({"action": "pass" if "pass" not in legal else "tsumo"}), flush=True)
            continue
    print(json.dumps({"action": message["legal"][0]}), flush=True)
