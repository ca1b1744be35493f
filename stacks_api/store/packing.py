"""How the Redis store keeps a live game small (docs/scaling.md, "What a game costs").

- The record stays JSON, since the store's scripts read its status, seats and due
  time, but the engine's state inside it (``game``, half the record and all of its
  cards) is packed: compressed with a preset dictionary of what every state
  repeats, as ``"z1:"`` and Base64 text.
- Each write's events are one element of the game's event list: their compact
  JSON array, compressed with a preset dictionary of the events' own words, after
  the byte ``PACKED_EVENTS``. An element that starts with ``{`` is one event as an
  earlier release wrote it, and is read as such.

The dictionaries may never change: stored games need them to be read (a new one
takes a new marker).
"""

from __future__ import annotations

import base64
import zlib

from ..model import jsontext
from ..model.events import Event
from ..model.record import JSON

GAME_MARKER = "z1:"
PACKED_EVENTS = b"\x01"

GAME_DICTIONARY = (
    b'{"variant":"sequence","players":2,"options":{"teams":2,"sequences_to_win":2},"rng":'
    b'"result":null,"dealer":0,"log":[{"type":"cut","cards":[{"seat":0,"card":"3C"},{"seat":1,'
    b'"card":"4H"}]},{"type":"deal","dealer":0,"first":1}],"position":{"board":["X........X",'
    b'"..........","....B.G...","X........X"],"sequences":[],"hands":[["5D","3D","AC","8H","3H",'
    b'"AD","5D"],["KH","9D","QS","8C","8D","7S","8C"]],"discards":[["JC","5S","QC","4C","2C",'
    b'"AS","JH","JS","TS","QS","7C","KD","6D","9H","4S"]],"draw_pile":["3H","8S","6C","8D","2D",'
    b'"TH","4S","7C","8H","TC","KC","TD","9C"],"turn":1},"exchanged":false,"passes":0}'
    b'{"variant":"stacks","players":2,"options":{"block_window":"all","response_timeout_s":null},'
    b'"rng":"result":null,"dealer":1,"log":[{"type":"deal","dealer":1,"first":0}],"position":'
    b'{"piles":[["B1","B2","BW","BW"],["B1","B2","B3"],[],["RW","R2","R3","R4"]],"hands":[["B1",'
    b'"B5","B5","R2"],["R2","R1","R4","B3","R1"]],"discards":[["B2","STEAL_CHIP","R5","R3","R2",'
    b'"B3","R5","BLOCK","B1","B4"],["R4","BW","B2","R1"]],"chips":[{"blue":1,"red":1},{"blue":0,'
    b'"red":0}],"set_aside":["B1","B2","B3","B4","B5","R1","RW","R3"],"special_discard":[],'
    b'"draw_pile":["R1","B3","STEAL_CARD","B3","B5","R3","R4","BW","SKIP","R4","RW","B4"],'
    b'"direction":1,"skips":[0,0],"turn":1,"plays":0},"window":null,"pile_play":false,'
    b'"stalled":0,"turns":47}'
)
EVENTS_DICTIONARY = (
    b'[{"version":1,"type":"created"},{"version":2,"type":"joined","seat":0,"name":"'
    b'{"version":4,"type":"started","to_move":[0]}][{"version":5,"type":"play","seat":0,'
    b'"card":"JD","cell":[1,1]},{"version":5,"type":"draw","seat":0}]'
    b'[{"version":6,"type":"play","seat":1,"card":"R1","pile":2}][{"version":7,"type":"discard",'
    b'"seat":0,"card":"B2"},{"version":7,"type":"turn","seat":1},{"version":7,"type":"draw",'
    b'"seat":1,"count":2}]{"type":"complete","pile":{"type":"chip","seat":0,"color":"blue"'
    b'{"type":"block_window","waiting":[1]{"type":"answer","seat":1,"block":false}'
    b'{"type":"skipped","seat":{"type":"removed","cell":[{"type":"sequence","team":0,"cells":'
    b'[[0,0],[0,1],[0,2],[0,3],[0,4]]{"type":"game_over","result":{"winner_team":0}}]'
)


def _deflate(text: bytes, dictionary: bytes) -> bytes:
    packer = zlib.compressobj(9, zlib.DEFLATED, -15, 9, zlib.Z_DEFAULT_STRATEGY, dictionary)
    return packer.compress(text) + packer.flush()


def _inflate(packed: bytes, dictionary: bytes) -> bytes:
    return zlib.decompressobj(-15, zdict=dictionary).decompress(packed)


def compact(data: object) -> bytes:
    """JSON without spaces."""
    return jsontext.dumps(data)


def pack_record(record: JSON) -> bytes:
    """The stored text of a record (``GameRecord.to_json``), its engine state packed."""
    packed = _deflate(compact(record["game"]), GAME_DICTIONARY)
    return compact({**record, "game": GAME_MARKER + base64.b64encode(packed).decode()})


def unpack_record(stored: bytes | str) -> JSON:
    """The record of ``pack_record`` (or of an earlier release, unpacked)."""
    record: JSON = jsontext.loads(stored)
    game = record["game"]
    if isinstance(game, str) and game.startswith(GAME_MARKER):
        packed = base64.b64decode(game[len(GAME_MARKER) :])
        record["game"] = jsontext.loads(_inflate(packed, GAME_DICTIONARY))
    return record


def pack_events(events: list[Event]) -> bytes:
    """One write's events as one element of the event list."""
    return PACKED_EVENTS + _deflate(compact(events), EVENTS_DICTIONARY)


def unpack_events(element: bytes) -> list[Event]:
    """The events of one element of the event list."""
    if element[:1] == PACKED_EVENTS:
        events: list[Event] = jsontext.loads(_inflate(element[1:], EVENTS_DICTIONARY))
        return events
    return [jsontext.loads(element)]  # one event, as an earlier release stored it
