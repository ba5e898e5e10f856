/* test-params.c — parameters as typed, checked, copied and written as JSON
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "latent-registry.h"
#include "latent-algorithm.h"

static const char * const shapes[] = { "round", "square", NULL };
static const char * const shape_labels[] = { "Round", "Square", NULL };

static const LatentParamSpec specs[] = {
  { .name = "count", .type = LATENT_PARAM_INT,
    .label = "Count",
    .tooltip = "",
    .min = 1, .max = 100, .default_value = 10 },
  { .name = "rate", .type = LATENT_PARAM_DOUBLE,
    .label = "Rate",
    .tooltip = "",
    .min = 0, .max = 1, .default_value = 0.5,
    .renamed_from = "speed" },
  { .name = "shape", .type = LATENT_PARAM_CHOICE,
    .label = "Shape",
    .tooltip = "",
    .default_choice = "round",
    .choices = shapes,
    .allow_file = TRUE,
    .choice_labels = shape_labels },
  { .name = "verbose", .type = LATENT_PARAM_BOOL,
    .label = "Verbose",
    .tooltip = "",
    .default_value = FALSE },
};

static LatentParams *
new_params (void)
{
  return latent_params_new (specs, G_N_ELEMENTS (specs));
}

typedef struct {
  double      rate;
  const char *shape;
  gint64      count;
  gboolean    verbose;
} Typed;

static const LatentParamSpec typed_specs[] = {
  { .name = "count", LATENT_PARAM_INT_AT (Typed, count), .min = 1, .max = 100, .default_value = 10 },
  { .name = "rate", LATENT_PARAM_DOUBLE_AT (Typed, rate), .min = 0, .max = 1, .default_value = 0.5 },
  { .name = "shape", LATENT_PARAM_CHOICE_AT (Typed, shape), .default_choice = "round", .choices = shapes,
    .allow_file = TRUE },
  { .name = "verbose", LATENT_PARAM_BOOL_AT (Typed, verbose), .default_value = TRUE },
};

/* Read once into the algorithm's struct, each value at its own field
 * whatever the order of the fields. */
static void
test_read (void)
{
  g_autoptr(LatentParams) params = latent_params_new (typed_specs, G_N_ELEMENTS (typed_specs));
  Typed t;

  memset (&t, 0xa5, sizeof t);
  latent_params_read (params, &t);
  g_assert_cmpint (t.count, ==, 10);
  g_assert_cmpfloat (t.rate, ==, 0.5);
  g_assert_cmpstr (t.shape, ==, "round");
  g_assert_true (t.verbose);

  g_assert_true (latent_params_parse (params, "count=77", NULL));
  g_assert_true (latent_params_parse (params, "rate=0.125", NULL));
  g_assert_true (latent_params_parse (params, "shape=@/tmp/x", NULL));
  g_assert_true (latent_params_parse (params, "verbose=false", NULL));
  latent_params_read (params, &t);
  g_assert_cmpint (t.count, ==, 77);
  g_assert_cmpfloat (t.rate, ==, 0.125);
  g_assert_cmpstr (t.shape, ==, "@/tmp/x");
  g_assert_false (t.verbose);

  /* Into another table's struct, smaller: refused, nothing written past it. */
  {
    struct { double only; gint64 guard; } small = { 42, 7 };

    g_test_expect_message ("latent-params", G_LOG_LEVEL_CRITICAL, "*size*");
    latent_params_read (params, &small.only);
    g_test_assert_expected_messages ();
    g_assert_cmpfloat (small.only, ==, 42);
    g_assert_cmpint (small.guard, ==, 7);
  }
}

/* A parameter's old name still sets it, from --param and from an
 * experiment saved before the rename; it is written under its new name. */
static void
test_renamed (void)
{
  g_autoptr(LatentParams) params = new_params ();
  g_autoptr(JsonParser) parser = json_parser_new ();
  g_autoptr(JsonNode) written = NULL;
  g_autoptr(GError) error = NULL;

  g_assert_true (latent_params_parse (params, "speed=0.25", &error));
  g_assert_no_error (error);
  g_assert_cmpfloat (latent_params_get_double (params, "rate"), ==, 0.25);

  g_assert_true (json_parser_load_from_data (parser, "{\"speed\": 0.75, \"count\": 3}", -1, NULL));
  g_assert_true (latent_params_set_from_json (params, json_node_get_object (json_parser_get_root (parser)), &error));
  g_assert_no_error (error);
  g_assert_cmpfloat (latent_params_get_double (params, "rate"), ==, 0.75);

  written = latent_params_to_json (params);
  g_assert_true (json_object_has_member (json_node_get_object (written), "rate"));
  g_assert_false (json_object_has_member (json_node_get_object (written), "speed"));
}

static void
test_defaults_and_values (void)
{
  g_autoptr(LatentParams) p = new_params ();
  g_autoptr(GError) error = NULL;

  g_assert_cmpint (latent_params_get_int (p, "count"), ==, 10);
  g_assert_cmpfloat (latent_params_get_double (p, "rate"), ==, 0.5);
  g_assert_cmpstr (latent_params_get_choice (p, "shape"), ==, "round");
  g_assert_false (latent_params_get_bool (p, "verbose"));

  g_assert_true (latent_params_parse (p, "count=42", &error));
  g_assert_true (latent_params_parse (p, "rate=1e-3", &error));
  g_assert_true (latent_params_parse (p, "shape=square", &error));
  g_assert_true (latent_params_parse (p, "verbose=yes", &error));
  g_assert_true (latent_params_parse (p, "shape=@/some/file.csv", &error));
  g_assert_no_error (error);
  g_assert_cmpint (latent_params_get_int (p, "count"), ==, 42);
  g_assert_cmpfloat (latent_params_get_double (p, "rate"), ==, 1e-3);
  g_assert_cmpstr (latent_params_get_choice (p, "shape"), ==, "@/some/file.csv");
  g_assert_true (latent_params_get_bool (p, "verbose"));
}

static void
expect_invalid (const char *assignment,
                GQuark      domain,
                int         code,
                const char *fragment)
{
  g_autoptr(LatentParams) p = new_params ();
  g_autoptr(GError) error = NULL;
  g_autofree char *before = latent_params_to_string (p);
  g_autofree char *after = NULL;

  g_assert_false (latent_params_parse (p, assignment, &error));
  g_assert_error (error, domain, code);
  if (!strstr (error->message, fragment))
    g_error ("“%s” does not mention “%s”", error->message, fragment);
  /* A refused value changes nothing. */
  after = latent_params_to_string (p);
  g_assert_cmpstr (before, ==, after);
}

static void
test_refused (void)
{
  expect_invalid ("colour=red", LATENT_PARAM_ERROR, LATENT_PARAM_ERROR_UNKNOWN, "colour");
  expect_invalid ("count=0", LATENT_PARAM_ERROR, LATENT_PARAM_ERROR_INVALID, "count");
  expect_invalid ("count=101", LATENT_PARAM_ERROR, LATENT_PARAM_ERROR_INVALID, "count");
  expect_invalid ("count=2.5", LATENT_PARAM_ERROR, LATENT_PARAM_ERROR_INVALID, "whole");
  expect_invalid ("count=", LATENT_PARAM_ERROR, LATENT_PARAM_ERROR_INVALID, "count");
  expect_invalid ("rate=nan", LATENT_PARAM_ERROR, LATENT_PARAM_ERROR_INVALID, "rate");
  expect_invalid ("rate=inf", LATENT_PARAM_ERROR, LATENT_PARAM_ERROR_INVALID, "rate");
  expect_invalid ("rate=0.5x", LATENT_PARAM_ERROR, LATENT_PARAM_ERROR_INVALID, "rate");
  expect_invalid ("shape=triangle", LATENT_PARAM_ERROR, LATENT_PARAM_ERROR_INVALID, "round|square|@FILE");
  expect_invalid ("shape=@", LATENT_PARAM_ERROR, LATENT_PARAM_ERROR_INVALID, "shape");
  expect_invalid ("verbose=maybe", LATENT_PARAM_ERROR, LATENT_PARAM_ERROR_INVALID, "verbose");
  expect_invalid ("count", LATENT_PARAM_ERROR, LATENT_PARAM_ERROR_INVALID, "NAME=VALUE");
  expect_invalid ("=3", LATENT_PARAM_ERROR, LATENT_PARAM_ERROR_INVALID, "NAME=VALUE");
}

static void
test_copy_and_json (void)
{
  g_autoptr(LatentParams) p = new_params ();
  g_autoptr(LatentParams) copy = NULL;
  g_autoptr(LatentParams) back = new_params ();
  g_autoptr(JsonNode) json = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *a = NULL, *b = NULL;

  g_assert_true (latent_params_parse (p, "count=7", NULL));
  g_assert_true (latent_params_parse (p, "shape=square", NULL));
  copy = latent_params_copy (p);
  g_assert_true (latent_params_parse (p, "count=8", NULL));
  /* The copy keeps its own values. */
  g_assert_cmpint (latent_params_get_int (copy, "count"), ==, 7);

  json = latent_params_to_json (copy);
  g_assert_true (latent_params_set_from_json (back, json_node_get_object (json), &error));
  g_assert_no_error (error);
  a = latent_params_to_string (copy);
  b = latent_params_to_string (back);
  g_assert_cmpstr (a, ==, b);
  g_assert_cmpstr (a, ==, "count=7 rate=0.5 shape=square verbose=false");
}

/* A tolerance of 1e-10 survives the trip through text: json-glib alone
 * would write it as "1e-10.0", which no parser accepts. */
static void
test_json_text (void)
{
  static const double values[] = { 1e-10, 2e-5, 1e-6, 3e-300, 0.5, 0 };
  g_autoptr(JsonGenerator) gen = json_generator_new ();
  g_autoptr(JsonParser) parser = json_parser_new ();
  g_autoptr(GError) error = NULL;

  for (guint i = 0; i < G_N_ELEMENTS (values); i++)
    {
      g_autoptr(LatentParams) p = new_params ();
      g_autoptr(LatentParams) back = new_params ();
      g_autoptr(JsonNode) json = NULL;
      g_autofree char *text = NULL, *assignment = g_strdup_printf ("rate=%.17g", values[i]);
      double got;

      g_assert_true (latent_params_parse (p, assignment, NULL));
      json = latent_params_to_json (p);
      json_generator_set_root (gen, json);
      text = json_generator_to_data (gen, NULL);
      g_assert_true (json_parser_load_from_data (parser, text, -1, &error));
      g_assert_no_error (error);
      g_assert_true (latent_params_set_from_json (back, json_node_get_object (json_parser_get_root (parser)),
                                                  &error));
      g_assert_no_error (error);
      got = latent_params_get_double (back, "rate");
      g_assert_cmpfloat_with_epsilon (got, values[i], 4e-16 * values[i] + DBL_MIN);
    }
}

/* Every algorithm's specs are well formed: defaults in range, choices with
 * as many labels, names unique. */
static void
test_algorithm_specs (void)
{
  const LatentAlgorithm * const *all = latent_registry_list ();

  g_assert_nonnull (all[0]);
  for (guint a = 0; all[a]; a++)
    {
      g_autoptr(LatentParams) p = latent_algorithm_new_params (all[a]);

      g_assert_nonnull (all[a]->objective_name);
      for (guint i = 0; i < all[a]->n_params; i++)
        {
          const LatentParamSpec *spec = &all[a]->params[i];

          for (guint j = 0; j < i; j++)
            g_assert_cmpstr (all[a]->params[j].name, !=, spec->name);
          if (spec->type == LATENT_PARAM_INT || spec->type == LATENT_PARAM_DOUBLE)
            {
              g_assert_cmpfloat (spec->min, <=, spec->default_value);
              g_assert_cmpfloat (spec->default_value, <=, spec->max);
            }
          if (spec->type == LATENT_PARAM_CHOICE)
            {
              g_assert_true (g_strv_contains (spec->choices, spec->default_choice));
              if (spec->choice_labels)
                g_assert_cmpuint (g_strv_length ((char **) spec->choice_labels), ==,
                                  g_strv_length ((char **) spec->choices));
            }
          /* A condition names another parameter of the algorithm, and
           * some value it can take. */
          if (spec->applies_when)
            {
              g_auto(GStrv) parts = g_strsplit (spec->applies_when, "=", 2);

              g_assert_true (latent_params_has (p, parts[0]));
              g_assert_cmpstr (parts[0], !=, spec->name);
              g_assert_nonnull (parts[1]);
            }
        }
    }
}

/* A parameter that matters only for some value of another. */
static void
test_applies (void)
{
  g_autoptr(GError) error = NULL;
  const LatentAlgorithm *pca = latent_registry_lookup ("pca", &error);
  const LatentAlgorithm *convolve = latent_registry_lookup ("convolve", &error);
  g_autoptr(LatentParams) p = latent_algorithm_new_params (pca);
  g_autoptr(LatentParams) c = latent_algorithm_new_params (convolve);
  const LatentParamSpec *tol = NULL, *components = NULL, *amount = NULL, *sigma = NULL;

  g_assert_no_error (error);
  for (guint i = 0; i < latent_params_get_n_specs (p); i++)
    {
      const LatentParamSpec *spec = latent_params_get_spec (p, i);

      if (g_str_equal (spec->name, "tol"))
        tol = spec;
      if (g_str_equal (spec->name, "components"))
        components = spec;
    }
  for (guint i = 0; i < latent_params_get_n_specs (c); i++)
    {
      const LatentParamSpec *spec = latent_params_get_spec (c, i);

      if (g_str_equal (spec->name, "amount"))
        amount = spec;
      if (g_str_equal (spec->name, "sigma"))
        sigma = spec;
    }
  /* Exact PCA has no tolerance; iterative has. */
  g_assert_false (latent_params_applies (p, tol));
  g_assert_true (latent_params_applies (p, components));
  g_assert_true (latent_params_parse (p, "method=iterative", NULL));
  g_assert_true (latent_params_applies (p, tol));
  /* A Gaussian blur has a σ but no amount; an unsharp mask both; Sobel neither. */
  g_assert_true (latent_params_applies (c, sigma));
  g_assert_false (latent_params_applies (c, amount));
  g_assert_true (latent_params_parse (c, "filter=unsharp", NULL));
  g_assert_true (latent_params_applies (c, amount));
  g_assert_true (latent_params_parse (c, "filter=sobel-x", NULL));
  g_assert_false (latent_params_applies (c, sigma));
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/params/defaults-and-values", test_defaults_and_values);
  g_test_add_func ("/params/refused", test_refused);
  g_test_add_func ("/params/copy-and-json", test_copy_and_json);
  g_test_add_func ("/params/json-text", test_json_text);
  g_test_add_func ("/params/algorithm-specs", test_algorithm_specs);
  g_test_add_func ("/params/applies", test_applies);
  g_test_add_func ("/params/renamed", test_renamed);
  g_test_add_func ("/params/read", test_read);
  return g_test_run ();
}
