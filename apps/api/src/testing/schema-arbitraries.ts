import fc from 'fast-check';

/** The part of JSON Schema (2020-12, as OpenAPI 3.1 uses it) the API document's inputs are written in. */
export type JsonSchema = {
  $ref?: string;
  type?: string | string[];
  enum?: unknown[];
  const?: unknown;
  anyOf?: JsonSchema[];
  oneOf?: JsonSchema[];
  format?: string;
  pattern?: string;
  minLength?: number;
  maxLength?: number;
  minimum?: number;
  maximum?: number;
  items?: JsonSchema;
  minItems?: number;
  maxItems?: number;
  properties?: Record<string, JsonSchema>;
  required?: string[];
  additionalProperties?: boolean | JsonSchema;
  propertyNames?: JsonSchema;
};

/** A parameter or field left out of the request. */
export const OMIT = Symbol('omitted');

/** A path segment sent exactly as written, not percent-encoded (bad escapes, dot segments …). */
export type RawSegment = { raw: string };
export const isRawSegment = (value: unknown): value is RawSegment =>
  typeof value === 'object' && value !== null && 'raw' in value && Object.keys(value).length === 1;

/** Characters a reader sees, all in the BMP (so JavaScript's length and JSON Schema's agree). */
const VISIBLE = [
  ...'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-_.,?!:;()',
  ...'éßçøΩЖقع日本語한',
];
const visibleChar = fc.constantFrom(...VISIBLE);

/** Text of visible characters only, `min`–`max` long. */
const visibleText = (min: number, max: number) =>
  fc.string({ unit: visibleChar, minLength: min, maxLength: max });

const email = fc
  .tuple(
    fc.stringMatching(/^[a-z0-9]{1,16}$/),
    fc.constantFrom('example.com', 'example.org', 'mail.example.net'),
  )
  .map(([local, domain]) => `${local}@${domain}`);

/** Junk any field may be sent instead of its value: every JSON type, and strings that break parsers. */
const JUNK: unknown[] = [
  null,
  true,
  false,
  0,
  -1,
  1.5,
  -0.0001,
  1e308,
  -1e308,
  2 ** 53,
  2 ** 64,
  Number.MIN_VALUE,
  '',
  ' ',
  '\u200b\u202e',
  '\u00a0\u2800\u3164',
  '\t\r\n',
  '\u0000',
  'a\u0000b',
  'NaN',
  'Infinity',
  '-Infinity',
  '-0',
  '1e3',
  '0x10',
  ' 1 ',
  '١٢٣',
  'null',
  'undefined',
  '[]',
  '{}',
  '<script>alert(1)</script>',
  "' OR '1'='1",
  '../../etc/passwd',
  '%00',
  '%zz',
  '𝕏😀',
  '\ud800',
  '\ufeff',
  [],
  [1, 'a', null],
  {},
  { nested: { deeper: { deepest: [null, { x: 1 }] } } },
];

/** Malformed UUIDs, and valid-looking ones of versions the document's pattern refuses. */
const BAD_UUIDS = [
  'not-a-uuid',
  '1',
  '00000000-0000-0000-0000-00000000000g',
  '00000000000040008000000000000000',
  '{00000000-0000-4000-8000-000000000000}',
  '00000000-0000-4000-8000-0000000000000',
  '00000000-0000-0000-8000-000000000000',
  '00000000-0000-9000-8000-000000000000',
  '00000000-0000-4000-c000-000000000000',
  ' 00000000-0000-4000-8000-000000000000',
  '00000000-0000-4000-8000-000000000000\u0000',
  '00000000-0000-4000-8000-00000000000\u200b',
  'urn:uuid:00000000-0000-4000-8000-000000000000',
];

const BAD_EMAILS = [
  'a@',
  '@example.com',
  'a@b',
  'a b@example.com',
  'a@@example.com',
  '.a@example.com',
  'a@example..com',
  `${'x'.repeat(250)}@example.com`,
  'é@例え.jp',
  'a@example.com\u0000',
  'A@EXAMPLE.COM ',
];

/** Path segments sent raw: what a client can put in a URL that a router must not trip over. */
const RAW_SEGMENTS: RawSegment[] = [
  '%',
  '%zz',
  '%E0%A4%A',
  '%00',
  '%2e%2e',
  '..',
  '.',
  'a%2Fb',
  'a/b',
  '%20',
  '%C0%AF',
  ';x=1',
].map((raw) => ({ raw }));

const fromList = <T>(values: readonly T[]) => fc.constantFrom(...values);

/**
 * fast-check arbitraries read off the JSON Schemas of an API document: values that satisfy a schema, values
 * at and just past its bounds, and values that break it in every way a client can (wrong type, null, empty,
 * invisible-only, NUL, over-long, out of range, not an integer, bad enum, malformed UUID, too many items,
 * unknown or broken nested fields). `resolve` follows `$ref`s into the document's components.
 */
export function schemaArbitraries(resolve: (ref: string) => JsonSchema) {
  const deref = (schema: JsonSchema): JsonSchema => (schema.$ref ? deref(resolve(schema.$ref)) : schema);
  const branches = (schema: JsonSchema) => schema.anyOf ?? schema.oneOf;
  const typeOf = (schema: JsonSchema) => (Array.isArray(schema.type) ? schema.type[0] : schema.type);

  const integerIn = (schema: JsonSchema) => {
    const min = schema.minimum ?? -(2 ** 31);
    const max = schema.maximum ?? 2 ** 31 - 1;
    // Mostly small values, so a page or a limit is one that has rows; the whole range too.
    const small = fc.integer({ min: Math.max(min, -100), max: Math.min(max, Math.max(min, -100) + 200) });
    return fc.oneof({ weight: 4, arbitrary: small }, { weight: 1, arbitrary: fc.integer({ min, max }) });
  };

  /** A string the schema's pattern accepts when made of `char` repeated, for length boundaries. */
  const fillerFor = (schema: JsonSchema) => {
    const pattern = schema.pattern ? new RegExp(schema.pattern) : null;
    return (
      ['a', '9', 'x'].find((char) => !pattern || pattern.test(char.repeat(schema.minLength ?? 1))) ?? 'a'
    );
  };

  function valid(input: JsonSchema): fc.Arbitrary<unknown> {
    const schema = deref(input);
    if (schema.const !== undefined) return fc.constant(schema.const);
    if (schema.enum) return fromList(schema.enum);
    const options = branches(schema);
    if (options) return fc.oneof(...options.map(valid));
    if (Array.isArray(schema.type)) return fc.oneof(...schema.type.map((type) => valid({ ...schema, type })));
    switch (schema.type) {
      case 'null':
        return fc.constant(null);
      case 'boolean':
        return fc.boolean();
      case 'integer':
        return integerIn(schema);
      case 'number':
        return fc.double({
          min: schema.minimum ?? -1e6,
          max: schema.maximum ?? 1e6,
          noNaN: true,
          noDefaultInfinity: true,
        });
      case 'string':
        return validString(schema);
      case 'array': {
        const minLength = schema.minItems ?? 0;
        const maxLength = Math.min(schema.maxItems ?? minLength + 3, minLength + 3);
        return fc.array(valid(schema.items ?? {}), { minLength, maxLength });
      }
      case 'object':
        return validObject(schema);
      default:
        return fc.jsonValue({ maxDepth: 2 });
    }
  }

  function validString(schema: JsonSchema): fc.Arbitrary<string> {
    if (schema.format === 'uuid') return fc.uuid({ version: 4 });
    if (schema.format === 'email') return email;
    if (schema.format === 'date-time') {
      return fc
        .date({ min: new Date('2000-01-01'), max: new Date('2100-01-01'), noInvalidDate: true })
        .map((date) => date.toISOString());
    }
    const min = schema.minLength ?? 0;
    const max = Math.min(schema.maxLength ?? min + 40, min + 40);
    if (schema.pattern) {
      const pattern = new RegExp(schema.pattern);
      return fc
        .stringMatching(pattern)
        .map((text) => text.slice(0, schema.maxLength ?? text.length))
        .filter((text) => pattern.test(text) && text.length >= min);
    }
    return visibleText(min, max);
  }

  function validObject(schema: JsonSchema): fc.Arbitrary<Record<string, unknown>> {
    const properties = Object.entries(schema.properties ?? {});
    const extra = schema.additionalProperties;
    if (properties.length === 0 && typeof extra === 'object') {
      const keys = schema.propertyNames?.enum
        ? fromList(schema.propertyNames.enum as string[])
        : visibleText(1, 12);
      return fc.dictionary(keys, valid(extra), { maxKeys: 3 });
    }
    const required = new Set(schema.required ?? []);
    return fc.record(Object.fromEntries(properties.map(([name, child]) => [name, valid(child)])), {
      requiredKeys: properties.map(([name]) => name).filter((name) => required.has(name)),
    });
  }

  /** One valid value, the same every time: the base a boundary value is put into. */
  const sampleValid = (schema: JsonSchema): unknown => fc.sample(valid(schema), { numRuns: 1, seed: 7 })[0];

  /**
   * Every value at the schema's bounds and one step inside and past them: string lengths (of a character
   * the pattern accepts), numeric ranges, item counts, the extreme UUIDs; for an object, each of its fields
   * at each of its bounds in an otherwise valid object. Enums, booleans and unbounded values have none.
   */
  function boundaryValues(input: JsonSchema): unknown[] {
    const schema = deref(input);
    const options = branches(schema);
    if (options) return options.flatMap(boundaryValues);
    if (schema.enum || schema.const !== undefined) return [];
    const steps = (bounds: (number | undefined)[], floor = -Infinity) => [
      ...new Set(
        bounds
          .filter((n) => n !== undefined)
          .flatMap((n) => [n - 1, n, n + 1])
          .filter((n) => n >= floor),
      ),
    ];
    const type = typeOf(schema);
    if (type === 'string') {
      if (schema.format === 'uuid') {
        return [
          '00000000-0000-0000-0000-000000000000',
          'ffffffff-ffff-ffff-ffff-ffffffffffff',
          'FFFFFFFF-FFFF-4FFF-BFFF-FFFFFFFFFFFF',
        ];
      }
      const filler = fillerFor(schema);
      return steps([schema.minLength, schema.maxLength], 0).map((n) => filler.repeat(n));
    }
    if (type === 'integer' || type === 'number') return steps([schema.minimum, schema.maximum]);
    if (type === 'array') {
      const item = schema.items ?? {};
      return steps([schema.minItems, schema.maxItems], 0).map((n) =>
        n === 0 ? [] : fc.sample(valid(item), { numRuns: n, seed: 7 }),
      );
    }
    if (type === 'object') {
      const base = sampleValid(schema) as Record<string, unknown>;
      return Object.entries(schema.properties ?? {}).flatMap(([name, child]) =>
        boundaryValues(child).map((value) => ({ ...base, [name]: value })),
      );
    }
    return [];
  }

  /** Values at the schema's bounds and one step past them (valid values where it has no bounds). */
  function boundary(input: JsonSchema): fc.Arbitrary<unknown> {
    const values = boundaryValues(input);
    return values.length > 0 ? fromList(values) : valid(input);
  }

  /** A valid object whose one field (or nested field) is replaced by what `mutate` makes of it. */
  function objectWithOneField(
    schema: JsonSchema,
    mutate: (schema: JsonSchema) => fc.Arbitrary<unknown>,
  ): fc.Arbitrary<unknown> {
    const properties = Object.entries(schema.properties ?? {});
    if (properties.length === 0) return valid(schema);
    return fc.tuple(validObject(schema), fc.nat(properties.length - 1)).chain(([object, index]) => {
      const [name, child] = properties[index] as [string, JsonSchema];
      return mutate(child).map((value) => ({ ...object, [name]: value }));
    });
  }

  /** Values the schema refuses, of every kind a client can send. */
  function invalid(input: JsonSchema): fc.Arbitrary<unknown> {
    const schema = deref(input);
    const own: fc.Arbitrary<unknown>[] = [];
    const type = typeOf(schema);
    const nullable =
      [schema.type].flat().includes('null') || branches(schema)?.some((b) => deref(b).type === 'null');
    const options = branches(schema)
      ?.map(deref)
      .filter((b) => b.type !== 'null');
    if (options && options.length > 0) own.push(fc.oneof(...options.map(invalid)));
    if (schema.enum) {
      const values = schema.enum.filter((v): v is string => typeof v === 'string');
      if (values.length > 0) {
        own.push(
          fromList(values).chain((value) =>
            fromList([
              value.toUpperCase(),
              `${value} `,
              ` ${value}`,
              `${value}\u0000`,
              `${value}x`,
              value.slice(1),
            ]),
          ),
          fc.constant('unknown'),
        );
      }
    } else if (type === 'string') {
      const min = schema.minLength ?? 0;
      const max = schema.maxLength ?? 200;
      own.push(
        fc.constant('\u200b\u202e'),
        fc.constant('\u200b'.repeat(Math.max(min, 1))),
        fc.constant(' '.repeat(Math.max(min, 1))),
        validString(schema).map((text) => `${text.slice(0, 1)}\u0000${text.slice(1)}`),
        fc.integer({ min: 1, max: 50 }).map((extra) => fillerFor(schema).repeat(max + extra)),
        fc.constant('y'.repeat(Math.max(max * 10, 10_000))),
      );
      if (schema.format === 'uuid') {
        own.push(
          fromList(BAD_UUIDS),
          fc.uuid({ version: 4 }).map((uuid) => uuid.replace(/-/g, '')),
          fc.uuid({ version: 4 }).map((uuid) => `${uuid}0`),
          fc.uuid({ version: 4 }).map((uuid) => uuid.slice(1)),
        );
      }
      if (schema.format === 'email') own.push(fromList(BAD_EMAILS));
      if (schema.pattern)
        own.push(fc.string({ maxLength: 30 }).filter((text) => !new RegExp(schema.pattern ?? '').test(text)));
    } else if (type === 'integer' || type === 'number') {
      const min = schema.minimum ?? -(2 ** 31);
      const max = schema.maximum ?? 2 ** 31 - 1;
      own.push(
        fromList([
          min - 1,
          max + 1,
          -1,
          -(2 ** 63),
          2 ** 63,
          1e21,
          -1e21,
          Number.MAX_VALUE,
          -Number.MAX_VALUE,
        ]),
        fromList(['1', '12abc', '1.0', '', ' 1', 'NaN', 'Infinity', '0x1f', '1e2']),
      );
      if (type === 'integer')
        own.push(fc.double({ min: -1e6, max: 1e6, noNaN: true }).filter((n) => !Number.isInteger(n)));
    } else if (type === 'boolean') {
      own.push(fromList(['true', 'false', 1, 0, 'yes', 'on']));
    } else if (type === 'array') {
      const item = schema.items ?? {};
      const max = schema.maxItems ?? 20;
      own.push(
        fc.array(valid(item), { minLength: max + 1, maxLength: max + 5 }),
        fc.array(invalid(item), { minLength: 1, maxLength: 3 }),
        fc.array(fc.array(valid(item), { maxLength: 2 }), { minLength: 1, maxLength: 2 }),
      );
      if (schema.minItems) own.push(fc.array(valid(item), { maxLength: schema.minItems - 1 }));
    } else if (type === 'object') {
      own.push(
        objectWithOneField(schema, invalid),
        fc
          .tuple(validObject(schema), visibleText(1, 12), fc.jsonValue({ maxDepth: 2 }))
          .map(([object, key, value]) => ({
            ...object,
            [`unknown_${key}`]: value,
          })),
        validObject(schema).map((object) => ({ ...object, '\u0000': 1 })),
        validObject(schema).map((object) => [object]),
      );
      const extra = schema.additionalProperties;
      if (typeof extra === 'object') {
        own.push(
          fc.dictionary(visibleText(1, 12), valid(extra), { minKeys: 1, maxKeys: 2 }),
          fc.dictionary(
            schema.propertyNames?.enum ? fromList(schema.propertyNames.enum as string[]) : visibleText(1, 12),
            invalid(extra),
            { minKeys: 1, maxKeys: 2 },
          ),
        );
      }
    }
    const junk = fromList(nullable ? JUNK.filter((value) => value !== null) : JUNK);
    return own.length > 0 ? fc.oneof({ weight: 1, arbitrary: junk }, ...own) : junk;
  }

  return {
    valid,
    sampleValid,
    boundary,
    boundaryValues,
    invalid,
    /** What can stand in a path segment beyond values: raw bad escapes, dot segments, slashes. */
    rawSegment: fromList(RAW_SEGMENTS),
  };
}
