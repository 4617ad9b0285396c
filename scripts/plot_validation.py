#!/usr/bin/python3
"""Plots of `particle-lab validate` results.

Usage: plot_validation.py [--out DIR] RESULT_DIR [RESULT_DIR ...]

Each RESULT_DIR holds dam_break.csv, hydrostatic.csv, column_collapse.csv,
angle_of_repose.csv and/or silo.csv (with silo_series.csv) as written by `particle-lab
validate CASE --out RESULT_DIR`. Writes
  dam_break.png        surge front Z = x/a against T = t sqrt(2g/a), one line per result,
                       with Martin & Moyce's (1952) measurements for the n^2 = 2 column;
  hydrostatic.png      pressure against height, one line per result, with rho0 g (H - y)
                       and the depths the check uses marked;
  column_collapse.png  normalised runout (Linf - L0)/L0 against the aspect ratio a, one
                       series per result, with Lajeunesse et al.'s (2005) law and +-15%;
  angle_of_repose.png  the pile's surface height against the distance from its axis (a
                       heap's left flank at negative distances), one line per result, with
                       the fitted flanks and the measured repose angle;
  silo.png             the discharged mass against time for every orifice (left) and the
                       fitted flow W against (D - 1.5 d)^(5/2) with Beverloo's law for
                       C = 0.5, 0.58 and 0.65 (right), one series per result.
The PNGs go into --out (default: the first RESULT_DIR). Needs matplotlib (Debian:
python3-matplotlib).
"""
import argparse
import csv
import math
import os
import sys

# Martin & Moyce (1952), n^2 = 2: (T, Z).
MARTIN_MOYCE = [(0.41, 1.11), (0.84, 1.22), (1.19, 1.44), (1.63, 1.89),
                (2.20, 2.56), (2.51, 3.00), (2.83, 3.44), (3.33, 4.11)]


class CsvError(Exception):
    pass


def read(path):
    """Returns (header key=value dict, rows as dicts of floats)."""
    meta, lines = {}, []
    with open(path, newline="") as f:
        for line in f:
            if line.startswith("#"):
                for item in line[1:].split():
                    if "=" in item:
                        k, v = item.split("=", 1)
                        meta[k] = v
            elif line.strip():
                lines.append(line)
    if not lines:
        raise CsvError(f"{path}: no data")
    rows = []
    for row in csv.DictReader(lines):
        try:
            rows.append({k: float(v) for k, v in row.items()})
        except (TypeError, ValueError):
            raise CsvError(f"{path}: a value is not a number: {row}")
    return meta, rows


def label(meta):
    floor = ", rough floor" if int(meta.get("glued_floor", "0")) > 0 else ""
    formed = f", {meta['formed']}" if "formed" in meta else ""
    return f"{meta.get('particles', '?')} particles ({meta.get('backend', '?')}{floor}{formed})"


def finish(fig, axes, out, name, **legend):
    """A grid and the legend (matplotlib's legend options) on every axis, then the figure as
    out/name; returns the path."""
    for ax in axes:
        ax.grid(True, alpha=0.3)
        ax.legend(**legend)
    path = os.path.join(out, name)
    fig.savefig(path, dpi=120, bbox_inches="tight")
    return path


def interpolate(rows, t):
    """Z at T by linear interpolation (the first sample before the start)."""
    if t <= rows[0]["T"]:
        return rows[0]["Z"]
    for a, b in zip(rows, rows[1:]):
        if t <= b["T"]:
            return a["Z"] + (t - a["T"]) / (b["T"] - a["T"]) * (b["Z"] - a["Z"])
    return rows[-1]["Z"]


def best_delay(rows, until=3.0, most=0.5):
    """The start delay (steps of 0.01) that brings the front closest to every measured point
    with T <= until, as `particle-lab validate` fits it: (delay, worst relative error)."""
    best = (0.0, float("inf"))
    for k in range(int(round(most / 0.01)) + 1):
        delay = 0.01 * k
        worst = max(abs(interpolate(rows, t - delay) / z - 1) for t, z in MARTIN_MOYCE if t <= until)
        if worst < best[1]:
            best = (delay, worst)
    return best


def plot_dam_break(results, out, plt):
    fig, ax = plt.subplots(figsize=(7, 5))
    for meta, rows in results:
        line, = ax.plot([r["T"] for r in rows], [r["Z"] for r in rows], label=label(meta))
        # The same front started later by the delay that fits the measurements best (the
        # measured column's release took time; docs/validation.md).
        delay, worst = best_delay(rows)
        print(f"{label(meta)}: start delayed by {delay:.2f}, worst error {100 * worst:.2f}%")
        ax.plot([r["T"] + delay for r in rows], [r["Z"] for r in rows], "--",
                color=line.get_color(), linewidth=1,
                label=f"  delayed by ΔT = {delay:.2f} (worst {100 * worst:.1f}%)")
    ax.plot([p[0] for p in MARTIN_MOYCE], [p[1] for p in MARTIN_MOYCE], "ko",
            label="Martin & Moyce (1952)")
    ax.fill_between([p[0] for p in MARTIN_MOYCE], [0.9 * p[1] for p in MARTIN_MOYCE],
                    [1.1 * p[1] for p in MARTIN_MOYCE], color="0.85", label="±10%")
    ax.set_xlabel("T = t √(2g/a)")
    ax.set_ylabel("Z = front / a")
    ax.set_title("Dam break, n² = 2: surge front")
    return finish(fig, [ax], out, "dam_break.png")


def plot_hydrostatic(results, out, plt):
    fig, (ax, err) = plt.subplots(1, 2, figsize=(11, 6), sharey=True)
    for meta, rows in results:
        h = float(meta.get("H_m", "nan"))
        line, = ax.plot([r["pressure_pa"] for r in rows], [r["y_m"] / h for r in rows], ".-",
                        label=label(meta))
        ax.plot([r["expected_pa"] for r in rows], [r["y_m"] / h for r in rows], "k--",
                linewidth=1)
        checked = [r for r in rows if r["checked"] > 0]
        if checked:
            ax.axhspan(min(r["y_m"] for r in checked) / h, max(r["y_m"] for r in checked) / h,
                       color="0.92")
            # Relative error of every checked layer, against the settled surface (the
            # criterion) and, dotted, against the height the column was placed at.
            err.plot([100 * (r["pressure_pa"] / r["expected_pa"] - 1) for r in checked],
                     [r["y_m"] / h for r in checked], ".-", color=line.get_color())
            if "expected_placed_pa" in checked[0]:
                err.plot([100 * (r["pressure_pa"] / r["expected_placed_pa"] - 1) for r in checked],
                         [r["y_m"] / h for r in checked], ":", color=line.get_color())
    ax.plot([], [], "k--", label="ρ₀ g (H − y), H: where the pressure vanishes")
    ax.set_xlabel("pressure (Pa)")
    ax.set_ylabel("y / H")
    ax.set_title("Hydrostatic tank (shaded: the depths checked)")
    err.axvspan(-5, 5, color="0.92")
    err.plot([], [], "k.-", label="against H where the pressure vanishes")
    err.plot([], [], "k:", label="against H as placed")
    err.set_xlabel("pressure error (%), checked depths")
    err.set_title("p / ρ₀ g (H − y) − 1 (shaded: ±5%)")
    return finish(fig, [ax, err], out, "hydrostatic.png")


def lajeunesse(a):
    """Lajeunesse et al. (2005), quasi-2D: 1.8 a below a = 3, 2.3 a^(2/3) above."""
    return 1.8 * a if a < 3 else 2.3 * a ** (2.0 / 3.0)


def plot_column_collapse(results, out, plt):
    fig, ax = plt.subplots(figsize=(7, 5))
    top = 1.0
    for meta, rows in results:
        top = max([top] + [r["a"] for r in rows])
        ax.plot([r["a"] for r in rows], [r["runout"] for r in rows], "o-",
                label=f"{meta.get('preset', '?')}, {meta.get('resolution', '?')} across, "
                      f"channel {meta.get('channel', '?')} ({meta.get('backend', '?')})")
    a = [0.3 + k * (top * 1.2 - 0.3) / 200 for k in range(201)]
    ax.plot(a, [lajeunesse(x) for x in a], "k-", label="Lajeunesse et al. (2005)")
    ax.fill_between(a, [0.85 * lajeunesse(x) for x in a], [1.15 * lajeunesse(x) for x in a],
                    color="0.85", label="±15%")
    ax.set_xscale("log")
    ax.set_yscale("log")
    ax.set_xlabel("a = H0 / L0 (settled)")
    ax.set_ylabel("(L∞ − L0) / L0")
    ax.set_title("Quasi-2D column collapse: runout")
    return finish(fig, [ax], out, "column_collapse.png")


def plot_angle_of_repose(results, out, plt):
    fig, ax = plt.subplots(figsize=(7, 5))
    for meta, rows in results:
        rows = sorted((r for r in rows if r["h_m"] > 0), key=lambda r: r["r_m"])
        # Several piles: the profile is the first one's, the angle their mean.
        piles = int(meta.get("piles", "1"))
        angle = float(meta.get("mean_deg" if piles > 1 else "angle_deg", "nan"))
        of = f" (mean of {piles})" if piles > 1 else ""
        line, = ax.plot([r["r_m"] for r in rows], [r["h_m"] for r in rows], ".-",
                        label=f"{meta.get('preset', '?')}, {label(meta)}: {angle:.1f}°{of}")
        fitted = [r for r in rows if r["fitted"] > 0]
        ax.plot([r["r_m"] for r in fitted], [r["h_m"] for r in fitted], "o",
                color=line.get_color(), fillstyle="none")
        ref = float(meta.get("reference_deg", "nan"))
        top = float(meta.get("top_m", "nan"))
        if rows and ref == ref and top == top:
            slope = math.tan(math.radians(ref))
            # A heap (formed=heap) has a flank on either side, the left one at negative r.
            for side in (1, -1) if meta.get("formed") == "heap" else (1,):
                ax.plot([0, side * top / slope], [top, 0], "k--", linewidth=1)
    ax.plot([], [], "k--", label="measured repose angle through the top")
    ax.set_xlabel("distance from the axis (m; a heap's left flank negative)")
    ax.set_ylabel("surface height (m)")
    ax.set_title("Angle of repose: pile and heap profiles (circles: fitted)")
    # Below the axes: a heap's apex and flanks fill the plot's top corners.
    return finish(fig, [ax], out, "angle_of_repose.png", loc="upper center",
                  bbox_to_anchor=(0.5, -0.13), fontsize="small")


def read_silo(path):
    """silo.csv and the silo_series.csv beside it: (meta, rows, series rows)."""
    meta, rows = read(path)
    series_path = os.path.join(os.path.dirname(path), "silo_series.csv")
    series = read(series_path)[1] if os.path.exists(series_path) else []
    return meta, rows, series


def plot_silo(results, out, plt):
    fig, (mass, law) = plt.subplots(1, 2, figsize=(12, 5))
    top = 0.0
    for meta, rows, series in results:
        d = float(meta.get("d_m", "nan"))
        rho = float(meta.get("bulk_density", "nan"))
        name = f"{meta.get('preset', '?')}, {label(meta)}"
        for r in rows:
            pts = [s for s in series if s["orifice_d"] == r["orifice_d"]]
            mass.plot([s["t_s"] for s in pts], [s["discharged_kg"] for s in pts], "-",
                      label=f"D = {r['orifice_d']:g} d, {name}")
        x = [(r["orifice_m"] - 1.5 * d) ** 2.5 for r in rows]
        top = max([top] + x)
        fitted = float(meta.get("fitted_c", "nan"))
        points, = law.plot(x, [r["flow_kg_s"] for r in rows], "o", label=f"{name}: C = " +
                           ", ".join(f"{r['coefficient']:.3f}" for r in rows))
        if fitted == fitted and x:
            law.plot([0, max(x) * 1.1], [0, fitted * rho * math.sqrt(9.81) * max(x) * 1.1], "--",
                     color=points.get_color(), linewidth=1,
                     label=f"{name}: fitted over the orifices, C = {fitted:.3f}")
        if rho == rho and top > 0:
            for c, style in ((0.5, "k:"), (0.58, "k-"), (0.65, "k:")):
                law.plot([0, top * 1.1], [0, c * rho * math.sqrt(9.81) * top * 1.1], style,
                         linewidth=1)
    law.plot([], [], "k-", label="Beverloo, C = 0.58 (dotted: 0.5, 0.65)")
    mass.set_xlabel("time since the orifice opened (s)")
    mass.set_ylabel("mass below the plate (kg)")
    mass.set_title("Silo discharge")
    law.set_xlabel("(D − 1.5 d)^(5/2)  (m^(5/2))")
    law.set_ylabel("W (kg/s)")
    law.set_title("Flow rate against Beverloo's law")
    return finish(fig, [mass, law], out, "silo.png")


def main(argv):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("results", nargs="+")
    parser.add_argument("--out")
    args = parser.parse_args(argv)
    out = args.out or args.results[0]
    try:
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        print("plot_validation.py: matplotlib is missing (Debian: python3-matplotlib)",
              file=sys.stderr)
        return 3
    dam, hydro, collapse, repose, silo = [], [], [], [], []
    try:
        for d in args.results:
            if not os.path.isdir(d):
                raise CsvError(f"{d}: not a folder")
            found = False
            for name, into in (("dam_break.csv", dam), ("hydrostatic.csv", hydro),
                               ("column_collapse.csv", collapse),
                               ("angle_of_repose.csv", repose)):
                path = os.path.join(d, name)
                if os.path.exists(path):
                    into.append(read(path))
                    found = True
            path = os.path.join(d, "silo.csv")
            if os.path.exists(path):
                silo.append(read_silo(path))
                found = True
            if not found:
                raise CsvError(f"{d}: holds neither dam_break.csv nor hydrostatic.csv (nor "
                               "column_collapse.csv, angle_of_repose.csv, silo.csv)")
    except (OSError, CsvError) as e:
        print(f"plot_validation.py: {e}", file=sys.stderr)
        return 2
    os.makedirs(out, exist_ok=True)
    if dam:
        print(plot_dam_break(dam, out, plt))
    if hydro:
        print(plot_hydrostatic(hydro, out, plt))
    if collapse:
        print(plot_column_collapse(collapse, out, plt))
    if repose:
        print(plot_angle_of_repose(repose, out, plt))
    if silo:
        print(plot_silo(silo, out, plt))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
