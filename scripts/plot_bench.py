#!/usr/bin/python3
"""Charts of a `particle-lab bench --sweep` result.

Usage: plot_bench.py SWEEP_CSV [--out DIR]

Reads DIR/sweep.csv as written by `particle-lab bench --sweep ... --out DIR` and writes
  step_ms.png  median ms per step vs particle count, log-log, p10-p90 shaded, one line per
               combination of the other configuration values that change in the sweep;
  stages.png   the same for each stage (grid, reorder, forces, integrate), one panel each.
The PNGs go next to the CSV unless --out names another folder. Needs matplotlib (Debian:
python3-matplotlib; run with /usr/bin/python3 when another python3 comes first on PATH).
"""
import argparse
import csv
import math
import os
import sys

FIRST_STAT = "step_ms_median"
STAGES = ["grid_ms", "reorder_ms", "forces_ms", "integrate_ms"]
# Columns that say which configuration ran but never separate lines (the device follows the
# backend, and the count is the x axis).
NOT_A_SERIES = {"device", "particles", "valid", "invalid_reason"}


class CsvError(Exception):
    pass


def read_sweep(path):
    """Returns (config column names, rows as dicts with numbers parsed)."""
    try:
        with open(path, newline="", encoding="utf-8") as f:
            lines = list(csv.reader(f))
    except OSError as e:
        raise CsvError(f"cannot read {path}: {e.strerror}") from None
    except (csv.Error, UnicodeDecodeError) as e:
        raise CsvError(f"{path}: not a readable CSV file ({e})") from None
    if not lines:
        raise CsvError(f"{path}: empty file, expected a sweep.csv from `particle-lab bench --sweep`")
    header = lines[0]
    for needed in ("particles", FIRST_STAT):
        if needed not in header:
            raise CsvError(f"{path}: line 1: no '{needed}' column; this is not a sweep.csv "
                           f"from `particle-lab bench --sweep` (columns: {','.join(header[:12])})")
    config = header[:header.index(FIRST_STAT)]
    numeric = header[header.index(FIRST_STAT):] + ["particles"]
    rows = []
    for number, cells in enumerate(lines[1:], start=2):
        if not cells:
            continue
        if len(cells) != len(header):
            raise CsvError(f"{path}: line {number}: {len(cells)} cells, the header has "
                           f"{len(header)} (truncated or damaged file?)")
        row = dict(zip(header, cells))
        if row.get("valid") == "no":
            # A diverged run's timings are not a result: never drawn.
            print(f"plot_bench.py: {path}: line {number}: left out, the run diverged "
                  f"({row.get('invalid_reason', '')})", file=sys.stderr)
            continue
        for name in numeric:
            text = row[name]
            if text == "":
                row[name] = math.nan
                continue
            try:
                row[name] = float(text)
            except ValueError:
                raise CsvError(f"{path}: line {number}: column '{name}': '{text}' is not a "
                               f"number") from None
        if not row["particles"] > 0:
            raise CsvError(f"{path}: line {number}: particles must be positive")
        rows.append(row)
    if not rows:
        raise CsvError(f"{path}: no valid configurations after the header")
    return config, rows


def series(config, rows):
    """Groups rows into lines: {label: rows sorted by particles}."""
    varying = [c for c in config if c not in NOT_A_SERIES and len({r[c] for r in rows}) > 1]
    lines = {}
    for r in rows:
        label = " ".join(f"{c}={r[c]}" for c in varying) or f"{r.get('backend', '')}".strip()
        lines.setdefault(label or "all", []).append(r)
    for pts in lines.values():
        pts.sort(key=lambda r: r["particles"])
    return lines


def draw(ax, lines, stat, plt_title):
    for label, pts in lines.items():
        xs = [r["particles"] for r in pts]
        ys = [r[f"{stat}_median"] for r in pts]
        ax.plot(xs, ys, marker="o", label=label)
        lo, hi = f"{stat}_p10", f"{stat}_p90"
        if lo in pts[0] and hi in pts[0]:
            ax.fill_between(xs, [r[lo] for r in pts], [r[hi] for r in pts], alpha=0.2)
    ax.set_xscale("log")
    ax.set_yscale("log")
    ax.set_xlabel("particles")
    ax.set_ylabel("ms (median, p10-p90 shaded)")
    ax.set_title(plt_title)
    ax.grid(True, which="both", alpha=0.3)


def main(argv):
    parser = argparse.ArgumentParser(
        prog="plot_bench.py",
        description="Draw PNG charts (ms per step vs particles, log-log) from the sweep.csv "
                    "of `particle-lab bench --sweep ... --out DIR`.")
    parser.add_argument("csv", help="the sweep.csv to draw")
    parser.add_argument("--out", help="folder for the PNGs (default: the CSV's folder)")
    args = parser.parse_args(argv)

    try:
        config, rows = read_sweep(args.csv)
    except CsvError as e:
        print(f"plot_bench.py: error: {e}", file=sys.stderr)
        return 1
    try:
        import matplotlib
        matplotlib.use("Agg")  # files only, no display
        import matplotlib.pyplot as plt
    except ImportError:
        print("plot_bench.py: error: matplotlib is not installed for "
              f"{sys.executable} (Debian: apt install python3-matplotlib)", file=sys.stderr)
        return 1

    out_dir = args.out or os.path.dirname(os.path.abspath(args.csv))
    os.makedirs(out_dir, exist_ok=True)
    lines = series(config, rows)
    devices = sorted({r.get("device", "") for r in rows} - {""})

    fig, ax = plt.subplots(figsize=(8, 5.5))
    draw(ax, lines, "step_ms", "Simulation step")
    ax.legend(fontsize="small")
    if devices:
        fig.text(0.01, 0.01, "; ".join(devices), fontsize="x-small")
    step_png = os.path.join(out_dir, "step_ms.png")
    fig.tight_layout(rect=(0, 0.03, 1, 1))
    fig.savefig(step_png, dpi=120)
    plt.close(fig)

    stages = [s for s in STAGES if f"{s}_median" in rows[0]
              and any(r[f"{s}_median"] > 0 for r in rows)]
    written = [step_png]
    if stages:
        cols = 2 if len(stages) > 1 else 1
        rows_n = (len(stages) + cols - 1) // cols
        fig, axes = plt.subplots(rows_n, cols, figsize=(6 * cols, 4.2 * rows_n), squeeze=False)
        for i, stage in enumerate(stages):
            draw(axes[i // cols][i % cols], lines, stage, stage.replace("_ms", ""))
        for j in range(len(stages), rows_n * cols):
            axes[j // cols][j % cols].set_visible(False)
        axes[0][0].legend(fontsize="x-small")
        fig.tight_layout()
        stages_png = os.path.join(out_dir, "stages.png")
        fig.savefig(stages_png, dpi=110)
        plt.close(fig)
        written.append(stages_png)
    print("wrote " + " and ".join(written))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
