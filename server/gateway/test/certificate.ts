/**
 * A TLS server whose certificate a client trusts but which names another host: what a receiver
 * or a gateway reached by the wrong name answers (or, asked, one whose certificate has expired). node:crypto makes keys but writes no X.509,
 * so the self-signed certificate is written here in DER: a few fields, no file to keep or expire.
 */
import { generateKeyPairSync, sign } from 'node:crypto';
import { createServer } from 'node:https';
import type { Server } from 'node:https';
import type { AddressInfo } from 'node:net';
import { Agent } from 'undici';

export interface ElsewhereServer {
  /** `https://127.0.0.1:<port>`: an address its certificate does not name. */
  readonly url: string;
  /** A fetch that trusts the server's certificate, and checks host names as every fetch does. */
  readonly fetch: typeof globalThis.fetch;
  close(): Promise<void>;
}

/**
 * Answers 204 to everything, over TLS, with a self-signed certificate for `hostName` alone; with
 * `expired`, one whose validity ended in 2001.
 */
export async function serveCertifiedElsewhere(hostName = 'elsewhere.example', options: { readonly expired?: boolean } = {}): Promise<ElsewhereServer> {
  const { key, cert } = selfSignedCertificate(hostName, options.expired ?? false);
  const server: Server = createServer({ key, cert }, (request, response) => {
    request.resume();
    response.writeHead(204).end();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const dispatcher = new Agent({ connect: { ca: cert } });
  return {
    url: `https://127.0.0.1:${(server.address() as AddressInfo).port}`,
    fetch: (input, init) => fetch(input, { ...init, dispatcher } as RequestInit),
    async close() {
      await dispatcher.close();
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}

function selfSignedCertificate(hostName: string, expired: boolean): { key: string; cert: string } {
  const { privateKey, publicKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
  const ecdsaWithSha256 = der(0x30, oid('1.2.840.10045.4.3.2'));
  const name = der(0x30, der(0x31, der(0x30, oid('2.5.4.3'), der(0x0c, Buffer.from(hostName)))));
  const tbs = der(
    0x30,
    der(0xa0, der(0x02, Buffer.from([2]))), // version 3
    der(0x02, Buffer.from([1])), // serial number
    ecdsaWithSha256,
    name, // issuer: itself
    // Valid from 2000, for good, or until 2001.
    der(0x30, der(0x17, Buffer.from('000101000000Z')), expired ? der(0x17, Buffer.from('010101000000Z')) : der(0x18, Buffer.from('99991231235959Z'))),
    name,
    publicKey.export({ type: 'spki', format: 'der' }),
    // subjectAltName: the one DNS name, which is what host names are checked against.
    der(0xa3, der(0x30, der(0x30, oid('2.5.29.17'), der(0x04, der(0x30, der(0x82, Buffer.from(hostName))))))),
  );
  const certificate = der(0x30, tbs, ecdsaWithSha256, der(0x03, Buffer.concat([Buffer.from([0]), sign('sha256', tbs, privateKey)])));
  const lines = certificate.toString('base64').match(/.{1,64}/g) ?? [];
  return {
    key: privateKey.export({ type: 'pkcs8', format: 'pem' }).toString(),
    cert: `-----BEGIN CERTIFICATE-----\n${lines.join('\n')}\n-----END CERTIFICATE-----\n`,
  };
}

/** One DER element: its tag, its length and its contents. */
function der(tag: number, ...contents: Buffer[]): Buffer {
  const body = Buffer.concat(contents);
  const length = body.length < 0x80 ? Buffer.from([body.length]) : lengthBytes(body.length);
  return Buffer.concat([Buffer.from([tag]), length, body]);
}

function lengthBytes(length: number): Buffer {
  const bytes: number[] = [];
  for (let rest = length; rest > 0; rest = Math.floor(rest / 256)) bytes.unshift(rest % 256);
  return Buffer.from([0x80 | bytes.length, ...bytes]);
}

function oid(dotted: string): Buffer {
  const [first = 0, second = 0, ...rest] = dotted.split('.').map(Number);
  const bytes = [40 * first + second];
  for (const arc of rest) {
    const base128 = [arc % 128];
    for (let high = Math.floor(arc / 128); high > 0; high = Math.floor(high / 128)) base128.unshift(0x80 | (high % 128));
    bytes.push(...base128);
  }
  return der(0x06, Buffer.from(bytes));
}
