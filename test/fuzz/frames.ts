/**
 * Hostile JSON-RPC frames for the fuzz suite, as fast-check arbitraries:
 * ids of every type (nested arrays and objects included), wrong jsonrpc,
 * batches, unknown methods, tools/call with wrong arguments, `_meta` junk,
 * deep nesting, huge strings, non-JSON and truncated lines, unicode, and
 * cancellations of odd request ids. Each frame says whether it is a request
 * with a usable id, which every hop must answer exactly once; those ids are
 * assigned unique (`fz-N` or 1_000_000 + N) when the frames are made.
 */
import fc from 'fast-check';
import { MODERN_META } from '../helpers/raw-client.js';

export type Era = 'legacy' | 'modern';

/** One frame to send: its line (or HTTP body), and the id it must be answered with, if any. */
export interface Frame {
  readonly line: string;
  readonly expect: string | number | undefined;
  /** The method it names, for HTTP headers. */
  readonly method: string | undefined;
  /** Params that break the method's schema: the answer must be -32602, never -32603. */
  readonly invalidParams?: boolean;
}

/** What an arbitrary yields: a frame whose usable id, if any, is filled in later. */
interface Shape {
  readonly kind: 'request' | 'raw';
  readonly value?: Record<string, unknown>;
  readonly raw?: string;
  /** The request takes a fresh, usable id (and must be answered). */
  readonly freshId?: boolean;
  readonly invalidParams?: boolean;
}

const TOOLS = ['search_decisions', 'get_decision', 'get_decision_context', 'check_decisions', 'nope', ''];
const METHODS = [
  'ping',
  'tools/list',
  'tools/call',
  'resources/list',
  'resources/read',
  'resources/templates/list',
  'prompts/list',
  'prompts/get',
  'server/discover',
  'completion/complete',
  'logging/setLevel',
  'initialize',
  'tasks/get',
  'tasks/list',
  'tasks/cancel',
  'nope/unknown',
  'notifications/cancelled',
  '',
];

const deepArray = (depth: number) => `${'['.repeat(depth)}0${']'.repeat(depth)}`;
const deepObject = (depth: number) => `${'{"a":'.repeat(depth)}1${'}'.repeat(depth)}`;

/** Nesting as raw JSON text, from shallow to far past any stack. */
const deepJson = fc
  .tuple(
    fc.constantFrom(deepArray, deepObject),
    fc.oneof(fc.integer({ min: 1, max: 600 }), fc.constantFrom(5000, 20_000)),
  )
  .map(([make, depth]) => make(depth));

/** A marker replaced by raw deep JSON after JSON.stringify (so the frame need not be built by recursion). */
const DEEP = '\u0000deep\u0000';

const junk: fc.Arbitrary<unknown> = fc.oneof(
  fc.jsonValue({ maxDepth: 3 }),
  fc.string({ unit: 'grapheme', maxLength: 30 }),
  fc.constantFrom(null, true, -1, 1.5, '', '\u202e\u0000\ud83d\ude00', DEEP),
);

/** Ids that are not usable: the frame is invalid however it looks otherwise. */
const badId: fc.Arbitrary<unknown> = fc.oneof(
  fc.constantFrom(null, true, false, [], {}, [1], { id: 1 }, [[['x']]], DEEP),
  fc.array(fc.integer(), { maxLength: 3 }),
);

/** Request ids a cancellation may name: never one the fuzz expects an answer for. */
const oddRequestId: fc.Arbitrary<unknown> = fc.oneof(
  badId,
  fc.integer({ max: -1 }),
  fc.string({ maxLength: 8 }).map((s) => `c-${s}`),
);

const envelope = (era: Era): fc.Arbitrary<Record<string, unknown> | undefined> =>
  era === 'legacy'
    ? fc.oneof(
        { weight: 4, arbitrary: fc.constant(undefined) },
        fc.dictionary(fc.string({ maxLength: 5 }), junk, { maxKeys: 3 }),
      )
    : fc.oneof(
        { weight: 6, arbitrary: fc.constant({ ...MODERN_META }) },
        fc.record({
          ...Object.fromEntries(
            Object.entries(MODERN_META).map(([k, v]) => [k, fc.oneof(fc.constant(v), junk)]),
          ),
        }),
        fc
          .dictionary(fc.string({ maxLength: 40 }), junk, { maxKeys: 4 })
          .map((extra) => ({ ...MODERN_META, ...extra })),
        junk,
      );

const params = (era: Era, method: string): fc.Arbitrary<unknown> => {
  const withMeta = (p: fc.Arbitrary<Record<string, unknown>>) =>
    fc
      .tuple(p, envelope(era))
      .map(([value, meta]) => (meta === undefined ? value : { ...value, _meta: meta }));
  if (method === 'tools/call')
    return withMeta(
      fc.record(
        {
          name: fc.oneof(fc.constantFrom(...TOOLS), junk),
          arguments: fc.oneof(
            fc.record(
              { query: fc.string({ maxLength: 20 }), ref: fc.constantFrom('1', '2', 'x') },
              { requiredKeys: [] },
            ),
            fc.dictionary(fc.string({ maxLength: 6 }), junk, { maxKeys: 4 }),
            fc.record({ __hint: junk, query: fc.string() }),
            junk,
          ),
        },
        { requiredKeys: [] },
      ),
    );
  if (method === 'notifications/cancelled')
    return withMeta(fc.record({ requestId: oddRequestId, reason: junk }, { requiredKeys: [] }));
  return fc.oneof(
    { weight: 4, arbitrary: withMeta(fc.constant({})) },
    withMeta(
      fc.record(
        {
          cursor: junk,
          uri: fc.oneof(fc.constant('decision:///0001-record-architecture-decisions.md'), junk),
        },
        { requiredKeys: [] },
      ),
    ),
    junk,
  );
};

const request = (era: Era): fc.Arbitrary<Shape> =>
  fc
    .record({
      method: fc.oneof(
        { weight: 8, arbitrary: fc.constantFrom(...METHODS) },
        fc.string({ unit: 'grapheme', maxLength: 20 }),
      ),
      idKind: fc.constantFrom('fresh', 'fresh', 'fresh', 'fresh', 'bad', 'none'),
      badId,
      jsonrpc: fc.oneof(
        { weight: 9, arbitrary: fc.constant('2.0') },
        fc.constantFrom('1.0', 2, null, undefined),
      ),
      seed: fc.nat(),
    })
    .chain(({ method, idKind, badId: id, jsonrpc }) =>
      params(era, method).map((p): Shape => {
        const value: Record<string, unknown> = { jsonrpc, method };
        if (idKind === 'bad') value.id = id;
        if (p !== undefined) value.params = p;
        if (jsonrpc === undefined) delete value.jsonrpc;
        // A listen stream answers only when it ends; the fuzz leaves it alone.
        return { kind: 'request', value, freshId: idKind === 'fresh' };
      }),
    );

/** Every request method moor serves, with the params fields its schema types. */
const FIELDS: Record<string, readonly string[]> = {
  ping: [],
  initialize: ['protocolVersion', 'capabilities', 'clientInfo'],
  'server/discover': [],
  'tools/list': ['cursor'],
  'tools/call': ['name', 'arguments', 'task'],
  'resources/list': ['cursor'],
  'resources/templates/list': ['cursor'],
  'resources/read': ['uri'],
  'resources/subscribe': ['uri'],
  'resources/unsubscribe': ['uri'],
  'prompts/list': ['cursor'],
  'prompts/get': ['name', 'arguments'],
  'completion/complete': ['ref', 'argument', 'context'],
  'logging/setLevel': ['level'],
  'tasks/get': ['taskId'],
  'tasks/list': ['cursor'],
  'tasks/cancel': ['taskId'],
  'tasks/update': ['taskId', 'inputResponses'],
  'skills/list': ['cursor'],
  'skills/get': ['uri'],
};

/** A value of the wrong type for any of those fields. */
const wrongType = fc.constantFrom<unknown>(5, -1.5, true, null, [], [1, 'x'], { a: 1 }, 'not-an-enum', '');

/** A request to one of moor's methods whose params break its schema: a field mistyped, or params missing. */
const invalidParamsRequest = (era: Era): fc.Arbitrary<Shape> =>
  fc
    .tuple(fc.constantFrom(...Object.keys(FIELDS)), fc.nat(), wrongType, fc.boolean())
    .map(([method, pick, bad, drop]): Shape => {
      const fields = FIELDS[method] ?? [];
      const field = fields[pick % Math.max(1, fields.length)];
      const p: Record<string, unknown> =
        field === undefined || drop ? {} : { [field]: field === 'level' && bad === '' ? 'loud' : bad };
      if (era === 'modern') p._meta = { ...MODERN_META };
      return {
        kind: 'request',
        value: { jsonrpc: '2.0', method, params: p },
        freshId: true,
        // Methods with no typed field, or params dropped from one whose fields are all optional, may be valid.
        invalidParams: field !== undefined && !drop,
      };
    });

const rawLine: fc.Arbitrary<Shape> = fc
  .oneof(
    fc.string({ unit: 'grapheme', maxLength: 60 }),
    fc.string({ unit: 'binary', maxLength: 40 }),
    fc.jsonValue({ maxDepth: 2 }).map((v) => JSON.stringify(v)),
    fc.constantFrom(
      '{',
      '[',
      '{"jsonrpc":"2.0","id":1,"method":',
      'null',
      '[]',
      '{}',
      '"x"',
      '\ufeff{}',
      '   ',
    ),
    deepJson,
    fc.string({ maxLength: 5 }).map((s) => `${s}${'x'.repeat(200_000)}`),
  )
  .map((raw) => ({ kind: 'raw', raw }));

/** A batch of requests (answered as one invalid message, or not at all: none of its ids is awaited). */
const batch = (era: Era): fc.Arbitrary<Shape> =>
  fc.array(request(era), { minLength: 0, maxLength: 4 }).map((items) => ({
    kind: 'raw',
    raw: JSON.stringify(items.map((i) => ({ ...i.value, id: `b-${Math.random().toString(36).slice(2)}` }))),
  }));

/** A valid frame cut short: never JSON, so never awaited. */
const truncated = (era: Era): fc.Arbitrary<Shape> =>
  fc.tuple(request(era), fc.double({ min: 0.05, max: 0.95, noNaN: true })).map(([r, cut]) => {
    const text = JSON.stringify({ ...r.value, id: 'cut' });
    return { kind: 'raw', raw: text.slice(0, Math.max(1, Math.floor(text.length * cut))) };
  });

export function frameArbitrary(era: Era): fc.Arbitrary<Shape> {
  return fc.oneof(
    { weight: 12, arbitrary: request(era) },
    { weight: 4, arbitrary: invalidParamsRequest(era) },
    { weight: 3, arbitrary: rawLine },
    { weight: 1, arbitrary: batch(era) },
    { weight: 2, arbitrary: truncated(era) },
  );
}

/** `count` frames for `era` from `seed`, usable ids assigned in order. */
export function makeFrames(era: Era, count: number, seed: number): Frame[] {
  const shapes = fc.sample(frameArbitrary(era), { numRuns: count, seed });
  let next = 0;
  return shapes.map((shape) => {
    if (shape.kind === 'raw') return { line: clean(shape.raw ?? ''), expect: undefined, method: undefined };
    const value = { ...(shape.value ?? {}) };
    let expect: string | number | undefined;
    if (shape.freshId) {
      next += 1;
      expect = next % 2 === 0 ? `fz-${next}` : 1_000_000 + next;
      value.id = expect;
    }
    const method = typeof value.method === 'string' ? value.method : undefined;
    // A deep marker becomes raw deep JSON in place: the frame text is never built by recursion.
    const line = JSON.stringify(value).replaceAll(JSON.stringify(DEEP), () => deepArray(5000));
    return {
      line: clean(line),
      expect,
      method,
      ...(shape.invalidParams === true && { invalidParams: true }),
    };
  });
}

/** One line: no newlines inside (JSON.stringify escapes them in strings; raw junk may have them). */
function clean(line: string): string {
  return line.replace(/[\r\n]/g, ' ');
}

/** A request with a usable id, far over the line limit, its id up front. */
export function oversizedFrame(id: string, bytes: number): Frame {
  return {
    line: `{"jsonrpc":"2.0","id":${JSON.stringify(id)},"method":"tools/call","params":{"name":"search_decisions","arguments":{"query":"${'q'.repeat(bytes)}"}}}`,
    expect: id,
    method: 'tools/call',
  };
}
