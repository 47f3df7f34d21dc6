/* One descriptor per procedure: its PDB name, menu label, documentation, the core it runs,
 * and its arguments, each bound to the field of the core's parameter struct it fills. The
 * descriptors drive registration, the dialog, the GEGL operations, the documentation and
 * the reference renderer, so nothing about a procedure is written twice: an argument's
 * default is the core's own (its _defaults()), its range is stated once (min and max, which
 * the blurbs quote), and one routine fills any core's parameters from the arguments.
 * GIMP-free: plain C11.
 *
 * Strings are marked with N_() for translation (gettext domain "gimp-terrain", po/); the
 * plug-in and the GEGL module translate them through terrain_text(). Reasons written into
 * `why` are translatable too: write them with terrain_why() and an N_() format.
 */
#ifndef TERRAIN_PROCEDURE_INFO_H
#define TERRAIN_PROCEDURE_INFO_H

#include "terrain-types.h"

#include <stddef.h>
#include <stdint.h>

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

/* Where an argument's value goes in the core's parameter struct. */
typedef enum
{
  TERRAIN_FIELD_NONE,   /* nowhere: the descriptor's adjust() reads it; `preset` is its default */
  TERRAIN_FIELD_INT,    /* an int */
  TERRAIN_FIELD_UINT32, /* a uint32_t (seeds) */
  TERRAIN_FIELD_DOUBLE, /* a double */
  TERRAIN_FIELD_ENUM    /* an enum whose values are the choice's ids */
} TerrainFieldType;

/* A choice's entries; an entry's id is its index, which is the core enum's value. */
typedef struct
{
  const char *nick;
  const char *label;
  const char *help;
} TerrainChoiceItem;

/* One argument's value: numbers, booleans and choice ids in `number`, strings in `text`. */
typedef struct
{
  double      number;
  const char *text;
} TerrainArgValue;

typedef struct
{
  TerrainArgType           type;
  const char              *name;  /* PDB argument name: public scripting API */
  const char              *label; /* dialog label (no mnemonic: GIMP reserves letters) */
  const char              *blurb; /* what it is and its unit (terrain_arg_blurb adds the range) */
  double                   min, max;
  TerrainFieldType         field;
  size_t                   offset;  /* of the field in the core's parameter struct */
  TerrainArgValue          preset;  /* the default of an argument with no field */
  const TerrainChoiceItem *items;   /* choices, ended by an entry with a NULL nick */
  int                      is_seed; /* a random seed: dialogs offer a new one */
} TerrainArg;

/* The offset of field F of struct T, which must be of type C (else no _Generic match: a
 * compile error), so that an argument can never write a field of another type. */
#define TERRAIN_OFFSET(T, F, C) _Generic (((T *) 0)->F, C: offsetof (T, F))
/* An enum field (int or unsigned int underneath, as the compiler chooses). */
#define TERRAIN_ENUM_OFFSET(T, F) \
  _Generic (((T *) 0)->F, int: offsetof (T, F), unsigned int: offsetof (T, F))

/* Arguments bound to field F of the core's parameter struct T. */
#define TERRAIN_INT(name, label, blurb, min, max, T, F) \
  { TERRAIN_ARG_INT, name, label, blurb, min, max, TERRAIN_FIELD_INT, TERRAIN_OFFSET (T, F, int), \
    { 0, NULL }, NULL, 0 }
#define TERRAIN_DOUBLE(name, label, blurb, min, max, T, F)                                      \
  { TERRAIN_ARG_DOUBLE, name, label, blurb, min, max, TERRAIN_FIELD_DOUBLE,                     \
    TERRAIN_OFFSET (T, F, double), { 0, NULL }, NULL, 0 }
#define TERRAIN_CHOICE(name, label, blurb, items, T, F)                                         \
  { TERRAIN_ARG_CHOICE, name, label, blurb, 0, 0, TERRAIN_FIELD_ENUM, TERRAIN_ENUM_OFFSET (T, F), \
    { 0, NULL }, items, 0 }
#define TERRAIN_SEED(T, F)                                                                      \
  { TERRAIN_ARG_INT, "seed", N_("Seed"),                                                        \
    N_("Random seed: the same seed gives the same heightmap"), 0, 2147483647,                  \
    TERRAIN_FIELD_UINT32, TERRAIN_OFFSET (T, F, uint32_t), { 0, NULL }, NULL, 1 }
/* Arguments no field holds, with their defaults: the descriptor's adjust() reads them. */
#define TERRAIN_BOOLEAN_ARG(name, label, blurb, value) \
  { TERRAIN_ARG_BOOLEAN, name, label, blurb, 0, 1, TERRAIN_FIELD_NONE, 0, { value, NULL }, NULL, 0 }
#define TERRAIN_CHOICE_ARG(name, label, blurb, items, nick)                                     \
  { TERRAIN_ARG_CHOICE, name, label, blurb, 0, 0, TERRAIN_FIELD_NONE, 0, { 0, nick }, items, 0 }
#define TERRAIN_STRING_ARG(name, label, blurb, text) \
  { TERRAIN_ARG_STRING, name, label, blurb, 0, 0, TERRAIN_FIELD_NONE, 0, { 0, text }, NULL, 0 }
#define TERRAIN_ARGS_END { 0, NULL, NULL, NULL, 0, 0, 0, 0, { 0, NULL }, NULL, 0 }

/* Guided generation, for generators whose parameters T have a field guide_scale: "guide"
 * (no field: the procedure's guide_arg, which makes it read the layer) and "guide-scale". */
#define TERRAIN_GUIDE_ARGS(T)                                                                   \
  TERRAIN_BOOLEAN_ARG ("guide", N_("Follow the layer"),                                         \
                       N_("Use the layer's current content as the coarse shape: features "      \
                          "larger than guide-scale come from it, finer ones are added"),        \
                       0),                                                                      \
  TERRAIN_INT ("guide-scale", N_("Guide scale"),                                                \
               N_("With guide: the feature size in pixels below which fractal detail is added"), \
               1, 65536, T, guide_scale)

/* An argument that matters only while another one has some values: the dialogs grey it out
 * otherwise, and the documentation says when it applies. */
typedef struct
{
  const char *arg;
  const char *switch_arg; /* a choice, or a boolean */
  const char *nicks;      /* the choice's values, space-separated; NULL: the boolean is on */
} TerrainArgCondition;

#define TERRAIN_WHEN(arg, choice, nicks) { arg, choice, nicks }
#define TERRAIN_WHEN_ON(arg, boolean)    { arg, boolean, NULL }
#define TERRAIN_CONDITIONS_END           { NULL, NULL, NULL }

typedef enum
{
  TERRAIN_GENERATOR, /* writes heights; ignores the layer's content */
  TERRAIN_FILTER     /* reads the layer's heights and changes them */
} TerrainProcedureKind;

typedef struct
{
  const char                *name;       /* "plug-in-terrain-..." */
  const char                *menu_label;
  const char                *blurb;
  const char                *help;       /* algorithm, source, conventions */
  TerrainProcedureKind       kind;
  const TerrainArg          *args;       /* ended by TERRAIN_ARGS_END */
  const TerrainArgCondition *conditions; /* NULL, or ended by TERRAIN_CONDITIONS_END */
  /* For generators that can follow the layer's content: the boolean argument that makes
   * them read it; NULL otherwise. */
  const char                *guide_arg;

  /* The core: its parameter struct (params_size bytes, set up by defaults), ... */
  size_t        params_size;
  void          (*defaults) (void *params);
  /* ... optionally completed from the arguments no field holds, and checked: combinations
   * render would refuse on a width x height layer (TERRAIN_ERROR_INVALID, with the reason
   * in why). `guide` is the layer's heights when the procedure follows the layer, else NULL
   * (when only checking); params may keep the pointer. */
  TerrainStatus (*adjust) (void *params, const TerrainArgValue *values, const float *guide,
                           int width, int height, char *why, size_t why_size);
  /* ... and its entry point: renders (generators) or filters in place (filters). */
  TerrainStatus (*render) (const void *params, float *heights, int width, int height,
                           const TerrainProgress *progress);
  /* Optional, for generators whose values depend on position only: the layer rectangle
   * [x, x + width) x [y, y + height). Callers then render bands or rows on their own. */
  TerrainStatus (*render_rect) (const void *params, float *out, int x, int y, int width,
                                int height, const TerrainProgress *progress);

  /* Optional: maps the procedure makes beside the heights, each width x height in [0, 1]
   * (river erosion's flow, erosion and deposition), wanted while the boolean argument
   * maps_arg is on: their names (ended by NULL), and the render that fills them too. */
  const char        *maps_arg;
  const char *const *map_names;
  TerrainStatus (*render_maps) (const void *params, float *heights, int width, int height,
                                float *const *maps, const TerrainProgress *progress);
} TerrainProcedureInfo;

/* A descriptor's core: the parameter struct T, its defaults function and its entry point,
 * wrapped for the descriptor (.params_size, .defaults, .render). */
#define TERRAIN_CORE(T, defaults_fn, render_fn)                                                 \
  static void core_defaults (void *params) { defaults_fn ((T *) params); }                     \
  static TerrainStatus core_render (const void *params, float *heights, int width, int height, \
                                    const TerrainProgress *progress)                           \
  {                                                                                             \
    return render_fn ((const T *) params, heights, width, height, progress);                   \
  }
#define TERRAIN_CORE_FIELDS(T) \
  .params_size = sizeof (T), .defaults = core_defaults, .render = core_render

/* Every procedure, ended by NULL (procedure-table.c, generated from the list in meson). */
extern const TerrainProcedureInfo *const terrain_procedures[];

const TerrainProcedureInfo *terrain_procedure_find (const char *name);
int                         terrain_arg_count (const TerrainProcedureInfo *info);
int                         terrain_arg_index (const TerrainProcedureInfo *info, const char *name);
/* The value of the argument called name (values in argument order). */
TerrainArgValue             terrain_arg_value (const TerrainProcedureInfo *info,
                                               const TerrainArgValue *values, const char *name);
/* The id of `nick` among the argument's choices, or -1. */
int                         terrain_choice_id (const TerrainArg *arg, const char *nick);
/* An argument's default: the core's for a field, else the argument's preset; text is the
 * nick of a choice's default. */
TerrainArgValue             terrain_arg_default (const TerrainProcedureInfo *info,
                                                 const TerrainArg *arg);
/* Fills values with every argument's default. */
void                        terrain_arg_defaults (const TerrainProcedureInfo *info,
                                                  TerrainArgValue *values);
/* Sets *value from text as the argument reads it: a choice's nick, the whole text as a
 * number within [min, max] (numbers and booleans), or a string (value->text = text, which
 * must outlive value). Returns 0, or -1 when text is no value of the argument (value is
 * then unspecified). For the command-line renderer and the tests' settings. */
int                         terrain_arg_from_text (const TerrainArg *arg, const char *text,
                                                   TerrainArgValue *value);
/* The argument's blurb in the user's language, with its range ("… (1 to 100000)") for
 * numbers: at most size bytes, always NUL-terminated. */
void                        terrain_arg_blurb (const TerrainArg *arg, char *out, size_t size);
/* The argument's range, "1 to 100000", for numbers; "" for the others. */
void                        terrain_arg_range (const TerrainArg *arg, char *out, size_t size);

/* Whether the procedure reads the layer's current heights: filters always, guided
 * generators when their guide argument is on. */
int                         terrain_reads_layer (const TerrainProcedureInfo *info,
                                                 const TerrainArgValue *values);

/* The core's parameters (params_size bytes at params) from argument values: the core's
 * defaults, then every argument's field (not the descriptor's adjustments). */
void          terrain_procedure_fill (const TerrainProcedureInfo *info,
                                      const TerrainArgValue *values, void *params);

/* Renders the procedure from argument values into heights (width x height; the layer's
 * heights on entry when it reads the layer). TERRAIN_ERROR_INVALID with a reason in why
 * (why_size bytes) when the core or the descriptor refuses the values. */
TerrainStatus terrain_procedure_render (const TerrainProcedureInfo *info,
                                        const TerrainArgValue *values, float *heights,
                                        int width, int height, const TerrainProgress *progress,
                                        char *why, size_t why_size);
/* As terrain_procedure_render, for a procedure with maps whose maps_arg is on: also fills
 * maps[i] (width x height floats each) for every name of info->map_names. */
TerrainStatus terrain_procedure_render_maps (const TerrainProcedureInfo *info,
                                             const TerrainArgValue *values, float *heights,
                                             int width, int height, float *const *maps,
                                             const TerrainProgress *progress, char *why,
                                             size_t why_size);
/* How many maps the procedure makes with these values: 0 unless its maps_arg is on. */
int           terrain_procedure_map_count (const TerrainProcedureInfo *info,
                                           const TerrainArgValue *values);

/* The layer rectangle [x, x + width) x [y, y + height) of a width... layer, for procedures
 * with render_rect that do not read the layer. */
TerrainStatus terrain_procedure_render_rect (const TerrainProcedureInfo *info,
                                             const TerrainArgValue *values, float *out, int x,
                                             int y, int width, int height,
                                             const TerrainProgress *progress, char *why,
                                             size_t why_size);
/* TERRAIN_ERROR_INVALID, with the reason, for argument values render would refuse on a
 * width x height layer although each is within its range; TERRAIN_OK otherwise. Lets a
 * caller refuse them before rendering anywhere else (a GEGL operation cannot report). */
TerrainStatus terrain_procedure_check (const TerrainProcedureInfo *info,
                                       const TerrainArgValue *values, int width, int height,
                                       char *why, size_t why_size);

/* A copy of width x height heights, or NULL when out of memory; free() it. */
float                      *terrain_heights_copy (const float *heights, int width, int height);

/* Translation. The plug-in and the GEGL module point terrain_translate at their gettext
 * domain; left NULL (the command-line tools, the tests), everything stays in English. */
extern const char *(*terrain_translate) (const char *msgid);

/* msgid through terrain_translate (msgid itself without one). */
const char                 *terrain_text (const char *msgid);

/* Writes a reason into why (why_size bytes, always NUL-terminated): `format`, marked
 * N_("..."), goes through terrain_translate, then printf-style formatting. A translation
 * keeps the format's conversions (msgfmt --check-format verifies it). */
void                        terrain_why (char *why, size_t why_size, const char *format, ...)
                              TERRAIN_PRINTF (3, 4);

#endif
