import { describe, expect, it } from 'vitest';
import {
  addSiteBody,
  createCustomerBody,
  DB_NAME_MESSAGE,
  siteDataCenterBody,
  siteFeaturesBody,
  updateCustomerProfileBody,
} from './customer-writes.ts';
import {
  criterionOf,
  escapeLike,
  planStatusText,
  SEARCH_MESSAGES,
  searchCustomerQuery,
} from './customers.ts';
import { MESSAGES } from './messages.ts';

describe('search query', () => {
  it('takes exactly one filled criterion, trimmed', () => {
    expect(criterionOf(searchCustomerQuery.parse({ customerName: '  ada ' }))).toEqual({
      criterion: 'customerName',
      term: 'ada',
    });
    expect(criterionOf(searchCustomerQuery.parse({ emailid: 'a@', customerName: '' }))).toEqual({
      criterion: 'emailid',
      term: 'a@',
    });
    expect(
      searchCustomerQuery.safeParse({ customerName: 'a', sitename: 'b' }).error?.issues[0]?.message,
    ).toBe(SEARCH_MESSAGES.oneCriterion);
    expect(searchCustomerQuery.safeParse({}).error?.issues[0]?.message).toBe(SEARCH_MESSAGES.noCriterion);
    expect(searchCustomerQuery.safeParse({ apikey: '   ' }).error?.issues[0]?.message).toBe(
      SEARCH_MESSAGES.noCriterion,
    );
  });

  it('escapes LIKE metacharacters', () => {
    expect(escapeLike('100%_a\\b')).toBe('100\\%\\_a\\\\b');
    expect(escapeLike('plain+text')).toBe('plain+text');
  });
});

describe('planStatusText', () => {
  const now = new Date('2026-03-01T12:00:00Z');
  it('says trial active till, trial expired on, or subscribed', () => {
    expect(planStatusText('Trial', '2026-03-15T00:00:00Z', now)).toBe('Trial active till 03-15-2026');
    expect(planStatusText('Trial', '2026-02-10T00:00:00Z', now)).toBe('Trial expired on 02-10-2026');
    expect(planStatusText('Subscribed', null, now)).toBe('Subscribed');
  });
});

describe('customer write schemas', () => {
  const base = { firstname: 'A', lastname: 'B', email: 'a@b.co', appname: 'my-site' };
  it('create: the spec phone and email rules, site name rule, optional fields default', () => {
    expect(createCustomerBody.parse(base)).toMatchObject({
      organization: '',
      phone: '',
      timezone: 'Etc/GMT',
      appname: 'my-site',
    });
    expect(createCustomerBody.safeParse({ ...base, phone: '12345abcde' }).error?.issues[0]?.message).toBe(
      MESSAGES.phoneNotNumber,
    );
    expect(createCustomerBody.safeParse({ ...base, phone: '123' }).error?.issues[0]?.message).toBe(
      MESSAGES.phoneLength,
    );
    expect(createCustomerBody.safeParse({ ...base, email: '' }).error?.issues[0]?.message).toBe(
      MESSAGES.emailRequired,
    );
    expect(createCustomerBody.parse({ ...base, appname: ' My-Site ' }).appname).toBe('my-site');
    expect(addSiteBody.safeParse({ appname: '-bad' }).success).toBe(false);
  });

  it('features: a set or a site, not both and not neither', () => {
    expect(siteFeaturesBody.safeParse({ FeatureSet: 'Free' }).success).toBe(true);
    expect(siteFeaturesBody.safeParse({ FromAppId: 4 }).success).toBe(true);
    expect(siteFeaturesBody.safeParse({ FeatureSet: 'Free', FromAppId: 4 }).success).toBe(false);
    expect(siteFeaturesBody.safeParse({}).success).toBe(false);
  });

  it('data center: the database messages of spec section 5', () => {
    const noName = siteDataCenterBody.safeParse({ Source: 'global-server', GlobalServer: 'x', DbName: ' ' });
    expect(noName.error?.issues[0]?.message).toBe(MESSAGES.databaseNameRequired);
    const noConn = siteDataCenterBody.safeParse({
      Source: 'custom-database',
      DataCenter: 'x',
      DbName: 'd',
      ConnectionString: '',
    });
    expect(noConn.error?.issues[0]?.message).toBe(MESSAGES.connectionStringRequired);
  });

  it.each(['my db; DROP TABLE x', 'shop-db', 'naïve', 'a'.repeat(64)])(
    'data center: refuses the database name %j (an identifier)',
    (DbName) => {
      const r = siteDataCenterBody.safeParse({ Source: 'global-server', GlobalServer: 'x', DbName });
      expect(r.error?.issues[0]?.message).toBe(DB_NAME_MESSAGE);
    },
  );

  it.each(['shop_db', 'Shop_DB_2', '3d_shop_db', 'a'.repeat(63)])('data center: accepts %j', (DbName) => {
    expect(siteDataCenterBody.safeParse({ Source: 'global-server', GlobalServer: 'x', DbName }).success).toBe(
      true,
    );
  });

  it('profile: phone optional but 10 digits when given; contact email optional but valid', () => {
    const data = { FirstName: 'A', LastName: 'B', Email: 'a@b.co', TimeZone: 'Etc/GMT' };
    expect(updateCustomerProfileBody.safeParse({ data }).success).toBe(true);
    expect(
      updateCustomerProfileBody.safeParse({ data: { ...data, PhoneNumber: '12' } }).error?.issues[0]?.message,
    ).toBe(MESSAGES.phoneLength);
    expect(
      updateCustomerProfileBody.safeParse({ data: { ...data, ContactEmail: 'x' } }).error?.issues[0]?.message,
    ).toBe(MESSAGES.emailInvalid);
  });
});

describe('time zones', () => {
  it('come from the reference list', () => {
    const base = { firstname: 'A', lastname: 'B', email: 'a@b.co', appname: 'my-site' };
    expect(createCustomerBody.parse(base).timezone).toBe('Etc/GMT');
    expect(
      createCustomerBody.safeParse({ ...base, timezone: 'Mars/Olympus' }).error?.issues[0]?.message,
    ).toBe('Please choose a time zone from the list.');
    expect(createCustomerBody.parse({ ...base, timezone: 'Europe/Paris' }).timezone).toBe('Europe/Paris');
  });
});

describe('an unchosen time zone', () => {
  it('means the UTC entry', () => {
    const base = { firstname: 'A', lastname: 'B', email: 'a@b.co', appname: 'my-site' };
    expect(createCustomerBody.parse({ ...base, timezone: '' }).timezone).toBe('Etc/GMT');
  });
});
