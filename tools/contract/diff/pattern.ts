// Comparing two `pattern`s. Regular-language inclusion in general is out of scope; what contracts change in practice is
// a bound or a character class of an anchored sequence (`^0x[0-9a-f]{1,64}$` → `^0x[0-9a-f]{1,16}$`). Patterns of
// that shape — literals, escapes and classes, each with a quantifier, no groups or alternation — are compared atom by
// atom, which is sound: if every atom of one accepts no more than the atom at the same place in the other, so does the
// whole. Anything else is `unknown`.

export type PatternRelation = 'equal' | 'narrower' | 'wider' | 'unknown';

interface Atom {
  /** ASCII code points the atom matches. */
  chars: Set<number>;
  min: number;
  max: number;
}

const ASCII = 128;
const range = (from: string, to: string): number[] => {
  const out: number[] = [];
  for (let c = from.charCodeAt(0); c <= to.charCodeAt(0); c++) out.push(c);
  return out;
};
const DIGITS = range('0', '9');
const WORD = [...DIGITS, ...range('A', 'Z'), ...range('a', 'z'), '_'.charCodeAt(0)];
const SPACE = [9, 10, 11, 12, 13, 32];
const ESCAPES: Record<string, number[]> = { d: DIGITS, w: WORD, s: SPACE };

/** The atoms of an anchored, group-free pattern, or undefined when it is not of that shape. */
function parse(pattern: string): Atom[] | undefined {
  if (!pattern.startsWith('^') || !pattern.endsWith('$') || pattern.endsWith('\\$')) return undefined;
  const src = pattern.slice(1, -1);
  const atoms: Atom[] = [];
  let i = 0;
  while (i < src.length) {
    let chars: number[];
    const c = src[i]!;
    if (c === '[') {
      const end = src.indexOf(']', i + 1);
      if (end < 0 || src[i + 1] === '^') return undefined;
      const body = src.slice(i + 1, end);
      chars = [];
      for (let j = 0; j < body.length; j++) {
        let from = body[j]!;
        if (from === '\\') {
          const esc = ESCAPES[body[j + 1] ?? ''];
          if (esc) {
            chars.push(...esc);
            j++;
            continue;
          }
          from = body[++j] ?? '';
          if (!/^[\\\]\[.\-^$]$/.test(from)) return undefined;
        }
        if (body[j + 1] === '-' && j + 2 < body.length) {
          const to = body[j + 2]!;
          if (to === '\\' || to < from) return undefined;
          chars.push(...range(from, to));
          j += 2;
        } else {
          chars.push(from.charCodeAt(0));
        }
      }
      i = end + 1;
    } else if (c === '\\') {
      const next = src[i + 1] ?? '';
      const esc = ESCAPES[next];
      if (esc) chars = esc;
      else if (/^[.\\+*?()[\]{}|^$\/-]$/.test(next)) chars = [next.charCodeAt(0)];
      else return undefined;
      i += 2;
    } else if ('()|.*+?{}'.includes(c)) {
      return undefined;
    } else {
      chars = [c.charCodeAt(0)];
      i++;
    }
    if (chars.some((x) => x >= ASCII)) return undefined;
    let min = 1;
    let max = 1;
    const q = src[i];
    if (q === '?' || q === '*' || q === '+') {
      [min, max] = q === '?' ? [0, 1] : q === '*' ? [0, Infinity] : [1, Infinity];
      i++;
    } else if (q === '{') {
      const m = /^\{(\d+)(,(\d*))?\}/.exec(src.slice(i));
      if (!m) return undefined;
      min = Number(m[1]);
      max = m[2] === undefined ? min : m[3] === '' ? Infinity : Number(m[3]);
      i += m[0].length;
    }
    if (src[i] === '?' || src[i] === '+') return undefined; // lazy or possessive quantifiers
    atoms.push({ chars: new Set(chars), min, max });
  }
  return atoms;
}

const subset = (a: Set<number>, b: Set<number>): boolean => [...a].every((x) => b.has(x));

/** Whether atom `a` matches no more than atom `b`. */
function within(a: Atom, b: Atom): boolean {
  return subset(a.chars, b.chars) && a.min >= b.min && a.max <= b.max;
}

/** How the strings `head` matches relate to those `base` matches. */
export function comparePatterns(base: string, head: string): PatternRelation {
  if (base === head) return 'equal';
  const a = parse(base);
  const b = parse(head);
  if (!a || !b || a.length !== b.length) return 'unknown';
  const narrower = a.every((x, i) => within(b[i]!, x));
  const wider = a.every((x, i) => within(x, b[i]!));
  if (narrower && wider) return 'equal';
  return narrower ? 'narrower' : wider ? 'wider' : 'unknown';
}
