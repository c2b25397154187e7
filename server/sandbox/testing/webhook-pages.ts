/**
 * GET /_sandbox/webhooks answers a page at a time: what a test reads the whole delivery log (or
 * all of one order's) with, following the pages.
 */

export interface WebhooksPage<T> {
  readonly deliveries: readonly T[];
  readonly cursor: number;
  readonly more: boolean;
}

/**
 * Every delivery matching `query` (`order_id=o-1&status=delivered`, or '' for all), oldest first;
 * `read` GETs a control-plane path and answers its JSON.
 */
export async function everyDelivery<T>(read: (path: string) => Promise<WebhooksPage<T>>, query = ''): Promise<T[]> {
  const deliveries: T[] = [];
  for (let cursor = 0, more = true; more; ) {
    const page = await read(`/_sandbox/webhooks?${query ? `${query}&` : ''}limit=1000&after=${cursor}`);
    deliveries.push(...page.deliveries);
    ({ cursor, more } = page);
  }
  return deliveries;
}
