/* latent-test-files.h — a scratch folder per test, removed after it
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <glib.h>
#include <glib/gstdio.h>

typedef struct {
  char *dir;
} Fixture;

static void
fixture_setup (Fixture       *f,
               gconstpointer  data)
{
  g_autoptr(GError) error = NULL;

  f->dir = g_dir_make_tmp ("latent-test-XXXXXX", &error);
  g_assert_no_error (error);
}

/* A folder the test made, with its files and folders. */
static void
remove_tree (const char *folder)
{
  g_autoptr(GDir) dir = g_dir_open (folder, 0, NULL);
  const char *name;

  while (dir && (name = g_dir_read_name (dir)) != NULL)
    {
      g_autofree char *path = g_build_filename (folder, name, NULL);

      if (g_file_test (path, G_FILE_TEST_IS_DIR))
        remove_tree (path);
      else
        g_assert_cmpint (g_unlink (path), ==, 0);
    }
  g_assert_cmpint (g_rmdir (folder), ==, 0);
}

static void
fixture_teardown (Fixture       *f,
                  gconstpointer  data)
{
  remove_tree (f->dir);
  g_free (f->dir);
}

#define ADD(path, func) \
  g_test_add (path, Fixture, NULL, fixture_setup, func, fixture_teardown)

/* @name in the test's folder, holding @len bytes of @data; a new path. */
G_GNUC_UNUSED static char *
write_file (Fixture      *f,
            const char   *name,
            const void   *data,
            gsize         len)
{
  g_autoptr(GError) error = NULL;
  char *path = g_build_filename (f->dir, name, NULL);

  g_file_set_contents (path, data, len, &error);
  g_assert_no_error (error);
  return path;
}
