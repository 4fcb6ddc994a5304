#!/usr/bin/env python3
"""Draws the charts of docs/performance.md from the benchmarks' result files.

    bench/charts.py            # bench/results/*.json -> docs/images/*.svg

Each benchmark run writes one JSON file per N into bench/results/ (bench/README.md, "Result files");
files marked "transcribed" hold figures copied from docs/performance.md's tables, for runs made
before the benchmarks wrote files. Of the files of one benchmark and N (for the start-up benchmark:
and AOT setting) those of the newest day that measured an operator count for it, each figure as
their median (a file of R repeated runs counting R times). Only the standard
library: the SVG is written by hand, so the charts re-generate anywhere with one command.
"""
import glob
import json
import re
import math
import os
import sys
from html import escape

if any(arg in ("-h", "--help") for arg in sys.argv[1:]):   # every script answers --help, doing nothing else
    print(__doc__.strip())
    sys.exit(0)

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
# Other directories, e.g. to look at a run's charts before committing it: the benchmarks' own knob
# KOPF4J_BENCH_RESULTS, and KOPF4J_BENCH_IMAGES for the SVGs.
RESULTS = os.environ.get("KOPF4J_BENCH_RESULTS") or os.path.join(ROOT, "bench", "results")
IMAGES = os.environ.get("KOPF4J_BENCH_IMAGES") or os.path.join(ROOT, "docs", "images")

COLOURS = {"floor": "#8c8c8c", "kopf4j": "#1f77b4", "kopf4j, posting off": "#ff7f0e", "kopf4j-quiet": "#ff7f0e",
           "AOT cache off": "#9ecae1", "AOT cache (default)": "#2ca02c",
           "daemons": "#9467bd", "timers": "#17becf", "Kopf 1.44": "#d62728", "kopf": "#d62728", "Kopf": "#d62728",
           "josdk": "#8c564b", "JOSDK": "#8c564b", "goal": "#222222",
           "kopf4j-selector": "#2ca02c"}
# The load benchmark's operators (bench/README.md), as it names them and as the legends say; the
# other frameworks (kopf, josdk) are drawn where a run measured them.
LOAD_OPERATORS = [("floor", "floor"), ("kopf4j", "kopf4j"), ("kopf4j-quiet", "kopf4j, posting off"), ("kopf", "Kopf"),
                  ("josdk", "JOSDK")]
# The goals of issue 10 per phase, as multiples of the floor's seconds.
GOALS = {"create": 1.5, "update": 2.0, "delete": 1.1}
FONT = 'font-family="sans-serif" font-size="12"'


def load_results():
    """{(benchmark, n, variant): result}: of the files of each, those of the newest day, their
    figures' medians per operator when there are several (repeated runs)."""
    grouped = {}
    for path in sorted(glob.glob(os.path.join(RESULTS, "*.json"))):
        with open(path, encoding="utf-8") as file:
            result = json.load(file)
        variants = {row.get("aot", "") for row in result["rows"]} if result["benchmark"] == "startup" else {""}
        for variant in variants:
            grouped.setdefault((result["benchmark"], result["n"], variant), []).append(result)
    newest = {}
    for key, results in grouped.items():
        # Per operator, the newest day that measured it: a run of some operators (Kopf and kopf4j, say)
        # does not take the others (the Java Operator SDK) out of the charts.
        measured = {}
        for result in results:
            for found in result["rows"]:
                measured.setdefault((found.get("operator"), found.get("aot", "")), []).append(result)
        rows = []
        for (operator, aot), files in measured.items():
            day = max(result["date"][:10] for result in files)
            rows.extend(medians([dict(result, rows=[found for found in result["rows"]
                                                    if (found.get("operator"), found.get("aot", "")) == (operator, aot)])
                                 for result in files if result["date"][:10] == day])["rows"])
        day = max(result["date"][:10] for result in results)
        latest = [result for result in results if result["date"][:10] == day]
        newest[key] = dict(max(latest, key=lambda result: result["date"]), rows=rows, runs=len(latest))
    return newest


def medians(results):
    """One result whose rows hold each figure's median over the results' rows of the same operator and AOT setting."""
    if len(results) == 1:
        return results[0]
    rows = {}
    for result in results:
        for found in result["rows"]:
            # A file of R repeated runs ("median of R runs") holds R runs' median: it counts R times.
            rows.setdefault((found.get("operator"), found.get("aot", "")), []).extend([found] * repeats(result))
    merged = []
    for same in rows.values():
        row = dict(same[0])
        for name, value in row.items():
            if isinstance(value, (int, float)):
                values = sorted(found[name] for found in same if isinstance(found.get(name), (int, float)))
                middle = len(values) // 2
                row[name] = values[middle] if len(values) % 2 else (values[middle - 1] + values[middle]) / 2
        merged.append(row)
    return dict(max(results, key=lambda result: result["date"]), rows=merged, runs=len(results))


def repeats(result):
    """How many runs a result file's figures are the median of (1 unless its conditions say)."""
    found = re.search(r"median of (\d+) runs", result.get("conditions", ""))
    return int(found.group(1)) if found else 1


def of(results, benchmark):
    """[(n, variant, result)] of one benchmark, by N."""
    return sorted((n, variant, result) for (name, n, variant), result in results.items() if name == benchmark)


def row(result, operator, variant=None):
    for candidate in result["rows"]:
        if candidate.get("operator") == operator and (variant is None or candidate.get("aot", "") == variant):
            return candidate
    return None


def nice_max(value):
    """A round upper end for an axis from 0 that holds the value."""
    if value <= 0:
        return 1
    magnitude = 10 ** math.floor(math.log10(value))
    for step in (1, 1.5, 2, 2.5, 3, 4, 5, 6, 8, 10):
        if step * magnitude >= value * 1.05:
            return step * magnitude
    return 10 * magnitude


def label_n(n):
    return f"{n:,}"


class Svg:
    """An SVG document of panels; each panel has a y axis from 0 and categories along x."""

    def __init__(self, width, height, title):
        self.width, self.height = width, height
        self.parts = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" '
                      f'viewBox="0 0 {width} {height}" {FONT}>',
                      f'<rect width="{width}" height="{height}" fill="white"/>',
                      f'<text x="{width / 2}" y="20" text-anchor="middle" font-size="14" font-weight="bold">{escape(title)}</text>']

    def text(self, x, y, content, anchor="middle", size=12, colour="#222", rotate=None, weight="normal"):
        transform = f' transform="rotate({rotate} {x} {y})"' if rotate is not None else ""
        self.parts.append(f'<text x="{x:.1f}" y="{y:.1f}" text-anchor="{anchor}" font-size="{size}" fill="{colour}" '
                          f'font-weight="{weight}"{transform}>{escape(content)}</text>')

    def line(self, x1, y1, x2, y2, colour="#222", width=1, dash=None):
        dashing = f' stroke-dasharray="{dash}"' if dash else ""
        self.parts.append(f'<line x1="{x1:.1f}" y1="{y1:.1f}" x2="{x2:.1f}" y2="{y2:.1f}" stroke="{colour}" '
                          f'stroke-width="{width}"{dashing}/>')

    def rect(self, x, y, width, height, colour, opacity=1.0, tooltip=None):
        title = f"<title>{escape(tooltip)}</title>" if tooltip else ""
        self.parts.append(f'<rect x="{x:.1f}" y="{y:.1f}" width="{width:.1f}" height="{max(height, 0):.1f}" '
                          f'fill="{colour}" fill-opacity="{opacity}">{title}</rect>')

    def circle(self, x, y, colour, tooltip=None):
        title = f"<title>{escape(tooltip)}</title>" if tooltip else ""
        self.parts.append(f'<circle cx="{x:.1f}" cy="{y:.1f}" r="4" fill="{colour}">{title}</circle>')

    def polyline(self, points, colour, dash=None):
        dashing = f' stroke-dasharray="{dash}"' if dash else ""
        path = " ".join(f"{x:.1f},{y:.1f}" for x, y in points)
        self.parts.append(f'<polyline points="{path}" fill="none" stroke="{colour}" stroke-width="2"{dashing}/>')

    def legend(self, x, y, entries):
        """entries: [(label, colour, kind)], kind "box" or "line" or "dash"."""
        for label, colour, kind in entries:
            if kind == "box":
                self.rect(x, y - 9, 12, 12, colour)
            else:
                self.line(x, y - 3, x + 14, y - 3, colour, 2, "5,3" if kind == "dash" else None)
            self.text(x + 18, y + 1, label, anchor="start", size=11)
            x += legend_width([(label, colour, kind)])

    def save(self, name):
        os.makedirs(IMAGES, exist_ok=True)
        path = os.path.join(IMAGES, name)
        with open(path, "w", encoding="utf-8") as file:
            file.write("\n".join(self.parts + ["</svg>"]) + "\n")
        return path


def legend_width(entries):
    """How wide Svg.legend draws these entries."""
    return sum(34 + 6.8 * len(label) for label, _, _ in entries)


def fitting_width(width, title, legend_entries, legend_x=70):
    """At least width, and wide enough for the title (14 px bold) and the legend from legend_x."""
    return max(width, 40 + 8.5 * len(title), legend_x + legend_width(legend_entries) + 10)


class Panel:
    """A plot area inside an Svg: a y axis from 0 to y_max, categories spread along x."""

    def __init__(self, svg, left, top, width, height, y_max, y_label, categories, title=None):
        self.svg, self.left, self.top, self.width, self.height = svg, left, top, width, height
        self.y_max, self.categories = y_max, categories
        if title:
            svg.text(left + width / 2, top - 8, title, size=12, weight="bold")
        for i in range(6):
            value = y_max * i / 5
            y = self.y(value)
            svg.line(left, y, left + width, y, "#e5e5e5")
            svg.text(left - 6, y + 4, f"{value:g}", anchor="end", size=10)
        svg.line(left, top, left, top + height)
        svg.line(left, top + height, left + width, top + height)
        svg.text(left - 38, top + height / 2, y_label, rotate=-90, size=11)
        for index, category in enumerate(categories):
            svg.text(self.x(index), top + height + 16, category, size=11)

    def y(self, value):
        return self.top + self.height * (1 - min(value, self.y_max) / self.y_max)

    def x(self, index):
        """The centre of category index."""
        return self.left + self.width * (index + 0.5) / len(self.categories)

    def bars(self, index, values):
        """values: [(label, value, colour)] side by side at category index."""
        slot = self.width / len(self.categories) * 0.8
        bar = slot / max(len(values), 1)
        start = self.x(index) - slot / 2
        for number, (label, value, colour) in enumerate(values):
            if value is None:
                continue
            x = start + number * bar
            self.svg.rect(x + 1, self.y(value), bar - 2, self.y(0) - self.y(value), colour, tooltip=f"{label}: {value:.2f}")
            self.svg.text(x + bar / 2, self.y(value) - 3, f"{value:.1f}" if value >= 10 else f"{value:.2f}", size=9)

    def hline(self, value, colour, label=None, dash="6,3"):
        y = self.y(value)
        self.svg.line(self.left, y, self.left + self.width, y, colour, 1.5, dash)
        if label:
            self.svg.text(self.left + 4, y - 4, label, anchor="start", size=10, colour=colour)

    def goal(self, index, value, colour):
        """A short line across category index at value: its goal."""
        half = self.width / len(self.categories) * 0.45
        self.svg.line(self.x(index) - half, self.y(value), self.x(index) + half, self.y(value), colour, 2, "3,2")

    def band(self, low, high, colour, label):
        self.svg.rect(self.left, self.y(high), self.width, self.y(low) - self.y(high), colour, 0.15)
        self.svg.text(self.left + self.width - 2, self.y(high) - 4, label, anchor="end", size=10, colour=colour)

    def series(self, points, colour, label=None, dash=None):
        """points: [(category index, value)]; a line through them, a dot at each."""
        points = [(self.x(index), self.y(value), value) for index, value in points if value is not None]
        if len(points) > 1:
            self.svg.polyline([(x, y) for x, y, _ in points], colour, dash)
        for x, y, value in points:
            self.svg.circle(x, y, colour, f"{label}: {value:.1f}" if label else None)
            self.svg.text(x + 6, y - 6, f"{value:.0f}" if value >= 10 else f"{value:.2f}", anchor="start", size=9, colour=colour)


def load_operators(runs, exclude=()):
    """[(name, label)] of the load benchmark's operators that any of the runs measured, in LOAD_OPERATORS' order."""
    return [(name, label) for name, label in LOAD_OPERATORS
            if name not in exclude and any(row(result, name) for _, result in runs)]


def load_phases(results):
    """Time per phase as a multiple of the floor's, one panel per N."""
    runs = [(n, result) for n, _, result in of(results, "load")]
    if not runs:
        return None
    operators = load_operators(runs, exclude=("floor",))
    width = max(240, 3 * 24 * len(operators) / 0.8)   # a bar at least 24 px wide: room for its figure
    title = "Load: seconds per phase as a multiple of the floor's (lower is better)"
    legend = [(label, COLOURS[label], "box") for _, label in operators] + [("floor = 1", COLOURS["floor"], "dash"),
                                                                         ("goal (issue 10)", COLOURS["goal"], "dash")]
    svg = Svg(fitting_width(40 + (width + 60) * len(runs), title, legend), 330, title)
    y_max = nice_max(max(row(result, name)[f"{phase}_ratio"] for _, result in runs for name, _ in operators
                         if row(result, name) for phase in ("create", "update", "delete")))
    for number, (n, result) in enumerate(runs):
        panel = Panel(svg, 70 + (width + 60) * number, 60, width, 200, y_max, "× floor" if number == 0 else "",
                      ["create", "update", "delete"], f"N = {label_n(n)} ({source(result)})")
        for index, phase in enumerate(("create", "update", "delete")):
            values = []
            for name, label in operators:
                found = row(result, name)
                values.append((label, found[f"{phase}_ratio"] if found else None, COLOURS[label]))
            panel.bars(index, values)
            panel.goal(index, GOALS[phase], COLOURS["goal"])
        panel.hline(1.0, COLOURS["floor"], "floor")
    svg.legend(70, 310, legend)
    return svg.save("load-phases.svg")


def load_cpu_startup(results):
    """Each operator's CPU seconds over the load benchmark's run, and its start-up there, per N."""
    runs = [(n, result) for n, _, result in of(results, "load")]
    if not runs:
        return None
    operators = load_operators(runs)
    categories = [f"N = {label_n(n)}" for n, _ in runs]
    width = max(300, len(runs) * 24 * len(operators) / 0.8)
    title = "Load: CPU and start-up of each operator (lower is better)"
    legend = [(label, COLOURS[label], "box") for _, label in operators]
    svg = Svg(fitting_width(190 + 2 * width, title, legend), 330, title)
    panels = (("cpu_s", "CPU s", "CPU s, spawn to the end of the delete phase"),
              ("startup_s", "seconds", "start-up s: spawn to the first object handled"))
    for number, (figure, y_label, title) in enumerate(panels):
        y_max = nice_max(max([found[figure] for _, result in runs for name, _ in operators
                              for found in [row(result, name)] if found and figure in found], default=0))
        panel = Panel(svg, 70 + (width + 90) * number, 60, width, 200, y_max, y_label, categories, title)
        for index, (_, result) in enumerate(runs):
            panel.bars(index, [(label, row(result, name).get(figure) if row(result, name) else None, COLOURS[label])
                               for name, label in operators])
    svg.legend(70, 310, legend)
    return svg.save("load-cpu-startup.svg")


def source(result):
    return result["date"][:10] + (", transcribed" if result.get("source", "measured") != "measured" else "") \
        + (f", median of {result['runs']} runs" if result.get("runs", 1) > 1 else "")


def rss_over_n(results):
    """Peak RSS of each operator in the load benchmark, and of kopf4j starting with N objects present."""
    load = [(n, result) for n, _, result in of(results, "load")]
    startup = {}
    for n, _, result in of(results, "startup"):
        for candidate in result["rows"]:
            # With the AOT cache, the launcher's default, measured at every N (its mapped classes add ~20 MiB).
            startup.setdefault(n, candidate)
            if candidate.get("aot", "default") == "default":
                startup[n] = candidate
    sizes = sorted({n for n, _ in load} | set(startup))
    if not sizes:
        return None
    series = {}
    labels = dict(LOAD_OPERATORS)
    for n, result in load:
        for candidate in result["rows"]:
            label = labels.get(candidate["operator"], candidate["operator"])
            series.setdefault(label, []).append((sizes.index(n), candidate["peak_rss_mib"]))
    if startup:
        series["kopf4j, N present at start-up"] = [(sizes.index(n), found["peak_rss_mib"]) for n, found in startup.items()]
    y_max = nice_max(max(value for points in series.values() for _, value in points))
    svg = Svg(700, 330, "Peak RSS over N (MiB)")
    panel = Panel(svg, 70, 50, 600, 220, y_max, "peak RSS MiB", [f"N = {label_n(n)}" for n in sizes])
    colours = dict(COLOURS, **{"kopf4j, N present at start-up": "#2ca02c"})
    for name, points in series.items():
        panel.series(sorted(points), colours.get(name, "#444"), name)
    svg.legend(20, 310, [(name, colours.get(name, "#444"), "line") for name in series])
    return svg.save("rss-over-n.svg")


def startup_chart(results):
    """Seconds from the spawn to /readyz, per N and AOT setting, against Kopf's 1.2 to 1.5 s."""
    runs = of(results, "startup")
    if not runs:
        return None
    sizes = sorted({n for n, _, _ in runs})
    variants = [("off", "AOT cache off"), ("default", "AOT cache (default)")]
    values = {(n, variant): row(result, "kopf4j", variant) for n, variant, result in runs}
    counts = {}
    for n, _, result in runs:
        counts[n] = max(counts.get(n, 1), result.get("runs", 1))
    y_max = nice_max(max([found["ready_s"] for found in values.values() if found] + [1.5]))
    svg = Svg(620, 330, "Start-up: spawn to ready (/readyz 200), a jar and a .java file seen before")
    panel = Panel(svg, 70, 50, 520, 220, y_max, "seconds", [f"N = {label_n(n)}" + (f", median of {counts[n]} runs" if counts[n] > 1 else " objects present") for n in sizes])
    for index, n in enumerate(sizes):
        panel.bars(index, [(label, values[(n, variant)]["ready_s"] if values.get((n, variant)) else None, COLOURS[label])
                           for variant, label in variants])
    panel.band(1.2, 1.5, COLOURS["Kopf 1.44"], "Kopf 1.44: 1.2–1.5 s")
    svg.legend(70, 310, [(label, COLOURS[label], "box") for _, label in variants] + [("Kopf 1.44", COLOURS["Kopf 1.44"], "box")])
    return svg.save("startup.svg")


def daemons_and_timers(results):
    """RSS over N for N daemons and N timers; the timers' lag p99 and the daemons' deletion latency."""
    daemons = [(n, result["rows"][0]) for n, _, result in of(results, "daemons")]
    timers = [(n, result["rows"][0]) for n, _, result in of(results, "timers")]
    sizes = sorted({n for n, _ in daemons} | {n for n, _ in timers})
    if not sizes:
        return None
    categories = [f"N = {label_n(n)}" for n in sizes]
    svg = Svg(820, 330, "Daemons and timers over N")
    rss = Panel(svg, 70, 60, 300, 200, nice_max(max(found["rss_mib"] for _, found in daemons + timers)), "RSS MiB",
                categories, "idle RSS MiB (goal ≤ 250 daemons, ≤ 90 timers)")
    rss.series([(sizes.index(n), found["rss_mib"]) for n, found in daemons], COLOURS["daemons"], "daemons")
    rss.series([(sizes.index(n), found["rss_mib"]) for n, found in timers], COLOURS["timers"], "timers")
    lags = [found.get("lag_p99_ms") for _, found in timers] + [found.get("delete_latency_max_s") for _, found in daemons]
    lag = Panel(svg, 490, 60, 300, 200, nice_max(max([value for value in lags if value is not None] + [20])), "ms / s",
                categories, "timers' lag p99 ms; daemons' deletion max s")
    lag.hline(20, COLOURS["timers"], "goal: p99 ≤ 20 ms")
    lag.series([(sizes.index(n), found["lag_p99_ms"]) for n, found in timers], COLOURS["timers"], "timers' lag p99 ms")
    lag.series([(sizes.index(n), found["delete_latency_max_s"]) for n, found in daemons if "delete_latency_max_s" in found],
               COLOURS["daemons"], "daemons: DELETE to DELETED max s", dash="5,3")
    svg.legend(70, 310, [("daemons", COLOURS["daemons"], "line"), ("timers", COLOURS["timers"], "line"),
                         ("daemons' deletion max s", COLOURS["daemons"], "dash")])
    return svg.save("daemons-timers.svg")


def big_cluster(results):
    """The big-cluster benchmark per N: ready, M handled, peak RSS, CPU, bytes received, by operator."""
    runs = [(n, result) for n, _, result in of(results, "bigcluster")]
    if not runs:
        return None
    operators = [name for name in ("kopf4j", "kopf4j-selector", "kopf") if any(row(result, name) for _, result in runs)]
    figures = [("ready_s", "spawn → ready s"), ("create_s", "M created → handled s"), ("peak_rss_mib", "peak RSS MiB"),
               ("cpu_s", "CPU s"), ("received_mib", "received MiB")]
    categories = [f"N = {label_n(n)}, M = {row(result, operators[0])['m'] if row(result, operators[0]) else '?'}"
                  for n, result in runs]
    svg = Svg(40 + 195 * len(figures), 330, f"A big cluster: N Pods, M of them handled ({source(runs[-1][1])}; lower is better)")
    for number, (figure, title) in enumerate(figures):
        y_max = nice_max(max(row(result, name)[figure] for _, result in runs for name in operators if row(result, name)))
        panel = Panel(svg, 60 + 195 * number, 60, 145, 200, y_max, "", categories, title)
        for index, (_, result) in enumerate(runs):
            panel.bars(index, [(name, row(result, name)[figure] if row(result, name) else None, COLOURS[name])
                               for name in operators])
    svg.legend(60, 310, [(name, COLOURS[name], "box") for name in operators])
    return svg.save("big-cluster.svg")


def main():
    results = load_results()
    if not results:
        sys.exit(f"no result files in {RESULTS}: run a benchmark first (bench/README.md)")
    for chart in (load_phases, load_cpu_startup, rss_over_n, startup_chart, daemons_and_timers, big_cluster):
        written = chart(results)
        print(f"{chart.__name__}: {os.path.relpath(written, ROOT) if written else 'no results for it'}")


if __name__ == "__main__":
    main()
