/* latent-png-save.c — float images written as 8- or 16-bit PNG (grey, grey+alpha, RGB, RGBA)
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#define G_LOG_DOMAIN "latent-png-save"

#include "latent-png-save.h"

#include <errno.h>
#include <fcntl.h>
#include <setjmp.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include <glib/gi18n-lib.h>
#include <glib/gstdio.h>
#include <png.h>

#include "latent-png.h"

typedef struct {
  const char         *path;
  FILE               *fp;
  png_structp         png;
  png_infop           info;
  char               *message;  /* libpng's last error */
  guchar             *row;
  const float        *values;
  guint               width;
  guint               height;
  guint               channels;
  LatentPngLayout     layout;
  guint               bit_depth;
  const char * const *text;
} PngWriter;

static void
on_png_error (png_structp      png,
              png_const_charp  message)
{
  PngWriter *w = png_get_error_ptr (png);

  g_free (w->message);
  w->message = g_strdup (message);
  png_longjmp (png, 1);
}

static void
on_png_warning (png_structp      png,
                png_const_charp  message)
{
  PngWriter *w = png_get_error_ptr (png);

  g_debug ("%s: %s", w->path, message);
}

/* [0, 1] to 0…MAX, rounded; NaN counts as 0. */
static guint
quantise (float v,
          guint max)
{
  if (!(v > 0.0f))
    return 0;
  if (v >= 1.0f)
    return max;
  return (guint) (v * max + 0.5f);
}

static void
fill_row (PngWriter *w,
          guint      y)
{
  const gsize n_pixels = (gsize) w->width * w->height;

  for (guint x = 0; x < w->width; x++)
    for (guint c = 0; c < w->channels; c++)
      {
        const gsize pixel = (gsize) y * w->width + x;
        const float v = w->layout == LATENT_PNG_PLANAR ? w->values[c * n_pixels + pixel]
                                                       : w->values[pixel * w->channels + c];
        const gsize at = (gsize) x * w->channels + c;

        if (w->bit_depth == 16)
          {
            /* PNG samples are big-endian. */
            const guint q = quantise (v, 65535);
            w->row[2 * at] = q >> 8;
            w->row[2 * at + 1] = q & 0xff;
          }
        else
          w->row[at] = quantise (v, 255);
      }
}

/* Everything that can longjmp happens here, with all state in W. */
static gboolean
png_encode (PngWriter *w)
{
  static const int color_types[5] = {
    0, PNG_COLOR_TYPE_GRAY, PNG_COLOR_TYPE_GRAY_ALPHA, PNG_COLOR_TYPE_RGB, PNG_COLOR_TYPE_RGB_ALPHA
  };

  if (setjmp (png_jmpbuf (w->png)))
    return FALSE;

  png_init_io (w->png, w->fp);
  png_set_IHDR (w->png, w->info, w->width, w->height, w->bit_depth, color_types[w->channels],
                PNG_INTERLACE_NONE, PNG_COMPRESSION_TYPE_DEFAULT, PNG_FILTER_TYPE_DEFAULT);
  if (w->text != NULL)
    for (guint i = 0; w->text[i] != NULL && w->text[i + 1] != NULL; i += 2)
      {
        png_text chunk = { 0 };

        chunk.compression = PNG_TEXT_COMPRESSION_NONE;
        chunk.key = (char *) w->text[i];
        chunk.text = (char *) w->text[i + 1];
        png_set_text (w->png, w->info, &chunk, 1);
      }
  png_write_info (w->png, w->info);
  for (guint y = 0; y < w->height; y++)
    {
      fill_row (w, y);
      png_write_row (w->png, w->row);
    }
  png_write_end (w->png, w->info);
  return TRUE;
}

static gboolean
check_args (const char  *path,
            guint        width,
            guint        height,
            guint        channels,
            guint        bit_depth,
            GError     **error)
{
  if (width == 0 || height == 0 || (guint64) width * height > LATENT_PNG_MAX_PIXELS)
    g_set_error (error, LATENT_DATA_ERROR, LATENT_DATA_ERROR_INVALID,
                 _("%s: cannot write a %u × %u image (1 to 8192 × 8192 pixels)"), path, width, height);
  else if (channels < 1 || channels > 4)
    g_set_error (error, LATENT_DATA_ERROR, LATENT_DATA_ERROR_INVALID,
                 _("%s: a PNG holds 1 to 4 channels, not %u"), path, channels);
  else if (bit_depth != 8 && bit_depth != 16)
    g_set_error (error, LATENT_DATA_ERROR, LATENT_DATA_ERROR_INVALID,
                 _("%s: bit depth %u — expected 8 or 16"), path, bit_depth);
  else
    return TRUE;
  return FALSE;
}

gboolean
latent_png_save (const char          *path,
                 const float         *values,
                 guint                width,
                 guint                height,
                 guint                channels,
                 LatentPngLayout      layout,
                 guint                bit_depth,
                 const char * const  *text,
                 GError             **error)
{
  PngWriter w = { 0 };
  g_autofree char *temp = NULL;
  gboolean ok = FALSE;
  int fd, saved;

  g_return_val_if_fail (path != NULL, FALSE);
  g_return_val_if_fail (values != NULL, FALSE);
  g_return_val_if_fail (error == NULL || *error == NULL, FALSE);

  if (!check_args (path, width, height, channels, bit_depth, error))
    return FALSE;

  /* Beside PATH, so the rename stays on one file system. */
  temp = g_strconcat (path, ".XXXXXX", NULL);
  fd = g_mkstemp_full (temp, O_WRONLY | O_CREAT | O_EXCL, 0666);
  if (fd < 0 || (w.fp = fdopen (fd, "wb")) == NULL)
    {
      saved = errno;
      if (fd >= 0)
        {
          close (fd);
          g_unlink (temp);
        }
      g_set_error (error, LATENT_DATA_ERROR, LATENT_DATA_ERROR_IO,
                   _("%s: cannot create the file: %s"), path, g_strerror (saved));
      return FALSE;
    }

  w.path = path;
  w.values = values;
  w.width = width;
  w.height = height;
  w.channels = channels;
  w.layout = layout;
  w.bit_depth = bit_depth;
  w.text = text;
  w.row = g_try_malloc ((gsize) width * channels * (bit_depth / 8));
  w.png = png_create_write_struct (PNG_LIBPNG_VER_STRING, &w, on_png_error, on_png_warning);
  if (w.png != NULL)
    w.info = png_create_info_struct (w.png);
  if (w.row == NULL || w.png == NULL || w.info == NULL)
    g_set_error (error, LATENT_DATA_ERROR, LATENT_DATA_ERROR_IO,
                 _("%s: could not set up the PNG writer"), path);
  else if (!png_encode (&w))
    g_set_error (error, LATENT_DATA_ERROR, LATENT_DATA_ERROR_IO,
                 _("%s: cannot write the PNG: %s"), path,
                 w.message ? w.message : g_strerror (ferror (w.fp) ? errno : EIO));
  else
    ok = TRUE;

  if (w.png != NULL)
    png_destroy_write_struct (&w.png, w.info ? &w.info : NULL);
  g_free (w.row);
  g_free (w.message);

  /* fclose flushes: a full disk shows here. */
  saved = 0;
  if (fflush (w.fp) != 0 || fsync (fileno (w.fp)) != 0)
    saved = errno;
  if (fclose (w.fp) != 0 && saved == 0)
    saved = errno;
  if (ok && saved != 0)
    {
      g_set_error (error, LATENT_DATA_ERROR, LATENT_DATA_ERROR_IO,
                   _("%s: cannot write the PNG: %s"), path, g_strerror (saved));
      ok = FALSE;
    }
  if (ok && g_rename (temp, path) != 0)
    {
      saved = errno;
      g_set_error (error, LATENT_DATA_ERROR, LATENT_DATA_ERROR_IO,
                   _("%s: cannot replace the file: %s"), path, g_strerror (saved));
      ok = FALSE;
    }
  if (!ok)
    g_unlink (temp);
  return ok;
}

gboolean
latent_png_save_dataset (LatentDataset  *dataset,
                         const char     *path,
                         guint           bit_depth,
                         GError        **error)
{
  guint width = 0, height = 0, channels = 0;
  gboolean single = FALSE;

  g_return_val_if_fail (LATENT_IS_DATASET (dataset), FALSE);
  g_return_val_if_fail (path != NULL, FALSE);
  g_return_val_if_fail (error == NULL || *error == NULL, FALSE);

  if (!latent_dataset_get_image_shape (dataset, &width, &height, &channels, &single) || !single)
    {
      g_set_error (error, LATENT_DATA_ERROR, LATENT_DATA_ERROR_INVALID,
                   _("%s: the dataset “%s” is not a single image"), path, latent_dataset_get_name (dataset));
      return FALSE;
    }
  return latent_png_save (path, latent_dataset_get_data (dataset), width, height, channels,
                          LATENT_PNG_INTERLEAVED, bit_depth, NULL, error);
}
