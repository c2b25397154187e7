/**
 * A bearer token the companion checks (the admin token, the metrics token): what a client can
 * send after `Authorization: Bearer `. That is one word of visible ASCII: a token holding a space
 * reaches the companion as two words, one holding a character outside ASCII is refused by most
 * HTTP clients before it is sent. Either would be accepted at start and then answered 401 at
 * every request, with nothing said, so either is refused at start. The token is never repeated.
 */
import * as z from 'zod';

const MIN_LENGTH = 16;

/** What keeps `token` from being sent in an Authorization header, said without it; nothing when it can be. */
function unsendable(token: string): string | undefined {
  const at = token.search(/[^\x21-\x7e]/);
  if (at < 0) return undefined;
  const character = token.charCodeAt(at);
  const what = /\s/.test(token[at]!) ? 'a space or another blank' : character > 0x7e ? 'a character outside ASCII' : 'a control character';
  return `must be one word of visible ASCII characters, as an Authorization header carries it: character ${at + 1} is ${what}, so every request with it would be refused 401; use a random one, e.g. the output of \`openssl rand -base64 32\``;
}

export const BearerToken = z
  .string()
  .min(MIN_LENGTH, { error: `must be at least ${MIN_LENGTH} characters` })
  .superRefine((token, ctx) => {
    const problem = unsendable(token);
    if (problem) ctx.addIssue({ code: 'custom', message: problem });
  });
