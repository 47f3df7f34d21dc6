#!/usr/bin/env python3
"""Writes the seed corpus tests/fuzz/corpus/<target>/<name>: a handful of hand-made inputs
per harness (defaults, sizes 1x1 / 1xN / Nx1 / odd / 64k pixels, range ends, cancellation,
invalid values), spelled in the byte layout the harnesses decode (fuzz-common.h). The
fuzzers grow their own corpus from these; run-fuzz works on a copy.

    python3 tests/fuzz/make-seeds.py      (from anywhere; rewrites the seed files)
"""
import os
import struct
import sys

HERE = os.path.dirname(os.path.abspath(__file__))


def u8(*v):
    return bytes(x & 0xFF for x in v)


def u16(v):
    return struct.pack("<H", v & 0xFFFF)


def u32(v):
    return struct.pack("<I", v & 0xFFFFFFFF)


def f32(v):
    return struct.pack("<f", v)


def f64(v):
    return struct.pack("<d", v)


# ---- fuzz_size ------------------------------------------------------------------------
def size_small(w, h):          # 1..16 a side
    return u8(0, w - 1, h - 1)


def size_1x1():
    return u8(4)


def size_1xn(n):               # n <= 4096
    return u8(5) + u16(n - 1)


def size_nx1(n):
    return u8(6) + u16(n - 1)


def size_odd(w, h):            # odd, 1..63
    return u8(7, (w + 1) // 2 - 1, (h + 1) // 2 - 1)


def size_any(w, h):            # w * h <= 4096
    return u8(10) + u16(w - 1) + u16(h - 1)


def size_40(w, h):             # 1..40 a side
    return u8(11, w - 1, h - 1)


def size_large(w, h):          # up to 65536 pixels
    if (w, h) == (65536, 1):
        return u8(63, 0)
    if (w, h) == (1, 65536):
        return u8(63, 1)
    return u8(63, 2) + u16(w - 1) + u16(h - 1)


def size_invalid(k):           # k odd: width bad[(k >> 1) % 6] (0, -1, INT_MIN, 524289, ...)
    return u8(15, k)


# ---- parameters -----------------------------------------------------------------------
DEFAULT, LOW, HIGH, JUST_ABOVE_LOW, JUST_BELOW_HIGH = 0, 1, 2, 3, 4


def d_sel(s):                  # a double: 0 default, 1 low end, 2 high end, 3/4 just inside
    return u8(s)


def d_uniform(fraction):       # a double at this fraction of its range
    return u8(9) + u32(int(fraction * 4294967295))


def d_raw(v):                  # any bits
    return u8(15) + f64(v)


def d_invalid(k):              # 0 NaN, 1 inf, 2 -inf, 3 -DBL_MAX, 4 DBL_MAX, 5 -1, ...
    return u8(14, k)


def i_sel(s):                  # an int: 0 default, 1 low, 2 high, 3 low + 1, 4 high - 1
    return u8(s)


def i_small(k):                # low + k, k < 16
    return u8(5, k)


def i_invalid(k):              # 0 low - 1, 1 high + 1, 2 INT_MIN, 3 INT_MAX, 4 -1, 5 0
    return u8(14, k)


def enum(i):
    return u8(i)


def enum_invalid():            # id n (one past the last)
    return u8(0xF0)


NO_CANCEL = u8(0)
LIGHT = u8(0)                  # not heavy


def cancel_at(report):         # the progress callback stops at this report (0..31)
    return u8(7 | (report << 3))


HEAVY = u8(63)

SEEDS = {}


def seed(target, name, data):
    SEEDS.setdefault(target, []).append((name, data))


# ---- diamond-square: size, cancel, seed, roughness, edges, corners, corner height,
#      subdivision, square half step, guide ---------------------------------------------
def ds(size, rough=d_sel(0), edges=0, corners=0, height=d_sel(0), sub=0, guide=b"\0",
       cancel=NO_CANCEL, s=1):
    return size + cancel + u32(s) + rough + enum(edges) + enum(corners) + height + \
        enum(sub) + u8(0) + guide


seed("diamond-square", "defaults-16x16", ds(size_small(16, 16)))
seed("diamond-square", "roughness0-wrap-33x17", ds(size_odd(33, 17), d_sel(LOW), edges=1))
seed("diamond-square", "roughness2-fixed-sea-65x65", ds(u8(8, 0x22, 0x22), d_sel(HIGH),
                                                         corners=1, height=d_sel(LOW)))
seed("diamond-square", "mirror-1x4096", ds(size_1xn(4096), edges=2))
seed("diamond-square", "wrap-4096x1", ds(size_nx1(4096), edges=1))
seed("diamond-square", "square-square-256x256", ds(size_large(256, 256), sub=1, edges=1))
seed("diamond-square", "guided-scale1-40x40", ds(size_40(40, 40), guide=u8(3, 1, 1) + u32(5)))
seed("diamond-square", "nan-roughness", ds(size_small(4, 4), d_invalid(0)))
seed("diamond-square", "cancel-first-report", ds(size_small(9, 9), cancel=cancel_at(0)))


# ---- field: size, cancel, seed, iterations, roughness, offset x, offset y, guide, compare
def offset(kind, small=0):     # 0 zero, 2 INT32_MIN, 4 last that fits, 5 first that does
    return u8(kind) + u16(small + 32768)   # not, 8 2^30 + small, 9 -2^30 + small


def field(size, iters=i_sel(0), rough=d_sel(0), ox=offset(0), oy=offset(0), guide=u8(0),
          compare=u8(0), cancel=NO_CANCEL, s=7):
    return size + cancel + u32(s) + iters + rough + ox + oy + guide + compare + \
        u16(1) + u16(1) + u16(5) + u16(5)


seed("field", "defaults-16x16", field(size_small(16, 16)))
seed("field", "iterations30-roughness0-1x4096", field(size_1xn(4096), i_sel(HIGH), d_sel(LOW)))
seed("field", "iterations1-roughness2-4096x1", field(size_nx1(4096), i_sel(LOW), d_sel(HIGH)))
seed("field", "offsets-plus-minus-2^30", field(size_odd(31, 17), ox=offset(8, 5), oy=offset(9, -3)))
seed("field", "world-edge-fits", field(size_small(8, 8), ox=offset(4), oy=offset(2)))
seed("field", "world-edge-leaves", field(size_small(8, 8), ox=offset(5)))
seed("field", "guided-scale1", field(size_small(12, 10), guide=u8(3, 0, 20, 20, 1, 3, 0, 2)
                                     + i_sel(LOW) + u8(0, 1) + u32(3)))
seed("field", "large-256x256", field(size_large(256, 256), i_sel(HIGH)))


# ---- fault: size, heavy, cancel, seed, iterations, profile, wave size, displacement start,
#      end, decay ------------------------------------------------------------------------
def fault(size, iters=i_sel(0), profile=0, wave=d_sel(0), start=d_sel(0), end=d_sel(0),
          decay=i_sel(0), heavy=LIGHT, cancel=NO_CANCEL, s=3):
    return size + heavy + cancel + u32(s) + iters + enum(profile) + wave + start + end + decay


seed("fault", "defaults-1x1", fault(size_1x1()))
seed("fault", "defaults-40x40", fault(size_40(40, 40)))
seed("fault", "sine-max-wave-odd", fault(size_odd(63, 5), profile=1, wave=d_sel(HIGH)))
seed("fault", "cosine-tiny-wave", fault(size_small(16, 16), profile=2, wave=d_sel(JUST_ABOVE_LOW)))
seed("fault", "max-iterations-heavy", fault(size_small(16, 16), i_sel(HIGH), heavy=HEAVY))
seed("fault", "zero-displacement", fault(size_1xn(300), start=d_sel(LOW), end=d_sel(LOW)))
seed("fault", "max-displacement-no-decay", fault(size_nx1(1000), start=d_sel(HIGH),
                                                 end=d_sel(HIGH), decay=i_sel(LOW)))
seed("fault", "zero-wave-invalid", fault(size_small(3, 3), profile=1, wave=u8(13)))


# ---- circles: size, heavy, cancel, raw, seed, iterations, diameter, direction, start, end,
#      decay ------------------------------------------------------------------------------
def circles(size, raw=0, iters=i_sel(0), diameter=d_sel(0), direction=0, start=d_sel(0),
            end=d_sel(0), decay=i_sel(0), heavy=LIGHT, cancel=NO_CANCEL, s=11):
    return size + heavy + cancel + u8(raw) + u32(s) + iters + diameter + enum(direction) + \
        start + end + decay


seed("circles", "defaults-40x40", circles(size_40(40, 40)))
seed("circles", "raw-raise-one-circle", circles(size_small(16, 16), 1, i_sel(LOW), direction=1))
seed("circles", "raw-lower", circles(size_odd(31, 31), 1, i_small(7), direction=2))
seed("circles", "max-diameter-1x4096", circles(size_1xn(4096), diameter=d_sel(HIGH)))
seed("circles", "tiny-diameter", circles(size_small(5, 5), diameter=d_sel(JUST_ABOVE_LOW)))
seed("circles", "max-iterations-heavy", circles(size_small(8, 8), iters=i_sel(HIGH), heavy=HEAVY))
seed("circles", "no-decay", circles(size_nx1(64), 1, i_sel(LOW), direction=1, decay=i_sel(LOW)))


# ---- particles: size, heavy, cancel, seed, particles, mode, sites, particle height,
#      caldera, normalize ---------------------------------------------------------------
def particles(size, count=i_sel(0), mode=0, sites=i_sel(0), height=d_sel(0), caldera=d_sel(0),
              normalize=0, heavy=LIGHT, cancel=NO_CANCEL, s=5):
    return size + heavy + cancel + u32(s) + count + enum(mode) + sites + height + caldera + \
        u8(normalize)


seed("particles", "defaults-40x40", particles(size_40(40, 40)))
seed("particles", "roll-raw-1x1", particles(size_1x1(), normalize=0x80))
seed("particles", "stick-raw-odd", particles(size_odd(17, 33), mode=1, normalize=0x80))
seed("particles", "caldera-1", particles(size_small(16, 16), i_small(15), caldera=d_sel(HIGH)))
seed("particles", "many-sites", particles(size_nx1(4096), sites=i_sel(HIGH)))
seed("particles", "max-height-raw", particles(size_small(7, 9), height=d_sel(HIGH), normalize=0x80))
seed("particles", "heavy-batch", particles(size_small(16, 16), i_sel(HIGH), heavy=HEAVY + u8(0)))


# ---- smooth: size, cancel, heavy, method, iterations, k, kernel, source, [custom],
#      heights, [text] --------------------------------------------------------------------
def heights_const(v):
    return u8(0) + u32(0) + f32(v)


def heights_checker_fltmax():
    return u8(3 | (1 << 3)) + u32(0)


def heights_noise():
    return u8(1) + u32(12345)


def smooth(size, method=0, iters=i_sel(0), k=d_sel(0), kernel=1, source=0, custom=b"",
           heights=heights_noise(), text=b"", cancel=NO_CANCEL, heavy=LIGHT):
    return size + cancel + heavy + enum(method) + iters + k + enum(kernel) + u8(source) + \
        custom + heights + text


seed("smooth", "laplacian-defaults", smooth(size_small(16, 16)))
seed("smooth", "laplacian-fltmax-checker", smooth(size_odd(9, 7), heights=heights_checker_fltmax()))
seed("smooth", "fir-k1-1x4096", smooth(size_1xn(4096), 1, k=d_sel(HIGH)))
seed("smooth", "fir-k0-4096x1", smooth(size_nx1(4096), 1, k=d_sel(LOW)))
seed("smooth", "matrix-gauss5-max-iterations", smooth(size_small(5, 5), 2, i_sel(HIGH), kernel=3))
seed("smooth", "matrix-custom-text", smooth(size_small(6, 6), 2, kernel=4,
                                            text=b"1, 2, 1, 2, 4, 2, 1, 2, 1"))
seed("smooth", "matrix-custom-5x5-text", smooth(size_40(11, 3), 2, kernel=4,
                                                text=b"1 4 6 4 1 4 16 24 16 4 6 24 36 24 6 "
                                                     b"4 16 24 16 4 1 4 6 4 1"))
seed("smooth", "matrix-edge-detector", smooth(size_small(8, 8), 2, kernel=4, source=2,
                                              custom=u8(0) + bytes([4, 3, 4, 3, 8, 3, 4, 3, 4]
                                                                   + [4] * 16)))
seed("smooth", "matrix-custom-nan", smooth(size_small(4, 4), 2, kernel=4, source=1,
                                           custom=u8(1) + f32(float("nan")) + f32(1.0) * 24))
seed("smooth", "invalid-method", smooth(size_small(4, 4), 0xF0))


# ---- thermal-erosion: size, cancel, heavy, iterations, talus, strength, neighbourhood,
#      heights -------------------------------------------------------------------------------
def thermal(size, iters=i_sel(0), talus=d_sel(0), strength=d_sel(0), nb=1,
            heights=heights_noise(), cancel=NO_CANCEL, heavy=LIGHT):
    return size + cancel + heavy + iters + talus + strength + enum(nb) + heights


seed("thermal-erosion", "defaults-16x16", thermal(size_small(16, 16)))
seed("thermal-erosion", "4-neighbours-talus0-strength1-odd",
     thermal(size_odd(31, 17), talus=d_sel(LOW), strength=d_sel(HIGH), nb=0))
seed("thermal-erosion", "fltmax-checker", thermal(size_odd(9, 7), heights=heights_checker_fltmax()))
seed("thermal-erosion", "talus1-1x4096", thermal(size_1xn(4096), talus=d_sel(HIGH)))
seed("thermal-erosion", "max-iterations-heavy", thermal(size_small(8, 8), i_sel(HIGH), heavy=HEAVY))
seed("thermal-erosion", "1x1", thermal(size_1x1()))
seed("thermal-erosion", "nan-talus", thermal(size_small(4, 4), talus=d_invalid(0)))
seed("thermal-erosion", "cancel-first-report", thermal(size_40(40, 40), cancel=cancel_at(0)))


# ---- hydraulic-erosion: size, cancel, heavy, seed, droplets, inertia, capacity, erosion,
#      deposition, evaporation, radius, max steps, heights ---------------------------------
def hydraulic(size, droplets=i_sel(0), inertia=d_sel(0), capacity=d_sel(0), erosion=d_sel(0),
              deposition=d_sel(0), evaporation=d_sel(0), radius=i_sel(0), steps=i_sel(0),
              heights=heights_noise(), cancel=NO_CANCEL, heavy=LIGHT, s=9):
    return size + cancel + heavy + u32(s) + droplets + inertia + capacity + erosion + \
        deposition + evaporation + radius + steps + heights


seed("hydraulic-erosion", "defaults-40x40", hydraulic(size_40(40, 40)))
seed("hydraulic-erosion", "ramp-radius8-64x64", hydraulic(size_large(64, 64), radius=i_sel(HIGH),
                                                          heights=u8(4) + u32(0)))
seed("hydraulic-erosion", "one-droplet-1x1", hydraulic(size_1x1(), i_small(1)))
seed("hydraulic-erosion", "no-droplets", hydraulic(size_small(9, 9), i_sel(LOW)))
seed("hydraulic-erosion", "ends-1x300", hydraulic(size_1xn(300), inertia=d_sel(HIGH),
                                                  capacity=d_sel(HIGH), erosion=d_sel(HIGH),
                                                  deposition=d_sel(HIGH), evaporation=d_sel(HIGH),
                                                  radius=i_sel(LOW), steps=i_sel(HIGH)))
seed("hydraulic-erosion", "zeros-300x1", hydraulic(size_nx1(300), inertia=d_sel(LOW),
                                                   capacity=d_sel(LOW), erosion=d_sel(LOW),
                                                   deposition=d_sel(LOW), evaporation=d_sel(LOW),
                                                   steps=i_sel(LOW)))
seed("hydraulic-erosion", "fltmax-checker",
     hydraulic(size_odd(15, 9), heights=heights_checker_fltmax()))
seed("hydraulic-erosion", "max-droplets-heavy",
     hydraulic(size_small(16, 16), i_sel(HIGH), heavy=HEAVY))
seed("hydraulic-erosion", "capacity-beyond", hydraulic(size_small(5, 5), capacity=d_invalid(8)))


# ---- river-erosion: heavy, size, cancel, iterations, erosion, m, n, diffusion, uplift,
#      edges, sea level, maps, threads, shape, heights, [bowl depth], poison, [where] --------
def heights_raw(*values):      # these floats, repeated over the layer
    return u8(2) + u32(0) + b"".join(f32(v) for v in values)


def poison(kind, where):       # kind 0 NaN, 1 -NaN, 2 inf, 3 -inf, 4 signalling NaN, 5 NaN
    return u8(15 | (kind << 4)) + u32(where)


def river(size, iters=i_sel(0), erosion=d_sel(0), m=d_sel(0), n=d_sel(0), diffusion=d_sel(0),
          uplift=0, edges=0, sea=d_sel(0), maps=0, threads=0, shape=0, heights=heights_noise(),
          bowl=b"", bad=u8(0), cancel=NO_CANCEL, heavy=LIGHT):
    # maps: 0 all three, 8 + bits a subset, 15 none; shape: 3 values in [0, 1], 0x10 a bowl
    # (0x20: of depth 1, else `bowl` is its depth's float)
    return heavy + size + cancel + iters + erosion + m + n + diffusion + enum(uplift) + \
        enum(edges) + sea + u8(maps, threads, shape) + heights + bowl + bad


seed("river-erosion", "defaults-32x32", river(size_40(32, 32), shape=3))
seed("river-erosion", "defaults-1x1", river(size_1x1()))
seed("river-erosion", "uplift-wrap-sea-16x16", river(size_small(16, 16), uplift=1, edges=1,
                                                     sea=d_uniform(0.3), shape=3))
seed("river-erosion", "uplift-open-33x17", river(size_odd(33, 17), i_small(12), uplift=1,
                                                 shape=3, threads=1))
seed("river-erosion", "fill-only-bowl-odd", river(size_odd(31, 17), erosion=d_sel(LOW),
                                                  diffusion=d_sel(LOW), shape=3 | 0x30))
seed("river-erosion", "fill-only-huge-and-tiny",
     river(size_small(9, 7), erosion=d_sel(LOW), diffusion=d_sel(LOW),
           heights=heights_raw(3e38, 1e-30, -3e38, 1e-45, 0.5, -1e-30, 2.5e38)))
seed("river-erosion", "fltmax-checker-wrap", river(size_odd(9, 7), edges=1,
                                                   heights=heights_checker_fltmax()))
seed("river-erosion", "subnormal-noise", river(size_small(12, 12), heights=u8(1 | (5 << 3))
                                               + u32(77)))
seed("river-erosion", "ends-1x300", river(size_1xn(300), i_small(3), d_sel(HIGH), d_sel(HIGH),
                                          d_sel(HIGH), d_sel(HIGH), sea=d_sel(HIGH)))
seed("river-erosion", "lows-300x1", river(size_nx1(300), i_small(3), d_sel(JUST_ABOVE_LOW),
                                          d_sel(LOW), d_sel(LOW), d_sel(JUST_ABOVE_LOW)))
seed("river-erosion", "slope-exponent-4-wrap-uplift", river(size_small(10, 14), i_small(6),
                                                            d_sel(HIGH), n=d_sel(HIGH),
                                                            uplift=1, edges=1, shape=3))
seed("river-erosion", "flow-map-only-2x40", river(u8(9, 0) + u16(39) + u8(0), maps=9))
seed("river-erosion", "no-maps", river(size_small(8, 8), maps=15))
seed("river-erosion", "nan-height", river(size_small(6, 6), bad=poison(0, 17)))
seed("river-erosion", "inf-height-uplift", river(size_small(6, 6), uplift=1, bad=poison(2, 3)))
seed("river-erosion", "invalid-edges", river(size_small(4, 4), edges=0xF0))
seed("river-erosion", "sea-beyond", river(size_small(4, 4), sea=d_invalid(8)))
seed("river-erosion", "cancel-first-report", river(size_40(32, 32), cancel=cancel_at(0)))
seed("river-erosion", "max-iterations-heavy", river(size_small(16, 16), i_sel(HIGH), heavy=HEAVY))
seed("river-erosion", "one-step-64x64-heavy", river(size_large(64, 64), i_sel(LOW),
                                                    heavy=HEAVY, shape=3))
seed("river-erosion", "one-step-1x8192-wrap-heavy",   # drainage areas beyond 4096 cells
     river(size_large(1, 8192), i_sel(LOW), edges=1, heavy=HEAVY, shape=3))
SEA_BETWEEN = 1.2345012290596877e-20   # a float: 2^-64 of it is 477574.53 subnormal steps
seed("river-erosion", "huge-map-sea-between-subnormals",
     river(size_small(6, 5), sea=d_raw(SEA_BETWEEN),
           heights=heights_raw(3e38, SEA_BETWEEN, 0.5, SEA_BETWEEN, 1e-30, -2e38)))


# ---- kernel-parse: the text itself ------------------------------------------------------
for name, text in [
    ("gauss3", b"1 2 1 2 4 2 1 2 1"),
    ("commas", b"1,2,1,2,4,2,1,2,1"),
    ("comma-space", b" 1 , 1 , 1 , 1 , 1 , 1 , 1 , 1 , 1 "),
    ("gauss5", b"1 4 6 4 1\n4 16 24 16 4\n6 24 36 24 6\n4 16 24 16 4\n1 4 6 4 1"),
    ("exponents", b"1e-2 .25 -0.5 +3 2E+1 1.e0 0.5e1 7 8"),
    ("edge-detector-sum0", b"0 -1 0 -1 4 -1 0 -1 0"),
    ("flt-max", b"3.4028234e38 1 1 1 1 1 1 1 1"),
    ("overflow", b"3.5e38 1 1 1 1 1 1 1 1"),
    ("long-digits", b"0.000000000000000000000000000000000000000000001 "
                    b"123456789012345678901234567890 1 1 1 1 1 1 1"),
    ("trailing-comma", b"1 2 1 2 4 2 1 2 1,"),
    ("nan", b"nan 1 1 1 1 1 1 1 1"),
    ("eight", b"1 1 1 1 1 1 1 1"),
]:
    seed("kernel-parse", name, text)


# ---- hillshade: size, azimuth, elevation, z scale, flat, heights -------------------------
def angle(v):
    return u8(3) + u32(int(v * 4294967295))


seed("hillshade", "defaults-16x16", size_small(16, 16) + u8(0, 0, 0, 1) + heights_noise())
seed("hillshade", "flat-overhead", size_odd(15, 9) + u8(0) + u8(1 | (10 << 3)) + u8(0, 0)
     + heights_const(0.25))
seed("hillshade", "fltmax-checker", size_small(9, 9) + u8(0, 0, 0, 1) + heights_checker_fltmax())
seed("hillshade", "nan-z-scale", size_1xn(100) + u8(0, 0, 1 | (2 << 3), 1) + heights_noise())
seed("hillshade", "huge-z-1x1", size_1x1() + u8(0, 0) + u8(1 | (5 << 3)) + u8(1) + heights_noise())
seed("hillshade", "zero-width", size_invalid(1) + u8(0, 0, 0, 0))
# One pixel in ten the smallest subnormal: the slopes beside them (half of it) are 0 as
# floats, which made the relief's contrast scale infinite.
seed("hillshade", "regression-subnormal-spikes", size_1xn(4096) + u8(0, 0, 0, 1)
     + heights_raw(1e-45, *[0.0] * 9))


# ---- procedures: procedure, heavy, size, cancel, layer kind, one value per argument,
#      [layer heights], sub-rectangle, [text] ---------------------------------------------
def proc(index, size, args=b"", tail=b"", heavy=LIGHT, layer=u8(1)):
    return u8(index) + heavy + size + NO_CANCEL + layer + args + tail


seed("procedures", "diamond-square-defaults", proc(0, size_small(16, 16), b"\0" * 12))
seed("procedures", "field-ends", proc(1, size_odd(31, 15), u8(0, 2, 1, 2, 1, 0, 0)
                                      + u16(3) + u16(2) + u16(7) + u16(4)))
seed("procedures", "fault-max", proc(2, size_small(16, 16), u8(0, 2, 2, 2, 2, 2, 2)))
seed("procedures", "circles-min", proc(3, size_1xn(64), u8(1, 1, 1, 1, 1, 1, 1)))
seed("procedures", "particles-defaults", proc(4, size_small(8, 8), b"\0" * 6))
seed("procedures", "smooth-custom-text", proc(5, size_small(7, 7), u8(2, 0, 0, 4, 1)
                                              + heights_noise() + b"\0" * 8,
                                              b"1 2 1 2 4 2 1 2 1"))
seed("procedures", "smooth-fir-1x4096", proc(5, size_1xn(4096), u8(1, 2, 2, 0, 0)
                                             + heights_noise()))


def main():
    total = 0
    for target, seeds in SEEDS.items():
        d = os.path.join(HERE, "corpus", target)
        os.makedirs(d, exist_ok=True)
        for old in os.listdir(d):
            if not old.startswith("regression-"):   # findings, not written here: kept
                os.remove(os.path.join(d, old))
        for name, data in seeds:
            with open(os.path.join(d, name), "wb") as f:
                f.write(data)
            total += len(data)
    print("make-seeds: %d seeds, %d bytes" % (sum(len(s) for s in SEEDS.values()), total),
          file=sys.stderr)


if __name__ == "__main__":
    main()
