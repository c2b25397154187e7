/**
 * A `<pay-form>` or `<pay-button>` built for another session view than this companion's reading
 * its sessions. Since 0.3 a widget's read says the view version it reads (`?version=0.3`: a
 * query, so no CORS preflight), and it reads only a view of that version: one of another shows no amount
 * and takes no payment, and says so on the customer's console, which the operator never sees.
 * Said here with the fix, each version once an hour and a few an hour at most: anyone holding a
 * session id may read it saying any version, and one line said once for all would go to the first
 * made-up one. A read without it — a page's own script's, or a 0.2 widget's (older-widgets.ts
 * tells those by their payments) — says nothing.
 */
import type { Context } from 'hono';
import type { CompanionEnv } from '../context.js';
import { SaidLately } from '../http/said-lately.js';
import { VIEW_VERSION } from './session-view.js';

const VERSIONS_SAID = 5;
const VERSIONS_WINDOW_MS = 60 * 60_000;

const parts = (version: string): [number, number] => version.split('.').map(Number) as [number, number];

/** Whether major.minor `version` comes before this companion's view's (0.10 after 0.9). */
function older(version: string): boolean {
  const [major, minor] = parts(version);
  const [ours, ourMinor] = parts(VIEW_VERSION);
  return major < ours || (major === ours && minor < ourMinor);
}

export class OtherWidgetVersions {
  readonly #clock: () => number;
  readonly #said = new SaidLately(VERSIONS_SAID, VERSIONS_WINDOW_MS);

  constructor(clock: () => number) {
    this.#clock = clock;
  }

  /** A read of a session's view, with the version its widget said (a major.minor, SessionViewQuery): said if another, once an hour. */
  noteRead(c: Context<CompanionEnv>, version: string | undefined): void {
    if (version === undefined || version === VIEW_VERSION || !this.#said.take(version, this.#clock())) return;
    const script = `${c.get('services').options.publicUrl}/widget/pay-form.js`;
    const fix = older(version)
      ? `upgrade the page's @payform/widget, or its copy of pay-form.js, to a release that reads session views of ${VIEW_VERSION}, or load this companion's own ${script}`
      : `serve the page the widget this companion serves (${script}), or upgrade the companion to a release whose session view is ${version}`;
    c.get('logger').warn(
      `a <pay-form> or <pay-button> reading session views of version ${version} read a checkout session of this companion, whose view is version ${VIEW_VERSION}: a widget shows only a view of its own version, ` +
        `so its customers see no amount and cannot pay. ${fix[0]!.toUpperCase()}${fix.slice(1)}. Said once an hour`,
      { view_version: version },
    );
  }
}
