/**
 * The customer back from their bank or the hosted page, in this tab: how they came (the browser's
 * Back, a reload, the back/forward cache), and the customer fields kept for them in its storage.
 */
import type { CustomerField } from './session-view.js';
import type { Form } from './form.js';
import { customerOf } from './requests.js';

const navigation = (performance.getEntriesByType('navigation')[0] as PerformanceNavigationTiming | undefined)?.type;
/** The session this tab left for the bank's challenge with, or paid (sessionStorage: it outlives a reload). */
const LEFT_FOR_BANK = 'payform:left-for-bank';
/** This tab's storage, where the page may use it (not in a sandboxed frame, nor when it is full). */
function tabStorage<T>(use: (storage: Storage) => T): T | undefined {
  try {
    return use(sessionStorage);
  } catch {
    return undefined;
  }
}
export const leftForBank = (session: string): void => tabStorage((storage) => storage.setItem(LEFT_FOR_BANK, session));

/** Where the customer fields wait, in this tab, for the customer back from the bank or the hosted page. */
const KEPT_FOR_RETURN = 'payform:customer:';
/** How long they wait: a challenge or a hosted page is long over by then. */
const KEPT_FOR_MS = 3_600_000;

/** The fields kept for the customer's return, as stored: when, and what. */
interface KeptForReturn {
  readonly at: number;
  readonly customer: Readonly<Record<string, unknown>>;
}

/** What was kept under `key`, while it may still be taken back; undefined (and dropped) once not. */
function keptUnder(storage: Storage, key: string): KeptForReturn | undefined {
  try {
    const kept = JSON.parse(storage.getItem(key) ?? 'null') as KeptForReturn | null;
    if (kept && Date.now() - kept.at < KEPT_FOR_MS) return kept;
  } catch {
    // Not what this chunk kept.
  }
  storage.removeItem(key);
  return undefined;
}

// Those of customers who never came back, or came back to a page without a form of theirs.
tabStorage((storage) => {
  for (const key of Object.keys(storage)) if (key.startsWith(KEPT_FOR_RETURN)) keptUnder(storage, key);
});

/**
 * The customer fields the form sends (name, e-mail, phone; never the card's), kept in this tab's
 * storage as the customer leaves for their bank or the hosted page: back on a declined or failed
 * attempt, they find them typed (WCAG 3.3.7), not asked again. Gone once taken back, once a form
 * of theirs shows the session paid or ended, after an hour, and with the tab. Only as the fields
 * show: a form waiting for the bank ("Continue with your bank") has none, and reading them would
 * keep nothing but '' over what the customer typed.
 */
export function keepForReturn(form: Form): void {
  const customer = customerOf(form);
  if (customer && Object.keys(customer).every((name) => form.field(name as CustomerField))) tabStorage((storage) => storage.setItem(KEPT_FOR_RETURN + form.session, JSON.stringify({ at: Date.now(), customer } satisfies KeptForReturn)));
}

/** The session each form last looked for kept fields of: once a session, not at every update. */
const lookedFor = new WeakMap<Form, string>();

/** The kept fields, into the fields still empty, as the form is ready again for their session; dropped once it is paid. */
export function takeBackKept(form: Form): void {
  const key = KEPT_FOR_RETURN + form.session;
  if (form.phase === 'success' || form.phase === 'closed') return void tabStorage((storage) => storage.removeItem(key));
  // Looked up once a session, before the fields are: this runs at every update, keystrokes too.
  if (form.phase !== 'ready' || lookedFor.get(form) === form.session || !form.inputs().length) return;
  lookedFor.set(form, form.session);
  const kept = tabStorage((storage) => {
    const found = keptUnder(storage, key);
    storage.removeItem(key);
    return found;
  });
  // Only the customer fields the session asks for: nothing else kept is put anywhere.
  const asked: readonly string[] = form.view?.customer_fields ?? [];
  for (const [name, value] of Object.entries(kept?.customer ?? {})) {
    const input = asked.includes(name) ? form.field(name as CustomerField) : null;
    if (input && !input.value && typeof value === 'string') input.value = value;
  }
}
// Come by a link, an address or the bank's own return: whatever this tab left for is behind it.
if (navigation === 'navigate') tabStorage((storage) => storage.removeItem(LEFT_FOR_BANK));

/** This page's payment since it showed, or since the back/forward cache showed it again. */
let payingHere = false;
let restoredFromCache = false;
export function restored(): void {
  restoredFromCache = true;
  payingHere = false;
}

/** This page pays anew (`claim`): a challenge it waits for is no longer one the customer came back to (`cameBack`). */
export function payingAnew(): void {
  payingHere = true;
}

/**
 * Whether the customer came back to `session`'s checkout without the bank's own return, so a
 * challenge it waits for is theirs to go on with: by the browser's Back or Forward, into a page the
 * back/forward cache kept (`go`), or by a reload after leaving for the bank from this tab (a page
 * may reload itself as that cache restores it), or after paying from it (the answer that would
 * have taken the customer there lost with the page). Not once this page pays anew.
 */
export const cameBack = (session: string): boolean =>
  !payingHere && (restoredFromCache || navigation === 'back_forward' || (navigation === 'reload' && tabStorage((storage) => storage.getItem(LEFT_FOR_BANK)) === session));
