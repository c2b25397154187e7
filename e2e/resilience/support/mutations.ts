/**
 * What can be wrong with a request, as data: odd values for any field, ways to break a JSON
 * text or a form, path segments that try to escape or confuse routing, wrong media types.
 * The corpus (corpus.ts) combines them with every route's valid request.
 */

/** A JSON token written as is (numbers JSON.stringify cannot produce, such as 1e400). */
export class RawJson {
  constructor(readonly text: string) {}
}

const RAW_MARK = '\u0001raw\u0001';

/** JSON text of `value`, RawJson tokens spliced in verbatim. */
export function jsonText(value: unknown): string {
  const raws: string[] = [];
  const text = JSON.stringify(value, (_key, inner: unknown) => {
    if (inner instanceof RawJson) {
      raws.push(inner.text);
      return `${RAW_MARK}${raws.length - 1}`;
    }
    return inner;
  });
  return text.replace(new RegExp(`"${RAW_MARK}(\\d+)"`, 'g'), (_, index: string) => raws[Number(index)]!);
}

/** Values that are wrong for nearly every field: types, ranges, sizes, encodings. */
export const ODD_VALUES: readonly { readonly what: string; readonly value: unknown }[] = [
  { what: 'null', value: null },
  { what: 'true', value: true },
  { what: 'zero', value: 0 },
  { what: 'negative', value: -1 },
  { what: 'negative decimal', value: -10.5 },
  { what: 'three decimals', value: 10.123 },
  { what: 'float artefact', value: 0.30000000000000004 },
  { what: '1e400 (Infinity)', value: new RawJson('1e400') },
  { what: '-0', value: new RawJson('-0') },
  { what: 'beyond safe integers', value: new RawJson('9007199254740993') },
  { what: 'tiny exponent', value: new RawJson('1e-7') },
  { what: 'empty string', value: '' },
  { what: 'blank', value: '   ' },
  { what: 'huge string', value: 'x'.repeat(20_000) },
  { what: 'NUL', value: 'a\u0000b' },
  { what: 'control characters', value: '\u0001\u0007\u001b[31m' },
  { what: 'right-to-left override', value: '\u202Egnp.exe' },
  { what: 'zero-width joiners', value: '\u200D\u200B\uFEFF' },
  { what: 'emoji', value: '😀💳' },
  { what: 'lone surrogate', value: '\uD800' },
  { what: 'full-width digits', value: '１２３' },
  { what: 'numeric string with three decimals', value: '10.001' },
  { what: 'hex string', value: '0x10' },
  { what: 'NaN string', value: 'NaN' },
  { what: 'negative numeric string', value: '-5' },
  { what: 'comma decimal', value: '10,50' },
  { what: 'markup', value: '<script>alert(1)</script>' },
  { what: 'SQL', value: "' OR '1'='1'; DROP TABLE payments; --" },
  { what: 'path', value: '../../../../etc/passwd' },
  { what: 'a card number in the wrong field', value: '4242424242424242' },
  { what: 'forty digits', value: '1'.repeat(40) },
  { what: 'lower-case code', value: 'uah' },
  { what: 'padded code', value: ' UAH ' },
  { what: 'impossible date', value: '2030-02-30' },
  { what: 'javascript: URL', value: 'javascript:alert(1)' },
  { what: 'data: URL', value: 'data:text/html,<h1>x</h1>' },
  { what: 'file: URL', value: 'file:///etc/passwd' },
  { what: 'boolean as text', value: 'true' },
  { what: 'null as text', value: 'null' },
  { what: 'JSON as text', value: '{"amount":1}' },
  { what: '1e21', value: 1e21 },
  { what: 'one thousandth', value: 0.001 },
  { what: 'max safe integer', value: Number.MAX_SAFE_INTEGER },
  { what: 'empty array', value: [] },
  { what: 'nested array', value: [[[]]] },
  { what: 'empty object', value: {} },
  { what: 'operator object', value: { $gt: '' } },
  { what: 'prototype key', value: JSON.parse('{"__proto__": {"polluted": true}}') as unknown },
];

/** Replacements for the whole body: JSON that is no object of the request. */
export const ODD_BODIES: readonly { readonly what: string; readonly value: unknown }[] = [
  { what: 'null body', value: null },
  { what: 'array body', value: [1, 2, 3] },
  { what: 'string body', value: 'pay' },
  { what: 'number body', value: 42 },
  { what: 'nested arrays', value: JSON.parse(`${'['.repeat(2_000)}${']'.repeat(2_000)}`) as unknown },
];

/** Bodies that are not JSON at all, sent as application/json. */
export const BROKEN_JSON: readonly { readonly what: string; readonly text: string }[] = [
  { what: 'truncated', text: '{"card": {"number": "42' },
  { what: 'trailing comma', text: '{"amount": 1,}' },
  { what: 'single quotes', text: "{'amount': 1}" },
  { what: 'NaN literal', text: '{"amount": NaN}' },
  { what: 'comments', text: '{"amount": 1 /* x */}' },
  { what: 'two documents', text: '{}{}' },
  { what: 'unclosed nesting', text: '{"a":'.repeat(500) },
  { what: 'deep open arrays', text: '['.repeat(100_000) },
  { what: 'bare word', text: 'undefined' },
  { what: 'empty', text: '' },
  { what: 'NUL bytes', text: '\u0000\u0000' },
  { what: 'invalid escape', text: '{"a": "\\x41"}' },
  { what: 'invalid UTF-8', text: '{"a": "\udcff\ud800"}' },
];

/**
 * Dot segments: URL parsing resolves them before routing (`/3ds/..` is `/`), so they are
 * aimed only at writes, where the resolved path is no route for the request.
 */
export const DOT_SEGMENTS: readonly string[] = ['..', '%2e%2e'];

/** Values of a path parameter that are not an id: escapes, encodings, sizes. */
export const PATH_TRICKS: readonly string[] = [
  '%252e%252e',
  '..%2F..%2Fetc%2Fpasswd',
  '..%5C..%5Cwindows',
  '%00',
  'x%00y',
  '%ff%fe',
  '%C0%AE%C0%AE',
  '%E2%80%AE',
  '%F0%9F%98%80',
  'a'.repeat(5_000),
  '00000000-0000-0000-0000-000000000000',
  'not-a-uuid',
  '%20',
  "'%20OR%201=1",
  '%3Cscript%3E',
  '*',
  '~',
];

/** Media types that are not the route's. */
export const WRONG_MEDIA_TYPES: readonly (string | undefined)[] = [
  undefined,
  'text/plain',
  'application/xml',
  'multipart/form-data; boundary=x',
  'application/x-www-form-urlencoded',
  'application/jsonx',
  'text/json',
];

/** A deterministic pseudo-random sequence (the same corpus every run). */
export function seededRandom(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state * 1_664_525 + 1_013_904_223) >>> 0;
    return state / 2 ** 32;
  };
}

/** Every way to change one field of `valid` (and of its objects one level down) into an odd value. */
export function* fieldMutations(valid: Readonly<Record<string, unknown>>): Generator<{ what: string; body: unknown }> {
  for (const [field, value] of Object.entries(valid)) {
    const { [field]: _removed, ...without } = valid;
    yield { what: `${field} missing`, body: without };
    yield { what: `${field} misspelt`, body: { ...without, [`${field.toUpperCase()}_`]: value } };
    for (const odd of ODD_VALUES) yield { what: `${field}: ${odd.what}`, body: { ...valid, [field]: odd.value } };
    if (value !== null && typeof value === 'object' && !Array.isArray(value)) {
      for (const [inner] of Object.entries(value)) {
        const { [inner]: _gone, ...innerWithout } = value as Record<string, unknown>;
        yield { what: `${field}.${inner} missing`, body: { ...valid, [field]: innerWithout } };
        for (const odd of ODD_VALUES) yield { what: `${field}.${inner}: ${odd.what}`, body: { ...valid, [field]: { ...value, [inner]: odd.value } } };
      }
      yield { what: `${field}: unknown field`, body: { ...valid, [field]: { ...value, surprise: 1 } } };
    }
    if (Array.isArray(value) && value.length > 0 && typeof value[0] === 'object') {
      for (const odd of ODD_VALUES) yield { what: `${field}[0]: ${odd.what}`, body: { ...valid, [field]: [odd.value, ...value.slice(1)] } };
      for (const [inner] of Object.entries(value[0] as object)) {
        for (const odd of ODD_VALUES) {
          yield { what: `${field}[0].${inner}: ${odd.what}`, body: { ...valid, [field]: [{ ...(value[0] as object), [inner]: odd.value }, ...value.slice(1)] } };
        }
      }
    }
  }
  yield { what: 'unknown field', body: { ...valid, surprise: true } };
  yield { what: 'amount smuggled in', body: { ...valid, amount: 0.01 } };
  for (const odd of ODD_BODIES) yield { what: odd.what, body: odd.value };
}

/** Field paths of `valid` down to the second level (arrays by their first element). */
function fieldPaths(valid: unknown, prefix: readonly (string | number)[] = [], depth = 0): (string | number)[][] {
  if (valid === null || typeof valid !== 'object' || depth > 1) return [];
  const entries: [string | number, unknown][] = Array.isArray(valid) ? valid.map((value, index) => [index, value]) : Object.entries(valid);
  return entries.flatMap(([key, value]) => [[...prefix, key], ...fieldPaths(value, [...prefix, key], depth + 1)]);
}

function withValue(body: unknown, path: readonly (string | number)[], value: unknown): unknown {
  if (path.length === 0) return value;
  const [head, ...rest] = path as [string | number, ...(string | number)[]];
  const copy = (Array.isArray(body) ? [...(body as unknown[])] : { ...(body as Record<string, unknown>) }) as Record<string | number, unknown>;
  copy[head] = withValue(copy[head], rest, value);
  return copy;
}

/** `count` bodies with two or three fields odd at once, picked by `random` (deterministic). */
export function* combinedMutations(valid: Readonly<Record<string, unknown>>, random: () => number, count: number): Generator<{ what: string; body: unknown }> {
  const paths = fieldPaths(valid);
  if (paths.length < 2) return;
  for (let made = 0; made < count; made += 1) {
    let body: unknown = valid;
    const changed: string[] = [];
    for (let field = 0; field < 2 + Math.floor(random() * 2); field += 1) {
      const path = paths[Math.floor(random() * paths.length)]!;
      const odd = ODD_VALUES[Math.floor(random() * ODD_VALUES.length)]!;
      body = withValue(body, path, odd.value);
      changed.push(`${path.join('.')}: ${odd.what}`);
    }
    yield { what: changed.join(', '), body };
  }
}
