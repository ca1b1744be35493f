"""A game's WebSocket for the benchmarks' asyncio drivers: wsproto over an asyncio
connection (no client library beyond what the server itself needs).

    seat = await SocketSeat.open(host, port, game_id, token)
    ok, version = await seat.act(action, version)

A reader task takes every message as it comes: an answer wakes the move that
waits for it; events and presence are only counted (a driver knows the game by
its own mirror of it).
"""

from __future__ import annotations

import asyncio
import json
from typing import Any

from wsproto import ConnectionType, WSConnection
from wsproto.events import AcceptConnection, CloseConnection, Ping, Request, TextMessage


class SocketSeat:
    def __init__(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter,
                 ws: WSConnection) -> None:  # fmt: skip
        self.reader, self.writer, self.ws = reader, writer, ws
        self.waiting: dict[str, asyncio.Future[dict[str, Any]]] = {}
        self.heard = 0  # events and presence messages
        self.state: asyncio.Future[dict[str, Any]] = asyncio.get_running_loop().create_future()
        self._serial = 0
        self._task = asyncio.create_task(self._read())

    @classmethod
    async def open(cls, host: str, port: int, game_id: str, token: str) -> SocketSeat:
        reader, writer = await asyncio.open_connection(host, port)
        ws = WSConnection(ConnectionType.CLIENT)
        writer.write(ws.send(Request(host=f"{host}:{port}",
                                     target=f"/api/v1/games/{game_id}/socket")))  # fmt: skip
        while True:
            ws.receive_data(await reader.read(65536))
            if any(isinstance(event, AcceptConnection) for event in ws.events()):
                break
        seat = cls(reader, writer, ws)
        seat.send({"type": "hello", "token": token})
        await seat.state
        return seat

    def send(self, message: dict[str, Any]) -> None:
        self.writer.write(self.ws.send(TextMessage(data=json.dumps(message))))

    async def act(self, action: dict[str, Any], version: int) -> tuple[bool, int]:
        """Whether the move was accepted, and the game's version after it."""
        self._serial += 1
        said = f"m{self._serial}"
        answer = asyncio.get_running_loop().create_future()
        self.waiting[said] = answer
        self.send({"type": "action", "id": said, "version": version, "action": action})
        got = await answer
        return got["type"] == "result", int(got.get("version") or version)

    async def _read(self) -> None:
        try:
            await self._messages()
        finally:  # the socket closed: nothing waits for ever
            for waiting in self.waiting.values():
                if not waiting.done():
                    waiting.set_exception(ConnectionError("the socket closed"))

    async def _messages(self) -> None:
        parts: list[str] = []
        while True:
            data = await self.reader.read(65536)
            if not data:
                return
            self.ws.receive_data(data)
            for event in self.ws.events():
                if isinstance(event, Ping):
                    self.writer.write(self.ws.send(event.response()))
                elif isinstance(event, CloseConnection):
                    return
                elif isinstance(event, TextMessage):
                    parts.append(event.data)
                    if event.message_finished:
                        self._take(json.loads("".join(parts)))
                        parts = []

    def _take(self, message: dict[str, Any]) -> None:
        if message["type"] == "state" and not self.state.done():
            self.state.set_result(message)
        elif message.get("id") in self.waiting:
            self.waiting.pop(message["id"]).set_result(message)
        else:
            self.heard += 1

    def close(self) -> None:
        self._task.cancel()
        self.writer.close()
