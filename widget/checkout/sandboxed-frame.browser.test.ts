// A page with <pay-form> in an iframe sandboxed without allow-same-origin
// (`<iframe sandbox="allow-scripts allow-forms">`): its URL keeps an origin the companion allows
// (location.origin), but the browser sends its requests with `Origin: null`, which no setting can
// allow. The form says the page runs sandboxed and how to let it have its origin, not to add its
// URL's origin to PAYFORM_ALLOWED_ORIGINS, which is there already. The page loads the widget the
// companion serves, its build (widget/dist): see widget/test/sandboxed-page.html.
import { expect, fixture, html } from '@open-wc/testing';
import { openCheckout } from '../test/checkout-fixture.js';

interface Said {
  code: string;
  reason?: string;
  said: string[];
  origins: { location: string; self: string };
}

describe('a page in an iframe sandboxed without allow-same-origin', () => {
  it('is told to add allow-same-origin, not its URL’s origin, which the companion allows', async () => {
    // `shop` on its own origin, which allows the test page's — the frame's URL's.
    const { id, companion_url } = await openCheckout();
    const query = new URLSearchParams({ companion: companion_url, session: id });
    const frame = await fixture<HTMLIFrameElement>(html`<iframe sandbox="allow-scripts allow-forms"></iframe>`);
    const said = new Promise<Said>((resolve) => {
      const listener = (event: MessageEvent) => {
        if (event.source !== frame.contentWindow) return;
        removeEventListener('message', listener);
        resolve(event.data as Said);
      };
      addEventListener('message', listener);
    });
    frame.src = `/widget/test/sandboxed-page.html?${query}`;
    const { code, reason, said: lines, origins } = await said;
    expect(origins).to.deep.equal({ location: location.origin, self: 'null' });
    expect(code).to.equal('misconfigured');
    expect(reason).to.equal(
      `the companion at ${companion_url} refused this page's origin null: this page runs in an iframe whose sandbox attribute leaves out allow-same-origin, ` +
        "so its requests carry no origin (Origin: null) that can be allowed: add allow-same-origin to the iframe's sandbox attribute (or load the form outside the sandboxed iframe)",
    );
    expect(lines).to.deep.equal([`<pay-form>: ${reason}`]);
  });
});
