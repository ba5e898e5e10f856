/* latent-figure-linear-examples.c — rows seen through PCA, PPCA and FA: the
 * biplot, reconstructions beside their rows (an autoencoder's too), and
 * samples from the model
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#define G_LOG_DOMAIN "latent-figure-linear-examples"

#include "latent-figure-private.h"
#include "latent-palette.h"

#include <glib/gi18n-lib.h>
#include <math.h>
#include <string.h>

/* Sample tiles shown at most. */
#define MAX_SAMPLE_TILES 64
/* Arrows reach this part of the point cloud's extent. */
#define ARROW_REACH 0.85
#define MIN_PANEL_SIZE 30.0

/* Biplot ------------------------------------------------------------------ */

typedef struct {
  LatentSnapshot *snapshot;
  guint           d;
  double         *tips;       /* d × 2, in latent coordinates */
} Arrows;

static inline double
plot_x (const LatentFigurePlot *p,
        double                  x)
{
  return p->x + (x - p->xmin) / (p->xmax - p->xmin) * p->width;
}

static inline double
plot_y (const LatentFigurePlot *p,
        double                  y)
{
  return p->y + (p->ymax - y) / (p->ymax - p->ymin) * p->height;
}

static void
draw_arrows (cairo_t                 *cr,
             const LatentFigureStyle *style,
             const LatentFigurePlot  *plot,
             gpointer                 data)
{
  const Arrows *arrows = data;
  const double f = MAX (style->font_size, 1.0), head = MAX (6.0, f * 0.65);
  double ox = plot_x (plot, 0.0), oy = plot_y (plot, 0.0), br, bg, bb;
  g_autofree double *placed = NULL;
  guint n_placed = 0;

  if (!isfinite (ox) || !isfinite (oy) || fabs (ox) > 1e6 || fabs (oy) > 1e6)
    return;
  latent_figure_style_get_background (style, &br, &bg, &bb);
  cairo_set_line_cap (cr, CAIRO_LINE_CAP_ROUND);
  cairo_set_line_join (cr, CAIRO_LINE_JOIN_ROUND);
  /* Halos first, so no arrow's halo hides another arrow. */
  for (int pass = 0; pass < 2; pass++)
    for (guint j = 0; j < arrows->d; j++)
      {
        double tx = plot_x (plot, arrows->tips[2 * j]), ty = plot_y (plot, arrows->tips[2 * j + 1]);
        double dx = tx - ox, dy = ty - oy, len = hypot (dx, dy), ux, uy, h;

        if (!isfinite (len) || len < 1.0 || len > 1e6)
          continue;
        ux = dx / len;
        uy = dy / len;
        h = MIN (head, len * 0.5);
        cairo_move_to (cr, ox, oy);
        cairo_line_to (cr, tx - ux * h * 0.5, ty - uy * h * 0.5);
        if (pass == 0)
          {
            cairo_set_source_rgba (cr, br, bg, bb, 0.8);
            cairo_set_line_width (cr, 4.5);
            cairo_stroke (cr);
          }
        else
          {
            _latent_figure_set_color_mix (cr, style, 0.85);
            cairo_set_line_width (cr, 1.8);
            cairo_stroke (cr);
          }
        cairo_move_to (cr, tx, ty);
        cairo_line_to (cr, tx - ux * h - uy * h * 0.45, ty - uy * h + ux * h * 0.45);
        cairo_line_to (cr, tx - ux * h + uy * h * 0.45, ty - uy * h - ux * h * 0.45);
        cairo_close_path (cr);
        if (pass == 0)
          {
            cairo_set_source_rgba (cr, br, bg, bb, 0.8);
            cairo_set_line_width (cr, 3.0);
            cairo_stroke (cr);
          }
        else
          cairo_fill (cr);
      }

  /* Each column named just past its tip, on the side the arrow points to;
   * a name that would cover an earlier one moves down (or up) past it. */
  _latent_figure_set_font (cr, style, 0.95, TRUE);
  placed = g_new (double, 4 * (gsize) arrows->d);
  for (guint j = 0; j < arrows->d; j++)
    {
      g_autofree char *name = latent_dataset_dup_column_label (arrows->snapshot->dataset, j);
      double tx = plot_x (plot, arrows->tips[2 * j]), ty = plot_y (plot, arrows->tips[2 * j + 1]);
      double dx = tx - ox, dy = ty - oy, len = hypot (dx, dy), w, x, y;
      cairo_text_extents_t ext;

      if (!isfinite (len) || len < 1.0 || len > 1e6)
        continue;
      cairo_text_extents (cr, name, &ext);
      w = ext.x_advance;
      x = tx + dx / len * f * 0.5 - (dx < 0 ? w : 0.0);
      y = ty + dy / len * f * 0.5 + (dy > 0 ? f * 0.8 : 0.0);
      x = CLAMP (x, plot->x + 2.0, plot->x + plot->width - w - 2.0);
      y = CLAMP (y, plot->y + f, plot->y + plot->height - 2.0);
      for (guint tries = 0; tries < arrows->d; tries++)
        {
          gboolean clear = TRUE;

          for (guint k = 0; k < n_placed && clear; k++)
            clear = x + w <= placed[4 * k] || placed[4 * k] + placed[4 * k + 2] <= x
                    || y <= placed[4 * k + 1] - f || placed[4 * k + 1] <= y - f;
          if (clear)
            break;
          y += dy > 0 || y - f * 1.2 < plot->y + f ? f * 1.2 : -f * 1.2;
        }
      placed[4 * n_placed] = x;
      placed[4 * n_placed + 1] = y;
      placed[4 * n_placed + 2] = w;
      n_placed++;
      _latent_figure_set_color_mix (cr, style, 1.0);
      _latent_figure_halo_text (cr, style, x, y, name);
    }
}

static void
_latent_figure_biplot_draw (LatentSnapshot          *snapshot,
                            const LatentFigureStyle *style,
                            cairo_t                 *cr,
                            double                   top,
                            int                      width,
                            int                      height)
{
  const LatentLinearPart *part = &snapshot->linear;
  LatentScatterExtras extras = { 0 };
  Arrows arrows = { snapshot, 0, NULL };
  /* How far the points go: right, left, up, down of the origin. */
  double reach[4] = { 0.0, 0.0, 0.0, 0.0 }, scale = INFINITY;
  const guint dims = part->projection_dims;
  gboolean whitened;
  guint n;

  if (!_latent_figure_linear_has_components (snapshot) || part->projection == NULL || dims < 2
      || snapshot->n_rows != latent_dataset_get_n_rows (snapshot->dataset))
    {
      _latent_figure_message (cr, style, width, height, _("No projection in this snapshot yet"));
      return;
    }

  /* PCA's scores go with unit axes, whitened scores with axes scaled by
   * their standard deviations; PPCA's and FA's loadings W already are (and
   * only PCA whitens). */
  whitened = _latent_figure_linear_whitened (snapshot);
  arrows.d = latent_dataset_get_n_cols (snapshot->dataset);
  arrows.tips = g_new (double, 2 * (gsize) arrows.d);
  for (guint a = 0; a < 2; a++)
    {
      double factor = 1.0;

      if (whitened && part->explained_variance)
        factor = sqrt (MAX (part->explained_variance[a], 0.0));
      for (guint j = 0; j < arrows.d; j++)
        arrows.tips[2 * j + a] = part->components[(gsize) a * arrows.d + j] * factor;
    }

  /* Scaled to the point cloud, every tip inside it on the side it points
   * to: only directions and relative lengths mean anything on a biplot. */
  n = latent_dataset_get_n_rows (snapshot->dataset);
  for (guint i = 0; i < n; i++)
    {
      double x = part->projection[(gsize) i * dims], y = part->projection[(gsize) i * dims + 1];

      if (isfinite (x) && isfinite (y))
        {
          reach[0] = MAX (reach[0], x);
          reach[1] = MAX (reach[1], -x);
          reach[2] = MAX (reach[2], y);
          reach[3] = MAX (reach[3], -y);
        }
    }
  for (guint j = 0; j < 2 * arrows.d; j++)
    {
      double t = arrows.tips[j], room = reach[2 * (j % 2) + (t < 0.0)];

      if (isfinite (t) && fabs (t) > 0.0 && room > 0.0)
        scale = MIN (scale, ARROW_REACH * room / fabs (t));
    }
  if (!(scale > 0.0) || !isfinite (scale))
    scale = 1.0;
  for (guint j = 0; j < 2 * arrows.d; j++)
    arrows.tips[j] *= scale;

  extras.overlay = draw_arrows;
  extras.overlay_data = &arrows;
  _latent_figure_scatter_draw_extras (snapshot, style, &extras, cr, width, height);
  g_free (arrows.tips);
}

/* Shared by samples and reconstructions ----------------------------------- */

/* The dataset's usual scale (0–1, 0–255…), from its first rows, so model
 * output that overshoots it is clipped rather than rescaling everything. */
static void
dataset_range (LatentDataset *dataset,
               double        *lo,
               double        *hi)
{
  guint n = MIN (latent_dataset_get_n_rows (dataset), 64u);
  g_autofree const float **rows = g_new (const float *, MAX (n, 1u));

  for (guint i = 0; i < n; i++)
    rows[i] = latent_dataset_get_row (dataset, i);
  _latent_figure_image_range (rows, n, latent_dataset_get_n_cols (dataset), lo, hi);
}

static void
footer_note (cairo_t                 *cr,
             const LatentFigureStyle *style,
             double                   y,
             const char              *text)
{
  const double f = MAX (style->font_size, 1.0);

  cairo_save (cr);
  _latent_figure_set_font (cr, style, 0.9, FALSE);
  _latent_figure_set_color_mix (cr, style, 0.7);
  cairo_move_to (cr, f, y);
  _latent_figure_show_text (cr, text);
  cairo_restore (cr);
}

/* Samples ------------------------------------------------------------------- */

static void
draw_sample_tiles (cairo_t                 *cr,
                   LatentSnapshot          *snapshot,
                   const LatentFigureStyle *style,
                   double                   top,
                   int                      width,
                   int                      height)
{
  const double f = MAX (style->font_size, 1.0), footer = f * 2.0;
  const guint d = latent_dataset_get_n_cols (snapshot->dataset);
  const guint n = MIN (snapshot->linear.n_samples, MAX_SAMPLE_TILES);
  LatentFigureTileGrid grid;
  guint w, h, channels;
  gboolean single;
  double lo, hi;

  latent_dataset_get_image_shape (snapshot->dataset, &w, &h, &channels, &single);
  if (!_latent_figure_tile_grid (style, w, h, n, 1, f, top, width - 2.0 * f, height - top - f - footer, &grid))
    return;
  dataset_range (snapshot->dataset, &lo, &hi);
  for (guint i = 0; i < n; i++)
    {
      cairo_surface_t *image = _latent_figure_grey_tile (snapshot->linear.samples + (gsize) i * d, w, h, channels, lo, hi);
      double x, y;

      _latent_figure_tile_origin (&grid, i, 0, &x, &y);
      cairo_save (cr);
      _latent_figure_set_color_mix (cr, style, 0.3);
      _latent_figure_draw_tile (cr, image, x, y, grid.tile_w, grid.tile_h, grid.frame);
      cairo_restore (cr);
      cairo_surface_destroy (image);
      if (grid.caption > 0)
        {
          g_autofree char *caption = g_strdup_printf (_("sample %u"), i + 1);
          g_autofree char *number = g_strdup_printf ("%u", i + 1);

          _latent_figure_tile_caption (cr, style, x - grid.frame, y + grid.tile_h + grid.frame + grid.caption * 0.75,
                                       grid.tile_w + 2 * grid.frame, caption, number);
        }
    }
  footer_note (cr, style, height - f - f * 0.5,
               _("Drawn from the fitted model: Gaussian latent vectors mapped back to pixels"));
}

/* Solves A X = B for a symmetric positive definite A (m × m, overwritten by
 * its Cholesky factor) and @nrhs right-hand sides (B, m × nrhs, overwritten
 * by X); FALSE when A is not positive definite. */
static gboolean
solve_spd (double *a,
           guint   m,
           double *b,
           guint   nrhs)
{
  for (guint j = 0; j < m; j++)
    {
      double diag = a[(gsize) j * m + j];

      for (guint k = 0; k < j; k++)
        diag -= a[(gsize) j * m + k] * a[(gsize) j * m + k];
      if (!(diag > 0.0) || !isfinite (diag))
        return FALSE;
      a[(gsize) j * m + j] = sqrt (diag);
      for (guint i = j + 1; i < m; i++)
        {
          double v = a[(gsize) i * m + j];

          for (guint k = 0; k < j; k++)
            v -= a[(gsize) i * m + k] * a[(gsize) j * m + k];
          a[(gsize) i * m + j] = v / a[(gsize) j * m + j];
        }
    }
  for (guint c = 0; c < nrhs; c++)
    {
      for (guint i = 0; i < m; i++)
        {
          double v = b[(gsize) i * nrhs + c];

          for (guint k = 0; k < i; k++)
            v -= a[(gsize) i * m + k] * b[(gsize) k * nrhs + c];
          b[(gsize) i * nrhs + c] = v / a[(gsize) i * m + i];
        }
      for (guint i = m; i-- > 0;)
        {
          double v = b[(gsize) i * nrhs + c];

          for (guint k = i + 1; k < m; k++)
            v -= a[(gsize) k * m + i] * b[(gsize) k * nrhs + c];
          b[(gsize) i * nrhs + c] = v / a[(gsize) i * m + i];
        }
    }
  return TRUE;
}

/* Rows' coefficients on the components: the a (m values per row) whose
 * Σ a_j c_j is nearest to row − mean, a = (C Cᵀ)⁻¹ C (row − mean). Exact
 * for a point on the model's plane, as every sample is. @g is C Cᵀ's
 * Cholesky factor; @out gets n × m values. */
static void
coefficients (LatentSnapshot *snapshot,
              const double   *g,
              const float    *rows,
              const guint    *which,
              guint           n,
              double         *out)
{
  const LatentLinearPart *part = &snapshot->linear;
  const guint d = latent_dataset_get_n_cols (snapshot->dataset), m = part->n_components;
  g_autofree double *centred = g_new (double, d);
  g_autofree double *l = g_memdup2 (g, sizeof (double) * m * m);

  for (guint i = 0; i < n; i++)
    {
      const float *row = rows + (gsize) (which ? which[i] : i) * d;
      double *a = out + (gsize) i * m;

      for (guint k = 0; k < d; k++)
        centred[k] = (double) row[k] - part->data_mean[k];
      for (guint j = 0; j < m; j++)
        {
          const float *c = part->components + (gsize) j * d;
          double s = 0.0;

          for (guint k = 0; k < d; k++)
            s += centred[k] * c[k];
          a[j] = s;
        }
      /* The factor is already made: only the two triangular solves. */
      for (guint j = 0; j < m; j++)
        {
          double v = a[j];

          for (guint k = 0; k < j; k++)
            v -= l[(gsize) j * m + k] * a[k];
          a[j] = v / l[(gsize) j * m + j];
        }
      for (guint j = m; j-- > 0;)
        {
          double v = a[j];

          for (guint k = j + 1; k < m; k++)
            v -= l[(gsize) k * m + j] * a[k];
          a[j] = v / l[(gsize) j * m + j];
        }
    }
}

/* Rows used to learn how coefficients turn into latent coordinates: the
 * relation is exact, so a few per component are plenty. */
#define FIT_ROWS_PER_COMPONENT 8
#define MIN_FIT_ROWS 256

/* The samples in the latent coordinates of the projection, the first two
 * of them per sample; NULL when they cannot be found.
 *
 * A sample is mean + D z, the model's decoder D applied to a latent vector
 * z drawn like the rows' projections, so z is where the sample belongs on
 * the projection. D's columns span the components' plane, so a sample's
 * coefficients a on the components are exact and z = B a for a small
 * matrix B: for factor analysis D is the loadings themselves (B = I); PCA
 * and probabilistic PCA encode rows through the same plane (their encoder
 * E undoes D), so each row's projection is B times its coefficients too,
 * and B follows from the rows by least squares, whitening and PPCA's
 * shrinkage included. */
static float *
samples_latent (LatentSnapshot *snapshot)
{
  const LatentLinearPart *part = &snapshot->linear;
  const guint d = latent_dataset_get_n_cols (snapshot->dataset), m = part->n_components;
  const guint n_rows = latent_dataset_get_n_rows (snapshot->dataset), dims = part->projection_dims;
  const guint n_samples = part->n_samples;
  g_autofree double *g = g_new0 (double, (gsize) m * m);
  g_autofree double *a = g_new (double, (gsize) n_samples * m);
  g_autofree double *b = g_new0 (double, (gsize) 2 * m);   /* B's first two rows */
  float *xy;

  /* C Cᵀ, factored. */
  for (guint i = 0; i < m; i++)
    for (guint j = 0; j <= i; j++)
      {
        double s = 0.0;

        for (guint k = 0; k < d; k++)
          s += (double) part->components[(gsize) i * d + k] * part->components[(gsize) j * d + k];
        g[(gsize) i * m + j] = g[(gsize) j * m + i] = s;
      }
  if (!solve_spd (g, m, NULL, 0))
    return NULL;
  coefficients (snapshot, g, part->samples, NULL, n_samples, a);

  if (_latent_figure_linear_is_fa (snapshot))
    {
      b[0] = 1.0;
      b[m + 1] = 1.0;
    }
  else
    {
      /* B from the rows: (Σ a aᵀ) Bᵀ = Σ a pᵀ, over rows spread evenly. */
      const guint n_fit = MIN (n_rows, MAX (MIN_FIT_ROWS, FIT_ROWS_PER_COMPONENT * m));
      g_autofree guint *which = g_new (guint, MAX (n_fit, 1u));
      g_autofree double *ra = g_new (double, (gsize) MAX (n_fit, 1u) * m);
      g_autofree double *aa = g_new0 (double, (gsize) m * m);
      g_autofree double *ap = g_new0 (double, (gsize) m * 2);
      guint used = 0;

      for (guint i = 0; i < n_fit; i++)
        which[i] = (guint) ((guint64) i * n_rows / n_fit);
      coefficients (snapshot, g, latent_dataset_get_data (snapshot->dataset), which, n_fit, ra);
      for (guint i = 0; i < n_fit; i++)
        {
          const double *ai = ra + (gsize) i * m;
          const float *p = part->projection + (gsize) which[i] * dims;
          gboolean finite = isfinite (p[0]) && isfinite (p[1]);

          for (guint j = 0; j < m && finite; j++)
            finite = isfinite (ai[j]);
          if (!finite)
            continue;
          used++;
          for (guint j = 0; j < m; j++)
            {
              for (guint k = 0; k < m; k++)
                aa[(gsize) j * m + k] += ai[j] * ai[k];
              ap[(gsize) j * 2] += ai[j] * p[0];
              ap[(gsize) j * 2 + 1] += ai[j] * p[1];
            }
        }
      if (used < m || !solve_spd (aa, m, ap, 2))
        return NULL;
      for (guint j = 0; j < m; j++)
        {
          b[j] = ap[(gsize) j * 2];
          b[m + j] = ap[(gsize) j * 2 + 1];
        }
    }

  xy = g_new (float, 2 * (gsize) n_samples);
  for (guint s = 0; s < n_samples; s++)
    for (guint r = 0; r < 2; r++)
      {
        double z = 0.0;

        for (guint j = 0; j < m; j++)
          z += b[(gsize) r * m + j] * a[(gsize) s * m + j];
        xy[2 * (gsize) s + r] = z;
      }
  return xy;
}

static void
_latent_figure_samples_draw (LatentSnapshot          *snapshot,
                             const LatentFigureStyle *style,
                             cairo_t                 *cr,
                             double                   top,
                             int                      width,
                             int                      height)
{
  const LatentLinearPart *part = &snapshot->linear;
  gboolean ready = part->samples != NULL && part->n_samples > 0
                   && _latent_figure_linear_has_components (snapshot);
  gboolean projected = part->projection != NULL && part->projection_dims >= 2
                       && snapshot->n_rows == latent_dataset_get_n_rows (snapshot->dataset);

  if (!ready)
    _latent_figure_message (cr, style, width, height, _("No samples in this snapshot yet"));
  else if (_latent_figure_dataset_has_image_rows (snapshot->dataset))
    draw_sample_tiles (cr, snapshot, style, top, width, height);
  else if (part->n_components < 2 || part->data_mean == NULL)
    _latent_figure_message (cr, style, width, height,
                            _("Samples are drawn on two components; this model has one"));
  else if (!projected)
    _latent_figure_message (cr, style, width, height, _("No projection in this snapshot yet"));
  else
    {
      /* Samples over the rows, both where the projection puts them. */
      g_autofree float *samples = samples_latent (snapshot);
      g_autofree char *name = g_strdup_printf (_("samples (%u)"), part->n_samples);
      LatentScatterExtras extras = {
        .extra = samples,
        .n_extra = samples != NULL ? part->n_samples : 0,
        .extra_name = name,
      };

      if (samples == NULL)
        _latent_figure_message (cr, style, width, height,
                                _("The samples cannot be placed in this model’s latent coordinates"));
      else
        _latent_figure_scatter_draw_extras (snapshot, style, &extras, cr, width, height);
    }
}

/* Reconstructions --------------------------------------------------------- */

static double
example_error (LatentSnapshot *snapshot,
               guint           e)
{
  const LatentExamples *examples = latent_family_examples (snapshot);
  const guint d = latent_dataset_get_n_cols (snapshot->dataset);
  const float *row = latent_dataset_get_row (snapshot->dataset, examples->rows[e]);
  const float *rec = examples->reconstructions + (gsize) e * d;
  double sum = 0.0;

  for (guint k = 0; k < d; k++)
    sum += ((double) row[k] - rec[k]) * ((double) row[k] - rec[k]);
  return sum / MAX (d, 1u);
}

static char *
example_title (LatentSnapshot *snapshot,
               guint           e,
               gboolean        long_form)
{
  const LatentExamples *examples = latent_family_examples (snapshot);
  const gint32 *labels = latent_dataset_get_labels (snapshot->dataset);
  guint row = examples->rows[e];
  const char *name = labels ? latent_dataset_get_class_name (snapshot->dataset, labels[row]) : NULL;
  g_autofree char *klass = labels && name == NULL ? g_strdup_printf (_("class %d"), labels[row] + 1) : NULL;
  double error = example_error (snapshot, e);

  if (!long_form)
    return g_strdup_printf (_("row %u"), row + 1);
  if (labels)
    return g_strdup_printf (_("row %u · %s · error %.3g"), row + 1, name ? name : klass, error);
  return g_strdup_printf (_("row %u · error %.3g"), row + 1, error);
}

static void
draw_reconstruction_tiles (cairo_t                 *cr,
                           LatentSnapshot          *snapshot,
                           const LatentFigureStyle *style,
                           guint                    n,
                           double                   top,
                           int                      width,
                           int                      height)
{
  const LatentExamples *examples = latent_family_examples (snapshot);
  const double f = MAX (style->font_size, 1.0), footer = f * 2.0;
  const guint d = latent_dataset_get_n_cols (snapshot->dataset);
  const gint32 *labels = latent_dataset_get_labels (snapshot->dataset);
  LatentFigureTileGrid grid;
  guint w, h, channels;
  gboolean single;
  double lo, hi;

  latent_dataset_get_image_shape (snapshot->dataset, &w, &h, &channels, &single);
  if (!_latent_figure_tile_grid (style, w, h, n, 2, f, top, width - 2.0 * f, height - top - f - footer, &grid))
    return;
  dataset_range (snapshot->dataset, &lo, &hi);
  for (guint e = 0; e < n; e++)
    {
      guint row = examples->rows[e];
      const float *values[2] = { latent_dataset_get_row (snapshot->dataset, row),
                                 examples->reconstructions + (gsize) e * d };
      double x = 0.0, y = 0.0;

      for (guint i = 0; i < 2; i++)
        {
          cairo_surface_t *image = _latent_figure_grey_tile (values[i], w, h, channels, lo, hi);
          double r, g, b;

          _latent_figure_tile_origin (&grid, e, i, &x, &y);
          cairo_save (cr);
          /* The row wears its class colour; its reconstruction is the model's. */
          if (i == 0 && labels != NULL)
            {
              latent_palette_color (labels[row], &r, &g, &b);
              cairo_set_source_rgb (cr, r, g, b);
            }
          else
            _latent_figure_set_color_mix (cr, style, 0.3);
          _latent_figure_draw_tile (cr, image, x, y, grid.tile_w, grid.tile_h, grid.frame);
          cairo_restore (cr);
          cairo_surface_destroy (image);
        }
      if (grid.caption > 0)
        {
          g_autofree char *caption = example_title (snapshot, e, TRUE);
          g_autofree char *short_caption = example_title (snapshot, e, FALSE);
          double cell_w = 2 * (grid.tile_w + 2 * grid.frame) + grid.inner, x0, y0;

          _latent_figure_tile_origin (&grid, e, 0, &x0, &y0);
          _latent_figure_tile_caption (cr, style, x0 - grid.frame, y0 + grid.tile_h + grid.frame + grid.caption * 0.75,
                                       cell_w, caption, short_caption);
        }
    }
  /* An autoencoder shows rows it did not train on. */
  footer_note (cr, style, height - f - f * 0.5,
               latent_snapshot_get_family (snapshot) == LATENT_FAMILY_AUTOENCODER
               ? _("Each pair: a validation row, then its reconstruction")
               : _("Each pair: the row, then its reconstruction"));
}

/* Non-image rows: one small panel per example, the row's values as a solid
 * line and its reconstruction dashed, feature by feature. */
typedef struct {
  guint  cols, rows;
  double x0, y0, w, h, gap;     /* panel grid */
  double lo, hi;                /* shared value axis */
} Panels;

static void
value_span (LatentSnapshot *snapshot,
            guint           n,
            double         *lo,
            double         *hi)
{
  const LatentExamples *examples = latent_family_examples (snapshot);
  const guint d = latent_dataset_get_n_cols (snapshot->dataset);
  double mn = INFINITY, mx = -INFINITY, pad;

  for (guint e = 0; e < n; e++)
    {
      const float *row = latent_dataset_get_row (snapshot->dataset, examples->rows[e]);
      const float *rec = examples->reconstructions + (gsize) e * d;

      for (guint k = 0; k < d; k++)
        {
          if (isfinite (row[k]))
            mn = MIN (mn, row[k]), mx = MAX (mx, row[k]);
          if (isfinite (rec[k]))
            mn = MIN (mn, rec[k]), mx = MAX (mx, rec[k]);
        }
    }
  if (!isfinite (mn))
    mn = 0.0, mx = 1.0;
  if (!(mx > mn))
    mn -= 0.5, mx += 0.5;
  pad = (mx - mn) * 0.08;
  *lo = mn - pad;
  *hi = mx + pad;
}

static void
draw_series (cairo_t      *cr,
             const float  *values,
             guint         d,
             double        x0,
             double        step,
             double        y0,
             double        h,
             double        lo,
             double        hi,
             gboolean      dashed,
             double        marker)
{
  const double dash[] = { 5.0, 3.0 };

  cairo_new_path (cr);
  for (guint k = 0; k < d; k++)
    if (isfinite (values[k]))
      cairo_line_to (cr, x0 + (k + 0.5) * step, y0 + (hi - values[k]) / (hi - lo) * h);
  cairo_set_line_width (cr, 2.0);
  cairo_set_dash (cr, dash, dashed ? 2 : 0, 0.0);
  cairo_stroke (cr);
  cairo_set_dash (cr, NULL, 0, 0.0);
  if (marker <= 0.0)
    return;
  for (guint k = 0; k < d; k++)
    {
      double x, y;

      if (!isfinite (values[k]))
        continue;
      x = x0 + (k + 0.5) * step;
      y = y0 + (hi - values[k]) / (hi - lo) * h;
      cairo_new_sub_path (cr);
      if (dashed)
        cairo_rectangle (cr, x - marker, y - marker, 2 * marker, 2 * marker);
      else
        cairo_arc (cr, x, y, marker, 0, 2 * G_PI);
    }
  cairo_fill (cr);
}

static void
draw_reconstruction_panel (cairo_t                 *cr,
                           LatentSnapshot          *snapshot,
                           const LatentFigureStyle *style,
                           const Panels            *p,
                           guint                    e,
                           gboolean                 bottom)
{
  const LatentExamples *examples = latent_family_examples (snapshot);
  const double f = MAX (style->font_size, 1.0);
  const guint d = latent_dataset_get_n_cols (snapshot->dataset);
  const float *row = latent_dataset_get_row (snapshot->dataset, examples->rows[e]);
  double px = p->x0 + (e % p->cols) * (p->w + p->gap), py = p->y0 + (e / p->cols) * (p->h + p->gap);
  double left = f * 3.6, names = bottom ? f * 1.4 : f * 0.4;
  double x = round (px + left), y = round (py + f * 1.5), w = floor (p->w - left), h = floor (p->h - f * 1.5 - names);
  double step, r, g, b;
  g_autofree char *title = example_title (snapshot, e, TRUE);
  g_auto(GStrv) labels = NULL;
  double at[_LATENT_FIGURE_MAX_TICKS];
  LatentFigureTicks ticks;
  LatentFigureAxes axes;

  if (w < MIN_PANEL_SIZE || h < MIN_PANEL_SIZE / 2)
    return;
  step = w / d;
  cairo_save (cr);
  _latent_figure_set_font (cr, style, 0.9, TRUE);
  _latent_figure_set_color_mix (cr, style, 0.9);
  cairo_move_to (cr, x, py + f);
  _latent_figure_show_text (cr, title);

  _latent_figure_nice_ticks (p->lo, p->hi, MAX (h / (f * 2.5), 2.0), &ticks);
  labels = _latent_figure_tick_labels (&ticks, NULL);
  for (guint i = 0; i < ticks.n; i++)
    at[i] = y + (p->hi - ticks.values[i]) / (p->hi - p->lo) * h;
  /* Small panels: no marks, smaller labels. */
  _latent_figure_axes_init (&axes, style, x, y, w, h);
  axes.tick = 0.0;
  axes.label_scale = 0.8;
  axes.label_rise = 0.3;
  axes.left = (LatentFigureAxis) { ticks.n, at, (const char * const *) labels, TRUE };
  _latent_figure_draw_grid (cr, style, &axes);
  _latent_figure_draw_axes (cr, style, &axes);
  _latent_figure_set_font (cr, style, 0.8, FALSE);
  _latent_figure_set_color_mix (cr, style, 0.75);
  /* Column names under the bottom panels, where they fit. */
  for (guint k = 0; bottom && k < d; k++)
    {
      const char *name = latent_dataset_get_column_name (snapshot->dataset, k);
      g_autofree char *label = name ? g_strdup (name) : g_strdup_printf ("%u", k + 1);
      double tw = _latent_figure_text_width (cr, label);

      if (tw + f * 0.3 > step)
        {
          g_free (label);
          label = g_strdup_printf ("%u", k + 1);
          tw = _latent_figure_text_width (cr, label);
          if (tw + f * 0.3 > step && k % (guint) ceil ((tw + f * 0.3) / step) != 0)
            continue;
        }
      cairo_move_to (cr, x + (k + 0.5) * step - tw / 2.0, y + h + f * 1.1);
      _latent_figure_show_text (cr, label);
    }

  cairo_rectangle (cr, x, y, w, h);
  cairo_clip (cr);
  cairo_set_line_join (cr, CAIRO_LINE_JOIN_ROUND);
  latent_palette_color (0, &r, &g, &b);
  cairo_set_source_rgb (cr, r, g, b);
  draw_series (cr, row, d, x, step, y, h, p->lo, p->hi, FALSE, step >= 8.0 ? MAX (2.5, f * 0.25) : 0.0);
  latent_palette_color (1, &r, &g, &b);
  cairo_set_source_rgb (cr, r, g, b);
  draw_series (cr, examples->reconstructions + (gsize) e * d, d, x, step, y, h, p->lo, p->hi, TRUE,
               step >= 8.0 ? MAX (2.0, f * 0.2) : 0.0);
  cairo_restore (cr);
}

static void
draw_reconstruction_panels (cairo_t                 *cr,
                            LatentSnapshot          *snapshot,
                            const LatentFigureStyle *style,
                            guint                    n,
                            double                   top,
                            int                      width,
                            int                      height)
{
  const double f = MAX (style->font_size, 1.0), swatch = round (f * 0.8);
  const char *names[2] = { _("row"), _("reconstruction") };
  double avail_w = width - 2.0 * f, avail_h, best = 0.0, x = f, y = top + f * 0.4;
  Panels p = { .gap = round (f * 1.2) };

  /* The legend line. */
  cairo_save (cr);
  _latent_figure_set_font (cr, style, 1.0, FALSE);
  for (guint i = 0; i < 2; i++)
    {
      double r, g, b;

      latent_palette_color (i, &r, &g, &b);
      cairo_set_source_rgb (cr, r, g, b);
      cairo_set_line_width (cr, 2.0);
      cairo_set_dash (cr, (const double[]) { 5.0, 3.0 }, i == 1 ? 2 : 0, 0.0);
      cairo_move_to (cr, x, y + f * 0.5);
      cairo_rel_line_to (cr, swatch * 2.0, 0);
      cairo_stroke (cr);
      cairo_set_dash (cr, NULL, 0, 0.0);
      _latent_figure_set_color_mix (cr, style, 1.0);
      cairo_move_to (cr, x + swatch * 2.0 + f * 0.5, y + f * 0.85);
      _latent_figure_show_text (cr, names[i]);
      x += swatch * 2.0 + f * 0.5 + _latent_figure_text_width (cr, names[i]) + f * 1.5;
    }
  cairo_restore (cr);

  p.y0 = round (top + f * 2.2);
  p.x0 = f;
  avail_h = height - p.y0 - f;
  /* The grid whose panels are largest at about 3:2. */
  for (guint cols = 1; cols <= n; cols++)
    {
      guint rows = (n + cols - 1) / cols;
      double w = (avail_w - (cols - 1) * p.gap) / cols, h = (avail_h - (rows - 1) * p.gap) / rows;
      double score = MIN (w / 1.5, h);

      if (score > best)
        {
          best = score;
          p.cols = cols;
          p.rows = rows;
          p.w = floor (w);
          p.h = floor (h);
        }
    }
  if (best < MIN_PANEL_SIZE)
    return;
  value_span (snapshot, n, &p.lo, &p.hi);
  for (guint e = 0; e < n; e++)
    draw_reconstruction_panel (cr, snapshot, style, &p, e, e + p.cols >= n);
}

static void
_latent_figure_reconstructions_draw (LatentSnapshot          *snapshot,
                                     const LatentFigureStyle *style,
                                     cairo_t                 *cr,
                                     double                   top,
                                     int                      width,
                                     int                      height)
{
  const LatentExamples *examples = latent_family_examples (snapshot);
  guint n = 0, n_rows;

  /* Only examples that name a row of this dataset. */
  n_rows = latent_dataset_get_n_rows (snapshot->dataset);
  if (examples->reconstructions != NULL && examples->rows != NULL
      && (snapshot->n_cols == 0 || snapshot->n_cols == latent_dataset_get_n_cols (snapshot->dataset)))
    while (n < examples->n_examples && examples->rows[n] >= 0 && (guint) examples->rows[n] < n_rows)
      n++;
  if (n == 0)
    _latent_figure_message (cr, style, width, height, _("No reconstructions in this snapshot yet"));
  else if (_latent_figure_dataset_has_image_rows (snapshot->dataset))
    draw_reconstruction_tiles (cr, snapshot, style, n, top, width, height);
  else
    draw_reconstruction_panels (cr, snapshot, style, n, top, width, height);
}

static gboolean
applies_biplot (LatentSnapshot  *snapshot,
                GError         **error)
{
  guint n_cols, n_components;

  if (!_latent_figure_applies_with_data (snapshot, error))
    return FALSE;
  n_cols = latent_dataset_get_n_cols (snapshot->dataset);
  if (n_cols > LATENT_FIGURE_BIPLOT_MAX_COLS)
    {
      g_set_error (error, LATENT_FIGURE_ERROR, LATENT_FIGURE_ERROR_KIND,
                   _("Biplot: one arrow per column is readable up to %u columns; this dataset has %u"),
                   LATENT_FIGURE_BIPLOT_MAX_COLS, n_cols);
      return FALSE;
    }
  if (n_cols < 2 || (latent_family_components (snapshot, &n_components) && n_components < 2))
    {
      g_set_error (error, LATENT_FIGURE_ERROR, LATENT_FIGURE_ERROR_KIND,
                   _("Biplot: needs two components or more"));
      return FALSE;
    }
  return TRUE;
}

const LatentFigureKindRow _latent_figure_linear_examples_kinds[] = {
  { .kind = LATENT_FIGURE_BIPLOT,
    .title = N_("Biplot"),
    .draw = _latent_figure_biplot_draw,
    .applies = applies_biplot,
    .only_some = TRUE },
  { .kind = LATENT_FIGURE_RECONSTRUCTIONS,
    .title = N_("Reconstructions"),
    .draw = _latent_figure_reconstructions_draw,
    .applies = _latent_figure_applies_with_data,
    .only_some = TRUE },
  { .kind = LATENT_FIGURE_SAMPLES,
    .title = N_("Samples"),
    .draw = _latent_figure_samples_draw,
    .applies = _latent_figure_applies_with_data,
    .only_some = TRUE },
  { .kind = LATENT_FIGURE_AUTO }
};
