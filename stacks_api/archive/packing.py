"""How a record document is stored: compact JSON, compressed with a preset
dictionary of what every record repeats."""

from __future__ import annotations

import json
import zlib

from ..model.record import JSON

# A preset dictionary: the text every record repeats (its keys, the event types),
# so that even the start of a short record compresses. Never change it: stored
# records need it to be read (a new one would take a new format byte).
ZDICT = (
    b'"seat":0},{"version":"type":"draw","seat":1},{"version":"type":"play","seat":0,'
    b'"card":"cell":[,"pile":"chips":"blue":"red":"complete","steal","block","discard",'
    b'"window_expired","response","pass","exchange","remove","sequence","team":'
    b'"game_over","result":{"scores":[1.0,0.0],"detail":{"winner_team":"winner_seat":'
    b'"draw":"server_seed":"entropy":[null,null],"started","to_move":[0]},"joined",'
    b'"name":"created"},"format":{"name":"stacks-record","version":1},"engine":'
    b'{"name":"stacks_api","version":"0.1.0"},"id":"variant":"sequence","stacks",'
    b'"players":2,"options":{},"status":"finished","rated":false,"seats":[{"seat":0,'
    b'"name":"player_id":null,"team":0,"bot":"easy","left":false},'
    b'"fairness":{"scheme":"commit-reveal-v2","commitment":"dealer":null,"events":['
    b'{"version":1,"type":"created"},{"version":2,"type":"started","to_move":[0]},'
    b'"final_sha256":"created_at":"ended_at":"rematch_of":null}'
)
PACKED = b"\x01"  # the format of a packed document: zlib with ZDICT


def pack(data: JSON) -> bytes:
    compressor = zlib.compressobj(9, zdict=ZDICT)
    raw = json.dumps(data, separators=(",", ":")).encode()
    return PACKED + compressor.compress(raw) + compressor.flush()


def unpack(blob: bytes) -> JSON:
    if blob[:1] != PACKED:
        raise ValueError(f"unknown packing {blob[:1]!r}")
    data: JSON = json.loads(zlib.decompressobj(zdict=ZDICT).decompress(blob[1:]))
    return data
