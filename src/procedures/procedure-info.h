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

#include <stdbool.h>
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
  const char              *label; /* dialog label, with its mnemonic ("_Seed"): unique within
                                   * the procedure's dialog and none of
                                   * TERRAIN_DIALOG_MNEMONICS; terrain_label() strips it */
  const char              *blurb; /* what the user sees change, and its unit, in plain words
                                   * (the dialog's tooltip; terrain_arg_blurb adds the range):
                                   * formulas and sources go to the procedure's help */
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
  { TERRAIN_ARG_INT, "seed", N_("S_eed"),                                                       \
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
  TERRAIN_BOOLEAN_ARG ("guide", N_("_Follow the layer"),                                        \
                       N_("Keep the shapes painted on the layer and add fractal detail to "     \
                          "them: shapes larger than \"Keep shapes larger than\" stay, finer "   \
                          "detail is new"),                                                     \
                       0),                                                                      \
  TERRAIN_INT ("guide-scale", N_("_Keep shapes larger than"),                                   \
               N_("With \"Follow the layer\": the layer's shapes larger than this many "        \
                  "pixels stay; smaller detail is fractal"),                                    \
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

/* The dialog's slider for a numeric argument: its range, within the argument's (the spin
 * field beside it still takes the whole range), or none (min = max = 0): a spin button, for
 * ranges no slider can show (world offsets). Arguments without an entry slide over their
 * whole range; seeds always get a spin button. */
typedef struct
{
  const char *arg;
  double      min, max;
} TerrainArgSlider;

#define TERRAIN_SLIDER(arg, min, max) { arg, min, max }
#define TERRAIN_NO_SLIDER(arg)        { arg, 0, 0 }
#define TERRAIN_SLIDERS_END           { NULL, 0, 0 }

/* The mnemonics the dialog's own controls take, lower case: GimpProcedureDialog's buttons
 * (_Reset, _Cancel, _OK, _Load Saved Settings, _Save Settings, _Help), the preview's own
 * "_Preview" check box, and the plug-in's rows (_Merge filter, Pre_view on canvas, Relief
 * previe_w, Light a_zimuth, Li_ght elevation, "_3D view", and in filters "Preview at _1:1").
 * No argument's label may use them (the descriptors test checks). */
#define TERRAIN_DIALOG_MNEMONICS "rcolshmvwzgp13"

typedef enum
{
  TERRAIN_GENERATOR, /* writes heights; ignores the layer's content */
  TERRAIN_FILTER     /* reads the layer's heights and changes them */
} TerrainProcedureKind;

typedef struct TerrainProcedureInfo
{
  const char                *name;       /* "plug-in-terrain-..." */
  const char                *menu_label; /* with its mnemonic: "_Diamond-Square..." */
  const char                *blurb;
  const char                *help;       /* algorithm, source, conventions */
  TerrainProcedureKind       kind;
  const TerrainArg          *args;       /* ended by TERRAIN_ARGS_END */
  const TerrainArgCondition *conditions; /* NULL, or ended by TERRAIN_CONDITIONS_END */
  const TerrainArgSlider    *sliders;    /* NULL, or ended by TERRAIN_SLIDERS_END */
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

  /* Optional, for filters whose result on the layer reduced `factor` times on each side,
   * stretched back, looks like their result on the whole layer: makes the argument values
   * for the reduced layer, in place (reduced.h). GIMP's renders while a stroke is painted
   * under the filter's effect show that result (src/gegl/stroke.h); NULL: they show the
   * filter's own. */
  void (*reduce) (const struct TerrainProcedureInfo *info, TerrainArgValue *values,
                  int factor);
  /* Optional, for filters that change a layer only a little (erosion), where they have no
   * reduce() or the layer is too large for its look: GIMP's renders while a stroke is
   * painted under the filter's effect show its last full result plus what the stroke
   * painted, unfiltered until mouse up (reduced.h). */
  bool look_paint;
  /* With look_paint: only on layers of more cells than this (a filter cheap on smaller
   * ones, which then shows its own result). */
  size_t look_paint_above;
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

/* A label (already translated) without its mnemonic, for every place but GIMP's menus and
 * dialogs (the procedure reference, the GEGL operations' titles and property nicks, progress texts):
 * "_Diamond-Square..." -> "Diamond-Square...", "__" -> "_". At most size bytes, always
 * NUL-terminated; returns out. */
char                       *terrain_label (const char *label, char *out, size_t size);

/* The argument's slider range in the dialog: 1 with *min, *max set; 0 for a spin button. */
int                         terrain_arg_slider (const TerrainProcedureInfo *info,
                                                const TerrainArg *arg, double *min,
                                                double *max);

/* Writes a reason into why (why_size bytes, always NUL-terminated): `format`, marked
 * N_("..."), goes through terrain_translate, then printf-style formatting. A translation
 * keeps the format's conversions (msgfmt --check-format verifies it). */
void                        terrain_why (char *why, size_t why_size, const char *format, ...)
                              TERRAIN_PRINTF (3, 4);

#endif
