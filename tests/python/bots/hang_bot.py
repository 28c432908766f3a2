"""A bot that shakes hands and then never answers (tests/python: the time limit)."""
import json
import sys
import time

sys.stdin.readline()
print(json.dumps({"name": "hang", "version": "1"}), flush=True)
sys.stdin.readline()
time.sleep(3600)
