/* latent-figure.h — Cairo figures of a snapshot, for the screen and for files
 *
 * Figures know nothing of widgets: each takes a snapshot, a cairo_t and a size
 * in user units, and paints the whole rectangle (0, 0, width, height).
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <cairo.h>
#include <glib.h>

#include "latent-snapshot.h"
#include "latent-sweep.h"

G_BEGIN_DECLS

#define LATENT_FIGURE_ERROR (latent_figure_error_quark ())

typedef enum {
  LATENT_FIGURE_ERROR_FORMAT,  /* the file extension names no known format */
  LATENT_FIGURE_ERROR_SIZE,    /* width or height outside the limits */
  LATENT_FIGURE_ERROR_RENDER,  /* Cairo or libpng failed (e.g. out of memory) */
} LatentFigureError;

GQuark latent_figure_error_quark (void);

/* Export sizes, in pixels (PNG) or points (SVG, PDF). */
#define LATENT_FIGURE_MIN_SIZE 16
#define LATENT_FIGURE_MAX_SIZE 16384

typedef struct {
  double   font_size;     /* px at scale 1, default 13 */
  double   point_size;    /* px; 0 (the default) chooses from the point count */
  gboolean dark;          /* dark background */
  int      trail_length;  /* unused: the trail itself is below */
  double   pixel_scale;   /* device pixels per unit for the point layer; 0 (the
                           * default) reads it from an image target. Views
                           * drawing through GTK (a recording surface) set it
                           * from the widget's scale factor. */
  /* Scatter only: */
  gboolean has_view;      /* show this window of data coordinates (zoom, pan) */
  double   view[4];       /* xmin, xmax, ymin, ymax */
  gboolean voronoi;       /* tint each center's region, for 2-D data */
  const float *trail;     /* earlier means, n_trail × k × n_cols, oldest first */
  guint    n_trail;
} LatentFigureStyle;

typedef enum {
  LATENT_FIGURE_AUTO,     /* IMAGES when the dataset's rows are images, else SCATTER */
  LATENT_FIGURE_SCATTER,
  LATENT_FIGURE_IMAGES,
} LatentFigureKind;

void             latent_figure_style_init      (LatentFigureStyle       *style);
void             latent_figure_style_get_background (const LatentFigureStyle *style,
                                                double                  *r,
                                                double                  *g,
                                                double                  *b);
void             latent_figure_style_get_foreground (const LatentFigureStyle *style,
                                                double                  *r,
                                                double                  *g,
                                                double                  *b);

/* AUTO resolved against the snapshot's dataset. */
LatentFigureKind latent_figure_resolve_kind    (LatentSnapshot          *snapshot,
                                                LatentFigureKind         kind);
/* "k-means · K = 3 · iteration 12" */
char            *latent_figure_dup_title       (LatentSnapshot          *snapshot);

void             latent_figure_render          (LatentSnapshot          *snapshot,
                                                LatentFigureKind         kind,
                                                const LatentFigureStyle *style,
                                                cairo_t                 *cr,
                                                int                      width,
                                                int                      height);
void             latent_figure_scatter_render  (LatentSnapshot          *snapshot,
                                                const LatentFigureStyle *style,
                                                cairo_t                 *cr,
                                                int                      width,
                                                int                      height);
void             latent_figure_images_render   (LatentSnapshot          *snapshot,
                                                const LatentFigureStyle *style,
                                                cairo_t                 *cr,
                                                int                      width,
                                                int                      height);

/* Where the scatter figure draws the projected point (x, y), for hit tests and
 * tooltips; FALSE when it draws no plot (no data, or too small). */
gboolean         latent_figure_scatter_locate  (LatentSnapshot          *snapshot,
                                                const LatentFigureStyle *style,
                                                int                      width,
                                                int                      height,
                                                double                   x,
                                                double                   y,
                                                double                  *px,
                                                double                  *py);
/* The data window the scatter shows (all the data unless style->has_view). */
gboolean         latent_figure_scatter_bounds  (LatentSnapshot          *snapshot,
                                                const LatentFigureStyle *style,
                                                int                      width,
                                                int                      height,
                                                double                  *view,
                                                double                  *plot);
/* The row drawn nearest to figure position (x, y), within radius; -1 if none. */
gint64           latent_figure_scatter_pick    (LatentSnapshot          *snapshot,
                                                const LatentFigureStyle *style,
                                                int                      width,
                                                int                      height,
                                                double                   x,
                                                double                   y,
                                                double                   radius);
/* The rectangle of tile @index (a mean, or a sample before the first
 * iteration) in the images figure; FALSE when that tile is not drawn. */
gboolean         latent_figure_images_locate   (LatentSnapshot          *snapshot,
                                                const LatentFigureStyle *style,
                                                int                      width,
                                                int                      height,
                                                guint                    index,
                                                double                  *x,
                                                double                  *y,
                                                double                  *tile_width,
                                                double                  *tile_height);

/* By extension: .png (libpng, with tEXt metadata), .svg, .pdf. Written to a
 * temporary file beside @path, then renamed, so a failure leaves no half file. */
gboolean         latent_figure_export          (LatentSnapshot          *snapshot,
                                                LatentFigureKind         kind,
                                                const LatentFigureStyle *style,
                                                const char              *path,
                                                int                      width,
                                                int                      height,
                                                GError                 **error);

/* Model selection: BIC and AIC of each K of a sweep as grouped bars, the
 * best K by BIC outlined. Paints the whole rectangle like the others. */
void             latent_figure_sweep_render    (const LatentSweep       *sweep,
                                                const LatentFigureStyle *style,
                                                cairo_t                 *cr,
                                                int                      width,
                                                int                      height);
/* As latent_figure_export (); the PNG says "latent:figure" = "sweep". */
gboolean         latent_figure_sweep_export    (const LatentSweep       *sweep,
                                                const LatentFigureStyle *style,
                                                const char              *path,
                                                int                      width,
                                                int                      height,
                                                GError                 **error);

/* Shared by the renderers (latent-figure-export.c); not for views. */
cairo_t         *_latent_figure_measure_context (const LatentFigureStyle *style);
void             _latent_figure_set_font       (cairo_t                 *cr,
                                                const LatentFigureStyle *style,
                                                double                   scale,
                                                gboolean                 bold);
void             _latent_figure_paint_background (cairo_t               *cr,
                                                const LatentFigureStyle *style,
                                                int                      width,
                                                int                      height);
/* Title, dataset line and metrics line; returns the y below them. Draws only
 * when @cr is not NULL, so layout code can ask for the height alone. */
double           _latent_figure_header         (cairo_t                 *cr,
                                                LatentSnapshot          *snapshot,
                                                const LatentFigureStyle *style,
                                                int                      width);
void             _latent_figure_message        (cairo_t                 *cr,
                                                const LatentFigureStyle *style,
                                                int                      width,
                                                int                      height,
                                                const char              *message);
gboolean         _latent_figure_dataset_has_image_rows (LatentDataset  *dataset);
/* "Model selection: BIC and AIC by K", translated. */
const char      *_latent_figure_sweep_title    (void);
/* The source set to background + (foreground − background) × strength. */
void             _latent_figure_set_color_mix  (cairo_t                 *cr,
                                                const LatentFigureStyle *style,
                                                double                   strength);

/* Round tick values for an axis from lo to hi, about @target of them. */
#define _LATENT_FIGURE_MAX_TICKS 16
typedef struct {
  double values[_LATENT_FIGURE_MAX_TICKS];
  guint  n;
  int    decimals;
} LatentFigureTicks;

void             _latent_figure_nice_ticks     (double                   lo,
                                                double                   hi,
                                                double                   target,
                                                LatentFigureTicks       *ticks);
/* "−1.5", "2e+06": a typographic minus, exponents past a million. */
void             _latent_figure_format_tick    (double                   value,
                                                int                      decimals,
                                                char                    *buf,
                                                gsize                    size);

G_END_DECLS
