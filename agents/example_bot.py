"""A small external bot: the example of docs/protocol.md, written only from what it documents.

Run it in a league or an evaluation as ``"cmd:python3 -m agents.example_bot"`` (or give the path
of this file: ``"cmd:python3 path/to/example_bot.py"``). It uses the standard library only.

Strategy: take every win offered; never call (pass every claim); otherwise discard the tile
that helps least: a tile scores 3 per other copy in hand, 2 per tile of the same suit one rank
away and 1 per tile two ranks away; honours with no unseen copy left score nothing more. Ties
go to honours, then terminals, then a random pick from the seed the ``deal`` message carries.
"""

import json
import random
import sys


def usefulness(tile, hand, unseen):
    """How much ``tile`` (text such as "5m") helps the rest of ``hand`` (a list of texts)."""
    rank, suit = int(tile[0]), tile[1]
    others = list(hand)
    others.remove(tile)
    score = 3 * others.count(tile)
    if suit == "z":
        return score + (1 if unseen[tile] > 0 else 0)
    for other in others:
        if other[1] == suit and other != tile:
            distance = abs(int(other[0]) - rank)
            score += {1: 2, 2: 1}.get(distance, 0)
    return score


def choose(legal, view, rng):
    """The answer to one ``act`` message."""
    for win in ("tsumo", "ron"):
        if win in legal:
            return win
    if "pass" in legal:
        return "pass"
    discards = [a for a in legal if a.startswith("discard ")]
    if not discards:                       # cannot happen on a turn, but answer legally anyway
        return legal[0]

    def key(action):
        tile = action.split()[1]
        honour = tile[1] == "z"
        terminal = not honour and tile[0] in "19"
        return (usefulness(tile, view["hand"], view["unseen"]), not honour, not terminal,
                rng.random())

    return min(discards, key=key)


def main():
    rng = random.Random(0)
    for line in sys.stdin:
        message = json.loads(line)
        if message["type"] == "deal":
            rng = random.Random(message.get("rng_seed"))
        if "legal" in message:
            answer = choose(message["legal"], message["view"], rng)
            sys.stdout.write(json.dumps({"action": answer}) + "\n")
            sys.stdout.flush()


if __name__ == "__main__":
    main()
