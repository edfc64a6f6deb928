import { z } from 'zod';
import { JSON_LIMIT_MESSAGES, PATTERN_MAX_CHARS } from './json-limits.ts';
import { decimalInteger } from './validation.ts';

/**
 * Registration field rules in the pipe form identity platforms use:
 * `required|min_length[2]|valid_email|custom_validation[regex###message]`.
 */
const FIELD_RULES = {
  required: 'none',
  valid_email: 'none',
  numeric: 'none',
  alpha: 'none',
  alpha_numeric: 'none',
  alpha_dash: 'none',
  valid_url: 'none',
  min_length: 'int',
  max_length: 'int',
  exact_length: 'int',
  matches: 'field',
  custom_validation: 'regex',
} as const;
type RuleName = keyof typeof FIELD_RULES;

export interface ParsedRule {
  name: RuleName;
  arg?: string;
}

/** Parses a rule string; answers the rules, or the first problem in plain words. */
export function parseFieldRules(text: string): { rules: ParsedRule[] } | { error: string } {
  if (text.trim() === '') return { rules: [] };
  const rules: ParsedRule[] = [];
  // custom_validation's regex may contain '|': split only on pipes outside [ ]
  const parts: string[] = [];
  let depth = 0;
  let current = '';
  for (const ch of text) {
    if (ch === '[') depth++;
    if (ch === ']') depth = Math.max(0, depth - 1);
    if (ch === '|' && depth === 0) {
      parts.push(current);
      current = '';
    } else current += ch;
  }
  parts.push(current);
  for (const raw of parts) {
    const part = raw.trim();
    const m = /^([a-z_]+)(?:\[(.*)\])?$/s.exec(part);
    if (!m || !(m[1]! in FIELD_RULES)) return { error: `Unknown rule '${part}'.` };
    const name = m[1] as RuleName;
    const arg = m[2];
    const kind = FIELD_RULES[name];
    if (kind === 'none' && arg !== undefined) return { error: `The rule ${name} takes no value.` };
    if (kind === 'int' && !/^\d{1,4}$/.test(arg ?? ''))
      return { error: `The rule ${name} needs a whole number, like ${name}[2].` };
    if (kind === 'field' && !/^[A-Za-z][A-Za-z0-9_]*$/.test(arg ?? ''))
      return { error: `The rule ${name} needs a field name.` };
    if (kind === 'regex') {
      const [pattern, message] = (arg ?? '').split('###');
      if (!pattern || !message)
        return {
          error: 'custom_validation needs a pattern and a message: custom_validation[regex###message].',
        };
      if (pattern.length > PATTERN_MAX_CHARS) return { error: JSON_LIMIT_MESSAGES.patternTooLong };
      try {
        new RegExp(pattern);
      } catch {
        return { error: `The pattern of custom_validation is not a valid regular expression.` };
      }
    }
    rules.push(arg === undefined ? { name } : { name, arg });
  }
  return { rules };
}

const rulesText = z
  .string()
  .trim()
  .max(2000)
  .optional()
  .default('')
  .superRefine((v, ctx) => {
    const r = parseFieldRules(v);
    if ('error' in r) ctx.addIssue({ code: 'custom', message: r.error });
  });

/** Field and data-source names: letters, digits and underscores, starting with a letter. */
const FIELD_NAME_PATTERN = /^[A-Za-z][A-Za-z0-9_]{0,63}$/;
const FIELD_NAME_MESSAGES = {
  customFieldRequired: 'Custom field name is required.',
  customFieldInvalid:
    'Custom field name is invalid: use letters, digits and underscores, starting with a letter.',
  dataSourceInvalid:
    'Data source name is invalid: use letters, digits and underscores, starting with a letter.',
} as const;

export const FIELD_TYPES = [
  'string',
  'multiline',
  'password',
  'email',
  'number',
  'date',
  'checkbox',
  'dropdown',
] as const;

/** POST /admin/custom-field?uid=&appId= */
export const customFieldBody = z
  .object({
    Name: z
      .string({ error: FIELD_NAME_MESSAGES.customFieldRequired })
      .trim()
      .min(1, { error: FIELD_NAME_MESSAGES.customFieldRequired, abort: true })
      .regex(FIELD_NAME_PATTERN, FIELD_NAME_MESSAGES.customFieldInvalid),
    Display: z.string().trim().min(1, 'Display name is required.').max(100),
    Type: z.enum(FIELD_TYPES),
    Rules: rulesText,
    /** For a dropdown: the data source its options come from. */
    DataSource: z.string().trim().optional().default(''),
  })
  .refine((f) => f.Type !== 'dropdown' || f.DataSource !== '', {
    message: 'A dropdown needs a data source.',
    path: ['DataSource'],
  });

const DATA_SOURCE_MAX_ITEMS = 2000;
const DATA_SOURCE_ITEM_MAX_CHARS = 200;

/** POST /admin/custom-registration-data?uid=&appId=: a data source for dropdowns. */
export const dataSourceBody = z.object({
  Name: z
    .string({ error: FIELD_NAME_MESSAGES.dataSourceInvalid })
    .trim()
    .regex(FIELD_NAME_PATTERN, FIELD_NAME_MESSAGES.dataSourceInvalid),
  /** A data source whose chosen item narrows this one (country -> state); '' for none. */
  ParentName: z
    .string()
    .trim()
    .optional()
    .default('')
    .refine((v) => v === '' || FIELD_NAME_PATTERN.test(v), FIELD_NAME_MESSAGES.dataSourceInvalid),
  /** A regular expression every item must match; '' for none. */
  Rules: z
    .string()
    .trim()
    .max(PATTERN_MAX_CHARS, JSON_LIMIT_MESSAGES.patternTooLong)
    .optional()
    .default('')
    .refine((v) => {
      if (v === '') return true;
      try {
        new RegExp(v);
        return true;
      } catch {
        return false;
      }
    }, 'The rule is not a valid regular expression.'),
  Items: z
    .array(
      z.object({
        Value: z.string().trim().min(1).max(DATA_SOURCE_ITEM_MAX_CHARS),
        Text: z.string().trim().min(1).max(DATA_SOURCE_ITEM_MAX_CHARS),
        Parent: z.string().max(DATA_SOURCE_ITEM_MAX_CHARS).optional(),
      }),
    )
    .min(1, 'Add at least one item.')
    .max(DATA_SOURCE_MAX_ITEMS, `A data source may have at most ${DATA_SOURCE_MAX_ITEMS} items.`),
});

export const DEFAULT_FIELD_NAMES = [
  'EmailId',
  'Password',
  'FirstName',
  'LastName',
  'PhoneId',
  'BirthDate',
  'Gender',
  'Company',
] as const;
/** POST /admin/default-fields?uid=&appId= */
export const defaultFieldsBody = z.object({
  Fields: z
    .array(
      z.object({
        Name: z.enum(DEFAULT_FIELD_NAMES),
        Enabled: z.boolean(),
        Rules: rulesText,
      }),
    )
    .min(1),
});

const registrationField = z.object({
  Name: z.string(),
  Display: z.string(),
  Type: z.string(),
  Rules: z.string(),
  DataSource: z.string(),
  Custom: z.boolean(),
  Enabled: z.boolean(),
});
export const activeFieldsResponse = z.object({ Data: z.array(registrationField) });
const dataSource = z.object({
  Name: z.string(),
  ParentName: z.string(),
  Rules: z.string(),
  Items: z.array(z.object({ Value: z.string(), Text: z.string(), Parent: z.string().optional() })),
});
export const dataSourcesResponse = z.object({ Data: z.array(dataSource) });

const integration = z.object({
  Key: z.string(),
  Name: z.string(),
  Category: z.string(),
  Enabled: z.boolean(),
  State: z.string(),
});
export const integrationsResponse = z.object({ Data: z.array(integration) });
/** GET /admin/integrations: the spec's {uId, appId}. */
export const integrationsQuery = z.object({
  uId: z.string().uuid('uId is not a valid customer id.'),
  appId: decimalInteger(z.number().int().positive('appId must be a number.')),
});

export const FIELD_MESSAGES = {
  customFieldSaved: 'Custom field saved.',
  defaultFieldsSaved: 'Settings saved.',
  dataSourceAdded: 'Data source added.',
  fieldExists: 'A field with this name already exists.',
  dataSourceExists: 'A data source with this name already exists.',
  identifierNeeded: 'Keep Email or Phone number enabled: customers sign in with one of them.',
  parentValueMissing: 'These items name a parent value the parent data source does not have',
  parentWithoutSource: 'Items name a parent value, but the data source has no parent data source.',
} as const;
