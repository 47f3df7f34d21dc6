/* One descriptor per procedure: its PDB name, menu label, documentation, argument table
 * and a render adaptor from argument values to the core. The table drives registration,
 * the dialog, the generated documentation and the reference renderer used by the tests,
 * so nothing about a procedure is written twice. GIMP-free: plain C11.
 *
 * Strings are marked with N_() for translation (gettext domain "gimp-terrain", po/); the
 * plug-in translates them at registration. Reasons a render adaptor writes into `why` are
 * translatable too: write them with terrain_why() and an N_() format.
 */
#ifndef TERRAIN_PROCEDURE_INFO_H
#define TERRAIN_PROCEDURE_INFO_H

#include "terrain-common.h"

/* The same definition as GLib's gi18n.h and gi18n-lib.h, so any include order is fine. */
#ifndef N_
#define N_(String) (String)
#endif

#if defined(__GNUC__) || defined(__clang__)
#define TERRAIN_PRINTF(format_index, first_arg) \
  __attribute__ ((format (printf, format_index, first_arg)))
#else
#define TERRAIN_PRINTF(format_index, first_arg)
#endif

typedef enum
{
  TERRAIN_ARG_INT,
  TERRAIN_ARG_DOUBLE,
  TERRAIN_ARG_BOOLEAN,
  TERRAIN_ARG_CHOICE,
  TERRAIN_ARG_STRING
} TerrainArgType;

/* A choice's entries; an entry's id is its index, which is the core enum's value. */
typedef struct
{
  const char *nick;
  const char *label;
  const char *help;
} TerrainChoiceItem;

typedef struct
{
  TerrainArgType           type;
  const char              *name;  /* PDB argument name: public scripting API */
  const char              *label; /* dialog label (no mnemonic: GIMP reserves letters) */
  const char              *blurb; /* what it is, its unit and range */
  double                   min, max, value; /* value: the default (numbers, booleans) */
  const char              *text;  /* the default nick (choices) or string */
  const TerrainChoiceItem *items; /* choices, ended by an entry with a NULL nick */
} TerrainArg;

#define TERRAIN_INT(name, label, blurb, min, max, value) \
  { TERRAIN_ARG_INT, name, label, blurb, min, max, value, NULL, NULL }
#define TERRAIN_DOUBLE(name, label, blurb, min, max, value) \
  { TERRAIN_ARG_DOUBLE, name, label, blurb, min, max, value, NULL, NULL }
#define TERRAIN_BOOLEAN(name, label, blurb, value) \
  { TERRAIN_ARG_BOOLEAN, name, label, blurb, 0, 1, value, NULL, NULL }
#define TERRAIN_CHOICE(name, label, blurb, items, default_nick) \
  { TERRAIN_ARG_CHOICE, name, label, blurb, 0, 0, 0, default_nick, items }
#define TERRAIN_STRING(name, label, blurb, value) \
  { TERRAIN_ARG_STRING, name, label, blurb, 0, 0, 0, value, NULL }
/* Guided generation (guide_arg "guide"), for generators that can follow a painted layer. */
#define TERRAIN_GUIDE_ARGS                                                                 \
  TERRAIN_BOOLEAN ("guide", N_("Follow the layer"),                                       \
                   N_("Use the layer's current content as the coarse shape: features "     \
                      "larger than guide-scale come from it, finer ones are added"),       \
                   0),                                                                     \
  TERRAIN_INT ("guide-scale", N_("Guide scale"),                                          \
               N_("With guide: the feature size in pixels below which fractal detail is "  \
                  "added (1 to 65536)"),                                                   \
               1, 65536, 32)

#define TERRAIN_ARGS_END { 0, NULL, NULL, NULL, 0, 0, 0, NULL, NULL }

/* Arguments several procedures share, declared once. */
#define TERRAIN_SEED_ARG                                                                 \
  TERRAIN_INT ("seed", N_("Seed"),                                                     \
               N_("Random seed: the same seed gives the same heightmap (0 to 2147483647)"), \
               0, 2147483647, 0)

/* One argument's value: numbers, booleans and choice ids in `number`, strings in `text`. */
typedef struct
{
  double      number;
  const char *text;
} TerrainArgValue;

/* An argument that matters only while a choice argument has one of some values: the dialog
 * greys it out otherwise, and the documentation says when it applies. */
typedef struct
{
  const char *arg;
  const char *choice_arg;
  const char *nicks; /* space-separated */
} TerrainArgCondition;

typedef enum
{
  TERRAIN_GENERATOR, /* writes heights; ignores the layer's content */
  TERRAIN_FILTER     /* reads the layer's heights and changes them */
} TerrainProcedureKind;

typedef struct
{
  const char          *name;       /* "plug-in-terrain-..." */
  const char          *menu_label;
  const char          *blurb;
  const char          *help;       /* algorithm, source, conventions */
  TerrainProcedureKind kind;
  const TerrainArg    *args;       /* ended by TERRAIN_ARGS_END */

  /* Renders (generators) or filters in place (filters) a width x height map from the
   * argument values, given in the order of `args`. Writes a short reason into `why`
   * (why_size bytes) for TERRAIN_ERROR_INVALID when it can say more than the status. */
  TerrainStatus (*render) (const TerrainArgValue *values, float *heights,
                           int width, int height, const TerrainProgress *progress,
                           char *why, size_t why_size);

  /* Optional, for generators whose values depend on position only: renders the layer
   * rectangle [x, x + width) x [y, y + height). The plug-in then writes band by band
   * without a layer-sized buffer, and previews sample rows without rendering everything. */
  TerrainStatus (*render_rect) (const TerrainArgValue *values, float *out, int x, int y,
                                int width, int height, const TerrainProgress *progress,
                                char *why, size_t why_size);

  const TerrainArgCondition *conditions; /* NULL, or ended by an entry with a NULL arg */

  /* For generators that can follow the layer's content: the boolean argument that makes
   * them read it (render then gets the layer's heights in `heights`); NULL otherwise. */
  const char *guide_arg;

  /* Optional: TERRAIN_ERROR_INVALID, with the reason in `why`, for argument values that
   * render would refuse on a width x height layer although each is within its range (a
   * combination, a kernel, the world's edge); TERRAIN_OK otherwise. render checks them
   * too; this lets a caller refuse them before rendering anywhere else (a GEGL operation
   * cannot report an error). */
  TerrainStatus (*check) (const TerrainArgValue *values, int width, int height, char *why,
                          size_t why_size);
} TerrainProcedureInfo;

/* info->check, or TERRAIN_OK for a procedure without one. */
TerrainStatus terrain_procedure_check (const TerrainProcedureInfo *info,
                                       const TerrainArgValue *values, int width, int height,
                                       char *why, size_t why_size);

/* Every procedure, ended by NULL. */
extern const TerrainProcedureInfo *const terrain_procedures[];

const TerrainProcedureInfo *terrain_procedure_find (const char *name);
int                         terrain_arg_count (const TerrainProcedureInfo *info);
int                         terrain_arg_index (const TerrainProcedureInfo *info, const char *name);
/* The id of `nick` among the argument's choices, or -1. */
int                         terrain_choice_id (const TerrainArg *arg, const char *nick);
/* Whether render needs the layer's current heights in its buffer: filters always, guided
 * generators when their guide argument is on. */
int                         terrain_reads_layer (const TerrainProcedureInfo *info,
                                                 const TerrainArgValue *values);
/* A copy of width x height heights (the layer, kept as a guide while the result
 * overwrites the buffer), or NULL when out of memory; free() it. */
float                      *terrain_heights_copy (const float *heights, int width, int height);
/* Sets *value from text as the argument reads it: a choice's nick, the whole text as a
 * number within [min, max] (numbers and booleans), or a string (value->text = text, which
 * must outlive value). Returns 0, or -1 when text is no value of the argument (value is
 * then unspecified). For the command-line renderer and the tests' settings. */
int                         terrain_arg_from_text (const TerrainArg *arg, const char *text,
                                                   TerrainArgValue *value);
/* Fills values with every argument's default. */
void                        terrain_arg_defaults (const TerrainProcedureInfo *info,
                                                  TerrainArgValue *values);

/* Translation of the reasons written into `why`. The plug-in points terrain_translate at
 * its gettext domain; left NULL (the command-line tools, the tests of the core), reasons
 * stay in English. */
extern const char *(*terrain_translate) (const char *msgid);

/* msgid through terrain_translate (msgid itself without one). */
const char                 *terrain_text (const char *msgid);

/* Writes a reason into why (why_size bytes, always NUL-terminated): `format`, marked
 * N_("..."), goes through terrain_translate, then printf-style formatting. A translation
 * keeps the format's conversions (msgfmt --check-format verifies it). */
void                        terrain_why (char *why, size_t why_size, const char *format, ...)
                              TERRAIN_PRINTF (3, 4);

#endif
