"""Final-buffer comparison of gpupm and GPGPU-Sim.

Integer buffers must be byte-identical. Float buffers are compared element by
element with a relative + absolute tolerance, because GPGPU-Sim 4.0 executes
`fma.rn.f32`/`fma.rn.f64` as `a * b + c` with two roundings (`mad_def`,
cuda-sim/instructions.cc) where gpupm fuses as PTX specifies: a result may
differ in its last bits, and a difference grows through later arithmetic. A
sum of many products (a dot product, a stencil) carries rounding errors of the
size of its terms, not of its result: where it cancels to near zero the
relative difference is large (matmul_tiled: 6.2e-6 on results near 2e-4). So
an element passes when both are NaN, or equal, or
    |a - b| <= TOL * (max(|a|, |b|) + M)
M the largest finite magnitude in gpupm's buffer (the scale of the terms its
results are made of), TOL = 1e-5 for f32 (about 80 ulp) and 1e-12 for f64. A
wrong element (a lost update, a wrong index) differs by the order of the
values, far beyond it.
"""
import math

import npy

TOLERANCE = {"f32": 1e-5, "f64": 1e-12}


def _difference(a, b):
    """(absolute, relative) difference of two finite or infinite floats; NaN pairs differ by 0."""
    if a == b or (math.isnan(a) and math.isnan(b)):
        return 0.0, 0.0
    if math.isnan(a) or math.isnan(b) or math.isinf(a) or math.isinf(b):
        return math.inf, math.inf
    diff = abs(a - b)
    return diff, diff / max(abs(a), abs(b))


def compare(type_name, ours, theirs):
    """The verdict on one buffer (gpupm's bytes, GPGPU-Sim's bytes), a JSON-ready dict:
    match ("identical", "within_tolerance", "differs"), elements, differing (elements not
    bit-identical), beyond_tolerance, worst_abs, worst_rel, first_beyond (index or None)."""
    verdict = {"type": type_name, "match": "identical", "elements": len(ours) // npy.ITEM_BYTES[type_name],
               "differing": 0, "beyond_tolerance": 0, "worst_abs": 0.0, "worst_rel": 0.0, "first_beyond": None}
    if ours == theirs:
        return verdict
    if len(ours) != len(theirs):
        verdict.update(match="differs", detail=f"{len(ours)} bytes vs {len(theirs)}")
        return verdict
    a, b = npy.values(type_name, ours), npy.values(type_name, theirs)
    tol = TOLERANCE.get(type_name, 0.0)
    is_float = type_name in TOLERANCE
    scale = max((abs(x) for x in a if math.isfinite(x)), default=0.0) if is_float else 0.0
    verdict["scale"] = scale
    for i, (x, y) in enumerate(zip(a, b)):
        if x == y:
            continue
        d_abs, d_rel = _difference(x, y) if is_float else (abs(x - y), abs(x - y) / max(abs(x), abs(y)))
        if d_abs == 0.0:
            continue
        verdict["differing"] += 1
        verdict["worst_abs"] = max(verdict["worst_abs"], d_abs)
        verdict["worst_rel"] = max(verdict["worst_rel"], d_rel)
        if not (is_float and math.isfinite(d_abs) and d_abs <= tol * (max(abs(x), abs(y)) + scale)):
            verdict["beyond_tolerance"] += 1
            if verdict["first_beyond"] is None:
                verdict["first_beyond"] = i
    if verdict["differing"]:
        verdict["match"] = "differs" if verdict["beyond_tolerance"] else "within_tolerance"
    return verdict


def describe(name, verdict):
    """One line for people."""
    if verdict["match"] == "identical":
        return f"buffer {name}: identical"
    if "detail" in verdict:
        return f"buffer {name}: differs ({verdict['detail']})"
    return (f"buffer {name}: {verdict['match']}: {verdict['differing']} of {verdict['elements']} elements differ, "
            f"{verdict['beyond_tolerance']} beyond tolerance (worst abs {verdict['worst_abs']:.3g}, "
            f"worst rel {verdict['worst_rel']:.3g})")
