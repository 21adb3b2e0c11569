"""warmup for Python: generate and inspect catalogs, publish them, read them back.

    import warmup
    snapshot = warmup.generate("senesi", 0.01, "/tmp/pristine")
    report = warmup.run(snapshot, target="embedded", work_dir="/tmp/work")
    print(report["total_seconds"], report["exit_code"])

Every call raises a subclass of warmup.Error named after the status code
(warmup.NotFoundError, warmup.InvalidArgumentError, ...) with the library's
message. Long calls release the GIL; Ctrl-C stops a run between upserts
(KeyboardInterrupt, the partial catalog dropped as on the command line).
"""

from __future__ import annotations

import json
import os
from typing import Any, Callable, Iterable, Mapping, Optional, Union

from . import _warmup
from ._warmup import Catalog, Engine, Error

# warmup.NotFoundError, warmup.InvalidArgumentError, ...: one per status code.
globals().update({name: getattr(_warmup, name) for name in dir(_warmup) if name.endswith("Error")})

__all__ = ["Catalog", "Engine", "Error", "Server", "generate", "inspect", "run", "version"] + sorted(
    name for name in dir(_warmup) if name.endswith("Error") and name != "Error"
)

PathLike = Union[str, "os.PathLike[str]"]
Source = Union[PathLike, Mapping[str, Any]]


def version() -> str:
    """The library's version and the commit it was built from, e.g. "0.1.0 (9ba7d0c)"."""
    return _warmup.version()


def generate(profile: str, scale: float, out: PathLike, seed: int = 1, catalog: Optional[str] = None,
             compress: Union[str, bool] = "none") -> str:
    """Writes a generated catalog ("senesi", "senesi-production" or "tiny") as a snapshot under `out`; returns its path.

    The same profile, scale and seed give the same snapshot, byte for byte.
    compress: "none" or "zstd", as everywhere else (True and False, the older spelling, still work).
    Raises AlreadyExistsError when the snapshot directory exists.
    """
    if isinstance(compress, bool):
        compress = "zstd" if compress else "none"
    if compress not in ("none", "zstd"):
        raise _warmup.InvalidArgumentError(f'compress is "none" or "zstd" for a snapshot, not {compress!r}')
    return _warmup.generate(profile, float(scale), os.fspath(out), int(seed), catalog or "", compress == "zstd")


def inspect(path: PathLike) -> dict:
    """Reads every entity of a snapshot (or export zip), verifying it; returns what `warmup inspect --json` prints."""
    return json.loads(_warmup.inspect_json(os.fspath(path)))


def run(source: Source, *, catalog: Optional[str] = None, target: str = "embedded",
        address: Optional[str] = None, work_dir: Optional[PathLike] = "warmup-work", target_catalog: Optional[str] = None,
        collections: Union[str, Iterable[str]] = (), max_per_collection: int = 0, verify: str = "counts",
        run_label: str = "run", keep_target: bool = False, compress: str = "none",
        read_ahead: bool = True, progress: Optional[Callable[[dict], None]] = None) -> dict:
    """Publishes `source` into `target` and returns the run's JSON report (docs/measurement.md) as a dict.

    source: a snapshot directory or export zip; a directory of snapshots (with `catalog` when it
        holds several); or {"profile": ..., "scale": ..., "seed": ...} for the generator.
    target: "embedded" (as on the command line: warmup's engine in `work_dir`, a work directory
        warmup made or an empty one; only what warmup made there is cleared), "null" (measures the
        harness), or "remote" (needs `address`, host:port of an evitaDB-protocol server, e.g.
        warmup.Server).
    progress: called with {"collection", "copied", "expected", "collection_done"} a few times a
        second and at each collection's end; an exception it raises stops the run and is re-raised.
    collections: one collection's name, or several; empty = all.
    read_ahead: decode the source on a second thread, up to 64 entities ahead (the default);
        False decodes each entity on the loading thread, as `--no-read-ahead` does.
    Its "exit_code" is what the command line would exit with: 0 verified, 1 failed, 2 unverified.
    """
    if isinstance(collections, str):  # one name, not its characters
        collections = [collections]
    return _warmup.run(
        source if isinstance(source, Mapping) else os.fspath(source), catalog or "", target, address or "",
        os.fspath(work_dir) if work_dir is not None else "", target_catalog or "", list(collections),
        int(max_per_collection), verify, run_label, bool(keep_target), compress, bool(read_ahead), progress)


class Server:
    """`warmup serve` in this process: the embedded engine behind evitaDB's gRPC protocol.

        with warmup.Server("/tmp/server-data") as server:
            warmup.run(snapshot, target="remote", address=server.address)

    Listens on 127.0.0.1 and a free port unless `listen` says otherwise.
    """

    def __init__(self, data_dir: PathLike, listen: str = "127.0.0.1:0", compress: str = "none") -> None:
        self._server = _warmup.Server(os.fspath(data_dir), listen, compress)
        self._host = listen.rsplit(":", 1)[0]

    @property
    def port(self) -> int:
        return self._server.port

    @property
    def address(self) -> str:
        """host:port to pass as run(address=...)."""
        return f"{self._host}:{self.port}"

    def shutdown(self) -> None:
        """Finishes the calls in flight and closes the engine; idempotent."""
        self._server.shutdown()

    def __enter__(self) -> "Server":
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.shutdown()
