/* River erosion's look (issue 39; the figures of look.h): the fake looks the analytical
 * method and the simulation once made, on maps small enough for the unit suite.
 *
 *  - Grain: the analytical method alone leaves every cell on its own flow path's height,
 *    uncorrelated with its neighbours' (one-pixel gullies); with diffusion the result must
 *    be no grainier than its input (speckle), as the simulation's diffusion at every step
 *    keeps it.
 *  - Grid alignment: steepest descent on 8 neighbours sends the water of a plane whose
 *    gradient lies between two grid directions along one of them: parallel straight
 *    gullies, the comb of a tilted plane. With Rho8 both methods' valleys follow the
 *    gradient (aniso45 near 1).
 *  - No pits, whichever method. */
#include "check.h"
#include "diamond-square.h"
#include "drainage.h"
#include "field-stats.h"
#include "look.h"

#include "random.h"
#include "river-erosion.h"

#include <math.h>
#include <stdlib.h>

static float *
noise_map (int side, uint32_t seed)
{
  TerrainDiamondSquare d;
  terrain_diamond_square_defaults (&d);
  d.seed = seed;
  float *f = malloc ((size_t) side * side * sizeof (float));
  CHECK (terrain_diamond_square (&d, f, side, side, NULL) == TERRAIN_OK, "diamond-square");
  return f;
}

/* A plane falling at `degrees` from the +x axis (towards the open border), with a little
 * Diamond-Square relief on it so that valleys form. */
static float *
tilted_plane (int side, double degrees)
{
  float       *f = noise_map (side, 3);
  const double a = degrees * 3.14159265358979 / 180.0;
  for (int y = 0; y < side; y++)
    for (int x = 0; x < side; x++)
      f[(size_t) y * side + x] =
        (float) (0.05 * f[(size_t) y * side + x]
                 + 0.5 * (cos (a) * (side - x) + sin (a) * (side - y)) / side);
  return f;
}

static void
erode (const TerrainRiverErosion *p, float *f, int side)
{
  const TerrainStatus s = terrain_river_erosion (p, f, side, side, NULL, NULL);
  CHECK (s == TERRAIN_OK, "status %s", terrain_status_message (s));
}

static double
speckle (const float *f, int side)
{
  double v = 0.0;
  CHECK (terrain_look_speckle (f, side, side, &v) == TERRAIN_OK, "speckle");
  return v;
}

static double
aniso45 (const float *f, int side)
{
  double v = 0.0;
  CHECK (terrain_look_aniso45 (f, side, side, &v) == TERRAIN_OK, "aniso45");
  return v;
}

/* The defaults (analytical, with diffusion) add no grain to Diamond-Square noise: at 512^2
 * they take its speckle from 8.5 to about 5; without the half diffusion step after the last
 * solution, to 23. */
static void
test_no_grain (void)
{
  const int side = 512;
  for (uint32_t seed = 1; seed <= 2; seed++)
    {
      float *input = noise_map (side, seed), *f = copy_field (input, side, side);
      TerrainRiverErosion p;
      terrain_river_erosion_defaults (&p);
      erode (&p, f, side);
      const double before = speckle (input, side), after = speckle (f, side);
      printf ("grain: Diamond-Square seed %u, speckle %.2f -> %.2f at the defaults\n", seed,
              before, after);
      CHECK (after <= 0.8 * before, "seed %u: speckle %g, then %g", seed, before, after);
      CHECK (drainage_pits (f, side, side, 0, 0.0f, -1) == 0, "seed %u: pits", seed);
      free (input);
      free (f);
    }
}

/* A plane tilted at 22.5 and 30 degrees, eroded by either method: valleys along the
 * gradient, not combs along the grid. With steepest descent alone the simulation's result
 * had aniso45 1.67 and 1.48 (the analytical's 1.11 and 0.96: its diffusion smooths it). */
static void
test_not_grid_aligned (void)
{
  const int    side = 128;
  const double angles[] = { 22.5, 30.0 };
  for (int a = 0; a < 2; a++)
    for (int method = 0; method < 2; method++)
      {
        float *f = tilted_plane (side, angles[a]);
        TerrainRiverErosion p;
        terrain_river_erosion_defaults (&p);
        p.method = method ? TERRAIN_RIVER_METHOD_SIMULATE : TERRAIN_RIVER_METHOD_ANALYTICAL;
        erode (&p, f, side);
        const double value = aniso45 (f, side);
        printf ("grid: plane at %.1f degrees, %s: aniso45 %.3f\n", angles[a],
                method ? "simulate" : "analytical", value);
        CHECK (value < 1.2, "%s, plane at %g degrees: aniso45 %g", method ? "simulate"
               : "analytical", angles[a], value);
        CHECK (drainage_pits (f, side, side, 0, 0.0f, -1) == 0, "plane: pits");
        free (f);
      }
}

int
main (void)
{
  test_no_grain ();
  test_not_grid_aligned ();
  return CHECK_DONE ("river-look");
}
