// Input generation for the fuzz test (src/fuzz.test.ts): a seeded PRNG, a corpus of hostile values
// and a generator of plausible values from the JSON schemas the app publishes in its OpenAPI
// document (the zod schemas of every route, as fastify-type-provider-zod converts them).

/** mulberry32: small, fast and the same sequence for the same seed on every machine. */
export function seededRandom(seed: number) {
  let state = seed >>> 0;
  const next = () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  const int = (n: number) => Math.floor(next() * n);
  return {
    next,
    int,
    chance: (p: number) => next() < p,
    pick: <T>(items: readonly T[]): T => items[int(items.length)],
  };
}
export type Random = ReturnType<typeof seededRandom>;

export interface JsonSchema {
  type?: string | string[];
  properties?: Record<string, JsonSchema>;
  required?: string[];
  additionalProperties?: boolean | JsonSchema;
  items?: JsonSchema;
  anyOf?: JsonSchema[];
  oneOf?: JsonSchema[];
  allOf?: JsonSchema[];
  enum?: unknown[];
  const?: unknown;
  nullable?: boolean;
  format?: string;
  pattern?: string;
  minimum?: number;
  maximum?: number;
  minLength?: number;
  maxLength?: number;
  minItems?: number;
  maxItems?: number;
  default?: unknown;
}

// ---------- hostile values

/** Text that must never reach the database: PostgreSQL refuses it in text and jsonb. */
export const REFUSED_TEXT = ['\u0000', 'a\u0000b', '\ud800', 'x\udc00y', '\udbff', 'ok\ud83d'];

export const HOSTILE_TEXT = [
  '',
  ' ',
  'a'.repeat(100_000),
  'ünïcödé 中文 العربية 😀 \u202e\u200b',
  '\ud83d\ude00'.repeat(300),
  "' or 1=1--",
  "'; drop table app_user; --",
  '" or ""="',
  '1; select pg_sleep(10)',
  '<script>alert(1)</script>',
  '<img src=x onerror=alert(1)>',
  'javascript:alert(1)',
  // biome-ignore lint/suspicious/noTemplateCurlyInString: a template injection probe, sent as it is
  '{{7*7}}${7*7}',
  '../../etc/passwd',
  '..\\..\\windows\\win.ini',
  '/etc/passwd%00.png',
  '%00',
  '%2e%2e%2f',
  '%',
  'NaN',
  'Infinity',
  'null',
  'true',
  '-0',
  '1e309',
  '0x10',
  ' 12',
  '12 ',
  '+5',
  '1.0',
  '2147483648',
  '9999999999',
  '99999999999999999999',
  '-2147483649',
  '1,2147483648',
  '1,2,9999999999',
  '2024-02-30',
  '9999-99-99T99:99',
  'data:text/html;base64,PHNjcmlwdD5hbGVydCgxKTwvc2NyaXB0Pg==',
  'data:image/png;base64,!!!',
  '__proto__',
  'constructor',
  'EMPTY',
  'CURRENT_USER',
];

export const HOSTILE_NUMBERS = [
  0,
  -1,
  1,
  1.5,
  -0.5,
  2147483647,
  2147483648,
  -2147483648,
  -2147483649,
  9999999999,
  Number.MAX_SAFE_INTEGER,
  2 ** 53 + 2,
  1e21,
  1e308,
  -1e308,
  5e-324,
];

const deep = (levels: number): unknown => {
  let value: unknown = 'bottom';
  for (let i = 0; i < levels; i++) value = i % 2 ? [value] : { x: value };
  return value;
};

export const HOSTILE_SHAPES: unknown[] = [
  null,
  true,
  false,
  [],
  {},
  [1, 2, 3],
  ['a', null, {}],
  { a: 1 },
  { id: 1 },
  { id: '1' },
  Array.from({ length: 10_000 }, (_, i) => i + 1),
  Array.from({ length: 10_000 }, () => 'x'),
  Object.fromEntries(Array.from({ length: 2_000 }, (_, i) => [String(i + 1), i])),
  deep(40),
  deep(200),
];

/** Path segments as they would arrive on the wire (already percent-encoded where they say so). */
export const HOSTILE_PATH_SEGMENTS = [
  '0',
  '-1',
  '2147483648',
  '9999999999',
  '99999999999999999999',
  '0x10',
  '1e3',
  '1.0',
  '+5',
  '%2012',
  '12%20',
  '%00',
  '1%00',
  '%ed%a0%80',
  '%ZZ',
  '%252e%252e',
  '..',
  '..%2f..%2fetc%2fpasswd',
  '%2e%2e%2f%2e%2e%2fetc%2fpasswd',
  'abc',
  '%3Cscript%3E',
  "'%20or%201=1--",
  'a'.repeat(3000),
  '%F0%9F%98%80',
];

export function hostileValue(random: Random): unknown {
  const roll = random.next();
  if (roll < 0.45) return random.pick(HOSTILE_TEXT);
  if (roll < 0.7) return random.pick(HOSTILE_NUMBERS);
  return random.pick(HOSTILE_SHAPES);
}

// ---------- plausible values from a schema

/** Ids of the seeded environment by parameter name (environment, defDossier, role...). */
export type IdsByName = (name: string) => number | undefined;

const uuid = (random: Random) =>
  '10000000-1000-4000-8000-100000000000'.replace(/[018]/g, (c) =>
    (Number(c) ^ (random.int(256) & (15 >> (Number(c) / 4)))).toString(16),
  );

function variants(schema: JsonSchema): JsonSchema[] | undefined {
  return schema.anyOf ?? schema.oneOf;
}

/** A value that fits `schema` (mostly): real ids for id-like names, short text, small numbers. */
export function plausible(
  schema: JsonSchema,
  name: string,
  random: Random,
  ids: IdsByName,
  depth = 0,
): unknown {
  if (schema.const !== undefined) return schema.const;
  if (schema.enum?.length) return random.pick(schema.enum);
  const options = variants(schema);
  if (options?.length) return plausible(random.pick(options), name, random, ids, depth);
  if (schema.allOf?.length) return plausible(schema.allOf[0], name, random, ids, depth);
  if (schema.nullable && random.chance(0.1)) return null;
  const type = Array.isArray(schema.type) ? random.pick(schema.type) : schema.type;
  switch (type) {
    case 'integer':
    case 'number': {
      const id = ids(name);
      if (id !== undefined) return id;
      const min = schema.minimum ?? 0;
      const max = Math.min(schema.maximum ?? 100, min + 100);
      return min + random.int(Math.max(1, max - min + 1));
    }
    case 'boolean':
      return random.chance(0.5);
    case 'string': {
      const id = ids(name);
      if (id !== undefined) return String(id);
      if (schema.format === 'uuid') return uuid(random);
      if (schema.format === 'email') return `fuzz${random.int(1000)}@example.com`;
      if (schema.pattern?.startsWith('^#')) return '#ff8800';
      if (schema.pattern?.includes('\\d')) return String(1 + random.int(9));
      if (/culture|locale|code/i.test(name)) return 'en_GB';
      const text = `fuzz ${name} ${random.int(1000)}`;
      return text.slice(0, Math.max(schema.minLength ?? 1, Math.min(schema.maxLength ?? 50, text.length)));
    }
    case 'array': {
      if (depth > 4) return [];
      const count = Math.max(schema.minItems ?? 0, random.int(3));
      return Array.from({ length: Math.min(count, schema.maxItems ?? 3) }, () =>
        plausible(schema.items ?? {}, name, random, ids, depth + 1),
      );
    }
    case 'object': {
      if (depth > 4) return {};
      const out: Record<string, unknown> = {};
      const required = new Set(schema.required ?? []);
      for (const [key, child] of Object.entries(schema.properties ?? {})) {
        if (required.has(key) || random.chance(0.6)) out[key] = plausible(child, key, random, ids, depth + 1);
      }
      if (schema.additionalProperties && random.chance(0.3)) out[`extra_${random.int(100)}`] = 'x';
      return out;
    }
    default:
      return random.chance(0.5) ? `fuzz ${name}` : random.int(10);
  }
}

/** `value` with one place (chosen at random, the root included) replaced by `replacement`. */
export function replaceSomewhere(value: unknown, replacement: unknown, random: Random): unknown {
  if (value === null || typeof value !== 'object' || random.chance(0.15)) return replacement;
  const copy: Record<string, unknown> | unknown[] = Array.isArray(value) ? [...value] : { ...value };
  const keys = Object.keys(copy);
  if (keys.length === 0) return replacement;
  const key = random.pick(keys);
  const slot = copy as Record<string, unknown>;
  slot[key] = random.chance(0.5) ? replacement : replaceSomewhere(slot[key], replacement, random);
  return copy;
}
