// A day's receipts ZIP is built by the gateway once per link: fetched when the link is issued,
// kept on that instance for the link's minute (kept-downloads.ts), over HTTP through the
// companion and the sandbox, the gateway's receipt requests counted on the way.
import { unzipSync } from 'fflate';
import { describe, expect, it } from 'vitest';
import { fileBackend, TestClock } from '../../ledger/testing/databases.js';
import { stacksPerTest } from '../test/stack.js';
import type { Stack, StackOptions } from '../test/stack.js';
import { KeptDownloads } from './kept-downloads.js';

const open = stacksPerTest();
const today = new Date().toISOString().slice(0, 10);
const MiB = 1024 * 1024;

/** The gateway client's fetch, counting the day-receipts requests it sends; `padTo` makes each such ZIP that large (a big shop's day). */
function countedGateway(padTo = 0) {
  const asked: string[] = [];
  const counted: typeof fetch = async (input, init) => {
    const url = input instanceof Request ? input.url : String(input);
    const response = await fetch(input, init);
    if (!/\/date\/[\d-]+\/report\/receipt/.test(url)) return response;
    asked.push(url);
    if (padTo === 0) return response;
    const zip = new Uint8Array(padTo);
    zip.set(new Uint8Array(await response.arrayBuffer()));
    return new Response(zip, { status: response.status, headers: response.headers });
  };
  return { asked, fetch: counted };
}

async function openCounted(options: StackOptions = {}, padTo = 0): Promise<{ stack: Stack; asked: string[] }> {
  const gateway = countedGateway(padTo);
  const stack = await open({ served: true, ...options, gateway: { fetch: gateway.fetch } });
  return { stack, asked: gateway.asked };
}

const linkTo = async (stack: Stack, query = 'format=pdf', date = today) =>
  (await stack.json('GET', `/api/receipts/${date}/link?${query}`, 200, { admin: true })) as { url: string; path: string };

const bytesOf = async (response: Response) => {
  expect(response.status).toBe(200);
  return Buffer.from(await response.arrayBuffer());
};

/** The receipts a ZIP holds, by name: two builds of a day's ZIP differ in the times they carry (the second they were made), not in the receipts. */
const filesOf = (zip: Buffer) => Object.keys(unzipSync(new Uint8Array(zip))).sort();

describe('a day’s receipts by link', () => {
  it('are fetched from the gateway once: following the link serves the ZIP fetched when it was issued', async () => {
    const { stack, asked } = await openCounted();
    const session = await stack.openSession();
    await stack.pay(session.id);
    const link = await linkTo(stack);
    expect(asked).toHaveLength(1);
    const zip = await fetch(link.url);
    expect(zip.headers.get('content-type')).toBe('application/zip');
    expect(zip.headers.get('content-disposition')).toBe(`attachment; filename="receipts-${today}.zip"`);
    const kept = await bytesOf(zip);
    expect(filesOf(kept)).toHaveLength(1);
    // A retried download is served the same bytes, still without the gateway, and still counted.
    expect(await bytesOf(await fetch(link.url))).toEqual(kept);
    expect(asked).toHaveLength(1);
    for (let time = 3; time <= 5; time++) expect((await fetch(link.url)).status).toBe(200);
    expect((await fetch(link.url)).status).toBe(403);
    // What the bearer route fetches is the same ZIP.
    expect(filesOf(await bytesOf(await stack.request('GET', `/api/receipts/${today}?format=pdf`, { admin: true })))).toEqual(filesOf(kept));
    expect(asked).toHaveLength(2);
  });

  it('is each link’s own ZIP, until the link expires', async () => {
    const clock = new TestClock(Date.now());
    const { stack, asked } = await openCounted({ clock });
    const session = await stack.openSession();
    await stack.pay(session.id);
    const pdf = await linkTo(stack, 'format=pdf');
    const html = await linkTo(stack, 'format=html');
    const htmlZip = await bytesOf(await fetch(html.url));
    clock.advance(59_000);
    const pdfZip = await bytesOf(await fetch(pdf.url));
    expect(pdfZip).not.toEqual(htmlZip);
    expect(asked).toHaveLength(2);
    // The bearer route's (a fresh fetch) are the same files.
    expect(filesOf(await bytesOf(await stack.request('GET', `/api/receipts/${today}?format=pdf`, { admin: true })))).toEqual(filesOf(pdfZip));
    expect(filesOf(await bytesOf(await stack.request('GET', `/api/receipts/${today}?format=html`, { admin: true })))).toEqual(filesOf(htmlZip));
    expect(asked).toHaveLength(4);
    clock.advance(2_000);
    expect((await fetch(pdf.url)).status).toBe(403);
    expect(asked).toHaveLength(4);
  });

  it('are fetched again when the link is followed on another instance than the one that issued it', async () => {
    const { stack, asked } = await openCounted({ backend: fileBackend });
    const other = await stack.instance();
    const link = await linkTo(stack);
    const elsewhere = await bytesOf(await fetch(`${other.url}${link.path}`));
    expect(asked).toHaveLength(2);
    expect(filesOf(await bytesOf(await fetch(link.url)))).toEqual(filesOf(elsewhere));
    expect(asked).toHaveLength(2);
  });

  it('keeps no more than its cap: the oldest ZIP is dropped for a newer one, and its link fetches it again', async () => {
    // 40 MiB days: two do not fit under the 64 MiB cap together.
    const { stack, asked } = await openCounted({}, 40 * MiB);
    const first = await linkTo(stack, 'format=pdf');
    const second = await linkTo(stack, 'format=html');
    expect(asked).toHaveLength(2);
    expect((await bytesOf(await fetch(second.url))).byteLength).toBe(40 * MiB);
    expect(asked).toHaveLength(2);
    expect((await bytesOf(await fetch(first.url))).byteLength).toBe(40 * MiB);
    expect(asked).toHaveLength(3);
  });
});

describe('KeptDownloads', () => {
  const zip = (bytes: number) => ({ contentType: 'application/zip', body: new Uint8Array(bytes) });

  it('holds no copy past its link’s expiry, and none beyond its cap', () => {
    const clock = new TestClock(0);
    const kept = new KeptDownloads(clock.read, 4_000);
    kept.keep('a', zip(1_000), 60_000);
    kept.keep('b', zip(1_000), 61_000);
    expect(kept.bytes).toBe(2 * (1_000 + 512));
    // A third needs the oldest's room.
    kept.keep('c', zip(1_500), 62_000);
    expect([kept.find('a'), kept.find('b')?.body.byteLength, kept.find('c')?.body.byteLength]).toEqual([undefined, 1_000, 1_500]);
    // One larger than the cap is not kept, and costs the others nothing.
    kept.keep('d', zip(4_000), 63_000);
    expect(kept.find('d')).toBeUndefined();
    expect(kept.find('c')).toBeDefined();
    // The same link kept again is one copy.
    kept.keep('c', zip(1_500), 62_000);
    expect(kept.bytes).toBe(1_000 + 1_500 + 2 * 512);
    clock.advance(61_000);
    expect([kept.find('b'), kept.find('c')?.body.byteLength]).toEqual([undefined, 1_500]);
    clock.advance(1_000);
    expect(kept.find('c')).toBeUndefined();
    expect(kept.bytes).toBe(0);
  });
});
