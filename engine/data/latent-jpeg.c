/* latent-jpeg.c — a JPEG photograph as a single-image dataset, one row per pixel
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#define G_LOG_DOMAIN "latent-jpeg"

#include "latent-jpeg.h"
#include "latent-file.h"
#include "latent-png.h"

#include <setjmp.h>
#include <stdio.h>
#include <string.h>
#include <glib/gi18n-lib.h>
#include <jpeglib.h>
#include <jerror.h>

typedef struct {
  struct jpeg_error_mgr pub;
  jmp_buf               jump;
  char                  message[JMSG_LENGTH_MAX];
} JpegErrors;

typedef struct {
  const char                   *path;
  char                         *basename;
  FILE                         *fp;
  goffset                       file_size;
  struct jpeg_decompress_struct cinfo;
  gboolean                      created;
  JpegErrors                    errors;
  struct jpeg_progress_mgr      progress;
  GError                       *error;     /* our own, set inside jpeg_decode () */
  LatentDataset                *dataset;
  JSAMPLE                      *row;
  guint                         orientation;   /* EXIF's, 1–8 */
} JpegReader;

static void
jpeg_reader_clear (JpegReader *r)
{
  if (r->created)
    jpeg_destroy_decompress (&r->cinfo);
  if (r->fp != NULL)
    fclose (r->fp);
  g_free (r->basename);
  g_clear_error (&r->error);
  g_clear_object (&r->dataset);
  g_free (r->row);
}

/* libjpeg's default ends the process; this returns to jpeg_decode (). */
static void
on_jpeg_error (j_common_ptr cinfo)
{
  JpegErrors *errors = (JpegErrors *) cinfo->err;

  errors->pub.format_message (cinfo, errors->message);
  longjmp (errors->jump, 1);
}

/* A file that ends early is only a warning to libjpeg, which fills the
 * rest with grey: refused here, as a truncated PNG is. Other warnings
 * (stray bytes between markers, common in cameras' files) spoil nothing. */
static void
on_jpeg_message (j_common_ptr cinfo,
                 int          level)
{
  char text[JMSG_LENGTH_MAX];

  if (level < 0 && cinfo->err->msg_code == JWRN_JPEG_EOF)
    on_jpeg_error (cinfo);
  if (level < 0)
    {
      cinfo->err->format_message (cinfo, text);
      g_debug ("%s", text);
    }
}

/* A progressive file may hold any number of scans, and each costs a pass
 * over the whole image: 32,000 scans in 1 MB took a minute (issue 35).
 * Encoders write about ten; ImageMagick stops at about a thousand. */
#define LATENT_JPEG_MAX_SCANS 1000

/* libjpeg calls this as it reads; it counts the scans, as djpeg -maxscans does. */
static void
on_jpeg_progress (j_common_ptr common)
{
  j_decompress_ptr cinfo = (j_decompress_ptr) common;
  JpegReader *r = common->client_data;

  if (cinfo->input_scan_number > LATENT_JPEG_MAX_SCANS)
    {
      g_set_error (&r->error, LATENT_DATA_ERROR, LATENT_DATA_ERROR_TOO_LARGE,
                   _("%s: more than %d scans, above the limit for a progressive JPEG"), r->path,
                   LATENT_JPEG_MAX_SCANS);
      longjmp (r->errors.jump, 1);
    }
}

static guint
read16 (const JOCTET *p,
        gboolean      little)
{
  return little ? p[0] | p[1] << 8 : p[0] << 8 | p[1];
}

static guint32
read32 (const JOCTET *p,
        gboolean      little)
{
  return little ? read16 (p, TRUE) | (guint32) read16 (p + 2, TRUE) << 16
                : (guint32) read16 (p, FALSE) << 16 | read16 (p + 2, FALSE);
}

/* How a camera says the picture is to be turned: the EXIF Orientation
 * (1–8) of an APP1 marker, 1 when it has none or cannot be read. */
static guint
exif_orientation (const JOCTET *data,
                  guint         len)
{
  gboolean little;
  guint32 ifd;

  if (len < 14 || memcmp (data, "Exif\0\0", 6) != 0)
    return 1;
  data += 6, len -= 6;   /* offsets count from the TIFF header */
  if (memcmp (data, "II", 2) != 0 && memcmp (data, "MM", 2) != 0)
    return 1;
  little = data[0] == 'I';
  ifd = read32 (data + 4, little);
  if (read16 (data + 2, little) != 42 || ifd > len - 2)
    return 1;
  for (guint i = 0, n = read16 (data + ifd, little); i < n; i++)
    {
      guint64 entry = ifd + 2 + 12 * (guint64) i;

      if (entry + 12 > len)
        return 1;
      /* Tag 0x0112, one SHORT, its value in the entry itself. */
      if (read16 (data + entry, little) == 0x0112 && read16 (data + entry + 2, little) == 3)
        {
          guint orientation = read16 (data + entry + 8, little);

          return orientation >= 1 && orientation <= 8 ? orientation : 1;
        }
    }
  return 1;
}

/* Where pixel (x, y) of a w × h image as stored goes in the picture as it
 * is meant to be seen (orientations 5–8 are h wide). */
static inline void
orient (guint  orientation,
        guint  x,
        guint  y,
        guint  w,
        guint  h,
        guint *ox,
        guint *oy)
{
  switch (orientation)
    {
    case 2: *ox = w - 1 - x, *oy = y; break;           /* mirrored */
    case 3: *ox = w - 1 - x, *oy = h - 1 - y; break;   /* upside down */
    case 4: *ox = x, *oy = h - 1 - y; break;
    case 5: *ox = y, *oy = x; break;
    case 6: *ox = h - 1 - y, *oy = x; break;           /* turned a quarter clockwise to see */
    case 7: *ox = h - 1 - y, *oy = w - 1 - x; break;
    case 8: *ox = y, *oy = w - 1 - x; break;           /* a quarter anticlockwise */
    default: *ox = x, *oy = y; break;
    }
}

/* Everything that can longjmp happens here, and all state lives in @r. */
static gboolean
jpeg_decode (JpegReader *r)
{
  struct jpeg_decompress_struct *cinfo = &r->cinfo;
  guint width, height, out_width;
  float *values;
  guint channels;

  if (setjmp (r->errors.jump))
    return FALSE;

  jpeg_create_decompress (cinfo);
  r->created = TRUE;
  cinfo->client_data = r;
  r->progress.progress_monitor = on_jpeg_progress;
  cinfo->progress = &r->progress;
  jpeg_stdio_src (cinfo, r->fp);
  jpeg_save_markers (cinfo, JPEG_APP0 + 1, 0xFFFF);
  jpeg_read_header (cinfo, TRUE);
  r->orientation = 1;
  for (jpeg_saved_marker_ptr m = cinfo->marker_list; m != NULL && r->orientation == 1; m = m->next)
    r->orientation = exif_orientation (m->data, m->data_length);

  if ((guint64) cinfo->image_width * cinfo->image_height > LATENT_PNG_MAX_PIXELS)
    {
      g_set_error (&r->error, LATENT_DATA_ERROR, LATENT_DATA_ERROR_TOO_LARGE,
                   _("%s: %u × %u pixels is above the limit of 8192 × 8192"), r->path,
                   cinfo->image_width, cinfo->image_height);
      return FALSE;
    }
  /* Each 8 × 8 block of the sharpest component costs a Huffman-coded file
   * at least a bit (an arithmetic-coded one far less): a small file that
   * declares a large image is lying, and is refused before anything the
   * image's size is allocated. */
  if ((guint64) ((cinfo->image_width + 7) / 8) * ((cinfo->image_height + 7) / 8) >
      (guint64) r->file_size * 8 * (cinfo->arith_code ? 64 : 1))
    {
      g_set_error (&r->error, LATENT_DATA_ERROR, LATENT_DATA_ERROR_PARSE,
                   _("%s: declares %u × %u pixels, more than its %lld bytes can hold"), r->path,
                   cinfo->image_width, cinfo->image_height, (long long) r->file_size);
      return FALSE;
    }
  switch (cinfo->jpeg_color_space)
    {
    case JCS_GRAYSCALE:
      cinfo->out_color_space = JCS_GRAYSCALE;
      break;
    case JCS_CMYK:
    case JCS_YCCK:
      g_set_error (&r->error, LATENT_DATA_ERROR, LATENT_DATA_ERROR_UNSUPPORTED,
                   _("%s: a CMYK JPEG (for print); save it as RGB or as PNG"), r->path);
      return FALSE;
    default:
      cinfo->out_color_space = JCS_RGB;
      break;
    }
  jpeg_start_decompress (cinfo);
  channels = cinfo->output_components;
  width = cinfo->output_width;
  height = cinfo->output_height;
  out_width = r->orientation >= 5 ? height : width;
  g_return_val_if_fail (channels == 1 || channels == 3, FALSE);

  r->dataset = latent_dataset_new (r->basename, width * height, channels, &r->error);
  if (r->dataset == NULL)
    return FALSE;
  r->row = g_try_malloc ((gsize) cinfo->output_width * channels);
  if (r->row == NULL)
    {
      g_set_error (&r->error, LATENT_DATA_ERROR, LATENT_DATA_ERROR_TOO_LARGE,
                   _("%s: not enough memory for %u × %u pixels"), r->path,
                   cinfo->output_width, cinfo->output_height);
      return FALSE;
    }

  /* Each row as stored goes where the camera's orientation puts it. */
  values = latent_dataset_get_data (r->dataset);
  while (cinfo->output_scanline < height)
    {
      guint y = cinfo->output_scanline;

      jpeg_read_scanlines (cinfo, &r->row, 1);
      for (guint x = 0; x < width; x++)
        {
          guint ox, oy;

          orient (r->orientation, x, y, width, height, &ox, &oy);
          for (guint c = 0; c < channels; c++)
            values[((gsize) oy * out_width + ox) * channels + c] = r->row[(gsize) x * channels + c] / 255.0f;
        }
    }
  jpeg_finish_decompress (cinfo);

  latent_dataset_set_image_shape (r->dataset, out_width, width * height / out_width, channels, TRUE);
  latent_dataset_set_bit_depth (r->dataset, 8);
  latent_dataset_name_channels (r->dataset);
  return TRUE;
}

LatentDataset *
latent_jpeg_load (const char  *path,
                  GError     **error)
{
  JpegReader r = { 0 };
  LatentDataset *dataset = NULL;
  guchar head[3];

  g_return_val_if_fail (path != NULL, NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  r.path = path;
  r.basename = g_path_get_basename (path);
  if (!(r.fp = latent_file_fopen (path, &r.file_size, error)))
    goto out;
  if (r.file_size == 0)
    {
      g_set_error (error, LATENT_DATA_ERROR, LATENT_DATA_ERROR_EMPTY, _("%s: empty file"), path);
      goto out;
    }
  /* Every JPEG starts with a start-of-image marker and another marker. */
  if (fread (head, 1, sizeof head, r.fp) != sizeof head || head[0] != 0xFF || head[1] != 0xD8 || head[2] != 0xFF)
    {
      g_set_error (error, LATENT_DATA_ERROR, LATENT_DATA_ERROR_PARSE, _("%s: not a JPEG file (bad signature)"),
                   path);
      goto out;
    }
  rewind (r.fp);

  r.cinfo.err = jpeg_std_error (&r.errors.pub);
  r.errors.pub.error_exit = on_jpeg_error;
  r.errors.pub.emit_message = on_jpeg_message;
  if (jpeg_decode (&r))
    dataset = g_steal_pointer (&r.dataset);
  else if (r.error != NULL)
    g_propagate_error (error, g_steal_pointer (&r.error));
  else if (r.errors.pub.msg_code == JWRN_JPEG_EOF)
    g_set_error (error, LATENT_DATA_ERROR, LATENT_DATA_ERROR_PARSE, _("%s: truncated JPEG (libjpeg: %s)"),
                 path, r.errors.message);
  else
    g_set_error (error, LATENT_DATA_ERROR, LATENT_DATA_ERROR_PARSE, _("%s: corrupt JPEG (libjpeg: %s)"),
                 path, r.errors.message);

  if (dataset != NULL)
    latent_dataset_set_source (dataset, path);

out:
  jpeg_reader_clear (&r);
  return dataset;
}
