/**
 * The back office (`backOffice.path`, e.g. `/admin`): the merchant's pages over the companion's merchant API. Signed in with the
 * admin token (see admin-api.ts for where it is kept), it shows the payments chart, balances,
 * the orders and one order in detail, follows the live feed, and performs secondary operations.
 */
import { html, nothing } from 'lit';
import type { TemplateResult } from 'lit';
import { t } from './i18n.js';
import type { MessageKey } from './i18n.js';
import { formatAmount } from './money.js';
import { isolated, isolatedText } from './bidi-isolation.js';
import { mountPage } from './chrome.js';
import { adminToken, api, ApiError, downloadLink, fetchFile, followLink, forgetToken, newIdempotencyKey, outcomeUnknown, save, saveToken } from './admin-api.js';
import type { ReceiptsLink } from './admin-api.js';
import type { Balance, Change, ListedOrder, MoneyDating, MoneyReport, OrderDetail, Stats, Terminals, UnmatchedEvents } from './admin-api.js';
import { listQuery, refreshedList } from './order-list.js';
import { periodInstants, periodText, presetPeriod, timeZone, typedPeriod } from './order-period.js';
import type { PeriodProblem } from './order-period.js';
import type { Period } from './order-period.js';
import { displayLocale } from './locale.js';
import { moneyQuery, statsQuery } from './stats-query.js';
import { moneyHeard } from './money-totals.js';
import { downloadJournal, downloadOrders } from './orders-csv.js';
import type { CsvExportState } from './orders-csv.js';
import { followChanges } from './live-feed.js';
import { FeedAnnouncer } from './feed-announcer.js';
import type { Echo } from './feed-announcer.js';
import type { FeedState } from './live-feed.js';
import { chargeDialog, chargeSavedCard } from './charge-dialog.js';
import { settleDialog, settleOrder } from './settle-dialog.js';
import type { SettleDraft } from './settle-dialog.js';
import { eraseCustomer, eraseDialog } from './erase-dialog.js';
import type { EraseDraft } from './erase-dialog.js';
import { resendDialog, resendWebhook } from './resend-dialog.js';
import type { ResendDraft, ResendRequest } from './resend-dialog.js';
import type { ChargeAnswer, ChargeDraft, ChargeRequest } from './charge-dialog.js';
import { operationDialog } from './operation-dialog.js';
import type { OperationAction, OperationDraft, OperationRequest } from './operation-dialog.js';
import { noMatchText, orderDetailPanel, ordersPanel } from './order-views.js';
import { orderNotFound } from './order-not-found.js';
import type { OrderFilter, OrderKind, OrderSearch } from './order-views.js';
import { balancesPanel, receiptsPanel, statsPanel } from './overview-views.js';
import type { ReceiptsMethod } from './overview-views.js';
import type { BalancesState, ReceiptsState } from './overview-views.js';
import { unmatchedEventsPanel } from './unmatched-events.js';

/** What went wrong, as a person reads it: an Error's message without its `Error:` prefix. */
const messageOf = (error: unknown): string => (error instanceof Error ? error.message : String(error));

/** A dialog's failure as the companion's refusals are shown: one that is not the companion's (the network) said in its own words. */
const asApiError = (error: unknown): ApiError => (error instanceof ApiError ? error : new ApiError(0, 'network', messageOf(error)));
/** "Something went wrong: …", the message as it came (the companion's, the browser's), isolated. */
const problemText = (error: unknown): string => isolatedText(t('problem', { message: isolatedText(messageOf(error)) }));

let token = adminToken();
let signInProblem = '';
/** The token typed is being checked: the form waits, so a second press sends nothing more. */
let signingIn = false;
let feed: FeedState = 'connecting';
let stopFeed: (() => void) | undefined;
let announcement = '';

let orders: ListedOrder[] = [];
/** The list shows the orders of the filter pressed (read since it was pressed). */
let ordersRead = false;
/** Why the list could not be read the last time, and which read that was (Try again does it again). */
let ordersProblem: { readonly text: string; readonly read: ListRead } | undefined;
/** Where the list's next page starts; null when the oldest order is shown. */
let ordersCursor: string | null = null;
let filter: OrderFilter = 'all';
let kind: OrderKind = 'payments';
/** What Find lists the orders by (with the filter and kind pressed); undefined: every order. */
let search: OrderSearch | undefined;
/** The order whose id is what Find searched for (four digits), when there is one. */
let alsoOrder: string | undefined;
/** Why Find sent nothing. */
let findProblem: string | undefined;
/** The days the list, its CSV file and the Payments figures are of; undefined: the list is every order, the figures the last 24 hours or 30 days. */
let period: Period | undefined;
/** Dates is pressed: its form is open. */
let periodEditing = false;
/** Why the dates typed were not taken, by field. */
let periodProblem: PeriodProblem | undefined;
let chargeDraft: ChargeDraft | undefined;
/** The open "Mark settled" dialog: its order as the operator read it, never updated under them. */
let settleDraft: SettleDraft | undefined;
/** The open "Erase customer's details" dialog: whose details, as the order named them when it opened. */
let eraseDraft: EraseDraft | undefined;
/** A note refused because the order changed under it: offered again when its dialog opens. */
let keptNote: { readonly orderId: string; readonly note: string } | undefined;
/** The last saved-card charge waiting for the customer's 3-D Secure: its link is shown to pass on. */
let challenge: ChargeAnswer | undefined;
let selected = new URLSearchParams(location.search).get('order') ?? undefined;
let detail: OrderDetail | undefined;
/** Why the open order could not be acted on: put in words as shown, so a language chosen after reads it in its own. */
let detailProblem: (() => string) | undefined;
/** Why the open order could not be read; gone once a read works (the companion back after a restart). */
let detailUnread: (() => string) | undefined;
/** What was last asked of the gateway for an order (a webhook re-send): it changes nothing the page shows else. */
let detailNotice: { readonly orderId: string; readonly text: TemplateResult | string } | undefined;
let resendDraft: ResendDraft | undefined;
let stats: Stats | undefined;
/** The money of the figures' period, read with them, but apart: it reads each payment's operations. */
let money: MoneyReport | undefined;
/** How the money is dated: by order (as the counts are), or by when it moved (as books closed by period are). Kept while the period changes. */
let datedBy: MoneyDating = 'order';
/** When the money was last read: the live feed's rereads of the figures take it at most this often. */
let moneyReadAt = 0;
const MONEY_REREAD_MS = 60_000;
/** Why the figures could not be read the last time. */
let statsProblem: string | undefined;
let bucket: Stats['bucket'] = 'hour';
let balances: BalancesState = {};
let receipts: ReceiptsState = { busy: false };
let csv: CsvExportState = { busy: false };
let journal: CsvExportState = { busy: false };
/** The open order's receipt on its way, by order and format: its button waits. */
let receiptDownload: { readonly orderId: string; readonly format: 'html' | 'pdf' } | undefined;
let unmatched: UnmatchedEvents | undefined;
const reviewing = new Set<string>();
let unmatchedProblem: string | undefined;
let draft: OperationDraft | undefined;
/** The button that opened the dialog: focus goes back to it when the dialog closes. */
let opener: HTMLElement | undefined;
const flashing = new Set<string>();

function content(): TemplateResult {
  if (!token) return signInView();
  return html`<div class="admin-head">
      <div>
        <h1 id="admin-heading" tabindex="-1">${t('admin.heading')}</h1>
        <p class="muted">${t('admin.intro')}</p>
      </div>
      <p class="live live--${feed}" role="status"><span class="live__dot" aria-hidden="true"></span>${t(`live.${feed}`)}</p>
    </div>
    <p class="visually-hidden" role="status" aria-live="polite">${announcement}</p>
    <div class="admin-overview">
      ${statsPanel(
        { stats, money, datedBy, problem: statsProblem, period: period && periodText(period, displayLocale()) },
        {
          range(next) {
            bucket = next;
            void loadStats();
          },
          dating: chooseDating,
          retry: () => void readAgain(loadStats, '#stats-heading'),
        },
      )}
      ${balancesPanel(balances, () => void readAgain(loadBalances, '#balances-heading'))}
    </div>
    ${unmatchedEventsPanel({ list: unmatched, reviewing, problem: unmatchedProblem }, (id) => void reviewEvent(id), handlers)}
    ${challenge?.challenge_url
      ? html`<p class="notice">${t('done.chargeChallenge')} <a class="mono" href=${challenge.challenge_url}>${isolated(challenge.challenge_url)}</a></p>`
      : nothing}
    <div class="admin-orders">
      <div class="admin-main">
        ${ordersPanel(
          { orders, filter, kind, selected, flashing, loading: !ordersRead, problem: ordersProblem?.text, more: ordersCursor !== null, loadingMore: listing?.read === 'more', search: search?.shown, findProblem, alsoOrder, csv, journal, currencies: shopCurrencies(),
            period: { period, editing: periodEditing, problem: periodProblem && { field: periodProblem.field, text: t(periodProblem.problem) }, lang: displayLocale() } },
          handlers,
        )}
        ${receiptsPanel(downloadDay, receipts)}
      </div>
      ${orderDetailPanel(detail?.order.order_id === selected ? detail : undefined, {
        problem: (detailUnread ?? detailProblem)?.(),
        notice: detailNotice && detailNotice.orderId === selected ? detailNotice.text : undefined,
        downloading: receiptDownload?.orderId === selected ? receiptDownload?.format : undefined,
      }, handlers)}
    </div>
    ${draft ? operationDialog(draft, { submit: perform, close: closeDialog }) : nothing}
    ${chargeDraft ? chargeDialog(chargeDraft, { submit: charge, typed: chargeTyped, close: closeChargeDialog }) : nothing}
    ${settleDraft ? settleDialog(settleDraft, { submit: settle, close: closeSettleDialog }) : nothing}
    ${eraseDraft ? eraseDialog(eraseDraft, { submit: erase, close: closeEraseDialog }) : nothing}
    ${resendDraft ? resendDialog(resendDraft, { submit: resend, close: closeResendDialog }) : nothing}`;
}

function signInView(): TemplateResult {
  const submit = async (event: SubmitEvent) => {
    event.preventDefault();
    // A second press (or Enter) while the first is checked: a wrong token would count twice
    // towards the companion's wrong-token limit.
    if (signingIn) return;
    // Pasted with its scheme from a curl line or an HTTP client (`Bearer …`): the token is what follows.
    const candidate = String(new FormData(event.target as HTMLFormElement).get('token') ?? '').trim().replace(/^Bearer\s+/i, '');
    signingIn = true;
    page.refresh();
    try {
      await api(candidate, '/api/stats');
    } catch (error) {
      signingIn = false;
      signInProblem = error instanceof ApiError && error.status === 401 ? t('signIn.refused') : problemText(error);
      page.refresh();
      document.querySelector<HTMLInputElement>('#admin-token')?.focus();
      return;
    }
    signingIn = false;
    saveToken(candidate);
    token = candidate;
    signInProblem = '';
    void start();
    // The form, and the focus with it, is gone: the reader goes on from the back office's heading.
    document.querySelector<HTMLElement>('#admin-heading')?.focus();
  };
  return html`<div class="sign-in">
    <form class="panel" @submit=${submit} aria-labelledby="sign-in-heading">
      <h1 id="sign-in-heading">${t('signIn.heading')}</h1>
      <p class="muted">${t('signIn.text')}</p>
      <div class="field">
        <label for="admin-token">${t('signIn.token')}</label>
        <input id="admin-token" name="token" type="password" autocomplete="off" spellcheck="false" required aria-required="true" dir="ltr"
          aria-invalid=${signInProblem ? 'true' : nothing} aria-describedby="admin-token-error">
        <span class="field__error" id="admin-token-error" aria-live="polite">${signInProblem}</span>
      </div>
      <button class="button button--block" type="submit" aria-disabled=${signingIn ? 'true' : 'false'}>${signingIn ? t('signIn.checking') : t('signIn.submit')}</button>
    </form>
  </div>`;
}

const handlers = {
  filter(next: OrderFilter) {
    filter = next;
    void loadOrders('anew');
  },
  kind(next: OrderKind) {
    kind = next;
    void loadOrders('anew');
  },
  charge() {
    if (!detail) return;
    rememberOpener();
    chargeDraft = { order: detail.order, busy: false, idempotencyKey: newIdempotencyKey(), typed: '' };
    page.refresh();
    document.querySelector<HTMLDialogElement>('dialog.charge-dialog')?.showModal();
  },
  settle() {
    if (!detail) return;
    rememberOpener();
    const note = keptNote?.orderId === detail.order.order_id ? keptNote.note : '';
    keptNote = undefined;
    settleDraft = { order: detail.order, busy: false, idempotencyKey: newIdempotencyKey(), note };
    page.refresh();
    document.querySelector<HTMLDialogElement>('dialog.settle-dialog')?.showModal();
  },
  erase() {
    if (!detail) return;
    rememberOpener();
    eraseDraft = { order: detail.order, busy: false, idempotencyKey: newIdempotencyKey() };
    page.refresh();
    document.querySelector<HTMLDialogElement>('dialog.erase-dialog')?.showModal();
  },
  more() {
    void loadOrders('more');
  },
  retry() {
    void loadOrders(ordersProblem?.read ?? 'again');
  },
  exportCsv() {
    void exportOrders();
  },
  exportJournal() {
    void exportJournal();
  },
  search(next: OrderSearch | undefined) {
    search = next;
    findProblem = undefined;
    alsoOrder = undefined;
    // A new question: an order id Find did not find (its "No order …") is not what shows beside the answer.
    if (detailUnread) forgetUnreadOrder();
    // Show all orders goes away with the search: the reader goes on from the box.
    if (!next) document.querySelector<HTMLInputElement>('#order-find')?.focus();
    void Promise.all([loadOrders('anew'), findOrderOfSearch(next)]).then(() => {
      if (!next || ordersProblem || !ordersRead || search !== next) return;
      // Heard as well as seen: the rows change below the box the focus stays in.
      const found = orders.length ? t(ordersCursor === null ? 'orders.found' : 'orders.foundMore', { count: String(orders.length), what: next.shown }) : noMatchText(period, displayLocale());
      announce(alsoOrder === undefined ? found : `${found} ${t('orders.alsoOrder', { order: alsoOrder })}`);
    });
  },
  choose(choice: 'any' | 'today' | 'thisMonth' | 'lastMonth' | 'custom') {
    periodProblem = undefined;
    if (choice === 'custom') {
      periodEditing = true;
      page.refresh();
      document.querySelector<HTMLInputElement>('#period-from')?.focus();
      return;
    }
    periodEditing = false;
    choosePeriod(choice === 'any' ? undefined : presetPeriod(choice));
  },
  typed(from: string, to: string) {
    const typed = typedPeriod(from, to);
    if ('problem' in typed) {
      periodProblem = typed;
      page.refresh();
      document.querySelector<HTMLInputElement>(`#period-${typed.field}`)?.focus();
      return;
    }
    periodProblem = undefined;
    choosePeriod(typed);
  },
  refuseFind(problem = t('orders.cardNumber')) {
    findProblem = problem;
    page.refresh();
  },
  select(orderId: string) {
    findProblem = undefined;
    // Each order opened is a step of the browser's history: Back opens the one before (popstate).
    if (orderId !== selected) history.pushState(null, '', `?${new URLSearchParams({ order: orderId })}`);
    openOrder(orderId);
  },
  act(action: OperationAction, byKey: boolean) {
    if (!detail) return;
    rememberOpener();
    draft = { action, order: detail, busy: false, idempotencyKey: newIdempotencyKey(), keyedAt: byKey ? performance.now() : Number.NEGATIVE_INFINITY };
    page.refresh();
    document.querySelector<HTMLDialogElement>('dialog.operation-dialog')?.showModal();
  },
  resend() {
    if (!detail || resendDraft) return;
    rememberOpener();
    detailNotice = undefined;
    resendDraft = { order: detail.order, busy: false, idempotencyKey: newIdempotencyKey() };
    page.refresh();
    document.querySelector<HTMLDialogElement>('dialog.resend-dialog')?.showModal();
  },
  receipt(format: 'html' | 'pdf') {
    if (!detail || receiptDownload) return;
    const orderId = detail.order.order_id;
    receiptDownload = { orderId, format };
    page.refresh();
    void guarded(async () => save(await fetchFile(token!, `/api/orders/${encodeURIComponent(orderId)}/receipt?format=${format}`, `receipt-${orderId}.${format}`))).finally(() => {
      receiptDownload = undefined;
      page.refresh();
    });
  },
};

async function perform(request: OperationRequest): Promise<void> {
  if (!draft) return;
  const { order_id: orderId, currency } = draft.order.order;
  draft = { ...draft, busy: true, error: undefined };
  page.refresh();
  try {
    const answer = await api<{ operation?: { kind: string; amount: number; status: string; status_description: string | null } }>(
      token!,
      `/api/orders/${encodeURIComponent(orderId)}/${request.action}`,
      { method: 'POST', body: request.body, idempotencyKey: draft.idempotencyKey },
    );
    const operation = answer.operation;
    if (operation?.status === 'failure') {
      // Seen, not only heard: the dialog stays with the gateway's reason. Trying again is a new
      // request. The refusal is the gateway's answer, not an HTTP error: status 200, outcome known.
      draft = draft && { ...draft, busy: false, idempotencyKey: newIdempotencyKey(), error: new ApiError(200, 'declined', operation.status_description ?? '') };
      // Said in the dialog, which takes the focus: the feed's line of it would say it again, over it.
      feedLines.own({ orderId, status: 'failure' });
      page.refresh();
      focusNotice('dialog.operation-dialog');
      return void Promise.all([loadDetail(), loadOrders()]);
    }
    closeDialog();
    // The same words seen on the order (values isolated, to read as written right to left) and heard.
    const said = (value: (text: string) => TemplateResult | string) =>
      !operation
        ? t('done.cancel', { order: value(orderId) })
        : operation.status === 'success'
          ? t('done.success', { operation: t(`operation.${operation.kind as 'refund'}`), amount: value(formatAmount(operation.amount, currency)) })
          : t('done.pending', { operation: t(`operation.${operation.kind as 'refund'}`) });
    // Seen, not only heard: a void or a full refund otherwise changes a figure or two, far from the focus.
    detailNotice = { orderId, text: said(isolated) };
    // A cancelled payment page ends its attempt as a failure.
    announce(String(said((text) => text)), { orderId, status: operation?.status ?? 'failure' });
    const held = document.activeElement;
    // The money too: the feed's rereads take it at most once a minute, and this change is the operator's own.
    await Promise.all([loadDetail(), loadOrders(), loadStats()]);
    // The action it was opened from may be gone (a void leaves none) or another now (a full
    // capture's button offers Refund): the order read again decides where the focus goes.
    if (document.activeElement === held || document.activeElement === document.body) focusOrder();
  } catch (error) {
    if (error instanceof ApiError && error.status === 401) return refused();
    const failed = asApiError(error);
    // Same key kept: sent again from this dialog, a request that did run is answered, not run again.
    draft = draft && { ...draft, busy: false, error: failed, sent: request };
    page.refresh();
    focusNotice('dialog.operation-dialog');
    // It may have run, or was ended as never sent: what the page shows of the order must say so
    // before anything else is done. Refused by the order's state (409) or a money rule (422): the
    // order changed unseen (another tab, the shop's server, the feed down) — read again, the
    // dialog's limit and the figures say what is left rather than what was.
    if (failed.status === 0 || failed.status >= 500 || failed.status === 409 || failed.status === 422) void Promise.all([loadDetail(), loadOrders()]);
  }
}

/** To the dialog's first invalid field, else its notice. */
function focusNotice(dialog: string): void {
  document.querySelector<HTMLElement>(`${dialog} [aria-invalid="true"], ${dialog} [role="alert"]`)?.focus();
}

async function charge(request: ChargeRequest): Promise<void> {
  if (!chargeDraft) return;
  const { order, idempotencyKey } = chargeDraft;
  chargeDraft = { ...chargeDraft, busy: true, error: undefined };
  page.refresh();
  try {
    const answer = await chargeSavedCard(token!, order, request, idempotencyKey);
    closeChargeDialog();
    challenge = answer.status === 'action_required' ? answer : undefined;
    const amount = formatAmount(answer.amount, answer.currency);
    // The payment's status said (one waiting for the customer's challenge is pending).
    const echo = { orderId: answer.order_id, status: answer.status === 'action_required' ? 'pending' : answer.status };
    if (answer.status === 'success') announce(t('done.charged', { amount, order: answer.order_id }), echo);
    else if (answer.status === 'failure') announce(t('done.chargeDeclined', { reason: answer.message ?? '' }), echo);
    else if (answer.status === 'pending') announce(t('done.chargePending', { order: answer.order_id }), echo);
    // The link it needs shows in a notice added to the page, which screen readers do not read out.
    else if (answer.status === 'action_required') announce(t('done.chargeChallenge'), echo);
    // The new payment is an order of its own: show it (among the payments, read anew when card verifications were shown).
    const read = kind === 'payments' ? 'again' : 'anew';
    kind = 'payments';
    await loadOrders(read);
    handlers.select(answer.order_id);
  } catch (error) {
    if (error instanceof ApiError && error.status === 401) return refused();
    const failed = asApiError(error);
    chargeDraft = chargeDraft && { ...chargeDraft, busy: false, error: failed };
    page.refresh();
    focusNotice('dialog.charge-dialog');
    if (outcomeUnknown(failed)) void loadOrders();
  }
}

async function settle(note: string): Promise<void> {
  if (!settleDraft) return;
  const { order, idempotencyKey } = settleDraft;
  const orderId = order.order_id;
  settleDraft = { ...settleDraft, busy: true, error: undefined };
  page.refresh();
  // Seen on the order (values isolated) and heard.
  const tell = (key: 'done.settled' | 'settle.changed' | 'settle.already') => {
    detailNotice = { orderId, text: t(key, { order: isolated(orderId) }) };
    announce(t(key, { order: orderId }));
  };
  try {
    await settleOrder(token!, order, note, idempotencyKey);
    closeSettleDialog();
    tell('done.settled');
  } catch (error) {
    if (error instanceof ApiError && error.status === 401) return refused();
    const failed = asApiError(error);
    // The order changed under the dialog: what it now holds is read and shown, not settled unread.
    const changed = failed.code === 'discrepancy_changed' || failed.code === 'no_discrepancy' ? 'settle.changed' : failed.code === 'discrepancy_settled' ? 'settle.already' : undefined;
    if (!changed) {
      settleDraft = settleDraft && { ...settleDraft, busy: false, error: failed };
      page.refresh();
      return focusNotice('dialog.settle-dialog');
    }
    // What the operator wrote waits for the dialog they open again once they read the new report.
    if (changed === 'settle.changed') keptNote = { orderId, note };
    closeSettleDialog();
    tell(changed);
  }
  await Promise.all([loadDetail(), loadOrders()]);
  // Its button gone with the hold, or moved below a new report: the focus goes to what the order
  // says of it now (settled, or the new report), never to the order's first action (Cancel, Void).
  const notice = document.querySelector<HTMLElement>('section.order-detail .held');
  if (notice) notice.focus();
  else focusOrder();
}

async function erase(): Promise<void> {
  if (!eraseDraft) return;
  const { order, idempotencyKey } = eraseDraft;
  const orderId = order.order_id;
  eraseDraft = { ...eraseDraft, busy: true, error: undefined };
  page.refresh();
  try {
    const erased = await eraseCustomer(token!, order, idempotencyKey);
    closeEraseDialog();
    // Seen on the order, and heard.
    detailNotice = { orderId, text: t('done.erased', { count: erased.order_ids.length }) };
    announce(t('done.erased', { count: erased.order_ids.length }));
  } catch (error) {
    if (error instanceof ApiError && error.status === 401) return refused();
    const failed = asApiError(error);
    eraseDraft = eraseDraft && { ...eraseDraft, busy: false, error: failed };
    page.refresh();
    focusNotice('dialog.erase-dialog');
    // Others of theirs may have been erased before an attempt begun meanwhile held the rest back,
    // or the answer was lost: the order behind the dialog is read again, not shown as it was.
    if (failed.code === 'payment_in_flight' || outcomeUnknown(failed)) void Promise.all([loadDetail(), loadOrders()]);
    return;
  }
  await Promise.all([loadDetail(), loadOrders()]);
  focusOrder();
}

async function resend(request: ResendRequest): Promise<void> {
  if (!resendDraft || resendDraft.busy) return;
  const { order, idempotencyKey } = resendDraft;
  const orderId = order.order_id;
  resendDraft = { ...resendDraft, busy: true, error: undefined };
  page.refresh();
  try {
    await resendWebhook(token!, order, request, idempotencyKey);
  } catch (error) {
    if (error instanceof ApiError && error.status === 401) return refused();
    resendDraft = resendDraft && { ...resendDraft, busy: false, error: asApiError(error) };
    page.refresh();
    return focusNotice('dialog.resend-dialog');
  }
  closeResendDialog();
  // Seen, not only heard: a re-send changes nothing on the page until the webhook arrives (a repeat changes nothing at all).
  detailNotice = { orderId, text: t('done.resend', { order: isolated(orderId) }) };
  // Heard, not seen (the live region is hidden): isolation only changes what is drawn.
  // No echo: a re-sent webhook that changes the order is what the operator waits to hear.
  announce(t('done.resend', { order: orderId }));
  page.refresh();
}

function closeResendDialog(): void {
  closeModal('dialog.resend-dialog', () => (resendDraft = undefined));
}

function closeEraseDialog(): void {
  closeModal('dialog.erase-dialog', () => (eraseDraft = undefined));
}

function closeSettleDialog(): void {
  closeModal('dialog.settle-dialog', () => (settleDraft = undefined));
}

function chargeTyped(text: string): void {
  if (!chargeDraft) return;
  chargeDraft = { ...chargeDraft, typed: text };
  page.refresh();
}

function closeChargeDialog(): void {
  closeModal('dialog.charge-dialog', () => (chargeDraft = undefined));
}

/** Forgets the dialog's draft, closes it, and gives the focus back to what opened it. */
function closeModal(selector: string, forget: () => void): void {
  const dialog = document.querySelector<HTMLDialogElement>(selector);
  // Gone already: this is its `close` event, a task after the page closed it (Close, a settlement
  // refused). Given the focus again, it took it from where the page had since placed it.
  if (!dialog) return;
  forget();
  if (dialog?.open) dialog.close();
  page.refresh();
  returnFocus();
}

function closeDialog(): void {
  closeModal('dialog.operation-dialog', () => (draft = undefined));
}

function rememberOpener(): void {
  opener = document.activeElement instanceof HTMLElement ? document.activeElement : undefined;
}

/** To the button that opened the dialog, or — gone with the action it offered — the order's first action. */
function returnFocus(): void {
  const target = opener?.isConnected ? opener : document.querySelector<HTMLElement>('.order-actions button');
  opener = undefined;
  target?.focus();
}

/** To the order's first action, else its heading. */
function focusOrder(): void {
  const heading = document.querySelector<HTMLElement>('section.order-detail h2');
  if (heading) heading.tabIndex = -1;
  (document.querySelector<HTMLElement>('.order-actions button') ?? heading)?.focus();
}

/**
 * Says `text`, what the operator's own action or search came to, in the live region: the live
 * feed's lines wait, and `echo`, the change it said, is not said again (feed-announcer.ts).
 */
function announce(text: string, echo?: Echo): void {
  feedLines.own(echo);
  speak(text);
}

/**
 * Says `text` in the live region. The same words twice are no change to it, and a screen reader
 * would stay silent on the second result: cleared first, then said a moment later.
 */
function speak(text: string): void {
  announcement = '';
  page.refresh();
  setTimeout(() => {
    announcement = text;
    page.refresh();
  }, ANNOUNCE_AFTER_MS);
}

/** Long enough for a screen reader to take the emptied region as a change. */
const ANNOUNCE_AFTER_MS = 100;

/** What a change of the live feed came to: "Refund — Failed", "Success", "Held for review…". */
function changeWords(change: Change): string {
  if (change.kind === 'discrepancy') return t('held.heading');
  const status = STATUS_WORDS[change.status] ? t(STATUS_WORDS[change.status]!) : change.status;
  const operation = change.operation?.kind;
  return change.kind === 'operation' && operation && OPERATION_WORDS.has(operation) ? t('feed.operation', { operation: t(`operation.${operation as 'refund'}`), status }) : status;
}

const STATUS_WORDS: Partial<Record<string, MessageKey>> = { init: 'status.init', pending: 'status.pending', success: 'status.success', failure: 'status.failure' };
const OPERATION_WORDS: ReadonlySet<string> = new Set(['capture', 'void', 'refund']);

/** The live feed's changes, said a few at a time (feed-announcer.ts): the latest by order and how many orders. */
const feedLines = new FeedAnnouncer((changes) => {
  const latest = changes.at(-1)!;
  const what = changeWords(latest);
  speak(changes.length === 1 ? t('feed.one', { order: latest.order_id, what }) : t('feed.many', { count: String(changes.length), order: latest.order_id, what }));
});

/**
 * A file asked for by a button (`state` its own: busy meanwhile, so a second press is not a second
 * file; then why it failed, or what `fetchAndSave` says).
 */
async function download<State extends { readonly busy: boolean; readonly problem?: string | undefined }>(
  state: State,
  set: (next: State) => void,
  fetchAndSave: () => Promise<Omit<State, 'busy'> | void>,
  said: (error: unknown) => string = problemText,
): Promise<void> {
  if (state.busy) return;
  set({ busy: true } as State);
  page.refresh();
  try {
    set({ busy: false, ...(await fetchAndSave()) } as State);
  } catch (error) {
    if (error instanceof ApiError && error.status === 401) {
      set({ busy: false } as State);
      return refused();
    }
    set({ busy: false, problem: said(error) } as State);
  }
  page.refresh();
}

function downloadDay(date: string, format: 'html' | 'pdf', method: ReceiptsMethod): Promise<void> {
  return download(receipts, (next) => (receipts = next), async () => {
    const link = await downloadLink<ReceiptsLink>(token!, `/api/receipts/${date}?format=${format}${method ? `&method=${method}` : ''}`);
    if (link.empty) return { notice: t(method === 'purchase' ? 'receipts.nonePurchase' : method === 'auth' ? 'receipts.noneAuth' : 'receipts.none', { date }) };
    followLink(link);
  });
}

/** Every order the list's filters match (not only the pages shown), as the companion's CSV file. */
function exportOrders(): Promise<void> {
  return download(csv, (next) => (csv = next), () => downloadOrders(token!, listQuery({ kind, filter, search: search?.query, period })));
}

/** Each sale, capture and refund made in the list's period (its other filters are not the journal's), as the companion's CSV file. */
function exportJournal(): Promise<void> {
  return download(journal, (next) => (journal = next), () => downloadJournal(token!, period), (error) =>
    isolatedText(t('orders.journalProblem', { message: isolatedText(messageOf(error)) })),
  );
}

/**
 * The list, its file and the Payments figures, of the days chosen. Heard as well as seen: the
 * rows change below the buttons the focus stays on.
 */
function choosePeriod(next: Period | undefined): void {
  period = next;
  // The figures shown are another period's until the new ones come.
  stats = money = undefined;
  page.refresh();
  void loadStats();
  void loadOrders('anew').then(() => {
    if (period !== next || ordersProblem || !ordersRead) return;
    if (!next) return announce(t('period.anyDays'));
    const days = periodText(next, displayLocale());
    announce(orders.length ? t(ordersCursor === null ? 'period.found' : 'period.foundMore', { count: String(orders.length), days }) : t('period.none', { days }));
  });
}

/** Runs a merchant API call for the open order; its refusal shows on the order. */
async function guarded(call: () => Promise<void>): Promise<void> {
  detailProblem = undefined;
  try {
    await call();
  } catch (error) {
    if (error instanceof ApiError && error.status === 401) return refused();
    detailProblem = () => problemText(error);
  }
  page.refresh();
}

const PAGE = 50;
/** The most a refresh reads again, of the pages shown (the API's page limit). */
const REFRESHED_AT_MOST = 200;
/** Orders the live feed told of since the list was read that it does not show: new ones, most likely. */
const unlisted = new Set<string>();

type ListRead = 'again' | 'anew' | 'more';

/** The list's read on its way: the only one whose answer the page takes. */
let listing: { readonly read: ListRead; readonly abort: AbortController; readonly done: Promise<void> } | undefined;
/** Reads asked for while another was on its way, made once it is answered. */
const listQueued = new Set<'again' | 'more'>();

/**
 * The list, from the newest: `again` (a change in the feed) as many as are shown, so that a
 * reader paging back keeps their place; `anew` (another filter) one page; `more`, the next page
 * below what is shown.
 *
 * One read at a time: `anew` drops the one on its way (its answer, come late, would show another
 * filter's orders); `more` while older orders are on their way does nothing (a double click); any
 * other waits for the one on its way, so a page is never added twice nor lost to a refresh.
 */
function loadOrders(read: ListRead = 'again'): Promise<void> {
  if (read === 'anew') forgetOrders();
  else if (listing) {
    if (read === 'again' || listing.read !== 'more') listQueued.add(read);
    return listing.done;
  }
  if (read === 'more' && ordersCursor === null) return Promise.resolve();
  const abort = new AbortController();
  listing = { read, abort, done: readOrders(read, abort) };
  page.refresh();
  return listing.done;
}

async function readOrders(read: ListRead, abort: AbortController): Promise<void> {
  // Again: the orders the feed told of that are not shown come on top, and push none of those shown out.
  const shown = read === 'again' ? Math.min(Math.max(PAGE, orders.length + unlisted.size), REFRESHED_AT_MOST) : PAGE;
  unlisted.clear();
  const query = listQuery({ kind, filter, search: search?.query, period });
  query.set('limit', String(shown));
  if (read === 'more' && ordersCursor) query.set('cursor', ordersCursor);
  const before = orders.length;
  let list: { orders: ListedOrder[]; next_cursor: string | null } | undefined;
  let failure: unknown;
  try {
    list = await api<{ orders: ListedOrder[]; next_cursor: string | null }>(token!, `/api/orders?${query}`, { signal: abort.signal });
  } catch (error) {
    failure = error;
  }
  // Dropped by a read asked for since (another filter), or by signing out.
  if (listing?.abort !== abort) return;
  listing = undefined;
  if (failure instanceof ApiError && failure.status === 401) return refused();
  if (list) {
    if (read === 'more') {
      const known = new Set(orders.map((order) => order.order_id));
      orders = [...orders, ...list.orders.filter((order) => !known.has(order.order_id))];
      ordersCursor = list.next_cursor;
    } else {
      const kept = refreshedList({ orders, cursor: ordersCursor }, { orders: list.orders, cursor: list.next_cursor }, read === 'anew' || shown < REFRESHED_AT_MOST);
      orders = [...kept.orders];
      ordersCursor = kept.cursor;
    }
    ordersRead = true;
    ordersProblem = undefined;
  } else {
    // Said, never taken for an empty list: the orders shown (if any) are as they were.
    ordersProblem = { text: isolatedText(t('orders.problem', { message: isolatedText(messageOf(failure)) })), read };
  }
  // The button pressed (Show older orders, Try again) may go with the answer: the reader goes on
  // from the first of the older orders, or from the list's heading.
  const pressed = document.activeElement?.matches('.orders__more, .orders__retry') ?? false;
  page.refresh();
  if (pressed) {
    const rows = document.querySelectorAll<HTMLElement>('.orders-table tbody tr');
    const older = read === 'more' && list ? (rows[before] ?? (document.querySelector('.orders__more') ? undefined : rows[rows.length - 1])) : undefined;
    if (older) older.querySelector<HTMLElement>('a')?.focus();
    else if (!document.activeElement?.matches('.orders__more, .orders__retry')) document.querySelector<HTMLElement>('#orders-heading')?.focus();
  }
  const next = listQueued.has('more') ? 'more' : listQueued.has('again') ? 'again' : undefined;
  if (next) {
    listQueued.delete(next);
    void loadOrders(next);
  }
}

/** The currencies the shop's orders are known in: those listed, then the money panel's. */
function shopCurrencies(): string[] {
  return [...new Set([...orders.map((order) => order.currency), ...(money?.money ?? []).map((each) => each.currency)])];
}

/** Shows `orderId`'s detail, read afresh, and takes focus to it once read. */
function openOrder(orderId: string): void {
  selected = orderId;
  detailProblem = undefined;
  detailUnread = undefined;
  page.refresh();
  void loadDetail().then(() => document.querySelector<HTMLElement>('#detail-heading')?.focus());
}

// Back and Forward between the orders opened: the address says which, none for the list alone.
addEventListener('popstate', () => {
  const orderId = new URLSearchParams(location.search).get('order') ?? undefined;
  if (orderId === selected) return;
  if (orderId) return openOrder(orderId);
  selected = undefined;
  page.refresh();
});

/** Deselects the order that could not be read, from the page's address too. */
function forgetUnreadOrder(): void {
  selected = undefined;
  detailUnread = undefined;
  const query = new URLSearchParams(location.search);
  query.delete('order');
  const rest = query.toString();
  history.replaceState(null, '', `${location.pathname}${rest ? `?${rest}` : ''}${location.hash}`);
}

async function loadDetail(): Promise<void> {
  if (!selected) return;
  const orderId = selected;
  try {
    const loaded = await api<OrderDetail>(token!, `/api/orders/${encodeURIComponent(orderId)}`);
    if (orderId === selected) [detail, detailUnread] = [loaded, undefined];
    // An open dialog says what can still be captured or refunded: as of now, not as it opened
    // (another person, or the API, may have refunded meanwhile).
    if (draft?.order.order.order_id === orderId) draft = { ...draft, order: loaded };
    if (chargeDraft?.order.order_id === orderId) chargeDraft = { ...chargeDraft, order: loaded.order };
  } catch (error) {
    if (error instanceof ApiError && error.status === 401) return refused();
    if (orderId === selected) detailUnread = () => (error instanceof ApiError && error.status === 404 ? orderNotFound(orderId, error.session) : problemText(error));
  }
  page.refresh();
}

/**
 * Four digits are a shop's short order id as well as a card's last four: beside the list, the
 * order of that id when there is one (or its checkout session, not paid yet). Nothing is shown
 * when there is none, the common case, nor when the look-up fails: the list is the answer.
 */
async function findOrderOfSearch(next: OrderSearch | undefined): Promise<void> {
  const orderId = next?.orderId;
  if (orderId === undefined) return;
  const known = await api<OrderDetail>(token!, `/api/orders/${encodeURIComponent(orderId)}`).then(
    () => true,
    (error: unknown) => error instanceof ApiError && error.session !== undefined,
  );
  if (!known || search !== next) return;
  alsoOrder = orderId;
  page.refresh();
}

/** Try again, pressed: its button goes with a good answer, and the reader goes on from the panel's heading. */
async function readAgain(read: () => Promise<void>, heading: string): Promise<void> {
  await read();
  if (document.activeElement === null || document.activeElement === document.body) document.querySelector<HTMLElement>(heading)?.focus();
}

/** The figures of the period; its money too, unless `live` (the feed's reread) and read within MONEY_REREAD_MS. */
async function loadStats(live = false): Promise<void> {
  const asked = period;
  const dating = datedBy;
  try {
    const answer = await api<Stats>(token!, `/api/stats?${statsQuery(asked, bucket, timeZone())}`).catch((error: unknown) => {
      // A companion whose time zone data lacks the browser's zone: the period's first offset, fixed.
      if (error instanceof ApiError && error.fields.time_zone !== undefined) return api<Stats>(token!, `/api/stats?${statsQuery(asked, bucket, undefined)}`);
      throw error;
    });
    // Another period was chosen meanwhile: its own read answers for it.
    if (asked !== period) return;
    stats = answer;
    // None shown (dated the other way, and that read failed): read now, whenever the last was.
    if (!live || money === undefined || Date.now() - moneyReadAt >= MONEY_REREAD_MS) {
      // The same instants as the counts just read; a rolling window's table may then lag the
      // counts by up to MONEY_REREAD_MS of live changes.
      const read = await api<MoneyReport>(token!, `/api/stats/money?${moneyQuery(answer, dating)}`);
      // Dated the other way since: that read answers for it.
      if (asked !== period || dating !== datedBy) return;
      money = read;
      moneyReadAt = Date.now();
    }
    statsProblem = undefined;
  } catch (error) {
    if (error instanceof ApiError && error.status === 401) return refused();
    // Said, with a way to read them again: unsaid, the panel read "Loading…" for good.
    statsProblem = isolatedText(t('stats.problem', { message: isolatedText(messageOf(error)) }));
  }
  page.refresh();
}

/**
 * The money dated the other way, read again. Heard as well as seen: the figures change below
 * the button the focus stays on.
 */
function chooseDating(next: MoneyDating): void {
  if (next === datedBy) return;
  datedBy = next;
  // The figures shown are dated the other way until the new ones come.
  money = undefined;
  page.refresh();
  void loadStats().then(() => {
    if (datedBy === next && money?.dated_by === next) announce(moneyHeard(money));
  });
}

/** The period chosen ended before now: no new order is created in it. */
const periodOver = (): boolean => period !== undefined && (periodInstants(period)?.to.getTime() ?? 0) <= Date.now();

async function loadBalances(): Promise<void> {
  try {
    const [accounts, terminals] = await Promise.all([
      api<{ accounts: Balance[] }>(token!, '/api/balances/accounts'),
      api<Terminals>(token!, '/api/balances/terminals'),
    ]);
    balances = { accounts: accounts.accounts, terminals, readAt: new Date().toISOString() };
  } catch (error) {
    if (error instanceof ApiError && error.status === 401) return refused();
    balances = { ...balances, problem: problemText(error) };
  }
  page.refresh();
}

/** Marks an unmatched event reviewed (settled elsewhere), then reads the list again. */
async function reviewEvent(id: string): Promise<void> {
  if (reviewing.has(id)) return;
  const buttons = () => [...document.querySelectorAll<HTMLElement>('.unmatched-events button[data-event]')];
  const place = buttons().findIndex((button) => button.dataset.event === id);
  reviewing.add(id);
  unmatchedProblem = undefined;
  page.refresh();
  try {
    await api(token!, `/api/webhook-events/${encodeURIComponent(id)}/review`, { method: 'POST', body: {}, idempotencyKey: newIdempotencyKey() });
    announce(t('unmatched.reviewed'));
  } catch (error) {
    if (error instanceof ApiError && error.status === 401) return refused();
    unmatchedProblem = problemText(error);
  } finally {
    reviewing.delete(id);
  }
  const pressed = document.activeElement instanceof HTMLElement && document.activeElement.dataset.event === id;
  await loadUnmatched();
  // Its row gone with its button: on to the event that took its place, or past the panel when none is left.
  if (pressed && (document.activeElement === null || document.activeElement === document.body)) {
    const left = buttons();
    (left[Math.min(place, left.length - 1)] ?? document.querySelector<HTMLElement>('#orders-heading'))?.focus();
  }
}

async function loadUnmatched(): Promise<void> {
  try {
    unmatched = await api<UnmatchedEvents>(token!, '/api/webhook-events?outcome=unmatched');
  } catch (error) {
    if (error instanceof ApiError && error.status === 401) return refused();
  }
  page.refresh();
}

/** Coalesces a burst of changes (a payment and its webhooks) into one reload of each view. */
function debounced(run: () => void, ms: number): () => void {
  let timer: ReturnType<typeof setTimeout> | undefined;
  return () => {
    clearTimeout(timer);
    timer = setTimeout(run, ms);
  };
}

const reloadLists = debounced(() => void Promise.all([loadOrders(), loadDetail()]), 150);
const reloadOverview = debounced(() => void Promise.all([loadStats(true), loadBalances(), loadUnmatched()]), 1_000);

/**
 * An event that matches no order changes no order, so the live feed never mentions it: looked
 * for again now and then as well.
 */
const UNMATCHED_POLL_MS = 60_000;
let unmatchedPoll: ReturnType<typeof setInterval> | undefined;

async function start(): Promise<void> {
  page.refresh();
  // One request before the others: a token refused (changed since, or a stale #token= link) is
  // said once, rather than by five refusals that would use up most of the wrong-token limit.
  await loadStats();
  if (!token) return;
  void Promise.all([loadOrders(), loadDetail(), loadBalances(), loadUnmatched()]);
  unmatchedPoll = setInterval(() => void loadUnmatched(), UNMATCHED_POLL_MS);
  stopFeed = followChanges(token!, {
    change(change) {
      feedLines.change(change);
      // An erasure's orders are old ones, as many as the customer had: read again if shown, no more.
      if (change.kind === 'customer') return reloadLists();
      // Under a filter, or a period ended, an order the list does not show is most likely one it leaves out.
      if (filter === 'all' && !search && !periodOver() && !orders.some((order) => order.order_id === change.order_id)) unlisted.add(change.order_id);
      flashing.add(change.order_id);
      setTimeout(() => {
        flashing.delete(change.order_id);
        page.refresh();
      }, 2_000);
      reloadLists();
      reloadOverview();
    },
    resync() {
      reloadLists();
      reloadOverview();
    },
    state(state) {
      feed = state;
      page.refresh();
    },
    refused,
  });
}

/** The companion refused the token (PAYFORM_ADMIN_TOKEN changed, or a mistyped link): sign in again, told why. */
function refused(): void {
  if (!token) return; // the other requests in flight were refused too: said once
  // Before the form shows and takes the focus, so the reason is read with the field.
  signInProblem = t('signIn.expired');
  signOut();
}

/** Drops the list and the read on its way: a new filter's, or no one's once signed out. */
function forgetOrders(): void {
  listing?.abort.abort();
  listing = undefined;
  listQueued.clear();
  orders = [];
  ordersCursor = null;
  ordersRead = false;
  ordersProblem = undefined;
}

function signOut(): void {
  stopFeed?.();
  feedLines.stop();
  clearInterval(unmatchedPoll);
  forgetToken();
  token = undefined;
  search = undefined;
  alsoOrder = undefined;
  findProblem = undefined;
  period = undefined;
  datedBy = 'order';
  stats = money = undefined;
  periodEditing = false;
  periodProblem = undefined;
  detail = undefined;
  forgetOrders();
  unmatched = undefined;
  receipts = { busy: false };
  page.refresh();
  document.querySelector<HTMLInputElement>('#admin-token')?.focus();
}

// Mounted last: the first render already uses the handlers above.
const page = mountPage(content, () =>
  token ? html`<button class="button button--quiet button--small" type="button" @click=${signOut}>${t('admin.signOut')}</button>` : nothing,
);
if (token) void start();
else document.querySelector<HTMLInputElement>('#admin-token')?.focus();
