#!/usr/bin/env python3
"""A random bot speaking pilfer's bot protocol (docs/botproto.md), with nothing but the standard
library: it answers the handshake, then each decision with one of the legal moves at random.

    pilfer sim steal-the-pile -p 2 --seat 'exec:python3 examples/random_bot.py' --seat greedy
"""
import json
import random
import sys


def main():
    rng = random.Random(int(sys.argv[1]) if len(sys.argv) > 1 else None)
    hello = json.loads(sys.stdin.readline())
    assert hello["protocol"] == 1, hello
    print(json.dumps({"name": "random.py", "version": "1.0"}), flush=True)
    for line in sys.stdin:
        decision = json.loads(line)
        print(rng.choice(decision["legal"]), flush=True)


if __name__ == "__main__":
    main()
