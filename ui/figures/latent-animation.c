/* latent-animation.c — a run's frames as WebM (GStreamer), an animated
 * GIF (encoded here) or a numbered PNG sequence
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#define G_LOG_DOMAIN "latent-animation"

#include "latent-animation.h"
#include "latent-figure-private.h"

#include <errno.h>
#include <fcntl.h>
#include <gio/gio.h>
#include <glib/gi18n-lib.h>
#include <glib/gstdio.h>
#include <gst/app/gstappsrc.h>
#include <gst/gst.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include <zlib.h>

/* Frames GStreamer may hold before add_frame waits: the renderer is
 * usually faster than the encoder, and a run must not pile up in memory. */
#define WEBM_QUEUED_FRAMES 4

/* GIF: 6 bits a channel for choosing the palette. Five merged the
 * k-means regions' two light tints (4 apart) into one. */
#define GIF_BINS (1u << 18)
#define GIF_UNMAPPED 0xffffu
#define LZW_MAX_CODE 4095
#define LZW_HASH_SIZE 8192  /* a power of two above LZW_MAX_CODE */

typedef struct {
  /* Per 18-bit colour: how many pixels, and their 8-bit sums (so a flat
   * colour keeps its exact value in the palette). */
  guint64 *count;
  guint64 *sum;        /* 3 per bin: r, g, b */
  FILE    *frames;     /* every frame's bins, deflated, unlinked */
  guint32 *row;        /* one frame of them */
  guint8  *packed;     /* and deflated */
  gsize    packed_size;
} Gif;

typedef struct {
  GstElement *pipeline;
  GstElement *src;
  GstBus     *bus;
} Webm;

struct _LatentAnimation {
  LatentAnimationFormat format;
  char    *path;
  char    *tmp_path;   /* WebM, GIF: written here, renamed on finish */
  int      width;
  int      height;
  int      fps;
  guint    n_frames;
  gboolean failed;     /* an error ended it: no more frames, no finish */
  gboolean finished;
  Gif      gif;
  Webm     webm;
};

gboolean
latent_animation_format_from_path (const char             *path,
                                   LatentAnimationFormat  *format,
                                   GError                **error)
{
  /* In the order of LatentAnimationFormat. */
  static const char * const extensions[] = { ".webm", ".gif", ".png", NULL };
  const int index = _latent_figure_extension_index (path, extensions);

  if (index >= 0)
    return (*format = index), TRUE;
  g_set_error (error, LATENT_FIGURE_ERROR, LATENT_FIGURE_ERROR_FORMAT,
               _("Cannot record “%s”: the name must end in .webm, .gif or .png"), path);
  return FALSE;
}

gboolean
latent_animation_check (const char  *path,
                        int          width,
                        int          height,
                        int          fps,
                        GError     **error)
{
  LatentAnimationFormat format;

  g_return_val_if_fail (path != NULL, FALSE);
  g_return_val_if_fail (error == NULL || *error == NULL, FALSE);

  if (!latent_animation_format_from_path (path, &format, error))
    return FALSE;
  if (width < LATENT_FIGURE_MIN_SIZE || width > LATENT_ANIMATION_MAX_SIDE
      || height < LATENT_FIGURE_MIN_SIZE || height > LATENT_ANIMATION_MAX_SIDE)
    {
      g_set_error (error, LATENT_FIGURE_ERROR, LATENT_FIGURE_ERROR_SIZE,
                   _("Cannot record “%s” at %d × %d: width and height must be between %d and %d"),
                   path, width, height, LATENT_FIGURE_MIN_SIZE, LATENT_ANIMATION_MAX_SIDE);
      return FALSE;
    }
  /* VP8 halves the colour planes; rounding would change what is seen. */
  if (format == LATENT_ANIMATION_WEBM && (width % 2 != 0 || height % 2 != 0))
    {
      g_set_error (error, LATENT_FIGURE_ERROR, LATENT_FIGURE_ERROR_SIZE,
                   _("Cannot record “%s” at %d × %d: WebM needs an even width and height"),
                   path, width, height);
      return FALSE;
    }
  if (fps < 1 || fps > LATENT_ANIMATION_MAX_FPS)
    {
      g_set_error (error, LATENT_FIGURE_ERROR, LATENT_FIGURE_ERROR_SIZE,
                   _("Cannot record “%s” at %d frames a second: the rate must be between 1 and %d"),
                   path, fps, LATENT_ANIMATION_MAX_FPS);
      return FALSE;
    }
  /* A GIF counts time in hundredths, and viewers show a delay under two
   * as ten: faster, it would play slower. */
  if (format == LATENT_ANIMATION_GIF && fps > LATENT_ANIMATION_MAX_GIF_FPS)
    {
      g_set_error (error, LATENT_FIGURE_ERROR, LATENT_FIGURE_ERROR_SIZE,
                   _("Cannot record “%s” at %d frames a second: a GIF plays at most %d"),
                   path, fps, LATENT_ANIMATION_MAX_GIF_FPS);
      return FALSE;
    }
  return TRUE;
}

char *
latent_animation_dup_frame_path (const char *path,
                                 guint       index)
{
  const char *dot, *slash;
  gsize stem;

  g_return_val_if_fail (path != NULL, NULL);

  dot = strrchr (path, '.');
  slash = strrchr (path, G_DIR_SEPARATOR);
  stem = dot != NULL && (slash == NULL || dot > slash) ? (gsize) (dot - path) : strlen (path);
  return g_strdup_printf ("%.*s-%04u%s", (int) stem, path, index, dot != NULL && stem < strlen (path) ? dot : ".png");
}

static void
set_errno_error (GError     **error,
                 int          saved_errno,
                 const char  *path)
{
  g_set_error (error, G_IO_ERROR, g_io_error_from_errno (saved_errno),
               _("Could not write “%s”: %s"), path, g_strerror (saved_errno));
}

/* A new file beside @path, so the final rename stays on one file system;
 * its descriptor, or −1. */
static int
open_temporary (const char  *path,
                char       **tmp_path,
                GError     **error)
{
  g_autofree char *dir = g_path_get_dirname (path);
  g_autofree char *base = g_path_get_basename (path);
  g_autofree char *name = g_strdup_printf (".%s.XXXXXX", base);
  g_autofree char *tmpl = g_build_filename (dir, name, NULL);
  int fd = g_mkstemp_full (tmpl, O_WRONLY | O_CREAT | O_EXCL, 0666);

  if (fd < 0)
    {
      set_errno_error (error, errno, path);
      return -1;
    }
  *tmp_path = g_steal_pointer (&tmpl);
  return fd;
}

/* WebM ------------------------------------------------------------------- */

/* A new element of @factory, in @bin (which owns it). */
static GstElement *
add_element (GstElement  *bin,
             const char  *factory,
             const char  *path,
             GError     **error)
{
  GstElement *element = gst_element_factory_make (factory, NULL);

  if (element == NULL)
    {
      /* Translators: the file, then a GStreamer element such as “vp8enc” */
      g_set_error (error, LATENT_FIGURE_ERROR, LATENT_FIGURE_ERROR_ENCODE,
                   _("Cannot record “%s”: GStreamer has no “%s” element "
                     "(install gstreamer1.0-plugins-base and gstreamer1.0-plugins-good)"),
                   path, factory);
      return NULL;
    }
  /* A new element of a unique name: the bin always takes it. */
  gst_bin_add (GST_BIN (bin), element);
  return element;
}

/* The first error on the bus, as a GError naming the file; FALSE after
 * waiting @timeout for one that did not come. */
static gboolean
webm_take_error (LatentAnimation  *self,
                 GstClockTime      timeout,
                 GError          **error)
{
  g_autoptr(GstMessage) message = gst_bus_timed_pop_filtered (self->webm.bus, timeout, GST_MESSAGE_ERROR);
  g_autoptr(GError) gst_error = NULL;
  g_autofree char *debug = NULL;

  if (message == NULL)
    return FALSE;
  gst_message_parse_error (message, &gst_error, &debug);
  g_debug ("GStreamer: %s", debug ? debug : "");
  g_set_error (error, LATENT_FIGURE_ERROR, LATENT_FIGURE_ERROR_ENCODE,
               _("Could not write “%s”: %s"), self->path, gst_error->message);
  return TRUE;
}

static gboolean
webm_open (LatentAnimation  *self,
           GError          **error)
{
  g_autoptr(GstCaps) caps = NULL;
  GstElement *convert, *encode, *mux, *sink;
  int fd;

  if (!gst_init_check (NULL, NULL, error))
    return FALSE;
  /* Made (and closed) here, so an unwritable folder shows now, by name. */
  fd = open_temporary (self->path, &self->tmp_path, error);
  if (fd < 0)
    return FALSE;
  close (fd);

  self->webm.pipeline = gst_object_ref_sink (gst_pipeline_new ("latent-animation"));
  if (!(self->webm.src = add_element (self->webm.pipeline, "appsrc", self->path, error)) ||
      !(convert = add_element (self->webm.pipeline, "videoconvert", self->path, error)) ||
      !(encode = add_element (self->webm.pipeline, "vp8enc", self->path, error)) ||
      !(mux = add_element (self->webm.pipeline, "webmmux", self->path, error)) ||
      !(sink = add_element (self->webm.pipeline, "filesink", self->path, error)))
    return FALSE;

  /* Cairo's ARGB32 is a native-endian 32-bit word: B, G, R, A in memory
   * on little-endian machines. Figures paint every pixel opaque. */
  caps = gst_caps_new_simple ("video/x-raw",
                              "format", G_TYPE_STRING, G_BYTE_ORDER == G_LITTLE_ENDIAN ? "BGRx" : "xRGB",
                              "width", G_TYPE_INT, self->width,
                              "height", G_TYPE_INT, self->height,
                              "framerate", GST_TYPE_FRACTION, self->fps, 1,
                              "pixel-aspect-ratio", GST_TYPE_FRACTION, 1, 1,
                              NULL);
  g_object_set (self->webm.src,
                "caps", caps,
                "format", GST_FORMAT_TIME,
                "is-live", FALSE,
                "block", FALSE,
                "max-bytes", (guint64) 0,
                NULL);
  /* Quality over speed: "good" mode with a whole second a frame (not the
   * realtime deadline that drops detail), a constant quality that keeps
   * text and thin lines sharp, and a keyframe every two seconds so that
   * a player can seek. */
  gst_util_set_object_arg (G_OBJECT (encode), "end-usage", "cq");
  g_object_set (encode,
                "deadline", (gint64) 1000000,
                "cq-level", 4,
                "target-bitrate", 8000000,
                "keyframe-max-dist", MAX (1, 2 * self->fps),
                "threads", (int) MIN (g_get_num_processors (), 8u),
                "cpu-used", 4,
                NULL);
  g_object_set (sink, "location", self->tmp_path, NULL);

  if (!gst_element_link_many (self->webm.src, convert, encode, mux, sink, NULL))
    {
      g_set_error (error, LATENT_FIGURE_ERROR, LATENT_FIGURE_ERROR_ENCODE,
                   _("Cannot record “%s”: GStreamer could not link its pipeline"), self->path);
      return FALSE;
    }
  self->webm.bus = gst_element_get_bus (self->webm.pipeline);
  if (gst_element_set_state (self->webm.pipeline, GST_STATE_PLAYING) == GST_STATE_CHANGE_FAILURE)
    {
      if (!webm_take_error (self, 0, error))
        g_set_error (error, LATENT_FIGURE_ERROR, LATENT_FIGURE_ERROR_ENCODE,
                     _("Cannot record “%s”: GStreamer could not start"), self->path);
      return FALSE;
    }
  return TRUE;
}

static gboolean
webm_add (LatentAnimation  *self,
          cairo_surface_t  *image,
          GError          **error)
{
  const guint8 *data = cairo_image_surface_get_data (image);
  const int stride = cairo_image_surface_get_stride (image);
  const gsize row = (gsize) self->width * 4;
  GstClockTime pts = gst_util_uint64_scale (self->n_frames, GST_SECOND, self->fps);
  GstClockTime next = gst_util_uint64_scale (self->n_frames + 1, GST_SECOND, self->fps);
  GstBuffer *buffer = gst_buffer_new_allocate (NULL, row * self->height, NULL);
  GstMapInfo map;

  /* Waits while the encoder is behind, watching for its errors (a full
   * disk), which a blocking push would never return from. */
  while (gst_app_src_get_current_level_bytes (GST_APP_SRC (self->webm.src)) >= WEBM_QUEUED_FRAMES * row * self->height)
    if (webm_take_error (self, 10 * GST_MSECOND, error))
      {
        gst_buffer_unref (buffer);
        return FALSE;
      }
  if (webm_take_error (self, 0, error))
    {
      gst_buffer_unref (buffer);
      return FALSE;
    }

  gst_buffer_map (buffer, &map, GST_MAP_WRITE);
  for (int y = 0; y < self->height; y++)
    memcpy (map.data + y * row, data + (gsize) y * stride, row);
  gst_buffer_unmap (buffer, &map);
  GST_BUFFER_PTS (buffer) = pts;
  GST_BUFFER_DURATION (buffer) = next - pts;

  if (gst_app_src_push_buffer (GST_APP_SRC (self->webm.src), buffer) != GST_FLOW_OK)
    {
      if (!webm_take_error (self, GST_SECOND, error))
        g_set_error (error, LATENT_FIGURE_ERROR, LATENT_FIGURE_ERROR_ENCODE,
                     _("Could not write “%s”: GStreamer took no more frames"), self->path);
      return FALSE;
    }
  return TRUE;
}

static gboolean
webm_finish (LatentAnimation  *self,
             GError          **error)
{
  g_autoptr(GstMessage) message = NULL;

  gst_app_src_end_of_stream (GST_APP_SRC (self->webm.src));
  /* The muxer writes the duration and the cues on EOS: only then is the
   * file whole. The frames pushed wait for the encoder (webm_add), so only
   * a few are left: a pipeline still busy after minutes is stuck. */
  message = gst_bus_timed_pop_filtered (self->webm.bus, 120 * GST_SECOND, GST_MESSAGE_EOS | GST_MESSAGE_ERROR);
  if (message == NULL)
    {
      g_set_error (error, LATENT_FIGURE_ERROR, LATENT_FIGURE_ERROR_ENCODE,
                   _("Could not write “%s”: GStreamer did not finish within two minutes"), self->path);
      return FALSE;
    }
  if (GST_MESSAGE_TYPE (message) == GST_MESSAGE_ERROR)
    {
      g_autoptr(GError) gst_error = NULL;

      gst_message_parse_error (message, &gst_error, NULL);
      g_set_error (error, LATENT_FIGURE_ERROR, LATENT_FIGURE_ERROR_ENCODE,
                   _("Could not write “%s”: %s"), self->path, gst_error->message);
      return FALSE;
    }
  gst_element_set_state (self->webm.pipeline, GST_STATE_NULL);
  return TRUE;
}

static void
webm_free (Webm *webm)
{
  if (webm->pipeline != NULL)
    gst_element_set_state (webm->pipeline, GST_STATE_NULL);
  g_clear_pointer (&webm->bus, gst_object_unref);
  g_clear_pointer (&webm->pipeline, gst_object_unref);
}

/* GIF -------------------------------------------------------------------- */

static inline guint
pixel_bin (guint32 p)
{
  return ((p >> 6) & 0x3f000) | ((p >> 4) & 0x00fc0) | ((p >> 2) & 0x0003f);
}

static gboolean
gif_open (LatentAnimation  *self,
          GError          **error)
{
  int fd = open_temporary (self->path, &self->tmp_path, error);

  if (fd < 0)
    return FALSE;
  close (fd);
  /* The frames wait on disk, not in memory, until the palette is known;
   * deflated, as figures are mostly flat. */
  self->gif.frames = tmpfile ();
  if (self->gif.frames == NULL)
    {
      g_set_error (error, G_IO_ERROR, g_io_error_from_errno (errno),
                   _("Cannot record “%s”: no temporary file for its frames: %s"),
                   self->path, g_strerror (errno));
      return FALSE;
    }
  self->gif.count = g_new0 (guint64, GIF_BINS);
  self->gif.sum = g_new0 (guint64, 3 * GIF_BINS);
  self->gif.row = g_new (guint32, (gsize) self->width * self->height);
  self->gif.packed_size = compressBound ((uLong) self->width * self->height * sizeof (guint32));
  self->gif.packed = g_new (guint8, self->gif.packed_size);
  return TRUE;
}

static gboolean
gif_add (LatentAnimation  *self,
         cairo_surface_t  *image,
         GError          **error)
{
  const guint8 *data = cairo_image_surface_get_data (image);
  const int stride = cairo_image_surface_get_stride (image);
  const gsize n = (gsize) self->width * self->height;
  guint32 *out = self->gif.row;
  uLongf packed = self->gif.packed_size;
  guint64 length;

  for (int y = 0; y < self->height; y++)
    {
      const guint32 *src = (const guint32 *) (data + (gsize) y * stride);

      for (int x = 0; x < self->width; x++)
        {
          guint32 p = src[x];
          guint b = pixel_bin (p);

          self->gif.count[b]++;
          self->gif.sum[3 * b] += (p >> 16) & 0xff;
          self->gif.sum[3 * b + 1] += (p >> 8) & 0xff;
          self->gif.sum[3 * b + 2] += p & 0xff;
          *out++ = b;
        }
    }
  /* Speed over size: the file is read once, at the end. */
  if (compress2 (self->gif.packed, &packed, (const Bytef *) self->gif.row, n * sizeof (guint32), 1) != Z_OK)
    {
      g_set_error (error, LATENT_FIGURE_ERROR, LATENT_FIGURE_ERROR_ENCODE,
                   _("Could not write “%s”: out of memory"), self->path);
      return FALSE;
    }
  length = packed;
  if (fwrite (&length, sizeof length, 1, self->gif.frames) != 1 ||
      fwrite (self->gif.packed, 1, packed, self->gif.frames) != packed)
    {
      g_set_error (error, G_IO_ERROR, g_io_error_from_errno (errno),
                   _("Could not write “%s”: its frames’ temporary file: %s"), self->path, g_strerror (errno));
      return FALSE;
    }
  return TRUE;
}

static int
by_count (gconstpointer a,
          gconstpointer b,
          gpointer      user_data)
{
  const guint64 *count = user_data;
  const guint32 x = *(const guint32 *) a, y = *(const guint32 *) b;

  /* The most used first; ties by colour, so the palette never depends on
   * the sort. */
  if (count[x] != count[y])
    return count[x] > count[y] ? -1 : 1;
  return x < y ? -1 : x > y;
}

/* A used bin: its mean colour and how many pixels. */
typedef struct {
  guint8  rgb[3];
  guint32 bin;
  guint64 count;
} Colour;

static int
by_channel (gconstpointer a,
            gconstpointer b,
            gpointer      user_data)
{
  const Colour *x = a, *y = b;
  const guint c = GPOINTER_TO_UINT (user_data);

  if (x->rgb[c] != y->rgb[c])
    return x->rgb[c] < y->rgb[c] ? -1 : 1;
  return x->bin < y->bin ? -1 : x->bin > y->bin;
}

/* Which channel spreads the most in colours[start, end), and how far. */
static guint
box_spread (const Colour *colours,
            guint         start,
            guint         end,
            guint        *channel)
{
  guint8 lo[3] = { 255, 255, 255 }, hi[3] = { 0, 0, 0 };
  guint best = 0;

  for (guint i = start; i < end; i++)
    for (guint c = 0; c < 3; c++)
      {
        lo[c] = MIN (lo[c], colours[i].rgb[c]);
        hi[c] = MAX (hi[c], colours[i].rgb[c]);
      }
  *channel = 0;
  for (guint c = 0; c < 3; c++)
    if ((guint) (hi[c] - lo[c]) > best)
      best = hi[c] - lo[c], *channel = c;
  return best;
}

/* Median cut of @colours into at most @slots boxes, each box's weighted
 * mean appended to @palette from @n on; returns the new n. */
static guint
median_cut (Colour  *colours,
            guint    n_colours,
            guint    slots,
            guint8   palette[256][3],
            guint    n)
{
  g_autofree guint *starts = g_new (guint, slots + 1);
  guint boxes = 0;

  if (n_colours == 0 || slots == 0)
    return n;
  starts[0] = 0;
  starts[1] = n_colours;
  boxes = 1;
  /* Split the box that spreads widest (the worst colour's error) at its
   * pixels' median along that channel. */
  while (boxes < slots)
    {
      guint widest = 0, spread = 0, channel = 0, split, b;
      guint64 total = 0, half = 0;

      for (b = 0; b < boxes; b++)
        {
          guint c, s = starts[b + 1] - starts[b] > 1 ? box_spread (colours, starts[b], starts[b + 1], &c) : 0;

          if (s > spread)
            spread = s, widest = b, channel = c;
        }
      if (spread == 0)
        break;
      g_qsort_with_data (colours + starts[widest], starts[widest + 1] - starts[widest], sizeof (Colour),
                         by_channel, GUINT_TO_POINTER (channel));
      for (guint i = starts[widest]; i < starts[widest + 1]; i++)
        total += colours[i].count;
      for (split = starts[widest]; split < starts[widest + 1] - 1; split++)
        {
          half += colours[split].count;
          if (2 * half >= total)
            break;
        }
      /* Both halves keep a colour, even where the last one outweighs
       * the others. */
      split = MIN (split + 1, starts[widest + 1] - 1);
      memmove (starts + widest + 2, starts + widest + 1, (boxes - widest) * sizeof (guint));
      starts[widest + 1] = split;
      boxes++;
    }
  for (guint b = 0; b < boxes; b++)
    {
      guint64 sum[3] = { 0, 0, 0 }, count = 0;

      for (guint i = starts[b]; i < starts[b + 1]; i++)
        {
          for (guint c = 0; c < 3; c++)
            sum[c] += colours[i].rgb[c] * colours[i].count;
          count += colours[i].count;
        }
      for (guint c = 0; c < 3; c++)
        palette[n][c] = (sum[c] + count / 2) / count;
      n++;
    }
  return n;
}

/* At most 256 colours: those a figure paints flat (each bin of at least
 * 1/256 of all pixels: the background, the clusters' colours, text), at
 * their exact values, then a median cut of the rest (antialiased edges,
 * grey tiles, heat maps) into the slots left. Every bin then maps to its
 * nearest palette colour, in @map. Returns how many colours. */
static guint
gif_choose_palette (Gif     *gif,
                    guint8   palette[256][3],
                    guint16 *map)
{
  g_autofree guint32 *bins = g_new (guint32, GIF_BINS);
  g_autofree Colour *rest = NULL;
  guint64 total = 0;
  guint used = 0, n = 0, n_rest = 0;

  for (guint b = 0; b < GIF_BINS; b++)
    if (gif->count[b] > 0)
      {
        bins[used++] = b;
        total += gif->count[b];
      }
  g_qsort_with_data (bins, used, sizeof (guint32), by_count, gif->count);
  if (used <= 256)
    n = used;
  else
    while (n < 192 && gif->count[bins[n]] * 256 >= total)
      n++;
  for (guint i = 0; i < n; i++)
    for (guint c = 0; c < 3; c++)
      palette[i][c] = (gif->sum[3 * bins[i] + c] + gif->count[bins[i]] / 2) / gif->count[bins[i]];
  rest = g_new (Colour, used - n + 1);
  for (guint i = n; i < used; i++)
    {
      Colour *colour = &rest[n_rest++];

      colour->bin = bins[i];
      colour->count = gif->count[bins[i]];
      for (guint c = 0; c < 3; c++)
        colour->rgb[c] = (gif->sum[3 * bins[i] + c] + colour->count / 2) / colour->count;
    }
  n = median_cut (rest, n_rest, 256 - n, palette, n);

  for (guint i = 0; i < GIF_BINS; i++)
    map[i] = GIF_UNMAPPED;
  for (guint i = 0; i < used; i++)
    {
      const guint b = bins[i];
      int rgb[3];
      guint best = 0, best_d = G_MAXUINT;

      for (guint c = 0; c < 3; c++)
        rgb[c] = (int) ((gif->sum[3 * b + c] + gif->count[b] / 2) / gif->count[b]);
      for (guint k = 0; k < n && best_d > 0; k++)
        {
          int dr = rgb[0] - palette[k][0], dg = rgb[1] - palette[k][1], db = rgb[2] - palette[k][2];
          guint d = dr * dr + dg * dg + db * db;

          if (d < best_d)
            best_d = d, best = k;
        }
      map[b] = best;
    }
  return n;
}

typedef struct {
  FILE   *fp;
  int     saved_errno;
  guint8  block[256];  /* a sub-block: its length, then up to 255 bytes */
  guint32 bits;
  guint   n_bits;
} GifWriter;

static void
put_bytes (GifWriter    *w,
           const void   *data,
           gsize         n)
{
  if (w->saved_errno == 0 && n > 0 && fwrite (data, 1, n, w->fp) != n)
    w->saved_errno = errno != 0 ? errno : EIO;
}

static void
put_u16 (GifWriter *w,
         guint      v)
{
  guint8 b[2] = { v & 0xff, (v >> 8) & 0xff };

  put_bytes (w, b, 2);
}

static void
flush_block (GifWriter *w)
{
  if (w->block[0] > 0)
    put_bytes (w, w->block, w->block[0] + 1);
  w->block[0] = 0;
}

/* Codes go in least significant bit first, in sub-blocks of 255 bytes. */
static void
put_code (GifWriter *w,
          guint      code,
          guint      size)
{
  w->bits |= (guint32) code << w->n_bits;
  w->n_bits += size;
  while (w->n_bits >= 8)
    {
      w->block[++w->block[0]] = w->bits & 0xff;
      w->bits >>= 8;
      w->n_bits -= 8;
      if (w->block[0] == 255)
        flush_block (w);
    }
}

/* LZW of @n 8-bit indices, as GIF wants it: codes grow from 9 bits to 12,
 * and the table starts again (a clear code) when full. The table is a
 * hash of (prefix code, next index) → code. */
static void
gif_put_lzw (GifWriter    *w,
             const guint8 *indices,
             gsize         n,
             guint32      *keys,
             guint16      *codes)
{
  const guint min_size = 8, clear = 1u << min_size, end = clear + 1;
  guint size = min_size + 1, next = clear + 2;
  guint prefix;
  guint8 min = min_size;

  put_bytes (w, &min, 1);
  w->bits = 0;
  w->n_bits = 0;
  w->block[0] = 0;
  memset (keys, 0xff, LZW_HASH_SIZE * sizeof (guint32));
  put_code (w, clear, size);
  prefix = indices[0];
  for (gsize i = 1; i < n; i++)
    {
      const guint32 key = (prefix << 8) | indices[i];
      guint h = (key * 2654435761u) >> (32 - 13);

      while (keys[h] != G_MAXUINT32 && keys[h] != key)
        h = (h + 1) & (LZW_HASH_SIZE - 1);
      if (keys[h] == key)
        {
          prefix = codes[h];
          continue;
        }
      put_code (w, prefix, size);
      if (next <= LZW_MAX_CODE)
        {
          keys[h] = key;
          codes[h] = next;
          /* The decoder's table is one code behind: it widens after
           * the code that fills 2^size. */
          if (next == (1u << size) && size < 12)
            size++;
          next++;
        }
      else
        {
          put_code (w, clear, size);
          memset (keys, 0xff, LZW_HASH_SIZE * sizeof (guint32));
          size = min_size + 1;
          next = clear + 2;
        }
      prefix = indices[i];
    }
  put_code (w, prefix, size);
  put_code (w, end, size);
  if (w->n_bits > 0)
    put_code (w, 0, 8 - w->n_bits);
  flush_block (w);
  put_bytes (w, "\0", 1);   /* the block terminator */
}

/* 1/fps s as hundredths, each frame's rounded so the whole stays exact. */
static guint
gif_delay (guint index,
           int   fps)
{
  return (guint) ((200 * (guint64) (index + 1) + fps) / (2 * fps) - (200 * (guint64) index + fps) / (2 * fps));
}

static gboolean
gif_write (LatentAnimation  *self,
           FILE             *fp,
           GError          **error)
{
  const guint w = self->width, h = self->height;
  const gsize n = (gsize) w * h;
  g_autofree guint16 *map = g_new (guint16, GIF_BINS);
  g_autofree guint8 *indices = g_new (guint8, n);
  g_autofree guint8 *previous = g_new (guint8, n);
  g_autofree guint8 *patch = g_new (guint8, n);
  g_autofree guint32 *keys = g_new (guint32, LZW_HASH_SIZE);
  g_autofree guint16 *codes = g_new (guint16, LZW_HASH_SIZE);
  guint8 palette[256][3] = { { 0 } };
  GifWriter writer = { .fp = fp };
  static const guint8 loop[] = { 0x21, 0xff, 11, 'N', 'E', 'T', 'S', 'C', 'A', 'P', 'E', '2', '.', '0',
                                 3, 1, 0, 0, 0 };  /* loop for ever */
  guint8 flags;

  gif_choose_palette (&self->gif, palette, map);
  put_bytes (&writer, "GIF89a", 6);
  put_u16 (&writer, w);
  put_u16 (&writer, h);
  flags = 0x80 | (7 << 4) | 7;   /* a global table of 256, 8 bits a channel */
  put_bytes (&writer, &flags, 1);
  put_bytes (&writer, "\0\0", 2);  /* background colour, aspect */
  put_bytes (&writer, palette, sizeof palette);
  put_bytes (&writer, loop, sizeof loop);

  rewind (self->gif.frames);
  for (guint f = 0; f < self->n_frames; f++)
    {
      guint x0 = 0, y0 = 0, x1 = w - 1, y1 = h - 1;
      guint delay = gif_delay (f, self->fps);
      guint8 control[8] = { 0x21, 0xf9, 4, 1 << 2, delay & 0xff, delay >> 8, 0, 0 };
      guint8 descriptor = 0x2c, packed = 0;

      guint64 length = 0;
      uLongf unpacked = n * sizeof (guint32);

      if (fread (&length, sizeof length, 1, self->gif.frames) != 1 || length > self->gif.packed_size ||
          fread (self->gif.packed, 1, length, self->gif.frames) != length ||
          uncompress ((Bytef *) self->gif.row, &unpacked, self->gif.packed, length) != Z_OK ||
          unpacked != n * sizeof (guint32))
        {
          g_set_error (error, G_IO_ERROR, G_IO_ERROR_FAILED,
                       _("Could not write “%s”: its frames’ temporary file could not be read back"), self->path);
          return FALSE;
        }
      for (gsize i = 0; i < n; i++)
        indices[i] = map[self->gif.row[i]];
      /* After the first, only the rectangle that changed: each frame is
       * drawn over the last (disposal 1, "leave in place"). */
      if (f > 0)
        {
          gboolean any = FALSE;

          x0 = w, y0 = h, x1 = 0, y1 = 0;
          for (guint y = 0; y < h; y++)
            for (guint x = 0; x < w; x++)
              if (indices[(gsize) y * w + x] != previous[(gsize) y * w + x])
                {
                  x0 = MIN (x0, x), x1 = MAX (x1, x);
                  y0 = MIN (y0, y), y1 = MAX (y1, y);
                  any = TRUE;
                }
          if (!any)
            x0 = y0 = x1 = y1 = 0;   /* a frame still, to keep the time */
        }
      for (guint y = y0; y <= y1; y++)
        memcpy (patch + (gsize) (y - y0) * (x1 - x0 + 1), indices + (gsize) y * w + x0, x1 - x0 + 1);
      put_bytes (&writer, control, sizeof control);
      put_bytes (&writer, &descriptor, 1);
      put_u16 (&writer, x0);
      put_u16 (&writer, y0);
      put_u16 (&writer, x1 - x0 + 1);
      put_u16 (&writer, y1 - y0 + 1);
      put_bytes (&writer, &packed, 1);
      gif_put_lzw (&writer, patch, (gsize) (x1 - x0 + 1) * (y1 - y0 + 1), keys, codes);
      memcpy (previous, indices, n);
      if (writer.saved_errno != 0)
        break;
    }
  put_bytes (&writer, ";", 1);
  if (writer.saved_errno != 0)
    {
      set_errno_error (error, writer.saved_errno, self->path);
      return FALSE;
    }
  return TRUE;
}

static gboolean
gif_finish (LatentAnimation  *self,
            GError          **error)
{
  FILE *fp = fopen (self->tmp_path, "wb");
  gboolean ok;

  if (fp == NULL)
    {
      set_errno_error (error, errno, self->path);
      return FALSE;
    }
  ok = gif_write (self, fp, error);
  /* fclose flushes: a full disk may only show here. */
  if (fclose (fp) != 0 && ok)
    {
      set_errno_error (error, errno, self->path);
      ok = FALSE;
    }
  return ok;
}

static void
gif_free (Gif *gif)
{
  g_clear_pointer (&gif->frames, fclose);
  g_clear_pointer (&gif->count, g_free);
  g_clear_pointer (&gif->sum, g_free);
  g_clear_pointer (&gif->row, g_free);
  g_clear_pointer (&gif->packed, g_free);
}

/* PNG sequence ------------------------------------------------------------ */

static gboolean
png_open (LatentAnimation  *self,
          GError          **error)
{
  g_autofree char *dir = g_path_get_dirname (self->path);

  /* Written frame by frame; a folder that takes no file says so now. */
  if (g_access (dir, W_OK) != 0)
    {
      int saved = errno;
      g_autofree char *first = latent_animation_dup_frame_path (self->path, 1);

      set_errno_error (error, saved, first);
      return FALSE;
    }
  return TRUE;
}

static gboolean
png_add (LatentAnimation  *self,
         cairo_surface_t  *image,
         GError          **error)
{
  g_autofree char *path = latent_animation_dup_frame_path (self->path, self->n_frames + 1);

  return _latent_figure_save_png_image (image, path, error);
}

/* The animation ----------------------------------------------------------- */

LatentAnimation *
latent_animation_new (const char  *path,
                      int          width,
                      int          height,
                      int          fps,
                      GError     **error)
{
  g_autoptr(LatentAnimation) self = NULL;
  gboolean ok = FALSE;

  g_return_val_if_fail (path != NULL, NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  if (!latent_animation_check (path, width, height, fps, error))
    return NULL;
  self = g_new0 (LatentAnimation, 1);
  latent_animation_format_from_path (path, &self->format, NULL);
  self->path = g_strdup (path);
  self->width = width;
  self->height = height;
  self->fps = fps;
  switch (self->format)
    {
    case LATENT_ANIMATION_WEBM: ok = webm_open (self, error); break;
    case LATENT_ANIMATION_GIF: ok = gif_open (self, error); break;
    case LATENT_ANIMATION_PNG: ok = png_open (self, error); break;
    }
  return ok ? g_steal_pointer (&self) : NULL;
}

gboolean
latent_animation_add_frame (LatentAnimation  *self,
                            cairo_surface_t  *image,
                            GError          **error)
{
  gboolean ok = FALSE;

  g_return_val_if_fail (self != NULL, FALSE);
  g_return_val_if_fail (image != NULL, FALSE);
  g_return_val_if_fail (error == NULL || *error == NULL, FALSE);
  g_return_val_if_fail (!self->finished, FALSE);

  if (self->failed)
    {
      g_set_error (error, LATENT_FIGURE_ERROR, LATENT_FIGURE_ERROR_ENCODE,
                   _("Could not write “%s”: it failed before"), self->path);
      return FALSE;
    }
  if (cairo_surface_get_type (image) != CAIRO_SURFACE_TYPE_IMAGE ||
      (cairo_image_surface_get_format (image) != CAIRO_FORMAT_ARGB32 &&
       cairo_image_surface_get_format (image) != CAIRO_FORMAT_RGB24) ||
      cairo_image_surface_get_width (image) != self->width ||
      cairo_image_surface_get_height (image) != self->height)
    {
      g_set_error (error, LATENT_FIGURE_ERROR, LATENT_FIGURE_ERROR_SIZE,
                   _("Could not write “%s”: a frame must be a 32-bit image of %d × %d"),
                   self->path, self->width, self->height);
      return FALSE;
    }
  cairo_surface_flush (image);
  switch (self->format)
    {
    case LATENT_ANIMATION_WEBM: ok = webm_add (self, image, error); break;
    case LATENT_ANIMATION_GIF: ok = gif_add (self, image, error); break;
    case LATENT_ANIMATION_PNG: ok = png_add (self, image, error); break;
    }
  if (ok)
    self->n_frames++;
  else
    self->failed = TRUE;
  return ok;
}

gboolean
latent_animation_add_snapshot (LatentAnimation         *self,
                               LatentSnapshot          *snapshot,
                               LatentFigureKind         kind,
                               const LatentFigureStyle *style,
                               double                   scale,
                               GError                 **error)
{
  cairo_surface_t *image;
  gboolean ok;

  g_return_val_if_fail (self != NULL, FALSE);
  g_return_val_if_fail (snapshot != NULL, FALSE);
  g_return_val_if_fail (style != NULL, FALSE);

  image = latent_figure_render_image (snapshot, kind, style, self->width, self->height, scale, error);
  if (image == NULL)
    return FALSE;
  ok = latent_animation_add_frame (self, image, error);
  cairo_surface_destroy (image);
  return ok;
}

gboolean
latent_animation_finish (LatentAnimation  *self,
                         GError          **error)
{
  gboolean ok = FALSE;

  g_return_val_if_fail (self != NULL, FALSE);
  g_return_val_if_fail (error == NULL || *error == NULL, FALSE);
  g_return_val_if_fail (!self->finished, FALSE);

  if (self->failed)
    {
      g_set_error (error, LATENT_FIGURE_ERROR, LATENT_FIGURE_ERROR_ENCODE,
                   _("Could not write “%s”: it failed before"), self->path);
      return FALSE;
    }
  if (self->n_frames == 0)
    {
      g_set_error (error, LATENT_FIGURE_ERROR, LATENT_FIGURE_ERROR_ENCODE,
                   _("Could not write “%s”: it has no frame"), self->path);
      self->failed = TRUE;
      return FALSE;
    }
  switch (self->format)
    {
    case LATENT_ANIMATION_WEBM: ok = webm_finish (self, error); break;
    case LATENT_ANIMATION_GIF: ok = gif_finish (self, error); break;
    case LATENT_ANIMATION_PNG: ok = TRUE; break;
    }
  if (ok && self->tmp_path != NULL && g_rename (self->tmp_path, self->path) != 0)
    {
      set_errno_error (error, errno, self->path);
      ok = FALSE;
    }
  if (ok)
    g_clear_pointer (&self->tmp_path, g_free);
  self->finished = ok;
  self->failed = !ok;
  return ok;
}

void
latent_animation_free (LatentAnimation *self)
{
  if (self == NULL)
    return;
  webm_free (&self->webm);
  gif_free (&self->gif);
  /* Unfinished: no half file left behind. */
  if (self->tmp_path != NULL)
    g_unlink (self->tmp_path);
  g_free (self->tmp_path);
  g_free (self->path);
  g_free (self);
}

LatentAnimationFormat
latent_animation_get_format (LatentAnimation *self)
{
  g_return_val_if_fail (self != NULL, LATENT_ANIMATION_PNG);
  return self->format;
}

guint
latent_animation_get_n_frames (LatentAnimation *self)
{
  g_return_val_if_fail (self != NULL, 0);
  return self->n_frames;
}

int
latent_animation_get_fps (LatentAnimation *self)
{
  g_return_val_if_fail (self != NULL, 0);
  return self->fps;
}

double
latent_animation_get_duration (LatentAnimation *self)
{
  g_return_val_if_fail (self != NULL, 0.0);
  return (double) self->n_frames / self->fps;
}
