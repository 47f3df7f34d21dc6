/* terrain-shade: the hillshade the dialog's relief preview shows, for a whole heightmap.
 *
 *   terrain-shade IN.pgm WIDTH HEIGHT OUT.pgm [AZIMUTH ELEVATION]
 *   terrain-shade --standard IN OUT.pgm
 *
 * --standard: the one hillshade every look is judged in (look.h: light from the north-west,
 * 45 degrees up, heights rescaled to a relief of 0.25 of the width), as an 8-bit PGM; IN is
 * a PGM, a PFM or raw floats named NAME-W-H.f32 (the size from the file).
 *
 * Reads an 8- or 16-bit PGM of WIDTH x HEIGHT, writes its relief (light from AZIMUTH
 * degrees clockwise from up, ELEVATION degrees above the horizon; defaults 315 and 45) as a
 * 16-bit PGM, the [0, 1] range standing a quarter of the layer's larger side tall
 * (terrain_hillshade_z_scale: steeper than the dialog's preview, to show small relief). build-aux/render-demos makes the README's relief pictures with it. */
#include "look.h"
#include "pnm.h"
#include "shade.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The standard hillshade of any heightmap file, as an 8-bit PGM. */
static int
standard (const char *in, const char *out)
{
  int    w = 0, h = 0;
  float *heights = pnm_read_heights (in, &w, &h);
  float *shade = heights ? malloc ((size_t) w * h * sizeof (float)) : NULL;
  FILE  *f = NULL;
  int    status = 1;
  if (heights == NULL)
    fprintf (stderr, "terrain-shade: cannot read %s as a PGM, PFM or NAME-W-H.f32\n", in);
  else if (shade != NULL && terrain_look_hillshade (heights, w, h, shade) == TERRAIN_OK &&
           (f = fopen (out, "wb")) != NULL)
    {
      fprintf (f, "P5\n%d %d\n255\n", w, h);
      for (size_t i = 0; i < (size_t) w * h; i++)
        fputc ((int) (255.0f * shade[i] + 0.5f), f);
      status = fclose (f) != 0;
    }
  if (heights != NULL && status)
    fprintf (stderr, "terrain-shade: cannot shade %s into %s\n", in, out);
  free (heights);
  free (shade);
  return status;
}

int
main (int argc, char **argv)
{
  if (argc == 4 && strcmp (argv[1], "--standard") == 0)
    return standard (argv[2], argv[3]);
  if (argc != 5 && argc != 7)
    {
      fprintf (stderr, "usage: terrain-shade IN.pgm WIDTH HEIGHT OUT.pgm [AZIMUTH ELEVATION]\n"
                       "       terrain-shade --standard IN OUT.pgm\n");
      return 2;
    }
  const int    width = atoi (argv[2]), height = atoi (argv[3]);
  const double azimuth = argc == 7 ? atof (argv[5]) : TERRAIN_HILLSHADE_AZIMUTH;
  const double elevation = argc == 7 ? atof (argv[6]) : TERRAIN_HILLSHADE_ELEVATION;
  if (width < 1 || height < 1 || width > 65536 || height > 65536)
    {
      fprintf (stderr, "terrain-shade: bad size %s x %s\n", argv[2], argv[3]);
      return 2;
    }
  float *heights = malloc ((size_t) width * height * sizeof (float));
  float *shade = malloc ((size_t) width * height * sizeof (float));
  int    status = heights == NULL || shade == NULL;
  if (! status && pnm_read_gray (argv[1], heights, width, height) != 0)
    {
      fprintf (stderr, "terrain-shade: cannot read %s as a %d x %d PGM\n", argv[1], width, height);
      status = 1;
    }
  if (! status)
    {
      terrain_hillshade (heights, width, height, azimuth, elevation,
                         terrain_hillshade_z_scale (width, height), shade);
      status = pnm_write_pgm16 (argv[4], shade, width, height) != 0;
    }
  free (heights);
  free (shade);
  return status;
}
