"""What leaves the server: requests of its own to addresses other people chose
(webhooks, Web Push).

- ``addresses``: which URLs may be called at all (never the server's own host or
  private network, however the address is written), judged on the address the
  name resolves to, at creation and again at every send;
- ``http``: one POST with a deadline for the whole exchange (connect, send,
  read), an answer read only so far, and no redirects;
- ``courier``: sends many at once, a few per destination and per account, so
  one hostile receiver delays nobody but itself.
"""
