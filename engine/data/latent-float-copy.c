/* latent-float-copy.c — streaming data whose values cannot be used where
 * they lie
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#define G_LOG_DOMAIN "latent-float-copy"

#include "latent-float-copy.h"

#include "latent-file.h"
#include "latent-memory.h"
#include "latent-npy.h"

#include <errno.h>
#include <fcntl.h>
#include <glib/gi18n-lib.h>
#include <glib/gstdio.h>
#include <math.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <unistd.h>

/* Changes when the copies' layout does: older ones are then not used. */
#define COPY_VERSION 1

gboolean
latent_float_copy_wanted (guint64 rows,
                          guint64 cols)
{
  return cols != 0 && rows > latent_memory_budget () / sizeof (float) / cols;
}

/* Where the copy of @path (as it is now) lives: a name that changes with
 * the source's size and time, so an edited source is copied again. */
static char *
copy_path (const char  *path,
           const char  *part,
           guint64      rows,
           guint        cols,
           char       **dir,
           GError     **error)
{
  g_autofree char *canonical = g_canonicalize_filename (path, NULL);
  g_autofree char *key = NULL;
  g_autofree char *digest = NULL;
  g_autofree char *stem = latent_file_stem (path);
  struct stat info;

  if (stat (path, &info) != 0)
    {
      int saved = errno;

      g_set_error (error, LATENT_DATA_ERROR, LATENT_DATA_ERROR_IO, "%s: %s", path, g_strerror (saved));
      return NULL;
    }
  key = g_strdup_printf ("%s\n%s\n%lld\n%lld.%09ld\n%" G_GUINT64_FORMAT "\n%u\n%d", canonical, part ? part : "",
                         (long long) info.st_size, (long long) info.st_mtim.tv_sec, (long) info.st_mtim.tv_nsec,
                         rows, cols, COPY_VERSION);
  digest = g_compute_checksum_for_string (G_CHECKSUM_SHA256, key, -1);
  *dir = g_build_filename (g_get_user_cache_dir (), "latent", "streams", NULL);
  if (g_mkdir_with_parents (*dir, 0700) != 0)
    {
      int saved = errno;

      g_set_error (error, LATENT_DATA_ERROR, LATENT_DATA_ERROR_IO, "%s: %s", *dir, g_strerror (saved));
      return NULL;
    }
  return g_strdup_printf ("%s/%s-%.16s.npy", *dir, stem, digest);
}

static gboolean
write_all (int            fd,
           const void    *data,
           gsize          n,
           const char    *path,
           GError       **error)
{
  const guint8 *at = data;

  while (n > 0)
    {
      gssize done = write (fd, at, n);

      if (done < 0 && errno == EINTR)
        continue;
      if (done < 0)
        {
          int saved = errno;

          g_set_error (error, LATENT_DATA_ERROR, LATENT_DATA_ERROR_IO, "%s: %s", path, g_strerror (saved));
          return FALSE;
        }
      at += done, n -= done;
    }
  return TRUE;
}

/* A .npy header (version 1.0) of @rows × @cols little-endian float32,
 * padded so the values start 64-byte aligned. */
static GString *
npy_header (guint64 rows,
            guint   cols)
{
  g_autoptr(GString) dict = g_string_new (NULL);
  GString *header = g_string_new_len ("\x93NUMPY\x01\x00", 8);
  guint16 len;

  g_string_printf (dict, "{'descr': '<f4', 'fortran_order': False, 'shape': (%" G_GUINT64_FORMAT ", %u), }",
                   rows, cols);
  while ((10 + dict->len + 1) % 64 != 0)
    g_string_append_c (dict, ' ');
  g_string_append_c (dict, '\n');
  len = GUINT16_TO_LE ((guint16) dict->len);
  g_string_append_len (header, (const char *) &len, 2);
  g_string_append_len (header, dict->str, dict->len);
  return header;
}

static gboolean
write_copy (const char           *copy,
            const char           *dir,
            const char           *path,
            guint64               rows,
            guint                 cols,
            LatentFloatCopyRead   read,
            gpointer              source,
            GError              **error)
{
  g_autoptr(GString) header = npy_header (rows, cols);
  g_autofree char *part = g_strconcat (copy, ".part", NULL);
  g_autofree float *buffer = NULL;
  const guint64 bytes = header->len + rows * cols * sizeof (float);
  const guint chunk = latent_memory_chunk_rows ((guint64) cols * sizeof (float));
  struct statvfs disk;
  gboolean ok = TRUE;
  int fd;

  if (statvfs (dir, &disk) == 0 && (guint64) disk.f_bavail * disk.f_frsize < bytes)
    {
      g_autofree char *need = g_format_size (bytes);
      g_autofree char *free_bytes = g_format_size ((guint64) disk.f_bavail * disk.f_frsize);

      g_set_error (error, LATENT_DATA_ERROR, LATENT_DATA_ERROR_TOO_LARGE,
                   _("%s: too large for the memory budget, and streaming it takes a float32 copy of %s in %s, "
                     "which has %s free"), path, need, dir, free_bytes);
      return FALSE;
    }
  if (!(buffer = g_try_malloc ((gsize) chunk * cols * sizeof (float))))
    {
      g_set_error (error, LATENT_DATA_ERROR, LATENT_DATA_ERROR_TOO_LARGE,
                   _("%s: no memory for a chunk of %u rows"), path, chunk);
      return FALSE;
    }
  if ((fd = g_open (part, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600)) < 0)
    {
      int saved = errno;

      g_set_error (error, LATENT_DATA_ERROR, LATENT_DATA_ERROR_IO, "%s: %s", part, g_strerror (saved));
      return FALSE;
    }
  ok = write_all (fd, header->str, header->len, part, error);
  for (guint64 first = 0; ok && first < rows; first += chunk)
    {
      const guint n = (guint) MIN ((guint64) chunk, rows - first);
      const gsize count = (gsize) n * cols;

      if (!(ok = read (source, first, n, buffer, error)))
        break;
      for (gsize j = 0; j < count; j++)
        if (!isfinite (buffer[j]))
          {
            g_set_error (error, LATENT_DATA_ERROR, LATENT_DATA_ERROR_NOT_FINITE,
                         _("%s: row %llu, column %u: not a finite number (%g)"),
                         path, (unsigned long long) (first + j / cols + 1), (guint) (j % cols) + 1, buffer[j]);
            ok = FALSE;
            break;
          }
      ok = ok && write_all (fd, buffer, count * sizeof (float), part, error);
      /* Written pages go to the disk, not on waiting in the page cache
       * beside the rows the run will read. */
      if (ok)
        posix_fadvise (fd, 0, 0, POSIX_FADV_DONTNEED);
    }
  if (g_close (fd, ok ? error : NULL) == FALSE)
    ok = FALSE;
  if (ok && g_rename (part, copy) != 0)
    {
      int saved = errno;

      g_set_error (error, LATENT_DATA_ERROR, LATENT_DATA_ERROR_IO, "%s: %s", copy, g_strerror (saved));
      ok = FALSE;
    }
  if (!ok)
    g_unlink (part);
  return ok;
}

LatentDataset *
latent_float_copy_stream (const char           *path,
                          const char           *part,
                          guint64               rows,
                          guint                 cols,
                          LatentFloatCopyRead   read,
                          gpointer              source,
                          GError              **error)
{
  g_autofree char *dir = NULL;
  g_autofree char *copy = NULL;
  g_autoptr(LatentDataset) dataset = NULL;

  g_return_val_if_fail (path != NULL && read != NULL, NULL);

  if (!(copy = copy_path (path, part, rows, cols, &dir, error)))
    return NULL;
  if (!g_file_test (copy, G_FILE_TEST_IS_REGULAR) &&
      !write_copy (copy, dir, path, rows, cols, read, source, error))
    return NULL;
  if (!(dataset = latent_npy_load (copy, error)))
    return NULL;
  latent_dataset_set_source (dataset, path);
  latent_dataset_set_stream_copy (dataset, copy);
  return g_steal_pointer (&dataset);
}
