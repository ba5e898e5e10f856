/* test-animation.c — recording frames as WebM, GIF and PNG sequences, and
 * the frames a fit gives
 *
 * Each format is read back by something other than its writer: GIF by
 * gdk-pixbuf (and a walk over its blocks), WebM by GStreamer's
 * discoverer, PNG by Cairo.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include <gdk-pixbuf/gdk-pixbuf.h>
#include <gio/gio.h>
#include <glib/gstdio.h>
#include <gst/gst.h>
#include <gst/pbutils/pbutils.h>
#include <math.h>
#include <string.h>

#include "latent-animation.h"
#include "latent-registry.h"
#include "latent-test-files.h"
#include "latent-test-util.h"

/* Frame @i of a synthetic run: flat colours (a background, a moving
 * square, eight grey levels), drawn without antialiasing so every pixel
 * is one of few colours. */
static cairo_surface_t *
synthetic_frame (guint i,
                 int   width,
                 int   height)
{
  cairo_surface_t *surface = cairo_image_surface_create (CAIRO_FORMAT_ARGB32, width, height);
  cairo_t *cr = cairo_create (surface);

  cairo_set_antialias (cr, CAIRO_ANTIALIAS_NONE);
  cairo_set_source_rgb (cr, 1, 1, 1);
  cairo_paint (cr);
  for (int g = 0; g < 8; g++)
    {
      cairo_set_source_rgb (cr, g / 7.0, g / 7.0, g / 7.0);
      cairo_rectangle (cr, g * width / 8, height - 8, width / 8 + 1, 8);
      cairo_fill (cr);
    }
  cairo_set_source_rgb (cr, 0.0, 0x72 / 255.0, 0xb2 / 255.0);
  cairo_rectangle (cr, 4 + 6 * i, 4 + 3 * i, 12, 12);
  cairo_fill (cr);
  cairo_set_source_rgb (cr, 0xe6 / 255.0, 0x9f / 255.0, 0.0);
  cairo_rectangle (cr, width - 20, 4 + 2 * i, 10, 10);
  cairo_fill (cr);
  cairo_destroy (cr);
  cairo_surface_flush (surface);
  return surface;
}

/* Random colours of a fixed set of @n_colours, in random places, the
 * first ones more often with a @skew above 1: a frame whose LZW table
 * fills and starts again many times. */
static cairo_surface_t *
skewed_noise_frame (int      width,
                    int      height,
                    guint    n_colours,
                    guint64  seed,
                    double   skew)
{
  cairo_surface_t *surface = cairo_image_surface_create (CAIRO_FORMAT_RGB24, width, height);
  guint8 *data = cairo_image_surface_get_data (surface);
  const int stride = cairo_image_surface_get_stride (surface);
  guint64 state = seed;

  for (int y = 0; y < height; y++)
    for (int x = 0; x < width; x++)
      {
        guint c = (guint) (pow (test_uniform (&state), skew) * n_colours) % n_colours;
        /* Colours 8 apart in a channel: distinct at 6 bits. */
        guint32 rgb = 0xff000000u | ((c * 8) % 256) << 16 | ((c / 32) * 40) << 8 | ((c * 56) % 256);

        ((guint32 *) (data + (gsize) y * stride))[x] = rgb;
      }
  cairo_surface_mark_dirty (surface);
  return surface;
}

static cairo_surface_t *
noise_frame (int      width,
             int      height,
             guint    n_colours,
             guint64  seed)
{
  return skewed_noise_frame (width, height, n_colours, seed, 1.0);
}

static guint32
pixbuf_pixel (GdkPixbuf *pixbuf,
              int        x,
              int        y)
{
  const guint8 *p = gdk_pixbuf_read_pixels (pixbuf) + y * gdk_pixbuf_get_rowstride (pixbuf)
                    + x * gdk_pixbuf_get_n_channels (pixbuf);

  return (guint32) p[0] << 16 | (guint32) p[1] << 8 | p[2];
}

static void
assert_same_pixels (GdkPixbuf       *pixbuf,
                    cairo_surface_t *surface)
{
  const guint8 *data = cairo_image_surface_get_data (surface);
  const int stride = cairo_image_surface_get_stride (surface);

  g_assert_cmpint (gdk_pixbuf_get_width (pixbuf), ==, cairo_image_surface_get_width (surface));
  g_assert_cmpint (gdk_pixbuf_get_height (pixbuf), ==, cairo_image_surface_get_height (surface));
  for (int y = 0; y < gdk_pixbuf_get_height (pixbuf); y++)
    for (int x = 0; x < gdk_pixbuf_get_width (pixbuf); x++)
      {
        guint32 want = ((const guint32 *) (data + (gsize) y * stride))[x] & 0xffffff;
        guint32 got = pixbuf_pixel (pixbuf, x, y);

        if (want != got)
          g_error ("pixel (%d, %d): %06x, expected %06x", x, y, got, want);
      }
}

/* The GIF's blocks: how many images, each one's delay (hundredths), and
 * whether it loops. Fails the test on anything malformed. */
static guint
walk_gif (const char *path,
          guint      *delays,
          gboolean   *loops)
{
  g_autofree guint8 *data = NULL;
  g_autoptr(GError) error = NULL;
  gsize len, at = 13;
  guint images = 0, delay = 0;

  g_assert_true (g_file_get_contents (path, (char **) &data, &len, &error));
  g_assert_no_error (error);
  g_assert_cmpmem (data, 6, "GIF89a", 6);
  g_assert_cmpuint (data[10] & 0x80, !=, 0);   /* a global palette */
  at += 3u << ((data[10] & 7) + 1);
  *loops = FALSE;
  while (at < len && data[at] != ';')
    {
      guint8 kind = data[at];

      if (kind == 0x21)
        {
          guint8 label = data[at + 1];

          if (label == 0xf9)
            delay = data[at + 4] | data[at + 5] << 8;
          if (label == 0xff && data[at + 2] == 11 && memcmp (data + at + 3, "NETSCAPE2.0", 11) == 0)
            *loops = data[at + 15] == 1 && data[at + 16] == 0 && data[at + 17] == 0;
          at += 2;
        }
      else
        {
          g_assert_cmpuint (kind, ==, 0x2c);
          g_assert_cmpuint (data[at + 9] & 0x80, ==, 0);   /* no palette of its own */
          delays[images++] = delay;
          at += 10 + 1;   /* the descriptor, the LZW code size */
        }
      /* Sub-blocks up to the terminator. */
      while (at < len && data[at] != 0)
        at += data[at] + 1;
      at++;
    }
  g_assert_cmpuint (at, ==, len - 1);
  return images;
}

static void
test_gif (Fixture       *f,
          gconstpointer  data)
{
  g_autofree char *path = g_build_filename (f->dir, "run.gif", NULL);
  g_autoptr(LatentAnimation) animation = NULL;
  g_autoptr(GdkPixbufAnimation) decoded = NULL;
  g_autoptr(GdkPixbufAnimationIter) iter = NULL;
  g_autoptr(GError) error = NULL;
  cairo_surface_t *frames[6];
  const guint n = G_N_ELEMENTS (frames);
  guint delays[16];
  gboolean loops;
  G_GNUC_BEGIN_IGNORE_DEPRECATIONS
  /* gdk-pixbuf's iterators still count time in GTimeVal. */
  GTimeVal t = { 0, 0 };
  G_GNUC_END_IGNORE_DEPRECATIONS

  animation = latent_animation_new (path, 96, 64, 10, &error);
  g_assert_no_error (error);
  for (guint i = 0; i < n; i++)
    {
      /* The fourth repeats the third: a frame with nothing changed. */
      frames[i] = synthetic_frame (i == 3 ? 2 : i, 96, 64);
      g_assert_true (latent_animation_add_frame (animation, frames[i], &error));
      g_assert_no_error (error);
    }
  g_assert_false (g_file_test (path, G_FILE_TEST_EXISTS));   /* only once finished */
  g_assert_true (latent_animation_finish (animation, &error));
  g_assert_no_error (error);
  g_assert_cmpuint (latent_animation_get_n_frames (animation), ==, n);
  g_assert_cmpfloat_with_epsilon (latent_animation_get_duration (animation), 0.6, 1e-9);

  g_assert_cmpuint (walk_gif (path, delays, &loops), ==, n);
  g_assert_true (loops);
  for (guint i = 0; i < n; i++)
    g_assert_cmpuint (delays[i], ==, 10);

  decoded = gdk_pixbuf_animation_new_from_file (path, &error);
  g_assert_no_error (error);
  g_assert_false (gdk_pixbuf_animation_is_static_image (decoded));
  g_assert_cmpint (gdk_pixbuf_animation_get_width (decoded), ==, 96);
  g_assert_cmpint (gdk_pixbuf_animation_get_height (decoded), ==, 64);
  G_GNUC_BEGIN_IGNORE_DEPRECATIONS
  iter = gdk_pixbuf_animation_get_iter (decoded, &t);
  /* Each frame as it was given (flat colours are kept exactly), then,
   * after the last one's delay, the first again. */
  for (guint i = 0; i <= n; i++)
    {
      g_assert_cmpint (gdk_pixbuf_animation_iter_get_delay_time (iter), ==, 100);
      assert_same_pixels (gdk_pixbuf_animation_iter_get_pixbuf (iter), frames[i % n]);
      g_time_val_add (&t, 100 * 1000);
      gdk_pixbuf_animation_iter_advance (iter, &t);
    }
  G_GNUC_END_IGNORE_DEPRECATIONS
  for (guint i = 0; i < n; i++)
    cairo_surface_destroy (frames[i]);
}

/* A frame of 200 colours in noise: the LZW table starts again dozens of
 * times, and every colour has its own palette entry. */
static void
test_gif_lzw (Fixture       *f,
              gconstpointer  data)
{
  g_autofree char *path = g_build_filename (f->dir, "noise.gif", NULL);
  g_autoptr(LatentAnimation) animation = latent_animation_new (path, 300, 200, 25, NULL);
  g_autoptr(GdkPixbuf) decoded = NULL;
  g_autoptr(GError) error = NULL;
  cairo_surface_t *frame = noise_frame (300, 200, 200, 7);
  guint delays[4];
  gboolean loops;

  g_assert_nonnull (animation);
  g_assert_true (latent_animation_add_frame (animation, frame, &error));
  g_assert_no_error (error);
  g_assert_true (latent_animation_finish (animation, &error));
  g_assert_no_error (error);
  g_assert_cmpuint (walk_gif (path, delays, &loops), ==, 1);
  g_assert_cmpuint (delays[0], ==, 4);   /* 1/25 s */
  decoded = gdk_pixbuf_new_from_file (path, &error);
  g_assert_no_error (error);
  assert_same_pixels (decoded, frame);
  cairo_surface_destroy (frame);
}

/* 2 000 colours, few of them common: the median cut meets boxes whose
 * last colour outweighs the rest (it once left a box empty and divided
 * by zero). Every colour is near one of the palette's. */
static void
test_gif_skewed (Fixture       *f,
                 gconstpointer  data)
{
  g_autofree char *path = g_build_filename (f->dir, "skewed.gif", NULL);
  g_autoptr(LatentAnimation) animation = latent_animation_new (path, 200, 150, 10, NULL);
  g_autoptr(GdkPixbuf) decoded = NULL;
  g_autoptr(GError) error = NULL;

  for (guint i = 0; i < 3; i++)
    {
      cairo_surface_t *frame = skewed_noise_frame (200, 150, 2000, 11 + i, 4.0);

      g_assert_true (latent_animation_add_frame (animation, frame, &error));
      g_assert_no_error (error);
      cairo_surface_destroy (frame);
    }
  g_assert_true (latent_animation_finish (animation, &error));
  g_assert_no_error (error);
  decoded = gdk_pixbuf_new_from_file (path, &error);
  g_assert_no_error (error);
  g_assert_cmpint (gdk_pixbuf_get_width (decoded), ==, 200);
}

/* More than 256 colours: each pixel becomes the nearest kept colour. */
static void
test_gif_palette (Fixture       *f,
                  gconstpointer  data)
{
  g_autofree char *path = g_build_filename (f->dir, "gradient.gif", NULL);
  g_autoptr(LatentAnimation) animation = latent_animation_new (path, 256, 64, 10, NULL);
  g_autoptr(GdkPixbuf) decoded = NULL;
  g_autoptr(GError) error = NULL;
  cairo_surface_t *frame = cairo_image_surface_create (CAIRO_FORMAT_RGB24, 256, 64);
  guint8 *pixels = cairo_image_surface_get_data (frame);
  const int stride = cairo_image_surface_get_stride (frame);
  guint worst = 0;

  for (int y = 0; y < 64; y++)
    for (int x = 0; x < 256; x++)
      ((guint32 *) (pixels + y * stride))[x] = (guint32) x << 16 | (guint32) (y * 4) << 8 | (guint32) (255 - x);
  /* Two flat tints 4 apart (k-means's regions, which a coarser palette
   * made one), a sixth of the frame each, under the gradient. */
  for (int y = 48; y < 64; y++)
    for (int x = 0; x < 256; x++)
      ((guint32 *) (pixels + y * stride))[x] = x < 128 ? 0xe6f1f7 : 0xe6f5f1;
  cairo_surface_mark_dirty (frame);
  g_assert_true (latent_animation_add_frame (animation, frame, &error));
  g_assert_true (latent_animation_finish (animation, &error));
  g_assert_no_error (error);
  decoded = gdk_pixbuf_new_from_file (path, &error);
  g_assert_no_error (error);
  for (int y = 0; y < 64; y++)
    for (int x = 0; x < 256; x++)
      {
        guint32 want = ((guint32 *) (pixels + y * stride))[x];
        guint32 got = pixbuf_pixel (decoded, x, y);
        guint d = 0;

        for (int s = 0; s < 24; s += 8)
          d = MAX (d, (guint) ABS ((int) ((want >> s) & 0xff) - (int) ((got >> s) & 0xff)));
        worst = MAX (worst, d);
      }
  /* 12 288 colours on 256 by median cut: a few steps of 4 at most. */
  g_assert_cmphex (pixbuf_pixel (decoded, 10, 60), ==, 0xe6f1f7);
  g_assert_cmphex (pixbuf_pixel (decoded, 200, 60), ==, 0xe6f5f1);
  g_test_message ("worst channel error %u", worst);
  g_assert_cmpuint (worst, <=, 20);
  cairo_surface_destroy (frame);
}

static void
test_webm (Fixture       *f,
           gconstpointer  data)
{
  g_autofree char *path = g_build_filename (f->dir, "run.webm", NULL);
  g_autofree char *uri = NULL;
  g_autoptr(LatentAnimation) animation = NULL;
  g_autoptr(GstDiscoverer) discoverer = NULL;
  g_autoptr(GstDiscovererInfo) info = NULL;
  g_autoptr(GError) error = NULL;
  GList *streams;
  GstDiscovererVideoInfo *video;
  const guint n = 9;
  const int fps = 12;

  animation = latent_animation_new (path, 96, 64, fps, &error);
  g_assert_no_error (error);
  for (guint i = 0; i < n; i++)
    {
      cairo_surface_t *frame = synthetic_frame (i, 96, 64);

      g_assert_true (latent_animation_add_frame (animation, frame, &error));
      g_assert_no_error (error);
      cairo_surface_destroy (frame);
    }
  g_assert_true (latent_animation_finish (animation, &error));
  g_assert_no_error (error);

  discoverer = gst_discoverer_new (10 * GST_SECOND, &error);
  g_assert_no_error (error);
  uri = gst_filename_to_uri (path, &error);
  g_assert_no_error (error);
  info = gst_discoverer_discover_uri (discoverer, uri, &error);
  g_assert_no_error (error);
  g_assert_cmpint (gst_discoverer_info_get_result (info), ==, GST_DISCOVERER_OK);
  /* n / fps seconds, to the millisecond WebM keeps. */
  g_assert_cmpuint (gst_discoverer_info_get_duration (info), >=, n * GST_SECOND / fps - GST_MSECOND);
  g_assert_cmpuint (gst_discoverer_info_get_duration (info), <=, n * GST_SECOND / fps + GST_MSECOND);
  streams = gst_discoverer_info_get_video_streams (info);
  g_assert_cmpuint (g_list_length (streams), ==, 1);
  video = streams->data;
  g_assert_cmpuint (gst_discoverer_video_info_get_width (video), ==, 96);
  g_assert_cmpuint (gst_discoverer_video_info_get_height (video), ==, 64);
  g_assert_cmpuint (gst_discoverer_video_info_get_framerate_num (video), ==, fps);
  g_assert_cmpuint (gst_discoverer_video_info_get_framerate_denom (video), ==, 1);
  gst_discoverer_stream_info_list_free (streams);
}

typedef struct {
  LatentAnimation   *animation;
  LatentFigureStyle  style;
  GArray            *iterations;
  LatentSnapshot    *last;
} Recording;

static void
record_frame (LatentSnapshot *snapshot,
              gpointer        user_data)
{
  Recording *r = user_data;
  g_autoptr(GError) error = NULL;

  g_array_append_val (r->iterations, snapshot->iteration);
  g_clear_pointer (&r->last, latent_snapshot_unref);
  r->last = latent_snapshot_ref (snapshot);
  if (r->animation != NULL)
    {
      g_assert_true (latent_animation_add_snapshot (r->animation, snapshot, LATENT_FIGURE_AUTO, &r->style, 1, &error));
      g_assert_no_error (error);
    }
}

static LatentFit *
record_kmeans (Recording *r,
               guint      frame_every,
               const char *tolerance)
{
  const LatentAlgorithm *kmeans = latent_registry_lookup ("kmeans", NULL);
  g_autoptr(LatentDataset) ds = test_blobs (300, 2, 3, 1.5, 5);
  g_autoptr(LatentParams) params = test_params (kmeans, "k=3", "max-iterations=9", tolerance, NULL);
  g_autoptr(GError) error = NULL;
  LatentFit *fit;

  latent_figure_style_init (&r->style);
  r->iterations = g_array_new (FALSE, FALSE, sizeof (guint));
  fit = latent_algorithm_fit_full (kmeans, ds, params, 3, NULL, NULL, record_frame, frame_every, r, NULL, &error);
  g_assert_no_error (error);
  g_assert_nonnull (fit);
  return fit;
}

/* The start, every frame_every-th iteration and the end, each once. */
static void
test_fit_frames (void)
{
  const LatentAlgorithm *kmeans = latent_registry_lookup ("kmeans", NULL);
  Recording r = { NULL };
  g_autoptr(LatentFit) fit = record_kmeans (&r, 4, "tol=0");
  g_autoptr(LatentFit) again = NULL;
  const guint *it = (const guint *) r.iterations->data;
  guint expect[] = { 0, 4, 8, 9 };

  g_assert_cmpuint (fit->snapshot->iteration, ==, 9);
  g_assert_cmpuint (fit->frame_every, ==, 4);
  g_assert_cmpuint (fit->n_frames, ==, G_N_ELEMENTS (expect));
  g_assert_cmpuint (r.iterations->len, ==, G_N_ELEMENTS (expect));
  for (guint i = 0; i < G_N_ELEMENTS (expect); i++)
    g_assert_cmpuint (it[i], ==, expect[i]);
  /* The last frame is the fit's own snapshot, not a copy. */
  g_assert_true (r.last == fit->snapshot);
  g_clear_pointer (&r.last, latent_snapshot_unref);
  g_array_unref (r.iterations);

  /* A last iteration on the spacing is still one frame. */
  again = record_kmeans (&r, 3, "tol=0");
  it = (const guint *) r.iterations->data;
  g_assert_cmpuint (r.iterations->len, ==, 4);
  g_assert_cmpuint (it[0], ==, 0);
  g_assert_cmpuint (it[1], ==, 3);
  g_assert_cmpuint (it[2], ==, 6);
  g_assert_cmpuint (it[3], ==, 9);
  g_clear_pointer (&r.last, latent_snapshot_unref);
  g_array_unref (r.iterations);

  /* Automatic: from the budget, 300 iterations over 118 frames. */
  {
    g_autoptr(LatentDataset) ds = test_blobs (300, 2, 3, 1.5, 5);
    g_autoptr(LatentParams) params = test_params (kmeans, "k=3", NULL);
    g_autoptr(LatentFit) plain = latent_algorithm_fit (kmeans, ds, params, 3, NULL, NULL, NULL, NULL, NULL);

    g_assert_cmpuint (latent_algorithm_frame_every (plain->snapshot, LATENT_FIT_MAX_FRAMES), ==, 3);
    g_assert_cmpuint (latent_algorithm_frame_every (plain->snapshot, 1000), ==, 1);
    g_assert_cmpuint (plain->frame_every, ==, 0);
    g_assert_cmpuint (plain->n_frames, ==, 0);
  }
}

/* The autoencoder's budget is epochs of many mini-batches. */
static void
test_frame_every_epochs (void)
{
  const LatentAlgorithm *wta = latent_registry_lookup ("wta", NULL);
  g_autoptr(LatentDataset) ds = test_blobs (1000, 16, 4, 1.0, 2);
  g_autoptr(LatentParams) params = test_params (wta, "hidden=8", "batch=10", "epochs=30", "validation=0", NULL);
  g_autoptr(GError) error = NULL;
  Recording r = { NULL };
  g_autoptr(LatentFit) fit = NULL;

  r.iterations = g_array_new (FALSE, FALSE, sizeof (guint));
  fit = latent_algorithm_fit_full (wta, ds, params, 1, NULL, NULL, record_frame, 0, &r, NULL, &error);
  g_assert_no_error (error);
  /* 30 epochs of 100 steps: 3000 iterations, a frame every 26. */
  g_assert_cmpuint (fit->snapshot->iteration, ==, 3000);
  g_assert_cmpuint (fit->frame_every, ==, 26);
  g_assert_cmpuint (r.iterations->len, ==, 3000 / 26 + 2);
  g_assert_cmpuint (r.iterations->len, <=, LATENT_FIT_MAX_FRAMES);
  g_clear_pointer (&r.last, latent_snapshot_unref);
  g_array_unref (r.iterations);
}

static cairo_surface_t *
read_png (const char *path)
{
  cairo_surface_t *surface = cairo_image_surface_create_from_png (path);

  g_assert_cmpint (cairo_surface_status (surface), ==, CAIRO_STATUS_SUCCESS);
  return surface;
}

static void
assert_same_surfaces (cairo_surface_t *a,
                      cairo_surface_t *b)
{
  const int height = cairo_image_surface_get_height (a);
  const int row = cairo_image_surface_get_width (a) * 4;

  g_assert_cmpint (cairo_image_surface_get_width (a), ==, cairo_image_surface_get_width (b));
  g_assert_cmpint (height, ==, cairo_image_surface_get_height (b));
  for (int y = 0; y < height; y++)
    g_assert_cmpmem (cairo_image_surface_get_data (a) + y * cairo_image_surface_get_stride (a), row,
                     cairo_image_surface_get_data (b) + y * cairo_image_surface_get_stride (b), row);
}

/* A PNG sequence of a real run: numbered files, the last one the very
 * pixels of the still export of the same snapshot. */
static void
test_png_sequence (Fixture       *f,
                   gconstpointer  data)
{
  g_autofree char *path = g_build_filename (f->dir, "run.png", NULL);
  g_autofree char *still = g_build_filename (f->dir, "still.png", NULL);
  g_autoptr(GError) error = NULL;
  g_autoptr(LatentFit) fit = NULL;
  Recording r = { NULL };
  guint n;

  r.animation = latent_animation_new (path, 320, 240, 5, &error);
  g_assert_no_error (error);
  fit = record_kmeans (&r, 2, "tol=0");
  n = r.iterations->len;
  g_assert_cmpuint (n, ==, 6);   /* 0, 2, 4, 6, 8, 9 */
  g_assert_true (latent_animation_finish (r.animation, &error));
  g_assert_no_error (error);
  g_assert_cmpuint (latent_animation_get_n_frames (r.animation), ==, n);

  g_assert_true (latent_figure_export (fit->snapshot, LATENT_FIGURE_AUTO, &r.style, still, 320, 240, &error));
  g_assert_no_error (error);
  for (guint i = 1; i <= n + 1; i++)
    {
      g_autofree char *frame = latent_animation_dup_frame_path (path, i);

      g_assert_cmpint (g_file_test (frame, G_FILE_TEST_EXISTS), ==, i <= n);
    }
  {
    g_autofree char *last = latent_animation_dup_frame_path (path, n);
    g_autofree char *first = latent_animation_dup_frame_path (path, 1);
    cairo_surface_t *a = read_png (last), *b = read_png (still), *c = read_png (first);
    g_autoptr(GError) unused = NULL;
    cairo_surface_t *direct = latent_figure_render_image (fit->snapshot, LATENT_FIGURE_AUTO, &r.style, 320, 240, 1,
                                                          &unused);
    cairo_surface_t *direct_png;
    g_autofree char *direct_path = g_build_filename (f->dir, "direct.png", NULL);

    g_assert_true (g_str_has_suffix (last, "run-0006.png"));
    assert_same_surfaces (a, b);
    /* The run moved: the first frame is another picture. */
    g_assert_false (memcmp (cairo_image_surface_get_data (a), cairo_image_surface_get_data (c), 4 * 320 * 240) == 0);
    /* The image the frames are made of is the PNG's, read back. */
    g_assert_cmpint (cairo_surface_write_to_png (direct, direct_path), ==, CAIRO_STATUS_SUCCESS);
    direct_png = read_png (direct_path);
    assert_same_surfaces (direct_png, b);
    cairo_surface_destroy (a);
    cairo_surface_destroy (b);
    cairo_surface_destroy (c);
    cairo_surface_destroy (direct);
    cairo_surface_destroy (direct_png);
  }
  g_clear_pointer (&r.last, latent_snapshot_unref);
  g_array_unref (r.iterations);
  latent_animation_free (r.animation);
}

static void
test_frame_path (void)
{
  const char *cases[][2] = {
    { "run.png", "run-0003.png" },
    { "/a.b/run.PNG", "/a.b/run-0003.PNG" },
    { "/a.b/run", "/a.b/run-0003.png" },
  };

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autofree char *path = latent_animation_dup_frame_path (cases[i][0], 3);

      g_assert_cmpstr (path, ==, cases[i][1]);
    }
}

/* Only the files asked for: no temporary one left. */
static void
assert_folder_holds (const char *folder,
                     const char *only)
{
  g_autoptr(GDir) dir = g_dir_open (folder, 0, NULL);
  const char *name;

  while ((name = g_dir_read_name (dir)) != NULL)
    g_assert_cmpstr (name, ==, only);
}

static void
test_refusals (Fixture       *f,
               gconstpointer  data)
{
  g_autofree char *webm = g_build_filename (f->dir, "x.webm", NULL);
  g_autofree char *gif = g_build_filename (f->dir, "x.gif", NULL);
  g_autofree char *avi = g_build_filename (f->dir, "x.avi", NULL);
  g_autofree char *nowhere = g_build_filename (f->dir, "no", "such", "x.webm", NULL);
  g_autofree char *nowhere_png = g_build_filename (f->dir, "no", "x.png", NULL);
  GError *error = NULL;
  LatentAnimation *animation;
  cairo_surface_t *small = synthetic_frame (0, 32, 32);

  g_assert_null (latent_animation_new (avi, 64, 64, 10, &error));
  g_assert_error (error, LATENT_FIGURE_ERROR, LATENT_FIGURE_ERROR_FORMAT);
  g_assert_nonnull (strstr (error->message, "x.avi"));
  g_clear_error (&error);
  g_assert_null (latent_animation_new (webm, 65, 64, 10, &error));
  g_assert_error (error, LATENT_FIGURE_ERROR, LATENT_FIGURE_ERROR_SIZE);
  g_assert_nonnull (strstr (error->message, "even"));
  g_clear_error (&error);
  g_assert_null (latent_animation_new (gif, 8, 64, 10, &error));
  g_assert_error (error, LATENT_FIGURE_ERROR, LATENT_FIGURE_ERROR_SIZE);
  g_clear_error (&error);
  for (int fps = -1; fps <= 121; fps += 122)
    {
      g_assert_false (latent_animation_check (gif, 64, 64, fps, &error));
      g_assert_error (error, LATENT_FIGURE_ERROR, LATENT_FIGURE_ERROR_SIZE);
      g_clear_error (&error);
    }
  g_assert_false (latent_animation_check (gif, 64, 64, 0, &error));
  g_clear_error (&error);
  g_assert_true (latent_animation_check (gif, 65, 64, 50, &error));
  g_assert_false (latent_animation_check (gif, 64, 64, 51, &error));
  g_assert_error (error, LATENT_FIGURE_ERROR, LATENT_FIGURE_ERROR_SIZE);
  g_assert_nonnull (strstr (error->message, "GIF"));
  g_clear_error (&error);
  g_assert_true (latent_animation_check (webm, 64, 64, 120, &error));

  /* A folder that is not there: the file named. */
  g_assert_null (latent_animation_new (nowhere, 64, 64, 10, &error));
  g_assert_error (error, G_IO_ERROR, G_IO_ERROR_NOT_FOUND);
  g_assert_nonnull (strstr (error->message, nowhere));
  g_clear_error (&error);
  g_assert_null (latent_animation_new (nowhere_png, 64, 64, 10, &error));
  g_assert_error (error, G_IO_ERROR, G_IO_ERROR_NOT_FOUND);
  g_assert_nonnull (strstr (error->message, "x-0001.png"));
  g_clear_error (&error);

  /* A frame of another size; no frame at all; freed unfinished. */
  for (guint format = 0; format < 2; format++)
    {
      const char *path = format == 0 ? webm : gif;

      animation = latent_animation_new (path, 64, 64, 10, &error);
      g_assert_no_error (error);
      g_assert_false (latent_animation_add_frame (animation, small, &error));
      g_assert_error (error, LATENT_FIGURE_ERROR, LATENT_FIGURE_ERROR_SIZE);
      g_clear_error (&error);
      latent_animation_free (animation);

      animation = latent_animation_new (path, 64, 64, 10, &error);
      g_assert_no_error (error);
      g_assert_false (latent_animation_finish (animation, &error));
      g_assert_error (error, LATENT_FIGURE_ERROR, LATENT_FIGURE_ERROR_ENCODE);
      g_clear_error (&error);
      latent_animation_free (animation);
    }
  assert_folder_holds (f->dir, NULL);
  cairo_surface_destroy (small);
}

int
main (int    argc,
      char **argv)
{
  g_test_init (&argc, &argv, NULL);
  gst_init (&argc, &argv);
  ADD ("/animation/gif", test_gif);
  ADD ("/animation/gif/lzw", test_gif_lzw);
  ADD ("/animation/gif/palette", test_gif_palette);
  ADD ("/animation/gif/skewed", test_gif_skewed);
  ADD ("/animation/webm", test_webm);
  ADD ("/animation/png-sequence", test_png_sequence);
  ADD ("/animation/refusals", test_refusals);
  g_test_add_func ("/animation/frame-path", test_frame_path);
  g_test_add_func ("/animation/fit-frames", test_fit_frames);
  g_test_add_func ("/animation/fit-frames/epochs", test_frame_every_epochs);
  return g_test_run ();
}
