// How k6 writes a local path into an archive: a home folder's user name made `nobody` (/misc/archive/, "What an archive
// file does not contain": "We anonymize the username found in any path to JS and data file dependencies"). Apart from
// archive.ts so a worker thread's open() reads it without loading the archive writer.

/** A home folder's user name made `nobody`, as k6 anonymizes the paths of an archive. */
export function anonymized(path: string): string {
  return path.replace(/\\/g, '/').replace(/^(\/[a-zA-Z])?\/(Users|home|Documents and Settings)\/[^/]+/i, '$1/$2/nobody');
}
