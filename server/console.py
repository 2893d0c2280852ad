"""What the `rajas` command shows a person at a terminal: a progress bar on standard error while long work runs,
and a table of the result on standard output. Machines ask for `--json` and get neither (nor do pipes: the bar is
drawn only on a terminal)."""

from __future__ import annotations

import sys
from collections.abc import Callable, Iterator, Mapping
from contextlib import contextmanager
from typing import Any

from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn, TimeRemainingColumn
from rich.table import Table


@contextmanager
def progress(label: str, total: float | None, shown: bool = True) -> Iterator[Callable[[float], None]]:
    """A bar of `total` steps on standard error (a spinner when the total is unknown); yields `advance(n)`.
    Hidden when `shown` is false or standard error is not a terminal."""
    err = Console(stderr=True)
    if not shown or not err.is_terminal:
        yield _nothing
        return
    columns = [TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(), TimeElapsedColumn()]
    with Progress(*columns, TimeRemainingColumn(), console=err, transient=True) as bar:
        task = bar.add_task(label, total=total)

        def advance(n: float = 1) -> None:
            bar.advance(task, n)

        yield advance


def _nothing(n: float = 1) -> None:
    pass


def flat(report: Mapping[str, Any], prefix: str = "") -> Iterator[tuple[str, Any]]:
    """A nested report as (dotted key, value) rows; lists of scalars stay one value."""
    for key, value in report.items():
        name = f"{prefix}{key}"
        if isinstance(value, Mapping):
            yield from flat(value, name + ".")
        elif isinstance(value, list) and value and isinstance(value[0], Mapping):
            for i, item in enumerate(value):
                yield from flat(item, f"{name}[{i}].")
        else:
            yield name, value


def _shown(value: Any) -> str:
    if isinstance(value, float):
        return f"{value:,.3f}".rstrip("0").rstrip(".") if abs(value) < 1000 else f"{value:,.0f}"
    if isinstance(value, int) and not isinstance(value, bool):
        return f"{value:,}"
    return str(value)


def table(title: str, report: Mapping[str, Any]) -> None:
    """The report as a two-column table on standard output."""
    out = Table(title=title, show_header=False, box=None, pad_edge=False)
    out.add_column(justify="right", style="bold")
    out.add_column()
    for key, value in flat(report):
        out.add_row(key, _shown(value))
    Console(file=sys.stdout, width=120).print(out)
