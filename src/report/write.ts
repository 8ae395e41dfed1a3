import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { redact } from '../profile/redact.js';

/**
 * Writes report files, every one passed through the redactor: whatever a body or an error carried,
 * no secret value reaches disk.
 */
export function writeReportFiles(dir: string, files: Record<string, string>, secrets: readonly string[]): string[] {
  mkdirSync(dir, { recursive: true });
  return Object.entries(files).map(([name, content]) => {
    const path = join(dir, name);
    writeFileSync(path, redact(content, secrets));
    return path;
  });
}
