import { moneyFormat } from '@payform/card/currencies';
import { html, LitElement, nothing, type PropertyDeclarations, type PropertyValues, type TemplateResult } from 'lit';
import { emit, type PayEventDetails } from '../events.js';
import { loadCatalog } from '../i18n/catalogs.js';
import { en, type Strings } from '../i18n/en.js';
import type { Verification } from '../i18n/lookup.js';
import { CompanionError, fetchView, unloaded } from './companion.js';
import type * as Paying from './paying.js';
import type { SessionView } from './session-view.js';

/**
 * `loading` the session; `ready` to take payment; `paying` while a request is in flight;
 * `confirming` while polling a pending payment; `waiting` when polling gave up before a final state;
 * `success` paid; `closed` when the session cannot be paid (expired, unknown).
 */
export type Phase = 'loading' | 'ready' | 'paying' | 'confirming' | 'waiting' | 'success' | 'closed';

/**
 * Whether the form (or button) shows rather than an outcome: `ready` or `paying`, the only
 * phases so spelt (a pattern: the bundle's budget counts bytes).
 */
export const showsForm = (phase: Phase): boolean => /^(r|pa)/.test(phase);

/**
 * A chunk that did not load — offline, or a page that serves pay-form.js without its chunks —
 * worked out, and a page set up wrong said on the console once (companion.ts, `unloaded`).
 * Handled inside the import's own `then`, so a merchant's Vite build does not take it for its
 * own (`vite:preloadError`).
 */
export const unserved =
  (element: Element) =>
  (error: unknown): undefined =>
    void unloaded(element, error);

/**
 * What paying takes (paying.ts), and formatting as the customer types: a chunk fetched as the
 * form shows, so that by the customer's click or keystroke it is there and acts at once, as if it
 * were part of the bundle.
 */
export let paying: typeof Paying | undefined;
/** Why what paying takes did not load, when it did not. */
let unpaid: Promise<CompanionError>;
export const loadPaying = (element: CheckoutElement): Promise<typeof Paying | undefined> =>
  // Not waited for past a request's time (the network stalled): told as a dropped connection,
  // not a spinner with no end; it may still come, for the next click.
  Promise.race([import('./paying.js'), new Promise<never>((_, late) => setTimeout(late, 15e3))]).then((module) => (module.ready(element), (paying = module)), (error: unknown) => void (unpaid = unloaded(element, error)));

/**
 * What `<pay-form>` and `<pay-button>` share: the session, the companion, the language, the phases
 * of a payment, polling, hosted checkout and safe redirects.
 */
export abstract class CheckoutElement extends LitElement {
  // Lit's own options ({ mode: 'open' }) written out: shorter in the bundle than spreading them.
  static override shadowRootOptions: ShadowRootInit = { mode: 'open', delegatesFocus: true };
  // Declared without decorators: their runtime costs bytes the bundle budget has no room for.
  // The timings are properties only (no attribute, timings.ts `checkTimings`), reactive so that
  // one set before the element is defined survives its upgrade, as `session` does: a plain
  // field's default would overwrite it.
  static override properties: PropertyDeclarations = {
    session: {},
    endpoint: {},
    lang: { reflect: true },
    processing: { type: Boolean, reflect: true },
    // As a form control's: the property sets the attribute, which is what `:disabled` reads.
    disabled: { type: Boolean, reflect: true },
    pollInterval: { attribute: false },
    pollTimeout: { attribute: false },
    sessionWait: { attribute: false },
    view: { state: true },
    phase: { state: true },
    notice: { state: true },
    alarming: { state: true },
    t: { state: true },
    offer: { state: true },
  };

  /** The checkout session id the merchant's server got from the companion. */
  session = '';
  /** The companion's base URL; by default the companion that served the script (its URL up to `/widget/pay-form.js`). */
  endpoint = '';
  /** Language (BCP 47); by default the closest `lang` up the page. */
  override lang!: string;
  /** Reflected while a payment is in flight or being confirmed. */
  processing = false;
  /** As a form control's: disabled, its fields take nothing and it pays nothing, as inside a `<fieldset disabled>`. */
  disabled = false;

  /**
   * How often a pending payment is polled, and for how long at most (ms: from 20 to 60 000, and
   * from 0 to 3 600 000). Any other value is the default, and the console says so (timings.ts, `timing`).
   */
  pollInterval = 2000;
  pollTimeout = 60_000;
  /**
   * How long the element waits for a `session` its page sets late (ms, from 0 to 600 000) before
   * it says none was set; read while it waits, so a change then counts from when the wait began.
   */
  sessionWait = 10_000;

  // The members paying.ts (the pay-time chunk) works with are public, but not part of the API.
  /** @internal */
  view?: SessionView;
  /** @internal */
  phase: Phase = 'loading';
  /**
   * The text of the polite live region, and whether it tells of a problem.
   * @internal
   */
  notice = '';
  /** @internal */
  alarming?: boolean;
  /**
   * What confirming or waiting offers the customer to do (awaiting.ts, `offerChallenge`): going on with a challenge.
   * @internal
   */
  offer?: () => TemplateResult | undefined;
  /**
   * With a card verification's words (`note` among them) for a `lookup` session. English, marked
   * so, until the page's language loads.
   * @internal
   */
  t: Strings & Partial<Verification> = { ...en, lang: 'en' };
  /**
   * Set as the first update begins (`#localise`), before anything reads it.
   * @internal
   */
  locale!: string;
  /** Bumped by every load and poll, and by leaving the page, so that a stale one stops. */
  #run = 0;
  #localised?: Promise<void>;
  /** The session saves a card (`lookup`): "Save card" and "Card saved" replace "Pay" and "paid". */
  #lookup = false;
  /**
   * The session the page was last told is ready (`pay-ready`), whether it was read payable or
   * polling found it so; forgotten when a session fails to load, so one shown again is told again.
   */
  #readied?: string;

  /**
   * Whether this element pays through the gateway's hosted page.
   * @internal
   */
  abstract get hosted(): boolean;

  /**
   * Form-associated, for a merchant's `<form>` around it: disabled with a `<fieldset disabled>`
   * (or its own `disabled`), emptied by the form's reset (`updated`; kept-typing.ts, `reset`). No
   * value: nothing of the card goes into the form's data.
   */
  static formAssociated = true;

  /** @internal */
  formDisabledCallback(): void {
    this.requestUpdate();
  }

  /** Whether the last update left its controls disabled (`updated`). */
  #off = false;

  /**
   * Disabled (`:disabled`: a `<fieldset disabled>` around it, or its own `disabled` once
   * reflected), so are its fields and buttons, as the page's own controls are, and it pays nothing
   * (paying.ts, `claim`); enabled again with it. Here, not in the paying chunk: a field shown
   * before that chunk came took typing. After each update, which reflects `disabled` (a
   * `formDisabledCallback` it causes comes mid-update, and asks for none): what the next one
   * renders (the card fields back after a saved card, the more-time button) is disabled too. Each
   * keystroke updates the form: nothing to do unless it is, or just was, disabled.
   */
  protected override updated(): void {
    const off = this.matches(':disabled');
    if (off || this.#off) for (const control of this.renderRoot.querySelectorAll<HTMLInputElement>('input,button')) control.disabled = off;
    this.#off = off;
  }

  /** @internal */
  formResetCallback(): void {
    paying?.reset(this);
  }

  override connectedCallback(): void {
    super.connectedCallback();
    // Set before the element was defined, `amount` is a field of its own hiding the session's
    // (the button would say "Pay 1999"): taken off, and told as if set now.
    if (Object.hasOwn(this, 'amount')) {
      Reflect.deleteProperty(this, 'amount');
      this.amount = undefined;
    }
    // Moved in the page (a modal, a portal, a framework's render): what its removal stopped —
    // loading, confirming, waiting — starts again; what the customer typed, and a payment in
    // flight, stay as they were.
    if (this.hasUpdated && /^(lo|co|w)/.test(this.phase)) void this.load();
  }

  override disconnectedCallback(): void {
    super.disconnectedCallback();
    this.#run++;
  }

  protected override willUpdate(changed: PropertyValues): void {
    if (changed.has('lang') || !this.hasUpdated) this.#localised = this.#localise();
    // Only in the page: Lit updates an element taken out before its first update all the same,
    // and one out of the page would be read and told ready (`pay-ready`) where the page hears
    // nothing. Loading, it reads the session as it comes back (`connectedCallback`).
    if (changed.has('session') || changed.has('endpoint')) {
      if (this.isConnected) void this.load();
      else this.phase = 'loading';
    }
    // 'paying' and 'confirming': the only phases so spelt.
    this.processing = /^(pa|co)/.test(this.phase);
  }

  async #localise(): Promise<void> {
    // Its own `lang` first: set as a property (React, Vue), it is not yet the attribute.
    let locale = this.lang || (this.closest('[lang]') as HTMLElement | null)?.lang || 'en';
    try {
      new Intl.Locale(locale);
    } catch {
      locale = 'en';
    }
    this.locale = locale;
    let catalog = await loadCatalog(locale, this);
    if (this.#lookup) catalog = await import('../i18n/lookup.js').then((module) => module.default(catalog, locale));
    // A later change of language wins over a slower catalog.
    if (locale === this.locale) this.t = catalog;
  }

  /** @internal */
  say(text: string, alarming?: boolean): void {
    this.notice = text;
    this.alarming = alarming;
  }

  /**
   * Reads the session; without one, after waiting `sessionWait` from `since` for the page to set
   * it, and then diagnose.ts tells the developer none was set.
   * @internal
   */
  async load(since = Date.now()): Promise<void> {
    const run = ++this.#run;
    // A page may set the session once its own server answers; no later change or disconnection
    // bumps the run, so the element was left without one and says so rather than spin on. The
    // wait is looked at every tenth of a second: a page may lengthen or shorten it meanwhile.
    // Loading meanwhile: a session taken away leaves no form to pay it with.
    this.phase = 'loading';
    // A sessionWait that is no number of ms from 0 to ten minutes ("10s", NaN, Infinity) waits the
    // default 10 s, not none or for ever; the paying chunk says so (timings.ts, `timing`).
    const wait = this.sessionWait ?? 1e4;
    if (!this.session && Date.now() - since < (wait >= 0 && wait <= 6e5 ? wait : 1e4)) return void setTimeout(() => run === this.#run && this.load(since), 100);
    this.say('');
    try {
      // The form shows up in its language, not in English first.
      const [view] = await Promise.all([fetchView(this), this.#localised]);
      // A session that saves a card (or no longer does) changes the words.
      if ((view.method === 'lookup') !== this.#lookup) {
        this.#lookup = !this.#lookup;
        await (this.#localised = this.#localise());
      }
      if (run !== this.#run) return;
      void this.settle(view);
    } catch (error) {
      // Even when the session failed first, its error shows in the page's language; when what
      // failed is the language (a card verification's words, lookup.ts), in the one there is.
      await this.#localised?.catch(() => {});
      if (run !== this.#run) return;
      // What threw may be anything (Object() of undefined is {}); a CompanionError says what
      // happened. Without a status, it is no 4xx: undefined compares false.
      const { status, code } = Object(error) as CompanionError;
      const unknown = status >= 400 && status < 500 && status !== 429;
      // An unknown or foreign session stays unknown, and a page set up wrong reaches no hosted page
      // either; anything else may pass, so the hosted button stays on offer.
      this.phase = unknown || code === 'misconfigured' ? 'closed' : 'ready';
      this.view = this.#readied = undefined;
      const current = () => run === this.#run;
      // Online, the companion may be away for a moment, and is then read again without a click
      // (companion-away.ts, `readAgain`, which tells the error); without that chunk, told as ever.
      if (navigator.onLine && !unknown) return void loadPaying(this).then((module) => (module ? module.readAgain(this, error, current) : current() && this.fail(error)));
      // Nothing answered (offline: said so): read again as the connection comes back, not at a click.
      if (code === 'network') addEventListener('online', () => current() && this.load(), { once: true });
      this.fail(error, unknown ? this.t.unknown : this.t.offline_read);
    }
  }

  /**
   * Moves to what the session's status says: first to ready (`pay-ready`), once the form shows,
   * when it can be paid and the page has not been told so.
   * @internal
   */
  async settle(view: SessionView, ids: Omit<PayEventDetails['pay-success'], 'orderId'> = {}): Promise<void> {
    this.view = view;
    const { status, order_id: orderId } = view;
    if (status === 'pending') return this.poll();
    // Ready — with its button there — before the outcome of the attempt the customer comes back
    // from (a decline, read at once or once polling decided it): a page that wires itself up on
    // `pay-ready` hears that too. Once a session: not again when the page, back from the
    // back/forward cache, reads it anew. `open` or `failure` (the only statuses in o or f; spelt
    // short: the page's bytes).
    if (/^[of]/.test(status) && this.#readied !== view.id) {
      // Bound for the hosted page of a session that leaves it out: every click would be refused,
      // so the element is never ready, and diagnose.ts tells the developer why.
      if (this.hosted && !view.modes.includes('hosted')) return import('./diagnose.js').then((module) => module.hostedRefused(this), unserved(this));
      this.#readied = view.id;
      this.phase = 'ready';
      this.say('');
      await this.updateComplete;
      // Unless the page set another session as this one showed: its load starts only now, and
      // this one, should the page set it back, is told then. Or took the element out: it reads
      // the session again, and tells it, once back.
      if (view.id !== this.session || !this.isConnected) {
        this.#readied = undefined;
        if (!this.isConnected) this.phase = 'loading';
        return;
      }
      emit(this, 'pay-ready', { mode: this.hosted ? 'hosted' : 'direct', test: view.test, amount: view.amount, currency: view.currency });
      // The form shows: what paying takes loads now.
      void loadPaying(this);
      // Unless a listener of `pay-ready` paid at once (nothing else comes between).
      if ((this.phase as Phase) === 'paying') return;
    }
    const ended = status === 'expired';
    // Expired with a decline's words: that decline used up the session's attempts.
    const failed = status === 'failure' || (ended && !!view.message);
    // The companion words a decline in English: English shows those words (its own `declined` is
    // empty), other languages their general one rather than a sentence the customer may not read.
    // Without the companion's words, English says its own general one too.
    const message = ended
      ? (failed && this.t.tries_used) || this.t.closed
      : failed
        ? this.t.declined || view.message || this.t.declined_en || this.t.server
        : status === 'success'
          ? this.t.paid
          : '';
    this.phase = ended ? 'closed' : status === 'success' ? status : 'ready';
    this.say(message, failed);
    if (failed) emit(this, 'pay-failure', { message, orderId });
    // Expired, or closed by the merchant: the page hears it, as it would any other end.
    if (ended) emit(this, 'pay-error', { code: 'closed', message });
    if (status === 'success') emit(this, 'pay-success', { orderId, ...ids });
  }

  /**
   * Polls a pending payment until it is final (reader.ts, `settled`), for `pollTimeout` at most, then waits
   * for the customer; at once when what polls cannot load.
   * @internal
   */
  async poll(): Promise<void> {
    const run = ++this.#run;
    this.phase = 'confirming';
    this.say(this.t.confirming);
    const view = await (paying ?? (await loadPaying(this)))?.settled(this, () => run === this.#run);
    if (run !== this.#run) return;
    if (view) return this.settle(view);
    this.phase = 'waiting';
    this.say(this.t.waiting || this.t.confirming);
  }

  /**
   * Pays as the element's own button does, for a page's own "Place order" button: the form's
   * fields are checked (errors shown, focus on the first), `pay-submit` fired, the card paid, or
   * the customer sent to the hosted page. Resolves once the attempt is answered, refused or
   * cancelled; the outcome comes as events. Ignored unless the element is ready (after
   * `pay-ready`): while a payment is in flight, as a second click is.
   *
   * At once when what paying takes has loaded (paying.ts, `submit`), as it has once the element
   * shows. A click before it has is taken all the same: the element is busy, and says so, until
   * it comes, and then pays; when it cannot load, the customer is told as for a dropped
   * connection, and may try again.
   */
  async pay(): Promise<void> {
    // Where the customer is (the button, a field they pressed Enter in): a button disabled while
    // the chunk comes drops it, and it comes back there should it not come.
    const focused = this.shadowRoot?.activeElement as HTMLElement | null | undefined;
    if (!paying) {
      // Busy, so that a second click finds it so; the first is the one paid.
      if (this.phase !== 'ready') return;
      this.phase = 'paying';
      this.say(this.t.processing);
      await loadPaying(this);
      this.phase = 'ready';
      this.say('');
    }
    if (paying) return paying.submit(this);
    this.fail(await unpaid);
    // Unless the customer has put the focus elsewhere since, as after any payment error.
    await this.updateComplete;
    if (document.activeElement === document.body) focused?.focus();
  }

  /**
   * Tells the customer and the page what went wrong.
   * @internal
   */
  fail(error: unknown, message?: string): void {
    const { code, reason } = error instanceof CompanionError ? error : new CompanionError('server');
    message ??= (this.t as Partial<Record<string, string>>)[code] ?? this.t.server;
    this.say(message, true);
    emit(this, 'pay-error', { code, message, ...(reason && { reason }) });
  }

  protected get amount(): string {
    const { view } = this;
    // In the words' language: English on a page in another one (`t.lang`) writes it as English.
    return view ? moneyFormat(view.currency, this.t.lang ?? this.locale)(view.amount) : '';
  }

  /** A page that sets it (Angular's `[amount]`, Vue's `:amount`) is told whose it is, once, not thrown an anonymous TypeError. */
  protected set amount(_: unknown) {
    if (this.#amountTold) return;
    this.#amountTold = true;
    console.error(`<${this.localName}>: amount is the checkout session's: set it where your server opens the session, not on the element`);
  }

  #amountTold = false;

  /**
   * The pay button; in a form (`submits`) it submits it — Enter in a field too — else it goes to
   * the hosted page. The hosted one says so: a page offering both never shows two buttons alike.
   * A card verification's note comes first.
   */
  protected button(submits = !this.hosted): TemplateResult {
    // Busy, it is marked disabled but keeps focus (WCAG 2.4.3): a disabled button drops it to the
    // page's start for as long as the payment takes. A click meanwhile claims nothing (paying.ts).
    const busy = this.phase !== 'ready';
    // Until the session is read there is no amount: "Pay", "Pay on the secure payment page".
    const label = (this.hosted ? this.t.pay_hosted : this.t.pay).replace('{}', this.amount).replace(/ +/g, ' ').trim();
    return html`${this.t.note ? html`<p part="note" dir="auto">${this.t.note.replace('{}', this.amount)}</p>` : nothing}<button part="button" dir="auto" type=${submits ? 'submit' : 'button'} aria-disabled=${busy ? 'true' : nothing}
      @click=${submits ? nothing : this.pay}>${busy ? this.t.processing : label}</button>`;
  }

  /** The element's own content while `ready` or `paying`. */
  protected abstract body(): TemplateResult;

  /**
   * Content under the live region, none of its own: the paying chunk puts the offer of more time
   * to pay there (time-to-pay.ts, `offerTime`), outside the region's words, and test mode's card list
   * under it in a `<pay-form>` of a test session (test-cards.ts).
   * @internal
   */
  footer(): TemplateResult | typeof nothing {
    return nothing;
  }

  // The live region stays one element from the first render on, whatever shows above it.
  protected override render(): TemplateResult {
    return html`<div lang=${this.t.lang ?? nothing}>${this.view?.test ? html`<p part="banner" dir="auto">${this.t.test}</p>` : nothing}${this.#outcome() ?? this.body()}<p
        part="message" dir="auto" role="status" class=${this.alarming ? 'error' : ''}>${this.notice}</p>${this.footer()}</div>`;
  }

  /** What shows instead of the form or button while loading, confirming, waiting, and at the end. */
  #outcome(): TemplateResult | undefined {
    const { phase } = this;
    if (showsForm(phase)) return undefined;
    return html`<div class="outcome" part=${phase === 'success' ? phase : nothing}>${
      phase === 'success'
        ? html`<span class="tick" aria-hidden="true">✓</span><strong>${this.amount}</strong>`
        : phase === 'waiting'
          ? html`<button part="button" dir="auto" @click=${this.poll}>${this.t.check_again}</button>${this.offer?.()}`
          : phase === 'closed' ? '' : (this.offer?.() ?? html`<span class="spinner"></span>${phase === 'loading' ? this.t.loading : ''}`)
    }</div>`;
  }
}
