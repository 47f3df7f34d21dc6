/* terrain-render: renders any terrain procedure with the core alone, no GIMP.
 *
 *   terrain-render PROCEDURE WIDTH HEIGHT OUT.{pgm,pfm} [--input IN.pgm] [--reduced FACTOR]
 *                  [name=value ...]
 *
 * Arguments are the procedure's PDB arguments by name (choices by nick); omitted ones take
 * their defaults, exactly as a Script-Fu keyword call does. OUT.pgm is a 16-bit PGM,
 * OUT.pfm a float PFM. Filters, and generators with guide=1, read the layer's heights
 * from --input: an 8- or 16-bit PGM, a grey PFM or raw floats named NAME-W-H.f32, of
 * WIDTH x HEIGHT (a PFM's or raw file's heights as they are: a layer's are in [0, 1]). --reduced renders a filter's look on the layer reduced
 * FACTOR times (src/procedures/reduced.h: what GIMP shows while a stroke is painted under its
 * effect; FACTOR 0 takes the GEGL module's factor for the layer's size).
 * The integration tests compare GIMP's pixels against this program's output.
 */
#include "pnm.h"
#include "procedure-info.h"
#include "reduced.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int
usage (void)
{
  fprintf (stderr, "usage: terrain-render PROCEDURE WIDTH HEIGHT OUT.pgm|OUT.pfm "
                   "[--input IN.pgm|IN.pfm|NAME-W-H.f32] [--reduced FACTOR] [name=value ...]\nprocedures:\n");
  for (int i = 0; terrain_procedures[i]; i++)
    fprintf (stderr, "  %s\n", terrain_procedures[i]->name);
  return 2;
}

/* Parses name=value into values[]; returns 0 on success. */
static int
set_argument (const TerrainProcedureInfo *info, TerrainArgValue *values, char *assignment)
{
  char *eq = strchr (assignment, '=');
  if (eq == NULL)
    return fprintf (stderr, "terrain-render: expected name=value, got '%s'\n", assignment), 1;
  *eq = '\0';
  int i = terrain_arg_index (info, assignment);
  if (i < 0)
    return fprintf (stderr, "terrain-render: %s has no argument '%s'\n", info->name, assignment), 1;
  const TerrainArg *arg = &info->args[i];
  const char *text = eq + 1;
  if (terrain_arg_from_text (arg, text, &values[i]) == 0)
    return 0;
  if (arg->type == TERRAIN_ARG_CHOICE)
    fprintf (stderr, "terrain-render: '%s' is not a choice of %s\n", text, arg->name);
  else
    fprintf (stderr, "terrain-render: %s=%s is not a number in [%g, %g]\n", arg->name, text,
             arg->min, arg->max);
  return 1;
}

/* The layer's heights from a PGM, PFM or NAME-W-H.f32 of width x height. */
static int
read_input (const char *path, float *heights, int width, int height)
{
  int    w = 0, h = 0;
  float *in = pnm_read_heights (path, &w, &h);
  if (in == NULL || w != width || h != height)
    {
      fprintf (stderr, "terrain-render: cannot read %s as a %dx%d PGM, PFM or NAME-W-H.f32\n",
               path, width, height);
      free (in);
      return 1;
    }
  memcpy (heights, in, (size_t) width * height * sizeof (float));
  free (in);
  return 0;
}

int
main (int argc, char **argv)
{
  if (argc < 5)
    return usage ();
  const TerrainProcedureInfo *info = terrain_procedure_find (argv[1]);
  if (info == NULL)
    return usage ();
  const int width = atoi (argv[2]), height = atoi (argv[3]);
  const char *out_path = argv[4];
  if (terrain_check_size (width, height) != TERRAIN_OK)
    return fprintf (stderr, "terrain-render: bad size %dx%d\n", width, height), 2;

  TerrainArgValue *values = calloc ((size_t) terrain_arg_count (info) + 1, sizeof *values);
  float *heights = malloc ((size_t) width * height * sizeof (float));
  if (values == NULL || heights == NULL)
    return fprintf (stderr, "terrain-render: out of memory\n"), 1;
  terrain_arg_defaults (info, values);

  int have_input = 0, factor = 1;
  for (int a = 5; a < argc; a++)
    {
      if (strcmp (argv[a], "--reduced") == 0 && a + 1 < argc)
        {
          factor = atoi (argv[++a]);
          factor = factor > 0 ? factor : terrain_reduced_factor (width, height);
          continue;
        }
      if (strcmp (argv[a], "--input") == 0 && a + 1 < argc)
        {
          have_input = 1;
          if (read_input (argv[++a], heights, width, height) != 0)
            return 1;
          continue;
        }
      if (set_argument (info, values, argv[a]) != 0)
        return 2;
    }

  if (terrain_reads_layer (info, values) && ! have_input)
    return fprintf (stderr, "terrain-render: %s with these arguments reads the layer: "
                            "give --input IN.pgm\n", info->name), 2;

  if (factor > 1 && info->reduce == NULL)
    return fprintf (stderr, "terrain-render: %s has no reduced look\n", info->name), 2;
  char why[256] = "";
  TerrainStatus status =
    factor > 1 ? terrain_procedure_render_reduced (info, values, heights, width, height, factor,
                                                   NULL, why, sizeof why)
               : terrain_procedure_render (info, values, heights, width, height, NULL, why,
                                           sizeof why);
  if (status != TERRAIN_OK)
    return fprintf (stderr, "terrain-render: %s: %s\n", terrain_status_message (status), why), 1;

  size_t len = strlen (out_path);
  int failed = len > 4 && strcmp (out_path + len - 4, ".pfm") == 0
                 ? pnm_write_pfm (out_path, heights, width, height)
                 : pnm_write_pgm16 (out_path, heights, width, height);
  free (heights);
  free (values);
  return failed ? 1 : 0;
}
