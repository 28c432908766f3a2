#!/usr/bin/env python3
"""A flat Monte Carlo bot for pilfer's bot protocol (docs/botproto.md), written against
`import pilfer`: it asks pilfer for determinizations of the position for its seat (the
handshake's "samples"), and rates each legal move by random playouts from each of them, played
with state.random_playout at engine speed. It sees only what its seat may know: the samples are
the game's determinizations for the seat, which depend on nothing the seat cannot see.

    pilfer sim steal-the-pile -p 2 --seat 'exec:python3 examples/flat_mc_bot.py' --seat random

Its arguments: the number of samples (default 8) and of playouts per move and sample (default 2).
"""
import json
import random
import sys

import pilfer


def choose(game, decision, playouts, rng):
    seat = decision["seat"]
    legal = decision["legal"]
    if len(legal) == 1:
        return legal[0]
    totals = [0.0] * len(legal)
    for text in decision["samples"]:
        state = game.deserialize_state(text)
        for i, move in enumerate(legal):
            after = state.clone()
            after.apply_action(after.string_to_action(move))
            for _ in range(playouts):
                end = after.clone()
                end.random_playout(rng.getrandbits(62))
                totals[i] += end.returns()[seat]
    best = max(totals)
    return rng.choice([m for m, t in zip(legal, totals) if t == best])


def main():
    samples = int(sys.argv[1]) if len(sys.argv) > 1 else 8
    playouts = int(sys.argv[2]) if len(sys.argv) > 2 else 2
    rng = random.Random(7)
    hello = json.loads(sys.stdin.readline())
    assert hello["protocol"] == 1, hello
    # The samples carry the game's options in them: the game needs only its players.
    game = pilfer.load_game(hello["game"], {"players": hello["players"]})
    print(json.dumps({"name": "flat_mc.py", "version": "1.0", "samples": samples}), flush=True)
    for line in sys.stdin:
        print(choose(game, json.loads(line), playouts, rng), flush=True)


if __name__ == "__main__":
    main()
