"""A bot whose answer is a legal move with bytes after it that a line of text may not hold
(tests/python): "nul" answers the first legal move, a NUL byte and "garbage" (7H\0garbage,
which a reader that stops at the NUL would take as the move 7H); "utf8" answers it followed by a
byte that is not UTF-8."""
import json
import sys

TAIL = {"nul": b"\0garbage", "utf8": b"\xff"}[sys.argv[1]]
sys.stdin.readline()
print(json.dumps({"name": "bad-line", "version": "1"}), flush=True)
for line in sys.stdin:
    move = json.loads(line)["legal"][0]
    sys.stdout.buffer.write(move.encode() + TAIL + b"\n")
    sys.stdout.flush()
