/* The "nums" list argument of calc_stats and percentiles (see numlist.h). */
#include "workers/calc/numlist.h"

#include "workers/calc/numfmt.h"
#include "workers/common/tool_api.h"

#include <math.h>
#include <stdlib.h>

/* Fill v[0..n) from the array, stopping at the first bad element; NULL when
 * every element is a finite number, else the rejection naming it. */
static json_t *read_values(const json_t *nums, double *v, size_t n, const char *tool) {
    for (size_t i = 0; i < n; i++) {
        char buf[32];
        const json_t *x = json_array_get(nums, i);
        bool read = cc_nf_get_number(x, &v[i]) == 0;
        /* an integer of 309 digits or more has no double: say so, not
         * "must be a number" or "= inf" */
        if (cc_json_is_bigint(x) && !(read && isfinite(v[i])))
            return cc_err("validation", "nums[%zu] is an integer of %zu digits, beyond binary64's range "
                          "(about 1.8e308); %s needs finite numbers", i,
                          json_string_length(x) - CC_BIGINT_PREFIX_LEN, tool);
        if (!read)
            return cc_err("validation", "nums[%zu] must be a number", i);
        if (!isfinite(v[i]))
            return cc_err("validation", "nums[%zu] = %s is not finite; %s needs finite numbers", i,
                          cc_float_repr(v[i], buf), tool);
    }
    return NULL;
}

int cc_numlist_read(const json_t *args, size_t min_n, const char *tool, double **out, size_t *n,
                    json_t **err) {
    *err = NULL;
    json_t *nums = json_object_get(args, "nums");
    if (!json_is_array(nums)) {
        *err = cc_err("validation", "nums must be an array of numbers");
        return -1;
    }
    size_t len = json_array_size(nums);
    size_t need = min_n ? min_n : 1; /* an empty list has no statistics */
    if (len < need) {
        *err = cc_err("validation", "need at least %zu number%s", need, need == 1 ? "" : "s");
        return -1;
    }
    double *v = malloc(len * sizeof *v);
    if (!v) return -1; /* *err stays NULL: out of memory */
    *err = read_values(nums, v, len, tool);
    if (*err) {
        free(v);
        return -1;
    }
    *out = v;
    *n = len;
    return 0;
}


/* The exact value of an element already read as the finite double d. */
static void exact_of(const json_t *j, double d, mpq_t out) {
    mpz_t z;
    mpz_init(z);
    if ((json_is_integer(j) || cc_json_is_bigint(j)) && cc_json_get_mpz(j, z) == 0)
        mpq_set_z(out, z);
    else
        mpq_set_d(out, d);
    mpz_clear(z);
}

int cc_numlist_read_q(const json_t *args, size_t min_n, const char *tool, mpq_t **out, size_t *n,
                      json_t **err) {
    double *d;
    if (cc_numlist_read(args, min_n, tool, &d, n, err)) return -1;
    mpq_t *v = malloc(*n * sizeof *v);
    if (!v) {
        free(d);
        return -1; /* *err stays NULL: out of memory */
    }
    const json_t *nums = json_object_get(args, "nums");
    for (size_t i = 0; i < *n; i++) {
        mpq_init(v[i]);
        exact_of(json_array_get(nums, i), d[i], v[i]);
    }
    free(d);
    *out = v;
    return 0;
}

void cc_numlist_free_q(mpq_t *v, size_t n) {
    for (size_t i = 0; i < n; i++) mpq_clear(v[i]);
    free(v);
}

static int cmp_q(const void *a, const void *b) {
    return mpq_cmp(*(const mpq_t *)a, *(const mpq_t *)b);
}

void cc_numlist_sort_q(mpq_t *v, size_t n) { qsort(v, n, sizeof *v, cmp_q); }
