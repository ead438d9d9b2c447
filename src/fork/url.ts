/**
 * A fork URL as logs, the banner and anvil_nodeInfo may show it: scheme, host and port only.
 * Providers put their keys in the user info, the path (`/v2/KEY`) or the query, so none of those
 * is shown; a path is marked as left out.
 */
export function publicUrl(url: string): string {
  try {
    const parsed = new URL(url);
    const hidden = parsed.pathname !== '/' || parsed.search !== '' || parsed.username !== '' ? '/…' : '';
    return `${parsed.protocol}//${parsed.host}${hidden}`;
  } catch {
    return '(an unparsable URL)';
  }
}
