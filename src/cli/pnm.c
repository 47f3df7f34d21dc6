#include "pnm.h"

#include <stdio.h>
#include <stdlib.h>

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
