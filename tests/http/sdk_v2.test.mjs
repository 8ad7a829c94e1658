// Real SDK clients over Streamable HTTP, one per protocol era: the v2 client
// (@modelcontextprotocol/client) negotiating with mode 'auto' and pinned to
// 2026-07-28, and the v1 client (@modelcontextprotocol/sdk) on the legacy
// initialize handshake. Each lists the tools and calls calc_exact,
// execute_code and execute_code_stream; every structuredContent is checked
// against the outputSchema the server advertised, by our own Ajv (so a
// mismatch fails here even if an SDK version stops validating).
import { test, describe, before, after } from 'node:test';
import assert from 'node:assert/strict';
import Ajv from 'ajv';
import { Client as ClientV2, StreamableHTTPClientTransport as HttpV2 } from '@modelcontextprotocol/client';
import { Client as ClientV1 } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport as HttpV1 } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { SKIP_NO_BINARY, STATELESS, startHttp } from './http_harness.mjs';

const STREAM_CODE = [
  'import time',
  'for i in range(3):',
  '    print("line", i, flush=True)',
  '    time.sleep(0.4)',
].join('\n');
const STREAM_STDOUT = 'line 0\nline 1\nline 2\n';

/* How each client is built and which revision it must end up on. */
const CLIENTS = [
  {
    label: 'v2 client, mode auto',
    make: (url) => ({
      client: new ClientV2({ name: 'sdk-v2-auto', version: '1.0.0' }, { versionNegotiation: { mode: 'auto' } }),
      transport: new HttpV2(new URL(url)),
    }),
    version: STATELESS,
    call: (client, params, options) => client.callTool(params, options),
  },
  {
    label: 'v2 client, pinned 2026-07-28',
    make: (url) => ({
      client: new ClientV2({ name: 'sdk-v2-pin', version: '1.0.0' }, { versionNegotiation: { mode: { pin: STATELESS } } }),
      transport: new HttpV2(new URL(url)),
    }),
    version: STATELESS,
    call: (client, params, options) => client.callTool(params, options),
  },
  {
    label: 'v1 client, legacy era',
    make: (url) => ({
      client: new ClientV1({ name: 'sdk-v1-legacy', version: '1.0.0' }),
      transport: new HttpV1(new URL(url)),
    }),
    call: (client, params, options) => client.callTool(params, undefined, options),
    version: null, // the v1 client has no negotiation accessor; a session id proves the era
  },
];

/** Compile every advertised outputSchema; returns name -> validate fn. */
function outputValidators(tools) {
  const ajv = new Ajv({ strict: false, allErrors: true });
  const out = new Map();
  for (const t of tools) if (t.outputSchema) out.set(t.name, ajv.compile(t.outputSchema));
  return out;
}

function assertMatchesSchema(validators, name, value) {
  const validate = validators.get(name);
  assert.ok(validate, `${name} advertises an outputSchema`);
  assert.ok(validate(value), `${name} structuredContent violates its outputSchema: ${JSON.stringify(validate.errors)}`);
  // The advertised schema has teeth: the same object with one of its own
  // declared (non-object) fields replaced by an object fails.
  const props = validate.schema.properties ?? {};
  const types = (k) => [props[k].type].flat();
  const field = Object.keys(props).find((k) => k in value && props[k].type && !types(k).includes('object'));
  assert.ok(field, `${name} declares a typed field the result carries`);
  assert.equal(validate({ ...value, [field]: { mistyped: true } }), false, `${name} outputSchema accepts ${field}: {}`);
}

describe('SDK clients over Streamable HTTP', { skip: SKIP_NO_BINARY }, () => {
  let s;
  before(async () => { s = await startHttp(); });
  after(async () => { await s?.stop(); });

  test('the schema check can fail (a wrong value is rejected)', () => {
    const v = outputValidators([{ name: 'x', outputSchema: { type: 'object', properties: { ok: { type: 'boolean' } }, required: ['ok'] } }]);
    assert.equal(v.get('x')({ ok: 'yes' }), false);
    assert.equal(v.get('x')({}), false);
  });

  for (const c of CLIENTS) {
    test(`${c.label}: tools/list, calc_exact, execute_code, execute_code_stream`, async () => {
      const { client, transport } = c.make(s.url);
      await client.connect(transport);
      try {
        if (c.version) {
          assert.equal(client.getNegotiatedProtocolVersion(), c.version);
          assert.equal(transport.sessionId, undefined, 'the 2026 era has no session');
        } else {
          assert.match(transport.sessionId, /^[0-9a-f]{32}$/);
        }

        const { tools } = await client.listTools();
        const names = tools.map((t) => t.name);
        for (const n of ['calc_exact', 'execute_code', 'execute_code_stream']) assert.ok(names.includes(n), `${n} listed`);
        const validators = outputValidators(tools);

        const calc = await client.callTool({ name: 'calc_exact', arguments: { expr: '0.1+0.2 == 0.3' } });
        assert.notEqual(calc.isError, true);
        assert.equal(calc.structuredContent.ok, true);
        assert.equal(calc.structuredContent.value, true);
        assert.deepEqual(JSON.parse(calc.content[0].text), calc.structuredContent);
        assertMatchesSchema(validators, 'calc_exact', calc.structuredContent);

        const run = await client.callTool({ name: 'execute_code', arguments: { language: 'python3', code: 'print(6*7)' } });
        assert.equal(run.structuredContent.ok, true);
        assert.equal(run.structuredContent.stdout, '42\n');
        assert.equal(run.structuredContent.exit_code, 0);
        assert.equal(run.structuredContent.verdict, 'OK');
        assertMatchesSchema(validators, 'execute_code', run.structuredContent);

        const progress = [];
        const stream = await c.call(client,
          { name: 'execute_code_stream', arguments: { language: 'python3', code: STREAM_CODE } },
          { onprogress: (p) => progress.push(p) });
        const sc = stream.structuredContent;
        assert.equal(sc.ok, true);
        assert.equal(sc.stdout, STREAM_STDOUT);
        assert.equal(sc.streamed, true);
        assert.equal(sc.streamed_partial, STREAM_STDOUT);
        assertMatchesSchema(validators, 'execute_code_stream', sc);

        assert.ok(progress.length >= 1, 'at least one progress notification');
        for (let i = 0; i < progress.length; i++) {
          const p = progress[i];
          // Each message is the output written since the previous one.
          assert.equal(p.message, STREAM_STDOUT.slice(i ? progress[i - 1].progress : 0, p.progress));
          assert.equal(p.total, undefined, 'progress carries no total');
          if (i > 0) assert.ok(p.progress > progress[i - 1].progress, `progress strictly increases: ${JSON.stringify(progress)}`);
        }
        // Every progress value is a line boundary of the output, and the last
        // one can be at most everything the program printed.
        assert.ok(progress[progress.length - 1].progress <= Buffer.byteLength(STREAM_STDOUT));
        for (const p of progress) assert.ok([7, 14, 21].includes(p.progress), `progress ${p.progress} at a flush point`);
      } finally {
        await client.close();
      }
    });
  }
});
