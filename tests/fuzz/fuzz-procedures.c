/* libFuzzer harness over the procedure descriptors (procedure-info.h): one harness covers
 * every procedure in terrain_procedures[], present and future, through its argument table
 * and render adaptor, the way the plug-in and the reference renderer call them.
 *
 * The first byte picks the procedure; then a layer size (up to 4096 pixels, 65536 in one
 * execution in 256, the heavy ones of fuzz-common.h); then one value per argument,
 * always within what GIMP's parameter specs let through: INT a whole number in
 * [min, max] (the ends, just inside, small, log-spread, uniform), DOUBLE in [min, max]
 * (the ends, just inside, tiny steps, uniform), BOOLEAN 0 or 1, CHOICE an id among the
 * items, STRING the default or text from the input's tail (custom-kernel). Outside heavy
 * executions each count (an INT argument but the seed and offsets) times the pixels stays
 * below 2^16; the progress callback ends long renders after 64 reports (1 when heavy) or
 * FUZZ_DEADLINE_MS. Filters get a layer of heights in [0, 1] or of any finite values.
 *
 * Checks:
 *  - the tables: every default within [min, max], every choice default names an item;
 *  - status is one of the enum values; CANCELLED exactly when the progress callback asked;
 *    never NO_MEMORY at these sizes;
 *  - a generator accepts every combination of in-range arguments (a value the dialog
 *    offers must render), or refuses it with a reason in `why`, and writes heights in
 *    [0, 1]; one that does not read the layer (terrain_reads_layer) gets a buffer of NaN,
 *    which must not show;
 *  - a filter keeps finite values, and leaves the layer untouched when it refuses;
 *  - `why` is a NUL-terminated string within why_size;
 *  - render_rect, where present, renders a sub-rectangle bit-identical to the same pixels
 *    of render (procedure-info.h: values that "depend on position only"), when render
 *    does not read the layer. */
#include "fuzz-common.h"

#include "procedure-info.h"

#define MAX_ARGS 32
#define WHY_SIZE 96

static int procedure_count;

static void
check_tables (void)
{
  for (int i = 0; terrain_procedures[i]; i++)
    {
      const TerrainProcedureInfo *info = terrain_procedures[i];
      FUZZ_CHECK (info->name && info->render && info->defaults && info->params_size > 0);
      FUZZ_CHECK (terrain_procedure_find (info->name) == info);
      const int n = terrain_arg_count (info);
      FUZZ_CHECK (n <= MAX_ARGS);
      for (int a = 0; a < n; a++)
        {
          const TerrainArg *arg = &info->args[a];
          FUZZ_CHECK (terrain_arg_index (info, arg->name) == a);
          if (arg->type == TERRAIN_ARG_INT || arg->type == TERRAIN_ARG_DOUBLE ||
              arg->type == TERRAIN_ARG_BOOLEAN)
            FUZZ_CHECK (arg->min <= terrain_arg_default (info, arg).number &&
                        terrain_arg_default (info, arg).number <= arg->max);
          if (arg->type == TERRAIN_ARG_CHOICE)
            FUZZ_CHECK (arg->items && terrain_choice_id (arg, terrain_arg_default (info, arg).text) >= 0);
          if (arg->type == TERRAIN_ARG_STRING)
            FUZZ_CHECK (terrain_arg_default (info, arg).text != NULL);
        }
    }
}

int
LLVMFuzzerInitialize (int *argc, char ***argv)
{
  (void) argc;
  (void) argv;
  while (terrain_procedures[procedure_count])
    procedure_count++;
  check_tables ();
  return 0;
}

static int
item_count (const TerrainArg *arg)
{
  int n = 0;
  while (arg->items[n].nick)
    n++;
  return n;
}

/* Whether an INT argument counts work (iterations, particles, sites, droplets, steps): any
 * but the seed and the offsets, which cost nothing however large. */
static int
is_count (const TerrainArg *arg)
{
  return arg->type == TERRAIN_ARG_INT && arg->min >= 0.0 && ! arg->is_seed;
}

/* A value of an INT or DOUBLE argument within [min, max]. Outside heavy executions a
 * count stays within 2^16 / pixels of its minimum, so that an execution costs at most a
 * few ms. */
static double
arg_number (FuzzInput *in, const TerrainProcedureInfo *info, const TerrainArg *arg, int heavy,
            size_t pixels)
{
  const double lo = arg->min, hi = arg->max;
  const uint8_t sel = fuzz_u8 (in);
  double v;
  switch (sel % 10)
    {
    case 0: v = terrain_arg_default (info, arg).number; break;
    case 1: v = lo; break;
    case 2: v = hi; break;
    case 3: v = arg->type == TERRAIN_ARG_INT ? lo + 1 : nextafter (lo, INFINITY); break;
    case 4: v = arg->type == TERRAIN_ARG_INT ? hi - 1 : nextafter (hi, -INFINITY); break;
    case 5: v = lo + fuzz_u8 (in) % 16; break;
    case 6: v = lo + (hi - lo) * ldexp (1.0, -(int) (fuzz_u8 (in) % 40)); break;
    default: v = lo + (hi - lo) * fuzz_unit (in); break;
    }
  if (arg->type == TERRAIN_ARG_INT)
    {
      v = floor (v);
      const double limit = floor (65536.0 / (double) pixels);
      if (! heavy && is_count (arg) && v - lo >= limit)
        v = lo + (limit >= 1.0 ? fmod (v - lo, limit) : 0.0);
    }
  return v < lo ? lo : v > hi ? hi : v;
}

int
LLVMFuzzerTestOneInput (const uint8_t *data, size_t size)
{
  FuzzInput in = { data, size, 0 };
  const TerrainProcedureInfo *info = terrain_procedures[fuzz_u8 (&in) % procedure_count];
  /* Heavy (one in 256 here): a particles batch on a long layer takes up to a second. */
  const int heavy = fuzz_heavy (&in) && fuzz_u8 (&in) % 4 == 0;
  FuzzSize sz = fuzz_size (&in, heavy ? FUZZ_MAX_PIXELS : 4096, 0);
  /* Reports come every 10^4..10^5 units of work: a few dozen bound an execution. */
  const unsigned long cancel_after = fuzz_cancel_after (&in, heavy ? 1 : 64);
  const uint8_t layer_kind = fuzz_u8 (&in);

  const int n = terrain_arg_count (info);
  TerrainArgValue values[MAX_ARGS];
  terrain_arg_defaults (info, values);
  int wants_text = 0;
  for (int a = 0; a < n; a++)
    {
      const TerrainArg *arg = &info->args[a];
      switch (arg->type)
        {
        case TERRAIN_ARG_INT:
        case TERRAIN_ARG_DOUBLE: values[a].number = arg_number (&in, info, arg, heavy, sz.n); break;
        case TERRAIN_ARG_BOOLEAN: values[a].number = fuzz_u8 (&in) & 1; break;
        case TERRAIN_ARG_CHOICE: values[a].number = fuzz_u8 (&in) % item_count (arg); break;
        case TERRAIN_ARG_STRING:
          if (fuzz_u8 (&in) & 1)
            wants_text |= 1 << a % 31; /* filled from the tail below */
          break;
        }
    }

  /* Filters read the layer; so do guided generators with their guide argument on. The
   * others must ignore the buffer's content (left NaN: it would show). */
  const int reads_layer = terrain_reads_layer (info, values);
  float *heights = fuzz_alloc_floats (sz.n);
  if (reads_layer)
    fuzz_heights (&in, heights, sz.n, layer_kind & 1);
  float *before = fuzz_alloc_floats (sz.n);
  memcpy (before, heights, sz.n * sizeof (float));

  /* Where render_rect is compared: any sub-rectangle. */
  const int x0 = fuzz_u16 (&in) % sz.w, y0 = fuzz_u16 (&in) % sz.h;
  const int w2 = 1 + fuzz_u16 (&in) % (sz.w - x0), h2 = 1 + fuzz_u16 (&in) % (sz.h - y0);

  /* The input's tail is the text of every string argument that asked for it. */
  char *text = fuzz_rest_string (&in);
  for (int a = 0; a < n; a++)
    if (info->args[a].type == TERRAIN_ARG_STRING && (wants_text >> a % 31) & 1)
      values[a].text = text;

  {
    int len = snprintf (fuzz_context, sizeof fuzz_context, "%s %dx%d", info->name, sz.w, sz.h);
    for (int a = 0; a < n && len > 0 && (size_t) len < sizeof fuzz_context; a++)
      len += info->args[a].type == TERRAIN_ARG_STRING
               ? snprintf (fuzz_context + len, sizeof fuzz_context - len, " %s=\"%.40s\"",
                           info->args[a].name, values[a].text)
               : snprintf (fuzz_context + len, sizeof fuzz_context - len, " %s=%.17g",
                           info->args[a].name, values[a].number);
    fuzz_context_done ();
  }
  char why[WHY_SIZE];
  memset (why, 'X', sizeof why);
  why[0] = '\0';
  FuzzProgress prog;
  fuzz_progress_start (&prog, cancel_after);
  const TerrainProgress progress = { fuzz_report, &prog };
  const TerrainStatus status = terrain_procedure_render (info, values, heights, sz.w, sz.h, &progress,
                                             why, sizeof why);

  FUZZ_CHECK (memchr (why, '\0', sizeof why) != NULL);
  FUZZ_CHECK (status == TERRAIN_OK || status == TERRAIN_ERROR_INVALID ||
              status == TERRAIN_ERROR_NO_MEMORY || status == TERRAIN_CANCELLED);
  FUZZ_CHECK (status != TERRAIN_ERROR_NO_MEMORY);
  if (status != TERRAIN_ERROR_INVALID)
    FUZZ_CHECK ((status == TERRAIN_CANCELLED) == (prog.cancelled != 0));

  if (info->kind == TERRAIN_GENERATOR)
    {
      /* In-range arguments render, unless the adaptor says why they cannot go together. */
      if (status == TERRAIN_ERROR_INVALID)
        FUZZ_CHECK (why[0] != '\0');
      if (status == TERRAIN_OK)
        fuzz_check_unit (heights, sz.n);
      if (status == TERRAIN_OK && info->render_rect && ! reads_layer)
        {
          float *sub = fuzz_alloc_floats ((size_t) w2 * h2);
          fuzz_progress_start (&prog, 1u << 20);
          const TerrainStatus sub_status =
            terrain_procedure_render_rect (info, values, sub, x0, y0, w2, h2, &progress, why,
                                           sizeof why);
          FUZZ_CHECK (sub_status == TERRAIN_OK || sub_status == TERRAIN_CANCELLED);
          if (sub_status == TERRAIN_OK)
            for (int y = 0; y < h2; y++)
              FUZZ_CHECK (memcmp (sub + (size_t) y * w2, heights + (size_t) (y0 + y) * sz.w + x0,
                                  (size_t) w2 * sizeof (float)) == 0);
          free (sub);
        }
    }
  else
    {
      if (status == TERRAIN_ERROR_INVALID)
        FUZZ_CHECK (memcmp (before, heights, sz.n * sizeof (float)) == 0);
      else
        fuzz_check_finite (heights, sz.n);
    }
  free (text);
  free (before);
  free (heights);
  return 0;
}
