// Programmer mode (TOOLS.md 3.3.10 - 3.3.15). Values beyond 2^53 travel as
// exact JSON digits, so those cases use the raw pipe and read the digits
// from the text block.
import { test, describe, before, after } from 'node:test';
import assert from 'node:assert/strict';
import {
  startServer, RawServer, assertRejected, rawNumber, schemaErrors, CONTRACT_VERSION, SKIP_NO_BINARY,
} from './harness.mjs';

describe('programmer mode (SDK client)', { skip: SKIP_NO_BINARY }, () => {
  let s;
  before(async () => { s = await startServer(); });
  after(async () => { await s?.close(); });

  // -- 3.3.10 base_repr
  test('base_repr 255', async () => {
    const r = await s.call('base_repr', { n: 255 });
    assert.equal(r.value, 255);
    assert.equal(r.hex, 'ff');
    assert.equal(r.oct, '377');
    assert.equal(r.bin, '11111111');
    assert.ok(!('overflow' in r) && !('signed_i8' in r), 'no width keys without width');
  });

  test('base_repr 3000000000 at 32 bits wraps', async () => {
    const r = await s.call('base_repr', { n: 3000000000, width: 32 });
    assert.equal(r.signed_i32, -1294967296);
    assert.equal(r.unsigned_u32, 3000000000);
    assert.equal(r.two_complement_bin, '10110010110100000101111000000000');
    assert.equal(r.wrapped_signed, -1294967296);
    assert.equal(r.signed_overflow, 'does not fit in signed i32 (range -2147483648..2147483647); fits u32 only');
  });

  test('base_repr -5 at 8 bits', async () => {
    const r = await s.call('base_repr', { n: -5, width: 8 });
    assert.equal(r.hex, '-5');
    assert.equal(r.oct, '-5');
    assert.equal(r.bin, '-101');
    assert.equal(r.signed_i8, -5);
    assert.equal(r.unsigned_u8, 251);
    assert.equal(r.two_complement_bin, '11111011');
    assert.ok(!('signed_overflow' in r));
  });

  test('base_repr 2^40 at 32 bits overflows', async () => {
    const r = await s.call('base_repr', { n: 2 ** 40, width: 32 });
    assert.equal(r.overflow, 'does not fit in signed i32 (range -2147483648..2147483647) nor unsigned u32');
    assert.equal(r.hex, '10000000000');
  });

  test('base_repr width 0 is validation', async () => {
    assertRejected(await s.call('base_repr', { n: 1, width: 0 }), 'validation', 'width must be positive');
  });

  // -- 3.3.11 radix_convert
  test('radix_convert examples', async () => {
    const cases = [
      ['0.1', 10, 2, '0.00011…', true], ['ff', 16, 10, '255', false], ['zz', 36, 7, '3530', false],
      ['0.5', 10, 2, '0.1', false], ['0.2', 10, 5, '0.1', false], ['-10.25', 10, 16, '-a.4', false],
      ['3.', 10, 2, '11', false], ['FF', 16, 2, '11111111', false],
    ];
    for (const [value, from_base, to_base, want, nonTerm] of cases) {
      const r = await s.call('radix_convert', { value, from_base, to_base });
      assert.equal(r.value, want, `${value} ${from_base}->${to_base}`);
      assert.equal(r.non_terminating, nonTerm, `${value} non_terminating`);
    }
  });

  test('radix_convert defaults to base 10 both ways', async () => {
    assert.equal((await s.call('radix_convert', { value: '0042' })).value, '42');
  });

  test('radix_convert failures', async () => {
    assertRejected(await s.call('radix_convert', { value: '12', from_base: 2, to_base: 10 }), 'validation',
      "invalid digit '2' for base 2");
    assertRejected(await s.call('radix_convert', { value: '1', from_base: 1, to_base: 10 }), 'validation',
      'bases must be 2..36');
    assertRejected(await s.call('radix_convert', { value: '1', from_base: 10, to_base: 37 }), 'validation',
      'bases must be 2..36');
  });

  // -- 3.3.12 float_repr
  test('float_repr 0.1', async () => {
    const r = await s.call('float_repr', { x: 0.1 });
    assert.equal(r.literal, '0.1');
    assert.equal(r.stored, '0.1000000000000000055511151231257827021182');
    assert.equal(r.bits_hex, '0x3fb999999999999a');
    assert.equal(r.sign, 0);
    assert.equal(r.exponent, 1019);
    assert.equal(r.fraction_hex, '0x999999999999a');
    assert.equal(r.exact, false);
    assert.equal(r.error, '1/180143985094819840');
    assert.equal(r.relative_error, 5.551115123125783e-17);
    assert.equal(r.ulp, 1.3877787807814457e-17);
    assert.equal(r.prev, 0.09999999999999999);
    assert.equal(r.next, 0.10000000000000002);
    assert.equal(r.note, null);
  });

  test('float_repr 0.25 is exact', async () => {
    const r = await s.call('float_repr', { x: 0.25 });
    assert.equal(r.stored, '0.25');
    assert.equal(r.exact, true);
    assert.equal(r.error, '0');
    assert.equal(r.relative_error, 0);
  });

  test('float_repr of the largest double has a null ulp and next', async () => {
    const r = await s.call('float_repr', { x: 1.7976931348623157e308 });
    assert.equal(r.literal, '1.7976931348623157e+308');
    assert.equal(r.ulp, null);
    assert.equal(r.next, null);
    assert.equal(r.bits_hex, '0x7fefffffffffffff');
  });

  // -- 3.3.13 int_widths
  test('int_widths 3000000000', async () => {
    const r = await s.call('int_widths', { n: 3000000000 });
    assert.deepEqual(r.fits, ['u32', 'i64', 'u64']);
    assert.deepEqual(r.wraps, ['i8/u8: too large (above 255)', 'i16/u16: too large (above 65535)',
      'i32: wraps to -1294967296']);
    assert.equal(r.note, null);
  });

  test('int_widths -200 and 127', async () => {
    const a = await s.call('int_widths', { n: -200 });
    assert.deepEqual(a.fits, ['i16', 'i32', 'i64']);
    assert.deepEqual(a.wraps, ['i8/u8: too negative (below -128)']);
    const b = await s.call('int_widths', { n: 127 });
    assert.deepEqual(b.fits, ['i8', 'u8', 'i16', 'u16', 'i32', 'u32', 'i64', 'u64']);
    assert.deepEqual(b.wraps, []);
  });

  // -- 3.3.14 bit_analysis
  test('bit_analysis 12', async () => {
    const r = await s.call('bit_analysis', { n: 12 });
    assert.equal(r.value, 12);
    assert.equal(r.popcount, 2);
    assert.equal(r.bit_length, 4);
    assert.equal(r.trailing_zeros, 2);
    assert.equal(r.is_power_of_two, false);
    assert.equal(r.next_power_of_two, 16);
    assert.ok(!('aligned_to' in r));
  });

  test('bit_analysis alignment, zero and powers of two', async () => {
    const a = await s.call('bit_analysis', { n: 7, align: 8 });
    assert.equal(a.aligned_to, 8);
    assert.equal(a.padding_needed, 1);
    assert.equal(a.aligned_value, 8);
    const z = await s.call('bit_analysis', { n: 0 });
    assert.equal(z.trailing_zeros, null);
    assert.equal(z.next_power_of_two, null);
    assert.equal(z.is_power_of_two, false);
    assert.equal(z.bit_length, 0);
    const p = await s.call('bit_analysis', { n: 64 });
    assert.equal(p.is_power_of_two, true);
    assert.equal(p.next_power_of_two, 64);
  });

  test('bit_analysis failures', async () => {
    assertRejected(await s.call('bit_analysis', { n: -1 }), 'validation', /^bit_analysis requires n >= 0/);
    assertRejected(await s.call('bit_analysis', { n: 1, align: 0 }), 'validation', 'alignment must be positive');
  });

  // -- 3.3.15 bitop
  test('bitop shr and sar at 8 bits', async () => {
    const r = await s.call('bitop', { a: 0x80, op: 'shr', b: 1, width: 8 });
    assert.deepEqual([r.op, r.width, r.unsigned, r.signed, r.hex, r.oct, r.bin],
      ['shr', 8, 64, 64, '0x40', '0o100', '01000000']);
    assert.ok(!('overflow' in r));
    const q = await s.call('bitop', { a: 0x80, op: 'SAR', b: 1, width: 8 });
    assert.deepEqual([q.op, q.unsigned, q.signed, q.hex], ['sar', 192, -64, '0xc0']);
  });

  test('bitop shl past the width', async () => {
    const r = await s.call('bitop', { a: 1, op: 'shl', b: 256, width: 8 });
    assert.equal(r.unsigned, 0);
    assert.equal(r.overflow, 'shift 256 >= width 8');
  });

  test('bitop shr past the width shows unpadded zero', async () => {
    const r = await s.call('bitop', { a: 0xff, op: 'shr', b: 9, width: 8 });
    assert.equal(r.unsigned, 0);
    assert.equal(r.hex, '0x0');
    assert.equal(r.oct, '0o0');
    assert.equal(r.bin, '00000000');
  });

  test('bitop not, rotates and xor', async () => {
    const n = await s.call('bitop', { a: 0, op: 'not', b: null, width: 8 });
    assert.equal(n.unsigned, 255);
    assert.equal(n.signed, -1);
    const rol = await s.call('bitop', { a: 0x0f, op: 'rol', b: 4, width: 8 });
    assert.equal(rol.hex, '0xf0');
    assert.equal(rol.unsigned, 0xf0);
    const ror = await s.call('bitop', { a: 0xf0, op: 'ror', b: 4, width: 8 });
    assert.equal(ror.hex, '0x0f');
    assert.equal(ror.unsigned, 0x0f);
    const x = await s.call('bitop', { a: 0b1010, op: 'xor', b: 0b0110, width: 8 });
    assert.equal(x.unsigned, 12);
    assert.equal(x.bin, '00001100');
  });

  test('bitop default width is 64 and masks negatives', async () => {
    const r = await s.call('bitop', { a: -1, op: 'and', b: 255 });
    assert.equal(r.width, 64);
    assert.equal(r.unsigned, 255);
    assert.equal(r.hex, '0x00000000000000ff');
    assert.equal(r.oct, '0o0000000000000000000377');
  });

  test('bitop failures in spec order', async () => {
    assertRejected(await s.call('bitop', { a: 1, op: 'shl', b: -1, width: 32 }), 'validation',
      'negative shift/rotate count -1');
    assertRejected(await s.call('bitop', { a: 1, op: 'zzz', b: 2 }), 'validation',
      "unknown op 'zzz'; use and, or, xor, nand, nor, xnor, not, shl, shr, sar, rol, ror");
    assertRejected(await s.call('bitop', { a: 1, op: 'and', b: 2, width: 12 }), 'validation',
      'width must be 8/16/32/64');
    assertRejected(await s.call('bitop', { a: 1, op: 'and', width: 8 }), 'validation', 'and needs two operands');
  });
});

describe('programmer mode with exact big integers (raw)', { skip: SKIP_NO_BINARY }, () => {
  let r;
  let tools;
  before(async () => {
    r = new RawServer();
    await r.initialize();
    const list = await r.request('tools/list', {});
    tools = new Map(list.result.tools.map((t) => [t.name, t]));
  });
  after(async () => { await r?.close(); });

  // The raw pipe bypasses the SDK's output validation: do it here.
  async function call(name, argsText) {
    const out = await r.callTool(name, argsText);
    assert.ok(!out.result.isError, `${name} isError: ${out.text}`);
    assert.equal(out.sc.contract_version, CONTRACT_VERSION);
    assert.equal(schemaErrors(tools.get(name).outputSchema, out.sc), null, `${name} outputSchema`);
    return out;
  }

  test('bitop 2^63 shl 1 overflows to an unbounded 2^64', async () => {
    const { sc, text } = await call('bitop', '{"a":9223372036854775808,"op":"shl","b":1,"width":64}');
    assert.equal(sc.unsigned, 0);
    assert.equal(sc.overflow, true);
    assert.equal(sc.unbounded, '18446744073709551616');
  });

  test('bitop not 0 at 64 bits is 2^64-1 unsigned, -1 signed', async () => {
    const { sc, text } = await call('bitop', '{"a":0,"op":"not","b":null,"width":64}');
    assert.equal(sc.unsigned, '18446744073709551615');
    assert.equal(sc.signed, -1);
    assert.equal(sc.hex, '0xffffffffffffffff');
  });

  // Regression: it said exact: true (the double against its own literal)
  // for a number binary64 cannot hold.
  test('float_repr(9007199254740993) stores 2^53 and is not exact', async () => {
    const { sc } = await call('float_repr', '{"x":9007199254740993}');
    assert.equal(sc.stored, '9007199254740992');
    assert.equal(sc.literal, '9007199254740992.0');
    assert.equal(sc.exact, false);
    assert.equal(sc.error, '-1');
    assert.equal(sc.input, '9007199254740993');
    assert.equal(sc.ulp, 2);
    assert.equal(sc.prev, 9007199254740991);
    assert.equal(sc.note, '9007199254740993 is not a binary64 value: the nearest double, 9007199254740992.0, is stored');
  });

  test('float_repr -0.0', async () => {
    const { sc, text } = await call('float_repr', '{"x":-0.0}');
    assert.equal(sc.literal, '-0.0');
    assert.equal(sc.stored, '0');
    assert.equal(sc.bits_hex, '0x8000000000000000');
    assert.equal(sc.sign, 1);
    assert.equal(sc.exponent, 0);
    assert.equal(rawNumber(text, 'prev'), '-5e-324');
    assert.equal(sc.next, 5e-324);
    assert.equal(sc.ulp, 5e-324);
  });

  test('float_repr 9007199254740994.0', async () => {
    const { sc } = await call('float_repr', '{"x":9007199254740994.0}');
    assert.equal(sc.literal, '9007199254740994.0');
    assert.equal(sc.ulp, 2);
    assert.equal(sc.note, '>2^53: consecutive integers no longer distinguishable');
  });

  test('int_widths 2^60 sets the note and keeps its digits', async () => {
    const { sc, text } = await call('int_widths', '{"n":1152921504606846976}');
    assert.equal(sc.value, '1152921504606846976');
    assert.deepEqual(sc.fits, ['i64', 'u64']);
    assert.equal(sc.note, '>2^53 cannot round-trip through a JS number or JSON float');
  });

  test('int_widths -2^70 fits nothing', async () => {
    const { sc, text } = await call('int_widths', '{"n":-1180591620717411303424}');
    assert.equal(sc.value, '-1180591620717411303424');
    assert.deepEqual(sc.fits, []);
    assert.deepEqual(sc.wraps, ['i8/u8: too negative (below -128)', 'i16/u16: too negative (below -32768)',
      'i32/u32: too negative (below -2147483648)', 'i64/u64: too negative (below -9223372036854775808)']);
  });

  test('base_repr 2^64 at 64 bits overflows; hex of 2^100', async () => {
    const a = await call('base_repr', '{"n":18446744073709551616,"width":64}');
    assert.equal(a.sc.overflow,
      'does not fit in signed i64 (range -9223372036854775808..9223372036854775807) nor unsigned u64');
    const b = await call('base_repr', '{"n":1267650600228229401496703205376}');
    assert.equal(b.sc.hex, '1' + '0'.repeat(25));
    assert.equal(b.sc.value, '1267650600228229401496703205376');
  });

  test('base_repr 2^64-1 at 64 bits is u64 only', async () => {
    const { sc, text } = await call('base_repr', '{"n":18446744073709551615,"width":64}');
    assert.equal(sc.signed_i64, -1);
    assert.equal(sc.unsigned_u64, '18446744073709551615');
    assert.equal(sc.two_complement_bin, '1'.repeat(64));
  });

  test('bit_analysis of 2^100 + 1 with alignment 2^64', async () => {
    const { sc, text } = await call('bit_analysis', '{"n":1267650600228229401496703205377,"align":18446744073709551616}');
    assert.equal(sc.popcount, 2);
    assert.equal(sc.bit_length, 101);
    assert.equal(sc.trailing_zeros, 0);
    assert.equal(sc.next_power_of_two, '2535301200456458802993406410752');
    assert.equal(sc.padding_needed, '18446744073709551615');
  });
});
