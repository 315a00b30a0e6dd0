# Draws what `pt2fuzz plot` (cli/plot.c) decided: it reads a JSON figure from
# stdin (size, title, panels of series, each with its points and axis rules)
# and writes the PNG to stdout. No path is opened: a chroot'd Python works too.
import io
import json
import sys

try:
    import matplotlib
except ImportError:
    sys.exit(3)  # plot.c tells how to install it
matplotlib.use("Agg")
from matplotlib import pyplot
from matplotlib.ticker import MaxNLocator

fig_spec = json.load(sys.stdin.buffer)
dpi = 100
fig, axes = pyplot.subplots(2, 2, figsize=(fig_spec["width"] / dpi, fig_spec["height"] / dpi), dpi=dpi)
fig.suptitle(fig_spec["title"], fontsize=14)
for ax, panel in zip(axes.flat, fig_spec["panels"]):
    ax.set_title(panel["title"], loc="left")
    ax.set_xlabel(fig_spec["xlabel"])
    ax.grid(True, color="#e1e1e1")
    for series in panel["series"]:
        ax.plot(series["x"], series["y"], label=series["name"], linewidth=1.5)
    if panel["zero_based"]:
        ax.set_ylim(bottom=0)
    if panel["integer"]:
        ax.yaxis.set_major_locator(MaxNLocator(integer=True))
    if len(panel["series"]) > 1:
        ax.legend(loc="upper left", fontsize=8)
for ax in list(axes.flat)[len(fig_spec["panels"]):]:
    ax.set_visible(False)
fig.tight_layout()
png = io.BytesIO()
fig.savefig(png, format="png", dpi=dpi)
data = memoryview(png.getvalue())
while data:  # stdout is unbuffered (python -u): a write may take part of it
    data = data[sys.stdout.buffer.write(data):]
