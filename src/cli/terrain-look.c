/* terrain-look: the look figures (src/terrain/include/look.h) of heightmaps.
 *
 *   terrain-look [--markdown] [--label TEXT] FILE...
 *
 * FILE is an 8- or 16-bit PGM, a grey PFM or raw little-endian floats named NAME-W-H.f32.
 * Prints a header line, then one line per file: its name, size, aniso45, speckle, beta,
 * theta with its r^2, and closed pits in percent; --markdown prints the header and each file
 * as a table row instead, named by --label when given (else by the file's name). */
#include "look.h"
#include "pnm.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int
measure (const char *path, const char *label, int markdown)
{
  int    w = 0, h = 0;
  float *heights = pnm_read_heights (path, &w, &h);
  if (heights == NULL)
    return fprintf (stderr, "terrain-look: cannot read %s as a PGM, PFM or NAME-W-H.f32\n",
                    path), 1;
  TerrainLook   l;
  TerrainStatus status = terrain_look_measure (heights, w, h, &l);
  free (heights);
  if (status != TERRAIN_OK)
    return fprintf (stderr, "terrain-look: %s (%dx%d): %s\n", path, w, h,
                    terrain_status_message (status)), 1;
  if (markdown)
    printf ("| %s | %d×%d | %.2f | %.1f | %.1f | %.2f (%.2f) | %.2f %% |\n", label ? label : path,
            w, h, l.aniso45, l.speckle, l.beta, l.theta, l.theta_r2, l.pits);
  else
    printf ("%-40s %5d %5d %8.3f %8.3f %6.3f %6.3f %6.3f %7.3f\n", label ? label : path, w, h,
            l.aniso45, l.speckle, l.beta, l.theta, l.theta_r2, l.pits);
  return 0;
}

int
main (int argc, char **argv)
{
  int         markdown = 0, files = 0, failed = 0;
  const char *label = NULL;
  for (int a = 1; a < argc; a++)
    if (strcmp (argv[a], "--markdown") == 0)
      markdown = 1;
    else if (strcmp (argv[a], "--label") == 0 && a + 1 < argc)
      label = argv[++a];
    else if (argv[a][0] == '-')
      return fprintf (stderr, "usage: terrain-look [--markdown] [--label TEXT] FILE...\n"), 2;
    else
      files++;
  if (files == 0)
    return fprintf (stderr, "usage: terrain-look [--markdown] [--label TEXT] FILE...\n"), 2;
  if (markdown)
    printf ("| map | size | aniso45 | speckle | beta | θ (r²) | pits |\n"
            "|---|---|---|---|---|---|---|\n");
  else
    printf ("%-40s %5s %5s %8s %8s %6s %6s %6s %7s\n", "file", "width", "height", "aniso45",
            "speckle", "beta", "theta", "r2", "pits%");
  for (int a = 1; a < argc; a++)
    if (strcmp (argv[a], "--label") == 0)
      a++;
    else if (argv[a][0] != '-')
      failed |= measure (argv[a], label, markdown);
  return failed;
}
