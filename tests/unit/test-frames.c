/* test-frames.c — the timeline's frames: the budget, what it drops, lookups
 *
 * LatentFrames (engine/run/latent-frames.c) keeps a run's snapshots for the
 * window's timeline; these tests drive it without a display.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "latent-frames.h"
#include "latent-test-util.h"

/* Snapshots need an algorithm; these tests never run it. */
static const LatentAlgorithm still_algorithm = { .id = "still" };

/* A frame of @iteration that weighs latent_snapshot_get_size () of an empty
 * one plus @rows labels, so that tests can set what frames weigh. */
static LatentSnapshot *
frame_new (guint iteration,
           guint rows)
{
  LatentSnapshot *frame = latent_snapshot_new (&still_algorithm, NULL, NULL);

  frame->iteration = iteration;
  frame->n_rows = rows;
  frame->clusters.labels = rows ? g_new0 (gint32, rows) : NULL;
  return frame;
}

static gsize
frame_size (guint rows)
{
  g_autoptr(LatentSnapshot) frame = frame_new (0, rows);

  return latent_snapshot_get_size (frame);
}

static void
add (LatentFrames *frames,
     guint         iteration,
     guint         rows)
{
  g_autoptr(LatentSnapshot) frame = frame_new (iteration, rows);

  latent_frames_add (frames, frame);
}

/* The iterations kept, as "0 8 9". */
static char *
iterations (LatentFrames *frames)
{
  GString *text = g_string_new (NULL);

  for (guint i = 0; i < latent_frames_get_n_frames (frames); i++)
    g_string_append_printf (text, "%s%u", i ? " " : "", latent_frames_get (frames, i)->iteration);
  return g_string_free (text, FALSE);
}

static void
assert_iterations (LatentFrames *frames,
                   const char   *expected)
{
  g_autofree char *kept = iterations (frames);

  g_assert_cmpstr (kept, ==, expected);
}

/* The bytes counted are the sum of what the frames kept weigh. */
static void
assert_bytes_add_up (LatentFrames *frames)
{
  guint64 sum = 0;

  for (guint i = 0; i < latent_frames_get_n_frames (frames); i++)
    sum += latent_snapshot_get_size (latent_frames_get (frames, i));
  g_assert_cmpuint (latent_frames_get_bytes (frames), ==, sum);
}

typedef struct {
  guint n_frames;
  guint newest;
  guint bytes;
  guint budget;
  guint follow;
} Notified;

static void
on_notify (GObject    *object,
           GParamSpec *pspec,
           Notified   *seen)
{
  const char *name = g_param_spec_get_name (pspec);

  if (g_str_equal (name, "n-frames"))
    seen->n_frames++;
  else if (g_str_equal (name, "newest-iteration"))
    seen->newest++;
  else if (g_str_equal (name, "bytes"))
    seen->bytes++;
  else if (g_str_equal (name, "budget"))
    seen->budget++;
  else if (g_str_equal (name, "follow"))
    seen->follow++;
}

static void
test_frames_empty (void)
{
  g_autoptr(LatentFrames) frames = latent_frames_new ();
  guint n = 1, newest = 1;
  guint64 bytes = 1, budget = 0;
  gboolean follow = FALSE;

  g_assert_cmpuint (latent_frames_get_n_frames (frames), ==, 0);
  g_assert_null (latent_frames_get_newest (frames));
  g_assert_null (latent_frames_get (frames, 0));
  g_assert_null (latent_frames_at (frames, 0));
  g_assert_null (latent_frames_before (frames, 5));
  g_assert_null (latent_frames_after (frames, 0));
  g_assert_cmpuint (latent_frames_index_of (frames, 5), ==, 0);
  /* The window's budget: 96 MiB of snapshots. */
  g_assert_cmpuint (latent_frames_get_budget (frames), ==, 96u << 20);
  g_object_get (frames, "n-frames", &n, "newest-iteration", &newest, "bytes", &bytes,
                "budget", &budget, "follow", &follow, NULL);
  g_assert_cmpuint (n, ==, 0);
  g_assert_cmpuint (newest, ==, 0);
  g_assert_cmpuint (bytes, ==, 0);
  g_assert_cmpuint (budget, ==, LATENT_FRAMES_DEFAULT_BUDGET);
  g_assert_true (follow);
}

static void
test_frames_add (void)
{
  g_autoptr(LatentFrames) frames = latent_frames_new ();
  Notified seen = { 0 };
  guint n = 0, newest = 0;
  guint64 bytes = 0;

  g_signal_connect (frames, "notify", G_CALLBACK (on_notify), &seen);
  add (frames, 0, 10);
  add (frames, 1, 20);
  add (frames, 2, 30);
  assert_iterations (frames, "0 1 2");
  g_assert_cmpuint (latent_frames_get_bytes (frames), ==, frame_size (10) + frame_size (20) + frame_size (30));
  g_assert_cmpuint (latent_frames_get_newest (frames)->iteration, ==, 2);
  g_assert_cmpuint (latent_frames_get_newest_iteration (frames), ==, 2);
  g_object_get (frames, "n-frames", &n, "newest-iteration", &newest, "bytes", &bytes, NULL);
  g_assert_cmpuint (n, ==, 3);
  g_assert_cmpuint (newest, ==, 2);
  g_assert_cmpuint (bytes, ==, latent_frames_get_bytes (frames));
  /* Each frame says so once for each property it changed; newest-iteration
   * stays 0 through the first. */
  g_assert_cmpuint (seen.n_frames, ==, 3);
  g_assert_cmpuint (seen.newest, ==, 2);
  g_assert_cmpuint (seen.bytes, ==, 3);
  g_assert_cmpuint (seen.budget, ==, 0);
  g_assert_cmpuint (seen.follow, ==, 0);

  /* The same array the window's history reads. */
  {
    guint count = 0;
    LatentSnapshot **all = latent_frames_peek (frames, &count);

    g_assert_cmpuint (count, ==, 3);
    g_assert_true (all[1] == latent_frames_get (frames, 1));
  }
}

/* Over the budget the oldest frames after the first go, one at a time from
 * the front, until the rest fit: the initial state and the newest stay. */
static void
test_frames_budget (void)
{
  g_autoptr(LatentFrames) frames = latent_frames_new ();
  gsize one = frame_size (100);

  latent_frames_set_budget (frames, 3 * one);
  for (guint i = 0; i < 3; i++)
    add (frames, i, 100);
  /* At the budget exactly, nothing goes. */
  assert_iterations (frames, "0 1 2");
  g_assert_cmpuint (latent_frames_get_bytes (frames), ==, 3 * one);
  add (frames, 3, 100);
  /* Not the first (the initial state), not the newest: the oldest after it. */
  assert_iterations (frames, "0 2 3");
  for (guint i = 4; i < 10; i++)
    add (frames, i, 100);
  assert_iterations (frames, "0 8 9");
  g_assert_cmpuint (latent_frames_get_bytes (frames), ==, 3 * one);
  assert_bytes_add_up (frames);

  /* A heavy frame pushes out as many light ones as it must, oldest first. */
  add (frames, 10, 250);
  assert_iterations (frames, "0 10");
  assert_bytes_add_up (frames);
  g_assert_cmpuint (latent_frames_get_bytes (frames), <=, 3 * one);
  add (frames, 11, 100);
  /* 0 + 10 + 11 is over the budget: 10 goes, though 0 is older. */
  assert_iterations (frames, "0 11");
  assert_bytes_add_up (frames);
}

/* Frames heavier than the budget: the first and the newest stay anyway. */
static void
test_frames_budget_heavy (void)
{
  g_autoptr(LatentFrames) frames = latent_frames_new ();
  gsize light = frame_size (10);

  latent_frames_set_budget (frames, light);
  add (frames, 0, 1000);
  assert_iterations (frames, "0");
  g_assert_cmpuint (latent_frames_get_bytes (frames), >, light);
  add (frames, 1, 1000);
  assert_iterations (frames, "0 1");
  g_assert_cmpuint (latent_frames_get_bytes (frames), ==, 2 * frame_size (1000));
  add (frames, 2, 10);
  assert_iterations (frames, "0 2");
  add (frames, 3, 10);
  assert_iterations (frames, "0 3");
  assert_bytes_add_up (frames);
}

/* A lower budget drops frames at once, by the same rule; a higher one
 * brings nothing back. */
static void
test_frames_set_budget (void)
{
  g_autoptr(LatentFrames) frames = latent_frames_new ();
  Notified seen = { 0 };
  gsize one = frame_size (50);
  guint64 budget = 0;

  for (guint i = 0; i < 6; i++)
    add (frames, i, 50);
  assert_iterations (frames, "0 1 2 3 4 5");
  g_signal_connect (frames, "notify", G_CALLBACK (on_notify), &seen);
  g_object_set (frames, "budget", (guint64) (4 * one), NULL);
  assert_iterations (frames, "0 3 4 5");
  g_assert_cmpuint (seen.budget, ==, 1);
  g_assert_cmpuint (seen.n_frames, ==, 1);
  g_assert_cmpuint (seen.bytes, ==, 1);
  g_assert_cmpuint (seen.newest, ==, 0);
  g_object_get (frames, "budget", &budget, NULL);
  g_assert_cmpuint (budget, ==, 4 * one);
  latent_frames_set_budget (frames, 4 * one);
  g_assert_cmpuint (seen.budget, ==, 1);
  latent_frames_set_budget (frames, 0);
  assert_iterations (frames, "0 5");
  latent_frames_set_budget (frames, LATENT_FRAMES_DEFAULT_BUDGET);
  assert_iterations (frames, "0 5");
  assert_bytes_add_up (frames);
}

/* Kept frames at 0, 2, 5 and 9 (a fast run keeps about one a display frame). */
static LatentFrames *
frames_with_gaps (void)
{
  LatentFrames *frames = latent_frames_new ();

  add (frames, 0, 1);
  add (frames, 2, 1);
  add (frames, 5, 1);
  add (frames, 9, 1);
  return frames;
}

static void
test_frames_lookups (void)
{
  g_autoptr(LatentFrames) frames = frames_with_gaps ();
  g_autoptr(LatentFrames) later = latent_frames_new ();
  const guint at[][2] = {
    { 0, 0 }, { 1, 0 }, { 2, 2 }, { 4, 2 }, { 5, 5 }, { 8, 5 }, { 9, 9 }, { 100, 9 },
  };
  const guint index_of[][2] = {
    { 0, 0 }, { 1, 1 }, { 2, 1 }, { 3, 2 }, { 5, 2 }, { 6, 3 }, { 9, 3 }, { 10, 4 },
  };

  /* The frame a timeline at that iteration shows: the newest not after it. */
  for (guint i = 0; i < G_N_ELEMENTS (at); i++)
    g_assert_cmpuint (latent_frames_at (frames, at[i][0])->iteration, ==, at[i][1]);
  /* The frames before an iteration: the trail of the one shown there. */
  for (guint i = 0; i < G_N_ELEMENTS (index_of); i++)
    g_assert_cmpuint (latent_frames_index_of (frames, index_of[i][0]), ==, index_of[i][1]);

  /* Back one kept frame, as Left does. */
  g_assert_null (latent_frames_before (frames, 0));
  g_assert_cmpuint (latent_frames_before (frames, 2)->iteration, ==, 0);
  g_assert_cmpuint (latent_frames_before (frames, 5)->iteration, ==, 2);
  g_assert_cmpuint (latent_frames_before (frames, 7)->iteration, ==, 5);
  g_assert_cmpuint (latent_frames_before (frames, 100)->iteration, ==, 9);
  /* Forward one kept frame, as Right does when it was kept. */
  g_assert_cmpuint (latent_frames_after (frames, 0)->iteration, ==, 2);
  g_assert_cmpuint (latent_frames_after (frames, 2)->iteration, ==, 5);
  g_assert_cmpuint (latent_frames_after (frames, 6)->iteration, ==, 9);
  g_assert_null (latent_frames_after (frames, 9));

  /* Every frame after the iteration asked for: the first is shown. */
  add (later, 3, 1);
  add (later, 5, 1);
  g_assert_nonnull (latent_frames_at (later, 0));
  g_assert_cmpuint (latent_frames_at (later, 0)->iteration, ==, 3);
  g_assert_cmpuint (latent_frames_at (later, 4)->iteration, ==, 3);
  g_assert_cmpuint (latent_frames_at (later, 5)->iteration, ==, 5);
  g_assert_null (latent_frames_before (later, 3));
}

/* Going on from an iteration: the frames before it stay. */
static void
test_frames_truncate (void)
{
  g_autoptr(LatentFrames) frames = frames_with_gaps ();
  Notified seen = { 0 };

  latent_frames_set_follow (frames, FALSE);
  g_signal_connect (frames, "notify", G_CALLBACK (on_notify), &seen);
  latent_frames_truncate (frames, 5);
  assert_iterations (frames, "0 2");
  g_assert_cmpuint (latent_frames_get_newest_iteration (frames), ==, 2);
  g_assert_cmpuint (latent_frames_get_bytes (frames), ==, 2 * frame_size (1));
  g_assert_true (latent_frames_get_follow (frames));
  g_assert_cmpuint (seen.n_frames, ==, 1);
  g_assert_cmpuint (seen.newest, ==, 1);
  g_assert_cmpuint (seen.bytes, ==, 1);
  g_assert_cmpuint (seen.follow, ==, 1);
  /* Past the newest, nothing goes. */
  latent_frames_truncate (frames, 3);
  assert_iterations (frames, "0 2");
  g_assert_cmpuint (seen.n_frames, ==, 1);
  /* Then the new run brings the rest. */
  add (frames, 5, 1);
  assert_iterations (frames, "0 2 5");
  assert_bytes_add_up (frames);
}

static void
on_gone (gpointer  data,
         GObject  *where_it_was)
{
  *(gboolean *) data = TRUE;
}

/* A frame holds its dataset: it is let go when the frame is. */
static LatentSnapshot *
frame_on_data (guint     iteration,
               gboolean *gone)
{
  g_autoptr(LatentDataset) data = test_blobs (10, 2, 2, 1.0, 5);
  LatentSnapshot *frame = latent_snapshot_new (&still_algorithm, data, NULL);

  frame->iteration = iteration;
  *gone = FALSE;
  g_object_weak_ref (G_OBJECT (data), on_gone, gone);
  return frame;
}

/* The frames own their references: clearing and dropping let them go. */
static void
test_frames_clear (void)
{
  g_autoptr(LatentFrames) frames = latent_frames_new ();
  gboolean gone[3];
  Notified seen = { 0 };

  for (guint i = 0; i < 3; i++)
    {
      g_autoptr(LatentSnapshot) frame = frame_on_data (i, &gone[i]);
      latent_frames_add (frames, frame);
    }
  g_assert_false (gone[0] || gone[1] || gone[2]);
  /* Dropped over the budget: the middle one, and only it. */
  latent_frames_set_budget (frames, 1);
  assert_iterations (frames, "0 2");
  g_assert_true (gone[1]);
  g_assert_false (gone[0] || gone[2]);

  latent_frames_set_follow (frames, FALSE);
  g_signal_connect (frames, "notify", G_CALLBACK (on_notify), &seen);
  latent_frames_clear (frames);
  g_assert_true (gone[0] && gone[2]);
  g_assert_cmpuint (latent_frames_get_n_frames (frames), ==, 0);
  g_assert_cmpuint (latent_frames_get_bytes (frames), ==, 0);
  g_assert_cmpuint (latent_frames_get_newest_iteration (frames), ==, 0);
  g_assert_null (latent_frames_get_newest (frames));
  g_assert_true (latent_frames_get_follow (frames));
  /* The budget is the frames' own setting: a clear keeps it. */
  g_assert_cmpuint (latent_frames_get_budget (frames), ==, 1);
  g_assert_cmpuint (seen.n_frames, ==, 1);
  g_assert_cmpuint (seen.newest, ==, 1);
  g_assert_cmpuint (seen.bytes, ==, 1);
  g_assert_cmpuint (seen.follow, ==, 1);
  g_assert_cmpuint (seen.budget, ==, 0);

  /* Cleared, a run starts again from its initial state. */
  add (frames, 0, 1);
  add (frames, 1, 1);
  add (frames, 2, 1);
  assert_iterations (frames, "0 2");
}

/* Disposing of the frames lets every frame go. */
static void
test_frames_finalize (void)
{
  LatentFrames *frames = latent_frames_new ();
  gboolean gone;
  g_autoptr(LatentSnapshot) frame = frame_on_data (0, &gone);

  latent_frames_add (frames, frame);
  g_clear_pointer (&frame, latent_snapshot_unref);
  g_assert_false (gone);
  g_object_unref (frames);
  g_assert_true (gone);
}

static void
test_frames_follow (void)
{
  g_autoptr(LatentFrames) frames = latent_frames_new ();
  Notified seen = { 0 };

  g_signal_connect (frames, "notify", G_CALLBACK (on_notify), &seen);
  g_assert_true (latent_frames_get_follow (frames));
  latent_frames_set_follow (frames, TRUE);
  g_assert_cmpuint (seen.follow, ==, 0);
  g_object_set (frames, "follow", FALSE, NULL);
  g_assert_false (latent_frames_get_follow (frames));
  g_assert_cmpuint (seen.follow, ==, 1);
  /* Adding a frame does not move a timeline scrubbed back. */
  add (frames, 0, 1);
  g_assert_false (latent_frames_get_follow (frames));
  g_assert_cmpuint (seen.follow, ==, 1);
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/frames/empty", test_frames_empty);
  g_test_add_func ("/frames/add", test_frames_add);
  g_test_add_func ("/frames/budget", test_frames_budget);
  g_test_add_func ("/frames/budget-heavy", test_frames_budget_heavy);
  g_test_add_func ("/frames/set-budget", test_frames_set_budget);
  g_test_add_func ("/frames/lookups", test_frames_lookups);
  g_test_add_func ("/frames/truncate", test_frames_truncate);
  g_test_add_func ("/frames/clear", test_frames_clear);
  g_test_add_func ("/frames/finalize", test_frames_finalize);
  g_test_add_func ("/frames/follow", test_frames_follow);
  return g_test_run ();
}
