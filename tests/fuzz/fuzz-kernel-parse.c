/* libFuzzer harness: terrain_kernel_parse on arbitrary text (the whole input, NUL-terminated
 * in a buffer of exactly its size, so ASan sees any read past the end; an embedded NUL ends
 * the text as it would in C).
 *
 * Checks, against an independent reading of smooth.h's grammar (9 or 25 plain decimals
 * with an optional exponent, separated by white space and/or one comma, a comma after the
 * last number allowed; no "nan", "inf", hex, or locale decimal comma), with values from
 * strtod in the C locale:
 *  - text outside the grammar, or with another count, is refused;
 *  - text in the grammar whose values all lie clearly within float range and whose sum
 *    clearly does not vanish is accepted, with every weight within float rounding of
 *    strtod's value (smooth.c scales by pow(10, e) itself, so the last bit may differ);
 *    values beyond float range or sums clearly vanishing are refused; values within 1e-6
 *    of FLT_MAX and sums near the 1e-6 threshold may go either way;
 *  - on success: size 3 or 5, the weights in the first size^2 entries, the rest 0, all
 *    finite; on failure kernel and size are untouched;
 *  - the fault names the problem: none on success; on failure one that fits the reference
 *    reading (an empty text, a count, a vanishing sum or a value out of range for text in
 *    the grammar; a character problem, or a count beyond 25, for text outside it), at an
 *    offset inside the text. */
#include "fuzz-common.h"

#include "smooth.h"

static int
c_space (char c)
{
  return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v';
}

static int
c_digit (char c)
{
  return c >= '0' && c <= '9';
}

/* Length of the number at s per the grammar, 0 when none. */
static size_t
number_length (const char *s)
{
  size_t i = 0, digits = 0;
  if (s[i] == '+' || s[i] == '-')
    i++;
  while (c_digit (s[i]))
    i++, digits++;
  if (s[i] == '.')
    for (i++; c_digit (s[i]); i++)
      digits++;
  if (digits == 0)
    return 0;
  if (s[i] == 'e' || s[i] == 'E')
    {
      size_t j = i + 1;
      if (s[j] == '+' || s[j] == '-')
        j++;
      if (! c_digit (s[j]))
        return 0;
      while (c_digit (s[j]))
        j++;
      i = j;
    }
  return i;
}

/* Splits text per the grammar into up to 26 values (strtod); returns the count, or -1
 * when the text is not in the grammar. */
static int
reference_parse (const char *text, double values[26])
{
  const char *p = text;
  int count = 0;
  while (c_space (*p))
    p++;
  while (*p)
    {
      const size_t len = number_length (p);
      if (len == 0)
        return -1;
      char token[64];
      if (len < sizeof token)
        {
          memcpy (token, p, len);
          token[len] = '\0';
          values[count < 26 ? count : 25] = strtod (token, NULL);
        }
      else
        {
          char *copy = malloc (len + 1);
          memcpy (copy, p, len);
          copy[len] = '\0';
          values[count < 26 ? count : 25] = strtod (copy, NULL);
          free (copy);
        }
      count++;
      const char *q = p + len, *next = q;
      while (c_space (*next))
        next++;
      if (*next == ',')
        {
          next++;
          while (c_space (*next))
            next++;
        }
      if (next == q && *next != '\0')
        return -1; /* numbers must be separated */
      p = next;
    }
  return count;
}

int
LLVMFuzzerTestOneInput (const uint8_t *data, size_t size)
{
  char *text = malloc (size + 1);
  if (text == NULL)
    abort ();
  memcpy (text, data, size);
  text[size] = '\0';

  FUZZ_DESCRIBE ("\"%.200s\"", text);
  float kernel[25];
  for (int i = 0; i < 25; i++)
    kernel[i] = -123.25f;
  int ksize = -77;
  TerrainKernelFault  fault;
  const TerrainStatus status = terrain_kernel_parse (text, kernel, &ksize, &fault);
  FUZZ_CHECK (status == TERRAIN_OK || status == TERRAIN_ERROR_INVALID);
  FUZZ_CHECK ((status == TERRAIN_OK) == (fault.problem == TERRAIN_KERNEL_FINE));
  FUZZ_CHECK (fault.offset <= strlen (text));

  double ref[26];
  const int count = reference_parse (text, ref);
  /* -1: must refuse; 1: must accept; 0: either. */
  int expect = count == 9 || count == 25 ? 1 : -1;
  if (expect == 1)
    for (int i = 0; i < count; i++)
      {
        const double a = fabs (ref[i]);
        if (a > FLT_MAX * (1.0 + 1e-6))
          expect = -1;
        else if (a >= FLT_MAX * (1.0 - 1e-6) && expect == 1)
          expect = 0;
      }
  if (expect == 1)
    {
      /* All within float range: the sum of the float weights, as smooth.c adds them. */
      double sum = 0.0, mag = 0.0;
      for (int i = 0; i < count; i++)
        {
          sum += (float) ref[i];
          mag += fabs ((float) ref[i]);
        }
      if (fabs (sum) <= 0.5e-6 * mag)
        expect = -1;
      else if (fabs (sum) <= 2e-6 * mag)
        expect = 0;
    }
  if (count == -1)
    FUZZ_CHECK (fault.problem == TERRAIN_KERNEL_NOT_A_NUMBER ||
                fault.problem == TERRAIN_KERNEL_SEPARATOR ||
                fault.problem == TERRAIN_KERNEL_OUT_OF_RANGE ||
                (fault.problem == TERRAIN_KERNEL_COUNT && fault.count > 25));
  else if (count == 0)
    FUZZ_CHECK (fault.problem == TERRAIN_KERNEL_EMPTY);
  else if (count != 9 && count != 25)
    FUZZ_CHECK (fault.problem == TERRAIN_KERNEL_COUNT || fault.problem == TERRAIN_KERNEL_OUT_OF_RANGE);
  else if (status != TERRAIN_OK)
    FUZZ_CHECK (fault.problem == TERRAIN_KERNEL_SUM || fault.problem == TERRAIN_KERNEL_OUT_OF_RANGE);
  if (expect == 1)
    FUZZ_CHECK (status == TERRAIN_OK);
  if (expect == -1)
    FUZZ_CHECK (status == TERRAIN_ERROR_INVALID);

  if (status == TERRAIN_OK)
    {
      FUZZ_CHECK (count == 9 || count == 25);
      FUZZ_CHECK (ksize == (count == 9 ? 3 : 5));
      for (int i = 0; i < 25; i++)
        {
          FUZZ_CHECK (isfinite (kernel[i]));
          if (i >= ksize * ksize)
            FUZZ_CHECK (kernel[i] == 0.0f);
          else
            {
              /* Within a few float ulps of strtod's value (or of the subnormal grid). */
              const double want = ref[i];
              const double err = fabs ((double) kernel[i] - want);
              FUZZ_CHECK (err <= 2.5e-7 * fabs (want) + 2.9e-45 ||
                          (fabs (want) > FLT_MAX && fabs (kernel[i]) == FLT_MAX));
            }
        }
    }
  else
    {
      FUZZ_CHECK (ksize == -77);
      for (int i = 0; i < 25; i++)
        FUZZ_CHECK (kernel[i] == -123.25f);
    }
  free (text);
  return 0;
}
