import { describe, expect, it } from 'vitest';
import { resolveConfig } from '../config.js';
import { originAllowed } from './tokenize.js';

describe('the pages that may call the tokenizer', () => {
  it('are this machine’s when the project names no origins: localhost’s subdomains too, as browsers resolve them', () => {
    const [project] = resolveConfig().projects;
    for (const origin of ['http://localhost:5173', 'http://shop.localhost:5173', 'http://127.0.0.1:8000', 'http://[::1]:3000', 'http://localhost']) {
      expect(originAllowed(project!, origin), origin).toBe(true);
    }
    for (const origin of ['http://localhost.example.com', 'https://localhost:5173', 'http://127.0.0.2:80', 'http://shop.example', 'null']) {
      expect(originAllowed(project!, origin), origin).toBe(false);
    }
  });

  it('are the project’s origins only when it names some', () => {
    const [project] = resolveConfig({ projects: [{ widgetOrigins: ['https://shop.example'] }] }).projects;
    expect(originAllowed(project!, 'https://shop.example')).toBe(true);
    expect(originAllowed(project!, 'http://localhost:5173')).toBe(false);
  });
});
