/* Shared by the libFuzzer harnesses of tests/fuzz: decoding input bytes into parameters
 * across their full documented ranges (extremes, just inside, just outside, NaN/inf, raw
 * bits), layer sizes (1x1, 1xN, Nx1, odd, powers of two +- 1, invalid), heightmaps of any
 * finite values, a progress callback that cancels after a decoded number of reports or a
 * wall-clock budget (so no execution hangs), and the invariant checks every harness makes.
 *
 * An input is read front to back; past its end every byte reads as 0, which decodes to
 * the documented default of each parameter (so an empty input renders the defaults on a
 * 1x1 layer). A violated invariant prints what failed and aborts: libFuzzer records the
 * input as a crash.
 *
 * Environment: FUZZ_VERBOSE (set) prints what each execution decoded before running it,
 * to read a reproducer's parameters even when a sanitizer stops the run.
 * FUZZ_DEADLINE_MS (default 250) is the wall-clock budget of one call into the core; past
 * it the progress callback asks to stop. It only bounds the time of an execution: the
 * outcome checks are the same whether a call was cancelled by count or by time.
 */
#ifndef TERRAIN_FUZZ_COMMON_H
#define TERRAIN_FUZZ_COMMON_H

#ifndef _POSIX_C_SOURCE
#define _POSIX_C_SOURCE 200809L
#endif

#include "terrain-common.h"

#include <float.h>
#include <limits.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

/* Largest layer a harness renders: each execution stays in the milliseconds. */
#define FUZZ_MAX_PIXELS 65536

/* ---- Failing ---------------------------------------------------------------------- */

/* What the current execution decoded, printed with a violated invariant (FUZZ_DESCRIBE). */
static char fuzz_context[1024];

static inline void
fuzz_context_done (void)
{
  static int verbose = -1;
  if (verbose < 0)
    verbose = getenv ("FUZZ_VERBOSE") != NULL;
  if (verbose) /* reproducing: say what is run, before a sanitizer may stop it */
    fprintf (stderr, "fuzz: input: %s\n", fuzz_context);
}

#define FUZZ_DESCRIBE(...)                                                               \
  (snprintf (fuzz_context, sizeof fuzz_context, __VA_ARGS__), fuzz_context_done ())

static inline void
fuzz_fail (const char *what, const char *file, int line)
{
  fprintf (stderr, "\nfuzz: invariant violated at %s:%d: %s\nfuzz: input: %s\n", file, line,
           what, fuzz_context);
  fflush (stderr);
  abort ();
}

#define FUZZ_CHECK(cond)                                                                 \
  do                                                                                     \
    {                                                                                    \
      if (! (cond))                                                                      \
        fuzz_fail (#cond, __FILE__, __LINE__);                                           \
    }                                                                                    \
  while (0)

/* ---- Reading bytes ---------------------------------------------------------------- */

typedef struct
{
  const uint8_t *data;
  size_t         size, pos;
} FuzzInput;

static inline uint8_t
fuzz_u8 (FuzzInput *in)
{
  return in->pos < in->size ? in->data[in->pos++] : 0;
}

static inline uint16_t
fuzz_u16 (FuzzInput *in)
{
  uint16_t v = fuzz_u8 (in);
  return (uint16_t) (v | (uint16_t) fuzz_u8 (in) << 8);
}

static inline uint32_t
fuzz_u32 (FuzzInput *in)
{
  uint32_t v = fuzz_u16 (in);
  return v | (uint32_t) fuzz_u16 (in) << 16;
}

static inline uint64_t
fuzz_u64 (FuzzInput *in)
{
  uint64_t v = fuzz_u32 (in);
  return v | (uint64_t) fuzz_u32 (in) << 32;
}

static inline double
fuzz_bits_double (uint64_t bits)
{
  double d;
  memcpy (&d, &bits, sizeof d);
  return d;
}

static inline float
fuzz_bits_float (uint32_t bits)
{
  float f;
  memcpy (&f, &bits, sizeof f);
  return f;
}

/* Uniform in [0, 1]. */
static inline double
fuzz_unit (FuzzInput *in)
{
  return fuzz_u32 (in) / 4294967295.0;
}

/* The bytes not read yet as a NUL-terminated string in a buffer of exactly the right size
 * (ASan catches any read past the terminator). Consumes them. Free with free(). */
static inline char *
fuzz_rest_string (FuzzInput *in)
{
  const size_t n = in->size - in->pos;
  char *s = malloc (n + 1);
  if (s == NULL)
    abort ();
  memcpy (s, in->data + in->pos, n);
  s[n] = '\0';
  in->pos = in->size;
  return s;
}

/* ---- Parameters ------------------------------------------------------------------- */

/* Each decoder reads a selector byte and clears *valid when the value it returns is
 * outside the documented range, which the harness then expects the core to reject. */

enum { FUZZ_CLOSED = 0, FUZZ_LOW_OPEN = 1 };

static inline int
fuzz_in_range (double v, double lo, double hi, int low_open)
{
  return (low_open ? v > lo : v >= lo) && v <= hi; /* NaN fails */
}

/* A double for a parameter documented as [lo, hi] (or (lo, hi] with FUZZ_LOW_OPEN). With
 * allow_invalid 0 only values in the range come out. */
static inline double
fuzz_double (FuzzInput *in, double lo, double hi, double def, int low_open, int allow_invalid,
             int *valid)
{
  const uint8_t sel = fuzz_u8 (in);
  double v;
  switch (sel % 16)
    {
    case 0: v = def; break;
    case 1: v = low_open ? nextafter (lo, INFINITY) : lo; break;
    case 2: v = hi; break;
    case 3: v = nextafter (lo, INFINITY); break;
    case 4: v = nextafter (hi, -INFINITY); break;
    case 5: /* tiny steps above the low end: 2^-k of the range */
      v = lo + (hi - lo) * ldexp (1.0, -(int) (fuzz_u8 (in) % 64));
      break;
    case 6: /* a small whole number above the low end */
      v = lo + fuzz_u8 (in) % 8;
      break;
    case 13: /* the low end itself, invalid when the range is open there */
      v = lo;
      break;
    case 14: /* beyond the range */
      {
        static const double far[] = { NAN, INFINITY, -INFINITY, -DBL_MAX, DBL_MAX, -1.0, -0.0 };
        const uint8_t k = fuzz_u8 (in) % 10;
        v = k < 7 ? far[k] : k == 7 ? nextafter (lo, -INFINITY) : k == 8 ? nextafter (hi, INFINITY)
                                                                          : hi * 2.0 + 1.0;
        break;
      }
    case 15: v = fuzz_bits_double (fuzz_u64 (in)); break;
    default: v = lo + (hi - lo) * fuzz_unit (in); break;
    }
  if (! fuzz_in_range (v, lo, hi, low_open))
    {
      if (! allow_invalid)
        v = def;
      else
        *valid = 0;
    }
  return v;
}

/* An int for a parameter documented as [lo, hi]. */
static inline int
fuzz_int (FuzzInput *in, int lo, int hi, int def, int allow_invalid, int *valid)
{
  const uint8_t sel = fuzz_u8 (in);
  const int64_t span = (int64_t) hi - lo + 1;
  int64_t v;
  switch (sel % 16)
    {
    case 0: v = def; break;
    case 1: v = lo; break;
    case 2: v = hi; break;
    case 3: v = (int64_t) lo + 1; break;
    case 4: v = (int64_t) hi - 1; break;
    case 5: case 6: case 7: v = (int64_t) lo + fuzz_u8 (in) % 16; break;
    case 8: v = (int64_t) lo + fuzz_u8 (in); break;
    case 13: /* log-uniform: every order of magnitude */
      v = (int64_t) lo + (int64_t) (fuzz_u32 (in) & ((1u << (fuzz_u8 (in) % 31)) - 1)) % span;
      break;
    case 14:
      {
        const int64_t far[] = { (int64_t) lo - 1, (int64_t) hi + 1, INT_MIN, INT_MAX, -1, 0 };
        v = far[fuzz_u8 (in) % 6];
        break;
      }
    case 15: v = (int32_t) fuzz_u32 (in); break;
    default: v = (int64_t) lo + (int64_t) (fuzz_u32 (in) % (uint64_t) span); break;
    }
  if (v < INT_MIN)
    v = INT_MIN;
  if (v > INT_MAX)
    v = INT_MAX;
  if (v < lo || v > hi)
    {
      if (! allow_invalid)
        v = def;
      else
        *valid = 0;
    }
  return (int) v;
}

/* An enum value: one of the n valid ones, or rarely an invalid one (n, n + 1, -1, ...). */
static inline int
fuzz_enum (FuzzInput *in, int n, int allow_invalid, int *valid)
{
  const uint8_t sel = fuzz_u8 (in);
  if (sel < 0xf0 || ! allow_invalid)
    return sel % n;
  static const int64_t far[] = { 0, 1, -1, INT_MAX, INT_MIN, 255 };
  int64_t v = sel % 8 < 2 ? n + sel % 8 : far[sel % 8 - 2];
  if (v < 0 || v >= n)
    *valid = 0;
  return (int) v;
}

/* ---- Layer sizes ------------------------------------------------------------------ */

typedef struct
{
  int    w, h;
  int    valid; /* terrain_check_size accepts it */
  size_t n;     /* w * h when valid, else 0 */
} FuzzSize;

static inline int
fuzz_side (FuzzInput *in, int max)
{
  return 1 + (int) (fuzz_u16 (in) % (unsigned) max);
}

/* Sizes with w * h <= max_pixels, and (with allow_invalid) rarely a size the core must
 * reject: 0, negative, beyond TERRAIN_MAX_SIDE. Mostly small, so that executions stay
 * fast (a pixel costs up to a few hundred nanoseconds under the sanitizers); one input in
 * 64 reaches max_pixels, with every shape: 1 x 65536, 65536 x 1, 256 x 256, ... */
static inline FuzzSize
fuzz_size (FuzzInput *in, int max_pixels, int allow_invalid)
{
  FuzzSize s = { 1, 1, 1, 1 };
  const uint8_t cls = fuzz_u8 (in);
  if (cls % 64 == 63)
    {
      const uint8_t shape = fuzz_u8 (in);
      if (shape % 4 == 0)
        {
          s.w = max_pixels;
          s.h = 1;
        }
      else if (shape % 4 == 1)
        {
          s.w = 1;
          s.h = max_pixels;
        }
      else
        {
          s.w = fuzz_side (in, max_pixels);
          s.h = fuzz_side (in, max_pixels / s.w);
        }
    }
  else
    switch (cls % 16)
      {
      case 0: case 1: case 2: case 3: /* 1..16 a side */
        s.w = 1 + fuzz_u8 (in) % 16;
        s.h = 1 + fuzz_u8 (in) % 16;
        break;
      case 4: s.w = s.h = 1; break;
      case 5: s.w = 1; s.h = fuzz_side (in, 4096); break;
      case 6: s.w = fuzz_side (in, 4096); s.h = 1; break;
      case 7: /* odd, 1..63 */
        s.w = (1 + fuzz_u8 (in) % 32) * 2 - 1;
        s.h = (1 + fuzz_u8 (in) % 32) * 2 - 1;
        break;
      case 8: /* powers of two and their neighbours, up to 65 */
        {
          const uint8_t a = fuzz_u8 (in), b = fuzz_u8 (in);
          s.w = (1 << (a % 7)) + (int) ((a >> 4) % 3) - 1;
          s.h = (1 << (b % 7)) + (int) ((b >> 4) % 3) - 1;
          s.w = s.w < 1 ? 1 : s.w;
          s.h = s.h < 1 ? 1 : s.h;
          break;
        }
      case 9: /* 2 or 3 pixels across, long the other way */
        s.w = 2 + fuzz_u8 (in) % 2;
        s.h = fuzz_side (in, 1024);
        if (fuzz_u8 (in) & 1)
          {
            const int t = s.w;
            s.w = s.h;
            s.h = t;
          }
        break;
      case 10: /* any shape up to 4096 pixels */
        s.w = fuzz_side (in, 4096);
        s.h = fuzz_side (in, 4096 / s.w);
        break;
      case 11: case 12: case 13: case 14: /* 1..40 a side */
        s.w = 1 + fuzz_u8 (in) % 40;
        s.h = 1 + fuzz_u8 (in) % 40;
        break;
      case 15:
        if (allow_invalid)
          {
            static const int bad[] = { 0, -1, INT_MIN, TERRAIN_MAX_SIDE + 1, INT_MAX, -7 };
            const uint8_t k = fuzz_u8 (in);
            s.w = k & 1 ? bad[(k >> 1) % 6] : 1 + (k >> 1) % 8;
            s.h = k & 1 ? 1 + (k >> 1) % 8 : bad[(k >> 1) % 6];
            s.valid = 0;
          }
        break;
      }
  if (s.valid && (size_t) s.w * (size_t) s.h > (size_t) max_pixels)
    {
      /* Keep the shape's character (thin stays thin) but within the budget. */
      if (s.w > max_pixels)
        s.w = max_pixels;
      s.h = max_pixels / s.w;
      if (s.h < 1)
        s.h = 1;
    }
  s.n = s.valid ? (size_t) s.w * s.h : 0;
  return s;
}

/* ---- Work budget -------------------------------------------------------------------- */

/* Most executions get a budget of about FUZZ_WORK nanoseconds of work under the
 * sanitizers, within which a harness scales its iteration count down (by its own rough
 * cost model) when the layer is large or the iterations are costly. One execution in 64
 * is "heavy": parameters go up to their maxima as decoded, and the progress callback stops
 * the run after a few reports (or FUZZ_DEADLINE_MS). */
#define FUZZ_WORK 300000.0

static inline int
fuzz_heavy (FuzzInput *in)
{
  return fuzz_u8 (in) % 64 == 63;
}

/* value when it fits the budget at unit_cost per count, else spread over what fits (at
 * least 1): values outside [1, max] are kept (the core must reject them anyway). */
static inline int
fuzz_fit (int value, int max, double unit_cost, int heavy)
{
  if (heavy || value < 1 || value > max)
    return value;
  const double fits = FUZZ_WORK / (unit_cost > 1.0 ? unit_cost : 1.0);
  if (value <= fits)
    return value;
  const int limit = fits < 1.0 ? 1 : (int) fits;
  return 1 + (value - 1) % limit;
}

/* An output buffer of exactly n floats (at least one), filled with NaN so that a pixel
 * the core forgets to write fails the finiteness check. */
static inline float *
fuzz_alloc_floats (size_t n)
{
  float *p = malloc ((n ? n : 1) * sizeof (float));
  if (p == NULL)
    abort ();
  for (size_t i = 0; i < (n ? n : 1); i++)
    p[i] = NAN;
  return p;
}

/* ---- Heightmaps of any finite values ---------------------------------------------- */

static inline uint32_t
fuzz_lcg (uint32_t *state)
{
  *state = *state * 1664525u + 1013904223u;
  return *state ^ (*state >> 15);
}

static inline float
fuzz_finite_or (float v, float other)
{
  return isfinite (v) ? v : other;
}

/* Fills h with n finite values; unit 1 keeps them in [0, 1] (a layer's usual content). */
static inline void
fuzz_heights (FuzzInput *in, float *h, size_t n, int unit)
{
  const uint8_t mode = fuzz_u8 (in);
  uint32_t state = fuzz_u32 (in);
  static const float magnitudes[] = { 1.0f, FLT_MAX, 1e30f, 1e-30f, FLT_MIN, 1e-45f, 65535.0f, 0.5f };
  const float m = unit ? 1.0f : magnitudes[(mode >> 3) % 8];
  switch (mode % 8)
    {
    case 0: /* constant */
      {
        const float c = unit ? (float) fuzz_unit (in)
                             : fuzz_finite_or (fuzz_bits_float (fuzz_u32 (in)), 0.5f);
        for (size_t i = 0; i < n; i++)
          h[i] = c;
        break;
      }
    case 1: /* uniform noise in [0, m] */
      for (size_t i = 0; i < n; i++)
        h[i] = m * ((float) (fuzz_lcg (&state) >> 8) * (1.0f / 16777216.0f));
      break;
    case 2: /* raw floats from the input, repeated */
      {
        const size_t avail = (in->size - in->pos) / 4, take = avail < 64 ? avail : 64;
        float vals[64];
        for (size_t i = 0; i < take; i++)
          {
            float v = fuzz_bits_float (fuzz_u32 (in));
            if (unit)
              v = fabsf (v) <= 1.0f ? fabsf (v) : 0.5f;
            vals[i] = fuzz_finite_or (v, 0.0f);
          }
        for (size_t i = 0; i < n; i++)
          h[i] = take ? vals[i % take] : 0.0f;
        break;
      }
    case 3: /* checkerboard, +-m (0 and m in unit mode) */
      for (size_t i = 0; i < n; i++)
        h[i] = (i ^ (state >> 3)) & 1 ? m : unit ? 0.0f : -m;
      break;
    case 4: /* a ramp */
      for (size_t i = 0; i < n; i++)
        h[i] = m * (float) i / (float) (n > 1 ? n - 1 : 1);
      break;
    case 5: /* noise of both signs in [-m, m] */
      for (size_t i = 0; i < n; i++)
        {
          const float v = m * ((float) (int32_t) fuzz_lcg (&state) * (1.0f / 2147483648.0f));
          h[i] = unit ? fabsf (v) : v;
        }
      break;
    case 6: /* zero with rare spikes of +-m */
      for (size_t i = 0; i < n; i++)
        {
          const uint32_t r = fuzz_lcg (&state);
          h[i] = r % 61 == 0 ? (r & 0x100 && ! unit ? -m : m) : 0.0f;
        }
      break;
    case 7: /* random bit patterns, non-finite ones replaced */
      for (size_t i = 0; i < n; i++)
        {
          float v = fuzz_bits_float (fuzz_lcg (&state));
          if (unit)
            v = fabsf (v) <= 1.0f ? fabsf (v) : 1.0f;
          h[i] = fuzz_finite_or (v, m);
        }
      break;
    }
  for (size_t i = 0; i < n; i++) /* a net under the arithmetic above */
    if (! isfinite (h[i]))
      h[i] = 0.0f;
}

/* ---- Progress and cancellation ---------------------------------------------------- */

typedef struct
{
  unsigned long   calls;
  unsigned long   cancel_after; /* report number (from 0) that asks to stop */
  int             cancelled;    /* a report returned non-zero */
  struct timespec deadline;
} FuzzProgress;

static inline long
fuzz_deadline_ms (void)
{
  static long ms = -1;
  if (ms < 0)
    {
      const char *env = getenv ("FUZZ_DEADLINE_MS");
      ms = env && atol (env) > 0 ? atol (env) : 250;
    }
  return ms;
}

static inline int
fuzz_past (const struct timespec *deadline)
{
  struct timespec now;
  clock_gettime (CLOCK_MONOTONIC, &now);
  return now.tv_sec > deadline->tv_sec ||
         (now.tv_sec == deadline->tv_sec && now.tv_nsec >= deadline->tv_nsec);
}

static inline int
fuzz_report (void *user, double fraction)
{
  FuzzProgress *p = user;
  /* terrain-common.h: the fraction done is in [0, 1] (NaN fails). */
  FUZZ_CHECK (fraction >= 0.0 && fraction <= 1.0);
  if (p->cancelled || p->calls++ >= p->cancel_after || fuzz_past (&p->deadline))
    p->cancelled = 1;
  return p->cancelled;
}

/* Starts the budget of one call into the core: cancels at report number cancel_after, or
 * once the wall-clock budget is spent. */
static inline void
fuzz_progress_start (FuzzProgress *p, unsigned long cancel_after)
{
  p->calls = 0;
  p->cancel_after = cancel_after;
  p->cancelled = 0;
  clock_gettime (CLOCK_MONOTONIC, &p->deadline);
  const long ms = fuzz_deadline_ms ();
  p->deadline.tv_sec += ms / 1000;
  p->deadline.tv_nsec += (ms % 1000) * 1000000L;
  if (p->deadline.tv_nsec >= 1000000000L)
    {
      p->deadline.tv_sec++;
      p->deadline.tv_nsec -= 1000000000L;
    }
}

/* When to cancel, from a selector byte: one selector in eight cancels at an early report
 * (0..31), the rest run until `cap` reports (the harness's bound on the work of one
 * execution). For harnesses that read the selector before they know their cap. */
static inline unsigned long
fuzz_cancel_at (uint8_t sel, unsigned long cap)
{
  if (sel % 8 == 7)
    {
      const unsigned long at = (sel >> 3) % 32;
      return at < cap ? at : cap;
    }
  return cap;
}

/* Reads a selector byte and says when to cancel (fuzz_cancel_at). */
static inline unsigned long
fuzz_cancel_after (FuzzInput *in, unsigned long cap)
{
  return fuzz_cancel_at (fuzz_u8 (in), cap);
}

/* ---- Invariants ------------------------------------------------------------------- */

/* What every call into the core promises about its status: one of the enum's values;
 * TERRAIN_CANCELLED exactly when the progress callback asked to stop; parameters in their
 * documented ranges are accepted (no INVALID, and no NO_MEMORY at these small sizes);
 * parameters outside are rejected with INVALID. */
static inline void
fuzz_check_status (TerrainStatus status, const FuzzProgress *p, int params_valid)
{
  FUZZ_CHECK (status == TERRAIN_OK || status == TERRAIN_ERROR_INVALID ||
              status == TERRAIN_ERROR_NO_MEMORY || status == TERRAIN_CANCELLED);
  if (params_valid)
    {
      FUZZ_CHECK (status != TERRAIN_ERROR_INVALID);
      FUZZ_CHECK (status != TERRAIN_ERROR_NO_MEMORY);
      FUZZ_CHECK ((status == TERRAIN_CANCELLED) == (p->cancelled != 0));
    }
  else
    FUZZ_CHECK (status == TERRAIN_ERROR_INVALID);
}

/* Every value finite. */
static inline void
fuzz_check_finite (const float *v, size_t n)
{
  for (size_t i = 0; i < n; i++)
    FUZZ_CHECK (isfinite (v[i]));
}

/* Every value finite and in [0, 1]. */
static inline void
fuzz_check_unit (const float *v, size_t n)
{
  for (size_t i = 0; i < n; i++)
    FUZZ_CHECK (v[i] >= 0.0f && v[i] <= 1.0f);
}

static inline void
fuzz_check_all_equal (const float *v, size_t n, float value)
{
  for (size_t i = 0; i < n; i++)
    FUZZ_CHECK (v[i] == value);
}

#endif
