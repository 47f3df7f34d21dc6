#include "procedure-info.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

extern const TerrainProcedureInfo terrain_procedure_diamond_square;
extern const TerrainProcedureInfo terrain_procedure_field;
extern const TerrainProcedureInfo terrain_procedure_fault;
extern const TerrainProcedureInfo terrain_procedure_circles;
extern const TerrainProcedureInfo terrain_procedure_particles;
extern const TerrainProcedureInfo terrain_procedure_landscape;
extern const TerrainProcedureInfo terrain_procedure_smooth;
extern const TerrainProcedureInfo terrain_procedure_thermal_erosion;
extern const TerrainProcedureInfo terrain_procedure_hydraulic_erosion;

/* Menu order. */
const TerrainProcedureInfo *const terrain_procedures[] = {
  &terrain_procedure_diamond_square,
  &terrain_procedure_field,
  &terrain_procedure_fault,
  &terrain_procedure_circles,
  &terrain_procedure_particles,
  &terrain_procedure_landscape,
  &terrain_procedure_smooth,
  &terrain_procedure_thermal_erosion,
  &terrain_procedure_hydraulic_erosion,
  NULL
};

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

int
terrain_choice_id (const TerrainArg *arg, const char *nick)
{
  for (int i = 0; arg->items && arg->items[i].nick; i++)
    if (strcmp (arg->items[i].nick, nick) == 0)
      return i;
  return -1;
}

TerrainStatus
terrain_procedure_check (const TerrainProcedureInfo *info, const TerrainArgValue *values,
                         int width, int height, char *why, size_t why_size)
{
  return info->check ? info->check (values, width, height, why, why_size) : TERRAIN_OK;
}

int
terrain_reads_layer (const TerrainProcedureInfo *info, const TerrainArgValue *values)
{
  if (info->kind == TERRAIN_FILTER)
    return 1;
  int guide = info->guide_arg ? terrain_arg_index (info, info->guide_arg) : -1;
  return guide >= 0 && values[guide].number != 0.0;
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

void
terrain_arg_defaults (const TerrainProcedureInfo *info, TerrainArgValue *values)
{
  for (int i = 0; info->args[i].name; i++)
    {
      const TerrainArg *arg = &info->args[i];
      values[i].text = arg->text;
      values[i].number = arg->type == TERRAIN_ARG_CHOICE ? terrain_choice_id (arg, arg->text)
                                                         : arg->value;
    }
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
