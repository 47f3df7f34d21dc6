/* A binary min-heap of cells by height, ties by index (so a flood takes the same order
 * every run); each entry keeps its height, so that sifting reads no other memory. The
 * caller owns the entries' memory (as many as will ever be queued at once). */
#ifndef TERRAIN_CELL_HEAP_H
#define TERRAIN_CELL_HEAP_H

#include <stddef.h>
#include <stdint.h>

typedef struct
{
  float    h;
  uint32_t cell;
} CellHeapEntry;

typedef struct
{
  CellHeapEntry *entry;
  size_t         size;
} CellHeap;

static inline int
cell_heap_less (CellHeapEntry a, CellHeapEntry b)
{
  return a.h < b.h || (a.h == b.h && a.cell < b.cell);
}

static inline void
cell_heap_push (CellHeap *q, float h, uint32_t cell)
{
  const CellHeapEntry e = { h, cell };
  size_t              i = q->size++;
  for (; i > 0 && cell_heap_less (e, q->entry[(i - 1) / 2]); i = (i - 1) / 2)
    q->entry[i] = q->entry[(i - 1) / 2];
  q->entry[i] = e;
}

static inline uint32_t
cell_heap_pop (CellHeap *q)
{
  const uint32_t      top = q->entry[0].cell;
  const CellHeapEntry last = q->entry[--q->size];
  size_t              i = 0;
  for (size_t child; (child = 2 * i + 1) < q->size; i = child)
    {
      if (child + 1 < q->size && cell_heap_less (q->entry[child + 1], q->entry[child]))
        child++;
      if (! cell_heap_less (q->entry[child], last))
        break;
      q->entry[i] = q->entry[child];
    }
  if (q->size > 0)
    q->entry[i] = last;
  return top;
}

/* The offsets of a cell's 8 neighbours, the 4 axial ones first, as the floods walk them. */
static const int CELL_NEIGHBOUR_DX[8] = { 0, 0, -1, 1, -1, 1, 1, -1 };
static const int CELL_NEIGHBOUR_DY[8] = { -1, 1, 0, 0, -1, 1, -1, 1 };

/* Pushes the border cells of a w x hh map of heights h, where a flood from the border
 * starts: q->entry[0 .. q->size) are then those cells. */
static inline void
cell_heap_push_border (CellHeap *q, const float *h, int w, int hh)
{
  for (int y = 0; y < hh; y++)
    for (int x = 0; x < w; x++)
      if (x == 0 || y == 0 || x == w - 1 || y == hh - 1)
        {
          const uint32_t c = (uint32_t) ((size_t) y * w + x);
          cell_heap_push (q, h[c], c);
        }
}

#endif
