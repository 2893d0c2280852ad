"""The processes of a `rajas bench` run: starting and stopping them, and reading their CPU and memory (and
the server core's time) from /proc."""

from __future__ import annotations

import contextlib
import os
import signal
import socket
import subprocess
import time
import urllib.request

_CLK = os.sysconf("SC_CLK_TCK")
_PAGE = os.sysconf("SC_PAGE_SIZE")
CORE_FIELDS = ("user", "nice", "system", "idle", "iowait", "irq", "softirq", "steal")


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def wait_port(port: int, proc: subprocess.Popen[bytes], timeout: float = 20) -> None:
    deadline = time.monotonic() + timeout
    while True:
        with contextlib.suppress(OSError), socket.create_connection(("127.0.0.1", port), timeout=0.2):
            return
        if proc.poll() is not None or time.monotonic() > deadline:
            raise RuntimeError(f"{proc.args!r} did not start")
        time.sleep(0.05)


def spawn(args: list[str]) -> subprocess.Popen[bytes]:
    """A load generator: told when to start on stdin, answers on stdout."""
    return subprocess.Popen(args, stdin=subprocess.PIPE, stdout=subprocess.PIPE)


def stop(procs: list[subprocess.Popen[bytes]]) -> None:
    for p in procs:
        if p.poll() is None:
            p.send_signal(signal.SIGKILL)
    for p in procs:
        with contextlib.suppress(Exception):
            p.wait(5)


def proc_stat(pid: int) -> tuple[float, int]:
    """(CPU seconds, resident bytes) of a process."""
    with open(f"/proc/{pid}/stat") as f:
        fields = f.read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / _CLK, int(fields[21]) * _PAGE


def core_times(cpu: int) -> list[int]:
    """The kernel's time counters of one CPU (/proc/stat, in ticks), in the order of `CORE_FIELDS`."""
    with open("/proc/stat") as f:
        for line in f:
            if line.startswith(f"cpu{cpu} "):
                return [int(x) for x in line.split()[1 : 1 + len(CORE_FIELDS)]]
    return [0] * len(CORE_FIELDS)


def core_share(before: list[int], after: list[int]) -> dict[str, float]:
    """Percent of the window the server's core spent in each state. `softirq` is network work the kernel did
    there outside any process (on loopback, much of the clients' receiving); `steal` is time the hypervisor
    gave the core to another machine: a slow phase of a shared VM shows there."""
    spent = [a - b for a, b in zip(after, before, strict=True)]
    total = sum(spent) or 1
    return {name: round(100 * t / total, 1) for name, t in zip(CORE_FIELDS, spent, strict=True) if name != "nice"}


def gc_pauses(ports: list[int]) -> tuple[int, float]:
    """(passes, seconds) of the cyclic GC so far, summed over the nodes' /metrics."""
    count, total = 0, 0.0
    for port in ports:
        with urllib.request.urlopen(f"http://127.0.0.1:{port}/metrics", timeout=10) as r:
            for line in r.read().decode().splitlines():
                if line.startswith("rajas_gc_pause_seconds_count "):
                    count += int(float(line.split()[1]))
                elif line.startswith("rajas_gc_pause_seconds_sum "):
                    total += float(line.split()[1])
    return count, total
