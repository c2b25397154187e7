/**
 * `npm start`: builds what is missing or stale (widget bundle, demo pages), then runs the
 * sandbox, the companion and the demo in this one process on the defaults of design.md, prints
 * where everything is, and stops cleanly on Ctrl-C or SIGTERM.
 *
 * When everything listens it prints `payform ready in <ms> ms` (time since the process started,
 * builds excluded) followed by the addresses — the start-up benchmark waits for that line.
 */
import { buildWhatIsStale } from './builds.js';

const building = performance.now();
let built: string[];
try {
  built = await buildWhatIsStale();
} catch (error) {
  console.error(`payform could not build: ${error instanceof Error ? error.message : String(error)}`);
  process.exit(1);
}
const buildMs = performance.now() - building;

// Loaded only now, so a build does not wait for the servers' modules and vice versa.
const [{ startStack }, { TEST_CARDS, formatCardNumber }] = await Promise.all([
  import('./stack.js'),
  import('@payform/gateway/testing'),
]);

let stack: Awaited<ReturnType<typeof startStack>>;
try {
  stack = await startStack();
} catch (error) {
  console.error(`payform could not start: ${error instanceof Error ? error.message : String(error)}`);
  process.exit(1);
}

let stopping = false;
const stop = (signal: NodeJS.Signals) => {
  if (stopping) return process.exit(1); // a second Ctrl-C: do not wait
  stopping = true;
  console.log(`payform stopping (${signal}) …`);
  // Connections and webhook attempts get a few seconds; then the process goes anyway.
  setTimeout(() => process.exit(1), 5_000).unref();
  stack.close().then(
    () => process.exit(0),
    (error: unknown) => {
      console.error(`payform did not stop cleanly: ${error instanceof Error ? error.message : String(error)}`);
      process.exit(1);
    },
  );
};
// Before the ready line: whoever reads it may stop us at once (a test does), and a signal that
// came before the handlers would kill the process instead of stopping it cleanly.
process.on('SIGINT', stop).on('SIGTERM', stop);

const readyMs = Math.round(performance.now() - (built.length > 0 ? buildMs : 0));
const token = stack.adminTokenGenerated ? stack.adminToken : undefined;
const lines = [
  `payform ready in ${readyMs} ms${built.length > 0 ? ` (built the ${built.join(' and the ')} first, ${(buildMs / 1000).toFixed(1)} s)` : ''}`,
  `  shop          ${stack.shopUrl}`,
  `  listening     ${stack.companion.listening}`,
  // The fragment never reaches a server or a Referer; the back office keeps it for this tab only.
  `  back office   ${stack.backOfficeUrl}${token ? `#token=${token}` : ''}`,
  `  admin token   ${token ?? '(the PAYFORM_ADMIN_TOKEN you set)'}`,
  ...(stack.sandboxUrl ? [`  sandbox       ${stack.sandboxUrl}/  (control plane ${stack.sandboxUrl}/_sandbox)`] : []),
  // Which PCI DSS scope this setup puts the server in, where the one starting it reads: the
  // companion's own line about it is a log line, gone under PAYFORM_LOG_LEVEL=warn.
  stack.cardEntry === 'tokenize'
    ? '  card data     tokenized: <pay-form> sends it to the gateway’s tokenizer, never to this server'
    : `  card data     RELAYED through this server, which puts it in PCI DSS scope (README: PCI DSS scope; ${
        process.env.PAYFORM_DEMO_CARD_ENTRY?.trim() === 'relay' ? 'as PAYFORM_DEMO_CARD_ENTRY=relay asks' : 'PAYFORM_GATEWAY_WIDGET_KEY tokenizes'
      })`,
  `  database      ${stack.databaseUrl.startsWith('postgres') ? 'PostgreSQL (PAYFORM_DATABASE_URL)' : stack.databaseUrl}`,
  // The ledger outlives a restart, the bundled sandbox does not: an older order shows in the back
  // office, and the gateway no longer knows it ("not_found_at_gateway" on a refund).
  ...(stack.sandboxUrl && stack.databaseUrl !== ':memory:'
    ? ['                kept across runs; the sandbox is not, so older orders cannot be captured or refunded']
    : []),
  ...(stack.sandboxUrl
    ? [
        '  test cards    any future expiry; security code 123 (American Express 1234)',
        ...TEST_CARDS.map((card) => `    ${formatCardNumber(card.number).padEnd(21)} ${card.label}`),
      ]
    : []),
  '  Ctrl-C stops everything.',
];
console.log(lines.join('\n'));

