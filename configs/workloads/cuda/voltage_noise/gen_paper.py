#!/usr/bin/python3
"""Paper-scale inputs of the voltage-noise suite, generated on demand (`gpupm
run --scale paper`; the protocol is ../paper_scale.py and ../README.md,
"Scales"). Each program's function takes the original's input (the CUDA SDK's
and Rodinia's defaults) as keyword defaults; the workload's "args" hold the
cuts the time budget forces, and README.md beside this file says per program
what the original ran, what we run and why. Draws come from paper_scale.Rng,
and the few transcendental constants are built from sqrt and series (the same
bytes on every machine).
By hand: /usr/bin/python3 gen_paper.py OUT_DIR PROGRAM [NAME=VALUE ...]
"""

import numpy as np

from gen_inputs import JPEG_LUMINANCE
from paper_scale import Rng, blocks, main, random_init


def exp_small(x, terms=24):
    """e^x for |x| < 1 by its Taylor series (Horner: only + * /, so bit-stable)."""
    total = np.ones_like(x)
    for k in range(terms, 0, -1):
        total = 1.0 + x * total / k
    return total


def cos_pi16(m):
    """cos(m pi / 16) for integer arrays m, from nested square roots (no cos)."""
    r2 = np.sqrt(2.0)
    first = np.array([1.0, np.sqrt(2 + np.sqrt(2 + r2)) / 2, np.sqrt(2 + r2) / 2, np.sqrt(2 + np.sqrt(2 - r2)) / 2,
                      r2 / 2, np.sqrt(2 - np.sqrt(2 - r2)) / 2, np.sqrt(2 - r2) / 2, np.sqrt(2 - np.sqrt(2 + r2)) / 2,
                      0.0])  # cos(k pi / 16), k = 0..8
    m = np.asarray(m) % 32
    m = np.where(m > 16, 32 - m, m)  # cos is even about 0 and 2 pi
    return np.where(m > 8, -first[np.clip(16 - m, 0, 8)], first[np.clip(m, 0, 8)])


def blackscholes(out, options=4000000, iterations=512):
    """SDK BlackScholes: 4,000,000 options (price 5-30, strike 1-100, 0.25-10
    years; rate 2%, volatility 30%), 512 iterations of the kernel on 480 x 128
    grid-stride threads (the SDK's launch before CUDA 5.5)."""
    out.buffer("call", "f32", options)
    out.buffer("put", "f32", options)
    out.buffer("price", "f32", options, random_init(5.0, 30.0, 192))
    out.buffer("strike", "f32", options, random_init(1.0, 100.0, 193))
    out.buffer("years", "f32", options, random_init(0.25, 10.0, 194))
    out.launch("black_scholes", [480], [128], ["call", "put", "price", "strike", "years", options, 0.02, 0.30],
               repeat=iterations)
    out.facts.update(options=options, iterations=iterations)
    out.write("SDK BlackScholes: %d options, %d iterations" % (options, iterations))


def filter_passes(out, rows, cols, taps_seed, passes):
    """The 17 taps, then `passes` times the row filter and the column filter (each launch a tuple)."""
    out.buffer("taps", "f32", 17, random_init(0.0, 0.125, taps_seed))
    for _ in range(passes):
        out.launch(*rows)
        out.launch(*cols)


def convolution_separable(out, width=3072, height=3072, passes=17):
    """SDK convolutionSeparable as GPGPU-Sim's SDK runs it (`--size 3072`): a
    3072 x 3072 image, radius 8, a warm-up and 16 timed passes of rows then columns."""
    out.buffer("src", "f32", width * height, random_init(0.0, 16.0, 195))
    out.buffer("tmp", "f32", width * height)
    out.buffer("dst", "f32", width * height)
    rows = ("convolution_rows", [width // 128, height // 4], [16, 4], ["tmp", "src", "taps", width, height])
    cols = ("convolution_columns", [width // 16, height // 64], [16, 8], ["dst", "tmp", "taps", width, height])
    filter_passes(out, rows, cols, 196, passes)
    out.facts.update(image="%dx%d" % (width, height), passes=passes)
    out.write("SDK convolutionSeparable: a %d x %d image, 17 taps, %d passes of rows then columns"
              % (width, height, passes))


def convolution_texture(out, width=3072, height=1536, passes=10):
    """SDK convolutionTexture: a 3072 x 1536 image, radius 8, 10 passes of rows
    then columns, 16 x 12 blocks."""
    out.buffer("src", "f32", width * height, random_init(0.0, 16.0, 197))
    out.buffer("tmp", "f32", width * height)
    out.buffer("dst", "f32", width * height)
    grid = [width // 16, height // 12]
    rows = ("convolution_rows_tex", grid, [16, 12], ["tmp", "src", "taps", width, height])
    cols = ("convolution_columns_tex", grid, [16, 12], ["dst", "tmp", "taps", width, height])
    filter_passes(out, rows, cols, 198, passes)
    out.facts.update(image="%dx%d" % (width, height), passes=passes)
    out.write("SDK convolutionTexture: a %d x %d image, 17 taps, %d passes of rows then columns"
              % (width, height, passes))


def dct8x8(out, width=512, height=512, benchmark=10):
    """SDK dct8x8 on teapot512.bmp's size (512 x 512; pixels random here): the
    forward DCT BENCHMARK_SIZE (10) times, quantisation, the inverse DCT."""
    u, x = np.meshgrid(np.arange(8), np.arange(8), indexing="ij")
    scale = np.where(u == 0, np.sqrt(1.0 / 8.0), 0.5)
    out.array("basis", "f32", scale * cos_pi16((2 * x + 1) * u))
    out.array("table", "f32", JPEG_LUMINANCE)
    out.buffer("src", "f32", width * height, random_init(0.0, 256.0, 199))
    out.buffer("coefficients", "f32", width * height)
    out.buffer("dst", "f32", width * height)
    grid = [width // 8, height // 8]
    out.launch("dct8x8_forward", grid, [8, 8], ["coefficients", "src", "basis", width], repeat=benchmark)
    out.launch("dct8x8_quantize", grid, [8, 8], ["coefficients", "table", width])
    out.launch("dct8x8_inverse", grid, [8, 8], ["dst", "coefficients", "basis", width])
    out.facts.update(image="%dx%d" % (width, height), forward=benchmark)
    out.write("SDK dct8x8: a %d x %d image, the forward DCT %d times, quantisation, the inverse DCT"
              % (width, height, benchmark))


def binomial_options(out, options=1024, steps=512, seed=200, rate=0.06, volatility=0.10):
    """SDK binomialOptions: 1,024 options (price 5-30, strike 1-100, 0.25-10
    years; rate 6%, volatility 10%), one 128-thread block each; the tree's
    steps are binomial_options.cu's constant (512; the SDK's 2048)."""
    rng = Rng(seed)
    price, strike, years = rng.uniform(5.0, 30.0, options), rng.uniform(1.0, 100.0, options), rng.uniform(
        0.25, 10.0, options)
    dt = years / steps
    v_dt = volatility * np.sqrt(dt)
    growth, discount = exp_small(rate * dt), exp_small(-rate * dt)
    up, down = exp_small(v_dt), exp_small(-v_dt)
    pu = (growth - down) / (up - down)
    out.buffer("call", "f32", options)
    out.buffer("leaves", "f32", options * (steps + 1))
    for name, values in (("price", price), ("strike", strike), ("v_dt", v_dt), ("pu_by_df", pu * discount),
                         ("pd_by_df", (1.0 - pu) * discount)):
        out.array(name, "f32", values)
    out.launch("binomial_options", [options], [128], ["call", "leaves", "price", "strike", "v_dt", "pu_by_df",
                                                      "pd_by_df"])
    out.facts.update(options=options, steps=steps)
    out.write("SDK binomialOptions: %d options on %d-step trees" % (options, steps))


def nn(out, records=42764, lat=30.0, lng=90.0, seed=191):
    """Rodinia nn `filelist_4 -r 5 -lat 30 -lng 90`: hurricane_gen's 4 files of
    10,691 records, latitude uniform in [7, 70), longitude in [0, 358)."""
    rng = Rng(seed)
    points = np.stack([7.0 + 63.0 * rng.random(records), 358.0 * rng.random(records)], axis=1)
    out.array("records", "f32", points.reshape(-1))
    out.buffer("distances", "f32", records)
    out.launch("euclid", [blocks(records, 256)], [256], ["records", "distances", records, lat, lng])
    out.facts.update(records=records)
    out.write("Rodinia nn: %d hurricane records, distances to (%g, %g)" % (records, lat, lng))


PROGRAMS = {"binomial_options": binomial_options, "blackscholes": blackscholes,
            "convolution_separable": convolution_separable, "convolution_texture": convolution_texture,
            "dct8x8": dct8x8, "nn": nn}

if __name__ == "__main__":
    main(PROGRAMS)
