/* latent-json.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#define G_LOG_DOMAIN "latent-json"

#include "latent-json.h"

#include <math.h>

void
latent_json_add_double (JsonBuilder *builder,
                        double       value)
{
  char buf[G_ASCII_DTOSTR_BUF_SIZE];

  g_return_if_fail (JSON_IS_BUILDER (builder));

  if (!isfinite (value))
    {
      json_builder_add_null_value (builder);
      return;
    }
  g_ascii_dtostr (buf, sizeof buf, value);
  if (strpbrk (buf, "eE") && !strchr (buf, '.'))
    value = nextafter (value, 0);
  json_builder_add_double_value (builder, value);
}
