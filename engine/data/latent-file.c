/* latent-file.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#define G_LOG_DOMAIN "latent-file"

#include "latent-file.h"

#include <errno.h>
#include <fcntl.h>
#include <glib/gi18n-lib.h>
#include <glib/gstdio.h>
#include <sys/stat.h>
#include <unistd.h>

#include "latent-dataset.h"

/* Below this a copy is cheaper than a mapping. */
#define MAP_FROM_BYTES (1 << 20)

static const char *
describe_type (mode_t mode)
{
  if (S_ISDIR (mode))
    return _("a folder");
  if (S_ISFIFO (mode))
    return _("a pipe (FIFO)");
  if (S_ISCHR (mode) || S_ISBLK (mode))
    return _("a device");
  if (S_ISSOCK (mode))
    return _("a socket");
  return _("not a regular file");
}

int
latent_file_open (const char  *path,
                  goffset     *size,
                  GError     **error)
{
  g_autofree char *display = g_filename_display_name (path);
  struct stat st;
  int fd;

  /* Non-blocking, so that opening a FIFO with no writer returns at once;
   * a regular file reads the same either way. */
  fd = g_open (path, O_RDONLY | O_CLOEXEC | O_NOCTTY | O_NONBLOCK, 0);
  if (fd < 0)
    {
      int saved = errno;

      g_set_error (error, LATENT_DATA_ERROR, LATENT_DATA_ERROR_IO, "%s: %s", display, g_strerror (saved));
      return -1;
    }
  if (fstat (fd, &st) != 0)
    {
      int saved = errno;

      g_close (fd, NULL);
      g_set_error (error, LATENT_DATA_ERROR, LATENT_DATA_ERROR_IO, "%s: %s", display, g_strerror (saved));
      return -1;
    }
  if (!S_ISREG (st.st_mode))
    {
      g_close (fd, NULL);
      /* Translators: the file, then what it is: "a device", "a folder" */
      g_set_error (error, LATENT_DATA_ERROR, LATENT_DATA_ERROR_IO, _("%s: this is %s, not a file to read"),
                   display, describe_type (st.st_mode));
      return -1;
    }
  fcntl (fd, F_SETFL, fcntl (fd, F_GETFL) & ~O_NONBLOCK);
  if (size)
    *size = st.st_size;
  return fd;
}

FILE *
latent_file_fopen (const char  *path,
                   goffset     *size,
                   GError     **error)
{
  int fd = latent_file_open (path, size, error);
  FILE *fp;

  if (fd < 0)
    return NULL;
  fp = fdopen (fd, "rb");
  if (fp == NULL)
    {
      int saved = errno;
      g_autofree char *display = g_filename_display_name (path);

      g_close (fd, NULL);
      g_set_error (error, LATENT_DATA_ERROR, LATENT_DATA_ERROR_IO, "%s: %s", display, g_strerror (saved));
    }
  return fp;
}

static GBytes *
read_file (const char  *path,
           gsize        max_bytes,
           const char  *what,
           gboolean     map,
           GError     **error)
{
  g_autofree char *display = g_filename_display_name (path);
  g_autofree char *contents = NULL;
  goffset size = 0;
  gsize done = 0;
  int fd = latent_file_open (path, &size, error);

  if (fd < 0)
    return NULL;
  if ((guint64) size > max_bytes)
    {
      g_autofree char *have = g_format_size (size), *limit = g_format_size (max_bytes);

      g_close (fd, NULL);
      /* Translators: the file, its size, what it should be, the limit */
      g_set_error (error, LATENT_DATA_ERROR, LATENT_DATA_ERROR_TOO_LARGE,
                   _("%s: %s is too large for %s (the limit is %s)"), display, have, what, limit);
      return NULL;
    }
  if (size >= MAP_FROM_BYTES || (map && size > 0))
    {
      g_autoptr(GError) local_error = NULL;
      /* Copy-on-write: a dataset may use the bytes as its values
       * (latent_dataset_new_for_bytes), and its changes stay in memory.
       * A file to stream is mapped read-only: a writable mapping counts
       * its whole size against the system's commitment, which refuses
       * one larger than memory (ENOMEM), and its values are never
       * written. */
      g_autoptr(GMappedFile) mapped = g_mapped_file_new_from_fd (fd, !map, &local_error);

      g_close (fd, NULL);
      if (mapped == NULL)
        {
          g_set_error (error, LATENT_DATA_ERROR, LATENT_DATA_ERROR_IO, "%s: %s", display, local_error->message);
          return NULL;
        }
      return g_mapped_file_get_bytes (mapped);
    }
  /* The size read is the size found: a file that grows is read as it was. */
  contents = g_malloc (size + 1);
  while (done < (gsize) size)
    {
      gssize got = read (fd, contents + done, size - done);

      if (got < 0 && errno == EINTR)
        continue;
      if (got < 0)
        {
          int saved = errno;

          g_close (fd, NULL);
          g_set_error (error, LATENT_DATA_ERROR, LATENT_DATA_ERROR_IO, "%s: %s", display, g_strerror (saved));
          return NULL;
        }
      if (got == 0)
        break;
      done += got;
    }
  g_close (fd, NULL);
  contents[done] = '\0';
  return g_bytes_new_take (g_steal_pointer (&contents), done);
}

GBytes *
latent_file_read (const char  *path,
                  gsize        max_bytes,
                  const char  *what,
                  GError     **error)
{
  return read_file (path, max_bytes, what, FALSE, error);
}

GBytes *
latent_file_map (const char  *path,
                 GError     **error)
{
  return read_file (path, G_MAXSIZE, NULL, TRUE, error);
}

char *
latent_file_stem (const char *path)
{
  char *base = g_path_get_basename (path);
  char *dot = strrchr (base, '.');

  if (dot != NULL && dot != base)
    *dot = '\0';
  return base;
}
