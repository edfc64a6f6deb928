import type { BodyOf, EndpointId, QueryOf } from '@sac/contract/endpoints';
import { FIELD_MESSAGES } from '@sac/contract/registration-fields';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { insertCustomer, insertSite } from '../../../test/customer-fixtures.ts';
import { createTestApp, type TestApp } from '../../../test/harness.ts';

let t: TestApp;
let s: { xtoken: string; xsign: string };
let uid: string;
let appId: number;
beforeAll(async () => {
  t = await createTestApp();
  await t.addStaff('admin@example.com', ['Admin']);
  s = await t.login('admin@example.com');
  uid = await insertCustomer(t.db, { first: 'Reg', last: 'Fields', email: 'reg@fields.example' });
  appId = (await insertSite(t.db, { owner: uid, name: 'reg-site', features: ['webhooks'] })).appId;
});
afterAll(() => t.close());

const call = <I extends EndpointId>(id: I, body?: BodyOf<I>) =>
  t.call(id, {
    session: s,
    query: { uid, appId: String(appId) } as QueryOf<I>,
    ...(body ? { body } : {}),
  });

describe('registration fields and data sources', () => {
  it('lists the default fields with email and password on', async () => {
    const r = await call('activeCustomFields');
    const email = r.body.Data.find((f: { Name: string }) => f.Name === 'EmailId');
    expect(email).toMatchObject({ Enabled: true, Rules: 'required|valid_email', Custom: false });
  });

  it('checks rules in the pipe form when saved', async () => {
    const bad = (Rules: string) =>
      call('addCustomField', { Name: 'loyalty_id', Display: 'Loyalty', Type: 'string', Rules });
    expect((await bad('required|min_length[x]')).error.Description).toBe(
      'The rule min_length needs a whole number, like min_length[2].',
    );
    expect((await bad('required|shiny')).error.Description).toBe("Unknown rule 'shiny'.");
    expect((await bad('custom_validation[^[A-Z]{2}\\\\d+$]')).error.Description).toContain(
      'custom_validation needs a pattern and a message',
    );
    expect((await bad('custom_validation[([###Broken]')).error.Description).toContain(
      'not a valid regular expression',
    );
    const ok = await bad(
      'required|min_length[2]|custom_validation[^[A-Z]{2}\\d+$###Two letters then digits]',
    );
    expect(ok.status).toBe(200);
    expect(ok.body.Message).toBe('Custom field saved.');
    expect(ok.body.Data.find((f: { Name: string }) => f.Name === 'loyalty_id')).toMatchObject({
      Custom: true,
      Type: 'string',
    });
    expect((await bad('required')).error.ErrorCode).toBe(963);
  });

  it('refuses invalid names in plain words', async () => {
    const r = await call('addCustomField', { Name: '9lives', Display: 'X', Type: 'string' });
    expect(r.error.Description).toBe(
      'Custom field name is invalid: use letters, digits and underscores, starting with a letter.',
    );
    const empty = await call('addCustomField', { Name: '', Display: 'X', Type: 'string' });
    expect(empty.error.Description).toBe('Custom field name is required.');
    const ds = await call('addDataSource', {
      Name: 'bad name',
      Items: [{ Value: 'a', Text: 'A' }],
    });
    expect(ds.error.Description).toBe(
      'Data source name is invalid: use letters, digits and underscores, starting with a letter.',
    );
  });

  it('adds data sources with a parent and an item rule, and dropdowns that use them', async () => {
    const country = await call('addDataSource', {
      Name: 'country',
      Rules: '^[A-Z]{2}$',
      Items: [
        { Value: 'GB', Text: 'United Kingdom' },
        { Value: 'IN', Text: 'India' },
      ],
    });
    expect(country.body.Message).toBe('Data source added.');
    const badItem = await call('addDataSource', {
      Name: 'region',
      Rules: '^[A-Z]{2}$',
      Items: [{ Value: 'gb', Text: 'x' }],
    });
    expect(badItem.error.Description).toBe('These items do not match the rule: gb.');
    const noParent = await call('addDataSource', {
      Name: 'state',
      ParentName: 'nowhere',
      Items: [{ Value: 'KA', Text: 'K' }],
    });
    expect(noParent.error.Description).toBe('There is no data source nowhere.');
    const state = await call('addDataSource', {
      Name: 'state',
      ParentName: 'country',
      Items: [{ Value: 'KA', Text: 'Karnataka', Parent: 'IN' }],
    });
    expect(state.body.Data.map((d: { Name: string }) => d.Name)).toEqual(['country', 'state']);
    const dropdown = await call('addCustomField', {
      Name: 'home_country',
      Display: 'Country',
      Type: 'dropdown',
      DataSource: 'country',
    });
    expect(dropdown.status).toBe(200);
    const noSource = await call('addCustomField', {
      Name: 'x_drop',
      Display: 'X',
      Type: 'dropdown',
    });
    expect(noSource.error.Description).toBe('A dropdown needs a data source.');
  });

  it('saves the default fields', async () => {
    const r = await call('saveDefaultFields', {
      Fields: [{ Name: 'PhoneId', Enabled: true, Rules: 'required|numeric|exact_length[10]' }],
    });
    expect(r.body.Message).toBe('Settings saved.');
    expect(r.body.Data.find((f: { Name: string }) => f.Name === 'PhoneId')).toMatchObject({
      Enabled: true,
      Rules: 'required|numeric|exact_length[10]',
    });
  });

  it('refuses child items naming a parent value the parent does not have, and parents on a source without one', async () => {
    const missing = await call('addDataSource', {
      Name: 'province',
      ParentName: 'country',
      Items: [
        { Value: 'ON', Text: 'Ontario', Parent: 'CA' },
        { Value: 'KA', Text: 'Karnataka', Parent: 'IN' },
      ],
    });
    expect(missing.status).toBe(400);
    expect(missing.error.Description).toBe(`${FIELD_MESSAGES.parentValueMissing}: CA.`);
    const orphan = await call('addDataSource', {
      Name: 'colour',
      Items: [{ Value: 'red', Text: 'Red', Parent: 'GB' }],
    });
    expect(orphan.error.Description).toBe(FIELD_MESSAGES.parentWithoutSource);
    const list = await call('customRegistrationDataList');
    expect(list.body.Data.map((d: { Name: string }) => d.Name)).not.toContain('province');
  });

  it('keeps email or phone enabled: a save that would turn off both is refused and changes nothing', async () => {
    const save = (Fields: BodyOf<'saveDefaultFields'>['Fields']) =>
      call('saveDefaultFields', { Fields: Fields.map((f) => ({ Rules: '', ...f })) });
    const both = await save([
      { Name: 'EmailId', Enabled: false },
      { Name: 'PhoneId', Enabled: false },
    ]);
    expect(both.status).toBe(400);
    expect(both.error.Description).toBe(FIELD_MESSAGES.identifierNeeded);
    // phone is on (the test above): email may go off; then phone may not
    expect((await save([{ Name: 'EmailId', Enabled: false, Rules: 'required|valid_email' }])).status).toBe(
      200,
    );
    const last = await save([{ Name: 'PhoneId', Enabled: false }]);
    expect(last.error.Description).toBe(FIELD_MESSAGES.identifierNeeded);
    const fields = (await call('activeCustomFields')).body.Data;
    expect(fields.find((f: { Name: string }) => f.Name === 'PhoneId')!.Enabled).toBe(true);
    expect((await save([{ Name: 'EmailId', Enabled: true, Rules: 'required|valid_email' }])).status).toBe(
      200,
    );
  });

  it('lists the integrations and their state', async () => {
    const r = await t.call('integrations', {
      session: s,
      query: { uId: uid, appId: String(appId) },
    });
    expect(r.body.Data.find((i: { Key: string }) => i.Key === 'webhooks')).toMatchObject({
      Enabled: true,
      State: 'Active',
    });
    expect(r.body.Data.find((i: { Key: string }) => i.Key === 'salesforce')).toMatchObject({
      Enabled: false,
      State: 'Not connected',
    });
  });
});
