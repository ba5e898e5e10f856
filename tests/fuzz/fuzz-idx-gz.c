/* fuzz-idx-gz.c — libFuzzer harness: an IDX file compressed with gzip: the
 * input is the IDX content, compressed before it is written, so that the
 * fuzzer mutates what the decompressor yields
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#define G_LOG_DOMAIN "latent-fuzz"

#include "fuzz-common.h"

#include <gio/gio.h>

#include "latent-idx.h"

/* @data as a gzip stream; the compressor is reset and kept. */
static GByteArray *
gzip (const uint8_t *data,
      size_t         size)
{
  static GConverter *compressor;
  GByteArray *out = g_byte_array_new ();
  gsize read_total = 0;
  GConverterResult result;

  if (compressor == NULL)
    compressor = G_CONVERTER (g_zlib_compressor_new (G_ZLIB_COMPRESSOR_FORMAT_GZIP, 1));
  g_converter_reset (compressor);
  do
    {
      guint8 buffer[16384];
      gsize bytes_read = 0, bytes_written = 0;
      g_autoptr(GError) error = NULL;

      result = g_converter_convert (compressor, data + read_total, size - read_total, buffer,
                                    sizeof buffer, G_CONVERTER_INPUT_AT_END, &bytes_read, &bytes_written,
                                    &error);
      if (result == G_CONVERTER_ERROR)
        g_error ("gzip: %s", error->message);
      read_total += bytes_read;
      g_byte_array_append (out, buffer, bytes_written);
    }
  while (result != G_CONVERTER_FINISHED);
  return out;
}

int
LLVMFuzzerTestOneInput (const uint8_t *data,
                        size_t         size)
{
  g_autoptr(GByteArray) compressed = gzip (data, size);
  const char *path = latent_fuzz_write (".idx.gz", compressed->data, compressed->len);
  g_autoptr(LatentDataset) dataset = NULL;
  g_autoptr(GError) error = NULL, labels_error = NULL;
  g_autofree gint32 *labels = NULL;
  guint n_labels = 0;

  dataset = latent_idx_load (path, NULL, &error);
  g_assert_true ((dataset == NULL) != (error == NULL));
  latent_fuzz_report (error);
  labels = latent_idx_load_labels (path, &n_labels, &labels_error);
  g_assert_true ((labels == NULL) != (labels_error == NULL));
  latent_fuzz_report (labels_error);
  return 0;
}
