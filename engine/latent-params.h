/* latent-params.h — an algorithm's parameters, described once, used by the
 * CLI, the experiment files and the window's parameter panel.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <glib.h>
#include <json-glib/json-glib.h>

G_BEGIN_DECLS

#define LATENT_PARAM_ERROR (latent_param_error_quark ())

typedef enum {
  LATENT_PARAM_ERROR_UNKNOWN,   /* no parameter of that name */
  LATENT_PARAM_ERROR_INVALID,   /* value does not parse, or is out of range */
} LatentParamError;

GQuark latent_param_error_quark (void);

typedef enum {
  LATENT_PARAM_INT,
  LATENT_PARAM_DOUBLE,
  LATENT_PARAM_CHOICE,   /* one of choices[], or "@PATH" when allow_file */
  LATENT_PARAM_BOOL,
} LatentParamType;

/* What a budget counts, for the words that end a run. */
typedef enum {
  LATENT_PARAM_UNIT_ITERATIONS,  /* a limit on a search: "converged" or "iteration limit reached" */
  LATENT_PARAM_UNIT_EPOCHS,      /* passes over the training rows, asked for: "finished 5 epochs" */
  LATENT_PARAM_UNIT_EPISODES,    /* few-shot episodes, asked for */
  LATENT_PARAM_UNIT_PASSES,      /* a filter's passes: all of them are done */
} LatentParamUnit;

/* What a parameter is to the front ends, beyond its value. */
typedef enum {
  LATENT_PARAM_ROLE_NONE,
  /* The INT that bounds the steps a run takes (iterations, epochs,
   * passes, episodes): what `latent-cli --iterations` sets and what the
   * window raises to go on past it. Each algorithm has exactly one. */
  LATENT_PARAM_ROLE_BUDGET,
  /* The DOUBLE under which a change counts as converged; 0 runs the whole
   * budget, which is how the window goes on past convergence. */
  LATENT_PARAM_ROLE_TOLERANCE,
  /* The DOUBLE share of labelled rows held out to test; test data given
   * apart replaces it. */
  LATENT_PARAM_ROLE_HELD_OUT,
  /* The INT a sweep varies (choosing K by BIC and AIC). */
  LATENT_PARAM_ROLE_SWEEP,
  /* A generator's seed: the same one gives the same data. */
  LATENT_PARAM_ROLE_SEED,
} LatentParamRole;

typedef struct {
  const char         *name;       /* as typed: "max-iterations" */
  LatentParamType     type;
  const char         *label;      /* translatable, for the window */
  const char         *tooltip;    /* translatable */
  double              min;        /* INT and DOUBLE */
  double              max;
  double              default_value;
  const char         *default_choice;
  const char * const *choices;    /* NULL-terminated, CHOICE only */
  gboolean            allow_file; /* CHOICE: "@PATH" is accepted too */
  /* CHOICE: what the window shows for each of choices[], marked with N_()
   * and as many; NULL shows the values themselves. Values stay untranslated
   * on the command line and in JSON. */
  const char * const *choice_labels;
  /* NULL when the parameter always matters; else "NAME=VALUE|VALUE…": it
   * matters only while the parameter NAME has one of those values (PCA's
   * tolerance only for method=iterative). The window greys it out. */
  const char         *applies_when;
  /* INT or DOUBLE: what 0 means, when it means a choice made for you (marked with
   * N_(): "Automatic"); the window shows it instead of the number. */
  const char         *zero_label;
  LatentParamRole     role;
  /* The name it had before, which --param and experiment files saved
   * then still take; NULL if none. */
  const char         *renamed_from;
  /* LATENT_PARAM_ROLE_BUDGET: what it counts. */
  LatentParamUnit     unit;
  /* Where latent_params_read () puts the value in the algorithm's own
   * struct: set with LATENT_PARAM_INT_AT () and its kind, never by hand. */
  gsize               offset;
  gboolean            typed;
} LatentParamSpec;

/* A spec row's type and the field of struct TYPE that holds its value, of
 * the C type that goes with it (gint64, double, gboolean, const char *):
 * another type is a compile error, not a value written over its
 * neighbours. */
#define LATENT_PARAM_FIELD_(ctype, T, member) \
  .offset = _Generic (((T *) 0)->member, ctype: G_STRUCT_OFFSET (T, member)), .typed = TRUE
#define LATENT_PARAM_INT_AT(T, member) \
  .type = LATENT_PARAM_INT, LATENT_PARAM_FIELD_ (gint64, T, member)
#define LATENT_PARAM_DOUBLE_AT(T, member) \
  .type = LATENT_PARAM_DOUBLE, LATENT_PARAM_FIELD_ (double, T, member)
#define LATENT_PARAM_BOOL_AT(T, member) \
  .type = LATENT_PARAM_BOOL, LATENT_PARAM_FIELD_ (gboolean, T, member)
#define LATENT_PARAM_CHOICE_AT(T, member) \
  .type = LATENT_PARAM_CHOICE, LATENT_PARAM_FIELD_ (const char *, T, member)

typedef struct _LatentParams LatentParams;

LatentParams          *latent_params_new          (const LatentParamSpec *specs,
                                                   guint                  n_specs);
LatentParams          *latent_params_ref          (LatentParams          *self);
void                   latent_params_unref        (LatentParams          *self);
LatentParams          *latent_params_copy         (LatentParams          *self);

guint                  latent_params_get_n_specs  (LatentParams          *self);
const LatentParamSpec *latent_params_get_spec     (LatentParams          *self,
                                                   guint                  i);
/* The name of the parameter whose role is ROLE, or NULL. */
const char            *latent_params_find_role    (LatentParams          *self,
                                                   LatentParamRole        role);
/* TRUE when the parameters have one called NAME. */
gboolean               latent_params_has          (LatentParams          *self,
                                                   const char            *name);

/* "name=value" or name and value; errors name the parameter. */
gboolean               latent_params_parse        (LatentParams          *self,
                                                   const char            *assignment,
                                                   GError               **error);
gboolean               latent_params_set          (LatentParams          *self,
                                                   const char            *name,
                                                   const char            *value,
                                                   GError               **error);

/* Typed: the value is held against the same bounds as a typed one. Setting
 * a parameter as another type than its own is a programming error. */
gboolean               latent_params_set_int      (LatentParams          *self,
                                                   const char            *name,
                                                   gint64                 value,
                                                   GError               **error);
gboolean               latent_params_set_double   (LatentParams          *self,
                                                   const char            *name,
                                                   double                 value,
                                                   GError               **error);
gboolean               latent_params_set_bool     (LatentParams          *self,
                                                   const char            *name,
                                                   gboolean               value,
                                                   GError               **error);
/* The bounds of an INT or DOUBLE parameter; FALSE for any other. */
gboolean               latent_params_get_range    (LatentParams          *self,
                                                   const char            *name,
                                                   double                *min,
                                                   double                *max);

gint64                 latent_params_get_int      (LatentParams          *self,
                                                   const char            *name);
double                 latent_params_get_double   (LatentParams          *self,
                                                   const char            *name);
gboolean               latent_params_get_bool     (LatentParams          *self,
                                                   const char            *name);
const char            *latent_params_get_choice   (LatentParams          *self,
                                                   const char            *name);
/* Every value into the struct at @out, at the fields the specs name (all of
 * them declared with LATENT_PARAM_*_AT): what an algorithm reads once, so
 * that it reads fields, not names. A CHOICE's string belongs to @self and
 * lives until that value changes. Parameters of another table whose fields
 * lie beyond the struct are refused (a critical), not written past it. */
#define latent_params_read(self, out) latent_params_read_sized ((self), (out), sizeof *(out))
void                   latent_params_read_sized   (LatentParams          *self,
                                                   gpointer               out,
                                                   gsize                  size);
/* Whether @spec's parameter matters with the other values as they are
 * (its applies_when). */
gboolean               latent_params_applies      (LatentParams          *self,
                                                   const LatentParamSpec *spec);
/* The value as it would be typed, e.g. for PNG metadata. */
char                  *latent_params_to_string    (LatentParams          *self);
JsonNode              *latent_params_to_json      (LatentParams          *self);
gboolean               latent_params_set_from_json (LatentParams         *self,
                                                   JsonObject            *object,
                                                   GError               **error);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (LatentParams, latent_params_unref)

G_END_DECLS
