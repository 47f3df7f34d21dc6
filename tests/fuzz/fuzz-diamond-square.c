/* libFuzzer harness: terrain_diamond_square over its whole parameter space (every edge
 * mode, both corner modes, roughness 0..2 and beyond, corner heights, both subdivisions,
 * both square-step conventions, guided generation) and layer sizes from 1x1 to 64k pixels.
 *
 * Checks: the status promises of terrain-common.h (fuzz_check_status; a guide with
 * guide_scale < 1 or with square-square subdivision is refused); on TERRAIN_OK every pixel
 * is in [0, 1] (no NaN or inf, no pixel left unwritten); with fixed corners, diamond-square
 * subdivision and no guide, the top-left pixel, a coarse corner of a cropped lattice, sits
 * exactly at corner_height (diamond-square.h: "shifted so the corners sit exactly at
 * corner_height"); with shared edges the last column and row equal the first, exactly. */
#include "fuzz-common.h"

#include "diamond-square.h"

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
  p.edges = (TerrainEdges) fuzz_enum (&in, 4, 1, &valid);
  p.corners = (TerrainCorners) fuzz_enum (&in, 2, 1, &valid);
  p.corner_height = fuzz_double (&in, 0.0, 1.0, 0.5, FUZZ_CLOSED, 1, &valid);
  p.subdivision = (TerrainSubdivision) fuzz_enum (&in, 2, 1, &valid);
  {
    const uint8_t half = fuzz_u8 (&in);
    p.square_half_step = half < 0x80 ? 1 : half < 0xf0 ? 0 : (int) (int8_t) half;
  }
  int keeps_corners = p.subdivision == TERRAIN_SUBDIVISION_DIAMOND_SQUARE;
  float *guide = NULL;
  /* One in four: the layer's heights (in [0, 1]) guide the coarse levels. */
  if (fuzz_u8 (&in) % 4 == 3)
    {
      p.guide_scale = fuzz_int (&in, 1, INT_MAX, 32, 1, &valid);
      guide = fuzz_alloc_floats (sz.n);
      fuzz_heights (&in, guide, sz.n, 1);
      p.guide = guide;
      keeps_corners = 0; /* "Corners are ignored" */
      if (p.subdivision != TERRAIN_SUBDIVISION_DIAMOND_SQUARE)
        valid = 0; /* "Diamond-square subdivision only" */
    }

  FUZZ_DESCRIBE ("%dx%d seed %u roughness %.17g edges %d corners %d corner_height %.17g%s%s",
                 sz.w, sz.h, p.seed, p.roughness, (int) p.edges, (int) p.corners,
                 p.corner_height,
                 p.subdivision == TERRAIN_SUBDIVISION_SQUARE_SQUARE ? " square-square" : "",
                 guide ? " guided" : "");
  float *out = fuzz_alloc_floats (sz.n);
  FuzzProgress prog;
  fuzz_progress_start (&prog, cancel_after);
  const TerrainProgress progress = { fuzz_report, &prog };
  const TerrainStatus status = terrain_diamond_square (&p, out, sz.w, sz.h, &progress);

  fuzz_check_status (status, &prog, valid);
  if (status == TERRAIN_OK)
    {
      fuzz_check_unit (out, sz.n);
      const int periodic = p.edges == TERRAIN_EDGES_WRAP || p.edges == TERRAIN_EDGES_SHARED_EDGE;
      if (p.corners == TERRAIN_CORNERS_FIXED && ! periodic && keeps_corners)
        FUZZ_CHECK (out[0] == (float) p.corner_height);
      /* Shared edges: the last column and row are the first, bit for bit. */
      for (int y = 0; p.edges == TERRAIN_EDGES_SHARED_EDGE && y < sz.h; y++)
        FUZZ_CHECK (out[(size_t) y * sz.w + sz.w - 1] == out[(size_t) y * sz.w]);
      if (p.edges == TERRAIN_EDGES_SHARED_EDGE)
        FUZZ_CHECK (memcmp (out + (size_t) (sz.h - 1) * sz.w, out, (size_t) sz.w * sizeof (float))
                    == 0);
    }
  free (guide);
  free (out);
  return 0;
}
