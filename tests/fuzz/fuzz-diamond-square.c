/* libFuzzer harness: terrain_diamond_square over its whole parameter space (every edge
 * mode, both corner modes, roughness 0..2 and beyond, corner heights, both subdivisions
 * when the core has them) and layer sizes from 1x1 to 64k pixels.
 *
 * Checks: the status promises of terrain-common.h (fuzz_check_status); on TERRAIN_OK every
 * pixel is in [0, 1] (no NaN or inf, no pixel left unwritten); with fixed corners and
 * diamond-square subdivision, the top-left pixel, a coarse corner of a cropped lattice,
 * sits exactly at corner_height (diamond-square.h: "shifted so the corners sit exactly at
 * corner_height"). */
#include "fuzz-common.h"

#include "diamond-square.h"

/* square-square.h comes with the subdivision and square_half_step fields. */
#if __has_include("square-square.h")
#define FUZZ_HAS_SUBDIVISION 1
#endif

int
LLVMFuzzerTestOneInput (const uint8_t *data, size_t size)
{
  FuzzInput in = { data, size, 0 };
  FuzzSize  sz = fuzz_size (&in, FUZZ_MAX_PIXELS, 1);
  const unsigned long cancel_after = fuzz_cancel_after (&in, 64);

  TerrainDiamondSquare p;
  terrain_diamond_square_defaults (&p);
  int valid = sz.valid;
  p.seed = fuzz_u32 (&in);
  p.roughness = fuzz_double (&in, 0.0, 2.0, 1.0, FUZZ_CLOSED, 1, &valid);
  p.edges = (TerrainEdges) fuzz_enum (&in, 3, 1, &valid);
  p.corners = (TerrainCorners) fuzz_enum (&in, 2, 1, &valid);
  p.corner_height = fuzz_double (&in, 0.0, 1.0, 0.5, FUZZ_CLOSED, 1, &valid);
  int keeps_corners = 1;
#ifdef FUZZ_HAS_SUBDIVISION
  p.subdivision = (TerrainSubdivision) fuzz_enum (&in, 2, 1, &valid);
  {
    const uint8_t half = fuzz_u8 (&in);
    p.square_half_step = half < 0x80 ? 1 : half < 0xf0 ? 0 : (int) (int8_t) half;
  }
  keeps_corners = p.subdivision == TERRAIN_SUBDIVISION_DIAMOND_SQUARE;
#endif

  float *out = fuzz_alloc_floats (sz.n);
  FuzzProgress prog;
  fuzz_progress_start (&prog, cancel_after);
  const TerrainProgress progress = { fuzz_report, &prog };
  const TerrainStatus status = terrain_diamond_square (&p, out, sz.w, sz.h, &progress);

  fuzz_check_status (status, &prog, valid);
  if (status == TERRAIN_OK)
    {
      fuzz_check_unit (out, sz.n);
      if (p.corners == TERRAIN_CORNERS_FIXED && p.edges != TERRAIN_EDGES_WRAP && keeps_corners)
        FUZZ_CHECK (out[0] == (float) p.corner_height);
    }
  free (out);
  return 0;
}
