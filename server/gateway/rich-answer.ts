/**
 * The tokenizer's `rich: true` answer, `{ "data": "base64(IV):base64(CRYPTOGRAM)" }`, read on the
 * merchant's server: AES-256-CBC (PKCS#5 padding, 16-byte IV) keyed with the UTF-8 bytes of the
 * merchant's secret key, over `{ token, expires_at, card_mask }` (gateway-notes.md).
 * `sealRichAnswer` is the gateway's side, for the sandbox and tests.
 */
import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';
import { TokenizeError } from '@payform/card/tokenize';

export interface RichAnswer {
  readonly token: string;
  /** TIMESTAMP after which the token is refused. */
  readonly expires_at: string;
  /** `424242******4242`. */
  readonly card_mask: string;
}

/** A rich answer that cannot be read: not the `IV:CRYPTOGRAM` form, another key, or not the documented plaintext. */
export class RichAnswerError extends TokenizeError {
  override name = 'RichAnswerError';
}

const AES_256_KEY_BYTES = 32;

function keyOf(secretKey: string): Buffer {
  const key = Buffer.from(secretKey, 'utf8');
  if (key.length !== AES_256_KEY_BYTES) {
    throw new RichAnswerError(`A rich answer needs a secret key of ${AES_256_KEY_BYTES} bytes in UTF-8; this one has ${key.length}`);
  }
  return key;
}

export function sealRichAnswer(answer: RichAnswer, secretKey: string): string {
  const iv = randomBytes(16);
  const cipher = createCipheriv('aes-256-cbc', keyOf(secretKey), iv);
  const sealed = Buffer.concat([cipher.update(JSON.stringify(answer), 'utf8'), cipher.final()]);
  return `${iv.toString('base64')}:${sealed.toString('base64')}`;
}

export function readRichAnswer(data: string, secretKey: string): RichAnswer {
  const key = keyOf(secretKey);
  const [iv, sealed, extra] = data.split(':');
  const ivBytes = Buffer.from(iv ?? '', 'base64');
  if (extra !== undefined || ivBytes.length !== 16 || !sealed) throw new RichAnswerError('A rich answer is base64(IV):base64(CRYPTOGRAM) with a 16-byte IV');
  let plain: unknown;
  try {
    const decipher = createDecipheriv('aes-256-cbc', key, ivBytes);
    plain = JSON.parse(Buffer.concat([decipher.update(Buffer.from(sealed, 'base64')), decipher.final()]).toString('utf8'));
  } catch (cause) {
    throw new RichAnswerError('The rich answer does not decrypt with this secret key', { cause });
  }
  const { token, expires_at, card_mask } = (plain ?? {}) as Record<string, unknown>;
  if (typeof token !== 'string' || typeof expires_at !== 'string' || typeof card_mask !== 'string') {
    throw new RichAnswerError('The rich answer lacks token, expires_at or card_mask');
  }
  return { token, expires_at, card_mask };
}
