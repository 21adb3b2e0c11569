"""Runs two loads of the same generated catalog (by default: without and with
record compression) into the embedded engine and plots their per-collection
median upsert times side by side, as a notebook would.

    PYTHONPATH=build/python python3 examples/python/compare_medians.py [--scale 0.005] [--out medians.png]

Writes the chart (PNG) and prints the medians; exits 1 if either run failed.
"""

import argparse
import sys
import tempfile
from pathlib import Path

import matplotlib

matplotlib.use("Agg")  # files, not windows: runs headless
import matplotlib.pyplot as plt  # noqa: E402

import warmup  # noqa: E402


def medians(report):
    return {c["entity_type"]: c["upsert"]["median_us"] for c in report["collections"] if c["copied"] > 0}


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--scale", type=float, default=0.005)
    parser.add_argument("--out", default="medians.png")
    parser.add_argument("--a", default="none", help="--compress of the first run")
    parser.add_argument("--b", default="deflate", help="--compress of the second run")
    args = parser.parse_args()

    with tempfile.TemporaryDirectory() as scratch:
        snapshot = warmup.generate("senesi", args.scale, Path(scratch) / "pristine")
        reports = {}
        for arm in (args.a, args.b):
            reports[arm] = warmup.run(snapshot, target="embedded", work_dir=Path(scratch) / f"work-{arm}",
                                      compress=arm, run_label=f"compress-{arm}")
    if any(r["exit_code"] != 0 for r in reports.values()):
        print("a run failed:", {arm: r["exit_code"] for arm, r in reports.items()}, file=sys.stderr)
        return 1

    a, b = medians(reports[args.a]), medians(reports[args.b])
    types = sorted(a, key=lambda t: -a[t])
    for t in types:
        print(f"{t:<20} {a[t]:>9.1f} us  {b.get(t, float('nan')):>9.1f} us  ({b.get(t, 0) / a[t]:.2f}x)")

    fig, ax = plt.subplots(figsize=(10, 5))
    x = range(len(types))
    ax.bar([i - 0.2 for i in x], [a[t] for t in types], width=0.4, label=f"compress {args.a}")
    ax.bar([i + 0.2 for i in x], [b.get(t, 0) for t in types], width=0.4, label=f"compress {args.b}")
    ax.set_xticks(list(x), types, rotation=60, ha="right")
    ax.set_yscale("log")
    ax.set_ylabel("median upsert (µs)")
    ax.set_title(f"senesi at scale {args.scale}, embedded engine")
    ax.legend()
    fig.tight_layout()
    fig.savefig(args.out)
    print("wrote", args.out)
    return 0


if __name__ == "__main__":
    sys.exit(main())
