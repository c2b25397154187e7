/**
 * Built files served from disk (the widget's bundle, the back office's page): each read once and
 * kept, with a content ETag, until its modification time changes (a rebuild).
 */
import { createHash } from 'node:crypto';
import { readFile, stat } from 'node:fs/promises';

export interface CachedFile {
  readonly body: Uint8Array;
  readonly etag: string;
  readonly mtimeMs: number;
}

export class FileCache {
  readonly #files = new Map<string, CachedFile>();

  /** The file, read again only when it changed on disk; undefined when missing. */
  async read(path: string): Promise<CachedFile | undefined> {
    let mtimeMs: number;
    try {
      const info = await stat(path);
      if (!info.isFile()) return undefined;
      mtimeMs = info.mtimeMs;
    } catch {
      return undefined;
    }
    const cached = this.#files.get(path);
    if (cached?.mtimeMs === mtimeMs) return cached;
    const body = new Uint8Array(await readFile(path));
    const file = { body, mtimeMs, etag: `"${createHash('sha256').update(body).digest('base64url').slice(0, 27)}"` };
    this.#files.set(path, file);
    return file;
  }
}
