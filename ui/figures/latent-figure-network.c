/* latent-figure-network.c — a network's hidden units: on data of two
 * columns, each unit's answer over the plane of the data as a small heat
 * map (the picture TensorFlow Playground made familiar), every hidden
 * layer in turn; on images, the first layer's weights as images
 *
 * The maps cover the plane the decision regions show (the rows' range and
 * a margin), and each is scaled by itself: a unit that barely answers
 * anywhere still shows where it answers most. ReLU units go from 0 to
 * their largest answer, tanh units from −1 to 1, on the diverging map.
 * First-layer weights are shown times their column's standard deviation,
 * as logistic regression's class weights are, on one scale for all units.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#define G_LOG_DOMAIN "latent-figure-network"

#include "latent-figure-private.h"
#include "latent-classifiers.h"

#include <glib/gi18n-lib.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

/* Cells a side of each unit's map. */
#define MAP_CELLS 40
/* Units shown at most: the first ones of the first layers. */
#define MAX_UNITS 128
/* Rows read for the plane's extent at most (evenly spread). */
#define MAX_EXTENT_ROWS 20000

static guint
hidden_units (const LatentClassifierPart *part)
{
  guint n = 0;

  for (guint l = 1; l < part->n_layers; l++)
    n += part->layer_sizes[l];
  return n;
}

/* The plane of the two columns: the rows' range and 6 % more each way. */
static void
plane_extent (LatentDataset *dataset,
              double        *lo,
              double        *hi)
{
  const guint n = latent_dataset_get_n_rows (dataset), stride = MAX (1u, n / MAX_EXTENT_ROWS);

  lo[0] = lo[1] = INFINITY;
  hi[0] = hi[1] = -INFINITY;
  for (guint i = 0; i < n; i += stride)
    {
      const float *x = latent_dataset_get_row (dataset, i);

      for (guint a = 0; a < 2; a++)
        if (isfinite (x[a]))
          {
            lo[a] = MIN (lo[a], x[a]);
            hi[a] = MAX (hi[a], x[a]);
          }
    }
  for (guint a = 0; a < 2; a++)
    {
      double pad;

      if (!isfinite (lo[a]) || !(hi[a] > lo[a]))
        lo[a] = isfinite (lo[a]) ? lo[a] - 0.5 : 0, hi[a] = isfinite (hi[a]) ? hi[a] + 0.5 : 1;
      pad = (hi[a] - lo[a]) * 0.06;
      lo[a] -= pad;
      hi[a] += pad;
    }
}

/* Every hidden unit's answer at every cell: maps[u][cell], cells row by
 * row from the top, each map in [−1, 1]. */
static float *
unit_maps (const LatentClassifierPart *part,
           LatentDataset              *dataset,
           guint                       n_units)
{
  const guint total = hidden_units (part), cells = MAP_CELLS * MAP_CELLS;
  g_autofree double *units = g_new (double, total);
  g_autofree double *scores = g_new (double, part->n_classes);
  g_autofree double *top = g_new0 (double, n_units);
  float *maps = g_new (float, (gsize) n_units * cells);
  double lo[2], hi[2];

  plane_extent (dataset, lo, hi);
  for (guint j = 0; j < MAP_CELLS; j++)
    for (guint i = 0; i < MAP_CELLS; i++)
      {
        const float x[2] = { lo[0] + (i + 0.5) / MAP_CELLS * (hi[0] - lo[0]),
                             hi[1] - (j + 0.5) / MAP_CELLS * (hi[1] - lo[1]) };

        latent_classifiers_forward (part, x, units, scores);
        for (guint u = 0; u < n_units; u++)
          {
            maps[(gsize) u * cells + j * MAP_CELLS + i] = units[u];
            top[u] = MAX (top[u], fabs (units[u]));
          }
      }
  /* tanh is already within ±1: its maps keep their own scale. ReLU's
   * take the whole map, 0 at one end and the largest at the other. */
  for (guint u = 0; !part->tanh_units && u < n_units; u++)
    for (guint c = 0; c < cells; c++)
      maps[(gsize) u * cells + c] = top[u] > 0 ? 2 * maps[(gsize) u * cells + c] / top[u] - 1 : -1;
  return maps;
}

/* The layer and number of hidden unit @u, counted over all layers. */
static void
unit_place (const LatentClassifierPart *part,
            guint                       u,
            guint                      *layer,
            guint                      *unit)
{
  guint l = 1;

  while (l + 1 < part->n_layers && u >= part->layer_sizes[l])
    u -= part->layer_sizes[l++];
  *layer = l;
  *unit = u;
}

static int
compare_floats (const void *a,
                const void *b)
{
  float x = *(const float *) a, y = *(const float *) b;

  return x < y ? -1 : x > y;
}

/* First-layer weights times their column's spread (1 / the run's scale),
 * and the |value| under which 99.5 % of them lie. */
static float *
first_layer_images (const LatentClassifierPart *part,
                    guint                       n_units,
                    guint                       d,
                    double                     *scale)
{
  float *images = g_new (float, (gsize) n_units * d);
  g_autofree float *sorted = g_new (float, (gsize) n_units * d);

  for (gsize i = 0; i < (gsize) n_units * d; i++)
    {
      images[i] = part->network[i] / part->input_scale[i % d];
      sorted[i] = fabsf (images[i]);
    }
  qsort (sorted, (gsize) n_units * d, sizeof (float), compare_floats);
  *scale = sorted[(gsize) floor (0.995 * ((gsize) n_units * d - 1))];
  if (!(*scale > 0))
    *scale = 1;
  return images;
}

/* The units' tiles: first-layer weights of image rows, or each unit's
 * answer over the plane of 2-D data; FALSE without a network for the data. */
typedef struct {
  gboolean images;
  guint    n_units, img_w, img_h, channels, n_values;
  float   *values;       /* n_units × n_values */
  double   scale;
} Units;

static gboolean
units_init (Units          *u,
            LatentSnapshot *snapshot)
{
  const LatentClassifierPart *part = &snapshot->classifier;
  const guint d = latent_dataset_get_n_cols (snapshot->dataset);

  memset (u, 0, sizeof *u);
  if (part->n_layers < 2 || part->network == NULL || part->layer_sizes[0] != d)
    return FALSE;
  u->images = _latent_figure_dataset_has_image_rows (snapshot->dataset);
  u->scale = 1;
  if (u->images)
    {
      gboolean single;

      latent_dataset_get_image_shape (snapshot->dataset, &u->img_w, &u->img_h, &u->channels, &single);
      u->n_units = MIN (part->layer_sizes[1], MAX_UNITS);
      u->n_values = d;
      u->values = first_layer_images (part, u->n_units, d, &u->scale);
    }
  else
    {
      u->img_w = u->img_h = MAP_CELLS;
      u->channels = 1;
      u->n_values = MAP_CELLS * MAP_CELLS;
      u->n_units = MIN (hidden_units (part), MAX_UNITS);
      u->values = unit_maps (part, snapshot->dataset, u->n_units);
    }
  return TRUE;
}

static cairo_surface_t *
unit_tile (const Units             *u,
           const LatentFigureStyle *style,
           guint                    unit)
{
  return _latent_figure_diverging_tile (u->values + (gsize) unit * u->n_values, u->img_w, u->img_h, u->channels,
                                        u->scale, style->dark);
}

static gboolean
units_grid (const Units             *u,
            const LatentFigureStyle *style,
            double                   top,
            int                      width,
            int                      height,
            LatentFigureTileGrid    *grid)
{
  const double f = MAX (style->font_size, 1.0), footer = f * 4.4;
  const double y = round (top + f * 0.5);

  return _latent_figure_tile_grid (style, u->img_w, u->img_h, u->n_units, 1, f, y, width - 2.0 * f,
                                   height - y - f - footer, grid);
}

static void
_latent_figure_units_draw (LatentSnapshot          *snapshot,
                           const LatentFigureStyle *style,
                           cairo_t                 *cr,
                           double                   top,
                           int                      width,
                           int                      height)
{
  const LatentClassifierPart *part = &snapshot->classifier;
  const double f = MAX (style->font_size, 1.0), footer = f * 4.4;
  g_autofree char *low = NULL, *middle = NULL, *high = NULL;
  LatentFigureTileGrid grid;
  double bar_w, bar_y;
  const char *note;
  Units u;

  cairo_save (cr);
  if (!units_init (&u, snapshot))
    {
      _latent_figure_message (cr, style, width, height, _("No network yet"));
      cairo_restore (cr);
      return;
    }
  if (u.images)
    {
      low = g_strdup_printf ("%.3g", -u.scale);
      middle = g_strdup ("0");
      high = g_strdup_printf ("%.3g", u.scale);
      note = _("first layer: weight × the pixel's standard deviation");
    }
  else
    {
      low = g_strdup (part->tanh_units ? "−1" : "0");
      middle = g_strdup (part->tanh_units ? "0" : "½");
      high = g_strdup (part->tanh_units ? "1" : _("most"));
      note = part->tanh_units ? _("each unit's answer over the plane of the data")
                              : _("each unit's answer over the plane, up to its largest");
    }

  if (!units_grid (&u, style, top, width, height, &grid))
    {
      _latent_figure_message (cr, style, width, height, _("Too small to show the units"));
      g_free (u.values);
      cairo_restore (cr);
      return;
    }
  for (guint k = 0; k < u.n_units; k++)
    {
      cairo_surface_t *tile = unit_tile (&u, style, k);
      guint layer, unit;
      double x0, y0;

      _latent_figure_tile_origin (&grid, k, 0, &x0, &y0);
      _latent_figure_set_color_mix (cr, style, 0.35);
      _latent_figure_draw_tile (cr, tile, x0, y0, grid.tile_w, grid.tile_h, grid.frame);
      cairo_surface_destroy (tile);
      unit_place (part, k, &layer, &unit);
      if (grid.caption > 0.0)
        {
          /* Translators: a hidden unit of a network, by layer and number. */
          g_autofree char *caption = g_strdup_printf (_("Layer %u · %u"), layer, unit + 1);
          g_autofree char *short_caption = g_strdup_printf ("%u·%u", layer, unit + 1);

          _latent_figure_tile_caption (cr, style, x0 - grid.frame, y0 + grid.tile_h + grid.frame + f * 1.15,
                                       grid.tile_w + 2 * grid.frame, caption, short_caption);
        }
    }
  g_free (u.values);

  bar_w = MIN (width - 2.0 * f, f * 16.0);
  bar_y = MIN (grid.y0 - grid.frame + grid.rows * grid.pitch_y, height - f - footer) + f * 0.4;
  _latent_figure_colorbar (cr, style, round ((width - bar_w) / 2.0), round (bar_y), bar_w, round (f * 0.7),
                           low, middle, high);
  _latent_figure_set_font (cr, style, 0.85, FALSE);
  _latent_figure_set_color_mix (cr, style, 0.7);
  cairo_move_to (cr, round ((width - _latent_figure_text_width (cr, note)) / 2.0), round (bar_y) + f * 3.3);
  _latent_figure_show_text (cr, note);
  cairo_restore (cr);
}

static gint64
pick_unit (LatentSnapshot          *snapshot,
           LatentFigureKind         kind,
           const LatentFigureStyle *style,
           double                   top,
           int                      width,
           int                      height,
           double                   x,
           double                   y,
           int                      size,
           char                   **text,
           cairo_surface_t        **image)
{
  LatentFigureTileGrid grid;
  gint64 k = -1;
  Units u;

  if (!units_init (&u, snapshot))
    return -1;
  if (units_grid (&u, style, top, width, height, &grid))
    k = _latent_figure_tile_at (&grid, u.n_units, x, y);
  if (k >= 0 && text != NULL)
    {
      guint layer, unit;

      unit_place (&snapshot->classifier, (guint) k, &layer, &unit);
      *text = g_strdup_printf (_("Layer %u · %u"), layer, unit + 1);
    }
  if (k >= 0 && image != NULL)
    *image = _latent_figure_enlarge_tile (unit_tile (&u, style, (guint) k), size);
  g_free (u.values);
  return k;
}

/* Maps need the plane of two columns; images need the first layer's weights. */
static gboolean
applies_units (LatentSnapshot  *snapshot,
               GError         **error)
{
  guint n_cols;

  if (!_latent_figure_applies_with_data (snapshot, error))
    return FALSE;
  n_cols = latent_dataset_get_n_cols (snapshot->dataset);
  if (n_cols == 2 || _latent_figure_dataset_has_image_rows (snapshot->dataset))
    return TRUE;
  g_set_error (error, LATENT_FIGURE_ERROR, LATENT_FIGURE_ERROR_KIND,
               g_dngettext (GETTEXT_PACKAGE,
                            "Hidden units: need data of 2 columns or images; this dataset has %u column",
                            "Hidden units: need data of 2 columns or images; this dataset has %u columns", n_cols),
               n_cols);
  return FALSE;
}

const LatentFigureKindRow _latent_figure_network_kinds[] = {
  { .kind = LATENT_FIGURE_UNITS,
    .title = N_("Hidden units"),
    .draw = _latent_figure_units_draw,
    .applies = applies_units,
    .pick = pick_unit,
    .only_some = TRUE },
  { .kind = LATENT_FIGURE_AUTO }
};
