/* latent-memory.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#define G_LOG_DOMAIN "latent-memory"

#include "latent-memory.h"
#include "latent-dataset.h"

#include <glib/gi18n-lib.h>
#include <math.h>
#include <unistd.h>

/* 0: the default. Set before runs start (the CLI's options, the window's
 * settings); a 64-bit load is whole on every machine Latent builds for. */
static guint64 budget;

static guint64
machine_memory (void)
{
  long pages = sysconf (_SC_PHYS_PAGES), size = sysconf (_SC_PAGESIZE);

  return pages > 0 && size > 0 ? (guint64) pages * size : (guint64) 4 << 30;
}

guint64
latent_memory_budget (void)
{
  const char *env = g_getenv ("LATENT_MEMORY");
  guint64 bytes;

  if (env != NULL && latent_memory_parse (env, "LATENT_MEMORY", &bytes, NULL))
    return bytes;
  return budget > 0 ? budget : machine_memory () / 2;
}

void
latent_memory_set_budget (guint64 bytes)
{
  budget = bytes;
}

gboolean
latent_memory_parse (const char  *text,
                     const char  *what,
                     guint64     *bytes,
                     GError     **error)
{
  static const struct { const char *unit; double factor; } units[] = {
    { "", 1 }, { "B", 1 },
    { "K", 1024.0 }, { "KB", 1024.0 }, { "KIB", 1024.0 },
    { "M", 1048576.0 }, { "MB", 1048576.0 }, { "MIB", 1048576.0 },
    { "G", 1073741824.0 }, { "GB", 1073741824.0 }, { "GIB", 1073741824.0 },
    { "T", 1099511627776.0 }, { "TB", 1099511627776.0 }, { "TIB", 1099511627776.0 },
  };
  g_autofree char *unit = NULL, *rest = NULL;
  char *end = NULL;
  double value;

  g_return_val_if_fail (text != NULL && bytes != NULL, FALSE);

  value = g_ascii_strtod (text, &end);
  if (end != text)
    {
      rest = g_strdup (end);
      unit = g_ascii_strup (g_strstrip (rest), -1);
      for (guint i = 0; i < G_N_ELEMENTS (units); i++)
        if (g_str_equal (unit, units[i].unit) && isfinite (value) && value * units[i].factor >= 1 &&
            value * units[i].factor < 9.2e18)
          {
            *bytes = (guint64) (value * units[i].factor);
            return TRUE;
          }
    }
  /* Translators: the option or setting, then what was given */
  g_set_error (error, LATENT_DATA_ERROR, LATENT_DATA_ERROR_INVALID,
               _("%s: “%s” is not a size: give bytes, or a number with K, M, G or T (as 512M or 4G)"),
               what, text);
  return FALSE;
}

guint
latent_memory_chunk_rows (guint64 row_bytes)
{
  guint64 chunk = MIN (latent_memory_budget () / LATENT_MEMORY_CHUNK_PART, LATENT_MEMORY_MAX_CHUNK);

  return (guint) CLAMP (chunk / MAX (row_bytes, 1), 1, G_MAXUINT);
}
