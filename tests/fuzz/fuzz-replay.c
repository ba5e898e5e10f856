/* fuzz-replay.c — a main () for a fuzz harness where libFuzzer is not
 * linked (gcc, the normal build): every file named, and every file of every
 * folder named, goes through LLVMFuzzerTestOneInput () once. A crash, a
 * critical or a sanitizer report fails the test; the run takes as long as
 * the corpus does, so the corpus stays small.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#define G_LOG_DOMAIN "latent-fuzz"

#include "fuzz-common.h"

#include <stdio.h>
#include <sys/resource.h>

/* libFuzzer's -malloc_limit_mb in the fuzzing build; here, what a loader
 * may have resident after an input of a few hundred bytes. */
#define REPLAY_MAX_RSS_MB 512

static gboolean
replay_file (const char *path)
{
  g_autoptr(GError) error = NULL;
  g_autofree char *contents = NULL;
  gsize length = 0;
  struct rusage usage;

  if (!g_file_get_contents (path, &contents, &length, &error))
    {
      g_printerr ("%s\n", error->message);
      return FALSE;
    }
  if (g_getenv ("LATENT_FUZZ_VERBOSE"))
    g_printerr ("%s\n", path);
  LLVMFuzzerTestOneInput ((const uint8_t *) contents, length);
  /* A loader that allocates and touches what a small file declares (a
   * 2 GiB PNG chunk) returns in the end: its peak is what fails it. */
  if (getrusage (RUSAGE_SELF, &usage) == 0 && usage.ru_maxrss / 1024 > REPLAY_MAX_RSS_MB)
    {
      g_printerr ("%s: %ld MiB resident, more than %d MiB\n", path, usage.ru_maxrss / 1024,
                  REPLAY_MAX_RSS_MB);
      return FALSE;
    }
  return TRUE;
}

static int
compare_paths (gconstpointer a,
               gconstpointer b)
{
  return g_strcmp0 (*(const char * const *) a, *(const char * const *) b);
}

/* In name order, so that a failing run is the same every time. */
static gboolean
replay_dir (const char *path,
            guint      *count)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GDir) dir = g_dir_open (path, 0, &error);
  g_autoptr(GPtrArray) names = g_ptr_array_new_with_free_func (g_free);
  const char *name;

  if (dir == NULL)
    {
      g_printerr ("%s\n", error->message);
      return FALSE;
    }
  while ((name = g_dir_read_name (dir)))
    g_ptr_array_add (names, g_build_filename (path, name, NULL));
  g_ptr_array_sort (names, compare_paths);
  for (guint i = 0; i < names->len; i++)
    {
      const char *file = g_ptr_array_index (names, i);

      if (!g_file_test (file, G_FILE_TEST_IS_REGULAR))
        continue;
      if (!replay_file (file))
        return FALSE;
      (*count)++;
    }
  return TRUE;
}

int
main (int    argc,
      char **argv)
{
  guint count = 0;

  latent_fuzz_init ();
  if (argc < 2)
    {
      g_printerr ("usage: %s CORPUS-DIR-OR-FILE…\n", argv[0]);
      return 2;
    }
  for (int i = 1; i < argc; i++)
    {
      gboolean ok;

      if (g_file_test (argv[i], G_FILE_TEST_IS_DIR))
        ok = replay_dir (argv[i], &count);
      else
        ok = replay_file (argv[i]) && ++count;
      if (!ok)
        return 1;
    }
  /* An empty corpus would pass without testing anything. */
  if (count == 0)
    {
      g_printerr ("%s: no input files\n", argv[0]);
      return 1;
    }
  printf ("%u inputs replayed\n", count);
  return 0;
}
