/* test-going-on.c — Run on a finished run: when it goes on, from where, with
 * what values, and what the panel says
 *
 * The rules (engine/run/latent-going-on.c) the window asks when Run or Step
 * is pressed on a converged, spent or scrubbed-back run; these tests drive
 * them without a display.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "latent-going-on.h"

/* The parameters are found by role: decoys of the same types come first,
 * and the budget's bound is not the largest INT's, so that a rule that
 * guessed would pick the wrong one. */
static const LatentParamSpec iterative_specs[] = {
  { .name = "size", .type = LATENT_PARAM_INT, .label = "Size",
    .min = 1, .max = 1000, .default_value = 500 },
  { .name = "rate", .type = LATENT_PARAM_DOUBLE, .label = "Rate",
    .min = 0, .max = 1, .default_value = 0.5 },
  { .name = "steps", .type = LATENT_PARAM_INT, .label = "Steps",
    .min = 0, .max = 100, .default_value = 10,
    .role = LATENT_PARAM_ROLE_BUDGET, .unit = LATENT_PARAM_UNIT_ITERATIONS },
  { .name = "threshold", .type = LATENT_PARAM_DOUBLE, .label = "Threshold",
    .min = 0, .max = 1, .default_value = 1e-3, .role = LATENT_PARAM_ROLE_TOLERANCE },
};

/* A budget and no tolerance: epochs asked for. */
static const LatentParamSpec budget_only_specs[] = {
  { .name = "size", .type = LATENT_PARAM_INT, .label = "Size",
    .min = 1, .max = 1000, .default_value = 500 },
  { .name = "epochs", .type = LATENT_PARAM_INT, .label = "Epochs",
    .min = 1, .max = 50, .default_value = 5,
    .role = LATENT_PARAM_ROLE_BUDGET, .unit = LATENT_PARAM_UNIT_EPOCHS },
};

/* Neither: nothing bounds its steps. */
static const LatentParamSpec unbounded_specs[] = {
  { .name = "threshold", .type = LATENT_PARAM_DOUBLE, .label = "Threshold",
    .min = 0, .max = 1, .default_value = 1e-3, .role = LATENT_PARAM_ROLE_TOLERANCE },
};

static LatentParams *
iterative (gint64 steps,
           double threshold)
{
  LatentParams *params = latent_params_new (iterative_specs, G_N_ELEMENTS (iterative_specs));

  g_assert_true (latent_params_set_int (params, "steps", steps, NULL));
  g_assert_true (latent_params_set_double (params, "threshold", threshold, NULL));
  return params;
}

/* A finished run following its newest frame, which is @frame. */
static LatentGoingOnAt
finished_at (const LatentSnapshot *frame)
{
  return (LatentGoingOnAt) {
    .shown = frame,
    .state = LATENT_RUN_FINISHED,
    .newest = frame->iteration,
    .follow = TRUE,
  };
}

static void
assert_values (LatentParams *params,
               gint64        steps,
               double        threshold)
{
  g_assert_cmpint (latent_params_get_int (params, "steps"), ==, steps);
  g_assert_cmpfloat (latent_params_get_double (params, "threshold"), ==, threshold);
  /* The others are the ones they went on from. */
  g_assert_cmpint (latent_params_get_int (params, "size"), ==, 500);
  g_assert_cmpfloat (latent_params_get_double (params, "rate"), ==, 0.5);
}

/* Going on as the window does: the values it would run with, new. */
static LatentParams *
go_on (LatentParams          *params,
       LatentParams          *going_on,
       const LatentGoingOnAt *at,
       guint                  expected_from)
{
  guint from = G_MAXUINT;

  g_assert_true (latent_going_on_can (params, going_on, at, &from));
  g_assert_cmpuint (from, ==, expected_from);
  return latent_going_on_next (params, going_on, at);
}

static void
assert_note (LatentParams      *params,
             LatentParams      *going_on,
             LatentGoingOnNote  expected,
             gint64             expected_limit)
{
  gint64 limit = -1;

  g_assert_cmpint (latent_going_on_note (params, going_on, &limit), ==, expected);
  g_assert_cmpint (limit, ==, expected_limit);
  g_assert_cmpint (latent_going_on_note (params, going_on, NULL), ==, expected);
}

/* Converged before its budget: the tolerance goes to 0, the budget stays,
 * and the person's values stay as they were. */
static void
test_going_on_converged (void)
{
  g_autoptr(LatentParams) params = iterative (10, 1e-3);
  LatentSnapshot frame = { .iteration = 4, .converged = TRUE, .final = TRUE };
  LatentGoingOnAt at = finished_at (&frame);
  g_autoptr(LatentParams) next = go_on (params, NULL, &at, 4);

  g_assert_nonnull (next);
  g_assert_true (next != params);
  assert_values (next, 10, 0);
  assert_values (params, 10, 1e-3);
  assert_note (params, next, LATENT_GOING_ON_NOTE_PAST_CONVERGENCE, 10);
  /* Before going on, the run has the person's values. */
  assert_note (params, NULL, LATENT_GOING_ON_NOTE_NONE, 0);
}

/* At its budget, not converged: twice the budget, the tolerance as set. */
static void
test_going_on_at_budget (void)
{
  g_autoptr(LatentParams) params = iterative (10, 1e-3);
  LatentSnapshot frame = { .iteration = 10, .final = TRUE };
  LatentGoingOnAt at = finished_at (&frame);
  g_autoptr(LatentParams) next = go_on (params, NULL, &at, 10);

  assert_values (next, 20, 1e-3);
  assert_values (params, 10, 1e-3);
  assert_note (params, next, LATENT_GOING_ON_NOTE_MORE_ITERATIONS, 20);
}

/* Converged on its last iteration: both. */
static void
test_going_on_converged_at_budget (void)
{
  g_autoptr(LatentParams) params = iterative (10, 1e-3);
  LatentSnapshot frame = { .iteration = 10, .converged = TRUE, .final = TRUE };
  LatentGoingOnAt at = finished_at (&frame);
  g_autoptr(LatentParams) next = go_on (params, NULL, &at, 10);

  assert_values (next, 20, 0);
  assert_note (params, next, LATENT_GOING_ON_NOTE_PAST_CONVERGENCE, 20);
}

/* Going on again goes on from the values the run had, not the person's:
 * 10, 20, 40, 80, then the bound, 100, not 160; at the bound it cannot go
 * on. The tolerance set to 0 stays 0, and the note says so each time. */
static void
test_going_on_again (void)
{
  g_autoptr(LatentParams) params = iterative (10, 1e-3);
  g_autoptr(LatentParams) going_on = NULL;
  LatentSnapshot converged = { .iteration = 6, .converged = TRUE, .final = TRUE };
  LatentGoingOnAt at = finished_at (&converged);
  const gint64 budgets[] = { 20, 40, 80, 100 };

  going_on = go_on (params, NULL, &at, 6);
  assert_values (going_on, 10, 0);
  for (guint i = 0; i < G_N_ELEMENTS (budgets); i++)
    {
      gint64 spent = latent_params_get_int (going_on, "steps");
      LatentSnapshot frame = { .iteration = (guint) spent, .final = TRUE };
      LatentGoingOnAt at_budget = finished_at (&frame);
      LatentParams *next = go_on (params, going_on, &at_budget, (guint) spent);

      assert_values (next, budgets[i], 0);
      assert_note (params, next, LATENT_GOING_ON_NOTE_PAST_CONVERGENCE, budgets[i]);
      g_clear_pointer (&going_on, latent_params_unref);
      going_on = next;
    }
  /* At the budget's bound, not converged: nothing takes it further. */
  {
    LatentSnapshot frame = { .iteration = 100, .final = TRUE };
    LatentGoingOnAt at_bound = finished_at (&frame);
    guint from = G_MAXUINT;

    g_assert_false (latent_going_on_can (params, going_on, &at_bound, &from));
    g_assert_cmpuint (from, ==, 100);
    g_assert_null (latent_going_on_next (params, going_on, &at_bound));
  }
  /* The person's values never moved. */
  assert_values (params, 10, 1e-3);
}

/* Doubling stops at the budget's bound. */
static void
test_going_on_up_to_bound (void)
{
  g_autoptr(LatentParams) params = iterative (60, 1e-3);
  LatentSnapshot frame = { .iteration = 60, .final = TRUE };
  LatentGoingOnAt at = finished_at (&frame);
  g_autoptr(LatentParams) next = go_on (params, NULL, &at, 60);

  assert_values (next, 100, 1e-3);
  assert_note (params, next, LATENT_GOING_ON_NOTE_MORE_ITERATIONS, 100);
}

/* A budget of 0 goes on to 2: doubling starts from 1 at least. */
static void
test_going_on_from_zero (void)
{
  g_autoptr(LatentParams) params = iterative (0, 1e-3);
  LatentSnapshot frame = { .iteration = 0, .final = TRUE };
  LatentGoingOnAt at = finished_at (&frame);
  g_autoptr(LatentParams) next = go_on (params, NULL, &at, 0);

  assert_values (next, 2, 1e-3);
}

/* At the bound and not converged, or converged with a tolerance of 0
 * already: nothing would take it further. Converged with a tolerance of 0
 * means the budget's end, so under it, too, Run cannot go on. */
static void
test_going_on_nothing_further (void)
{
  g_autoptr(LatentParams) at_bound = iterative (100, 1e-3);
  g_autoptr(LatentParams) no_tolerance = iterative (10, 0);
  LatentSnapshot spent = { .iteration = 100, .final = TRUE };
  LatentSnapshot converged = { .iteration = 4, .converged = TRUE, .final = TRUE };
  LatentGoingOnAt at = finished_at (&spent);
  LatentGoingOnAt at_converged = finished_at (&converged);
  guint from = G_MAXUINT;

  g_assert_false (latent_going_on_can (at_bound, NULL, &at, &from));
  g_assert_cmpuint (from, ==, 100);
  g_assert_null (latent_going_on_next (at_bound, NULL, &at));

  from = G_MAXUINT;
  g_assert_false (latent_going_on_can (no_tolerance, NULL, &at_converged, &from));
  g_assert_cmpuint (from, ==, 4);
  g_assert_null (latent_going_on_next (no_tolerance, NULL, &at_converged));

  /* The same, when the tolerance 0 is the run's own, not the person's. */
  {
    g_autoptr(LatentParams) params = iterative (10, 1e-3);
    g_autoptr(LatentParams) going_on = iterative (10, 0);

    g_assert_false (latent_going_on_can (params, going_on, &at_converged, NULL));
    /* The person's tolerance above 0 is not the run's. */
    g_assert_true (latent_going_on_can (params, NULL, &at_converged, NULL));
  }
  /* The run's budget at the bound, the person's under it. */
  {
    g_autoptr(LatentParams) params = iterative (10, 1e-3);
    g_autoptr(LatentParams) going_on = iterative (100, 1e-3);

    g_assert_false (latent_going_on_can (params, going_on, &at, NULL));
    g_assert_true (latent_going_on_can (params, NULL, &at, NULL));
  }
}

/* Final before its budget and not converged (nothing says why): it goes
 * on with the values it had, and the panel says up to where. */
static void
test_going_on_under_budget (void)
{
  g_autoptr(LatentParams) params = iterative (10, 1e-3);
  LatentSnapshot frame = { .iteration = 7, .final = TRUE };
  LatentGoingOnAt at = finished_at (&frame);
  g_autoptr(LatentParams) next = go_on (params, NULL, &at, 7);

  assert_values (next, 10, 1e-3);
  assert_note (params, next, LATENT_GOING_ON_NOTE_MORE_ITERATIONS, 10);
}

/* A person's tolerance of 0 is theirs: the note speaks of iterations only. */
static void
test_going_on_note (void)
{
  g_autoptr(LatentParams) params = iterative (10, 0);
  LatentSnapshot frame = { .iteration = 10, .converged = TRUE, .final = TRUE };
  LatentGoingOnAt at = finished_at (&frame);
  g_autoptr(LatentParams) no_tolerance = latent_params_new (budget_only_specs, G_N_ELEMENTS (budget_only_specs));
  g_autoptr(LatentParams) more = NULL;
  g_autoptr(LatentParams) past = iterative (30, 0);
  g_autoptr(LatentParams) tolerant = iterative (30, 1e-3);

  /* Converged with a tolerance of 0 cannot go on... */
  g_assert_false (latent_going_on_can (params, NULL, &at, NULL));
  frame.converged = FALSE;
  /* ...but spent can, and the tolerance was 0 before. */
  more = go_on (params, NULL, &at, 10);
  assert_values (more, 20, 0);
  assert_note (params, more, LATENT_GOING_ON_NOTE_MORE_ITERATIONS, 20);

  /* The run's tolerance at 0 where the person's is not. */
  {
    g_autoptr(LatentParams) person = iterative (10, 1e-3);

    assert_note (person, past, LATENT_GOING_ON_NOTE_PAST_CONVERGENCE, 30);
    assert_note (person, tolerant, LATENT_GOING_ON_NOTE_MORE_ITERATIONS, 30);
    assert_note (person, NULL, LATENT_GOING_ON_NOTE_NONE, 0);
  }
  /* No tolerance at all. */
  {
    g_autoptr(LatentParams) going_on = latent_params_copy (no_tolerance);

    g_assert_true (latent_params_set_int (going_on, "epochs", 10, NULL));
    assert_note (no_tolerance, going_on, LATENT_GOING_ON_NOTE_MORE_ITERATIONS, 10);
  }
}

/* A budget and no tolerance: spent, it doubles up to its bound; finished
 * as asked (converged says nothing to lower), it cannot go on. */
static void
test_going_on_budget_only (void)
{
  g_autoptr(LatentParams) params = latent_params_new (budget_only_specs, G_N_ELEMENTS (budget_only_specs));
  LatentSnapshot frame = { .iteration = 5, .final = TRUE };
  LatentGoingOnAt at = finished_at (&frame);
  g_autoptr(LatentParams) next = go_on (params, NULL, &at, 5);
  g_autoptr(LatentParams) last = NULL;

  g_assert_cmpint (latent_params_get_int (next, "epochs"), ==, 10);
  g_assert_cmpint (latent_params_get_int (next, "size"), ==, 500);
  g_assert_cmpint (latent_params_get_int (params, "epochs"), ==, 5);
  g_assert_true (latent_params_set_int (next, "epochs", 40, NULL));
  frame.iteration = 40;
  at.newest = 40;
  last = go_on (params, next, &at, 40);
  g_assert_cmpint (latent_params_get_int (last, "epochs"), ==, 50);
  frame.iteration = 50;
  at.newest = 50;
  g_assert_false (latent_going_on_can (params, last, &at, NULL));

  frame.iteration = 5;
  frame.converged = TRUE;
  at.newest = 5;
  g_assert_false (latent_going_on_can (params, NULL, &at, NULL));
  g_assert_null (latent_going_on_next (params, NULL, &at));
}

/* Where the run stands decides first: nothing shown, an instant result, a
 * run failed or still starting, one not finished, a frame not its last,
 * an algorithm without a budget. */
static void
test_going_on_run_state (void)
{
  g_autoptr(LatentParams) params = iterative (10, 1e-3);
  g_autoptr(LatentParams) unbounded = latent_params_new (unbounded_specs, G_N_ELEMENTS (unbounded_specs));
  LatentSnapshot frame = { .iteration = 10, .final = TRUE };
  LatentGoingOnAt at = finished_at (&frame);
  const LatentRunState not_finished[] = { LATENT_RUN_PAUSED, LATENT_RUN_RUNNING, LATENT_RUN_STOPPED };
  guint from;

  g_assert_true (latent_going_on_can (params, NULL, &at, NULL));

  at.shown = NULL;
  from = G_MAXUINT;
  g_assert_false (latent_going_on_can (params, NULL, &at, &from));
  g_assert_cmpuint (from, ==, G_MAXUINT);
  g_assert_null (latent_going_on_next (params, NULL, &at));
  at.shown = &frame;

  at.instant = TRUE;
  g_assert_false (latent_going_on_can (params, NULL, &at, &from));
  g_assert_cmpuint (from, ==, G_MAXUINT);
  g_assert_null (latent_going_on_next (params, NULL, &at));
  at.instant = FALSE;

  at.state = LATENT_RUN_FAILED;
  g_assert_false (latent_going_on_can (params, NULL, &at, &from));
  g_assert_cmpuint (from, ==, G_MAXUINT);
  at.state = LATENT_RUN_INITIALISING;
  g_assert_false (latent_going_on_can (params, NULL, &at, &from));
  g_assert_cmpuint (from, ==, G_MAXUINT);
  g_assert_null (latent_going_on_next (params, NULL, &at));

  for (guint i = 0; i < G_N_ELEMENTS (not_finished); i++)
    {
      at.state = not_finished[i];
      from = G_MAXUINT;
      g_assert_false (latent_going_on_can (params, NULL, &at, &from));
      g_assert_cmpuint (from, ==, 10);
      g_assert_null (latent_going_on_next (params, NULL, &at));
    }
  at.state = LATENT_RUN_FINISHED;

  frame.final = FALSE;
  g_assert_false (latent_going_on_can (params, NULL, &at, NULL));
  frame.final = TRUE;

  g_assert_false (latent_going_on_can (unbounded, NULL, &at, NULL));
  frame.converged = TRUE;
  g_assert_false (latent_going_on_can (unbounded, NULL, &at, NULL));
  g_assert_null (latent_going_on_next (unbounded, NULL, &at));
}

/* Scrubbed back to an earlier iteration: a new run from there, whatever
 * the run's state and budget, with the values it had. */
static void
test_going_on_scrubbed_back (void)
{
  g_autoptr(LatentParams) params = iterative (10, 1e-3);
  g_autoptr(LatentParams) going_on = iterative (40, 0);
  g_autoptr(LatentParams) unbounded = latent_params_new (unbounded_specs, G_N_ELEMENTS (unbounded_specs));
  LatentSnapshot frame = { .iteration = 3 };
  LatentGoingOnAt at = { .shown = &frame, .state = LATENT_RUN_PAUSED, .newest = 8, .follow = FALSE };
  const LatentRunState states[] = { LATENT_RUN_PAUSED, LATENT_RUN_RUNNING, LATENT_RUN_STOPPED, LATENT_RUN_FINISHED };

  for (guint i = 0; i < G_N_ELEMENTS (states); i++)
    {
      guint from = G_MAXUINT;

      at.state = states[i];
      g_assert_true (latent_going_on_can (params, NULL, &at, &from));
      g_assert_cmpuint (from, ==, 3);
      g_assert_true (latent_going_on_can (params, going_on, &at, NULL));
      g_assert_true (latent_going_on_can (unbounded, NULL, &at, NULL));
      /* The run goes on with the values it has, the panel's note as it was. */
      g_assert_null (latent_going_on_next (params, NULL, &at));
      g_assert_null (latent_going_on_next (params, going_on, &at));
    }

  /* Following, an older frame shown is no scrubbing back. */
  at.state = LATENT_RUN_PAUSED;
  at.follow = TRUE;
  g_assert_false (latent_going_on_can (params, NULL, &at, NULL));
  /* Not following, but at the newest frame: a finished run's own rules,
   * and it goes on with the values it has. */
  at.follow = FALSE;
  at.state = LATENT_RUN_FINISHED;
  at.newest = 3;
  frame.final = TRUE;
  frame.converged = TRUE;
  g_assert_true (latent_going_on_can (params, NULL, &at, NULL));
  g_assert_null (latent_going_on_next (params, NULL, &at));
  frame.final = FALSE;
  g_assert_false (latent_going_on_can (params, NULL, &at, NULL));
  /* An instant result has no timeline to go back along. */
  at.newest = 8;
  at.instant = TRUE;
  g_assert_false (latent_going_on_can (params, NULL, &at, NULL));
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/going-on/converged", test_going_on_converged);
  g_test_add_func ("/going-on/at-budget", test_going_on_at_budget);
  g_test_add_func ("/going-on/converged-at-budget", test_going_on_converged_at_budget);
  g_test_add_func ("/going-on/again", test_going_on_again);
  g_test_add_func ("/going-on/up-to-bound", test_going_on_up_to_bound);
  g_test_add_func ("/going-on/from-zero", test_going_on_from_zero);
  g_test_add_func ("/going-on/nothing-further", test_going_on_nothing_further);
  g_test_add_func ("/going-on/under-budget", test_going_on_under_budget);
  g_test_add_func ("/going-on/note", test_going_on_note);
  g_test_add_func ("/going-on/budget-only", test_going_on_budget_only);
  g_test_add_func ("/going-on/run-state", test_going_on_run_state);
  g_test_add_func ("/going-on/scrubbed-back", test_going_on_scrubbed_back);
  return g_test_run ();
}
