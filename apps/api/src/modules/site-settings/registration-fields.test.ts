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

const call = (method: 'GET' | 'POST', url: string, payload?: Record<string, unknown>) =>
  t.inject({
    method,
    url,
    session: s,
    query: { uid, appId: String(appId) },
    ...(payload ? { payload } : {}),
  });

describe('registration fields and data sources', () => {
  it('lists the default fields with email and password on', async () => {
    const r = await call('GET', '/admin/active-custom-fields');
    const email = r.json().Data.find((f: { Name: string }) => f.Name === 'EmailId');
    expect(email).toMatchObject({ Enabled: true, Rules: 'required|valid_email', Custom: false });
  });

  it('checks rules in the pipe form when saved', async () => {
    const bad = (Rules: string) =>
      call('POST', '/admin/custom-field', { Name: 'loyalty_id', Display: 'Loyalty', Type: 'string', Rules });
    expect((await bad('required|min_length[x]')).json().Description).toBe(
      'The rule min_length needs a whole number, like min_length[2].',
    );
    expect((await bad('required|shiny')).json().Description).toBe("Unknown rule 'shiny'.");
    expect((await bad('custom_validation[^[A-Z]{2}\\\\d+$]')).json().Description).toContain(
      'custom_validation needs a pattern and a message',
    );
    expect((await bad('custom_validation[([###Broken]')).json().Description).toContain(
      'not a valid regular expression',
    );
    const ok = await bad(
      'required|min_length[2]|custom_validation[^[A-Z]{2}\\d+$###Two letters then digits]',
    );
    expect(ok.statusCode).toBe(200);
    expect(ok.json().Message).toBe('Custom field saved.');
    expect(ok.json().Data.find((f: { Name: string }) => f.Name === 'loyalty_id')).toMatchObject({
      Custom: true,
      Type: 'string',
    });
    expect((await bad('required')).json().ErrorCode).toBe(963);
  });

  it('refuses invalid names in plain words', async () => {
    const r = await call('POST', '/admin/custom-field', { Name: '9lives', Display: 'X', Type: 'string' });
    expect(r.json().Description).toBe(
      'Custom field name is invalid: use letters, digits and underscores, starting with a letter.',
    );
    const empty = await call('POST', '/admin/custom-field', { Name: '', Display: 'X', Type: 'string' });
    expect(empty.json().Description).toBe('Custom field name is required.');
    const ds = await call('POST', '/admin/custom-registration-data', {
      Name: 'bad name',
      Items: [{ Value: 'a', Text: 'A' }],
    });
    expect(ds.json().Description).toBe(
      'Data source name is invalid: use letters, digits and underscores, starting with a letter.',
    );
  });

  it('adds data sources with a parent and an item rule, and dropdowns that use them', async () => {
    const country = await call('POST', '/admin/custom-registration-data', {
      Name: 'country',
      Rules: '^[A-Z]{2}$',
      Items: [
        { Value: 'GB', Text: 'United Kingdom' },
        { Value: 'IN', Text: 'India' },
      ],
    });
    expect(country.json().Message).toBe('Data source added.');
    const badItem = await call('POST', '/admin/custom-registration-data', {
      Name: 'region',
      Rules: '^[A-Z]{2}$',
      Items: [{ Value: 'gb', Text: 'x' }],
    });
    expect(badItem.json().Description).toBe('These items do not match the rule: gb.');
    const noParent = await call('POST', '/admin/custom-registration-data', {
      Name: 'state',
      ParentName: 'nowhere',
      Items: [{ Value: 'KA', Text: 'K' }],
    });
    expect(noParent.json().Description).toBe('There is no data source nowhere.');
    const state = await call('POST', '/admin/custom-registration-data', {
      Name: 'state',
      ParentName: 'country',
      Items: [{ Value: 'KA', Text: 'Karnataka', Parent: 'IN' }],
    });
    expect(state.json().Data.map((d: { Name: string }) => d.Name)).toEqual(['country', 'state']);
    const dropdown = await call('POST', '/admin/custom-field', {
      Name: 'home_country',
      Display: 'Country',
      Type: 'dropdown',
      DataSource: 'country',
    });
    expect(dropdown.statusCode).toBe(200);
    const noSource = await call('POST', '/admin/custom-field', {
      Name: 'x_drop',
      Display: 'X',
      Type: 'dropdown',
    });
    expect(noSource.json().Description).toBe('A dropdown needs a data source.');
  });

  it('saves the default fields', async () => {
    const r = await call('POST', '/admin/default-fields', {
      Fields: [{ Name: 'PhoneId', Enabled: true, Rules: 'required|numeric|exact_length[10]' }],
    });
    expect(r.json().Message).toBe('Settings saved.');
    expect(r.json().Data.find((f: { Name: string }) => f.Name === 'PhoneId')).toMatchObject({
      Enabled: true,
      Rules: 'required|numeric|exact_length[10]',
    });
  });

  it('refuses child items naming a parent value the parent does not have, and parents on a source without one', async () => {
    const missing = await call('POST', '/admin/custom-registration-data', {
      Name: 'province',
      ParentName: 'country',
      Items: [
        { Value: 'ON', Text: 'Ontario', Parent: 'CA' },
        { Value: 'KA', Text: 'Karnataka', Parent: 'IN' },
      ],
    });
    expect(missing.statusCode).toBe(400);
    expect(missing.json().Description).toBe(`${FIELD_MESSAGES.parentValueMissing}: CA.`);
    const orphan = await call('POST', '/admin/custom-registration-data', {
      Name: 'colour',
      Items: [{ Value: 'red', Text: 'Red', Parent: 'GB' }],
    });
    expect(orphan.json().Description).toBe(FIELD_MESSAGES.parentWithoutSource);
    const list = await call('GET', '/admin/custom-registration-data-list');
    expect(list.json().Data.map((d: { Name: string }) => d.Name)).not.toContain('province');
  });

  it('keeps email or phone enabled: a save that would turn off both is refused and changes nothing', async () => {
    const save = (Fields: Array<{ Name: string; Enabled: boolean; Rules?: string }>) =>
      call('POST', '/admin/default-fields', { Fields: Fields.map((f) => ({ Rules: '', ...f })) });
    const both = await save([
      { Name: 'EmailId', Enabled: false },
      { Name: 'PhoneId', Enabled: false },
    ]);
    expect(both.statusCode).toBe(400);
    expect(both.json().Description).toBe(FIELD_MESSAGES.identifierNeeded);
    // phone is on (the test above): email may go off; then phone may not
    expect(
      (await save([{ Name: 'EmailId', Enabled: false, Rules: 'required|valid_email' }])).statusCode,
    ).toBe(200);
    const last = await save([{ Name: 'PhoneId', Enabled: false }]);
    expect(last.json().Description).toBe(FIELD_MESSAGES.identifierNeeded);
    const fields = (await call('GET', '/admin/active-custom-fields')).json().Data;
    expect(fields.find((f: { Name: string }) => f.Name === 'PhoneId').Enabled).toBe(true);
    expect((await save([{ Name: 'EmailId', Enabled: true, Rules: 'required|valid_email' }])).statusCode).toBe(
      200,
    );
  });

  it('lists the integrations and their state', async () => {
    const r = await t.inject({
      method: 'GET',
      url: '/admin/integrations',
      session: s,
      query: { uId: uid, appId: String(appId) },
    });
    expect(r.json().Data.find((i: { Key: string }) => i.Key === 'webhooks')).toMatchObject({
      Enabled: true,
      State: 'Active',
    });
    expect(r.json().Data.find((i: { Key: string }) => i.Key === 'salesforce')).toMatchObject({
      Enabled: false,
      State: 'Not connected',
    });
  });
});
