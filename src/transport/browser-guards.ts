// The browser guards of the HTTP transport: which Host headers are served (against DNS rebinding) and
// which page origins may call the node through CORS.

export const DEFAULT_ALLOWED_HOSTS: readonly string[] = ['localhost', '127.0.0.1', '[::1]'];
/**
 * Browser origins allowed by default: pages served from this machine, browser extensions (the
 * wallets: MetaMask and the others), and Remix, the browser IDE. `:*` means "any port, or none";
 * `scheme://*` any origin of that scheme (an extension's origin is its id). Any other web page is
 * refused: a page may reach JSON-RPC only through a CORS preflight (JSON is not a content type a
 * form or a simple request can send, and other types are answered 415), which this list gates.
 */
export const DEFAULT_CORS_ORIGINS: readonly string[] = [
  ...['http', 'https'].flatMap((s) => ['localhost', '127.0.0.1', '[::1]'].map((h) => `${s}://${h}:*`)),
  'chrome-extension://*',
  'moz-extension://*',
  'safari-web-extension://*',
  ...['remix', 'remix-alpha', 'remix-beta'].flatMap((name) => [`https://${name}.ethereum.org`, `http://${name}.ethereum.org`]),
];

const stripBrackets = (h: string): string => h.replace(/^\[(.*)\]$/, '$1');

/** Hostname of a Host header, lowercased, without port or IPv6 brackets. */
export function hostnameOf(hostHeader: string): string {
  const h = hostHeader.trim().toLowerCase();
  if (h.startsWith('[')) return stripBrackets(h.slice(0, h.indexOf(']') + 1));
  const colon = h.indexOf(':');
  return colon === -1 ? h : h.slice(0, colon);
}

/**
 * DNS-rebinding guard: a hostile page can point its own name at 127.0.0.1, but cannot fake Host.
 * The allowed names are normalised once; a client sends the same Host with every request, so the
 * last verdict is kept.
 */
export function hostPolicy(allowed: readonly string[]): (hostHeader: string | undefined) => boolean {
  const anyHost = allowed.includes('*');
  const names = new Set(allowed.map((a) => stripBrackets(a.trim().toLowerCase())));
  let last: { header: string; allowed: boolean } | undefined;
  return (hostHeader) => {
    if (anyHost) return true;
    if (!hostHeader) return false;
    if (last?.header !== hostHeader) last = { header: hostHeader, allowed: names.has(hostnameOf(hostHeader)) };
    return last.allowed;
  };
}

function originMatches(origin: URL, entry: string): boolean {
  if (entry.endsWith('://*')) return origin.protocol === entry.slice(0, -3);
  const anyPort = entry.endsWith(':*');
  let pattern: URL;
  try {
    pattern = new URL(anyPort ? entry.slice(0, -2) : entry);
  } catch {
    return false;
  }
  if (anyPort) return pattern.protocol === origin.protocol && pattern.hostname === origin.hostname;
  return pattern.origin === origin.origin;
}

/**
 * No Origin header means a non-browser client, which CORS does not concern. A same-origin
 * request (Origin host equals the already-vetted Host) is always fine — e.g. a page served by
 * this very server on a LAN address.
 */
export function isOriginAllowed(origin: string | undefined, allowed: readonly string[], hostHeader?: string): boolean {
  if (origin === undefined) return true;
  if (allowed.includes('*')) return true;
  let url: URL;
  try {
    url = new URL(origin); // "null" (file://, sandboxed frames) throws and is refused
  } catch {
    return false;
  }
  if (hostHeader && url.protocol === 'http:' && url.host === hostHeader.trim().toLowerCase()) return true;
  return allowed.some((entry) => originMatches(url, entry.trim().toLowerCase()));
}
