/* latent-test-npy.h — .npy files written byte by byte, as numpy.save
 * writes them, so the tests need no NumPy
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <string.h>

#include <glib.h>

/* A .npy file of @descr and @shape ("(3, 2)"), in Fortran order or C order,
 * holding @data. */
static inline GBytes *
test_npy (const char *descr,
          gboolean    fortran,
          const char *shape,
          const void *data,
          gsize       len)
{
  g_autofree char *dict = g_strdup_printf ("{'descr': '%s', 'fortran_order': %s, 'shape': %s, }", descr,
                                           fortran ? "True" : "False", shape);
  GByteArray *out = g_byte_array_new ();
  /* Padded with spaces and a newline to a multiple of 64, as NumPy does. */
  gsize header = strlen (dict) + 1, padded = (10 + header + 63) / 64 * 64 - 10;
  guint8 head[10] = { 0x93, 'N', 'U', 'M', 'P', 'Y', 1, 0, padded & 0xff, padded >> 8 };

  g_byte_array_append (out, head, sizeof head);
  g_byte_array_append (out, (const guint8 *) dict, strlen (dict));
  for (gsize i = header; i < padded; i++)
    g_byte_array_append (out, (const guint8 *) " ", 1);
  g_byte_array_append (out, (const guint8 *) "\n", 1);
  g_byte_array_append (out, data, len);
  return g_byte_array_free_to_bytes (out);
}
