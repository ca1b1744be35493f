"""Where the server may send a request of its own: never to itself or its
private network unless the operator says so.

A URL is refused unless it is ``http`` or ``https`` with a host and no user
info, and every address its host resolves to is global (``is_global``) and
not multicast. IPv6 forms that carry an IPv4 address are refused whatever that
address is (IPv4-mapped and -compatible, NAT64 ``64:ff9b::/96`` and
``64:ff9b:1::/48``, 6to4 ``2002::/16``, Teredo ``2001::/32``): a gateway on the
way may turn them into a private IPv4 one. So are the deprecated site-local
``fec0::/10`` addresses. Numbers written oddly (``127.1``, ``2130706433``,
``0x7f.0.0.1``) are judged by the address the resolver makes of them.

``STACKS_WEBHOOK_ALLOW`` lists hosts and networks that are allowed all the same
(``127.0.0.1,10.0.0.0/8,hooks.lan``). The check runs when a URL is given and
again before every send, and the send connects to the very address that was
checked (a name that resolves elsewhere the second time cannot slip through).
"""

from __future__ import annotations

import ipaddress
import socket
from collections.abc import Callable
from dataclasses import dataclass
from urllib.parse import urlsplit

Address = ipaddress.IPv4Address | ipaddress.IPv6Address
Network = ipaddress.IPv4Network | ipaddress.IPv6Network
Resolve = Callable[[str, int], list[str]]

# IPv6 networks whose addresses carry an IPv4 address inside them.
CARRY_IPV4 = tuple(
    ipaddress.IPv6Network(n)
    for n in ("::/96", "::ffff:0:0/96", "64:ff9b::/96", "64:ff9b:1::/48", "2002::/16", "2001::/32")
)
SITE_LOCAL = ipaddress.IPv6Network("fec0::/10")


class Refused(ValueError):
    """The URL may not be called; the message says why (shown to its owner)."""


def resolve(host: str, port: int) -> list[str]:
    try:
        found = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM)
    except (OSError, UnicodeError):
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


@dataclass(frozen=True)
class Target:
    """A checked URL: what to connect to (``address``, ``port``) and what to ask
    for there (``host`` for the Host header and TLS, ``path`` with its query)."""

    scheme: str
    host: str
    port: int
    path: str
    address: str

    @property
    def origin(self) -> str:
        """Scheme, host and port: what a per-destination limit counts."""
        return f"{self.scheme}://{self.host}:{self.port}"


def public(address: Address) -> bool:
    """Whether an address is one anybody on the internet could reach."""
    if isinstance(address, ipaddress.IPv6Address) and (
        any(address in network for network in CARRY_IPV4) or address in SITE_LOCAL
    ):
        return False
    return address.is_global and not address.is_multicast


def check(url: str, allowed: Allowed, resolver: Resolve = resolve) -> Target:
    """The ``Target`` of ``url``, or ``Refused`` when it may not be called (the
    module's text says which)."""
    try:
        parts = urlsplit(url)
        port = parts.port or (443 if parts.scheme == "https" else 80)
    except ValueError:
        raise Refused("the URL cannot be read") from None
    if parts.scheme not in ("http", "https"):
        raise Refused("a URL the server calls is http:// or https://")
    host = (parts.hostname or "").lower()
    if not host:
        raise Refused("the URL has no host")
    if parts.username is not None or parts.password is not None:
        raise Refused("the URL may not carry a user name or password")
    addresses = _addresses(host, port, resolver)
    if not addresses:
        raise Refused(f"the host {host!r} cannot be resolved")
    if host not in allowed.hosts:
        for address in addresses:
            if not public(address) and not allowed.address(address):
                raise Refused(f"the host {host!r} is a private, loopback or link-local "
                              "address (the server's operator can allow it)")  # fmt: skip
    path = (parts.path or "/") + (f"?{parts.query}" if parts.query else "")
    return Target(parts.scheme, host, port, path, str(addresses[0]))


def _addresses(host: str, port: int, resolver: Resolve) -> list[Address]:
    try:
        return [ipaddress.ip_address(host)]
    except ValueError:
        pass
    found = []
    for text in resolver(host, port):
        try:
            found.append(ipaddress.ip_address(text.split("%")[0]))
        except ValueError:
            raise Refused(f"the host {host!r} resolves to something that is no address") from None
    return found
