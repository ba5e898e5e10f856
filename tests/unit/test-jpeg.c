/* test-jpeg.c — the JPEG loader: colour, grey and progressive photographs,
 * and the files it refuses
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#define G_LOG_DOMAIN "test-jpeg"

#include <stdio.h>
#include <string.h>
#include <glib/gstdio.h>
#include <jpeglib.h>

#include "latent-catalog.h"
#include "latent-jpeg.h"
#include "latent-test-files.h"

#define W 24
#define H 16

/* The test picture: a red block on the left, then a blue that darkens
 * downwards: every 8 × 8 block is flat, which JPEG keeps nearly exact. */
static void
picture (guint   x,
         guint   y,
         guchar  rgb[3])
{
  rgb[0] = x < 8 ? 220 : 0;
  rgb[1] = 30;
  rgb[2] = x < 8 ? 40 : (y < 8 ? 200 : 120);
}

/* An APP1 marker's EXIF data: a TIFF header, then an IFD of one entry,
 * Orientation (0x0112, one SHORT) = @value, in either byte order. */
static guint
exif (guchar   out[32],
      gboolean little,
      guint    value)
{
  static const guchar big[32] = {
    'E', 'x', 'i', 'f', 0, 0, 'M', 'M', 0, 42, 0, 0, 0, 8,
    0, 1, 0x01, 0x12, 0, 3, 0, 0, 0, 1, 0, 0, 0, 0, 0, 0, 0, 0,
  };
  static const guchar small[32] = {
    'E', 'x', 'i', 'f', 0, 0, 'I', 'I', 42, 0, 8, 0, 0, 0,
    1, 0, 0x12, 0x01, 3, 0, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
  };

  memcpy (out, little ? small : big, 32);
  out[little ? 24 : 25] = value;
  return 32;
}

/* A JPEG of the picture in @space (JCS_RGB, JCS_GRAYSCALE or JCS_CMYK),
 * progressive or not, with an EXIF marker when @marker is given, as
 * bytes. */
static GBytes *
encode_with (J_COLOR_SPACE  space,
             gboolean       progressive,
             const guchar  *marker,
             guint          marker_len)
{
  struct jpeg_compress_struct cinfo;
  struct jpeg_error_mgr jerr;
  unsigned char *out = NULL;
  unsigned long size = 0;
  const int components = space == JCS_GRAYSCALE ? 1 : space == JCS_CMYK ? 4 : 3;
  JSAMPLE row[W * 4];
  GBytes *bytes;

  cinfo.err = jpeg_std_error (&jerr);
  jpeg_create_compress (&cinfo);
  jpeg_mem_dest (&cinfo, &out, &size);
  cinfo.image_width = W;
  cinfo.image_height = H;
  cinfo.input_components = components;
  cinfo.in_color_space = space;
  jpeg_set_defaults (&cinfo);
  jpeg_set_quality (&cinfo, 95, TRUE);
  /* No chroma subsampling, so colour changes at block edges stay sharp. */
  for (int c = 0; c < cinfo.num_components; c++)
    cinfo.comp_info[c].h_samp_factor = cinfo.comp_info[c].v_samp_factor = 1;
  if (progressive)
    jpeg_simple_progression (&cinfo);
  jpeg_start_compress (&cinfo, TRUE);
  if (marker != NULL)
    jpeg_write_marker (&cinfo, JPEG_APP0 + 1, marker, marker_len);
  while (cinfo.next_scanline < H)
    {
      JSAMPROW rows[1] = { row };

      for (guint x = 0; x < W; x++)
        {
          guchar rgb[3];

          picture (x, cinfo.next_scanline, rgb);
          if (components == 1)
            row[x] = rgb[2];
          else
            for (int c = 0; c < components; c++)
              row[x * components + c] = c < 3 ? rgb[c] : 0;
        }
      jpeg_write_scanlines (&cinfo, rows, 1);
    }
  jpeg_finish_compress (&cinfo);
  jpeg_destroy_compress (&cinfo);
  bytes = g_bytes_new (out, size);
  free (out);
  return bytes;
}

static GBytes *
encode (J_COLOR_SPACE space,
        gboolean      progressive)
{
  return encode_with (space, progressive, NULL, 0);
}

static char *
write_jpeg (Fixture      *f,
            const char   *name,
            J_COLOR_SPACE space,
            gboolean      progressive)
{
  g_autoptr(GBytes) bytes = encode (space, progressive);

  return write_file (f, name, g_bytes_get_data (bytes, NULL), g_bytes_get_size (bytes));
}

/* Every pixel within a few levels of the picture, as an EXIF
 * @orientation says to turn it: pixel (x, y) of what is seen is (sx, sy)
 * as stored. */
static void
assert_turned (LatentDataset *dataset,
               guint          channels,
               guint          orientation)
{
  guint w, h, ch;
  gboolean single;
  const float *values = latent_dataset_get_data (dataset);

  g_assert_true (latent_dataset_get_image_shape (dataset, &w, &h, &ch, &single));
  g_assert_cmpuint (w, ==, orientation >= 5 ? H : W);
  g_assert_cmpuint (h, ==, orientation >= 5 ? W : H);
  g_assert_cmpuint (ch, ==, channels);
  g_assert_true (single);
  g_assert_cmpuint (latent_dataset_get_n_rows (dataset), ==, W * H);
  g_assert_cmpuint (latent_dataset_get_n_cols (dataset), ==, channels);
  g_assert_cmpuint (latent_dataset_get_bit_depth (dataset), ==, 8);
  for (guint y = 0; y < h; y++)
    for (guint x = 0; x < w; x++)
      {
        const guint sources[9][2] = {
          { 0, 0 }, { x, y }, { W - 1 - x, y }, { W - 1 - x, H - 1 - y }, { x, H - 1 - y },
          { y, x }, { y, H - 1 - x }, { W - 1 - y, H - 1 - x }, { W - 1 - y, x },
        };
        guchar rgb[3];

        picture (sources[orientation][0], sources[orientation][1], rgb);
        for (guint c = 0; c < channels; c++)
          g_assert_cmpfloat_with_epsilon (values[((gsize) y * w + x) * channels + c],
                                          rgb[channels == 1 ? 2 : c] / 255.0f, 12 / 255.0f);
      }
}

static void
assert_picture (LatentDataset *dataset,
                guint          channels)
{
  assert_turned (dataset, channels, 1);
}

static void
test_rgb (Fixture       *f,
          gconstpointer  data)
{
  g_autofree char *path = write_jpeg (f, "photo.jpg", JCS_RGB, FALSE);
  g_autoptr(GError) error = NULL;
  g_autoptr(LatentDataset) dataset = latent_jpeg_load (path, &error);

  g_assert_no_error (error);
  assert_picture (dataset, 3);
  g_assert_cmpstr (latent_dataset_get_name (dataset), ==, "photo.jpg");
  g_assert_cmpstr (latent_dataset_get_source (dataset), ==, path);
  g_assert_cmpstr (latent_dataset_get_column_name (dataset, 0), ==, "red");
  g_assert_cmpstr (latent_dataset_get_column_name (dataset, 2), ==, "blue");
}

static void
test_grey_and_progressive (Fixture       *f,
                           gconstpointer  data)
{
  g_autofree char *grey = write_jpeg (f, "grey.jpeg", JCS_GRAYSCALE, FALSE);
  g_autofree char *progressive = write_jpeg (f, "progressive.jpg", JCS_RGB, TRUE);
  g_autoptr(GError) error = NULL;
  g_autoptr(LatentDataset) a = latent_jpeg_load (grey, &error);
  g_autoptr(LatentDataset) b = NULL;

  g_assert_no_error (error);
  assert_picture (a, 1);
  g_assert_cmpstr (latent_dataset_get_column_name (a, 0), ==, "grey");
  b = latent_jpeg_load (progressive, &error);
  g_assert_no_error (error);
  assert_picture (b, 3);
}

/* A camera's EXIF orientation turns the picture, in either byte order; an
 * unreadable EXIF block leaves it as stored. */
static void
test_orientation (Fixture       *f,
                  gconstpointer  data)
{
  for (guint orientation = 1; orientation <= 9; orientation++)
    {
      guchar marker[32];
      guint len = exif (marker, orientation % 2 == 0, orientation == 9 ? 6 : orientation);
      g_autoptr(GBytes) bytes = NULL;
      g_autofree char *path = NULL;
      g_autoptr(GError) error = NULL;
      g_autoptr(LatentDataset) dataset = NULL;

      g_test_message ("orientation %u", orientation);
      /* 9: a TIFF header that is not one (43, not 42). */
      if (orientation == 9)
        marker[9] = 43;
      bytes = encode_with (JCS_RGB, FALSE, marker, len);
      path = write_file (f, "turned.jpg", g_bytes_get_data (bytes, NULL), g_bytes_get_size (bytes));
      dataset = latent_jpeg_load (path, &error);
      g_assert_no_error (error);
      assert_turned (dataset, 3, orientation == 9 ? 1 : orientation);
    }
}

/* The catalog knows a JPEG by its first bytes, whatever its name says, and
 * by .jpg or .JPEG. */
static void
test_catalog (Fixture       *f,
              gconstpointer  data)
{
  g_autofree char *upper = write_jpeg (f, "CAMERA.JPG", JCS_RGB, FALSE);
  g_autofree char *unnamed = write_jpeg (f, "picture", JCS_RGB, FALSE);
  g_autofree char *fake = write_file (f, "fake.jpeg", "a,b\n1,2\n", 8);
  g_autoptr(GError) error = NULL;
  g_autoptr(LatentDataset) a = latent_catalog_load (upper, NULL, &error);
  g_autoptr(LatentDataset) b = NULL, c = NULL;

  g_assert_no_error (error);
  assert_picture (a, 3);
  b = latent_catalog_load (unnamed, NULL, &error);
  g_assert_no_error (error);
  assert_picture (b, 3);
  c = latent_catalog_load (fake, NULL, &error);
  g_assert_null (c);
  g_assert_error (error, LATENT_DATA_ERROR, LATENT_DATA_ERROR_PARSE);
  g_assert_nonnull (strstr (error->message, "fake.jpeg: not a JPEG file"));
}

/* A progressive JPEG whose scan script sends every coefficient of every
 * component on its own, one bit at a time: a valid file of over two
 * thousand scans, each of which costs the decoder a pass over the image
 * (issue 35: 32,000 of them took a minute). */
static GBytes *
encode_many_scans (guint *n_scans)
{
  enum { BITS = 10 };   /* libjpeg's deepest successive approximation */
  struct jpeg_compress_struct cinfo;
  struct jpeg_error_mgr jerr;
  g_autofree jpeg_scan_info *scans = g_new0 (jpeg_scan_info, 3 * DCTSIZE2 * (BITS + 1));
  unsigned char *out = NULL;
  unsigned long size = 0;
  JSAMPLE row[W * 3];
  guint n = 0;
  GBytes *bytes;

  for (int c = 0; c < 3; c++)
    for (int k = 0; k < DCTSIZE2; k++)
      for (int al = BITS; al >= 0; al--)
        {
          jpeg_scan_info *s = &scans[n++];

          s->comps_in_scan = 1;
          s->component_index[0] = c;
          s->Ss = s->Se = k;
          s->Ah = al == BITS ? 0 : al + 1;
          s->Al = al;
        }

  cinfo.err = jpeg_std_error (&jerr);
  jpeg_create_compress (&cinfo);
  jpeg_mem_dest (&cinfo, &out, &size);
  cinfo.image_width = W;
  cinfo.image_height = H;
  cinfo.input_components = 3;
  cinfo.in_color_space = JCS_RGB;
  jpeg_set_defaults (&cinfo);
  cinfo.scan_info = scans;
  cinfo.num_scans = n;
  jpeg_start_compress (&cinfo, TRUE);
  while (cinfo.next_scanline < H)
    {
      JSAMPROW rows[1] = { row };

      for (guint x = 0; x < W; x++)
        picture (x, cinfo.next_scanline, &row[x * 3]);
      jpeg_write_scanlines (&cinfo, rows, 1);
    }
  jpeg_finish_compress (&cinfo);
  jpeg_destroy_compress (&cinfo);
  bytes = g_bytes_new (out, size);
  free (out);
  *n_scans = n;
  return bytes;
}

/* Scans are capped, as djpeg -maxscans does: the file is refused at
 * once, naming it, instead of taking minutes. */
static void
test_many_scans (Fixture       *f,
                 gconstpointer  data)
{
  guint n_scans;
  g_autoptr(GBytes) bytes = encode_many_scans (&n_scans);
  g_autofree char *path = write_file (f, "scans.jpg", g_bytes_get_data (bytes, NULL),
                                      g_bytes_get_size (bytes));
  g_autoptr(GError) error = NULL;
  g_autoptr(LatentDataset) dataset = NULL;

  g_test_message ("%u scans in %zu bytes", n_scans, g_bytes_get_size (bytes));
  g_assert_cmpuint (n_scans, >, 2000);
  dataset = latent_jpeg_load (path, &error);
  g_assert_null (dataset);
  g_assert_error (error, LATENT_DATA_ERROR, LATENT_DATA_ERROR_TOO_LARGE);
  g_test_message ("%s", error->message);
  g_assert_nonnull (strstr (error->message, "scans.jpg: more than 1000 scans"));
}

/* What the loader refuses, and says so naming the file. */
static void
test_refused (Fixture       *f,
              gconstpointer  data)
{
  g_autoptr(GBytes) bytes = encode (JCS_RGB, FALSE);
  gsize size;
  const guchar *good = g_bytes_get_data (bytes, &size);
  g_autofree guchar *lying = g_memdup2 (good, size);
  g_autofree char *cmyk = write_jpeg (f, "print.jpg", JCS_CMYK, FALSE);
  g_autofree char *truncated = write_file (f, "truncated.jpg", good, size / 2);
  g_autofree char *empty = write_file (f, "empty.jpg", "", 0);
  g_autofree char *lie = NULL, *huge = NULL;
  struct {
    const char *path;
    int         code;
    const char *words;
  } cases[] = {
    { cmyk, LATENT_DATA_ERROR_UNSUPPORTED, "print.jpg: a CMYK JPEG" },
    { truncated, LATENT_DATA_ERROR_PARSE, "truncated.jpg: truncated JPEG" },
    { empty, LATENT_DATA_ERROR_EMPTY, "empty.jpg: empty file" },
    { NULL, LATENT_DATA_ERROR_PARSE, "lying.jpg: declares 8000 × 8000 pixels, more than its" },
    { NULL, LATENT_DATA_ERROR_TOO_LARGE, "huge.jpg: 9000 × 9000 pixels is above the limit" },
  };

  /* The frame header (SOF0: FF C0, length, precision) gives the height,
   * then the width, big-endian. */
  for (gsize i = 0; i + 9 < size; i++)
    if (good[i] == 0xFF && good[i + 1] == 0xC0)
      {
        lying[i + 5] = lying[i + 7] = 8000 >> 8;
        lying[i + 6] = lying[i + 8] = 8000 & 0xFF;
        lie = write_file (f, "lying.jpg", lying, size);
        lying[i + 5] = lying[i + 7] = 9000 >> 8;
        lying[i + 6] = lying[i + 8] = 9000 & 0xFF;
        huge = write_file (f, "huge.jpg", lying, size);
        break;
      }
  g_assert_nonnull (lie);
  cases[3].path = lie;
  cases[4].path = huge;

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autoptr(GError) error = NULL;
      g_autoptr(LatentDataset) dataset = latent_jpeg_load (cases[i].path, &error);

      g_assert_null (dataset);
      g_test_message ("%s", error->message);
      g_assert_error (error, LATENT_DATA_ERROR, cases[i].code);
      g_assert_nonnull (strstr (error->message, cases[i].words));
    }
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);

  ADD ("/jpeg/rgb", test_rgb);
  ADD ("/jpeg/grey-and-progressive", test_grey_and_progressive);
  ADD ("/jpeg/orientation", test_orientation);
  ADD ("/jpeg/catalog", test_catalog);
  ADD ("/jpeg/refused", test_refused);
  ADD ("/jpeg/many-scans", test_many_scans);

  return g_test_run ();
}
