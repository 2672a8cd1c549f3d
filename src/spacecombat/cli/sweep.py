"""``spacecombat sweep SPEC --out TABLE``: a balance sweep on Dask (docs/sweeps.md)."""

from __future__ import annotations

import argparse
import io
import os
import shutil
import sys
from pathlib import Path

from spacecombat.cli.streams import OutputFailed, say, write, write_all
from spacecombat.core.errors import ScenarioError
from spacecombat.core.limits import shown, shown_path
from spacecombat.scenario.formats import read_document
from spacecombat.store import Store
from spacecombat.store.sweeps import save_sweep
from spacecombat.sweeps.plot import check_plot, plot_format, plot_sweep
from spacecombat.sweeps.run import (
    SCHEDULER_VARIABLE,
    JournalFailed,
    TerminalProgress,
    connect,
    disconnect,
    journal_for,
    sweep,
)
from spacecombat.sweeps.spec import load_spec


def run(args: argparse.Namespace) -> int:
    # every input checked before any work: the spec, the picture's format, the store
    out = Path(args.out)
    if out.suffix.lower() != ".parquet":
        raise ScenarioError("--out", f"must name a .parquet file (got {shown_path(args.out)})")
    address = args.scheduler or os.environ.get(SCHEDULER_VARIABLE) or None
    if address is not None and args.workers is not None:
        # refused, never dropped: a running cluster has the workers it has
        raise ScenarioError(
            "--workers",
            f"sets the workers of a local cluster; the cluster at {shown(address)} has its own",
        )
    spec = load_spec(read_document(args.spec))
    fmt = None
    if args.plot is not None:
        fmt = plot_format(args.plot)
        check_plot(spec)
    store = None
    if args.db is not None:
        try:
            store = Store(args.db)
        except Exception as exc:
            raise ScenarioError("--db", f"cannot open the store: {exc}") from exc
    journal = journal_for(out)
    show = sys.stderr is not None and sys.stderr.isatty()
    client = connect(address, args.workers)
    try:
        frame = sweep(spec, client, journal=journal, progress=TerminalProgress() if show else None)
    except JournalFailed as exc:
        raise OutputFailed(str(exc)) from exc
    finally:
        disconnect(client)
    kept = frame.attrs.pop("kept", 0)  # said below, not written into the table
    buffer = io.BytesIO()
    frame.to_parquet(buffer, index=False)
    files: dict[Path, str | bytes] = {out: buffer.getvalue()}
    if args.csv:
        files[out.with_suffix(".csv")] = frame.to_csv(index=False)
    if fmt is not None:
        files[Path(args.plot)] = plot_sweep(spec, frame, fmt)
    write_all(files)
    if store is not None:
        with store:
            sweep_id = save_sweep(store, spec, frame)
        say(f"saved in the store as sweep {sweep_id}")
    shutil.rmtree(journal, ignore_errors=True)
    write(f"{len(frame):,} points ({kept:,} kept from before) -> {out}\n")
    return 0
