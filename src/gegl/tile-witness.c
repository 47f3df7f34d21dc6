#include "tile-witness.h"

#include <gegl-buffer-backend.h>
#include <gegl-tile.h>
#include <gegl-tile-source.h>
#include <string.h>

/* The tiles under an area: in the buffer's tile storage, whose coordinates are the
 * buffer's shifted (as GEGL's own iterators count them). Only an area within the buffer's
 * extent and abyss has one: its pixels are then its tiles' bytes alone. */
typedef struct
{
  gint tile_width, tile_height, shift_x, shift_y;
  gint first_column, first_row, columns, rows;
} TileGrid;

struct TerrainTileWitness
{
  const Babl   *format; /* the buffer's, as its bytes are read */
  TileGrid      grid;
  gsize         tile_bytes;
  GeglTile    **tiles; /* clones, row after row */
};

static gint
floor_div (gint a, gint b)
{
  return a >= 0 ? a / b : -((-a + b - 1) / b);
}

static gboolean
grid_of (GeglBuffer *buffer, const GeglRectangle *area, TileGrid *grid)
{
  memset (grid, 0, sizeof *grid);
  g_object_get (buffer, "tile-width", &grid->tile_width, "tile-height", &grid->tile_height,
                "shift-x", &grid->shift_x, "shift-y", &grid->shift_y, NULL);
  if (grid->tile_width <= 0 || grid->tile_height <= 0 || area->width <= 0 ||
      area->height <= 0 || ! gegl_rectangle_contains (gegl_buffer_get_extent (buffer), area) ||
      ! gegl_rectangle_contains (gegl_buffer_get_abyss (buffer), area))
    return FALSE;
  const gint x = area->x + grid->shift_x, y = area->y + grid->shift_y;
  grid->first_column = floor_div (x, grid->tile_width);
  grid->first_row = floor_div (y, grid->tile_height);
  grid->columns = floor_div (x + area->width - 1, grid->tile_width) - grid->first_column + 1;
  grid->rows = floor_div (y + area->height - 1, grid->tile_height) - grid->first_row + 1;
  return TRUE;
}

static GeglTile *
tile_at (GeglBuffer *buffer, const TileGrid *grid, gsize i)
{
  return gegl_buffer_get_tile (buffer, grid->first_column + (gint) (i % grid->columns),
                               grid->first_row + (gint) (i / grid->columns), 0);
}

void
terrain_tile_witness_free (gpointer data)
{
  TerrainTileWitness *witness = data;
  if (witness == NULL)
    return;
  const gsize count = (gsize) witness->grid.columns * witness->grid.rows;
  for (gsize i = 0; i < count; i++)
    if (witness->tiles[i])
      gegl_tile_unref (witness->tiles[i]);
  g_free (witness->tiles);
  g_free (witness);
}

TerrainTileWitness *
terrain_tile_witness_new (GeglBuffer *buffer, const GeglRectangle *area)
{
  TileGrid grid;
  if (! grid_of (buffer, area, &grid))
    return NULL;
  const gsize         count = (gsize) grid.columns * grid.rows;
  TerrainTileWitness *witness = g_new0 (TerrainTileWitness, 1);
  witness->format = gegl_buffer_get_format (buffer);
  witness->grid = grid;
  witness->tile_bytes = (gsize) grid.tile_width * grid.tile_height *
                        babl_format_get_bytes_per_pixel (witness->format);
  witness->tiles = g_new0 (GeglTile *, count);
  gboolean held = TRUE;
  for (gsize i = 0; held && i < count; i++)
    {
      GeglTile *tile = tile_at (buffer, &grid, i);
      held = tile != NULL;
      if (held)
        {
          witness->tiles[i] = gegl_tile_dup (tile);
          /* A tile that keeps its memory's identity is copied, not cloned: it can be
           * written in place, so its memory says nothing. */
          held = gegl_tile_get_data (witness->tiles[i]) == gegl_tile_get_data (tile);
          gegl_tile_unref (tile);
        }
    }
  if (held)
    return witness;
  terrain_tile_witness_free (witness);
  return NULL;
}

gboolean
terrain_tile_witness_matches (const TerrainTileWitness *witness, GeglBuffer *buffer,
                              const GeglRectangle *area)
{
  TileGrid grid;
  if (! grid_of (buffer, area, &grid) || memcmp (&grid, &witness->grid, sizeof grid) != 0 ||
      gegl_buffer_get_format (buffer) != witness->format)
    return FALSE;
  const gsize count = (gsize) grid.columns * grid.rows;
  for (gsize i = 0; i < count; i++)
    {
      GeglTile      *tile = tile_at (buffer, &grid, i);
      const gboolean same =
        tile && gegl_tile_get_data (tile) == gegl_tile_get_data (witness->tiles[i]);
      if (tile)
        gegl_tile_unref (tile);
      if (! same)
        return FALSE;
    }
  return TRUE;
}

gsize
terrain_tile_witness_bytes (const TerrainTileWitness *witness)
{
  return (gsize) witness->grid.columns * witness->grid.rows * witness->tile_bytes;
}
