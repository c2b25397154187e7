// The gateway failing the companion's calls is said once, reminded once a minute, and its end
// said once with how long and how many; a call its caller gave up on, or one the gateway
// answered with a decline or a refusal, is no trouble.
import { describe, expect, it } from 'vitest';
import { createLogger, memorySink } from '../log/logger.js';
import { TestClock } from '../../ledger/testing/databases.js';
import { GatewayTrouble } from './gateway-trouble.js';

const PAY = 'POST /api/v1/payment';
const BALANCES = 'GET /api/v1/balances/pos/:pos_id/accounts';
const RECEIPT = 'GET /api/v1/pos/:pos_id/orders/:order_id/report/receipt';

function tracked() {
  const memory = memorySink();
  const clock = new TestClock(Date.UTC(2030, 0, 1));
  const trouble = new GatewayTrouble(createLogger({ sink: memory.sink, clock: clock.read, level: 'debug' }), clock.read, 'https://api.gateway.example');
  const call = (outcome: number | 'network' | 'timeout' | 'aborted') => trouble.observe({ route: PAY, endpointsKey: true, outcome, seconds: 0.1 });
  const lines = () => memory.lines.map((line) => JSON.parse(line) as Record<string, unknown>);
  return { clock, call, lines, trouble };
}

describe('GatewayTrouble', () => {
  it('says an outage once, reminds once a minute with the count, and says when the gateway answers again', () => {
    const { clock, call, lines } = tracked();
    call(200);
    call('network');
    for (let i = 0; i < 5; i++) call('network');
    clock.advance(60_000);
    call('network');
    call(402);
    expect(lines()).toMatchObject([
      { level: 'error', msg: expect.stringMatching(/^the gateway at https:\/\/api\.gateway\.example cannot be reached: .*check PAYFORM_GATEWAY_BASE_URL/), route: PAY, outcome: 'network' },
      { level: 'error', msg: 'the gateway still fails the companion’s calls', was: 'unreachable', down_for_ms: 60_000, failed: 7 },
      { level: 'warn', msg: 'the gateway answers again', was: 'unreachable', down_for_ms: 60_000, failed: 7 },
    ]);
  });

  it('says connections cut before the answer as payments read back, not refused: they may have got there', () => {
    const memory = memorySink();
    const clock = new TestClock(Date.UTC(2030, 0, 1));
    const trouble = new GatewayTrouble(createLogger({ sink: memory.sink, clock: clock.read }), clock.read, 'https://api.gateway.example');
    trouble.observe({ route: PAY, endpointsKey: true, outcome: 'network', dropped: true, seconds: 0.1 });
    expect(memory.lines.map((line) => JSON.parse(line) as Record<string, unknown>)).toMatchObject([
      {
        level: 'error',
        msg: 'the gateway at https://api.gateway.example drops the companion’s connections before answering: each payment sent meanwhile waits while its outcome is read back from the gateway; check the network between them (a proxy, a firewall, a balancer’s idle timeout)',
      },
    ]);
  });

  it('says a gateway that fails calls on and off (a flaky network) at most once a minute, not at every call', () => {
    const { clock, call, lines } = tracked();
    call(200);
    // Every other connection reset for two minutes: an episode begins and ends at every call.
    for (let second = 0; second < 120; second++) {
      call('network');
      call(200);
      clock.advance(1_000);
    }
    call(200);
    const said = lines().filter((line) => line.level !== 'debug');
    expect(said).toMatchObject([
      { level: 'error', msg: expect.stringMatching(/cannot be reached/), failed: 1 },
      { level: 'warn', msg: 'the gateway answers again', failed: 1 },
      { level: 'error', msg: expect.stringMatching(/cannot be reached/), failed: 1, failed_since_last_line: 59 },
      { level: 'warn', msg: 'the gateway answers again', failed: 1 },
    ]);
    // Apart, each is its own outage, said in full.
    clock.advance(60_000);
    call('network');
    call(200);
    expect(lines().filter((line) => line.level !== 'debug').slice(4)).toMatchObject([
      { level: 'error', msg: expect.stringMatching(/cannot be reached/), failed: 1, failed_since_last_line: 59 },
      { level: 'warn', msg: 'the gateway answers again' },
    ]);
  });

  it('says a failed TLS handshake at the first call as the scheme or the certificate, not as a gateway away', () => {
    const memory = memorySink();
    const trouble = new GatewayTrouble(createLogger({ sink: memory.sink }), () => 0, 'https://127.0.0.1:3001');
    trouble.observe({ route: BALANCES, endpointsKey: false, outcome: 'network', seconds: 0.01, tls: { plainHttp: true, code: 'ERR_SSL_WRONG_VERSION_NUMBER' } });
    const refused = new GatewayTrouble(createLogger({ sink: memory.sink }), () => 0, 'https://gateway.shop.internal');
    refused.observe({ route: BALANCES, endpointsKey: false, outcome: 'network', seconds: 0.01, tls: { plainHttp: false, certificate: 'untrusted', code: 'UNABLE_TO_VERIFY_LEAF_SIGNATURE' } });
    const byAddress = new GatewayTrouble(createLogger({ sink: memory.sink }), () => 0, 'https://10.0.0.7');
    byAddress.observe({ route: BALANCES, endpointsKey: false, outcome: 'network', seconds: 0.01, tls: { plainHttp: false, certificate: 'other host', code: 'ERR_TLS_CERT_ALTNAME_INVALID' } });
    const lapsed = new GatewayTrouble(createLogger({ sink: memory.sink }), () => 0, 'https://gateway.shop.internal');
    lapsed.observe({ route: BALANCES, endpointsKey: false, outcome: 'network', seconds: 0.01, tls: { plainHttp: false, certificate: 'out of date', code: 'CERT_HAS_EXPIRED' } });
    expect(memory.lines.map((line) => (JSON.parse(line) as { msg: string }).msg)).toEqual([
      "the gateway at https://127.0.0.1:3001 speaks plain http, not https (ERR_SSL_WRONG_VERSION_NUMBER): set PAYFORM_GATEWAY_BASE_URL (the client's baseUrl, mounted) " +
        "to http://127.0.0.1:3001 if it is a sandbox (npx payform-sandbox speaks plain http), or to the gateway's https address",
      'the gateway at https://gateway.shop.internal cannot be reached over https: the TLS handshake failed (UNABLE_TO_VERIFY_LEAF_SIGNATURE), so no payment can be sent; ' +
        "check that PAYFORM_GATEWAY_BASE_URL (the client's baseUrl, mounted) is the gateway's https address, and, for a certificate of your own CA, set NODE_EXTRA_CA_CERTS to it",
      'the gateway at https://10.0.0.7 cannot be reached over https: its certificate names other hosts (ERR_TLS_CERT_ALTNAME_INVALID), so no payment can be sent; ' +
        "set PAYFORM_GATEWAY_BASE_URL (the client's baseUrl, mounted) to a host name the certificate names",
      'the gateway at https://gateway.shop.internal cannot be reached over https: its certificate has expired or is not yet valid (CERT_HAS_EXPIRED), so no payment can be sent; ' +
        "check this machine's clock, and that PAYFORM_GATEWAY_BASE_URL (the client's baseUrl, mounted) is the gateway's https address",
    ]);
  });

  it('tells refused credentials, rate limiting and failing calls apart, each said once it lasts', () => {
    const { call, lines } = tracked();
    for (const outcome of [401, 401, 200, 429, 429, 429, 200, 503, 'timeout', 502, 400, 409] as const) call(outcome);
    expect(lines()).toMatchObject([
      { level: 'error', outcome: 401, failed: 1, msg: expect.stringMatching(/^the gateway refuses the companion’s credentials, .*PAYFORM_GATEWAY_ENDPOINTS_KEY/) },
      { level: 'warn', msg: 'the gateway answers again', was: 'credentials', failed: 2 },
      { level: 'error', outcome: 429, failed: 3, msg: expect.stringMatching(/^the gateway at https:\/\/api\.gateway\.example is rate limiting/) },
      { level: 'warn', msg: 'the gateway answers again', was: 'busy', failed: 3 },
      { level: 'error', outcome: 502, failed: 3, msg: expect.stringMatching(/^the gateway at https:\/\/api\.gateway\.example keeps failing its calls/) },
      { level: 'warn', msg: 'the gateway answers again', was: 'failing', failed: 3 },
    ]);
  });

  it('names the endpoints key when only the calls carrying it are refused, and waits for one of them to end it', () => {
    const memory = memorySink();
    const trouble = new GatewayTrouble(createLogger({ sink: memory.sink }), Date.now, 'https://api.gateway.example');
    // The check at start: the balances (no endpoints key) are read, a receipt (with it) is refused.
    trouble.observe({ route: BALANCES, endpointsKey: false, outcome: 200, seconds: 0.1 });
    trouble.observe({ route: RECEIPT, endpointsKey: true, outcome: 401, seconds: 0.1 });
    // The back office's balances still read: no sign that payments go through again.
    trouble.observe({ route: BALANCES, endpointsKey: false, outcome: 200, seconds: 0.1 });
    trouble.observe({ route: PAY, endpointsKey: true, outcome: 401, seconds: 0.1 });
    trouble.observe({ route: PAY, endpointsKey: true, outcome: 200, seconds: 0.1 });
    expect(memory.lines.map((line) => JSON.parse(line) as Record<string, unknown>)).toMatchObject([
      { level: 'error', outcome: 401, msg: expect.stringMatching(/refuses its endpoints key \(X-API-KEY\).*check PAYFORM_GATEWAY_ENDPOINTS_KEY.*credentials were changed just now, all four$/) },
      { level: 'warn', msg: 'the gateway answers again', was: 'endpoints key', failed: 2 },
    ]);
  });

  it('names every credential, not the endpoints key, when a refusal comes long after the balances were read', () => {
    const clock = new TestClock(Date.UTC(2030, 0, 1));
    const log = memorySink();
    const trouble = new GatewayTrouble(createLogger({ sink: log.sink, clock: clock.read }), clock.read, 'https://api.gateway.example');
    trouble.observe({ route: BALANCES, endpointsKey: false, outcome: 200, seconds: 0.1 });
    trouble.observe({ route: RECEIPT, endpointsKey: true, outcome: 404, seconds: 0.1 });
    // Hours later the project's API secret is changed at the gateway: every payment is refused.
    clock.advance(3 * 3600_000);
    trouble.observe({ route: PAY, endpointsKey: true, outcome: 401, seconds: 0.1 });
    expect(log.lines.map((line) => JSON.parse(line) as Record<string, unknown>)).toMatchObject([
      { level: 'error', msg: expect.stringMatching(/^the gateway refuses the companion’s credentials, .*PAYFORM_GATEWAY_API_SECRET/) },
    ]);
  });

  it('says an outage that changes kind as what it is now, and its end once', () => {
    const { call, lines } = tracked();
    // A gateway restarting: no connection, then 5xx, then answers.
    for (const outcome of [200, 'network', 'network', 503, 200] as const) call(outcome);
    expect(lines()).toMatchObject([
      { level: 'error', outcome: 'network', msg: expect.stringMatching(/cannot be reached/) },
      { level: 'error', outcome: 503, failed: 3, msg: expect.stringMatching(/keeps failing its calls/) },
      { level: 'warn', msg: 'the gateway answers again', was: 'failing', failed: 3 },
    ]);
  });

  it('says what the first call of all meets (the check at start), which has no call before it to tell a blip by', () => {
    const { call, lines } = tracked();
    call('timeout');
    call(200);
    expect(lines()).toMatchObject([
      { level: 'error', outcome: 'timeout', failed: 1, msg: expect.stringMatching(/keeps failing its calls/) },
      { level: 'warn', msg: 'the gateway answers again', was: 'failing' },
    ]);
  });

  it('keeps payments\' own lines at info for a minute after a line of trouble, through an answered read between them', () => {
    const { clock, call, trouble } = tracked();
    call(200);
    expect(trouble.paymentLineLevel).toBe('warn');
    for (let i = 0; i < 3; i++) call('timeout');
    expect(trouble.paymentLineLevel).toBe('info');
    // An order read answered ends the trouble; payments still time out, a blip again at first.
    call(200);
    call('timeout');
    expect(trouble.paymentLineLevel).toBe('info');
    clock.advance(60_000);
    call(200);
    expect(trouble.paymentLineLevel).toBe('warn');
  });

  it('takes a failing call or two, answered again at the next, for a blip: said at debug, not as an outage', () => {
    const { clock, call, lines } = tracked();
    call(200);
    for (const outcome of [503, 200, 'timeout', 503, 200, 429, 201] as const) call(outcome);
    expect(lines().filter((line) => line.level !== 'debug')).toEqual([]);
    expect(lines()).toMatchObject([
      { level: 'debug', msg: 'the gateway failed a call, then answered again', was: 'failing', failed: 1 },
      { level: 'debug', was: 'failing', failed: 2 },
      { level: 'debug', was: 'busy', failed: 1 },
    ]);
    // One failing call, then another ten seconds on with nothing answered between: it lasts.
    call(503);
    clock.advance(10_000);
    call(504);
    expect(lines().at(-1)).toMatchObject({ level: 'error', failed: 2, msg: expect.stringMatching(/keeps failing its calls/) });
  });

  it('says another server answers where the gateway always has a path; an unknown order is no trouble', () => {
    const seen: Record<string, unknown>[] = [];
    const trouble = new GatewayTrouble(createLogger({ sink: (line) => void seen.push(JSON.parse(line)) }), Date.now, 'http://127.0.0.1:3000');
    for (const route of ['GET /api/v1/pos/:pos_id/orders/:order_id', 'POST /api/v1/capture']) trouble.observe({ route, endpointsKey: true, outcome: 404, seconds: 0.1 });
    expect(seen).toEqual([]);
    trouble.observe({ route: BALANCES, endpointsKey: false, outcome: 404, seconds: 0.1 });
    // Its 404 for an order read is no sign of the gateway coming back: no "answers again", no second error.
    trouble.observe({ route: 'GET /api/v1/pos/:pos_id/orders/:order_id', endpointsKey: true, outcome: 404, seconds: 0.1 });
    trouble.observe({ route: PAY, endpointsKey: true, outcome: 404, seconds: 0.1 });
    expect(seen).toMatchObject([
      { level: 'error', outcome: 404, msg: expect.stringMatching(/^what answers at http:\/\/127\.0\.0\.1:3000 is not the gateway .*set PAYFORM_GATEWAY_BASE_URL/) },
    ]);
  });

  it('says another server answers with a redirect or an HTML page; the hosted create’s 303 and an HTML receipt are the gateway’s', () => {
    const seen: Record<string, unknown>[] = [];
    const trouble = new GatewayTrouble(createLogger({ sink: (line) => void seen.push(JSON.parse(line)) }), Date.now, 'http://127.0.0.1:3000');
    trouble.observe({ route: PAY, endpointsKey: true, outcome: 303, seconds: 0.1, location: 'https://pay.gateway.example/checkout/1' });
    trouble.observe({ route: RECEIPT, endpointsKey: true, outcome: 200, seconds: 0.1, html: true });
    expect(seen).toEqual([]);
    trouble.observe({ route: BALANCES, endpointsKey: false, outcome: 200, seconds: 0.1, html: true });
    // The same episode: an HTML receipt, a redirected payment say nothing more, nor that it answers again.
    trouble.observe({ route: RECEIPT, endpointsKey: true, outcome: 200, seconds: 0.1, html: true });
    trouble.observe({ route: PAY, endpointsKey: true, outcome: 302, seconds: 0.1, location: 'https://maintenance.example/' });
    trouble.observe({ route: BALANCES, endpointsKey: false, outcome: 200, seconds: 0.1 });
    trouble.observe({ route: 'GET /api/v1/pos/:pos_id/orders/:order_id', endpointsKey: true, outcome: 301, seconds: 0.1, location: 'https://127.0.0.1:3000/api/v1/pos/p/orders/o' });
    expect(seen).toMatchObject([
      { level: 'error', outcome: 200, msg: "what answers at http://127.0.0.1:3000 is not the gateway (it answers an HTML page): set PAYFORM_GATEWAY_BASE_URL (the client's baseUrl, mounted) to the gateway's address" },
      { level: 'warn', msg: 'the gateway answers again', was: 'elsewhere', failed: 2 },
      { level: 'error', outcome: 301, msg: expect.stringMatching(/^what answers at http:\/\/127\.0\.0\.1:3000 is not the gateway \(it answers HTTP 301, a redirect to https:\/\/127\.0\.0\.1:3000\/api\/v1\/pos\/p\/orders\/o\): set PAYFORM_GATEWAY_BASE_URL/) },
    ]);
  });

  it('takes one terminal’s unreadable balance (a 500 with its reason) as that terminal’s, neither an outage nor its end', () => {
    const { call, clock, lines, trouble } = tracked();
    const terminal = (outcome: number) => trouble.observe({ route: 'GET /api/v1/balances/pos/:pos_id/terminals/:terminal_id', endpointsKey: false, outcome, seconds: 0.1 });
    call(200);
    // The client tries a failed read three times: as many calls as an outage that lasts.
    for (let i = 0; i < 3; i++) terminal(500);
    expect(lines()).toEqual([]);
    for (let i = 0; i < 3; i++) call(503);
    terminal(500);
    expect(lines()).toMatchObject([{ level: 'error', msg: expect.stringMatching(/keeps failing its calls/) }]);
    call(200);
    expect(lines().at(-1)).toMatchObject({ msg: 'the gateway answers again', failed: 3 });
    // A balancer's 502–504 for it is the gateway away, counted as any call's.
    clock.advance(60_000);
    for (let i = 0; i < 3; i++) terminal(502);
    expect(lines().at(-1)).toMatchObject({ level: 'error', msg: expect.stringMatching(/keeps failing its calls/) });
  });

  it('takes a call its caller gave up on for nothing', () => {
    const { call, lines } = tracked();
    call('aborted');
    call('network');
    call('aborted');
    expect(lines()).toHaveLength(1);
  });
});
