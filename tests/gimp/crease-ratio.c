/* crease-ratio FILE.pgm...: prints each heightmap's crease ratio (axis to diagonal
 * difference energy at equal distances, 1 = isotropic; tests/unit/field-stats.h). */
#include "field-stats.h"
#include "pnm.h"

#include <stdio.h>
#include <stdlib.h>

int
main (int argc, char **argv)
{
  if (argc < 3)
    return fprintf (stderr, "usage: crease-ratio SIZE FILE.pgm...\n"), 2;
  const int size = atoi (argv[1]);
  float *h = malloc ((size_t) size * size * sizeof (float));
  for (int a = 2; a < argc; a++)
    {
      if (h == NULL || pnm_read_gray (argv[a], h, size, size) != 0)
        return fprintf (stderr, "crease-ratio: cannot read %s as %dx%d\n", argv[a], size, size), 1;
      printf ("%s %.4f\n", argv[a], axis_to_diagonal_energy (h, size, size));
    }
  free (h);
  return 0;
}
