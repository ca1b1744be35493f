"""Connecting to Redis: one server, or a Redis Cluster.

``REDIS_URL`` names the store: ``redis://host:port/db`` (or ``rediss://``) is one
Redis; ``redis+cluster://host:port[,host:port...]`` is a cluster, reached through
any of the nodes listed (the rest are discovered). The same URL serves the rate
limiter, which reads the same two forms.
"""

from __future__ import annotations

import contextlib
from dataclasses import dataclass
from typing import Any
from urllib.parse import urlsplit

import redis
from redis.backoff import NoBackoff
from redis.cluster import ClusterNode, RedisCluster
from redis.commands.core import Script
from redis.exceptions import RedisClusterException, RedisError
from redis.retry import Retry

CLUSTER_SCHEME = "redis+cluster"
# Connections one process keeps to each Redis node, besides its event subscriptions.
CONNECTIONS = 64


def is_cluster(url: str) -> bool:
    return urlsplit(url).scheme == CLUSTER_SCHEME


@dataclass
class Connection:
    """A client of the store and what the store needs to know of its shape."""

    client: Any  # redis.Redis, or redis.cluster.RedisCluster
    cluster: bool
    # On one Redis, subscriptions use a client of their own that never reconnects
    # by itself: redis-py would resubscribe silently and the messages published
    # meanwhile would be lost unnoticed. (A cluster's node clients never retry.)
    subscriptions: redis.Redis | None = None

    def node(self, key: str) -> tuple[str, redis.Redis]:
        """The name and a client of the node that holds ``key`` now: the master of
        its slot on a cluster, the one server otherwise."""
        if not self.cluster:
            return "redis", self.client
        node: ClusterNode = self.client.get_node_from_key(key)
        return node.name, self.client.get_redis_connection(node)

    def subscriber(self, channel: str) -> tuple[str, redis.Redis]:
        """The name and a client of the node to subscribe to ``channel`` on."""
        if self.subscriptions is not None:
            return "redis", self.subscriptions
        return self.node(channel)

    def relearn(self) -> None:
        """Ask the cluster again which node holds which slots (after a failover)."""
        if self.cluster:
            with contextlib.suppress(RedisError, RedisClusterException):  # tried again next time
                self.client.nodes_manager.initialize()

    def masters(self) -> list[redis.Redis]:
        """A client of every master."""
        if not self.cluster:
            return [self.client]
        return [self.client.get_redis_connection(n) for n in self.client.get_primaries()]

    def script(self, text: str) -> Script:
        return self.client.register_script(text)  # type: ignore[no-any-return]


def connect(url: str, timeout_s: float) -> Connection:
    """A client with short timeouts and one quick retry (a dead Redis answers 503 in
    seconds), whose pools are bounded and wait for a free connection rather than
    fail: 10,000 streams starting at once must not open 10,000 connections."""
    common: dict[str, Any] = {
        "socket_timeout": timeout_s,
        "socket_connect_timeout": timeout_s,
        "health_check_interval": 30,
    }
    if not is_cluster(url):
        pool = redis.BlockingConnectionPool.from_url(
            url, max_connections=CONNECTIONS, timeout=timeout_s,
            retry=Retry(NoBackoff(), 1), **common,
        )  # fmt: skip
        subscriptions = redis.Redis.from_url(url, retry=Retry(NoBackoff(), 0), **common)
        return Connection(redis.Redis(connection_pool=pool), False, subscriptions)
    parts = urlsplit(url)
    credentials, _, addresses = parts.netloc.rpartition("@")
    first, *others = addresses.split(",")
    hosts_ports = (address.rpartition(":") for address in others)
    nodes = [ClusterNode(host, int(port)) for host, _, port in hosts_ports]  # type: ignore[no-untyped-call]
    login = f"{credentials}@" if credentials else ""
    client = RedisCluster(
        url=f"redis://{login}{first}/0",  # the others are found by asking this one
        startup_nodes=nodes,
        connection_pool_class=redis.BlockingConnectionPool,
        max_connections=CONNECTIONS,
        timeout=timeout_s,
        retry=Retry(NoBackoff(), 2),
        **common,
    )
    return Connection(client, True)
