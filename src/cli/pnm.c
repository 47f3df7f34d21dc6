#include "pnm.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int
read_header_number (FILE *f, int *value)
{
  int c;
  while ((c = fgetc (f)) != EOF)
    {
      if (c == '#')
        while ((c = fgetc (f)) != EOF && c != '\n')
          ;
      else if (c != ' ' && c != '\t' && c != '\n' && c != '\r')
        break;
    }
  ungetc (c, f);
  return fscanf (f, "%d", value) == 1 ? 0 : -1;
}

int
pnm_read_gray (const char *path, float *out, int width, int height)
{
  FILE *f = fopen (path, "rb");
  int w, h, maxval, status = -1;
  if (f == NULL)
    return -1;
  if (fgetc (f) == 'P' && fgetc (f) == '5' && read_header_number (f, &w) == 0 &&
      read_header_number (f, &h) == 0 && read_header_number (f, &maxval) == 0 &&
      w == width && h == height && maxval > 0 && maxval < 65536 && fgetc (f) != EOF)
    {
      const int bytes = maxval > 255 ? 2 : 1;
      status = 0;
      for (long i = 0; i < (long) w * h && status == 0; i++)
        {
          int hi = fgetc (f), lo = bytes == 2 ? fgetc (f) : 0;
          if (hi == EOF || lo == EOF)
            status = -1;
          out[i] = (float) (bytes == 2 ? (hi << 8 | lo) : hi) / (float) maxval;
        }
    }
  fclose (f);
  return status;
}

int
pnm_write_pgm16 (const char *path, const float *data, int width, int height)
{
  FILE *f = fopen (path, "wb");
  if (f == NULL)
    return -1;
  fprintf (f, "P5\n%d %d\n65535\n", width, height);
  for (long i = 0; i < (long) width * height; i++)
    {
      float v = data[i] < 0.0f ? 0.0f : data[i] > 1.0f ? 1.0f : data[i];
      unsigned q = (unsigned) (v * 65535.0f + 0.5f);
      fputc ((int) (q >> 8), f);
      fputc ((int) (q & 0xff), f);
    }
  return fclose (f) == 0 ? 0 : -1;
}

int
pnm_write_pfm (const char *path, const float *data, int width, int height)
{
  FILE *f = fopen (path, "wb");
  if (f == NULL)
    return -1;
  fprintf (f, "Pf\n%d %d\n-1.0\n", width, height);
  for (int y = height - 1; y >= 0; y--) /* PFM stores the bottom row first */
    fwrite (data + (long) y * width, sizeof (float), (size_t) width, f);
  return fclose (f) == 0 ? 0 : -1;
}

/* A PFM's grey header (Pf, width, height, scale) and little-endian floats, bottom row first. */
static float *
read_pfm (FILE *f, int *width, int *height)
{
  double scale;
  if (read_header_number (f, width) != 0 ||
      read_header_number (f, height) != 0 || fscanf (f, "%lf", &scale) != 1 || scale >= 0.0 ||
      fgetc (f) == EOF || *width < 1 || *height < 1 || *width > 65536 || *height > 65536)
    return NULL;
  float *out = malloc ((size_t) *width * *height * sizeof (float));
  for (int y = *height - 1; out != NULL && y >= 0; y--)
    if (fread (out + (size_t) y * *width, sizeof (float), (size_t) *width, f) != (size_t) *width)
      free (out), out = NULL;
  return out;
}

/* Raw little-endian floats, the size in the name: NAME-W-H.f32. */
static float *
read_f32 (FILE *f, const char *path, int *width, int *height)
{
  size_t len = strlen (path);
  const char *end = path + len - 4, *dash = end;
  if (len < 4 || strcmp (end, ".f32") != 0)
    return NULL;
  for (int dashes = 0; dash > path && dashes < 2; )
    dashes += *--dash == '-';
  if (sscanf (dash, "-%d-%d.f32", width, height) != 2 || *width < 1 || *height < 1 ||
      *width > 65536 || *height > 65536)
    return NULL;
  float *out = malloc ((size_t) *width * *height * sizeof (float));
  if (out != NULL && (fread (out, sizeof (float), (size_t) *width * *height, f) !=
                        (size_t) *width * *height || fgetc (f) != EOF))
    free (out), out = NULL;
  return out;
}

float *
pnm_read_heights (const char *path, int *width, int *height)
{
  FILE  *f = fopen (path, "rb");
  float *out = NULL;
  if (f == NULL)
    return NULL;
  const int c0 = fgetc (f), c1 = fgetc (f);
  if (c0 == 'P' && c1 == 'f')
    out = read_pfm (f, width, height);
  else if (c0 == 'P' && c1 == '5')
    {
      const int header = read_header_number (f, width) == 0 &&
                         read_header_number (f, height) == 0 && *width > 0 && *height > 0 &&
                         *width <= 65536 && *height <= 65536;
      out = header ? malloc ((size_t) *width * *height * sizeof (float)) : NULL;
      if (out != NULL && pnm_read_gray (path, out, *width, *height) != 0)
        free (out), out = NULL;
    }
  else
    {
      rewind (f);
      out = read_f32 (f, path, width, height);
    }
  fclose (f);
  for (size_t i = 0; out != NULL && i < (size_t) *width * *height; i++)
    if (! isfinite (out[i]))
      free (out), out = NULL;
  return out;
}
