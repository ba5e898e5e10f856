/* latent-png.c — a PNG image as a single-image dataset, one row per pixel
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#define G_LOG_DOMAIN "latent-png"

#include "latent-png.h"
#include "latent-file.h"

#include <errno.h>
#include <setjmp.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <glib/gi18n-lib.h>
#include <glib/gstdio.h>
#include <png.h>

/* The signature, then the IHDR chunk's length, type, width and height. */
#define PNG_PEEK_BYTES 24

typedef struct {
  const char  *path;
  char        *basename;
  FILE        *fp;
  goffset      file_size;
  png_structp  png;
  png_infop    info;
  char        *message;   /* libpng's last error */
  GError      *error;     /* our own, set inside png_decode() */
  LatentDataset *dataset;
  guchar      *rows;
} PngReader;

static void
png_reader_clear (PngReader *r)
{
  if (r->png != NULL)
    png_destroy_read_struct (&r->png, r->info ? &r->info : NULL, NULL);
  if (r->fp != NULL)
    fclose (r->fp);
  g_free (r->message);
  g_free (r->basename);
  g_clear_error (&r->error);
  g_clear_object (&r->dataset);
  g_free (r->rows);
}

static void
on_png_error (png_structp      png,
              png_const_charp  message)
{
  PngReader *r = png_get_error_ptr (png);

  g_free (r->message);
  r->message = g_strdup (message);
  png_longjmp (png, 1);
}

static void
on_png_warning (png_structp      png,
                png_const_charp  message)
{
  PngReader *r = png_get_error_ptr (png);

  g_debug ("%s: %s", r->path, message);
}

static gboolean
check_pixels (const char  *path,
              guint32      width,
              guint32      height,
              GError     **error)
{
  if ((guint64) width * height <= LATENT_PNG_MAX_PIXELS)
    return TRUE;
  g_set_error (error, LATENT_DATA_ERROR, LATENT_DATA_ERROR_TOO_LARGE,
               _("%s: %u × %u pixels is above the limit of 8192 × 8192"), path, width, height);
  return FALSE;
}

static void
convert_row (const guchar *src,
             float        *dst,
             gsize         n_samples,
             int           bit_depth)
{
  if (bit_depth == 16)
    for (gsize i = 0; i < n_samples; i++)
      dst[i] = (src[2 * i] << 8 | src[2 * i + 1]) / 65535.0f;
  else
    for (gsize i = 0; i < n_samples; i++)
      dst[i] = src[i] / 255.0f;
}

/* Everything that can longjmp happens here, and all state lives in @r, so a
 * libpng error leaves nothing half-owned in a local variable. */
static gboolean
png_decode (PngReader *r)
{
  png_uint_32 width, height;
  int bit_depth, color_type, passes;
  guint channels;
  gsize rowbytes;
  float *values;

  if (setjmp (png_jmpbuf (r->png)))
    return FALSE;

  png_read_info (r->png, r->info);
  width = png_get_image_width (r->png, r->info);
  height = png_get_image_height (r->png, r->info);
  if (!check_pixels (r->path, width, height, &r->error))
    return FALSE;
  /* Deflate packs at most 1032 bytes into one: a small file that declares
   * a large image is lying, and is refused before anything is allocated.
   * (The rows as stored, each with its filter byte, before any expansion.) */
  if ((guint64) (png_get_rowbytes (r->png, r->info) + 1) * height > 1032 * (guint64) r->file_size + 4096)
    {
      g_set_error (&r->error, LATENT_DATA_ERROR, LATENT_DATA_ERROR_PARSE,
                   _("%s: declares %u × %u pixels, more than its %lld bytes can hold"),
                   r->path, width, height, (long long) r->file_size);
      return FALSE;
    }

  color_type = png_get_color_type (r->png, r->info);
  bit_depth = png_get_bit_depth (r->png, r->info);
  if (color_type == PNG_COLOR_TYPE_PALETTE)
    png_set_palette_to_rgb (r->png);
  if (color_type == PNG_COLOR_TYPE_GRAY && bit_depth < 8)
    png_set_expand_gray_1_2_4_to_8 (r->png);
  if (png_get_valid (r->png, r->info, PNG_INFO_tRNS))
    png_set_tRNS_to_alpha (r->png);
  passes = png_set_interlace_handling (r->png);
  png_read_update_info (r->png, r->info);

  channels = png_get_channels (r->png, r->info);
  bit_depth = png_get_bit_depth (r->png, r->info);
  rowbytes = png_get_rowbytes (r->png, r->info);
  if (channels < 1 || channels > 4 || (bit_depth != 8 && bit_depth != 16) ||
      rowbytes != (gsize) width * channels * (bit_depth / 8))
    {
      g_set_error (&r->error, LATENT_DATA_ERROR, LATENT_DATA_ERROR_UNSUPPORTED,
                   _("%s: unsupported PNG layout (%u channels of %d bits)"), r->path, channels, bit_depth);
      return FALSE;
    }

  r->dataset = latent_dataset_new (r->basename, width * height, channels, &r->error);
  if (r->dataset == NULL)
    return FALSE;

  /* Interlaced images need every row at once; others go one row at a time. */
  r->rows = g_try_malloc (passes > 1 ? rowbytes * height : rowbytes);
  if (r->rows == NULL)
    {
      g_set_error (&r->error, LATENT_DATA_ERROR, LATENT_DATA_ERROR_TOO_LARGE,
                   _("%s: not enough memory for %u × %u pixels"), r->path, width, height);
      return FALSE;
    }

  values = latent_dataset_get_data (r->dataset);
  for (int pass = 0; pass < passes; pass++)
    for (png_uint_32 y = 0; y < height; y++)
      {
        guchar *row = r->rows + (passes > 1 ? rowbytes * y : 0);

        png_read_row (r->png, row, NULL);
        if (passes == 1)
          convert_row (row, values + (gsize) y * width * channels, (gsize) width * channels, bit_depth);
      }
  if (passes > 1)
    convert_row (r->rows, values, (gsize) width * height * channels, bit_depth);

  /* Checks the CRCs of what follows the image data. */
  png_read_end (r->png, NULL);

  latent_dataset_set_image_shape (r->dataset, width, height, channels, TRUE);
  latent_dataset_set_bit_depth (r->dataset, bit_depth);
  latent_dataset_name_channels (r->dataset);
  return TRUE;
}

LatentDataset *
latent_png_load (const char  *path,
                 GError     **error)
{
  PngReader r = { 0 };
  guchar head[PNG_PEEK_BYTES];
  gsize got;
  LatentDataset *dataset = NULL;

  g_return_val_if_fail (path != NULL, NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  r.path = path;
  r.basename = g_path_get_basename (path);
  if (!(r.fp = latent_file_fopen (path, &r.file_size, error)))
    goto out;

  got = fread (head, 1, sizeof head, r.fp);
  if (got == 0)
    {
      g_set_error (error, LATENT_DATA_ERROR, LATENT_DATA_ERROR_EMPTY, _("%s: empty file"), path);
      goto out;
    }
  if (got < 8 || png_sig_cmp (head, 0, 8) != 0)
    {
      g_set_error (error, LATENT_DATA_ERROR, LATENT_DATA_ERROR_PARSE,
                   _("%s: not a PNG file (bad signature)"), path);
      goto out;
    }
  if (got < sizeof head)
    {
      g_set_error (error, LATENT_DATA_ERROR, LATENT_DATA_ERROR_PARSE,
                   _("%s: truncated PNG (%zu bytes)"), path, (size_t) got);
      goto out;
    }
  /* Refuse an enormous image before libpng allocates anything for it. */
  if (memcmp (head + 12, "IHDR", 4) == 0 &&
      !check_pixels (path, (guint32) head[16] << 24 | head[17] << 16 | head[18] << 8 | head[19],
                     (guint32) head[20] << 24 | head[21] << 16 | head[22] << 8 | head[23], error))
    goto out;
  if (fseek (r.fp, 8, SEEK_SET) != 0)
    {
      int saved = errno;
      g_set_error (error, LATENT_DATA_ERROR, LATENT_DATA_ERROR_IO, "%s: %s", path, g_strerror (saved));
      goto out;
    }

  r.png = png_create_read_struct (PNG_LIBPNG_VER_STRING, &r, on_png_error, on_png_warning);
  if (r.png != NULL)
    r.info = png_create_info_struct (r.png);
  if (r.png == NULL || r.info == NULL)
    {
      g_set_error (error, LATENT_DATA_ERROR, LATENT_DATA_ERROR_IO,
                   _("%s: could not set up the PNG reader"), path);
      goto out;
    }
  png_init_io (r.png, r.fp);
  png_set_sig_bytes (r.png, 8);
  /* Our pixel limit applies, and libpng's own: no side longer than the
   * limit's, no ancillary chunk (text, ICC profile) inflated past 8 MiB. */
  png_set_user_limits (r.png, LATENT_PNG_MAX_SIDE, LATENT_PNG_MAX_SIDE);
  png_set_chunk_malloc_max (r.png, 8 << 20);
  /* Yet libpng 1.6 only warns about a chunk above that limit (a benign
   * error) and then allocates all its declared length, up to 2 GiB for a
   * 41-byte file, for a zTXt, iTXt or iCCP it reads whole. Every chunk but
   * IHDR, PLTE, tRNS, IDAT and IEND is skipped unread instead: none of
   * them changes the pixels as Latent reads them (no gamma is applied). */
  png_set_keep_unknown_chunks (r.png, PNG_HANDLE_CHUNK_NEVER, NULL, -1);

  if (png_decode (&r))
    dataset = g_steal_pointer (&r.dataset);
  else if (r.error != NULL)
    g_propagate_error (error, g_steal_pointer (&r.error));
  else if (feof (r.fp))
    g_set_error (error, LATENT_DATA_ERROR, LATENT_DATA_ERROR_PARSE,
                 _("%s: truncated PNG (libpng: %s)"), path, r.message ? r.message : _("unknown error"));
  else
    g_set_error (error, LATENT_DATA_ERROR, LATENT_DATA_ERROR_PARSE,
                 _("%s: corrupt PNG (libpng: %s)"), path, r.message ? r.message : _("unknown error"));

  if (dataset != NULL)
    latent_dataset_set_source (dataset, path);

out:
  png_reader_clear (&r);
  return dataset;
}
