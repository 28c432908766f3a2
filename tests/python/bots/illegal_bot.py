"""A bot that answers a move that is not legal (tests/python: a cheat)."""
import json
import sys

sys.stdin.readline()
print(json.dumps({"name": "illegal", "version": "1"}), flush=True)
for line in sys.stdin:
    print("KS>p9", flush=True)
