#include "procedure-info.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

const TerrainProcedureInfo *
terrain_procedure_find (const char *name)
{
  for (int i = 0; terrain_procedures[i]; i++)
    if (strcmp (terrain_procedures[i]->name, name) == 0)
      return terrain_procedures[i];
  return NULL;
}

int
terrain_arg_count (const TerrainProcedureInfo *info)
{
  int n = 0;
  while (info->args[n].name)
    n++;
  return n;
}

int
terrain_arg_index (const TerrainProcedureInfo *info, const char *name)
{
  for (int i = 0; info->args[i].name; i++)
    if (strcmp (info->args[i].name, name) == 0)
      return i;
  return -1;
}

TerrainArgValue
terrain_arg_value (const TerrainProcedureInfo *info, const TerrainArgValue *values,
                   const char *name)
{
  const int i = terrain_arg_index (info, name);
  return i >= 0 ? values[i] : (TerrainArgValue) { 0, NULL };
}

int
terrain_choice_id (const TerrainArg *arg, const char *nick)
{
  for (int i = 0; arg->items && arg->items[i].nick; i++)
    if (strcmp (arg->items[i].nick, nick) == 0)
      return i;
  return -1;
}

/* ---- Fields ---- */

/* The number a field holds. */
static double
field_value (const TerrainArg *arg, const void *params)
{
  const char *field = (const char *) params + arg->offset;
  int         i;
  uint32_t    u;
  double      d;
  switch (arg->field)
    {
    case TERRAIN_FIELD_INT:
    case TERRAIN_FIELD_ENUM: memcpy (&i, field, sizeof i); return i;
    case TERRAIN_FIELD_UINT32: memcpy (&u, field, sizeof u); return u;
    case TERRAIN_FIELD_DOUBLE: memcpy (&d, field, sizeof d); return d;
    default: return 0.0;
    }
}

static void
set_field (const TerrainArg *arg, void *params, double number)
{
  /* Each conversion only for its own field: the number is in that field's range (the
   * argument's), not always in the others' (converting it there would be undefined). */
  char *field = (char *) params + arg->offset;
  switch (arg->field)
    {
    case TERRAIN_FIELD_INT:
    case TERRAIN_FIELD_ENUM:
      {
        const int i = (int) number;
        memcpy (field, &i, sizeof i);
        break;
      }
    case TERRAIN_FIELD_UINT32:
      {
        const uint32_t u = (uint32_t) number;
        memcpy (field, &u, sizeof u);
        break;
      }
    case TERRAIN_FIELD_DOUBLE: memcpy (field, &number, sizeof number); break;
    default: break;
    }
}

/* The core's default parameters in a buffer of the procedure's (free() it), or NULL. */
static void *
default_params (const TerrainProcedureInfo *info)
{
  void *params = malloc (info->params_size);
  if (params)
    info->defaults (params);
  return params;
}

TerrainArgValue
terrain_arg_default (const TerrainProcedureInfo *info, const TerrainArg *arg)
{
  if (arg->field == TERRAIN_FIELD_NONE)
    {
      TerrainArgValue value = arg->preset;
      if (arg->type == TERRAIN_ARG_CHOICE)
        value.number = terrain_choice_id (arg, value.text);
      return value;
    }
  void           *params = default_params (info);
  TerrainArgValue value = { params ? field_value (arg, params) : 0.0, NULL };
  free (params);
  if (arg->type == TERRAIN_ARG_CHOICE)
    value.text = arg->items[(int) value.number].nick;
  return value;
}

void
terrain_arg_defaults (const TerrainProcedureInfo *info, TerrainArgValue *values)
{
  for (int i = 0; info->args[i].name; i++)
    values[i] = terrain_arg_default (info, &info->args[i]);
}

int
terrain_arg_from_text (const TerrainArg *arg, const char *text, TerrainArgValue *value)
{
  char *end = NULL;
  switch (arg->type)
    {
    case TERRAIN_ARG_CHOICE:
      value->number = terrain_choice_id (arg, text);
      return value->number < 0 ? -1 : 0;
    case TERRAIN_ARG_STRING:
      value->text = text;
      return 0;
    default:
      value->number = strtod (text, &end);
      return end == text || *end != '\0' || ! (value->number >= arg->min) ||
                 ! (value->number <= arg->max) ? -1 : 0;
    }
}

/* ---- Texts ---- */

/* A bound of a range as people write it: whole numbers in full (1000000, not 1e+06). */
static void
format_bound (double v, char *out, size_t size)
{
  snprintf (out, size, v == floor (v) && fabs (v) < 1e15 ? "%.0f" : "%g", v);
}

void
terrain_arg_range (const TerrainArg *arg, char *out, size_t size)
{
  char min[32], max[32];
  if (arg->type != TERRAIN_ARG_INT && arg->type != TERRAIN_ARG_DOUBLE)
    {
      snprintf (out, size, "%s", "");
      return;
    }
  format_bound (arg->min, min, sizeof min);
  format_bound (arg->max, max, sizeof max);
  snprintf (out, size, terrain_text (N_("%s to %s")), min, max);
}

void
terrain_arg_blurb (const TerrainArg *arg, char *out, size_t size)
{
  char range[96];
  terrain_arg_range (arg, range, sizeof range);
  if (range[0])
    /* TRANSLATORS: an argument's description, then its range ("… (1 to 100000)") */
    snprintf (out, size, terrain_text (N_("%s (%s)")), terrain_text (arg->blurb), range);
  else
    snprintf (out, size, "%s", terrain_text (arg->blurb));
}

char *
terrain_label (const char *label, char *out, size_t size)
{
  size_t n = 0;
  if (size == 0)
    return out;
  for (const char *c = label; *c && n + 1 < size; c++)
    {
      if (*c == '_' && c[1] != '_')
        continue;
      if (*c == '_')
        c++; /* "__" is one underscore */
      out[n++] = *c;
    }
  out[n] = '\0';
  return out;
}

int
terrain_arg_slider (const TerrainProcedureInfo *info, const TerrainArg *arg, double *min,
                    double *max)
{
  if ((arg->type != TERRAIN_ARG_INT && arg->type != TERRAIN_ARG_DOUBLE) || arg->is_seed)
    return 0;
  *min = arg->min;
  *max = arg->max;
  for (const TerrainArgSlider *s = info->sliders; s && s->arg; s++)
    if (strcmp (s->arg, arg->name) == 0)
      {
        if (s->min == s->max)
          return 0;
        *min = s->min;
        *max = s->max;
      }
  return 1;
}

const char *(*terrain_translate) (const char *msgid) = NULL;

const char *
terrain_text (const char *msgid)
{
  return terrain_translate ? terrain_translate (msgid) : msgid;
}

void
terrain_why (char *why, size_t why_size, const char *format, ...)
{
  if (why == NULL || why_size == 0)
    return;
  va_list args;
  va_start (args, format);
  vsnprintf (why, why_size, terrain_text (format), args);
  va_end (args);
}

/* ---- Rendering ---- */

int
terrain_reads_layer (const TerrainProcedureInfo *info, const TerrainArgValue *values)
{
  if (info->kind == TERRAIN_FILTER)
    return 1;
  return info->guide_arg && terrain_arg_value (info, values, info->guide_arg).number != 0.0;
}

float *
terrain_heights_copy (const float *heights, int width, int height)
{
  const size_t bytes = (size_t) width * height * sizeof (float);
  float *copy = malloc (bytes);
  if (copy)
    memcpy (copy, heights, bytes);
  return copy;
}

void
terrain_procedure_fill (const TerrainProcedureInfo *info, const TerrainArgValue *values,
                        void *params)
{
  info->defaults (params);
  for (int i = 0; info->args[i].name; i++)
    set_field (&info->args[i], params, values[i].number);
}

/* The core's parameters from the argument values, in a buffer of the procedure's (free()
 * it; NULL when out of memory): every field, then the descriptor's adjustments. */
static void *
procedure_params (const TerrainProcedureInfo *info, const TerrainArgValue *values,
                  const float *guide, int width, int height, TerrainStatus *status,
                  char *why, size_t why_size)
{
  void *params = malloc (info->params_size);
  *status = params ? TERRAIN_OK : TERRAIN_ERROR_NO_MEMORY;
  if (params == NULL)
    return NULL;
  terrain_procedure_fill (info, values, params);
  if (info->adjust)
    *status = info->adjust (params, values, guide, width, height, why, why_size);
  return params;
}

/* Renders with the core's render, or with render_maps when maps is not NULL. */
static TerrainStatus
render (const TerrainProcedureInfo *info, const TerrainArgValue *values, float *heights,
        int width, int height, float *const *maps, const TerrainProgress *progress, char *why,
        size_t why_size)
{
  /* A guided generator overwrites the layer it follows: it follows a copy. */
  float *guide = NULL;
  if (info->kind == TERRAIN_GENERATOR && terrain_reads_layer (info, values) &&
      (guide = terrain_heights_copy (heights, width, height)) == NULL)
    return TERRAIN_ERROR_NO_MEMORY;
  TerrainStatus status;
  void *params = procedure_params (info, values, guide, width, height, &status, why, why_size);
  if (status == TERRAIN_OK)
    status = maps ? info->render_maps (params, heights, width, height, maps, progress)
                  : info->render (params, heights, width, height, progress);
  free (params);
  free (guide);
  return status;
}

TerrainStatus
terrain_procedure_render (const TerrainProcedureInfo *info, const TerrainArgValue *values,
                          float *heights, int width, int height,
                          const TerrainProgress *progress, char *why, size_t why_size)
{
  return render (info, values, heights, width, height, NULL, progress, why, why_size);
}

TerrainStatus
terrain_procedure_render_maps (const TerrainProcedureInfo *info, const TerrainArgValue *values,
                               float *heights, int width, int height, float *const *maps,
                               const TerrainProgress *progress, char *why, size_t why_size)
{
  return render (info, values, heights, width, height, maps, progress, why, why_size);
}

int
terrain_procedure_map_count (const TerrainProcedureInfo *info, const TerrainArgValue *values)
{
  int n = 0;
  if (info->maps_arg && terrain_arg_value (info, values, info->maps_arg).number != 0.0)
    while (info->map_names[n])
      n++;
  return n;
}

TerrainStatus
terrain_procedure_render_rect (const TerrainProcedureInfo *info, const TerrainArgValue *values,
                               float *out, int x, int y, int width, int height,
                               const TerrainProgress *progress, char *why, size_t why_size)
{
  /* Checked as the part of the layer up to the rectangle's far corner. */
  TerrainStatus status;
  void *params = procedure_params (info, values, NULL, x + width, y + height, &status, why,
                                   why_size);
  if (status == TERRAIN_OK)
    status = info->render_rect (params, out, x, y, width, height, progress);
  free (params);
  return status;
}

TerrainStatus
terrain_procedure_check (const TerrainProcedureInfo *info, const TerrainArgValue *values,
                         int width, int height, char *why, size_t why_size)
{
  TerrainStatus status;
  free (procedure_params (info, values, NULL, width, height, &status, why, why_size));
  return status;
}
