"""Play Sequence against the greedy bot over one WebSocket (stacks_api.client).

Each move is one message, and so is each look at the view; the bot's replies
come on the same socket as they happen, so nothing is polled.

stacks-api serve &      # then:
python examples/socket_bot.py [http://127.0.0.1:8000]
"""

import random
import sys

from stacks_api.client import ApiError, Client

api = Client(sys.argv[1] if len(sys.argv) > 1 else "http://127.0.0.1:8000")
game = api.create("sequence", 2, seats=[{}, {"bot": "greedy"}])
me = api.join(game["id"], "Ada")
table = api.socket(game["id"], me.token)  # opens with the seat's view
view = table.view
while view["status"] == "active":
    if me.seat in view["to_move"]:
        try:
            table.act(random.choice(view["you"]["legal_actions"]), view["version"])
        except ApiError as refused:
            if refused.code != "stale_version":
                raise
    else:
        table.next_message(timeout=30)  # the bot's move (or presence)
    while table.next_message(timeout=0) is not None:  # whatever else came meanwhile
        pass
    view = table.look()  # our legal actions after the change (a message too)
table.close()
print("result:", view["result"], "sequences:", len(view["sequences"]))
