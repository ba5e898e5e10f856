/* test-quit.c — Latent quits cleanly while it compiles: started with an
 * empty kernel cache, so the window's precompiling (and on some starts a
 * run) is inside the OpenCL compiler, and quit at once, it ends with
 * status 0 and its window is gone before the application's run returns.
 *
 * A thread left in the compiler when the process exits crashes in LLVM as
 * the exit handlers tear the driver down (issue 34, 4: SIGSEGV in 4 of 22
 * cold `layout` runs). The window must cancel and join its threads.
 *
 * Each start is a process of its own (this program, with
 * LATENT_QUIT_CHILD=1) under its own empty XDG_CACHE_HOME, which holds
 * both Latent's and PoCL's caches. LATENT_QUIT_STARTS sets how many (10 by
 * default, about a minute on two cores; the check is 50).
 *
 * Needs a display (the ui suite runs it under xvfb-run); skips without one.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#define G_LOG_DOMAIN "latent-test-quit"

#include <gtk/gtk.h>
#include <stdlib.h>

#include "latent-application.h"
#include "latent-cl.h"

#define DEFAULT_STARTS 10

/* ---- a start: the child ------------------------------------------------ */

static gboolean
on_quit_time (gpointer user_data)
{
  /* The parent measures the quit from here to the process's end. */
  g_print ("quit-at %" G_GINT64_FORMAT "\n", g_get_monotonic_time ());
  g_action_group_activate_action (G_ACTION_GROUP (user_data), "quit", NULL);
  return G_SOURCE_REMOVE;
}

static gboolean
on_run_time (gpointer user_data)
{
  GtkWindow *window = gtk_application_get_active_window (user_data);

  if (window != NULL)
    {
      g_action_group_activate_action (G_ACTION_GROUP (window), "run", NULL);
      /* Reset, then quit, at once: the run, still building, is replaced
       * by a new one and left to wind down on its own (a retired run),
       * which the closing window must wait for too. */
      if (g_getenv ("LATENT_QUIT_RESET") != NULL)
        {
          g_action_group_activate_action (G_ACTION_GROUP (window), "reset", NULL);
          on_quit_time (user_data);
        }
    }
  return G_SOURCE_REMOVE;
}

/* A worker or precompile thread still alive once the window is gone would
 * be in the compiler as the process exits. */
static char *
leftover_thread (void)
{
  g_autoptr(GDir) tasks = g_dir_open ("/proc/self/task", 0, NULL);
  const char *task;

  while (tasks != NULL && (task = g_dir_read_name (tasks)) != NULL)
    {
      g_autofree char *path = g_build_filename ("/proc/self/task", task, "comm", NULL);
      g_autofree char *name = NULL;

      if (g_file_get_contents (path, &name, NULL, NULL) &&
          (g_str_has_prefix (name, "latent-worker") || g_str_has_prefix (name, "latent-precomp")))
        return g_strstrip (g_steal_pointer (&name));
    }
  return NULL;
}


static void
on_window_added (GtkApplication *application,
                 GtkWindow      *window,
                 gpointer        user_data)
{
  GtkWindow **watched = user_data;

  if (*watched == NULL)
    {
      *watched = window;
      g_object_add_weak_pointer (G_OBJECT (window), (gpointer *) watched);
    }
}

/* As latent-main.c runs the window, quit as the menu's Quit does. */
static int
child_main (void)
{
  g_autoptr(LatentApplication) application = latent_application_new ();
  guint delay = (guint) g_ascii_strtoull (g_getenv ("LATENT_QUIT_DELAY_MS"), NULL, 10);
  GtkWindow *window = NULL;
  int status;

  g_application_set_flags (G_APPLICATION (application), G_APPLICATION_NON_UNIQUE);
  g_signal_connect (application, "window-added", G_CALLBACK (on_window_added), &window);
  if (g_getenv ("LATENT_QUIT_RUN") != NULL)
    g_timeout_add (delay / 2, on_run_time, application);
  g_timeout_add (delay, on_quit_time, application);
  status = g_application_run (G_APPLICATION (application), 0, NULL);
  if (window != NULL)
    {
      /* Something (a thread's reference) kept it: its dispose, which
       * joins the threads, has not run. */
      g_printerr ("the window outlived the application's run\n");
      return 3;
    }
  {
    g_autofree char *left = leftover_thread ();

    if (left != NULL)
      {
        g_printerr ("the thread %s outlived the window\n", left);
        return 4;
      }
  }
  return status;
}

/* ---- the starts: the parent -------------------------------------------- */

static void
remove_tree (GFile *file)
{
  g_autoptr(GFileEnumerator) children = NULL;

  children = g_file_enumerate_children (file, G_FILE_ATTRIBUTE_STANDARD_NAME,
                                        G_FILE_QUERY_INFO_NOFOLLOW_SYMLINKS, NULL, NULL);
  while (children != NULL)
    {
      GFile *child = NULL;

      if (!g_file_enumerator_iterate (children, NULL, &child, NULL, NULL) || child == NULL)
        break;
      remove_tree (child);
    }
  g_file_delete (file, NULL, NULL);
}

static void
test_cold_quits (void)
{
  const char *starts_text = g_getenv ("LATENT_QUIT_STARTS");
  guint starts = starts_text ? (guint) g_ascii_strtoull (starts_text, NULL, 10) : DEFAULT_STARTS;
  g_autofree char *self_path = g_file_read_link ("/proc/self/exe", NULL);
  guint crashed = 0, failed = 0;
  gint64 worst_us = 0;

  g_assert_nonnull (self_path);
  /* Without a device nothing compiles: there would be nothing to test. */
  {
    g_autoptr(LatentCl) cl = latent_cl_new (LATENT_DEVICE_AUTO, NULL);

    if (cl == NULL)
      {
        g_test_skip ("no OpenCL device: no build to quit during");
        return;
      }
  }
  for (guint i = 0; i < starts; i++)
    {
      g_autoptr(GSubprocessLauncher) launcher = g_subprocess_launcher_new (G_SUBPROCESS_FLAGS_STDOUT_PIPE);
      g_autoptr(GSubprocess) child = NULL;
      g_autoptr(GError) error = NULL;
      g_autoptr(GFile) cache_file = NULL;
      g_autofree char *cache = g_dir_make_tmp ("latent-quit-XXXXXX", &error);
      g_autofree char *out = NULL;
      g_autofree char *delay = NULL;
      const char *quit_at;
      gint64 quit_us = -1;
      /* From just after the window shows to a few seconds in: each lands
       * in another build, of the selected algorithm's or the others'. */
      guint delay_ms = 300 + (i * 1187) % 3500;
      gboolean run = i % 2 == 1;

      g_assert_no_error (error);
      delay = g_strdup_printf ("%u", delay_ms);
      g_subprocess_launcher_setenv (launcher, "LATENT_QUIT_CHILD", "1", TRUE);
      g_subprocess_launcher_setenv (launcher, "LATENT_QUIT_DELAY_MS", delay, TRUE);
      g_subprocess_launcher_setenv (launcher, "XDG_CACHE_HOME", cache, TRUE);
      g_subprocess_launcher_unsetenv (launcher, "LATENT_CL_CACHE_DIR");
      if (run)
        g_subprocess_launcher_setenv (launcher, "LATENT_QUIT_RUN", "1", TRUE);
      /* Every other run is reset at once, leaving a retired run. */
      if (i % 4 == 3)
        g_subprocess_launcher_setenv (launcher, "LATENT_QUIT_RESET", "1", TRUE);
      child = g_subprocess_launcher_spawn (launcher, &error, self_path, NULL);
      g_assert_no_error (error);
      g_subprocess_communicate_utf8 (child, NULL, NULL, &out, NULL, &error);
      g_assert_no_error (error);
      quit_at = out ? strstr (out, "quit-at ") : NULL;
      if (quit_at != NULL)
        quit_us = g_get_monotonic_time () - g_ascii_strtoll (quit_at + 8, NULL, 10);
      worst_us = MAX (worst_us, quit_us);

      if (g_subprocess_get_if_signaled (child))
        {
          crashed++;
          g_test_message ("start %u (quit after %u ms%s): killed by signal %d", i + 1, delay_ms,
                          run ? ", a run started" : "", g_subprocess_get_term_sig (child));
        }
      else if (g_subprocess_get_exit_status (child) != 0 || quit_us < 0)
        {
          failed++;
          g_test_message ("start %u (quit after %u ms%s): exit status %d", i + 1, delay_ms,
                          run ? ", a run started" : "", g_subprocess_get_exit_status (child));
        }
      else
        g_test_message ("start %u (quit after %u ms%s): quit in %.0f ms", i + 1, delay_ms,
                        run ? ", a run started" : "", quit_us / 1000.0);
      cache_file = g_file_new_for_path (cache);
      remove_tree (cache_file);
    }
  g_test_message ("%u cold starts: %u crashed, %u failed otherwise; the slowest quit took %.0f ms",
                  starts, crashed, failed, worst_us / 1000.0);
  g_assert_cmpuint (crashed, ==, 0);
  g_assert_cmpuint (failed, ==, 0);
  /* A quit waits for the builds under way, never for the rest: one
   * program's build is seconds on PoCL, the whole precompiling a minute. */
  g_assert_cmpint (worst_us, <, 20 * G_USEC_PER_SEC);
}

int
main (int   argc,
      char *argv[])
{
  /* Nothing remembered between starts: the default dataset every time. */
  g_setenv ("GSETTINGS_BACKEND", "memory", TRUE);
  if (g_getenv ("LATENT_QUIT_CHILD") != NULL)
    {
      if (!gtk_init_check ())
        return 77;
      return child_main ();
    }

  g_test_init (&argc, &argv, NULL);
  if (!gtk_init_check ())
    {
      g_print ("1..0 # SKIP no display\n");
      return 0;
    }
  g_test_add_func ("/quit/cold-precompile", test_cold_quits);
  return g_test_run ();
}
