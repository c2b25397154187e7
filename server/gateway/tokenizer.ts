/**
 * `@payform/gateway/tokenizer`: the gateway's card tokenizer for the browser (no Node APIs; fetch
 * and WebCrypto), so a page can send the card straight to the gateway and its server only ever
 * sees a token. The server-side half, reading a `rich: true` answer, is `readRichAnswer` in the
 * package's main entry.
 */
export {
  tokenizeCard, sealedCardToken, postToTokenizer, tokenizeBody, signTokenizeBody, signingMessage, hmacSha256Hex, TokenizeError,
  TokenizeRefusedError, TokenizerUnreachableError,
} from '@payform/card/tokenize';
export type { TokenizerSettings, CardToTokenize, TokenizeBody } from '@payform/card/tokenize';
