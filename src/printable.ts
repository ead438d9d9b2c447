/**
 * Text from outside (a contract's console.log string, a method name a client sent) made safe to
 * print: control characters — which could move the cursor or recolour the user's terminal — are
 * shown as escapes, and the text is cut at `max` characters.
 */
export function printable(text: string, max = 1000): string {
  const safe = text.replace(/[\u0000-\u001f\u007f-\u009f]/g, (c) => (c === '\n' ? '\\n' : c === '\t' ? '\\t' : `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`));
  return safe.length > max ? `${safe.slice(0, max)}… (${safe.length} characters)` : safe;
}
