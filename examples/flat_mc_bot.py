#!/usr/bin/env python3
"""A flat Monte Carlo bot written against `import pilfer` alone: for each legal action it plays
random games to the end from worlds its seat cannot tell from the real one, at engine speed
(state.random_playout), and picks the action that won most. It sees only what its seat may know:
the worlds are the game's determinizations for the seat, which depend on nothing the seat cannot
see.

It speaks the bot protocol (docs/botproto.md): it asks pilfer for `worlds` samples with each
decision and reads them with pilfer.State.from_sample under the run's key (PILFER_SAMPLE_KEY):

    pilfer sim steal-the-pile -p 2 --seat 'exec:python3 examples/flat_mc_bot.py --protocol 32 8' --seat random

The class FlatMCBot plays in-process too, with state.resample_from_infostate for its worlds.

A move's value is a win rate estimated from worlds * playouts random games, whose spread is
about 0.5 / sqrt(worlds * playouts): with 8 worlds and 2 playouts (16 games, the first version's
default) that is 0.12, more than the gaps between most moves, and the bot won 56-70% against
random at Steal the Pile, little better than a coin. 32 worlds of 8 playouts (256 games) bring
it to about 0.03: 78-82% over 100 games, above the greedy bot's 76%.

    PYTHONPATH=build/python python3 examples/flat_mc_bot.py [games] [worlds] [playouts]

plays Steal the Pile against random in-process and prints the share of wins.
"""
import json
import os
import random
import sys

import pilfer


class FlatMCBot:
    def __init__(self, seat, worlds=32, playouts=8, seed=0):
        self.seat = seat
        self.worlds = worlds
        self.playouts = playouts
        self.rng = random.Random(seed)

    def step(self, state):
        worlds = (state.resample_from_infostate(self.seat, self.rng.getrandbits(62)) for _ in range(self.worlds))
        return self.best(state.legal_actions(), worlds)

    def best(self, legal, worlds):
        """The action of legal that won most often in random playouts from the worlds."""
        if len(legal) == 1:
            return legal[0]
        wins = [0.0] * len(legal)
        for world in worlds:
            for i, action in enumerate(legal):
                after = world.clone()
                after.apply_action(action)
                for _ in range(self.playouts):
                    end = after.clone()
                    end.random_playout(self.rng.getrandbits(62))
                    wins[i] += end.returns()[self.seat]
        best = max(wins)
        return self.rng.choice([a for a, w in zip(legal, wins) if w == best])


def serve_protocol(worlds, playouts):
    """Plays over the bot protocol: each decision's samples are its worlds."""
    key = os.environ["PILFER_SAMPLE_KEY"]
    hello = json.loads(sys.stdin.readline())
    assert hello["protocol"] == 1, hello
    game = pilfer.load_game(hello["game"], {"players": hello["players"]})
    print(json.dumps({"name": "flat_mc_bot.py", "version": "1.0", "samples": worlds}), flush=True)
    bot = None
    for line in sys.stdin:
        decision = json.loads(line)
        if bot is None or bot.seat != decision["seat"]:
            bot = FlatMCBot(decision["seat"], worlds, playouts, seed=decision["seat"])
        states = [pilfer.State.from_sample(game, text, key) for text in decision["samples"]]
        legal = [states[0].string_to_action(move) for move in decision["legal"]]
        print(decision["legal"][legal.index(bot.best(legal, states))], flush=True)


def against_random(game, games, worlds, playouts):
    """The bot's share of wins against uniformly random play, seats alternating, seeds fixed."""
    won = 0.0
    for g in range(games):
        seat = g % game.num_players()
        bot = FlatMCBot(seat, worlds, playouts, seed=g)
        rng = random.Random(1000 + g)
        state = game.new_initial_state(g)
        while not state.is_terminal():
            if state.current_player() == seat:
                state.apply_action(bot.step(state))
            else:
                state.apply_action(rng.choice(state.legal_actions()))
        won += state.returns()[seat]
    return won / games


def main():
    if sys.argv[1:2] == ["--protocol"]:
        serve_protocol(*(int(a) for a in (sys.argv[2:] + ["32", "8"][len(sys.argv) - 2:])))
        return
    games, worlds, playouts = (int(a) for a in (sys.argv[1:] + ["100", "32", "8"][len(sys.argv) - 1:]))
    game = pilfer.load_game("steal-the-pile", {"players": 2})
    print(f"flat MC ({worlds} worlds x {playouts} playouts) won {against_random(game, games, worlds, playouts):.1%} "
          f"of {games} games against random")


if __name__ == "__main__":
    main()
