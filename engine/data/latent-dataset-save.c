/* latent-dataset-save.c — the file a dataset writer writes: whole or not at all
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#define G_LOG_DOMAIN "latent-dataset-save"

#include "latent-dataset-save.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <sys/stat.h>
#include <unistd.h>
#include <glib/gi18n-lib.h>
#include <glib/gstdio.h>

struct _LatentSaveFile
{
  char     *path;
  char     *temp;       /* NULL when writing in place */
  FILE     *fp;
  gboolean  replacing;  /* @path existed: sync before the rename */
  gboolean  committed;
};

/* Whether @path leads to the file standard output writes to (/dev/stdout,
 * /dev/fd/1, a link to either). */
static gboolean
is_standard_output (const char *path)
{
  GStatBuf target;
  struct stat out;

  return g_stat (path, &target) == 0 && fstat (STDOUT_FILENO, &out) == 0 &&
         target.st_dev == out.st_dev && target.st_ino == out.st_ino;
}

LatentSaveFile *
latent_save_file_open (const char  *path,
                       GError     **error)
{
  g_autoptr(LatentSaveFile) file = NULL;
  GStatBuf st;
  gboolean exists;

  g_return_val_if_fail (path != NULL, NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  file = g_new0 (LatentSaveFile, 1);
  file->path = g_strdup (path);

  /* lstat: /dev/stdout is a link, and must be written through, not replaced. */
  exists = g_lstat (path, &st) == 0;
  if (!exists || S_ISREG (st.st_mode))
    {
      int fd;

      /* Beside PATH, so the rename stays on one file system. */
      file->temp = g_strconcat (path, ".XXXXXX", NULL);
      fd = g_mkstemp_full (file->temp, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0666);
      if (fd < 0)
        {
          int saved = errno;

          g_set_error (error, LATENT_DATA_ERROR, LATENT_DATA_ERROR_IO,
                       _("%s: cannot create the file: %s"), path, g_strerror (saved));
          g_clear_pointer (&file->temp, g_free);
          return NULL;
        }
      /* A file replaced keeps who may read it. */
      if (exists)
        {
          file->replacing = TRUE;
          if (fchmod (fd, st.st_mode & 07777) != 0)
            g_debug ("%s: cannot keep the mode: %s", path, g_strerror (errno));
        }
      file->fp = fdopen (fd, "wb");
      if (file->fp == NULL)
        {
          int saved = errno;

          close (fd);
          g_set_error (error, LATENT_DATA_ERROR, LATENT_DATA_ERROR_IO,
                       _("%s: cannot create the file: %s"), path, g_strerror (saved));
          return NULL;
        }
    }
  else if (is_standard_output (path))
    {
      /* Reopened by path, it would be truncated (a log appended to with
       * >>), or not open at all (a socket); written through, it is not. */
      int fd = dup (STDOUT_FILENO);

      fflush (stdout);
      file->fp = fd >= 0 ? fdopen (fd, "wb") : NULL;
      if (file->fp == NULL)
        {
          int saved = errno;

          if (fd >= 0)
            close (fd);
          g_set_error (error, LATENT_DATA_ERROR, LATENT_DATA_ERROR_IO,
                       _("%s: cannot write the file: %s"), path, g_strerror (saved));
          return NULL;
        }
    }
  else
    {
      file->fp = g_fopen (path, "wb");
      if (file->fp == NULL)
        {
          int saved = errno;

          g_set_error (error, LATENT_DATA_ERROR, LATENT_DATA_ERROR_IO,
                       _("%s: cannot create the file: %s"), path, g_strerror (saved));
          return NULL;
        }
    }

  return g_steal_pointer (&file);
}

gboolean
latent_save_file_write (LatentSaveFile  *file,
                        const void      *data,
                        gsize            len,
                        GError         **error)
{
  g_return_val_if_fail (file != NULL && file->fp != NULL, FALSE);

  errno = 0;
  if (len > 0 && fwrite (data, 1, len, file->fp) != len)
    {
      int saved = errno ? errno : EIO;

      g_set_error (error, LATENT_DATA_ERROR, LATENT_DATA_ERROR_IO,
                   _("%s: cannot write the file: %s"), file->path, g_strerror (saved));
      return FALSE;
    }
  return TRUE;
}

gboolean
latent_save_file_close (LatentSaveFile  *file,
                        GError         **error)
{
  int saved = 0;

  g_return_val_if_fail (file != NULL, FALSE);

  if (file->fp == NULL)
    return TRUE;
  if (fflush (file->fp) != 0)
    saved = errno;
  /* Data on disk before the name points at it, as g_file_set_contents does. */
  if (saved == 0 && file->replacing && fsync (fileno (file->fp)) != 0)
    saved = errno;
  if (fclose (file->fp) != 0 && saved == 0)
    saved = errno;
  file->fp = NULL;
  if (saved != 0)
    {
      g_set_error (error, LATENT_DATA_ERROR, LATENT_DATA_ERROR_IO,
                   _("%s: cannot write the file: %s"), file->path, g_strerror (saved));
      return FALSE;
    }
  return TRUE;
}

gboolean
latent_save_file_commit (LatentSaveFile  *file,
                         GError         **error)
{
  g_return_val_if_fail (file != NULL && !file->committed, FALSE);

  if (!latent_save_file_close (file, error))
    return FALSE;
  if (file->temp != NULL && g_rename (file->temp, file->path) != 0)
    {
      int saved = errno;

      g_set_error (error, LATENT_DATA_ERROR, LATENT_DATA_ERROR_IO,
                   _("%s: cannot replace the file: %s"), file->path, g_strerror (saved));
      return FALSE;
    }
  file->committed = TRUE;
  return TRUE;
}

void
latent_save_file_free (LatentSaveFile *file)
{
  if (file == NULL)
    return;
  if (file->fp != NULL)
    fclose (file->fp);
  if (file->temp != NULL && !file->committed)
    g_unlink (file->temp);
  g_free (file->temp);
  g_free (file->path);
  g_free (file);
}

gboolean
latent_save_file_contents (const char  *path,
                           const void  *data,
                           gsize        len,
                           GError     **error)
{
  g_autoptr(LatentSaveFile) file = latent_save_file_open (path, error);

  return file && latent_save_file_write (file, data, len, error) && latent_save_file_commit (file, error);
}
