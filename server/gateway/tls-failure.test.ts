// An https:// base URL where a plain-http server answers, over a real socket and both ways a
// client calls (undici's pools, a fetch): the call's record says the TLS handshake failed, and
// that plain http answered. A certificate refused is told apart: one for another host from one
// not trusted. Other failures say nothing of TLS.
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { GatewayClient } from './client.js';
import { serveCertifiedElsewhere } from './test/certificate.js';
import type { ElsewhereServer } from './test/certificate.js';
import { NetworkError } from './errors.js';
import { TEST_PROJECT_DEFAULTS } from './test-project.js';
import { tlsFailureOf } from './tls-failure.js';
import type { GatewayCallRecord } from './transport.js';

const plain = createServer((request, response) => {
  request.resume();
  response.writeHead(200, { 'Content-Type': 'application/json' }).end('{}');
});
let port: number;
beforeAll(async () => {
  await new Promise<void>((resolve) => plain.listen(0, '127.0.0.1', resolve));
  port = (plain.address() as AddressInfo).port;
});
afterAll(async () => {
  plain.closeAllConnections();
  await new Promise((resolve) => plain.close(resolve));
});

describe('a call to an https:// URL that plain http answers', () => {
  it.each([
    ['the pools', {}],
    ['a fetch', { fetch: globalThis.fetch }],
  ])('over %s fails as a TLS handshake that plain http answered', async (_way, exchange) => {
    const client = new GatewayClient({ ...TEST_PROJECT_DEFAULTS, baseUrl: `https://127.0.0.1:${port}`, retry: { maxRetries: 0 }, ...exchange });
    const records: GatewayCallRecord[] = [];
    client.onCall((record) => records.push(record));
    const error = await client.balances.listAccounts().catch((failure: unknown) => failure);
    expect(error).toBeInstanceOf(NetworkError);
    expect(tlsFailureOf(error)).toEqual({ plainHttp: true, code: 'ERR_SSL_WRONG_VERSION_NUMBER' });
    expect(records).toEqual([expect.objectContaining({ outcome: 'network', tls: { plainHttp: true, code: 'ERR_SSL_WRONG_VERSION_NUMBER' } })]);
  });
});

describe('a refund sent to an https:// URL that plain http answers', () => {
  it('is known not to have happened (the handshake failed before the request), and says to check the scheme', async () => {
    const client = new GatewayClient({ ...TEST_PROJECT_DEFAULTS, baseUrl: `https://127.0.0.1:${port}` });
    const error = await client.operations.refund({ order_id: 'tls-plain-1', order_currency: 'UAH', refund_amount: 500 }).catch((failure: unknown) => failure);
    expect(error).toBeInstanceOf(NetworkError);
    expect(error).toMatchObject({ connectFailed: true });
    expect((error as Error).message).toContain("what answers speaks plain http: check the base URL's scheme");
  });
});

describe('a call to a server whose certificate names another host', () => {
  let elsewhere: ElsewhereServer;
  beforeAll(async () => {
    elsewhere = await serveCertifiedElsewhere();
  });
  afterAll(() => elsewhere.close());
  const call = (exchange: { fetch?: typeof globalThis.fetch }) => {
    const client = new GatewayClient({ ...TEST_PROJECT_DEFAULTS, baseUrl: elsewhere.url, retry: { maxRetries: 0 }, ...exchange });
    const records: GatewayCallRecord[] = [];
    client.onCall((record) => records.push(record));
    return client.balances.listAccounts().then(
      () => ({ error: undefined, records }),
      (error: unknown) => ({ error, records }),
    );
  };

  it('fails as its certificate being for other hosts when the certificate is trusted, not as one untrusted', async () => {
    const { error, records } = await call({ fetch: elsewhere.fetch });
    expect(error).toBeInstanceOf(NetworkError);
    const failure = { plainHttp: false, certificate: 'other host', code: 'ERR_TLS_CERT_ALTNAME_INVALID' };
    expect(tlsFailureOf(error)).toEqual(failure);
    expect(records).toEqual([expect.objectContaining({ outcome: 'network', tls: failure })]);
  });

  it('fails as its certificate not being trusted when it is not (its host is never reached)', async () => {
    const { error } = await call({});
    expect(tlsFailureOf(error)).toEqual({ plainHttp: false, certificate: 'untrusted', code: 'DEPTH_ZERO_SELF_SIGNED_CERT' });
  });

  it('refuses a refund as never sent when the certificate is not trusted, naming why', async () => {
    const client = new GatewayClient({ ...TEST_PROJECT_DEFAULTS, baseUrl: elsewhere.url });
    const error = await client.operations.refund({ order_id: 'tls-untrusted-1', order_currency: 'UAH', refund_amount: 500 }).catch((failure: unknown) => failure);
    expect(error).toBeInstanceOf(NetworkError);
    expect(error).toMatchObject({ connectFailed: true });
    expect((error as Error).message).toContain('its certificate is not trusted by this process');
  });
});

describe('a call to a server whose certificate has expired', () => {
  it('fails as its certificate being out of date, whose fix is the certificate or the clock, not a CA', async () => {
    const expired = await serveCertifiedElsewhere('127.0.0.1', { expired: true });
    try {
      const client = new GatewayClient({ ...TEST_PROJECT_DEFAULTS, baseUrl: expired.url, retry: { maxRetries: 0 }, fetch: expired.fetch });
      const error = await client.balances.listAccounts().then(() => undefined, (failure: unknown) => failure);
      expect(tlsFailureOf(error)).toEqual({ plainHttp: false, certificate: 'out of date', code: 'CERT_HAS_EXPIRED' });
    } finally {
      await expired.close();
    }
  });
});

describe('tlsFailureOf', () => {
  it('reads an older OpenSSL’s EPROTO by its words, and a certificate refused as TLS failing otherwise', () => {
    const eproto = Object.assign(new Error('write EPROTO 140:error:1408F10B:SSL routines:ssl3_get_record:wrong version number'), { code: 'EPROTO' });
    expect(tlsFailureOf(new TypeError('fetch failed', { cause: eproto }))).toEqual({ plainHttp: true, code: 'EPROTO' });
    const selfSigned = Object.assign(new Error('self-signed certificate'), { code: 'DEPTH_ZERO_SELF_SIGNED_CERT' });
    expect(tlsFailureOf(selfSigned)).toEqual({ plainHttp: false, certificate: 'untrusted', code: 'DEPTH_ZERO_SELF_SIGNED_CERT' });
  });

  it('says nothing of a connection that never began or was closed', () => {
    expect(tlsFailureOf(Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:1'), { code: 'ECONNREFUSED' }))).toBeUndefined();
    expect(tlsFailureOf(Object.assign(new Error('other side closed'), { code: 'UND_ERR_SOCKET' }))).toBeUndefined();
    expect(tlsFailureOf('fetch failed')).toBeUndefined();
  });
});
