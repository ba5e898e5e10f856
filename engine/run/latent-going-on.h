/* latent-going-on.h — Run on a finished run: going past its own values
 *
 * A run that converged, or used up its iteration budget, can go on: Run
 * (or Step) starts a run from the iteration shown with values for that run
 * only — the tolerance at 0 when it converged, twice the budget (up to the
 * budget's own bound) when it reached it — while the person's values stay
 * as they set them. Scrubbed back to an earlier iteration, it goes on from
 * there with the values the run had. These rules know no widget: the
 * window asks them, and a test drives them without a display.
 *
 * Parameters are found by role (LATENT_PARAM_ROLE_BUDGET and
 * LATENT_PARAM_ROLE_TOLERANCE of @params), never by name.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include "latent-params.h"
#include "latent-run.h"
#include "latent-snapshot.h"

G_BEGIN_DECLS

/* Where the run and its timeline stand. */
typedef struct
{
  const LatentSnapshot *shown;    /* the frame shown, or NULL */
  LatentRunState        state;    /* the run's; LATENT_RUN_FAILED when there is none */
  guint                 newest;   /* the newest iteration the run has reported */
  gboolean              follow;   /* the timeline shows each newest frame as it comes */
  gboolean              instant;  /* the algorithm computes its result at once */
} LatentGoingOnAt;

/* What the parameter panel says about the run's values. */
typedef enum {
  LATENT_GOING_ON_NOTE_NONE,              /* the run has the person's values */
  LATENT_GOING_ON_NOTE_MORE_ITERATIONS,   /* going on, up to a budget of its own */
  LATENT_GOING_ON_NOTE_PAST_CONVERGENCE,  /* going on, its tolerance at 0 where theirs is not */
} LatentGoingOnNote;

/* Whether Run or Step can go on where @at stands when the run cannot take
 * them as it is: scrubbed back to an earlier iteration, stopped at its
 * budget (still under the budget's bound), or converged (with a tolerance
 * still above 0). @going_on is the values the run has when they are not
 * the person's @params, else NULL. @from, if not NULL, is set to the
 * iteration shown whenever a frame is shown and the run is neither failed
 * nor initialising, whatever the answer. */
gboolean          latent_going_on_can  (LatentParams          *params,
                                        LatentParams          *going_on,
                                        const LatentGoingOnAt *at,
                                        guint                 *from);
/* The values to go on with, new; NULL when the run goes on with the values
 * it has (scrubbed back) or cannot go on. Converged: the tolerance at 0;
 * at the budget: twice it (from 1 at least), up to the budget's bound. */
LatentParams     *latent_going_on_next (LatentParams          *params,
                                        LatentParams          *going_on,
                                        const LatentGoingOnAt *at);
/* What the panel says while the run goes on with @going_on (NULL: the
 * person's values, NOTE_NONE); @limit, if not NULL, is set to its budget
 * (0 with NOTE_NONE). */
LatentGoingOnNote latent_going_on_note (LatentParams          *params,
                                        LatentParams          *going_on,
                                        gint64                *limit);

/* The same, as the panel says it, translated; NULL with NOTE_NONE. */
char             *latent_going_on_describe_note (LatentParams *params,
                                                 LatentParams *going_on);

G_END_DECLS
