import { describe, expect, it } from 'vitest';

describe('importing the widget', () => {
  it('touches neither window nor document, so a server can render pages that import it', async () => {
    expect(typeof window).toBe('undefined');
    expect(typeof document).toBe('undefined');
    const widget = await import('./index.js');
    expect(typeof widget.PayForm).toBe('function');
    expect(typeof widget.PayButton).toBe('function');
  });
});
