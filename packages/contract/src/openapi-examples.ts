/*
 * Examples of the OpenAPI document: one per request body and per 200 answer, generated from the
 * JSON Schema the document publishes, so they follow the contract without being kept by hand.
 * A JSON Schema does not carry every rule of its zod schema (refinements, cross-field rules), so
 * some endpoints patch the generated value (EXAMPLE_PATCHES); the contract test parses every
 * example with the endpoint's own zod schema, and the OpenAPI lint checks it against the
 * published JSON Schema.
 */

/** A JSON Schema node as z.toJSONSchema writes it. */
type JsonSchema = { readonly [key: string]: unknown };

const EXAMPLE_DATE = '2026-01-15T09:30:00.000Z';
const EXAMPLE_UUID = '3f2b8c1e-7d4a-4e6b-9c2d-1a5e8f0b7c3d';

/**
 * String values chosen by property name, first match wins: a readable example says more than
 * "string", and several names carry a format the JSON Schema does not state (dates, emails).
 */
const STRING_BY_NAME: ReadonlyArray<readonly [RegExp, string]> = [
  [/^(uid|uID|userId|Uid|exceptUid)$/, EXAMPLE_UUID],
  [/email/i, 'ada@example.com'],
  [/(date|At|Since|From)$/i, EXAMPLE_DATE],
  [/url$/i, 'https://www.example.com'],
  // the password rule: a lowercase, an uppercase, a digit and one of !@#$%^&*
  [/password/i, 'Correct#Horse7'],
  [/^xtoken$/, 'b1c2d3e4f5a6b7c8d9e0f1a2b3c4d5e6'],
  [/^xsign$/, '9f8e7d6c5b4a39281706f5e4d3c2b1a0'],
  [/token$/i, 'c2lnbmVkLWxpbmstdG9rZW4'],
  [/^(appname|AppName|SiteName|sitename)$/, 'acme-shop'],
  [/^ApiKey$/i, '6a1f0e2d-5c4b-4a39-8e7d-2b1c0f9e8d7a'],
  [/^ApiSecret$/i, 'e8d7c6b5-a4f3-4e2d-9c1b-0a9f8e7d6c5b'],
  [/^(FullName|Name|customerName|RequestedBy|Initiator)$/, 'Ada Lovelace'],
  [/^(FirstName|firstname)$/, 'Ada'],
  [/^(LastName|lastname)$/, 'Lovelace'],
  [/^(Organization|organization)$/, 'Analytical Engines Ltd'],
  [/phone/i, '2025550143'],
  [/^(TimeZone|timezone)$/, 'Europe/London'],
  [/^(Domain|domain|HubDomain)$/, 'login.example.com'],
  [/^(Description|Message|Comments|Reason|Details)$/, 'Please help us set up single sign-on.'],
  [/^RequestId$/, 'req-7f3a'],
  [/(Address)$/, '203.0.113.7'],
  [/^SecurityReportTime$/, '08:00'],
  // a one-time code of an authenticator app; the second step's ticket (base64url)
  [/^Code$/, '492039'],
  [/^Ticket$/, 'c2Vjb25kLXN0ZXAtdGlja2V0LWV4YW1wbGU'],
  // custom objects: a JSON Schema and a sample object, both as JSON text
  [/^Schema$/, '{"type":"object","properties":{"sku":{"type":"string"}},"required":["sku"]}'],
  [/^Sample$/, '{"sku":"A-100"}'],
];

/**
 * The value a string schema gets: by format, then by the property's name, then a word; a named
 * value that misses the schema's pattern falls back to the word, which fits the identifier
 * patterns of the contract.
 */
function stringExample(schema: JsonSchema, key: string): string {
  let value: string;
  if (schema.format === 'uuid') value = EXAMPLE_UUID;
  else if (schema.format === 'uri' || schema.format === 'url') value = 'https://www.example.com';
  else if (schema.format === 'email') value = 'ada@example.com';
  else if (schema.format === 'date-time') value = EXAMPLE_DATE;
  else value = STRING_BY_NAME.find(([re]) => re.test(key))?.[1] ?? 'example';
  if (typeof schema.pattern === 'string' && !new RegExp(schema.pattern, 'u').test(value)) value = 'example';
  const min = typeof schema.minLength === 'number' ? schema.minLength : 0;
  const max = typeof schema.maxLength === 'number' ? schema.maxLength : Number.POSITIVE_INFINITY;
  if (value.length < min) value = value.padEnd(min, 'x');
  return value.slice(0, max);
}

/** A small number within the schema's bounds (zod's integers carry the safe-integer range). */
function numberExample(schema: JsonSchema): number {
  const min =
    typeof schema.minimum === 'number'
      ? schema.minimum
      : typeof schema.exclusiveMinimum === 'number'
        ? schema.exclusiveMinimum + 1
        : Number.NEGATIVE_INFINITY;
  const max = typeof schema.maximum === 'number' ? schema.maximum : Number.POSITIVE_INFINITY;
  return Math.min(Math.max(1, min), max);
}

const isObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);

/**
 * A value that the schema accepts, built from its parts: a const or the first enum value, the
 * default, the first variant that is not null, every property (optional ones too, so the example
 * shows the whole shape), one item of an array (or its minimum count). `key` is the property name
 * the schema sits under, for the string table.
 */
export function exampleOf(schema: JsonSchema, key = '', root: JsonSchema = schema, depth = 0): unknown {
  if (depth > 12) return null;
  const next = (s: unknown, k = key) => exampleOf(isObject(s) ? s : {}, k, root, depth + 1);
  if (typeof schema.$ref === 'string') {
    // z.toJSONSchema refers only inside the document: '#' or '#/$defs/<name>'
    const target =
      schema.$ref === '#' ? root : (root.$defs as JsonSchema | undefined)?.[schema.$ref.slice(8)];
    return next(target);
  }
  if ('const' in schema) return schema.const;
  if (Array.isArray(schema.enum)) return schema.enum[0];
  if (schema.default !== undefined) return schema.default;
  const variants = (schema.oneOf ?? schema.anyOf) as JsonSchema[] | undefined;
  if (Array.isArray(variants)) return next(variants.find((v) => v.type !== 'null') ?? variants[0]);
  if (Array.isArray(schema.allOf)) {
    return Object.assign({}, ...schema.allOf.map((s) => next(s)).filter(isObject));
  }
  const types = Array.isArray(schema.type) ? schema.type : [schema.type];
  const type = types.find((t) => t !== 'null') ?? types[0];
  switch (type) {
    case 'object': {
      const properties = isObject(schema.properties) ? schema.properties : {};
      return Object.fromEntries(Object.entries(properties).map(([k, s]) => [k, next(s, k)]));
    }
    case 'array': {
      if (Array.isArray(schema.prefixItems)) return schema.prefixItems.map((s) => next(s));
      const count = Math.max(1, typeof schema.minItems === 'number' ? schema.minItems : 1);
      const max = typeof schema.maxItems === 'number' ? schema.maxItems : count;
      return Array.from({ length: Math.min(count, max) }, () => next(schema.items));
    }
    case 'string':
      return stringExample(schema, key);
    case 'integer':
    case 'number':
      return numberExample(schema);
    case 'boolean':
      return true;
    case 'null':
      return null;
    default:
      // no type: any value, so an empty object
      return {};
  }
}

/**
 * Merges a patch into a generated example: objects key by key, anything else replaced; a key
 * patched to undefined is removed (the JSON Schema lists every optional field, and some rules
 * allow only one of two).
 */
function patched(value: unknown, patch: unknown): unknown {
  if (patch === undefined) return value;
  if (!isObject(value) || !isObject(patch)) return patch;
  const out: Record<string, unknown> = { ...value };
  for (const [k, p] of Object.entries(patch)) {
    if (p === undefined) delete out[k];
    else out[k] = patched(out[k], p);
  }
  return out;
}

interface ExamplePatch {
  readonly body?: unknown;
  readonly response?: unknown;
}

/**
 * Where a generated example would break a rule that the JSON Schema does not state, by endpoint
 * id. The contract test names the endpoint and the rule when one is missing.
 */
const EXAMPLE_PATCHES: Readonly<Record<string, ExamplePatch>> = {
  // a plan change: the Free plan has no trial
  updateSiteBasicSettings: { body: { data: { Plan: 'Developer', TrialDays: 14 } } },
  // a feature set or another site's features, not both
  updateSiteFeatures: { body: { FeatureSet: 'Developer Premium', FromAppId: undefined } },
  // One session, or all the others: not both.
  endMySessions: { body: { Id: 42, AllOthers: undefined } },
  // some notifications, or all: not both
  staffNotificationsRead: { body: { Ids: [42], All: undefined } },
  // the second step with a one-time code (the first of its three methods)
  loginSecondStep: { body: { Method: 'totp', Code: '492039' } },
  // a CI job's token, from the office network only
  apiTokenCreate: {
    body: { Name: 'CI deploys', AllowedAddresses: ['203.0.113.0/24', '2001:db8::/32'], OwnerUid: undefined },
  },
  addressAllowlistSave: { body: { Entries: ['203.0.113.0/24', '2001:db8::/32'] } },
};

/** The example request body (when the endpoint takes one) and 200 answer of an endpoint. */
export function endpointExamples(
  id: string,
  schemas: { readonly body?: JsonSchema; readonly response?: JsonSchema },
): { body?: unknown; response?: unknown } {
  const patch = EXAMPLE_PATCHES[id] ?? {};
  return {
    ...(schemas.body ? { body: patched(exampleOf(schemas.body), patch.body) } : {}),
    ...(schemas.response ? { response: patched(exampleOf(schemas.response), patch.response) } : {}),
  };
}
