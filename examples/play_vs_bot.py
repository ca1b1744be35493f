"""Play Sequence Stacks against two greedy bots with stacks_api.client.

stacks-api serve &      # then:
python examples/play_vs_bot.py [http://127.0.0.1:8000]
"""

import random
import sys

from stacks_api.client import ApiError, Client

api = Client(sys.argv[1] if len(sys.argv) > 1 else "http://127.0.0.1:8000")
game = api.create("stacks", 3, seats=[{}, {"bot": "greedy"}, {"bot": "greedy"}])
me = api.join(game["id"], "Ada")
view = api.view(game["id"], me.token, wait=10)  # once it is our turn
while view["status"] == "active":
    action = random.choice(view["you"]["legal_actions"])  # a very casual player
    try:  # sent with If-Match: the version this view showed
        view = api.act(game["id"], me.token, action, wait=10)["game"]
    except ApiError as refused:
        if refused.code != "stale_version":
            raise
        view = api.view(game["id"], me.token, wait=10)  # the game moved on: look again
print("result:", view["result"], "chips:", view["chips"])
