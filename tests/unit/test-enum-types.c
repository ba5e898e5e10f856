/* test-enum-types.c — the generated GTypes of the figures' enums
 *
 * LatentFigureKind's GType is generated from latent-figure.h by
 * gnome.mkenums_simple (ui/meson.build), so every value of the C enum is
 * registered: a hand-written table once missed SEGMENTS, and the figure
 * view's "kind" property then refused it. Each value's nick is the name
 * latent-cli and the PNG metadata use (latent_figure_kind_to_string ()),
 * so code that goes by nick and code that goes by name agree.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#define G_LOG_DOMAIN "latent-test-enum-types"

#include <glib-object.h>

#include "latent-figure.h"
#include "latent-figure-enum-types.h"

/* Every kind, from the first to the last, is a value of the GType, under
 * its own name, and its nick finds it again. */
static void
test_figure_kind_every_value (void)
{
  GEnumClass *klass = g_type_class_ref (LATENT_TYPE_FIGURE_KIND);

  g_assert_true (G_TYPE_IS_ENUM (LATENT_TYPE_FIGURE_KIND));
  g_assert_cmpstr (g_type_name (LATENT_TYPE_FIGURE_KIND), ==, "LatentFigureKind");
  g_assert_cmpint (klass->minimum, <=, LATENT_FIGURE_AUTO);
  g_assert_cmpint (klass->maximum, >=, LATENT_FIGURE_N_KINDS - 1);

  for (int v = LATENT_FIGURE_AUTO; v < LATENT_FIGURE_N_KINDS; v++)
    {
      GEnumValue *value = g_enum_get_value (klass, v);
      const char *name = latent_figure_kind_to_string (v);
      GEnumValue *by_nick;

      if (value == NULL)
        g_test_fail_printf ("LatentFigureKind %d (\"%s\") is not registered", v, name);
      g_assert_nonnull (value);
      g_assert_nonnull (name);
      g_assert_cmpstr (value->value_nick, ==, name);
      by_nick = g_enum_get_value_by_nick (klass, name);
      g_assert_nonnull (by_nick);
      g_assert_cmpint (by_nick->value, ==, v);
    }

  g_type_class_unref (klass);
}

/* Every kind but AUTO is drawn by some figure file's row (listed in
 * ui/meson.build's figure_kind_files), which gives it a title of its own. */
static void
test_figure_kind_every_row (void)
{
  g_autoptr(GHashTable) titles = g_hash_table_new (g_str_hash, g_str_equal);

  for (int v = LATENT_FIGURE_AUTO + 1; v < LATENT_FIGURE_N_KINDS; v++)
    {
      const char *title = latent_figure_kind_get_title (v, NULL);

      if (title == NULL)
        g_test_fail_printf ("LatentFigureKind \"%s\" has no row in a figure file",
                            latent_figure_kind_to_string (v));
      g_assert_nonnull (title);
      g_assert_cmpstr (title, !=, "");
      g_assert_false (g_hash_table_contains (titles, title));
      g_hash_table_add (titles, (gpointer) title);
    }
}

/* The value the hand-written table missed, spelled out. */
static void
test_figure_kind_segments (void)
{
  GEnumClass *klass = g_type_class_ref (LATENT_TYPE_FIGURE_KIND);
  GEnumValue *value = g_enum_get_value (klass, LATENT_FIGURE_SEGMENTS);

  g_assert_nonnull (value);
  g_assert_cmpstr (value->value_name, ==, "LATENT_FIGURE_SEGMENTS");
  g_assert_cmpstr (value->value_nick, ==, "segments");
  g_type_class_unref (klass);
}

/* What the figure view's "kind" property does with a value: an enum
 * property keeps every kind as it is, none is turned into the default. */
static void
test_figure_kind_property (void)
{
  GParamSpec *pspec = g_param_spec_enum ("kind", NULL, NULL, LATENT_TYPE_FIGURE_KIND,
                                         LATENT_FIGURE_AUTO, G_PARAM_READWRITE);

  g_param_spec_ref_sink (pspec);
  for (int v = LATENT_FIGURE_AUTO; v < LATENT_FIGURE_N_KINDS; v++)
    {
      GValue value = G_VALUE_INIT;

      g_value_init (&value, LATENT_TYPE_FIGURE_KIND);
      g_value_set_enum (&value, v);
      if (g_param_value_validate (pspec, &value))
        g_test_fail_printf ("the \"kind\" property turns %s into %d",
                            latent_figure_kind_to_string (v), g_value_get_enum (&value));
      g_assert_cmpint (g_value_get_enum (&value), ==, v);
      g_value_unset (&value);
    }
  g_param_spec_unref (pspec);
}

/* The other enum of latent-figure.h is generated too, every value. */
static void
test_figure_error (void)
{
  static const struct {
    LatentFigureError value;
    const char       *nick;
  } errors[] = {
    { LATENT_FIGURE_ERROR_FORMAT, "format" },
    { LATENT_FIGURE_ERROR_SIZE, "size" },
    { LATENT_FIGURE_ERROR_RENDER, "render" },
    { LATENT_FIGURE_ERROR_KIND, "kind" },
    { LATENT_FIGURE_ERROR_ENCODE, "encode" },
  };
  GEnumClass *klass = g_type_class_ref (LATENT_TYPE_FIGURE_ERROR);

  g_assert_cmpstr (g_type_name (LATENT_TYPE_FIGURE_ERROR), ==, "LatentFigureError");
  g_assert_cmpuint (klass->n_values, ==, G_N_ELEMENTS (errors));
  for (gsize i = 0; i < G_N_ELEMENTS (errors); i++)
    {
      GEnumValue *value = g_enum_get_value (klass, errors[i].value);

      g_assert_nonnull (value);
      g_assert_cmpstr (value->value_nick, ==, errors[i].nick);
    }
  g_type_class_unref (klass);
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/enum-types/figure-kind/every-value", test_figure_kind_every_value);
  g_test_add_func ("/enum-types/figure-kind/every-row", test_figure_kind_every_row);
  g_test_add_func ("/enum-types/figure-kind/segments", test_figure_kind_segments);
  g_test_add_func ("/enum-types/figure-kind/property", test_figure_kind_property);
  g_test_add_func ("/enum-types/figure-error", test_figure_error);

  return g_test_run ();
}
