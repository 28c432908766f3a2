"""Tests of what `import pilfer` gives learning (docs/python.md: "Observation tensors",
"Information states", "Learning"): the tensors against the views they are derived from, the
information state's digest, pilfer.VectorEnv against States, and the AEC wrapper pilfer_env.

Run by ctest with the rest of tests/python (tests/CMakeLists.txt: test_python).
"""
import json
import random
import unittest

import numpy as np

import pilfer
import pilfer_env
from test_pilfer import check_tensor  # the tensor from the view, written once

# Every zone kind of docs/views.md, in the tensors' order; a game's rows are those it uses.
KINDS = ["hand", "pile", "pool", "stock", "captures", "castle", "stockpile", "build", "discard", "row", "deck",
         "play", "mission", "other"]
COLS = 142


def configs():
    """Every game at its fewest and most players (at most 6)."""
    for g in pilfer.games():
        for n in sorted({g["min_players"], min(g["max_players"], 6)}):
            yield g["id"], n


def play_random(state, rng, moves):
    for _ in range(moves):
        if state.is_terminal():
            break
        state.apply_action(rng.choice(state.legal_actions()))
    return state


class Tensors(unittest.TestCase):
    def test_meaning_and_shapes(self):
        """Every game, fewest and most players: the flat tensors are the views' at random
        positions; the information state tensor is the observation then, for each count row, the
        most of each card the seat has seen there (kept as played, and rebuilt by a replay)."""
        for gid, n in configs():
            with self.subTest(game=gid, players=n):
                game = pilfer.load_game(gid, {"players": n})
                kinds = game.tensor_zone_kinds()
                self.assertEqual(kinds[-1], "other")
                self.assertEqual(kinds, [k for k in KINDS if k in kinds])
                rows, cols = game.observation_tensor_shape()
                self.assertEqual((rows, cols), (2 * len(kinds) * (n + 1) + 1, COLS))
                self.assertEqual(game.observation_tensor_size(), rows * cols)
                mem_rows = len(kinds) * (n + 1)
                self.assertEqual(game.information_state_tensor_shape(), [rows + mem_rows, cols])
                self.assertEqual(game.information_state_tensor_size(), (rows + mem_rows) * cols)
                state = game.new_initial_state(5)
                state.information_state_tensor(0)  # tracked from the deal on
                rng = random.Random(5)
                most = [np.zeros((mem_rows, cols), dtype=np.float32) for _ in range(n)]
                step = 0
                while True:
                    for p in range(n):
                        t = state.observation_tensor(p)
                        self.assertEqual(t.shape, (rows * cols,))
                        self.assertEqual(t.dtype, np.float32)
                        most[p] = np.maximum(most[p], t.reshape(rows, cols)[0:2 * mem_rows:2])
                        if step % 7 == 0 or state.is_terminal():
                            check_tensor(t, state.view(p), p, n, kinds)  # as docs/python.md defines it
                            i = state.information_state_tensor(p)
                            self.assertEqual(i.shape, (game.information_state_tensor_size(),))
                            np.testing.assert_array_equal(i[:rows * cols], t)
                            np.testing.assert_array_equal(i[rows * cols:].reshape(mem_rows, cols), most[p])
                    if state.is_terminal() or step > 150:
                        break
                    state.apply_action(rng.choice(state.legal_actions()))
                    step += 1
                again = game.deserialize_state(state.serialize())  # not tracked: replays once
                for p in range(n):
                    np.testing.assert_array_equal(again.information_state_tensor(p), state.information_state_tensor(p))
                    self.assertEqual(again.information_state_string(p), state.information_state_string(p))

    def test_kinds_found_are_all(self):
        """The zone kinds found for the rows are every kind the views of other games use."""
        for gid, n in configs():
            with self.subTest(game=gid, players=n):
                game = pilfer.load_game(gid, {"players": n})
                kinds = set(game.tensor_zone_kinds())
                for seed in (101, 102):
                    state = game.new_initial_state(seed)
                    rng = random.Random(seed)
                    while True:
                        for p in range(n):
                            for z in state.view(p).get("zones", []):
                                self.assertIn(z["kind"], kinds)
                        if state.is_terminal():
                            break
                        play_random(state, rng, 5)

    def test_hidden_cards(self):
        """What the seat cannot see changes neither tensor."""
        for gid, n in configs():
            with self.subTest(game=gid, players=n):
                game = pilfer.load_game(gid, {"players": n})
                state = play_random(game.new_initial_state(9), random.Random(9), 25)
                for p in range(n):
                    for k in range(3):
                        other = state.resample_from_infostate(p, 10 + k)
                        np.testing.assert_array_equal(other.observation_tensor(p), state.observation_tensor(p))
                        np.testing.assert_array_equal(other.information_state_tensor(p),
                                                      state.information_state_tensor(p))


class Digest(unittest.TestCase):
    def test_string_is_the_view_and_a_digest(self):
        game = pilfer.load_game("thief", {"players": 3})
        state = play_random(game.new_initial_state(2), random.Random(2), 200)
        for p in range(3):
            now, digest = state.information_state_string(p).split("\n")
            view = state.view(p)
            view.pop("moves")
            self.assertEqual(json.loads(now), view)
            self.assertRegex(digest, "^[0-9a-f]{32}$")
            self.assertIn("\n200 ", state.information_state_history(p))  # the long form, for debugging

    def test_kept_up_to_date(self):
        """A state asked once, then played on (random_playout too) and cloned: its strings are
        those a replay of its history gives."""
        game = pilfer.load_game("skip-bo-junior", {"players": 3})
        state = play_random(game.new_initial_state(6), random.Random(6), 10)
        first = [state.information_state_string(p) for p in range(3)]
        clone = state.clone()
        play_random(state, random.Random(1), 15)
        state.random_playout(2)
        again = game.deserialize_state(state.serialize())
        for p in range(3):
            self.assertEqual(state.information_state_string(p), again.information_state_string(p))
            self.assertEqual(clone.information_state_string(p), first[p])

    def test_resampled_root_keeps_the_key(self):
        """ISMCTS's check: a resample for the seat has the seat's key; the other seats' keys are
        restarted from the determinized views, so they depend on nothing the seat cannot see:
        two resamples the seat cannot tell apart, made canonical, give every seat the same key."""
        for gid, n in configs():
            with self.subTest(game=gid, players=n):
                game = pilfer.load_game(gid, {"players": n})
                state = play_random(game.new_initial_state(4), random.Random(4), 30)
                for p in range(n):
                    key = state.information_state_string(p)
                    a, b = state.resample_from_infostate(p, 1), state.resample_from_infostate(p, 2)
                    self.assertEqual(a.information_state_string(p), key)
                    self.assertEqual(b.information_state_string(p), key)
                    a9, b9 = a.resample_from_infostate(p, 9), b.resample_from_infostate(p, 9)
                    for q in range(n):
                        self.assertEqual(a9.information_state_string(q), b9.information_state_string(q))
                    # played on, and read back from its serialization (a replay), the same keys
                    rng = random.Random(p)
                    play_random(a, rng, 6)
                    again = game.deserialize_state(a.serialize())
                    for q in range(n):
                        self.assertEqual(again.information_state_string(q), a.information_state_string(q))

    def test_what_the_seat_sees(self):
        """Hidden swaps in the deal: the same string while the seat's views were the same at every
        step, a different one once they differed at any (perfect recall), even where the table
        now is the same."""
        rng = random.Random(11)
        for gid, n in configs():
            with self.subTest(game=gid, players=n):
                game = pilfer.load_game(gid, {"players": n})
                rec = json.loads(play_random(game.new_initial_state(7), random.Random(7), 30).to_record())
                rec.pop("result", None)
                same = differ = 0
                for tries in range(300):  # until both kinds were seen, at least 30 swaps
                    if tries >= 30 and differ and (same or n == 1):
                        break
                    deal = list(rec["deals"][0])
                    i, j = rng.randrange(len(deal)), rng.randrange(len(deal))
                    if deal[i] == deal[j]:
                        continue
                    deal[i], deal[j] = deal[j], deal[i]
                    try:
                        other = pilfer.load_record(json.dumps(dict(rec, deals=[deal] + rec["deals"][1:])))
                    except pilfer.Error:
                        continue  # a move of the game is not legal with the cards swapped
                    mine = pilfer.load_record(json.dumps(dict(rec, moves=[])))  # played on to rec's end
                    theirs = pilfer.load_record(json.dumps(dict(rec, deals=[deal] + rec["deals"][1:], moves=[])))
                    views = [[], []]
                    for k, s in enumerate((mine, theirs)):
                        views[k].append([s.view(p) for p in range(n)])
                        for m in rec["moves"]:
                            s.apply_move(m)
                            views[k].append([s.view(p) for p in range(n)])
                    for p in range(n):
                        if all(x[p] == y[p] for x, y in zip(*views)):
                            same += 1
                            self.assertEqual(other.information_state_string(p), mine.information_state_string(p))
                        else:
                            differ += 1
                            self.assertNotEqual(other.information_state_string(p), mine.information_state_string(p))
                self.assertGreater(differ, 0)
                if n > 1:
                    self.assertGreater(same, 0)


def follow(state, texts):
    """Plays on a State the chance outcomes a VectorEnv game drew (chance_played)."""
    for t in texts:
        state.apply_move(t)
    assert not state.is_chance_node()
    return state


class VectorEnv(unittest.TestCase):
    def test_against_states(self):
        """Each game of the env is a State played with the same actions: masks, seat to move,
        observations, rewards and restarts with the next deal."""
        for gid, n in configs():
            with self.subTest(game=gid, players=n):
                game = pilfer.load_game(gid, {"players": n})
                env = pilfer.VectorEnv(game, 3, seed=8, observations=True, masks=True, chance_texts=True)
                self.assertEqual(env.masks.shape, (3, env.num_actions))
                self.assertEqual(env.observations.shape, (3, game.observation_tensor_size()))
                states = [follow(game.new_initial_state(env.deal_seed(i)), env.chance_played(i)) for i in range(3)]
                finished = 0
                for step in range(300):
                    for i, s in enumerate(states):
                        self.assertEqual(env.current_player[i], s.current_player())
                        if step % 10 == 0:
                            self.assertEqual(np.flatnonzero(env.masks[i]).tolist(), sorted(s.legal_actions()))
                            self.assertEqual(env.legal_actions(i), s.legal_actions())
                            np.testing.assert_array_equal(env.observations[i], s.observation_tensor(s.current_player()))
                    actions = env.random_actions()
                    _, rewards, dones = env.step(actions)
                    for i, s in enumerate(states):
                        s.apply_action(int(actions[i]))
                        texts = env.chance_played(i)
                        while s.is_chance_node():
                            s.apply_move(texts.pop(0))
                        self.assertEqual(bool(dones[i]), s.is_terminal())
                        np.testing.assert_allclose(rewards[i], s.returns() if s.is_terminal() else [0.0] * n)
                        if s.is_terminal():
                            finished += 1
                            states[i] = follow(game.new_initial_state(env.deal_seed(i)), texts)
                self.assertEqual(env.games, finished)
                self.assertEqual(env.moves, 300 * 3)

    def test_determinism_and_reset(self):
        game = pilfer.load_game("steal-the-pile", {"players": 3})

        def run(env):
            out = []
            for _ in range(300):
                a = env.random_actions()
                _, r, d = env.step(a)
                out.append((a.tolist(), r.tolist(), d.tolist()))
            return out

        a, b = pilfer.VectorEnv(game, 16, seed=3), pilfer.VectorEnv(game, 16, seed=3, masks=True)
        first = run(a)
        self.assertEqual(first, run(b))  # masks or not, the same draws
        self.assertNotEqual(first, run(pilfer.VectorEnv(game, 16, seed=4)))
        a.reset(seed=3)
        self.assertEqual(run(a), first)

    def test_uniform(self):
        game = pilfer.load_game("steal-the-pile", {"players": 2})
        env = pilfer.VectorEnv(game, 1, seed=1, masks=True)
        legal = env.legal_actions(0)
        counts = {a: 0 for a in legal}
        for _ in range(400 * len(legal)):
            counts[int(env.random_actions()[0])] += 1
        for a in legal:
            self.assertGreater(counts[a], 300)
            self.assertLess(counts[a], 500)

    def test_hostile(self):
        game = pilfer.load_game("thief", {"players": 2})
        env = pilfer.VectorEnv(game, 4, seed=1)
        self.assertEqual(env.masks.shape, (4, game.num_distinct_actions()))  # dense actions: masks by default
        self.assertIsNone(env.observations)
        legal = [env.legal_actions(i) for i in range(4)]
        bad = [legal[0][0], legal[1][0], -1, legal[3][0]]
        with self.assertRaisesRegex(pilfer.Error, "not a legal action of game 2"):
            env.step(np.array(bad))
        self.assertEqual([env.legal_actions(i) for i in range(4)], legal)  # nothing moved
        self.assertEqual(env.moves, 0)
        for wrong in ([1, 2], "x", [[1, 2, 3, 4]], [env.num_actions] * 4):
            with self.assertRaises(pilfer.Error):
                env.step(wrong)
        for n in (0, -1, 1 << 21):
            with self.assertRaises(pilfer.Error):
                pilfer.VectorEnv(game, n)
        with self.assertRaises(pilfer.Error):
            env.legal_actions(4)
        with self.assertRaises(ValueError):  # the env's arrays are read-only
            env.rewards[0, 0] = 1
        masked = pilfer.VectorEnv(game, 1, seed=1, masks=True)
        with self.assertRaises(ValueError):
            masked.masks[0, 7] = 1
        env.step([legal[i][0] for i in range(4)])  # a list of ints does
        self.assertEqual(env.moves, 4)


class AEC(unittest.TestCase):
    def test_games_to_the_end(self):
        for gid, n in (("steal-the-pile", 2), ("skip-bo-junior", 3), ("point-a-pile", 4)):
            with self.subTest(game=gid, players=n):
                env = pilfer_env.env(gid, players=n)
                self.assertEqual(env.possible_agents, [f"player_{p}" for p in range(n)])
                self.assertEqual(env.action_space("player_0").n, env.num_actions)
                for seed in (1, 2):
                    env.reset(seed=seed)
                    mirror = env.game.new_initial_state(seed)

                    def catch_up():  # the chance outcomes the env drew, played on the mirror
                        for a in env.state.history()[len(mirror.history()):]:
                            self.assertTrue(mirror.is_chance_node())
                            mirror.apply_action(a)

                    catch_up()
                    rng = random.Random(seed)
                    ended = {}
                    for agent in env.agent_iter():
                        obs, reward, termination, truncation, info = env.last()
                        self.assertEqual(obs["observation"].shape, env.observation_shape)
                        self.assertFalse(truncation)
                        if termination:
                            ended[agent] = reward
                            env.step(None)
                            continue
                        p = env.agent_name_mapping[agent]
                        self.assertEqual(p, mirror.current_player())
                        self.assertEqual(reward, 0.0)
                        legal = np.flatnonzero(obs["action_mask"]).tolist()
                        self.assertEqual(legal, sorted(mirror.legal_actions()))
                        np.testing.assert_array_equal(obs["observation"], mirror.observation_tensor(p))
                        a = rng.choice(info["legal_actions"])
                        env.step(a)
                        mirror.apply_action(a)
                        catch_up()
                    self.assertEqual(env.agents, [])
                    self.assertEqual(sorted(ended), env.possible_agents)
                    self.assertEqual([ended[a] for a in env.possible_agents], mirror.returns())

    def test_information_state_observations(self):
        env = pilfer_env.AECEnv("thief", players=2, observation="information_state", seed=3)
        env.reset()
        obs, *_ = env.last()
        self.assertEqual(obs["observation"].shape, (env.game.information_state_tensor_size(),))
        with self.assertRaises(pilfer.Error):
            pilfer_env.AECEnv("thief", observation="pixels")


if __name__ == "__main__":
    unittest.main()
