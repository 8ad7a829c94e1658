// The Python semantics the transpiled JavaScript runs on
// (workers/exec/validate/helpers/ccv_pyjs_runtime.js, embedded verbatim in
// every transpiled_code). A copy is proved only on the caller's examples, so
// every other input relies on this runtime computing what CPython computes.
// Each expected value below is CPython 3.11's answer; each test is named for
// the wrong value the runtime gave before (lane lead41, found by running
// transpiled functions and CPython on the same inputs).
import { test, describe } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';

const SRC = readFileSync(new URL('../../workers/exec/validate/helpers/ccv_pyjs_runtime.js', import.meta.url), 'utf8');
const R = new Function(`${SRC}\nreturn { $toint, $floordiv, $mod, $truediv, $pow, $add, $B, $math, $format, $repr, $m };`)();

/** CPython's repr of the value, or the exception's type name. */
function py(f) {
  try { return R.$repr(f()); } catch (e) { if (e.pytype) return `${e.pytype}`; throw e; }
}

describe('pyjs runtime: CPython values on inputs no example covered', () => {
  test('float_floor_division_rounded_the_quotient', () => {
    // 0.1 is a little above 1/10: CPython's fmod-based quotient is 9.0.
    assert.equal(py(() => R.$floordiv(1n, 0.1)), '9.0');
    assert.equal(py(() => R.$B.divmod(1n, 0.1)), '(9.0, 0.09999999999999995)');
    assert.equal(py(() => R.$floordiv(Infinity, 2n)), 'nan');
    assert.equal(py(() => R.$B.divmod(Infinity, 2n)), '(nan, nan)');
    assert.equal(py(() => R.$B.divmod(-0, 1.5)), '(-0.0, 0.0)');
    assert.equal(py(() => R.$floordiv(-7.5, 2n)), '-4.0');
  });

  test('int_true_division_rounded_twice', () => {
    assert.equal(py(() => R.$truediv(2n ** 70n + 1n, 3n)), '3.935305402391371e+20');
    assert.equal(py(() => R.$truediv(10n ** 400n, 10n ** 399n)), '10.0');
    assert.equal(py(() => R.$truediv(10n ** 400n, 3n)), 'OverflowError');
    assert.equal(py(() => R.$truediv(0n, -5n)), '-0.0');
  });

  test('int_too_large_for_a_float_became_inf', () => {
    assert.equal(py(() => R.$add(10n ** 400n, 1.0)), 'OverflowError');
    assert.equal(py(() => R.$math.sqrt(10n ** 400n)), 'OverflowError');
  });

  test('power_with_whole_exponent_off_in_the_last_place', () => {
    assert.equal(py(() => R.$pow(7n, -2n)), '0.02040816326530612');
    assert.equal(py(() => R.$pow(179n, -2n)), '3.121001217190475e-05');
    assert.equal(py(() => R.$pow(2n, -1074n)), '5e-324');
    assert.equal(py(() => R.$pow(-2.0, -1075n)), '-0.0');
  });

  test('power_overflow_and_complex_results_were_values', () => {
    assert.equal(py(() => R.$pow(1e308, 10.0)), 'OverflowError');
    // (-8) ** (1/3) is a complex number in Python 3, not nan.
    assert.equal(py(() => R.$pow(-8n, 1 / 3)), 'NotImplementedError');
    assert.equal(py(() => R.$pow(0n, -1n)), 'ZeroDivisionError');
    assert.equal(py(() => R.$pow(1.0, NaN)), '1.0');
    assert.equal(py(() => R.$pow(-1.0, Infinity)), '1.0');
  });

  test('float_repr_between_1e_5_and_1e_4_was_positional', () => {
    assert.equal(py(() => 3.12e-5), '3.12e-05');
    assert.equal(py(() => 1e-5), '1e-05');
    assert.equal(py(() => 0.0001), '0.0001');
  });

  test('math_range_and_domain_errors_returned_inf_or_nan', () => {
    assert.equal(py(() => R.$math.exp(1000n)), 'OverflowError');
    assert.equal(py(() => R.$math.log(0n)), 'ValueError');
    assert.equal(py(() => R.$math.sqrt(-1n)), 'ValueError');
    assert.equal(py(() => R.$math.log(10n ** 400n)), '921.0340371976182');
    assert.equal(py(() => R.$math.log10(10n ** 400n)), '400.0');
    assert.equal(py(() => R.$math.log(8n, 2n)), '3.0');
  });

  test('format_codes_accepted_for_the_wrong_type', () => {
    assert.equal(py(() => R.$format(7.5, 'x')), 'ValueError');
    assert.equal(py(() => R.$format('ab', ',')), 'ValueError');
    assert.equal(py(() => R.$format(5n, 's')), 'ValueError');
    assert.equal(py(() => R.$format(5n, ',x')), 'ValueError');
    assert.equal(py(() => R.$B.round('ab')), 'TypeError');
  });

  test('format_e_g_and_underscore_were_not_translated', () => {
    const cases = [[12345.678, 'e', '1.234568e+04'], [0.125, '.1e', '1.2e-01'], [9.9999, '.2e', '1.00e+01'],
      [1e-310, '.3E', '1.000E-310'], [10n ** 30n, 'e', '1.000000e+30'], [123.0, '.3', '1.23e+02'],
      [12.0, '.3', '12.0'], [123.0, '.3g', '123'], [0.00015, 'g', '0.00015'], [1e16, 'g', '1e+16'],
      [-0, 'g', '-0'], [2.5, '#.3g', '2.50'], [10n ** 10n, '_', '10_000_000_000'], [1234.5, '_.2f', '1_234.50']];
    for (const [v, spec, want] of cases) assert.equal(R.$format(v, spec), want, `format(${v}, '${spec}')`);
  });

  test('alternate_form_prefix_and_string_precision_dropped', () => {
    assert.equal(R.$format(255n, '#010x'), '0x000000ff');
    assert.equal(R.$format(-255n, '#X'), '-0XFF');
    assert.equal(R.$format(5n, '#b'), '0b101');
    assert.equal(R.$format('héllo', '.3'), 'hél');
    assert.equal(R.$format('ab', 's'), 'ab');
  });

  test('int_of_a_prefixed_string_refused', () => {
    assert.equal(py(() => R.$toint('0x1f', 16n)), '31');
    assert.equal(py(() => R.$toint('-0b101', 0n)), '-5');
    assert.equal(py(() => R.$toint('0o17', 8n)), '15');
    assert.equal(py(() => R.$toint('0x1f', 10n)), 'ValueError');
    assert.equal(py(() => R.$toint('12', 0n)), '12');
  });

  test('str_center_split_the_padding_like_format', () => {
    // CPython's str.center puts the odd pad on the left when the width is odd.
    assert.equal(R.$m('ab', 'center', [9n, '*']), '****ab***');
    assert.equal(R.$m('-0.0', 'center', [9n, '*']), '***-0.0**');
    assert.equal(R.$m('abc', 'center', [6n]), ' abc  ');
  });
});
