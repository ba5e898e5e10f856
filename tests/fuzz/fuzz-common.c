/* fuzz-common.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#define G_LOG_DOMAIN "latent-fuzz"

#include "fuzz-common.h"

#include <errno.h>
#include <stdlib.h>
#include <unistd.h>

#include <glib/gstdio.h>

typedef struct {
  char *suffix;
  char *path;
  int   fd;
} FuzzFile;

/* Few suffixes per process (one or two per harness): a list will do. */
static GPtrArray *files;

static void
remove_files (void)
{
  for (guint i = 0; files && i < files->len; i++)
    {
      FuzzFile *f = g_ptr_array_index (files, i);

      g_close (f->fd, NULL);
      g_unlink (f->path);
      g_free (f->path);
      g_free (f->suffix);
      g_free (f);
    }
  g_clear_pointer (&files, g_ptr_array_unref);
}

void
latent_fuzz_init (void)
{
  static gboolean done;

  if (done)
    return;
  done = TRUE;
  g_setenv ("LANGUAGE", "C", TRUE);
  /* The loaders' errors are expected output; a critical is not. */
  g_log_set_always_fatal (G_LOG_FATAL_MASK | G_LOG_LEVEL_CRITICAL);
  files = g_ptr_array_new ();
  atexit (remove_files);
}

static FuzzFile *
fuzz_file (const char *suffix)
{
  g_autofree char *tmpl = NULL;
  g_autoptr(GError) error = NULL;
  FuzzFile *f;

  latent_fuzz_init ();
  for (guint i = 0; i < files->len; i++)
    if (g_str_equal (((FuzzFile *) g_ptr_array_index (files, i))->suffix, suffix))
      return g_ptr_array_index (files, i);

  f = g_new0 (FuzzFile, 1);
  f->suffix = g_strdup (suffix);
  tmpl = g_strconcat ("latent-fuzz-XXXXXX", suffix, NULL);
  f->fd = g_file_open_tmp (tmpl, &f->path, &error);
  if (f->fd < 0)
    g_error ("cannot create the fuzz input file: %s", error->message);
  g_ptr_array_add (files, f);
  return f;
}

const char *
latent_fuzz_write (const char    *suffix,
                   const uint8_t *data,
                   size_t         size)
{
  FuzzFile *f = fuzz_file (suffix);
  size_t done = 0;

  /* In place: truncating and writing costs far less than a new file. */
  if (ftruncate (f->fd, 0) != 0)
    g_error ("%s: %s", f->path, g_strerror (errno));
  while (done < size)
    {
      ssize_t n = pwrite (f->fd, data + done, size - done, done);

      if (n < 0 && errno == EINTR)
        continue;
      if (n < 0)
        g_error ("%s: %s", f->path, g_strerror (errno));
      done += n;
    }
  return f->path;
}

void
latent_fuzz_report (const GError *error)
{
  static int verbose = -1;

  if (verbose < 0)
    verbose = g_getenv ("LATENT_FUZZ_VERBOSE") != NULL;
  if (verbose)
    g_printerr ("  %s\n", error ? error->message : "ok");
}
