// The URL's `?pgbouncer=true`: read, and taken out of what node-postgres is given.
import { expect, it } from 'vitest';
import { poolerFlag } from './pooler.js';

it('reads ?pgbouncer= wherever it stands in the query, and leaves the rest of the URL as it was', () => {
  expect(poolerFlag('postgres://u:p@db/shop?pgbouncer=true')).toEqual({ url: 'postgres://u:p@db/shop', declared: true });
  expect(poolerFlag('postgres://u:p@db/shop?pgbouncer=true&sslmode=require')).toEqual({ url: 'postgres://u:p@db/shop?sslmode=require', declared: true });
  expect(poolerFlag('postgres://u:p@db/shop?sslmode=require&pgbouncer=TRUE')).toEqual({ url: 'postgres://u:p@db/shop?sslmode=require', declared: true });
  expect(poolerFlag('postgres://u:p@db/shop?a=1&pgbouncer=false&b=2')).toEqual({ url: 'postgres://u:p@db/shop?a=1&b=2', declared: false });
  expect(poolerFlag('postgres://u:p@db/shop?sslmode=require')).toEqual({ url: 'postgres://u:p@db/shop?sslmode=require', declared: false });
});
