import { DEFAULT_FIELD_NAMES, FIELD_MESSAGES, parseFieldRules } from '@sac/contract/registration-fields';
import type { AppContext } from '../../app-context.ts';
import { isUniqueViolation } from '../../db/db.ts';
import { recordVersion } from '../../db/record-versions.repo.ts';
import { AppError } from '../../lib/app-error.ts';
import type { StaffCall } from '../../lib/endpoint-route.ts';
import { Versioned } from '../../lib/record-version.ts';
import { unsafePatternReason } from '../../user-input/safe-pattern.mjs';
import { ownedSite, type SiteInput, siteWrite } from '../customers/sites.service.ts';
import * as repo from './registration-fields.repo.ts';

/** The default fields before a site configures them: email and password on, the rest off. */
const DEFAULTS: Record<
  (typeof DEFAULT_FIELD_NAMES)[number],
  { display: string; type: string; rules: string; enabled: boolean }
> = {
  EmailId: { display: 'Email', type: 'email', rules: 'required|valid_email', enabled: true },
  Password: { display: 'Password', type: 'password', rules: 'required|min_length[8]', enabled: true },
  FirstName: { display: 'First name', type: 'string', rules: '', enabled: false },
  LastName: { display: 'Last name', type: 'string', rules: '', enabled: false },
  PhoneId: { display: 'Phone number', type: 'string', rules: 'numeric|exact_length[10]', enabled: false },
  BirthDate: { display: 'Birth date', type: 'date', rules: '', enabled: false },
  Gender: { display: 'Gender', type: 'string', rules: '', enabled: false },
  Company: { display: 'Company', type: 'string', rules: '', enabled: false },
};

/** The record whose version guards a site's default fields (0 until first saved). */
const defaultFieldsRecord = (appId: number) => `site:${appId}:default-fields`;

/** The fields with the version of the default fields, which their form saves with (If-Match). */
export async function activeFields(ctx: AppContext, uid: string, appId: number) {
  await ownedSite(ctx.db, uid, appId);
  const rows = await repo.fieldsOfSite(ctx.db, appId);
  const stored = new Map(rows.map((f) => [f.name, f]));
  const defaults = DEFAULT_FIELD_NAMES.map((name) => {
    const s = stored.get(name);
    const d = DEFAULTS[name];
    return {
      Name: name,
      Display: s?.display ?? d.display,
      Type: s?.type ?? d.type,
      Rules: s?.rules ?? d.rules,
      DataSource: '',
      Custom: false,
      Enabled: s?.enabled ?? d.enabled,
    };
  });
  const custom = rows
    .filter((f) => f.custom)
    .sort((a, b) => a.name.localeCompare(b.name))
    .map((f) => ({
      Name: f.name,
      Display: f.display,
      Type: f.type,
      Rules: f.rules,
      DataSource: f.data_source,
      Custom: true,
      Enabled: f.enabled,
    }));
  return new Versioned(
    { Data: [...defaults, ...custom] },
    await recordVersion(ctx.db, defaultFieldsRecord(appId)),
  );
}

/**
 * A field's custom_validation patterns must compile on the safe engine, which is what a site would
 * run them on; compiling one is linear in its (bounded) length, so it happens here.
 */
function assertSafeRules(rules: string, field: string) {
  const parsed = parseFieldRules(rules);
  if ('error' in parsed) return; // the contract's schema has answered that already
  for (const r of parsed.rules) {
    if (r.name !== 'custom_validation') continue;
    const reason = unsafePatternReason((r.arg ?? '').split('###')[0] ?? '');
    if (reason) throw new AppError('validation', reason, [{ Field: field, Message: reason }]);
  }
}

const noDataSource = (field: string, name: string) =>
  new AppError('validation', `There is no data source ${name}.`, [
    { Field: field, Message: `There is no data source ${name}.` },
  ]);

export async function addCustomField(
  ctx: AppContext,
  call: StaffCall,
  input: SiteInput & { Name: string; Display: string; Type: string; Rules: string; DataSource: string },
) {
  assertSafeRules(input.Rules, 'Rules');
  if ((DEFAULT_FIELD_NAMES as readonly string[]).includes(input.Name))
    throw new AppError('fieldExists', FIELD_MESSAGES.fieldExists);
  try {
    await siteWrite(ctx, call, input, {
      action: 'site.fields',
      change: async (tx) => {
        if (input.DataSource && !(await repo.dataSourceExists(tx, input.appId, input.DataSource)))
          throw noDataSource('DataSource', input.DataSource);
        const { Name: name, Display: display, Type: type, Rules: rules, DataSource: dataSource } = input;
        await repo.insertCustomField(
          tx,
          input.appId,
          { name, display, type, rules, dataSource },
          ctx.clock.now(),
        );
      },
      details: () => ({ added: input.Name }),
    });
  } catch (e) {
    if (isUniqueViolation(e)) throw new AppError('fieldExists', FIELD_MESSAGES.fieldExists);
    throw e;
  }
  const read = await activeFields(ctx, input.uid, input.appId);
  return new Versioned({ ...read.body, Message: FIELD_MESSAGES.customFieldSaved }, read.version);
}

export async function saveDefaultFields(
  ctx: AppContext,
  call: StaffCall,
  input: SiteInput & {
    Fields: Array<{ Name: (typeof DEFAULT_FIELD_NAMES)[number]; Enabled: boolean; Rules: string }>;
  },
) {
  const fields = input.Fields;
  for (const f of fields) assertSafeRules(f.Rules, `${f.Name}.Rules`);
  const now = ctx.clock.now();
  await siteWrite(ctx, call, input, {
    action: 'site.fields',
    record: defaultFieldsRecord(input.appId),
    change: async (tx) => {
      for (const f of fields) {
        const d = DEFAULTS[f.Name];
        await repo.saveDefaultField(
          tx,
          input.appId,
          { name: f.Name, display: d.display, type: d.type, rules: f.Rules, enabled: f.Enabled },
          now,
        );
      }
      // What the site has after this save (stored or default) must still let customers sign in.
      const stored = new Map((await repo.fieldsOfSite(tx, input.appId)).map((f) => [f.name, f.enabled]));
      const enabled = (name: 'EmailId' | 'PhoneId') => stored.get(name) ?? DEFAULTS[name].enabled;
      if (!enabled('EmailId') && !enabled('PhoneId')) {
        throw new AppError('validation', FIELD_MESSAGES.identifierNeeded, [
          { Field: 'Fields', Message: FIELD_MESSAGES.identifierNeeded },
        ]);
      }
    },
    details: () => ({ defaults: fields.map((f) => `${f.Name}:${f.Enabled ? 'on' : 'off'}`) }),
  });
  const read = await activeFields(ctx, input.uid, input.appId);
  return new Versioned({ ...read.body, Message: FIELD_MESSAGES.defaultFieldsSaved }, read.version);
}

export async function dataSources(ctx: AppContext, uid: string, appId: number) {
  await ownedSite(ctx.db, uid, appId);
  const rows = await repo.dataSourcesOfSite(ctx.db, appId);
  return {
    Data: rows.map((d) => ({ Name: d.name, ParentName: d.parent_name, Rules: d.rules, Items: d.items })),
  };
}

export async function addDataSource(
  ctx: AppContext,
  call: StaffCall,
  input: SiteInput & {
    Name: string;
    ParentName: string;
    Rules: string;
    Items: Array<{ Value: string; Text: string; Parent?: string | undefined }>;
  },
) {
  const d = input;
  // A child's items each name a value of the parent data source; a source without a parent, none.
  const parents = d.Items.map((i) => i.Parent?.trim() ?? '').filter((p) => p !== '');
  if (!d.ParentName && parents.length) {
    throw new AppError('validation', FIELD_MESSAGES.parentWithoutSource, [
      { Field: 'Items', Message: FIELD_MESSAGES.parentWithoutSource },
    ]);
  }
  // The rule is matched in the sandbox before the write, which holds no lock while it runs.
  if (d.Rules) {
    const r = await ctx.sandbox.run('match', { pattern: d.Rules, values: d.Items.map((i) => i.Value) });
    if ('error' in r) throw new AppError('validation', r.error, [{ Field: 'Rules', Message: r.error }]);
    const bad = r.unmatched;
    if (bad.length) {
      const message = `These items do not match the rule: ${bad.join(', ')}.`;
      throw new AppError('validation', message, [{ Field: 'Items', Message: message }]);
    }
  }
  try {
    await siteWrite(ctx, call, input, {
      action: 'site.datasource',
      change: async (tx) => {
        if (d.ParentName) {
          if (!(await repo.dataSourceExists(tx, d.appId, d.ParentName)))
            throw noDataSource('ParentName', d.ParentName);
          const values = new Set(await repo.dataSourceValues(tx, d.appId, d.ParentName));
          const missing = [...new Set(parents.filter((p) => !values.has(p)))];
          if (missing.length) {
            const message = `${FIELD_MESSAGES.parentValueMissing}: ${missing.slice(0, 20).join(', ')}.`;
            throw new AppError('validation', message, [{ Field: 'Items', Message: message }]);
          }
        }
        const row = { name: d.Name, parentName: d.ParentName, rules: d.Rules, items: d.Items };
        await repo.insertDataSource(tx, d.appId, row, ctx.clock.now());
      },
      details: () => ({ added: d.Name, items: d.Items.length }),
    });
  } catch (e) {
    if (isUniqueViolation(e)) throw new AppError('fieldExists', FIELD_MESSAGES.dataSourceExists);
    throw e;
  }
  return { ...(await dataSources(ctx, d.uid, d.appId)), Message: FIELD_MESSAGES.dataSourceAdded };
}

/**
 * The integrations a site can use, with their state: webhooks follow the site's feature; the
 * connectors are listed as not connected until a customer connects them in their own console.
 */
const CATALOGUE = [
  { Key: 'webhooks', Name: 'Webhooks', Category: 'Events', feature: 'webhooks' },
  { Key: 'analytics', Name: 'Analytics export', Category: 'Analytics', feature: 'analytics' },
  { Key: 'audit-log-stream', Name: 'Audit log streaming', Category: 'Security', feature: 'audit-log' },
  { Key: 'salesforce', Name: 'Salesforce', Category: 'CRM' },
  { Key: 'mailchimp', Name: 'Mailchimp', Category: 'Marketing' },
  { Key: 'zendesk', Name: 'Zendesk', Category: 'Support' },
  { Key: 'segment', Name: 'Segment', Category: 'Customer data' },
] as const;

export async function integrations(ctx: AppContext, uid: string, appId: number) {
  const site = await ownedSite(ctx.db, uid, appId);
  return {
    Data: CATALOGUE.map((c) => {
      const feature = 'feature' in c ? c.feature : undefined;
      const enabled = feature ? site.features.includes(feature) : false;
      return {
        Key: c.Key,
        Name: c.Name,
        Category: c.Category,
        Enabled: enabled,
        State: feature ? (enabled ? 'Active' : 'Not in the site’s features') : 'Not connected',
      };
    }),
  };
}
