#!/usr/bin/python3
"""Writes the voltage-noise suite's input files: dct8x8's DCT basis and JPEG
luminance quantisation table, and binomial_options' per-option parameters
(computed in double as the SDK's host code does, stored as float32).

Deterministic (numpy's PCG64 with a fixed seed; .npy through numpy.save).
Run from anywhere:  /usr/bin/python3 configs/workloads/cuda/voltage_noise/gen_inputs.py
"""
import os

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))

# The JPEG standard's luminance quantisation table (ITU-T T.81, Annex K).
JPEG_LUMINANCE = [
    16, 11, 10, 16, 24, 40, 51, 61,
    12, 12, 14, 19, 26, 58, 60, 55,
    14, 13, 16, 24, 40, 57, 69, 56,
    14, 17, 22, 29, 51, 87, 80, 62,
    18, 22, 37, 56, 68, 109, 103, 77,
    24, 35, 55, 64, 81, 104, 113, 92,
    49, 64, 78, 87, 103, 121, 120, 101,
    72, 92, 95, 98, 112, 100, 103, 99,
]


def save(folder, name, values):
    np.save(os.path.join(HERE, folder, name + ".npy"), np.asarray(values, dtype=np.float32).reshape(-1))


def dct_inputs():
    u, x = np.meshgrid(np.arange(8), np.arange(8), indexing="ij")
    scale = np.where(u == 0, np.sqrt(1.0 / 8.0), np.sqrt(2.0 / 8.0))
    save("dct8x8", "basis", scale * np.cos((2 * x + 1) * u * np.pi / 16.0))
    save("dct8x8", "quantization", JPEG_LUMINANCE)


def binomial_inputs(options=64, steps=512, rate=0.06, volatility=0.10):
    rng = np.random.default_rng(200)
    price = rng.uniform(5.0, 30.0, options)
    strike = rng.uniform(1.0, 100.0, options)
    years = rng.uniform(0.25, 10.0, options)
    dt = years / steps
    v_dt = volatility * np.sqrt(dt)
    growth, discount = np.exp(rate * dt), np.exp(-rate * dt)
    up, down = np.exp(v_dt), np.exp(-v_dt)
    pu = (growth - down) / (up - down)
    for name, values in [("price", price), ("strike", strike), ("v_dt", v_dt),
                         ("pu_by_df", pu * discount), ("pd_by_df", (1.0 - pu) * discount)]:
        save("binomial_options", name, values)


if __name__ == "__main__":
    dct_inputs()
    binomial_inputs()
