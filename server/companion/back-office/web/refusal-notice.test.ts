// What a dialog says of a request that failed: not done (a refusal, or a call the gateway never
// took), or an outcome unknown (no answer, or a 5xx after which the request may have run).
import type { TemplateResult } from 'lit';
import { describe, expect, it } from 'vitest';
import { ApiError } from './admin-api.js';
import { refusalNotice } from './refusal-notice.js';
import { stubbedPage } from './testing/page.js';

stubbedPage();

/** The notice's heading, as the dialog shows it before the message. */
const heading = (status: number, code: string): unknown => (refusalNotice(new ApiError(status, code, 'what the companion said')) as TemplateResult).values[0];

describe('a failed operation’s notice', () => {
  it('says a call the gateway never took is not done, though a 5xx answered it', () => {
    // The companion settled the operation's reservation as failed: sending again is a new refund.
    for (const [status, code] of [[503, 'gateway_unavailable'], [503, 'gateway_busy'], [502, 'gateway_credentials']] as const) {
      expect(heading(status, code), code).toBe('Not done:');
    }
  });

  it('says the outcome is unknown when it may have run', () => {
    for (const [status, code] of [[0, 'network'], [504, 'outcome_unknown'], [502, 'gateway_error'], [500, 'internal_error'], [503, 'ledger_unavailable']] as const) {
      expect(heading(status, code), code).toBe('Outcome unknown:');
    }
  });
});
