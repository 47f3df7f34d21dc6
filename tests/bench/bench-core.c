/* Core benchmark: median wall time of every generator and filter, in ns per pixel, and its
 * ratio to the memory-write floor (a streaming float store into the same, already touched
 * buffer) measured in the same run. On a shared, noisy machine only the medians and the
 * ratios mean anything; the project's targets are printed for information and the exit
 * status ignores them. Every workload runs on one thread; built with the GLib thread pool
 * (BENCH_THREADS), diamond-square also runs on two, with its speed-up over one thread, and
 * river erosion on two, against its time limit. After the table, the quality of river
 * erosion's results (print_river_quality).
 *
 *   bench-core [--quick] [--markdown] [--only TEXT]
 *     --quick     1024^2 only, 3 repetitions
 *     --markdown  print the table as Markdown (for tests/bench/README.md)
 *     --only      only the workloads whose name contains TEXT (Diamond-Square, the others'
 *                 input, always runs), and the river quality only when TEXT is in "river"
 */
#define _POSIX_C_SOURCE 200809L

#include "bench-clock.h"
#include "drainage.h"
#include "circles.h"
#include "diamond-square.h"
#include "fault.h"
#include "field.h"
#include "hydraulic-erosion.h"
#include "particles.h"
#include "river-erosion.h"
#include "shade.h"
#include "smooth.h"
#include "thermal-erosion.h"
#ifdef BENCH_THREADS
#include "thread-pool.h"
#endif

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#ifndef BENCH_BUILD
#define BENCH_BUILD "built by hand"
#endif

/* The project's targets (informational). */
#define TARGET_KERNEL_NS    1.5   /* DS kernels at 4096^2: ns per pixel... */
#define TARGET_KERNEL_FLOOR 3.0   /* ...and times the floor */
/* Time limits at 1024^2 (TARGET_MS): fault 1000 iterations 150 ms, thermal erosion 500
 * iterations 1 s, hydraulic erosion 10^6 droplets 3 s, river erosion at its defaults on 2
 * threads 3 s. */
#define TARGET_SPEEDUP      1.7   /* DS at 4096^2 on 2 threads: times one thread's speed */

typedef enum { TARGET_NONE, TARGET_KERNEL, TARGET_MS, TARGET_SPEEDUP_2 } Target;

/* A workload renders into out (n * n floats); src is a finished heightmap of the same size
 * for the filters. In-place filters get a fresh copy of src in out before each run. */
typedef struct
{
  const char *name;
  int         max_side; /* runs at the sizes up to this one */
  int         in_place;
  Target      target;
  TerrainStatus (*run) (float *out, const float *src, int n);
  double      limit_ms; /* TARGET_MS: the most milliseconds at 1024^2 */
} Workload;

static TerrainStatus
run_ds (float *out, const float *src, int n)
{
  (void) src;
  TerrainDiamondSquare p;
  terrain_diamond_square_defaults (&p);
  return terrain_diamond_square (&p, out, n, n, NULL);
}

#ifdef BENCH_THREADS
/* A workload on 2 threads (the ones named so); every other workload runs on one. */
static TerrainStatus
on_2_threads (TerrainStatus (*run) (float *out, const float *src, int n), float *out,
              const float *src, int n)
{
  terrain_use_threads (2);
  const TerrainStatus status = run (out, src, n);
  terrain_use_threads (1);
  return status;
}

static TerrainStatus
run_ds_2_threads (float *out, const float *src, int n)
{
  return on_2_threads (run_ds, out, src, n);
}
#endif

static TerrainStatus
run_field (float *out, const float *src, int n)
{
  (void) src;
  TerrainField p;
  terrain_field_defaults (&p);
  p.iterations = 12;
  return terrain_field (&p, out, n, n, NULL);
}

static TerrainStatus
run_fault (float *out, const float *src, int n)
{
  (void) src;
  TerrainFault p;
  terrain_fault_defaults (&p);
  p.iterations = 1000;
  return terrain_fault (&p, out, n, n, NULL);
}

static TerrainStatus
run_circles (float *out, const float *src, int n)
{
  (void) src;
  TerrainCircles p;
  terrain_circles_defaults (&p);
  p.iterations = 1000;
  return terrain_circles (&p, out, n, n, NULL);
}

static TerrainStatus
run_particles (float *out, const float *src, int n)
{
  (void) src;
  TerrainParticles p;
  terrain_particles_defaults (&p);
  p.particles = 1000000;
  return terrain_particles (&p, out, n, n, NULL);
}

static TerrainStatus
run_smooth (TerrainSmoothMethod method, float *out, int n)
{
  TerrainSmooth p;
  terrain_smooth_defaults (&p);
  p.method = method;
  return terrain_smooth (&p, out, n, n, NULL);
}

static TerrainStatus
run_laplacian (float *out, const float *src, int n)
{
  (void) src;
  return run_smooth (TERRAIN_SMOOTH_LAPLACIAN, out, n);
}

static TerrainStatus
run_fir (float *out, const float *src, int n)
{
  (void) src;
  return run_smooth (TERRAIN_SMOOTH_FIR, out, n);
}

static TerrainStatus
run_matrix (float *out, const float *src, int n)
{
  (void) src;
  return run_smooth (TERRAIN_SMOOTH_MATRIX, out, n);
}

static TerrainStatus
run_hillshade (float *out, const float *src, int n)
{
  terrain_hillshade (src, n, n, TERRAIN_HILLSHADE_AZIMUTH, TERRAIN_HILLSHADE_ELEVATION,
                     terrain_hillshade_z_scale (n, n), out);
  return TERRAIN_OK;
}

static TerrainStatus
run_thermal (float *out, const float *src, int n)
{
  (void) src;
  TerrainThermalErosion p;
  terrain_thermal_erosion_defaults (&p);
  p.iterations = 500;
  p.talus = 0.0; /* every slope moves: no early stop when the map settles */
  return terrain_thermal_erosion (&p, out, n, n, NULL);
}

static TerrainStatus
run_hydraulic (float *out, const float *src, int n)
{
  (void) src;
  TerrainHydraulicErosion p;
  terrain_hydraulic_erosion_defaults (&p);
  p.droplets = 1000000;
  return terrain_hydraulic_erosion (&p, out, n, n, NULL);
}

/* River Erosion's settings in the bench: its defaults (the analytical method, age 3); the
 * simulated method at the same strength (30 steps of 0.1), for the analytical method's
 * ratio; and both growing ranges from the map (the river-valleys preset's strengths). */
typedef enum { RIVER_DEFAULTS, RIVER_SIMULATED, RIVER_GROWING, RIVER_GROWING_SIMULATED } RiverRun;

static TerrainStatus
run_river_as (RiverRun run, float *out, int n)
{
  TerrainRiverErosion p;
  terrain_river_erosion_defaults (&p);
  if (run == RIVER_SIMULATED || run == RIVER_GROWING_SIMULATED)
    p.method = TERRAIN_RIVER_METHOD_SIMULATE;
  if (run == RIVER_GROWING || run == RIVER_GROWING_SIMULATED)
    p.uplift = TERRAIN_RIVER_UPLIFT_LAYER;
  if (run == RIVER_GROWING)
    p.age = 200.0, p.diffusion = 3.0;
  if (run == RIVER_GROWING_SIMULATED)
    p.iterations = 100, p.erosion = 2.0, p.diffusion = 60.0;
  return terrain_river_erosion (&p, out, n, n, NULL, NULL);
}

static TerrainStatus
run_river (float *out, const float *src, int n)
{
  (void) src;
  return run_river_as (RIVER_DEFAULTS, out, n);
}

static TerrainStatus
run_river_simulated (float *out, const float *src, int n)
{
  (void) src;
  return run_river_as (RIVER_SIMULATED, out, n);
}

static TerrainStatus
run_river_growing (float *out, const float *src, int n)
{
  (void) src;
  return run_river_as (RIVER_GROWING, out, n);
}

static TerrainStatus
run_river_growing_simulated (float *out, const float *src, int n)
{
  (void) src;
  return run_river_as (RIVER_GROWING_SIMULATED, out, n);
}

#ifdef BENCH_THREADS
static TerrainStatus
run_river_2_threads (float *out, const float *src, int n)
{
  return on_2_threads (run_river, out, src, n);
}
#endif

#ifdef BENCH_THREADS
/* Droplets run in a fixed schedule of tiles, those of a phase side by side. */
static TerrainStatus
run_hydraulic_2_threads (float *out, const float *src, int n)
{
  return on_2_threads (run_hydraulic, out, src, n);
}
#endif

static const Workload workloads[] = {
  { "diamond-square",              8192, 0, TARGET_KERNEL, run_ds, 0 },
#ifdef BENCH_THREADS
  { "diamond-square, 2 threads",   8192, 0, TARGET_SPEEDUP_2, run_ds_2_threads, 0 },
#endif
  { "field, 12 iterations",        8192, 0, TARGET_KERNEL, run_field, 0 },
  { "fault, 1000 iterations",      1024, 0, TARGET_MS,     run_fault, 150.0 },
  { "circles, 1000 iterations",    1024, 0, TARGET_NONE,   run_circles, 0 },
  { "particles, 1e6 roll",         1024, 0, TARGET_NONE,   run_particles, 0 },
  { "smooth laplacian, 16 it.",    1024, 1, TARGET_NONE,   run_laplacian, 0 },
  { "smooth FIR k=0.5, 16 it.",    1024, 1, TARGET_NONE,   run_fir, 0 },
  { "smooth matrix gauss3, 16 it.", 1024, 1, TARGET_NONE,  run_matrix, 0 },
  { "hillshade",                   8192, 0, TARGET_NONE,   run_hillshade, 0 },
  { "thermal erosion, 500 it.",    1024, 1, TARGET_MS,     run_thermal, 1000.0 },
  { "hydraulic erosion, 1e6 drops", 1024, 1, TARGET_MS,    run_hydraulic, 3000.0 },
#ifdef BENCH_THREADS
  { "hydraulic erosion, 2 threads", 1024, 1, TARGET_MS,    run_hydraulic_2_threads, 3000.0 },
#endif
  { "river erosion, defaults",     1024, 1, TARGET_MS,     run_river, 100.0 },
  { "river erosion, defaults",     4096, 1, TARGET_NONE,   run_river, 0 },
  { "river erosion, simulated",    1024, 1, TARGET_NONE,   run_river_simulated, 0 },
  { "river erosion, simulated",    4096, 1, TARGET_NONE,   run_river_simulated, 0 },
  { "river, growing, age 200",     1024, 1, TARGET_MS,     run_river_growing, 200.0 },
  { "river, growing, 100 steps",   1024, 1, TARGET_NONE,   run_river_growing_simulated, 0 },
#ifdef BENCH_THREADS
  { "river erosion, 2 threads",    1024, 1, TARGET_MS,     run_river_2_threads, 3000.0 },
#endif
};
#define N_WORKLOADS (sizeof workloads / sizeof workloads[0])
#define MAX_REPS    7

typedef struct
{
  const char *name;
  int         side, reps;
  double      seconds;  /* median */
  double      floor_ns; /* median floor at this size, ns per pixel */
  Target      target;
  double      one_thread; /* TARGET_SPEEDUP_2: the median of the one-thread run */
  double      limit_ms;   /* TARGET_MS */
} Row;

static volatile float sink;

/* The memory-write floor: one streaming store per float. The buffer escapes and a value is
 * read back through a volatile, so the stores cannot be elided. */
static double
floor_once (float *buf, int count)
{
  const double t0 = now ();
  for (int i = 0; i < count; i++)
    buf[i] = (float) i * 0.5f;
  const double t = now () - t0;
  sink = buf[count / 3];
  return t;
}

/* Runs every workload that fits side; after each repetition the floor is timed once on the
 * same buffer, so the floor's median is taken over the same stretch of time. */
static int
bench_size (int side, int reps, const char *only, Row *rows)
{
  const int    count = side * side;
  const size_t bytes = (size_t) count * sizeof (float);
  float *out = malloc (bytes), *src = malloc (bytes);
  double floor_t[N_WORKLOADS * MAX_REPS], t[MAX_REPS], ds_seconds = 0.0;
  int nrows = 0, nfloor = 0;

  if (!out || !src)
    {
      fprintf (stderr, "bench-core: out of memory at %d^2\n", side);
      exit (1);
    }
  memset (out, 0, bytes);
  if (run_ds (src, NULL, side) != TERRAIN_OK)
    return -1;

  for (size_t k = 0; k < N_WORKLOADS; k++)
    {
      const Workload *w = &workloads[k];
      if (side > w->max_side || (only && w->run != run_ds && ! strstr (w->name, only)))
        continue;
      for (int r = 0; r < reps; r++)
        {
          if (w->in_place)
            memcpy (out, src, bytes);
          const double t0 = now ();
          const TerrainStatus status = w->run (out, src, side);
          t[r] = now () - t0;
          if (status != TERRAIN_OK)
            {
              fprintf (stderr, "bench-core: %s at %d^2: %s\n", w->name, side,
                       terrain_status_message (status));
              exit (1);
            }
          sink = out[count / 2];
          floor_t[nfloor++] = floor_once (out, count);
        }
      rows[nrows] = (Row) { w->name, side, reps, median (t, reps), 0, w->target, ds_seconds,
                            w->limit_ms };
      if (w->run == run_ds)
        ds_seconds = rows[nrows].seconds;
      fprintf (stderr, "bench-core: %-30s %5d^2 %10.1f ms\n", w->name, side,
               rows[nrows].seconds * 1e3);
      nrows++;
    }

  const double floor_ns = median (floor_t, nfloor) * 1e9 / count;
  for (int i = 0; i < nrows; i++)
    rows[i].floor_ns = floor_ns;
  free (out);
  free (src);
  return nrows;
}

/* "target met", "target missed by ...", or "" where no target applies at this size. */
static void
target_text (const Row *r, char *spec, char *result, size_t size)
{
  const double ms = r->seconds * 1e3, ns = r->seconds * 1e9 / ((double) r->side * r->side);
  const double ratio = ns / r->floor_ns;
  spec[0] = result[0] = '\0';
  if (r->target == TARGET_KERNEL && r->side == 4096)
    {
      snprintf (spec, size, "<= %.1f ns/px, <= %.0fx floor", TARGET_KERNEL_NS,
                TARGET_KERNEL_FLOOR);
      if (ns <= TARGET_KERNEL_NS && ratio <= TARGET_KERNEL_FLOOR)
        snprintf (result, size, "target met");
      else if (ns > TARGET_KERNEL_NS && ratio > TARGET_KERNEL_FLOOR)
        snprintf (result, size, "target missed by %.2f ns/px, floor ratio by %.2f",
                  ns - TARGET_KERNEL_NS, ratio - TARGET_KERNEL_FLOOR);
      else if (ns > TARGET_KERNEL_NS)
        snprintf (result, size, "target missed by %.2f ns/px", ns - TARGET_KERNEL_NS);
      else
        snprintf (result, size, "target missed by %.2f floor ratio", ratio - TARGET_KERNEL_FLOOR);
    }
  else if (r->target == TARGET_SPEEDUP_2)
    {
      const double speedup = r->one_thread / r->seconds;
      if (r->side == 4096)
        {
          snprintf (spec, size, ">= %.1fx one thread", TARGET_SPEEDUP);
          snprintf (result, size, "%.2fx one thread: %s", speedup,
                    speedup >= TARGET_SPEEDUP ? "target met" : "target missed");
        }
      else
        snprintf (result, size, "%.2fx one thread", speedup);
    }
  else if (r->target == TARGET_MS && r->side == 1024)
    {
      snprintf (spec, size, "<= %.0f ms", r->limit_ms);
      if (ms <= r->limit_ms)
        snprintf (result, size, "target met");
      else
        snprintf (result, size, "target missed by %.1f ms", ms - r->limit_ms);
    }
}

static void
cpu_model (char *model, size_t size)
{
  char  line[512];
  FILE *f = fopen ("/proc/cpuinfo", "r");
  snprintf (model, size, "unknown CPU");
  while (f && fgets (line, sizeof line, f))
    {
      char *colon = strchr (line, ':');
      if (colon && strncmp (line, "model name", 10) == 0)
        {
          colon += 1 + strspn (colon + 1, " \t");
          colon[strcspn (colon, "\n")] = '\0';
          snprintf (model, size, "%s", colon);
          break;
        }
    }
  if (f)
    fclose (f);
}

static void
print_table (const Row *rows, int n, int markdown, int quick)
{
  char cpu[256], date[64], spec[96], result[96];
  const time_t tnow = time (NULL);
  cpu_model (cpu, sizeof cpu);
  strftime (date, sizeof date, "%Y-%m-%d %H:%M %Z", localtime (&tnow));
#if defined(__clang__)
  const char *compiler = __VERSION__;
#elif defined(__GNUC__)
  const char *compiler = "gcc " __VERSION__;
#else
  const char *compiler = "unknown";
#endif

  if (markdown)
    printf ("Core benchmark%s: %s, %ld CPUs online; %s; %s; compiler %s. Median wall time; "
            "\"x floor\" is the ratio to a streaming float store into the same buffer, "
            "measured in the same run.\n\n"
            "| Workload | Size | Reps | Median ms | ns/pixel | x floor | Target | Result |\n"
            "|---|---:|---:|---:|---:|---:|---|---|\n",
            quick ? " (quick)" : "", cpu, sysconf (_SC_NPROCESSORS_ONLN), date, BENCH_BUILD,
            compiler);
  else
    printf ("# gimp-terrain core benchmark%s\n# CPU: %s (%ld online)\n# date: %s\n"
            "# build: %s; compiler %s\n"
            "# median wall time (CLOCK_MONOTONIC); x floor = ratio to a streaming float store "
            "into the same buffer, same run\n\n"
            "%-30s %7s %4s %10s %9s %8s  %-27s %s\n",
            quick ? " (quick)" : "", cpu, sysconf (_SC_NPROCESSORS_ONLN), date, BENCH_BUILD,
            compiler, "workload", "size", "reps", "median ms", "ns/pixel", "x floor",
            "target", "result");

  for (int i = 0; i < n; i++)
    {
      const Row *r = &rows[i];
      const double px = (double) r->side * r->side, ns = r->seconds * 1e9 / px;
      char size[16];
      snprintf (size, sizeof size, "%d^2", r->side);
      if (i == 0 || rows[i - 1].side != r->side)
        {
          const double floor_ms = r->floor_ns * px * 1e-6;
          if (markdown)
            printf ("| memory-write floor | %s | | %.2f | %.3f | 1.00 | | |\n", size,
                    floor_ms, r->floor_ns);
          else
            printf ("%-30s %7s %4s %10.2f %9.3f %8.2f\n", "memory-write floor", size, "",
                    floor_ms, r->floor_ns, 1.0);
        }
      target_text (r, spec, result, sizeof spec);
      if (markdown)
        printf ("| %s | %s | %d | %.2f | %.3f | %.2f | %s | %s |\n", r->name, size, r->reps,
                r->seconds * 1e3, ns, ns / r->floor_ns, spec, result);
      else if (spec[0] || result[0])
        printf ("%-30s %7s %4d %10.2f %9.3f %8.2f  %-27s %s\n", r->name, size, r->reps,
                r->seconds * 1e3, ns, ns / r->floor_ns, spec, result);
      else
        printf ("%-30s %7s %4d %10.2f %9.3f %8.2f\n", r->name, size, r->reps,
                r->seconds * 1e3, ns, ns / r->floor_ns);
    }
}

/* How far the analytical result is from the simulated one: the root mean square of their
 * difference, and its share of the simulated result's own root mean square departure from
 * its mean (grown ranges: both are stretched onto [0, 1]). Eroding the layer (the defaults)
 * the share is of the simulation's change, which needs the input: run_ds gives it again. */
static void
print_river_agreement (const float *analytical, const float *simulated, size_t count,
                       double uplift_m, int markdown)
{
  float *input = uplift_m == 0.0 ? malloc (count * sizeof (float)) : NULL;
  if (uplift_m == 0.0 && (input == NULL || run_ds (input, NULL, (int) sqrt ((double) count))
                                             != TERRAIN_OK))
    {
      free (input);
      return;
    }
  double mean = 0.0, apart = 0.0, spread = 0.0;
  for (size_t i = 0; i < count; i++)
    mean += simulated[i];
  mean /= (double) count;
  for (size_t i = 0; i < count; i++)
    {
      const double d = (double) analytical[i] - simulated[i];
      const double s = input ? (double) simulated[i] - input[i] : simulated[i] - mean;
      apart += d * d;
      spread += s * s;
    }
  printf ("%sriver erosion, analytical against simulated, %s: root mean square difference "
          "%.4f, %.2f of the simulation's %s\n", markdown ? "- " : "bench-core: ",
          uplift_m == 0.0 ? "defaults" : "grown ranges", sqrt (apart / (double) count),
          spread > 0.0 ? sqrt (apart / spread) : 0.0,
          input ? "change (root mean square)" : "relief (root mean square about its mean)");
  free (input);
}

/* River erosion's quality on the Diamond-Square map (not a time): are the channels those of
 * real rivers (log S against log A over cells draining at least 1/1000 of the map has the
 * slope -m / n) and does every cell drain (closed pits under 0.1 %)? The law holds where
 * uplift and incision balance: with the map as the uplift (the river-valleys preset's
 * settings), for three m. At the defaults (uplift none) the landscape only decays towards
 * its outlets, and the exponent is printed for information. */
#define RIVER_CONCAVITY_TOLERANCE 0.1
#define RIVER_PIT_SHARE_LIMIT     0.001

static void
print_river_quality (int side, int markdown)
{
  const size_t count = (size_t) side * side;
  static const double uplift_m[] = { 0.0, 0.4, 0.5, 0.6 }; /* 0: the defaults */
  enum { CASES = sizeof uplift_m / sizeof uplift_m[0] };
  float *input = malloc (count * sizeof (float));
  float *analytical = malloc (CASES * count * sizeof (float)); /* each case's, to compare */
  printf ("\n");
  for (size_t k = 0; input && analytical && k < 2 * CASES; k++)
    {
      const size_t m = k % CASES;
      float       *f = analytical + m * count, *simulated = input;
      TerrainRiverErosion p;
      terrain_river_erosion_defaults (&p);
      p.method = k == m ? TERRAIN_RIVER_METHOD_ANALYTICAL : TERRAIN_RIVER_METHOD_SIMULATE;
      if (uplift_m[m] > 0.0)
        {
          p.uplift = TERRAIN_RIVER_UPLIFT_LAYER;
          p.iterations = 100, p.erosion = 2.0, p.age = 200.0;
          p.diffusion = p.method == TERRAIN_RIVER_METHOD_SIMULATE ? 60.0 : 3.0;
          p.area_exponent = uplift_m[m];
        }
      int cells = 0;
      if (run_ds (input, NULL, side) != TERRAIN_OK)
        break;
      if (p.method == TERRAIN_RIVER_METHOD_ANALYTICAL)
        memcpy (f, input, count * sizeof (float));
      else
        f = simulated;
      if (terrain_river_erosion (&p, f, side, side, NULL, NULL) != TERRAIN_OK)
        break;
      const double exponent = drainage_slope_area_exponent (f, side, side, count / 1000.0, &cells);
      const double pits = (double) drainage_pits (f, side, side, 0, (float) p.sea_level, -1) / count;
      const double want = -p.area_exponent / p.slope_exponent;
      const char  *verdict = uplift_m[m] == 0.0 ? "no steady state: for information"
                             : fabs (exponent - want) <= RIVER_CONCAVITY_TOLERANCE
                               ? "within 0.1: target met" : "target missed";
      printf ("%sriver erosion, %s, %s, m = %.1f, %d^2: slope-area exponent %.3f over %d channel "
              "cells (-m/n %.3f, %s); closed pits %.4f %% (< %.1f %%: %s)\n",
              markdown ? "- " : "bench-core: ",
              p.method == TERRAIN_RIVER_METHOD_SIMULATE ? "simulated" : "analytical",
              uplift_m[m] == 0.0 ? "defaults on Diamond-Square" : "uplift from Diamond-Square",
              p.area_exponent, side, exponent, cells, want, verdict, 100.0 * pits,
              100.0 * RIVER_PIT_SHARE_LIMIT, pits < RIVER_PIT_SHARE_LIMIT ? "met" : "missed");
      if (p.method == TERRAIN_RIVER_METHOD_SIMULATE)
        print_river_agreement (analytical + m * count, simulated, count, uplift_m[m], markdown);
    }
  free (input);
  free (analytical);
}

int
main (int argc, char **argv)
{
  int quick = 0, markdown = 0;
  const char *only = NULL; /* workloads whose name has this in it (and Diamond-Square) */
  for (int i = 1; i < argc; i++)
    {
      if (strcmp (argv[i], "--quick") == 0)
        quick = 1;
      else if (strcmp (argv[i], "--only") == 0 && i + 1 < argc)
        only = argv[++i];
      else if (strcmp (argv[i], "--markdown") == 0)
        markdown = 1;
      else
        {
          fprintf (stderr, "usage: %s [--quick] [--markdown] [--only TEXT]\n", argv[0]);
          return strcmp (argv[i], "--help") == 0 ? 0 : 2;
        }
    }

  static const int sides[] = { 1024, 4096, 8192 }, full_reps[] = { 7, 5, 3 };
  const int nsides = quick ? 1 : 3;
  Row rows[3 * N_WORKLOADS];
  int n = 0;
  for (int s = 0; s < nsides; s++)
    {
      const int got = bench_size (sides[s], quick ? 3 : full_reps[s], only, rows + n);
      if (got < 0)
        {
          fprintf (stderr, "bench-core: diamond-square failed at %d^2\n", sides[s]);
          return 1;
        }
      n += got;
    }
  print_table (rows, n, markdown, quick);
  if (only == NULL || strstr ("river erosion", only))
    print_river_quality (1024, markdown);
  return 0;
}
