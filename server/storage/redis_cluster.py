"""The Redis Cluster url, `redis+cluster://[user:password@]host:port[,host:port...]`, and the client it makes.

Routing is redis-py's `RedisCluster`: it reads the slot map, sends each command to the master owning its key's slot
(CRC16 of the key's hash tag, `key_slot`), follows MOVED and ASK and reads the map again after a failover.
"""

from __future__ import annotations

from typing import Any
from urllib.parse import unquote, urlparse

from redis.asyncio.cluster import ClusterNode, RedisCluster
from redis.crc import key_slot

__all__ = ["SCHEME", "ClusterUrl", "is_cluster", "key_slot"]

SCHEME = "redis+cluster"


def is_cluster(url: str) -> bool:
    return url.startswith(SCHEME + "://")


class ClusterUrl:
    """Any masters of the cluster to start from, and the credentials for every node."""

    def __init__(self, url: str) -> None:
        u = urlparse(url)
        if u.scheme != SCHEME:
            raise ValueError(f"a cluster url starts with {SCHEME}://")
        auth, _, hosts = u.netloc.rpartition("@")
        self.username: str | None = None
        self.password: str | None = None
        if auth:
            user, _, password = auth.partition(":")
            self.username = unquote(user) or None
            self.password = unquote(password) if password else None
        self.seeds: list[tuple[str, int]] = []
        for part in hosts.split(","):
            host, _, port = part.strip().rpartition(":")
            if not host or not port.isdigit():
                raise ValueError(f"{url!r}: each cluster node is host:port")
            self.seeds.append((host, int(port)))

    def client(self, **options: Any) -> RedisCluster:
        """redis-py's cluster client, started from the seeds (`options`: more of its settings)."""
        nodes = [ClusterNode(host, port) for host, port in self.seeds]
        return RedisCluster(startup_nodes=nodes, username=self.username, password=self.password, **options)
