/** A session's time to pay (WCAG 2.2.1): its near end told, and more time offered and asked for. */
import { html } from 'lit';
import type { CheckoutElement } from './checkout-element.js';
import { call, fetchView, type CompanionError } from './companion.js';
import type { SessionView } from './session-view.js';
import { focusOn } from './announcements.js';
import { wentOn } from './outcome.js';
import { close } from './refusals.js';
import { inPage, voices } from './session-elements.js';

/** How long before a session's time is up the customer hears it: time to finish a card. */
const TOLD_BEFORE_MS = 120_000;
/** Read again this long after its end, so the companion's clock has passed it too. */
const END_SLACK_MS = 1_000;
/**
 * When each session's time to pay is up, in this page's clock: the earliest a view of it gave.
 * By session, not by view: the view a decline makes of the one before (`answer`) carries that
 * one's seconds, which counted from now would put the end off.
 */
const ends = new Map<string, number>();

/** How long an error shows before the end's warning is said after it: the time to hear it first. */
const HEARD_MS = 5_000;
/** The sessions whose near end this page has told: once a page, by the element that speaks for the session (`voices`). */
const toldNear = new Set<string>();

/**
 * A session's time to pay, told (WCAG 2.2.1): two minutes before it is up the live region says so,
 * focus left where it is; once it is up, with no payment under way, the session is read again and
 * shows as it ended, rather than a form that takes a card only to refuse it. Armed for each view
 * the element shows, and let go as it leaves the page.
 *
 * The warning is never dropped. Due while a payment is under way, it waits for the form to be
 * payable again; due over a decline or an error, it waits for that to be heard: said as soon as
 * the error is gone (a summary goes once its fields are fixed, `keepSummary`), or, should the
 * error stay (a decline does until the next attempt), after it, in the same region, once it has
 * shown `HEARD_MS`. Said once a page, by the element the customer is in, else the card form
 * (`voices`), which offers more time beside it when the session may be extended (`offerTime`);
 * at the end, that one reads the session first, then the others, so that the end too is said
 * there, once (`sayOnce`). An end further than two minutes away (more time given, here or in
 * another tab) is told afresh as it nears.
 */
export function keepTime(element: CheckoutElement): void {
  let armed: SessionView | undefined;
  let timers: ReturnType<typeof setTimeout>[] = [];
  let near = false;
  let later: ReturnType<typeof setTimeout> | undefined;
  // The words the live region shows, and since when: an error's turn to be heard.
  let words = element.notice;
  let since = Date.now();
  const disarm = () => {
    timers.forEach(clearTimeout);
    clearTimeout(later);
    timers = [];
    armed = undefined;
    near = false;
  };
  const idle = () => !!armed && element.view === armed && element.phase === 'ready';
  const tell = (): void => {
    const { t, notice, alarming } = element;
    if (!near || !idle() || !t.expiring || toldNear.has(armed!.id)) return;
    // Another element of the session that can tell it, payable as this one is, tells it instead.
    const voice = voices(element).find((each) => each.phase === 'ready' && each.view?.id === armed!.id);
    if (voice && voice !== element) return;
    const wait = since + HEARD_MS - Date.now();
    if (alarming && wait > 0) {
      clearTimeout(later);
      later = setTimeout(tell, wait);
      return;
    }
    toldNear.add(armed!.id);
    element.say(alarming ? `${notice} ${t.expiring}` : t.expiring, alarming);
    if (armed!.extendable === true) offerMore(element, armed!.id);
  };
  const end = async (): Promise<void> => {
    if (!idle()) return;
    // What is read now is the end, not the earliest one known: more time given in another tab counts.
    ends.delete(armed!.id);
    // Given there, the form stays as the customer left it — what they typed, where they are —
    // rather than load again into new, empty fields; and says how long there is now, as if asked here.
    const now = await fetchView(element).catch(() => undefined);
    if (!idle()) return;
    // Who speaks is chosen once read: meanwhile the page may have removed the one the customer was in.
    const [first = element, ...others] = new Set([...voices(element).filter((each) => each.phase === 'ready'), element]);
    const left = now && /^[of]/.test(now.status) ? now.expires_in_seconds! : 0;
    if (left * 1000 > TOLD_BEFORE_MS) return gaveTime(first, left, now!.extendable === true);
    await first.load();
    for (const other of others) if (other.phase === 'ready') void other.load();
  };
  // Only in the page: an update that comes after its removal (the blur of a field it held the
  // focus in) would otherwise arm them on the element out of it, which they keep alive until its
  // end, and then read its session.
  const arm = () => {
    const { view } = element;
    if (view === armed || !element.isConnected) return;
    disarm();
    const left = view?.expires_in_seconds;
    // Payable (`open`, `failure`), with a time a timer can keep (under 24 days).
    if (!view || !/^[of]/.test(view.status) || !(left! >= 0) || left! > 2e6) return;
    armed = view;
    const at = Math.min(ends.get(view.id) ?? Infinity, Date.now() + left! * 1000);
    ends.set(view.id, at);
    const ms = at - Date.now();
    // Further away than the warning (more time was given): told again as it nears.
    if (ms > TOLD_BEFORE_MS) toldNear.delete(view.id);
    timers.push(
      setTimeout(() => ((near = true), tell()), ms - TOLD_BEFORE_MS),
      setTimeout(end, ms + END_SLACK_MS),
    );
  };
  // Now, for the view it shows as this chunk comes, for each it shows after, and again when moved in the page.
  arm();
  element.addController({
    // Before it renders: the warning said as soon as it may be, in this update.
    hostUpdate: () => {
      if (element.notice !== words) [words, since] = [element.notice, Date.now()];
      tell();
    },
    hostUpdated: arm,
    hostConnected: arm,
    hostDisconnected: disarm,
  });
}

/** Of each session, the element in the page offering more time to pay (`offerTime`): the one that said its end was near. */
const timeOffers = new Map<string, CheckoutElement>();
/** The sessions more time is being asked for: one request at a time, whatever is pressed meanwhile. */
const extending = new Set<string>();
/** What each element last said of the time it got, to say it again should the page change the language (`offerTime`). */
const given = new WeakMap<CheckoutElement, [words: string, minutes: number]>();

/**
 * More time to pay (WCAG 2.2.1, Timing Adjustable): beside the warning that the session's end is
 * near (`keepTime`), when the session may be extended (`extendable` in its view; absent, from an
 * older companion, it may not), a button asks the companion for it (`POST …/extend`, `extend`).
 * Once a page, in the element that said the warning; while that element is payable (`ready`).
 *
 * It follows the live region rather than sit in it: the region says the warning alone, and the
 * button, next in reading and Tab order, is read by its own name, as a button. Rendered through
 * `footer` (checkout-element.ts), wrapped here: the bundle the page loads first pays no byte for it.
 *
 * Pressed, it goes as it did its work; the focus it had goes back to the field the customer was
 * last in, else to the button on offer or the message (`focusOn`), never to the page's start.
 */
export function offerTime(element: CheckoutElement): void {
  const footer = element.footer;
  element.footer = () => html`${moreTimeButton(element)}${footer.call(element)}`;
  /** The field the customer was last in. */
  let field: Element | undefined;
  element.addEventListener('focusin', (event) => {
    const [target] = event.composedPath();
    if (target instanceof HTMLInputElement) field = target;
  });
  let t = element.t;
  let pressed = false;
  element.addController({
    hostUpdate() {
      pressed = !!element.shadowRoot?.activeElement?.matches('[part~=more-time]');
      // The time given, said again in the page's new language.
      const before = t;
      t = element.t;
      const [words, minutes] = given.get(element) ?? [];
      if (t !== before && words && element.notice === words) element.say(timeGiven(element, minutes!));
    },
    hostUpdated() {
      if (!pressed || document.activeElement !== document.body) return;
      if (field?.isConnected && element.shadowRoot!.contains(field)) (field as HTMLElement).focus();
      else focusOn(element);
    },
    // Out of the page (not moved in it), it hands its offer to another element of its session.
    hostDisconnected: () =>
      queueMicrotask(() => {
        const id = element.view?.id;
        if (element.isConnected || !id || timeOffers.get(id) !== element) return;
        timeOffers.delete(id);
        const heir = voices(element).find((each) => each.phase === 'ready' && each.view?.id === id);
        if (heir) offerMore(heir, id);
      }),
  });
}

/** `element` offers more time for session `id`: its button shows, styled. */
function offerMore(element: CheckoutElement, id: string): void {
  timeOffers.set(id, element);
  styleMoreTime(element.renderRoot as ShadowRoot);
  element.requestUpdate();
}

const moreTimeButton = (element: CheckoutElement) => {
  const { view, t } = element;
  return view?.extendable === true && element.phase === 'ready' && timeOffers.get(view.id) === element && t.more_time
    ? html`<button part="more-time" type="button" dir="auto" @click=${() => extend(element)}>${t.more_time}</button>`
    : undefined;
};

let moreTimeStyles: CSSStyleSheet | undefined;

/**
 * The button's looks, a second button's: the form's text and border colours, its radius and font,
 * centred under the message. A sheet of this chunk's own, as the test cards have: the bundle's
 * styles stay as they are. A browser without constructed style sheets (Safari before 16.4) shows
 * its own button.
 */
function styleMoreTime(root: ShadowRoot): void {
  try {
    if (!moreTimeStyles) {
      moreTimeStyles = new CSSStyleSheet();
      moreTimeStyles.replaceSync(
        `[part~='more-time']{display:block;margin:8px auto 0;padding:6px 14px;border:1px solid var(--_line);border-radius:var(--_radius);background:none;color:var(--_fg);font:inherit;cursor:pointer}`,
      );
    }
    if (!root.adoptedStyleSheets.includes(moreTimeStyles)) root.adoptedStyleSheets = [...root.adoptedStyleSheets, moreTimeStyles];
  } catch {
    // Unstyled, it still works.
  }
}

/** The companion's answer to an extension: the seconds now left, and whether it may be asked again. */
const readExtension = (body: { expires_in_seconds?: unknown; extendable?: unknown } | undefined): { seconds: number; extendable: boolean } | undefined => {
  const seconds = body?.expires_in_seconds;
  return Number.isSafeInteger(seconds) && (seconds as number) >= 0 ? { seconds: seconds as number, extendable: body!.extendable === true } : undefined;
};

/**
 * Asks the companion for more time (`POST …/extend`, no body). Given: every element of the
 * session in the page runs on to the new end (`gaveTime`). Refused (409), the session is read
 * again to say why in the customer's words: paid, being paid or ended elsewhere, it shows so
 * (`wentOn`); given more time elsewhere (another tab), as if given here; else it cannot be
 * extended (a shop's fixed end, the 20 hours reached), said, the button gone, the form as it was.
 * A session the companion no longer knows (404) closes, as a payment to it does. No answer, or a
 * server's error: said, and the button stays, to try again.
 */
async function extend(element: CheckoutElement): Promise<void> {
  const { view } = element;
  if (!view || extending.has(view.id)) return;
  const { id } = view;
  extending.add(id);
  try {
    const { seconds, extendable } = await call(element, '/extend', { method: 'POST' }, 15_000, readExtension);
    if (element.view?.id === id) gaveTime(element, seconds, extendable);
  } catch (error) {
    if (element.view?.id !== id || element.phase !== 'ready') return;
    const { code, status } = Object(error) as Partial<CompanionError>;
    if (code === 'closed') return void close(element, error as CompanionError, element.t.closed);
    // No answer, or too many asks, said so; anything else as the server's error.
    if (status !== 409) return element.say(element.t[code === 'network' || code === 'rate_limited' ? code : 'server'] ?? element.t.server, true);
    const now = await fetchView(element).catch(() => undefined);
    if (element.view?.id !== id || element.phase !== 'ready') return;
    if (wentOn(element, now)) {
      for (const other of inPage(element)) if (other !== element && other.phase === 'ready') void other.load();
      return;
    }
    const left = now?.expires_in_seconds ?? 0;
    if (left * 1000 > TOLD_BEFORE_MS) return gaveTime(element, left, now!.extendable === true);
    timeOffers.delete(id);
    element.say(element.t.more_time_refused ?? element.t.server, true);
  } finally {
    extending.delete(id);
  }
}

/**
 * The session has `seconds` left (more time given): each element of it in the page runs on to
 * that end, its view saying so (`keepTime` arms it anew, and tells the end again as it nears),
 * and `element`, whose button asked, says how long there is now.
 */
function gaveTime(element: CheckoutElement, seconds: number, extendable: boolean): void {
  const { id } = element.view!;
  // Later than the earliest end known, which would otherwise hold (`ends`).
  ends.set(id, Date.now() + seconds * 1000);
  timeOffers.delete(id);
  for (const each of new Set([element, ...inPage(element)])) {
    const { view } = each;
    if (view?.id === id && /^[of]/.test(view.status)) each.view = { ...view, expires_in_seconds: seconds, extendable };
  }
  element.say(timeGiven(element, Math.max(1, Math.round(seconds / 60))));
}

/** "You now have 10 minutes to pay.", the minutes worded in the words' language by Intl; kept to say again in another. */
function timeGiven(element: CheckoutElement, minutes: number): string {
  const { t } = element;
  const time = new Intl.NumberFormat(t.lang ?? element.locale, { style: 'unit', unit: 'minute', unitDisplay: 'long' }).format(minutes);
  const words = (t.more_time_given ?? '').replace('{}', time);
  given.set(element, [words, minutes]);
  return words;
}
