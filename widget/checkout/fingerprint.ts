/** The `browser_fingerprint` fields only the browser knows (EMV 3-D Secure 2 browser data), all strings. */
export interface BrowserFingerprint {
  browserColorDepth: string;
  browserScreenHeight: string;
  browserScreenWidth: string;
  browserJavaEnabled: string;
  browserLanguage: string;
  browserTimeZone: string;
  browserTimeZoneOffset: string;
}

/** EMV 3DS accepts these colour depths only; a 30-bit screen reports the next lower one. */
const DEPTHS = [48, 32, 24, 16, 15, 8, 4, 1];

/**
 * A language tag up to its first extension or private use (`-u-…`, `-x-…`): Android 14's regional
 * preferences put the calendar, first day and units into the locale (`en-UA-u-fw-mon-mu-celsius`),
 * which say nothing of the language, and can take it past the 35 characters EMV 3-D Secure allows,
 * which the companion refuses (a payment the customer could never start).
 */
const EXTENSIONS = /-[\da-z]-.*$/i;

/**
 * Reads the browser's side of `browser_fingerprint`. The companion adds the other three
 * (`browserIpAddress`, `browserAcceptHeader`, `browserUserAgent`) from the HTTP request.
 */
export function collectFingerprint(): BrowserFingerprint {
  return {
    browserColorDepth: String(DEPTHS.find((depth) => depth <= screen.colorDepth) ?? 1),
    browserScreenHeight: String(screen.height),
    browserScreenWidth: String(screen.width),
    browserJavaEnabled: 'false',
    browserLanguage: navigator.language.replace(EXTENSIONS, ''),
    browserTimeZone: Intl.DateTimeFormat().resolvedOptions().timeZone,
    // Same sign as getTimezoneOffset(): UTC+2 is "-120".
    browserTimeZoneOffset: String(new Date().getTimezoneOffset()),
  };
}
