/**
 * A connection URL fit for messages and logs: its password replaced by `***`. Database and bus errors
 * name the URL they could not reach, and must not leak the credential in it.
 */
export function maskUrl(url: string): string {
  try {
    const u = new URL(url);
    if (u.password) u.password = '***';
    return u.toString();
  } catch {
    // Not a URL `new URL` reads (pg accepts some): hide whatever stands between `user:` and `@`.
    return url.replace(/(\/\/[^:/@]*:)[^@]*@/, '$1***@');
  }
}
