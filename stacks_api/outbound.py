"""Where the server may send a request of its own (webhooks): never to itself or
its private network unless the operator says so.

A URL is refused unless it is ``http`` or ``https`` with a host and no user
info, and every address its host resolves to is public: loopback, private,
link-local (cloud metadata services live there), shared, multicast, reserved
and unspecified addresses are refused. ``STACKS_WEBHOOK_ALLOW`` lists hosts
and networks that are allowed all the same (``127.0.0.1,10.0.0.0/8,hooks.lan``).
The check runs when a webhook is made and again before every delivery (an
address can change), and redirects are never followed.
"""

from __future__ import annotations

import ipaddress
import socket
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from urllib.parse import urlsplit

Address = ipaddress.IPv4Address | ipaddress.IPv6Address
Network = ipaddress.IPv4Network | ipaddress.IPv6Network
Resolve = Callable[[str, int], list[str]]


class Refused(ValueError):
    """The URL may not be called; the message says why (shown to its owner)."""


def resolve(host: str, port: int) -> list[str]:
    try:
        found = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM)
    except (socket.gaierror, UnicodeError):
        raise Refused(f"the host {host!r} cannot be resolved") from None
    return [str(info[4][0]) for info in found]


@dataclass(frozen=True)
class Allowed:
    """The operator's exceptions: host names and networks."""

    hosts: frozenset[str] = frozenset()
    networks: tuple[Network, ...] = ()

    @classmethod
    def parse(cls, text: str | None) -> Allowed:
        hosts, networks = set(), []
        for item in (text or "").split(","):
            item = item.strip().lower()
            if not item:
                continue
            try:
                networks.append(ipaddress.ip_network(item, strict=False))
            except ValueError:
                hosts.add(item)
        return cls(frozenset(hosts), tuple(networks))

    def address(self, address: Address) -> bool:
        return any(address in network for network in self.networks)


NOTHING_ALLOWED = Allowed()


def _public(address: Address) -> bool:
    if isinstance(address, ipaddress.IPv6Address) and address.ipv4_mapped is not None:
        address = address.ipv4_mapped
    return address.is_global and not address.is_multicast


def check(url: str, allowed: Allowed, resolver: Resolve = resolve) -> None:
    """Refuse ``url`` (``Refused``) unless it may be called (module docstring)."""
    try:
        parts = urlsplit(url)
        port = parts.port or (443 if parts.scheme == "https" else 80)
    except ValueError:
        raise Refused("the URL cannot be read") from None
    if parts.scheme not in ("http", "https"):
        raise Refused("a webhook's URL is http:// or https://")
    host = (parts.hostname or "").lower()
    if not host:
        raise Refused("the URL has no host")
    if parts.username is not None or parts.password is not None:
        raise Refused("the URL may not carry a user name or password")
    if host in allowed.hosts:
        return
    for text in _addresses(host, port, resolver):
        address = ipaddress.ip_address(text.split("%")[0])
        if not _public(address) and not allowed.address(address):
            raise Refused(f"the host {host!r} is a private, loopback or link-local address "
                          "(the server's operator can allow it)")  # fmt: skip


def _addresses(host: str, port: int, resolver: Resolve) -> Iterable[str]:
    try:
        return [str(ipaddress.ip_address(host))]
    except ValueError:
        return resolver(host, port)
