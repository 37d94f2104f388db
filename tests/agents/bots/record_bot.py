"""A bot that writes every message it receives to the file named by its argument (one JSON
line each) and answers the first legal action. Usage: record_bot.py PATH."""

import json
import sys

with open(sys.argv[1], "a", encoding="utf-8") as record:
    for line in sys.stdin:
        record.write(line)
        record.flush()
        message = json.loads(line)
        if "legal" in message:
            print(json.dumps({"action": message["legal"][0]}), flush=True)
