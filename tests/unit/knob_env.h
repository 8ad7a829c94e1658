/* Setting a CODECALC_* knob inside a unit test. Numeric, on/off and text
 * knobs are read once per process (protocol/knob.h, text_knob.h), so a
 * test that changes one has them read again; value NULL unsets it. */
#ifndef CC_TEST_KNOB_ENV_H
#define CC_TEST_KNOB_ENV_H

#include <stdlib.h>

#include "protocol/knob.h"

static inline void knob_setenv(const char *name, const char *value) {
    if (value) setenv(name, value, 1);
    else unsetenv(name);
    cc_knobs_reload();
}

#endif
