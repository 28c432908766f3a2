"""A bot that asks for samples and writes every decision it gets, with the run's key, as JSON
lines to the file named by its argument, then answers a random legal move (tests/python)."""
import json
import os
import random
import sys

hello = json.loads(sys.stdin.readline())
print(json.dumps({"name": "samples", "version": "1", "samples": 3}), flush=True)
rng = random.Random(1)
with open(sys.argv[1], "a") as out:
    for line in sys.stdin:
        decision = json.loads(line)
        decision.update(key=os.environ.get("PILFER_SAMPLE_KEY"), game=hello["game"], players=hello["players"])
        out.write(json.dumps(decision) + "\n")
        out.flush()
        print(rng.choice(decision["legal"]), flush=True)
