/* latent-param-doc.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#define G_LOG_DOMAIN "latent-param-doc"

#include "latent-param-doc.h"

#include <glib/gi18n-lib.h>

#include "latent-registry.h"

/* "1 … 65536", "lifetime | k-sparse | none", "true | false". */
static char *
values_of (const LatentParamSpec *spec)
{
  g_autoptr(GString) s = g_string_new (NULL);
  char min[G_ASCII_DTOSTR_BUF_SIZE], max[G_ASCII_DTOSTR_BUF_SIZE];

  switch (spec->type)
    {
    case LATENT_PARAM_INT:
    case LATENT_PARAM_DOUBLE:
      g_string_printf (s, "%s … %s", g_ascii_formatd (min, sizeof min, "%.15g", spec->min),
                       g_ascii_formatd (max, sizeof max, "%.15g", spec->max));
      break;
    case LATENT_PARAM_BOOL:
      g_string_assign (s, "true | false");
      break;
    case LATENT_PARAM_CHOICE:
      for (guint i = 0; spec->choices[i]; i++)
        g_string_append_printf (s, "%s%s", i ? " | " : "", spec->choices[i]);
      if (spec->allow_file)
        g_string_append (s, " | @FILE.json");
      break;
    default:
      g_assert_not_reached ();
    }
  return g_string_free (g_steal_pointer (&s), FALSE);
}

static char *
default_of (const LatentParamSpec *spec)
{
  char buf[G_ASCII_DTOSTR_BUF_SIZE];

  switch (spec->type)
    {
    case LATENT_PARAM_INT:
    case LATENT_PARAM_DOUBLE:
      return g_strdup (g_ascii_formatd (buf, sizeof buf, "%.15g", spec->default_value));
    case LATENT_PARAM_BOOL:
      return g_strdup (spec->default_value != 0 ? "true" : "false");
    case LATENT_PARAM_CHOICE:
      return g_strdup (spec->default_choice);
    default:
      g_assert_not_reached ();
    }
}

static const char *
type_name (LatentParamType type)
{
  switch (type)
    {
    case LATENT_PARAM_INT: return _("whole number");
    case LATENT_PARAM_DOUBLE: return _("number");
    case LATENT_PARAM_BOOL: return _("true or false");
    case LATENT_PARAM_CHOICE: return _("choice");
    default: g_assert_not_reached ();
    }
}

/* What the front ends do with it, or NULL. */
static const char *
role_text (LatentParamRole role)
{
  switch (role)
    {
    case LATENT_PARAM_ROLE_NONE: return NULL;
    case LATENT_PARAM_ROLE_BUDGET: return _("The iteration budget: what latent-cli --iterations sets, and the window raises to go on past it");
    case LATENT_PARAM_ROLE_TOLERANCE: return _("The tolerance: 0 runs the whole budget, as the window does to go on past convergence");
    case LATENT_PARAM_ROLE_HELD_OUT: return _("The share held out to test: --test data replaces it");
    case LATENT_PARAM_ROLE_SWEEP: return _("What latent-cli sweep and Choose K vary");
    case LATENT_PARAM_ROLE_SEED: return _("The seed: the same one gives the same data");
    default: g_assert_not_reached ();
    }
}

/* "sparsity=lifetime|none" as "sparsity is lifetime or none". */
static char *
applies_text (const char *applies_when)
{
  g_auto(GStrv) parts = g_strsplit (applies_when, "=", 2);
  g_auto(GStrv) values = NULL;
  g_autofree char *joined = NULL;

  g_return_val_if_fail (parts[0] && parts[1], g_strdup (applies_when));
  values = g_strsplit (parts[1], "|", -1);
  joined = g_strjoinv (_(" or "), values);
  return g_strdup_printf (_("Only when %s is %s"), parts[0], joined);
}

char *
latent_param_doc_text (const LatentAlgorithm *algorithm)
{
  g_autoptr(GString) s = g_string_new (NULL);

  g_return_val_if_fail (algorithm != NULL, NULL);

  g_string_append_printf (s, "%s — %s\n", algorithm->id, _(algorithm->title));
  for (guint i = 0; i < algorithm->n_params; i++)
    {
      const LatentParamSpec *spec = &algorithm->params[i];
      g_autofree char *values = values_of (spec);
      g_autofree char *fallback = default_of (spec);
      const char *role = role_text (spec->role);

      g_string_append_printf (s, "\n  %s — %s\n", spec->name, _(spec->label));
      if (spec->type == LATENT_PARAM_BOOL)
        g_string_append_printf (s, _("    %s; default %s\n"), type_name (spec->type), fallback);
      else
        g_string_append_printf (s, _("    %s: %s; default %s\n"), type_name (spec->type), values, fallback);
      if (spec->zero_label)
        g_string_append_printf (s, _("    0 means: %s\n"), _(spec->zero_label));
      if (role)
        g_string_append_printf (s, "    %s\n", role);
      if (spec->applies_when)
        {
          g_autofree char *applies = applies_text (spec->applies_when);

          g_string_append_printf (s, "    %s\n", applies);
        }
      g_string_append_printf (s, "    %s\n", _(spec->tooltip));
    }
  return g_string_free (g_steal_pointer (&s), FALSE);
}

/* A table cell: no line breaks, no column separators. */
static void
append_cell (GString    *s,
             const char *text)
{
  for (const char *c = text; *c; c++)
    if (*c == '|')
      g_string_append (s, "\\|");
    else if (*c == '\n')
      g_string_append_c (s, ' ');
    else
      g_string_append_c (s, *c);
  g_string_append (s, " | ");
}

char *
latent_param_doc_markdown (void)
{
  const LatentAlgorithm * const *algorithms = latent_registry_list ();
  g_autoptr(GString) s = g_string_new (NULL);

  g_string_append (s, "# Parameters\n\n"
                      "Every parameter of every algorithm, as `latent-cli run ALGORITHM --param NAME=VALUE` "
                      "takes it and the window's panel shows it (the label). Generated by "
                      "`latent-cli params --markdown` from the algorithms' own tables; "
                      "the test `param-doc` fails when this file is stale.\n");
  for (guint a = 0; algorithms[a]; a++)
    {
      const LatentAlgorithm *algorithm = algorithms[a];

      g_string_append_printf (s, "\n## `%s` — %s\n\n", algorithm->id, _(algorithm->title));
      g_string_append (s, "| name | label | values | default | notes |\n|---|---|---|---|---|\n");
      for (guint i = 0; i < algorithm->n_params; i++)
        {
          const LatentParamSpec *spec = &algorithm->params[i];
          g_autofree char *values = values_of (spec);
          g_autofree char *fallback = default_of (spec);
          g_autofree char *name = g_strdup_printf ("`%s`", spec->name);
          g_autoptr(GString) notes = g_string_new (_(spec->tooltip));
          const char *role = role_text (spec->role);

          if (spec->zero_label)
            g_string_append_printf (notes, _(". 0 means: %s"), _(spec->zero_label));
          if (spec->applies_when)
            {
              g_autofree char *applies = applies_text (spec->applies_when);

              g_string_append_printf (notes, ". %s", applies);
            }
          if (role)
            g_string_append_printf (notes, ". %s", role);
          g_string_append (s, "| ");
          append_cell (s, name);
          append_cell (s, _(spec->label));
          append_cell (s, values);
          append_cell (s, fallback);
          append_cell (s, notes->str);
          g_string_truncate (s, s->len - 1);
          g_string_append_c (s, '\n');
        }
    }
  return g_string_free (g_steal_pointer (&s), FALSE);
}
