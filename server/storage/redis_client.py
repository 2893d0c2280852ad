"""The store's redis-py client for a url: one Redis (`redis://`, `rediss://` for TLS, `unix://`) through a bounded
pool of connections, or a Redis Cluster (`redis+cluster://`, redis_cluster.py).

Pooled sockets die with a Redis restart: every command reconnects and retries a few times before it fails (a retried
commit is safe: the script checks the version, and accepted decision ids are remembered).
"""

from __future__ import annotations

from typing import Any

import redis.asyncio as aioredis
from rajas.server.storage.redis_cluster import ClusterUrl, is_cluster
from redis.asyncio.cluster import RedisCluster
from redis.asyncio.connection import AbstractConnection, parse_url
from redis.asyncio.retry import Retry
from redis.backoff import ExponentialBackoff
from redis.connection import HiredisRespSerializer
from redis.exceptions import ConnectionError as RedisConnectionError
from redis.exceptions import TimeoutError as RedisTimeoutError
from redis.typing import EncodableT

POOL = 64  # connections to one Redis at most: a burst of commits queues for one instead of opening hundreds


def _retry() -> Retry:
    return Retry(ExponentialBackoff(cap=0.5, base=0.02), retries=4)


class _HiredisPacking:
    """Commands packed by hiredis in C, as redis-py's synchronous connections pack them; its asyncio connections pack
    in Python, which cost about 15 us of a node's CPU per commit (measured in a closed loop of 300 rooms' commits)."""

    _packer = HiredisRespSerializer()

    def pack_command(self, *args: EncodableT) -> list[bytes]:
        return list(self._packer.pack(*args))  # type: ignore[arg-type]  # (redis-py types each argument as a list)


_packing: dict[type[AbstractConnection], type[AbstractConnection]] = {}


def _packed(kind: type[AbstractConnection]) -> type[AbstractConnection]:
    """`kind` (redis-py's plain, TLS or unix socket connection) packing its commands with hiredis."""
    if kind not in _packing:
        _packing[kind] = type(kind.__name__, (_HiredisPacking, kind), {})
    return _packing[kind]


def client(url: str) -> aioredis.Redis | RedisCluster:
    if is_cluster(url):
        return ClusterUrl(url).client(retry=_retry())
    options: dict[str, Any] = dict(parse_url(url))
    options["connection_class"] = _packed(options.get("connection_class", aioredis.Connection))
    pool = aioredis.BlockingConnectionPool(
        max_connections=POOL,
        timeout=30,
        retry=_retry(),
        retry_on_error=[RedisConnectionError, RedisTimeoutError],
        **options,
    )
    return aioredis.Redis(connection_pool=pool)
