"""Plot pieces the experiment scripts share (imported from the scripts' own folder)."""
import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402


def grouped_bars(labels, series, ylabel, path, ref=None, per_label=0.9, rotation=30, fontsize=None):
    """One group of bars per label, one bar per (name, values) series; ref draws a horizontal line."""
    width = 0.8 / len(series)
    fig, ax = plt.subplots(figsize=(max(9, len(labels) * per_label), 4.4))
    for i, (name, vals) in enumerate(series):
        ax.bar([j + i * width for j in range(len(labels))], vals, width, label=name)
    if ref is not None:
        ax.axhline(ref, color="black", linewidth=0.8)
    ax.set_xticks([j + 0.4 - width / 2 for j in range(len(labels))])
    ax.set_xticklabels(labels, rotation=rotation, ha="center" if rotation == 90 else "right", fontsize=fontsize)
    ax.set_ylabel(ylabel)
    ax.legend(fontsize=8, ncol=min(len(series), 4))
    fig.tight_layout()
    fig.savefig(path, dpi=110)
    plt.close(fig)


def panel_grid(count, cols=4, width=4.0, height=2.6):
    """A figure of `count` small panels, `cols` a row: (fig, flat list of the used axes); the rest are hidden."""
    rows = max(1, -(-count // cols))
    fig, axes = plt.subplots(rows, cols, figsize=(width * cols, height * rows), squeeze=False)
    flat = [a for row in axes for a in row]
    for ax in flat[count:]:
        ax.axis("off")
    return fig, flat[:count]


def save_grid(fig, title, path, dpi=100):
    """Titles, lays out, writes and closes a panel_grid figure."""
    fig.suptitle(title, fontsize=10)
    fig.tight_layout()
    fig.savefig(path, dpi=dpi)
    plt.close(fig)
