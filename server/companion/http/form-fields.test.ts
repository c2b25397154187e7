// formFields must read a form exactly as URLSearchParams does: the webhook's `data` is checked
// against its signature byte for byte.
import { describe, expect, it } from 'vitest';
import { webhookForm } from '@payform/gateway';
import { formFields } from './form-fields.js';

const NAMES = ['data', 'signature'] as const;

/** What URLSearchParams makes of `body`, in formFields' shape. */
function reference(body: string, names: readonly string[] = NAMES): Record<string, string> {
  const form = new URLSearchParams(body);
  return Object.fromEntries(names.flatMap((name) => (form.has(name) ? [[name, form.get(name)!]] : [])));
}

describe('formFields', () => {
  it('reads the webhook form as the sandbox and a form encoder post it', () => {
    const { data, signature } = webhookForm({ order_id: 'order-1', status: 'approved', amount: '10.10', note: 'ÄÖ +&=%' }, 'secret');
    const bodies = [
      `data=${encodeURIComponent(data)}&signature=${encodeURIComponent(signature)}`,
      new URLSearchParams({ data, signature }).toString(),
      new URLSearchParams({ signature, data, extra: '1' }).toString(),
    ];
    for (const body of bodies) {
      expect(formFields(body, NAMES)).toEqual({ data, signature });
      expect(formFields(body, NAMES)).toEqual(reference(body));
    }
  });

  it('decodes odd encodings as URLSearchParams does', () => {
    const bodies = [
      '',
      '&&&',
      'data',
      'data=',
      '=x&data=1',
      'data=a+b%2Bc%20d',
      'data=%3D%3d&signature=%',
      'data=%zz%4&signature=%e2%82%ac',
      'data=%E2%82&signature=%ED%A0%80',
      'data=%C3%28%FF',
      '?data=1&signature=2',
      '??data=1',
      'd%61ta=renamed&data=second',
      'data+x=1&data=2',
      'data=first&data=second&signature=s&signature=t',
      'data=a=b=c&signature==',
      'data=%00&signature=%0A',
      'data=ünïcode+✓&signature=😀%F0%9F%98%80',
      'signature=only',
    ];
    for (const body of bodies) expect(formFields(body, NAMES), body).toEqual(reference(body));
  });

  it('agrees with URLSearchParams on random bodies', () => {
    const names = ['data', 'signature', 'd%61ta', 'data+', 'x', ''];
    const pieces = ['a', 'Z', '0', '-', '_', '=', '&', '+', '%', '%2', '%3D', '%2B', '%26', '%C3', '%A9', '%F0%9F', '%FF', 'é', ' ', '😀'];
    let seed = 17;
    const random = (below: number) => Math.floor((seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31 * below);
    const text = (length: number) => Array.from({ length }, () => pieces[random(pieces.length)]).join('');
    for (let round = 0; round < 3000; round += 1) {
      const body = Array.from({ length: random(4) }, () => `${names[random(names.length)]}=${text(random(8))}`).join('&');
      expect(formFields(body, NAMES), body).toEqual(reference(body));
    }
  });
});
