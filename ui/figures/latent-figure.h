/* latent-figure.h — Cairo figures of a snapshot, for the screen and for files
 *
 * Figures know nothing of widgets: each takes a snapshot, a cairo_t and a size
 * in user units, and paints the whole rectangle (0, 0, width, height).
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <cairo.h>
#include <gio/gio.h>
#include <glib.h>

#include "latent-algorithm.h"
#include "latent-snapshot.h"
#include "latent-sweep.h"

G_BEGIN_DECLS

#define LATENT_FIGURE_ERROR (latent_figure_error_quark ())

typedef enum {
  LATENT_FIGURE_ERROR_FORMAT,  /* the file extension names no known format */
  LATENT_FIGURE_ERROR_SIZE,    /* width or height outside the limits */
  LATENT_FIGURE_ERROR_RENDER,  /* Cairo or libpng failed (e.g. out of memory) */
  LATENT_FIGURE_ERROR_KIND,    /* the figure kind does not apply to the snapshot */
  LATENT_FIGURE_ERROR_ENCODE,  /* an animation's encoder failed (GStreamer) */
} LatentFigureError;

GQuark latent_figure_error_quark (void);

/* Export sizes, in pixels (PNG) or points (SVG, PDF). */
#define LATENT_FIGURE_MIN_SIZE 16
#define LATENT_FIGURE_MAX_SIZE 16384

typedef struct {
  double   font_size;     /* px at scale 1, default 13 */
  double   point_size;    /* px; 0 (the default) chooses from the point count */
  gboolean dark;          /* dark background */
  double   pixel_scale;   /* device pixels per unit for the point layer; 0 (the
                           * default) reads it from an image target. Views
                           * drawing through GTK (a recording surface) set it
                           * from the widget's scale factor. */
  /* Scatter only: */
  gboolean has_view;      /* show this window of data coordinates (zoom, pan) */
  double   view[4];       /* xmin, xmax, ymin, ymax */
  gboolean voronoi;       /* tint each center's region, for 2-D data */
  gboolean colour_by_class; /* clusters and mixtures on labelled data: the
                           * points in their class's colour (the legend lists
                           * the classes), centroids and ellipses still in
                           * their cluster's; without labels it changes nothing */
  guint    axis_columns[2]; /* the dataset's columns (from 1) drawn across
                           * and up, each as it is; 0 (the default): the
                           * default projection's axis, a principal
                           * component for data of more than two columns */
  const float *trail;     /* earlier means, n_trail × k × n_cols, oldest first */
  guint    n_trail;
  /* Filter only. has_view and view above then window the image, in its
   * pixels: x from the left, y from the top (xmin, xmax, ymin, ymax). */
  double   split;         /* 0–1: one image, the original left of a line at
                           * this fraction of its width and the result right
                           * of it; below 0 (the default): side by side */
  /* The original and the result as latent_figure_filter_surface () makes
   * them, when a view keeps them between draws; NULL (the default) makes
   * them for each draw. Borrowed: the style does not hold a reference. */
  cairo_surface_t *before;
  cairo_surface_t *after;
  /* Scatter only: a density image from latent_figure_scatter_density (),
   * when a view bins on a thread of its own and keeps the image between
   * draws; one binned for another window, size or snapshot is drawn
   * stretched into place until a fitting one comes. NULL (the default):
   * a scatter drawn as a density bins its points for each draw, unless
   * density_later. Borrowed, as before and after. */
  cairo_surface_t *density;
  gboolean density_later; /* with no density given: draw none (the view's
                           * thread is binning) instead of binning here */
} LatentFigureStyle;

/* In the order a person is offered them. */
typedef enum {
  LATENT_FIGURE_AUTO,            /* by algorithm and data; see latent_figure_resolve_kind () */
  LATENT_FIGURE_SCATTER,         /* the rows as points; the projection for PCA, PPCA, FA */
  LATENT_FIGURE_IMAGES,          /* the means of image data as images */
  /* PCA, probabilistic PCA and factor analysis (reconstructions also autoencoders): */
  LATENT_FIGURE_SCREE,           /* explained variance per component, and its sum */
  LATENT_FIGURE_COMPONENTS,      /* components as images, or a loadings heat map */
  LATENT_FIGURE_BIPLOT,          /* the projection with one arrow per column */
  LATENT_FIGURE_RECONSTRUCTIONS, /* rows beside their reconstructions */
  LATENT_FIGURE_SAMPLES,         /* rows drawn from the fitted model */
  LATENT_FIGURE_DOTS,            /* cosines between the components */
  /* Autoencoders: */
  LATENT_FIGURE_WEIGHTS,         /* each hidden unit's weights as an image, or a heat map */
  LATENT_FIGURE_WINNERS,         /* the same, the units with most wins first */
  LATENT_FIGURE_CURVES,          /* loss per mini-batch and per epoch, dead units per epoch */
  /* Convolution: */
  LATENT_FIGURE_FILTER,          /* the image before and after, the kernel, the time per pass */
  LATENT_FIGURE_KERNEL,          /* the kernel large, with its values, and the time per pass */
  /* Classifiers (weights and curves above draw theirs too): */
  LATENT_FIGURE_CONFUSION,       /* test rows by true and predicted class */
  LATENT_FIGURE_REGIONS,         /* the class each point of 2-D data gets, with the rows */
  LATENT_FIGURE_PROTOTYPES,      /* the class means as images, or a heat map */
  LATENT_FIGURE_EPISODE,         /* the last few-shot episode's support and queries */
  LATENT_FIGURE_UNITS,           /* a network's hidden units: their answers over 2-D data, or first-layer images */
  LATENT_FIGURE_SHOTS,           /* few-shot accuracy against the examples per class, by method */
  LATENT_FIGURE_SEGMENTS,        /* an image's pixels in their clusters' means, beside it */
  LATENT_FIGURE_N_KINDS /*< skip >*/
} LatentFigureKind;

/* Biplots draw one arrow per column; past this many they are a tangle. */
#define LATENT_FIGURE_BIPLOT_MAX_COLS 30

void             latent_figure_style_init      (LatentFigureStyle       *style);
void             latent_figure_style_get_background (const LatentFigureStyle *style,
                                                double                  *r,
                                                double                  *g,
                                                double                  *b);
void             latent_figure_style_get_foreground (const LatentFigureStyle *style,
                                                double                  *r,
                                                double                  *g,
                                                double                  *b);

/* AUTO resolved against the snapshot: for image data the algorithm's images
 * (its means, the components of PCA, PPCA and FA, an autoencoder's
 * weights), otherwise the first figure of its list (the scatter, the
 * filter, the weights). IMAGES becomes COMPONENTS (or WEIGHTS) for an
 * algorithm that offers those and no images, and SCATTER for data whose
 * rows are not images. Any other kind stays as it is, and draws
 * a message saying why when it does not apply. */
LatentFigureKind latent_figure_resolve_kind    (LatentSnapshot          *snapshot,
                                                LatentFigureKind         kind);
/* "scree", "components"…: the names latent-cli and the PNG metadata use. */
const char      *latent_figure_kind_to_string  (LatentFigureKind         kind);
/* FALSE for a name that is none of them; @kind is then left alone. */
gboolean         latent_figure_kind_from_string (const char             *name,
                                                LatentFigureKind        *kind);
/* What a person calls it, translated: "Scree plot", "Projection" (the
 * scatter of PCA, PPCA or FA; "Scatter" otherwise). */
const char      *latent_figure_kind_get_title  (LatentFigureKind         kind,
                                                LatentSnapshot          *snapshot);
/* Whether the kind fits this algorithm and dataset (a biplot, for example,
 * wants at most LATENT_FIGURE_BIPLOT_MAX_COLS columns); the error says why
 * not. A kind that fits may still have nothing to draw in an early snapshot:
 * its figure then says so. */
gboolean         latent_figure_kind_applies    (LatentSnapshot          *snapshot,
                                                LatentFigureKind         kind,
                                                GError                 **error);
/* Whether the figure of @kind (resolved) draws the data's rows on
 * LatentFigureStyle's axis_columns: the scatter of a clustering, the
 * few-shot episode. */
gboolean         latent_figure_kind_uses_axes  (LatentSnapshot          *snapshot,
                                                LatentFigureKind         kind);
/* The kinds that apply, in the order of the algorithm's figures list (AUTO
 * excluded); returns how many. @kinds holds LATENT_FIGURE_N_KINDS. */
guint            latent_figure_list_kinds      (LatentSnapshot          *snapshot,
                                                LatentFigureKind        *kinds);
/* "k-means · K = 3 · iteration 12" */
char            *latent_figure_dup_title       (LatentSnapshot          *snapshot);

/* The figure of @kind (resolved as latent_figure_resolve_kind () does),
 * header and all; a kind that does not apply draws why not. */
void             latent_figure_render          (LatentSnapshot          *snapshot,
                                                LatentFigureKind         kind,
                                                const LatentFigureStyle *style,
                                                cairo_t                 *cr,
                                                int                      width,
                                                int                      height);
/* The original image (the dataset's, @filtered FALSE) or the snapshot's
 * result as an image surface, one pixel per pixel, values clipped to 0–1;
 * NULL when the snapshot has no such image. A signed result (a kernel
 * whose weights add up to 0, or that differs from itself turned half
 * round, such as Sobel, Laplacian and emboss, leaving values below 0) is
 * grey-centred instead: 0 mid-grey, black and white at ∓ a scale that
 * holds 99.5 % of its values, opaque. For views that keep it in
 * style->before and style->after; free with cairo_surface_destroy (). */
cairo_surface_t *latent_figure_filter_surface  (LatentSnapshot          *snapshot,
                                                gboolean                 filtered);

/* @dataset's image, when it is one image whose rows are its pixels (a
 * photo), as it is; NULL otherwise. Free with cairo_surface_destroy (). */
cairo_surface_t *latent_figure_dataset_image   (LatentDataset           *dataset);

/* Where the filter figure draws its images, for views that zoom, pan and
 * move the split. */
typedef struct {
  guint  n_panels;         /* 2 side by side; 1 for the split view */
  double panels[2][4];     /* x, y, width, height: the original, then the result */
  double view[4];          /* the window of the image they show, in its pixels
                            * (xmin, xmax, ymin, ymax; y from the top) */
  guint  image_width, image_height;
} LatentFigureFilterLayout;

/* FALSE when the figure draws no image (no image, or too small). */
gboolean         latent_figure_filter_layout   (LatentSnapshot          *snapshot,
                                                const LatentFigureStyle *style,
                                                int                      width,
                                                int                      height,
                                                LatentFigureFilterLayout *layout);
/* A convolution's snapshot, or one with an image. */
gboolean         latent_figure_is_filter       (LatentSnapshot          *snapshot);

/* Where the scatter figure draws the point (x, y), for hit tests and
 * tooltips; FALSE when it draws no plot (no data, or too small). The points
 * are the snapshot's latent coordinates for PCA, PPCA and FA, else the
 * dataset's 2-D projection. The biplot shares this layout. */
gboolean         latent_figure_scatter_locate  (LatentSnapshot          *snapshot,
                                                const LatentFigureStyle *style,
                                                int                      width,
                                                int                      height,
                                                double                   x,
                                                double                   y,
                                                double                  *px,
                                                double                  *py);
/* The data window the scatter shows (all the data unless style->has_view). */
/* Where row @row is drawn in the scatter of @width × @height; FALSE when
 * it is not drawn (out of the window, or no such row). */
gboolean         latent_figure_scatter_row_at  (LatentSnapshot          *snapshot,
                                                const LatentFigureStyle *style,
                                                int                      width,
                                                int                      height,
                                                guint                    row,
                                                double                  *px,
                                                double                  *py);
/* The rows drawn inside @polygon (@n_points x, y pairs in figure
 * pixels, closed implicitly), ascending: a lasso's. Free with
 * g_array_unref (). */
GArray          *latent_figure_scatter_rows_in (LatentSnapshot          *snapshot,
                                                const LatentFigureStyle *style,
                                                int                      width,
                                                int                      height,
                                                const double            *polygon,
                                                guint                    n_points);
/* Where each of @rows is drawn, as x, y pairs into @xy (2 × @n_rows),
 * skipping those not drawn; how many were. */
guint            latent_figure_scatter_rows_at (LatentSnapshot          *snapshot,
                                                const LatentFigureStyle *style,
                                                int                      width,
                                                int                      height,
                                                const guint             *rows,
                                                guint                    n_rows,
                                                double                  *xy);
gboolean         latent_figure_scatter_bounds  (LatentSnapshot          *snapshot,
                                                const LatentFigureStyle *style,
                                                int                      width,
                                                int                      height,
                                                double                  *view,
                                                double                  *plot);
/* A scatter of more points than its plot has pixels (plot width × height
 * in figure units, whatever the target's resolution) draws them as a
 * density: the points counted per pixel, each pixel in the colour of the
 * cluster (or class) most of its points have, more opaque the more points
 * it holds (log scale), and says so in the plot. */
gboolean         latent_figure_scatter_uses_density (LatentSnapshot     *snapshot,
                                                const LatentFigureStyle *style,
                                                int                      width,
                                                int                      height);
/* The scatter's points binned into a density image for this snapshot,
 * style and size, at style->pixel_scale (0: 1) pixels per unit; NULL when
 * the scatter draws no density or @cancellable was cancelled. Reads only
 * the snapshot and the style, so a view may call it on a worker thread and
 * hand the result to its draws in style->density. Free with
 * cairo_surface_destroy (). */
cairo_surface_t *latent_figure_scatter_density (LatentSnapshot          *snapshot,
                                                const LatentFigureStyle *style,
                                                int                      width,
                                                int                      height,
                                                GCancellable            *cancellable);
/* Whether @density was binned for exactly what the scatter would draw now
 * (snapshot, window, colours, size, pixel scale): drawing with it in
 * style->density then only paints it. */
gboolean         latent_figure_scatter_density_fits (cairo_surface_t    *density,
                                                LatentSnapshot          *snapshot,
                                                const LatentFigureStyle *style,
                                                int                      width,
                                                int                      height);
/* The count and the colour index (cluster or class; the number of colours
 * for points with none) of pixel (@x, @y) of a density image; FALSE
 * outside it or for an empty pixel. */
gboolean         latent_figure_density_get_pixel (cairo_surface_t       *density,
                                                int                      x,
                                                int                      y,
                                                guint                   *count,
                                                guint                   *colour);
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

/* The rectangle of hidden unit @unit's tile in the weights figure (@kind
 * WEIGHTS, or WINNERS where the units are ordered by wins); FALSE when the
 * figure draws no tile for it (rows that are not images, a unit past those
 * that fit, too small a figure). */
gboolean         latent_figure_weights_locate  (LatentSnapshot          *snapshot,
                                                LatentFigureKind         kind,
                                                const LatentFigureStyle *style,
                                                int                      width,
                                                int                      height,
                                                guint                    unit,
                                                double                  *x,
                                                double                  *y,
                                                double                  *tile_width,
                                                double                  *tile_height);

/* The tile under figure position (@x, @y) in a figure of tiles (@kind:
 * the means, components, weights, winners, class weights or prototypes of
 * image rows), -1 for none: its index (a unit, a cluster, a class). For
 * a tile, @text (may be NULL) gets what it is ("Unit 17 · 412 wins
 * (4.1 %)", "cluster 3 · n = 412") and @image (may be NULL) the tile's
 * image @size pixels on its longer side (free with
 * cairo_surface_destroy ()). */
gint64           latent_figure_tile_pick       (LatentSnapshot          *snapshot,
                                                LatentFigureKind         kind,
                                                const LatentFigureStyle *style,
                                                int                      width,
                                                int                      height,
                                                double                   x,
                                                double                   y,
                                                int                      size,
                                                char                   **text,
                                                cairo_surface_t        **image);

/* The cell of the confusion figure under figure position (x, y): the true
 * class (its row) and the predicted one (its column); FALSE off the cells,
 * or when the figure draws none. @style NULL is the default style. */
gboolean         latent_figure_confusion_cell_at (LatentSnapshot        *snapshot,
                                                const LatentFigureStyle *style,
                                                int                      width,
                                                int                      height,
                                                double                   x,
                                                double                   y,
                                                guint                   *true_class,
                                                guint                   *predicted);
/* Up to @max_images test rows of @true_class predicted as @predicted, as
 * images side by side, each @tile pixels high, a pixel apart, on @style's
 * background (for a tooltip); NULL when the rows are not images or none
 * is in that cell. @n_shown (or NULL) gets how many are drawn. Free with
 * cairo_surface_destroy (). */
cairo_surface_t *latent_figure_confusion_examples (LatentSnapshot       *snapshot,
                                                const LatentFigureStyle *style,
                                                guint                    true_class,
                                                guint                    predicted,
                                                guint                    max_images,
                                                int                      tile,
                                                guint                   *n_shown);
/* Row @row of @dataset as an image @size pixels high (the image a row of
 * features was made from, where it has one), for a tooltip; NULL when the
 * rows are not images. Free with cairo_surface_destroy (). */
cairo_surface_t *latent_figure_row_image       (LatentDataset           *dataset,
                                                guint                    row,
                                                int                      size);
/* A class as figures name it: the dataset's name for it, or its number. */
char            *latent_figure_dup_class_name  (LatentSnapshot          *snapshot,
                                                guint                    klass);

/* By extension: .png (libpng, with tEXt metadata), .svg, .pdf. Written to a
 * temporary file beside @path, then renamed, so a failure leaves no half file. */
gboolean         latent_figure_export          (LatentSnapshot          *snapshot,
                                                LatentFigureKind         kind,
                                                const LatentFigureStyle *style,
                                                const char              *path,
                                                int                      width,
                                                int                      height,
                                                GError                 **error);
/* The figure as latent_figure_export_scaled () draws it into a PNG: an
 * ARGB32 image surface of @width × @height (LATENT_FIGURE_MIN_SIZE to
 * LATENT_FIGURE_MAX_SIZE, else LATENT_FIGURE_ERROR_SIZE), laid out at
 * 1 / @scale of that (0 or 1: at that size); the frames of an animation
 * are these. */
cairo_surface_t *latent_figure_render_image    (LatentSnapshot          *snapshot,
                                                LatentFigureKind         kind,
                                                const LatentFigureStyle *style,
                                                int                      width,
                                                int                      height,
                                                double                   scale,
                                                GError                 **error);
/* How many earlier centres a live scatter, its export and its animation draw. */
#define LATENT_FIGURE_TRAIL_LENGTH 40

/* The earlier centres of @shown a scatter draws as trails (the style's
 * trail and n_trail), from the frames @earlier (@n, oldest first) of the
 * same run: the last @max of them with @shown's K and columns and an
 * earlier iteration, appended to @trail (floats); returns how many. */
guint            latent_figure_collect_trail   (LatentSnapshot          *shown,
                                                LatentSnapshot   * const *earlier,
                                                guint                    n,
                                                guint                    max,
                                                GArray                  *trail);
/* As latent_figure_export (), but the figure is laid out at @width / @scale ×
 * @height / @scale units and drawn @scale times larger: text, lines, markers
 * and margins grow with the file, so an export larger than the view it was
 * laid out for (@scale = export width / view width) is a sharper copy of the
 * view, not the same text on a bigger canvas. @scale = 1 is
 * latent_figure_export (). */
gboolean         latent_figure_export_scaled   (LatentSnapshot          *snapshot,
                                                LatentFigureKind         kind,
                                                const LatentFigureStyle *style,
                                                const char              *path,
                                                int                      width,
                                                int                      height,
                                                double                   scale,
                                                GError                 **error);

/* The strip under the window's figure (latent-figure-strip.c): the
 * objective of every iteration as a small plot, with axes, the iteration
 * the figure shows and the one under the pointer. */
typedef struct {
  const double *values;   /* n values, for iterations first, first + 1, … */
  guint         n;
  guint         first;    /* values[0]'s iteration: 0 for the value the
                           * initialisation left, 1 without it */
  const char   *name;     /* what the values are ("inertia"), or NULL */
  gint64        marker;   /* the iteration the figure shows; −1: none */
  gint64        hover;    /* the index of the value under the pointer; −1: none */
} LatentFigureStrip;

/* Paints the whole rectangle; FALSE when there is no plot to draw (fewer
 * than two finite values, or too small a size), the background then only
 * painted: a view shows nothing in its place. */
gboolean         latent_figure_strip_draw      (const LatentFigureStrip *strip,
                                                const LatentFigureStyle *style,
                                                cairo_t                 *cr,
                                                int                      width,
                                                int                      height);
/* What the strip's readout says: "iteration 3: 6611.444" for the value
 * under the pointer, else for the iteration the figure shows (with "—"
 * where it has none), else for the last; NULL without values. */
char            *latent_figure_strip_dup_readout (const LatentFigureStrip *strip);
/* The index into strip->values of the iteration nearest figure position
 * @x, while (x, y) is over the plot; −1 otherwise. */
gint64           latent_figure_strip_pick      (const LatentFigureStrip *strip,
                                                const LatentFigureStyle *style,
                                                int                      width,
                                                int                      height,
                                                double                   x,
                                                double                   y);

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

G_END_DECLS
