/* global document, location, URLSearchParams -- runs in the browser */
// Another site's page (a marketplace, a page builder) holding the merchant's page in an iframe:
// its address and the iframe's sandbox, when it has one, come in the query string.
const query = new URLSearchParams(location.search);
const frame = document.createElement('iframe');
const sandbox = query.get('sandbox');
if (sandbox !== null) frame.setAttribute('sandbox', sandbox);
frame.src = query.get('src') ?? '';
frame.width = '800';
frame.height = '700';
document.body.append(frame);
