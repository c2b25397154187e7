/**
 * A call that failed in its TLS handshake, told apart from one that found nothing at the
 * address: the fix is the URL's scheme or a certificate, not the gateway coming back. An
 * https:// URL to a plain-http server (a sandbox, which speaks http) fails so: OpenSSL reads
 * the server's "HTTP/1.1 400" as a TLS record of an unknown version.
 */

export interface TlsFailure {
  /** What answered speaks plain http. */
  readonly plainHttp: boolean;
  /**
   * Set when the server's certificate was refused: `other host` — it is trusted, but names other
   * hosts than the URL's, so the fix is the URL (or the certificate's names), not a CA;
   * `out of date` — expired or not yet valid, so the fix is the certificate or this machine's
   * clock; `untrusted` — any other verdict (self-signed, a CA this process does not trust).
   */
  readonly certificate?: 'other host' | 'out of date' | 'untrusted';
  /** The error's code (`ERR_SSL_WRONG_VERSION_NUMBER`, `DEPTH_ZERO_SELF_SIGNED_CERT`), or `EPROTO`. */
  readonly code: string;
}

/** OpenSSL's words for a record that is not TLS: plain http where TLS was expected. */
const PLAIN_HTTP = /wrong version number|packet length too long|http request/i;
/** The handshake's own failures: Node's and OpenSSL's. */
const HANDSHAKE = /^(ERR_TLS_|ERR_SSL_)/;
/** A certificate that names other hosts: Node's `tls.checkServerIdentity`, OpenSSL's own host check. */
const OTHER_HOST = /^(ERR_TLS_CERT_ALTNAME_INVALID|HOSTNAME_MISMATCH|IP_ADDRESS_MISMATCH)$/;
/** A certificate outside its dates, as OpenSSL checks them against this machine's clock. */
const OUT_OF_DATE = /^(CERT_HAS_EXPIRED|CERT_NOT_YET_VALID|ERROR_IN_CERT_NOT_BEFORE_FIELD|ERROR_IN_CERT_NOT_AFTER_FIELD)$/;
/** OpenSSL's other verify codes. */
const UNTRUSTED = /^(DEPTH_ZERO_SELF_SIGNED_CERT|SELF_SIGNED_CERT_IN_CHAIN|UNABLE_TO_.*|CERT_.*)$/;

/** The TLS failure somewhere in `error`'s cause chain (undici's and fetch's errors wrap it); undefined for any other. */
export function tlsFailureOf(error: unknown): TlsFailure | undefined {
  for (let current: unknown = error; current instanceof Error; current = current.cause) {
    const code = (current as { code?: unknown }).code;
    if (typeof code !== 'string') continue;
    const certificate = OTHER_HOST.test(code) ? 'other host' : OUT_OF_DATE.test(code) ? 'out of date' : UNTRUSTED.test(code) ? 'untrusted' : undefined;
    if (certificate) return { plainHttp: false, certificate, code };
    if (HANDSHAKE.test(code) || code === 'EPROTO') return { plainHttp: code === 'ERR_SSL_WRONG_VERSION_NUMBER' || PLAIN_HTTP.test(current.message), code };
  }
  return undefined;
}

/**
 * Whether the handshake failed before any of the request was written: plain http answered, or
 * the certificate was refused. Either way a money-moving call is known not to have happened.
 */
export function failedBeforeRequest(failure: TlsFailure): boolean {
  return failure.plainHttp || failure.certificate !== undefined;
}

/** What the fix of a TLS failure is, in a few words for an error message. */
export function tlsFixOf(failure: TlsFailure): string {
  if (failure.plainHttp) return 'what answers speaks plain http: check the base URL\'s scheme';
  if (failure.certificate === 'other host') return 'its certificate names other hosts: check the base URL\'s host';
  if (failure.certificate === 'out of date') return 'its certificate is out of date: check it, and this machine\'s clock';
  if (failure.certificate === 'untrusted') return 'its certificate is not trusted by this process';
  return 'the TLS handshake failed';
}
