"""A bot that shakes hands and dies at its first decision (tests/python: a crash)."""
import json
import sys

sys.stdin.readline()
print(json.dumps({"name": "crash", "version": "1"}), flush=True)
sys.stdin.readline()
sys.exit(3)
