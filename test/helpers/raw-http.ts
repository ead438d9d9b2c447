// Plain HTTP requests, for what fetch cannot send (a forged Host header) or should not interpret.
import { request } from 'node:http';

/** A request as given, headers and all (fetch cannot forge a Host header). */
export function rawHttp(
  url: string,
  init: { method: string; path?: string; headers?: Record<string, string>; body?: string },
): Promise<{ status: number; headers: Record<string, unknown>; text: string }> {
  const { hostname, port } = new URL(url);
  return new Promise((resolve, reject) => {
    const req = request({ host: hostname, port, method: init.method, path: init.path ?? '/', headers: init.headers }, (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (c: string) => (text += c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, text }));
    });
    req.on('error', reject);
    req.end(init.body);
  });
}
