// The OpenAPI document as a contract: every answer described by the view its handler builds it
// with, Redocly's recommended rules without a warning, and a client generated from the served
// document (openapi-typescript + openapi-fetch) that runs a merchant's flow, typed, no casts.
import { execFile } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import openapiTS, { astToString } from 'openapi-typescript';
import type { OpenAPI3 } from 'openapi-typescript';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import { cardNumber, TEST_CVV } from '../test/cards.js';
import { undocumentedAnswer } from '../test/documented-answers.js';
import { MERCHANT_FLOW } from '../test/merchant-flow.js';
import { ADMIN_TOKEN, stacksPerTest } from '../test/stack.js';
import type { Json } from '../test/stack.js';
import { API, VIEWS } from './api-catalog.js';

const run = promisify(execFile);
const ROOT = resolve(import.meta.dirname, '../../..');
const BIN = join(ROOT, 'node_modules', '.bin');
const openStack = stacksPerTest();

/** What a merchant's strict Node project compiles with. */
const MERCHANT_TSCONFIG = {
  strict: true,
  noEmit: true,
  target: 'ES2022',
  module: 'NodeNext',
  moduleResolution: 'NodeNext',
  lib: ['ES2023', 'DOM'],
  types: ['node'],
  skipLibCheck: true,
};

/** tsc's diagnostics for the project in `dir`, empty when it compiles. */
async function compileErrors(dir: string): Promise<string> {
  try {
    await run(process.execPath, [join(ROOT, 'node_modules', 'typescript-7', 'bin', 'tsc'), '-p', dir, '--pretty', 'false']);
    return '';
  } catch (error) {
    const { stdout = '', stderr = '' } = error as { stdout?: string; stderr?: string };
    return `${stdout}${stderr}`.trim() || String(error);
  }
}

/** A scratch folder the generated program can import the repository's packages from (node_modules is not committed). */
function scratchDir(): string {
  const cache = join(ROOT, 'node_modules', '.cache');
  mkdirSync(cache, { recursive: true });
  const dir = mkdtempSync(join(cache, 'payform-typed-client-'));
  writeFileSync(join(dir, 'package.json'), JSON.stringify({ type: 'module', private: true }));
  return dir;
}

describe('the route catalog', () => {
  it('names every operation once, in camelCase', () => {
    const ids = API.map((operation) => operation.operationId);
    expect(ids.filter((id) => !/^[a-z][a-zA-Z]+$/.test(id))).toEqual([]);
    expect(new Set(ids).size).toBe(ids.length);
  });

  it('describes every answer: JSON by a named view, errors by the envelope', () => {
    const views = new Set(Object.values(VIEWS));
    const untyped = API.flatMap((operation) =>
      Object.entries(operation.responses)
        .filter(([status, response]) => {
          switch (response.kind) {
            case 'json':
              return !views.has(response.schema);
            case 'problem':
              return Number(status) < 400;
            case 'content':
            case 'empty':
              return false;
            default:
              return true; // written by hand, not with json() / problem() / content() / empty()
          }
        })
        .map(([status]) => `${operation.method} ${operation.path} ${status}`),
    );
    expect(untyped).toEqual([]);
  });

  it('tells an answer that is not what its status documents', async () => {
    const order = Response.json({ order: { order_id: 'o1' }, totals: {}, operations: [], events: [] });
    expect(await undocumentedAnswer('GET', '/api/orders/o1', order)).toMatch(/^GET \/api\/orders\/o1 → 200: .*order\.session_id/s);
    const notFound = Response.json({ error: { code: 'order_not_found', message: 'The order was not found' } }, { status: 404 });
    expect(await undocumentedAnswer('GET', '/api/orders/o1', notFound)).toBeUndefined();
    expect(await undocumentedAnswer('GET', '/api/orders/o1', Response.json({ message: 'no' }, { status: 404 }))).toMatch(/error/);
    expect(await undocumentedAnswer('POST', '/api/orders/o1/refund', Response.json({}, { status: 201 }))).toBe('POST /api/orders/o1/refund → 201: status not documented');
    // The document forbids what a view lacks (additionalProperties false), even where zod would strip it.
    expect(await undocumentedAnswer('GET', '/healthz', Response.json({ status: 'ok', extra: 1 }))).toBe('GET /healthz → 200: fields the document does not have (additionalProperties is false): extra');
    const failed = Response.json({ terminals: [], failed_terminals: [{ id: 't', message: 'm', bank: 'x' }] });
    expect(await undocumentedAnswer('GET', '/api/balances/terminals', failed)).toMatch(/: failed_terminals\[0\]\.bank$/);
  });
});

describe('the served OpenAPI document', () => {
  const served = async (): Promise<Json> => (await openStack()).json('GET', '/api/openapi.json', 200);

  it('refers every JSON answer to a component and every error to the envelope', async () => {
    const document = await served();
    const components = document.components.schemas as Record<string, Json>;
    const bare: string[] = [];
    for (const [path, item] of Object.entries(document.paths as Record<string, Record<string, Json>>)) {
      for (const [method, operation] of Object.entries(item)) {
        expect(operation.operationId, `${method} ${path}`).toMatch(/^[a-z]/);
        for (const [status, response] of Object.entries(operation.responses as Record<string, Json>)) {
          const schema = response.content?.['application/json']?.schema as Json | undefined;
          if (!schema) continue;
          const name = String(schema.$ref ?? '').replace('#/components/schemas/', '');
          if (!components[name]?.properties) bare.push(`${method} ${path} ${status}`);
          // A readiness or liveness probe's 503 says which way it is not ready, in its own shape.
          if (Number(status) >= 400 && name !== 'Error' && name !== 'Readiness' && name !== 'Health') bare.push(`${method} ${path} ${status}: ${name}`);
        }
      }
    }
    expect(bare).toEqual([]);
    expect(components.Error).toMatchObject({ required: ['error'], properties: { error: { required: ['code', 'message'] } } });
    expect(components.Order?.properties.order).toEqual({ $ref: '#/components/schemas/Payment' });
    // The list's orders carry the detail's totals, one schema for both.
    expect(components.OrderPage?.properties.orders.items).toEqual({ $ref: '#/components/schemas/ListedOrder' });
    expect(components.ListedOrder?.properties.totals).toMatchObject({ $ref: '#/components/schemas/Totals' });
    expect(components.ListedOrder?.required).toContain('totals');
  });

  it('describes every amount as an integer number of minor units, in requests and answers', async () => {
    const document = await served();
    const amounts: [string, Json][] = [];
    const collect = (where: string, node: unknown): void => {
      if (Array.isArray(node)) node.forEach((item, i) => collect(`${where}[${i}]`, item));
      if (typeof node !== 'object' || node === null) return;
      for (const [key, value] of Object.entries(node as Json)) {
        if (/(^|_)amount$|^(available|rolling_reserve|captured|capture_pending|refunded|refund_pending|refundable|capturable)$/.test(key) && typeof value === 'object' && value !== null && !('$ref' in value)) amounts.push([`${where}.${key}`, value]);
        collect(`${where}.${key}`, value);
      }
    };
    collect('', document);
    expect(amounts.length).toBeGreaterThan(20);
    const described = (schema: Json): Json => (Array.isArray(schema.anyOf) ? schema.anyOf.find((member: Json) => member.type !== 'null') : schema);
    const notMinor = amounts.filter(([, schema]) => described(schema).type !== 'integer' || !/minor units/.test(String(described(schema).description ?? schema.description)));
    expect(notMinor.map(([where]) => where)).toEqual([]);
    const create = document.paths['/api/checkout/sessions'].post.requestBody.content['application/json'].schema;
    expect(create.properties.amount.description).toContain('24950 = 249.50 UAH');
    // One maximum fits no currency alone: a generated client's check passes what JPY or KWD refuses unless it reads this.
    expect(create.properties.amount.description).toContain('9999999999999 for one of none (JPY), and for one of three a multiple of 10');
  });

  it('gives each operation its gateway transaction, and a refund its receipt page', async () => {
    const document = await served();
    const operation = document.components.schemas.Operation as Json;
    expect(operation.required).toEqual(expect.arrayContaining(['transaction_id', 'receipt_url']));
    expect(operation.properties.transaction_id).toMatchObject({ type: ['string', 'null'], description: expect.stringContaining('transaction') });
    expect(operation.properties.receipt_url).toMatchObject({ type: ['string', 'null'], description: expect.stringContaining('refund') });
    const receipt = (document.paths['/api/orders/{order_id}/receipt'].get.parameters as Json[]).find((parameter) => parameter.name === 'transaction_id');
    expect(receipt?.schema).toMatchObject({ format: 'uuid', description: expect.stringContaining('receipt_url') });
  });

  it('types query numbers as the bounded integers the routes take', async () => {
    const document = await served();
    const query = (path: string, name: string): Json =>
      (document.paths[path].get.parameters as Json[]).find((parameter) => parameter.in === 'query' && parameter.name === name)?.schema;
    expect(query('/api/orders', 'limit')).toEqual({ type: 'integer', minimum: 1, maximum: 200 });
    expect(query('/api/webhook-events', 'limit')).toEqual({ type: 'integer', minimum: 1, maximum: 200 });
    expect(query('/api/changes', 'limit')).toEqual({ type: 'integer', minimum: 1, maximum: 1000 });
    expect(query('/api/stats', 'utc_offset_minutes')).toEqual({ type: 'integer', minimum: -840, maximum: 840, description: expect.stringContaining('fixed offset') });
    expect(query('/api/stats', 'time_zone')).toMatchObject({ type: 'string', description: expect.stringContaining('IANA time zone') });
    // The routes read them from the query's text as before.
    const stack = await openStack();
    expect((await stack.json('GET', '/api/orders?limit=201', 400, { admin: true })).error.fields.limit).toMatch(/200/);
    expect((await stack.json('GET', '/api/orders?limit=2', 200, { admin: true })).orders).toEqual([]);
  });

  it('says what a path parameter, a currency and the stream’s resume header must be', async () => {
    const document = await served();
    const parameter = (path: string, method: string, name: string): Json =>
      (document.paths[path][method].parameters as Json[]).find((candidate) => candidate.name === name)?.schema;
    expect(parameter('/api/balances/accounts/{id}', 'get', 'id').pattern).toMatch(/^\^\[0-9a-fA-F\]\{8\}-/);
    expect(parameter('/api/receipts/{date}', 'get', 'date')).toMatchObject({ type: 'string', format: 'date' });
    expect(parameter('/api/webhook-events/{id}/review', 'post', 'id').pattern).toBe('^[0-9a-f]{64}$');
    expect(parameter('/api/checkout/sessions/{id}/pay', 'post', 'id').pattern).toBe('^[A-Za-z0-9_-]{43}$');
    expect(parameter('/api/orders/{order_id}/refund', 'post', 'order_id').pattern).toBeDefined();
    expect(parameter('/api/customers/{customer_id}/cards', 'get', 'customer_id')).toMatchObject({ minLength: 1, maxLength: 128 });
    expect(parameter('/api/changes/stream', 'get', 'Last-Event-ID')).toMatchObject({ pattern: '^\\d{1,15}$' });
    expect(parameter('/checkout/return/{id}', 'get', 'page')).toMatchObject({ type: 'string' });
    const create = document.paths['/api/checkout/sessions'].post.requestBody.content['application/json'].schema;
    expect(create.properties.currency).toMatchObject({ type: 'string', pattern: '^[A-Z]{3}$' });
    // The route refuses what the pattern refuses, as documented.
    const stack = await openStack();
    expect((await stack.json('GET', '/api/balances/accounts/not-a-uuid', 400, { admin: true })).error.fields).toEqual({ id: 'must be a UUID' });
  });

  it('names the refusals of a body too large or not JSON on every route that reads one, as the server answers them', async () => {
    const document = await served();
    const withBody = Object.values(document.paths as Record<string, Record<string, Json>>).flatMap((item) => Object.values(item).filter((operation) => operation.requestBody?.content?.['application/json']));
    expect(withBody.length).toBeGreaterThan(8);
    expect(withBody.filter((operation) => !operation.responses['413'] || !operation.responses['415']).map((operation) => operation.operationId)).toEqual([]);
    const pay = document.paths['/api/checkout/sessions/{id}/pay'].post.responses;
    expect(pay['413'].description).toMatch(/^payload_too_large: .* 16384 bytes \(its bodyLimitBytes option\)$/);
    // The limit this companion was given, as it answers it.
    const larger = await openStack({ companion: { bodyLimitBytes: 32 * 1024 } });
    const document32 = await larger.json('GET', '/api/openapi.json', 200);
    expect(document32.paths['/api/orders/{order_id}/refund'].post.responses['413'].description).toContain('32768 bytes');
    const stack = await openStack();
    const session = await stack.openSession();
    const path = `/api/checkout/sessions/${session.id}/pay`;
    expect((await stack.json('POST', path, 413, { body: { page_url: 'x'.repeat(16384) } })).error.code).toBe('payload_too_large');
    expect((await stack.json('POST', path, 415, { body: '{}', headers: { 'Content-Type': 'text/plain' } })).error.code).toBe('unsupported_media_type');
  });

  it('tells a retry loop which answers are kept under the Idempotency-Key, and the headers to read', async () => {
    const document = await served();
    const refund = document.paths['/api/orders/{order_id}/refund'].post.responses;
    expect(refund['5XX'].description).toMatch(/kept under the Idempotency-Key.*new key/);
    expect(Object.keys(refund['5XX'].headers)).toEqual(['Retry-After', 'Idempotent-Replayed']);
    expect(refund['409'].headers).toHaveProperty('Retry-After');
    expect(refund['401'].headers).toHaveProperty('WWW-Authenticate');
    const health = document.paths['/healthz'].get.responses;
    expect(health).not.toHaveProperty('401');
    expect(health['5XX'].description).not.toMatch(/Idempotency-Key/);
    expect(document.paths['/api/checkout/sessions/{id}/pay'].post.responses['429'].headers).toHaveProperty('Retry-After');
    expect(document.paths['/checkout/return/{id}'].get.responses['303'].headers).toHaveProperty('Location');
    expect(document.paths['/api/checkout/sessions'].post.responses['409'].description).toContain('order_id_taken');
  });

  it('lists the 400 every route may answer, the wrong-token 429 of the admin routes, and what a file answer is', async () => {
    const document = await served();
    for (const [path, item] of Object.entries(document.paths as Record<string, Record<string, Json>>)) {
      for (const [method, operation] of Object.entries(item)) {
        // Generators that cannot read a 4XX range (orval 7) still type the commonest refusal.
        expect(operation.responses['400'], `${method} ${path}`).toBeDefined();
        const admin = (operation.security as Json[]).length > 0;
        if (admin) expect(operation.responses['429']?.headers, `${method} ${path}`).toHaveProperty('Retry-After');
      }
    }
    expect(document.paths['/api/orders'].get.responses['429'].description).toMatch(/^rate_limited: too many wrong admin tokens/);
    const exported = document.paths['/api/exports/orders'].get.responses['200'];
    expect(exported.content['text/csv'].schema).toEqual({ type: 'string' });
    expect(exported.headers).toHaveProperty('Content-Disposition');
    // A page or a script is no file: nothing names it so.
    expect(document.paths['/widget/pay-form.js'].get.responses['200']).not.toHaveProperty('headers');
    // Every tag an operation is listed under is declared, with what it holds.
    const declared = (document.tags as Json[]).map((tag) => tag.name);
    const used = new Set(Object.values(document.paths as Record<string, Record<string, Json>>).flatMap((item) => Object.values(item).flatMap((operation) => operation.tags as string[])));
    expect([...used].sort()).toEqual([...declared].sort());
    const receipts = document.paths['/api/receipts/{date}'].get.responses['200'];
    expect(receipts.content['application/zip'].schema).toEqual({ type: 'string', format: 'binary' });
  });

  it('passes @redocly/cli lint with the recommended rules: no error, no warning', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'payform-openapi-'));
    try {
      writeFileSync(join(dir, 'openapi.json'), JSON.stringify(await served()));
      const env = { ...process.env, REDOCLY_TELEMETRY: 'off', REDOCLY_SUPPRESS_UPDATE_NOTICE: 'true', NO_COLOR: '1' };
      const { stdout } = await run(join(BIN, 'redocly'), ['lint', 'openapi.json', '--extends', 'recommended', '--format', 'json'], { cwd: dir, env });
      const report = JSON.parse(stdout) as { totals: Record<string, number>; problems: { ruleId: string; message: string }[] };
      expect(report.problems.map((problem) => `${problem.ruleId}: ${problem.message}`)).toEqual([]);
      expect(report.totals).toMatchObject({ errors: 0, warnings: 0 });
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }, 60_000);

  it('generates a client whose merchant flow compiles under tsc --strict without casts and runs against the companion', async () => {
    const stack = await openStack({ served: true });
    const dir = scratchDir();
    try {
      const document = await stack.json<OpenAPI3>('GET', '/api/openapi.json', 200);
      writeFileSync(join(dir, 'companion-api.ts'), astToString(await openapiTS(document)));
      const program = join(dir, 'merchant-flow.ts');
      writeFileSync(program, MERCHANT_FLOW);

      const source = ts.createSourceFile(program, MERCHANT_FLOW, ts.ScriptTarget.ES2022, true);
      const casts: string[] = [];
      const visit = (node: ts.Node): void => {
        if (ts.isAsExpression(node) || ts.isTypeAssertionExpression(node) || ts.isNonNullExpression(node) || node.kind === ts.SyntaxKind.AnyKeyword) casts.push(node.getText(source));
        ts.forEachChild(node, visit);
      };
      visit(source);
      expect(casts).toEqual([]);

      // Compiled by TypeScript 7 in a process of its own: 6's compiler in this worker cost 7-9 s
      // of CPU for the same program.
      writeFileSync(join(dir, 'tsconfig.json'), JSON.stringify({ compilerOptions: MERCHANT_TSCONFIG, files: ['merchant-flow.ts'] }));
      expect(await compileErrors(dir)).toBe('');

      const { stdout } = await run(join(BIN, 'tsx'), [program, stack.companionUrl, ADMIN_TOKEN, cardNumber('success'), TEST_CVV], { cwd: dir });
      expect(JSON.parse(stdout)).toEqual({
        session: { status: 'open', amount: 2550, currency: 'UAH' },
        pay: 'success',
        refund: 'success',
        order: { status: 'success', card: '424242******4242', refunded: 550, refundable: 2000, operations: ['refund 550 success'] },
        missing: 'order_not_found',
      });
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }, 60_000);
});
